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
