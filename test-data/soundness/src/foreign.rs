//! Foreign functions and inline assembly anywhere in the reach.
use std::arch::asm;

// noalloc:root
pub fn inline_assembly(x: u64) -> u64 {
    let y: u64;
    unsafe { asm!("mov {0}, {1}", out(reg) y, in(reg) x) };
    y
}

extern "C" {
    fn strlen(s: *const std::ffi::c_char) -> usize;
}

// noalloc:root
pub fn calls_c(s: &std::ffi::CStr) -> usize {
    unsafe { strlen(s.as_ptr()) }
}

// noalloc:root
pub fn process_id() -> u32 {
    std::process::id()
}

/// A jump inside the template: the reader does not follow it, so it is reported.
#[cfg(target_arch = "x86_64")]
// noalloc:root
pub fn inline_assembly_loop(n: u64) -> u64 {
    let mut left = n | 1;
    unsafe { asm!("2:", "dec {0}", "jnz 2b", inout(reg) left) };
    left
}
