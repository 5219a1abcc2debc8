//! `ArrayVec<T, N>`: up to `N` items inline, in the value itself, and the
//! `CapacityError` a refused push returns. It owns its storage, so it needs no
//! caller memory and no pool; the containers over borrowed memory live in `vec`.

use core::borrow::{Borrow, BorrowMut};
use core::fmt;
use core::hash::{Hash, Hasher};
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};
use core::ptr;

/// An item a full container could not take, handed back.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CapacityError<T> {
    item: T,
}

impl<T> CapacityError<T> {
    /// The error for `item`, refused.
    pub const fn new(item: T) -> CapacityError<T> {
        CapacityError { item }
    }

    /// The refused item.
    pub fn into_inner(self) -> T {
        self.item
    }

    /// The refused item, borrowed.
    pub fn item(&self) -> &T {
        &self.item
    }
}

impl<T> fmt::Debug for CapacityError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CapacityError")
    }
}

impl<T> fmt::Display for CapacityError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no room for the item: the container is at its capacity")
    }
}

impl<T> core::error::Error for CapacityError<T> {}

/// Up to `N` items stored inline, like `arrayvec::ArrayVec` and `heapless::Vec`:
/// a slice (`Deref<Target = [T]>`) that pushes without allocating. A push that does
/// not fit hands the item back and marks the vec full, as [`Vec`](crate::Vec) does:
/// later pushes are refused too until [`clear`](ArrayVec::clear), so a request
/// checks [`is_full`](ArrayVec::is_full) once at the end.
///
/// ```
/// use bounded::ArrayVec;
///
/// let mut v = ArrayVec::<u32, 4>::new();
/// v.extend([3, 1, 2]);
/// v.sort();                       // any slice method
/// assert_eq!(v, [1, 2, 3]);
/// assert_eq!(v.try_push(4), Ok(()));
/// assert_eq!(v.try_push(5).map_err(|e| e.into_inner()), Err(5));
/// assert!(v.is_full());
/// v.retain(|&x| x % 2 == 0);
/// assert_eq!((v.as_slice(), v.capacity()), (&[2, 4][..], 4));
/// ```
pub struct ArrayVec<T, const N: usize> {
    len: usize,
    full: bool,
    items: [MaybeUninit<T>; N],
}

impl<T, const N: usize> ArrayVec<T, N> {
    /// An empty vec.
    pub const fn new() -> ArrayVec<T, N> {
        ArrayVec { len: 0, full: false, items: [const { MaybeUninit::uninit() }; N] }
    }

    /// Number of items.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no items.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `N`, the most items it holds.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Whether a push was refused since the last [`clear`](ArrayVec::clear).
    pub const fn is_full(&self) -> bool {
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
        if self.full || self.len == N {
            self.full = true;
            return Err(CapacityError::new(item));
        }
        self.items[self.len].write(item);
        self.len += 1;
        Ok(())
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: the slot at the old last index was initialised; `len` no longer
        // covers it, so it is read exactly once.
        Some(unsafe { self.items[self.len].assume_init_read() })
    }

    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` slots are initialised.
        unsafe { &*(ptr::slice_from_raw_parts(self.items.as_ptr().cast::<T>(), self.len)) }
    }

    /// The items, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: the first `len` slots are initialised, and `&mut self` is
        // exclusive.
        unsafe { &mut *(ptr::slice_from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len)) }
    }

    /// Keeps the first `len` items and drops the rest (nothing if `len` is not
    /// below the length).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let tail = ptr::slice_from_raw_parts_mut(self.items[len..].as_mut_ptr().cast::<T>(), self.len - len);
        self.len = len;
        // SAFETY: the slots `len..old len` are initialised and no longer covered by
        // `len`: dropped once (a panicking drop leaks nothing: the slice's drop
        // goes on with the rest).
        unsafe { ptr::drop_in_place(tail) };
    }

    /// Drops every item; the full mark goes too.
    pub fn clear(&mut self) {
        self.truncate(0);
        self.full = false;
    }

    /// Inserts `item` at `index`, shifting the items after it up, or hands it back
    /// when there is no room (then the vec is full).
    ///
    /// # Panics
    ///
    /// If `index > len`.
    pub fn insert(&mut self, index: usize, item: T) -> Result<(), CapacityError<T>> {
        assert!(index <= self.len, "insertion index {index} is past the length {}", self.len);
        if self.full || self.len == N {
            self.full = true;
            return Err(CapacityError::new(item));
        }
        // SAFETY: `len < N`: the slots `index..len` move up by one within the array,
        // then slot `index` is written.
        unsafe {
            let at = self.items.as_mut_ptr().add(index);
            ptr::copy(at, at.add(1), self.len - index);
            at.write(MaybeUninit::new(item));
        }
        self.len += 1;
        Ok(())
    }

    /// Removes the item at `index`, shifting the items after it down.
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    pub fn remove(&mut self, index: usize) -> T {
        assert!(index < self.len, "removal index {index} is past the length {}", self.len);
        // SAFETY: slot `index` is initialised and read once; the slots after it
        // move down by one, and `len` then no longer covers the last.
        unsafe {
            let at = self.items.as_mut_ptr().add(index);
            let item = at.read().assume_init();
            ptr::copy(at.add(1), at, self.len - index - 1);
            self.len -= 1;
            item
        }
    }

    /// Removes the item at `index` and puts the last one in its place.
    ///
    /// # Panics
    ///
    /// If `index >= len`.
    pub fn swap_remove(&mut self, index: usize) -> T {
        let last = self.len.checked_sub(1).filter(|&last| index <= last);
        let last = last.unwrap_or_else(|| panic!("removal index {index} is past the length {}", self.len));
        self.as_mut_slice().swap(index, last);
        self.pop().expect("not empty")
    }

    /// Keeps the items for which `keep` returns `true`, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(&self.as_slice()[i]) {
                self.as_mut_slice().swap(kept, i);
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Appends clones of `items`, all or none: `Err` (and the vec full) when they
    /// do not all fit.
    pub fn try_extend_from_slice(&mut self, items: &[T]) -> Result<(), CapacityError<()>>
    where
        T: Clone,
    {
        if self.full || items.len() > N - self.len {
            self.full = true;
            return Err(CapacityError::new(()));
        }
        for item in items {
            self.items[self.len].write(item.clone());
            self.len += 1;
        }
        Ok(())
    }

    /// Appends clones of `items` while they fit; the rest are dropped and mark the
    /// vec full. Whether all fitted.
    pub fn extend_from_slice(&mut self, items: &[T]) -> bool
    where
        T: Clone,
    {
        items.iter().all(|item| self.push(item.clone()))
    }
}

impl<T, const N: usize> Drop for ArrayVec<T, N> {
    fn drop(&mut self) {
        self.truncate(0);
    }
}

impl<T, const N: usize> Default for ArrayVec<T, N> {
    fn default() -> Self {
        ArrayVec::new()
    }
}

impl<T, const N: usize> Deref for ArrayVec<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T, const N: usize> DerefMut for ArrayVec<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T, const N: usize> AsRef<[T]> for ArrayVec<T, N> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T, const N: usize> AsMut<[T]> for ArrayVec<T, N> {
    fn as_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T, const N: usize> Borrow<[T]> for ArrayVec<T, N> {
    fn borrow(&self) -> &[T] {
        self
    }
}

impl<T, const N: usize> BorrowMut<[T]> for ArrayVec<T, N> {
    fn borrow_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Clone, const N: usize> Clone for ArrayVec<T, N> {
    fn clone(&self) -> Self {
        let mut out = ArrayVec::new();
        out.extend_from_slice(self);
        out.full = self.full;
        out
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for ArrayVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: PartialEq<U>, U, const N: usize, const M: usize> PartialEq<ArrayVec<U, M>> for ArrayVec<T, N> {
    fn eq(&self, other: &ArrayVec<U, M>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U]> for ArrayVec<T, N> {
    fn eq(&self, other: &[U]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<&[U]> for ArrayVec<T, N> {
    fn eq(&self, other: &&[U]) -> bool {
        self.as_slice() == *other
    }
}

impl<T: PartialEq<U>, U, const N: usize, const M: usize> PartialEq<[U; M]> for ArrayVec<T, N> {
    fn eq(&self, other: &[U; M]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Eq, const N: usize> Eq for ArrayVec<T, N> {}

impl<T: Hash, const N: usize> Hash for ArrayVec<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<'v, T, const N: usize> IntoIterator for &'v ArrayVec<T, N> {
    type Item = &'v T;
    type IntoIter = core::slice::Iter<'v, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'v, T, const N: usize> IntoIterator for &'v mut ArrayVec<T, N> {
    type Item = &'v mut T;
    type IntoIter = core::slice::IterMut<'v, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Pushes while the items fit; the rest are dropped and mark the vec full (see
/// [`is_full`](ArrayVec::is_full)).
impl<T, const N: usize> Extend<T> for ArrayVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            if !self.push(item) {
                break;
            }
        }
    }
}

impl<T, const N: usize> FromIterator<T> for ArrayVec<T, N> {
    /// The first `N` items; more mark the vec full.
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut out = ArrayVec::new();
        out.extend(items);
        out
    }
}
