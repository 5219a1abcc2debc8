//! `WriteJson` and `ReadJson` for the standard types: literals, numbers, strings,
//! options, boxes, sequences and tuples. Maps are left out on purpose: they cannot
//! be decoded without allocating.

#[cfg(feature = "alloc")]
use alloc::{boxed::Box, string::String, vec::Vec};

use crate::error::{ErrorKind, Result};
use crate::read::{Number, Reader};
use crate::write::{Sink, Writer};
use crate::{ReadJson, WriteJson};

impl WriteJson for bool {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.bool(*self);
    }
}

impl<'de> ReadJson<'de> for bool {
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.bool()
    }
}

macro_rules! unsigned {
    ($($t:ty)*) => {$(
        impl WriteJson for $t {
            #[inline]
            fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
                w.u64(*self as u64);
            }
        }
        impl<'de> ReadJson<'de> for $t {
            #[inline]
            fn read_json(r: &mut Reader<'de>) -> Result<Self> {
                r.peek()?;
                r.peek()?;
                let at = r.offset();
                match r.number()? {
                    Number::U64(v) => <$t>::try_from(v).map_err(|_| crate::Error::new(ErrorKind::NumberOutOfRange, at)),
                    Number::I64(_) => Err(crate::Error::new(ErrorKind::NumberOutOfRange, at)),
                    Number::F64(_) => Err(crate::Error::new(ErrorKind::InvalidType, at)),
                }
            }
        }
    )*};
}
unsigned!(u8 u16 u32 u64 usize);

macro_rules! signed {
    ($($t:ty)*) => {$(
        impl WriteJson for $t {
            #[inline]
            fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
                w.i64(*self as i64);
            }
        }
        impl<'de> ReadJson<'de> for $t {
            #[inline]
            fn read_json(r: &mut Reader<'de>) -> Result<Self> {
                r.peek()?;
                let at = r.offset();
                match r.number()? {
                    Number::U64(v) => <$t>::try_from(v).map_err(|_| crate::Error::new(ErrorKind::NumberOutOfRange, at)),
                    Number::I64(v) => <$t>::try_from(v).map_err(|_| crate::Error::new(ErrorKind::NumberOutOfRange, at)),
                    Number::F64(_) => Err(crate::Error::new(ErrorKind::InvalidType, at)),
                }
            }
        }
    )*};
}
signed!(i8 i16 i32 i64 isize);

impl WriteJson for u128 {
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.u128(*self);
    }
}

impl<'de> ReadJson<'de> for u128 {
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.u128()
    }
}

impl WriteJson for i128 {
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.i128(*self);
    }
}

impl<'de> ReadJson<'de> for i128 {
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.i128()
    }
}

impl WriteJson for f64 {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.f64(*self);
    }
}

impl<'de> ReadJson<'de> for f64 {
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        Ok(match r.number()? {
            Number::U64(v) => v as f64,
            Number::I64(v) => v as f64,
            Number::F64(v) => v,
        })
    }
}

impl WriteJson for f32 {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.f32(*self);
    }
}

impl<'de> ReadJson<'de> for f32 {
    /// As serde_json: read as `f64`, then narrowed; past `f32`'s range it is
    /// `NumberOutOfRange` (tiny values round to zero).
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.peek()?;
        let at = r.offset();
        narrow(f64::read_json(r)?).ok_or(crate::Error::new(ErrorKind::NumberOutOfRange, at))
    }
}

/// `v` as the nearest `f32`, `None` past its range.
#[inline]
fn narrow(v: f64) -> Option<f32> {
    let narrow = v as f32;
    narrow.is_finite().then_some(narrow)
}

impl WriteJson for char {
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.str(self.encode_utf8(&mut [0u8; 4]));
    }
}

impl<'de> ReadJson<'de> for char {
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.peek()?;
        let at = r.offset();
        let text = r.raw_str()?;
        text.single_char().ok_or(crate::Error::new(ErrorKind::InvalidType, at))
    }
}

impl WriteJson for () {
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.null();
    }
}

impl<'de> ReadJson<'de> for () {
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        if r.null()? {
            Ok(())
        } else {
            Err(r.unexpected())
        }
    }
}

impl WriteJson for str {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.str(self);
    }
}

#[cfg(feature = "alloc")]
impl WriteJson for String {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.str(self);
    }
}

impl<'de: 'a, 'a> ReadJson<'de> for &'a str {
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.str()
    }
}

#[cfg(feature = "alloc")]
impl<'de> ReadJson<'de> for String {
    /// Only the empty string fits a new `String`; read into an existing one.
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        let mut s = String::new();
        r.str_into(&mut s)?;
        Ok(s)
    }

    #[inline]
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        r.str_into(self)
    }
}

#[cfg(feature = "alloc")]
impl WriteJson for alloc::borrow::Cow<'_, str> {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        w.str(self);
    }
}

#[cfg(feature = "alloc")]
impl<'de: 'a, 'a> ReadJson<'de> for alloc::borrow::Cow<'a, str> {
    /// Always borrowed: from the input, or from the arena when escaped.
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        r.str().map(alloc::borrow::Cow::Borrowed)
    }
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        (**self).write_json(w);
    }
}

impl<T: WriteJson + ?Sized> WriteJson for &mut T {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        (**self).write_json(w);
    }
}

#[cfg(feature = "alloc")]
impl<T: WriteJson + ?Sized> WriteJson for Box<T> {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        (**self).write_json(w);
    }
}

#[cfg(feature = "alloc")]
impl<'de, T: ReadJson<'de>> ReadJson<'de> for Box<T> {
    /// A new box would allocate: `Full`. Read into an existing box instead.
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        Err(r.error(ErrorKind::Full))
    }

    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        (**self).read_json_into(r)
    }
}

impl<T: WriteJson> WriteJson for Option<T> {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        match self {
            Some(v) => v.write_json(w),
            None => w.null(),
        }
    }
}

impl<'de, T: ReadJson<'de>> ReadJson<'de> for Option<T> {
    #[inline]
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        if r.null()? {
            Ok(None)
        } else {
            T::read_json(r).map(Some)
        }
    }

    /// `Some` reads into what it holds (so `Option<Box<T>>` reuses the box);
    /// `None` reads a new `T`; `null` drops the value and its memory.
    /// [`Nullable`](crate::Nullable) keeps them for the next non-null value.
    #[inline]
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        if r.null()? {
            *self = None;
            return Ok(());
        }
        match self {
            Some(v) => v.read_json_into(r),
            None => {
                *self = Some(T::read_json(r)?);
                Ok(())
            }
        }
    }

    fn absent() -> Option<Self> {
        Some(None)
    }
}

fn write_seq<'t, T: WriteJson + 't, S: Sink>(items: impl IntoIterator<Item = &'t T>, w: &mut Writer<'_, S>) {
    w.byte(b'[');
    let mut first = true;
    for item in items {
        if !first {
            w.byte(b',');
        }
        first = false;
        item.write_json(w);
    }
    w.byte(b']');
}

impl<T: WriteJson> WriteJson for [T] {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        write_seq(self, w);
    }
}

impl<T: WriteJson, const N: usize> WriteJson for [T; N] {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        write_seq(self, w);
    }
}

#[cfg(feature = "alloc")]
impl<T: WriteJson> WriteJson for Vec<T> {
    #[inline]
    fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
        write_seq(self, w);
    }
}

#[cfg(feature = "alloc")]
impl<'de, T: ReadJson<'de>> ReadJson<'de> for Vec<T> {
    /// Only the empty array fits a new `Vec`; read into an existing one.
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        let mut v = Vec::new();
        v.read_json_into(r)?;
        Ok(v)
    }

    /// Element `i` reads into the old element `i` (reusing its memory); elements
    /// past the old length are pushed within the capacity; then the vector is
    /// cut to the new length, which drops the surplus elements and their memory.
    /// [`Items`](crate::Items) keeps them for the next longer array.
    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        let mut array = r.array()?;
        let mut n = 0;
        while r.next_element(&mut array)? {
            if n < self.len() {
                self[n].read_json_into(r)?;
            } else if self.len() < self.capacity() {
                let item = T::read_json(r)?;
                self.push(item);
            } else {
                return Err(r.error(ErrorKind::Full));
            }
            n += 1;
        }
        self.truncate(n);
        Ok(())
    }
}

impl<'de, T: ReadJson<'de>, const N: usize> ReadJson<'de> for [T; N] {
    /// Reads exactly `N` elements.
    fn read_json(r: &mut Reader<'de>) -> Result<Self> {
        let mut array = r.array()?;
        let mut out: [Option<T>; N] = core::array::from_fn(|_| None);
        for slot in out.iter_mut() {
            if !r.next_element(&mut array)? {
                return Err(r.error(ErrorKind::InvalidType));
            }
            *slot = Some(T::read_json(r)?);
        }
        if r.next_element(&mut array)? {
            return Err(r.error(ErrorKind::InvalidType));
        }
        Ok(out.map(|v| v.expect("every slot was read")))
    }

    fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
        let mut array = r.array()?;
        for slot in self.iter_mut() {
            if !r.next_element(&mut array)? {
                return Err(r.error(ErrorKind::InvalidType));
            }
            slot.read_json_into(r)?;
        }
        if r.next_element(&mut array)? {
            return Err(r.error(ErrorKind::InvalidType));
        }
        Ok(())
    }
}

macro_rules! tuple {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: WriteJson),+> WriteJson for ($($name,)+) {
            fn write_json<S: Sink>(&self, w: &mut Writer<'_, S>) {
                w.byte(b'[');
                let mut first = true;
                $(
                    if !first { w.byte(b','); }
                    first = false;
                    self.$idx.write_json(w);
                )+
                let _ = first;
                w.byte(b']');
            }
        }
        impl<'de, $($name: ReadJson<'de>),+> ReadJson<'de> for ($($name,)+) {
            fn read_json(r: &mut Reader<'de>) -> Result<Self> {
                let mut array = r.array()?;
                let value = ($({
                    if !r.next_element(&mut array)? {
                        return Err(r.error(ErrorKind::InvalidType));
                    }
                    $name::read_json(r)?
                },)+);
                if r.next_element(&mut array)? {
                    return Err(r.error(ErrorKind::InvalidType));
                }
                Ok(value)
            }
            fn read_json_into(&mut self, r: &mut Reader<'de>) -> Result<()> {
                let mut array = r.array()?;
                $(
                    if !r.next_element(&mut array)? {
                        return Err(r.error(ErrorKind::InvalidType));
                    }
                    self.$idx.read_json_into(r)?;
                )+
                if r.next_element(&mut array)? {
                    return Err(r.error(ErrorKind::InvalidType));
                }
                Ok(())
            }
        }
    };
}
tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);
