//! `Map<K, V>`: a hash map with an entry limit, over caller memory or pooled size
//! classes. It owns hashing, probing and moving to a larger class; the memory
//! belongs to the caller or the classes.
//!
//! Layout: the memory (slots) is carved into an array of entries followed by an
//! array of `u32` tags, so probing scans the tags (16 to a cache line) and touches
//! an entry only when its tag matches. A tag is 0 for an empty slot, else the high
//! half of the key's hash with the low bit set; the slot's home is the tag's top
//! bits, so moving to a larger table never hashes a key again.

use core::borrow::Borrow;
use core::fmt;
use core::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use core::marker::PhantomData;
use core::mem::{self, MaybeUninit};
use core::ptr;

#[cfg(feature = "std")]
use crate::{Chunk, Classes, Region};

/// A unit of a [`Map`]'s memory: room for one entry and its tag. Caller memory for a
/// map is an array of them: `[Slot::EMPTY; 64]`. The map lays its table out over
/// the array's bytes as it sees fit; a `Slot` has no meaning on its own.
///
/// A slot is at least as large as an entry and its tag side by side, so `n` slots
/// always hold a table of `n` entries rounded down to a power of two (sometimes
/// more, when entries are small).
pub struct Slot<K, V>(MaybeUninit<((K, V), u32)>);

impl<K, V> Slot<K, V> {
    /// An unused slot.
    pub const EMPTY: Slot<K, V> = Slot(MaybeUninit::uninit());
}

/// The most entries a table of `slots` holds: 7/8 of them, and always one slot
/// less, so that every probe meets an empty slot.
const fn max_load(slots: usize) -> usize {
    let load = slots - slots / 8;
    if load == slots {
        slots.saturating_sub(1)
    } else {
        load
    }
}

/// The most entries a table has: the home of a tag is taken from its top 31 bits.
const MAX_TABLE: usize = 1 << 31;

/// A table of `cap` entries laid out from its base: where its tags start and where
/// it ends, in bytes. `None` when that overflows `usize`.
fn table_layout<K, V>(cap: usize) -> Option<(usize, usize)> {
    let tags_at = cap.checked_mul(mem::size_of::<(K, V)>())?.checked_next_multiple_of(mem::align_of::<u32>())?;
    let end = tags_at.checked_add(cap.checked_mul(mem::size_of::<u32>())?)?;
    Some((tags_at, end))
}

/// Why [`Map::reset`] could not set the limit asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitError {
    /// The limit asked for.
    pub wanted: usize,
    /// The limit the map has instead: the most entries its memory (or the largest
    /// class within the region's budget) holds.
    pub limit: usize,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a map limit of {} entries does not fit; the map holds {}", self.wanted, self.limit)
    }
}

impl core::error::Error for LimitError {}

/// A table carved out of memory: `cap` entries, then `cap` tags.
struct Table<K, V> {
    entries: *mut MaybeUninit<(K, V)>,
    tags: *mut u32,
    /// 0 or a power of two, at most 2^31.
    cap: usize,
}

impl<K, V> Table<K, V> {
    const EMPTY: Table<K, V> = Table { entries: ptr::null_mut(), tags: ptr::null_mut(), cap: 0 };

    /// Carves `slots` slots at `base` into the largest table they hold, and
    /// clears its tags.
    ///
    /// # Safety
    ///
    /// `base..base + slots` must be memory the map may write for as long as it uses
    /// the table.
    unsafe fn carve(base: *mut Slot<K, V>, slots: usize) -> Table<K, V> {
        let cap = Table::<K, V>::cap_in(slots);
        if cap == 0 {
            return Table::EMPTY;
        }
        let (tags_at, _) = table_layout::<K, V>(cap).expect("checked by the loop");
        // SAFETY: the table's end is within `bytes`: both arrays lie inside the
        // memory. `Slot` is aligned for `(K, V)` and for `u32` (it holds both), and
        // `tags_at` is a multiple of `u32`'s alignment.
        unsafe {
            let tags = base.cast::<u8>().add(tags_at).cast::<u32>();
            ptr::write_bytes(tags, 0, cap);
            Table { entries: base.cast(), tags, cap }
        }
    }

    /// The entries of the largest table `slots` slots hold.
    fn cap_in(slots: usize) -> usize {
        // Saturating: memory that exists has a size that fits `usize`.
        let bytes = slots.saturating_mul(mem::size_of::<Slot<K, V>>());
        let mut cap = MAX_TABLE;
        while cap > 0 && table_layout::<K, V>(cap).is_none_or(|(_, end)| end > bytes) {
            cap >>= 1;
        }
        cap
    }

    /// Drops the entries from slot `from` on and empties their slots; if one's
    /// drop panics, the guard drops the rest while unwinding, as std's `Vec`
    /// drops the rest of its items.
    ///
    /// # Safety
    ///
    /// Tagged slots hold entries that nothing else drops.
    unsafe fn drop_from(&self, from: usize) {
        if !mem::needs_drop::<(K, V)>() {
            if from < self.cap {
                // SAFETY: the tags `from..cap` lie in the table.
                unsafe { ptr::write_bytes(self.tags.add(from), 0, self.cap - from) };
            }
            return;
        }
        struct Rest<'t, K, V> {
            table: &'t Table<K, V>,
            next: usize,
        }
        impl<K, V> Drop for Rest<'_, K, V> {
            fn drop(&mut self) {
                // SAFETY: the caller's promise, for the slots not yet dropped.
                unsafe { self.table.drop_from(self.next) };
            }
        }
        let mut rest = Rest { table: self, next: from };
        while rest.next < self.cap {
            let i = rest.next;
            rest.next += 1;
            // SAFETY: `i < cap`; a tagged slot holds an entry, untagged and then
            // dropped once (`rest` starts after it).
            unsafe {
                if *self.tags.add(i) != 0 {
                    self.tags.add(i).write(0);
                    (*self.entries.add(i)).assume_init_drop();
                }
            }
        }
        mem::forget(rest);
    }
}

/// A hash map that holds up to its entry limit and never allocates.
///
/// [`insert`](Map::insert) of a new key past the limit hands the entry back and
/// marks the map full; updating a key already there always works. A map
/// over caller memory ([`Map::new`]) has a fixed limit (7/8 of its table, or less
/// with [`reset`](Map::reset)); a map [`in_region`](Map::in_region) starts in the
/// smallest class and moves through the classes as it fills, until the largest class
/// or the region's budget. [`clear`](Map::clear) empties a map and keeps its limit;
/// [`reset`](Map::reset) empties it and sets a new one.
///
/// ```
/// use bounded::map::{Map, Slot};
///
/// let mut mem = [Slot::EMPTY; 8];
/// let mut ages = Map::new(&mut mem);
/// assert_eq!(ages.limit(), 7);
/// assert_eq!(ages.insert("ada", 36), Ok(None));
/// assert_eq!(ages.insert("alan", 41), Ok(None));
/// ages.reset(1).unwrap(); // empty again, holding at most one entry
/// assert_eq!(ages.insert("ada", 36), Ok(None));
/// assert_eq!(ages.insert("alan", 41), Err(("alan", 41))); // a new key past the limit...
/// assert_eq!(ages.insert("ada", 37), Ok(Some(36)));       // ...but updates always work
/// assert_eq!(ages.get("ada"), Some(&37));
/// assert!(ages.is_full());
/// ```
///
/// `n` slots make a table of at least `n` rounded down to a power of two entries.
///
/// The default hasher is FxHash: fast, and not resistant to keys chosen to collide.
/// For untrusted keys pass `core::hash::RandomState` to
/// [`with_hasher`](Map::with_hasher).
pub struct Map<'a, K, V, S = FxBuildHasher> {
    table: Table<K, V>,
    len: usize,
    /// The most entries the table holds now: `ceiling` or less.
    limit: usize,
    /// The limit set by `reset` (unbounded for a fresh pooled map): a pooled map
    /// moves to larger classes only up to it.
    ceiling: usize,
    full: bool,
    hasher: S,
    // Read only by the pooled map's growth.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    mem: Mem<'a, K, V>,
}

// SAFETY: the map owns its entries, in caller memory it borrows mutably or in a
// chunk lent to it alone; the table's raw pointers only address them.
unsafe impl<K: Send, V: Send, S: Send> Send for Map<'_, K, V, S> {}
// SAFETY: as above; `&self` methods give out `&K` and `&V` only, and hash with `&S`.
unsafe impl<K: Sync, V: Sync, S: Sync> Sync for Map<'_, K, V, S> {}

enum Mem<'a, K, V> {
    Own(PhantomData<&'a mut [Slot<K, V>]>),
    #[cfg(feature = "std")]
    Pooled {
        classes: &'a Classes<Slot<K, V>>,
        region: &'a Region,
        chunk: Option<Chunk<'a, Slot<K, V>>>,
    },
}

impl<'a, K: Hash + Eq, V> Map<'a, K, V> {
    /// A map over `mem`, holding up to 7/8 of the entries its table has.
    pub fn new(mem: &'a mut [Slot<K, V>]) -> Map<'a, K, V> {
        Map::with_hasher(mem, FxBuildHasher::default())
    }

    /// A map that takes its table from `classes`, charged to `region`, and moves to
    /// a larger class when it reaches its limit.
    #[cfg(feature = "std")]
    pub fn in_region(classes: &'a Classes<Slot<K, V>>, region: &'a Region) -> Map<'a, K, V> {
        Map::in_region_with_hasher(classes, region, FxBuildHasher::default())
    }
}

impl<'a, K: Hash + Eq, V, S: BuildHasher> Map<'a, K, V, S> {
    /// [`Map::new`] with another hasher.
    pub fn with_hasher(mem: &'a mut [Slot<K, V>], hasher: S) -> Map<'a, K, V, S> {
        // SAFETY: `mem` is borrowed mutably for `'a`, as long as the map lives.
        let table = unsafe { Table::carve(mem.as_mut_ptr(), mem.len()) };
        let limit = max_load(table.cap);
        Map { table, len: 0, limit, ceiling: limit, full: false, hasher, mem: Mem::Own(PhantomData) }
    }

    /// [`Map::in_region`] with another hasher.
    #[cfg(feature = "std")]
    pub fn in_region_with_hasher(classes: &'a Classes<Slot<K, V>>, region: &'a Region, hasher: S) -> Map<'a, K, V, S> {
        let mem = Mem::Pooled { classes, region, chunk: None };
        Map { table: Table::EMPTY, len: 0, limit: 0, ceiling: usize::MAX, full: false, hasher, mem }
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
    /// to larger classes, up to the limit [`reset`](Map::reset) set.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether an insert of a new key was refused since the last
    /// [`clear`](Map::clear) or [`reset`](Map::reset).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Empties the map and sets its entry limit, which holds until the next reset: a
    /// pooled map moves to a class large enough now, and never past the limit later.
    ///
    /// An error if the memory cannot hold `limit` entries now: no class is large
    /// enough (then the map takes the largest, and its limit is what that holds),
    /// or the region's budget is spent (then the map moves to a larger class when
    /// it fills, as the budget allows, up to `limit`). The error's `limit` is the
    /// map's limit after the reset.
    pub fn reset(&mut self, limit: usize) -> Result<(), LimitError> {
        self.clear();
        self.ceiling = limit.min(self.most_entries());
        if self.ceiling > max_load(self.table.cap) {
            self.grow_to(self.ceiling);
        }
        self.limit = self.ceiling.min(max_load(self.table.cap));
        if self.limit == limit {
            Ok(())
        } else {
            Err(LimitError { wanted: limit, limit: self.limit })
        }
    }

    /// Drops every entry and the full mark, and keeps the limit: a pooled map goes
    /// on moving to larger classes up to the limit its last [`reset`](Map::reset)
    /// set (unbounded if none), and keeps the memory it has. An entry whose drop
    /// panics does not keep the others from being dropped; the panic goes on to the
    /// caller, the map empty.
    pub fn clear(&mut self) {
        self.len = 0;
        self.full = false;
        // SAFETY: tagged slots hold entries that only the map drops.
        unsafe { self.table.drop_from(0) };
    }

    /// The most entries the memory holds: the table's for caller memory, the
    /// largest class's for a pooled map.
    fn most_entries(&self) -> usize {
        let here = max_load(self.table.cap);
        match &self.mem {
            Mem::Own(_) => here,
            #[cfg(feature = "std")]
            Mem::Pooled { classes, .. } => here.max(max_load(Table::<K, V>::cap_in(classes.max_len()))),
        }
    }

    // noalloc:root
    /// Inserts `key` with `value`, as heapless's `IndexMap::insert`: `Ok(Some(old
    /// value))` when the key is there (updates always work), `Ok(None)` for a new
    /// key, or the entry handed back when it is a new key past the limit (then the
    /// map is full).
    #[inline]
    pub fn insert(&mut self, key: K, value: V) -> Result<Option<V>, (K, V)> {
        let tag = self.tag(&key);
        match self.find(tag, &key) {
            // SAFETY: slot `i` holds an entry (found), exclusively ours.
            Ok(i) => Ok(Some(mem::replace(unsafe { &mut (*self.entry_at(i)).assume_init_mut().1 }, value))),
            Err(empty) => self.insert_new(tag, empty, key, value).map(|_| None),
        }
    }

    /// Stores a key that is not in the map, whose probe ends at the empty slot
    /// `empty`: moves a pooled map to a larger class at its limit. The slot it
    /// took, or the entry handed back past the limit (then the map is full).
    #[inline]
    fn insert_new(&mut self, tag: u32, empty: usize, key: K, value: V) -> Result<usize, (K, V)> {
        if self.full {
            return Err((key, value));
        }
        let empty = if self.len < self.limit {
            empty
        } else if self.len < self.ceiling && self.grow_to(self.len + 1) {
            self.limit = max_load(self.table.cap).min(self.ceiling);
            match self.find(tag, &key) {
                Err(empty) => empty,
                Ok(_) => unreachable!("the key was not in the map before it moved"),
            }
        } else {
            self.full = true;
            return Err((key, value));
        };
        // SAFETY: `empty` is an empty slot of the table.
        unsafe {
            self.table.tags.add(empty).write(tag);
            (*self.entry_at(empty)).write((key, value));
        }
        self.len += 1;
        Ok(empty)
    }

    // noalloc:root
    /// The entry for `key`, to read, update or fill in place.
    ///
    /// ```
    /// use bounded::map::{Map, Slot};
    ///
    /// let mut mem = [Slot::EMPTY; 8];
    /// let mut counts = Map::new(&mut mem);
    /// for word in ["a", "b", "a"] {
    ///     *counts.entry(word).or_insert(0).expect("room") += 1;
    /// }
    /// assert_eq!((counts.get("a"), counts.get("b")), (Some(&2), Some(&1)));
    /// ```
    pub fn entry(&mut self, key: K) -> Entry<'_, 'a, K, V, S> {
        let tag = self.tag(&key);
        match self.find(tag, &key) {
            Ok(slot) => Entry::Occupied(OccupiedEntry { map: self, slot, key }),
            Err(empty) => Entry::Vacant(VacantEntry { map: self, tag, empty, key }),
        }
    }

    // noalloc:root
    /// The value for `key`.
    #[inline]
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(self.tag(key), key).ok()?;
        // SAFETY: slot `i` holds an entry; `&self` shares it.
        Some(unsafe { &(*self.entry_at(i)).assume_init_ref().1 })
    }

    /// The value for `key`, mutably.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.find(self.tag(key), key).ok()?;
        // SAFETY: slot `i` holds an entry; `&mut self` is exclusive.
        Some(unsafe { &mut (*self.entry_at(i)).assume_init_mut().1 })
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
    /// [`clear`](Map::clear) or [`reset`](Map::reset).
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let slot = self.find(self.tag(key), key).ok()?;
        Some(self.remove_at(slot).1)
    }

    /// Removes the entry at `slot`, which holds one; later entries of its probe run
    /// move back, so `slot` may hold another afterwards.
    fn remove_at(&mut self, slot: usize) -> (K, V) {
        let mut hole = slot;
        // SAFETY: slot `hole` holds an entry, read out once and marked empty.
        let entry = unsafe {
            self.table.tags.add(hole).write(0);
            (*self.entry_at(hole)).assume_init_read()
        };
        self.len -= 1;
        // Backward-shift: pull later entries of the probe run into the hole when
        // their home is not between the hole and where they sit.
        let mask = self.table.cap - 1;
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            let tag = self.tag_at(i);
            if tag == 0 {
                break;
            }
            let home = self.home(tag);
            if (i.wrapping_sub(home) & mask) >= (i.wrapping_sub(hole) & mask) {
                // SAFETY: `i` holds an entry and `hole` is empty and distinct: move.
                unsafe {
                    ptr::copy_nonoverlapping(self.entry_at(i), self.entry_at(hole), 1);
                    self.table.tags.add(hole).write(tag);
                    self.table.tags.add(i).write(0);
                }
                hole = i;
            }
        }
        entry
    }

    /// The entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> + '_ {
        self.slots().map(move |i| {
            // SAFETY: tagged, so initialised; `&self` shares it.
            let (k, v) = unsafe { (*self.entry_at(i)).assume_init_ref() };
            (k, v)
        })
    }

    /// The entries with their values mutable, in no particular order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> + '_ {
        let this = &*self;
        this.slots().map(move |i| {
            // SAFETY: tagged, so initialised; each slot is yielded once, and the
            // `&mut self` this borrows makes the entries exclusively ours.
            let (k, v) = unsafe { (*this.entry_at(i)).assume_init_mut() };
            (&*k, v)
        })
    }

    /// The keys, in no particular order.
    pub fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// The values, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.iter().map(|(_, v)| v)
    }

    /// The values, mutably, in no particular order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> + '_ {
        self.iter_mut().map(|(_, v)| v)
    }

    /// Keeps the entries for which `keep` returns `true`; each entry is offered
    /// once.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        if self.len == 0 {
            return;
        }
        // From an empty slot on, once round: removing an entry pulls back only
        // later entries of its probe run, which no empty slot interrupts, so
        // every moved entry is one not yet offered.
        let mask = self.table.cap - 1;
        let start = (0..self.table.cap).find(|&i| self.tag_at(i) == 0).expect("the table always has an empty slot");
        for step in 1..=self.table.cap {
            let i = (start + step) & mask;
            while self.tag_at(i) != 0 {
                // SAFETY: tagged, so initialised; `&mut self` is exclusive.
                let (k, v) = unsafe { (*self.entry_at(i)).assume_init_mut() };
                if keep(k, v) {
                    break;
                }
                drop(self.remove_at(i));
            }
        }
    }

    /// The slots that hold entries.
    fn slots(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.table.cap).filter(|&i| self.tag_at(i) != 0)
    }

    #[inline]
    fn tag<Q: Hash + ?Sized>(&self, key: &Q) -> u32 {
        // noalloc:exempt caller: hashing runs the caller's `BuildHasher` and `Hash`; FxHash and std's hashers do not allocate
        (self.hasher.hash_one(key) >> 32) as u32 | 1
    }

    /// Where a key with `tag` starts probing: the top bits of the tag.
    #[inline]
    fn home(&self, tag: u32) -> usize {
        // `cap <= 2^31`, so the bits used lie above the forced low bit.
        ((tag as u64) << 32 >> (64 - self.table.cap.trailing_zeros().max(1))) as usize & (self.table.cap - 1)
    }

    /// `Ok(slot)` holding `key`, or `Err(first empty slot)` where it would go.
    #[inline]
    fn find<Q>(&self, tag: u32, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        if self.table.cap == 0 {
            return Err(0);
        }
        let mask = self.table.cap - 1;
        let mut i = self.home(tag);
        loop {
            // The table is never full (the limit stays below it), so the loop meets
            // an empty slot.
            let t = self.tag_at(i);
            if t == 0 {
                return Err(i);
            }
            // SAFETY: tagged, so initialised.
            // noalloc:exempt caller: comparing keys runs the caller's `Borrow` and `Eq`; those of the std key types do not allocate
            if t == tag && unsafe { (*self.entry_at(i)).assume_init_ref() }.0.borrow() == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn tag_at(&self, i: usize) -> u32 {
        debug_assert!(i < self.table.cap);
        // SAFETY: callers pass `i < cap`; tags were cleared when carved.
        unsafe { *self.table.tags.add(i) }
    }

    #[inline]
    fn entry_at(&self, i: usize) -> *mut MaybeUninit<(K, V)> {
        debug_assert!(i < self.table.cap);
        // SAFETY: callers pass `i < cap`, inside the table.
        unsafe { self.table.entries.add(i) }
    }

    /// Moves a pooled map to a class that holds `entries`. `false` for caller memory,
    /// or when no class is large enough or the budget is spent.
    #[cfg(not(feature = "std"))]
    fn grow_to(&mut self, _entries: usize) -> bool {
        false
    }

    /// Moves a pooled map to a class that holds `entries`. `false` for caller memory,
    /// or when no class is large enough or the budget is spent.
    #[cfg(feature = "std")]
    fn grow_to(&mut self, entries: usize) -> bool {
        let Mem::Pooled { classes, region, .. } = &self.mem else { return false };
        let (classes, region) = (*classes, *region);
        let mut want = self.table.cap.max(8);
        while max_load(want) < entries {
            if want >= MAX_TABLE {
                return false;
            }
            want *= 2;
        }
        // The slots that carve into a table of `want` entries.
        let Some((_, bytes)) = table_layout::<K, V>(want) else { return false };
        let slots = bytes.div_ceil(mem::size_of::<Slot<K, V>>());
        let Some(bigger) = classes.take(region, slots) else { return false };
        // SAFETY: the chunk is this map's until it is given back, which happens
        // only when it is replaced or the map is dropped.
        let new = unsafe { Table::carve(bigger.raw().cast::<Slot<K, V>>(), bigger.len()) };
        if max_load(new.cap) < entries {
            return false;
        }
        let old = mem::replace(&mut self.table, new);
        for i in 0..old.cap {
            // SAFETY: `i < old.cap`; a tagged entry is moved (bit copy) into an empty
            // slot of the new table and not touched again in the old one.
            unsafe {
                let tag = *old.tags.add(i);
                if tag != 0 {
                    let mut j = self.home(tag);
                    while self.tag_at(j) != 0 {
                        j = (j + 1) & (self.table.cap - 1);
                    }
                    ptr::copy_nonoverlapping(old.entries.add(i), self.entry_at(j), 1);
                    self.table.tags.add(j).write(tag);
                }
            }
        }
        if let Mem::Pooled { chunk, .. } = &mut self.mem {
            *chunk = Some(bigger); // the old chunk goes back
        }
        true
    }
}

/// A key's place in a [`Map`], from [`Map::entry`].
pub enum Entry<'m, 'a, K, V, S = FxBuildHasher> {
    /// The key is in the map.
    Occupied(OccupiedEntry<'m, 'a, K, V, S>),
    /// The key is not in the map.
    Vacant(VacantEntry<'m, 'a, K, V, S>),
}

/// A key that is in the map, and its value.
pub struct OccupiedEntry<'m, 'a, K, V, S = FxBuildHasher> {
    map: &'m mut Map<'a, K, V, S>,
    slot: usize,
    key: K,
}

/// A key that is not in the map, and where it would go.
pub struct VacantEntry<'m, 'a, K, V, S = FxBuildHasher> {
    map: &'m mut Map<'a, K, V, S>,
    tag: u32,
    empty: usize,
    key: K,
}

impl<'m, 'a, K: Hash + Eq, V, S: BuildHasher> Entry<'m, 'a, K, V, S> {
    /// The key.
    pub fn key(&self) -> &K {
        match self {
            Entry::Occupied(o) => &o.key,
            Entry::Vacant(v) => &v.key,
        }
    }

    /// The value, inserting `default` if the key is not there; the entry handed
    /// back when it is a new key past the limit (then the map is full).
    pub fn or_insert(self, default: V) -> Result<&'m mut V, (K, V)> {
        self.or_insert_with(|| default)
    }

    /// [`or_insert`](Entry::or_insert) with a value made only when needed.
    pub fn or_insert_with(self, default: impl FnOnce() -> V) -> Result<&'m mut V, (K, V)> {
        match self {
            Entry::Occupied(o) => Ok(o.into_mut()),
            Entry::Vacant(v) => v.insert(default()),
        }
    }

    /// [`or_insert`](Entry::or_insert) with `V::default()`.
    pub fn or_default(self) -> Result<&'m mut V, (K, V)>
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    /// Calls `f` on the value if the key is there.
    pub fn and_modify(mut self, f: impl FnOnce(&mut V)) -> Self {
        if let Entry::Occupied(o) = &mut self {
            f(o.get_mut());
        }
        self
    }
}

impl<'m, 'a, K: Hash + Eq, V, S: BuildHasher> OccupiedEntry<'m, 'a, K, V, S> {
    /// The key (the one passed to [`Map::entry`]).
    pub fn key(&self) -> &K {
        &self.key
    }

    /// The value.
    pub fn get(&self) -> &V {
        // SAFETY: the slot holds an entry (found), shared through `&self`.
        unsafe { &(*self.map.entry_at(self.slot)).assume_init_ref().1 }
    }

    /// The value, mutably.
    pub fn get_mut(&mut self) -> &mut V {
        // SAFETY: the slot holds an entry (found), and the map is borrowed mutably.
        unsafe { &mut (*self.map.entry_at(self.slot)).assume_init_mut().1 }
    }

    /// The value, mutably, for as long as the map was borrowed.
    pub fn into_mut(self) -> &'m mut V {
        // SAFETY: as in `get_mut`, for the map's borrow `'m`.
        unsafe { &mut (*self.map.entry_at(self.slot)).assume_init_mut().1 }
    }

    /// Replaces the value; returns the old one.
    pub fn insert(&mut self, value: V) -> V {
        mem::replace(self.get_mut(), value)
    }

    /// Removes the entry; returns its value.
    pub fn remove(self) -> V {
        self.remove_entry().1
    }

    /// Removes the entry; returns the key stored and the value.
    pub fn remove_entry(self) -> (K, V) {
        self.map.remove_at(self.slot)
    }
}

impl<'m, 'a, K: Hash + Eq, V, S: BuildHasher> VacantEntry<'m, 'a, K, V, S> {
    /// The key.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// The key, taken back.
    pub fn into_key(self) -> K {
        self.key
    }

    // noalloc:root
    /// Inserts `value` for the key; or hands both back when the map is at its limit
    /// (then it is full).
    pub fn insert(self, value: V) -> Result<&'m mut V, (K, V)> {
        let VacantEntry { map, tag, empty, key } = self;
        let slot = map.insert_new(tag, empty, key, value)?;
        // SAFETY: `insert_new` just wrote the entry at `slot`; the map is borrowed
        // mutably for `'m`.
        Ok(unsafe { &mut (*map.entry_at(slot)).assume_init_mut().1 })
    }
}

impl<K, V, S> Drop for Map<'_, K, V, S> {
    fn drop(&mut self) {
        if mem::needs_drop::<(K, V)>() {
            // SAFETY: tagged slots hold entries that only the map drops.
            unsafe { self.table.drop_from(0) };
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
