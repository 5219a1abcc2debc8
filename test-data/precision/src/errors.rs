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

/// An error kept in a box, as serde_json's `Error` is.
pub struct BoxedError(Box<(u32, usize)>);

impl BoxedError {
    #[cold]
    fn at(code: u32, pos: usize) -> BoxedError {
        BoxedError(Box::new((code, pos)))
    }

    pub fn code(&self) -> u32 {
        self.0 .0
    }
}

/// A hand-written `?`, as serde_json's `tri!`.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(value) => value,
            Err(error) => return Err(error),
        }
    };
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn next_digit(&mut self) -> Result<Option<u32>, BoxedError> {
        match self.bytes.get(self.pos) {
            None => Ok(None),
            Some(&b @ b'0'..=b'9') => {
                self.pos += 1;
                Ok(Some(u32::from(b - b'0')))
            }
            Some(_) => Err(BoxedError::at(1, self.pos)),
        }
    }

    fn number(&mut self) -> Result<u32, BoxedError> {
        let mut n = 0u32;
        loop {
            // In a loop, but the error is returned, not swallowed.
            match tri!(self.next_digit()) {
                Some(d) => n = n.wrapping_mul(10).wrapping_add(d),
                None => break,
            }
        }
        // An error built into a binding, then returned through a `match`.
        let checked = if n > 1_000_000 { Err(BoxedError::at(2, self.pos)) } else { Ok(n) };
        match checked {
            Ok(n) => Ok(n),
            Err(e) => Err(e),
        }
    }
}

/// serde_json's shapes: a `tri!` in a loop, an error returned through a binding;
/// the one error of a call dropped once.
// noalloc:root
pub fn boxed_error_once(text: &str) -> Option<u32> {
    Cursor { bytes: text.as_bytes(), pos: 0 }.number().ok()
}

/// The twin: every item's error built and dropped, in a loop.
// noalloc:root
pub fn boxed_errors_in_a_loop_allocate(texts: &[&str]) -> u32 {
    texts.iter().map(|t| Cursor { bytes: t.as_bytes(), pos: 0 }.number().unwrap_or(0)).sum()
}

/// The twin: an error in a binding that a `match` turns into a value, so it is
/// no error the function returns; built on the ordinary path.
// noalloc:root
pub fn error_in_a_binding_swallowed_allocates(n: u32) -> u32 {
    let checked = if n > 10 { Err(BoxedError::at(2, 0)) } else { Ok(n) };
    match checked {
        Ok(n) => n,
        Err(e) => e.code(),
    }
}
