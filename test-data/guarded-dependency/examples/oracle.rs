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
    let finder = guarded::Finder::new(b'x', false);
    let backward = guarded::Finder::new(b'x', true);
    let find_with = count(|| {
        std::hint::black_box(guarded_dependency::find_with(&finder, std::hint::black_box(b"abcxdef")));
        std::hint::black_box(guarded_dependency::find_with(&backward, std::hint::black_box(b"abcxdef")));
    });
    let counter = guarded::Counter::new(b'x', true);
    let count_with = count(|| {
        std::hint::black_box(guarded_dependency::count_with(&counter, std::hint::black_box(b"xaxbx")));
    });
    let hooked = guarded::Hooked::new(guarded_dependency::spelled_len);
    let run_hooked = count(|| {
        std::hint::black_box(guarded_dependency::run_hooked(&hooked, std::hint::black_box(12345)));
    });
    let mut slot = guarded::Slot::new();
    *slot.call_mut() = guarded_dependency::spelled_len;
    let run_slot = count(|| {
        std::hint::black_box(guarded_dependency::run_slot(&slot, std::hint::black_box(12345)));
    });
    let cell_slot = guarded::CellSlot::new();
    cell_slot.set(guarded_dependency::spelled_len);
    let run_cell_slot = count(|| {
        std::hint::black_box(guarded_dependency::run_cell_slot(&cell_slot, std::hint::black_box(12345)));
    });
    let (halving, doubling) = (guarded::Stepper::halving(), guarded::Stepper::doubling());
    let step_with = count(|| {
        std::hint::black_box(guarded_dependency::step_with(&halving, std::hint::black_box(12)));
        std::hint::black_box(guarded_dependency::step_with(&doubling, std::hint::black_box(12)));
    });
    let growing = guarded::Grower::growing();
    let grow_with = count(|| {
        std::hint::black_box(guarded_dependency::grow_with(&growing, std::hint::black_box(12)));
    });
    // Each call releases a view made before the counted window.
    let mut owned: Vec<guarded::OwnedView> = (0..4).map(|i| guarded_dependency::keep_quiet([i; 4])).collect();
    let release_owned = count(|| {
        let view = owned.pop().expect("a view per call");
        std::hint::black_box(guarded_dependency::release_owned(view));
    });
    let mut shared: Vec<guarded::SharedView> = (0..4).map(|i| guarded_dependency::keep_noisy(vec![i; 4])).collect();
    let release_shared = count(|| {
        let view = shared.pop().expect("a view per call");
        std::hint::black_box(guarded_dependency::release_shared(view));
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
    println!("guarded_dependency::find_with\t{find_with}");
    println!("guarded_dependency::count_with\t{count_with}");
    println!("guarded_dependency::run_hooked\t{run_hooked}");
    println!("guarded_dependency::run_slot\t{run_slot}");
    println!("guarded_dependency::run_cell_slot\t{run_cell_slot}");
    println!("guarded_dependency::step_with\t{step_with}");
    println!("guarded_dependency::grow_with\t{grow_with}");
    println!("guarded_dependency::release_owned\t{release_owned}");
    println!("guarded_dependency::release_shared\t{release_shared}");
}
