//! Proofs that count (issue 47): thread-locals reached through `LocalKey`'s
//! methods past `with`, inline assembly that stays inside its template, and room
//! that one comparison proves for several growths. Each clean root has a twin
//! that allocates (`_allocates`), run by the oracle with inputs that make it.

use std::cell::{Cell, RefCell};

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = RefCell::new(vec![1, 2, 3]);
    static COUNTER: Cell<u32> = const { Cell::new(0) };
    static LABEL: RefCell<String> = RefCell::new(String::new());
}

/// `try_with` initialises the thread-local on first use, as `with` does.
// noalloc:root
pub fn thread_local_try_with(x: u8) -> usize {
    SCRATCH.try_with(|s| s.borrow().len() + x as usize).unwrap_or(0)
}

/// Its closure runs on every call.
// noalloc:root
pub fn thread_local_try_with_allocates(x: u8) -> usize {
    SCRATCH
        .try_with(|s| {
            let copy = s.borrow().clone();
            copy.len() + x as usize
        })
        .unwrap_or(0)
}

/// `set`, `replace` and `get` of a `Cell` key move plain values.
// noalloc:root
pub fn thread_local_set_and_replace(x: u32) -> u32 {
    COUNTER.set(x);
    COUNTER.replace(x + 1) + COUNTER.get()
}

/// What is handed to `set` is made on every call.
// noalloc:root
pub fn thread_local_set_allocates(x: u32) -> usize {
    LABEL.set(x.to_string());
    LABEL.with_borrow(|label| label.len())
}

/// An instruction that falls through cannot reach the allocator.
#[cfg(target_arch = "x86_64")]
// noalloc:root
pub fn asm_add_one(x: u64) -> u64 {
    let y: u64;
    // SAFETY: `lea` reads two registers and writes one.
    unsafe { std::arch::asm!("lea {y}, [{x} + 1]", x = in(reg) x, y = out(reg) y, options(pure, nomem, nostack)) };
    y
}

#[cfg(target_arch = "aarch64")]
// noalloc:root
pub fn asm_add_one(x: u64) -> u64 {
    let y: u64;
    // SAFETY: `add` reads a register and writes one.
    unsafe { std::arch::asm!("add {y}, {x}, #1", x = in(reg) x, y = out(reg) y, options(pure, nomem, nostack)) };
    y
}

/// Allocates, called from assembly by symbol.
extern "C" fn grow_a_buffer() {
    std::hint::black_box(Vec::<u8>::with_capacity(16));
}

/// A `call` of a symbol goes where the walk cannot follow: reported.
#[cfg(target_arch = "x86_64")]
// noalloc:root
pub fn asm_call_allocates() {
    // SAFETY: calls an `extern "C"` function with no arguments; the stack is
    // aligned for a call on entry to an `asm!` block without `nostack`.
    unsafe { std::arch::asm!("call {f}", f = sym grow_a_buffer, clobber_abi("C")) };
}

#[cfg(target_arch = "aarch64")]
// noalloc:root
pub fn asm_call_allocates() {
    // SAFETY: as above.
    unsafe { std::arch::asm!("bl {f}", f = sym grow_a_buffer, clobber_abi("C")) };
}

/// One comparison proves room for a length-prefixed frame: the 4 bytes of the
/// prefix and the payload, appended by two growths that use it up together.
// noalloc:root
pub fn frame_with_room(out: &mut Vec<u8>, payload: &[u8]) -> bool {
    if out.capacity() - out.len() >= payload.len() + 4 {
        out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        out.extend_from_slice(payload);
        return true;
    }
    false
}

/// Room for the payload, not for its prefix too.
// noalloc:root
pub fn frame_room_for_payload_allocates(out: &mut Vec<u8>, payload: &[u8]) -> bool {
    if out.capacity() - out.len() >= payload.len() {
        out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        out.extend_from_slice(payload);
        return true;
    }
    false
}

/// `len() + 2 <= capacity()` is room for two pushes.
// noalloc:root
pub fn two_pushes_with_room_for_two(v: &mut Vec<u32>, x: u32) -> bool {
    if v.len() + 2 <= v.capacity() {
        v.push(x);
        v.push(x + 1);
        return true;
    }
    false
}

/// Three pushes on room for two: the third may grow.
// noalloc:root
pub fn three_pushes_with_room_for_two_allocates(v: &mut Vec<u32>, x: u32) -> bool {
    if v.len() + 2 <= v.capacity() {
        v.push(x);
        v.push(x + 1);
        v.push(x + 2);
        return true;
    }
    false
}

/// An assertion is a proof after it.
// noalloc:root
pub fn pushes_after_assert(v: &mut Vec<u32>, x: u32) {
    assert!(v.capacity() - v.len() >= 2, "room for two");
    v.push(x);
    v.push(x + 1);
}

/// It proves what it says: room for one, not two.
// noalloc:root
pub fn pushes_after_assert_for_one_allocates(v: &mut Vec<u32>, x: u32) {
    assert!(v.len() < v.capacity());
    v.push(x);
    v.push(x + 1);
}

/// `debug_assert!` is a proof under the dev profile's cfgs (`--release` turns
/// it off, and the pushes may grow).
// noalloc:root
pub fn pushes_after_debug_assert(v: &mut Vec<u32>, x: u32) {
    debug_assert!(v.capacity() - v.len() >= 2, "room for two");
    v.push(x);
    v.push(x + 1);
}

// noalloc:root
pub fn pushes_after_debug_assert_for_one_allocates(v: &mut Vec<u32>, x: u32) {
    debug_assert!(v.len() < v.capacity());
    v.push(x);
    v.push(x + 1);
}

/// `clone_from` copies into the buffer it has when it has the room.
// noalloc:root
pub fn clone_name_with_room(name: &mut String, from: &String) -> bool {
    if name.capacity() - name.len() >= from.len() {
        name.clone_from(from);
        return true;
    }
    false
}

/// Without the room it grows the buffer.
// noalloc:root
pub fn clone_name_allocates(name: &mut String, from: &String) {
    name.clone_from(from);
}

/// A loop of at most 16 passes, each pushing one, on room for 16.
// noalloc:root
pub fn push_first_sixteen(v: &mut Vec<u32>, xs: &[u32]) -> bool {
    if v.capacity() - v.len() >= 16 {
        for &x in xs.iter().take(16) {
            v.push(x);
        }
        return true;
    }
    false
}

/// At most 17 passes on room for 16.
// noalloc:root
pub fn push_first_seventeen_allocates(v: &mut Vec<u32>, xs: &[u32]) -> bool {
    if v.capacity() - v.len() >= 16 {
        for &x in xs.iter().take(17) {
            v.push(x);
        }
        return true;
    }
    false
}

/// A pass for each element of `xs`, on room for `xs.len()`; into a `SmallVec` too.
// noalloc:root
pub fn push_each_with_room(v: &mut Vec<u32>, small: &mut smallvec::SmallVec<[u32; 16]>, xs: &[u32]) -> bool {
    if v.capacity() - v.len() < xs.len() || small.capacity() - small.len() < 16 {
        return false;
    }
    for &x in xs {
        v.push(x);
    }
    for &x in xs.iter().take(16) {
        small.push(x);
    }
    true
}

/// Two pushes a pass on room for one a pass.
// noalloc:root
pub fn push_each_twice_allocates(v: &mut Vec<u32>, xs: &[u32]) -> bool {
    if v.capacity() - v.len() < xs.len() {
        return false;
    }
    for &x in xs {
        v.push(x);
        v.push(x);
    }
    true
}

/// Room for a `const` amount.
pub const FRAME: usize = 3;

/// A `const` amount is evaluated: room for three, three appended.
// noalloc:root
pub fn const_room_with_room(v: &mut Vec<u8>) -> bool {
    if v.capacity() - v.len() >= FRAME {
        v.extend_from_slice(&[1, 2, 3]);
        return true;
    }
    false
}

/// A pass for each index below `xs.len()`, on room for `xs.len()`.
// noalloc:root
pub fn push_by_index_with_room(v: &mut Vec<u32>, xs: &[u32]) -> bool {
    if v.len() + xs.len() > v.capacity() {
        return false;
    }
    for i in 0..xs.len() {
        v.push(xs[i] * 2);
    }
    true
}

/// `slab::Slab::insert` fills a vacant slot or pushes on its entries: with
/// `len() < capacity()` there is a vacant slot or room for the push (a built-in
/// `growth:` entry says so).
// noalloc:root
pub fn slab_insert_with_room(slab: &mut slab::Slab<u32>, x: u32) -> Option<usize> {
    if slab.len() < slab.capacity() {
        return Some(slab.insert(x));
    }
    None
}

/// Without the check it may grow.
// noalloc:root
pub fn slab_insert_allocates(slab: &mut slab::Slab<u32>, x: u32) -> usize {
    slab.insert(x)
}
