//! `Map<K, V>`: a hash map with an entry limit, over caller memory or pooled size
//! classes. It owns hashing, probing and moving to a larger class; the memory
//! belongs to the caller or the classes.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::ptr::{self, NonNull};

use crate::{Chunk, Classes, Region};

/// One slot of a [`Map`]'s table. Caller memory for a map is an array of empty
/// slots: `[Slot::EMPTY; 64]`.
pub struct Slot<K, V> {
    /// 0 when empty; otherwise the high half of the key's hash with the low bit
    /// set, from which the slot's home index is recomputed.
    tag: u32,
    entry: MaybeUninit<(K, V)>,
}

impl<K, V> Slot<K, V> {
    /// An empty slot.
    pub const EMPTY: Slot<K, V> = Slot { tag: 0, entry: MaybeUninit::uninit() };
}

/// The most entries a map holds per slot of its table: 7/8.
const fn max_load(slots: usize) -> usize {
    slots - slots / 8
}

/// A hash map that holds up to its entry limit and never allocates.
///
/// [`insert`](Map::insert) of a new key past the limit does nothing, returns
/// `false` and marks the map full; updating a key already there always works. A map
/// over caller memory ([`Map::new`]) has a fixed limit (7/8 of its slots, or less
/// with [`reset`](Map::reset)); a map [`in_region`](Map::in_region) starts in the
/// smallest class and moves through the classes as it fills, until the largest class
/// or the region's budget.
///
/// ```
/// use bounded::map::{Map, Slot};
///
/// let mut mem = [Slot::EMPTY; 8];
/// let mut ages = Map::new(&mut mem);
/// assert_eq!(ages.limit(), 7);
/// assert!(ages.insert("ada", 36));
/// assert!(ages.insert("alan", 41));
/// ages.reset(1); // empty again, holding at most one entry
/// assert!(ages.insert("ada", 36));
/// assert!(!ages.insert("alan", 41)); // a new key past the limit...
/// assert!(ages.insert("ada", 37));   // ...but updates always work
/// assert_eq!(ages.get("ada"), Some(&37));
/// assert!(ages.is_full());
/// ```
///
/// The default hasher is FxHash: fast, and not resistant to keys chosen to collide.
/// For untrusted keys pass `std::hash::RandomState` to
/// [`with_hasher`](Map::with_hasher).
pub struct Map<'a, K, V, S = FxBuildHasher> {
    slots: NonNull<Slot<K, V>>,
    /// Table length: 0 or a power of two.
    cap: usize,
    len: usize,
    limit: usize,
    full: bool,
    hasher: S,
    mem: Mem<'a, K, V>,
}

enum Mem<'a, K, V> {
    Own(PhantomData<&'a mut [Slot<K, V>]>),
    Pooled { classes: &'a Classes<Slot<K, V>>, region: &'a Region, chunk: Option<Chunk<'a, Slot<K, V>>> },
}

impl<'a, K: Hash + Eq, V> Map<'a, K, V> {
    /// A map over `mem` (its largest power-of-two prefix), holding up to 7/8 of
    /// that many entries.
    pub fn new(mem: &'a mut [Slot<K, V>]) -> Map<'a, K, V> {
        Map::with_hasher(mem, FxBuildHasher::default())
    }

    /// A map that takes its table from `classes`, charged to `region`, and moves to
    /// a larger class when it reaches its limit.
    pub fn in_region(classes: &'a Classes<Slot<K, V>>, region: &'a Region) -> Map<'a, K, V> {
        Map::in_region_with_hasher(classes, region, FxBuildHasher::default())
    }
}

impl<'a, K: Hash + Eq, V, S: BuildHasher> Map<'a, K, V, S> {
    /// [`Map::new`] with another hasher.
    pub fn with_hasher(mem: &'a mut [Slot<K, V>], hasher: S) -> Map<'a, K, V, S> {
        let cap = if mem.is_empty() { 0 } else { 1 << mem.len().ilog2().min(31) };
        for slot in &mut mem[..cap] {
            slot.tag = 0; // what a forgotten map left is leaked, never read
        }
        let slots = NonNull::from(&mut *mem).cast();
        Map { slots, cap, len: 0, limit: max_load(cap), full: false, hasher, mem: Mem::Own(PhantomData) }
    }

    /// [`Map::in_region`] with another hasher.
    pub fn in_region_with_hasher(
        classes: &'a Classes<Slot<K, V>>,
        region: &'a Region,
        hasher: S,
    ) -> Map<'a, K, V, S> {
        let mem = Mem::Pooled { classes, region, chunk: None };
        Map { slots: NonNull::dangling(), cap: 0, len: 0, limit: 0, full: false, hasher, mem }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The most entries the map holds now. A pooled map's limit rises as it moves
    /// to larger classes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether an insert of a new key was refused since the last reset.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Empties the map and sets its entry limit. `false` if the memory cannot hold
    /// `limit` entries; then the limit is the most it can hold (a pooled map first
    /// tries to move to a class large enough).
    pub fn reset(&mut self, limit: usize) -> bool {
        self.clear();
        self.full = false;
        if limit > max_load(self.cap) {
            self.grow_to(limit);
        }
        self.limit = limit.min(max_load(self.cap));
        self.limit == limit
    }

    /// Inserts or updates `key`. Returns whether the entry is stored: updating a key
    /// that is there always works; a new key past the limit is dropped and marks the
    /// map full.
    pub fn insert(&mut self, key: K, value: V) -> bool {
        let tag = self.tag(&key);
        let empty = match self.find(tag, &key) {
            Ok(i) => {
                // SAFETY: slot `i` holds an entry (found), exclusively ours.
                unsafe { (*self.slot(i)).entry.assume_init_mut().1 = value };
                return true;
            }
            Err(empty) => empty,
        };
        if self.full {
            return false;
        }
        let empty = if self.len < self.limit {
            empty
        } else if self.grow_to(self.len + 1) {
            self.limit = max_load(self.cap);
            match self.find(tag, &key) {
                Err(empty) => empty,
                Ok(_) => unreachable!("the key was not in the map before it moved"),
            }
        } else {
            self.full = true;
            return false;
        };
        // SAFETY: `empty` is an empty slot of the table.
        unsafe {
            let slot = &mut *self.slot(empty);
            slot.tag = tag;
            slot.entry.write((key, value));
        }
        self.len += 1;
        true
    }

    /// The value for `key`.
    #[inline]
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(self.tag(key), key).ok()?;
        // SAFETY: slot `i` holds an entry; `&self` shares it.
        Some(unsafe { &(*self.slot(i)).entry.assume_init_ref().1 })
    }

    /// The value for `key`, mutably.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(self.tag(key), key).ok()?;
        // SAFETY: slot `i` holds an entry; `&mut self` is exclusive.
        Some(unsafe { &mut (*self.slot(i)).entry.assume_init_mut().1 })
    }

    /// Whether `key` is in the map.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.find(self.tag(key), key).is_ok()
    }

    /// Removes `key` and returns its value. The full mark stays until
    /// [`reset`](Map::reset).
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let mut hole = self.find(self.tag(key), key).ok()?;
        // SAFETY: slot `hole` holds an entry, read out once and marked empty.
        let (_, value) = unsafe {
            let slot = &mut *self.slot(hole);
            slot.tag = 0;
            slot.entry.assume_init_read()
        };
        self.len -= 1;
        // Backward-shift: pull later entries of the probe run into the hole when
        // their home is not between the hole and where they sit.
        let mask = self.cap - 1;
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            // SAFETY: `i` is within the table.
            let tag = unsafe { (*self.slot(i)).tag };
            if tag == 0 {
                break;
            }
            let home = self.home(tag);
            if (i.wrapping_sub(home) & mask) >= (i.wrapping_sub(hole) & mask) {
                // SAFETY: `i` holds an entry and `hole` is empty and distinct: move.
                unsafe {
                    ptr::copy_nonoverlapping(self.slot(i), self.slot(hole), 1);
                    (*self.slot(i)).tag = 0;
                }
                hole = i;
            }
        }
        Some(value)
    }

    /// The entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> + '_ {
        (0..self.cap).filter_map(move |i| {
            // SAFETY: `i` is within the table; a non-zero tag means an entry.
            let slot = unsafe { &*self.slot(i) };
            (slot.tag != 0).then(|| {
                // SAFETY: tagged, so initialised.
                let (k, v) = unsafe { slot.entry.assume_init_ref() };
                (k, v)
            })
        })
    }

    fn clear(&mut self) {
        for i in 0..self.cap {
            // SAFETY: `i` is within the table; tagged slots hold an entry, dropped once.
            unsafe {
                let slot = &mut *self.slot(i);
                if slot.tag != 0 {
                    slot.tag = 0;
                    slot.entry.assume_init_drop();
                }
            }
        }
        self.len = 0;
    }

    fn tag<Q: Hash + ?Sized>(&self, key: &Q) -> u32 {
        (self.hasher.hash_one(key) >> 32) as u32 | 1
    }

    /// Where a key with `tag` starts probing: the top bits of the tag.
    #[inline]
    fn home(&self, tag: u32) -> usize {
        // `cap <= 2^31`, so the bits used lie above the forced low bit.
        ((tag as u64) << 32 >> (64 - self.cap.trailing_zeros().max(1))) as usize & (self.cap - 1)
    }

    /// `Ok(slot)` holding `key`, or `Err(first empty slot)` where it would go.
    #[inline]
    fn find<Q>(&self, tag: u32, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        if self.cap == 0 {
            return Err(0);
        }
        let mask = self.cap - 1;
        let mut i = self.home(tag);
        loop {
            // SAFETY: `i` is masked into the table. The table is never full (the
            // limit stays below it), so the loop meets an empty slot.
            let slot = unsafe { &*self.slot(i) };
            if slot.tag == 0 {
                return Err(i);
            }
            // SAFETY: tagged, so initialised.
            if slot.tag == tag && unsafe { slot.entry.assume_init_ref() }.0.borrow() == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn slot(&self, i: usize) -> *mut Slot<K, V> {
        debug_assert!(i < self.cap);
        // SAFETY: callers pass `i < cap`, inside the table.
        unsafe { self.slots.as_ptr().add(i) }
    }

    /// Moves a pooled map to a class that holds `entries`. `false` for caller memory,
    /// or when no class is large enough or the budget is spent.
    fn grow_to(&mut self, entries: usize) -> bool {
        let Mem::Pooled { classes, region, .. } = &self.mem else { return false };
        let (classes, region) = (*classes, *region);
        let mut want = self.cap.max(8);
        while max_load(want) < entries {
            want *= 2;
        }
        let Some(bigger) = classes.take(region, want) else { return false };
        // Use the largest power of two the chunk holds.
        let new_cap = (1usize << bigger.len().ilog2().min(31)).min(bigger.len());
        let new_slots = bigger.raw().cast::<Slot<K, V>>();
        for i in 0..new_cap {
            // SAFETY: `i < new_cap <= bigger.len()`; writes only the tag field of
            // uninitialised memory, through a raw pointer.
            unsafe { ptr::addr_of_mut!((*new_slots.add(i)).tag).write(0) };
        }
        let (old_slots, old_cap) = (self.slots, self.cap);
        self.slots = NonNull::new(new_slots).expect("chunk memory is never null");
        self.cap = new_cap;
        for i in 0..old_cap {
            // SAFETY: `i < old_cap`, in the old table; tagged slots are moved (bit
            // copy) into an empty slot of the new one and not touched again.
            unsafe {
                let from = old_slots.as_ptr().add(i);
                let tag = (*from).tag;
                if tag != 0 {
                    let mut j = self.home(tag);
                    while (*self.slot(j)).tag != 0 {
                        j = (j + 1) & (new_cap - 1);
                    }
                    ptr::copy_nonoverlapping(from, self.slot(j), 1);
                }
            }
        }
        if let Mem::Pooled { chunk, .. } = &mut self.mem {
            *chunk = Some(bigger); // the old chunk goes back
        }
        true
    }
}

impl<K, V, S> Drop for Map<'_, K, V, S> {
    fn drop(&mut self) {
        for i in 0..self.cap {
            // SAFETY: `i < cap`; tagged slots hold an entry, dropped once.
            unsafe {
                let slot = &mut *self.slots.as_ptr().add(i);
                if slot.tag != 0 {
                    slot.tag = 0;
                    slot.entry.assume_init_drop();
                }
            }
        }
    }
}

impl<K: Hash + Eq + fmt::Debug, V: fmt::Debug, S: BuildHasher> fmt::Debug for Map<'_, K, V, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// [`FxHasher`] as the `BuildHasher` of [`Map`].
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// The hash rustc uses for its own tables: one multiply per word. Fast, and not
/// resistant to keys chosen to collide.
#[derive(Clone, Copy, Default, Debug)]
pub struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}
