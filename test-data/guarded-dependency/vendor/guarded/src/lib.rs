//! A dependency that guards its own buffer, as std's and registry crates do: it
//! pushes only where a comparison proves room.

pub struct Log {
    entries: Vec<u32>,
}

impl Log {
    pub fn with_capacity(n: usize) -> Log {
        Log { entries: Vec::with_capacity(n) }
    }

    /// Records `x` if there is room; never allocates.
    pub fn record(&mut self, x: u32) -> bool {
        if self.entries.len() < self.entries.capacity() {
            self.entries.push(x);
            return true;
        }
        false
    }

    /// Records `x`, growing the buffer when it is full.
    pub fn record_anyway(&mut self, x: u32) {
        self.entries.push(x);
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// Something with an area, reached through `dyn Shape`.
pub trait Shape {
    fn area(&self) -> usize;
}

/// A shape whose area allocates.
pub struct Blob;

impl Shape for Blob {
    fn area(&self) -> usize {
        Vec::<u8>::with_capacity(64).capacity()
    }
}

/// Hands out a `Blob` as a `dyn Shape`. It calls nothing through `dyn` itself, so
/// its summary holds in any program; what it adds to the program (a `Blob` behind
/// `dyn Shape`) goes with the summary.
pub fn blob() -> &'static dyn Shape {
    &Blob
}

fn grow(n: usize) -> usize {
    vec![0u8; n].len()
}

/// Hands out the address of a function that allocates.
pub fn grower() -> fn(usize) -> usize {
    grow
}

/// The CPU-dispatch idiom (memchr's): the routine is kept in a block's
/// `static AtomicPtr<()>`, set first to `detect`, which stores the routine it
/// picks and calls it; later calls go through a `transmute` back to a fn pointer.
macro_rules! dispatch {
    ($n:ident, $picked:ident) => {{
        use core::sync::atomic::{AtomicPtr, Ordering};
        type Erased = *mut ();
        type Real = fn(usize) -> usize;
        static FN: AtomicPtr<()> = AtomicPtr::new(detect as Erased);

        fn detect(n: usize) -> usize {
            let picked = $picked as Real;
            FN.store(picked as Erased, Ordering::Relaxed);
            picked(n)
        }

        let f = FN.load(Ordering::Relaxed);
        unsafe { core::mem::transmute::<Erased, Real>(f)($n) }
    }};
}

fn halve(n: usize) -> usize {
    n / 2
}

/// Dispatches to `halve`.
pub fn dispatched_halve(n: usize) -> usize {
    dispatch!(n, halve)
}

/// Dispatches to `grow`, which allocates.
pub fn dispatched_grow(n: usize) -> usize {
    dispatch!(n, grow)
}

/// The same idiom, with a setter in the block that stores what its caller hands
/// it: whatever that is may be behind the pointer.
pub fn dispatched_settable(n: usize, replace: Option<fn(usize) -> usize>) -> usize {
    use core::sync::atomic::{AtomicPtr, Ordering};
    type Erased = *mut ();
    type Real = fn(usize) -> usize;
    static FN: AtomicPtr<()> = AtomicPtr::new(triple as Erased);

    fn triple(n: usize) -> usize {
        n * 3
    }

    fn set(f: Real) {
        FN.store(f as Erased, Ordering::Relaxed);
    }

    if let Some(f) = replace {
        set(f);
    }
    let f = FN.load(Ordering::Relaxed);
    unsafe { core::mem::transmute::<Erased, Real>(f)(n) }
}

/// A searcher that picks its routine when it is built and keeps it in a private
/// field, as memchr's `Searcher { call, .. }` does: what is in the field is what
/// this crate's code stores there.
pub struct Finder {
    call: fn(&[u8], u8) -> Option<usize>,
    needle: u8,
}

fn find_forward(hay: &[u8], needle: u8) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

fn find_backward(hay: &[u8], needle: u8) -> Option<usize> {
    hay.iter().rposition(|&b| b == needle)
}

impl Finder {
    pub fn new(needle: u8, backward: bool) -> Finder {
        let call = if backward { find_backward as fn(&[u8], u8) -> Option<usize> } else { find_forward };
        Finder { call, needle }
    }

    pub fn find(&self, hay: &[u8]) -> Option<usize> {
        (self.call)(hay, self.needle)
    }
}

/// The same, with a routine that allocates among those it may pick.
pub struct Counter {
    call: fn(&[u8], u8) -> usize,
    needle: u8,
}

fn count_directly(hay: &[u8], needle: u8) -> usize {
    hay.iter().filter(|&&b| b == needle).count()
}

fn count_collected(hay: &[u8], needle: u8) -> usize {
    hay.iter().copied().filter(|&b| b == needle).collect::<Vec<u8>>().len()
}

impl Counter {
    pub fn new(needle: u8, collect: bool) -> Counter {
        Counter { call: if collect { count_collected } else { count_directly }, needle }
    }

    pub fn count(&self, hay: &[u8]) -> usize {
        (self.call)(hay, self.needle)
    }
}

/// A routine its caller hands in: any function may be in the field.
pub struct Hooked {
    hook: fn(usize) -> usize,
}

impl Hooked {
    pub fn new(hook: fn(usize) -> usize) -> Hooked {
        Hooked { hook }
    }

    pub fn run(&self, n: usize) -> usize {
        (self.hook)(n)
    }
}

/// A routine this crate picks, but whose field it lends out mutably: whoever
/// borrows it may store any function.
pub struct Slot {
    call: fn(usize) -> usize,
}

impl Slot {
    pub fn new() -> Slot {
        Slot { call: halve }
    }

    pub fn call_mut(&mut self) -> &mut fn(usize) -> usize {
        &mut self.call
    }

    pub fn run(&self, n: usize) -> usize {
        (self.call)(n)
    }
}

impl Default for Slot {
    fn default() -> Slot {
        Slot::new()
    }
}

/// A routine this crate picks, in a cell its callers may set through `&self`.
pub struct CellSlot {
    call: core::cell::Cell<fn(usize) -> usize>,
}

impl CellSlot {
    pub fn new() -> CellSlot {
        CellSlot { call: core::cell::Cell::new(halve) }
    }

    pub fn set(&self, call: fn(usize) -> usize) {
        self.call.set(call);
    }

    pub fn run(&self, n: usize) -> usize {
        (self.call.get())(n)
    }
}

impl Default for CellSlot {
    fn default() -> CellSlot {
        CellSlot::new()
    }
}

/// A routine handed to a private constructor: its callers, all in this crate,
/// hand it only functions that do not allocate.
pub struct Stepper {
    call: fn(usize) -> usize,
}

fn twice(n: usize) -> usize {
    n.wrapping_mul(2)
}

impl Stepper {
    fn with(call: fn(usize) -> usize) -> Stepper {
        Stepper { call }
    }

    pub fn halving() -> Stepper {
        Stepper::with(halve)
    }

    pub fn doubling() -> Stepper {
        Stepper::with(twice)
    }

    pub fn step(&self, n: usize) -> usize {
        (self.call)(n)
    }
}

/// The same, where one caller hands it a function that allocates.
pub struct Grower {
    call: fn(usize) -> usize,
}

impl Grower {
    fn with(call: fn(usize) -> usize) -> Grower {
        Grower { call }
    }

    pub fn halving() -> Grower {
        Grower::with(halve)
    }

    pub fn growing() -> Grower {
        Grower::with(grow)
    }

    pub fn step(&self, n: usize) -> usize {
        (self.call)(n)
    }
}

/// What releases an owner kept behind an erased pointer, picked per owner type
/// in a generic impl's associated const (as `bytes::Bytes::from_owner` does).
pub(crate) struct Release {
    pub drop: unsafe fn(*mut ()),
}

struct Kept<T>(T);

impl<T> Kept<T> {
    const RELEASE: Release = Release { drop: release_kept::<T> };
}

unsafe fn release_kept<T>(data: *mut ()) {
    drop(unsafe { Box::from_raw(data.cast::<Kept<T>>()) });
}

/// A view of an owner's bytes that keeps the owner alive: dropping the view
/// drops the owner, through the `Release` of the owner's type.
pub struct OwnedView {
    data: *mut (),
    len: usize,
    release: &'static Release,
}

impl OwnedView {
    pub fn from_owner<T: AsRef<[u8]>>(owner: T) -> OwnedView {
        let len = owner.as_ref().len();
        let data = Box::into_raw(Box::new(Kept(owner))).cast();
        OwnedView { data, len, release: &Kept::<T>::RELEASE }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for OwnedView {
    fn drop(&mut self) {
        unsafe { (self.release.drop)(self.data) }
    }
}

/// The same, for the owners of another part of a program.
pub struct SharedView {
    data: *mut (),
    len: usize,
    release: &'static Release,
}

impl SharedView {
    pub fn from_owner<T: AsRef<[u8]>>(owner: T) -> SharedView {
        let len = owner.as_ref().len();
        let data = Box::into_raw(Box::new(Kept(owner))).cast();
        SharedView { data, len, release: &Kept::<T>::RELEASE }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for SharedView {
    fn drop(&mut self) {
        unsafe { (self.release.drop)(self.data) }
    }
}
