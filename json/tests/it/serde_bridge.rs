//! The serde bridge: any `Serialize` value encodes through `Writer` byte-equal to
//! serde_json and without allocating; `Deserialize<'de>` types (borrowing or not)
//! decode through the reader and its arena.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::alloc_count::allocations;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(i32, String),
    Struct { w: f64, h: Option<f64> },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Scene {
    name: String,
    shapes: Vec<Shape>,
    by_id: BTreeMap<u32, String>,
    flags: BTreeMap<bool, ()>,
    addr: std::net::Ipv4Addr,
    bytes: Vec<u8>,
    nothing: (),
    letter: char,
}

fn scene() -> Scene {
    Scene {
        name: "tab\there \u{1F600}".into(),
        shapes: vec![Shape::Unit, Shape::Newtype(3), Shape::Tuple(-1, "x".into()), Shape::Struct { w: 0.1, h: None }],
        by_id: [(1, "one".into()), (20, "twenty".into())].into_iter().collect(),
        flags: [(true, ())].into_iter().collect(),
        addr: std::net::Ipv4Addr::new(10, 0, 0, 1),
        bytes: vec![0, 255],
        nothing: (),
        letter: 'é',
    }
}

#[test]
fn serialize_is_byte_equal_to_serde_json_without_allocating() {
    let s = scene();
    let mut buf = [0u8; 1024];
    let mut w = json::Writer::new(&mut buf);
    let (result, count) = allocations(|| json::to_writer_serde(&s, &mut w));
    result.unwrap();
    assert_eq!(count, 0);
    assert_eq!(std::str::from_utf8(w.bytes()).unwrap(), serde_json::to_string(&s).unwrap());
}

#[test]
fn deserialize_owned_types_through_the_bridge() {
    let text = serde_json::to_vec(&scene()).unwrap();
    let mut arena = vec![0u8; text.len()];
    let back: Scene = json::from_slice_serde(&text, json::Arena::new(&mut arena)).unwrap();
    assert_eq!(back, scene());
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Wide {
    big: u128,
    low: i128,
}

#[test]
fn integers_past_64_bits_decode_exactly() {
    let wide = Wide { big: u128::MAX, low: i128::MIN };
    let text = serde_json::to_vec(&wide).unwrap();
    let back: Wide = json::from_slice_serde(&text, json::Arena::new(&mut [])).unwrap();
    assert_eq!(back, wide);
}

#[derive(Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    #[serde(borrow)]
    words: Vec<&'a str>,
    #[serde(borrow)]
    pair: (&'a str, &'a str),
}

#[test]
fn borrowed_deserialize_uses_the_arena_for_escapes_without_allocating() {
    let input = br#"{"words":[],"pair":["pl\"ain","caf\u00e9"]}"#;
    let mut mem = [0u8; 32];
    let (back, count) = allocations(|| json::from_slice_serde::<Borrowed>(input, json::Arena::new(&mut mem)));
    assert_eq!(count, 0);
    assert_eq!(back.unwrap(), Borrowed { words: vec![], pair: ("pl\"ain", "café") });
}

#[test]
fn serde_json_value_decodes_like_serde_json() {
    let input = br#"{"a":[1,-2,3.5,1e400000,"s\n",null,true,{}],"b":18446744073709551616,"c":-0}"#;
    let mut mem = vec![0u8; input.len()];
    let ours = json::from_slice_serde::<serde_json::Value>(input, json::Arena::new(&mut mem));
    assert_eq!(ours.is_err(), serde_json::from_slice::<serde_json::Value>(input).is_err());
    let input = br#"{"a":[1,-2,3.5,"s\n",null,true,{}],"b":18446744073709551616,"c":-0}"#;
    let ours: serde_json::Value = json::from_slice_serde(input, json::Arena::new(&mut mem)).unwrap();
    assert_eq!(ours, serde_json::from_slice::<serde_json::Value>(input).unwrap());
}

#[test]
fn bridge_errors_carry_offsets() {
    let mut mem = [0u8; 8];
    let e = json::from_slice_serde::<Vec<u8>>(b"[1, 300]", json::Arena::new(&mut mem)).unwrap_err();
    assert_eq!(e.offset(), 4);
    let e = json::from_slice_serde::<Shape>(br#""Nope""#, json::Arena::new(&mut mem)).unwrap_err();
    assert_eq!(e.kind(), json::ErrorKind::UnknownVariant);
}

/// Integer keys follow JSON's number grammar, as serde_json reads them: no `+`, no
/// leading zeros, no `-0`; the same through `Entries` and through the bridge.
#[test]
fn integer_keys_are_read_with_the_number_grammar() {
    for (input, ok) in [
        (&br#"{"5":1}"#[..], true),
        (br#"{"-5":1}"#, true),
        (br#"{"0":1}"#, true),
        (br#"{"+5":1}"#, false),
        (br#"{"007":1}"#, false),
        (br#"{"-0":1}"#, false),
        (br#"{"5 ":1}"#, false),
        (br#"{"5.0":1}"#, false),
        (br#"{"":1}"#, false),
        (br#"{"99999999999":1}"#, false),
    ] {
        let theirs = serde_json::from_slice::<BTreeMap<i32, u8>>(input).is_ok();
        assert_eq!(theirs, ok, "serde_json on {}", String::from_utf8_lossy(input));
        let mut entries = json::Entries(Vec::<(i32, u8)>::with_capacity(1));
        let ours = json::from_slice_into(&mut entries, input).is_ok();
        assert_eq!(ours, ok, "Entries on {}", String::from_utf8_lossy(input));
        let bridged = json::from_slice_serde::<BTreeMap<i32, u8>>(input, json::Arena::empty()).is_ok();
        assert_eq!(bridged, ok, "the bridge on {}", String::from_utf8_lossy(input));
    }
}

/// `Entries` decodes in place through serde (`Deserialize::deserialize_in_place`):
/// serde_json reuses the vector and each entry's memory, so a decode into a value
/// that holds as many entries allocates nothing; extra entries go, missing ones
/// are pushed.
#[test]
fn entries_deserialize_in_place_reuse_their_memory() {
    use serde::Deserialize as _;
    let input = br#"{"7":"seven","11":"eleven"}"#;
    let mut place: json::Entries<u32, String> =
        serde_json::from_slice(br#"{"1":"one......","2":"two......","3":"x"}"#).unwrap();
    let ((), count) = allocations(|| {
        let mut de = serde_json::Deserializer::from_slice(input);
        json::Entries::deserialize_in_place(&mut de, &mut place).unwrap();
    });
    assert_eq!(place.0, [(7, "seven".to_owned()), (11, "eleven".to_owned())]);
    assert_eq!(count, 0);
    let mut de = serde_json::Deserializer::from_slice(br#"{"1":"a","2":"b","3":"c","4":"d"}"#);
    json::Entries::deserialize_in_place(&mut de, &mut place).unwrap();
    assert_eq!(place.0.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [1, 2, 3, 4]);
}
