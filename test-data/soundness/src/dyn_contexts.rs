//! `dyn` contexts: `write!` into a fixed buffer is judged for the buffer alone,
//! but a `dyn Write` the sub-reach gets another way is judged against what stands
//! behind it: one held inside a formatted value (read through the erased pointer
//! `fmt::Arguments` keeps), one a writer wraps, one made below and used there.

use core::cell::RefCell;
use core::fmt::{self, Display, Write};

/// A fixed buffer `fmt::Write` fills until it is full.
pub struct Fixed {
    buf: [u8; 32],
    pub len: usize,
}

impl Fixed {
    pub fn new() -> Fixed {
        Fixed { buf: [0; 32], len: 0 }
    }
}

impl Default for Fixed {
    fn default() -> Fixed {
        Fixed::new()
    }
}

impl Write for Fixed {
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

/// Formats by writing to a `dyn Write` it holds, too.
pub struct Tee<'a>(pub RefCell<&'a mut dyn Write>);

impl Display for Tee<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.borrow_mut().write_str("tee")?;
        f.write_str("t")
    }
}

/// The formatted value holds a `String` as `dyn Write`: its `Display` grows it.
// noalloc:root
pub fn tee_into_fixed_allocates(out: &mut Fixed) -> usize {
    out.len = 0;
    let mut log = String::new();
    {
        let tee = Tee(RefCell::new(&mut log));
        let _ = write!(out, "{tee}");
    }
    log.len()
}

/// A writer that indents what it forwards to the `dyn Write` it wraps.
pub struct Indent<'a>(pub &'a mut dyn Write);

impl Write for Indent<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_str("  ")?;
        self.0.write_str(s)
    }
}

/// `write!` into the wrapper: behind it, a `String`.
// noalloc:root
pub fn indent_into_string_allocates(n: u32) -> usize {
    let mut s = String::new();
    let mut w = Indent(&mut s);
    let _ = write!(w, "{n}");
    s.len()
}

/// The wrapper around a fixed buffer: clean.
// noalloc:root
pub fn indent_into_fixed(out: &mut Fixed, n: u32) -> usize {
    out.len = 0;
    let mut w = Indent(out);
    let _ = write!(w, "{n}");
    out.len
}

/// Formats through a `String` it coerces to `dyn Write` itself.
pub struct Scratch;

impl Display for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let w: &mut dyn Write = &mut s;
        w.write_str("scratch")?;
        f.write_str(&s)
    }
}

/// The `Display` below the buffer's `write!` makes a `String` and writes to it.
// noalloc:root
pub fn scratch_into_fixed_allocates(out: &mut Fixed) -> usize {
    out.len = 0;
    let _ = write!(out, "{Scratch}");
    out.len
}
