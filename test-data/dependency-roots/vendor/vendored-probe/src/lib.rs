//! A registry dependency with noalloc directives of its own: its author's, which a
//! `--root` on it never reads (the malformed one below would be an error, the
//! root on `copy_of` a root, and the exemption would cover the allocation).

mod inner {
    /// Sums without allocating.
    pub fn total(xs: &[u32]) -> u32 {
        let mut sum = 0u32;
        for x in xs {
            sum = sum.wrapping_add(*x);
        }
        sum
    }

    // noalloc:root
    /// Copies `xs` into a new vector.
    pub fn copy_of(xs: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        out.extend_from_slice(xs); // noalloc:exempt debug: the dependency author's, not the user's
        out
    }
}

pub use inner::{copy_of, total};

// noalloc:nonsense
pub fn unused() {}
