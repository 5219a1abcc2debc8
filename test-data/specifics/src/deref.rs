//! `Deref`/`DerefMut`, explicit and through auto-deref.
use std::ops::Deref;

pub struct Name(pub String);

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

pub struct Noisy;

impl Deref for Noisy {
    type Target = str;
    fn deref(&self) -> &str {
        Box::leak(String::from("noisy").into_boxed_str())
    }
}

// noalloc:root
pub fn auto_deref_clean(n: &Name) -> usize {
    n.len()
}

// noalloc:root
pub fn auto_deref_allocates(n: &Noisy) -> usize {
    n.len()
}

// noalloc:root
pub fn explicit_deref_allocates(n: &Noisy) -> usize {
    let s: &str = &**n;
    s.len()
}
