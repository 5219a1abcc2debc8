//! What a pattern leaves unbound is dropped where it is matched, when the value
//! is owned there: `_`, the fields `..` skips, the referent of a `ref` binding; in
//! `let`, `let .. else`, destructuring assignments, and the parameters of
//! functions and closures (std's `Iterator::count` folds with `|count, _|`). A
//! match guard's temporaries are dropped once it is decided. Matched through a
//! reference, or against a place, nothing is dropped there.
use crate::drops::{Calm, Noisy};

pub struct Holder {
    pub n: Noisy,
    pub k: u32,
}

pub struct Quiet {
    pub c: Calm,
    pub k: u32,
}

fn make_noisy(x: u32) -> Noisy {
    Noisy(x)
}

fn make_calm(x: u32) -> Calm {
    Calm(x)
}

fn make_holder(x: u32) -> Holder {
    Holder { n: Noisy(x), k: x }
}

// noalloc:root
pub fn assign_to_underscore(x: u32) -> u32 {
    _ = make_noisy(x);
    x
}

// noalloc:root
pub fn assign_to_underscore_calm(x: u32) -> u32 {
    _ = make_calm(x);
    x
}

// noalloc:root
pub fn destructuring_assignment_skips(x: u32) -> u32 {
    let y;
    (_, y) = (make_noisy(x), 1);
    y
}

// noalloc:root
pub fn let_tuple_skips(x: u32) -> u32 {
    let (a, _) = (x, make_noisy(x));
    a
}

// noalloc:root
pub fn let_tuple_skips_calm(x: u32) -> u32 {
    let (a, _) = (x, make_calm(x));
    a
}

// noalloc:root
pub fn let_ref_binding_of_temporary(x: u32) -> u32 {
    let (ref a, _) = (x, 1);
    let ref n = make_noisy(x);
    *a + n.value()
}

// noalloc:root
pub fn let_struct_rest(x: u32) -> u32 {
    let Holder { k, .. } = make_holder(x);
    k
}

// noalloc:root
pub fn let_else_skips(x: u32) -> u32 {
    let (Some(a), _) = (Some(x), make_noisy(x)) else { return 0 };
    a
}

fn ignore(_: Noisy) -> u32 {
    2
}

// noalloc:root
pub fn parameter_not_bound(x: u32) -> u32 {
    ignore(make_noisy(x))
}

fn keep_k(Holder { k, .. }: Holder) -> u32 {
    k
}

// noalloc:root
pub fn parameter_rest(x: u32) -> u32 {
    keep_k(Holder { n: make_noisy(x), k: x })
}

// noalloc:root
pub fn closure_parameter_not_bound(x: u32) -> u32 {
    let f = |_: Noisy| 3u32;
    f(make_noisy(x))
}

pub trait Visitor {
    fn visit(&mut self, n: Noisy) -> u32;
}

pub struct Ignoring;

impl Visitor for Ignoring {
    fn visit(&mut self, _: Noisy) -> u32 {
        1
    }
}

// noalloc:root
pub fn trait_method_parameter_not_bound(x: u32) -> u32 {
    Ignoring.visit(make_noisy(x))
}

// noalloc:root
pub fn iterator_count(x: u32) -> usize {
    (0..2).map(|i| make_noisy(i + x)).count()
}

// noalloc:root
pub fn iterator_count_calm(x: u32) -> usize {
    (0..2).map(|i| make_calm(i + x)).count()
}

// Matched through a reference or against a place: nothing is dropped here.
// noalloc:root
pub fn rest_through_reference(h: &Holder) -> u32 {
    let Holder { k, .. } = h;
    let (ref n, _) = (h.n.value(), 0);
    *k + *n
}

// noalloc:root
pub fn rest_of_a_place(q: Quiet, h: &mut Holder) -> u32 {
    let Quiet { k, .. } = q;
    let Holder { ref n, .. } = *h;
    k + n.value()
}

// noalloc:root
pub fn match_guard_temporary(x: u32) -> u32 {
    match x {
        v if make_noisy(v).value() > 1 => 1,
        _ => 0,
    }
}

// noalloc:root
pub fn matches_guard_temporary(x: u32) -> bool {
    matches!(x, v if make_noisy(v).value() > 0)
}

// noalloc:root
pub fn match_guard_calm(x: u32) -> u32 {
    match x {
        v if make_calm(v).value() > 1 => 1,
        _ => 0,
    }
}
