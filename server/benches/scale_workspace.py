#!/usr/bin/env python3
"""Writes a synthetic cargo workspace of about LINES lines for server/benches/scale.sh.

Every module holds what real code holds: a trait with impls, a registry of
`Box<dyn Trait>` in a field, a boxed closure, a buffer guarded by a room proof,
string parsing, a generic function and a call that instantiates it, a chain of
helpers, and calls into real dependencies (memchr, smallvec). Roots stand in the first four modules only, so the reach is the same at
every size: what grows is the code no root reaches.

    scale_workspace.py DIR LINES
"""
import os
import sys

MODULE = '''//! Generated module {n}.

use smallvec::SmallVec;

pub trait Shape{n} {{
    fn area(&self) -> u64;
    fn name(&self) -> &'static str {{
        "shape"
    }}
}}

pub struct Square{n} {{
    pub side: u64,
}}

pub struct Label{n} {{
    pub text: String,
}}

impl Shape{n} for Square{n} {{
    fn area(&self) -> u64 {{
        self.side * self.side
    }}
}}

impl Shape{n} for Label{n} {{
    fn area(&self) -> u64 {{
        self.text.len() as u64
    }}
    fn name(&self) -> &'static str {{
        "label"
    }}
}}

pub struct Registry{n} {{
    pub shapes: Vec<Box<dyn Shape{n}>>,
    pub on_event: Option<Box<dyn Fn(u64) -> u64>>,
    pub buf: Vec<u64>,
    pub small: SmallVec<[u32; 8]>,
}}

impl Registry{n} {{
    pub fn new() -> Registry{n} {{
        Registry{n} {{
            shapes: vec![Box::new(Square{n} {{ side: 3 }}), Box::new(Label{n} {{ text: "x".to_owned() }})],
            on_event: Some(Box::new(|x| x + {n})),
            buf: Vec::with_capacity(64),
            small: SmallVec::new(),
        }}
    }}

{root}    pub fn total(&self) -> u64 {{
        self.shapes.iter().map(|s| s.area()).sum()
    }}

{root}    pub fn fire(&self, x: u64) -> u64 {{
        self.on_event.as_ref().map_or(x, |f| f(x))
    }}

{root}    pub fn record(&mut self, x: u64) -> bool {{
        if self.buf.len() < self.buf.capacity() {{
            self.buf.push(x);
            return true;
        }}
        false
    }}

    pub fn describe(&self) -> String {{
        format!("{{}} shapes, {{}} recorded", self.shapes.len(), self.buf.len())
    }}
}}

impl Default for Registry{n} {{
    fn default() -> Registry{n} {{
        Registry{n}::new()
    }}
}}

{root}pub fn parse{n}(s: &str) -> Option<u64> {{
    s.split(',').filter_map(|p| p.trim().parse::<u64>().ok()).max()
}}

{root}pub fn find{n}(haystack: &[u8]) -> Option<usize> {{
    memchr::memchr({byte}, haystack)
}}

{root}pub fn largest{n}<T: PartialOrd + Copy>(xs: &[T]) -> Option<T> {{
    let mut best = *xs.first()?;
    for &x in xs {{
        if x > best {{
            best = x;
        }}
    }}
    Some(best)
}}

pub fn largest_reading{n}(xs: &[u64]) -> Option<u64> {{
    largest{n}(xs)
}}

{helpers}
'''

HELPER = '''pub fn helper{n}_{k}(x: u64) -> u64 {{
    let y = x.wrapping_mul({mul}).rotate_left({rot});
    if y % 7 == 0 {{ helper{n}_{next}(y) }} else {{ y ^ {k} }}
}}
'''

LAST_HELPER = '''pub fn helper{n}_{k}(x: u64) -> u64 {{
    x.wrapping_add({k})
}}
'''


def module(n, helpers, rooted):
    root = "// noalloc:root\n" if rooted else ""
    parts = []
    for k in range(helpers):
        if k + 1 < helpers:
            parts.append(HELPER.format(n=n, k=k, next=k + 1, mul=2 * k + 3, rot=k % 63 + 1))
        else:
            parts.append(LAST_HELPER.format(n=n, k=k))
    text = MODULE.format(n=n, root=root, helpers="\n".join(parts), byte=ord("a") + n % 26)
    # Method roots are indented inside the impl.
    return text.replace("\n// noalloc:root\n    pub fn", "\n    // noalloc:root\n    pub fn")


def main():
    out, lines = sys.argv[1], int(sys.argv[2])
    helpers = 30
    per_module = module(0, helpers, True).count("\n")
    modules = max(4, round(lines / per_module))
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    with open(os.path.join(out, "Cargo.toml"), "w") as f:
        f.write('[package]\nname = "scale"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n\n'
                '[workspace]\n\n[dependencies]\nmemchr = "2"\nsmallvec = "1"\n')
    total = 0
    with open(os.path.join(out, "src", "lib.rs"), "w") as lib:
        lib.write("//! A generated workspace for the scale benchmark.\n\n")
        for n in range(modules):
            lib.write(f"pub mod m{n};\n")
            text = module(n, helpers, n < 4)
            total += text.count("\n")
            with open(os.path.join(out, "src", f"m{n}.rs"), "w") as f:
                f.write(text)
    print(f"{modules} modules, {total} lines")


if __name__ == "__main__":
    main()
