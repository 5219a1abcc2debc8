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

    // text
    let csv = "1, 2, x, 40";
    let mut fixed = text::Fixed::new();
    let mut bytes_mut = *b"hello";
    case("precision::text::count_words", count(|| keep(text::count_words("a bb  ccc"))));
    case("precision::text::find_key", count(|| keep(text::find_key("a=1; b = 2", "b"))));
    case("precision::text::has_prefix_ignoring_case", count(|| keep(text::has_prefix_ignoring_case("Content-Type", "content-"))));
    case("precision::text::position_of", count(|| keep(text::position_of("needle in haystack", "hay"))));
    case("precision::text::sum_fields", count(|| keep(text::sum_fields(csv))));
    case("precision::text::parse_float", count(|| keep(text::parse_float("3.25"))));
    case("precision::text::lines_longer_than", count(|| keep(text::lines_longer_than("a\nbbbb\ncc", 2))));
    case("precision::text::format_into_fixed", count(|| keep(text::format_into_fixed(&mut fixed, 7, 0.5))));
    case("precision::text::uppercase_in_place", count(|| text::uppercase_in_place(&mut bytes_mut)));
    case("precision::text::replace_allocates", count(|| keep(text::replace_allocates("a b"))));
    case("precision::text::split_collect_allocates", count(|| keep(text::split_collect_allocates("a,b"))));
    case("precision::text::format_allocates", count(|| keep(text::format_allocates(3))));
    case("precision::text::uppercase_allocates", count(|| keep(text::uppercase_allocates("abc"))));

    // errors
    let mut fixed = text::Fixed::new();
    case("precision::errors::parse_pair", count(|| keep(errors::parse_pair("12", "x4"))));
    case("precision::errors::parse_or_zero", count(|| keep(errors::parse_or_zero("1234567890"))));
    case("precision::errors::std_error_mapped", count(|| keep(errors::std_error_mapped("70000"))));
    case("precision::errors::describe", count(|| keep(errors::describe(errors::ParseError::TooLong { len: 12 }, &mut fixed))));
    case("precision::errors::first_error", count(|| keep(errors::first_error(&["1", "", "2"]))));
    case("precision::errors::error_to_string_allocates", count(|| keep(errors::error_to_string_allocates(errors::ParseError::Empty))));
    case("precision::errors::boxed_error_allocates", count(|| keep(errors::boxed_error_allocates("abc"))));

    for (name, n) in out {
        println!("{name}\t{n}");
    }
}
