//! The allocation count of a call (with `bounded`'s per-thread counting allocator,
//! so parallel tests do not disturb each other) and the zero-allocation checks of
//! encode and decode.

use bounded::alloctest;

/// The binary's global allocator: `bounded`'s per-thread counting allocator.
pub type Counting = alloctest::Counting;

/// Allocations made on this thread by `f`.
pub fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    // A count of zero means something only if the counting allocator is in place.
    assert!(alloctest::installed(), "the counting allocator is not the global allocator");
    let before = alloctest::allocations();
    let r = f();
    (r, alloctest::allocations() - before)
}

mod zero {
    //! Encode and decode allocate nothing, the first call included.

    use super::allocations;
    use json::{ReadJson, WriteJson};

    #[derive(WriteJson, ReadJson, Debug, PartialEq, Clone)]
    struct Order {
        id: u64,
        customer: String,
        lines: Vec<Line>,
        note: Option<Box<Line>>,
        total: f64,
    }

    #[derive(WriteJson, ReadJson, Debug, PartialEq, Clone)]
    struct Line {
        sku: String,
        qty: u32,
    }

    #[derive(WriteJson, ReadJson, Debug, PartialEq)]
    struct View<'a> {
        id: u64,
        customer: &'a str,
        lines: [LineView<'a>; 2],
        total: f64,
    }

    #[derive(WriteJson, ReadJson, Debug, PartialEq)]
    struct LineView<'a> {
        sku: &'a str,
        qty: u32,
    }

    const INPUT: &[u8] = br#"{"id":42,"customer":"Zo\u00eb \"Z\"","lines":[{"sku":"A-1","qty":2},{"sku":"B\/2","qty":1}],"note":{"sku":"gift","qty":1},"total":19.5}"#;

    fn order() -> Order {
        let line = |sku: &str, qty| Line { sku: sku.to_owned(), qty };
        Order {
            id: 42,
            customer: "Zoë \"Z\"".into(),
            lines: vec![line("A-1", 2), line("B/2", 1)],
            note: Some(Box::new(line("gift", 1))),
            total: 19.5,
        }
    }

    #[test]
    fn encode_allocates_nothing() {
        let o = order();
        let mut buf = [0u8; 64];
        let mut out = [0u8; 512];
        let mut sink = &mut out[..];
        let (r, count) = allocations(|| {
            let mut w = json::Writer::with_sink(&mut buf, &mut sink);
            o.write_json(&mut w);
            w.flush()
        });
        r.unwrap();
        assert_eq!(count, 0);
    }

    #[test]
    fn decode_into_reused_value_allocates_nothing() {
        let mut place = order();
        place.customer.clear();
        place.lines[1].sku.clear();
        let (r, count) = allocations(|| json::from_slice_into(&mut place, INPUT));
        r.unwrap();
        assert_eq!(count, 0);
        assert_eq!(place, order());
    }

    #[test]
    fn borrowed_decode_with_arena_allocates_nothing() {
        let mut mem = [0u8; 64];
        let (v, count) = allocations(|| {
            let mut r = json::Reader::new(INPUT).with_arena(json::Arena::new(&mut mem));
            let v: View = r.read()?;
            r.finish().map(|()| v)
        });
        assert_eq!(count, 0);
        let v = v.unwrap();
        assert_eq!(v.customer, "Zoë \"Z\"");
        assert_eq!(v.lines[1], LineView { sku: "B/2", qty: 1 });
    }

    #[test]
    fn errors_allocate_nothing() {
        let mut place = order();
        let (r, count) =
            allocations(|| json::from_slice_into(&mut place, br#"{"id":1,"customer":"x","lines":[{"sku":1}]}"#));
        assert_eq!(count, 0);
        assert_eq!(r.unwrap_err().kind(), json::ErrorKind::InvalidType);
    }

    /// The same order with the types that keep memory a smaller document did not use.
    #[derive(WriteJson, ReadJson, Debug, PartialEq)]
    struct KeptOrder {
        id: u64,
        customer: String,
        lines: json::Items<Line>,
        note: json::Nullable<Box<Line>>,
        total: f64,
    }

    const SMALL: &[u8] = br#"{"id":1,"customer":"z","lines":[{"sku":"a","qty":1}],"note":null,"total":1}"#;

    #[test]
    fn reuse_does_not_depend_on_history() {
        let o = order();
        let mut place = KeptOrder {
            id: 0,
            customer: String::with_capacity(32),
            lines: json::Items::from(o.lines.clone()),
            note: json::Nullable::from(o.note.clone()),
            total: 0.0,
        };
        for (input, lines) in [(INPUT, 2), (SMALL, 1), (INPUT, 2)] {
            let (r, count) = allocations(|| json::from_slice_into(&mut place, input));
            r.unwrap();
            assert_eq!((count, place.lines.len()), (0, lines));
        }
        assert_eq!(place.note.get().map(|line| line.sku.as_str()), Some("gift"));
        assert_eq!(&place.lines[..], &o.lines[..]);

        // `Vec` and `Option<Box<_>>` give memory back at the small document, so the
        // large one after it no longer fits.
        let mut plain = order();
        json::from_slice_into(&mut plain, SMALL).unwrap();
        let e = json::from_slice_into(&mut plain, INPUT).unwrap_err();
        assert_eq!(e.kind(), json::ErrorKind::Full);
    }
}
