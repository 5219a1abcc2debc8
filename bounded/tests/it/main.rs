//! Integration tests of `bounded`: one binary, a module per type. The binary counts
//! allocations with `alloctest::Counting`, so any test can assert that a path
//! allocates nothing. Built with `--cfg loom`, only the loom models run.

#[cfg(not(loom))]
#[global_allocator]
static ALLOC: bounded::alloctest::Counting = bounded::alloctest::Counting;

#[cfg(not(loom))]
mod alloc_table;
#[cfg(not(loom))]
mod alloctest;
#[cfg(not(loom))]
mod buf;
#[cfg(not(loom))]
mod escape;
#[cfg(loom)]
mod loom;
#[cfg(not(loom))]
mod map;
#[cfg(not(loom))]
mod pool;
#[cfg(not(loom))]
mod send;
#[cfg(not(loom))]
mod slice;
#[cfg(not(loom))]
mod vec;

/// Property-test settings: fewer cases under Miri, no failure files.
#[cfg(not(loom))]
fn proptest_config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: if cfg!(miri) { 4 } else { 256 },
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Counts drops of its values, to check containers drop what they hold.
#[cfg(not(loom))]
#[derive(Debug)]
struct Counted<'a>(&'a std::cell::Cell<usize>);

#[cfg(not(loom))]
impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

/// Counts its drops in `drops`, and panics in the drop of the one that is `armed`.
#[cfg(not(loom))]
struct PanicsOnDrop<'a> {
    armed: bool,
    drops: &'a std::cell::Cell<usize>,
}

#[cfg(not(loom))]
impl Drop for PanicsOnDrop<'_> {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
        if self.armed {
            panic!("an item's drop panics");
        }
    }
}
