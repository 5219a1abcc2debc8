//! Function pointers called outside the root: tables in statics, pointers in
//! parameters' fields, pointers passed down to helpers.

pub fn double(x: u32) -> u32 {
    x * 2
}

pub fn spelled_len(x: u32) -> u32 {
    x.to_string().len() as u32
}

pub static OPS: [fn(u32) -> u32; 2] = [double, spelled_len];

// noalloc:root
pub fn apply_ops(x: u32) -> u32 {
    let mut acc = x;
    for op in OPS.iter() {
        acc = op(acc);
    }
    acc
}

pub fn inc(x: u64) -> u64 {
    x + 1
}
pub fn dec(x: u64) -> u64 {
    x.saturating_sub(1)
}

pub static QUIET_OPS: [fn(u64) -> u64; 2] = [inc, dec];

// noalloc:root
pub fn apply_quiet_ops(x: u64) -> u64 {
    QUIET_OPS.iter().fold(x, |acc, op| op(acc))
}

fn call_twice(f: fn(i16) -> i16, x: i16) -> i16 {
    f(f(x))
}

fn boxed_square(x: i16) -> i16 {
    let b = Box::new(x);
    *b * *b
}

fn plain_square(x: i16) -> i16 {
    x.wrapping_mul(x)
}

// noalloc:root
pub fn helper_calls_pointer(x: i16) -> i16 {
    call_twice(boxed_square, x)
}

pub struct Callbacks {
    pub on_byte: fn(u8) -> usize,
}

// noalloc:root
pub fn call_from_param_field(cb: &Callbacks, b: u8) -> usize {
    (cb.on_byte)(b)
}

fn halve(x: i64) -> i64 {
    x / 2
}

// noalloc:root
pub fn local_pointer(x: i64) -> i64 {
    let f: fn(i64) -> i64 = halve;
    f(x)
}

// noalloc:root
pub fn quiet_square_through_helper(x: i16) -> i16 {
    call_twice(plain_square, x)
}

/// A table of one operation, kept in associated consts.
pub struct Op {
    pub run: fn(u32) -> u32,
}

pub struct Spelling;

impl Spelling {
    pub const OP: Op = Op { run: spelled_len };
}

// The associated const's fn pointer is in the program: `spelled_len` allocates.
// noalloc:root
pub fn apply_assoc_const_op(x: u32) -> u32 {
    (Spelling::OP.run)(x)
}

/// What a generic impl's const holds depends on its instance.
pub trait Pick {
    fn pick(x: u32) -> u32;
}

pub struct Quiet;
pub struct Loud;

impl Pick for Quiet {
    fn pick(x: u32) -> u32 {
        double(x)
    }
}

impl Pick for Loud {
    fn pick(x: u32) -> u32 {
        spelled_len(x)
    }
}

fn picked<T: Pick>(x: u32) -> u32 {
    T::pick(x)
}

pub struct Picked<T>(T);

impl<T: Pick> Picked<T> {
    pub const OP: Op = Op { run: picked::<T> };
}

// noalloc:root
pub fn apply_generic_const_quiet(x: u32) -> u32 {
    (Picked::<Quiet>::OP.run)(x)
}

// noalloc:root
pub fn apply_generic_const_loud(x: u32) -> u32 {
    (Picked::<Loud>::OP.run)(x)
}

/// A trait's associated const: the impl's, at the type the caller picks.
pub trait HasOp {
    const OP: fn(u32) -> u32;
}

impl HasOp for Quiet {
    const OP: fn(u32) -> u32 = double;
}

impl HasOp for Loud {
    const OP: fn(u32) -> u32 = spelled_len;
}

fn run_op<T: HasOp>(x: u32) -> u32 {
    (T::OP)(x)
}

// noalloc:root
pub fn apply_trait_const_quiet(x: u32) -> u32 {
    run_op::<Quiet>(x)
}

// noalloc:root
pub fn apply_trait_const_loud(x: u32) -> u32 {
    run_op::<Loud>(x)
}
