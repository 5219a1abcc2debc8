//! The reader: errors and their offsets, the depth limit, reading from `io::Read`
//! through a caller buffer, and the arena asking for more chunks.

use json::{Arena, ErrorKind, Reader};

#[test]
fn syntax_errors_carry_the_byte_offset() {
    let cases: &[(&[u8], ErrorKind, usize)] = &[
        (b"[1, 2,]", ErrorKind::Syntax, 6),
        (b"{\"a\" 1}", ErrorKind::Syntax, 5),
        (b"[1 2]", ErrorKind::Syntax, 3),
        (b"\"abc", ErrorKind::Eof, 4),
        (b"\"a\tb\"", ErrorKind::ControlCharacter, 2),
        (b"\"a\\qb\"", ErrorKind::InvalidEscape, 3),
        (b"\"\\ud800\"", ErrorKind::InvalidUnicode, 7),
        (b"\"\xff\"", ErrorKind::InvalidUtf8, 1),
        (b"01", ErrorKind::TrailingCharacters, 1),
        (b"1.", ErrorKind::Eof, 2),
        (b"-x", ErrorKind::Syntax, 1),
        (b"nul", ErrorKind::Eof, 3),
        (b"[true] x", ErrorKind::TrailingCharacters, 7),
        (b"", ErrorKind::Eof, 0),
    ];
    for &(input, kind, offset) in cases {
        let e = json::validate(input).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (kind, offset), "{}", String::from_utf8_lossy(input));
    }
}

#[test]
fn type_errors_name_the_value_offset() {
    let e = json::from_slice::<[u8; 2]>(b" [1, 256]").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::NumberOutOfRange, 5));
    let e = json::from_slice::<u32>(b"1.0").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidType, 0));
    let e = json::from_slice::<bool>(b"  \"true\"").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidType, 2));
}

fn nested(depth: usize) -> Vec<u8> {
    let mut s = vec![b'['; depth];
    s.extend(std::iter::repeat_n(b']', depth));
    s
}

#[test]
fn depth_limit_matches_serde_json_and_never_overflows_the_stack() {
    let ok = nested(127);
    assert!(json::validate(&ok).is_ok());
    assert!(serde_json::from_slice::<serde_json::Value>(&ok).is_ok());
    let deep = nested(128);
    assert_eq!(json::validate(&deep).unwrap_err().kind(), ErrorKind::Depth);
    assert!(serde_json::from_slice::<serde_json::Value>(&deep).is_err());

    let very_deep = nested(1_000_000);
    let e = json::validate(&very_deep).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Depth, 127));

    let mut r = Reader::new(&very_deep).with_max_depth(5);
    assert_eq!(r.skip().unwrap_err().offset(), 4);
}

#[test]
fn reads_from_io_read_through_a_caller_buffer() {
    let source: &[u8] = br#"  ["a", "b\n"]  "#;
    let mut buf = [0u8; 64];
    let mut arena_mem = [0u8; 8];
    let mut r = Reader::from_read(source, &mut buf).unwrap().with_arena(Arena::new(&mut arena_mem));
    let v: [&str; 2] = r.read().unwrap();
    r.finish().unwrap();
    assert_eq!(v, ["a", "b\n"]);

    let mut small = [0u8; 8];
    let e = Reader::from_read(source, &mut small).err().unwrap();
    assert_eq!(e.kind(), ErrorKind::Full);
}

#[test]
fn arena_asks_the_callback_for_more_chunks() {
    let input = br#"["\u00e9\u00e9\u00e9\u00e9", "\tabcdefghijklmnopqrstuvwxyz", "plain"]"#;
    let mut first = [0u8; 4];
    let mut chunks = [[0u8; 32]; 2];
    let mut asked = Vec::new();
    let mut pool = chunks.iter_mut();
    let mut more = |need: usize| {
        asked.push(need);
        pool.next().map(|c| &mut c[..])
    };
    {
        let arena = Arena::new(&mut first).with_more(&mut more);
        let mut r = Reader::new(input).with_arena(arena);
        let v: [&str; 3] = r.read().unwrap();
        assert_eq!(v, ["éééé", "\tabcdefghijklmnopqrstuvwxyz", "plain"]);
    }
    // The decoded lengths (8 and 27 bytes), not the escaped ones (24 and 28).
    assert_eq!(asked, [8, 27]);
}

#[test]
fn without_arena_memory_escaped_borrowed_strings_are_full() {
    let e = json::from_slice::<&str>(br#"  "a\nb""#).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Full, 2));
    assert_eq!(json::from_slice::<&str>(br#""plain""#).unwrap(), "plain");
}

#[test]
fn skip_reads_any_value() {
    let mut r = Reader::new(br#"{"a":[1,-2.5e3,{"b":null}],"c":"\u00e9"} 7"#);
    r.skip().unwrap();
    assert_eq!(r.read::<u8>().unwrap(), 7);
    r.finish().unwrap();
}

/// The escaped path of `str_into` decodes into the string's spare capacity. Before
/// it wrote through a `&mut [u8]` over that uninitialised memory: undefined
/// behaviour, which Miri reports with `-Zmiri-recursive-validation`, as
/// `.ci/parts/json-miri.sh` runs this test.
#[test]
fn str_into_decodes_escapes_into_the_capacity_it_has() {
    let mut s = String::with_capacity(16);
    s.push_str("old contents");
    let mut r = Reader::new(br#""tab\there \u00e9\ud83d\ude00""#);
    r.str_into(&mut s).unwrap();
    assert_eq!(s, "tab\there é😀");
    assert_eq!(s.capacity(), 16);

    let mut small = String::with_capacity(4);
    let e = Reader::new(br#""a\nbcdef""#).str_into(&mut small).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Full);
}

#[test]
fn errors_give_line_and_column_on_demand() {
    let input = b"{\n  \"a\": 1,\n  \"b\": tru\n}";
    let e = json::validate(input).unwrap_err();
    assert_eq!(e.offset(), 22, "the newline that cuts `tru` short");
    assert_eq!(e.line_column(input), Some(json::LineColumn { line: 3, column: 11 }));
    assert_eq!(e.line_column(b"short"), None, "an offset past the input");
}

/// `with_max_depth` stops at `MAX_DEPTH`: a limit of `u32::MAX` would let deep input
/// overflow the stack. (4096 levels of `skip` take ~8 MiB unoptimised: a thread
/// with that stack.)
#[test]
fn depth_limit_is_capped_at_max_depth() {
    let very_deep = nested(1_000_000);
    let run = move || {
        let mut r = Reader::new(&very_deep).with_max_depth(u32::MAX);
        let e = r.skip().unwrap_err();
        (e.kind(), e.offset())
    };
    let thread = std::thread::Builder::new().stack_size(64 << 20).spawn(run).expect("a thread");
    let want = (ErrorKind::Depth, json::MAX_DEPTH as usize - 1);
    assert_eq!(thread.join().expect("no stack overflow"), want);
}

/// An escaped string needs arena room for its decoded bytes only (here 4, where
/// the escaped form has 12).
#[test]
fn the_arena_needs_room_for_the_decoded_string_only() {
    let input = br#""\u00e9\u00e9""#;
    let mut mem = [0u8; 4];
    let mut r = Reader::new(input).with_arena(Arena::new(&mut mem));
    assert_eq!(r.read::<&str>().unwrap(), "éé");
    let input = br#"{"\u00e9\u00e9":1}"#;
    let mut mem = [0u8; 4];
    let mut r = Reader::new(input).with_arena(Arena::new(&mut mem));
    let mut object = r.object().unwrap();
    let key = r.next_key(&mut object).unwrap().expect("a key");
    assert_eq!(key.decode(r.arena()), Ok("éé"));
}

/// `Key::chars` and `Key::single_char` (unsafe UTF-8 decoding over the raw key)
/// decode escapes, surrogate pairs and multi-byte characters; the `char` and
/// `String`-keyed readers are built on them. Kept in `reader::` for Miri.
#[test]
fn key_chars_and_single_char_decode_escapes() {
    let input = r#"{"a\u00e9\ud83d\ude00\n":1,"\u00e9":2,"é":3,"ab":4,"\"":5}"#;
    let mut r = Reader::new(input.as_bytes());
    let mut object = r.object().unwrap();
    let mut seen = Vec::new();
    while let Some(key) = r.next_key(&mut object).unwrap() {
        seen.push((key.chars().collect::<String>(), key.single_char()));
        r.skip().unwrap();
    }
    let want = [
        ("aé😀\n".to_owned(), None),
        ("é".to_owned(), Some('é')),
        ("é".to_owned(), Some('é')),
        ("ab".to_owned(), None),
        ("\"".to_owned(), Some('"')),
    ];
    assert_eq!(seen, want);
    assert_eq!(json::from_slice::<char>(br#""\ud83d\ude00""#).unwrap(), '😀');
    let mut keys = json::Entries(Vec::<(String, u8)>::with_capacity(1));
    keys.0.push((String::with_capacity(8), 0));
    json::from_slice_into(&mut keys, br#"{"\u00e9t\u00e9":7}"#).unwrap();
    assert_eq!(keys.0, [("été".to_owned(), 7)]);
}

/// Errors say what the grammar expected, with the line and column as serde_json
/// gives them; `source()` and `io::Error` carry an I/O error's kind.
#[test]
fn errors_say_what_was_expected_where() {
    for (input, expected, line_column) in [
        (&b"[1 2]"[..], "`,` or `]`", "line 1 column 4"),
        (b"{\"a\":1 \"b\":2}", "`,` or `}`", "line 1 column 8"),
        (b"{\n\"a\" 1}", "`:`", "line 2 column 5"),
        (b"{1:2}", "a string key", "line 1 column 2"),
        (b"[1,\n  ?]", "a JSON value", "line 2 column 3"),
        (b"1 2", "the end of the input", "line 1 column 3"),
    ] {
        let e = json::validate(input).unwrap_err();
        assert_eq!(e.expected(), Some(expected), "{}", String::from_utf8_lossy(input));
        let theirs = serde_json::from_slice::<serde_json::Value>(input).unwrap_err();
        assert_eq!(format!("line {} column {}", theirs.line(), theirs.column()), line_column, "serde_json's position");
        assert!(
            e.display_in(input).to_string().ends_with(&format!("expected {expected}, at {line_column}")),
            "{}",
            e.display_in(input)
        );
    }
    let e = json::Error::new(ErrorKind::Io(std::io::ErrorKind::BrokenPipe), 3);
    let source = std::error::Error::source(&e).expect("an I/O error has a source");
    assert_eq!(source.to_string(), std::io::ErrorKind::BrokenPipe.to_string());
    assert!(std::error::Error::source(&json::Error::new(ErrorKind::Syntax, 0)).is_none());
    let io = |e: json::Error| std::io::Error::from(e).kind();
    assert_eq!(io(e), std::io::ErrorKind::BrokenPipe);
    assert_eq!(io(json::validate(b"[").unwrap_err()), std::io::ErrorKind::UnexpectedEof);
    assert_eq!(io(json::validate(b"]").unwrap_err()), std::io::ErrorKind::InvalidData);
    let ((), count) = crate::alloc_count::allocations(|| {
        let e = json::validate(b"[1 2]").unwrap_err();
        std::hint::black_box(std::io::Error::from(e));
    });
    assert_eq!(count, 0, "the conversion allocates nothing");
}
