//! What the room ledger, `assert!` proofs, bounded loops and `LocalKey`'s methods
//! must not let through. Each root allocates on the oracle's buffers (room for
//! exactly what a proof says, or less) and must be flagged.

use std::cell::Cell;

/// `v` has room for exactly 4 bytes, `xs` holds 4 and has room for more.
pub struct Buffers {
    pub v: Vec<u8>,
    pub xs: Vec<u8>,
}

impl Buffers {
    pub fn room_for_four() -> Buffers {
        let mut xs = Vec::with_capacity(8);
        xs.extend_from_slice(&[1, 2, 3, 4]);
        Buffers { v: Vec::with_capacity(4), xs }
    }
}

/// The proof measured `xs.len()`; `xs` grew since.
// noalloc:root
pub fn length_grown_after_proof(v: &mut Vec<u8>, xs: &mut Vec<u8>) -> bool {
    if xs.len() < xs.capacity() && v.capacity() - v.len() >= xs.len() {
        xs.push(7);
        v.extend_from_slice(xs);
        return true;
    }
    false
}

/// The loop's passes use the whole proof; the push after it has none left.
// noalloc:root
pub fn push_after_bounded_loop(v: &mut Vec<u8>, xs: &[u8]) -> bool {
    if v.capacity() - v.len() >= 4 {
        for &x in xs.iter().take(4) {
            v.push(x);
        }
        v.push(0);
        return true;
    }
    false
}

/// Two loops on one proof: the second finds it used.
// noalloc:root
pub fn two_loops_one_proof(v: &mut Vec<u8>, xs: &[u8]) -> bool {
    if v.capacity() - v.len() >= 4 {
        for &x in xs.iter().take(4) {
            v.push(x);
        }
        for &x in xs.iter().take(1) {
            v.push(x);
        }
        return true;
    }
    false
}

/// Room for `xs.len()`, a pass for each element of `ys`.
// noalloc:root
pub fn loop_over_another_length(v: &mut Vec<u8>, xs: &[u8], ys: &[u8]) -> bool {
    if v.capacity() - v.len() >= xs.len() {
        for &y in ys {
            v.push(y);
        }
        return true;
    }
    false
}

const ROOM: usize = 2;

/// A `const` amount: room for two, three bytes appended.
// noalloc:root
pub fn const_room_for_two(v: &mut Vec<u8>) -> bool {
    if v.capacity() - v.len() >= ROOM {
        v.extend_from_slice(&[1, 2, 3]);
        return true;
    }
    false
}

/// An assertion about another buffer proves nothing about this one.
// noalloc:root
pub fn assert_of_another_buffer(v: &mut Vec<u8>, xs: &Vec<u8>) {
    assert!(xs.len() < xs.capacity());
    v.extend_from_slice(xs);
}

/// `clone_from` needs room for what it copies, not for something else's length.
// noalloc:root
pub fn clone_from_with_room_for_another(v: &mut Vec<u8>, xs: &Vec<u8>, other: &[u8]) -> bool {
    if v.capacity() - v.len() >= other.len() {
        v.clone_from(xs);
        return true;
    }
    false
}

thread_local! {
    static BOXED: Cell<Box<u32>> = Cell::new(Box::new(7));
}

/// `take` runs the value's `Default`: `Box::default` allocates on every call.
// noalloc:root
pub fn thread_local_take_box() -> u32 {
    *BOXED.take()
}
