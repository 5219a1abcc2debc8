//! The state a service keeps between requests: sessions, counters, queues.

use bytes::{BufMut, BytesMut};
use either::Either;
use hashbrown::HashMap;
use indexmap::IndexMap;
use smallvec::SmallVec;

pub struct Sessions {
    pub by_id: HashMap<u64, u32>,
    pub ordered: IndexMap<u64, u32>,
    pub recent: SmallVec<[u64; 8]>,
}

// noalloc:root
pub fn lookup(sessions: &Sessions, id: u64) -> Option<u32> {
    sessions.by_id.get(&id).copied().or_else(|| sessions.ordered.get(&id).copied())
}

// noalloc:root
pub fn touch(sessions: &mut Sessions, id: u64) {
    if sessions.recent.len() < sessions.recent.inline_size() {
        sessions.recent.push(id);
    }
}

// noalloc:root
pub fn insert(sessions: &mut Sessions, id: u64, user: u32) {
    sessions.by_id.insert(id, user);
    sessions.ordered.insert(id, user);
}

// noalloc:root
pub fn frame(out: &mut BytesMut, payload: &[u8]) {
    out.put_u32(payload.len() as u32);
    out.put_slice(payload);
}

// noalloc:root
pub fn pick(flag: bool, a: u32, b: u64) -> u64 {
    let value: Either<u32, u64> = if flag { Either::Left(a) } else { Either::Right(b) };
    value.either(u64::from, |b| b)
}
