//! Property tests: generated values of derived types round-trip through
//! `json::testing::round_trip` (our encoding vs serde_json's, our decoding of
//! serde_json's output).

use json::{ReadJson, WriteJson};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(WriteJson, ReadJson, Serialize, Deserialize, Clone, PartialEq, Debug)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Plain,
    #[serde(rename = "FANCY")]
    Fancy,
    VeryLongName,
}

#[derive(WriteJson, ReadJson, Serialize, Deserialize, Clone, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Inner {
    label: String,
    weight: f32,
    codes: Vec<i16>,
}

#[derive(WriteJson, ReadJson, Serialize, Deserialize, Clone, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Record {
    id: u64,
    small: i8,
    huge: i128,
    ratio: f64,
    name: String,
    tags: Vec<String>,
    nested: Option<Inner>,
    boxed: Option<Box<Inner>>,
    flag: bool,
    kind: Kind,
    #[serde(rename = "type")]
    ty: u16,
    pair: (u32, String),
    grid: [[u8; 2]; 2],
    letter: char,
}

fn finite() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(f64::from_bits).prop_filter("finite", |f| f.is_finite())
}

fn inner() -> impl Strategy<Value = Inner> {
    (".*", any::<u32>(), proptest::collection::vec(any::<i16>(), 0..4)).prop_map(|(label, bits, codes)| {
        let weight = f32::from_bits(bits);
        Inner { label, weight: if weight.is_finite() { weight } else { 0.5 }, codes }
    })
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::Plain), Just(Kind::Fancy), Just(Kind::VeryLongName)]
}

prop_compose! {
    fn record()(
        id in any::<u64>(), small in any::<i8>(), huge in any::<i128>(), ratio in finite(),
        name in any::<String>(), tags in proptest::collection::vec(".*", 0..5),
        nested in proptest::option::of(inner()), boxed in proptest::option::of(inner()),
        flag in any::<bool>(), kind in kind(), ty in any::<u16>(),
        pair in (any::<u32>(), "[a-z\"\\\\\\n]*"), grid in any::<[[u8; 2]; 2]>(), letter in any::<char>(),
    ) -> Record {
        Record { id, small, huge, ratio, name, tags, nested, boxed: boxed.map(Box::new), flag, kind, ty, pair, grid, letter }
    }
}

proptest! {
    #[test]
    fn records_round_trip(r in record()) {
        if let Err(e) = json::testing::round_trip(&r) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn strings_round_trip(s in any::<String>()) {
        if let Err(e) = json::testing::round_trip(&s) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn nested_vectors_round_trip(v in proptest::collection::vec(proptest::collection::vec(any::<i64>(), 0..4), 0..4)) {
        if let Err(e) = json::testing::round_trip(&v) {
            prop_assert!(false, "{}", e);
        }
    }
}
