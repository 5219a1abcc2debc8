//! Code that already allocates, as a team adopting noalloc finds it.

// noalloc:root
pub fn greet(name: &str) -> usize {
    let greeting = format!("hello {name}");
    greeting.len() + label(name)
}

fn label(name: &str) -> usize {
    let owned = String::from(name);
    owned.len()
}

// noalloc:root
pub fn warm_up() -> usize {
    let table = vec![0u8; 16]; // noalloc:exempt measured: runs once at start-up
    table.len()
}

// noalloc:root
pub fn traced(msg: &str) -> usize {
    // noalloc:exempt debug: tracing is compiled out in release
    trace(msg)
}

fn trace(msg: &str) -> usize {
    msg.to_owned().len()
}
