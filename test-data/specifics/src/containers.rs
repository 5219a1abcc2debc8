//! Std containers and strings.
use std::collections::HashMap;

// noalloc:root
pub fn vec_push_local() -> usize {
    let mut v = Vec::new();
    v.push(1u32);
    v.len()
}

// noalloc:root
pub fn vec_new_is_free() -> usize {
    let v: Vec<u32> = Vec::new();
    v.len()
}

// noalloc:root
pub fn string_from() -> usize {
    let s = String::from("hello");
    s.len()
}

// noalloc:root
pub fn slice_sum(xs: &[u32]) -> u32 {
    xs.iter().sum()
}

// noalloc:root
pub fn box_new() -> u64 {
    let b = Box::new(7u64);
    *b
}

// noalloc:root
pub fn vec_macro() -> usize {
    let v = vec![1u8, 2, 3];
    v.len()
}

// noalloc:root
pub fn int_to_string(x: u32) -> usize {
    x.to_string().len()
}

// noalloc:root
pub fn hashmap_insert(m: &mut HashMap<u32, u32>) {
    m.insert(1, 2);
}

// noalloc:root
pub fn hashmap_get(m: &HashMap<u32, u32>) -> Option<u32> {
    m.get(&1).copied()
}

// noalloc:root
pub fn stable_sort(xs: &mut [u32]) {
    xs.sort();
}

// noalloc:root
pub fn unstable_sort(xs: &mut [u32]) {
    xs.sort_unstable();
}

// noalloc:root
pub fn str_ops(s: &str) -> usize {
    s.trim().split(',').filter(|part| !part.is_empty()).count()
}

// noalloc:root
pub fn vec_clone(v: &Vec<u8>) -> usize {
    v.clone().len()
}
