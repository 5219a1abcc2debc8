//! The compiler's own impls (`Clone` of tuples and closures, `Fn*` of fn items and
//! closures) are walked as the element-wise calls they are; a fn pointer whose only
//! source is an immutable local binding calls what the binding holds.

// noalloc:root
pub fn clone_pair(p: &(i32, u32)) -> (i32, u32) {
    p.clone()
}

// noalloc:root
pub fn clone_pair_allocates(p: &(u32, String)) -> (u32, String) {
    p.clone()
}

// noalloc:root
pub fn clone_optional_pair(p: &Option<(u8, char)>) -> Option<(u8, char)> {
    p.clone()
}

// noalloc:root
pub fn clone_closure(k: u32) -> u32 {
    let add = move |x: u32| x + k;
    let again = add.clone();
    again(1) + add(2)
}

// noalloc:root
pub fn clone_closure_allocates(v: &mut Vec<u8>) -> usize {
    let owned = std::mem::take(v);
    let give_back = move || owned;
    let copy = give_back.clone();
    *v = give_back();
    copy().len()
}

// noalloc:root
pub fn clone_array(a: &[u8; 16]) -> [u8; 16] {
    a.clone()
}

// noalloc:root
pub fn clone_array_allocates(a: &[String; 2]) -> [String; 2] {
    a.clone()
}

// noalloc:root
pub fn fn_item_as_closure(a: &[i32]) -> i32 {
    a.iter().copied().map(i32::abs).sum()
}

fn seven() -> usize {
    7
}

fn heap_len() -> usize {
    vec![1u8, 2, 3].len()
}

// noalloc:root
pub fn local_pointer() -> usize {
    // `heap_len`'s address is taken, but `f` can only be `seven`.
    std::hint::black_box::<fn() -> usize>(heap_len);
    let f: fn() -> usize = seven;
    f()
}

// noalloc:root
pub fn local_pointer_allocates() -> usize {
    std::hint::black_box::<fn() -> usize>(seven);
    let f: fn() -> usize = heap_len;
    f()
}

// noalloc:root
pub fn local_closure_pointer(a: &[u32]) -> u32 {
    let bump: fn(u32) -> u32 = |x| x + 1;
    a.iter().map(|&x| bump(x)).sum()
}
