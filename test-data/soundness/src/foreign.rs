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
