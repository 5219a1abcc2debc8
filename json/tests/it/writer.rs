//! The writer: flushing through a small buffer to any `io::Write`, errors from the
//! sink and from a full buffer, and string escaping identical to serde_json's.

use json::{ErrorKind, WriteJson, Writer};

#[test]
fn flushes_through_a_tiny_buffer_to_the_sink() {
    let value = ("a long string that does not fit", [1u64, u64::MAX], -7i8);
    for size in [0, 1, 3, 16] {
        let mut buf = vec![0u8; size];
        let mut out = Vec::new();
        let mut w = Writer::with_sink(&mut buf, &mut out);
        value.write_json(&mut w);
        w.flush().unwrap();
        let position = w.position();
        drop(w);
        assert_eq!(position, out.len());
        assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&value).unwrap(), "buffer {size}");
    }
}

#[test]
fn flush_flushes_the_sink_too() {
    let mut buf = [0u8; 64];
    let mut w = Writer::with_sink(&mut buf, std::io::BufWriter::new(Vec::new()));
    [1, 2].write_json(&mut w);
    w.flush().unwrap();
    assert_eq!(w.sink().get_ref(), b"[1,2]", "the BufWriter beneath was flushed");
    let sink = w.into_sink().unwrap();
    assert_eq!(sink.into_inner().unwrap(), b"[1,2]");
}

#[test]
fn dropping_a_writer_flushes_it() {
    let mut buf = [0u8; 64];
    let mut out = Vec::new();
    {
        let mut w = Writer::with_sink(&mut buf, &mut out);
        "unflushed tail".write_json(&mut w);
    }
    assert_eq!(out, br#""unflushed tail""#);
}

#[test]
fn into_sink_reports_the_first_error() {
    let mut buf = [0u8; 4];
    let mut w = Writer::with_sink(&mut buf, Broken);
    [1, 2, 3, 4].write_json(&mut w);
    let Err((e, Broken)) = w.into_sink() else { panic!("the sink is broken") };
    assert_eq!(e.kind(), ErrorKind::Io(std::io::ErrorKind::BrokenPipe));
}

#[test]
fn full_buffer_without_sink_is_full() {
    let mut buf = [0u8; 8];
    let e = json::to_slice(&"0123456789", &mut buf).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Full, 8));
}

struct Broken;

impl std::io::Write for Broken {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn sink_errors_are_kept_and_returned_by_flush() {
    let mut buf = [0u8; 4];
    let mut w = Writer::with_sink(&mut buf, Broken);
    [1, 2, 3, 4].write_json(&mut w);
    let e: json::Error = w.flush().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Io(std::io::ErrorKind::BrokenPipe), 4));
}

#[test]
fn escapes_exactly_like_serde_json() {
    let mut all = String::new();
    for c in (0u32..0x80).chain([0xe9, 0x2028, 0x2029, 0xfeff, 0x1f600]) {
        all.push(char::from_u32(c).unwrap());
    }
    let mut buf = [0u8; 2048];
    let n = json::to_slice(&all, &mut buf).unwrap();
    assert_eq!(&buf[..n], serde_json::to_vec(&all).unwrap());
}

#[test]
fn clear_reuses_the_writer() {
    let mut buf = [0u8; 16];
    let mut w = Writer::new(&mut buf);
    true.write_json(&mut w);
    assert_eq!(w.bytes(), b"true");
    w.clear();
    None::<u8>.write_json(&mut w);
    w.flush().unwrap();
    assert_eq!(w.bytes(), b"null");
}

/// `Entries` with borrowed keys writes and reads back (the write needs no lifetime
/// of the input: a `&str` key of any lifetime will do).
#[test]
fn entries_with_borrowed_keys_write_and_read_back() {
    let owned = String::from("caf\u{e9}");
    let entries = json::Entries(vec![(owned.as_str(), 1u32), ("b\"q", 2)]);
    let text = json::testing::encode(&entries);
    assert_eq!(text, r#"{"café":1,"b\"q":2}"#.as_bytes());
    let mut arena_mem = [0u8; 16];
    let mut reader = json::Reader::new(&text).with_arena(json::Arena::new(&mut arena_mem));
    let mut back: json::Entries<&str, u32> = json::Entries(Vec::with_capacity(2));
    reader.read_into(&mut back).unwrap();
    assert_eq!(back, entries);
}

/// Any JSON value as serde_json decodes it: strings with quotes, backslashes and
/// brackets, nested and empty arrays and objects.
fn values() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        "[\\[\\]{}:,\"\\\\a-zé ]{0,6}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map("[a-z:,\\[{\"]{0,3}", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config { cases: if cfg!(miri) { 4 } else { 256 }, failure_persistence: None, ..Default::default() })]

    /// `Pretty` lays out any value byte for byte as serde_json's pretty printer,
    /// whatever the writer's buffer size (so a document crosses many sends).
    #[test]
    fn pretty_output_is_serde_jsons(value in values(), buf_len in 1usize..40) {
        let want = serde_json::to_string_pretty(&value).unwrap();
        let mut buf = vec![0u8; buf_len];
        let mut out = Vec::new();
        let mut w = json::Writer::with_sink(&mut buf, json::Pretty::new(&mut out));
        json::to_writer_serde(&value, &mut w).unwrap();
        drop(w);
        proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}

#[test]
fn pretty_writing_allocates_nothing_and_fails_full_when_it_does_not_fit() {
    let value = (1u8, [true, false], "x");
    let mut buf = [0u8; 64];
    let (n, count) = crate::alloc_count::allocations(|| json::to_slice_pretty(&value, &mut buf));
    assert_eq!((n.map(|n| &buf[..n]), count), (Ok(&b"[\n  1,\n  [\n    true,\n    false\n  ],\n  \"x\"\n]"[..]), 0));
    let mut small = [0u8; 10];
    assert_eq!(json::to_slice_pretty(&value, &mut small).unwrap_err().kind(), json::ErrorKind::Full);
}
