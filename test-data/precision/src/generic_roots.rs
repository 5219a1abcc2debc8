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
