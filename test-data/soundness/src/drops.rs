//! Drops the code does not spell: statement temporaries, a `Box`'s contents, a
//! closure's captures, `Box<dyn Trait>`, elements of dropped collections.
use std::collections::HashMap;

pub struct Noisy(pub u32);
impl Drop for Noisy {
    fn drop(&mut self) {
        let note = vec![self.0; 8];
        std::hint::black_box(note);
    }
}
impl Noisy {
    pub fn value(&self) -> u32 {
        self.0
    }
}

pub struct Calm(pub u32);
impl Drop for Calm {
    fn drop(&mut self) {
        self.0 = 0;
    }
}
impl Calm {
    pub fn value(&self) -> u32 {
        self.0
    }
}

fn make_noisy(x: u32) -> Noisy {
    Noisy(x)
}

fn make_calm(x: u32) -> Calm {
    Calm(x)
}

// noalloc:root
pub fn temporary_dropped(x: u32) -> u32 {
    make_noisy(x).value() + 1
}

// noalloc:root
pub fn temporary_calm(x: u32) -> u32 {
    make_calm(x).value() + 1
}

// noalloc:root
pub fn drop_boxed(b: Box<Noisy>) -> u32 {
    let v = b.0;
    drop(b);
    v
}

// noalloc:root
pub fn drop_boxed_calm(b: Box<Calm>) -> u32 {
    let v = b.0;
    drop(b);
    v
}

// noalloc:root
pub fn closure_capture_dropped(n: Noisy) -> u32 {
    let read = move || n.value();
    read()
}

// noalloc:root
pub fn closure_capture_calm(c: Calm) -> u32 {
    let read = move || c.value();
    read()
}

pub trait Resource {
    fn id(&self) -> u32;
}
impl Resource for Noisy {
    fn id(&self) -> u32 {
        self.0
    }
}
impl Resource for Calm {
    fn id(&self) -> u32 {
        self.0
    }
}

// noalloc:root
pub fn drop_dyn(r: Box<dyn Resource>) -> u32 {
    r.id()
}

// noalloc:root
pub fn drop_map_of_noisy(m: HashMap<u32, Noisy>) -> usize {
    m.len()
}

// noalloc:root
pub fn drop_vec_of_strings(v: Vec<String>) -> usize {
    v.len()
}
