//! Prints what allocates in everyday Rust and what does not, counted by
//! `bounded::alloctest`. `tests/it/alloc_table.rs` checks the printed table.
//!
//! Run: `cargo run -p bounded --example alloc_table`

mod rows;

#[global_allocator]
static ALLOC: bounded::alloctest::Counting = bounded::alloctest::Counting;

fn main() {
    print!("{}", rows::table());
}
