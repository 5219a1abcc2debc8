//! `Region`: the byte budget of one request. It owns the accounting of how much
//! pooled memory the request holds; the memory itself belongs to the pools.
//!
//! Every container that borrows pooled memory also borrows the region, so the
//! compiler proves that everything a request took is back in its pool before the
//! region ends. The classic pooled-memory bugs are therefore compile errors.
//!
//! Reading a buffer after its region was released (and seeing the next request's
//! bytes) does not compile:
//!
//! ```compile_fail,E0505
//! use bounded::{Buf, Classes, Region};
//!
//! let classes = Classes::<u8>::doubling(64, 4, 2);
//! let region = Region::new(1024);
//! let mut buf = Buf::in_region(&classes, &region);
//! buf.write_str("secret of request 1");
//! region.release(); // the chunk would go back to the pool here...
//! println!("{:?}", buf.bytes()); // ...and this would read whatever request 2 wrote
//! ```
//!
//! Keeping a slice from `items()` across a move to a larger chunk does not compile:
//!
//! ```compile_fail,E0502
//! use bounded::{Classes, Region, Slice};
//!
//! let classes = Classes::<u32>::doubling(4, 4, 2);
//! let region = Region::new(1024);
//! let mut slice = Slice::in_region(&classes, &region);
//! slice.push(1);
//! let items = slice.items();
//! for i in 0..100 {
//!     slice.push(i); // may move every item to a larger chunk...
//! }
//! println!("{}", items[0]); // ...leaving `items` pointing at the old one
//! ```
//!
//! Sharing one region between threads does not compile (its accounting is not
//! synchronised; give each thread its own region over the same `Pool`):
//!
//! ```compile_fail,E0277
//! use bounded::{Pool, Region};
//!
//! let pool = Pool::<u8>::new(4, 64);
//! let region = Region::new(1024);
//! std::thread::scope(|s| {
//!     s.spawn(|| pool.take(&region));
//!     s.spawn(|| pool.take(&region));
//! });
//! ```
//!
//! The same program with a region per thread compiles and runs:
//!
//! ```
//! use bounded::{Pool, Region};
//!
//! let pool = Pool::<u8>::new(4, 64);
//! std::thread::scope(|s| {
//!     s.spawn(|| pool.take(&Region::new(1024)).is_some());
//!     s.spawn(|| pool.take(&Region::new(1024)).is_some());
//! });
//! assert_eq!(pool.stats().lent, 0);
//! ```

use std::cell::Cell;
use std::fmt;

/// The byte budget of one request.
///
/// Pools charge a chunk's bytes to the region when they lend it and credit them
/// back when it returns, so `used` is what the request holds right now. A take that
/// would go over the budget fails like a take from an empty pool.
///
/// A region is cheap to make (three words, no allocation): make one per request.
/// It is `Send` but not `Sync`: one thread at a time works in it.
pub struct Region {
    budget: usize,
    used: Cell<usize>,
    peak: Cell<usize>,
}

impl Region {
    /// A region that may hold up to `budget` bytes of pooled memory at once.
    pub const fn new(budget: usize) -> Region {
        Region { budget, used: Cell::new(0), peak: Cell::new(0) }
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Bytes of pooled memory held through this region now.
    pub fn used(&self) -> usize {
        self.used.get()
    }

    /// Bytes that can still be taken.
    pub fn left(&self) -> usize {
        self.budget - self.used.get()
    }

    /// The most bytes held at once.
    pub fn peak(&self) -> usize {
        self.peak.get()
    }

    /// Ends the request. Every container that took memory through this region
    /// borrows it, so by the time this compiles they have all been dropped and
    /// their chunks are back in their pools. Dropping the region does the same;
    /// `release` says so at the call site.
    pub fn release(self) {}

    /// Charges `bytes` if the budget allows it.
    pub(crate) fn charge(&self, bytes: usize) -> bool {
        let used = self.used.get();
        match used.checked_add(bytes) {
            Some(now) if now <= self.budget => {
                self.used.set(now);
                if now > self.peak.get() {
                    self.peak.set(now);
                }
                true
            }
            _ => false,
        }
    }

    pub(crate) fn credit(&self, bytes: usize) {
        self.used.set(self.used.get() - bytes);
    }
}

impl fmt::Debug for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Region")
            .field("budget", &self.budget)
            .field("used", &self.used.get())
            .field("peak", &self.peak.get())
            .finish()
    }
}
