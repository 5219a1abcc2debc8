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

// Values the root's caller built: a dependency's private fn-pointer field holds
// what the dependency's own code stores there.
// noalloc:root
pub fn find_with(finder: &guarded::Finder, hay: &[u8]) -> Option<usize> {
    finder.find(hay)
}

// One of the routines `Counter::new` may store collects into a `Vec`.
// noalloc:root
pub fn count_with(counter: &guarded::Counter, hay: &[u8]) -> usize {
    counter.count(hay)
}

// `Hooked::new` stores what its caller hands in: any function may be there.
// noalloc:root
pub fn run_hooked(hooked: &guarded::Hooked, n: usize) -> usize {
    hooked.run(n)
}

// `Slot::call_mut` lends the field out: whoever borrows it may store anything.
// noalloc:root
pub fn run_slot(slot: &guarded::Slot, n: usize) -> usize {
    slot.run(n)
}

/// A routine of the workspace's that allocates, for the hooks above.
pub fn spelled_len(n: usize) -> usize {
    n.to_string().len()
}

// `CellSlot::set` stores its caller's pointer through `&self`.
// noalloc:root
pub fn run_cell_slot(slot: &guarded::CellSlot, n: usize) -> usize {
    slot.run(n)
}

// `Stepper::with` is private: its callers hand it `halve` or `twice`.
// noalloc:root
pub fn step_with(stepper: &guarded::Stepper, n: usize) -> usize {
    stepper.step(n)
}

// `Grower::with`'s callers hand it `halve` or `grow`, which allocates.
// noalloc:root
pub fn grow_with(grower: &guarded::Grower, n: usize) -> usize {
    grower.step(n)
}

/// An owner whose drop allocates nothing.
pub struct Quiet(pub [u8; 4]);

impl AsRef<[u8]> for Quiet {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// An owner whose drop allocates: it keeps a line of what it held.
pub struct Noisy(pub Vec<u8>);

impl AsRef<[u8]> for Noisy {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for Noisy {
    fn drop(&mut self) {
        std::hint::black_box(format!("{:?}", self.0));
    }
}

/// The only owners this program keeps in an `OwnedView` are `Quiet`.
pub fn keep_quiet(bytes: [u8; 4]) -> guarded::OwnedView {
    guarded::OwnedView::from_owner(Quiet(bytes))
}

/// `SharedView`s are made here, at each owner type its callers pick.
pub fn keep<O: AsRef<[u8]>>(owner: O) -> guarded::SharedView {
    guarded::SharedView::from_owner(owner)
}

pub fn keep_noisy(bytes: Vec<u8>) -> guarded::SharedView {
    keep(Noisy(bytes))
}

// Values the root's caller built: dropping the view drops an owner of a type
// this program keeps there, `Quiet` only.
// noalloc:root
pub fn release_owned(view: guarded::OwnedView) -> usize {
    view.len()
}

// A `SharedView` may hold a `Noisy`, whose drop allocates.
// noalloc:root
pub fn release_shared(view: guarded::SharedView) -> usize {
    view.len()
}
