//! The dynamic oracle: runs every root of this fixture under bounded's counting
//! allocator (unoptimised, after one warm-up call) and prints `root<TAB>allocations
//! per call`. The engine's tests hold its verdicts against these counts: a root
//! counted above 0 must be flagged; a root the engine calls clean must count 0.
use std::collections::HashMap;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use bounded::alloctest::{self, Counting};
use soundness::*;

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations per call of `run`, with `setup` outside the counted window.
fn measure<S>(state: &mut S, mut setup: impl FnMut(&mut S), mut run: impl FnMut(&mut S)) -> u64 {
    setup(state);
    run(state);
    let mut total = 0;
    for _ in 0..3 {
        setup(state);
        let before = alloctest::allocations();
        run(state);
        total += alloctest::allocations() - before;
    }
    total.div_ceil(3)
}

fn simple(mut run: impl FnMut()) -> u64 {
    measure(&mut (), |_| {}, |_| run())
}

fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

fn keep<T>(x: T) {
    std::hint::black_box(x);
}

fn main() {
    assert!(alloctest::installed());
    std::panic::set_hook(Box::new(|_| {}));
    dyns::install_sink();
    settable::install();
    let mut out: Vec<(&str, u64)> = Vec::new();
    let mut case = |name: &'static str, n: u64| out.push((name, n));

    // allowances
    let strings: Vec<String> = vec!["a".to_owned(), "b".to_owned()];
    let fresh = |b: &mut allowances::Buffers| b.reset();
    let mut b = allowances::Buffers::new();
    case("soundness::allowances::extend_clones_with_room", measure(&mut b, fresh, |b| allowances::extend_clones_with_room(b, &strings)));
    case("soundness::allowances::extend_copies_with_room", measure(&mut b, fresh, |b| allowances::extend_copies_with_room(b, &[1, 2, 3])));
    case("soundness::allowances::insert_hashes_with_room", measure(&mut b, fresh, |b| allowances::insert_hashes_with_room(b, 7)));
    case("soundness::allowances::extend_map_closure_with_room", measure(&mut b, fresh, |b| allowances::extend_map_closure_with_room(b, &[10, 20])));
    case("soundness::allowances::write_display_with_room", measure(&mut b, fresh, |b| allowances::write_display_with_room(b, 42)));
    // Full but for one: the second push reallocates.
    let one_left = |b: &mut allowances::Buffers| {
        b.nums = Vec::with_capacity(4);
        b.nums.extend_from_slice(&[0, 0, 0]);
    };
    case("soundness::allowances::two_pushes_one_check", measure(&mut b, one_left, |b| allowances::two_pushes_one_check(b, 1)));
    case("soundness::allowances::one_push_one_check", measure(&mut b, one_left, |b| allowances::one_push_one_check(b, 1)));
    case("soundness::allowances::loop_under_one_check", measure(&mut b, one_left, |b| allowances::loop_under_one_check(b, &[1, 2, 3])));
    case("soundness::allowances::loop_checks_each_time", measure(&mut b, one_left, |b| allowances::loop_checks_each_time(b, &[1, 2, 3])));
    case("soundness::allowances::room_for_other_length", measure(&mut b, one_left, |b| allowances::room_for_other_length(b, &[1, 2, 3], 1)));
    case("soundness::allowances::room_for_same_length", measure(&mut b, one_left, |b| allowances::room_for_same_length(b, &[1, 2, 3])));
    case("soundness::allowances::first_use_with_extra_call", measure(&mut b, |_| {}, |b| keep(allowances::first_use_with_extra_call(b, 1))));
    let mut b = allowances::Buffers::new();
    case("soundness::allowances::first_use_fill_only", measure(&mut b, |_| {}, |b| keep(allowances::first_use_fill_only(b))));
    case("soundness::allowances::refill_drained_queue", measure(&mut b, |_| {}, |b| keep(allowances::refill_drained_queue(b))));
    case("soundness::allowances::thread_local_with_allocating_closure", simple(|| keep(allowances::thread_local_with_allocating_closure(1))));
    case("soundness::allowances::thread_local_with_quiet_closure", simple(|| keep(allowances::thread_local_with_quiet_closure(1))));

    // One byte of room left in a `String`.
    let mut text = String::new();
    let byte_left = |s: &mut String| {
        *s = String::with_capacity(4);
        s.push_str("abc");
    };
    case("soundness::allowances::push_char_with_room_for_a_byte", measure(&mut text, byte_left, |s| allowances::push_char_with_room_for_a_byte(s, 'é')));
    case("soundness::allowances::insert_char_with_room_for_a_byte", measure(&mut text, byte_left, |s| allowances::insert_char_with_room_for_a_byte(s)));
    case("soundness::allowances::push_ascii_with_room_for_a_byte", measure(&mut text, byte_left, |s| allowances::push_ascii_with_room_for_a_byte(s)));
    case("soundness::allowances::push_char_with_room_for_four", measure(&mut text, byte_left, |s| allowances::push_char_with_room_for_four(s, 'é')));

    case("soundness::allowances::once_cell_field_of_local", simple(|| keep(allowances::once_cell_field_of_local())));
    case("soundness::allowances::get_or_insert_with_field_of_local", simple(|| keep(allowances::get_or_insert_with_field_of_local())));
    let mut fresh_lazies: Vec<allowances::Lazily> = Vec::with_capacity(8);
    case(
        "soundness::allowances::first_use_of_by_value_parameter",
        measure(&mut fresh_lazies, |v| v.push(allowances::Lazily::new()), |v| keep(allowances::first_use_of_by_value_parameter(v.pop().unwrap()))),
    );
    let mut lazily = allowances::Lazily::new();
    case("soundness::allowances::first_use_through_reference", simple(|| keep(allowances::first_use_through_reference(&mut lazily))));

    // Room for one, then the buffer is replaced, taken or swapped for a full one.
    let mut roomy: Vec<u32> = Vec::new();
    let one_spare = |v: &mut Vec<u32>| {
        *v = Vec::with_capacity(4);
        v.extend_from_slice(&[1, 2, 3]);
    };
    case("soundness::allowances::proof_then_replaced", measure(&mut roomy, one_spare, |v| allowances::proof_then_replaced(v, 1)));
    case("soundness::allowances::proof_then_taken", measure(&mut roomy, one_spare, |v| keep(allowances::proof_then_taken(v, 1))));
    let mut pair: (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    let roomy_and_full = |p: &mut (Vec<u32>, Vec<u32>)| {
        one_spare(&mut p.0);
        p.1 = Vec::with_capacity(2);
        p.1.extend_from_slice(&[1, 2]);
    };
    case("soundness::allowances::proof_then_rebound", measure(&mut pair, roomy_and_full, |p| allowances::proof_then_rebound(&mut p.0, &mut p.1, 1)));
    case("soundness::allowances::proof_then_cleared", measure(&mut roomy, one_spare, |v| allowances::proof_then_cleared(v, 1)));

    case("soundness::allowances::first_use_in_a_method_of_a_fresh_local", simple(|| keep(allowances::first_use_in_a_method_of_a_fresh_local())));
    let mut memo = allowances::Memo { value: None };
    case("soundness::allowances::first_use_in_a_method_of_the_callers_memo", simple(|| keep(allowances::first_use_in_a_method_of_the_callers_memo(&mut memo))));

    case("soundness::allowances::proof_then_written_through_a_pointer", measure(&mut roomy, one_spare, |v| allowances::proof_then_written_through_a_pointer(v, 1)));
    let numbers: Vec<u32> = (0..64).collect();
    let mut spelled: allowances::Peeked<'_> = numbers.iter().map(allowances::spell as fn(&u32) -> usize).peekable();
    case("soundness::allowances::peek_each_time", measure(&mut spelled, |s| { s.next(); }, |s| keep(allowances::peek_each_time(s))));

    // asyncs
    case("soundness::asyncs::await_hand_written", simple(|| keep(block_on(asyncs::await_hand_written()))));
    case("soundness::asyncs::await_ready", simple(|| keep(block_on(asyncs::await_ready()))));
    case("soundness::asyncs::await_poll_fn", simple(|| keep(block_on(asyncs::await_poll_fn()))));
    case("soundness::asyncs::await_async_fn", simple(|| keep(block_on(asyncs::await_async_fn(12345)))));
    case("soundness::asyncs::await_async_quiet", simple(|| keep(block_on(asyncs::await_async_quiet(1)))));

    // cache keys
    let mut boxes: Vec<Box<str>> = Vec::new();
    case("soundness::cache_keys::string_from_box", measure(&mut boxes, |v| v.push("abc".into()), |v| keep(cache_keys::string_from_box(v.pop().unwrap()))));
    case("soundness::cache_keys::string_from_char", simple(|| keep(cache_keys::string_from_char('x'))));

    // diverging
    case("soundness::diverging::check_or_fail", simple(|| keep(diverging::check_or_fail(3))));
    case("soundness::diverging::run_server", simple(|| keep(catch_unwind(AssertUnwindSafe(|| diverging::run_server(3))).is_err())));
    case("soundness::diverging::panics_with_description", simple(|| keep(diverging::panics_with_description(3))));
    case("soundness::diverging::body_returns_before_its_panic", simple(|| keep(diverging::body_returns_before_its_panic(&[1, 3]))));
    case("soundness::diverging::branch_returns_before_its_panic", simple(|| keep(diverging::branch_returns_before_its_panic(true))));
    case("soundness::diverging::loop_breaks_before_its_panic", simple(|| keep(diverging::loop_breaks_before_its_panic())));
    case("soundness::diverging::question_mark_before_the_panic", simple(|| keep(diverging::question_mark_before_the_panic(None))));
    case("soundness::diverging::closure_returns_before_its_panic", simple(|| keep(diverging::closure_returns_before_its_panic())));
    case("soundness::diverging::message_built_only_to_panic", simple(|| keep(diverging::message_built_only_to_panic(3))));

    // drops
    case("soundness::drops::temporary_dropped", simple(|| keep(drops::temporary_dropped(1))));
    case("soundness::drops::temporary_calm", simple(|| keep(drops::temporary_calm(1))));
    let mut noisy: Vec<Box<drops::Noisy>> = Vec::with_capacity(8);
    case("soundness::drops::drop_boxed", measure(&mut noisy, |v| v.push(Box::new(drops::Noisy(1))), |v| keep(drops::drop_boxed(v.pop().unwrap()))));
    let mut calm: Vec<Box<drops::Calm>> = Vec::with_capacity(8);
    case("soundness::drops::drop_boxed_calm", measure(&mut calm, |v| v.push(Box::new(drops::Calm(1))), |v| keep(drops::drop_boxed_calm(v.pop().unwrap()))));
    case("soundness::drops::closure_capture_dropped", simple(|| keep(drops::closure_capture_dropped(drops::Noisy(2)))));
    case("soundness::drops::closure_capture_calm", simple(|| keep(drops::closure_capture_calm(drops::Calm(2)))));
    let mut dyns_: Vec<Box<dyn drops::Resource>> = Vec::with_capacity(8);
    case("soundness::drops::drop_dyn", measure(&mut dyns_, |v| v.push(Box::new(drops::Noisy(3))), |v| keep(drops::drop_dyn(v.pop().unwrap()))));
    let mut anys: Vec<Box<dyn std::any::Any>> = Vec::with_capacity(8);
    case("soundness::drops::drop_any", measure(&mut anys, |v| v.push(Box::new(drops::Noisy(4))), |v| keep(drops::drop_any(v.pop().unwrap()))));
    let mut sendables: Vec<Box<dyn Send>> = Vec::with_capacity(8);
    case("soundness::drops::drop_sendable", measure(&mut sendables, |v| v.push(Box::new(drops::Noisy(5))), |v| keep(drops::drop_sendable(v.pop().unwrap()))));
    case("soundness::drops::drop_own_sendable", measure(&mut noisy, |v| v.push(Box::new(drops::Noisy(6))), |v| keep(drops::drop_own_sendable(v.pop().unwrap()))));
    case("soundness::drops::drop_own_sendable_calm", measure(&mut calm, |v| v.push(Box::new(drops::Calm(6))), |v| keep(drops::drop_own_sendable_calm(v.pop().unwrap()))));
    let mut slot: Option<drops::Noisy> = None;
    case("soundness::drops::reset", measure(&mut slot, |s| *s = Some(drops::Noisy(7)), |s| drops::reset(s)));
    let mut calm_slot: Option<drops::Calm> = None;
    case("soundness::drops::reset_calm", measure(&mut calm_slot, |s| *s = Some(drops::Calm(7)), |s| drops::reset_calm(s)));
    let mut pair = (drops::Noisy(8), 8);
    case("soundness::drops::replace_pair", simple(|| drops::replace_pair(&mut pair)));
    case("soundness::drops::scrutinee_dropped", simple(|| keep(drops::scrutinee_dropped(2))));
    case("soundness::drops::scrutinee_calm", simple(|| keep(drops::scrutinee_calm(2))));
    case("soundness::drops::condition_dropped", simple(|| keep(drops::condition_dropped(2))));
    case("soundness::drops::if_let_dropped", simple(|| keep(drops::if_let_dropped(2))));
    case("soundness::drops::closure_tail_dropped", simple(|| keep(drops::closure_tail_dropped(2))));
    case("soundness::drops::return_value_temporary", simple(|| keep(drops::return_value_temporary(2))));
    case("soundness::drops::break_value_temporary", simple(|| keep(drops::break_value_temporary(2))));
    let table = [1u32, 2, 3];
    case("soundness::drops::index_temporary", simple(|| keep(drops::index_temporary(&table, 2))));
    case("soundness::drops::tuple_temporary", simple(|| keep(drops::tuple_temporary(2))));
    case("soundness::drops::tuple_temporary_calm", simple(|| keep(drops::tuple_temporary_calm(2))));
    case("soundness::drops::repeat_temporary", simple(|| keep(drops::repeat_temporary(2))));
    let mut maps: Vec<HashMap<u32, drops::Noisy>> = Vec::with_capacity(8);
    case("soundness::drops::drop_map_of_noisy", measure(&mut maps, |v| v.push(HashMap::from([(1, drops::Noisy(4))])), |v| keep(drops::drop_map_of_noisy(v.pop().unwrap()))));
    let mut vecs: Vec<Vec<String>> = Vec::with_capacity(8);
    case("soundness::drops::drop_vec_of_strings", measure(&mut vecs, |v| v.push(vec!["x".to_owned()]), |v| keep(drops::drop_vec_of_strings(v.pop().unwrap()))));

    // unbound parts of patterns, guards
    for (name, run) in [
        ("soundness::unbound::assign_to_underscore", unbound::assign_to_underscore as fn(u32) -> u32),
        ("soundness::unbound::assign_to_underscore_calm", unbound::assign_to_underscore_calm),
        ("soundness::unbound::destructuring_assignment_skips", unbound::destructuring_assignment_skips),
        ("soundness::unbound::let_tuple_skips", unbound::let_tuple_skips),
        ("soundness::unbound::let_tuple_skips_calm", unbound::let_tuple_skips_calm),
        ("soundness::unbound::let_ref_binding_of_temporary", unbound::let_ref_binding_of_temporary),
        ("soundness::unbound::let_struct_rest", unbound::let_struct_rest),
        ("soundness::unbound::let_else_skips", unbound::let_else_skips),
        ("soundness::unbound::parameter_not_bound", unbound::parameter_not_bound),
        ("soundness::unbound::parameter_rest", unbound::parameter_rest),
        ("soundness::unbound::closure_parameter_not_bound", unbound::closure_parameter_not_bound),
        ("soundness::unbound::trait_method_parameter_not_bound", unbound::trait_method_parameter_not_bound),
        ("soundness::unbound::match_guard_temporary", unbound::match_guard_temporary),
        ("soundness::unbound::match_guard_calm", unbound::match_guard_calm),
    ] {
        case(name, simple(|| keep(run(3))));
    }
    case("soundness::unbound::iterator_count", simple(|| keep(unbound::iterator_count(3))));
    case("soundness::unbound::iterator_count_calm", simple(|| keep(unbound::iterator_count_calm(3))));
    case("soundness::unbound::matches_guard_temporary", simple(|| keep(unbound::matches_guard_temporary(3))));
    let holder = unbound::Holder { n: drops::Noisy(1), k: 1 };
    case("soundness::unbound::rest_through_reference", simple(|| keep(unbound::rest_through_reference(&holder))));
    let mut held = unbound::Holder { n: drops::Noisy(2), k: 2 };
    let mut quiets: Vec<unbound::Quiet> = Vec::with_capacity(8);
    case(
        "soundness::unbound::rest_of_a_place",
        measure(&mut quiets, |v| v.push(unbound::Quiet { c: drops::Calm(1), k: 1 }), |v| keep(unbound::rest_of_a_place(v.pop().unwrap(), &mut held))),
    );

    // statics set at run time
    case("soundness::settable::call_static_mut_pointer", simple(|| keep(settable::call_static_mut_pointer())));
    case("soundness::settable::call_locked_pointer", simple(|| keep(settable::call_locked_pointer())));
    case("soundness::settable::call_static_mut_dyn", simple(|| keep(settable::call_static_mut_dyn())));
    case("soundness::settable::call_static_mut_table", simple(|| keep(settable::call_static_mut_table(1))));
    case("soundness::settable::call_immutable_static_pointer", simple(|| keep(settable::call_immutable_static_pointer())));
    case("soundness::settable::call_const_from_const_fn", simple(|| keep(settable::call_const_from_const_fn())));
    case("soundness::settable::call_static_from_const_fn", simple(|| keep(settable::call_static_from_const_fn())));
    case("soundness::settable::call_deep_in_a_static", simple(|| keep(settable::call_deep_in_a_static())));

    // untracked memory
    let mut noted: Vec<u8> = Vec::new();
    let mut allocating = || noted = vec![1, 2, 3];
    let mut callback: &mut dyn FnMut() = &mut allocating;
    let user_data = &mut callback as *mut &mut dyn FnMut() as *mut std::ffi::c_void;
    case("soundness::untyped::trampoline", simple(|| untyped::trampoline(user_data)));
    let loud: Box<dyn settable::Greeter> = Box::new(settable::Loud);
    let loud_data = &loud as *const Box<dyn settable::Greeter> as *const std::ffi::c_void;
    case("soundness::untyped::greeter_from_user_data", simple(|| keep(untyped::greeter_from_user_data(loud_data))));
    let loud_word = settable::loud as fn() -> usize as usize;
    case("soundness::untyped::pointer_from_a_word", simple(|| keep(untyped::pointer_from_a_word(loud_word))));
    let loud_any: fn() -> usize = settable::loud;
    case("soundness::untyped::pointer_from_any", simple(|| keep(untyped::pointer_from_any(&loud_any))));
    case("soundness::untyped::cast_keeps_the_type", simple(|| keep(untyped::cast_keeps_the_type())));

    // dyns
    let mut fixed = dyn_contexts::Fixed::new();
    case("soundness::dyn_contexts::tee_into_fixed_allocates", simple(|| keep(dyn_contexts::tee_into_fixed_allocates(&mut fixed))));
    case("soundness::dyn_contexts::indent_into_string_allocates", simple(|| keep(dyn_contexts::indent_into_string_allocates(42))));
    case("soundness::dyn_contexts::indent_into_fixed", simple(|| keep(dyn_contexts::indent_into_fixed(&mut fixed, 42))));
    case("soundness::dyn_contexts::scratch_into_fixed_allocates", simple(|| keep(dyn_contexts::scratch_into_fixed_allocates(&mut fixed))));
    log::set_logger(&loggers::RECORDER).expect("the only logger");
    log::set_max_level(log::LevelFilter::Info);
    case("soundness::loggers::log_through_the_set_logger_allocates", simple(|| keep(loggers::log_through_the_set_logger_allocates(7))));
    let server = dyns::Server { handlers: vec![Box::new(dyns::Doubler), Box::new(dyns::Recorder)] };
    case("soundness::dyns::dispatch", simple(|| keep(dyns::dispatch(&server, 12))));
    let arc: Arc<dyn dyns::Handler> = Arc::new(dyns::Recorder);
    case("soundness::dyns::dispatch_arc", simple(|| keep(dyns::dispatch_arc(&arc, 12))));
    let quiet = dyns::QuietServer { parts: vec![Box::new(dyns::Zero), Box::new(dyns::One)] };
    case("soundness::dyns::dispatch_quiet", simple(|| keep(dyns::dispatch_quiet(&quiet))));
    case("soundness::dyns::log_through_static", simple(|| keep(dyns::log_through_static("hi"))));
    case("soundness::dyns::count_through_static", simple(|| keep(dyns::count_through_static("hi"))));
    case("soundness::dyns::put_through_installed", simple(|| keep(dyns::put_through_installed(5))));
    case("soundness::dyns::local_tile", simple(|| keep(dyns::local_tile())));
    case("soundness::dyns::dyn_in_a_struct_tail", simple(|| keep(dyns::dyn_in_a_struct_tail())));
    case("soundness::dyns::dyn_in_a_refcell", simple(|| keep(dyns::dyn_in_a_refcell())));
    case("soundness::dyns::quiet_dyn_in_a_struct_tail", simple(|| keep(dyns::quiet_dyn_in_a_struct_tail())));

    // error closures
    case("soundness::error_closures::map_err_propagated", simple(|| keep(error_closures::map_err_propagated("12"))));
    case("soundness::error_closures::ok_or_else_propagated", simple(|| keep(error_closures::ok_or_else_propagated(Some(3)))));
    case("soundness::error_closures::map_err_swallowed_in_loop", simple(|| keep(error_closures::map_err_swallowed_in_loop(&["1", "x", "3"]))));
    let odd_and_even = [1, 2, 3, 4];
    case("soundness::error_closures::fn_item_errors_dropped_by_std", simple(|| keep(error_closures::fn_item_errors_dropped_by_std(&odd_and_even))));
    case("soundness::error_closures::fn_item_errors_dropped_by_std_fold", simple(|| keep(error_closures::fn_item_errors_dropped_by_std_fold(&odd_and_even))));
    case("soundness::error_closures::fn_item_errors_collected_and_returned", simple(|| keep(error_closures::fn_item_errors_collected_and_returned(&[2, 4, 6]))));
    case("soundness::error_closures::recursion_drops_an_error_each_level", simple(|| keep(error_closures::recursion_drops_an_error_each_level(&odd_and_even))));
    case("soundness::error_closures::recursion_passes_the_error_up", simple(|| keep(error_closures::recursion_passes_the_error_up(&[2, 4, 6]))));

    // dispatch
    case("soundness::dispatch::blanket_from_caller", simple(|| keep(dispatch::blanket_from_caller(&dispatch::Loud))));
    case("soundness::dispatch::blanket_quiet_from_caller", simple(|| keep(dispatch::blanket_quiet_from_caller(&dispatch::Calm) + dispatch::blanket_quiet_from_caller(&3u8))));
    case("soundness::dispatch::generic_impl_from_caller", simple(|| keep(dispatch::generic_impl_from_caller(&dispatch::Wrap(dispatch::Loud)))));
    case("soundness::dispatch::generic_root_deep", simple(|| keep(dispatch::deep10(&dispatch::Loud))));
    case("soundness::dispatch::generic_root_quiet", simple(|| keep(dispatch::generic_root_quiet(&dispatch::Calm) + dispatch::generic_root_quiet(&3u8))));
    case("soundness::dispatch::inherited_default_from_caller", simple(|| keep(dispatch::inherited_default_from_caller(&dispatch::Loud))));
    case(
        "soundness::dispatch::inherited_default_quiet_from_caller",
        simple(|| keep(dispatch::inherited_default_quiet_from_caller(&dispatch::Loud) + dispatch::inherited_default_quiet_from_caller(&dispatch::Calm))),
    );
    let registry: dispatch::Registry = Arc::new(std::sync::Mutex::new(HashMap::from([(1, vec![Some(Box::new(dispatch::Loud) as Box<dyn dispatch::Handler>)])])));
    case("soundness::dispatch::nested_seven_deep", simple(|| keep(dispatch::nested_seven_deep(&registry))));
    let still: dispatch::StillRegistry = Arc::new(std::sync::Mutex::new(HashMap::from([(1, vec![Some(Box::new(dispatch::Calm) as Box<dyn dispatch::Still>)])])));
    case("soundness::dispatch::nested_seven_deep_quiet", simple(|| keep(dispatch::nested_seven_deep_quiet(&still))));
    let deep: dispatch::Deep<fn() -> usize> = Some(Some(Some(Some(Some(Some(Some(Some(dispatch::loud_fn as fn() -> usize))))))));
    case("soundness::dispatch::fn_pointer_nested_deep", simple(|| keep(dispatch::fn_pointer_nested_deep(&deep))));
    case("soundness::dispatch::dyn_via_projection", simple(|| keep(dispatch::dyn_via_projection(&dispatch::Loud))));
    case("soundness::dispatch::fn_pointer_via_projection", simple(|| keep(dispatch::fn_pointer_via_projection(dispatch::loud_fn))));

    // fn pointers
    case("soundness::fn_pointers::apply_ops", simple(|| keep(fn_pointers::apply_ops(21))));
    case("soundness::fn_pointers::apply_quiet_ops", simple(|| keep(fn_pointers::apply_quiet_ops(21))));
    case("soundness::fn_pointers::helper_calls_pointer", simple(|| keep(fn_pointers::helper_calls_pointer(3))));
    case("soundness::fn_pointers::quiet_square_through_helper", simple(|| keep(fn_pointers::quiet_square_through_helper(3))));
    let callbacks = fn_pointers::Callbacks { on_byte: |b| b.to_string().len() };
    case("soundness::fn_pointers::call_from_param_field", simple(|| keep(fn_pointers::call_from_param_field(&callbacks, 200))));
    case("soundness::fn_pointers::local_pointer", simple(|| keep(fn_pointers::local_pointer(10))));
    case("soundness::fn_pointers::apply_assoc_const_op", simple(|| keep(fn_pointers::apply_assoc_const_op(12345))));
    case("soundness::fn_pointers::apply_generic_const_quiet", simple(|| keep(fn_pointers::apply_generic_const_quiet(12345))));
    case("soundness::fn_pointers::apply_generic_const_loud", simple(|| keep(fn_pointers::apply_generic_const_loud(12345))));
    case("soundness::fn_pointers::apply_trait_const_quiet", simple(|| keep(fn_pointers::apply_trait_const_quiet(12345))));
    case("soundness::fn_pointers::apply_trait_const_loud", simple(|| keep(fn_pointers::apply_trait_const_loud(12345))));

    // foreign
    case("soundness::foreign::inline_assembly", simple(|| keep(foreign::inline_assembly(7))));
    #[cfg(target_arch = "x86_64")]
    case("soundness::foreign::inline_assembly_loop", simple(|| keep(foreign::inline_assembly_loop(7))));
    case("soundness::foreign::calls_c", simple(|| keep(foreign::calls_c(c"hello"))));
    case("soundness::foreign::process_id", simple(|| keep(foreign::process_id())));

    // refilled
    let mut cache = refilled::Cache::default();
    for (name, root) in [
        ("soundness::refilled::Cache::fill_then_set_none", refilled::Cache::fill_then_set_none as fn(&mut refilled::Cache) -> usize),
        ("soundness::refilled::Cache::fill_then_take", refilled::Cache::fill_then_take),
        ("soundness::refilled::Cache::fill_then_reset_in_helper", refilled::Cache::fill_then_reset_in_helper),
        ("soundness::refilled::Cache::fill_then_replace_self", refilled::Cache::fill_then_replace_self),
        ("soundness::refilled::Cache::fill_then_mem_take", refilled::Cache::fill_then_mem_take),
        ("soundness::refilled::Cache::fill_inner_then_reset_holder", refilled::Cache::fill_inner_then_reset_holder),
        ("soundness::refilled::Cache::fill_then_read", refilled::Cache::fill_then_read),
        ("soundness::refilled::Cache::fill_then_empty_another_field", refilled::Cache::fill_then_empty_another_field),
        ("soundness::refilled::Cache::fill_then_write_through_match", refilled::Cache::fill_then_write_through_match),
        ("soundness::refilled::Cache::fill_then_take_through_binding", refilled::Cache::fill_then_take_through_binding),
        ("soundness::refilled::Cache::fill_then_take_through_method", refilled::Cache::fill_then_take_through_method),
        ("soundness::refilled::Cache::fill_then_write_through_raw_pointer", refilled::Cache::fill_then_write_through_raw_pointer),
        ("soundness::refilled::Cache::fill_then_guard_empties", refilled::Cache::fill_then_guard_empties),
        ("soundness::refilled::Cache::fill_then_wipe", refilled::Cache::fill_then_wipe),
    ] {
        case(name, measure(&mut cache, |_| {}, |c| keep(root(c))));
    }

    // rooms
    let mut four = counting::Buffers::room_for_four();
    let reset = |b: &mut counting::Buffers| *b = counting::Buffers::room_for_four();
    let one = [9u8];
    case("soundness::counting::length_grown_after_proof", measure(&mut four, reset, |b| keep(counting::length_grown_after_proof(&mut b.v, &mut b.xs))));
    case("soundness::counting::push_after_bounded_loop", measure(&mut four, reset, |b| keep(counting::push_after_bounded_loop(&mut b.v, &b.xs))));
    case("soundness::counting::two_loops_one_proof", measure(&mut four, reset, |b| keep(counting::two_loops_one_proof(&mut b.v, &b.xs))));
    case("soundness::counting::loop_over_another_length", measure(&mut four, reset, |b| keep(counting::loop_over_another_length(&mut b.v, &one, &[1, 2, 3, 4, 5]))));
    case("soundness::counting::const_room_for_two", measure(&mut four, |b| { reset(b); b.v.extend_from_slice(&[0, 0]) }, |b| keep(counting::const_room_for_two(&mut b.v))));
    case("soundness::counting::assert_of_another_buffer", measure(&mut four, reset, |b| { b.xs.push(5); counting::assert_of_another_buffer(&mut b.v, &b.xs) }));
    case("soundness::counting::clone_from_with_room_for_another", measure(&mut four, reset, |b| { b.xs.push(5); keep(counting::clone_from_with_room_for_another(&mut b.v, &b.xs, &one)) }));
    case("soundness::counting::thread_local_take_box", simple(|| keep(counting::thread_local_take_box())));

    let mut bufs = rooms::Buffers::nearly_full();
    let refill = |b: &mut rooms::Buffers| *b = rooms::Buffers::nearly_full();
    let full = |b: &mut rooms::Buffers| b.v = b.w.clone();
    case("soundness::rooms::proof_then_set_len", measure(&mut bufs, refill, |b| keep(rooms::proof_then_set_len(&mut b.v))));
    case("soundness::rooms::proof_then_shadowed", measure(&mut bufs, refill, |b| keep(rooms::proof_then_shadowed(&mut b.v, &mut b.w))));
    case(
        "soundness::rooms::proof_then_shadowed_by_if_let",
        measure(&mut bufs, refill, |b| keep(rooms::proof_then_shadowed_by_if_let(&mut b.v, Some(&mut b.w)))),
    );
    case("soundness::rooms::length_binding_rebound", measure(&mut bufs, refill, |b| keep(rooms::length_binding_rebound(&mut b.v, &[1, 2, 3]))));
    case(
        "soundness::rooms::length_of_a_shadowed_name",
        measure(&mut bufs, refill, |b| keep(rooms::length_of_a_shadowed_name(&mut b.v, &[1], &[1, 2, 3]))),
    );
    case("soundness::rooms::chars_counted_as_bytes", measure(&mut bufs, refill, |b| keep(rooms::chars_counted_as_bytes(&mut b.s, &['\u{e9}']))));
    case("soundness::rooms::strs_counted_as_bytes", measure(&mut bufs, refill, |b| keep(rooms::strs_counted_as_bytes(&mut b.s, ["abc"]))));
    case("soundness::rooms::labelled_break_taken_as_leaving", measure(&mut bufs, full, |b| keep(rooms::labelled_break_taken_as_leaving(&mut b.v))));
    case("soundness::rooms::bytes_counted_for_a_str", measure(&mut bufs, refill, |b| keep(rooms::bytes_counted_for_a_str(&mut b.s, "d"))));
    case("soundness::rooms::length_binding_kept", measure(&mut bufs, refill, |b| keep(rooms::length_binding_kept(&mut b.v, &[1]))));
    case("soundness::rooms::full_then_return", measure(&mut bufs, full, |b| keep(rooms::full_then_return(&mut b.v))));
    let (mut units, mut markers) = (Vec::new(), Vec::new());
    case("soundness::rooms::push_zero_sized", simple(|| keep(rooms::push_zero_sized(&mut units, &mut markers))));
    case(
        "soundness::rooms::proof_then_own_method_of_the_buffer",
        measure(&mut bufs, refill, |b| keep(rooms::proof_then_own_method_of_the_buffer(&mut b.v))),
    );

    // temporaries
    case("soundness::temporaries::eq_operands", simple(|| keep(temporaries::eq_operands())));
    case("soundness::temporaries::eq_operands_hushed", simple(|| keep(temporaries::eq_operands_hushed())));
    case("soundness::temporaries::lt_operands_in_while", simple(|| keep(temporaries::lt_operands_in_while())));
    case("soundness::temporaries::lt_operands_in_while_hushed", simple(|| keep(temporaries::lt_operands_in_while_hushed())));
    case("soundness::temporaries::asserted_comparison", simple(|| keep(temporaries::asserted_comparison())));
    case("soundness::temporaries::returned_comparison", simple(|| keep(temporaries::returned_comparison())));
    case("soundness::temporaries::closure_tail_comparison", simple(|| keep(temporaries::closure_tail_comparison())));
    case("soundness::temporaries::comparison_as_argument", simple(|| keep(temporaries::comparison_as_argument())));
    case("soundness::temporaries::comparison_in_field", simple(|| keep(temporaries::comparison_in_field())));
    case("soundness::temporaries::field_of_temporary_compared", simple(|| keep(temporaries::field_of_temporary_compared())));
    case("soundness::temporaries::field_of_temporary_compared_hushed", simple(|| keep(temporaries::field_of_temporary_compared_hushed())));
    case("soundness::temporaries::deref_operand", simple(|| keep(temporaries::deref_operand())));
    case("soundness::temporaries::deref_operand_hushed", simple(|| keep(temporaries::deref_operand_hushed())));
    case("soundness::temporaries::deref_operand_in_condition", simple(|| keep(temporaries::deref_operand_in_condition())));
    case("soundness::temporaries::if_value_discarded", simple(temporaries::if_value_discarded));
    case("soundness::temporaries::if_value_discarded_hushed", simple(temporaries::if_value_discarded_hushed));
    case("soundness::temporaries::block_value_discarded", simple(temporaries::block_value_discarded));
    case("soundness::temporaries::match_value_discarded", simple(temporaries::match_value_discarded));
    case("soundness::temporaries::loop_value_discarded", simple(temporaries::loop_value_discarded));
    case("soundness::temporaries::unsafe_value_discarded", simple(temporaries::unsafe_value_discarded));
    case("soundness::temporaries::labeled_block_discarded", simple(temporaries::labeled_block_discarded));
    case("soundness::temporaries::field_of_if", simple(|| keep(temporaries::field_of_if())));
    case("soundness::temporaries::method_on_block", simple(|| keep(temporaries::method_on_block())));
    case("soundness::temporaries::method_through_deref", simple(|| keep(temporaries::method_through_deref())));
    case("soundness::temporaries::method_through_deref_hushed", simple(|| keep(temporaries::method_through_deref_hushed())));
    case("soundness::temporaries::borrowed_if", simple(|| keep(temporaries::borrowed_if())));
    case("soundness::temporaries::block_scrutinee_field", simple(|| keep(temporaries::block_scrutinee_field())));
    // The value returned is the caller's to drop: forgotten here, so not counted.
    case("soundness::temporaries::if_value_returned", simple(|| std::mem::forget(temporaries::if_value_returned())));
    case("soundness::temporaries::if_value_in_returned_field", simple(|| std::mem::forget(temporaries::if_value_in_returned_field())));
    case("soundness::temporaries::match_value_wrapped", simple(|| std::mem::forget(temporaries::match_value_wrapped())));
    case("soundness::temporaries::block_value_returned", simple(|| std::mem::forget(temporaries::block_value_returned())));
    case("soundness::temporaries::binding_returned", simple(|| std::mem::forget(temporaries::binding_returned())));
    case(
        "soundness::temporaries::binding_returned_after_an_early_return",
        simple(|| std::mem::forget(temporaries::binding_returned_after_an_early_return(true))),
    );
    case("soundness::temporaries::const_discarded", simple(temporaries::const_discarded));
    case("soundness::temporaries::const_field", simple(|| keep(temporaries::const_field())));
    case("soundness::temporaries::const_field_hushed", simple(|| keep(temporaries::const_field_hushed())));
    case("soundness::temporaries::const_compared", simple(|| keep(temporaries::const_compared())));
    case("soundness::temporaries::const_returned", simple(|| std::mem::forget(temporaries::const_returned())));
    case("soundness::temporaries::associated_const_field", simple(|| keep(temporaries::associated_const_field())));
    case("soundness::temporaries::unit_struct_discarded", simple(temporaries::unit_struct_discarded));
    let slot = Some(temporaries::Loud(3));
    case("soundness::temporaries::compared_with_none", simple(|| keep(temporaries::compared_with_none(&slot))));

    // known_values: the shrinking roots are given a grown label, made outside the count.
    let grown = |label: &mut String| {
        *label = String::with_capacity(64);
        label.push('a');
    };
    case("soundness::known_values::swapped_in_then_shrunk", measure(&mut String::new(), grown, |label| keep(known_values::swapped_in_then_shrunk(label))));
    case("soundness::known_values::shrunk_then_swapped", measure(&mut String::new(), grown, |label| keep(known_values::shrunk_then_swapped(label))));
    case("soundness::known_values::shrunk_in_a_loop", measure(&mut String::new(), grown, |label| keep(known_values::shrunk_in_a_loop(label, 2))));
    case("soundness::known_values::changed_by_a_closure", measure(&mut String::new(), grown, |label| keep(known_values::changed_by_a_closure(label))));
    case("soundness::known_values::mutable_parameter_changed", simple(|| keep(known_values::mutable_parameter_changed())));
    case("soundness::known_values::capacity_computed", simple(|| keep(known_values::capacity_computed())));
    case("soundness::known_values::break_out_of_a_labelled_block", simple(|| keep(known_values::break_out_of_a_labelled_block())));
    case("soundness::known_values::return_before_the_allocation", simple(|| keep(known_values::return_before_the_allocation())));
    case("soundness::known_values::guarded_arm_first", simple(|| keep(known_values::guarded_arm_first(4))));

    // unresolved
    let (mut a, b4) = ([0u8; 4], [1u8; 4]);
    case("soundness::unresolved::intrinsics_are_quiet", simple(|| keep(unresolved::intrinsics_are_quiet(&mut a, &b4))));

    for (name, n) in out {
        println!("{name}\t{n}");
    }
}
