//! `format_args!`: each argument's `Display`/`Debug` impl is called through a
//! function pointer; the engine treats it as a call to that impl.
use std::fmt::{self, Write};

pub struct Fixed<'a> {
    pub buf: &'a mut [u8],
    pub len: usize,
}

impl Write for Fixed<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

pub struct Allocy;

impl fmt::Display for Allocy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = String::from("allocy");
        f.write_str(&s)
    }
}

// noalloc:root
pub fn write_int_into_fixed(buf: &mut [u8]) -> usize {
    let mut w = Fixed { buf, len: 0 };
    let _ = write!(w, "{} and {:x}", 42u32, 255u8);
    w.len
}

// noalloc:root
pub fn write_allocating_display(buf: &mut [u8]) -> usize {
    let mut w = Fixed { buf, len: 0 };
    let _ = write!(w, "{}", Allocy);
    w.len
}

// noalloc:root
pub fn format_macro() -> usize {
    format!("{}", 1).len()
}

// noalloc:root
pub fn panic_with_formatted_message(x: u32) -> u32 {
    if x > 3 {
        panic!("x was {}, expected at most 3: {}", x, String::from("details"));
    }
    x
}

// noalloc:root
pub fn unwrap_and_expect(a: Option<u32>, b: Result<u32, ()>) -> u32 {
    a.unwrap() + b.expect("b must be set")
}

// noalloc:root
pub fn assert_with_message(x: u32) -> u32 {
    assert!(x < 10, "x was {}", x);
    x * 2
}

// noalloc:root
pub fn index_out_of_bounds_is_a_panic(xs: &[u32], i: usize) -> u32 {
    xs[i]
}
