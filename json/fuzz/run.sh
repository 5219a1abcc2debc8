#!/usr/bin/env bash
# Runs fuzz targets for a fixed budget each and reports their executions.
#   json/fuzz/run.sh [SECONDS] [TARGET...]   (default 60 s; every target:
#   differential, typed_numbers, integer_keys, derived)
# Needs the nightly toolchain (fails without it); installs cargo-fuzz from crates.io
# when missing. Exits non-zero, with that target's status, at the first target that
# fails to build, crashes or finds a difference. Each target's corpus is seeded
# from JSONTestSuite and kept outside the repo.
set -euo pipefail
budget="${1:-60}"
shift || true
targets=("$@")
if (( ${#targets[@]} == 0 )); then
    targets=(differential typed_numbers integer_keys derived)
fi
here="$(cd "$(dirname "$0")" && pwd)"
suite="$here/../tests/data/JSONTestSuite/test_parsing"

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "json fuzz: no nightly toolchain (rustup toolchain install nightly)" >&2
    exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target-json-fuzz}"
corpora="${JSON_FUZZ_CORPUS:-$HOME/.cache/noalloc-json-fuzz-corpus}"

cd "$here"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for target in "${targets[@]}"; do
    corpus="$corpora/$target"
    mkdir -p "$corpus"
    if [ -d "$suite" ]; then
        cp -n "$suite"/*.json "$corpus"/ 2>/dev/null || true
    fi
    # The status is cargo's: read PIPESTATUS right after the pipeline, with
    # errexit off (grep finding no line is no failure).
    set +e
    cargo +nightly fuzz run "$target" "$corpus" -- \
        -max_total_time="$budget" -max_len=4096 -print_final_stats=1 2>&1 | tee "$log" | grep -E '^(#[0-9]+.*(pulse|DONE)|==|SUMMARY|thread)'
    status="${PIPESTATUS[0]}"
    set -e
    execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1 || true)"
    echo "json fuzz: $target ran ${execs:-?} executions in ${budget}s (exit ${status})"
    if [ "$status" -ne 0 ]; then
        exit "$status"
    fi
done
