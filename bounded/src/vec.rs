//! `Vec<T>`: items in caller memory, or in chunks borrowed from a pool as it fills.
//! It owns item storage and indexing across chunks; the chunks themselves belong
//! to the pool and the budget to the region.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ops::{Index, IndexMut};

use crate::CapacityError;

#[cfg(feature = "std")]
use crate::{Pool, Region};

/// The most chunks one pooled [`Vec`] holds. It takes chunks as it fills, so with
/// chunks of `n` items it holds up to `MAX_CHUNKS * n` items (fewer if the region's
/// budget or the pool runs out first).
pub const MAX_CHUNKS: usize = 32;

/// Items pushed into memory that is the caller's own, or into chunks taken from a
/// [`Pool`] through a [`Region`] as it fills.
///
/// A pooled vec uses the largest power of two of items that fits in each chunk
/// (all of it, for pools whose `chunk_len` is a power of two), so that finding item
/// `i` is a shift and a mask. Pooled items are not contiguous: read them with
/// [`get`](Vec::get),
/// [`iter`](Vec::iter) or [`chunks`](Vec::chunks). A push that does not fit does
/// nothing, returns `false` and marks the vec full; later pushes do nothing until
/// [`clear`](Vec::clear).
///
/// ```
/// use bounded::{Chunks, Pool, Region, Vec};
///
/// let pool = Pool::<u64>::new(Chunks { count: 8, len: 4 }); // 8 chunks of 4 items, made once
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
    /// Slots reachable now: the caller's slice, or `taken * chunk_len`.
    cap: usize,
    full: bool,
    /// Slot `i` is `bases[i >> shift] + (i & mask)`. Caller memory is one chunk
    /// of 2^63 slots; a pool's chunks are used up to a power of two.
    shift: u32,
    mask: usize,
    /// `mask + 1`: the slots used in each chunk.
    chunk_len: usize,
    bases: [*mut MaybeUninit<T>; MAX_CHUNKS],
    #[cfg(feature = "std")]
    pooled: Option<Pooled<'a, T>>,
    _mem: PhantomData<&'a mut [MaybeUninit<T>]>,
}

// SAFETY: the vec owns its items, in caller memory it borrows mutably or in chunks
// the pool lent to it alone; the raw pointers only address them. Sending the vec
// sends the items; sharing it shares `&T`s.
unsafe impl<T: Send> Send for Vec<'_, T> {}
// SAFETY: as above; `&self` methods give out `&T` only.
unsafe impl<T: Sync> Sync for Vec<'_, T> {}

#[cfg(feature = "std")]
struct Pooled<'a, T> {
    pool: &'a Pool<T>,
    region: &'a Region,
    indices: [u32; MAX_CHUNKS],
    taken: usize,
}

impl<'a, T> Vec<'a, T> {
    /// A vec over `mem`, holding up to `mem.len()` items.
    pub fn new(mem: &'a mut [MaybeUninit<T>]) -> Vec<'a, T> {
        let mut bases = [core::ptr::null_mut(); MAX_CHUNKS];
        bases[0] = mem.as_mut_ptr();
        let shift = usize::BITS - 1;
        Vec {
            len: 0,
            cap: mem.len(),
            full: false,
            shift,
            mask: usize::MAX >> 1,
            chunk_len: 1 << shift,
            bases,
            #[cfg(feature = "std")]
            pooled: None,
            _mem: PhantomData,
        }
    }

    /// A vec that takes chunks from `pool`, charged to `region`, as it fills.
    #[cfg(feature = "std")]
    pub fn in_region(pool: &'a Pool<T>, region: &'a Region) -> Vec<'a, T> {
        let shift = pool.chunk_len().checked_ilog2().unwrap_or(0);
        let chunk_len = if pool.chunk_len() == 0 { 0 } else { 1 << shift };
        Vec {
            len: 0,
            cap: 0,
            full: false,
            shift,
            mask: (1 << shift) - 1,
            chunk_len,
            bases: [core::ptr::null_mut(); MAX_CHUNKS],
            pooled: Some(Pooled { pool, region, indices: [0; MAX_CHUNKS], taken: 0 }),
            _mem: PhantomData,
        }
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
        self.try_push(item).is_ok()
    }

    // noalloc:root
    /// Appends `item`, or hands it back when there is no room (then the vec is
    /// full).
    #[inline]
    pub fn try_push(&mut self, item: T) -> Result<(), CapacityError<T>> {
        if self.full {
            return Err(CapacityError::new(item));
        }
        if self.len == self.cap && !self.take_chunk() {
            self.full = true;
            return Err(CapacityError::new(item));
        }
        // SAFETY: `len < cap`: the uninitialised slot at index `len`.
        unsafe { self.slot(self.len).write(MaybeUninit::new(item)) };
        self.len += 1;
        Ok(())
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

    // noalloc:root
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
        // SAFETY: each run holds initialised items, and `&self` shares them.
        (0..self.runs(self.len)).map(move |c| unsafe { &*self.run(c, self.len) })
    }

    /// How many contiguous runs `len` items take: one per chunk.
    #[inline]
    fn runs(&self, len: usize) -> usize {
        len.div_ceil(self.chunk_len.max(1))
    }

    /// Run `c` of the first `len` items: the slots of chunk `c` below `len`.
    #[inline]
    fn run(&self, c: usize, len: usize) -> *mut [T] {
        let step = self.chunk_len.max(1);
        core::ptr::slice_from_raw_parts_mut(self.bases[c].cast::<T>(), step.min(len - c * step))
    }

    /// The items as contiguous runs, mutably.
    pub fn chunks_mut(&mut self) -> impl Iterator<Item = &mut [T]> + '_ {
        let len = self.len;
        let this = &*self;
        // SAFETY: the runs are disjoint and hold initialised items; `&mut self`
        // makes them exclusively ours for the iterator's life.
        (0..this.runs(len)).map(move |c| unsafe { &mut *this.run(c, len) })
    }

    /// The items in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks().flatten()
    }

    /// The items in order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.chunks_mut().flatten()
    }

    /// The items as one slice when they are contiguous: always over caller
    /// memory, and for a pooled vec while its items fit its first chunk. Pooled
    /// items past that are read with [`chunks`](Vec::chunks) or
    /// [`iter`](Vec::iter), and indexed with `v[i]`.
    pub fn as_slice(&self) -> Option<&[T]> {
        let mut chunks = self.chunks();
        match (chunks.next(), chunks.next()) {
            (None, _) => Some(&[]),
            (Some(items), None) => Some(items),
            (Some(_), Some(_)) => None,
        }
    }

    /// [`as_slice`](Vec::as_slice), mutably.
    pub fn as_mut_slice(&mut self) -> Option<&mut [T]> {
        let mut chunks = self.chunks_mut();
        match (chunks.next(), chunks.next()) {
            (None, _) => Some(&mut []),
            (Some(items), None) => Some(items),
            (Some(_), Some(_)) => None,
        }
    }

    /// The slots reachable now: the caller memory's length, or the slots of the
    /// chunks a pooled vec holds (it takes more as it fills).
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Keeps the first `len` items and drops the rest (nothing if `len` is not
    /// below the length). Chunks are kept.
    pub fn truncate(&mut self, len: usize) {
        while self.len > len {
            drop(self.pop());
        }
    }

    /// Keeps the items for which `keep` returns `true`, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(&self[i]) {
                self.swap(kept, i);
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Swaps the items at `a` and `b`.
    ///
    /// # Panics
    ///
    /// If either is not below the length.
    pub fn swap(&mut self, a: usize, b: usize) {
        assert!(a < self.len && b < self.len, "swap of {a} and {b} past the length {}", self.len);
        // SAFETY: both slots are initialised; `ptr::swap` allows them to be the same.
        unsafe { core::ptr::swap(self.slot(a), self.slot(b)) };
    }

    /// Inserts `item` at `index`, shifting the items after it up, or hands it back
    /// when there is no room (then the vec is full).
    ///
    /// # Panics
    ///
    /// If `index > len`.
    pub fn insert(&mut self, index: usize, item: T) -> Result<(), CapacityError<T>> {
        assert!(index <= self.len, "insertion index {index} is past the length {}", self.len);
        self.try_push(item)?;
        let mut i = self.len - 1;
        while i > index {
            self.swap(i - 1, i);
            i -= 1;
        }
        Ok(())
    }

    /// Removes the item at `index`, shifting the items after it down.
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    pub fn remove(&mut self, index: usize) -> T {
        assert!(index < self.len, "removal index {index} is past the length {}", self.len);
        for i in index..self.len - 1 {
            self.swap(i, i + 1);
        }
        self.pop().expect("not empty")
    }

    /// Removes the item at `index` and puts the last one in its place.
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    pub fn swap_remove(&mut self, index: usize) -> T {
        assert!(index < self.len, "removal index {index} is past the length {}", self.len);
        self.swap(index, self.len - 1);
        self.pop().expect("not empty")
    }

    /// Appends clones of `items` while they fit; the rest are dropped and mark the
    /// vec full. Whether all fitted.
    pub fn extend_from_slice(&mut self, items: &[T]) -> bool
    where
        T: Clone,
    {
        items.iter().all(|item| self.push(item.clone()))
    }

    /// Appends clones of `items`, all or none: `Err` (and the vec full) when they
    /// do not all fit, the vec as it was.
    pub fn try_extend_from_slice(&mut self, items: &[T]) -> Result<(), CapacityError<()>>
    where
        T: Clone,
    {
        let len = self.len;
        if self.extend_from_slice(items) {
            return Ok(());
        }
        self.truncate(len);
        Err(CapacityError::new(()))
    }

    /// Drops every item; the full mark goes too. Chunks are kept for reuse. As
    /// with std's `Vec`, an item whose drop panics does not keep the others from
    /// being dropped: the panic goes on to the caller, the vec empty.
    pub fn clear(&mut self) {
        let len = core::mem::replace(&mut self.len, 0);
        self.full = false;
        // SAFETY: the first `len` items were initialised and, `len` now being 0,
        // are dropped only here.
        unsafe { self.drop_runs(0, len) };
    }

    /// Drops the first `len` items from run `from` on; if one's drop panics, the
    /// rest of its run (`drop_in_place` of a slice goes on) and the later runs
    /// (the guard, while unwinding) are dropped all the same.
    ///
    /// # Safety
    ///
    /// Those items are initialised, and nothing reads or drops them afterwards.
    unsafe fn drop_runs(&self, from: usize, len: usize) {
        struct Rest<'v, 'a, T> {
            vec: &'v Vec<'a, T>,
            next: usize,
            len: usize,
        }
        impl<T> Drop for Rest<'_, '_, T> {
            fn drop(&mut self) {
                // SAFETY: the caller's promise, for the runs not yet dropped.
                unsafe { self.vec.drop_runs(self.next, self.len) };
            }
        }
        let mut rest = Rest { vec: self, next: from, len };
        while rest.next < self.runs(len) {
            let c = rest.next;
            rest.next += 1;
            // SAFETY: run `c` holds initialised items (the caller's promise),
            // dropped once: `rest` starts after it.
            unsafe { core::ptr::drop_in_place(self.run(c, len)) };
        }
        core::mem::forget(rest);
    }

    /// Pointer to slot `index`, which must be below `cap`.
    #[inline]
    fn slot(&self, index: usize) -> *mut MaybeUninit<T> {
        debug_assert!(index < self.cap);
        let (chunk, at) = (index >> self.shift, index & self.mask);
        // SAFETY: `index < cap`, so `chunk` is a chunk this vec holds (below
        // `MAX_CHUNKS`) and `at` lies inside it.
        unsafe { self.bases.get_unchecked(chunk).add(at) }
    }

    /// Takes one more chunk from the pool, if this is a pooled vec.
    #[cfg(not(feature = "std"))]
    fn take_chunk(&mut self) -> bool {
        false
    }

    /// Takes one more chunk from the pool, if this is a pooled vec.
    #[cold]
    #[cfg(feature = "std")]
    fn take_chunk(&mut self) -> bool {
        let Some(pooled) = &mut self.pooled else { return false };
        if pooled.taken == MAX_CHUNKS || self.chunk_len == 0 {
            return false;
        }
        let Some(index) = pooled.pool.take_index(pooled.region) else { return false };
        pooled.indices[pooled.taken] = index;
        self.bases[pooled.taken] = pooled.pool.chunk_ptr(index);
        pooled.taken += 1;
        self.cap += self.chunk_len;
        true
    }
}

impl<T> Drop for Vec<'_, T> {
    fn drop(&mut self) {
        // The chunks go back when `pooled` is dropped, after this: also when an
        // item's `Drop` panics here.
        self.clear();
    }
}

/// Gives the chunks back: the guard that makes a pooled vec's drop panic-safe.
#[cfg(feature = "std")]
impl<T> Drop for Pooled<'_, T> {
    fn drop(&mut self) {
        for &index in &self.indices[..self.taken] {
            self.pool.give_back(self.region, index);
        }
    }
}

/// `v[i]`, which panics past the length; [`get`](Vec::get) does not.
impl<T> Index<usize> for Vec<'_, T> {
    type Output = T;
    #[inline]
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(item) => item,
            None => panic!("index {index} is past the length {}", self.len),
        }
    }
}

impl<T> IndexMut<usize> for Vec<'_, T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        let len = self.len;
        match self.get_mut(index) {
            Some(item) => item,
            None => panic!("index {index} is past the length {len}"),
        }
    }
}

impl<'v, T> IntoIterator for &'v Vec<'_, T> {
    type Item = &'v T;
    type IntoIter = VecIter<'v, T>;
    fn into_iter(self) -> VecIter<'v, T> {
        VecIter { runs: 0..self.runs(self.len), vec: self, run: [].iter() }
    }
}

/// The items of a [`Vec`] in order: `for item in &vec`.
pub struct VecIter<'v, T> {
    runs: core::ops::Range<usize>,
    vec: &'v Vec<'v, T>,
    /// What is left of the current run.
    run: core::slice::Iter<'v, T>,
}

impl<'v, T> Iterator for VecIter<'v, T> {
    type Item = &'v T;
    #[inline]
    fn next(&mut self) -> Option<&'v T> {
        loop {
            if let Some(item) = self.run.next() {
                return Some(item);
            }
            let c = self.runs.next()?;
            // SAFETY: run `c` holds initialised items, and the vec is shared for
            // `'v`.
            self.run = unsafe { &*self.vec.run(c, self.vec.len) }.iter();
        }
    }
}

/// Pushes while the items fit; the rest are dropped and mark the vec full (see
/// [`is_full`](Vec::is_full)).
impl<T> Extend<T> for Vec<'_, T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            if !self.push(item) {
                break;
            }
        }
    }
}

impl<T: PartialEq<U>, U> PartialEq<[U]> for Vec<'_, T> {
    fn eq(&self, other: &[U]) -> bool {
        self.len == other.len() && self.iter().zip(other).all(|(a, b)| a == b)
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U; N]> for Vec<'_, T> {
    fn eq(&self, other: &[U; N]) -> bool {
        *self == other[..]
    }
}

impl<T: PartialEq<U>, U> PartialEq<Vec<'_, U>> for Vec<'_, T> {
    fn eq(&self, other: &Vec<'_, U>) -> bool {
        self.len == other.len && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<T: Eq> Eq for Vec<'_, T> {}

/// Hashes the length, then each item in order.
impl<T: Hash> Hash for Vec<'_, T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len);
        for item in self {
            item.hash(state);
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Vec<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
