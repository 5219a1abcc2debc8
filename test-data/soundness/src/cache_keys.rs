//! Summaries are keyed by identity, not printed names: `<String as From<Box<str>>>`
//! and `<String as From<char>>` print alike but only one allocates.

// noalloc:root
pub fn string_from_box(b: Box<str>) -> usize {
    String::from(b).len()
}

// noalloc:root
pub fn string_from_char(c: char) -> usize {
    String::from(c).len()
}
