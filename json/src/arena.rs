//! `Arena`: string memory for a decode, carved from the caller's own buffers.
//! It hands out disjoint `&'a mut [u8]` pieces and, when its chunk runs out, asks a
//! callback for the next one; it never allocates and never frees.

use crate::error::ErrorKind;

/// Callback that lends the arena another chunk of at least `n` bytes, or `None`.
pub type MoreChunks<'a> = dyn FnMut(usize) -> Option<&'a mut [u8]> + 'a;

/// Bump memory over caller-owned chunks. Escaped strings decode into it, each
/// taking its decoded length and needing room for only that.
///
/// ```
/// let mut mem = [0u8; 64];
/// let mut spare = [0u8; 256];
/// let mut spare = Some(&mut spare[..]);
/// let mut more = |_need: usize| spare.take();
/// let arena = json::Arena::new(&mut mem).with_more(&mut more);
/// let mut reader = json::Reader::new(br#""tab\tand \u00e9""#).with_arena(arena);
/// let s: &str = reader.read().unwrap();
/// assert_eq!(s, "tab\tand é");
/// ```
pub struct Arena<'a> {
    rest: &'a mut [u8],
    more: Option<&'a mut MoreChunks<'a>>,
    used: usize,
}

impl<'a> Arena<'a> {
    /// An arena over `mem` and nothing else.
    pub fn new(mem: &'a mut [u8]) -> Arena<'a> {
        Arena { rest: mem, more: None, used: 0 }
    }

    /// An arena with no memory: any escaped string read into it fails with `Full`.
    pub fn empty() -> Arena<'a> {
        Arena { rest: &mut [], more: None, used: 0 }
    }

    /// Ask `more(n)` for another chunk (of at least `n` bytes) when this one fills.
    /// What is left of the old chunk is not used again.
    pub fn with_more(mut self, more: &'a mut MoreChunks<'a>) -> Arena<'a> {
        self.more = Some(more);
        self
    }

    /// Bytes left in the current chunk.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Bytes handed out so far.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Lends up to `max` bytes to `fill`, which writes into them and says how many
    /// it used; those stay taken, the rest goes back to the arena.
    pub(crate) fn fill<E>(
        &mut self,
        max: usize,
        fill: impl FnOnce(&mut [u8]) -> Result<usize, E>,
        full: E,
    ) -> Result<&'a mut [u8], E> {
        if self.rest.len() < max {
            let chunk = match self.more.as_mut().and_then(|more| more(max)) {
                Some(chunk) if chunk.len() >= max => chunk,
                _ => return Err(full),
            };
            self.rest = chunk;
        }
        let mem = core::mem::take(&mut self.rest);
        let (window, _) = mem.split_at_mut(max);
        let n = match fill(window) {
            Ok(n) => n,
            Err(e) => {
                self.rest = mem;
                return Err(e);
            }
        };
        let (taken, rest) = mem.split_at_mut(n);
        self.rest = rest;
        self.used += n;
        Ok(taken)
    }

    /// Copies `bytes` into the arena.
    pub fn copy(&mut self, bytes: &[u8]) -> Result<&'a mut [u8], ErrorKind> {
        self.fill(
            bytes.len(),
            |w| {
                w.copy_from_slice(bytes);
                Ok(bytes.len())
            },
            ErrorKind::Full,
        )
    }
}

impl Default for Arena<'_> {
    fn default() -> Self {
        Arena::empty()
    }
}
