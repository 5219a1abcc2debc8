//! Error handling without allocating: error enums, `?`, `map_err` into enums,
//! `Display` into a fixed buffer; and twins whose errors allocate on the ordinary
//! path.

use core::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    Empty,
    BadDigit(u8),
    TooLong { len: usize },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty"),
            ParseError::BadDigit(b) => write!(f, "bad digit {b}"),
            ParseError::TooLong { len } => write!(f, "too long: {len}"),
        }
    }
}

fn digits(s: &str) -> Result<u32, ParseError> {
    if s.is_empty() {
        return Err(ParseError::Empty);
    }
    if s.len() > 9 {
        return Err(ParseError::TooLong { len: s.len() });
    }
    s.bytes().try_fold(0u32, |acc, b| match b {
        b'0'..=b'9' => Ok(acc * 10 + u32::from(b - b'0')),
        other => Err(ParseError::BadDigit(other)),
    })
}

// noalloc:root
pub fn parse_pair(a: &str, b: &str) -> Result<(u32, u32), ParseError> {
    Ok((digits(a)?, digits(b)?))
}

// noalloc:root
pub fn parse_or_zero(s: &str) -> u32 {
    digits(s).unwrap_or(0)
}

// noalloc:root
pub fn std_error_mapped(s: &str) -> Result<u16, ParseError> {
    s.parse::<u16>().map_err(|_| ParseError::BadDigit(s.as_bytes().first().copied().unwrap_or(0)))
}

// noalloc:root
pub fn describe(err: ParseError, out: &mut crate::text::Fixed) -> usize {
    use core::fmt::Write;
    let _ = write!(out, "{err}");
    out.as_str().len()
}

// noalloc:root
pub fn first_error(inputs: &[&str]) -> Option<ParseError> {
    inputs.iter().find_map(|s| digits(s).err())
}

// noalloc:root
pub fn error_to_string_allocates(err: ParseError) -> usize {
    err.to_string().len()
}

// noalloc:root
pub fn boxed_error_allocates(s: &str) -> usize {
    let result: Result<u32, Box<dyn std::error::Error>> = s.parse::<u32>().map_err(Into::into);
    match result {
        Ok(n) => n as usize,
        Err(e) => e.to_string().len(),
    }
}
