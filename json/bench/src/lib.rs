//! Shared parts of the benchmarks: the typed models of each data set, the
//! generated feed and cookie, the data files, CPU time and the counting allocator.
//! Each measurement runs in a process of its own (`src/bin/run.rs`).

pub mod canada;
pub mod citm_catalog;
pub mod small;
pub mod twitter;

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts every allocation, reallocation included, of the whole process.
pub struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// User + system CPU seconds of this process so far.
pub fn cpu_seconds() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we pass.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

/// The corpus directory, under the package as cargo names it when it runs the
/// benchmark (a target directory shared between checkouts may hand this one a
/// binary another built), else as the build did.
fn corpus() -> String {
    let package = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    format!("{package}/../../../shared/data/json-corpus/")
}

/// The bytes of a data set: a corpus file, or the generated feed or cookie.
pub fn data(name: &str) -> Vec<u8> {
    match name {
        "feed" => small::feed(),
        "cookie" => small::cookie(),
        file => {
            let path = format!("{}{file}.json", corpus());
            std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
    }
}

/// A string of a borrowed model: borrowed from the input wherever the library can
/// (serde's deserializers borrow unescaped strings; `json` borrows from the input,
/// or from its arena when escaped), owned otherwise. Unlike a bare `Cow<'a, str>`,
/// serde borrows it without `#[serde(borrow)]`, so it can stand for a type parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Str<'a>(pub Cow<'a, str>);

impl serde::Serialize for Str<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Str<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Borrowing;
        impl<'de> serde::de::Visitor<'de> for Borrowing {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(Borrowing)
    }
}

impl json::WriteJson for Str<'_> {
    fn write_json<S: json::Sink>(&self, w: &mut json::Writer<'_, S>) {
        self.0.write_json(w);
    }
}

impl<'de: 'a, 'a> json::ReadJson<'de> for Str<'a> {
    fn read_json(r: &mut json::Reader<'de>) -> json::Result<Self> {
        Cow::read_json(r).map(Str)
    }
}
