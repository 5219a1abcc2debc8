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
