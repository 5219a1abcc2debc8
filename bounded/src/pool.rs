//! `Pool<T>`: a fixed set of equal chunks, all made at construction, lent to
//! regions and given back. It owns the memory and the thread-safe free list; the
//! containers that fill chunks live in their own modules.
//!
//! Sizing rule. A request that needs several chunks at once must get them with one
//! [`Pool::reserve`], never one [`Pool::wait`] at a time: two requests that each hold
//! one chunk of a two-chunk pool and wait for a second wait forever. `reserve` takes
//! all it asks for or nothing, so no request ever sits on part of what it needs. Size
//! the pool so that `chunks >= concurrent requests x chunks per request`, and the
//! waits are then only for requests to finish, never for each other.

use std::fmt;
use std::marker::PhantomData;
use std::mem::{self, MaybeUninit};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::sync::{AtomicU32, AtomicU64, AtomicUsize, Condvar, Mutex};
use crate::Region;

/// Marks the end of the free list.
const NIL: u32 = u32::MAX;

/// `Pool::head` layout: the top chunk's index in the low 32 bits, then a bit set
/// while some thread sleeps in `wait`, then the tag.
const INDEX: u64 = u32::MAX as u64;
const WAITING: u64 = 1 << 32;
const TAG_ONE: u64 = 1 << 33;

/// How often a waiter looks at its [`Cancel`] signal.
const CANCEL_TICK: Duration = Duration::from_millis(2);

/// A fixed set of chunks of `chunk_len` items each, made once.
///
/// `Pool` is `Sync`: any number of threads take and give back chunks, each through
/// its own [`Region`]. Taking and giving back are lock-free (a tagged Treiber stack
/// over chunk indices); only [`wait`](Pool::wait) sleeps on a lock.
///
/// What a chunk holds when it comes back: containers drop the items they hold before
/// they give a chunk back, so `Drop` types are dropped. Plain data is left as it was:
/// the next borrower gets the chunk as `MaybeUninit` memory, and its bytes may be
/// those of the previous request. Never read them as initialised; clear the chunk
/// first if it may hold secrets.
///
/// ```
/// use bounded::{Chunks, Pool, Region, Vec};
///
/// // At start-up: 16 chunks of 64 items, the pool's only allocation.
/// let pool = Pool::<u64>::new(Chunks { count: 16, len: 64 });
/// // Per request: a budget, and containers that take chunks as they fill.
/// let region = Region::new(1024); // 2 chunks of 64 `u64`s
/// let mut ids = Vec::in_region(&pool, &region);
/// ids.extend(0..100);
/// assert_eq!((ids.len(), pool.stats().lent), (100, 2));
/// drop(ids); // the chunks go back
/// assert_eq!(pool.stats().lent, 0);
/// ```
pub struct Pool<T> {
    /// The chunks' items, one after another: a `Box<[MaybeUninit<T>]>` of `items`
    /// items turned into a raw pointer (and freed on drop). Not a box of
    /// `UnsafeCell`s, which would make the pool invariant in `T`: as a `NonNull`
    /// it is covariant, so a pool of `&'static str` made at start-up lends chunks
    /// for the `&'req str` of each request. That is sound because no `T` outlives
    /// its container's borrow in a chunk: containers drop their items before they
    /// give a chunk back, and a borrower reads a chunk only as `MaybeUninit`.
    mem: NonNull<MaybeUninit<T>>,
    items: usize,
    chunk_len: usize,
    /// `next[i]` is the chunk after `i` on the free list (or in a reservation).
    next: Box<[AtomicU32]>,
    /// Top of the free list: `tag << 33 | waiting << 32 | index`. The tag changes
    /// on every push, so a pop that read a stale `next` fails its compare-exchange
    /// (no ABA). The waiting bit lives in the same atomic as the top so that a
    /// waiter's registration and a give-back are ordered by that one atomic's
    /// modification order: either the give-back sees the bit and wakes the waiter,
    /// or the waiter sees the chunk.
    head: AtomicU64,
    empty: AtomicUsize,
    /// Threads sleeping in `wait`; the waiting bit is set while it is not zero.
    lock: Mutex<usize>,
    returned: Condvar,
}

// SAFETY: a chunk's memory is reached only through the one `Chunk` (or container)
// that the free list handed its index to, so no two threads touch it at once; the
// free list's SeqCst operations order one holder's writes before the next's reads.
// Items move between threads with their chunk, hence `T: Send`.
unsafe impl<T: Send> Sync for Pool<T> {}
// SAFETY: as above; the pool owns `T`s only as uninitialised memory.
unsafe impl<T: Send> Send for Pool<T> {}

/// What a pool has lent and how often it ran dry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Chunks lent out now.
    pub lent: usize,
    /// Chunks in the pool now.
    pub free: usize,
    /// Takes that found the pool empty, since construction. A pool that is never
    /// empty is big enough.
    pub empty: usize,
}

/// A signal that ends [`Pool::wait`], e.g. when a request is cancelled or times out.
#[derive(Debug, Default)]
pub struct Cancel(AtomicBool);

impl Cancel {
    /// A signal that has not fired.
    pub const fn new() -> Cancel {
        Cancel(AtomicBool::new(false))
    }

    /// Fires the signal: waits on it return `None` within a few milliseconds.
    pub fn fire(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the signal has fired.
    pub fn is_fired(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How many chunks a [`Pool`] makes and how many items each holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// How many chunks.
    pub count: usize,
    /// Items per chunk.
    pub len: usize,
}

impl<T> Pool<T> {
    /// Makes `count` chunks of `len` items each. This is the pool's only
    /// allocation.
    ///
    /// # Panics
    ///
    /// If `count >= u32::MAX` or the memory size overflows `usize`.
    pub fn new(Chunks { count: chunks, len: chunk_len }: Chunks) -> Pool<T> {
        assert!(chunks < NIL as usize, "a pool holds fewer than 2^32 - 1 chunks");
        let items = chunks.checked_mul(chunk_len).expect("pool size overflows usize");
        let mem: Box<[MaybeUninit<T>]> = (0..items).map(|_| MaybeUninit::uninit()).collect();
        let mem = NonNull::new(Box::into_raw(mem).cast::<MaybeUninit<T>>()).expect("a box is never null");
        let next =
            (0..chunks as u32).map(|i| AtomicU32::new(if i + 1 == chunks as u32 { NIL } else { i + 1 })).collect();
        let top = if chunks == 0 { NIL } else { 0 };
        Pool {
            mem,
            items,
            chunk_len,
            next,
            head: AtomicU64::new(top as u64),
            empty: AtomicUsize::new(0),
            lock: Mutex::new(0),
            returned: Condvar::new(),
        }
    }

    /// Items per chunk.
    pub fn chunk_len(&self) -> usize {
        self.chunk_len
    }

    /// Bytes per chunk: what a take charges to its region.
    pub fn chunk_bytes(&self) -> usize {
        self.chunk_len * mem::size_of::<T>()
    }

    /// How many chunks the pool has, lent or not.
    pub fn chunks(&self) -> usize {
        self.next.len()
    }

    /// Lent and free chunks, and how often a take found none. The counts are
    /// exact while no other thread takes or gives back; meanwhile they are a
    /// snapshot that may be off by the chunks in flight. (Counting them exactly
    /// would cost every take and give-back one more atomic operation.)
    pub fn stats(&self) -> Stats {
        let mut free = 0;
        let mut index = self.head.load(SeqCst) as u32;
        while index != NIL && free < self.chunks() {
            free += 1;
            index = self.next[index as usize].load(SeqCst);
        }
        Stats { lent: self.chunks() - free, free, empty: self.empty.load(SeqCst) }
    }

    /// Lends a chunk, charging [`chunk_bytes`](Pool::chunk_bytes) to `region`.
    /// `None` if the pool is empty or the region's budget is spent.
    pub fn take<'a>(&'a self, region: &'a Region) -> Option<Chunk<'a, T>> {
        let index = self.take_index(region)?;
        Some(Chunk { pool: self, region, index, _items: PhantomData })
    }

    /// Like [`take`](Pool::take), but when the pool is empty, sleeps until a chunk
    /// comes back or `cancel` fires. `None` when cancelled, or at once when the
    /// region's budget cannot cover a chunk.
    pub fn wait<'a>(&'a self, region: &'a Region, cancel: &Cancel) -> Option<Chunk<'a, T>> {
        if !region.charge(self.chunk_bytes()) {
            return None;
        }
        if let Some(index) = self.pop() {
            return Some(Chunk { pool: self, region, index, _items: PhantomData });
        }
        self.empty.fetch_add(1, SeqCst);
        loop {
            if let Some(index) = self.pop() {
                return Some(Chunk { pool: self, region, index, _items: PhantomData });
            }
            if cancel.is_fired() {
                region.credit(self.chunk_bytes());
                return None;
            }
            let mut waiters = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            *waiters += 1;
            // Register in `head` itself: a give-back ordered before this sees no bit
            // but left its chunk on top; one ordered after sees the bit and wakes us
            // (it needs the lock, which we hold until we sleep).
            let top = self.head.fetch_or(WAITING, SeqCst);
            if top & INDEX == NIL as u64 {
                waiters = match self.returned.wait_timeout(waiters, CANCEL_TICK) {
                    Ok((guard, _)) => guard,
                    Err(e) => e.into_inner().0,
                };
            }
            *waiters -= 1;
            if *waiters == 0 {
                self.head.fetch_and(!WAITING, SeqCst);
            }
            drop(waiters);
        }
    }

    /// Lends `n` chunks at once, or none: see the sizing rule in the module docs.
    /// `None` if the pool has fewer than `n` free chunks or the region's budget
    /// cannot cover them; then nothing is taken. (A failing reserve gives back what
    /// it took before it returns, so for that moment other threads may find those
    /// chunks lent.)
    pub fn reserve<'a>(&'a self, region: &'a Region, n: usize) -> Option<Reservation<'a, T>> {
        let bytes = self.chunk_bytes().checked_mul(n)?;
        if !region.charge(bytes) {
            return None;
        }
        let mut reservation = Reservation { pool: self, region, head: NIL, len: 0 };
        while reservation.len < n {
            match self.pop() {
                Some(index) => {
                    self.next[index as usize].store(reservation.head, SeqCst);
                    reservation.head = index;
                    reservation.len += 1;
                }
                None => {
                    self.empty.fetch_add(1, SeqCst);
                    // Dropping gives back what was taken and credits all of it.
                    region.credit(self.chunk_bytes() * (n - reservation.len));
                    return None;
                }
            }
        }
        Some(reservation)
    }

    pub(crate) fn take_index(&self, region: &Region) -> Option<u32> {
        if !region.charge(self.chunk_bytes()) {
            return None;
        }
        match self.pop() {
            Some(index) => Some(index),
            None => {
                self.empty.fetch_add(1, SeqCst);
                region.credit(self.chunk_bytes());
                None
            }
        }
    }

    /// Gives a chunk back. The caller must have dropped the items in it.
    pub(crate) fn give_back(&self, region: &Region, index: u32) {
        region.credit(self.chunk_bytes());
        self.push(index);
    }

    /// The first item of chunk `index`.
    pub(crate) fn chunk_ptr(&self, index: u32) -> *mut MaybeUninit<T> {
        let start = index as usize * self.chunk_len;
        debug_assert!(start + self.chunk_len <= self.items);
        // SAFETY: `start` is within `mem` (or one past its end for an empty chunk).
        // The memory is reached only through raw pointers from `mem`, never through
        // a reference, so writing through one derived from `&self` is allowed.
        unsafe { self.mem.as_ptr().add(start) }
    }

    fn pop(&self) -> Option<u32> {
        let mut head = self.head.load(SeqCst);
        let mut backoff = Backoff::default();
        loop {
            let index = (head & INDEX) as u32;
            if index == NIL {
                return None;
            }
            // Possibly stale if another thread popped `index` meanwhile; then the tag
            // has moved on and the exchange below fails.
            let next = self.next[index as usize].load(SeqCst);
            let new = (head & !INDEX) | next as u64;
            match self.head.compare_exchange_weak(head, new, SeqCst, SeqCst) {
                Ok(_) => return Some(index),
                Err(now) => {
                    backoff.spin();
                    head = now;
                }
            }
        }
    }

    fn push(&self, index: u32) {
        let mut head = self.head.load(SeqCst);
        let mut backoff = Backoff::default();
        loop {
            self.next[index as usize].store((head & INDEX) as u32, SeqCst);
            let new = (head & !INDEX).wrapping_add(TAG_ONE) | index as u64;
            match self.head.compare_exchange_weak(head, new, SeqCst, SeqCst) {
                Ok(_) => break,
                Err(now) => {
                    backoff.spin();
                    head = now;
                }
            }
        }
        if head & WAITING != 0 {
            // noalloc:exempt measured: std's `Mutex` (a futex on Linux) does not allocate; it is taken only when a thread waits for a chunk
            let _waiters = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.returned.notify_one();
        }
    }
}

/// Spins a little longer after each lost compare-exchange, so that two threads
/// fighting over the head let one of them through.
#[derive(Default)]
struct Backoff {
    step: u32,
}

impl Backoff {
    fn spin(&mut self) {
        for _ in 0..1u32 << self.step.min(6) {
            std::hint::spin_loop();
        }
        self.step += 1;
    }
}

impl<T> Drop for Pool<T> {
    fn drop(&mut self) {
        let mem = std::ptr::slice_from_raw_parts_mut(self.mem.as_ptr(), self.items);
        // SAFETY: `mem` is the box `new` made, freed once; its items are
        // `MaybeUninit`, so freeing drops none.
        drop(unsafe { Box::from_raw(mem) });
    }
}

impl<T> fmt::Debug for Pool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pool")
            .field("chunks", &self.chunks())
            .field("chunk_len", &self.chunk_len)
            .field("stats", &self.stats())
            .finish()
    }
}

/// One chunk lent by a [`Pool`]: `chunk_len` slots of uninitialised memory. It goes
/// back to the pool when dropped; items written into it are not dropped (they are
/// `MaybeUninit`), which is the job of the container built on it.
pub struct Chunk<'a, T> {
    pool: &'a Pool<T>,
    region: &'a Region,
    index: u32,
    /// The chunk holds `T`s: `Send` and `Sync` only as `T` is (the pool's own
    /// `Sync` asks only `T: Send`).
    _items: PhantomData<T>,
}

impl<'a, T> Chunk<'a, T> {
    /// The pool this chunk goes back to.
    pub fn pool(&self) -> &'a Pool<T> {
        self.pool
    }

    /// The region this chunk is charged to.
    pub fn region(&self) -> &'a Region {
        self.region
    }

    pub(crate) fn raw(&self) -> *mut MaybeUninit<T> {
        self.pool.chunk_ptr(self.index)
    }
}

impl<T> Deref for Chunk<'_, T> {
    type Target = [MaybeUninit<T>];
    fn deref(&self) -> &[MaybeUninit<T>] {
        // SAFETY: the free list gave `index` to this chunk alone; `chunk_len` slots
        // from `chunk_ptr` lie inside the pool, which outlives `'a`.
        unsafe { std::slice::from_raw_parts(self.raw(), self.pool.chunk_len) }
    }
}

impl<T> DerefMut for Chunk<'_, T> {
    fn deref_mut(&mut self) -> &mut [MaybeUninit<T>] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.raw(), self.pool.chunk_len) }
    }
}

impl<T> Drop for Chunk<'_, T> {
    fn drop(&mut self) {
        self.pool.give_back(self.region, self.index);
    }
}

impl<T> fmt::Debug for Chunk<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chunk").field("index", &self.index).field("len", &self.pool.chunk_len).finish()
    }
}

/// Chunks taken together by [`Pool::reserve`]. Take them out one at a time with
/// the iterator; whatever is left goes back to the pool on drop.
pub struct Reservation<'a, T> {
    pool: &'a Pool<T>,
    region: &'a Region,
    head: u32,
    len: usize,
}

impl<'a, T> Reservation<'a, T> {
    /// Whether every chunk has been taken out.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Takes the reserved chunks out one at a time; their bytes were charged by
/// `reserve`.
impl<'a, T> Iterator for Reservation<'a, T> {
    type Item = Chunk<'a, T>;
    fn next(&mut self) -> Option<Chunk<'a, T>> {
        if self.head == NIL {
            return None;
        }
        let index = self.head;
        self.head = self.pool.next[index as usize].load(SeqCst);
        self.len -= 1;
        Some(Chunk { pool: self.pool, region: self.region, index, _items: PhantomData })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<T> ExactSizeIterator for Reservation<'_, T> {}

impl<T> Drop for Reservation<'_, T> {
    fn drop(&mut self) {
        for chunk in self.by_ref() {
            drop(chunk);
        }
    }
}
