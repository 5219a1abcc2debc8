//! The directive language: roots on impls and modules, and malformed directives,
//! which are errors, never silently ignored.

pub struct Counter {
    pub hits: u64,
    pub names: Vec<String>,
}

// noalloc:root
impl Counter {
    pub fn hit(&mut self) {
        self.hits += 1;
    }

    pub fn remember(&mut self, name: &str) {
        self.names.push(name.to_owned());
    }
}

// noalloc:root
pub mod hot {
    pub fn clean() -> u32 {
        7
    }

    pub fn boxed() -> Box<u32> {
        Box::new(7)
    }
}

// noalloc:rooot
pub fn misspelled() {}

// noalloc:root
pub struct NotAFunction;

pub fn missing_reason() -> usize {
    let v = vec![1]; // noalloc:exempt debug
    v.len()
}
