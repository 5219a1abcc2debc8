//! Broken too, and without a directive: its syntax errors are reported all the same.

pub fn half(x: u32 -> u32 {
    x / 2
}
