//! Drop glue: a value dropped at the end of its scope calls its type's `Drop` impl.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        let note = vec![0u8; 16];
        std::hint::black_box(note);
    }
}

pub struct Quiet(pub u32);

impl Drop for Quiet {
    fn drop(&mut self) {
        self.0 = 0;
    }
}

// noalloc:root
pub fn drop_guard() -> u32 {
    let _guard = Guard;
    1
}

// noalloc:root
pub fn drop_quiet() -> u32 {
    let q = Quiet(3);
    q.0
}

// noalloc:root
pub fn drop_vec_of_guards(v: Vec<Guard>) -> usize {
    v.len()
}
