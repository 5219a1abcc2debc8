//! Sizes the types decide (issue 47, items 1 and 2): std's allocation paths
//! branch on `T::IS_ZST`, `size_of::<T>() == 0`, `layout.size() == 0` or a
//! capacity of zero before they call the allocator, and at a concrete instance
//! (or with a constant argument) those are constants. Each clean root has a
//! twin that allocates (`_allocates`), run by the oracle with inputs that make it.

use std::collections::VecDeque;
use std::mem;

/// A strategy applied to each value; most carry no state.
pub trait Step {
    fn apply(&self, x: u64) -> u64;
}

/// A step with no state: a zero-sized type.
pub struct Double;

impl Step for Double {
    fn apply(&self, x: u64) -> u64 {
        x.wrapping_mul(2)
    }
}

/// A step with state.
pub struct Offset(pub u64);

impl Step for Offset {
    fn apply(&self, x: u64) -> u64 {
        x.wrapping_add(self.0)
    }
}

/// Boxing a unit struct allocates nothing: its layout has size 0.
// noalloc:root
pub fn boxed_stateless_step(x: u64) -> u64 {
    let step: Box<dyn Step> = Box::new(Double);
    step.apply(x)
}

/// A step with a field takes 8 bytes on the heap.
// noalloc:root
pub fn boxed_stateful_step_allocates(x: u64) -> u64 {
    let step: Box<dyn Step> = Box::new(Offset(x));
    step.apply(x)
}

/// A `Vec` of `()` (a count kept as a `Vec`) has room for `usize::MAX`
/// elements from the start, whatever capacity it is asked for.
// noalloc:root
pub fn unit_markers(n: usize) -> usize {
    let mut marks: Vec<()> = Vec::with_capacity(n);
    for _ in 0..n {
        marks.push(());
    }
    marks.len()
}

/// The same with words asks for `8 * n` bytes.
// noalloc:root
pub fn word_markers_allocates(n: usize) -> usize {
    let marks: Vec<u64> = Vec::with_capacity(n);
    marks.capacity()
}

/// `vec![(); n]` and a `VecDeque` of `()` too.
// noalloc:root
pub fn unit_queue(n: usize) -> usize {
    let queue: VecDeque<()> = VecDeque::with_capacity(n);
    queue.capacity().min(vec![(); n].len())
}

/// A queue of bytes asks for `n` of them.
// noalloc:root
pub fn byte_queue_allocates(n: usize) -> usize {
    let queue: VecDeque<u8> = VecDeque::with_capacity(n);
    queue.capacity()
}

/// No capacity asked for, none allocated: `with_capacity(0)` is `new()`.
// noalloc:root
pub fn empty_with_capacity() -> usize {
    let words: Vec<u64> = Vec::with_capacity(0);
    words.capacity()
}

/// One element is 8 bytes.
// noalloc:root
pub fn one_with_capacity_allocates() -> usize {
    let words: Vec<u64> = Vec::with_capacity(1);
    words.capacity()
}

/// The initial capacity of a configuration that has none.
pub const NO_PREALLOCATION: usize = 0;
/// The initial capacity of one that has some.
pub const PREALLOCATION: usize = 64;

/// A `const` capacity decides it as a literal does.
// noalloc:root
pub fn label_without_preallocation() -> usize {
    let label = String::with_capacity(NO_PREALLOCATION);
    label.capacity()
}

// noalloc:root
pub fn label_with_preallocation_allocates() -> usize {
    let label = String::with_capacity(PREALLOCATION);
    label.capacity()
}

/// A `String` fresh from `new()` has no capacity beyond its length:
/// `shrink_to_fit` has nothing to do.
// noalloc:root
pub fn shrink_fresh_label() -> usize {
    let mut label = String::new();
    label.shrink_to_fit();
    label.capacity()
}

/// One the caller grew is reallocated to its length.
// noalloc:root
pub fn shrink_given_label_allocates(label: &mut String) -> usize {
    label.shrink_to_fit();
    label.capacity()
}

/// What an element weighs.
pub trait Weight {
    fn weight(&self) -> u64;
}

impl Weight for () {
    fn weight(&self) -> u64 {
        1
    }
}

impl Weight for u8 {
    fn weight(&self) -> u64 {
        u64::from(*self) + 1
    }
}

/// Generic code that takes the zero-sized case apart, judged per instance.
fn scratch_total<T: Default + Clone + Weight>(n: usize) -> u64 {
    if mem::size_of::<T>() == 0 {
        return n as u64 * T::default().weight();
    }
    let scratch = vec![T::default(); n];
    scratch.iter().map(Weight::weight).sum()
}

/// Units: the branch that returns is the one that runs.
// noalloc:root
pub fn unit_scratch(n: usize) -> u64 {
    scratch_total::<()>(n)
}

/// Bytes: the other one, which allocates `n` of them.
// noalloc:root
pub fn byte_scratch_allocates(n: usize) -> u64 {
    scratch_total::<u8>(n)
}
