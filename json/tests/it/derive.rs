//! The derives: names (rename, rename_all, aliases, serde attributes), skips,
//! defaults, enums, and decoding into existing memory (`String`/`Vec` capacity,
//! `Option<Box<T>>`), with `Full` past it.

use json::{ErrorKind, ReadJson, WriteJson};

fn encode<T: WriteJson>(value: &T) -> String {
    let mut buf = [0u8; 1024];
    let n = json::to_slice(value, &mut buf).unwrap();
    String::from_utf8(buf[..n].to_vec()).unwrap()
}

#[derive(WriteJson, ReadJson, Debug, PartialEq, Default)]
#[json(rename_all = "camelCase")]
struct Account<'a> {
    user_id: u64,
    display_name: &'a str,
    #[json(rename = "e-mail")]
    email: Option<&'a str>,
    #[json(skip)]
    cache_hits: u32,
    #[json(default)]
    login_count: u16,
}

#[test]
fn json_attributes_rename_skip_and_default() {
    let a = Account { user_id: 7, display_name: "Ann", email: None, cache_hits: 99, login_count: 3 };
    assert_eq!(encode(&a), r#"{"userId":7,"displayName":"Ann","e-mail":null,"loginCount":3}"#);

    let back: Account = json::from_slice(br#"{"displayName":"Bo","userId":1,"unknown":[1,{"x":2}]}"#).unwrap();
    assert_eq!(back, Account { user_id: 1, display_name: "Bo", email: None, cache_hits: 0, login_count: 0 });
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
struct Legacy {
    #[serde(rename(serialize = "OUT", deserialize = "IN"))]
    value: i32,
    #[serde(alias = "OLD_NAME")]
    new_name: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<u8>,
    #[serde(skip, default = "seven")]
    derived: u8,
}

fn seven() -> u8 {
    7
}

#[test]
fn serde_attributes_are_read_too() {
    let v = Legacy { value: -3, new_name: true, note: None, derived: 1 };
    let ours = encode(&v);
    assert_eq!(ours, serde_json::to_string(&v).unwrap());
    assert_eq!(ours, r#"{"OUT":-3,"NEW_NAME":true}"#);

    let input = br#"{"IN":5,"OLD_NAME":false,"NOTE":2}"#;
    let ours: Legacy = json::from_slice(input).unwrap();
    let theirs: Legacy = serde_json::from_slice(input).unwrap();
    assert_eq!(ours, theirs);
    assert_eq!(ours, Legacy { value: 5, new_name: false, note: Some(2), derived: 7 });

    let e = json::from_slice::<Legacy>(br#"{"IN":5,"NEW_NAME":true,"extra":1}"#).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownField, 32));
}

#[test]
fn missing_and_duplicate_fields_are_errors_at_their_offset() {
    let e = json::from_slice::<Legacy>(br#"{"IN":5}"#).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::MissingField("NEW_NAME"), 8));
    let e = json::from_slice::<Legacy>(br#"{"IN":5,"IN":6,"NEW_NAME":true}"#).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::DuplicateField("IN"), 13));
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Level {
    Debug,
    #[serde(rename = "warn")]
    Warning,
    FatalError,
}

#[test]
fn unit_enums_are_strings() {
    for level in [Level::Debug, Level::Warning, Level::FatalError] {
        let ours = encode(&level);
        assert_eq!(ours, serde_json::to_string(&level).unwrap());
        assert_eq!(json::from_slice::<Level>(ours.as_bytes()).unwrap(), level);
    }
    assert_eq!(encode(&Level::FatalError), r#""fatal-error""#);
    assert_eq!(json::from_slice::<Level>(br#""\u0077arn""#).unwrap(), Level::Warning);
    let e = json::from_slice::<Level>(br#""Debug""#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownVariant);
}

#[derive(WriteJson, ReadJson, Debug, PartialEq)]
struct Meters(f64);

#[derive(WriteJson, ReadJson, Debug, PartialEq)]
struct Span(u32, u32, Level);

#[derive(WriteJson, ReadJson, Debug, PartialEq)]
struct Marker;

#[test]
fn newtype_tuple_and_unit_structs() {
    assert_eq!(encode(&Meters(1.5)), "1.5");
    assert_eq!(json::from_slice::<Meters>(b"2").unwrap(), Meters(2.0));
    assert_eq!(encode(&Span(1, 2, Level::Debug)), r#"[1,2,"debug"]"#);
    assert_eq!(json::from_slice::<Span>(br#"[3, 4, "warn"]"#).unwrap(), Span(3, 4, Level::Warning));
    assert_eq!(json::from_slice::<Span>(b"[3,4]").unwrap_err().kind(), ErrorKind::InvalidType);
    assert_eq!(encode(&Marker), "null");
    assert_eq!(json::from_slice::<Marker>(b"null").unwrap(), Marker);
}

#[test]
fn escaped_keys_match_their_decoding() {
    let a: Account = json::from_slice(br#"{"user\u0049d":4,"displayName":"x"}"#).unwrap();
    assert_eq!(a.user_id, 4);
}

#[derive(WriteJson, ReadJson, Debug, PartialEq, Clone, Default)]
struct Post {
    title: String,
    tags: Vec<String>,
    scores: Vec<u32>,
    parent: Option<Box<Post>>,
}

#[test]
fn strings_and_vecs_decode_into_their_capacity() {
    let mut post = Post { title: String::with_capacity(16), tags: Vec::with_capacity(2), ..Post::default() };
    post.scores.reserve_exact(3);
    let input = br#"{"title":"caf\u00e9 \"42\"","tags":[],"scores":[1,2,3],"parent":null}"#;
    json::from_slice_into(&mut post, input).unwrap();
    assert_eq!(post.title, "café \"42\"");
    assert_eq!(post.scores, [1, 2, 3]);
    assert!(post.tags.is_empty());

    // Elements pushed past the old length are new values: a new `String` holds
    // only "" without allocating, so a non-empty one is `Full`.
    let e = json::from_slice_into(&mut post, br#"{"title":"","tags":["a"],"scores":[],"parent":null}"#).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Full, 20));
}

#[test]
fn past_capacity_the_decode_is_full() {
    let mut post = Post { title: String::with_capacity(4), ..Post::default() };
    let e =
        json::from_slice_into(&mut post, br#"{"title":"too long","tags":[],"scores":[],"parent":null}"#).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Full, 9));

    let mut post = Post { title: String::with_capacity(8), ..Post::default() };
    let e = json::from_slice_into(&mut post, br#"{"title":"","tags":[],"scores":[1],"parent":null}"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Full);
}

#[test]
fn vec_elements_reuse_their_own_memory() {
    let mut post = Post { tags: vec![String::with_capacity(8), String::with_capacity(8)], ..Post::default() };
    json::from_slice_into(&mut post, br#"{"title":"","tags":["rust","json"],"scores":[],"parent":null}"#).unwrap();
    assert_eq!(post.tags, ["rust", "json"]);
    json::from_slice_into(&mut post, br#"{"title":"","tags":["x"],"scores":[],"parent":null}"#).unwrap();
    assert_eq!(post.tags, ["x"]);
}

#[test]
fn option_box_decodes_into_the_pointee() {
    let inner = Post { title: String::with_capacity(8), ..Post::default() };
    let mut post = Post { parent: Some(Box::new(inner)), ..Post::default() };
    let before = post.parent.as_deref().map(|p| p as *const Post);
    let input = br#"{"title":"","tags":[],"scores":[],"parent":{"title":"up","tags":[],"scores":[],"parent":null}}"#;
    json::from_slice_into(&mut post, input).unwrap();
    assert_eq!(post.parent.as_ref().unwrap().title, "up");
    assert_eq!(post.parent.as_deref().map(|p| p as *const Post), before, "same box");

    let mut empty = Post::default();
    let e = json::from_slice_into(&mut empty, input).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Full);
}

#[derive(WriteJson, ReadJson, Debug, PartialEq)]
struct Generic<'a, T> {
    items: [T; 2],
    label: &'a str,
}

#[test]
fn generic_and_borrowing_types() {
    let g = Generic { items: [1u8, 2], label: "l" };
    assert_eq!(encode(&g), r#"{"items":[1,2],"label":"l"}"#);
    let back: Generic<u8> = json::from_slice(br#"{"label":"l","items":[1,2]}"#).unwrap();
    assert_eq!(back, g);
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Note<'a> {
    #[serde(borrow)]
    text: std::borrow::Cow<'a, str>,
}

#[test]
fn cow_fields_borrow_the_input_or_the_arena() {
    let mut mem = [0u8; 16];
    let input = br#"{"text":"tab\there"}"#;
    let mut r = json::Reader::new(input).with_arena(json::Arena::new(&mut mem));
    let note: Note = r.read().unwrap();
    assert!(matches!(note.text, std::borrow::Cow::Borrowed("tab\there")));
    assert_eq!(encode(&note), serde_json::to_string(&note).unwrap());
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "snake_case")]
enum Event<'a> {
    Started,
    Progress(u8),
    Moved(i32, i32),
    Renamed {
        #[serde(rename = "from")]
        old: &'a str,
        new: &'a str,
        #[serde(default)]
        count: u16,
    },
}

#[test]
fn enums_with_data_are_externally_tagged_like_serde() {
    let events =
        [Event::Started, Event::Progress(42), Event::Moved(-1, 2), Event::Renamed { old: "a", new: "b", count: 3 }];
    for e in &events {
        let ours = encode(e);
        assert_eq!(ours, serde_json::to_string(e).unwrap());
        assert_eq!(&json::from_slice::<Event>(ours.as_bytes()).unwrap(), e, "{ours}");
    }
    assert_eq!(encode(&events[3]), r#"{"renamed":{"from":"a","new":"b","count":3}}"#);
    for input in [r#"{"started":null}"#, r#"{"renamed":{"new":"y","from":"x"}}"#, r#" { "moved" : [ 5 , 6 ] } "#] {
        let ours = json::from_slice::<Event>(input.as_bytes()).unwrap();
        let theirs: Event = serde_json::from_str(input).unwrap();
        assert_eq!(ours, theirs, "{input}");
    }
    for input in [r#""progress""#, r#"{"nope":1}"#, r#"{"progress":1,"started":null}"#, r#"{}"#] {
        assert!(json::from_slice::<Event>(input.as_bytes()).is_err(), "{input}");
        assert!(serde_json::from_str::<Event>(input).is_err(), "{input}");
    }
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq, Default)]
#[serde(transparent)]
struct Speed {
    value: f64,
    #[serde(skip)]
    cached: u8,
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
#[serde(rename_all = "kebab-case", rename_all_fields = "camelCase")]
enum Command {
    MoveTo {
        target_x: i32,
        target_y: i32,
    },
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    SetSpeed {
        meters_per_second: Speed,
    },
    #[serde(skip_serializing)]
    Legacy,
    #[serde(skip_deserializing)]
    Internal,
    #[serde(other)]
    Unknown,
}

/// Each implemented serde key, checked against serde_json on the same type.
#[test]
fn serde_shape_attributes_match_serde_json() {
    let same_encoding = [
        Command::MoveTo { target_x: 1, target_y: -2 },
        Command::SetSpeed { meters_per_second: Speed { value: 2.5, cached: 0 } },
        Command::Internal,
    ];
    for c in &same_encoding {
        assert_eq!(encode(c), serde_json::to_string(c).unwrap());
    }
    assert_eq!(encode(&Speed { value: 1.5, cached: 9 }), "1.5");
    assert_eq!(encode(&same_encoding[0]), r#"{"move-to":{"targetX":1,"targetY":-2}}"#);
    assert_eq!(encode(&same_encoding[1]), r#"{"set-speed":{"METERS_PER_SECOND":2.5}}"#);

    // A skipped variant cannot be written: an error, as serde's.
    let mut buf = [0u8; 64];
    assert_eq!(json::to_slice(&Command::Legacy, &mut buf).unwrap_err().kind(), ErrorKind::Custom);
    assert!(serde_json::to_string(&Command::Legacy).is_err());

    let inputs = [
        r#"{"move-to":{"targetX":3,"targetY":4}}"#,
        r#"{"set-speed":{"METERS_PER_SECOND":7}}"#,
        r#""legacy""#,
        r#""internal""#,
        r#""teleport""#,
        r#"{"teleport":null}"#,
        r#"{"teleport":1}"#,
    ];
    for input in inputs {
        let ours = json::from_slice::<Command>(input.as_bytes());
        let theirs = serde_json::from_str::<Command>(input);
        assert_eq!(ours.as_ref().ok(), theirs.as_ref().ok(), "{input}");
    }
    assert_eq!(json::from_slice::<Command>(br#""internal""#).unwrap(), Command::Unknown);
    assert_eq!(json::from_slice::<Speed>(b"4").unwrap(), Speed { value: 4.0, cached: 0 });
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Triple(u8, #[serde(skip)] u8, u8);

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
enum Shape {
    Pair(u8, #[serde(skip)] u8, u8),
    Half(#[serde(skip_serializing)] u8, u8),
    Other(#[serde(skip_deserializing)] u8, u8, u8),
}

/// The skip family on unnamed fields, as serde does it: a skipped field is not in
/// the array and decodes to its default.
#[test]
fn skips_on_tuple_fields_match_serde() {
    let same = |value: &dyn Fn() -> String, theirs: String| assert_eq!(value(), theirs);
    let t = Triple(1, 2, 3);
    same(&|| encode(&t), serde_json::to_string(&t).unwrap());
    assert_eq!(encode(&t), "[1,3]");
    assert_eq!(json::from_slice::<Triple>(b"[1,3]").unwrap(), Triple(1, 0, 3));
    assert_eq!(serde_json::from_slice::<Triple>(b"[1,3]").unwrap(), Triple(1, 0, 3));
    assert_eq!(json::from_slice::<Triple>(b"[1,2,3]").unwrap_err().kind(), ErrorKind::InvalidType);
    let mut place = Triple(9, 9, 9);
    json::from_slice_into(&mut place, b"[1,3]").unwrap();
    assert_eq!(place, Triple(1, 9, 3), "into: the skipped field is left alone");
    for shape in [Shape::Pair(1, 2, 3), Shape::Half(1, 2), Shape::Other(1, 2, 3)] {
        same(&|| encode(&shape), serde_json::to_string(&shape).unwrap());
    }
    for input in [&br#"{"Pair":[1,3]}"#[..], br#"{"Half":[1,2]}"#, br#"{"Other":[2,3]}"#] {
        let ours = json::from_slice::<Shape>(input).unwrap();
        assert_eq!(ours, serde_json::from_slice::<Shape>(input).unwrap());
    }
}

#[derive(WriteJson, ReadJson, serde::Serialize, serde::Deserialize, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
struct Leading {
    _id: u8,
    __kind: u8,
    r#type: u8,
    naïve_élan: u8,
}

#[derive(WriteJson, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct Pascal {
    _id: u8,
    élan_vital: u8,
}

/// `rename_all` uses serde's ASCII rules: `_id` becomes `id` in camelCase, and
/// non-ASCII letters keep their case.
#[test]
fn rename_all_matches_serde_for_leading_underscores_and_non_ascii() {
    let v = Leading { _id: 1, __kind: 2, r#type: 3, naïve_élan: 4 };
    assert_eq!(encode(&v), serde_json::to_string(&v).unwrap());
    let p = Pascal { _id: 1, élan_vital: 2 };
    assert_eq!(encode(&p), serde_json::to_string(&p).unwrap());
}

mod reexport {
    pub use ::json as json_again;
}

/// `#[json(crate = "..")]` names the path the derived code uses for the crate.
#[derive(WriteJson, ReadJson, Debug, PartialEq)]
#[json(crate = "reexport::json_again")]
struct ThroughAReexport {
    n: u8,
}

#[test]
fn crate_path_is_honoured() {
    let v = ThroughAReexport { n: 5 };
    assert_eq!(encode(&v), r#"{"n":5}"#);
    assert_eq!(json::from_slice::<ThroughAReexport>(br#"{"n":5}"#).unwrap(), v);
}
