//! A second core walking ahead of the first analysis of a load. A thread holding
//! a clone of the database reaches the roots at the far end of the analysis's
//! order, from the last one back, until it meets the analysis coming the other
//! way: the bodies those roots need are inferred and walked meanwhile, and the
//! analysis finds them in salsa's memos (a query both ask for at once runs once;
//! the other waits for it). Decides nothing and keeps nothing of its own: the
//! analysis's reaches are the answer, whatever this thread got to.
//!
//! What makes this safe is in `subst`: rust-analyzer's trait solver keeps a
//! cache per thread, and a normalization of ours that fails is forgotten there,
//! so that which thread walked a body first cannot change what another body's
//! inference finds (ARCHITECTURE.md, "Inference on two threads").

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use hir::db::HirDatabase;
use hir_def::{FunctionId, HasModule};
use hir_ty::next_solver::{GenericArgs, SolverDefId};
use ra_ap_ide_db::RootDatabase;
use rustc_hash::FxHashSet;
use rustc_type_ir::inherent::GenericArgs as _;

use super::summary_cache::SummaryCache;
use crate::engine::proof::summary::Summaries;
use crate::engine::proof::{
    reach::{self, ReachPolicy},
    resolve,
    walk::{CallGraph, Node},
};
use crate::engine::source::roots;

/// The thread walking ahead, while it runs. Dropping it stops the thread and
/// waits for it (it holds a clone of the database, which an edit waits for).
pub(crate) struct WalkAhead {
    /// Set when the analysis is done (or unwinds): the thread stops within a vertex.
    stop: Arc<AtomicBool>,
    /// How far the analysis has come in its order: the thread stops there.
    analysis_at: Arc<AtomicUsize>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl WalkAhead {
    /// Starts walking ahead of an analysis that takes the roots `order` in that
    /// order (`None` for one this thread skips: a root with explicit arguments,
    /// checked at them), over the `summaries` it reads. None when no thread can
    /// be started.
    pub(crate) fn start(
        db: &RootDatabase,
        order: Vec<Option<FunctionId>>,
        strict_panics: bool,
        mut summaries: Option<SummaryCache>,
    ) -> Option<WalkAhead> {
        let stop = Arc::new(AtomicBool::new(false));
        let analysis_at = Arc::new(AtomicUsize::new(0));
        let db = db.clone();
        let (thread_stop, thread_at) = (stop.clone(), analysis_at.clone());
        let thread = crate::engine::analysis_thread("noalloc-walk-ahead")
            .spawn(move || {
                hir::attach_db(&db, || {
                    // A cancellation (an edit) or a panic ends the walking ahead, not
                    // the analysis, which meets its own.
                    std::panic::catch_unwind(AssertUnwindSafe(|| {
                        walk_ahead(&db, &order, strict_panics, summaries.as_mut(), &thread_stop, &thread_at)
                    }))
                    .unwrap_or(0)
                })
            })
            .ok()?;
        Some(WalkAhead { stop, analysis_at, thread: Some(thread) })
    }

    /// The analysis is taking the root at `position` of its order.
    pub(crate) fn analysis_at(&self, position: usize) {
        self.analysis_at.store(position, Ordering::Relaxed);
    }

    /// Stops the thread and waits for it. Returns how many roots it reached.
    pub(crate) fn finish(mut self) -> usize {
        self.stop_and_join()
    }

    fn stop_and_join(&mut self) -> usize {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().and_then(|thread| thread.join().ok()).unwrap_or(0)
    }
}

impl Drop for WalkAhead {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

/// Reaches the roots of `order` from the last, while the analysis is short of
/// them and not done. Returns how many it reached.
fn walk_ahead(
    db: &RootDatabase,
    order: &[Option<FunctionId>],
    strict_panics: bool,
    mut summaries: Option<&mut SummaryCache>,
    stop: &AtomicBool,
    analysis_at: &AtomicUsize,
) -> usize {
    let db: &dyn HirDatabase = db;
    let Some(first) = order.iter().flatten().next() else { return 0 };
    let mut graph = CallGraph::new(db, first.krate(db));
    let mut walked = FxHashSet::default();
    let mut reached = 0;
    let is_local = |node: &Node<'_>| crate::engine::analysis::is_local(db, node);
    // Growth facts change no vertex reached; the analysis works them out itself.
    let grows = |_: FunctionId| false;
    let policy = ReachPolicy { is_local: &is_local, strict_panics, grows: &grows, stop: Some(stop) };
    for (position, func) in order.iter().enumerate().rev() {
        if stop.load(Ordering::Relaxed) || position <= analysis_at.load(Ordering::Relaxed) {
            break;
        }
        let Some(func) = *func else { continue };
        // A generic root is reached at the instantiations the analysis finds.
        let args = GenericArgs::identity_for_item(graph.interner, SolverDefId::FunctionId(func));
        if roots::is_generic(args) {
            continue;
        }
        let env = roots::env_of(db, func);
        let outside = resolve::outside_of_params(&mut graph, func, args, env);
        reach::reach(
            &mut graph,
            Node::function(func, args),
            env,
            outside,
            &policy,
            summaries.as_deref_mut().map(|s| s as &mut dyn Summaries),
            &mut walked,
        );
        reached += 1;
    }
    reached
}
