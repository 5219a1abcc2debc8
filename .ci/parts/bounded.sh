#!/usr/bin/env bash
# bounded: the loom models of Pool (take, wait, reserve under contention), then Miri
# over the tests of the unsafe code (buffers, pools, vec, slice, map, the counting
# allocator), once with Stacked Borrows and once with Tree Borrows, and over the
# doctests. Installs Miri on the nightly toolchain; a Miri that cannot be installed
# or run fails the part, and so does a run where no test ran or a filter matched
# none (`miri_test` in miri-setup.bash). Each run closes on cargo test's own
# summary line.
# Both Miri runs validate what references point to (`-Zmiri-recursive-validation`).
# Measured on the busy 2-core machine, warm: 8 min 19 s in all (Miri tests 152 s
# stacked, 259 s tree borrows, doctests 51 s; loom a few seconds); recursive
# validation took the stacked run to 179 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never

echo "-- bounded: loom"
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-bounded-loom" \
    cargo test -p bounded --release --test it

echo "-- bounded: miri"
source .ci/parts/miri-setup.bash
# Isolation off: the tests read README.md and wait on real clocks. The escaping
# property tests (safe code over `Buf`) and the async runtime test are left to the
# normal run: Miri takes minutes to generate their strings or run the runtime.
filters=(alloc buf:: map:: pool:: slice:: vec::)
for model in "" "-Zmiri-tree-borrows"; do
    echo "-- bounded: miri ${model:-(stacked borrows)}"
    MIRIFLAGS="-Zmiri-disable-isolation -Zmiri-recursive-validation $model" \
        miri_test "bounded ${model:-stacked}" "${filters[@]}" -- -p bounded --test it -- "${filters[@]}"
done
# The doctests: README and module examples, including the compile_fail ones.
MIRIFLAGS="-Zmiri-disable-isolation" miri_test "bounded doctests" -- -p bounded --doc
