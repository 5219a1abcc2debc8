#!/usr/bin/env bash
# The sweep over a few small registry crates (issue 45): each checked in its own
# checkout with every public function a root, by the debug noalloc-ls that .ci/run's
# `cargo test --workspace` has just built. Fails when the checker panics (101), aborts
# (134, a stack overflow), dies by a signal, runs out of time, reports an internal
# error or ends without its summary, or a crate cannot be fetched from crates.io;
# findings are fine. The whole list is server/benches/sweep.sh's default, for a
# person to run (SWEEP.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ ! -x /usr/bin/time ]]; then
    echo "sweep: apt-get install time"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends time >/dev/null
fi

target=${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}
export NOALLOC_LS=${NOALLOC_LS:-$target/debug/noalloc-ls}
if [[ ! -x $NOALLOC_LS ]]; then
    cargo build -p noalloc-ls
fi
# Small crates of different kinds: a hasher, a checksum, string metrics, a guard with
# closures and generics, and two that crashed the checker before issue 45 (arrayvec:
# a stack overflow; log: rust-analyzer's trait solver panicking on `Display::fmt`
# roots). About two minutes on a busy 2-core machine with the debug build.
read -r -a crates <<<"${SWEEP_CI_CRATES:-fnv adler2 strsim scopeguard arrayvec log}"
export SWEEP_TIMEOUT=${SWEEP_TIMEOUT:-300}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/noalloc-ci-sweep.XXXXXX")
export SWEEP_DIR=$scratch
status=0
bash server/benches/sweep.sh "${crates[@]}" || status=$?
if ((status)); then
    # The stderr of each crate that was not clean, for the CI log.
    while read -r log; do
        echo "---- $log (first 40 lines)"
        head -n 40 "$log"
    done < <(python3 server/benches/sweep.py failed-logs "$scratch/results.jsonl")
else
    rm -rf "$scratch"
fi
exit "$status"
