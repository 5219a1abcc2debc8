//! `Classes<T>`: pools of growing chunk sizes, the way an allocator has size
//! classes. It owns the choice of which pool serves a request for `n` items;
//! moving items between chunks is the containers' job.

use std::fmt;

use crate::{Chunk, Chunks, Pool, Region};

/// The size classes [`Classes::doubling`] makes: `classes` pools of `chunks` chunks
/// each, whose lengths start at `smallest` items and double.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Doubling {
    /// Items per chunk in the smallest class.
    pub smallest: usize,
    /// How many classes.
    pub classes: usize,
    /// Chunks in each class.
    pub chunks: usize,
}

/// Pools of chunks of increasing length, made once. Containers that grow
/// ([`Slice`](crate::Slice), [`Map`](crate::Map), [`Buf`](crate::Buf)) move through
/// them: each move takes a chunk from a larger class and gives the old one back.
///
/// ```
/// use bounded::{Buf, Chunks, Classes, Region};
///
/// // Made once: 4 chunks of 64 bytes and 2 of 1 KiB.
/// let classes = Classes::<u8>::new(&[Chunks { count: 4, len: 64 }, Chunks { count: 2, len: 1024 }]);
/// let region = Region::new(4096);
/// let mut page = Buf::in_region(&classes, &region);
/// page.write_str("<ul>");
/// assert_eq!(page.capacity(), 64);
/// for _ in 0..20 {
///     page.write_str("<li>item</li>");
/// }
/// assert_eq!((page.capacity(), page.is_full()), (1024, false)); // moved up a class
/// ```
pub struct Classes<T> {
    pools: Box<[Pool<T>]>,
}

impl<T> Classes<T> {
    /// One pool per class, sorted by chunk length.
    pub fn new(classes: &[Chunks]) -> Classes<T> {
        let mut pools: Box<[Pool<T>]> = classes.iter().map(|&class| Pool::new(class)).collect();
        pools.sort_by_key(Pool::chunk_len);
        Classes { pools }
    }

    /// Pools whose chunk lengths double: `Doubling { smallest: 64, classes: 3,
    /// chunks: 8 }` makes 8 chunks each of 64, 128 and 256 items.
    ///
    /// ```
    /// use bounded::{Classes, Doubling};
    ///
    /// let classes = Classes::<u8>::doubling(Doubling { smallest: 64, classes: 3, chunks: 8 });
    /// let lens: Vec<usize> = classes.pools().iter().map(|p| p.chunk_len()).collect();
    /// assert_eq!(lens, [64, 128, 256]);
    /// assert_eq!(classes.max_len(), 256);
    /// ```
    ///
    /// # Panics
    ///
    /// If the longest chunk's length, `smallest << (classes - 1)`, overflows
    /// `usize`; and as [`Pool::new`] does.
    pub fn doubling(Doubling { smallest, classes, chunks }: Doubling) -> Classes<T> {
        let pools = (0..classes)
            .map(|i| {
                let len = u32::try_from(i)
                    .ok()
                    .and_then(|i| 1usize.checked_shl(i))
                    .and_then(|factor| smallest.checked_mul(factor))
                    .unwrap_or_else(|| panic!("Classes::doubling: a chunk of {smallest} << {i} items overflows usize"));
                Pool::new(Chunks { count: chunks, len })
            })
            .collect();
        Classes { pools }
    }

    /// The pools, smallest chunks first.
    pub fn pools(&self) -> &[Pool<T>] {
        &self.pools
    }

    /// The longest chunk any class has.
    pub fn max_len(&self) -> usize {
        self.pools.last().map_or(0, Pool::chunk_len)
    }

    /// A chunk of at least `min_len` items: from the smallest class that is long
    /// enough and has a free chunk within the region's budget.
    pub fn take<'a>(&'a self, region: &'a Region, min_len: usize) -> Option<Chunk<'a, T>> {
        self.pools.iter().filter(|pool| pool.chunk_len() >= min_len).find_map(|pool| pool.take(region))
    }
}

impl<T> fmt::Debug for Classes<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.pools.iter()).finish()
    }
}
