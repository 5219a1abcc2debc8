//! Everyday allocation-free code and its allocating twins. Each module is one
//! topic; a clean root's twin carries the same name with `_allocates`.

pub mod buffered_io;
pub mod containers;
pub mod errors;
pub mod iterators;
pub mod text;
