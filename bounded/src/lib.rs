#![doc = include_str!("../README.md")]
#![warn(missing_docs, unsafe_op_in_unsafe_fn)]
// Without the default `std` feature: the containers over caller memory (`Vec`,
// `Map`, `Buf`), `Region` and the escapers, for targets with no heap. Pools (made
// by one allocation, waited on with a condvar), the pooled containers, writers and
// the counting allocator need `std`.
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "std")]
pub mod alloctest;
mod array_vec;
mod buf;
#[cfg(feature = "std")]
mod classes;
pub mod escape;
pub mod map;
#[cfg(feature = "std")]
mod pool;
mod region;
#[cfg(feature = "std")]
mod slice;
#[cfg(feature = "std")]
mod sync;
mod vec;

pub use array_vec::{ArrayVec, CapacityError};
pub use buf::{Buf, Int, NoSink, Sink};
#[cfg(feature = "std")]
pub use classes::{Classes, Doubling};
pub use map::{Entry, Map};
#[cfg(feature = "std")]
pub use pool::{Cancel, Chunk, Chunks, Pool, Reservation, Stats};
pub use region::Region;
#[cfg(feature = "std")]
pub use slice::Slice;
pub use vec::{Vec, VecIter, MAX_CHUNKS};
