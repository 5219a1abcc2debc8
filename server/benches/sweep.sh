#!/usr/bin/env bash
# The sweep (issue 45): checks registry crates as their authors would, every public
# function of the library a root, each in its own checkout, and prints one markdown
# table row a crate: exit status, wall time, peak memory, roots, functions checked,
# findings, errors, internal errors. See SWEEP.md beside this file.
#
#   server/benches/sweep.sh                      # every crate of sweep-crates.lock
#   server/benches/sweep.sh arrayvec log         # only these (names in the list)
#   server/benches/sweep.sh my-list.txt [NAMES]  # another list: `name version` lines
#
# Environment:
#   NOALLOC_LS     the checker (default: $CARGO_TARGET_DIR/release/noalloc-ls, else
#                  .../debug/noalloc-ls; CARGO_TARGET_DIR defaults to
#                  ~/.cache/noalloc-target)
#   SWEEP_TIMEOUT  seconds one crate's check may take (default 600)
#   SWEEP_MAX_MIB  resident memory one crate's check may take, its cargo and
#                  proc-macro children included (default 8192; 0: no limit); past it
#                  the check is killed and the row says so
#   SWEEP_DIR      scratch directory: checkouts and logs (default: a new mktemp -d,
#                  kept afterwards)
#   SWEEP_TOP      how many of the slowest crate's roots to list (default 10)
#   SWEEP_ARGS     more arguments for the checker (word-split), e.g. "--strict-panics"
#
# Exit status 0 when no crate made the checker panic (101), abort (134, a stack
# overflow among others), die by another signal, run out of time, report an internal
# error or end without its summary line, and every crate could be fetched; 1
# otherwise. Findings (the checker's exit 1) are fine.
set -euo pipefail

# Everything is in main, called on the last line: bash has read the whole file before
# it runs any of it, so editing the script while a sweep runs cannot derail that sweep.
main() {

here=$(cd "$(dirname "$0")" && pwd)
helper=$here/sweep.py

list=$here/sweep-crates.lock
if [[ $# -gt 0 && -f $1 ]]; then
    list=$1
    shift
fi
only=("$@")

target=${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}
if [[ -z ${NOALLOC_LS:-} ]]; then
    if [[ -x $target/release/noalloc-ls ]]; then
        NOALLOC_LS=$target/release/noalloc-ls
    else
        NOALLOC_LS=$target/debug/noalloc-ls
    fi
fi
if [[ ! -x $NOALLOC_LS ]]; then
    echo "sweep: no checker at $NOALLOC_LS (build it, or set NOALLOC_LS)" >&2
    exit 2
fi
NOALLOC_LS=$(cd "$(dirname "$NOALLOC_LS")" && pwd)/$(basename "$NOALLOC_LS")
timeout_s=${SWEEP_TIMEOUT:-600}
max_mib=${SWEEP_MAX_MIB:-8192}
top=${SWEEP_TOP:-10}
read -r -a extra_args <<<"${SWEEP_ARGS:-}"

if [[ ! -x /usr/bin/time ]]; then
    echo "sweep: /usr/bin/time is missing (apt-get install time)" >&2
    exit 2
fi

# The crates: `name version` lines, `#` comments.
names=()
versions=()
while read -r name version _; do
    [[ -z $name || $name == \#* ]] && continue
    if [[ -z $version ]]; then
        echo "sweep: $list: no version for $name" >&2
        exit 2
    fi
    if ((${#only[@]})); then
        wanted=0
        for w in "${only[@]}"; do [[ $w == "$name" ]] && wanted=1; done
        ((wanted)) || continue
    fi
    names+=("$name")
    versions+=("$version")
done <"$list"
for w in "${only[@]}"; do
    found=0
    for name in "${names[@]}"; do [[ $w == "$name" ]] && found=1; done
    if ((!found)); then
        echo "sweep: $w is not in $list" >&2
        exit 2
    fi
done
if ((${#names[@]} == 0)); then
    echo "sweep: no crates in $list" >&2
    exit 2
fi

dir=${SWEEP_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/noalloc-sweep.XXXXXX")}
mkdir -p "$dir/logs" "$dir/crates" "$dir/fetch"
dir=$(cd "$dir" && pwd)
results=$dir/results.jsonl
: >"$results"
registry_src=${CARGO_HOME:-$HOME/.cargo}/registry/src

# The checks run cargo (metadata, build scripts) in each checkout: its own target
# directory, as its author has it, not the one the checker was built in.
unset CARGO_TARGET_DIR
export CARGO_TERM_COLOR=never

echo "sweep: ${#names[@]} crates, checker $NOALLOC_LS, timeout ${timeout_s} s, memory limit ${max_mib} MiB, logs in $dir/logs" >&2
echo "sweep: checker built $(date -u -r "$NOALLOC_LS" '+%Y-%m-%d %H:%M UTC'), says: $("$NOALLOC_LS" --version 2>/dev/null | head -n 1 || true)" >&2

# Kills the check run by /usr/bin/time (pid $1) when the resident memory of its
# process group (timeout(1) makes one: the checker, its cargo and proc-macro
# children) passes $2 MiB, and leaves a note in $3.
watch_memory() {
    local run=$1 max_kib=$(($2 * 1024)) note=$3 group pids kib
    while kill -0 "$run" 2>/dev/null; do
        group=$(pgrep -P "$run" | head -n 1 || true)
        if [[ -n $group ]]; then
            pids=$(pgrep -g "$group" | paste -sd, -)
            [[ -n $pids ]] || break
            kib=$(ps -o rss= -p "$pids" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
            if ((kib > max_kib)); then
                echo "$kib KiB resident, over $max_kib" >"$note"
                kill -KILL -- "-$group" 2>/dev/null || true
                return 0
            fi
        fi
        sleep 1
    done
}

# Fetches name-version from crates.io through a throwaway project, copies the
# registry's source to $dir/crates/name-version, makes it its own workspace with a
# lock file. Prints the checkout's path.
checkout() {
    local name=$1 version=$2 log=$3
    local fetch=$dir/fetch/$name-$version
    local src=$dir/crates/$name-$version
    mkdir -p "$fetch/src"
    : >"$fetch/src/lib.rs"
    cat >"$fetch/Cargo.toml" <<TOML
[package]
name = "noalloc-sweep-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
$name = "=$version"
TOML
    (cd "$fetch" && cargo fetch) >>"$log" 2>&1 || return 1
    local from=""
    for d in "$registry_src"/*/"$name-$version"; do
        [[ -d $d ]] && from=$d && break
    done
    if [[ -z $from ]]; then
        echo "no $name-$version under $registry_src after cargo fetch" >>"$log"
        return 1
    fi
    rm -rf "$src"
    cp -R "$from" "$src"
    chmod -R u+w "$src"
    # A workspace of its own, whatever directory the scratch is in.
    if ! grep -q '^\[workspace\]' "$src/Cargo.toml"; then
        printf '\n[workspace]\n' >>"$src/Cargo.toml"
    fi
    if [[ ! -f $src/Cargo.lock ]]; then
        (cd "$src" && cargo generate-lockfile) >>"$log" 2>&1 || return 1
    fi
    echo "$src"
}

python3 "$helper" header
for i in "${!names[@]}"; do
    name=${names[$i]}
    version=${versions[$i]}
    logs=$dir/logs/$name-$version
    : >"$logs.setup.log"
    echo "sweep: $name $version" >&2
    if ! src=$(checkout "$name" "$version" "$logs.setup.log"); then
        python3 "$helper" setup-failed "$results" "$name" "$version" "fetch or lock file failed: $logs.setup.log"
        continue
    fi
    if ! (cd "$src" && cargo metadata --no-deps --format-version 1 >"$logs.metadata.json") 2>>"$logs.setup.log"; then
        python3 "$helper" setup-failed "$results" "$name" "$version" "cargo metadata failed: $logs.setup.log"
        continue
    fi
    lib=$(python3 "$helper" lib-name "$logs.metadata.json")
    if [[ -z $lib ]]; then
        python3 "$helper" setup-failed "$results" "$name" "$version" "no library target"
        continue
    fi
    status=0
    rm -f "$logs.memory"
    (
        cd "$src"
        exec /usr/bin/time -v -o "$logs.time" \
            timeout -k 10 "$timeout_s" \
            "$NOALLOC_LS" --check . --root "$lib::*" --message-format json --no-cache --timings \
            "${extra_args[@]}" \
            >"$logs.json" 2>"$logs.stderr" </dev/null
    ) &
    run=$!
    watcher=""
    if ((max_mib > 0)); then
        watch_memory "$run" "$max_mib" "$logs.memory" &
        watcher=$!
    fi
    wait "$run" || status=$?
    if [[ -n $watcher ]]; then
        kill "$watcher" 2>/dev/null || true
        wait "$watcher" 2>/dev/null || true
    fi
    python3 "$helper" record "$results" "$name" "$version" "$status" \
        "$logs.json" "$logs.stderr" "$logs.time" "$timeout_s" "$logs.memory"
done

status=0
python3 "$helper" finish "$results" "$top" || status=$?
echo
echo "Logs: $dir/logs (NAME-VERSION.stderr, .json the checker's stdout, .time, .setup.log); checkouts in $dir/crates."
exit "$status"
}

main "$@"
