//! The dynamic oracle: runs every root of this fixture under bounded's counting
//! allocator (unoptimised, after one warm-up call) and prints `root<TAB>allocations
//! per call`. The engine's tests hold its verdicts against these counts both ways.
use bounded::alloctest::{self, Counting};
use precision::*;

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations per call of `run`, after one warm-up call (three calls counted).
fn count(run: impl FnMut()) -> u64 {
    alloctest::count(3, run)
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

    // dispatch
    let mut fixed = text::Fixed::new();
    let point = dispatch::Point { x: 3, y: -4 };
    let hay = b"a haystack with an x in it";
    case("precision::dispatch::write_next_to_format", count(|| keep(dispatch::write_next_to_format(&mut fixed, 42))));
    case("precision::dispatch::write_into_string_allocates", count(|| keep(dispatch::write_into_string_allocates(42))));
    case("precision::dispatch::pretty_debug_into_fixed", count(|| keep(dispatch::pretty_debug_into_fixed(&mut fixed, &point))));
    case("precision::dispatch::lookup_in_fresh_map", count(|| keep(dispatch::lookup_in_fresh_map(7))));
    case("precision::dispatch::insert_into_fresh_map_allocates", count(|| keep(dispatch::insert_into_fresh_map_allocates(7))));
    case("precision::dispatch::lookup_in_fresh_hashbrown", count(|| keep(dispatch::lookup_in_fresh_hashbrown(7))));
    case("precision::dispatch::insert_into_fresh_hashbrown_allocates", count(|| keep(dispatch::insert_into_fresh_hashbrown_allocates(7))));
    case("precision::dispatch::call_through_pointer", count(|| keep(dispatch::call_through_pointer(7))));
    case("precision::dispatch::call_through_pointer_allocates", count(|| keep(dispatch::call_through_pointer_allocates(7))));
    case("precision::dispatch::find_byte", count(|| keep(dispatch::find_byte(hay))));
    case("precision::dispatch::find_every_byte_allocates", count(|| keep(dispatch::find_every_byte_allocates(hay))));
    let text = b"a haystack with a needle and another needle in it, long enough for the vector routines to run";
    case("precision::dispatch::valid_utf8", count(|| keep(dispatch::valid_utf8(text))));
    case("precision::dispatch::valid_utf8_owned_allocates", count(|| keep(dispatch::valid_utf8_owned_allocates(text))));
    case("precision::dispatch::find_word", count(|| keep(dispatch::find_word(text))));
    case("precision::dispatch::find_every_word_allocates", count(|| keep(dispatch::find_every_word_allocates(text))));
    let finder = memchr::memmem::Finder::new(b"needle");
    case("precision::dispatch::count_with_finder", count(|| keep(dispatch::count_with_finder(&finder, text))));
    case("precision::dispatch::collect_with_finder_allocates", count(|| keep(dispatch::collect_with_finder_allocates(&finder, text))));
    case("precision::dispatch::log_without_logger", count(|| keep(dispatch::log_without_logger(7))));
    case("precision::dispatch::double_each", count(|| keep(dispatch::double_each(7))));
    case("precision::dispatch::spell_each_allocates", count(|| keep(dispatch::spell_each_allocates(7))));
    case("precision::dispatch::poll_sum", count(|| keep(dispatch::poll_sum(7))));
    case("precision::dispatch::poll_spelled_allocates", count(|| keep(dispatch::poll_spelled_allocates(7))));

    // generic_roots
    let squares = [generic_roots::Square(3), generic_roots::Square(4)];
    let labels = [generic_roots::Label(12345)];
    case("precision::generic_roots::total_area", count(|| keep(generic_roots::total_area(&squares))));
    case("precision::generic_roots::total_area_allocates", count(|| keep(generic_roots::total_area_allocates(&labels))));
    // Through the callers that name them otherwise (the only instantiations).
    case("precision::generic_roots::halve_renamed", count(|| keep(generic_roots::callers::through_rename(12))));
    case("precision::generic_roots::halve_in_block", count(|| keep(generic_roots::callers::through_block_use(34))));
    case("precision::generic_roots::halve_by_macro", count(|| keep(generic_roots::callers::through_macro(56))));
    case("precision::generic_roots::Meter::add", count(|| keep(generic_roots::callers::through_operator(generic_roots::Meter(7), 8))));

    // wide_simd
    #[cfg(target_arch = "x86_64")]
    {
        let avx512 = std::arch::is_x86_feature_detected!("avx512f");
        let mut lanes = [1i64, 2, 3, 4, 5, 6, 7, 8];
        case("precision::wide_simd::add_to_lanes", count(|| wide_simd::add_to_lanes(&mut lanes, 3, avx512)));
        case("precision::wide_simd::add_to_lanes_allocates", count(|| keep(wide_simd::add_to_lanes_allocates(&[1; 8], 3, avx512))));
    }

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
    case("precision::text::write_literal_into_fixed", count(|| keep(text::write_literal_into_fixed(&mut fixed))));
    case("precision::text::write_literal_into_string_allocates", count(|| keep(text::write_literal_into_string_allocates())));
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
    case("precision::errors::boxed_error_once", count(|| keep(errors::boxed_error_once("12345"))));
    case("precision::errors::boxed_errors_in_a_loop_allocate", count(|| keep(errors::boxed_errors_in_a_loop_allocate(&["12", "x", "3a"]))));
    case("precision::errors::error_in_a_binding_swallowed_allocates", count(|| keep(errors::error_in_a_binding_swallowed_allocates(42))));
    case("precision::errors::first_error", count(|| keep(errors::first_error(&["1", "", "2"]))));
    case("precision::errors::error_to_string_allocates", count(|| keep(errors::error_to_string_allocates(errors::ParseError::Empty))));
    case("precision::errors::boxed_error_allocates", count(|| keep(errors::boxed_error_allocates("abc"))));

    // json_values
    let mut json = [0u8; 32];
    case("precision::json_values::parse_count", count(|| keep(json_values::parse_count("4200000000"))));
    case("precision::json_values::parse_flag", count(|| keep(json_values::parse_flag(b" true ").is_ok())));
    case("precision::json_values::parse_pair", count(|| keep(json_values::parse_pair("[7, false]"))));
    case("precision::json_values::write_number", count(|| keep(json_values::write_number(&mut json, 1 << 40))));
    case("precision::json_values::write_pair", count(|| keep(json_values::write_pair(&mut json, 9, true))));
    case("precision::json_values::parse_escaped_name_allocates", count(|| keep(json_values::parse_escaped_name_allocates(r#""a\nb""#))));
    case("precision::json_values::parse_value_allocates", count(|| keep(json_values::parse_value_allocates(r#"{"a": 1}"#))));
    case("precision::json_values::parse_name_allocates", count(|| keep(json_values::parse_name_allocates(r#""name""#))));
    case("precision::json_values::parse_list_allocates", count(|| keep(json_values::parse_list_allocates("[1, 2]"))));
    case("precision::json_values::number_to_string_allocates", count(|| keep(json_values::number_to_string_allocates(42))));

    // shared_bytes: the twins get a fresh `Bytes` made from a `Vec` (promotable)
    // each call, made before the count.
    use bytes::Bytes;
    let mut stream = Bytes::from_static(&[7u8; 64]);
    let fresh = |n: usize| -> Vec<Bytes> { (0..n).map(|_| Bytes::from(vec![1u8; 16])).collect() };
    let (mut to_consume, mut to_split, to_clone) = (fresh(4), fresh(4), fresh(4));
    let mut clones = to_clone.iter();
    case("precision::shared_bytes::read_header", count(|| keep(shared_bytes::read_header(&mut stream))));
    case("precision::shared_bytes::peek_tag", count(|| keep(shared_bytes::peek_tag(&stream))));
    case("precision::shared_bytes::consume", count(|| keep(shared_bytes::consume(to_consume.pop().unwrap()))));
    case("precision::shared_bytes::split_header_allocates", count(|| { let mut b = to_split.pop().unwrap(); keep(shared_bytes::split_header_allocates(&mut b)); keep(b) }));
    case("precision::shared_bytes::clone_shared_allocates", count(|| keep(shared_bytes::clone_shared_allocates(clones.next().unwrap()))));

    // buffered_io: writers made with their capacity once, outside the measured call.
    use std::io::BufWriter;
    let null = || std::fs::OpenOptions::new().write(true).open("/dev/null").expect("/dev/null");
    let mut to_file = BufWriter::with_capacity(256, null());
    let mut to_sink = BufWriter::with_capacity(256, std::io::sink());
    let mut to_fixed = BufWriter::with_capacity(16, buffered_io::Fixed { bytes: [0; 64], len: 0 });
    let record = [7u8; 40];
    let file = null();
    case("precision::buffered_io::write_record", count(|| keep(buffered_io::write_record(&mut to_file, &record))));
    case("precision::buffered_io::write_parts", count(|| keep(buffered_io::write_parts(&mut to_sink, &record[..3], &record))));
    case("precision::buffered_io::write_number", count(|| keep(buffered_io::write_number(&mut to_sink, 4_000_000_007))));
    case("precision::buffered_io::write_through_fixed", count(|| keep(buffered_io::write_through_fixed(&mut to_fixed, &record))));
    case("precision::buffered_io::flush_records", count(|| keep(buffered_io::flush_records(&mut to_file))));
    case("precision::buffered_io::write_record_allocates", count(|| keep(buffered_io::write_record_allocates(&file, &record))));
    case(
        "precision::buffered_io::write_to_vec_allocates",
        count(|| {
            let mut out = Vec::new();
            keep(buffered_io::write_to_vec_allocates(&mut out, &record));
            keep(out);
        }),
    );

    // containers: the clean roots get containers with room (made outside the
    // measured call, emptied by it); the twins get full or empty ones.
    use bytes::BytesMut;
    use smallvec::SmallVec;
    let mut small: SmallVec<[u32; 8]> = SmallVec::new();
    case(
        "precision::containers::smallvec_push_with_room",
        count(|| {
            small.clear();
            keep(containers::smallvec_push_with_room(&mut small, 1));
        }),
    );
    case(
        "precision::containers::smallvec_insert_with_room",
        count(|| {
            small.clear();
            keep(containers::smallvec_insert_with_room(&mut small, 1));
        }),
    );
    let mut buf = BytesMut::with_capacity(64);
    case(
        "precision::containers::bytes_extend_with_room",
        count(|| {
            buf.clear();
            keep(containers::bytes_extend_with_room(&mut buf, &record));
        }),
    );
    let mut framed = BytesMut::with_capacity(64);
    case(
        "precision::containers::bytes_frame_with_room",
        count(|| {
            framed.clear();
            keep(containers::bytes_frame_with_room(&mut framed, &record[..8]));
        }),
    );
    let mut exact: Vec<BytesMut> = (0..4).map(|_| BytesMut::with_capacity(8)).collect();
    case(
        "precision::containers::bytes_frame_room_for_payload_allocates",
        count(|| {
            let mut out = exact.pop().unwrap();
            keep(containers::bytes_frame_room_for_payload_allocates(&mut out, &record[..8]));
            keep(out);
        }),
    );
    case(
        "precision::containers::bytes_put_with_room",
        count(|| {
            buf.clear();
            keep(containers::bytes_put_with_room(&mut buf, &record));
        }),
    );
    case(
        "precision::containers::bytes_put_u8_with_room",
        count(|| {
            buf.clear();
            keep(containers::bytes_put_u8_with_room(&mut buf, 1));
        }),
    );
    case(
        "precision::containers::bytes_reserve_with_room",
        count(|| {
            buf.clear();
            keep(containers::bytes_reserve_with_room(&mut buf, &record));
        }),
    );
    let mut map: indexmap::IndexMap<u32, u32> = indexmap::IndexMap::with_capacity(16);
    let mut key = 0;
    case(
        "precision::containers::indexmap_insert_with_room",
        count(|| {
            map.clear();
            key += 1;
            keep(containers::indexmap_insert_with_room(&mut map, key, key));
        }),
    );
    let mut fixed: heapless::Vec<u32, 8> = heapless::Vec::new();
    case(
        "precision::containers::heapless_push",
        count(|| {
            fixed.clear();
            keep(containers::heapless_push(&mut fixed, 1));
        }),
    );
    case(
        "precision::containers::smallvec_push_allocates",
        count(|| {
            let mut full: SmallVec<[u32; 2]> = SmallVec::from_slice(&[1, 2]);
            containers::smallvec_push_allocates(&mut full, 3);
            keep(full);
        }),
    );
    case("precision::containers::smallvec_local_allocates", count(|| keep(containers::smallvec_local_allocates(&u))));
    case(
        "precision::containers::smallvec_extend_room_for_one_allocates",
        count(|| {
            let mut almost: SmallVec<[u32; 4]> = SmallVec::from_slice(&[1, 2, 3]);
            containers::smallvec_extend_room_for_one_allocates(&mut almost, &u);
            keep(almost);
        }),
    );
    case(
        "precision::containers::bytes_put_allocates",
        count(|| {
            let mut empty = BytesMut::new();
            containers::bytes_put_allocates(&mut empty, &record);
            keep(empty);
        }),
    );
    case(
        "precision::containers::indexmap_insert_allocates",
        count(|| {
            let mut empty = indexmap::IndexMap::new();
            keep(containers::indexmap_insert_allocates(&mut empty, 1, 2));
            keep(empty);
        }),
    );
    let mut named: indexmap::IndexMap<containers::Name, u32> = indexmap::IndexMap::with_capacity(16);
    case(
        "precision::containers::indexmap_insert_hash_allocates",
        count(|| {
            named.clear();
            keep(containers::indexmap_insert_hash_allocates(&mut named, 7));
        }),
    );

    // counting
    case("precision::counting::thread_local_try_with", count(|| keep(counting::thread_local_try_with(3))));
    case("precision::counting::thread_local_try_with_allocates", count(|| keep(counting::thread_local_try_with_allocates(3))));
    case("precision::counting::thread_local_set_and_replace", count(|| keep(counting::thread_local_set_and_replace(3))));
    case("precision::counting::thread_local_set_allocates", count(|| keep(counting::thread_local_set_allocates(3))));
    case("precision::counting::asm_add_one", count(|| keep(counting::asm_add_one(3))));
    case("precision::counting::asm_call_allocates", count(counting::asm_call_allocates));
    // Room arithmetic: the clean roots get buffers with room (emptied by each call);
    // each twin gets a fresh buffer (made before the count) with room for exactly
    // what its proof says, and writes past it.
    let payload = [9u8; 8];
    let numbers: Vec<u32> = (0..32).collect();
    let mut bytes_out: Vec<u8> = Vec::with_capacity(64);
    let mut words: Vec<u32> = Vec::with_capacity(64);
    let mut small: smallvec::SmallVec<[u32; 16]> = smallvec::SmallVec::new();
    let mut name = String::with_capacity(32);
    let from = String::from("a name of some length");
    let mut fresh_bytes: Vec<Vec<u8>> = (0..8).map(|_| Vec::with_capacity(8)).collect();
    let fresh_words = |n: usize| -> Vec<Vec<u32>> { (0..8).map(|_| Vec::with_capacity(n)).collect() };
    let mut room_for_two = fresh_words(2);
    let mut room_for_one = fresh_words(1);
    let mut room_for_sixteen = fresh_words(16);
    let mut room_for_all = fresh_words(numbers.len());
    let mut short_names: Vec<String> = (0..8).map(|_| String::with_capacity(4)).collect();
    case("precision::counting::frame_with_room", count(|| { bytes_out.clear(); keep(counting::frame_with_room(&mut bytes_out, &payload)) }));
    case("precision::counting::frame_room_for_payload_allocates", count(|| { let mut out = fresh_bytes.pop().unwrap(); keep(counting::frame_room_for_payload_allocates(&mut out, &payload)); keep(out) }));
    case("precision::counting::two_pushes_with_room_for_two", count(|| { words.clear(); keep(counting::two_pushes_with_room_for_two(&mut words, 1)) }));
    case("precision::counting::three_pushes_with_room_for_two_allocates", count(|| { let mut v = room_for_two.pop().unwrap(); keep(counting::three_pushes_with_room_for_two_allocates(&mut v, 1)); keep(v) }));
    case("precision::counting::pushes_after_assert", count(|| { words.clear(); counting::pushes_after_assert(&mut words, 1) }));
    case("precision::counting::pushes_after_assert_for_one_allocates", count(|| { let mut v = room_for_one.pop().unwrap(); counting::pushes_after_assert_for_one_allocates(&mut v, 1); keep(v) }));
    case("precision::counting::pushes_after_debug_assert", count(|| { words.clear(); counting::pushes_after_debug_assert(&mut words, 1) }));
    case("precision::counting::pushes_after_debug_assert_for_one_allocates", count(|| { let mut v = room_for_one.pop().unwrap(); counting::pushes_after_debug_assert_for_one_allocates(&mut v, 1); keep(v) }));
    case("precision::counting::clone_name_with_room", count(|| { name.clear(); keep(counting::clone_name_with_room(&mut name, &from)) }));
    case("precision::counting::clone_name_allocates", count(|| { let mut short = short_names.pop().unwrap(); counting::clone_name_allocates(&mut short, &from); keep(short) }));
    case("precision::counting::push_first_sixteen", count(|| { words.clear(); keep(counting::push_first_sixteen(&mut words, &numbers)) }));
    case("precision::counting::push_first_seventeen_allocates", count(|| { let mut v = room_for_sixteen.pop().unwrap(); keep(counting::push_first_seventeen_allocates(&mut v, &numbers)); keep(v) }));
    case("precision::counting::push_each_with_room", count(|| { words.clear(); small.clear(); keep(counting::push_each_with_room(&mut words, &mut small, &numbers)) }));
    case("precision::counting::const_room_with_room", count(|| { bytes_out.clear(); keep(counting::const_room_with_room(&mut bytes_out)) }));
    case("precision::counting::push_by_index_with_room", count(|| { words.clear(); keep(counting::push_by_index_with_room(&mut words, &numbers)) }));
    let mut slab: slab::Slab<u32> = slab::Slab::with_capacity(4);
    case("precision::counting::slab_insert_with_room", count(|| { slab.clear(); keep(counting::slab_insert_with_room(&mut slab, 1)) }));
    case("precision::counting::slab_insert_allocates", count(|| { let mut empty = slab::Slab::new(); keep(counting::slab_insert_allocates(&mut empty, 1)); keep(empty) }));
    case("precision::counting::push_each_twice_allocates", count(|| { let mut v = room_for_all.pop().unwrap(); keep(counting::push_each_twice_allocates(&mut v, &numbers)); keep(v) }));

    // sizes: the clean roots ask for zero bytes.
    let mut grown_labels: Vec<String> = (0..4)
        .map(|_| {
            let mut label = String::with_capacity(64);
            label.push('a');
            label
        })
        .collect();
    case("precision::sizes::boxed_stateless_step", count(|| keep(sizes::boxed_stateless_step(7))));
    case("precision::sizes::boxed_stateful_step_allocates", count(|| keep(sizes::boxed_stateful_step_allocates(7))));
    case("precision::sizes::unit_markers", count(|| keep(sizes::unit_markers(9))));
    case("precision::sizes::word_markers_allocates", count(|| keep(sizes::word_markers_allocates(9))));
    case("precision::sizes::unit_queue", count(|| keep(sizes::unit_queue(9))));
    case("precision::sizes::byte_queue_allocates", count(|| keep(sizes::byte_queue_allocates(9))));
    case("precision::sizes::empty_with_capacity", count(|| keep(sizes::empty_with_capacity())));
    case("precision::sizes::one_with_capacity_allocates", count(|| keep(sizes::one_with_capacity_allocates())));
    case("precision::sizes::label_without_preallocation", count(|| keep(sizes::label_without_preallocation())));
    case("precision::sizes::label_with_preallocation_allocates", count(|| keep(sizes::label_with_preallocation_allocates())));
    case("precision::sizes::shrink_fresh_label", count(|| keep(sizes::shrink_fresh_label())));
    // Each call shrinks a label grown beforehand, and drops it (a drop allocates nothing).
    case("precision::sizes::shrink_given_label_allocates", count(|| {
        let mut label = grown_labels.pop().expect("a grown label per call");
        keep(sizes::shrink_given_label_allocates(&mut label));
    }));
    case("precision::sizes::unit_scratch", count(|| keep(sizes::unit_scratch(9))));
    case("precision::sizes::byte_scratch_allocates", count(|| keep(sizes::byte_scratch_allocates(9))));

    // static_setup: the clean roots allocate on the warm-up call only.
    case("precision::static_setup::square_from_pointer_table", count(|| keep(static_setup::square_from_pointer_table(7))));
    case("precision::static_setup::name_from_state_machine", count(|| keep(static_setup::name_from_state_machine(7))));
    case("precision::static_setup::scratch_emptied_after_use_allocates", count(|| keep(static_setup::scratch_emptied_after_use_allocates(7))));
    case("precision::static_setup::state_machine_reset_allocates", count(|| keep(static_setup::state_machine_reset_allocates(7))));
    case("precision::static_setup::leaves_before_the_fill_allocates", count(|| keep(static_setup::leaves_before_the_fill_allocates(7))));
    case("precision::static_setup::public_static_setup_allocates", count(|| { keep(static_setup::public_static_setup_allocates(7)); static_setup::SHARED.store(std::ptr::null_mut(), std::sync::atomic::Ordering::Release) }));
    case("precision::static_setup::reference_handed_out_allocates", count(|| keep(static_setup::reference_handed_out_allocates(7))));
    let address = 7u32;
    case("precision::static_setup::wake_one_of_none", count(|| keep(static_setup::wake_one_of_none(&address))));
    case("precision::static_setup::renamed_static_emptied_allocates", count(|| keep(static_setup::renamed_static_emptied_allocates(7))));
    case("precision::static_setup::fill_not_guarded_by_emptiness_allocates", count(|| keep(static_setup::fill_not_guarded_by_emptiness_allocates(7))));
    case("precision::static_setup::cube_from_static_mut_pointer", count(|| keep(static_setup::cube_from_static_mut_pointer(7))));
    case("precision::static_setup::static_mut_pointer_reset_allocates", count(|| keep(static_setup::static_mut_pointer_reset_allocates(7))));
    case("precision::static_setup::greeting_behind_static_mut_flag", count(|| keep(static_setup::greeting_behind_static_mut_flag(7))));
    case("precision::static_setup::static_mut_flag_cleared_allocates", count(|| keep(static_setup::static_mut_flag_cleared_allocates(7))));
    case("precision::static_setup::prime_behind_atomic_flag", count(|| keep(static_setup::prime_behind_atomic_flag(7))));
    case("precision::static_setup::flag_set_on_one_path_allocates", count(|| keep(static_setup::flag_set_on_one_path_allocates(7))));
    case("precision::static_setup::seed_from_race_to_initialise", count(|| keep(static_setup::seed_from_race_to_initialise(7))));
    case("precision::static_setup::binding_set_before_the_test_allocates", count(|| keep(static_setup::binding_set_before_the_test_allocates(7))));
    case("precision::static_setup::prefix_filled_two_calls_below", count(|| keep(static_setup::prefix_filled_two_calls_below(7))));
    case("precision::static_setup::callee_may_return_before_the_fill_allocates", count(|| keep(static_setup::callee_may_return_before_the_fill_allocates(7))));

    for (name, n) in out {
        println!("{name}\t{n}");
    }
}
