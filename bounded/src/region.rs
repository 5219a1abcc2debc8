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
//! use bounded::{Buf, Classes, Doubling, Region};
//!
//! let classes = Classes::<u8>::doubling(Doubling { smallest: 64, classes: 4, chunks: 2 });
//! let region = Region::new(1024);
//! let mut buf = Buf::in_region(&classes, &region);
//! buf.write_str("secret of request 1");
//! region.release(); // the chunk would go back to the pool here...
//! println!("{:?}", buf.bytes()); // ...and this would read whatever request 2 wrote
//! ```
//!
//! The same holds for every pooled container: a `Vec`, a `Map` and a `Slice` read
//! after their region's release do not compile.
//!
//! ```compile_fail,E0505
//! use bounded::{Chunks, Pool, Region, Vec};
//!
//! let pool = Pool::<u64>::new(Chunks { count: 4, len: 8 });
//! let region = Region::new(1024);
//! let mut v = Vec::in_region(&pool, &region);
//! v.push(1);
//! region.release();
//! println!("{:?}", v.get(0));
//! ```
//!
//! ```compile_fail,E0505
//! use bounded::{map::Slot, Classes, Doubling, Map, Region};
//!
//! let slots = Classes::<Slot<u32, u32>>::doubling(Doubling { smallest: 16, classes: 2, chunks: 1 });
//! let region = Region::new(1024);
//! let mut map = Map::in_region(&slots, &region);
//! map.insert(1, 2).unwrap();
//! region.release();
//! println!("{:?}", map.get(&1));
//! ```
//!
//! ```compile_fail,E0505
//! use bounded::{Classes, Doubling, Region, Slice};
//!
//! let classes = Classes::<u32>::doubling(Doubling { smallest: 4, classes: 2, chunks: 1 });
//! let region = Region::new(1024);
//! let mut slice = Slice::in_region(&classes, &region);
//! slice.push(1);
//! region.release();
//! println!("{:?}", slice.items());
//! ```
//!
//! Keeping a slice from `items()` across a move to a larger chunk does not compile:
//!
//! ```compile_fail,E0502
//! use bounded::{Classes, Doubling, Region, Slice};
//!
//! let classes = Classes::<u32>::doubling(Doubling { smallest: 4, classes: 4, chunks: 2 });
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
//! A region's accounting is atomic, so a request's containers and `&Region` move
//! between threads with it (a task of a multi-threaded async runtime that holds
//! them across an `.await`), and threads working for one request may share its
//! budget:
//!
//! ```
//! use bounded::{Chunks, Pool, Region};
//!
//! let pool = Pool::<u8>::new(Chunks { count: 4, len: 64 });
//! let region = Region::new(128); // two chunks between both threads
//! std::thread::scope(|s| {
//!     let a = s.spawn(|| pool.take(&region).is_some());
//!     let b = s.spawn(|| pool.take(&region).is_some());
//!     assert!(a.join().unwrap() && b.join().unwrap());
//! });
//! assert_eq!((pool.stats().lent, region.used(), region.peak() <= 128), (0, 0, true));
//! ```

use core::fmt;
use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The byte budget of one request.
///
/// Pools charge a chunk's bytes to the region when they lend it and credit them
/// back when it returns, so `used` is what the request holds right now. A take that
/// would go over the budget fails like a take from an empty pool.
///
/// A region is cheap to make (three words, no allocation): make one per request.
/// It is `Send` and `Sync`: the counts are atomics (no memory is published through
/// them, so relaxed ones), and a charge never takes the count past the budget, also
/// when threads charge at once.
pub struct Region {
    budget: usize,
    used: AtomicUsize,
    peak: AtomicUsize,
}

impl Region {
    /// A region that may hold up to `budget` bytes of pooled memory at once.
    pub const fn new(budget: usize) -> Region {
        Region { budget, used: AtomicUsize::new(0), peak: AtomicUsize::new(0) }
    }

    /// The budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Bytes of pooled memory held through this region now.
    pub fn used(&self) -> usize {
        self.used.load(Relaxed)
    }

    /// Bytes that can still be taken.
    pub fn left(&self) -> usize {
        self.budget - self.used()
    }

    /// The most bytes held at once.
    pub fn peak(&self) -> usize {
        self.peak.load(Relaxed)
    }

    /// Ends the request. Every container that took memory through this region
    /// borrows it, so by the time this compiles they have all been dropped and
    /// their chunks are back in their pools. Dropping the region does the same;
    /// `release` says so at the call site.
    pub fn release(self) {}

    /// Charges `bytes` if the budget allows it.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn charge(&self, bytes: usize) -> bool {
        let charged =
            self.used.fetch_update(Relaxed, Relaxed, |used| used.checked_add(bytes).filter(|&now| now <= self.budget));
        match charged {
            Ok(before) => {
                self.peak.fetch_max(before + bytes, Relaxed);
                true
            }
            Err(_) => false,
        }
    }

    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn credit(&self, bytes: usize) {
        let before = self.used.fetch_sub(bytes, Relaxed);
        debug_assert!(before >= bytes, "a region credited more than it was charged");
    }
}

impl fmt::Debug for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Region")
            .field("budget", &self.budget)
            .field("used", &self.used())
            .field("peak", &self.peak())
            .finish()
    }
}
