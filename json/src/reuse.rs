//! `Items<T>` and `Nullable<T>`: a sequence and an optional value that keep the
//! memory a shorter document or a `null` did not use, so that a value which decoded
//! a large document once decodes any smaller or equal one again without `Full`.
//! `Vec<T>` and `Option<T>` cannot: their surplus elements and a `None` have nowhere
//! to keep memory.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::error::{ErrorKind, Result};
use crate::read::Reader;
use crate::write::{Sink, Writer};
use crate::{ReadJson, WriteJson};

/// A sequence whose decoding never gives memory back: elements past the length of
/// a shorter array are kept (with their strings and boxes), hidden, and a later
/// longer array decodes into them.
///
/// It reads and writes as a JSON array and derefs to the slice of its items.
///
/// ```
/// use json::Items;
///
/// let memory: Vec<String> = (0..3).map(|_| String::with_capacity(16)).collect();
/// let mut names = Items::from(memory);
/// json::from_slice_into(&mut names, br#"["ada","alan","grace"]"#).unwrap();
/// json::from_slice_into(&mut names, br#"["linus"]"#).unwrap();
/// assert_eq!(names.len(), 1);
/// // A `Vec<String>` would have dropped two strings; these come back.
/// json::from_slice_into(&mut names, br#"["barbara","edsger","margaret"]"#).unwrap();
/// assert_eq!(&names[..], ["barbara", "edsger", "margaret"]);
/// ```
#[derive(Clone, Default)]
pub struct Items<T> {
    /// The items, then the kept ones past `len`.
    all: Vec<T>,
    len: usize,
}

impl<T> Items<T> {
    /// An empty sequence; it can hold nothing until given memory (see
    /// [`Items::from`]).
    pub const fn new() -> Items<T> {
        Items { all: Vec::new(), len: 0 }
    }

    /// Empties the sequence and keeps every item for reuse.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items kept past the length, for the next longer document.
    pub fn kept(&self) -> usize {
        self.all.len() - self.len
    }

    /// The most items the sequence can decode: those it has or keeps, and room
    /// for new ones in the capacity.
    pub fn capacity(&self) -> usize {
        self.all.capacity()
    }

    /// The memory beneath: the items, then the kept ones.
    pub fn into_vec(mut self) -> Vec<T> {
        self.all.truncate(self.len);
        self.all
    }
}

/// The items of `vec`, and its spare capacity for more.
impl<T> From<Vec<T>> for Items<T> {
    fn from(vec: Vec<T>) -> Items<T> {
        Items { len: vec.len(), all: vec }
    }
}

impl<T> Deref for Items<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.all[..self.len]
    }
}

impl<T> DerefMut for Items<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.all[..self.len]
    }
}

impl<T: PartialEq> PartialEq for Items<T> {
    /// Compares the items; kept memory is not part of the value.
    fn eq(&self, other: &Items<T>) -> bool {
        **self == **other
    }
}

impl<T: fmt::Debug> fmt::Debug for Items<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: WriteJson> WriteJson for Items<T> {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        (**self).write_json(w);
    }
}

impl<'de, T: ReadJson<'de>> ReadJson<'de> for Items<T> {
    /// Only the empty array fits new `Items`; read into existing ones.
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        let mut items = Items::new();
        items.read_json_into(r)?;
        Ok(items)
    }

    /// Element `i` reads into item `i`, kept or not (reusing its memory); past
    /// those, new items are pushed within the capacity.
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        let mut array = r.array()?;
        let mut n = 0;
        // On an error the items read so far stay; the rest are kept.
        let result = loop {
            match r.next_element(&mut array) {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => break Err(e),
            }
            let read = if n < self.all.len() {
                self.all[n].read_json_into(r)
            } else if self.all.len() < self.all.capacity() {
                T::read_json(r).map(|item| self.all.push(item))
            } else {
                Err(r.error(ErrorKind::Full))
            };
            if let Err(e) = read {
                break Err(e);
            }
            n += 1;
        };
        self.len = n;
        result
    }
}

impl<T: serde::Serialize> serde::Serialize for Items<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// A value that may be `null`, and keeps its memory while it is: a `null` hides
/// the value instead of dropping it, and the next non-null value decodes into it.
/// (`Option<Box<T>>` drops its box at a `null`, and a new box would allocate.)
///
/// ```
/// use json::Nullable;
///
/// let mut note: Nullable<Box<String>> = Nullable::from(Some(Box::new(String::with_capacity(32))));
/// json::from_slice_into(&mut note, br#"null"#).unwrap();
/// assert_eq!(note.get(), None);
/// json::from_slice_into(&mut note, br#""the box is still there""#).unwrap();
/// assert_eq!(note.get().map(|s| s.as_str()), Some("the box is still there"));
/// ```
#[derive(Clone, Default)]
pub struct Nullable<T> {
    /// The value, or the memory of the last one while `null`.
    value: Option<T>,
    present: bool,
}

impl<T> Nullable<T> {
    /// `null`, with no memory to keep.
    pub const fn null() -> Nullable<T> {
        Nullable { value: None, present: false }
    }

    /// The value, or `None` for `null`.
    pub fn get(&self) -> Option<&T> {
        self.value.as_ref().filter(|_| self.present)
    }

    /// The value, mutably, or `None` for `null`.
    pub fn get_mut(&mut self) -> Option<&mut T> {
        self.value.as_mut().filter(|_| self.present)
    }

    /// Makes the value `null`, keeping its memory.
    pub fn set_null(&mut self) {
        self.present = false;
    }

    /// The value, or `None` for `null` (the kept memory goes with it).
    pub fn into_option(self) -> Option<T> {
        self.value.filter(|_| self.present)
    }
}

impl<T> From<Option<T>> for Nullable<T> {
    fn from(value: Option<T>) -> Nullable<T> {
        Nullable { present: value.is_some(), value }
    }
}

impl<T: PartialEq> PartialEq for Nullable<T> {
    /// Compares the values; kept memory is not part of the value.
    fn eq(&self, other: &Nullable<T>) -> bool {
        self.get() == other.get()
    }
}

impl<T: fmt::Debug> fmt::Debug for Nullable<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl<T: WriteJson> WriteJson for Nullable<T> {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        self.get().write_json(w);
    }
}

impl<'de, T: ReadJson<'de>> ReadJson<'de> for Nullable<T> {
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        Option::<T>::read_json(r).map(Nullable::from)
    }

    /// `null` hides the value; anything else reads into the kept value if there is
    /// one, else reads a new `T`.
    #[inline]
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        if r.null()? {
            self.present = false;
            return Ok(());
        }
        match &mut self.value {
            Some(v) => v.read_json_into(r)?,
            None => self.value = Some(T::read_json(r)?),
        }
        self.present = true;
        Ok(())
    }

    fn absent() -> Option<Self> {
        Some(Nullable::null())
    }
}

impl<T: serde::Serialize> serde::Serialize for Nullable<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}
