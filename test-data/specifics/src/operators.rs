//! Operators resolve to their trait impls: `+`, `+=`, `[]`, unary `-`.
use std::ops::{Add, AddAssign, Index, Neg};

#[derive(Clone, Copy)]
pub struct Money(pub i64);

impl Add for Money {
    type Output = Money;
    fn add(self, other: Money) -> Money {
        Money(self.0 + other.0)
    }
}

pub struct Label(pub String);

impl Add for Label {
    type Output = Label;
    fn add(self, other: Label) -> Label {
        Label(self.0 + &other.0)
    }
}

impl Neg for Label {
    type Output = Label;
    fn neg(self) -> Label {
        Label(format!("-{}", self.0))
    }
}

pub struct Table([u32; 4]);

impl Index<usize> for Table {
    type Output = u32;
    fn index(&self, i: usize) -> &u32 {
        &self.0[i % 4]
    }
}

pub struct Leaky;

impl Index<usize> for Leaky {
    type Output = u32;
    fn index(&self, i: usize) -> &u32 {
        Box::leak(Box::new(i as u32))
    }
}

// noalloc:root
pub fn add_money(a: Money, b: Money) -> Money {
    a + b
}

// noalloc:root
pub fn add_labels(a: Label, b: Label) -> usize {
    (a + b).0.len()
}

// noalloc:root
pub fn string_add_assign(s: &mut String) {
    *s += "more";
}

// noalloc:root
pub fn int_add_assign(x: &mut u64) {
    *x += 1;
}

// noalloc:root
pub fn index_table(t: &Table) -> u32 {
    t[2]
}

// noalloc:root
pub fn index_leaky(t: &Leaky) -> u32 {
    t[2]
}

// noalloc:root
pub fn negate_label(l: Label) -> usize {
    (-l).0.len()
}
