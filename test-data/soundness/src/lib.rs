//! Soundness fixture: one module per rule of SPEC's "Soundness" and "Rust
//! specifics" that an engine could get silently wrong. Each module has roots that
//! must be flagged and clean twins that must pass; `examples/oracle.rs` runs them all.
pub mod allowances;
pub mod asyncs;
pub mod cache_keys;
pub mod counting;
pub mod diverging;
pub mod dispatch;
pub mod drops;
pub mod dyn_contexts;
pub mod dyns;
pub mod error_closures;
pub mod fn_pointers;
pub mod foreign;
pub mod known_values;
pub mod loggers;
pub mod refilled;
pub mod rooms;
pub mod settable;
pub mod temporaries;
pub mod unbound;
pub mod untyped;
pub mod unresolved;

pub use unresolved::private::Matcher;
