//! Integer object keys against serde_json: an object decoded as `Entries<K, u8>` for
//! several key widths, by our `ReadJson` (into capacity) and through our serde
//! bridge, must be accepted or refused as serde_json decodes it, with the same
//! entries in the same order.

#![no_main]

use json::Entries;
use libfuzzer_sys::fuzz_target;

fn same<K>(data: &[u8])
where
    K: for<'de> json::ObjectKey<'de> + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let theirs = serde_json::from_slice::<Entries<K, u8>>(data).ok();
    let mut ours = Entries(Vec::with_capacity(data.len()));
    let ours = json::from_slice_into(&mut ours, data).ok().map(|()| ours);
    assert_eq!(ours, theirs, "Entries<{}, u8>", std::any::type_name::<K>());
    let bridged = json::from_slice_serde::<Entries<K, u8>>(data, json::Arena::empty()).ok();
    assert_eq!(bridged, theirs, "the serde bridge, Entries<{}, u8>", std::any::type_name::<K>());
}

fuzz_target!(|data: &[u8]| {
    same::<u8>(data);
    same::<i8>(data);
    same::<u32>(data);
    same::<i32>(data);
    same::<u64>(data);
    same::<i64>(data);
});
