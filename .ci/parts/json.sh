#!/usr/bin/env bash
# json: first proves that the fuzz script fails when its target does (a stand-in
# `cargo` that crashes the way libFuzzer does), then fuzzes differentially against
# serde_json for a fixed budget (60 s). Idempotent; installs cargo-fuzz when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-json-fuzz"

echo "-- json: the fuzz script fails when the target crashes"
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT
cat >"$fake/cargo" <<'FAKE'
#!/usr/bin/env bash
# `cargo +nightly fuzz --version` answers; `fuzz run` crashes like a target panic.
if [ "${3:-}" = "--version" ]; then echo "cargo-fuzz 0.0.0"; exit 0; fi
echo "thread '<unnamed>' panicked at fuzz_targets/differential.rs:1:1"
echo "==1== ERROR: libFuzzer: deadly signal"
echo "SUMMARY: libFuzzer: deadly signal"
exit 77
FAKE
chmod +x "$fake/cargo"
if PATH="$fake:$PATH" JSON_FUZZ_CORPUS="$fake/corpus" bash json/fuzz/run.sh 1; then
    echo "json fuzz: run.sh exited 0 although the target crashed" >&2
    exit 1
fi

echo "-- json: differential fuzzing"
bash json/fuzz/run.sh "${JSON_FUZZ_SECONDS:-60}"
