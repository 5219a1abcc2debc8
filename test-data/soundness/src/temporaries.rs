//! Temporaries the code does not bind: operands a comparison or an overloaded `*`
//! borrows, the value of a block, `if`, `match` or `loop` that is discarded or only
//! borrowed, and a `const` read (a fresh value each time). Each is dropped at the
//! end of its statement, and its drop glue runs there.
use std::cmp::Ordering;
use std::ops::Deref;

/// Allocates when dropped.
pub struct Loud(pub u32);
impl Drop for Loud {
    fn drop(&mut self) {
        let note = vec![self.0; 4];
        std::hint::black_box(note);
    }
}
impl PartialEq for Loud {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl PartialOrd for Loud {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.0.partial_cmp(&other.0)
    }
}
impl Deref for Loud {
    type Target = u32;
    fn deref(&self) -> &u32 {
        &self.0
    }
}

/// The same without drop glue.
pub struct Hushed(pub u32);
impl PartialEq for Hushed {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl PartialOrd for Hushed {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.0.partial_cmp(&other.0)
    }
}
impl Deref for Hushed {
    type Target = u32;
    fn deref(&self) -> &u32 {
        &self.0
    }
}

pub struct Pair {
    pub a: Loud,
    pub b: u32,
}

pub const LOUD: Loud = Loud(1);
pub const HUSHED: Hushed = Hushed(1);

#[inline(never)]
fn loud(n: u32) -> Loud {
    Loud(std::hint::black_box(n))
}

#[inline(never)]
fn hushed(n: u32) -> Hushed {
    Hushed(std::hint::black_box(n))
}

#[inline(never)]
fn coin() -> bool {
    std::hint::black_box(true)
}

// Comparison operands are borrowed (`PartialEq::eq(&self, &other)`) and dropped at
// the end of the statement.
// noalloc:root
pub fn eq_operands() -> bool {
    loud(1) == loud(2)
}

// noalloc:root
pub fn eq_operands_hushed() -> bool {
    hushed(1) == hushed(2)
}

// noalloc:root
pub fn lt_operands_in_while() -> u32 {
    let mut i = 0;
    while loud(i) < loud(2) {
        i += 1;
    }
    i
}

// noalloc:root
pub fn lt_operands_in_while_hushed() -> u32 {
    let mut i = 0;
    while hushed(i) < hushed(2) {
        i += 1;
    }
    i
}

// noalloc:root
pub fn asserted_comparison() -> u32 {
    assert!(loud(1) == loud(1));
    1
}

// noalloc:root
pub fn returned_comparison() -> bool {
    return loud(1) == loud(2);
}

// noalloc:root
pub fn closure_tail_comparison() -> bool {
    let c = || loud(1) == loud(2);
    c()
}

// noalloc:root
pub fn comparison_as_argument() -> bool {
    std::hint::black_box(loud(1) == loud(1))
}

// noalloc:root
pub fn comparison_in_field() -> u32 {
    struct Flag {
        b: bool,
    }
    let f = Flag { b: loud(1) == loud(1) };
    f.b as u32
}

// A field of a temporary compared: the temporary dies with the statement.
// noalloc:root
pub fn field_of_temporary_compared() -> bool {
    loud(1).0 == 1
}

// noalloc:root
pub fn field_of_temporary_compared_hushed() -> bool {
    hushed(1).0 == 1
}

// An overloaded `*` borrows its operand (`Deref::deref(&self)`).
// noalloc:root
pub fn deref_operand() -> u32 {
    *loud(5) + 1
}

// noalloc:root
pub fn deref_operand_hushed() -> u32 {
    *hushed(5) + 1
}

// noalloc:root
pub fn deref_operand_in_condition() -> u32 {
    if *loud(1) == 1 { 1 } else { 0 }
}

// The value of a block, `if`, `match`, `loop` or `unsafe` block that is discarded
// or only borrowed.
// noalloc:root
pub fn if_value_discarded() {
    let _ = if coin() { loud(1) } else { loud(2) };
}

// noalloc:root
pub fn if_value_discarded_hushed() {
    let _ = if coin() { hushed(1) } else { hushed(2) };
}

// noalloc:root
pub fn block_value_discarded() {
    {
        loud(1)
    };
}

// noalloc:root
pub fn match_value_discarded() {
    let _ = match coin() {
        true => loud(1),
        false => loud(2),
    };
}

// noalloc:root
pub fn loop_value_discarded() {
    loop {
        break loud(1);
    };
}

// noalloc:root
#[allow(unused_unsafe)]
pub fn unsafe_value_discarded() {
    let _ = unsafe { loud(1) };
}

// noalloc:root
pub fn labeled_block_discarded() {
    let _ = 'found: {
        if coin() {
            break 'found loud(1);
        }
        loud(2)
    };
}

// noalloc:root
pub fn field_of_if() -> u32 {
    (if coin() { Pair { a: loud(1), b: 2 } } else { Pair { a: loud(2), b: 3 } }).b
}

// noalloc:root
pub fn method_on_block() -> u32 {
    { loud(4) }.pow(1)
}

// noalloc:root
pub fn method_through_deref() -> u32 {
    loud(4).pow(1)
}

// noalloc:root
pub fn method_through_deref_hushed() -> u32 {
    hushed(4).pow(1)
}

// noalloc:root
pub fn borrowed_if() -> u32 {
    let r = &if coin() { loud(1) } else { loud(2) };
    r.0
}

// noalloc:root
pub fn block_scrutinee_field() -> u32 {
    match { loud(1) }.0 {
        1 => 1,
        _ => 0,
    }
}

// Moved into the return value, a returned field or a variant: dropped by
// whoever owns it then, not here.
// noalloc:root
pub fn if_value_returned() -> Loud {
    if coin() { loud(1) } else { loud(2) }
}

// noalloc:root
pub fn if_value_in_returned_field() -> Pair {
    Pair { a: if coin() { loud(1) } else { loud(2) }, b: 1 }
}

// noalloc:root
pub fn match_value_wrapped() -> Option<Loud> {
    Some(match coin() {
        true => loud(1),
        false => loud(2),
    })
}

// noalloc:root
#[allow(unused_braces)]
pub fn block_value_returned() -> Loud {
    { loud(3) }
}

// A binding its block returns is moved out, not dropped; one the block can leave
// before returning is dropped on that way out.
// noalloc:root
pub fn binding_returned() -> Loud {
    let kept = loud(4);
    std::hint::black_box(&kept);
    kept
}

// noalloc:root
pub fn binding_returned_after_an_early_return(early: bool) -> Loud {
    let kept = loud(5);
    if early {
        return loud(6);
    }
    kept
}

// A `const` read makes a fresh value, dropped like a temporary.
// noalloc:root
pub fn const_discarded() {
    let _ = LOUD;
}

// noalloc:root
pub fn const_field() -> u32 {
    LOUD.0
}

// noalloc:root
pub fn const_field_hushed() -> u32 {
    HUSHED.0
}

// noalloc:root
pub fn const_compared() -> bool {
    LOUD == LOUD
}

// noalloc:root
pub fn const_returned() -> Loud {
    LOUD
}

pub struct Beacon;
impl Drop for Beacon {
    fn drop(&mut self) {
        std::hint::black_box(vec![1u8; 2]);
    }
}

impl Loud {
    pub const SPARE: Loud = Loud(9);
}

// noalloc:root
pub fn associated_const_field() -> u32 {
    Loud::SPARE.0
}

// A unit struct named is a value made there.
// noalloc:root
pub fn unit_struct_discarded() {
    let _ = Beacon;
}

// `None` drops no `Loud`: a variant without fields.
// noalloc:root
pub fn compared_with_none(slot: &Option<Loud>) -> bool {
    *slot == None
}
