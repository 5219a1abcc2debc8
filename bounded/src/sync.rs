//! The synchronisation primitives `Pool` is built on: std's, or loom's models of
//! them when built with `--cfg loom`. Nothing else in the crate synchronises.

#[cfg(loom)]
pub(crate) use loom::sync::{
    atomic::{AtomicU32, AtomicU64, AtomicUsize},
    Condvar, Mutex,
};
#[cfg(not(loom))]
pub(crate) use std::sync::{
    atomic::{AtomicU32, AtomicU64, AtomicUsize},
    Condvar, Mutex,
};
