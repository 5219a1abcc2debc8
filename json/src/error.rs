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
/// in the output when writing) and, for a syntax error, what the grammar expected
/// there. [`Error::display_in`] says it as serde_json does, with the line and
/// column.
///
/// ```
/// let input = b"{\n  \"id\": 1,\n  \"name\" \"ada\"\n}";
/// let e = json::validate(input).unwrap_err();
/// assert_eq!((e.kind(), e.expected()), (json::ErrorKind::Syntax, Some("`:`")));
/// assert_eq!(e.display_in(input).to_string(), "syntax error, expected `:`, at line 3 column 10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
    expected: Option<&'static str>,
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
        Error { kind, offset, expected: None }
    }

    /// The error, saying what was expected where it was found (``"`,` or `]`"``).
    pub fn expecting(mut self, what: &'static str) -> Error {
        self.expected = Some(what);
        self
    }

    /// What the grammar expected where the error was found, if known.
    pub fn expected(&self) -> Option<&'static str> {
        self.expected
    }

    /// The error as a person reads it, with the line and column of its offset in
    /// `input` (the bytes that were read): ``syntax error, expected `:`, at line 3
    /// column 10``. Computed when displayed; nothing is allocated.
    pub fn display_in<'i>(&self, input: &'i [u8]) -> impl fmt::Display + 'i {
        let error = *self;
        DisplayIn { error, input }
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
        write!(f, "{}", self.kind)?;
        if let Some(what) = self.expected {
            write!(f, ", expected {what},")?;
        }
        if self.offset != UNKNOWN_OFFSET {
            write!(f, " at byte {}", self.offset)?;
        }
        Ok(())
    }
}

/// [`Error::display_in`]'s value.
struct DisplayIn<'i> {
    error: Error,
    input: &'i [u8],
}

impl fmt::Display for DisplayIn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(at) = self.error.line_column(self.input) else { return self.error.fmt(f) };
        write!(f, "{}", self.error.kind)?;
        if let Some(what) = self.error.expected {
            write!(f, ", expected {what},")?;
        }
        write!(f, " at line {} column {}", at.line, at.column)
    }
}

impl core::error::Error for Error {
    /// For an I/O error, its kind (as `std::io::ErrorKind` displays it).
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            #[cfg(feature = "std")]
            ErrorKind::Io(kind) => Some(IoSource::of(kind)),
            _ => None,
        }
    }
}

/// The source of an I/O error: its `std::io::ErrorKind`, seen as an error.
#[cfg(feature = "std")]
#[derive(Debug)]
#[repr(transparent)]
struct IoSource(std::io::ErrorKind);

#[cfg(feature = "std")]
impl IoSource {
    fn of(kind: &std::io::ErrorKind) -> &IoSource {
        // SAFETY: `IoSource` is a `repr(transparent)` wrapper of `io::ErrorKind`:
        // the same layout, and the reference keeps the borrow's lifetime.
        unsafe { &*(kind as *const std::io::ErrorKind).cast::<IoSource>() }
    }
}

#[cfg(feature = "std")]
impl fmt::Display for IoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for IoSource {}

/// For `?` in functions that return `io::Result`: the I/O error's own kind, else
/// `UnexpectedEof` (input ended), `OutOfMemory` (`Full`: the caller's memory is too
/// small) or `InvalidData`. Only the kind is kept (a payload would allocate): log
/// or keep the `json::Error` for its position.
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(error: Error) -> std::io::Error {
        use std::io::ErrorKind as Io;
        std::io::Error::from(match error.kind {
            ErrorKind::Io(kind) => kind,
            ErrorKind::Eof => Io::UnexpectedEof,
            ErrorKind::Full => Io::OutOfMemory,
            _ => Io::InvalidData,
        })
    }
}

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
