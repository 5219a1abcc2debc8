//! `dyn Trait`: a known concrete type checks only its impl; otherwise every impl.
pub trait Shape {
    fn area(&self) -> f64;
}

pub struct Square(pub f64);

impl Shape for Square {
    fn area(&self) -> f64 {
        self.0 * self.0
    }
}

pub struct Blob;

impl Shape for Blob {
    fn area(&self) -> f64 {
        let samples = vec![1.0, 2.0];
        samples.iter().sum()
    }
}

// noalloc:root
pub fn known_square() -> f64 {
    let s: &dyn Shape = &Square(2.0);
    s.area()
}

// noalloc:root
pub fn known_blob() -> f64 {
    let s: &dyn Shape = &Blob;
    s.area()
}

// noalloc:root
pub fn unknown_shape(s: &dyn Shape) -> f64 {
    s.area()
}

// noalloc:root
pub fn boxed_closure() -> u32 {
    let f: Box<dyn Fn(u32) -> u32> = Box::new(|x| x + 1);
    f(1)
}
