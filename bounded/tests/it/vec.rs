//! `Vec`: caller memory, pooled chunks (power-of-two use), the chunk limit, drops.

use std::cell::Cell;
use std::mem::MaybeUninit;

use bounded::alloctest::assert_zero;
use bounded::{Chunks, Doubling};
use bounded::{Pool, Region, Vec, MAX_CHUNKS};

use crate::{Counted, PanicsOnDrop};
use proptest::prelude::*;

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
            assert!(v.push(PanicsOnDrop { armed: i == 0, drops: &drops }));
        }
        assert_eq!(pool.stats().lent, 2);
        drop(v);
    }));
    assert!(unwound.is_err());
    assert_eq!((pool.stats().lent, region.used(), drops.get()), (0, 0, 3));
}

/// As std's `Vec::clear`: an item whose drop panics does not keep the others from
/// being dropped, in caller memory and across a pooled vec's chunks.
#[test]
fn clear_drops_every_item_when_one_panics() {
    let drops = Cell::new(0);
    let mut mem = [const { MaybeUninit::uninit() }; 8];
    let mut v = Vec::new(&mut mem);
    for i in 0..6 {
        v.push(PanicsOnDrop { armed: i == 1, drops: &drops });
    }
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.clear())).is_err());
    assert_eq!((drops.get(), v.len()), (6, 0));

    let pool = Pool::new(Chunks { count: 4, len: 2 });
    let region = Region::new(1024);
    let mut v = Vec::in_region(&pool, &region);
    for i in 0..7 {
        v.push(PanicsOnDrop { armed: i == 2, drops: &drops });
    }
    assert!(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.clear())).is_err());
    assert_eq!((drops.get(), v.len()), (13, 0));
}

#[test]
fn a_refused_item_is_handed_back() {
    let mut mem = [const { MaybeUninit::uninit() }; 1];
    let mut v = Vec::new(&mut mem);
    assert_eq!(v.try_push(String::from("kept")), Ok(()));
    assert_eq!(v.try_push(String::from("handed back")).map_err(|e| e.into_inner()), Err(String::from("handed back")));
    let classes = bounded::Classes::<String>::doubling(Doubling { smallest: 1, classes: 1, chunks: 1 });
    let region = Region::new(1024);
    let mut slice = bounded::Slice::in_region(&classes, &region);
    assert_eq!(slice.try_push(String::from("a")), Ok(()));
    assert_eq!(slice.try_push(String::from("b")).map_err(|e| e.into_inner()), Err(String::from("b")));
    let mut slots = [bounded::map::Slot::EMPTY; 2];
    let mut map = bounded::Map::new(&mut slots);
    assert_eq!(map.insert(1, String::from("one")), Ok(None));
    assert_eq!(map.insert(2, String::from("two")), Err((2, String::from("two"))));
    assert_eq!(map.insert(1, String::from("uno")), Ok(Some(String::from("one"))), "updates always work");
}

#[derive(Debug, Clone)]
enum VecOp {
    Push(u8),
    Insert(usize, u8),
    Remove(usize),
    SwapRemove(usize),
    Truncate(usize),
    RetainEven,
    Extend(std::vec::Vec<u8>),
}

fn vec_ops() -> impl Strategy<Value = std::vec::Vec<VecOp>> {
    proptest::collection::vec(
        prop_oneof![
            4 => any::<u8>().prop_map(VecOp::Push),
            2 => (0usize..24, any::<u8>()).prop_map(|(i, x)| VecOp::Insert(i, x)),
            2 => (0usize..24).prop_map(VecOp::Remove),
            1 => (0usize..24).prop_map(VecOp::SwapRemove),
            1 => (0usize..24).prop_map(VecOp::Truncate),
            1 => Just(VecOp::RetainEven),
            1 => proptest::collection::vec(any::<u8>(), 0..6).prop_map(VecOp::Extend),
        ],
        0..if cfg!(miri) { 20 } else { 80 },
    )
}

/// Applies `op` to the model, as a vec that holds at most `cap` items would: an
/// item refused marks it `full`, and a full vec takes no more (until `clear`).
fn model_apply(model: &mut std::vec::Vec<u8>, full: &mut bool, cap: usize, op: &VecOp) {
    let room = if *full { 0 } else { cap - model.len() };
    match op {
        VecOp::Push(x) if room > 0 => model.push(*x),
        VecOp::Insert(i, x) if *i <= model.len() && room > 0 => model.insert(*i, *x),
        VecOp::Push(_) => *full = true,
        VecOp::Insert(i, _) if *i <= model.len() => *full = true,
        VecOp::Remove(i) if *i < model.len() => drop(model.remove(*i)),
        VecOp::SwapRemove(i) if *i < model.len() => drop(model.swap_remove(*i)),
        VecOp::Truncate(n) => model.truncate(*n),
        VecOp::RetainEven => model.retain(|x| x % 2 == 0),
        VecOp::Extend(items) => {
            model.extend(items.iter().take(room));
            *full |= items.len() > room;
        }
        _ => {}
    }
}

/// The operations of `bounded::Vec` and `ArrayVec` written once over both.
macro_rules! apply_vec_op {
    ($v:expr, $op:expr) => {{
        let v = &mut $v;
        match $op {
            VecOp::Push(x) => drop(v.push(*x)),
            VecOp::Insert(i, x) if *i <= v.len() => drop(v.insert(*i, *x)),
            VecOp::Remove(i) if *i < v.len() => drop(v.remove(*i)),
            VecOp::SwapRemove(i) if *i < v.len() => drop(v.swap_remove(*i)),
            VecOp::Truncate(n) => v.truncate(*n),
            VecOp::RetainEven => v.retain(|x| x % 2 == 0),
            VecOp::Extend(items) => v.extend(items.iter().copied()),
            _ => {}
        }
    }};
}

proptest! {
    #![proptest_config(crate::proptest_config())]

    /// Pushes, inserts, removals, truncation, retain and extend agree with std's
    /// `Vec` (capped at the capacity), over caller memory, a pooled vec whose
    /// items span chunks, and the inline `ArrayVec`.
    #[test]
    fn vec_operations_behave_like_std(ops in vec_ops()) {
        let mut model = std::vec::Vec::new();
        let mut full = false;
        let mut mem = [const { MaybeUninit::uninit() }; 16];
        let mut own = Vec::new(&mut mem);
        let pool = Pool::new(Chunks { count: 4, len: 4 });
        let region = Region::new(1024);
        let mut pooled = Vec::in_region(&pool, &region);
        let mut inline = bounded::ArrayVec::<u8, 16>::new();
        for op in &ops {
            model_apply(&mut model, &mut full, 16, op);
            apply_vec_op!(own, op);
            apply_vec_op!(pooled, op);
            apply_vec_op!(inline, op);
            prop_assert_eq!(&own, &model[..]);
            prop_assert_eq!(&pooled, &model[..]);
            prop_assert_eq!(&inline[..], &model[..]);
            prop_assert_eq!((own.is_full(), pooled.is_full(), inline.is_full()), (full, full, full));
        }
        prop_assert_eq!(own.as_slice(), Some(&model[..]));
        prop_assert_eq!(pooled.as_slice().is_some(), model.len() <= 4);
        let mut sorted = inline.clone();
        sorted.sort();
        let mut want = model.clone();
        want.sort();
        prop_assert_eq!(&sorted[..], &want[..]);
    }
}

#[test]
fn vec_reads_like_a_slice() {
    let pool = Pool::new(Chunks { count: 4, len: 2 });
    let region = Region::new(1024);
    let mut v = Vec::in_region(&pool, &region);
    v.extend([5u32, 1, 4, 2, 3]);
    assert_eq!((v[2], v.len(), v.capacity()), (4, 5, 6));
    v[0] = 6;
    for x in &mut v.iter_mut() {
        *x *= 10;
    }
    assert_eq!(v, [60, 10, 40, 20, 30]);
    assert_eq!((&v).into_iter().max(), Some(&60));
    assert_eq!(v.as_slice(), None, "the items span three chunks");
    assert!(v.try_extend_from_slice(&[7, 8, 9]).is_ok());
    assert!(v.try_extend_from_slice(&[1]).is_err());
    assert_eq!((v.len(), v.is_full()), (8, true), "all or none, and full");
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v[8]));
    assert!(caught.is_err());
}

#[test]
fn array_vec_is_a_slice_that_never_allocates() {
    assert_zero("ArrayVec", || {
        let mut v = bounded::ArrayVec::<u64, 64>::new();
        v.extend(0..100);
        assert!(v.is_full());
        v.clear();
        v.extend(0..60);
        v.retain(|x| x % 3 == 0);
        v.insert(0, 7).unwrap();
        std::hint::black_box(v.iter().sum::<u64>() + v.binary_search(&9).unwrap_or(0) as u64);
    });
    let mut v = bounded::ArrayVec::<String, 2>::new();
    v.push(String::from("a"));
    v.push(String::from("b"));
    let refused = v.try_push(String::from("c")).unwrap_err();
    assert_eq!(
        (refused.item().as_str(), refused.to_string().as_str()),
        ("c", "no room for the item: the container is at its capacity")
    );
    assert_eq!(refused.into_inner(), "c");
    let copy = v.clone();
    assert_eq!(copy, v);
    use std::hash::BuildHasher;
    let hasher = std::hash::RandomState::new();
    assert_eq!(hasher.hash_one(&copy), hasher.hash_one(["a", "b"].map(String::from).as_slice()));
}
