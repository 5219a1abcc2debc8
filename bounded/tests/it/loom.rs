//! Loom models of `Pool` under contention: take and give back (including the
//! pop/pop/push interleaving that breaks an untagged free list), `wait` woken by a
//! give-back, and `reserve` all-or-none. Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p bounded --release --test it`.

use std::mem::MaybeUninit;

use bounded::Chunks;
use bounded::{Cancel, Chunk, Pool, Region};
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

fn mark(chunk: &mut Chunk<'_, usize>, value: usize) {
    chunk.fill(MaybeUninit::new(value));
}

fn marked(chunk: &Chunk<'_, usize>, value: usize) -> bool {
    // SAFETY: callers `mark` the chunk first.
    chunk.iter().all(|slot| unsafe { slot.assume_init() } == value)
}

#[test]
fn a_chunk_is_never_lent_twice() {
    model(|| {
        let pool = Arc::new(Pool::<usize>::new(Chunks { count: 2, len: 2 }));
        let other = {
            let pool = pool.clone();
            thread::spawn(move || {
                let region = Region::new(1024);
                let mut chunks = [pool.take(&region), pool.take(&region)];
                for chunk in chunks.iter_mut().flatten() {
                    mark(chunk, 1);
                }
                thread::yield_now();
                assert!(chunks.iter().flatten().all(|chunk| marked(chunk, 1)));
                drop(chunks);
            })
        };
        let region = Region::new(1024);
        // Pop, pop, push back the first: a stale pop in the other thread must not
        // hand out the second chunk while this thread holds it.
        let first = pool.take(&region);
        let mut second = pool.take(&region);
        drop(first);
        if let Some(chunk) = &mut second {
            mark(chunk, 2);
        }
        other.join().expect("no panic");
        if let Some(chunk) = &second {
            assert!(marked(chunk, 2));
        }
        drop(second);
        assert_eq!((pool.stats().lent, pool.stats().free), (0, 2));
    });
}

#[test]
fn wait_is_woken_by_a_give_back() {
    model(|| {
        let pool = Arc::new(Pool::<usize>::new(Chunks { count: 1, len: 1 }));
        let region = Region::new(64);
        let held = pool.take(&region).expect("one chunk");
        let waiter = {
            let pool = pool.clone();
            thread::spawn(move || {
                let region = Region::new(64);
                let got = pool.wait(&region, &Cancel::new()).is_some();
                got
            })
        };
        drop(held);
        assert!(waiter.join().expect("no panic"));
        assert_eq!(pool.stats().lent, 0);
    });
}

#[test]
fn reserve_is_all_or_none_under_contention() {
    model(|| {
        let pool = Arc::new(Pool::<usize>::new(Chunks { count: 3, len: 1 }));
        let granted = Arc::new(AtomicUsize::new(0));
        let reserve = {
            let (pool, granted) = (pool.clone(), granted.clone());
            move || {
                let region = Region::new(64);
                if let Some(reservation) = pool.reserve(&region, 2) {
                    granted.fetch_add(1, Ordering::SeqCst);
                    assert_eq!(reservation.len(), 2);
                }
                assert_eq!(region.used(), 0);
            }
        };
        let other = thread::spawn(reserve.clone());
        reserve();
        other.join().expect("no panic");
        assert!(granted.load(Ordering::SeqCst) >= 1, "3 chunks always serve one request of 2");
        assert_eq!((pool.stats().lent, pool.stats().free), (0, 3));
    });
}
