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
