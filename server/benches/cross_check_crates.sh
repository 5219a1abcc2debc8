#!/usr/bin/env bash
# The cross-check on registry crates: for each crate, a one-file workspace whose
# `// noalloc:root` functions call the crate's allocation-free-looking public API
# with concrete types (so generic APIs are checked at a real instantiation). Runs
# `noalloc-ls --check` alone, then with `--cross-check` (cold: the harness and its
# dependencies are built with fat LTO; warm: cargo finds it fresh), and prints one
# table row per crate, then every root where the engine and the compiled program
# did not simply agree (the `--report` lines). Nothing here is a pass/fail test.
#
#   server/benches/cross_check_crates.sh > server/benches/cross_check_crates.out.md
#   CRATES="memchr regex" server/benches/cross_check_crates.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
# NOALLOC_BIN: a noalloc-ls already built (e.g. by `cargo test`), instead of building one.
if [ -z "${NOALLOC_BIN:-}" ]; then
    cargo build -q -p noalloc-ls
fi
BIN="${NOALLOC_BIN:-$CARGO_TARGET_DIR/debug/noalloc-ls}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The harnesses (and their fat-LTO builds) go under the workspaces' target
# directory: a fresh one, so "cold" is cold and nothing is left behind.
export CARGO_TARGET_DIR="$WORK/target"

# name, dependency line, lib.rs body (roots). Each root uses the API the way a hot
# path would: caller-owned buffers, caches made once.
workspace() {
    local name=$1 dep=$2 body=$3
    mkdir -p "$WORK/$name/src"
    cat > "$WORK/$name/Cargo.toml" <<TOML
[package]
name = "xc_$name"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
$dep
TOML
    printf '%s\n' "$body" > "$WORK/$name/src/lib.rs"
    (cd "$WORK/$name" && cargo generate-lockfile -q)
}

workspace itoa 'itoa = "1"' '
// noalloc:root
pub fn format_u64(buf: &mut itoa::Buffer, n: u64) -> usize { buf.format(n).len() }
// noalloc:root
pub fn format_i8(buf: &mut itoa::Buffer, n: i8) -> usize { buf.format(n).len() }'

workspace ryu 'ryu = "1"' '
// noalloc:root
pub fn format_f64(buf: &mut ryu::Buffer, x: f64) -> usize { buf.format(x).len() }
// noalloc:root
pub fn format_finite_f32(buf: &mut ryu::Buffer, x: f32) -> usize { buf.format_finite(x).len() }'

workspace memchr 'memchr = "2"' '
// noalloc:root
pub fn find_byte(needle: u8, haystack: &[u8]) -> Option<usize> { memchr::memchr(needle, haystack) }
// noalloc:root
pub fn find_last_of_two(a: u8, b: u8, haystack: &[u8]) -> Option<usize> { memchr::memrchr2(a, b, haystack) }
// noalloc:root
pub fn find_substring(haystack: &[u8], needle: &[u8]) -> Option<usize> { memchr::memmem::find(haystack, needle) }
// noalloc:root
pub fn find_with_finder(finder: &memchr::memmem::Finder<'"'"'_>, haystack: &[u8]) -> Option<usize> { finder.find(haystack) }'

workspace base64 'base64 = "0.22"' '
use base64::Engine;
// noalloc:root
pub fn encode_slice(input: &[u8], out: &mut [u8]) -> usize {
    base64::engine::general_purpose::STANDARD.encode_slice(input, out).unwrap_or(0)
}
// noalloc:root
pub fn decode_slice(input: &[u8], out: &mut [u8]) -> usize {
    base64::engine::general_purpose::STANDARD.decode_slice(input, out).unwrap_or(0)
}'

workspace arrayvec 'arrayvec = "0.7"' '
// noalloc:root
pub fn push(v: &mut arrayvec::ArrayVec<u32, 16>, x: u32) -> bool { v.try_push(x).is_ok() }
// noalloc:root
pub fn push_str(s: &mut arrayvec::ArrayString<32>, x: &str) -> bool { s.try_push_str(x).is_ok() }
// noalloc:root
pub fn drain_sum(v: &mut arrayvec::ArrayVec<u32, 16>) -> u32 { v.drain(..).sum() }'

workspace heapless 'heapless = "0.8"' '
// noalloc:root
pub fn push(v: &mut heapless::Vec<u32, 16>, x: u32) -> bool { v.push(x).is_ok() }
// noalloc:root
pub fn push_str(s: &mut heapless::String<32>, x: &str) -> bool { s.push_str(x).is_ok() }
// noalloc:root
pub fn write_number(s: &mut heapless::String<32>, n: u32) -> bool { use core::fmt::Write; write!(s, "{n}").is_ok() }'

workspace smallvec 'smallvec = "1"' '
// noalloc:root
pub fn push_with_room(v: &mut smallvec::SmallVec<[u32; 8]>, x: u32) -> bool {
    if v.len() < v.capacity() { v.push(x); true } else { false }
}
// noalloc:root
pub fn sum_inline(v: &smallvec::SmallVec<[u32; 8]>) -> u32 { v.iter().sum() }'

workspace crc32fast 'crc32fast = "1"' '
// noalloc:root
pub fn hash(bytes: &[u8]) -> u32 { crc32fast::hash(bytes) }
// noalloc:root
pub fn update(hasher: &mut crc32fast::Hasher, bytes: &[u8]) { hasher.update(bytes) }'

workspace regex 'regex-automata = "0.4"' '
use regex_automata::{Input, hybrid, meta};
// noalloc:root
pub fn meta_search(re: &meta::Regex, cache: &mut meta::Cache, haystack: &str) -> bool {
    re.search_with(cache, &Input::new(haystack)).is_some()
}
// noalloc:root
pub fn lazy_dfa_search(re: &hybrid::regex::Regex, cache: &mut hybrid::regex::Cache, haystack: &str) -> bool {
    matches!(re.try_search(cache, &Input::new(haystack)), Ok(Some(_)))
}'

# Runs "$@" with its stdout into $OUT; prints the seconds it took.
timed() { local s=$(date +%s%N); "$@" >"$OUT" 2>/dev/null || true; awk "BEGIN { printf \"%.1f\", ($(date +%s%N) - $s) / 1e9 }"; }

echo '| crate | version | roots | agree | allowed | flagged only by the engine | not compared | failed | with calls by pointer no function matches | `--check` s | `--cross-check` cold s | warm s |'
echo '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |'
touch "$WORK/details.md"
# CRATES: a subset, e.g. CRATES="memchr regex".
for name in ${CRATES:-itoa ryu memchr base64 arrayvec heapless smallvec crc32fast regex}; do
    ws="$WORK/$name"
    export NOALLOC_CACHE_DIR="$WORK/cache-$name"
    OUT="$WORK/$name.findings"
    "$BIN" --check "$ws" >/dev/null 2>&1 || true # fills the summary cache: the rows compare warm runs
    check=$(timed "$BIN" --check --message-format short "$ws")
    OUT="$WORK/$name.json"
    cold=$(timed "$BIN" --check --cross-check --message-format json "$ws")
    OUT="$WORK/$name.report"
    warm=$(timed "$BIN" --check --cross-check --report --message-format short "$ws")
    count() { grep '"kind":"cross-check"' "$WORK/$name.json" | grep -c "\"outcome\":\"$1\"" || true; }
    roots=$(grep -c '"kind":"cross-check"' "$WORK/$name.json" || true)
    agree=$(( $(count agree-clean) + $(count agree-allocates) ))
    unmatched=$(grep '"kind":"cross-check"' "$WORK/$name.json" | grep -vc '"unmatched_pointer_calls":\[\]' || true)
    dep=$(sed -n 's/^\([a-z0-9_-]*\) = .*/\1/p' "$ws/Cargo.toml" | tail -n 1)
    version=$(grep -A1 "^name = \"$dep\"$" "$ws/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p')
    echo "| $name | $version | $roots | $agree | $(count compiled-allocates-allowed) | $(count flagged-compiled-clean) | $(count not-compared) | $(count compiled-allocates) | $unmatched | $check | $cold | $warm |"
    {
        printf '\n### %s\n\n```text\n' "$name"
        grep -E 'cross-check' "$WORK/$name.report" | grep -v '^cross-check: ' || echo '(every root agrees)'
        printf '```\n\nThe engine says (`--check --message-format short`):\n\n```text\n'
        if [ -s "$WORK/$name.findings" ]; then cat "$WORK/$name.findings"; else echo '(no findings)'; fi
        printf '```\n'
    } >> "$WORK/details.md"
done
printf '\n## Roots that did not simply agree, and what the engine said\n'
cat "$WORK/details.md"
