//! Integration tests of `json`: one binary, one module per concern. The counting
//! allocator below is the global allocator of this binary, so any module can prove
//! that a call allocates nothing.

mod alloc_count;
mod conformance;
mod derive;
mod numbers;
mod props;
mod reader;
mod serde_bridge;
mod writer;

#[global_allocator]
static ALLOC: alloc_count::Counting = bounded::alloctest::Counting;
