//! One-time setup on a static, written by hand as crates do instead of with
//! `OnceLock` (issue 47, item 8): an `AtomicPtr` filled by `compare_exchange` from
//! null with a leaked `Box`, and an `AtomicU8` state machine (UNINIT,
//! INITIALIZING, READY) guarding a `static mut`, and parking_lot_core's table of
//! wait queues. Their twins allocate on every call: something the root reaches
//! empties the static again (also through a handed-out reference or a `use .. as`
//! name), code outside the crate may (a `pub` static), the branch can leave
//! before the fill, or the fill is on a branch that no emptiness test guards.

use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU8, Ordering};

/// A table built on first use, published through a null-initialised pointer.
static SQUARES: AtomicPtr<[u64; 64]> = AtomicPtr::new(ptr::null_mut());

fn build_squares() -> [u64; 64] {
    let mut table = [0; 64];
    for (i, square) in table.iter_mut().enumerate() {
        *square = (i * i) as u64;
    }
    table
}

/// The table, made once: the branch runs while `SQUARES` is null and fills it
/// (if another thread won the race, its table is kept and ours is freed).
fn squares() -> &'static [u64; 64] {
    let table = SQUARES.load(Ordering::Acquire);
    if table.is_null() {
        let new = Box::into_raw(Box::new(build_squares()));
        match SQUARES.compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: `new` is now the table, which is never freed.
            Ok(_) => return unsafe { &*new },
            Err(old) => {
                // SAFETY: `new` lost the race and was never shared.
                drop(unsafe { Box::from_raw(new) });
                // SAFETY: `old` is the table another thread published.
                return unsafe { &*old };
            }
        }
    }
    // SAFETY: a non-null `SQUARES` is a table that is never freed.
    unsafe { &*table }
}

/// Allocates on the first call only (the oracle's warm-up).
// noalloc:root
pub fn square_from_pointer_table(i: usize) -> u64 {
    squares()[i % 64]
}

const UNINIT: u8 = 0;
const INITIALIZING: u8 = 1;
const READY: u8 = 2;

/// The state of `NAMES`: it is written once, while `STATE` is INITIALIZING.
static STATE: AtomicU8 = AtomicU8::new(UNINIT);
static mut NAMES: &[&str] = &[];

/// The names, set up once: the thread whose `compare_exchange` moves `STATE` out
/// of UNINIT builds them; the others wait for READY.
fn names() -> &'static [&'static str] {
    if STATE.load(Ordering::Acquire) != READY {
        init_names();
    }
    // SAFETY: READY is stored after `NAMES` is set, and `NAMES` is not written again.
    unsafe { *ptr::addr_of!(NAMES) }
}

#[cold]
fn init_names() {
    loop {
        match STATE.compare_exchange(UNINIT, INITIALIZING, Ordering::Acquire, Ordering::Acquire) {
            Ok(_) => {
                let names: Vec<&str> = "zero one two three".split(' ').collect();
                // SAFETY: only the thread that moved `STATE` out of UNINIT writes it.
                unsafe { NAMES = Box::leak(names.into_boxed_slice()) };
                STATE.store(READY, Ordering::Release);
                return;
            }
            Err(INITIALIZING) => std::hint::spin_loop(),
            Err(_) => return,
        }
    }
}

/// Allocates on the first call only.
// noalloc:root
pub fn name_from_state_machine(i: usize) -> usize {
    names()[i % 4].len()
}

/// The same pointer setup, but the root empties the static again after using
/// it: every call fills it anew.
static SCRATCH: AtomicPtr<Vec<u32>> = AtomicPtr::new(ptr::null_mut());

fn scratch() -> &'static mut Vec<u32> {
    let current = SCRATCH.load(Ordering::Acquire);
    if current.is_null() {
        let new = Box::into_raw(Box::new(Vec::with_capacity(16)));
        if SCRATCH.compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            // SAFETY: `new` was just published and is used by this thread only.
            return unsafe { &mut *new };
        }
        // SAFETY: `new` lost the race and was never shared.
        drop(unsafe { Box::from_raw(new) });
        // SAFETY: the fixture runs on one thread: what another published is ours.
        return unsafe { &mut *SCRATCH.load(Ordering::Acquire) };
    }
    // SAFETY: as above.
    unsafe { &mut *current }
}

// noalloc:root
pub fn scratch_emptied_after_use_allocates(x: u32) -> usize {
    scratch().push(x);
    let len = scratch().len();
    let old = SCRATCH.swap(ptr::null_mut(), Ordering::AcqRel);
    // SAFETY: `old` came from `Box::into_raw` and nothing else holds it now.
    drop(unsafe { Box::from_raw(old) });
    len
}

/// The same state machine, but the root sets it back to UNINIT: every call sets
/// it up again.
static RESET_STATE: AtomicU8 = AtomicU8::new(UNINIT);
static mut RESET_NAMES: &[&str] = &[];

fn init_reset_names() {
    if let Ok(_) = RESET_STATE.compare_exchange(UNINIT, INITIALIZING, Ordering::Acquire, Ordering::Acquire) {
        let names: Vec<&str> = "four five".split(' ').collect();
        // SAFETY: only the thread that moved `RESET_STATE` out of UNINIT writes it.
        unsafe { RESET_NAMES = Box::leak(names.into_boxed_slice()) };
        RESET_STATE.store(READY, Ordering::Release);
    }
}

// noalloc:root
pub fn state_machine_reset_allocates(i: usize) -> usize {
    init_reset_names();
    // SAFETY: set above, on this thread.
    let len = unsafe { *ptr::addr_of!(RESET_NAMES) }[i % 2].len();
    RESET_STATE.store(UNINIT, Ordering::Release);
    len
}

/// A pointer that is only ever filled, but on a branch that tests the argument,
/// not whether it is empty: it is replaced on every call with `x != 0`.
static LATEST: AtomicPtr<Vec<u32>> = AtomicPtr::new(ptr::null_mut());

// noalloc:root
pub fn fill_not_guarded_by_emptiness_allocates(x: u32) -> usize {
    if x != 0 {
        let new = Box::into_raw(Box::new(vec![x; 4]));
        let old = LATEST.swap(new, Ordering::AcqRel);
        if !old.is_null() {
            // SAFETY: `old` came from `Box::into_raw` and nothing else holds it now.
            drop(unsafe { Box::from_raw(old) });
        }
    }
    x as usize
}

/// Set up behind a null test, but a branch that can leave before the fill (here
/// on every call with `x > 0`) runs again on the next call.
static CONFIG: AtomicPtr<String> = AtomicPtr::new(ptr::null_mut());

// noalloc:root
pub fn leaves_before_the_fill_allocates(x: u32) -> usize {
    let config = CONFIG.load(Ordering::Acquire);
    if config.is_null() {
        let text = x.to_string();
        if x > 0 {
            return text.len();
        }
        CONFIG.store(Box::into_raw(Box::new(text)), Ordering::Release);
        return 0;
    }
    // SAFETY: a non-null `CONFIG` is a string that is never freed.
    unsafe { (&*config).len() }
}

/// A `pub` static may be emptied by code outside this crate (the oracle empties
/// it between calls): its setup is not proved.
pub static SHARED: AtomicPtr<Vec<u32>> = AtomicPtr::new(ptr::null_mut());

// noalloc:root
pub fn public_static_setup_allocates(x: u32) -> usize {
    let shared = SHARED.load(Ordering::Acquire);
    if shared.is_null() {
        let new = Box::into_raw(Box::new(vec![x; 4]));
        if SHARED.compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire).is_err() {
            // SAFETY: `new` lost the race and was never shared.
            drop(unsafe { Box::from_raw(new) });
        }
        return 4;
    }
    // SAFETY: a non-null `SHARED` is a vector that is leaked or freed by its emptier.
    unsafe { (&*shared).len() }
}

/// A private static whose reference is handed out: whoever holds it may store
/// the empty value (the root does, through it).
static LEVEL: AtomicU8 = AtomicU8::new(UNINIT);
static mut LEVEL_NAMES: &[&str] = &[];

fn level() -> &'static AtomicU8 {
    &LEVEL
}

// noalloc:root
pub fn reference_handed_out_allocates(i: usize) -> usize {
    if LEVEL.compare_exchange(UNINIT, READY, Ordering::AcqRel, Ordering::Acquire).is_ok() {
        let names: Vec<&str> = "low high".split(' ').collect();
        // SAFETY: only the thread that moved `LEVEL` out of UNINIT writes it.
        unsafe { LEVEL_NAMES = Box::leak(names.into_boxed_slice()) };
    }
    // SAFETY: set above, on this thread.
    let len = unsafe { *ptr::addr_of!(LEVEL_NAMES) }.get(i % 2).map_or(0, |name| name.len());
    level().store(UNINIT, Ordering::Release);
    len
}

/// A real crate's setup of the same shape: parking_lot_core makes its table of
/// wait queues on first use, in a private `AtomicPtr` static filled by
/// `compare_exchange` from null (`get_hashtable` -> `create_hashtable`), and only
/// ever stores a newer table there. Waking the waiters of an address nobody waits
/// on allocates on the first call only.
// noalloc:root
pub fn wake_one_of_none(key: &u32) -> usize {
    let key = key as *const u32 as usize;
    // SAFETY: the callback does not call into parking_lot_core.
    let result = unsafe { parking_lot_core::unpark_one(key, |_| parking_lot_core::DEFAULT_UNPARK_TOKEN) };
    result.unparked_threads
}

mod ticket {
    use std::ptr;
    use std::sync::atomic::AtomicPtr;

    /// Emptied, under another name, by the module above.
    pub(super) static TICKET: AtomicPtr<String> = AtomicPtr::new(ptr::null_mut());
}

use ticket::TICKET as CURRENT_TICKET;

/// The setup's shape on a static the module names by a `use .. as`, which the
/// root also empties by that name: every call fills it anew.
// noalloc:root
pub fn renamed_static_emptied_allocates(x: u32) -> usize {
    let current = CURRENT_TICKET.load(Ordering::Acquire);
    if current.is_null() {
        let new = Box::into_raw(Box::new(x.to_string()));
        if CURRENT_TICKET.compare_exchange(ptr::null_mut(), new, Ordering::AcqRel, Ordering::Acquire).is_err() {
            // SAFETY: `new` lost the race and was never shared.
            drop(unsafe { Box::from_raw(new) });
        }
    }
    let old = CURRENT_TICKET.swap(ptr::null_mut(), Ordering::AcqRel);
    if old.is_null() {
        return 0;
    }
    // SAFETY: `old` came from `Box::into_raw` and nothing else holds it now.
    unsafe { Box::from_raw(old) }.len()
}

/// A `static mut` pointer filled once behind its own null test, the `static mut`
/// analog of the `AtomicPtr` above: every use of it reads it or stores a leaked
/// `Box`.
static mut CUBES: *mut [u64; 16] = ptr::null_mut();

fn cubes() -> &'static [u64; 16] {
    // SAFETY: the fixture's roots run on one thread, and a non-null `CUBES` is a
    // table that is never freed.
    unsafe {
        if CUBES.is_null() {
            CUBES = Box::into_raw(Box::new(std::array::from_fn(|i| (i * i * i) as u64)));
        }
        &*CUBES
    }
}

/// Allocates on the first call only.
// noalloc:root
pub fn cube_from_static_mut_pointer(i: usize) -> u64 {
    cubes()[i % 16]
}

/// The same, but the root hands out `addr_of_mut!` of the static, through which
/// it is set back to null: every call fills it anew.
static mut WORDS: *mut Vec<u32> = ptr::null_mut();

fn words() -> &'static Vec<u32> {
    // SAFETY: as above; `reset` frees the vector only after its last use.
    unsafe {
        if WORDS.is_null() {
            WORDS = Box::into_raw(Box::new(vec![1, 2, 3]));
        }
        &*WORDS
    }
}

fn reset(slot: *mut *mut Vec<u32>) {
    // SAFETY: `slot` is `WORDS`, which holds a leaked `Box` or null.
    unsafe {
        if !(*slot).is_null() {
            drop(Box::from_raw(*slot));
        }
        *slot = ptr::null_mut();
    }
}

// noalloc:root
pub fn static_mut_pointer_reset_allocates(i: usize) -> u32 {
    let word = words()[i % 3];
    reset(ptr::addr_of_mut!(WORDS));
    word
}

/// A `static mut` flag of its own: set once, never cleared.
static mut GREETING_SET: bool = false;
static mut GREETING: &str = "";

fn greeting() -> &'static str {
    // SAFETY: the fixture's roots run on one thread.
    unsafe {
        if !GREETING_SET {
            GREETING = String::from("hello").leak();
            GREETING_SET = true;
        }
        *ptr::addr_of!(GREETING)
    }
}

/// Allocates on the first call only.
// noalloc:root
pub fn greeting_behind_static_mut_flag(i: usize) -> usize {
    greeting().len() + i
}

/// A `static mut` flag the root clears again: every call sets it up anew.
static mut FAREWELL_SET: bool = false;
static mut FAREWELL: &str = "";

// noalloc:root
pub fn static_mut_flag_cleared_allocates(i: usize) -> usize {
    // SAFETY: the fixture's roots run on one thread.
    unsafe {
        if !FAREWELL_SET {
            FAREWELL = String::from("bye").leak();
            FAREWELL_SET = true;
        }
        let len = { *ptr::addr_of!(FAREWELL) }.len();
        FAREWELL_SET = false;
        len + i
    }
}

/// An atomic flag guarding the fill of another static, a `static mut`: the
/// branch sets the flag on its only way out, and nothing clears it.
static PRIMES_READY: AtomicBool = AtomicBool::new(false);
static mut PRIMES: Option<Vec<u32>> = None;

fn primes() -> &'static [u32] {
    if !PRIMES_READY.load(Ordering::Acquire) {
        // SAFETY: the fixture's roots run on one thread.
        unsafe { PRIMES = Some(vec![2, 3, 5, 7, 11, 13]) };
        PRIMES_READY.store(true, Ordering::Release);
    }
    // SAFETY: `PRIMES` is set before the flag, and not written again.
    unsafe { (&*ptr::addr_of!(PRIMES)).as_deref().unwrap_or(&[]) }
}

/// Allocates on the first call only.
// noalloc:root
pub fn prime_behind_atomic_flag(i: usize) -> u32 {
    primes()[i % 6]
}

/// The same, but the flag is set on one path out of the branch only (here never
/// with an odd argument): the branch runs again.
static ODDS_READY: AtomicBool = AtomicBool::new(false);
static mut ODDS: Option<Vec<u32>> = None;

// noalloc:root
pub fn flag_set_on_one_path_allocates(x: u32) -> usize {
    if !ODDS_READY.load(Ordering::Acquire) {
        // SAFETY: the fixture's roots run on one thread.
        unsafe { ODDS = Some(vec![1, 3, 5]) };
        if x % 2 == 0 {
            ODDS_READY.store(true, Ordering::Release);
        }
    }
    // SAFETY: as above.
    unsafe { (*ptr::addr_of!(ODDS)).as_ref().map_or(0, Vec::len) }
}

/// The race to initialise of once_cell's `race` module and foldhash's seed: a
/// `let mut` binding loaded from the static, tested, then set to the new value
/// or to the one another thread published first.
static SEED: AtomicPtr<[u64; 4]> = AtomicPtr::new(ptr::null_mut());

fn seed() -> &'static [u64; 4] {
    let mut seed = SEED.load(Ordering::Acquire);
    if seed.is_null() {
        seed = Box::into_raw(Box::new([0x243f, 0x6a88, 0x85a3, 0x08d3]));
        match SEED.compare_exchange(ptr::null_mut(), seed, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {}
            Err(other) => {
                // SAFETY: `seed` lost the race and was never shared.
                drop(unsafe { Box::from_raw(seed) });
                seed = other;
            }
        }
    }
    // SAFETY: a non-null `SEED` is a seed that is never freed.
    unsafe { &*seed }
}

/// Allocates on the first call only.
// noalloc:root
pub fn seed_from_race_to_initialise(i: usize) -> u64 {
    seed()[i % 4]
}

/// The same race, but the binding is set again between the load and the test
/// (here to null on every call with `x > 0`): the branch runs again, and loses.
static NONCE: AtomicPtr<u64> = AtomicPtr::new(ptr::null_mut());

// noalloc:root
pub fn binding_set_before_the_test_allocates(x: u64) -> u64 {
    let mut nonce = NONCE.load(Ordering::Acquire);
    if x > 0 {
        nonce = ptr::null_mut();
    }
    if nonce.is_null() {
        nonce = Box::into_raw(Box::new(x));
        if let Err(other) = NONCE.compare_exchange(ptr::null_mut(), nonce, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: `nonce` lost the race and was never shared.
            drop(unsafe { Box::from_raw(nonce) });
            nonce = other;
        }
    }
    // SAFETY: a non-null `NONCE` is a value that is never freed.
    unsafe { *nonce }
}

/// A fill two calls below the guard: the branch calls a cold function that
/// builds the value and hands it to the one that stores it and the state.
static PREFIX_STATE: AtomicU8 = AtomicU8::new(UNINIT);
static mut PREFIX: &str = "";

fn prefix() -> &'static str {
    if PREFIX_STATE.load(Ordering::Acquire) == UNINIT {
        init_prefix();
    }
    // SAFETY: `PREFIX` is set before the state, and not written again.
    unsafe { *ptr::addr_of!(PREFIX) }
}

#[cold]
fn init_prefix() {
    set_prefix(String::from("noalloc: "));
}

fn set_prefix(prefix: String) {
    // SAFETY: the fixture's roots run on one thread.
    unsafe { PREFIX = prefix.leak() };
    PREFIX_STATE.store(READY, Ordering::Release);
}

/// Allocates on the first call only.
// noalloc:root
pub fn prefix_filled_two_calls_below(i: usize) -> usize {
    prefix().len() + i
}

/// The same, but the function the branch calls may return before the fill (here
/// on every call with `x > 0`, after allocating).
static LABEL_STATE: AtomicU8 = AtomicU8::new(UNINIT);
static mut LABEL: &str = "";

fn init_label(x: u32) {
    let label = x.to_string();
    if x > 0 {
        return;
    }
    set_label(label);
}

fn set_label(label: String) {
    // SAFETY: the fixture's roots run on one thread.
    unsafe { LABEL = label.leak() };
    LABEL_STATE.store(READY, Ordering::Release);
}

// noalloc:root
pub fn callee_may_return_before_the_fill_allocates(x: u32) -> usize {
    if LABEL_STATE.load(Ordering::Acquire) == UNINIT {
        init_label(x);
    }
    // SAFETY: `LABEL` is set before the state, and not written again.
    unsafe { (&*ptr::addr_of!(LABEL)).len() }
}
