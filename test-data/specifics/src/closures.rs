//! Closures: checked when called or passed to a generic, not when only defined.
//! Function pointers and `impl Fn`/`dyn Fn` parameters of a root have no known callee.

// noalloc:root
pub fn closure_defined_not_called() -> u32 {
    let _make = || String::from("never");
    1
}

// noalloc:root
pub fn closure_called() -> usize {
    let make = || String::from("called");
    make().len()
}

// noalloc:root
pub fn closure_in_map_clean(xs: &[u32]) -> u32 {
    xs.iter().map(|x| x * 2).sum()
}

// noalloc:root
pub fn closure_in_map_allocates(xs: &[u32]) -> usize {
    xs.iter().map(|x| x.to_string().len()).sum()
}

// noalloc:root
pub fn fn_pointer_param(f: fn(u32) -> u32) -> u32 {
    f(1)
}

// noalloc:root
pub fn impl_fn_param(f: impl Fn(u32) -> u32) -> u32 {
    f(2)
}

// noalloc:root
pub fn dyn_fn_param(f: &dyn Fn(u32) -> u32) -> u32 {
    f(3)
}

fn double(x: u32) -> u32 {
    x * 2
}

fn stringy(x: u32) -> u32 {
    x.to_string().len() as u32
}

fn apply(f: fn(u32) -> u32, x: u32) -> u32 {
    f(x)
}

// noalloc:root
pub fn fn_item_through_pointer_clean() -> u32 {
    apply(double, 3)
}

// noalloc:root
pub fn fn_item_through_pointer_allocates() -> u32 {
    apply(stringy, 3)
}
