//! Everyday allocation-free code and its allocating twins. Each module is one
//! topic; a clean root's twin carries the same name with `_allocates`.

pub mod builtin_impls;
pub mod generic_roots;
pub mod iterators;
