//! `Slice<T>`: contiguous items in one pooled chunk that moves to the next size
//! class when it fills. It owns the move; the classes own the chunks.

use std::fmt;
use std::ptr;

use crate::{CapacityError, Chunk, Classes, Region};

/// Contiguous items in a chunk from [`Classes`]. When the chunk fills, the next push
/// moves every item to a chunk of the next class and gives the old chunk back, the
/// way `std::vec::Vec` reallocates. Past the largest class or the region's budget,
/// a push does nothing, returns `false` and marks the slice full.
///
/// ```
/// use bounded::{Classes, Doubling, Region, Slice};
///
/// let classes = Classes::<u32>::doubling(Doubling { smallest: 4, classes: 3, chunks: 2 }); // chunks of 4, 8 and 16 items
/// let region = Region::new(1024);
/// let mut slice = Slice::in_region(&classes, &region);
/// for i in 0..10 {
///     slice.push(i);
/// }
/// assert_eq!(slice.capacity(), 16);
/// assert_eq!(slice.items(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
/// assert_eq!(region.used(), 16 * 4); // the chunks of 4 and 8 went back
/// ```
///
/// A slice is `Send` and `Sync` as its items are: a slice of `Cell`s is not shared
/// between threads.
///
/// ```compile_fail,E0277
/// fn shared<T: Sync>(_: &T) {}
/// let classes = bounded::Classes::<std::cell::Cell<u32>>::doubling(bounded::Doubling { smallest: 4, classes: 1, chunks: 1 });
/// let region = bounded::Region::new(64);
/// shared(&bounded::Slice::in_region(&classes, &region));
/// ```
pub struct Slice<'a, T> {
    classes: &'a Classes<T>,
    region: &'a Region,
    chunk: Option<Chunk<'a, T>>,
    len: usize,
    full: bool,
}

impl<'a, T> Slice<'a, T> {
    /// An empty slice; it takes its first chunk on the first push.
    pub fn in_region(classes: &'a Classes<T>, region: &'a Region) -> Slice<'a, T> {
        Slice { classes, region, chunk: None, len: 0, full: false }
    }

    /// The items.
    pub fn items(&self) -> &[T] {
        match &self.chunk {
            // SAFETY: the first `len` slots of the chunk are initialised.
            Some(chunk) => unsafe { std::slice::from_raw_parts(chunk.raw().cast::<T>(), self.len) },
            None => &[],
        }
    }

    /// The items, mutably.
    pub fn items_mut(&mut self) -> &mut [T] {
        match &mut self.chunk {
            // SAFETY: as in `items`; `&mut self` makes the borrow exclusive.
            Some(chunk) => unsafe { std::slice::from_raw_parts_mut(chunk.raw().cast::<T>(), self.len) },
            None => &mut [],
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

    /// Items the current chunk holds.
    pub fn capacity(&self) -> usize {
        self.chunk.as_ref().map_or(0, |chunk| chunk.len())
    }

    /// Whether a push was refused since the last [`clear`](Slice::clear).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Appends `item` and returns `true`, moving to a larger chunk if needed; or
    /// drops it and returns `false` (then the slice is full).
    pub fn push(&mut self, item: T) -> bool {
        self.try_push(item).is_ok()
    }

    // noalloc:root
    /// Appends `item`, moving to a larger chunk if needed; or hands it back (then
    /// the slice is full).
    pub fn try_push(&mut self, item: T) -> Result<(), CapacityError<T>> {
        if self.full || (self.len == self.capacity() && !self.grow()) {
            self.full = true;
            return Err(CapacityError::new(item));
        }
        let chunk = self.chunk.as_mut().expect("grow took a chunk");
        chunk[self.len].write(item);
        self.len += 1;
        Ok(())
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let chunk = self.chunk.as_ref()?;
        // SAFETY: the slot at the old last index is initialised and now outside
        // `len`, so it is read once.
        Some(unsafe { chunk.raw().add(self.len).read().assume_init() })
    }

    /// Drops every item and the full mark; the chunk is kept.
    pub fn clear(&mut self) {
        let items: *mut [T] = self.items_mut();
        self.len = 0;
        self.full = false;
        // SAFETY: the items were initialised and `len` no longer covers them.
        unsafe { ptr::drop_in_place(items) };
    }

    /// Moves the items to a chunk of the next class.
    fn grow(&mut self) -> bool {
        let Some(bigger) = self.classes.take(self.region, self.capacity() + 1) else { return false };
        if let Some(old) = &self.chunk {
            // SAFETY: moves `len` initialised items into the new chunk, which is
            // longer; the old chunk's slots are then treated as uninitialised.
            unsafe { ptr::copy_nonoverlapping(old.raw(), bigger.raw(), self.len) };
        }
        self.chunk = Some(bigger); // the old chunk goes back to its pool
        true
    }
}

impl<T> Drop for Slice<'_, T> {
    fn drop(&mut self) {
        self.clear();
    }
}

impl<T: fmt::Debug> fmt::Debug for Slice<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.items()).finish()
    }
}
