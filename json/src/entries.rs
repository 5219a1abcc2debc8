//! `Entries`: a JSON object with keys not known in advance (an ID → value table),
//! decoded into a `Vec` of pairs in input order. The allocation-free stand-in for a
//! map field: it reuses the vector's capacity and each entry's memory.

#[cfg(feature = "alloc")]
use alloc::{string::String, vec::Vec};

#[cfg(feature = "alloc")]
use serde::de::{MapAccess, Visitor};
#[cfg(feature = "alloc")]
use serde::ser::SerializeMap;

use crate::error::{ErrorKind, Result};
use crate::read::{Key, Reader};
use crate::write::{Sink, Writer};
#[cfg(feature = "alloc")]
use crate::ReadJson;
use crate::WriteJson;

/// A JSON object as `(key, value)` pairs, in the order they appear.
///
/// ```
/// let mut names = json::Entries(Vec::<(u32, &str)>::with_capacity(4));
/// json::from_slice_into(&mut names, br#"{"205":"Pit","17":"Balcony"}"#).unwrap();
/// assert_eq!(names.0, [(205, "Pit"), (17, "Balcony")]);
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entries<K, V>(pub Vec<(K, V)>);

/// A type that can be an object key: strings, and integers written as strings
/// (read with JSON's number grammar, as serde_json reads them).
pub trait ObjectKey<'de>: Sized {
    /// Reads a new key from `key` (`r` for errors and the arena).
    fn read_key(key: Key<'de>, r: &mut Reader<'de>) -> Result<Self>;

    /// Reads `key` into `self`, reusing its memory.
    fn read_key_into(&mut self, key: Key<'de>, r: &mut Reader<'de>) -> Result<()> {
        *self = Self::read_key(key, r)?;
        Ok(())
    }

    /// Writes the key as a JSON string.
    fn write_key<S: Sink>(&self, w: &mut Writer<'_, S>);
}

impl<'de: 'a, 'a> ObjectKey<'de> for &'a str {
    fn read_key(key: Key<'de>, r: &mut Reader<'de>) -> Result<Self> {
        let at = r.offset();
        key.decode(r.arena()).map_err(|kind| crate::Error::new(kind, at))
    }
    fn write_key<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.str(self);
    }
}

#[cfg(feature = "alloc")]
impl<'de> ObjectKey<'de> for String {
    fn read_key(key: Key<'de>, r: &mut Reader<'de>) -> Result<Self> {
        let mut s = String::new();
        s.read_key_into(key, r)?;
        Ok(s)
    }
    fn read_key_into(&mut self, key: Key<'de>, r: &mut Reader<'de>) -> Result<()> {
        self.clear();
        let mut buf = [0u8; 4];
        for c in key.chars() {
            if self.capacity() - self.len() < c.len_utf8() {
                return Err(r.error(ErrorKind::Full));
            }
            self.push_str(c.encode_utf8(&mut buf));
        }
        Ok(())
    }
    fn write_key<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.str(self);
    }
}

macro_rules! integer_keys {
    ($($t:ty)*) => {$(
        impl<'de> ObjectKey<'de> for $t {
            fn read_key(key: Key<'de>, r: &mut Reader<'de>) -> Result<Self> {
                if key.is_escaped() {
                    return Err(r.error(ErrorKind::InvalidType));
                }
                crate::read::number_key(key.raw()).map_err(|kind| r.error(kind))
            }
            fn write_key<S: Sink>(&self, w: &mut Writer<'_, S>) {
                w.byte(b'"');
                self.write_json(w);
                w.byte(b'"');
            }
        }
    )*};
}
integer_keys!(u8 u16 u32 u64 i8 i16 i32 i64);

#[cfg(feature = "alloc")]
impl<K, V> WriteJson for Entries<K, V>
where
    // Writing a key borrows nothing: any `'de` would do. `'static` is the one every
    // key type has, borrowed keys (`&'a str`) included.
    K: ObjectKey<'static>,
    V: WriteJson,
{
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.byte(b'{');
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                w.byte(b',');
            }
            k.write_key(w);
            w.byte(b':');
            v.write_json(w);
        }
        w.byte(b'}');
    }
}

#[cfg(feature = "alloc")]
impl<'de, K: ObjectKey<'de>, V: ReadJson<'de>> ReadJson<'de> for Entries<K, V> {
    /// Only `{}` fits a new `Entries`; read into an existing one.
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        let mut e = Entries(Vec::new());
        e.read_json_into(r)?;
        Ok(e)
    }

    /// Entry `i` reads into the old entry `i`; entries past the old length are
    /// pushed within the capacity (`Full` past it).
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        let mut object = r.object()?;
        let mut n = 0;
        while let Some(key) = r.next_key(&mut object)? {
            if n < self.0.len() {
                let (k, v) = &mut self.0[n];
                k.read_key_into(key, r)?;
                v.read_json_into(r)?;
            } else if self.0.len() < self.0.capacity() {
                let k = K::read_key(key, r)?;
                let v = V::read_json(r)?;
                self.0.push((k, v));
            } else {
                return Err(r.error(ErrorKind::Full));
            }
            n += 1;
        }
        self.0.truncate(n);
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for Entries<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(feature = "alloc")]
impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::Deserialize<'de> for Entries<K, V> {
    /// Through serde this collects into a new `Vec` (serde's own decoders allocate).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> core::result::Result<Self, D::Error> {
        struct EntriesVisitor<K, V>(core::marker::PhantomData<(K, V)>);
        impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> Visitor<'de> for EntriesVisitor<K, V> {
            type Value = Entries<K, V>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> core::result::Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        deserializer.deserialize_map(EntriesVisitor(core::marker::PhantomData))
    }

    /// Entry `i` decodes in place into the old entry `i` (a `String` key or value
    /// reuses its capacity), later ones are pushed, and entries past the object's
    /// end are dropped: a decode into a value as large allocates nothing.
    fn deserialize_in_place<D: serde::Deserializer<'de>>(
        deserializer: D,
        place: &mut Self,
    ) -> core::result::Result<(), D::Error> {
        struct InPlace<'p, K, V>(&'p mut Vec<(K, V)>);
        impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> Visitor<'de> for InPlace<'_, K, V> {
            type Value = ();
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> core::result::Result<(), A::Error> {
                let mut n = 0;
                while n < self.0.len() {
                    let (k, v) = &mut self.0[n];
                    if map.next_key_seed(Seed(k))?.is_none() {
                        self.0.truncate(n);
                        return Ok(());
                    }
                    map.next_value_seed(Seed(v))?;
                    n += 1;
                }
                while let Some(entry) = map.next_entry()? {
                    self.0.push(entry);
                }
                Ok(())
            }
        }
        deserializer.deserialize_map(InPlace(&mut place.0))
    }
}

/// Decodes into the place it holds (`Deserialize::deserialize_in_place`).
#[cfg(feature = "alloc")]
struct Seed<'p, T>(&'p mut T);

#[cfg(feature = "alloc")]
impl<'de, T: serde::Deserialize<'de>> serde::de::DeserializeSeed<'de> for Seed<'_, T> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> core::result::Result<(), D::Error> {
        T::deserialize_in_place(deserializer, self.0)
    }
}
