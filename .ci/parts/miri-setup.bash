# Sourced by the parts that run Miri (not a part itself: .ci/run runs *.sh).
# Installs Miri and std's source on the nightly toolchain (nightly itself when
# missing); under `set -e` a failure ends the part, so a Miri that cannot run never
# passes as a green run. Exports the target directory the Miri runs share.
if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
rustup +nightly component add miri rust-src
cargo +nightly miri setup
export CARGO_TARGET_DIR="$HOME/.cache/noalloc-target-libs-miri"

# miri_test LABEL FILTER... -- CARGO_ARGS...: runs `cargo +nightly miri test
# CARGO_ARGS`, keeps its output, and fails unless some test ran and every FILTER
# is part of the name of a test that passed (a filter that matches nothing
# otherwise passes, "0 passed"). Give the FILTERs to cargo yourself, after `--`.
miri_test() {
    local label=$1
    shift
    local filters=()
    while [ "$1" != "--" ]; do
        filters+=("$1")
        shift
    done
    shift
    local log
    log=$(mktemp)
    cargo +nightly miri test "$@" 2>&1 | tee "$log"
    miri_check_ran "$label" "$log" "${filters[@]}"
    rm -f "$log"
}

# miri_check_ran LABEL LOG FILTER...: the check of `miri_test` over a saved log.
miri_check_ran() {
    local label=$1 log=$2
    shift 2
    local ran
    ran=$(sed -nE 's/^test (.*) \.\.\. ok$/\1/p' "$log")
    if [ -z "$ran" ]; then
        echo "miri ($label): no test ran" >&2
        return 1
    fi
    local filter
    for filter in "$@"; do
        if ! grep -qF -- "$filter" <<<"$ran"; then
            echo "miri ($label): the filter '$filter' matched no test" >&2
            return 1
        fi
    done
    echo "miri ($label): $(wc -l <<<"$ran") tests passed, every filter matched"
}
