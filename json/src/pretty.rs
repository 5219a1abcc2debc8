//! `Pretty`: a sink that indents the compact JSON a `Writer` sends through it, the
//! way serde_json's `to_writer_pretty` lays it out. It owns only the layout (where
//! newlines and indentation go); the tokens are the writer's.

use crate::error::{ErrorKind, Result};
use crate::write::{Sink, Writer};
use crate::WriteJson;

/// Spaces sent a run at a time for indentation.
const SPACES: &[u8; 64] = &[b' '; 64];

/// A [`Sink`] that lays out the compact JSON passing through it as serde_json's
/// pretty printer does (two spaces a level, `": "` after keys, empty arrays and
/// objects as `[]` and `{}`) and sends it on to `inner`. It keeps a few bytes of
/// state, never the document.
///
/// ```
/// use json::WriteJson;
///
/// let mut buf = [0u8; 64];
/// let mut out = Vec::new();
/// let mut w = json::Writer::with_sink(&mut buf, json::Pretty::new(&mut out));
/// (1u8, [true], "[x]").write_json(&mut w);
/// w.flush().unwrap();
/// drop(w);
/// assert_eq!(String::from_utf8(out).unwrap(), "[\n  1,\n  [\n    true\n  ],\n  \"[x]\"\n]");
/// ```
#[derive(Debug)]
pub struct Pretty<S: Sink> {
    inner: S,
    indent: &'static [u8],
    depth: usize,
    /// A `[` or `{` was sent and nothing after it yet: `[]` stays as it is.
    opened: bool,
    in_string: bool,
    escaped: bool,
}

impl<S: Sink> Pretty<S> {
    /// Indents by two spaces a level, as serde_json.
    pub fn new(inner: S) -> Pretty<S> {
        Pretty::with_indent(inner, b"  ")
    }

    /// Indents by `indent` (spaces or tabs) a level.
    pub fn with_indent(inner: S, indent: &'static [u8]) -> Pretty<S> {
        Pretty { inner, indent, depth: 0, opened: false, in_string: false, escaped: false }
    }

    /// The sink the laid-out JSON goes to.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// Sends `bytes` on to the inner sink.
    #[inline]
    fn out(&mut self, bytes: &[u8]) -> Result<(), ErrorKind> {
        // noalloc:exempt caller: the sink is the caller's; `Vec`s with capacity, slices and the writer's own sinks do not allocate
        self.inner.send(bytes)
    }

    /// A newline and the indentation of `depth` levels.
    fn newline(&mut self, depth: usize) -> Result<(), ErrorKind> {
        self.out(b"\n")?;
        if self.indent == b"  " {
            let mut spaces = depth * 2;
            while spaces > 0 {
                let n = spaces.min(SPACES.len());
                self.out(&SPACES[..n])?;
                spaces -= n;
            }
            return Ok(());
        }
        for _ in 0..depth {
            self.out(self.indent)?;
        }
        Ok(())
    }
}

impl<S: Sink> Sink for Pretty<S> {
    // noalloc:root
    fn send(&mut self, bytes: &[u8]) -> Result<(), ErrorKind> {
        // Bytes that pass unchanged are sent a run at a time, from `start`.
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            if self.opened {
                self.opened = false;
                if b != b']' && b != b'}' {
                    self.out(&bytes[start..i])?;
                    start = i;
                    self.depth += 1;
                    self.newline(self.depth)?;
                }
                if b == b']' || b == b'}' {
                    continue;
                }
            }
            match b {
                b'"' => self.in_string = true,
                b'[' | b'{' => self.opened = true,
                b']' | b'}' => {
                    self.out(&bytes[start..i])?;
                    start = i;
                    self.depth = self.depth.saturating_sub(1);
                    self.newline(self.depth)?;
                }
                b',' => {
                    self.out(&bytes[start..=i])?;
                    start = i + 1;
                    self.newline(self.depth)?;
                }
                b':' => {
                    self.out(&bytes[start..=i])?;
                    self.out(b" ")?;
                    start = i + 1;
                }
                _ => {}
            }
        }
        self.out(&bytes[start..])
    }

    fn flush(&mut self) -> Result<(), ErrorKind> {
        self.inner.flush()
    }
}

/// The rest of a caller's slice, as a sink: `Full` past its end.
struct SliceSink<'a> {
    out: &'a mut [u8],
    len: usize,
}

impl Sink for SliceSink<'_> {
    fn send(&mut self, bytes: &[u8]) -> Result<(), ErrorKind> {
        let end = self.len + bytes.len();
        let room = self.out.get_mut(self.len..end).ok_or(ErrorKind::Full)?;
        room.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }
}

/// Encodes `value` into `buf` laid out as serde_json's `to_string_pretty` does;
/// returns the bytes written (`Full` if they do not fit).
///
/// ```
/// let mut buf = [0u8; 64];
/// let n = json::to_slice_pretty(&[(1u8, "a")], &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"[\n  [\n    1,\n    \"a\"\n  ]\n]");
/// ```
pub fn to_slice_pretty<T: WriteJson + ?Sized>(value: &T, buf: &mut [u8]) -> Result<usize> {
    let mut staging = [0u8; 256];
    let mut w = Writer::with_sink(&mut staging, Pretty::new(SliceSink { out: buf, len: 0 }));
    value.write_json(&mut w);
    match w.into_sink() {
        Ok(pretty) => Ok(pretty.into_inner().len),
        Err((e, _)) => Err(e),
    }
}
