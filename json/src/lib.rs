//! JSON that encodes and decodes without allocating.
//!
//! - [`Writer`] writes through a buffer the caller keeps and flushes to any
//!   `io::Write`; [`WriteJson`] types (derive it) write themselves into it.
//!   [`Pretty`] lays the output out as serde_json's pretty printer does.
//! - [`Reader`] reads borrowed input (or an `io::Read` through a caller buffer);
//!   [`ReadJson`] types (derive it) read themselves from it. Unescaped strings
//!   borrow the input, escaped ones decode into an [`Arena`] over caller memory,
//!   and `String`/`Vec` fields decode into the capacity they already have. Past
//!   any of these the decode fails with [`ErrorKind::Full`]; it never allocates.
//! - The serde bridge: [`to_writer_serde`] encodes any `Serialize` value and
//!   [`from_slice_serde`] decodes `Deserialize<'de>` values that borrow.
//!
//! ```
//! use json::{ReadJson, WriteJson};
//!
//! #[derive(WriteJson, ReadJson, Debug, PartialEq)]
//! #[json(rename_all = "camelCase")]
//! struct Login<'a> {
//!     user_name: &'a str,
//!     remember_me: bool,
//!     #[json(skip)]
//!     attempts: u32,
//! }
//!
//! let mut arena_mem = [0u8; 256];
//! let input = br#"{"userName":"ad\u00e9le","rememberMe":true}"#;
//! let mut reader = json::Reader::new(input).with_arena(json::Arena::new(&mut arena_mem));
//! let login: Login = reader.read().unwrap();
//! assert_eq!(login, Login { user_name: "adéle", remember_me: true, attempts: 0 });
//!
//! let mut buf = [0u8; 128];
//! let mut w = json::Writer::new(&mut buf);
//! login.write_json(&mut w);
//! w.flush().unwrap();
//! assert_eq!(w.bytes(), r#"{"userName":"adéle","rememberMe":true}"#.as_bytes());
//! ```

#![warn(missing_docs)]
// Without the default `std` feature the crate is `no_std`: `Writer`, `Reader`,
// `Arena`, the derives and the serde bridge over caller memory. `alloc` adds the
// impls for `String`, `Vec`, `Box`, `Cow`, `Entries`, `Items` and `Nullable`; `std`
// adds `io::Write` sinks and `Reader::from_read`.
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

extern crate self as json;

mod arena;
mod de;
mod entries;
mod error;
mod float;
mod impls;
mod pow5;
mod pretty;
mod read;
#[cfg(feature = "alloc")]
mod reuse;
mod scan;
mod ser;
mod write;

#[cfg(feature = "testing")]
pub mod testing;

pub use arena::{Arena, MoreChunks};
#[cfg(feature = "alloc")]
pub use entries::Entries;
pub use entries::ObjectKey;
pub use error::{Error, ErrorKind, LineColumn, Result};
pub use json_derive::{ReadJson, WriteJson};
pub use pretty::{to_slice_pretty, Pretty};
pub use read::{Array, Key, Number, Object, Reader, DEFAULT_MAX_DEPTH, MAX_DEPTH};
#[cfg(feature = "alloc")]
pub use reuse::{Items, Nullable};
pub use write::{NoSink, Sink, Writer};

/// A type that writes itself as JSON.
pub trait WriteJson {
    /// Writes `self`; errors are kept in the writer (see [`Writer::flush`]).
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>);
}

/// A type that reads itself from JSON borrowed for `'de`.
pub trait ReadJson<'de>: Sized {
    /// Reads a new value. Types that need memory to hold a value (`String`,
    /// `Vec`, `Box`) fail here with `Full` unless the value is empty: read them
    /// with [`ReadJson::read_json_into`] into a value that has the capacity.
    fn read_json(r: &mut Reader<'de>) -> Result<Self>;

    /// Reads into `self`, reusing the memory it holds.
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        *self = Self::read_json(r)?;
        Ok(())
    }

    /// The value of a field missing from its object, if the type has one
    /// (`None` for `Option`); otherwise the field is required.
    fn absent() -> Option<Self> {
        None
    }
}

/// Encodes `value` into `buf`; returns the bytes written (`Full` if they do not fit).
pub fn to_slice<T: WriteJson + ?Sized>(value: &T, buf: &mut [u8]) -> Result<usize> {
    let mut w = Writer::new(buf);
    value.write_json(&mut w);
    w.flush()?;
    Ok(w.bytes().len())
}

/// Encodes `value` through `w` and flushes it.
pub fn to_writer<T: WriteJson + ?Sized, S: Sink>(value: &T, w: &mut Writer<'_, S>) -> Result<()> {
    value.write_json(w);
    w.flush()
}

/// Decodes a `T` from `input`, with no arena (escaped strings in `&str` fields
/// fail with `Full`; use [`Reader::with_arena`] for those).
pub fn from_slice<'de, T: ReadJson<'de>>(input: &'de [u8]) -> Result<T> {
    let mut r = Reader::new(input);
    let value = T::read_json(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// [`from_slice`] for text.
///
/// ```
/// let point: (i32, i32) = json::from_str("[3, -4]").unwrap();
/// assert_eq!(point, (3, -4));
/// ```
pub fn from_str<'de, T: ReadJson<'de>>(input: &'de str) -> Result<T> {
    from_slice(input.as_bytes())
}

/// Decodes `input` into `place`, reusing the memory `place` holds.
pub fn from_slice_into<'de, T: ReadJson<'de>>(place: &mut T, input: &'de [u8]) -> Result<()> {
    let mut r = Reader::new(input);
    place.read_json_into(&mut r)?;
    r.finish()
}

/// Checks that `input` is one JSON value (and whitespace), without decoding it.
pub fn validate(input: &[u8]) -> Result<()> {
    let mut r = Reader::new(input);
    r.skip()?;
    r.finish()
}

pub use de::from_slice_serde;

/// The derives refuse, at compile time, field types that cannot be decoded or
/// encoded without allocating; the error names the field and the reason.
///
/// These examples only show that such types do not compile (they would not
/// implement the traits anyway); the refusal's own message is asserted by the
/// expansion tests in `json-derive` (`refusals_name_the_field_and_why`).
///
/// ```compile_fail
/// #[derive(json::ReadJson)]
/// struct Post { tags: std::collections::HashMap<String, u32> }
/// ```
///
/// ```compile_fail
/// #[derive(json::WriteJson)]
/// struct Failure { cause: Box<dyn core::error::Error> }
/// ```
///
/// ```compile_fail
/// #[derive(json::ReadJson)]
/// struct Shared { config: std::rc::Rc<u32> }
/// ```
///
/// ```compile_fail
/// #[derive(json::ReadJson)]
/// struct Shared { config: std::sync::Arc<u32> }
/// ```
///
/// ```compile_fail
/// #[derive(json::ReadJson)]
/// struct Loose { rest: serde_json::Value }
/// ```
///
/// `#[json(crate = "path")]` names the path the derived code reaches the crate by
/// (for a re-export); one that names nothing does not compile:
///
/// ```compile_fail
/// #[derive(json::WriteJson)]
/// #[json(crate = "no_such_crate")]
/// struct Point { x: u8 }
/// ```
///
/// The same types are accepted when skipped:
///
/// ```
/// #[derive(json::ReadJson, json::WriteJson)]
/// struct Post { id: u32, #[json(skip)] cache: std::collections::HashMap<String, u32> }
/// ```
pub mod refused {}
pub use ser::to_writer_serde;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
