//! Numbers round-trip exactly like serde_json: integers of every width at their
//! limits, and `f64`/`f32` in shortest form, byte for byte.

use proptest::prelude::*;

fn ours<T: json::WriteJson>(v: &T) -> String {
    let mut buf = [0u8; 64];
    let n = json::to_slice(v, &mut buf).unwrap();
    String::from_utf8(buf[..n].to_vec()).unwrap()
}

macro_rules! limits {
    ($($t:ty),*) => {$(
        for v in [<$t>::MIN, <$t>::MAX, 0 as $t, 1 as $t, <$t>::MAX / 3] {
            let text = ours(&v);
            assert_eq!(text, serde_json::to_string(&v).unwrap());
            assert_eq!(json::from_slice::<$t>(text.as_bytes()).unwrap(), v);
        }
    )*};
}

#[test]
fn integers_of_every_width_at_their_limits() {
    limits!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
}

#[test]
fn integers_out_of_range_are_refused_like_serde_json() {
    for text in ["256", "-1", "1e2", "18446744073709551616"] {
        assert!(json::from_slice::<u8>(text.as_bytes()).is_err(), "{text}");
        assert!(serde_json::from_str::<u8>(text).is_err(), "{text}");
    }
    assert!(json::from_slice::<i128>(b"170141183460469231731687303715884105728").is_err());
}

#[test]
fn non_finite_floats_are_null() {
    assert_eq!(ours(&f64::NAN), "null");
    assert_eq!(ours(&f64::INFINITY), serde_json::to_string(&f64::INFINITY).unwrap());
}

fn finite_f64() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(f64::from_bits).prop_filter("finite", |f| f.is_finite())
}

proptest! {
    #[test]
    fn f64_shortest_form_is_serde_jsons(v in finite_f64()) {
        let text = ours(&v);
        prop_assert_eq!(&text, &serde_json::to_string(&v).unwrap());
        let back: f64 = json::from_slice(text.as_bytes()).unwrap();
        prop_assert_eq!(back.to_bits(), v.to_bits());
    }

    #[test]
    fn f32_shortest_form_is_serde_jsons(bits in any::<u32>()) {
        let v = f32::from_bits(bits);
        prop_assume!(v.is_finite());
        let text = ours(&v);
        prop_assert_eq!(&text, &serde_json::to_string(&v).unwrap());
        let back: f32 = json::from_slice(text.as_bytes()).unwrap();
        prop_assert_eq!(back.to_bits(), v.to_bits());
    }

    #[test]
    fn decimal_text_reads_like_serde_json(mantissa in any::<u64>(), frac in 0u32..30, exp in -330i32..330) {
        let digits = mantissa.to_string();
        let split = (frac as usize).min(digits.len() - 1);
        let text = format!("{}.{}0e{}", &digits[..digits.len() - split], &digits[digits.len() - split..], exp);
        let theirs = serde_json::from_str::<f64>(&text);
        let ours = json::from_slice::<f64>(text.as_bytes());
        match (ours, theirs) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a.to_bits(), b.to_bits(), "{}", text),
            (Err(_), Err(_)) => {}
            (a, b) => prop_assert!(false, "{}: ours {:?} theirs {:?}", text, a, b),
        }
    }

    #[test]
    fn i64_and_u64_round_trip(a in any::<i64>(), b in any::<u64>()) {
        prop_assert_eq!(json::from_slice::<i64>(ours(&a).as_bytes()).unwrap(), a);
        prop_assert_eq!(json::from_slice::<u64>(ours(&b).as_bytes()).unwrap(), b);
    }
}

/// An `f32` past its range is refused, as serde_json refuses it (found by the
/// `typed_numbers` fuzz target: `0.2e101` read as infinity); tiny ones round to 0.
#[test]
fn f32_out_of_range_is_refused_like_serde_json() {
    for input in
        ["0.2e101", "1e39", "-3.5e38", "3.4028235e38", "1e-50", "-1e-50", "340282356779733661637539395458142568448"]
    {
        let theirs = serde_json::from_str::<f32>(input).ok();
        assert_eq!(json::from_slice::<f32>(input.as_bytes()).ok(), theirs, "ReadJson on {input}");
        let bridged = json::from_slice_serde::<f32>(input.as_bytes(), json::Arena::empty()).ok();
        assert_eq!(bridged, theirs, "the bridge on {input}");
    }
    let e = json::from_slice::<f32>(b" 1e39").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (json::ErrorKind::NumberOutOfRange, 1));
}
