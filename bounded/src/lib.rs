#![doc = include_str!("../README.md")]
#![warn(missing_docs, unsafe_op_in_unsafe_fn)]

pub mod alloctest;
mod buf;
mod classes;
pub mod escape;
pub mod map;
mod pool;
mod region;
mod slice;
mod sync;
mod vec;

pub use buf::{Buf, Int};
pub use classes::{Classes, Doubling};
pub use map::Map;
pub use pool::{Cancel, Chunk, Chunks, Pool, Reservation, Stats};
pub use region::Region;
pub use slice::Slice;
pub use vec::{Vec, MAX_CHUNKS};
