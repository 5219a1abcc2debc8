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
