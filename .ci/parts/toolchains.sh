#!/usr/bin/env bash
# The same verdicts under every std release of the supported range (issue 51):
# installs the std source of 1.85, 1.88, 1.91, 1.93 and 1.95 (a minimal toolchain
# and rust-src each, seconds apiece) and runs the matrix test, which fails when a
# release's findings differ from test-data/toolchains/expected.verdicts, or when
# one of those std sources is missing. The fixture's derives are expanded by each
# release's own proc-macro server from 1.88 on, and by `stable`'s before: the
# machine's own `stable`, as it is (installing `stable` here would update it to
# whatever release is newest, and rebuild everything with it).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"

for release in 1.85 1.88 1.91 1.93 1.95; do
    rustup toolchain install "$release" --profile minimal -c rust-src
done

rustup run stable rustc --version
NOALLOC_TOOLCHAIN_MATRIX=require \
    cargo test -p noalloc-ls --test it -- toolchains:: --nocapture
