#!/usr/bin/env bash
# Two builds of noalloc-ls side by side, interleaved in one run: cold `--check`
# (empty summary cache) on test-data/specifics and on regex 1.11.1 from crates.io
# with three roots, and the language server's load + all first diagnostics on
# specifics (this tree's `lsp_bench`, the median of LOADS cold loads). Prints one
# line a run, then each column's median over the rounds and NEW / OLD: how a
# change to the engine moves the cost, on a machine whose speed drifts by the hour.
#
#   server/benches/compare_engines.sh OLD_BINARY NEW_BINARY [ROUNDS] [LOADS]
#
# OLD_BINARY may be any earlier build, e.g. the one issue 12's goals were set
# against ("all diagnostics ≤ 0.5× today"):
#   git worktree add /tmp/noalloc-base 27ff765 && (cd /tmp/noalloc-base && cargo build --release -p noalloc-ls)
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1 new=$2 rounds=${3:-2} loads=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build -q --release -p noalloc-ls --example lsp_bench
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
lsp_bench=$target/release/examples/lsp_bench
mkdir -p "$work/fetch/src" && touch "$work/fetch/src/lib.rs"
printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nregex = "=1.11.1"\n' > "$work/fetch/Cargo.toml"
cargo fetch -q --manifest-path "$work/fetch/Cargo.toml"
cp -r "$(ls -d "$HOME"/.cargo/registry/src/*/regex-1.11.1 | head -n 1)" "$work/regex"
printf '\n[workspace]\n' >> "$work/regex/Cargo.toml"
(cd "$work/regex" && cargo generate-lockfile -q)
roots=(--root 'regex::regex::string::Regex::is_match' --root 'regex::regex::string::Regex::find'
       --root 'regex::regex::string::Regex::shortest_match')
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; echo $(( ($(date +%s%N) - s) / 1000000 )); }
lsp_all() {
  local out median
  out=$(NOALLOC_LS=$1 NOALLOC_CACHE_DIR=$(mktemp -d -p "$work") "$lsp_bench" specifics 1 --loads "$loads" 2>/dev/null || true)
  median=$(sed -n 's/^over .* cold loads: load + first analysis + publish: median \([0-9]*\) ms.*/\1/p' <<<"$out")
  if [ -n "$median" ]; then echo "$median"; else
    sed -n 's/^load + first analysis + publish: \([0-9]*\) ms$/\1/p' <<<"$out" | head -n 1; fi
}
for round in $(seq "$rounds"); do
  for which in old new; do
    bin=${!which}
    specifics=$(NOALLOC_CACHE_DIR=$(mktemp -d -p "$work") ms "$bin" --check test-data/specifics)
    regex=$(NOALLOC_CACHE_DIR=$(mktemp -d -p "$work") ms "$bin" --check "$work/regex" --no-build-scripts "${roots[@]}")
    lsp=$(lsp_all "$bin"); lsp=${lsp:--}
    echo "round $round $which: specifics cold ${specifics} ms, regex cold ${regex} ms, language server all diagnostics ${lsp} ms"
    echo "$which $specifics $regex $lsp" >> "$work/runs"
  done
done
python3 - "$work/runs" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    which, *figures = line.split()
    runs.setdefault(which, []).append([int(f) if f.isdigit() else None for f in figures])
columns = ["specifics cold", "regex cold", "language server all diagnostics"]
for i, column in enumerate(columns):
    old = [r[i] for r in runs["old"] if r[i] is not None]
    new = [r[i] for r in runs["new"] if r[i] is not None]
    if not (old and new):
        print(f"{column}: not measured")
        continue
    old, new = statistics.median(old), statistics.median(new)
    print(f"{column}: old {old:.0f} ms, new {new:.0f} ms, new/old {new / old:.2f}")
EOF
