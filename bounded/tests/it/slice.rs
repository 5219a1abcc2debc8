//! `Slice`: moves through the classes giving chunks back, budget limits, and drops
//! across moves.

use std::cell::Cell;

use bounded::alloctest::assert_zero;
use bounded::{Chunks, Doubling};
use bounded::{Classes, Region, Slice, Stats};

use crate::Counted;

#[test]
fn moves_to_the_next_class_and_gives_the_old_chunk_back() {
    let classes =
        Classes::<u16>::new(&[Chunks { count: 1, len: 8 }, Chunks { count: 1, len: 2 }, Chunks { count: 1, len: 4 }]);
    let region = Region::new(1024);
    let mut slice = Slice::in_region(&classes, &region);
    assert_eq!((slice.capacity(), slice.items()), (0, &[][..]));
    let mut caps = Vec::new();
    for i in 0..8 {
        assert!(slice.push(i));
        caps.push(slice.capacity());
    }
    assert_eq!(caps, [2, 2, 4, 4, 8, 8, 8, 8]);
    assert_eq!(slice.items(), [0, 1, 2, 3, 4, 5, 6, 7]);
    let lent: Vec<_> = classes.pools().iter().map(|p| p.stats().lent).collect();
    assert_eq!(lent, [0, 0, 1]);
    assert_eq!(region.peak(), 16 + 8, "the 8-chunk and the 4-chunk during the move");
    assert!(!slice.push(8), "no larger class");
    assert!(slice.is_full());
    slice.items_mut()[0] = 100;
    assert_eq!(slice.pop(), Some(7));
    assert_eq!((slice.len(), slice.items()[0]), (7, 100));
}

#[test]
fn a_move_needs_room_in_the_budget() {
    let classes = Classes::<u8>::doubling(Doubling { smallest: 4, classes: 3, chunks: 1 });
    let region = Region::new(4 + 8);
    let mut slice = Slice::in_region(&classes, &region);
    let stored = (0..20).filter(|&i| slice.push(i)).count();
    assert_eq!(stored, 8);
    assert_eq!(classes.pools()[2].stats(), Stats { lent: 0, free: 1, empty: 0 });
}

#[test]
fn items_are_dropped_once_across_moves() {
    let drops = Cell::new(0);
    let classes = Classes::doubling(Doubling { smallest: 1, classes: 4, chunks: 1 });
    let region = Region::new(1024);
    let mut slice = Slice::in_region(&classes, &region);
    for _ in 0..8 {
        slice.push(Counted(&drops));
    }
    assert_eq!(drops.get(), 0, "moving does not drop");
    slice.clear();
    assert_eq!(drops.get(), 8);
    slice.push(Counted(&drops));
    drop(slice);
    assert_eq!(drops.get(), 9);
}

#[test]
fn growing_allocates_nothing() {
    let classes = Classes::<u32>::doubling(Doubling { smallest: 4, classes: 6, chunks: 2 });
    assert_zero("Slice", || {
        let region = Region::new(4096);
        let mut slice = Slice::in_region(&classes, &region);
        for i in 0..100 {
            slice.push(i);
        }
        std::hint::black_box(slice.items().iter().sum::<u32>());
    });
}
