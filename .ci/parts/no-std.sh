#!/usr/bin/env bash
# bounded and json build no_std: for x86_64-unknown-none (a target with no std at
# all, so any use of std fails the build), bounded without features, json without
# features and with `alloc` only. Installs the target when missing. ~1 min warm.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
target=x86_64-unknown-none
rustup target add "$target"
export RUSTFLAGS="-D warnings"
echo "-- bounded: no_std"
cargo build -p bounded --no-default-features --target "$target"
echo "-- json: no_std, then no_std with alloc"
cargo build -p json --no-default-features --target "$target"
cargo build -p json --no-default-features --features alloc --target "$target"
