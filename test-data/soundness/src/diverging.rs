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
