//! `Pool` and `Region`: lending, budgets, `reserve` all-or-none, `wait` and its
//! cancel, threads, what a returned chunk holds, and no allocation after `new`.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};

use bounded::alloctest::assert_zero;
use bounded::{Cancel, Pool, Region, Stats};
use bounded::{Chunks, Classes, Doubling};

#[test]
fn lends_every_chunk_once_then_runs_dry() {
    let pool = Pool::<u64>::new(Chunks { count: 3, len: 4 });
    assert_eq!((pool.chunks(), pool.chunk_len(), pool.chunk_bytes()), (3, 4, 32));
    let region = Region::new(1024);
    let chunks: Vec<_> = (0..3).map(|_| pool.take(&region).expect("3 chunks")).collect();
    assert_eq!(region.used(), 96);
    assert!(pool.take(&region).is_none());
    assert_eq!(pool.stats(), Stats { lent: 3, free: 0, empty: 1 });
    let mut starts: Vec<_> = chunks.iter().map(|c| c.as_ptr()).collect();
    starts.sort();
    starts.dedup();
    assert_eq!(starts.len(), 3, "chunks are distinct");
    drop(chunks);
    assert_eq!((pool.stats().lent, pool.stats().free, region.used()), (0, 3, 0));
}

#[test]
fn a_take_over_budget_fails_without_touching_the_pool() {
    let pool = Pool::<u8>::new(Chunks { count: 2, len: 64 });
    let region = Region::new(100);
    let first = pool.take(&region);
    assert!(first.is_some());
    assert!(pool.take(&region).is_none());
    assert_eq!(pool.stats(), Stats { lent: 1, free: 1, empty: 0 });
    assert_eq!((region.used(), region.left(), region.peak()), (64, 36, 64));
}

#[test]
fn reserve_is_all_or_none() {
    let pool = Pool::<u8>::new(Chunks { count: 3, len: 8 });
    let (a, b) = (Region::new(1024), Region::new(1024));
    let mut first = pool.reserve(&a, 2).expect("2 of 3 free");
    assert_eq!((first.len(), a.used()), (2, 16));
    assert!(pool.reserve(&b, 2).is_none(), "only one is free");
    assert_eq!(pool.stats(), Stats { lent: 2, free: 1, empty: 1 }, "nothing partial is held");
    assert_eq!(b.used(), 0);
    let one = first.next().expect("reserved");
    drop(first); // gives back the chunk not taken out
    assert_eq!((pool.stats().lent, a.used()), (1, 8));
    let second = pool.reserve(&b, 2).expect("2 free now");
    assert_eq!(second.count(), 2);
    drop(one);
    assert_eq!((pool.stats().lent, a.used(), b.used()), (0, 0, 0));
}

#[test]
fn reserve_over_budget_takes_nothing() {
    let pool = Pool::<u8>::new(Chunks { count: 4, len: 8 });
    let region = Region::new(20);
    assert!(pool.reserve(&region, 3).is_none());
    assert_eq!((pool.stats().lent, region.used()), (0, 0));
    assert!(pool.reserve(&region, 2).is_some());
}

#[test]
fn wait_gets_a_chunk_given_back_by_another_thread() {
    let pool = Pool::<u32>::new(Chunks { count: 1, len: 16 });
    let cancel = Cancel::new();
    let held = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let region = Region::new(1024);
        let chunk = pool.take(&region).expect("one chunk");
        s.spawn(|| {
            let region = Region::new(1024);
            let got = pool.wait(&region, &cancel);
            held.store(usize::from(got.is_some()), Ordering::SeqCst);
        });
        std::thread::sleep(std::time::Duration::from_millis(20));
        drop(chunk);
    });
    assert_eq!(held.load(Ordering::SeqCst), 1);
    assert_eq!(pool.stats().lent, 0);
}

#[test]
fn wait_ends_when_cancelled() {
    let pool = Pool::<u32>::new(Chunks { count: 1, len: 16 });
    let cancel = Cancel::new();
    let region = Region::new(1024);
    let _held = pool.take(&region).expect("one chunk");
    std::thread::scope(|s| {
        let waiter = s.spawn(|| pool.wait(&Region::new(1024), &cancel).is_some());
        std::thread::sleep(std::time::Duration::from_millis(10));
        cancel.fire();
        assert_eq!(waiter.join().ok(), Some(false));
    });
    assert!(cancel.is_fired());
    assert_eq!(pool.stats(), Stats { lent: 1, free: 0, empty: 1 }, "one wait, one empty, however long");
    let budget_short = Region::new(10);
    assert!(pool.wait(&budget_short, &Cancel::new()).is_none(), "over budget: no wait at all");
}

#[test]
fn threads_never_share_a_chunk() {
    let pool = Pool::<usize>::new(Chunks { count: 3, len: 8 });
    let rounds = if cfg!(miri) { 20 } else { 2_000 };
    std::thread::scope(|s| {
        for id in 0..4usize {
            let pool = &pool;
            s.spawn(move || {
                let region = Region::new(1024);
                let cancel = Cancel::new();
                for round in 0..rounds {
                    let mut chunk = pool.wait(&region, &cancel).expect("never cancelled");
                    let mark = id * 1_000_000 + round;
                    for slot in chunk.iter_mut() {
                        slot.write(mark);
                    }
                    std::thread::yield_now();
                    // SAFETY: every slot was just written.
                    assert!(chunk.iter().all(|slot| unsafe { slot.assume_init() } == mark));
                }
            });
        }
    });
    assert_eq!((pool.stats().lent, pool.stats().free), (0, 3));
}

#[test]
fn plain_data_is_left_as_it_was() {
    let pool = Pool::<u8>::new(Chunks { count: 1, len: 4 });
    let region = Region::new(16);
    let mut chunk = pool.take(&region).expect("a chunk");
    chunk.fill(MaybeUninit::new(7));
    drop(chunk);
    let chunk = pool.take(&region).expect("the same chunk");
    // SAFETY: the previous borrower initialised these bytes; the pool leaves them.
    assert_eq!(chunk.iter().map(|b| unsafe { b.assume_init() }).sum::<u8>(), 28);
}

#[test]
fn take_give_back_reserve_and_wait_allocate_nothing() {
    let pool = Pool::<u64>::new(Chunks { count: 8, len: 16 });
    let cancel = Cancel::new();
    assert_zero("Pool", || {
        let region = Region::new(4096);
        let a = pool.take(&region);
        let b = pool.wait(&region, &cancel);
        let r = pool.reserve(&region, 3);
        std::hint::black_box((a, b, r));
    });
}

/// Chunk lengths that overflow `usize` are refused with a message, not wrapped
/// round to a class of 0 items.
#[test]
fn doubling_refuses_lengths_that_overflow() {
    let made =
        std::panic::catch_unwind(|| Classes::<u8>::doubling(Doubling { smallest: 1 << 62, classes: 3, chunks: 0 }));
    let message = made.err().and_then(|p| p.downcast_ref::<String>().cloned());
    assert_eq!(
        message.as_deref(),
        Some("Classes::doubling: a chunk of 4611686018427387904 << 2 items overflows usize")
    );
    let made = Classes::<u8>::doubling(Doubling { smallest: 1 << 61, classes: 3, chunks: 0 });
    assert_eq!(made.max_len(), 1 << 63);
}
