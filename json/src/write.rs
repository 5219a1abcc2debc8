//! `Writer`: JSON output through a buffer the caller keeps, flushed to a `Sink`
//! (any `io::Write`) whenever it fills. Knows JSON's lexical forms (strings,
//! numbers, literals); the shape of values is the job of `WriteJson` impls.

#[cfg(feature = "std")]
use std::io;

use crate::error::{Error, ErrorKind};
use crate::scan;

/// Where a [`Writer`] sends its buffer when it fills or is flushed.
///
/// Every `io::Write` is a sink; [`NoSink`] is the sink of a writer that must fit
/// its output in its buffer.
pub trait Sink {
    /// Takes all of `bytes`, or fails.
    fn send(&mut self, bytes: &[u8]) -> Result<(), ErrorKind>;

    /// Pushes what the sink itself buffers on to its destination
    /// (`io::Write::flush`).
    fn flush(&mut self) -> Result<(), ErrorKind> {
        Ok(())
    }

    /// Whether `flush` leaves the bytes in the writer's buffer (there being nowhere
    /// to send them).
    fn keeps_bytes(&self) -> bool {
        false
    }
}

#[cfg(feature = "std")]
impl<W: io::Write> Sink for W {
    fn send(&mut self, bytes: &[u8]) -> Result<(), ErrorKind> {
        self.write_all(bytes).map_err(|e| ErrorKind::Io(e.kind()))
    }

    fn flush(&mut self) -> Result<(), ErrorKind> {
        io::Write::flush(self).map_err(|e| ErrorKind::Io(e.kind()))
    }
}

/// The sink of a writer whose output must fit its buffer: overflowing it is `Full`.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoSink;

impl Sink for NoSink {
    fn send(&mut self, _bytes: &[u8]) -> Result<(), ErrorKind> {
        Err(ErrorKind::Full)
    }

    fn keeps_bytes(&self) -> bool {
        true
    }
}

/// Writes JSON tokens into `buf`, sending full buffers to the sink.
///
/// Writes never fail on the spot: the first error is kept and returned by
/// [`Writer::flush`] (or [`Writer::error`]), so an encoder checks once at the end.
///
/// Dropping a writer flushes it, as `std::io::BufWriter` does: buffered bytes go to
/// the sink and the sink is flushed, unless the writer failed already or the thread
/// is panicking. Errors on drop are lost: call [`flush`](Writer::flush) to see them.
/// A writer borrows its sink until it is dropped, so read the sink after
/// [`into_sink`](Writer::into_sink), or after the writer's scope ends.
///
/// ```
/// use json::WriteJson;
/// let mut buf = [0u8; 64];
/// let mut out = Vec::new();
/// let mut w = json::Writer::with_sink(&mut buf, &mut out);
/// [1.5f64, 2.0].write_json(&mut w);
/// w.flush().unwrap();
/// drop(w);
/// assert_eq!(out, b"[1.5,2.0]");
/// ```
pub struct Writer<'b, S: Sink = NoSink> {
    buf: &'b mut [u8],
    len: usize,
    sent: usize,
    sink: S,
    error: Option<Error>,
}

impl<'b> Writer<'b, NoSink> {
    /// A writer whose whole output must fit in `buf`; read it with [`Writer::bytes`].
    pub fn new(buf: &'b mut [u8]) -> Self {
        Writer::with_sink(buf, NoSink)
    }
}

impl<'b, S: Sink> Writer<'b, S> {
    /// A writer that buffers in `buf` and sends to `sink` as the buffer fills.
    pub fn with_sink(buf: &'b mut [u8], sink: S) -> Self {
        Writer { buf, len: 0, sent: 0, sink, error: None }
    }

    /// The bytes buffered and not yet sent.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Bytes written in total (sent and buffered).
    pub fn position(&self) -> usize {
        self.sent + self.len
    }

    /// The first error so far, if any.
    pub fn error(&self) -> Option<Error> {
        self.error
    }

    /// Forgets buffered output and any error, to write the next document into the
    /// same memory.
    pub fn clear(&mut self) {
        self.len = 0;
        self.sent = 0;
        self.error = None;
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, mutably. Bytes still buffered in the writer are not in it yet.
    pub fn sink_mut(&mut self) -> &mut S {
        &mut self.sink
    }

    /// Flushes (see [`flush`](Writer::flush)) and returns the sink, or the first
    /// error of the whole output with the sink.
    pub fn into_sink(self) -> Result<S, (Error, S)> {
        let mut this = core::mem::ManuallyDrop::new(self);
        let flushed = this.flush();
        // SAFETY: `this` is never used or dropped again, so the sink is moved out
        // once; the other fields (a borrow and plain data) need no drop.
        let sink = unsafe { core::ptr::read(&this.sink) };
        match flushed {
            Ok(()) => Ok(sink),
            Err(e) => Err((e, sink)),
        }
    }

    /// Sends the buffered bytes to the sink, flushes the sink, and reports the
    /// first error of the whole output. A `NoSink` writer keeps its bytes (there is
    /// nowhere to send them) and only reports.
    pub fn flush(&mut self) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.sink.keeps_bytes() {
            if self.len > 0 {
                self.send_buffer();
            }
            if self.error.is_none() {
                if let Err(kind) = self.sink.flush() {
                    self.fail(kind);
                }
            }
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Records `kind` at the current position as the writer's error, unless it has
    /// one already: for `WriteJson` impls that meet a value they cannot write (a
    /// derived enum's skipped variant).
    pub fn fail(&mut self, kind: ErrorKind) {
        if self.error.is_none() {
            self.error = Some(Error::new(kind, self.position()));
        }
    }

    fn send_buffer(&mut self) {
        if self.error.is_some() {
            return;
        }
        // noalloc:exempt caller: the sink is the caller's; `NoSink`, slices and pre-sized writers do not allocate
        match self.sink.send(&self.buf[..self.len]) {
            Ok(()) => {
                self.sent += self.len;
                self.len = 0;
            }
            Err(kind) => self.fail(kind),
        }
    }

    /// Appends bytes as they are (the caller vouches they are JSON).
    #[inline]
    pub fn raw(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if end <= self.buf.len() {
            self.buf[self.len..end].copy_from_slice(bytes);
            self.len = end;
        } else {
            self.raw_slow(bytes);
        }
    }

    #[cold]
    fn raw_slow(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.error.is_some() {
                return;
            }
            let room = self.buf.len() - self.len;
            if room == 0 {
                self.send_buffer();
                if self.error.is_some() {
                    return;
                }
                if self.buf.is_empty() {
                    // No buffer at all: go straight to the sink.
                    // noalloc:exempt caller: the sink is the caller's; `NoSink`, slices and pre-sized writers do not allocate
                    match self.sink.send(bytes) {
                        Ok(()) => self.sent += bytes.len(),
                        Err(kind) => self.fail(kind),
                    }
                    return;
                }
                continue;
            }
            let n = room.min(bytes.len());
            self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
            self.len += n;
            bytes = &bytes[n..];
        }
    }

    /// Appends one byte as it is (the caller vouches it is JSON).
    #[inline]
    pub fn byte(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
            self.len += 1;
        } else {
            self.raw_slow(&[b]);
        }
    }

    /// Writes `null`.
    pub fn null(&mut self) {
        self.raw(b"null");
    }

    /// Writes `true` or `false`.
    #[inline]
    pub fn bool(&mut self, v: bool) {
        self.raw(if v { b"true" } else { b"false" });
    }

    /// Writes an unsigned integer.
    #[inline]
    pub fn u64(&mut self, v: u64) {
        self.raw(itoa::Buffer::new().format(v).as_bytes());
    }

    /// Writes a signed integer.
    #[inline]
    pub fn i64(&mut self, v: i64) {
        self.raw(itoa::Buffer::new().format(v).as_bytes());
    }

    /// Writes an unsigned integer of up to 128 bits.
    pub fn u128(&mut self, v: u128) {
        self.raw(itoa::Buffer::new().format(v).as_bytes());
    }

    /// Writes a signed integer of up to 128 bits.
    pub fn i128(&mut self, v: i128) {
        self.raw(itoa::Buffer::new().format(v).as_bytes());
    }

    // noalloc:root
    /// Shortest form that reads back to the same `f64`, as serde_json writes it;
    /// NaN and infinities become `null`, as in serde_json.
    #[inline]
    pub fn f64(&mut self, v: f64) {
        if v.is_finite() {
            // noalloc:exempt measured: zmij formats into its stack buffer; its inline assembly is a 128-bit multiply
            self.raw(zmij::Buffer::new().format_finite(v).as_bytes());
        } else {
            self.null();
        }
    }

    /// Shortest form that reads back to the same `f32`; NaN and infinities become `null`.
    #[inline]
    pub fn f32(&mut self, v: f32) {
        if v.is_finite() {
            self.raw(zmij::Buffer::new().format_finite(v).as_bytes());
        } else {
            self.null();
        }
    }

    // noalloc:root
    /// A quoted, escaped JSON string.
    #[inline]
    pub fn str(&mut self, s: &str) {
        self.byte(b'"');
        self.str_body(s);
        self.byte(b'"');
    }

    /// The escaped contents of a string, without quotes (for callers that build one
    /// string from pieces). Escapes exactly what serde_json escapes.
    #[inline]
    pub fn str_body(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            i += scan::plain_prefix(&bytes[i..]);
            if i >= bytes.len() {
                break;
            }
            let b = bytes[i];
            if start < i {
                self.raw(&bytes[start..i]);
            }
            self.escape(b);
            i += 1;
            start = i;
        }
        if start < bytes.len() {
            self.raw(&bytes[start..]);
        }
    }

    fn escape(&mut self, b: u8) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        match b {
            b'"' => self.raw(b"\\\""),
            b'\\' => self.raw(b"\\\\"),
            b'\n' => self.raw(b"\\n"),
            b'\r' => self.raw(b"\\r"),
            b'\t' => self.raw(b"\\t"),
            0x08 => self.raw(b"\\b"),
            0x0c => self.raw(b"\\f"),
            _ => self.raw(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]),
        }
    }
}

impl<S: Sink> Drop for Writer<'_, S> {
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        if std::thread::panicking() {
            return;
        }
        if self.error.is_none() {
            let _ = self.flush();
        }
    }
}

impl<S: Sink> core::fmt::Write for Writer<'_, S> {
    /// Writes `s` as the escaped body of a JSON string (no quotes).
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.str_body(s);
        Ok(())
    }
}
