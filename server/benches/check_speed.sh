#!/usr/bin/env bash
# Benchmark: `noalloc-ls --check` cold (empty cache), unchanged (a re-run: the stored
# analysis is the answer) and edited (a function added to a workspace file: a full
# check, std and dependencies answered from the summaries of the cold run; an edit
# in nothing the analysis read, such as a comment, is answered as unchanged), next to
# `cargo check` of the same workspace, in one run. Workspaces: the bundled fixtures, `semver` from crates.io with --root on its
# public entry points, and many-deps (a service-like crate with 22 registry dependencies). Prints a table; nothing here is a pass/fail test.
#
#   server/benches/check_speed.sh            # dev profile (dependencies optimised)
#   PROFILE=release server/benches/check_speed.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
PROFILE="${PROFILE:-dev}"
cargo build -q --profile "$PROFILE" -p noalloc-ls
dir=$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
BIN="$CARGO_TARGET_DIR/$dir/noalloc-ls"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# semver from the registry, as its own workspace.
SEMVER_VERSION=1.0.26
mkdir -p "$WORK/fetch" && cat > "$WORK/fetch/Cargo.toml" <<TOML
[package]
name = "fetch"
version = "0.0.0"
edition = "2021"
[dependencies]
semver = "=$SEMVER_VERSION"
TOML
mkdir -p "$WORK/fetch/src" && touch "$WORK/fetch/src/lib.rs"
cargo fetch -q --manifest-path "$WORK/fetch/Cargo.toml"
src=$(ls -d "$HOME"/.cargo/registry/src/*/semver-$SEMVER_VERSION | head -n 1)
cp -r "$src" "$WORK/semver"
printf '\n[workspace]\n' >> "$WORK/semver/Cargo.toml"
(cd "$WORK/semver" && cargo generate-lockfile -q)

ms() { local s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; echo $(( ($(date +%s%N) - s) / 1000000 )); }

printf '%-22s %9s %11s %7s %9s %7s %14s\n' workspace "cold ms" "unchanged" "/cold" "edited" "/cold" "cargo check ms"
bench() {
    local name=$1 path=$2; shift 2
    # A copy, so that the edit leaves the repository alone.
    local ws="$WORK/ws-${name%% *}" cache="$WORK/cache-${name%% *}"
    cp -r "$path" "$ws"
    rm -rf "$ws/target"
    local cold unchanged edited check
    cold=$(NOALLOC_CACHE_DIR=$cache ms "$BIN" --check "$ws" "$@")
    unchanged=$(NOALLOC_CACHE_DIR=$cache ms "$BIN" --check "$ws" "$@")
    echo "pub fn noalloc_bench_edited() {}" >> "$ws/src/lib.rs"
    edited=$(NOALLOC_CACHE_DIR=$cache ms "$BIN" --check "$ws" "$@")
    check=$(CARGO_TARGET_DIR="$WORK/target-${name%% *}" ms cargo check -q --manifest-path "$ws/Cargo.toml")
    printf '%-22s %9d %11d %7.2f %9d %7.2f %14d\n' "$name" "$cold" "$unchanged" \
        "$(awk "BEGIN { print $unchanged / $cold }")" "$edited" "$(awk "BEGIN { print $edited / $cold }")" "$check"
}
bench example test-data/example
bench specifics test-data/specifics
bench "semver $SEMVER_VERSION" "$WORK/semver" --root 'semver::Version::parse' --root 'semver::VersionReq::parse' \
    --root 'semver::VersionReq::matches' --root 'semver::Version::cmp_precedence'
bench "many-deps (22 deps)" server/benches/many-deps
