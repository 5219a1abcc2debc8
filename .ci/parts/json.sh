#!/usr/bin/env bash
# json: first proves that the fuzz script fails when its target does (a stand-in
# `cargo` that crashes the way libFuzzer does, and the script before its fix
# passing it), then runs every fuzz target against serde_json for a fixed budget
# each (JSON_FUZZ_SECONDS, 30 s): the differential one over `serde_json::Value`,
# typed numbers, integer keys and derived decoders. Idempotent; installs
# cargo-fuzz when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-json-fuzz"

echo "-- json: the fuzz script fails when the target crashes"
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT
# A stand-in `cargo` that prints what `cargo fuzz run` prints when the target panics
# (libFuzzer's crash report, its final stats, cargo-fuzz's summary) and exits 1 as
# cargo-fuzz does. The stats matter: a script that ignored the status and failed
# only because it found no `stat::` line would pass this test by accident.
cat >"$fake/cargo" <<'FAKE'
#!/usr/bin/env bash
if [ "${3:-}" = "--version" ]; then echo "cargo-fuzz 0.12.0"; exit 0; fi
cat <<'OUT'
INFO: Running with entropic power schedule (0xFF, 100).
INFO: Seed: 3141592653
INFO: Loaded 1 modules   (48321 inline 8-bit counters): 48321 [0x55d0c8a1e0b8, 0x55d0c8a29d79),
INFO: Loaded 1 PC tables (48321 PCs): 48321 [0x55d0c8a29d80,0x55d0c8ae6990),
INFO:      318 files found in /tmp/corpus
INFO: seed corpus: files: 318 min: 1b max: 4096b total: 104024b rss: 41Mb
#319	INITED cov: 3127 ft: 7711 corp: 262/71Kb exec/s: 0 rss: 63Mb
#1024	pulse  cov: 3140 ft: 7790 corp: 270/73Kb lim: 4096 exec/s: 512 rss: 64Mb

thread '<unnamed>' panicked at fuzz_targets/differential.rs:27:24:
we accept Number(1), serde_json refuses: trailing characters at line 1 column 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
==4242== ERROR: libFuzzer: deadly signal
    #0 0x55d0c86f1c41 in __sanitizer_print_stack_trace
NOTE: libFuzzer has rudimentary signal handlers.
      Combine libFuzzer with AddressSanitizer or similar for better crash reports.
SUMMARY: libFuzzer: deadly signal
MS: 1 ChangeByte-; base unit: 356a192b7913b04c54574d18c28d46e6395428ab
0x31,0x20,
1 
artifact_prefix='/tmp/json/fuzz/artifacts/differential/'; Test unit written to /tmp/json/fuzz/artifacts/differential/crash-6a2b4e0d
Base64: MSA=
stat::number_of_executed_units: 1187
stat::average_exec_per_sec:     593
stat::new_units_added:          8
stat::slowest_unit_time_sec:    0
stat::peak_rss_mb:              64
────────────────────────────────────────────────────────────────────────────────

Failing input:

	fuzz/artifacts/differential/crash-6a2b4e0d

Reproduce with:

	cargo fuzz run differential fuzz/artifacts/differential/crash-6a2b4e0d

────────────────────────────────────────────────────────────────────────────────

Error: Fuzz target exited with exit status: 77
OUT
exit 1
FAKE
chmod +x "$fake/cargo"
crashes() {
    PATH="$fake:$PATH" JSON_FUZZ_CORPUS="$fake/corpus" bash "$1" 1 >"$fake/out" 2>&1
}
if crashes json/fuzz/run.sh; then
    cat "$fake/out"
    echo "json fuzz: run.sh exited 0 although the target crashed" >&2
    exit 1
fi
# The test itself can fail: the script before b54bf30 read the status of `|| true`
# and, given the stats, exits 0 here. (Needs that commit: skipped in a shallow clone.)
# The old script sits beside run.sh, whose paths are relative to itself.
if git cat-file -e 4bc0edd:json/fuzz/run.sh 2>/dev/null; then
    trap 'rm -rf "$fake" json/fuzz/.old-run.sh' EXIT
    git show 4bc0edd:json/fuzz/run.sh >json/fuzz/.old-run.sh
    if ! crashes json/fuzz/.old-run.sh; then
        cat "$fake/out"
        echo "json fuzz: the self-test no longer tells the old script from the fixed one" >&2
        exit 1
    fi
    echo "json fuzz: the old script passes the crash, the fixed one fails it"
else
    echo "json fuzz: commit 4bc0edd is not in this clone: the check against the old script is skipped"
fi

echo "-- json: fuzzing against serde_json"
bash json/fuzz/run.sh "${JSON_FUZZ_SECONDS:-30}"
