#!/usr/bin/env bash
# `--check` after an edit of one root's body, against a cold check, on the
# `many-deps` workspace (22 registry dependencies, 21 roots), two builds side by
# side and interleaved, with `rust-analyzer analysis-stats` of the same workspace
# in each round. Per build and round: cold (empty cache), then the body of the
# root `parse_number` edited in place (`body` -> `body.trim()`), then the same
# body grown by a line (what follows it moves), each a check with the cache the
# cold one filled. Prints one line a run and the medians, with root edited / cold.
#
#   server/benches/root_edits.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1 new=$2 rounds=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r server/benches/many-deps "$work/md"
# Build scripts and proc macros, which both tools then read.
CARGO_TARGET_DIR="$work/target" cargo check -q --manifest-path "$work/md/Cargo.toml"
export CARGO_TARGET_DIR="$work/target"
file="$work/md/src/request.rs"
original=$(cat "$file")
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; echo $(( ($(date +%s%N) - s) / 1000000 )); }
check() { NOALLOC_CACHE_DIR="$1" ms "$2" --check "$work/md"; }
printf '%-5s %-4s %8s %10s %10s %10s\n' round bin cold in-place +line analysis-stats
declare -A runs
for round in $(seq "$rounds"); do
  ra=$(ms rust-analyzer analysis-stats "$work/md")
  for which in old new; do
    bin=${!which} cache="$work/cache-$which-$round"
    printf '%s\n' "$original" > "$file"
    cold=$(check "$cache" "$bin")
    sed -i 's/from_str::<f64>(body)/from_str::<f64>(body.trim())/' "$file"
    in_place=$(check "$cache" "$bin")
    sed -i 's/    serde_json::from_str::<f64>(body.trim()).ok()/    let body = body.trim();\n    serde_json::from_str::<f64>(body).ok()/' "$file"
    grep -q 'let body = body.trim();' "$file"
    grown=$(check "$cache" "$bin")
    printf '%s\n' "$original" > "$file"
    printf '%-5s %-4s %8s %10s %10s %10s\n' "$round" "$which" "$cold" "$in_place" "$grown" "$ra"
    runs[$which]+="$cold $in_place $grown $ra"$'\n'
  done
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for which in old new; do
  col() { awk -v c="$1" 'NF { print $c }' <<<"${runs[$which]}" | median; }
  cold=$(col 1) in_place=$(col 2) grown=$(col 3) ra=$(col 4)
  echo "$which medians: cold $cold ms, in place $in_place ms ($(python3 -c "print(f'{$in_place/$cold:.2f}')")x cold), +line $grown ms ($(python3 -c "print(f'{$grown/$cold:.2f}')")x cold), analysis-stats $ra ms (cold / RA $(python3 -c "print(f'{$cold/$ra:.2f}')")x)"
done
