//! The dynamic oracle: runs every root of this fixture under bounded's counting
//! allocator (unoptimised, after one warm-up call) and prints `root<TAB>allocations
//! per call`. The engine's tests hold its verdicts against these counts both ways.
use bounded::alloctest::{self, Counting};
use precision::*;

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations per call of `run`, after one warm-up call.
fn count(mut run: impl FnMut()) -> u64 {
    run();
    let mut total = 0;
    for _ in 0..3 {
        let before = alloctest::allocations();
        run();
        total += alloctest::allocations() - before;
    }
    total.div_ceil(3)
}

fn keep<T>(x: T) {
    std::hint::black_box(x);
}

fn main() {
    assert!(alloctest::installed());
    let mut out: Vec<(&str, u64)> = Vec::new();
    let mut case = |name: &'static str, n: u64| out.push((name, n));

    // iterators
    let a: Vec<i64> = (1..=9).collect();
    let u: Vec<u32> = (1..=12).collect();
    let bytes = [1u8, 2, 3, 3, 2, 1];
    let rows = [[1u8, 2, 3], [4, 5, 6]];
    let signed = [-7, 3, -2, 9];
    case("precision::iterators::dot", count(|| keep(iterators::dot(&a, &a))));
    case("precision::iterators::count_equal", count(|| keep(iterators::count_equal(&bytes, &bytes[1..]))));
    case("precision::iterators::chained_sum", count(|| keep(iterators::chained_sum(&u, &u))));
    case("precision::iterators::last_even", count(|| keep(iterators::last_even(&u))));
    case("precision::iterators::every_third", count(|| keep(iterators::every_third(&u))));
    case("precision::iterators::rising_pairs", count(|| keep(iterators::rising_pairs(&u))));
    case("precision::iterators::sum_of_chunks", count(|| keep(iterators::sum_of_chunks(&u))));
    case("precision::iterators::flat_sum", count(|| keep(iterators::flat_sum(&rows))));
    case("precision::iterators::largest", count(|| keep(iterators::largest(&signed))));
    case("precision::iterators::closest_to_zero", count(|| keep(iterators::closest_to_zero(&signed))));
    case("precision::iterators::collect_allocates", count(|| keep(iterators::collect_allocates(&u))));
    case("precision::iterators::str_to_string_allocates", count(|| keep(iterators::str_to_string_allocates("abc"))));
    case("precision::iterators::int_to_string_allocates", count(|| keep(iterators::int_to_string_allocates(12345))));
    case("precision::iterators::to_vec_allocates", count(|| keep(iterators::to_vec_allocates(&bytes))));
    case("precision::iterators::concat_allocates", count(|| keep(iterators::concat_allocates(&["a", "b"]))));

    for (name, n) in out {
        println!("{name}\t{n}");
    }
}
