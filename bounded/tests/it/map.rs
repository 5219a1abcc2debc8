//! `Map`: the entry limit, updates past it, borrowed lookups, pooled growth, drops,
//! and behaviour equal to `std`'s `HashMap` (also when every key collides).

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use bounded::alloctest::assert_zero;
use bounded::map::{LimitError, Map, Slot};
use bounded::Doubling;
use bounded::{Classes, Region};
use proptest::prelude::*;

use crate::{Counted, PanicsOnDrop};

#[test]
fn holds_up_to_its_limit_and_updates_always_work() {
    let mut mem = [Slot::EMPTY; 16];
    let mut map = Map::new(&mut mem);
    assert_eq!(map.limit(), 14);
    for i in 0..14 {
        assert_eq!(map.insert(i, i * 10), Ok(None));
    }
    assert_eq!(map.insert(14, 140), Err((14, 140)));
    assert!(map.is_full());
    assert_eq!(map.insert(3, 33), Ok(Some(30)), "update of a key that is there");
    assert_eq!((map.get(&3), map.get(&14), map.len()), (Some(&33), None, 14));
    assert_eq!(map.remove(&3), Some(33));
    assert!(map.insert(15, 150).is_err(), "full stays until reset");
    assert_eq!(map.reset(4), Ok(()));
    assert_eq!((map.len(), map.limit(), map.is_full()), (0, 4, false));
    assert_eq!(map.reset(15), Err(LimitError { wanted: 15, limit: 14 }), "16 slots hold 14");
    assert_eq!(map.limit(), 14);
}

#[test]
fn keys_are_looked_up_by_borrowed_form() {
    let mut mem = [Slot::EMPTY; 8];
    let mut map = Map::new(&mut mem);
    map.insert(String::from("ada"), 1).unwrap();
    map.insert(String::from("alan"), 2).unwrap();
    assert_eq!((map.get("ada"), map.contains_key("alan"), map.get("grace")), (Some(&1), true, None));
    *map.get_mut("alan").expect("there") += 40;
    let mut entries: Vec<_> = map.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    entries.sort();
    assert_eq!(entries, [("ada", 1), ("alan", 42)]);
}

#[test]
fn a_table_has_as_many_entries_as_fit_with_their_tags() {
    // 12 slots of 24 bytes hold 8 entries of 16 bytes and their 4-byte tags.
    let mut mem = [Slot::<u64, u64>::EMPTY; 12];
    assert_eq!(Map::new(&mut mem).limit(), 7);
    // 12 slots of 8 bytes hold 16 entries of 2 bytes and their tags.
    let mut mem = [Slot::<u8, u8>::EMPTY; 12];
    assert_eq!(Map::new(&mut mem).limit(), 14);
    let mut none: [Slot<u8, u8>; 0] = [];
    let mut map = Map::new(&mut none);
    assert_eq!((map.limit(), map.insert(1, 1), map.get(&1)), (0, Err((1, 1)), None));
}

#[test]
fn a_small_table_keeps_one_slot_empty() {
    let mut mem = [Slot::<u64, u64>::EMPTY; 2];
    let mut map = Map::new(&mut mem);
    assert_eq!(map.limit(), 1);
    assert_eq!(map.insert(1, 1), Ok(None));
    assert_eq!(map.get(&2), None, "a miss ends at the empty slot");
    assert_eq!(map.remove(&2), None);
}

#[test]
fn pooled_map_moves_through_the_classes() {
    let classes = Classes::<Slot<u32, u32>>::doubling(Doubling { smallest: 8, classes: 3, chunks: 1 }); // 8, 16, 32 slots
    let region = Region::new(1 << 20);
    let mut map = Map::in_region(&classes, &region);
    assert_eq!(map.limit(), 0);
    let mut limits = Vec::new();
    for i in 0..28 {
        assert!(map.insert(i, i + 1).is_ok(), "insert {i}");
        limits.push(map.limit());
    }
    limits.dedup();
    assert_eq!(limits, [7, 14, 28]);
    assert!((0..28).all(|i| map.get(&i) == Some(&(i + 1))));
    assert!(map.insert(28, 0).is_err());
    let lent: Vec<_> = classes.pools().iter().map(|p| p.stats().lent).collect();
    assert_eq!(lent, [0, 0, 1]);
    assert_eq!(map.reset(3), Ok(()));
    drop(map);
    assert_eq!(region.used(), 0);
}

#[test]
fn a_pooled_reset_moves_to_a_class_that_holds_the_limit() {
    let classes = Classes::<Slot<u32, u32>>::doubling(Doubling { smallest: 8, classes: 3, chunks: 1 });
    let region = Region::new(1 << 20);
    let mut map = Map::in_region(&classes, &region);
    assert_eq!(map.reset(20), Ok(()));
    assert_eq!(map.limit(), 20);
    assert_eq!(map.reset(29), Err(LimitError { wanted: 29, limit: 28 }));
    assert_eq!(map.limit(), 28);
}

#[test]
fn a_pooled_map_keeps_the_limit_reset_set() {
    let classes = Classes::<Slot<u32, u32>>::doubling(Doubling { smallest: 8, classes: 3, chunks: 1 }); // 8, 16, 32 slots
    let region = Region::new(1 << 20);
    let mut map = Map::in_region(&classes, &region);
    assert_eq!(map.reset(3), Ok(()));
    let stored = (0..10).filter(|&i| map.insert(i, i).is_ok()).count();
    assert_eq!((stored, map.len(), map.limit(), map.is_full()), (3, 3, 3, true));
    // A larger limit later moves to a class that holds it, and again no further.
    assert_eq!(map.reset(10), Ok(()));
    let stored = (0..30).filter(|&i| map.insert(i, i).is_ok()).count();
    assert_eq!((stored, map.limit()), (10, 10));
}

/// A limit no class holds: the map takes the largest class and says how much it
/// holds (28 entries in 32 slots), and keeps growing to it.
#[test]
fn an_absurd_limit_leaves_the_largest_class() {
    let classes = Classes::<Slot<u64, u64>>::doubling(Doubling { smallest: 8, classes: 3, chunks: 1 }); // 8, 16, 32 slots
    let region = Region::new(1 << 20);
    let mut map = Map::in_region(&classes, &region);
    assert_eq!(map.reset(29), Err(LimitError { wanted: 29, limit: 28 }));
    assert_eq!((0..40).filter(|&i| map.insert(i, i).is_ok()).count(), 28);
    drop(map); // each class has one chunk
    let mut map = Map::in_region(&classes, &region);
    assert_eq!(map.reset(usize::MAX), Err(LimitError { wanted: usize::MAX, limit: 28 }));
    assert_eq!((0..40).filter(|&i| map.insert(i, i).is_ok()).count(), 28);
    drop(map); // each class has one chunk
    let mut map = Map::in_region(&classes, &region);
    for i in 0..5 {
        map.insert(i, i).unwrap();
    }
    assert_eq!(map.reset(usize::MAX), Err(LimitError { wanted: usize::MAX, limit: 28 }));
    assert_eq!((0..40).filter(|&i| map.insert(i, i).is_ok()).count(), 28);
    assert_eq!(map.reset(20), Ok(()));
    assert_eq!(map.reset(usize::MAX / 2 + 1), Err(LimitError { wanted: usize::MAX / 2 + 1, limit: 28 }));
    let mut mem = [Slot::<u8, u8>::EMPTY; 4];
    let mut map = Map::new(&mut mem);
    assert_eq!(map.reset(usize::MAX), Err(LimitError { wanted: usize::MAX, limit: 3 }));
}

/// `clear` empties the map and keeps its limit: a fresh pooled map still grows
/// through the classes, and one that `reset` capped stays capped.
#[test]
fn clear_keeps_the_growth() {
    let classes = Classes::<Slot<u32, u32>>::doubling(Doubling { smallest: 8, classes: 3, chunks: 1 });
    let region = Region::new(1 << 20);
    let mut map = Map::in_region(&classes, &region);
    assert_eq!((0..30).filter(|&i| map.insert(i, i).is_ok()).count(), 28);
    assert_eq!((map.len(), map.is_full()), (28, true));
    map.clear();
    assert_eq!((map.len(), map.is_full(), map.get(&3)), (0, false, None));
    assert_eq!((0..40).filter(|&i| map.insert(i, i).is_ok()).count(), 28);
    assert_eq!(map.reset(3), Ok(()));
    map.clear();
    assert_eq!((0..40).filter(|&i| map.insert(i, i).is_ok()).count(), 3);
}

/// A value whose drop panics during `clear`: the panic reaches the caller, every
/// other entry is dropped all the same, and the map is empty.
#[test]
fn clear_drops_every_entry_when_one_panics() {
    let drops = Cell::new(0);
    let mut mem = [Slot::EMPTY; 16];
    let mut map = Map::new(&mut mem);
    for i in 0..8 {
        assert!(map.insert(i, PanicsOnDrop { armed: i == 3, drops: &drops }).is_ok());
    }
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| map.clear()));
    assert!(caught.is_err());
    assert_eq!((drops.get(), map.len(), map.iter().count(), map.get(&5).is_none()), (8, 0, 0, true));
    assert!(map.insert(1, PanicsOnDrop { armed: false, drops: &drops }).is_ok());
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        assert!(map.insert(2, PanicsOnDrop { armed: true, drops: &drops }).is_ok());
        map.reset(4)
    }));
    assert!(caught.is_err());
    assert_eq!((drops.get(), map.len(), map.iter().count()), (10, 0, 0));
}

#[test]
fn entries_are_dropped_once() {
    let drops = Cell::new(0);
    let classes = Classes::doubling(Doubling { smallest: 8, classes: 4, chunks: 1 });
    let region = Region::new(1 << 20);
    {
        let mut map = Map::in_region(&classes, &region);
        for i in 0..20 {
            assert!(map.insert(i, Counted(&drops)).is_ok());
        }
        assert_eq!(drops.get(), 0, "moves do not drop");
        drop(map.insert(0, Counted(&drops)));
        assert_eq!(drops.get(), 1, "an update drops the old value");
        drop(map.remove(&1));
        assert_eq!(drops.get(), 2);
    }
    assert_eq!(drops.get(), 21);
}

/// Sends every key to the same home slot, so every lookup probes.
#[derive(Default)]
struct Colliding;

impl Hasher for Colliding {
    fn write(&mut self, _: &[u8]) {}
    fn finish(&self) -> u64 {
        0
    }
}

#[derive(Debug, Clone)]
enum Op {
    Insert(u8, u16),
    Remove(u8),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(
        prop_oneof![(0u8..48, any::<u16>()).prop_map(|(k, v)| Op::Insert(k, v)), (0u8..48).prop_map(Op::Remove),],
        0..if cfg!(miri) { 40 } else { 200 },
    )
}

fn check_against_std<S: std::hash::BuildHasher>(ops: &[Op], mut map: Map<'_, u8, u16, S>) -> Result<(), TestCaseError> {
    let mut model = HashMap::new();
    let mut full = false;
    for op in ops {
        match *op {
            Op::Insert(k, v) => {
                let fits = model.contains_key(&k) || (!full && model.len() < map.limit());
                prop_assert_eq!(map.insert(k, v).is_ok(), fits);
                if fits {
                    model.insert(k, v);
                } else {
                    full = true;
                }
                prop_assert_eq!(map.is_full(), full);
            }
            Op::Remove(k) => prop_assert_eq!(map.remove(&k), model.remove(&k)),
        }
        prop_assert_eq!(map.len(), model.len());
    }
    for k in 0..48 {
        prop_assert_eq!(map.get(&k), model.get(&k));
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::proptest_config())]

    #[test]
    fn behaves_like_std_hash_map(ops in ops()) {
        let mut mem = [Slot::EMPTY; 64];
        check_against_std(&ops, Map::new(&mut mem))?;
    }

    #[test]
    fn behaves_like_std_hash_map_when_every_key_collides(ops in ops()) {
        let mut mem = [Slot::EMPTY; 32];
        check_against_std(&ops, Map::with_hasher(&mut mem, BuildHasherDefault::<Colliding>::default()))?;
    }
}

#[test]
fn inserting_and_getting_allocate_nothing() {
    let classes = Classes::<Slot<u64, u64>>::doubling(Doubling { smallest: 16, classes: 6, chunks: 1 });
    assert_zero("Map", || {
        let region = Region::new(1 << 16);
        let mut map = Map::in_region(&classes, &region);
        for i in 0..300 {
            map.insert(i, i).unwrap();
        }
        std::hint::black_box((0..300).filter_map(|i| map.get(&i)).sum::<u64>());
    });
}

/// Pools are made once, at start-up, for `&'static str` keys; each request's map
/// keys borrow that request's bytes (the pools are covariant in their item type).
#[test]
fn start_up_pools_hold_keys_borrowed_from_each_request() {
    let slots: Classes<Slot<&'static str, u32>> = Classes::doubling(Doubling { smallest: 16, classes: 2, chunks: 1 });
    fn count_words(slots: &Classes<Slot<&'static str, u32>>, request: &str) -> (usize, Option<u32>) {
        let region = Region::new(1 << 16);
        let mut counts = Map::in_region(slots, &region);
        for word in request.split(' ') {
            let n = counts.get(word).copied().unwrap_or(0);
            counts.insert(word, n + 1).unwrap();
        }
        (counts.len(), counts.get("to").copied())
    }
    for request in [String::from("to be or not to be"), String::from("to and fro")] {
        let answer = count_words(&slots, &request);
        drop(request);
        assert!(answer.0 >= 3);
    }
    assert_eq!(count_words(&slots, "to to to"), (1, Some(3)));
}

#[test]
fn the_entry_api_reads_updates_and_fills_in_place() {
    let mut mem = [Slot::EMPTY; 4];
    let mut map = Map::new(&mut mem); // holds 3
    for word in ["a", "b", "a", "c", "a"] {
        *map.entry(word).or_insert(0).expect("room") += 1;
    }
    assert_eq!((map.get("a"), map.get("b"), map.get("c")), (Some(&3), Some(&1), Some(&1)));
    assert_eq!(map.entry("d").or_insert(1), Err(("d", 1)), "a new key past the limit is handed back");
    assert!(map.is_full());
    *map.entry("b").and_modify(|n| *n += 10).or_default().unwrap() += 1;
    assert_eq!(map.get("b"), Some(&12));
    match map.entry("c") {
        bounded::Entry::Occupied(mut o) => {
            assert_eq!((*o.key(), *o.get(), o.insert(5)), ("c", 1, 1));
            assert_eq!(o.remove(), 5);
        }
        bounded::Entry::Vacant(_) => panic!("c is there"),
    }
    assert_eq!((map.len(), map.contains_key("c")), (2, false));
    map.clear();
    match map.entry("z") {
        bounded::Entry::Vacant(v) => assert_eq!((*v.key(), v.insert(26).map(|v| *v)), ("z", Ok(26))),
        bounded::Entry::Occupied(_) => panic!("z is not there"),
    }
}

#[test]
fn a_pooled_map_grows_through_its_entries() {
    let classes = Classes::<Slot<u32, u32>>::doubling(Doubling { smallest: 8, classes: 3, chunks: 1 });
    let region = Region::new(1 << 20);
    let mut map = Map::in_region(&classes, &region);
    for i in 0..28 {
        assert_eq!(map.entry(i).or_insert_with(|| i * 2).map(|v| *v), Ok(i * 2));
    }
    assert_eq!(map.limit(), 28);
    assert!((0..28).all(|i| map.get(&i) == Some(&(i * 2))));
}

proptest! {
    #![proptest_config(crate::proptest_config())]

    /// `retain` offers each entry once and keeps what std's `retain` keeps, also
    /// when every key collides (one probe run round the whole table).
    #[test]
    fn retain_and_iter_mut_behave_like_std(keys in proptest::collection::vec(0u8..48, 0..28), cut in any::<u8>()) {
        let mut model = HashMap::new();
        let mut mem = [Slot::EMPTY; 32];
        let mut map = Map::with_hasher(&mut mem, BuildHasherDefault::<Colliding>::default());
        for &k in &keys {
            if map.insert(k, k as u16).is_ok() {
                model.insert(k, k as u16);
            }
        }
        for (_, v) in map.iter_mut() {
            *v += 1;
        }
        model.values_mut().for_each(|v| *v += 1);
        let mut offered = Vec::new();
        map.retain(|&k, v| {
            offered.push(k);
            *v += 1;
            k ^ cut < 128
        });
        model.retain(|&k, _| k ^ cut < 128);
        model.values_mut().for_each(|v| *v += 1);
        offered.sort();
        let mut all: Vec<u8> = keys.iter().copied().filter(|k| keys.contains(k)).collect();
        all.sort();
        all.dedup();
        prop_assert_eq!(offered, all);
        prop_assert_eq!(map.len(), model.len());
        for (k, v) in &model {
            prop_assert_eq!(map.get(k), Some(v));
        }
        let mut values: Vec<u16> = map.values().copied().collect();
        values.sort();
        let mut want: Vec<u16> = model.values().copied().collect();
        want.sort();
        prop_assert_eq!(values, want);
        prop_assert_eq!(map.keys().count(), model.len());
    }
}

proptest! {
    #![proptest_config(crate::proptest_config())]

    /// A pooled map moving through its classes (each move re-places every entry)
    /// at up to 7/8 load, with removals between: every key is found, and no other.
    #[test]
    fn a_growing_map_behaves_like_std(ops in proptest::collection::vec((any::<bool>(), 0u16..240), 0..if cfg!(miri) { 60 } else { 600 })) {
        let classes = Classes::<Slot<u16, u16>>::doubling(Doubling { smallest: 8, classes: 6, chunks: 1 }); // 8 .. 256 slots
        let region = Region::new(1 << 20);
        let mut map = Map::in_region(&classes, &region);
        let mut model = HashMap::new();
        let mut full = false;
        for (insert, k) in ops {
            if insert {
                let stored = map.insert(k, k ^ 0x5555).is_ok();
                prop_assert_eq!(stored, model.contains_key(&k) || (!full && model.len() < 224));
                if stored {
                    model.insert(k, k ^ 0x5555);
                } else {
                    full = true;
                }
            } else {
                prop_assert_eq!(map.remove(&k), model.remove(&k));
            }
            prop_assert_eq!(map.len(), model.len());
        }
        for k in 0..240 {
            prop_assert_eq!(map.get(&k), model.get(&k));
        }
    }
}
