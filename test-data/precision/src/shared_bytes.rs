//! `bytes::Bytes`: reading through `Buf` moves a cursor and allocates nothing;
//! splitting or cloning a `Bytes` made from a `Vec` promotes it to a shared buffer
//! (a heap block) first.
use bytes::{Buf, Bytes};

/// A frame header read from the front.
// noalloc:root
pub fn read_header(buf: &mut Bytes) -> Option<(u32, u16)> {
    if buf.remaining() < 6 {
        return None;
    }
    Some((buf.get_u32(), buf.get_u16()))
}

// noalloc:root
pub fn peek_tag(buf: &Bytes) -> Option<u8> {
    buf.first().copied()
}

/// Taking a `Bytes` and letting it go: its drop releases what it holds.
// noalloc:root
pub fn consume(buf: Bytes) -> usize {
    buf.len()
}

// noalloc:root
pub fn split_header_allocates(buf: &mut Bytes) -> usize {
    buf.split_to(4).len()
}

// noalloc:root
pub fn clone_shared_allocates(buf: &Bytes) -> usize {
    buf.clone().len()
}
