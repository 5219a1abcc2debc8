//! `-> !`: only the panic, abort and exit machinery (and functions that only call
//! it) is a panic path; a diverging function that does work first is checked.

fn fail(code: u32) -> ! {
    panic!("bad code {code}")
}

// noalloc:root
pub fn check_or_fail(x: u32) -> u32 {
    if x > 1000 {
        fail(x)
    }
    x + 1
}

/// Does work, then stops: diverges, but is not a panic path.
fn serve(limit: u32) -> ! {
    let mut i = 0;
    loop {
        let line = format!("request {i}");
        std::hint::black_box(line);
        i += 1;
        if i >= limit {
            panic!("served {limit}")
        }
    }
}

// noalloc:root
pub fn run_server(limit: u32) {
    serve(limit)
}

fn describe(x: u32) -> String {
    format!("value {x}")
}

// noalloc:root
pub fn panics_with_description(x: u32) -> u32 {
    if x > 1000 {
        panic!("{}", describe(x))
    }
    x
}

/// Allocates: three bytes on the heap.
fn heap_len() -> usize {
    std::hint::black_box(vec![1u8; 3]).len()
}

// A block that ends in a panic runs only on the way to it unless it can leave
// first: a `return`, `?`, `break` or `continue` in it makes it ordinary code.

// noalloc:root
pub fn body_returns_before_its_panic(xs: &[u32]) -> String {
    for x in xs {
        if *x == 3 {
            return format!("found {x}");
        }
    }
    panic!("not found")
}

// noalloc:root
pub fn branch_returns_before_its_panic(go: bool) -> usize {
    if go {
        let n = heap_len();
        if n == 3 {
            return n;
        }
        panic!("unreachable");
    }
    0
}

// noalloc:root
pub fn loop_breaks_before_its_panic() -> usize {
    let mut n = 0;
    loop {
        n += heap_len();
        if n > 0 {
            break;
        }
        panic!("never")
    }
    n
}

// noalloc:root
pub fn question_mark_before_the_panic(x: Option<u8>) -> Option<usize> {
    if x.is_none() {
        let n = heap_len();
        x?;
        std::hint::black_box(n);
        panic!("x was none")
    }
    Some(0)
}

// noalloc:root
pub fn closure_returns_before_its_panic() -> usize {
    let f = || {
        let n = heap_len();
        if n > 0 {
            return n;
        }
        panic!()
    };
    f()
}

// noalloc:root
pub fn message_built_only_to_panic(x: u32) -> u32 {
    if x > 1000 {
        let message = format!("too big: {x}");
        panic!("{message}")
    }
    x
}
