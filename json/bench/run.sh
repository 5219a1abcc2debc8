#!/usr/bin/env bash
# Benchmarks json against serde_json, simd-json, sonic-rs, serde-json-core and
# miniserde: every measurement in a process of its own, libraries alternating
# within each round, medians over rounds.
#   json/bench/run.sh [ROUNDS] [RESULTS.tsv]     (default 3 rounds)
# Prints the markdown table for json/README.md at the end.
set -euo pipefail
rounds="${1:-3}"
sets="${JSON_BENCH_SETS:-twitter citm_catalog canada feed cookie}"
ops="${JSON_BENCH_OPS:-decode encode}"
results="${2:-$(mktemp)}"
here="$(cd "$(dirname "$0")" && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target-json-bench}"
cargo build --release --manifest-path "$here/Cargo.toml" --bin run >&2
bin="$CARGO_TARGET_DIR/release/run"

corpus_libs="json serde_json serde_json-in-place simd-json sonic-rs"
# Borrowed decodes (decode only) of twitter and citm; the feed and cookie have
# their json and serde_json borrowed rows in small_libs, serde_json's in place,
# simd-json's and sonic-rs's are added for decode.
borrowed_libs="json-borrowed serde_json-borrowed serde_json-borrowed-in-place simd-json-borrowed sonic-rs-borrowed"
small_libs="json json-borrowed serde_json serde_json-in-place serde_json-borrowed simd-json sonic-rs serde-json-core miniserde"
: > "$results"
for round in $(seq 1 "$rounds"); do
    for set in $sets; do
        case "$set" in feed|cookie) libs="$small_libs" ;; *) libs="$corpus_libs" ;; esac
        for op in $ops; do
            op_libs="$libs"
            # The floor under canada's encode: its floats formatted, nothing else written.
            if [[ "$op" == encode && "$set" == canada ]]; then
                op_libs="$libs json-floats-only"
            fi
            if [[ "$op" == decode ]]; then
                case "$set" in
                    twitter|citm_catalog) op_libs="$libs $borrowed_libs" ;;
                    feed|cookie) op_libs="$libs serde_json-borrowed-in-place simd-json-borrowed sonic-rs-borrowed" ;;
                esac
            fi
            for lib in $op_libs; do
                nice -n 10 "$bin" "$lib" "$set" "$op" ${JSON_BENCH_ITERS:-} | tee -a "$results" >&2
            done
        done
    done
    echo "round $round done" >&2
done
"$bin" table "$results"
