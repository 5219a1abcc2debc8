//! The rows of the allocation table: each a pair of ways to do the same thing,
//! measured with `alloctest::count`. Shared by the example and its test.

use std::fmt::Write as _;
use std::hint::black_box;

use bounded::{alloctest, Buf};

const RUNS: u32 = 10;

/// `(task, way, allocations per call)` for every row, measured now.
pub fn rows() -> Vec<(&'static str, &'static str, u64)> {
    let words = ["alpha", "beta", "gamma", "delta", "epsilon"];
    let n = black_box(1_234_567_u64);
    vec![
        (
            "join 5 words",
            "`+=` on String::new()",
            alloctest::count(RUNS, || {
                let mut s = String::new();
                for w in words {
                    s += w;
                }
                black_box(s);
            }),
        ),
        (
            "join 5 words",
            "String::with_capacity + push_str",
            alloctest::count(RUNS, || {
                let mut s = String::with_capacity(64);
                for w in words {
                    s.push_str(w);
                }
                black_box(s);
            }),
        ),
        (
            "format a line",
            "format!",
            alloctest::count(RUNS, || {
                black_box(format!("{} has {} items", words[0], n));
            }),
        ),
        (
            "format a line",
            "write! into a Buf",
            alloctest::count(RUNS, || {
                let mut mem = [0u8; 64];
                let mut buf = Buf::new(&mut mem);
                let _ = write!(buf, "{} has {} items", words[0], n);
                black_box(buf.bytes());
            }),
        ),
        (
            "integer to text",
            "to_string",
            alloctest::count(RUNS, || {
                black_box(n.to_string());
            }),
        ),
        (
            "integer to text",
            "Buf::write_int",
            alloctest::count(RUNS, || {
                let mut mem = [0u8; 20];
                let mut buf = Buf::new(&mut mem);
                buf.write_int(n);
                black_box(buf.bytes());
            }),
        ),
        (
            "10 pushes",
            "Vec::new()",
            alloctest::count(RUNS, || {
                let mut v = Vec::new();
                for i in 0..10u64 {
                    v.push(black_box(i));
                }
                black_box(v);
            }),
        ),
        (
            "10 pushes",
            "Vec::with_capacity(10)",
            alloctest::count(RUNS, || {
                let mut v = Vec::with_capacity(10);
                for i in 0..10u64 {
                    v.push(black_box(i));
                }
                black_box(v);
            }),
        ),
        (
            "10 pushes",
            "bounded::Vec over an array",
            alloctest::count(RUNS, || {
                let mut mem = [const { std::mem::MaybeUninit::uninit() }; 10];
                let mut v = bounded::Vec::new(&mut mem);
                for i in 0..10u64 {
                    v.push(black_box(i));
                }
                black_box(v.len());
            }),
        ),
        (
            "one value",
            "Box::new",
            alloctest::count(RUNS, || {
                black_box(Box::new(black_box(n)));
            }),
        ),
    ]
}

/// The rows as a Markdown table.
pub fn table() -> String {
    let mut out = String::from("| task | way | allocations per call |\n| --- | --- | ---: |\n");
    for (task, way, n) in rows() {
        let _ = writeln!(out, "| {task} | {way} | {n} |");
    }
    out
}
