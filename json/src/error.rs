//! The one error type of the crate: what went wrong and at which byte.
//! It borrows nothing and never allocates, so it can be returned from a `flush()`
//! or a decode and kept as long as the caller likes.

use core::fmt;

/// What went wrong, without the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    Eof,
    /// A byte that cannot start or continue the value here.
    Syntax,
    /// Something other than whitespace after the value.
    TrailingCharacters,
    /// A string holds a raw control character (below 0x20).
    ControlCharacter,
    /// A backslash escape that JSON does not define.
    InvalidEscape,
    /// A `\u` escape that is not a valid code point (e.g. a lone surrogate).
    InvalidUnicode,
    /// A string is not valid UTF-8.
    InvalidUtf8,
    /// A number that does not fit the target type (or overflows `f64`).
    NumberOutOfRange,
    /// The value has another JSON type than the target expects.
    InvalidType,
    /// A string that names no variant of the target enum.
    UnknownVariant,
    /// An object key the target does not accept (`deny_unknown_fields`).
    UnknownField,
    /// An object lacks a field the target requires; the field's name.
    MissingField(&'static str),
    /// An object names the same field twice; the field's name.
    DuplicateField(&'static str),
    /// Nesting deeper than the reader's depth limit.
    Depth,
    /// The memory the caller gave (buffer, arena, capacity of a `String` or `Vec`)
    /// is too small, and the crate does not allocate more.
    Full,
    /// A map key that JSON cannot express as a string.
    KeyMustBeString,
    /// An I/O error from the sink or the source.
    #[cfg(feature = "std")]
    Io(std::io::ErrorKind),
    /// An error raised through serde by a `Serialize`/`Deserialize` impl; its
    /// message is dropped because keeping it would allocate.
    Custom,
}

/// An error with the byte offset where it was found (in the input when reading,
/// in the output when writing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

/// Offset used by errors created without a position (serde's `custom`); the
/// reader replaces it with its own position.
pub(crate) const UNKNOWN_OFFSET: usize = usize::MAX;

/// Where an error is as a person reads the input: 1-based line and column, the
/// column counted in bytes as serde_json counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineColumn {
    /// The line, from 1.
    pub line: usize,
    /// The byte in the line, from 1.
    pub column: usize,
}

impl Error {
    /// An error of `kind` at byte `offset`.
    pub fn new(kind: ErrorKind, offset: usize) -> Error {
        Error { kind, offset }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset in the input (reading) or output (writing).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The line and column of the offset in `input` (the bytes that were read),
    /// computed now: the reader does not count lines as it goes. `None` for an error
    /// without a position, or an offset past `input`.
    pub fn line_column(&self, input: &[u8]) -> Option<LineColumn> {
        let before = input.get(..self.offset)?;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        Some(LineColumn { line, column: self.offset - line_start + 1 })
    }

    pub(crate) fn at_if_unknown(mut self, offset: usize) -> Error {
        if self.offset == UNKNOWN_OFFSET {
            self.offset = offset;
        }
        self
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Eof => f.write_str("unexpected end of input"),
            ErrorKind::Syntax => f.write_str("syntax error"),
            ErrorKind::TrailingCharacters => f.write_str("trailing characters"),
            ErrorKind::ControlCharacter => f.write_str("control character in string"),
            ErrorKind::InvalidEscape => f.write_str("invalid escape"),
            ErrorKind::InvalidUnicode => f.write_str("invalid unicode code point"),
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            ErrorKind::NumberOutOfRange => f.write_str("number out of range"),
            ErrorKind::InvalidType => f.write_str("invalid type"),
            ErrorKind::UnknownVariant => f.write_str("unknown variant"),
            ErrorKind::UnknownField => f.write_str("unknown field"),
            ErrorKind::MissingField(name) => write!(f, "missing field `{name}`"),
            ErrorKind::DuplicateField(name) => write!(f, "duplicate field `{name}`"),
            ErrorKind::Depth => f.write_str("nesting too deep"),
            ErrorKind::Full => f.write_str("out of caller-provided memory"),
            ErrorKind::KeyMustBeString => f.write_str("key must be a string"),
            #[cfg(feature = "std")]
            ErrorKind::Io(kind) => write!(f, "I/O error: {kind}"),
            ErrorKind::Custom => f.write_str("error raised by a serde impl"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.offset == UNKNOWN_OFFSET {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{} at byte {}", self.kind, self.offset)
        }
    }
}

impl core::error::Error for Error {}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Error::new(ErrorKind::Custom, UNKNOWN_OFFSET)
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Error::new(ErrorKind::Custom, UNKNOWN_OFFSET)
    }

    fn invalid_type(_unexp: serde::de::Unexpected<'_>, _exp: &dyn serde::de::Expected) -> Self {
        Error::new(ErrorKind::InvalidType, UNKNOWN_OFFSET)
    }

    fn invalid_value(_unexp: serde::de::Unexpected<'_>, _exp: &dyn serde::de::Expected) -> Self {
        Error::new(ErrorKind::NumberOutOfRange, UNKNOWN_OFFSET)
    }

    fn unknown_variant(_variant: &str, _expected: &'static [&'static str]) -> Self {
        Error::new(ErrorKind::UnknownVariant, UNKNOWN_OFFSET)
    }

    fn unknown_field(_field: &str, _expected: &'static [&'static str]) -> Self {
        Error::new(ErrorKind::UnknownField, UNKNOWN_OFFSET)
    }

    fn missing_field(field: &'static str) -> Self {
        Error::new(ErrorKind::MissingField(field), UNKNOWN_OFFSET)
    }

    fn duplicate_field(field: &'static str) -> Self {
        Error::new(ErrorKind::DuplicateField(field), UNKNOWN_OFFSET)
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;
