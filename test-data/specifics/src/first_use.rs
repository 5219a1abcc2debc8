//! First-use setup: a branch that finds a field or static empty and fills it, and
//! the lazy cells of std.
use std::cell::{OnceCell, RefCell};
use std::sync::{LazyLock, Once, OnceLock};

pub struct Cache {
    table: Option<Vec<u32>>,
    names: Vec<String>,
    lazy: OnceCell<Vec<u8>>,
}

impl Cache {
    // Allowed: the branch finds `self.table` empty and fills it.
    // noalloc:root
    pub fn table_is_none_guard(&mut self) -> usize {
        if self.table.is_none() {
            self.table = Some(Vec::with_capacity(256));
        }
        self.table.as_ref().map_or(0, |t| t.len())
    }

    // Allowed: `if let None = ..` is the same guard.
    // noalloc:root
    pub fn table_if_let_none(&mut self) -> usize {
        if let None = self.table {
            self.table = Some(vec![0; 16]);
        }
        1
    }

    // Allowed: `get_or_insert_with` on a field.
    // noalloc:root
    pub fn get_or_insert_with_field(&mut self) -> usize {
        self.table.get_or_insert_with(|| Vec::with_capacity(64)).len()
    }

    // Allowed: `OnceCell::get_or_init`.
    // noalloc:root
    pub fn once_cell(&self) -> usize {
        self.lazy.get_or_init(|| vec![1, 2, 3]).len()
    }

    // Flagged: the same allocation without the emptiness check.
    // noalloc:root
    pub fn no_guard(&mut self) -> usize {
        self.table = Some(Vec::with_capacity(256));
        1
    }

    // Flagged: the guard checks one field and fills another.
    // noalloc:root
    pub fn guard_fills_other_field(&mut self) -> usize {
        if self.table.is_none() {
            self.names = vec![String::new()];
        }
        self.names.len()
    }
}

static TABLE: OnceLock<Vec<u64>> = OnceLock::new();
static SQUARES: LazyLock<Vec<u64>> = LazyLock::new(|| (0..64).map(|i| i * i).collect());
static INIT: Once = Once::new();

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = RefCell::new(Vec::with_capacity(1024));
}

// Allowed: `OnceLock::get_or_init` on a static.
// noalloc:root
pub fn once_lock_static() -> usize {
    TABLE.get_or_init(|| vec![0; 128]).len()
}

// Allowed: `LazyLock` initialises on first deref.
// noalloc:root
pub fn lazy_lock_static(i: usize) -> u64 {
    SQUARES[i % 64]
}

// Allowed: `Once::call_once`.
// noalloc:root
pub fn once_call_once() {
    INIT.call_once(|| {
        let _ = TABLE.set(vec![1; 8]);
    });
}

// Allowed: a `thread_local!` is initialised on first use.
// noalloc:root
pub fn thread_local_first_use() -> usize {
    SCRATCH.with(|s| s.borrow().capacity())
}

// Flagged: a local `Option` is not long-lived: this allocates on every call.
// noalloc:root
pub fn local_option_guard() -> usize {
    let mut local: Option<Vec<u8>> = None;
    if local.is_none() {
        local = Some(Vec::with_capacity(8));
    }
    local.map_or(0, |v| v.capacity())
}

// Flagged: a local `OnceCell` is filled on every call.
// noalloc:root
pub fn local_once_cell() -> usize {
    let cell: OnceCell<Vec<u8>> = OnceCell::new();
    cell.get_or_init(|| vec![0; 32]).len()
}
