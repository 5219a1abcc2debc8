#!/usr/bin/env bash
# The publishable crates: noalloc (attributes/), bounded, json and json-derive
# package, and each .crate builds on its own (`cargo package` verifies: json is
# built against the packaged json-derive through cargo's temporary local registry,
# so nothing needs to be on crates.io). `--allow-dirty`: this checks the manifests
# and the files a package takes, not whether the checkout is committed. Then their
# docs build with rustdoc's warnings as errors (broken links, missing docs).
# ~1 min warm.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
crates=(-p noalloc -p bounded -p json -p json-derive)
echo "-- package: cargo package ${crates[*]}"
cargo package --allow-dirty "${crates[@]}"
echo "-- package: cargo doc, warnings as errors"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps "${crates[@]}"
