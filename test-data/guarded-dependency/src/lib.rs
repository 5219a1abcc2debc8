//! Calls into a dependency that proves room in its own body.

use guarded::Log;

// noalloc:root
pub fn record(log: &mut Log, x: u32) -> bool {
    log.record(x)
}

// noalloc:root
pub fn record_allocates(log: &mut Log, x: u32) {
    log.record_anyway(x);
}
