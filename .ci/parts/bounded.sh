#!/usr/bin/env bash
# bounded: the loom models of Pool (take, wait, reserve under contention), then Miri
# over the tests of the unsafe code (buffers, pools, vec, slice, map, the counting
# allocator). Idempotent: adds Miri to the nightly toolchain when missing. Each
# closes on cargo test's own summary line.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never

echo "-- bounded: loom"
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-bounded-loom" \
    cargo test -p bounded --release --test it

echo "-- bounded: miri"
if ! rustup +nightly component add miri rust-src; then
    echo "bounded: no nightly toolchain with Miri here; Miri skipped" >&2
    exit 0
fi
# Isolation off: the tests read README.md and wait on real clocks. The escaping
# property tests (safe code over `Buf`) are left to the normal run: Miri takes
# minutes to generate their strings.
MIRIFLAGS="-Zmiri-disable-isolation" CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-bounded-miri" \
    cargo +nightly miri test -p bounded --test it -- alloc buf:: map:: pool:: slice:: vec::
# The doctests: README and module examples, including the compile_fail ones.
MIRIFLAGS="-Zmiri-disable-isolation" CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-bounded-miri" \
    cargo +nightly miri test -p bounded --doc
