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

// noalloc:root
pub fn pick(values: &[u8], at: usize) -> u8 {
    match values.get(at) {
        Some(value) => *value,
        // Cut as a panic path, unless `noalloc.strictPanics` is on.
        None => panic!("no value at {}", describe(at)),
    }
}

fn describe(at: usize) -> String {
    at.to_string()
}
