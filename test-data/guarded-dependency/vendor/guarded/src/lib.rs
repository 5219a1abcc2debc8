//! A dependency that guards its own buffer, as std's and registry crates do: it
//! pushes only where a comparison proves room.

pub struct Log {
    entries: Vec<u32>,
}

impl Log {
    pub fn with_capacity(n: usize) -> Log {
        Log { entries: Vec::with_capacity(n) }
    }

    /// Records `x` if there is room; never allocates.
    pub fn record(&mut self, x: u32) -> bool {
        if self.entries.len() < self.entries.capacity() {
            self.entries.push(x);
            return true;
        }
        false
    }

    /// Records `x`, growing the buffer when it is full.
    pub fn record_anyway(&mut self, x: u32) {
        self.entries.push(x);
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// Something with an area, reached through `dyn Shape`.
pub trait Shape {
    fn area(&self) -> usize;
}

/// A shape whose area allocates.
pub struct Blob;

impl Shape for Blob {
    fn area(&self) -> usize {
        Vec::<u8>::with_capacity(64).capacity()
    }
}

/// Hands out a `Blob` as a `dyn Shape`. It calls nothing through `dyn` itself, so
/// its summary holds in any program; what it adds to the program (a `Blob` behind
/// `dyn Shape`) goes with the summary.
pub fn blob() -> &'static dyn Shape {
    &Blob
}

fn grow(n: usize) -> usize {
    vec![0u8; n].len()
}

/// Hands out the address of a function that allocates.
pub fn grower() -> fn(usize) -> usize {
    grow
}
