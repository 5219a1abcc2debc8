#!/usr/bin/env bash
# Cold `--check` (empty summary cache) of two builds of noalloc-ls, interleaved in
# one run, on test-data/specifics and on regex 1.11.1 from crates.io with three
# roots: how a change to the engine moves the cost. Prints one line a run.
#
#   server/benches/compare_engines.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1 new=$2 rounds=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fetch/src" && touch "$work/fetch/src/lib.rs"
printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nregex = "=1.11.1"\n' > "$work/fetch/Cargo.toml"
cargo fetch -q --manifest-path "$work/fetch/Cargo.toml"
cp -r "$(ls -d "$HOME"/.cargo/registry/src/*/regex-1.11.1 | head -n 1)" "$work/regex"
printf '\n[workspace]\n' >> "$work/regex/Cargo.toml"
(cd "$work/regex" && cargo generate-lockfile -q)
roots=(--root 'regex::regex::string::Regex::is_match' --root 'regex::regex::string::Regex::find'
       --root 'regex::regex::string::Regex::shortest_match')
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; echo $(( ($(date +%s%N) - s) / 1000000 )); }
for round in $(seq "$rounds"); do
  for which in old new; do
    bin=${!which}
    specifics=$(NOALLOC_CACHE_DIR=$(mktemp -d -p "$work") ms "$bin" --check test-data/specifics)
    regex=$(NOALLOC_CACHE_DIR=$(mktemp -d -p "$work") ms "$bin" --check "$work/regex" --no-build-scripts "${roots[@]}")
    echo "round $round $which: specifics cold ${specifics} ms, regex cold ${regex} ms"
  done
done
