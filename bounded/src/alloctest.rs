//! `alloctest`: a counting global allocator and the checks built on it. It owns
//! per-thread allocation counts; it does not decide what should allocate.
//!
//! Opt in by installing [`Counting`] as the program's (or test binary's) global
//! allocator; it hands every request to [`System`] and counts it for the thread
//! that made it, so tests running in parallel do not see each other's counts. What
//! other threads allocate for the code under test (a pool's workers) is not counted:
//! unlike Go's `testing.AllocsPerRun`, which counts the whole process.
//!
//! ```
//! use bounded::alloctest::{self, Counting};
//!
//! #[global_allocator]
//! static ALLOC: Counting = Counting;
//!
//! fn main() {
//!     assert_eq!(alloctest::count(10, || drop(Box::new(7))), 1);
//!     alloctest::assert_zero("sum of a slice", || {
//!         std::hint::black_box([1, 2, 3].iter().sum::<i32>());
//!     });
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

/// The counting allocator: `#[global_allocator] static A: Counting = Counting;`.
///
/// `alloc`, `alloc_zeroed` and `realloc` each count as one allocation; `dealloc`
/// is not counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: during thread teardown the slot may be gone; such late
    // allocations are not the code under test.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method hands the request unchanged to `System`, which upholds
// `GlobalAlloc`'s contract; counting touches only a const-initialised thread-local
// `Cell`, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: the caller's contract for `layout` is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        // SAFETY: `ptr` came from `System` through this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations made by this thread so far.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Whether [`Counting`] is the global allocator (it counts a `Box` it makes).
pub fn installed() -> bool {
    let before = allocations();
    drop(black_box(Box::new(black_box(1u8))));
    allocations() > before
}

/// Allocations per call of `f`: one warm-up call (so lazy statics and first-use
/// buffers do not count), then `runs` calls, and the total divided by `runs`,
/// rounded up so that an occasional allocation is never hidden as 0.
///
/// # Panics
///
/// If [`Counting`] is not the global allocator: every count would be 0.
pub fn count(runs: u32, mut f: impl FnMut()) -> u64 {
    assert!(installed(), "alloctest: install `#[global_allocator] static A: bounded::alloctest::Counting = Counting;`");
    f();
    let runs = u64::from(runs.max(1));
    let before = allocations();
    for _ in 0..runs {
        f();
    }
    (allocations() - before).div_ceil(runs)
}

/// Asserts that `f` makes no allocation per call, as counted by [`count`] over a
/// few runs; the panic message names `name` and the count.
pub fn assert_zero(name: &str, f: impl FnMut()) {
    let n = count(3, f);
    assert!(n == 0, "{name}: {n} allocation(s) per call, expected none");
}
