#!/usr/bin/env bash
# noalloc's findings in rust-analyzer's own check (issue 52): the real rust-analyzer
# (the rustup component), its `check.overrideCommand` set to the built
# `cargo-noalloc noalloc --message-format json`, publishes the example's finding
# after a save (server/tests/e2e/rust_analyzer_check.py). Skipped, with a notice,
# where the rust-analyzer component cannot be had.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"

if ! ra=$(rustup which rust-analyzer 2>/dev/null); then
    rustup component add rust-analyzer >/dev/null 2>&1 || true
    ra=$(rustup which rust-analyzer 2>/dev/null) || {
        echo "rust-analyzer-check: SKIPPED: no rust-analyzer binary (rustup component add rust-analyzer)"
        exit 0
    }
fi
echo "rust-analyzer-check: $("$ra" --version)"

# `cargo test --workspace` has built it; a part run alone builds it.
cargo_noalloc=$CARGO_TARGET_DIR/debug/cargo-noalloc
if [[ ! -x "$cargo_noalloc" ]]; then
    cargo build -p noalloc-ls --bin cargo-noalloc
fi

# The example's finding: src/lib.rs:30 (test-data/example/expected.human).
python3 server/tests/e2e/rust_analyzer_check.py "$ra" "$cargo_noalloc" test-data/example 30
echo "rust-analyzer-check: passed"
