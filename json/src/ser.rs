//! The serde bridge for encoding: a `serde::Serializer` over [`Writer`] that writes
//! what serde_json writes, byte for byte, without allocating (`collect_str`
//! included). It owns no JSON syntax of its own beyond the shape of serde's data model.

use core::fmt::Write as _;

use serde::ser::{self, Serialize};

use crate::error::{Error, ErrorKind, Result, UNKNOWN_OFFSET};
use crate::write::{Sink, Writer};

/// Encodes any `Serialize` value through `w` and flushes it.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Point { x: i32, tags: std::collections::BTreeMap<&'static str, f64> }
/// let p = Point { x: 3, tags: [("w", 0.5)].into_iter().collect() };
/// let mut buf = [0u8; 64];
/// let mut w = json::Writer::new(&mut buf);
/// json::to_writer_serde(&p, &mut w).unwrap();
/// assert_eq!(w.bytes(), br#"{"x":3,"tags":{"w":0.5}}"#);
/// ```
pub fn to_writer_serde<T: Serialize + ?Sized, S: Sink>(value: &T, w: &mut Writer<'_, S>) -> Result<()> {
    let at = w.position();
    value.serialize(&mut *w).map_err(|e| e.at_if_unknown(at))?;
    w.flush()
}

/// State of a sequence or map being written.
pub struct Compound<'a, 'b, S: Sink> {
    w: &'a mut Writer<'b, S>,
    first: bool,
    /// Closes an enclosing `{"Variant":` as well.
    variant: bool,
}

impl<'a, 'b, S: Sink> Compound<'a, 'b, S> {
    fn comma(&mut self) {
        if !self.first {
            self.w.byte(b',');
        }
        self.first = false;
    }

    fn close(self, end: u8) {
        self.w.byte(end);
        if self.variant {
            self.w.byte(b'}');
        }
    }
}

impl<'a, 'b, S: Sink> ser::Serializer for &'a mut Writer<'b, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'b, S>;
    type SerializeTuple = Compound<'a, 'b, S>;
    type SerializeTupleStruct = Compound<'a, 'b, S>;
    type SerializeTupleVariant = Compound<'a, 'b, S>;
    type SerializeMap = Compound<'a, 'b, S>;
    type SerializeStruct = Compound<'a, 'b, S>;
    type SerializeStructVariant = Compound<'a, 'b, S>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.bool(v);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.i64(v as i64);
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.i64(v as i64);
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.i64(v as i64);
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.i64(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.i128(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.u64(v as u64);
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.u64(v as u64);
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.u64(v as u64);
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.u64(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.u128(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.f32(v);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.f64(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.str(v.encode_utf8(&mut [0u8; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<()> {
        self.null();
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.null();
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.null();
        Ok(())
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.byte(b'{');
        self.str(variant);
        self.byte(b':');
        value.serialize(&mut *self)?;
        self.byte(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        self.byte(b'[');
        Ok(Compound { w: self, first: true, variant: false })
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        self.byte(b'{');
        self.str(variant);
        self.raw(b":[");
        Ok(Compound { w: self, first: true, variant: true })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        self.byte(b'{');
        Ok(Compound { w: self, first: true, variant: false })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self::SerializeStruct> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        self.byte(b'{');
        self.str(variant);
        self.raw(b":{");
        Ok(Compound { w: self, first: true, variant: true })
    }
    fn collect_str<T: core::fmt::Display + ?Sized>(self, value: &T) -> Result<()> {
        self.byte(b'"');
        // `Writer`'s `fmt::Write` escapes as it goes; nothing is buffered.
        write!(self, "{value}").map_err(|_| Error::new(ErrorKind::Custom, UNKNOWN_OFFSET))?;
        self.byte(b'"');
        Ok(())
    }
}

impl<S: Sink> ser::SerializeSeq for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.comma();
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        self.close(b']');
        Ok(())
    }
}

impl<S: Sink> ser::SerializeTuple for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl<S: Sink> ser::SerializeTupleStruct for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl<S: Sink> ser::SerializeTupleVariant for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl<S: Sink> ser::SerializeMap for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.comma();
        key.serialize(MapKey { w: &mut *self.w })?;
        self.w.byte(b':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        self.close(b'}');
        Ok(())
    }
}

impl<S: Sink> ser::SerializeStruct for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.comma();
        self.w.str(key);
        self.w.byte(b':');
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        self.close(b'}');
        Ok(())
    }
}

impl<S: Sink> ser::SerializeStructVariant for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<()> {
        ser::SerializeStruct::end(self)
    }
}

/// Writes a map key: strings as they are, numbers, bools and chars quoted (as
/// serde_json does); anything else is `KeyMustBeString`.
struct MapKey<'a, 'b, S: Sink> {
    w: &'a mut Writer<'b, S>,
}

fn key_error() -> Error {
    Error::new(ErrorKind::KeyMustBeString, UNKNOWN_OFFSET)
}

macro_rules! quoted {
    ($($method:ident $t:ty => $write:ident as $as:ty;)*) => {$(
        fn $method(self, v: $t) -> Result<()> {
            self.w.byte(b'"');
            self.w.$write(v as $as);
            self.w.byte(b'"');
            Ok(())
        }
    )*};
}

impl<S: Sink> ser::Serializer for MapKey<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    quoted! {
        serialize_i8 i8 => i64 as i64;
        serialize_i16 i16 => i64 as i64;
        serialize_i32 i32 => i64 as i64;
        serialize_i64 i64 => i64 as i64;
        serialize_i128 i128 => i128 as i128;
        serialize_u8 u8 => u64 as u64;
        serialize_u16 u16 => u64 as u64;
        serialize_u32 u32 => u64 as u64;
        serialize_u64 u64 => u64 as u64;
        serialize_u128 u128 => u128 as u128;
    }

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.w.str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        if !v.is_finite() {
            return Err(Error::new(ErrorKind::KeyMustBeString, UNKNOWN_OFFSET));
        }
        self.w.byte(b'"');
        self.w.f32(v);
        self.w.byte(b'"');
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        if !v.is_finite() {
            return Err(Error::new(ErrorKind::KeyMustBeString, UNKNOWN_OFFSET));
        }
        self.w.byte(b'"');
        self.w.f64(v);
        self.w.byte(b'"');
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.w.str(v.encode_utf8(&mut [0u8; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.w.str(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(key_error())
    }
    fn serialize_none(self) -> Result<()> {
        Err(key_error())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit(self) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.w.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(key_error())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_error())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_error())
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_error())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_error())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_error())
    }
    fn collect_str<T: core::fmt::Display + ?Sized>(self, value: &T) -> Result<()> {
        self.w.byte(b'"');
        write!(self.w, "{value}").map_err(|_| Error::new(ErrorKind::Custom, UNKNOWN_OFFSET))?;
        self.w.byte(b'"');
        Ok(())
    }
}
