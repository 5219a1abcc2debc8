//! First use holds only while the filled place stays filled: a fill that code in
//! the root's reach empties again (`= None`, `take()`, `mem::take`, a reset of what
//! holds it) runs again on a later call.

#[derive(Default)]
pub struct Cache {
    pub table: Option<Vec<u8>>,
    pub other: Option<Vec<u8>>,
    pub state: State,
}

#[derive(Default)]
pub struct State {
    pub table: Option<Vec<u8>>,
}

impl Cache {
    fn reset(&mut self) {
        self.table = None;
    }

    // noalloc:root
    pub fn fill_then_set_none(&mut self) -> usize {
        let n = self.table.get_or_insert_with(|| vec![1, 2, 3]).len();
        self.table = None;
        n
    }

    // noalloc:root
    pub fn fill_then_take(&mut self) -> usize {
        if self.table.is_none() {
            self.table = Some(vec![1, 2, 3]);
        }
        self.table.take().map_or(0, |t| t.len())
    }

    // noalloc:root
    pub fn fill_then_reset_in_helper(&mut self) -> usize {
        if self.table.is_none() {
            self.table = Some(vec![1, 2]);
        }
        let n = self.table.as_ref().map_or(0, |t| t.len());
        self.reset();
        n
    }

    // noalloc:root
    pub fn fill_then_replace_self(&mut self) -> usize {
        let n = self.table.get_or_insert_with(|| vec![1, 2]).len();
        *self = Cache::default();
        n
    }

    // noalloc:root
    pub fn fill_then_mem_take(&mut self) -> usize {
        let n = self.table.get_or_insert_with(|| vec![1, 2]).len();
        let old = std::mem::take(&mut self.table);
        std::mem::forget(old);
        n
    }

    // noalloc:root
    pub fn fill_inner_then_reset_holder(&mut self) -> usize {
        let n = self.state.table.get_or_insert_with(|| vec![1]).len();
        std::mem::forget(std::mem::take(&mut self.state));
        n
    }

    // noalloc:root
    pub fn fill_then_read(&mut self) -> usize {
        let n = self.table.get_or_insert_with(|| vec![1, 2, 3]).len();
        n + self.table.as_ref().map_or(0, |t| t.len())
    }

    // noalloc:root
    pub fn fill_then_empty_another_field(&mut self) -> usize {
        let n = self.table.get_or_insert_with(|| vec![1, 2, 3]).len();
        self.other = None;
        n
    }

    // noalloc:root
    pub fn fill_then_write_through_match(&mut self) -> usize {
        if self.table.is_none() {
            self.table = Some(vec![1, 2, 3]);
        }
        if let Some(t) = &mut self.table {
            t[0] = 9;
        }
        self.table.as_ref().map_or(0, |t| t.len())
    }
}

/// Empties what it holds when dropped.
pub struct Clearing<'a> {
    slot: &'a mut Option<Vec<u8>>,
}

impl Drop for Clearing<'_> {
    fn drop(&mut self) {
        std::mem::forget(self.slot.take());
    }
}

/// Empties an `Option` through `&mut self`.
pub trait Wipe {
    fn wipe(&mut self);
}

impl Wipe for Option<Vec<u8>> {
    fn wipe(&mut self) {
        std::mem::forget(self.take());
    }
}

impl Cache {
    fn fill(&mut self) -> usize {
        if self.table.is_none() {
            self.table = Some(vec![1, 2]);
        }
        self.table.as_ref().map_or(0, |t| t.len())
    }

    fn slot(&mut self) -> &mut Option<Vec<u8>> {
        &mut self.table
    }

    // What empties the place may reach it through a reference, a raw pointer, a
    // guard's `Drop` or a method of the `Option` itself.

    // noalloc:root
    pub fn fill_then_take_through_binding(&mut self) -> usize {
        let n = self.fill();
        let Cache { table, .. } = self;
        std::mem::forget(table.take());
        n
    }

    // noalloc:root
    pub fn fill_then_take_through_method(&mut self) -> usize {
        let n = self.fill();
        std::mem::forget(self.slot().take());
        n
    }

    // noalloc:root
    pub fn fill_then_write_through_raw_pointer(&mut self) -> usize {
        let n = self.fill();
        let table = &mut self.table as *mut Option<Vec<u8>>;
        unsafe { std::mem::forget(table.replace(None)) };
        n
    }

    // noalloc:root
    pub fn fill_then_guard_empties(&mut self) -> usize {
        let n = self.fill();
        let Cache { table, .. } = self;
        let _clearing = Clearing { slot: table };
        n
    }

    // noalloc:root
    pub fn fill_then_wipe(&mut self) -> usize {
        let n = self.fill();
        self.table.wipe();
        n
    }
}
