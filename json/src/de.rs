//! The serde bridge for decoding: `serde::Deserializer` for [`Reader`]. Strings are
//! handed to visitors as `&'de str` — borrowed from the input, or decoded into the
//! reader's arena — so `Deserialize<'de>` types that borrow decode without
//! allocating. It owns the mapping from JSON tokens to serde's data model only.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use crate::arena::Arena;
use crate::error::{Error, ErrorKind, Result};
use crate::read::{Array, Number, Object, Reader};

/// Decodes a `T: Deserialize<'de>` from `input`, escaped strings going to `arena`.
///
/// ```
/// #[derive(serde::Deserialize, PartialEq, Debug)]
/// struct Hit<'a> { #[serde(borrow)] word: &'a str, score: f64 }
/// let mut mem = [0u8; 32];
/// let hit: Hit = json::from_slice_serde(br#"{"word":"caf\u00e9","score":0.5}"#,
///     json::Arena::new(&mut mem)).unwrap();
/// assert_eq!(hit, Hit { word: "café", score: 0.5 });
/// ```
pub fn from_slice_serde<'de, T: de::Deserialize<'de>>(input: &'de [u8], arena: Arena<'de>) -> Result<T> {
    let mut r = Reader::new(input).with_arena(arena);
    let value = T::deserialize(&mut r).map_err(|e| e.at_if_unknown(r.offset()))?;
    r.finish()?;
    Ok(value)
}

impl<'de> Reader<'de> {
    fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.number()? {
            Number::U64(v) => visitor.visit_u64(v),
            Number::I64(v) => visitor.visit_i64(v),
            Number::F64(v) => visitor.visit_f64(v),
        }
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let next = self.peek()?;
        let at = self.offset();
        let value = match next {
            b'n' => {
                self.null()?;
                visitor.visit_unit()
            }
            b't' | b'f' => visitor.visit_bool(self.bool()?),
            b'"' => visitor.visit_borrowed_str(self.str()?),
            b'-' | b'0'..=b'9' => self.visit_number(visitor),
            b'[' => {
                let array = self.array()?;
                let mut seq = Seq { r: self, array };
                let value = visitor.visit_seq(&mut seq)?;
                if seq.r.next_element(&mut seq.array)? {
                    return Err(seq.r.error(ErrorKind::TrailingCharacters));
                }
                Ok(value)
            }
            b'{' => {
                let object = self.object()?;
                let mut map = Map { r: self, object, done: false };
                let value = visitor.visit_map(&mut map)?;
                if !map.done && map.r.next_key(&mut map.object)?.is_some() {
                    return Err(map.r.error(ErrorKind::TrailingCharacters));
                }
                Ok(value)
            }
            _ => Err(self.error(ErrorKind::Syntax)),
        };
        value.map_err(|e| e.at_if_unknown(at))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.null()? {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek()? {
            b'"' => {
                let s = self.str()?;
                visitor.visit_enum(de::value::BorrowedStrDeserializer::<Error>::new(s))
            }
            b'{' => {
                let mut object = self.object()?;
                let value = visitor.visit_enum(Variant { r: &mut *self, object: &mut object })?;
                if self.next_key(&mut object)?.is_some() {
                    return Err(self.error(ErrorKind::Syntax));
                }
                Ok(value)
            }
            _ => Err(self.unexpected()),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip()?;
        visitor.visit_unit()
    }

    /// Integers past 64 bits: read exactly, not through `f64` as `deserialize_any`
    /// would.
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_i128(self.i128()?)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u128(self.u128()?)
    }

    /// Narrowed from `f64` and refused past `f32`'s range, as serde_json does
    /// (serde's own narrowing would give infinity).
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let v = <f32 as crate::ReadJson<'de>>::read_json(self)?;
        visitor.visit_f32(v)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 u8 u16 u32 u64 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

struct Seq<'r, 'de> {
    r: &'r mut Reader<'de>,
    array: Array,
}

impl<'de> de::SeqAccess<'de> for &mut Seq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.r.next_element(&mut self.array)? {
            seed.deserialize(&mut *self.r).map(Some)
        } else {
            // Put the `]` back so the caller's end check sees it once more.
            self.array = Array::ended();
            Ok(None)
        }
    }
}

struct Map<'r, 'de> {
    r: &'r mut Reader<'de>,
    object: Object,
    done: bool,
}

impl<'de> de::MapAccess<'de> for &mut Map<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.done {
            return Ok(None);
        }
        match self.r.next_key(&mut self.object)? {
            Some(key) => {
                let at = self.r.offset();
                let text = key.decode(self.r.arena()).map_err(|kind| Error::new(kind, at))?;
                seed.deserialize(MapKey { key: text, escaped: key.is_escaped() }).map(Some)
            }
            None => {
                self.done = true;
                Ok(None)
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.r)
    }
}

/// A map key: a string, also read as a number or bool when the key type asks
/// for one (serde_json's quoted keys: numbers with JSON's grammar, unescaped).
struct MapKey<'de> {
    key: &'de str,
    escaped: bool,
}

macro_rules! number_key {
    ($($method:ident => $visit:ident $t:ty,)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let read = if self.escaped {
                Err(ErrorKind::InvalidType)
            } else {
                crate::read::number_key::<$t>(self.key.as_bytes())
            };
            match read {
                Ok(v) => visitor.$visit(v),
                Err(kind) => Err(Error::new(kind, crate::error::UNKNOWN_OFFSET)),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for MapKey<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.key)
    }

    number_key! {
        deserialize_i8 => visit_i8 i8,
        deserialize_i16 => visit_i16 i16,
        deserialize_i32 => visit_i32 i32,
        deserialize_i64 => visit_i64 i64,
        deserialize_i128 => visit_i128 i128,
        deserialize_u8 => visit_u8 u8,
        deserialize_u16 => visit_u16 u16,
        deserialize_u32 => visit_u32 u32,
        deserialize_u64 => visit_u64 u64,
        deserialize_u128 => visit_u128 u128,
        deserialize_f32 => visit_f32 f32,
        deserialize_f64 => visit_f64 f64,
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.key {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(Error::new(ErrorKind::InvalidType, crate::error::UNKNOWN_OFFSET)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(self.key.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// `{"Variant": value}` of an externally tagged enum.
struct Variant<'a, 'de> {
    r: &'a mut Reader<'de>,
    object: &'a mut Object,
}

impl<'a, 'de> de::EnumAccess<'de> for Variant<'a, 'de> {
    type Error = Error;
    type Variant = &'a mut Reader<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant)> {
        let at = self.r.offset();
        let key = match self.r.next_key(self.object)? {
            Some(key) => key,
            None => return Err(Error::new(ErrorKind::InvalidType, at)),
        };
        let text = key.decode(self.r.arena()).map_err(|kind| Error::new(kind, at))?;
        let value = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(text))?;
        Ok((value, self.r))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        if self.null()? {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}
