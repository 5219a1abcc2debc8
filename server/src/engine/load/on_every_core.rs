//! Work that reads the same on any thread (parsing, a body's syntax or lowered
//! form, hashing a file), spread over the cores in runs: each thread takes one run
//! of the items, so neighbours share their files' parses. Never type inference:
//! which thread infers a body first is `walk_ahead`'s, whose answers the analysis
//! confirms (ARCHITECTURE.md, Decisions).

use std::panic::AssertUnwindSafe;

use ra_ap_ide_db::RootDatabase;

/// `work` of every item, in order, on up to `threads` threads (this one among
/// them), none with fewer than `least_per_thread` items. A panic or cancellation
/// on any thread is raised again on this one.
pub(crate) fn map<T: Sync, R: Send>(
    db: &RootDatabase,
    items: &[T],
    threads: usize,
    least_per_thread: usize,
    work: impl Fn(&RootDatabase, &T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len() / least_per_thread.max(1)).max(1);
    let run = items.len().div_ceil(threads).max(1);
    let work = &work;
    let run_of = move |db: &RootDatabase, items: &[T]| items.iter().map(|item| work(db, item)).collect::<Vec<R>>();
    let outcome = std::thread::scope(|scope| {
        let mut runs = items.chunks(run);
        let own = runs.next().unwrap_or_default();
        let helpers: Vec<_> = runs
            .map(|items| {
                let db = db.clone();
                let spawned = crate::engine::analysis_thread("noalloc-worker")
                    .spawn_scoped(scope, move || hir::attach_db(&db, || run_of(&db, items)));
                (items, spawned)
            })
            .collect();
        let mut results = std::panic::catch_unwind(AssertUnwindSafe(|| run_of(db, own)));
        for (items, spawned) in helpers {
            // A thread that could not start leaves its run to this one.
            let done = match spawned {
                Ok(helper) => helper.join(),
                Err(_) => std::panic::catch_unwind(AssertUnwindSafe(|| run_of(db, items))),
            };
            results = match (results, done) {
                (Ok(mut results), Ok(more)) => {
                    results.extend(more);
                    Ok(results)
                }
                (Err(payload), _) | (_, Err(payload)) => Err(payload),
            };
        }
        results
    });
    outcome.unwrap_or_else(|payload| std::panic::resume_unwind(payload))
}
