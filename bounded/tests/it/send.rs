//! `Send`: a request's containers and its `&Region` live across `.await` in tasks
//! that a multi-threaded runtime moves between its threads (`tokio::spawn` asks for
//! `Send` futures, so this module compiling is half the test).

use std::mem::MaybeUninit;
use std::sync::LazyLock;

use bounded::map::Slot;
use bounded::{Buf, Classes, Map, Pool, Region, Slice, Vec};
use bounded::{Chunks, Doubling};

static BYTES: LazyLock<Classes<u8>> =
    LazyLock::new(|| Classes::doubling(Doubling { smallest: 64, classes: 4, chunks: 32 }));
static ITEMS: LazyLock<Pool<u64>> = LazyLock::new(|| Pool::new(Chunks { count: 64, len: 16 }));
static RUNS: LazyLock<Classes<u32>> =
    LazyLock::new(|| Classes::doubling(Doubling { smallest: 8, classes: 4, chunks: 32 }));
static SLOTS: LazyLock<Classes<Slot<u64, u64>>> =
    LazyLock::new(|| Classes::doubling(Doubling { smallest: 16, classes: 4, chunks: 32 }));

/// One request: fills every kind of container, yielding to the runtime between
/// items so the task may resume on another thread, and returns a checksum.
async fn request(n: u64) -> u64 {
    let region = Region::new(64 * 1024);
    let budget: &Region = &region;
    let mut text = Buf::in_region(&BYTES, budget);
    let mut items = Vec::in_region(&ITEMS, budget);
    let mut runs = Slice::in_region(&RUNS, budget);
    let mut index = Map::in_region(&SLOTS, budget);
    let mut own_mem = [const { MaybeUninit::uninit() }; 4];
    let mut own = Vec::new(&mut own_mem);
    for i in 0..40u64 {
        text.write_str("item ");
        assert!(items.push(i * n) && runs.push(i as u32) && index.insert(i, n).is_ok());
        own.push(i);
        tokio::task::yield_now().await;
    }
    assert!(budget.used() > 0);
    tokio::task::yield_now().await;
    let sum = items.iter().sum::<u64>() + runs.items().iter().map(|&r| r as u64).sum::<u64>();
    sum + index.get(&7).copied().unwrap_or(0) + text.bytes().len() as u64 + own.len() as u64
}

#[test]
fn containers_live_across_await_in_tasks_on_a_multi_threaded_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(4).build().expect("a runtime");
    let sums = runtime.block_on(async {
        let tasks: std::vec::Vec<_> = (0..16).map(|n| tokio::spawn(request(n))).collect();
        let mut sums = std::vec::Vec::new();
        for task in tasks {
            sums.push(task.await.expect("the task finished"));
        }
        sums
    });
    let expected: std::vec::Vec<u64> = (0..16).map(|n| 780 * n + 780 + n + 200 + 4).collect();
    assert_eq!(sums, expected);
    assert!(ITEMS.stats().lent == 0 && all_back(&BYTES) && all_back(&RUNS) && all_back(&SLOTS));
}

fn all_back<T>(classes: &Classes<T>) -> bool {
    classes.pools().iter().all(|p| p.stats().lent == 0)
}

/// `Send` where the contents are, and `&Region` too.
#[test]
fn the_containers_are_send_and_sync_where_their_items_are() {
    fn send<T: Send>() {}
    fn sync<T: Sync>() {}
    send::<&Region>();
    send::<Buf<'static>>();
    send::<Buf<'static, std::io::Sink>>();
    send::<Buf<'static, dyn std::io::Write + Send>>();
    send::<Vec<'static, String>>();
    send::<Slice<'static, String>>();
    send::<Map<'static, String, u64>>();
    sync::<Vec<'static, String>>();
    sync::<Slice<'static, String>>();
    sync::<Map<'static, String, u64>>();
}
