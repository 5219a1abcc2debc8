//! `Vec<T>`: items in caller memory, or in chunks borrowed from a pool as it fills.
//! It owns item storage and indexing across chunks; the chunks themselves belong
//! to the pool and the budget to the region.

use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::ptr::NonNull;

use crate::{Pool, Region};

/// The most chunks one pooled [`Vec`] holds. It takes chunks as it fills, so with
/// chunks of `n` items it holds up to `MAX_CHUNKS * n` items (fewer if the region's
/// budget or the pool runs out first).
pub const MAX_CHUNKS: usize = 32;

/// Items pushed into memory that is the caller's own, or into chunks taken from a
/// [`Pool`] through a [`Region`] as it fills.
///
/// Pooled items are not contiguous: read them with [`get`](Vec::get),
/// [`iter`](Vec::iter) or [`chunks`](Vec::chunks). A push that does not fit does
/// nothing, returns `false` and marks the vec full; later pushes do nothing until
/// [`clear`](Vec::clear).
///
/// ```
/// use bounded::{Pool, Region, Vec};
///
/// let pool = Pool::<u64>::new(8, 4); // 8 chunks of 4 items, made once
/// let region = Region::new(64);      // this request may hold 64 bytes: 2 chunks
/// let mut v = Vec::in_region(&pool, &region);
/// for i in 0..10 {
///     v.push(i);
/// }
/// assert!(v.is_full());
/// assert_eq!(v.len(), 8);
/// assert_eq!(v.get(5), Some(&5));
/// assert_eq!(v.chunks().map(<[u64]>::len).collect::<std::vec::Vec<_>>(), [4, 4]);
/// assert_eq!(v.iter().sum::<u64>(), 28);
/// ```
pub struct Vec<'a, T> {
    len: usize,
    full: bool,
    store: Store<'a, T>,
}

enum Store<'a, T> {
    Own { ptr: NonNull<MaybeUninit<T>>, cap: usize, _mem: PhantomData<&'a mut [MaybeUninit<T>]> },
    Pooled { pool: &'a Pool<T>, region: &'a Region, shift: Option<u32>, chunks: [u32; MAX_CHUNKS], taken: usize },
}

impl<'a, T> Vec<'a, T> {
    /// A vec over `mem`, holding up to `mem.len()` items.
    pub fn new(mem: &'a mut [MaybeUninit<T>]) -> Vec<'a, T> {
        let (ptr, cap) = (NonNull::from(&mut *mem).cast(), mem.len());
        Vec { len: 0, full: false, store: Store::Own { ptr, cap, _mem: PhantomData } }
    }

    /// A vec that takes chunks from `pool`, charged to `region`, as it fills.
    pub fn in_region(pool: &'a Pool<T>, region: &'a Region) -> Vec<'a, T> {
        let len = pool.chunk_len();
        let shift = len.is_power_of_two().then(|| len.trailing_zeros());
        Vec { len: 0, full: false, store: Store::Pooled { pool, region, shift, chunks: [0; MAX_CHUNKS], taken: 0 } }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a push was refused since the last [`clear`](Vec::clear).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Appends `item` and returns `true`, or drops it and returns `false` when
    /// there is no room (then the vec is full).
    pub fn push(&mut self, item: T) -> bool {
        if self.full {
            return false;
        }
        let Some(slot) = self.slot_for_push() else {
            self.full = true;
            return false;
        };
        // SAFETY: `slot` is the uninitialised slot at index `len`.
        unsafe { slot.write(MaybeUninit::new(item)) };
        self.len += 1;
        true
    }

    /// Removes and returns the last item. Memory taken from the pool is kept.
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: the slot at the old last index was initialised; `len` no longer
        // covers it, so it is read exactly once.
        Some(unsafe { self.slot(self.len).read().assume_init() })
    }

    /// The item at `index`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        if index >= self.len {
            return None;
        }
        // SAFETY: slots below `len` are initialised, and `&self` shares them.
        Some(unsafe { (*self.slot(index)).assume_init_ref() })
    }

    /// The item at `index`, mutably.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        if index >= self.len {
            return None;
        }
        // SAFETY: slots below `len` are initialised, and `&mut self` is exclusive.
        Some(unsafe { (*self.slot(index)).assume_init_mut() })
    }

    /// The items as contiguous runs: one for caller memory, one per chunk for a
    /// pooled vec.
    pub fn chunks(&self) -> impl Iterator<Item = &[T]> + '_ {
        let (step, count) = match &self.store {
            Store::Own { .. } => (self.len.max(1), usize::from(self.len > 0)),
            Store::Pooled { pool, .. } => (pool.chunk_len(), self.len.div_ceil(pool.chunk_len().max(1))),
        };
        (0..count).map(move |i| {
            let start = i * step;
            let len = step.min(self.len - start);
            // SAFETY: slots `start..start + len` are initialised and lie within one
            // chunk (or the caller's memory), which `&self` shares.
            unsafe { std::slice::from_raw_parts(self.slot(start).cast::<T>(), len) }
        })
    }

    /// The items in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks().flatten()
    }

    /// Drops every item; the full mark goes too. Chunks are kept for reuse.
    pub fn clear(&mut self) {
        let len = std::mem::replace(&mut self.len, 0);
        self.full = false;
        for i in 0..len {
            // SAFETY: slot `i` was initialised and, `len` now being 0, is dropped
            // only here.
            unsafe { (*self.slot(i)).assume_init_drop() };
        }
    }

    /// Pointer to slot `index`, which must be below the current capacity.
    #[inline]
    fn slot(&self, index: usize) -> *mut MaybeUninit<T> {
        match &self.store {
            // SAFETY: `index < cap`, so the result is inside the caller's memory.
            Store::Own { ptr, .. } => unsafe { ptr.as_ptr().add(index) },
            Store::Pooled { pool, shift, chunks, .. } => {
                let (chunk, at) = match shift {
                    Some(s) => (index >> s, index & ((1 << s) - 1)),
                    None => (index / pool.chunk_len(), index % pool.chunk_len()),
                };
                // SAFETY: `chunk < taken` (index is below capacity) and `at` is below
                // the chunk length, so this is inside a chunk this vec holds.
                unsafe { pool.chunk_ptr(chunks[chunk]).add(at) }
            }
        }
    }

    /// The slot at `len`, taking a chunk first if needed.
    fn slot_for_push(&mut self) -> Option<*mut MaybeUninit<T>> {
        match &mut self.store {
            Store::Own { cap, .. } if self.len >= *cap => return None,
            Store::Own { .. } => {}
            Store::Pooled { pool, region, chunks, taken, .. } => {
                if pool.chunk_len() == 0 {
                    return None;
                }
                if self.len == *taken * pool.chunk_len() {
                    if *taken == MAX_CHUNKS {
                        return None;
                    }
                    chunks[*taken] = pool.take_index(region)?;
                    *taken += 1;
                }
            }
        }
        Some(self.slot(self.len))
    }
}

impl<T> Drop for Vec<'_, T> {
    fn drop(&mut self) {
        self.clear();
        if let Store::Pooled { pool, region, chunks, taken, .. } = &self.store {
            for &index in &chunks[..*taken] {
                pool.give_back(region, index);
            }
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Vec<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
