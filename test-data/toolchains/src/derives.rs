//! `#[derive(serde::Serialize)]`, expanded by the proc-macro server of the
//! toolchain the check runs under: `Point` serializes through the derived impl
//! into a serializer that allocates nothing; `Tagged`'s `Tag` formats a `String`.
use serde::ser::{self, Impossible, Serialize, SerializeStruct, Serializer};
use std::fmt;

#[derive(serde::Serialize)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

#[derive(serde::Serialize)]
pub struct Tagged {
    pub x: i32,
    pub tag: Tag,
}

pub struct Tag(pub u32);

impl Serialize for Tag {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("tag-{}", self.0))
    }
}

// noalloc:root
pub fn serialize_point(p: &Point) -> usize {
    let mut counter = FieldCounter { fields: 0 };
    let _ = p.serialize(&mut counter);
    counter.fields
}

// noalloc:root
pub fn serialize_tagged(t: &Tagged) -> usize {
    let mut counter = FieldCounter { fields: 0 };
    let _ = t.serialize(&mut counter);
    counter.fields
}

/// A serializer that counts fields and allocates nothing.
pub struct FieldCounter {
    pub fields: usize,
}

#[derive(Debug)]
pub struct CountError;

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("count error")
    }
}

impl std::error::Error for CountError {}

impl ser::Error for CountError {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        CountError
    }
}

macro_rules! count_scalars {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(fn $method(self, _v: $ty) -> Result<(), CountError> { self.fields += 1; Ok(()) })*
    };
}

impl<'a> Serializer for &'a mut FieldCounter {
    type Ok = ();
    type Error = CountError;
    type SerializeSeq = Impossible<(), CountError>;
    type SerializeTuple = Impossible<(), CountError>;
    type SerializeTupleStruct = Impossible<(), CountError>;
    type SerializeTupleVariant = Impossible<(), CountError>;
    type SerializeMap = Impossible<(), CountError>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), CountError>;

    count_scalars!(
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_str(&str), serialize_bytes(&[u8]),
    );
    fn serialize_none(self) -> Result<(), CountError> { Ok(()) }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), CountError> { value.serialize(self) }
    fn serialize_unit(self) -> Result<(), CountError> { Ok(()) }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), CountError> { Ok(()) }
    fn serialize_unit_variant(self, _n: &'static str, _i: u32, _v: &'static str) -> Result<(), CountError> { Ok(()) }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _n: &'static str, value: &T) -> Result<(), CountError> { value.serialize(self) }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _n: &'static str, _i: u32, _v: &'static str, value: &T) -> Result<(), CountError> { value.serialize(self) }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, CountError> { Err(CountError) }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, CountError> { Err(CountError) }
    fn serialize_tuple_struct(self, _n: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct, CountError> { Err(CountError) }
    fn serialize_tuple_variant(self, _n: &'static str, _i: u32, _v: &'static str, _len: usize) -> Result<Self::SerializeTupleVariant, CountError> { Err(CountError) }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, CountError> { Err(CountError) }
    fn serialize_struct(self, _n: &'static str, _len: usize) -> Result<Self, CountError> { Ok(self) }
    fn serialize_struct_variant(self, _n: &'static str, _i: u32, _v: &'static str, _len: usize) -> Result<Self::SerializeStructVariant, CountError> { Err(CountError) }
}

impl<'a> SerializeStruct for &'a mut FieldCounter {
    type Ok = ();
    type Error = CountError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, _key: &'static str, value: &T) -> Result<(), CountError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), CountError> { Ok(()) }
}
