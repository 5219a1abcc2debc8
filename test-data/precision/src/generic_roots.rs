//! A generic root is checked at each instantiation the workspace makes of it (here
//! the oracle's calls, and the helpers below).

pub trait Shape {
    fn area(&self) -> u32;
}

pub struct Square(pub u32);

impl Shape for Square {
    fn area(&self) -> u32 {
        self.0 * self.0
    }
}

/// A shape whose area is the number of digits of its label.
pub struct Label(pub u32);

impl Shape for Label {
    fn area(&self) -> u32 {
        self.0.to_string().len() as u32
    }
}

// noalloc:root
pub fn total_area<S: Shape>(shapes: &[S]) -> u32 {
    shapes.iter().map(Shape::area).sum()
}

pub fn squares(xs: &[Square]) -> u32 {
    total_area(xs)
}

// noalloc:root
pub fn total_area_allocates<S: Shape>(shapes: &[S]) -> u32 {
    shapes.iter().map(|s| s.area()).sum()
}

pub fn labels(xs: &[Label]) -> u32 {
    total_area_allocates(xs)
}

// Generic roots the workspace instantiates only under names other than their own:
// an import that renames one, a `use` inside a body, a macro of another module
// that writes the call, an operator that calls one without naming it. Clean at
// each instantiation; were one not found, its root would be reported as never
// instantiated.

// noalloc:root
pub fn halve_renamed<T: Into<u64>>(x: T) -> u64 {
    x.into() / 2
}

// noalloc:root
pub fn halve_in_block<T: Into<u64>>(x: T) -> u64 {
    x.into() / 2
}

// noalloc:root
pub fn halve_by_macro<T: Into<u64>>(x: T) -> u64 {
    x.into() / 2
}

macro_rules! halved {
    ($x:expr) => {
        $crate::generic_roots::halve_by_macro($x)
    };
}

/// A length that grows by whatever converts into one.
pub struct Meter(pub u64);

impl<T: Into<u64>> core::ops::Add<T> for Meter {
    type Output = Meter;

    // noalloc:root
    fn add(self, x: T) -> Meter {
        Meter(self.0 + x.into())
    }
}

pub mod callers {
    use super::halve_renamed as half;

    pub fn through_rename(x: u16) -> u64 {
        half(x)
    }

    pub fn through_block_use(x: u32) -> u64 {
        use super::halve_in_block as h;
        h(x)
    }

    pub fn through_macro(x: u8) -> u64 {
        halved!(x)
    }

    pub fn through_operator(m: super::Meter, x: u8) -> u64 {
        (m + x).0
    }
}
