#!/usr/bin/env bash
# json: differential fuzzing against serde_json for a fixed budget (60 s), reporting
# the executions. Idempotent; installs cargo-fuzz when missing; skips without nightly.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-json-fuzz"
bash json/fuzz/run.sh "${JSON_FUZZ_SECONDS:-60}"
