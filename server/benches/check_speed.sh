#!/usr/bin/env bash
# Benchmark: cold and warm `noalloc-ls --check` (cold = empty summary cache, warm =
# the summaries of the cold run), next to `cargo check` of the same workspace, in one
# run. Workspaces: the bundled fixtures and `semver` from crates.io with --root on its
# public entry points. Prints a table; nothing here is a pass/fail test.
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

printf '%-22s %10s %10s %8s %14s\n' workspace "cold ms" "warm ms" "warm/cold" "cargo check ms"
bench() {
    local name=$1 path=$2; shift 2
    local cache="$WORK/cache-$name"
    local cold warm check
    cold=$(NOALLOC_CACHE_DIR=$cache ms "$BIN" --check "$path" "$@")
    warm=$(NOALLOC_CACHE_DIR=$cache ms "$BIN" --check "$path" "$@")
    check=$(CARGO_TARGET_DIR="$WORK/target-$name" ms cargo check -q --manifest-path "$path/Cargo.toml")
    printf '%-22s %10d %10d %8.2f %14d\n' "$name" "$cold" "$warm" "$(awk "BEGIN { print $warm / $cold }")" "$check"
}
bench example test-data/example
bench specifics test-data/specifics
bench "semver $SEMVER_VERSION" "$WORK/semver" --root 'semver::Version::parse' --root 'semver::VersionReq::parse' \
    --root 'semver::VersionReq::matches' --root 'semver::Version::cmp_precedence'
