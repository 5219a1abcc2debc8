//! A container's growth function named in the allowlist (`growth:` in allow.txt).

use smallvec::SmallVec;

// noalloc:root
pub fn append_with_room(v: &mut SmallVec<[u32; 8]>, more: &mut SmallVec<[u32; 8]>) {
    if v.capacity() - v.len() >= more.len() {
        v.append(more);
    }
}

// noalloc:root
pub fn append_anyway(v: &mut SmallVec<[u32; 8]>, more: &mut SmallVec<[u32; 8]>) {
    v.append(more);
}

/// `put_u32` appends 4 bytes (by its name): room for 4 covers it.
// noalloc:root
pub fn prefix_with_room(out: &mut bytes::BytesMut, n: u32) {
    use bytes::BufMut;
    if out.len() + 4 <= out.capacity() {
        out.put_u32(n);
    }
}

/// Room for 3 does not.
// noalloc:root
pub fn prefix_with_room_for_three(out: &mut bytes::BytesMut, n: u32) {
    use bytes::BufMut;
    if out.len() + 3 <= out.capacity() {
        out.put_u32(n);
    }
}
