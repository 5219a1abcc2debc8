//! Not declared with `mod`: not part of the crate. A root here checks nothing, so
//! it is an error.

// noalloc:root
pub fn never_compiled() -> Vec<u8> {
    vec![1, 2, 3]
}
