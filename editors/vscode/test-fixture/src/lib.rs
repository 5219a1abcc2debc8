//! The editor tests' fixture: one root that allocates on one line, one that does not.

// noalloc:root
pub fn greet() -> usize {
    let s = String::from("hello");
    s.len()
}

// noalloc:root
pub fn add(a: usize, b: usize) -> usize {
    a + b
}
