//! Room proofs hold only for what they measured: not for a new binding that
//! shadows the buffer, not for a length binding rebound or measured of a shadowed
//! name, not after `set_len`, and a `String`'s room counts bytes, not `char`s or
//! `String`s. A labelled block's own `break` does not leave the code around it.

/// Buffers nearly full: `v` has room for one byte, `w` for none, `s` for one.
pub struct Buffers {
    pub v: Vec<u8>,
    pub w: Vec<u8>,
    pub s: String,
}

impl Buffers {
    pub fn nearly_full() -> Buffers {
        let mut v = Vec::with_capacity(4);
        v.extend_from_slice(&[1, 2, 3]);
        let mut w = Vec::with_capacity(3);
        w.extend_from_slice(&[1, 2, 3]);
        let mut s = String::with_capacity(4);
        s.push_str("abc");
        Buffers { v, w, s }
    }
}

// noalloc:root
pub fn proof_then_set_len(v: &mut Vec<u8>) -> usize {
    if v.len() < v.capacity() {
        for x in v.spare_capacity_mut() {
            x.write(0);
        }
        let n = v.capacity();
        unsafe { v.set_len(n) };
        v.push(1);
    }
    v.len()
}

// noalloc:root
pub fn proof_then_shadowed(v: &mut Vec<u8>, w: &mut Vec<u8>) -> usize {
    if v.len() < v.capacity() {
        let v = w;
        v.push(1);
    }
    v.len()
}

// noalloc:root
pub fn proof_then_shadowed_by_if_let(v: &mut Vec<u8>, o: Option<&mut Vec<u8>>) -> usize {
    if v.len() < v.capacity() {
        if let Some(v) = o {
            v.push(1);
        }
    }
    v.len()
}

// noalloc:root
pub fn length_binding_rebound(v: &mut Vec<u8>, w: &[u8]) -> usize {
    let n = w.len();
    let n = n * 0;
    if n <= v.capacity() - v.len() {
        v.extend_from_slice(w);
    }
    v.len()
}

// noalloc:root
pub fn length_of_a_shadowed_name(v: &mut Vec<u8>, w: &[u8], other: &[u8]) -> usize {
    let n = w.len();
    let w = other;
    if n <= v.capacity() - v.len() {
        v.extend_from_slice(w);
    }
    v.len()
}

// noalloc:root
pub fn chars_counted_as_bytes(s: &mut String, xs: &[char]) -> usize {
    if xs.len() <= s.capacity() - s.len() {
        s.extend(xs);
    }
    s.len()
}

// noalloc:root
pub fn strs_counted_as_bytes(s: &mut String, xs: [&str; 1]) -> usize {
    if xs.len() <= s.capacity() - s.len() {
        s.extend(xs);
    }
    s.len()
}

// noalloc:root
pub fn labelled_break_taken_as_leaving(v: &mut Vec<u8>) -> usize {
    if v.len() == v.capacity() {
        'check: {
            break 'check;
        }
    }
    v.push(1);
    v.len()
}

// noalloc:root
pub fn bytes_counted_for_a_str(s: &mut String, t: &str) -> usize {
    if t.len() <= s.capacity() - s.len() {
        s.push_str(t);
    }
    s.len()
}

// noalloc:root
pub fn length_binding_kept(v: &mut Vec<u8>, w: &[u8]) -> usize {
    let n = w.len();
    if n <= v.capacity() - v.len() {
        v.extend_from_slice(w);
    }
    v.len()
}

// noalloc:root
pub fn full_then_return(v: &mut Vec<u8>) -> usize {
    if v.len() == v.capacity() {
        return 0;
    }
    v.push(1);
    v.len()
}

/// Replaces the buffer: what a room proof measured is gone.
pub trait Reset {
    fn reset(&mut self);
}

impl Reset for Vec<u8> {
    fn reset(&mut self) {
        *self = Vec::new();
    }
}

// noalloc:root
pub fn proof_then_own_method_of_the_buffer(v: &mut Vec<u8>) -> usize {
    if v.len() < v.capacity() {
        v.reset();
        v.push(1);
    }
    v.len()
}

/// Takes no memory.
pub struct Marker;

// A sequence of zero-sized elements never allocates, full or not.

// noalloc:root
pub fn push_zero_sized(v: &mut Vec<()>, markers: &mut Vec<Marker>) -> usize {
    for _ in 0..100 {
        v.push(());
        markers.push(Marker);
    }
    v.len() + markers.len()
}
