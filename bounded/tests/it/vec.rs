//! `Vec`: caller memory, pooled chunks (power-of-two use), the chunk limit, drops.

use std::cell::Cell;
use std::mem::MaybeUninit;

use bounded::{Chunks, Doubling};
use bounded::alloctest::assert_zero;
use bounded::{Pool, Region, Vec, MAX_CHUNKS};

use crate::Counted;

#[test]
fn over_caller_memory_holds_its_length() {
    let mut mem = [const { MaybeUninit::uninit() }; 3];
    let mut v = Vec::new(&mut mem);
    assert!(v.push("a") && v.push("b") && v.push("c"));
    assert!(!v.push("d"));
    assert!(v.is_full());
    assert_eq!(v.pop(), Some("c"));
    assert!(!v.push("e"), "full stays until clear");
    assert_eq!((v.get(1), v.get(2)), (Some(&"b"), None));
    *v.get_mut(0).expect("there") = "z";
    assert_eq!(v.chunks().collect::<std::vec::Vec<_>>(), [&["z", "b"][..]]);
    v.clear();
    assert!(!v.is_full() && v.is_empty() && v.push("f"));
    assert_eq!(v.iter().copied().collect::<std::vec::Vec<_>>(), ["f"]);
}

#[test]
fn pooled_items_span_chunks() {
    let pool = Pool::<u32>::new(Chunks { count: 6, len: 3 }); // 2 of each 3 slots used: a power of two
    let region = Region::new(1024);
    let mut v = Vec::in_region(&pool, &region);
    for i in 0..10 {
        assert!(v.push(i));
    }
    assert_eq!(pool.stats().lent, 5);
    assert_eq!(region.used(), 60);
    let lens: std::vec::Vec<_> = v.chunks().map(<[u32]>::len).collect();
    assert_eq!(lens, [2, 2, 2, 2, 2]);
    assert_eq!((0..10).map(|i| v.get(i).copied()).collect::<Option<std::vec::Vec<_>>>(), Some((0..10).collect()));
    assert_eq!(v.iter().sum::<u32>(), 45);
    assert_eq!(v.pop(), Some(9));
    assert!(v.push(9) && v.push(10) && v.push(11));
    assert!(!v.push(12), "pool empty");
    assert_eq!(v.len(), 12);
    assert_eq!(pool.stats().empty, 1);
    drop(v);
    assert_eq!((pool.stats().lent, region.used()), (0, 0));
}

#[test]
fn pooled_vec_holds_at_most_max_chunks() {
    let pool = Pool::<u8>::new(Chunks { count: MAX_CHUNKS + 1, len: 1 });
    let region = Region::new(1 << 20);
    let mut v = Vec::in_region(&pool, &region);
    let stored = (0..=MAX_CHUNKS).filter(|&i| v.push(i as u8)).count();
    assert_eq!((stored, v.is_full()), (MAX_CHUNKS, true));
}

#[test]
fn items_are_dropped_with_the_vec() {
    let drops = Cell::new(0);
    let pool = Pool::new(Chunks { count: 2, len: 2 });
    let region = Region::new(1024);
    {
        let mut v = Vec::in_region(&pool, &region);
        for _ in 0..5 {
            v.push(Counted(&drops));
        }
        assert_eq!(drops.get(), 1, "the refused push drops its item");
        drop(v.pop());
        assert_eq!(drops.get(), 2);
    }
    assert_eq!(drops.get(), 5);
    let mut mem = [const { MaybeUninit::uninit() }; 2];
    let mut v = Vec::new(&mut mem);
    v.push(Counted(&drops));
    v.clear();
    assert_eq!(drops.get(), 6);
}

#[test]
fn pushing_and_reading_allocate_nothing() {
    let pool = Pool::<u64>::new(Chunks { count: 8, len: 16 });
    assert_zero("Vec", || {
        let region = Region::new(4096);
        let mut v = Vec::in_region(&pool, &region);
        for i in 0..100 {
            v.push(i);
        }
        std::hint::black_box(v.iter().sum::<u64>() + v.get(50).copied().unwrap_or(0));
    });
}

/// One item's drop panics (more would abort, as they do in std's `Vec`): the vec's
/// chunks go back all the same.
#[test]
fn chunks_go_back_when_an_item_panics_on_drop() {
    let drops = Cell::new(0);
    let pool = Pool::new(Chunks { count: 4, len: 2 });
    let region = Region::new(1024);
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut v = Vec::in_region(&pool, &region);
        for i in 0..3 {
            assert!(v.push(CountsDrops { armed: i == 0, drops: &drops }));
        }
        assert_eq!(pool.stats().lent, 2);
        drop(v);
    }));
    assert!(unwound.is_err());
    assert_eq!((pool.stats().lent, region.used(), drops.get()), (0, 0, 3));
}

/// Counts its drops and panics in the one that is `armed`.
struct CountsDrops<'a> {
    armed: bool,
    drops: &'a Cell<usize>,
}

impl Drop for CountsDrops<'_> {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
        if self.armed {
            panic!("an item's drop panics");
        }
    }
}

/// As std's `Vec::clear`: an item whose drop panics does not keep the others from
/// being dropped, in caller memory and across a pooled vec's chunks.
#[test]
fn clear_drops_every_item_when_one_panics() {
    let drops = Cell::new(0);
    let mut mem = [const { MaybeUninit::uninit() }; 8];
    let mut v = Vec::new(&mut mem);
    for i in 0..6 {
        v.push(CountsDrops { armed: i == 1, drops: &drops });
    }
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.clear())).is_err());
    assert_eq!((drops.get(), v.len()), (6, 0));

    let pool = Pool::new(Chunks { count: 4, len: 2 });
    let region = Region::new(1024);
    let mut v = Vec::in_region(&pool, &region);
    for i in 0..7 {
        v.push(CountsDrops { armed: i == 2, drops: &drops });
    }
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.clear())).is_err());
    assert_eq!((drops.get(), v.len()), (13, 0));
}

#[test]
fn a_refused_item_is_handed_back() {
    let mut mem = [const { MaybeUninit::uninit() }; 1];
    let mut v = Vec::new(&mut mem);
    assert_eq!(v.try_push(String::from("kept")), Ok(()));
    assert_eq!(v.try_push(String::from("handed back")), Err(String::from("handed back")));
    let classes = bounded::Classes::<String>::doubling(Doubling { smallest: 1, classes: 1, chunks: 1 });
    let region = Region::new(1024);
    let mut slice = bounded::Slice::in_region(&classes, &region);
    assert_eq!(slice.try_push(String::from("a")), Ok(()));
    assert_eq!(slice.try_push(String::from("b")), Err(String::from("b")));
    let mut slots = [bounded::map::Slot::EMPTY; 2];
    let mut map = bounded::Map::new(&mut slots);
    assert_eq!(map.try_insert(1, String::from("one")), Ok(()));
    assert_eq!(map.try_insert(2, String::from("two")), Err((2, String::from("two"))));
    assert_eq!(map.try_insert(1, String::from("uno")), Ok(()), "updates always work");
}
