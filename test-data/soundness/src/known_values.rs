//! Branches that constants decide (SPEC: "sizes the types decide"): a value is
//! known only while nothing can have changed it. A `let mut` or `&mut` place
//! holds what it was given until the code names it again, and never into a
//! loop or a closure; a mutable parameter and arithmetic are not followed; a
//! `break` out of a labelled block goes on after it. Each root that must be
//! flagged allocates; its clean twin does not.

use std::mem;

/// No capacity: what a configuration without one asks for.
pub const NONE: usize = 0;

/// Swapped with the caller's grown label before it is shrunk: not fresh any more.
// noalloc:root
pub fn swapped_in_then_shrunk(other: &mut String) -> usize {
    let mut label = String::new();
    mem::swap(&mut label, other);
    label.shrink_to_fit();
    mem::swap(&mut label, other);
    label.capacity()
}

/// Shrunk while still fresh, then swapped: nothing to shrink.
// noalloc:root
pub fn shrunk_then_swapped(other: &mut String) -> usize {
    let mut label = String::new();
    label.shrink_to_fit();
    mem::swap(&mut label, other);
    mem::swap(&mut label, other);
    label.capacity()
}

/// The second pass shrinks what the first swapped in.
// noalloc:root
pub fn shrunk_in_a_loop(other: &mut String, passes: usize) -> usize {
    let mut label = String::new();
    for _ in 0..passes {
        label.shrink_to_fit();
        mem::swap(&mut label, other);
    }
    label.capacity()
}

/// A closure changed it before it is shrunk.
// noalloc:root
pub fn changed_by_a_closure(other: &mut String) -> usize {
    let mut label = String::new();
    {
        let mut take = |from: &mut String| mem::swap(&mut label, from);
        take(other);
    }
    label.shrink_to_fit();
    mem::swap(&mut label, other);
    label.capacity()
}

fn reserve_one_more(mut extra: usize) -> Vec<u8> {
    extra += 1;
    if extra == 0 { Vec::new() } else { Vec::with_capacity(extra) }
}

/// A mutable parameter is not followed: `extra` is 1 when it is tested.
// noalloc:root
pub fn mutable_parameter_changed() -> usize {
    reserve_one_more(NONE).capacity()
}

/// Nor is arithmetic: one more than none is one.
// noalloc:root
pub fn capacity_computed() -> usize {
    let none = NONE;
    let one = none + 1;
    Vec::<u8>::with_capacity(one).capacity()
}

/// A decided `break` out of a labelled block goes on after it.
// noalloc:root
pub fn break_out_of_a_labelled_block() -> usize {
    'decided: {
        if NONE == 0 {
            break 'decided;
        }
    }
    Vec::<u8>::with_capacity(4).capacity()
}

/// A decided `return` ends the function: what follows does not run.
// noalloc:root
pub fn return_before_the_allocation() -> usize {
    if NONE == 0 {
        return 0;
    }
    Vec::<u8>::with_capacity(4).capacity()
}

/// An arm with a guard before the one that matches leaves the match undecided.
// noalloc:root
pub fn guarded_arm_first(limit: usize) -> usize {
    match NONE {
        n if n < limit => Vec::<u8>::with_capacity(limit).capacity(),
        0 => 0,
        _ => 1,
    }
}
