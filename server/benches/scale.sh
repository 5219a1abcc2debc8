#!/usr/bin/env bash
# Benchmark: noalloc at scale, side by side with rust-analyzer's own analysis, in
# one run. Synthetic workspaces of 5k, 20k and 80k lines (scale_workspace.py: the
# same roots at every size, so only unreached code grows) and real crates from the
# registry (regex, serde_json) with --root patterns, and a service-like crate with 22
# registry dependencies (many-deps/, its own Cargo.lock; the language server runs
# its build scripts and proc macros, as a new user's does). For each: `--check` cold (empty
# cache; wall time, peak RSS), unchanged (a re-run: the stored analysis answers),
# after an edit no root's reach reads (a body of unreached code, or a comment: the
# stored analysis answers, `edit_digest`), after an edit of a root's body (a check
# over the cold run's summaries), the language server's load + first diagnostics
# (examples/lsp_bench, with the same roots: all diagnostics, the open file's first
# ones, the load before them, and its peak RSS against rust-analyzer's own indexing
# of the workspace), and `rust-analyzer analysis-stats` (wall, peak RSS); the ratios
# the speed issue sets goals on. Prints a table; nothing here passes or fails.
#
#   server/benches/scale.sh                 # release build (as users run it)
#   SIZES="5000 20000" CRATES=regex WORKSPACES= server/benches/scale.sh
#   SIZES= CRATES= server/benches/scale.sh  # many-deps alone
#   PROFILE=dev server/benches/scale.sh     # dependencies optimised, ours not
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
PROFILE="${PROFILE:-release}"
SIZES="${SIZES-5000 20000 80000}"
CRATES="${CRATES-regex serde_json}"
# Workspaces of server/benches/, copied so that the edits leave the repository alone.
WORKSPACES="${WORKSPACES-many-deps}"
cargo build -q --profile "$PROFILE" -p noalloc-ls --bin noalloc-ls --example lsp_bench
dir=$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
BIN="$CARGO_TARGET_DIR/$dir/noalloc-ls"
LSP_BENCH="$CARGO_TARGET_DIR/$dir/examples/lsp_bench"
RA=$(command -v rust-analyzer >/dev/null && rust-analyzer --version >/dev/null 2>&1 && echo rust-analyzer || true)
if [ -z "$RA" ]; then
    rustup component add rust-analyzer >/dev/null 2>&1 || true
    RA=$(rustup which rust-analyzer 2>/dev/null || true)
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# `wall_s peak_mib` of a command, its output discarded.
measure() {
    /usr/bin/time -f '%e %M' -o "$WORK/time" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$WORK/time" | awk '{ printf "%.1f %.0f\n", $1, $2 / 1024 }'
}

# A crate from the registry, as its own workspace under $WORK.
registry_crate() {
    local name=$1 version=$2
    mkdir -p "$WORK/fetch-$name/src" && touch "$WORK/fetch-$name/src/lib.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' \
        "$name" "$version" > "$WORK/fetch-$name/Cargo.toml"
    cargo fetch -q --manifest-path "$WORK/fetch-$name/Cargo.toml"
    cp -r "$(ls -d "$HOME"/.cargo/registry/src/*/"$name-$version" | head -n 1)" "$WORK/$name"
    printf '\n[workspace]\n' >> "$WORK/$name/Cargo.toml"
    (cd "$WORK/$name" && cargo generate-lockfile -q)
}

# lsp: load + all diagnostics; open: load + the open file's first diagnostics, of
# which load; lsp MiB: the server's peak; /RA idx: that against rust-analyzer's own
# indexing of the workspace (lsp_bench's last line).
printf '%-18s %7s %7s %7s %7s %7s %7s %7s %7s %7s %8s %8s %8s %8s %9s %9s %8s %7s\n' workspace "lines" "cold s" \
    "unch. s" "edit s" "root s" "lsp s" "open s" "load s" "RA s" "cold/RA" "unch/cold" "edit/cold" "root/cold" \
    "peak MiB" "RA MiB" "lsp MiB" "/RA idx"
# Flags for lsp_bench beyond the roots (`--build-scripts`), set around a `bench`.
lsp_flags=()
# `edit PATH SPEC`: SPEC is `FILE|SED` (a sed expression applied to FILE in PATH).
edit() {
    sed -i "${2#*|}" "$1/${2%%|*}"
}
# `bench NAME PATH UNREACHED_EDIT ROOT_EDIT [OPEN --root ...]`; an edit `-` is
# skipped. With `--root` patterns, the language server opens and edits OPEN.
bench() {
    local name=$1 path=$2 unreached_edit=$3 root_edit=$4; shift 4
    local open=()
    if [ $# -gt 0 ]; then
        open=(--open "$1")
        shift
    fi
    local lines cold unchanged edited rooted lsp open_s load_s lsp_mib lsp_ratio ra cold_mib ra_mib
    lines=$(find "$path" -name '*.rs' -not -path '*/target/*' | xargs cat | wc -l)
    # One check first, its cache thrown away: whichever tool loads a workspace first
    # pays for `cargo check` building its build scripts and proc macros, which both
    # then read from the workspace's target directory.
    NOALLOC_CACHE_DIR="$WORK/cache-prime-$name" measure "$BIN" --check "$path" "$@" >/dev/null
    read -r cold cold_mib < <(NOALLOC_CACHE_DIR="$WORK/cache-$name" measure "$BIN" --check "$path" "$@")
    read -r unchanged _ < <(NOALLOC_CACHE_DIR="$WORK/cache-$name" measure "$BIN" --check "$path" "$@")
    edit "$path" "$unreached_edit"
    read -r edited _ < <(NOALLOC_CACHE_DIR="$WORK/cache-$name" measure "$BIN" --check "$path" "$@")
    rooted="-"
    if [ "$root_edit" != "-" ]; then
        edit "$path" "$root_edit"
        read -r rooted _ < <(NOALLOC_CACHE_DIR="$WORK/cache-$name" measure "$BIN" --check "$path" "$@")
    fi
    local out="$WORK/lsp-${name// /-}.out"
    NOALLOC_LS="$BIN" NOALLOC_CACHE_DIR="$WORK/cache-lsp-$name" "$LSP_BENCH" "$path" 2 "${open[@]}" "${lsp_flags[@]}" \
        "$@" >"$out" 2>/dev/null || true
    lsp=$(awk '/^load \+ first analysis/ { printf "%.1f", $(NF-1) / 1000 }' "$out")
    open_s=$(awk '/^load \+ the open file.s first diagnostics: [0-9]/ { printf "%.1f", $(NF-1) / 1000 }' "$out")
    load_s=$(awk '/^load: / { sub(/ ms;$/, "", $2); printf "%.1f", $2 / 1000 }' "$out")
    lsp_mib=$(awk '/^server RSS:/ { print $(NF-1) }' "$out")
    lsp_ratio=$(awk '/server peak \/ that = / { print $NF }' "$out")
    ra="-" ra_mib="-" ratio="-"
    if [ -n "$RA" ]; then
        read -r ra ra_mib < <(measure "$RA" analysis-stats "$path")
        ratio=$(awk "BEGIN { printf \"%.2f\", $cold / $ra }")
    fi
    local root_ratio="-"
    [ "$rooted" != "-" ] && root_ratio=$(awk "BEGIN { printf \"%.2f\", $rooted / $cold }")
    printf '%-18s %7d %7s %7s %7s %7s %7s %7s %7s %7s %8s %8.2f %8.2f %8s %9s %9s %8s %7s\n' "$name" "$lines" "$cold" \
        "$unchanged" "$edited" "$rooted" "${lsp:--}" "${open_s:--}" "${load_s:--}" "$ra" "$ratio" \
        "$(awk "BEGIN { print $unchanged / $cold }")" "$(awk "BEGIN { print $edited / $cold }")" "$root_ratio" \
        "$cold_mib" "$ra_mib" "${lsp_mib:--}" "${lsp_ratio:--}"
}

for size in $SIZES; do
    python3 server/benches/scale_workspace.py "$WORK/synthetic-$size" "$size" >/dev/null
    (cd "$WORK/synthetic-$size" && cargo generate-lockfile -q)
    # A helper no root calls; then the body of the root `parse0`.
    bench "synthetic $size" "$WORK/synthetic-$size" 'src/m0.rs|s/x.wrapping_add(29)/x.wrapping_sub(29)/' \
        'src/m0.rs|s/\.max()/.min()/'
    grep -q 'wrapping_sub(29)' "$WORK/synthetic-$size/src/m0.rs" && grep -q '\.min()' "$WORK/synthetic-$size/src/m0.rs"
done
for krate in $CRATES; do
    case $krate in
        regex)
            registry_crate regex 1.11.1
            bench "regex 1.11.1" "$WORK/regex" 'src/lib.rs|$ a // edited' \
                'src/regex/string.rs|s/^        self.is_match_at(haystack, 0)$/        self.is_match_at(haystack, 0usize)/' \
                src/regex/string.rs --root 'regex::*::is_match' --root 'regex::*::find' --root 'regex::*::shortest_match'
            grep -q 'is_match_at(haystack, 0usize)' "$WORK/regex/src/regex/string.rs"
            ;;
        serde_json)
            registry_crate serde_json 1.0.140
            bench "serde_json 1.0.140" "$WORK/serde_json" 'src/lib.rs|$ a // edited' \
                'src/value/mod.rs|0,/^        if pointer.is_empty() {$/s//        if pointer.len() == 0 {/' \
                src/value/mod.rs --root 'serde_json::value::Value::pointer' \
                --root 'serde_json::value::Value::as_str' --root 'serde_json::value::Value::as_f64'
            grep -q 'if pointer.len() == 0 {' "$WORK/serde_json/src/value/mod.rs"
            ;;
    esac
done
for ws in $WORKSPACES; do
    cp -r "server/benches/$ws" "$WORK/$ws"
    rm -rf "$WORK/$ws/target"
    case $ws in
        many-deps)
            # A comment; then the body of the root `parse_number` (serde_json).
            lsp_flags=(--build-scripts)
            bench "many-deps (22 deps)" "$WORK/many-deps" 'src/lib.rs|$ a // edited' \
                'src/request.rs|s/from_str::<f64>(body)/from_str::<f64>(body.trim())/' src/request.rs
            lsp_flags=()
            grep -q 'from_str::<f64>(body.trim())' "$WORK/many-deps/src/request.rs"
            ;;
    esac
done
