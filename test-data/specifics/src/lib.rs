//! Fixture crate: each module covers one item of SPEC.md's "Rust specifics".
#![allow(dead_code, clippy::all)]

pub mod closures;
pub mod containers;
pub mod deps;
pub mod deref;
pub mod directives;
pub mod drops;
pub mod exemptions;
pub mod first_use;
pub mod dyn_calls;
pub mod error_paths;
pub mod foreign;
pub mod formatting;
pub mod generics;
pub mod loops;
pub mod operators;
pub mod question_mark;
pub mod recursion;
pub mod reused;
