//! A static that code can set at run time (`static mut`, or one with interior
//! mutability: `Mutex<fn()>`) holds whatever was stored in it, not just its
//! initialiser: a call through it is "no known callee" or goes to every impl. An
//! immutable static holds its initialiser, and what the `const fn`s it calls put
//! in it.
use std::sync::Mutex;

fn quiet() -> usize {
    1
}

pub fn loud() -> usize {
    std::hint::black_box(vec![1u8; 3]).len()
}

pub trait Greeter: Sync {
    fn name(&self) -> usize;
}

pub struct Loud;
impl Greeter for Loud {
    fn name(&self) -> usize {
        loud()
    }
}

pub struct Quiet;
impl Greeter for Quiet {
    fn name(&self) -> usize {
        5
    }
}

static mut HOOK: fn() -> usize = quiet;
static LOCKED_HOOK: Mutex<fn() -> usize> = Mutex::new(quiet);
static mut GREETER: &dyn Greeter = &Quiet;
static mut TABLE: [fn() -> usize; 2] = [quiet, quiet];
static FIXED_HOOK: fn() -> usize = quiet;

/// What the program runs before the roots.
pub fn install() {
    unsafe {
        HOOK = loud;
        GREETER = &Loud;
        TABLE[1] = loud;
    }
    *LOCKED_HOOK.lock().unwrap() = loud;
}

// noalloc:root
pub fn call_static_mut_pointer() -> usize {
    unsafe { HOOK() }
}

// noalloc:root
pub fn call_locked_pointer() -> usize {
    let hook = *LOCKED_HOOK.lock().unwrap();
    hook()
}

// noalloc:root
#[allow(static_mut_refs)]
pub fn call_static_mut_dyn() -> usize {
    unsafe { GREETER.name() }
}

// noalloc:root
pub fn call_static_mut_table(i: usize) -> usize {
    unsafe { TABLE[i % 2]() }
}

// noalloc:root
pub fn call_immutable_static_pointer() -> usize {
    FIXED_HOOK()
}

const fn pick() -> &'static dyn Greeter {
    &Loud
}

const PICKED: &dyn Greeter = pick();
static PICKED_STATIC: &dyn Greeter = pick();

// noalloc:root
pub fn call_const_from_const_fn() -> usize {
    PICKED.name()
}

// noalloc:root
pub fn call_static_from_const_fn() -> usize {
    PICKED_STATIC.name()
}

/// A `dyn` nested six types deep in a static: its initialiser is read however
/// deep the type holds it.
pub struct Outer(pub Option<Middle>);
pub struct Middle(pub Option<Inner>);
pub struct Inner(pub Option<Core>);
pub struct Core(pub &'static dyn Greeter);

static DEEP: Outer = Outer(Some(Middle(Some(Inner(Some(Core(&Loud)))))));

// noalloc:root
pub fn call_deep_in_a_static() -> usize {
    let quiet: &dyn Greeter = &Quiet;
    let deep = match &DEEP.0 {
        Some(Middle(Some(Inner(Some(Core(greeter)))))) => greeter.name(),
        _ => 0,
    };
    quiet.name() + deep
}
