#!/usr/bin/env bash
# noalloc's findings in rust-analyzer's own check (issue 52): the real rust-analyzer
# (the rustup component), its `check.overrideCommand` set to the built
# `cargo-noalloc noalloc --message-format json`, publishes the example's finding
# after a save, and with `check.workspace = false` drops a fixed finding of
# another package than the saved one (server/tests/e2e/rust_analyzer_check.py).
# Skipped, with a notice, where the rust-analyzer component cannot be had.
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

# `check.workspace = false`: a workspace of two packages, `a` (clean) and `b` (the
# example). The finding in b shows; b's line is fixed and a's file saved (a check
# for package a): b's `compiler-artifact` is what tells rust-analyzer that b's
# finding is gone.
two=$(mktemp -d)
trap 'rm -rf "$two"' EXIT
cp -r test-data/clean "$two/a"
cp -r test-data/example "$two/b"
rm -rf "$two"/{a,b}/{target,Cargo.lock}
sed -i '/^\[workspace\]$/d' "$two/a/Cargo.toml" "$two/b/Cargo.toml"
printf '[workspace]\nmembers = ["a", "b"]\nresolver = "2"\n' >"$two/Cargo.toml"
python3 server/tests/e2e/rust_analyzer_check.py "$ra" "$cargo_noalloc" "$two" 30 \
    --file b/src/lib.rs --fix 'format!("GET {path}")=>"GET"' --save a/src/lib.rs
echo "rust-analyzer-check: passed"
