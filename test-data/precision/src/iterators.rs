//! Iterator chains over slices and arrays: std's specialisations (`ZipImpl`,
//! `SpecFromIter`, `SpecToString`, ...) must resolve to the impl that applies.

// noalloc:root
pub fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

// noalloc:root
pub fn count_equal(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b.iter()).filter(|(x, y)| x == y).count()
}

// noalloc:root
pub fn chained_sum(a: &[u32], b: &[u32]) -> u32 {
    a.iter().chain(b).copied().sum()
}

// noalloc:root
pub fn last_even(a: &[u32]) -> Option<u32> {
    a.iter().rev().copied().find(|x| x % 2 == 0)
}

// noalloc:root
pub fn every_third(a: &[u32]) -> u32 {
    a.iter().step_by(3).product()
}

// noalloc:root
pub fn rising_pairs(a: &[u32]) -> usize {
    a.windows(2).filter(|w| w[0] < w[1]).count()
}

// noalloc:root
pub fn sum_of_chunks(a: &[u32]) -> u32 {
    a.chunks_exact(4).map(|c| c.iter().sum::<u32>()).fold(0, |acc, s| acc ^ s)
}

// noalloc:root
pub fn flat_sum(rows: &[[u8; 3]]) -> u32 {
    rows.iter().flat_map(|row| row.iter()).map(|&b| u32::from(b)).sum()
}

// noalloc:root
pub fn largest(a: &[i32]) -> Option<i32> {
    a.iter().copied().max()
}

// noalloc:root
pub fn closest_to_zero(a: &[i32]) -> Option<&i32> {
    a.iter().min_by_key(|x| x.unsigned_abs())
}

// noalloc:root
pub fn collect_allocates(a: &[u32]) -> Vec<u32> {
    a.iter().map(|x| x + 1).collect::<Vec<_>>()
}

// noalloc:root
pub fn str_to_string_allocates(s: &str) -> String {
    s.to_string()
}

// noalloc:root
pub fn int_to_string_allocates(n: u64) -> String {
    n.to_string()
}

// noalloc:root
pub fn to_vec_allocates(a: &[u8]) -> Vec<u8> {
    a.to_vec()
}

// noalloc:root
pub fn concat_allocates(parts: &[&str]) -> String {
    parts.concat()
}

// noalloc:root
pub fn zip_fold(a: &[u32], b: &[u32]) -> u32 {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc.wrapping_add(x ^ y))
}

// noalloc:root
pub fn zip_chunks(a: &[u8]) -> usize {
    a.chunks_exact(2).zip(a.windows(2)).filter(|(c, w)| c == w).count()
}

// noalloc:root
pub fn zeroed_allocates(n: usize) -> Vec<u8> {
    vec![0u8; n]
}

// noalloc:root
pub fn extend_allocates(a: &[u32]) -> Vec<u32> {
    let mut v = Vec::new();
    v.extend(a.iter().copied());
    v
}
