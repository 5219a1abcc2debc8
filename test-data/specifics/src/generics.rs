//! Generics are judged per instantiation; default trait methods resolve per impl.
use std::io::Write;

pub fn emit<W: Write>(w: &mut W, bytes: &[u8]) {
    let _ = w.write_all(bytes);
}

// noalloc:root
pub fn emit_into_vec(out: &mut Vec<u8>) {
    emit(out, b"hello");
}

// noalloc:root
pub fn emit_into_slice(buf: &mut [u8]) {
    let mut cursor: &mut [u8] = buf;
    emit(&mut cursor, b"hello");
}

pub trait Greeter {
    fn name(&self) -> &str;
    fn greet_len(&self) -> usize {
        self.name().len()
    }
    fn shout(&self) -> usize {
        self.name().to_uppercase().len()
    }
}

pub struct Plain;

impl Greeter for Plain {
    fn name(&self) -> &str {
        "plain"
    }
}

// noalloc:root
pub fn default_method_clean(g: &Plain) -> usize {
    g.greet_len()
}

// noalloc:root
pub fn default_method_allocates(g: &Plain) -> usize {
    g.shout()
}

pub fn largest<T: PartialOrd + Copy>(xs: &[T]) -> Option<T> {
    let mut best = *xs.first()?;
    for &x in xs {
        if x > best {
            best = x;
        }
    }
    Some(best)
}

// noalloc:root
pub fn generic_clean(xs: &[u64]) -> Option<u64> {
    largest(xs)
}

// noalloc:root
/// Generic, and nothing in the workspace instantiates it: one finding says so
/// instead of a "no known callee" per call on `T`.
pub fn never_instantiated<T: Greeter>(g: &T) -> usize {
    g.greet_len() + g.name().len()
}

/// Instantiates `never_instantiated` only through `--root
/// 'specifics::generics::never_instantiated::<specifics::generics::Loud>'`.
pub struct Loud;

impl Greeter for Loud {
    fn name(&self) -> &str {
        Box::leak(String::from("LOUD").into_boxed_str())
    }
}
