//! Derived decoders against serde's: types deriving both `ReadJson` and
//! `Deserialize` with the same attributes must accept and refuse what serde_json
//! does and decode the same values; what we accept we encode as serde_json does.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[derive(json::ReadJson, json::WriteJson, serde::Deserialize, serde::Serialize, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
struct Record<'a> {
    user_id: u32,
    #[serde(borrow)]
    name: Option<&'a str>,
    score: f64,
    #[serde(default)]
    flags: (bool, i8),
    #[serde(skip)]
    cache: u64,
    #[serde(alias = "other_kind")]
    kind: Kind,
    pair: Pair,
}

#[derive(json::ReadJson, json::WriteJson, serde::Deserialize, serde::Serialize, Debug, PartialEq, Default)]
enum Kind {
    #[default]
    Unit,
    #[serde(rename = "new")]
    Newtype(u16),
    Tuple(i32, #[serde(skip)] u8, bool),
    Struct {
        x: i64,
        #[serde(default)]
        y: Option<u8>,
    },
}

#[derive(json::ReadJson, json::WriteJson, serde::Deserialize, serde::Serialize, Debug, PartialEq, Default)]
#[serde(deny_unknown_fields)]
struct Pair(u8, #[serde(skip)] u8, i16);

fuzz_target!(|data: &[u8]| {
    // serde_json borrows `&str` only when it has no escapes; we decode escapes into
    // the arena. Compare where both can hold the value.
    let theirs = serde_json::from_slice::<Record>(data);
    let mut arena = vec![0u8; data.len()];
    let mut r = json::Reader::new(data).with_arena(json::Arena::new(&mut arena));
    let ours = r.read::<Record>().and_then(|v| r.finish().map(|()| v));
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "same input, different values"),
        (Err(_), Err(_)) => {}
        (Ok(a), Err(e)) => assert!(e.to_string().contains("borrowed"), "we accept {a:?}, serde_json refuses: {e}"),
        (Err(e), Ok(b)) => panic!("we refuse ({e}), serde_json accepts {b:?}"),
    }
    if let Ok(value) = &ours {
        let mut buf = vec![0u8; data.len() * 2 + 256];
        let n = json::to_slice(value, &mut buf).expect("the buffer holds the encoding");
        assert_eq!(&buf[..n], serde_json::to_vec(value).unwrap(), "encoding differs from serde_json's");
    }
});
