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

// A `dyn Any` from the caller: every type implements `Any` (a blanket impl), so
// any drop glue may stand behind it.
// noalloc:root
pub fn drop_any(a: Box<dyn std::any::Any>) -> bool {
    a.is::<u32>()
}

// A `dyn` of auto traits only, from the caller: any type may stand behind it.
// noalloc:root
pub fn drop_sendable(s: Box<dyn Send>) -> usize {
    std::mem::size_of_val(&*s)
}

// Only what this root coerces to `dyn Send` stands behind it: a `Noisy`.
// noalloc:root
pub fn drop_own_sendable(n: Box<Noisy>) -> u32 {
    let s: Box<dyn Send> = n;
    drop(s);
    0
}

// The same with a `Calm`, whose drop never allocates.
// noalloc:root
pub fn drop_own_sendable_calm(c: Box<Calm>) -> u32 {
    let s: Box<dyn Send> = c;
    drop(s);
    0
}

// Assigning to a place drops what it held.
// noalloc:root
pub fn reset(slot: &mut Option<Noisy>) {
    *slot = None;
}

// noalloc:root
pub fn reset_calm(slot: &mut Option<Calm>) {
    *slot = None;
}

// Each place of a destructuring assignment too.
// noalloc:root
pub fn replace_pair(pair: &mut (Noisy, u32)) {
    (pair.0, pair.1) = (Noisy(0), 0);
}

// A scrutinee's temporary is dropped when the match ends.
// noalloc:root
pub fn scrutinee_dropped(x: u32) -> u32 {
    match make_noisy(x).value() {
        0 => 1,
        n => n,
    }
}

// noalloc:root
pub fn scrutinee_calm(x: u32) -> u32 {
    match make_calm(x).value() {
        0 => 1,
        n => n,
    }
}

// A condition's temporary, once the condition is decided; `while` too.
// noalloc:root
pub fn condition_dropped(x: u32) -> u32 {
    let mut i = 0;
    while make_noisy(i).value() < x {
        i += 1;
    }
    i
}

// noalloc:root
pub fn if_let_dropped(x: u32) -> u32 {
    if let 3 = make_noisy(x).value() {
        1
    } else {
        0
    }
}

// A closure whose body is no block: its temporaries die when it returns.
// noalloc:root
pub fn closure_tail_dropped(x: u32) -> u32 {
    let f = |n: u32| make_noisy(n).value();
    f(x)
}

// What computes a returned value dies on the way out.
// noalloc:root
pub fn return_value_temporary(x: u32) -> u32 {
    if x > 100 {
        return 0;
    }
    return make_noisy(x).value();
}

// A `break` value's temporaries too.
// noalloc:root
pub fn break_value_temporary(x: u32) -> u32 {
    loop {
        break make_noisy(x).value();
    }
}

// An index computed from a temporary.
// noalloc:root
pub fn index_temporary(v: &[u32], x: u32) -> u32 {
    v[make_noisy(x).value() as usize % v.len()]
}

// A tuple made and never bound drops whole.
// noalloc:root
pub fn tuple_temporary(x: u32) -> u32 {
    (make_noisy(x), 1).1
}

// noalloc:root
pub fn tuple_temporary_calm(x: u32) -> u32 {
    (make_calm(x), 1).1
}

// An array repeat's initialiser is made once; its temporaries die then.
// noalloc:root
pub fn repeat_temporary(x: u32) -> usize {
    let a = [make_noisy(x).value(); 4];
    a.len()
}
