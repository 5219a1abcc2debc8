#!/usr/bin/env bash
# json: Miri over the tests that reach its unsafe code (the reader's unchecked
# UTF-8, `str_into`'s decoding into a string's capacity, the writer's `into_sink`),
# once with Stacked Borrows and once with Tree Borrows, both validating what
# references point to (`-Zmiri-recursive-validation`: without it Miri does not see
# a `&mut [u8]` made over uninitialised memory, the bug `str_into` had). The
# property tests and the JSONTestSuite walk are safe code over the same paths and
# take Miri too long, as does the depth-limit test (thousands of nested levels);
# the normal run covers them. `reader::` reaches the unchecked UTF-8 of
# `Key::chars` and `Key::single_char`. Fails when Miri cannot be installed or run,
# when no test ran, or when a filter matched none (`miri_test`).
# Measured on the busy 2-core machine, warm: 1 min 53 s for both runs (tests 31 s
# stacked, 50 s tree borrows).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never
source .ci/parts/miri-setup.bash

filters=(alloc_count:: derive:: reader:: serde_bridge:: writer:: numbers::integers numbers::non_finite)
for model in "" "-Zmiri-tree-borrows"; do
    echo "-- json: miri ${model:-(stacked borrows)}"
    MIRIFLAGS="-Zmiri-disable-isolation -Zmiri-recursive-validation $model" \
        miri_test "json ${model:-stacked}" "${filters[@]}" -- -p json --test it -- "${filters[@]}" --skip reader::depth_limit
done
