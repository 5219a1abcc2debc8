//! The dynamic oracle: runs every root of this fixture under bounded's counting
//! allocator (after one warm-up call) and prints `root<TAB>allocations per call`.
use bounded::alloctest::{self, Counting};
use guarded::Log;

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations per call of `run`, after one warm-up call (three calls counted).
fn count(run: impl FnMut()) -> u64 {
    alloctest::count(3, run)
}

fn main() {
    assert!(alloctest::installed());
    let mut log = Log::with_capacity(4);
    let with_room = count(|| {
        log.clear();
        std::hint::black_box(guarded_dependency::record(&mut log, 1));
    });
    let grows = count(|| {
        let mut full = Log::with_capacity(0);
        guarded_dependency::record_allocates(&mut full, 1);
        std::hint::black_box(full);
    });
    let handed_out = count(|| {
        std::hint::black_box(guarded_dependency::shape_handed_out());
    });
    let areas = count(|| {
        std::hint::black_box(guarded_dependency::total_area());
    });
    let pointer = count(|| {
        std::hint::black_box(guarded_dependency::pointer_handed_out());
    });
    let applied = count(|| {
        std::hint::black_box(guarded_dependency::apply_pointer(std::hint::black_box(2)));
    });
    let dispatch_clean = count(|| {
        std::hint::black_box(guarded_dependency::dispatch_clean(std::hint::black_box(2)));
    });
    let dispatch_allocates = count(|| {
        std::hint::black_box(guarded_dependency::dispatch_allocates(std::hint::black_box(2)));
    });
    let dispatch_settable = count(|| {
        std::hint::black_box(guarded_dependency::dispatch_settable(std::hint::black_box(2)));
    });
    println!("guarded_dependency::record\t{with_room}");
    println!("guarded_dependency::record_allocates\t{grows}");
    println!("guarded_dependency::shape_handed_out\t{handed_out}");
    println!("guarded_dependency::total_area\t{areas}");
    println!("guarded_dependency::pointer_handed_out\t{pointer}");
    println!("guarded_dependency::apply_pointer\t{applied}");
    println!("guarded_dependency::dispatch_clean\t{dispatch_clean}");
    println!("guarded_dependency::dispatch_allocates\t{dispatch_allocates}");
    println!("guarded_dependency::dispatch_settable\t{dispatch_settable}");
}
