//! A `dyn` or fn pointer the user's code makes out of memory the type system
//! does not track (a pointer cast from `*mut c_void` or an integer, a
//! `transmute`, a `downcast_ref` of a `dyn Any`) may be anything: every impl, or
//! "no known callee", even when the root itself makes a quiet candidate.
use std::any::Any;
use std::ffi::c_void;

use crate::settable::{Greeter, Quiet};

fn quiet() -> usize {
    1
}

/// An FFI trampoline: the caller's closure comes back as `user_data`.
// noalloc:root
pub fn trampoline(user_data: *mut c_void) {
    let mut count = 0;
    let mut local = || count += 1;
    let local: &mut dyn FnMut() = &mut local;
    local();
    let callback = unsafe { &mut *(user_data as *mut &mut dyn FnMut()) };
    callback()
}

// noalloc:root
pub fn greeter_from_user_data(user_data: *const c_void) -> usize {
    let quiet: &dyn Greeter = &Quiet;
    let greeter = unsafe { &*(user_data as *const Box<dyn Greeter>) };
    quiet.name() + greeter.name()
}

// noalloc:root
pub fn pointer_from_a_word(word: usize) -> usize {
    let fallback: fn() -> usize = quiet;
    let f: fn() -> usize = if word == 0 { fallback } else { unsafe { std::mem::transmute(word) } };
    f()
}

// noalloc:root
pub fn pointer_from_any(any: &dyn Any) -> usize {
    let fallback: fn() -> usize = quiet;
    any.downcast_ref::<fn() -> usize>().copied().unwrap_or(fallback)()
}

/// A cast that keeps the pointee's type: only what the program made.
// noalloc:root
pub fn cast_keeps_the_type() -> usize {
    let quiet: &dyn Greeter = &Quiet;
    let pointer = quiet as *const dyn Greeter;
    unsafe { (*pointer).name() }
}
