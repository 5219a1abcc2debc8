//! Differential fuzzing against serde_json: the same input must be accepted or
//! refused by both, decode to the same value, and that value must encode (through
//! our serde bridge) to the bytes serde_json writes, which both decode back.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let theirs = serde_json::from_slice::<Value>(data);
    let mut arena = vec![0u8; data.len()];
    let ours = json::from_slice_serde::<Value>(data, json::Arena::new(&mut arena));

    // The validator checks syntax only: it may accept a number too large for f64.
    match (json::validate(data), &ours) {
        (Ok(()), Ok(_)) | (Err(_), Err(_)) => {}
        (Ok(()), Err(e)) => assert_eq!(e.kind(), json::ErrorKind::NumberOutOfRange, "validator accepts what decoding refuses"),
        (Err(e), Ok(_)) => panic!("validator refuses ({e}) what decoding accepts"),
    }

    let value = match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "same input, different values");
            a
        }
        (Err(_), Err(_)) => return,
        (Ok(a), Err(e)) => panic!("we accept {a:?}, serde_json refuses: {e}"),
        (Err(e), Ok(b)) => panic!("we refuse ({e}), serde_json accepts {b:?}"),
    };

    let mut buf = vec![0u8; data.len() * 2 + 64];
    let mut out = Vec::new();
    let mut w = json::Writer::with_sink(&mut buf[..], &mut out);
    json::to_writer_serde(&value, &mut w).expect("encoding into a Vec does not fail");
    drop(w);
    assert_eq!(out, serde_json::to_vec(&value).unwrap(), "encoding differs from serde_json's");

    let mut arena = vec![0u8; out.len()];
    let back: Value = json::from_slice_serde(&out, json::Arena::new(&mut arena)).expect("we read our own output");
    assert_eq!(back, value, "round trip changes the value");
});
