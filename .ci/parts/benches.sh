#!/usr/bin/env bash
# The benchmark workspaces (json/bench, bounded/bench: workspaces of their own,
# outside `cargo test --workspace`) build, and run once so they cannot rot:
# bounded's divan benchmarks each run once as tests (`cargo test --benches`), and
# json's runner decodes and encodes the generated data sets (feed, cookie) with
# every library once, checking each decode against serde_json's value. The corpus
# data sets need ../shared/data/json-corpus and are left to json/bench/run.sh.
# Debug builds (the release profile's fat LTO takes minutes); ~3 min warm.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
target="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}-benches"

echo "-- benches: bounded (divan, each benchmark once)"
CARGO_TARGET_DIR="$target" cargo test --manifest-path bounded/bench/Cargo.toml --benches

echo "-- benches: json (every library once over the generated data sets)"
CARGO_TARGET_DIR="$target" cargo build --manifest-path json/bench/Cargo.toml --bins
run="$target/debug/run"
for set in feed cookie; do
    for lib in json json-borrowed serde_json serde_json-in-place serde_json-borrowed serde_json-borrowed-in-place \
        simd-json simd-json-borrowed sonic-rs sonic-rs-borrowed serde-json-core miniserde; do
        "$run" "$lib" "$set" decode 2
    done
    for lib in json json-borrowed serde_json serde_json-borrowed simd-json sonic-rs serde-json-core miniserde; do
        "$run" "$lib" "$set" encode 2
    done
done
