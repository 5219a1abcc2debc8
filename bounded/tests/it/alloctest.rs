//! `alloctest`: counts per call, rounding, warm-up, per-thread counts, and
//! `assert_zero`'s failure message.

use std::hint::black_box;

use bounded::alloctest::{allocations, assert_zero, count, installed};

#[test]
fn counts_whole_allocations_per_call() {
    assert!(installed());
    assert_eq!(count(5, || drop(black_box(Box::new(1u32)))), 1);
    assert_eq!(count(5, || drop(black_box(vec![1u8; 3]))), 1);
    assert_eq!(count(5, || black_box(())), 0);
}

#[test]
fn rounds_an_occasional_allocation_up() {
    let mut call = 0;
    let n = count(10, || {
        call += 1;
        if call % 4 == 0 {
            drop(black_box(Box::new(call)));
        }
    });
    assert_eq!(n, 1);
}

#[test]
fn warm_up_call_is_not_counted() {
    let mut first = true;
    let n = count(3, || {
        if std::mem::take(&mut first) {
            drop(black_box(Box::new(0u8)));
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn counts_are_per_thread() {
    std::thread::scope(|s| {
        s.spawn(|| ());
    });
    let before = allocations();
    std::thread::scope(|s| {
        s.spawn(|| drop(black_box(vec![0u8; 100])));
    });
    // Spawning allocates on this thread; the other thread's vec is not counted.
    let spawned = allocations() - before;
    let before = allocations();
    std::thread::scope(|s| {
        s.spawn(|| {
            for _ in 0..50 {
                drop(black_box(vec![0u8; 100]));
            }
        });
    });
    assert_eq!(allocations() - before, spawned);
}

#[test]
fn assert_zero_passes_and_fails() {
    assert_zero("nothing", || {
        black_box(1 + 1);
    });
    let failed = std::panic::catch_unwind(|| assert_zero("a box", || drop(black_box(Box::new(1)))));
    let message = failed.expect_err("a box allocates");
    let message = message.downcast_ref::<String>().expect("a formatted message");
    assert_eq!(message, "a box: 1 allocation(s) per call, expected none");
}
