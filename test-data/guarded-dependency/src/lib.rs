//! Calls into a dependency that proves room in its own body, and into one whose
//! functions hand out, behind `dyn` and fn pointers, code that allocates.

use guarded::{Log, Shape};

// noalloc:root
pub fn record(log: &mut Log, x: u32) -> bool {
    log.record(x)
}

// noalloc:root
pub fn record_allocates(log: &mut Log, x: u32) {
    log.record_anyway(x);
}

struct Square;

impl Shape for Square {
    fn area(&self) -> usize {
        4
    }
}

// Reaches `guarded::blob` first, so that the root below finds its summary (with
// the cache on): nothing here calls through `dyn Shape`.
// noalloc:root
pub fn shape_handed_out() -> bool {
    let shape = guarded::blob();
    std::hint::black_box(shape);
    true
}

// The `dyn Shape` calls may reach `Blob::area`, which only `guarded::blob`'s
// reach puts behind `dyn Shape`.
// noalloc:root
pub fn total_area() -> usize {
    let square: &dyn Shape = std::hint::black_box(&Square);
    square.area() + guarded::blob().area()
}

fn double(n: usize) -> usize {
    n * 2
}

// noalloc:root
pub fn pointer_handed_out() -> bool {
    let f = guarded::grower();
    std::hint::black_box(f);
    true
}

// The call through `f` may reach `guarded::grow`, whose address only
// `guarded::grower`'s reach takes.
// noalloc:root
pub fn apply_pointer(n: usize) -> usize {
    let f: fn(usize) -> usize = if n > 3 { double } else { guarded::grower() };
    f(n)
}

// A routine kept in a dependency's `static AtomicPtr<()>` and called after a
// `transmute`: the functions the code of its block stores there.
// noalloc:root
pub fn dispatch_clean(n: usize) -> usize {
    guarded::dispatched_halve(n)
}

// noalloc:root
pub fn dispatch_allocates(n: usize) -> usize {
    guarded::dispatched_grow(n)
}

// The block's code stores what its caller hands in: any function may be there.
// noalloc:root
pub fn dispatch_settable(n: usize) -> usize {
    guarded::dispatched_settable(n, None)
}
