//! Text without allocating: searching and splitting `str`, parsing numbers, and
//! formatting into fixed buffers; and their allocating twins.

use core::fmt::Write;

// noalloc:root
pub fn count_words(s: &str) -> usize {
    s.split_whitespace().count()
}

// noalloc:root
pub fn find_key<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split(';').find_map(|pair| pair.split_once('=').filter(|(k, _)| k.trim() == key).map(|(_, v)| v.trim()))
}

// noalloc:root
pub fn has_prefix_ignoring_case(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

// noalloc:root
pub fn position_of(haystack: &str, needle: &str) -> Option<usize> {
    haystack.find(needle)
}

// noalloc:root
pub fn sum_fields(line: &str) -> u64 {
    line.split(',').filter_map(|field| field.trim().parse::<u64>().ok()).sum()
}

// noalloc:root
pub fn parse_float(s: &str) -> f64 {
    s.parse().unwrap_or(0.0)
}

// noalloc:root
pub fn lines_longer_than(text: &str, n: usize) -> usize {
    text.lines().filter(|line| line.chars().count() > n).count()
}

/// A fixed buffer `fmt::Write` fills until it is full.
pub struct Fixed {
    buf: [u8; 64],
    len: usize,
}

impl Fixed {
    pub fn new() -> Fixed {
        Fixed { buf: [0; 64], len: 0 }
    }

    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl Default for Fixed {
    fn default() -> Fixed {
        Fixed::new()
    }
}

impl Write for Fixed {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// `write!` of a literal makes no argument: `core::fmt::write`'s call through an
/// argument's formatter has nothing behind it.
// noalloc:root
pub fn write_literal_into_fixed(out: &mut Fixed) -> usize {
    out.len = 0;
    let _ = write!(out, "ready");
    out.as_str().len()
}

// noalloc:root
pub fn write_literal_into_string_allocates() -> usize {
    let mut out = String::new();
    let _ = write!(out, "ready");
    out.len()
}

// noalloc:root
pub fn format_into_fixed(out: &mut Fixed, id: u32, ratio: f32) -> usize {
    out.len = 0;
    let _ = write!(out, "id={id} ratio={ratio:.2}");
    out.as_str().len()
}

// noalloc:root
pub fn uppercase_in_place(bytes: &mut [u8]) {
    bytes.make_ascii_uppercase();
}

// noalloc:root
pub fn replace_allocates(s: &str) -> usize {
    s.replace(' ', "_").len()
}

// noalloc:root
pub fn split_collect_allocates(s: &str) -> usize {
    s.split(',').collect::<Vec<_>>().len()
}

// noalloc:root
pub fn format_allocates(id: u32) -> usize {
    format!("id={id}").len()
}

// noalloc:root
pub fn uppercase_allocates(s: &str) -> usize {
    s.to_uppercase().len()
}
