//! Calls through `dyn` values and fn pointers in real code, where the values that
//! flow there decide the callee: `write!` into a fixed buffer next to a
//! `format!`, closures behind `dyn FnMut` of other signatures, fn pointers of
//! other signatures. Each clean root has a twin that allocates through the same
//! mechanism.

use core::fmt::Write;
use std::collections::HashMap;

use crate::text::Fixed;

/// `write!` into a fixed buffer, in a root whose reach also formats into a
/// `String` (exempted, cold): `core::fmt::write` runs with both, and the buffer's
/// call is judged for the buffer alone.
// noalloc:root
pub fn write_next_to_format(out: &mut Fixed, n: u32) -> usize {
    let _ = write!(out, "n={n} half={}", n / 2);
    if n == u32::MAX {
        // noalloc:exempt cold: never taken on the hot path
        return format!("{n}").len();
    }
    out.as_str().len()
}

/// The twin: the same `write!`, into a new `String`.
// noalloc:root
pub fn write_into_string_allocates(n: u32) -> usize {
    let mut out = String::new();
    let _ = write!(out, "n={n} half={}", n / 2);
    out.len()
}

/// A `Debug` impl through `debug_struct`: with `{:#?}` the pretty printer's own
/// writer wraps the buffer's, next to a `format!`.
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl core::fmt::Debug for Point {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Point").field("x", &self.x).field("y", &self.y).finish()
    }
}

// noalloc:root
pub fn pretty_debug_into_fixed(out: &mut Fixed, p: &Point) -> usize {
    let _ = write!(out, "{p:#?}");
    if p.x == i32::MIN {
        // noalloc:exempt cold: never taken on the hot path
        return format!("{p:?}").len();
    }
    out.as_str().len()
}

/// A `HashMap` made and looked up: its lookup calls back through
/// `&mut dyn FnMut(usize) -> bool`, which only closures of that signature stand
/// behind (not the other closures the program coerces to `dyn FnMut`).
// noalloc:root
pub fn lookup_in_fresh_map(key: u64) -> bool {
    let map: HashMap<u64, u32> = HashMap::new();
    map.get(&key).is_some()
}

/// The twin: inserting into the fresh map allocates its table.
// noalloc:root
pub fn insert_into_fresh_map_allocates(key: u64) -> usize {
    let mut map: HashMap<u64, u32> = HashMap::new();
    map.insert(key, 1);
    map.len()
}

/// hashbrown's default hasher (foldhash) seeds itself from a static it fills
/// once, behind its own atomic state.
// noalloc:root
pub fn lookup_in_fresh_hashbrown(key: u32) -> Option<u32> {
    let map: hashbrown::HashMap<u32, u32> = hashbrown::HashMap::new();
    map.get(&key).copied()
}

// noalloc:root
pub fn insert_into_fresh_hashbrown_allocates(key: u32) -> usize {
    let mut map: hashbrown::HashMap<u32, u32> = hashbrown::HashMap::new();
    map.insert(key, key);
    map.len()
}

fn twice(x: u32) -> u32 {
    x * 2
}

fn spelled(x: u64) -> impl core::fmt::Display {
    x.to_string()
}

fn spelled_string(x: u64) -> String {
    x.to_string()
}

/// A fn pointer of `fn(u32) -> u32`: `spelled`, whose address the program also
/// takes, returns a type the walk cannot pin down, but takes a `u64`: it is not
/// behind the pointer.
// noalloc:root
pub fn call_through_pointer(x: u32) -> u32 {
    let spelled_at = spelled as fn(u64) -> _ as usize;
    let f: fn(u32) -> u32 = std::hint::black_box(twice);
    f(x) + u32::from(spelled_at == 0)
}

/// The twin: calling a `fn(u64) -> String` pointer allocates.
// noalloc:root
pub fn call_through_pointer_allocates(x: u64) -> usize {
    let f: fn(u64) -> String = std::hint::black_box(spelled_string);
    f(x).len()
}

/// memchr picks its routine for the CPU on the first call and keeps it in a
/// `static AtomicPtr<()>` (`detect`, then the chosen fn cast to a raw pointer),
/// called after a `transmute` back to a fn pointer.
// noalloc:root
pub fn find_byte(haystack: &[u8]) -> Option<usize> {
    memchr::memchr(b'x', haystack)
}

/// The twin: the same search, collected.
// noalloc:root
pub fn find_every_byte_allocates(haystack: &[u8]) -> usize {
    memchr::memchr_iter(b'x', haystack).collect::<Vec<_>>().len()
}

/// `log::info!` with no logger set goes through `log::logger()`'s `&dyn Log`
/// (the no-op logger). A logger may be set at run time: only because no
/// `Log` impl of the crate graph allocates is this clean. (No allocating twin
/// here: its `Log` impl would be one that may be set.)
// noalloc:root
pub fn log_without_logger(n: u32) -> u32 {
    log::info!("n={n}");
    n + 1
}

/// core's `<[T; N]>::map` calls a struct that implements `FnMut` by hand.
// noalloc:root
pub fn double_each(x: u32) -> u32 {
    [x; 4].map(|v| v * 2).iter().sum()
}

/// The twin: mapping each element to a `String`.
// noalloc:root
pub fn spell_each_allocates(x: u32) -> usize {
    [x; 4].map(|v| v.to_string()).iter().map(String::len).sum()
}

async fn add(a: u32, b: u32) -> u32 {
    a + b
}

async fn add_spelled(a: u32, b: u32) -> usize {
    (a + b).to_string().len()
}

/// Polls a future once, as an executor would, without knowing its type.
pub fn poll_once<F: core::future::Future>(future: F) -> Option<F::Output> {
    let mut future = core::pin::pin!(future);
    let mut cx = core::task::Context::from_waker(core::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        core::task::Poll::Ready(out) => Some(out),
        core::task::Poll::Pending => None,
    }
}

/// An `async fn`'s future polled through a generic `F: Future`.
// noalloc:root
pub fn poll_sum(a: u32) -> Option<u32> {
    poll_once(add(a, 1))
}

/// The twin: the `async fn` allocates.
// noalloc:root
pub fn poll_spelled_allocates(a: u32) -> Option<usize> {
    poll_once(add_spelled(a, 1))
}

/// simdutf8 picks its validator for the CPU the same way (a block's
/// `static AtomicPtr<()>`).
// noalloc:root
pub fn valid_utf8(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

/// The twin: the validated text, owned.
// noalloc:root
pub fn valid_utf8_owned_allocates(bytes: &[u8]) -> usize {
    simdutf8::basic::from_utf8(bytes).map(str::to_owned).map_or(0, |s| s.len())
}

/// memmem's substring search, through the same dispatch.
// noalloc:root
pub fn find_word(haystack: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, b"needle")
}

/// The twin: every match, collected.
// noalloc:root
pub fn find_every_word_allocates(haystack: &[u8]) -> usize {
    memchr::memmem::find_iter(haystack, b"needle").collect::<Vec<_>>().len()
}

/// A `Finder` the root's caller built: memmem's searcher keeps the routine it
/// picked in private fields (`Searcher::call`, `Prefilter::call`), which only
/// memchr's own code stores into.
// noalloc:root
pub fn count_with_finder(finder: &memchr::memmem::Finder<'_>, haystack: &[u8]) -> usize {
    finder.find_iter(haystack).count()
}

/// The twin: every match, collected.
// noalloc:root
pub fn collect_with_finder_allocates(finder: &memchr::memmem::Finder<'_>, haystack: &[u8]) -> usize {
    finder.find_iter(haystack).collect::<Vec<_>>().len()
}
