//! An allowance covers its own call, never a whole subtree: growth with room still
//! runs element clones, hashes and closures; first use fills once; a room proof is
//! used up by the growth it proves.
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

pub struct Buffers {
    pub names: Vec<String>,
    pub nums: Vec<u32>,
    pub text: String,
    pub index: HashMap<Key, u32>,
    pub queue: Vec<u32>,
    pub table: Option<Vec<u32>>,
}

impl Buffers {
    pub fn new() -> Buffers {
        Buffers {
            names: Vec::with_capacity(64),
            nums: Vec::with_capacity(64),
            text: String::with_capacity(256),
            index: HashMap::with_capacity(64),
            queue: Vec::new(),
            table: None,
        }
    }

    pub fn reset(&mut self) {
        self.names.clear();
        self.nums.clear();
        self.text.clear();
        self.index.clear();
    }
}

impl Default for Buffers {
    fn default() -> Self {
        Buffers::new()
    }
}

/// A key whose `Hash` allocates.
#[derive(PartialEq, Eq)]
pub struct Key(pub u32);
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let spelled = self.0.to_string();
        spelled.hash(state);
    }
}

/// Room proven, but the elements' `Clone` allocates.
// noalloc:root
pub fn extend_clones_with_room(b: &mut Buffers, xs: &[String]) {
    if b.names.capacity() - b.names.len() >= xs.len() {
        b.names.extend_from_slice(xs);
    }
}

// noalloc:root
pub fn extend_copies_with_room(b: &mut Buffers, xs: &[u32]) {
    if b.nums.capacity() - b.nums.len() >= xs.len() {
        b.nums.extend_from_slice(xs);
    }
}

/// Room proven for one insert, but the key's `Hash` allocates.
// noalloc:root
pub fn insert_hashes_with_room(b: &mut Buffers, k: u32) {
    if b.index.len() < b.index.capacity() {
        b.index.insert(Key(k), k);
    }
}

/// Room proven for the map's growth, but the closure allocates.
// noalloc:root
pub fn extend_map_closure_with_room(b: &mut Buffers, xs: &[u32]) {
    if b.nums.capacity() - b.nums.len() >= xs.len() {
        b.nums.extend(xs.iter().map(|x| x.to_string().len() as u32));
    }
}

/// A `Display` that allocates.
pub struct Spelled(pub u32);
impl std::fmt::Display for Spelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.0.to_string();
        f.write_str(&s)
    }
}

// noalloc:root
pub fn write_display_with_room(b: &mut Buffers, x: u32) {
    if b.text.capacity() - b.text.len() >= 32 {
        let _ = write!(b.text, "{}", Spelled(x));
    }
}

/// Two pushes under one `len() < capacity()`: the second may grow.
// noalloc:root
pub fn two_pushes_one_check(b: &mut Buffers, x: u32) {
    if b.nums.len() < b.nums.capacity() {
        b.nums.push(x);
        b.nums.push(x + 1);
    }
}

// noalloc:root
pub fn one_push_one_check(b: &mut Buffers, x: u32) {
    if b.nums.len() < b.nums.capacity() {
        b.nums.push(x);
    }
}

/// A check before the loop proves room for one push, not one per iteration.
// noalloc:root
pub fn loop_under_one_check(b: &mut Buffers, xs: &[u32]) {
    if b.nums.len() < b.nums.capacity() {
        for &x in xs {
            b.nums.push(x);
        }
    }
}

// noalloc:root
pub fn loop_checks_each_time(b: &mut Buffers, xs: &[u32]) {
    for &x in xs {
        if b.nums.len() == b.nums.capacity() {
            break;
        }
        b.nums.push(x);
    }
}

/// Room for `n` covers a growth by `n`, not by something else.
// noalloc:root
pub fn room_for_other_length(b: &mut Buffers, xs: &[u32], n: usize) {
    if b.nums.capacity() - b.nums.len() >= n {
        b.nums.extend_from_slice(xs);
    }
}

// noalloc:root
pub fn room_for_same_length(b: &mut Buffers, xs: &[u32]) {
    let n = xs.len();
    if b.nums.capacity() - b.nums.len() >= n {
        b.nums.extend_from_slice(xs);
    }
}

fn note(x: u32) -> usize {
    format!("filled {x}").len()
}

/// First use covers the fill, not other calls in the branch.
// noalloc:root
pub fn first_use_with_extra_call(b: &mut Buffers, x: u32) -> usize {
    if b.table.is_none() {
        note(x);
        b.table = Some(Vec::with_capacity(16));
    }
    b.table.as_ref().map_or(0, |t| t.len())
}

// noalloc:root
pub fn first_use_fill_only(b: &mut Buffers) -> usize {
    if b.table.is_none() {
        b.table = Some(Vec::with_capacity(16));
    }
    b.table.as_ref().map_or(0, |t| t.len())
}

fn load() -> Vec<u32> {
    vec![1, 2, 3]
}

/// A queue the code drains again: refilling it is steady-state work.
// noalloc:root
pub fn refill_drained_queue(b: &mut Buffers) -> u32 {
    if b.queue.is_empty() {
        b.queue = load();
    }
    let total = b.queue.iter().sum();
    b.queue.clear();
    total
}

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = RefCell::new(vec![1, 2, 3]);
}

/// The closure given to `LocalKey::with` runs on every call.
// noalloc:root
pub fn thread_local_with_allocating_closure(x: u8) -> usize {
    SCRATCH.with(|s| {
        let copy = s.borrow().clone();
        copy.len() + x as usize
    })
}

// noalloc:root
pub fn thread_local_with_quiet_closure(x: u8) -> usize {
    SCRATCH.with(|s| s.borrow().len() + x as usize)
}

/// `len() < capacity()` leaves room for one byte; a `char` takes up to four.
// noalloc:root
pub fn push_char_with_room_for_a_byte(s: &mut String, c: char) {
    if s.len() < s.capacity() {
        s.push(c);
    }
}

// noalloc:root
pub fn insert_char_with_room_for_a_byte(s: &mut String) {
    if s.len() < s.capacity() {
        s.insert(0, 'é');
    }
}

// noalloc:root
pub fn push_ascii_with_room_for_a_byte(s: &mut String) {
    if s.len() < s.capacity() {
        s.push('a');
    }
}

// noalloc:root
pub fn push_char_with_room_for_four(s: &mut String, c: char) {
    if s.capacity() - s.len() >= 4 {
        s.push(c);
    }
}

/// First use is of a place that outlives the call: a static, or a field reached
/// through a reference. A field of a value the function owns is new every call.
pub struct Lazily {
    pub cache: Option<Vec<u8>>,
    pub cell: std::cell::OnceCell<Vec<u8>>,
}

impl Lazily {
    pub fn new() -> Lazily {
        Lazily { cache: None, cell: std::cell::OnceCell::new() }
    }
}

impl Default for Lazily {
    fn default() -> Self {
        Lazily::new()
    }
}

// noalloc:root
pub fn once_cell_field_of_local() -> usize {
    let lazily = Lazily::new();
    let n = lazily.cell.get_or_init(|| vec![1, 2]).len();
    n
}

// noalloc:root
pub fn get_or_insert_with_field_of_local() -> usize {
    let mut lazily = Lazily::new();
    let n = lazily.cache.get_or_insert_with(|| vec![1, 2]).len();
    n
}

// noalloc:root
pub fn first_use_of_by_value_parameter(mut lazily: Lazily) -> usize {
    if lazily.cache.is_none() {
        lazily.cache = Some(vec![1, 2, 3]);
    }
    lazily.cache.as_ref().map_or(0, |c| c.len())
}

// noalloc:root
pub fn first_use_through_reference(lazily: &mut Lazily) -> usize {
    lazily.cache.get_or_insert_with(|| vec![1, 2]).len()
}

/// A room proof holds while its buffer is left alone: replaced, taken or rebound,
/// the buffer may have no room left.
// noalloc:root
pub fn proof_then_replaced(v: &mut Vec<u32>, x: u32) {
    if v.len() < v.capacity() {
        *v = Vec::new();
        v.push(x);
    }
}

// noalloc:root
pub fn proof_then_taken(v: &mut Vec<u32>, x: u32) -> usize {
    if v.len() < v.capacity() {
        let old = std::mem::take(v);
        v.push(x);
        return old.len();
    }
    0
}

// noalloc:root
pub fn proof_then_rebound<'a>(mut v: &'a mut Vec<u32>, w: &'a mut Vec<u32>, x: u32) {
    if v.len() < v.capacity() {
        v = w;
        v.push(x);
    }
}

/// Clearing keeps the capacity: the proof still holds.
// noalloc:root
pub fn proof_then_cleared(v: &mut Vec<u32>, x: u32) {
    if v.len() < v.capacity() {
        v.clear();
        v.push(x);
    }
}

/// A method that fills a field of `self` on first use: first use only when what
/// `self` points to outlives the call.
pub struct Memo {
    pub value: Option<Vec<u8>>,
}

impl Memo {
    pub fn get(&mut self) -> usize {
        self.value.get_or_insert_with(|| vec![1, 2, 3]).len()
    }
}

// noalloc:root
pub fn first_use_in_a_method_of_a_fresh_local() -> usize {
    let mut memo = Memo { value: None };
    memo.get()
}

// noalloc:root
pub fn first_use_in_a_method_of_the_callers_memo(memo: &mut Memo) -> usize {
    memo.get()
}

// noalloc:root
pub fn proof_then_written_through_a_pointer(v: &mut Vec<u32>, x: u32) {
    if v.len() < v.capacity() {
        let p = v as *mut Vec<u32>;
        unsafe { *p = Vec::new() };
        v.push(x);
    }
}

/// std's `Peekable::peek` fills `self.peeked` with `get_or_insert_with`, and
/// `next` empties it: not first use. An `Option` outside the user's code is no
/// first use.
pub type Peeked<'a> = std::iter::Peekable<std::iter::Map<std::slice::Iter<'a, u32>, fn(&u32) -> usize>>;

pub fn spell(x: &u32) -> usize {
    x.to_string().len()
}

// noalloc:root
pub fn peek_each_time(items: &mut Peeked<'_>) -> usize {
    items.peek().copied().unwrap_or(0)
}
