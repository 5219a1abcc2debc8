//! Nothing here allocates: the check exits 0.

// noalloc:root
pub fn sum(xs: &[u64]) -> u64 {
    xs.iter().copied().sum()
}
