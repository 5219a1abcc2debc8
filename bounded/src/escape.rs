//! Escaping for HTML and URL queries, appended into a [`Buf`]. It owns only the
//! byte mappings; each output is byte-equal to the established crate named on the
//! function (a property test compares them).
//!
//! Each function is whole or nothing like any `Buf` write: if the escaped text does
//! not fit, none of it stays and the buffer is marked full.
//!
//! ```
//! use bounded::{escape, Buf};
//!
//! let mut mem = [0u8; 64];
//! let mut buf = Buf::new(&mut mem);
//! buf.write_str("<a href=\"/search?q=");
//! escape::query(&mut buf, "fish & chips");
//! buf.write_str("\">");
//! escape::html_text(&mut buf, "fish & chips");
//! buf.write_str("</a>");
//! assert_eq!(buf.bytes(), &b"<a href=\"/search?q=fish+%26+chips\">fish &amp; chips</a>"[..]);
//! ```

use crate::{Buf, Sink};

/// Escapes `&`, `<` and `>`: text between tags. Same bytes as
/// `html_escape::encode_text`.
pub fn html_text<W: Sink + ?Sized>(buf: &mut Buf<'_, W>, text: &str) {
    escape_with(buf, text.as_bytes(), |b| match b {
        b'&' => Some(b"&amp;"),
        b'<' => Some(b"&lt;"),
        b'>' => Some(b"&gt;"),
        _ => None,
    });
}

/// Escapes `&`, `<`, `>`, `"` and `'`: an attribute value in either kind of
/// quotes. Same bytes as `html_escape::encode_quoted_attribute`.
pub fn html_attr<W: Sink + ?Sized>(buf: &mut Buf<'_, W>, value: &str) {
    escape_with(buf, value.as_bytes(), |b| match b {
        b'&' => Some(b"&amp;"),
        b'<' => Some(b"&lt;"),
        b'>' => Some(b"&gt;"),
        b'"' => Some(b"&quot;"),
        b'\'' => Some(b"&#x27;"),
        _ => None,
    });
}

/// Encodes a query-string name or value as `application/x-www-form-urlencoded`:
/// ASCII letters, digits and `*-._` stay, space becomes `+`, every other byte
/// `%XX`. Same bytes as `form_urlencoded::byte_serialize`.
pub fn query<W: Sink + ?Sized>(buf: &mut Buf<'_, W>, value: &str) {
    query_bytes(buf, value.as_bytes());
}

/// [`query`] for bytes that need not be UTF-8.
pub fn query_bytes<W: Sink + ?Sized>(buf: &mut Buf<'_, W>, value: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mark = buf.mark();
    let mut run = 0;
    for (i, &b) in value.iter().enumerate() {
        if matches!(b, b'*' | b'-' | b'.' | b'0'..=b'9' | b'A'..=b'Z' | b'_' | b'a'..=b'z') {
            continue;
        }
        buf.write_bytes(&value[run..i]);
        if b == b' ' {
            buf.write_byte(b'+');
        } else {
            buf.write_bytes(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
        }
        run = i + 1;
    }
    buf.write_bytes(&value[run..]);
    buf.undo_if_full(mark);
}

/// Writes `bytes`, replacing each byte that `replace` maps, in runs.
fn escape_with<W: Sink + ?Sized>(buf: &mut Buf<'_, W>, bytes: &[u8], replace: impl Fn(u8) -> Option<&'static [u8]>) {
    let mark = buf.mark();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(entity) = replace(b) {
            buf.write_bytes(&bytes[run..i]);
            buf.write_bytes(entity);
            run = i + 1;
        }
    }
    buf.write_bytes(&bytes[run..]);
    buf.undo_if_full(mark);
}
