//! Typed numbers against serde_json: the input decoded as each integer width and as
//! `f32`/`f64`, by our `ReadJson` impls and through our serde bridge, must be
//! accepted or refused as serde_json does, with the same value.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// Ours (derive path and serde bridge) against serde_json's, for one type.
fn same<T>(data: &[u8])
where
    T: for<'de> json::ReadJson<'de> + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let theirs = serde_json::from_slice::<T>(data).ok();
    let ours = json::from_slice::<T>(data).ok();
    assert_eq!(ours, theirs, "ReadJson for {}", std::any::type_name::<T>());
    let bridged = json::from_slice_serde::<T>(data, json::Arena::empty()).ok();
    assert_eq!(bridged, theirs, "the serde bridge for {}", std::any::type_name::<T>());
}

fuzz_target!(|data: &[u8]| {
    same::<u8>(data);
    same::<i8>(data);
    same::<u16>(data);
    same::<i16>(data);
    same::<u32>(data);
    same::<i32>(data);
    same::<u64>(data);
    same::<i64>(data);
    same::<u128>(data);
    same::<i128>(data);
    same::<f32>(data);
    same::<f64>(data);
});
