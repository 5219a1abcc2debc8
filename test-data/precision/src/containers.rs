//! Third-party containers: `smallvec`, `bytes` and `indexmap` grow their receiver
//! like `Vec::push` (built-in `growth:` allowlist entries), so growth where a
//! comparison proves room is clean and growth without one is flagged; `heapless`
//! has a fixed capacity and never allocates.

use bytes::{BufMut, BytesMut};
use indexmap::IndexMap;
use smallvec::SmallVec;

// noalloc:root
pub fn smallvec_push_with_room(v: &mut SmallVec<[u32; 8]>, x: u32) -> bool {
    if v.len() < v.capacity() {
        v.push(x);
        return true;
    }
    false
}

// noalloc:root
pub fn bytes_extend_with_room(buf: &mut BytesMut, xs: &[u8]) -> bool {
    if buf.capacity() - buf.len() < xs.len() {
        return false;
    }
    buf.extend_from_slice(xs);
    true
}

// noalloc:root
pub fn bytes_put_with_room(buf: &mut BytesMut, xs: &[u8]) -> bool {
    if buf.capacity() - buf.len() >= xs.len() {
        buf.put_slice(xs);
        return true;
    }
    false
}

// noalloc:root
pub fn bytes_put_u8_with_room(buf: &mut BytesMut, b: u8) -> bool {
    if buf.len() == buf.capacity() {
        return false;
    }
    buf.put_u8(b);
    true
}

// noalloc:root
pub fn bytes_reserve_with_room(buf: &mut BytesMut, xs: &[u8]) -> usize {
    if buf.capacity() - buf.len() >= xs.len() {
        buf.reserve(xs.len());
    }
    buf.capacity()
}

// noalloc:root
pub fn smallvec_insert_with_room(v: &mut SmallVec<[u32; 8]>, x: u32) -> bool {
    if v.len() < v.capacity() {
        v.insert(0, x);
        return true;
    }
    false
}

// noalloc:root
pub fn indexmap_insert_with_room(m: &mut IndexMap<u32, u32>, k: u32, v: u32) -> bool {
    if m.len() < m.capacity() {
        m.insert(k, v);
        return true;
    }
    false
}

// noalloc:root
pub fn heapless_push(v: &mut heapless::Vec<u32, 8>, x: u32) -> Result<(), u32> {
    v.push(x)
}

// noalloc:root
pub fn smallvec_push_allocates(v: &mut SmallVec<[u32; 2]>, x: u32) {
    v.push(x);
}

// noalloc:root
pub fn smallvec_local_allocates(xs: &[u32]) -> u32 {
    let mut v: SmallVec<[u32; 4]> = SmallVec::new();
    for &x in xs {
        v.push(x);
    }
    v.iter().sum()
}

// noalloc:root
pub fn smallvec_extend_room_for_one_allocates(v: &mut SmallVec<[u32; 4]>, xs: &[u32]) {
    // `len() < capacity()` proves room for one element, not for a slice.
    if v.len() < v.capacity() {
        v.extend_from_slice(xs);
    }
}

/// A length-prefixed frame into a `BytesMut`: one comparison proves room for the
/// prefix and the payload, and each put uses up its part of it.
// noalloc:root
pub fn bytes_frame_with_room(out: &mut BytesMut, payload: &[u8]) -> bool {
    if out.capacity() - out.len() >= payload.len() + 4 {
        out.put_u32(payload.len() as u32);
        out.put_slice(payload);
        return true;
    }
    false
}

/// Room for the payload only: the prefix's 4 bytes may not fit.
// noalloc:root
pub fn bytes_frame_room_for_payload_allocates(out: &mut BytesMut, payload: &[u8]) -> bool {
    if out.capacity() - out.len() >= payload.len() {
        out.put_u32(payload.len() as u32);
        out.put_slice(payload);
        return true;
    }
    false
}

// noalloc:root
pub fn bytes_put_allocates(buf: &mut BytesMut, xs: &[u8]) {
    buf.put_slice(xs);
}

// noalloc:root
pub fn indexmap_insert_allocates(m: &mut IndexMap<u32, u32>, k: u32, v: u32) -> Option<u32> {
    m.insert(k, v)
}

/// A key whose `Hash` allocates: growth with room still runs it.
#[derive(PartialEq, Eq)]
pub struct Name(pub u32);

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(self.0.to_string().as_bytes());
    }
}

// noalloc:root
pub fn indexmap_insert_hash_allocates(m: &mut IndexMap<Name, u32>, k: u32) -> bool {
    if m.len() < m.capacity() {
        m.insert(Name(k), k);
        return true;
    }
    false
}
