//! Reused memory: growth of a buffer kept in a long-lived value is allowed only
//! where a comparison proves room; otherwise it "may grow". `noalloc:fixed` types
//! and `noalloc:append` functions; `--scratch` types.
use std::fmt::Write as _;

pub struct Log {
    lines: Vec<u32>,
    text: String,
}

impl Log {
    // Allowed: `len() < capacity()` proves room for one push.
    // noalloc:root
    pub fn push_with_room(&mut self, x: u32) -> bool {
        if self.lines.len() < self.lines.capacity() {
            self.lines.push(x);
            true
        } else {
            false
        }
    }

    // Allowed: `capacity() - len() >= n` proves room for `n`.
    // noalloc:root
    pub fn extend_with_room(&mut self, xs: &[u32]) {
        if self.lines.capacity() - self.lines.len() >= xs.len() {
            self.lines.extend_from_slice(xs);
        }
    }

    // Allowed: the loop breaks when the buffer is full.
    // noalloc:root
    pub fn fill_until_full(&mut self, xs: &[u32]) {
        for &x in xs {
            if self.lines.len() == self.lines.capacity() {
                break;
            }
            self.lines.push(x);
        }
    }

    // Flagged: may grow `self.lines`.
    // noalloc:root
    pub fn push_unchecked(&mut self, x: u32) {
        self.lines.push(x);
    }

    // Flagged: `len() < capacity()` proves room for one element, not for a slice.
    // noalloc:root
    pub fn extend_after_one_check(&mut self, xs: &[u32]) {
        if self.lines.len() < self.lines.capacity() {
            self.lines.extend_from_slice(xs);
        }
    }

    // Flagged: the check is on another buffer.
    // noalloc:root
    pub fn check_on_other_buffer(&mut self, other: &Vec<u32>, x: u32) {
        if other.len() < other.capacity() {
            self.lines.push(x);
        }
    }

    // Flagged: may grow `self.text` (`write!` into a `String`).
    // noalloc:root
    pub fn write_into_text(&mut self, x: u32) {
        let _ = write!(self.text, "{x}");
    }

    // Allowed: `write!` where a comparison proves room for 16 bytes.
    // noalloc:root
    pub fn write_with_room(&mut self, x: u8) {
        if self.text.capacity() - self.text.len() >= 16 {
            let _ = write!(self.text, "{x}");
        }
    }
}

// Flagged: may grow `out`, a `&mut` parameter.
// noalloc:root
pub fn push_str_to_param(out: &mut String) {
    out.push_str("done");
}

// Flagged: a local buffer is an allocation, not reused memory.
// noalloc:root
pub fn local_with_capacity(x: u32) -> usize {
    let mut v = Vec::with_capacity(4);
    if v.len() < v.capacity() {
        v.push(x);
    }
    v.len()
}

// noalloc:fixed
pub struct Ring {
    slots: Vec<u32>,
}

impl Ring {
    /// Trusted: the methods of a `noalloc:fixed` type never grow its buffers.
    fn put(&mut self, x: u32) {
        self.slots.push(x);
    }
}

// Allowed: `Ring` is `noalloc:fixed`.
// noalloc:root
pub fn fixed_type_push(ring: &mut Ring, x: u32) {
    ring.put(x);
}

// noalloc:append
fn append_record(buf: &mut Vec<u8>, record: &[u8]) {
    buf.extend_from_slice(record);
    buf.push(b'\n');
}

// Flagged: a call to a `noalloc:append` fn is judged as a push: may grow `out`.
// noalloc:root
pub fn append_fn_unchecked(out: &mut Vec<u8>) {
    append_record(out, b"x");
}

// Allowed: ... and with room proven, it is allowed.
// noalloc:root
pub fn append_fn_with_room(out: &mut Vec<u8>) {
    if out.len() < out.capacity() {
        append_record(out, b"x");
    }
}

pub struct Scratch {
    pub ids: Vec<u32>,
}

// Flagged: `Scratch` is named with `--scratch` (in Cargo.toml), so its fields are
// long-lived: may grow `scratch.ids`.
// noalloc:root
pub fn scratch_field_unchecked(mut scratch: Scratch) -> Scratch {
    scratch.ids.push(1);
    scratch
}
