//! Trait method calls whose impl the root cannot see: calls on a type parameter
//! (in a blanket or generic impl reached through a `dyn` from the caller, in a
//! generic root checked at its own parameters), impls that inherit the called
//! default body, and `dyn`s and fn pointers from the caller nested deep in a
//! parameter's type or behind an associated type.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[inline(never)]
pub fn loud_len() -> usize {
    std::hint::black_box(vec![1u8; 3]).len()
}

pub struct Loud;
pub struct Calm;

// A provided method overridden by an impl that allocates.
pub trait Marker {
    fn mark(&self) -> usize {
        0
    }
}
impl Marker for Loud {
    fn mark(&self) -> usize {
        loud_len()
    }
}
impl Marker for Calm {}

// The same, every impl quiet.
pub trait Hush {
    fn hush(&self) -> usize {
        0
    }
}
impl Hush for Calm {}
impl Hush for u8 {
    fn hush(&self) -> usize {
        *self as usize
    }
}

pub trait Speak {
    fn speak(&self) -> usize;
}
impl<T: Marker> Speak for T {
    fn speak(&self) -> usize {
        self.mark()
    }
}

// noalloc:root
pub fn blanket_from_caller(s: &dyn Speak) -> usize {
    s.speak()
}

pub trait Whisper {
    fn whisper(&self) -> usize;
}
impl<T: Hush> Whisper for T {
    fn whisper(&self) -> usize {
        self.hush()
    }
}

// noalloc:root
pub fn blanket_quiet_from_caller(s: &dyn Whisper) -> usize {
    s.whisper()
}

pub struct Wrap<T>(pub T);
pub trait Size {
    fn size(&self) -> usize;
}
impl<T: Marker> Size for Wrap<T> {
    fn size(&self) -> usize {
        self.0.mark()
    }
}

// noalloc:root
pub fn generic_impl_from_caller(s: &dyn Size) -> usize {
    s.size()
}

// A generic root whose instantiations lie deeper than the search for them goes:
// checked at its own parameters.
// noalloc:root
pub fn generic_root_deep<T: Marker>(t: &T) -> usize {
    t.mark()
}
pub fn deep1<T: Marker>(t: &T) -> usize {
    generic_root_deep(t)
}
pub fn deep2<T: Marker>(t: &T) -> usize {
    deep1(t)
}
pub fn deep3<T: Marker>(t: &T) -> usize {
    deep2(t)
}
pub fn deep4<T: Marker>(t: &T) -> usize {
    deep3(t)
}
pub fn deep5<T: Marker>(t: &T) -> usize {
    deep4(t)
}
pub fn deep6<T: Marker>(t: &T) -> usize {
    deep5(t)
}
pub fn deep7<T: Marker>(t: &T) -> usize {
    deep6(t)
}
pub fn deep8<T: Marker>(t: &T) -> usize {
    deep7(t)
}
pub fn deep9<T: Marker>(t: &T) -> usize {
    deep8(t)
}
pub fn deep10<T: Marker>(t: &T) -> usize {
    deep9(t)
}

// noalloc:root
pub fn generic_root_quiet<T: Hush>(t: &T) -> usize {
    t.hush()
}

// A default body that calls another method, which one impl overrides.
pub trait Chain {
    fn first(&self) -> usize {
        self.second()
    }
    fn second(&self) -> usize {
        0
    }
}
impl Chain for Loud {
    fn second(&self) -> usize {
        loud_len()
    }
}
impl Chain for Calm {}

#[inline(never)]
pub fn calm_chain() -> &'static dyn Chain {
    &Calm
}

// noalloc:root
pub fn inherited_default_from_caller(x: &dyn Chain) -> usize {
    std::hint::black_box(calm_chain());
    x.first()
}

pub trait QuietChain {
    fn first(&self) -> usize {
        self.second()
    }
    fn second(&self) -> usize {
        0
    }
}
impl QuietChain for Loud {}
impl QuietChain for Calm {
    fn second(&self) -> usize {
        1
    }
}

// noalloc:root
pub fn inherited_default_quiet_from_caller(x: &dyn QuietChain) -> usize {
    x.first()
}

pub trait Handler {
    fn handle(&self) -> usize;
}
impl Handler for Loud {
    fn handle(&self) -> usize {
        loud_len()
    }
}
impl Handler for Calm {
    fn handle(&self) -> usize {
        7
    }
}

#[inline(never)]
pub fn calm_handler() -> &'static dyn Handler {
    &Calm
}

/// A `dyn` seven types deep.
pub type Registry = Arc<Mutex<HashMap<u32, Vec<Option<Box<dyn Handler>>>>>>;

// noalloc:root
pub fn nested_seven_deep(reg: &Registry) -> usize {
    let calm = calm_handler().handle();
    let guard = reg.lock().unwrap();
    calm + guard.get(&1).and_then(|v| v.first()).and_then(|h| h.as_ref()).map(|h| h.handle()).unwrap_or(0)
}

pub trait Still {
    fn still(&self) -> usize;
}
impl Still for Calm {
    fn still(&self) -> usize {
        3
    }
}

pub type StillRegistry = Arc<Mutex<HashMap<u32, Vec<Option<Box<dyn Still>>>>>>;

// noalloc:root
pub fn nested_seven_deep_quiet(reg: &StillRegistry) -> usize {
    let guard = reg.lock().unwrap();
    guard.get(&1).and_then(|v| v.first()).and_then(|h| h.as_ref()).map(|h| h.still()).unwrap_or(0)
}

pub type Deep<T> = Option<Option<Option<Option<Option<Option<Option<Option<T>>>>>>>>;

// noalloc:root
pub fn fn_pointer_nested_deep(d: &Deep<fn() -> usize>) -> usize {
    match d {
        Some(Some(Some(Some(Some(Some(Some(Some(f)))))))) => f(),
        _ => 0,
    }
}

pub trait HasAssoc {
    type D: ?Sized;
    type F;
}
pub struct Sel;
impl HasAssoc for Sel {
    type D = dyn Handler;
    type F = fn() -> usize;
}

// noalloc:root
pub fn dyn_via_projection(h: &<Sel as HasAssoc>::D) -> usize {
    calm_handler().handle() + h.handle()
}

// noalloc:root
pub fn fn_pointer_via_projection(f: <Sel as HasAssoc>::F) -> usize {
    f()
}

pub fn loud_fn() -> usize {
    loud_len()
}
