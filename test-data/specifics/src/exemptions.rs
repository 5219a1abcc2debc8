//! Exemptions: `// noalloc:exempt <kind>: <reason>` trailing a line or alone above it.
//! They cover the line and what it calls; one that lets nothing through is an error.

fn log_line(msg: &str) -> usize {
    let line = format!("log: {msg}");
    line.len()
}

// noalloc:root
pub fn exempt_trailing() -> usize {
    let s = String::from("warm-up"); // noalloc:exempt measured: runs once per process
    s.len()
}

// noalloc:root
pub fn exempt_above_covers_callees(msg: &str) -> usize {
    // noalloc:exempt debug: logging is compiled out in release
    log_line(msg)
}

// noalloc:root
pub fn exempt_that_lets_nothing_through(x: u32) -> u32 {
    let y = x + 1; // noalloc:exempt measured: nothing here allocates
    y
}

// noalloc:root
pub fn line_only_kind_does_not_cover_callees(msg: &str) -> usize {
    String::from("p").len() + log_line(msg) // noalloc:exempt profiling: counted by the profiler
}
