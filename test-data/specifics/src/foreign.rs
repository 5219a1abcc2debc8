//! Foreign functions: their bodies are not visible.
extern "C" {
    fn abs(x: i32) -> i32;
    fn malloc(size: usize) -> *mut u8;
}

// noalloc:root
pub fn call_foreign(x: i32) -> i32 {
    unsafe { abs(x) }
}

// noalloc:root
pub fn call_malloc() -> *mut u8 {
    unsafe { malloc(16) }
}
