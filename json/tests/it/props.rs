//! Property tests: generated values of derived types round-trip through
//! `json::testing::round_trip` (our encoding vs serde_json's, our decoding of
//! serde_json's output).

use json::{ReadJson, WriteJson};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(WriteJson, ReadJson, Serialize, Deserialize, Clone, PartialEq, Debug, Default)]
#[serde(rename_all = "snake_case")]
enum Kind {
    #[default]
    Plain,
    #[serde(rename = "FANCY")]
    Fancy,
    VeryLongName,
}

#[derive(WriteJson, ReadJson, Serialize, Deserialize, Clone, PartialEq, Debug, Default)]
#[serde(rename_all = "camelCase")]
struct Inner {
    label: String,
    weight: f32,
    codes: Vec<i16>,
}

#[derive(WriteJson, ReadJson, Serialize, Deserialize, Clone, PartialEq, Debug, Default)]
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

/// A type whose encoder writes the wrong field name: the round-trip checker must
/// catch it rather than pass it.
#[derive(Serialize, Clone, PartialEq, Debug, Default)]
struct Miswritten {
    id: u32,
}

impl WriteJson for Miswritten {
    fn write_json<S: json::Sink>(&self, w: &mut json::Writer<'_, S>) {
        w.raw(b"{\"ID\":");
        self.id.write_json(w);
        w.byte(b'}');
    }
}

impl<'de> ReadJson<'de> for Miswritten {
    fn read_json(r: &mut json::Reader<'de>) -> json::Result<Self> {
        let mut object = r.object()?;
        let mut id = 0;
        while let Some(key) = r.next_key(&mut object)? {
            if key.is("id") {
                id = r.read()?;
            } else {
                r.skip()?;
            }
        }
        Ok(Miswritten { id })
    }
}

#[test]
fn round_trip_catches_a_wrong_encoding() {
    let e = json::testing::round_trip(&Miswritten { id: 3 }).unwrap_err();
    assert_eq!(e.what, "encodings decode to different values");
    assert_eq!(e.ours, r#"{"ID":3}"#);
}

/// A type whose decoder into an existing value forgets its `name`: the round-trip
/// checker must catch it.
#[derive(Serialize, Clone, PartialEq, Debug, Default, WriteJson)]
struct Forgetful {
    id: u32,
    name: String,
}

impl<'de> ReadJson<'de> for Forgetful {
    /// A new `String` has no memory: `Full`, as for `String` itself.
    fn read_json(r: &mut json::Reader<'de>) -> json::Result<Self> {
        Err(r.error(json::ErrorKind::Full))
    }

    fn read_json_into(&mut self, r: &mut json::Reader<'de>) -> json::Result<()> {
        let mut object = r.object()?;
        while let Some(key) = r.next_key(&mut object)? {
            if key.is("id") {
                self.id = r.read()?;
            } else {
                r.skip()?;
            }
        }
        Ok(())
    }
}

#[test]
fn round_trip_catches_a_decoder_that_leaves_a_field_unchanged() {
    let e = json::testing::round_trip(&Forgetful { id: 3, name: "kept".into() }).unwrap_err();
    assert_eq!(e.what, "decode of the default into a copy differs");
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((any::<String>(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Any JSON value: serde_json's text reads back through our bridge to the same
    /// value, passes our validator, and our bridge writes serde_json's bytes.
    #[test]
    fn any_value_crosses_the_serde_bridge(v in json_value()) {
        let text = serde_json::to_vec(&v).unwrap();
        prop_assert!(json::validate(&text).is_ok());
        let mut arena = vec![0u8; text.len()];
        let back: serde_json::Value = json::from_slice_serde(&text, json::Arena::new(&mut arena)).unwrap();
        prop_assert_eq!(&back, &v);
        let mut buf = [0u8; 256];
        let mut out = Vec::new();
        {
            let mut w = json::Writer::with_sink(&mut buf, &mut out);
            json::to_writer_serde(&v, &mut w).unwrap();
        }
        prop_assert_eq!(out, text);
    }

    #[test]
    fn entries_round_trip(kv in proptest::collection::vec((any::<String>(), any::<i32>()), 0..6)) {
        let entries = json::Entries(kv);
        let text = json::testing::encode(&entries);
        let mut place = entries.clone();
        json::from_slice_into(&mut place, &text).unwrap();
        prop_assert_eq!(&place, &entries);
        // Duplicate keys collapse in serde_json's map; compare only without them.
        let mut keys: Vec<&String> = entries.0.iter().map(|(k, _)| k).collect();
        keys.sort();
        keys.dedup();
        if keys.len() == entries.0.len() {
            let theirs: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&text).unwrap();
            prop_assert_eq!(theirs.len(), entries.0.len());
        }
    }
}
