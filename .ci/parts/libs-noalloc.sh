#!/usr/bin/env bash
# Dogfood: noalloc-ls checks the `// noalloc:root` hot paths of bounded and json
# (Vec::try_push/get, ArrayVec::try_push, Map::insert/get/entry,
# VacantEntry::insert, Slice::try_push, Buf::write_str,
# Reader::str_into/skip, Writer::str/f64, Pretty::send). Clean, or each line exempted with its
# reason in the code. The binary is the one `cargo test --workspace` built; the
# check loads the workspace without build scripts or proc macros (~30 s warm).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
cargo build -p noalloc-ls --tests
"$CARGO_TARGET_DIR/debug/noalloc-ls" --check --no-build-scripts .
