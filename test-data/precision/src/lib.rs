//! Everyday allocation-free code and its allocating twins. Each module is one
//! topic; a clean root's twin carries the same name with `_allocates`.

pub mod buffered_io;
pub mod builtin_impls;
pub mod containers;
pub mod counting;
pub mod dispatch;
pub mod errors;
pub mod generic_roots;
pub mod iterators;
pub mod json_values;
pub mod shared_bytes;
pub mod sizes;
pub mod static_setup;
pub mod text;
#[cfg(target_arch = "x86_64")]
pub mod wide_simd;
