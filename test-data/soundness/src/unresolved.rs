//! Roots the engine must map, or say it cannot: a root in a file outside the
//! module tree is an error (a cfg'd-out one is simply not part of this build); a
//! `--root` path through a re-export names the function.

pub mod private {
    pub struct Matcher(pub u8);
    impl Matcher {
        pub fn is_match(&self, b: u8) -> bool {
            self.0 == b
        }
    }
}

#[cfg(any())]
// noalloc:root
pub fn compiled_out() -> u32 {
    1
}

// noalloc:root
pub fn intrinsics_are_quiet(a: &mut [u8; 4], b: &[u8; 4]) -> usize {
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), a.as_mut_ptr(), 4) };
    std::mem::size_of::<u64>() + a.len()
}
