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
    case("precision::iterators::zip_fold", count(|| keep(iterators::zip_fold(&u, &u[1..]))));
    case("precision::iterators::zip_chunks", count(|| keep(iterators::zip_chunks(&bytes))));
    case("precision::iterators::zeroed_allocates", count(|| keep(iterators::zeroed_allocates(16))));
    case("precision::iterators::extend_allocates", count(|| keep(iterators::extend_allocates(&u))));

    // builtin_impls
    let pair = (7u32, String::from("seven"));
    let strings = [String::from("a"), String::from("b")];
    let mut taken = vec![1u8, 2, 3];
    case("precision::builtin_impls::clone_pair", count(|| keep(builtin_impls::clone_pair(&(-1, 1)))));
    case("precision::builtin_impls::clone_pair_allocates", count(|| keep(builtin_impls::clone_pair_allocates(&pair))));
    case("precision::builtin_impls::clone_optional_pair", count(|| keep(builtin_impls::clone_optional_pair(&Some((1, 'x'))))));
    case("precision::builtin_impls::clone_closure", count(|| keep(builtin_impls::clone_closure(5))));
    case("precision::builtin_impls::clone_closure_allocates", count(|| keep(builtin_impls::clone_closure_allocates(&mut taken))));
    case("precision::builtin_impls::clone_array", count(|| keep(builtin_impls::clone_array(&[3; 16]))));
    case("precision::builtin_impls::clone_array_allocates", count(|| keep(builtin_impls::clone_array_allocates(&strings))));
    case("precision::builtin_impls::fn_item_as_closure", count(|| keep(builtin_impls::fn_item_as_closure(&signed))));
    case("precision::builtin_impls::local_pointer", count(|| keep(builtin_impls::local_pointer())));
    case("precision::builtin_impls::local_pointer_allocates", count(|| keep(builtin_impls::local_pointer_allocates())));
    case("precision::builtin_impls::local_closure_pointer", count(|| keep(builtin_impls::local_closure_pointer(&u))));

    // generic_roots
    let squares = [generic_roots::Square(3), generic_roots::Square(4)];
    let labels = [generic_roots::Label(12345)];
    case("precision::generic_roots::total_area", count(|| keep(generic_roots::total_area(&squares))));
    case("precision::generic_roots::total_area_allocates", count(|| keep(generic_roots::total_area_allocates(&labels))));

    for (name, n) in out {
        println!("{name}\t{n}");
    }
}
