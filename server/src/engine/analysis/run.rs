//! One run over the roots, once they are collected: the order they are judged in
//! (a `Watch`'s files first, sealed files before the rest), one root's reach ->
//! judge -> findings, the summaries it leaves, a panic while checking one root
//! contained as that root's internal error, and the run's totals. The rules and
//! the findings' words are the `Analyzer`'s (`analysis`, `proof`), not this file's.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use hir::db::HirDatabase;
use hir_def::{DefWithBodyId, FunctionId, HasModule};
use hir_ty::next_solver::{GenericArgs, SolverDefId};
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::inherent::GenericArgs as _;

use super::{
    costliest, holder_fn, internal_error, merge_by_line, root_name_of, strip_generic_calls, Analyzer, FirstFiles,
    Shared, Watch, GENERIC_ROOT_NEVER_INSTANTIATED, PUT_OFF_NODES_KEPT,
};
use crate::engine::proof::{
    allowances::BodyFacts,
    incremental::{AnswerStamp, WalkStamp},
    judge::{self, Judged},
    reach::{self, Reach, ReachPolicy, Resolved},
    resolve,
    summary::Summaries,
    walk::{CallGraph, Node, Site},
};
use crate::engine::reuse::{
    root_reuse::{FindingKey, ReachFacts, RootKey, RootMemos, RootOutcome},
    stored_roots::{stable_instance_hash, StoredRoot, StoredRoots},
    summary_cache::SummaryCache,
    walk_ahead::WalkAhead,
};
use crate::engine::source::instantiations;
use crate::engine::source::roots::{self, RootFn};
use crate::engine::{
    panics::{CaughtPanic, Unwound},
    Analysis, CheckConfig, ErrorFinding, Finding, FindingKind, Location, RootReport,
};

/// The order roots are judged in, and when the watched files are complete.
pub(super) struct RootOrder {
    /// Indices into the roots, in the order they are first taken up.
    pub order: Vec<usize>,
    /// (how many roots of `order` are judged, a sealed watched file complete then).
    pub tells: VecDeque<(usize, PathBuf)>,
    /// The watched files that are not sealed: complete once every root that may
    /// say anything about them is judged.
    pub unsealed: Vec<PathBuf>,
}

/// Orders the roots for a watch. Unwatched: the roots in order. Watched: (1) the
/// roots defined in the watched files, (2) the others, each reached first and
/// judged at once if its reach holds code of a watched file, else put off to (3).
/// After (2) no root left can say anything about the watched files. A sealed
/// watched file (no code outside it can reach code in it) is complete once its own
/// roots are judged: they go first, it is told then.
pub(super) fn order_roots(roots: &[RootFn], first_files: &FirstFiles, sealed: Vec<(super::Given, bool)>) -> RootOrder {
    let mut order: Vec<usize> = Vec::with_capacity(roots.len());
    let mut placed = vec![false; roots.len()];
    let mut tells: VecDeque<(usize, PathBuf)> = VecDeque::new();
    for (given, _) in sealed.iter().filter(|(_, sealed)| *sealed) {
        let own: Vec<usize> = (0..roots.len()).filter(|&r| !placed[r] && given.is(&roots[r].location.file)).collect();
        own.iter().for_each(|&r| placed[r] = true);
        order.extend(own);
        tells.push_back((order.len(), given.path.clone()));
    }
    let unsealed: Vec<PathBuf> =
        sealed.into_iter().filter(|(_, sealed)| !*sealed).map(|(given, _)| given.path).collect();
    let (watched, others): (Vec<usize>, Vec<usize>) =
        (0..roots.len()).filter(|&r| !placed[r]).partition(|&r| first_files.holds(&roots[r].location.file));
    order.extend(watched);
    order.extend(others);
    RootOrder { order, tells, unsealed }
}

/// A root's reaches, one per instantiation checked, with its name.
pub(super) struct RootReaches<'db> {
    root_name: String,
    /// Generic and never instantiated: checked at its own parameters.
    never_instantiated: bool,
    reaches: Vec<Reach<'db>>,
}

/// A root put off to the last pass: its reaches while they are small, and the
/// walks it read when it was reached first.
struct PutOff<'db> {
    root: usize,
    kept: Option<RootReaches<'db>>,
    read: Vec<WalkStamp>,
}

/// The root to take up next, as the order or the pass of put-off roots gives it.
struct NextRoot<'db> {
    root: usize,
    /// Judged only if its reach holds code of a watched file, else put off.
    probe: bool,
    kept: Option<RootReaches<'db>>,
    /// For a root put off: the walks it read when it was reached first, which its
    /// kept reaches are judged from.
    read_before: Option<Vec<WalkStamp>>,
}

/// Where the run's time went, by phase.
#[derive(Default)]
struct PhaseTimes {
    reach: Duration,
    judge: Duration,
    summaries: Duration,
}

/// What one root's reaches add up to while they are judged.
struct RootJudging<'db> {
    /// Whether its outcome may be kept for the next analysis, in a live
    /// workspace's memory or in the store: not when any body may add an
    /// instantiation it is checked at.
    keepable: bool,
    /// Whether a live workspace may keep it: not when it reaches workspace code
    /// outside a function, whose file is not known.
    memo_keepable: bool,
    /// The lines with findings, over every instantiation of this root.
    lines: FxHashSet<(PathBuf, u32)>,
    functions_checked: usize,
    allowed: Vec<crate::engine::AllowedCall>,
    /// Its own findings, apart from the other roots' (`apply_outcome` merges them).
    findings: FxHashMap<FindingKey, (Finding, usize)>,
    checked: FxHashSet<Node<'db>>,
    /// The workspace bodies it walks: functions (a closure's is its holder's), and
    /// statics' and consts' initialisers.
    bodies: FxHashSet<DefWithBodyId>,
    summarised_now: FxHashSet<Node<'db>>,
    sees_every_impl: bool,
    closed: bool,
    answers: Option<Vec<AnswerStamp>>,
}

impl RootJudging<'_> {
    fn new(keepable: bool) -> Self {
        RootJudging {
            keepable,
            memo_keepable: true,
            lines: FxHashSet::default(),
            functions_checked: 0,
            allowed: Vec::new(),
            findings: FxHashMap::default(),
            checked: FxHashSet::default(),
            bodies: FxHashSet::default(),
            summarised_now: FxHashSet::default(),
            sees_every_impl: false,
            closed: true,
            answers: Some(Vec::new()),
        }
    }
}

/// The mutable state of one run: the analyzer, the graph the reaches are built in,
/// the caches, and what the roots judged so far add up to.
pub(super) struct RunState<'a, 'c> {
    pub analyzer: Analyzer<'a>,
    pub config: &'c CheckConfig,
    pub roots: Vec<RootFn>,
    pub graph: CallGraph<'a>,
    pub cache: Option<&'c mut SummaryCache>,
    pub memos: Option<&'c mut RootMemos>,
    pub watch: &'c mut dyn Watch,
    pub analysis: Analysis,
    pub pending_errors: Vec<(ErrorFinding, Option<FunctionId>)>,
    pub first_files: FirstFiles,
    pub walk_ahead: Option<WalkAhead>,
    /// Each finding with the index of the first root (in `roots`) that reports it:
    /// its chain is that root's, whatever order the roots are judged in.
    findings: FxHashMap<FindingKey, (Finding, usize)>,
    checked_overall: FxHashSet<salsa::Id>,
    walked_nodes: FxHashSet<Node<'a>>,
    times: PhaseTimes,
    local_functions: Option<Vec<FunctionId>>,
    /// The time each root (by index) took, over its passes.
    root_ms: FxHashMap<usize, u128>,
    put_off: VecDeque<PutOff<'a>>,
    kept_nodes: usize,
    reports: Vec<(usize, RootReport)>,
    /// The stored outcomes the edits since leave standing (`stored_roots`), each
    /// taken by its root.
    stored: Option<StoredRoots>,
    /// Each root's outcome as a run after edits may reuse it; `None` without a
    /// cache directory to keep them in.
    keeping: Option<Vec<StoredRoot>>,
    /// With `keeping`: the instances checked over every root, by stable hash
    /// (`stored_roots::stable_instance_hash`), reused outcomes' too.
    stable_checked: FxHashSet<u64>,
    /// What the outcomes reused from the store read of the workspace's code, and
    /// the functions of it that hold items.
    stored_walked: Vec<Location>,
    stored_making_items: Vec<Location>,
    /// The workspace functions the directives' report asks which roots reach
    /// (those of exemptions and of errors in directives), by place, to find those
    /// a stored outcome reports (worked out when first needed).
    asked_by_place: Option<FxHashMap<Location, FunctionId>>,
}

impl<'a, 'c> RunState<'a, 'c> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        analyzer: Analyzer<'a>,
        config: &'c CheckConfig,
        roots: Vec<RootFn>,
        cache: Option<&'c mut SummaryCache>,
        memos: Option<&'c mut RootMemos>,
        watch: &'c mut dyn Watch,
        analysis: Analysis,
        pending_errors: Vec<(ErrorFinding, Option<FunctionId>)>,
    ) -> Self {
        let db: &'a dyn HirDatabase = analyzer.db;
        let graph = CallGraph::new(db, roots[0].func.krate(db));
        let first_files = FirstFiles::new(watch.first_files(), analyzer.ws);
        let reports = Vec::with_capacity(roots.len());
        // Outcomes are kept for the store when it may take them: an analysis
        // that reuses outcomes from a live workspace's memory keeps none.
        let keeping = config.cache_dir.is_some() && (memos.is_none() || !analyzer.ws.analysis_finished());
        RunState {
            analyzer,
            config,
            roots,
            graph,
            cache,
            memos,
            watch,
            analysis,
            pending_errors,
            first_files,
            walk_ahead: None,
            findings: FxHashMap::default(),
            checked_overall: FxHashSet::default(),
            walked_nodes: FxHashSet::default(),
            times: PhaseTimes::default(),
            local_functions: None,
            root_ms: FxHashMap::default(),
            put_off: VecDeque::new(),
            kept_nodes: 0,
            reports,
            stored: None,
            keeping: keeping.then(Vec::new),
            stable_checked: FxHashSet::default(),
            stored_walked: Vec::new(),
            stored_making_items: Vec::new(),
            asked_by_place: None,
        }
    }

    /// Takes the stored outcomes that stand for their roots in this run.
    pub(super) fn take_stored(&mut self, stored: Option<StoredRoots>) {
        if let Some(stored) = &stored {
            self.analysis.timings.roots_stored = stored.stored;
            self.analysis.timings.stored_edited_files = stored.edited_files;
        }
        self.stored = stored;
    }

    /// Root `r`'s stored outcome, applied, when the edits since leave it standing.
    fn reuse_stored(&mut self, r: usize) -> bool {
        let root = &self.roots[r];
        let Some(kept) = self.stored.as_mut().and_then(|stored| stored.take(&root.location, &root.args)) else {
            return false;
        };
        let reached = self.asked_functions_at(&kept.reached);
        let outcome = RootOutcome {
            report: kept.report.clone(),
            findings: kept.findings.clone(),
            reached,
            lets_through: kept.lets_through.clone(),
            used_allow: kept.used_allow.clone(),
            // Only ever read while judging the root that found them.
            allowed_terminals: Vec::new(),
            checked: Vec::new(),
        };
        self.analyzer.apply_outcome(&outcome, r, &mut self.findings, &mut self.checked_overall);
        self.stable_checked.extend(&kept.checked);
        self.stored_walked.extend(kept.walked.iter().cloned());
        self.stored_making_items.extend(kept.walked_making_items.iter().cloned());
        self.reports.push((r, outcome.report));
        self.analysis.timings.roots_reused_stored += 1;
        if let Some(keeping) = &mut self.keeping {
            keeping.push(kept);
        }
        self.watch.root_judged(self.reports.len(), self.roots.len());
        true
    }

    /// Of the functions at `places`, those the directives' report asks which
    /// roots reach (`Analyzer::directives_report`): the rest it never asks of.
    fn asked_functions_at(&mut self, places: &[Location]) -> Vec<FunctionId> {
        let analyzer = &mut self.analyzer;
        let pending = &self.pending_errors;
        let by_place = self.asked_by_place.get_or_insert_with(|| {
            let asked: Vec<FunctionId> = analyzer
                .exemptions
                .iter()
                .filter_map(|exemption| exemption.func)
                .chain(pending.iter().filter_map(|(_, func)| *func))
                .collect();
            asked.into_iter().filter_map(|func| Some((analyzer.item_location(func)?, func))).collect()
        });
        places.iter().filter_map(|place| by_place.get(place).copied()).collect()
    }

    fn db(&self) -> &'a dyn HirDatabase {
        self.analyzer.db
    }

    /// Until an analysis of this load has finished, nothing is in salsa's memos
    /// and every root is walked: a second core walks ahead from the far end of the
    /// order, stopping where a summary read so far answers, as this thread does (it
    /// infers no body a summary stands in for).
    pub(super) fn start_walk_ahead(&mut self, order: &[usize]) {
        let threads = crate::engine::load::parallel_names::threads(self.config.jobs);
        let roots = &self.roots;
        let stored = self.stored.as_ref();
        // A root a stored outcome stands for is not walked.
        let walked = |r: usize| stored.is_none_or(|stored| !stored.holds(&roots[r].location, &roots[r].args));
        self.walk_ahead = (threads > 1 && roots.len() > 1 && !self.analyzer.ws.analysis_finished())
            .then(|| {
                let order =
                    order.iter().map(|&r| (roots[r].args.is_empty() && walked(r)).then_some(roots[r].func)).collect();
                let summaries = self.cache.as_deref().map(SummaryCache::read_only_copy);
                WalkAhead::start(self.analyzer.db, order, self.config.strict_panics, summaries)
            })
            .flatten();
    }

    /// Outcomes of the analyses before are reused, and this one's kept, whether or
    /// not files are watched: the first analysis after a load is watched, and
    /// keeping nothing from it made the first edit after a load judge every root.
    pub(super) fn begin_reuse(&mut self) {
        if let Some(memos) = self.memos.as_deref_mut() {
            let db = self.analyzer.db;
            let local = crate::engine::load::workspace_crates(db);
            let (context, scopes) = self.analyzer.reuse_context(self.config);
            let modules = crate::engine::proof::incremental::workspace_modules(db, local.clone());
            memos.begin(context, crate::engine::proof::incremental::items_generation(db, local), scopes, modules);
        }
    }

    /// Judges every root in `order`, then those put off, telling the watch when its
    /// files are complete.
    pub(super) fn judge_roots(&mut self, order: RootOrder) {
        let RootOrder { order, mut tells, unsealed } = order;
        let mut next_in_order = 0;
        let mut unsealed_told = unsealed.is_empty();
        loop {
            while let Some((_, file)) = tells.front().filter(|(at, _)| *at == next_in_order) {
                let file = file.clone();
                self.tell_complete(std::slice::from_ref(&file));
                tells.pop_front();
            }
            if !unsealed_told && next_in_order == order.len() {
                unsealed_told = true;
                self.tell_complete(&unsealed);
            }
            let next = if let Some(&r) = order.get(next_in_order) {
                if let Some(walk_ahead) = &self.walk_ahead {
                    walk_ahead.analysis_at(next_in_order);
                }
                next_in_order += 1;
                let probe = !unsealed.is_empty() && !self.first_files.holds(&self.roots[r].location.file);
                NextRoot { root: r, probe, kept: None, read_before: None }
            } else {
                match self.put_off.pop_front() {
                    Some(PutOff { root, kept, read }) => NextRoot { root, probe: false, kept, read_before: Some(read) },
                    None => break,
                }
            };
            self.check_root(next);
        }
    }

    fn tell_complete(&mut self, files: &[PathBuf]) {
        self.analyzer.tell_complete(
            &mut *self.watch,
            files,
            (&self.findings, &self.reports, &self.pending_errors),
            self.walked_nodes.len(),
        );
    }

    /// Checks one root; a panic while checking it is contained: the root has no
    /// verdict and an internal error tells why.
    fn check_root(&mut self, next: NextRoot<'a>) {
        let NextRoot { root: r, probe, mut kept, read_before } = next;
        let root_started = Instant::now();
        // The sets every root adds to, while this root's additions are apart.
        let mut taken: Option<Shared> = None;
        let mut attempts = 0;
        let mut reused = false;
        loop {
            let judged = std::panic::catch_unwind(AssertUnwindSafe(|| {
                self.judge_root(r, probe, &mut kept, read_before.as_deref(), &mut taken)
            }));
            let payload = match judged {
                // A root whose outcome was reused took no time of its own.
                Ok(walked) => {
                    reused = !walked;
                    break;
                }
                Err(payload) => payload,
            };
            // The root has no verdict; nothing it added stays, and nothing
            // of the graph or the solver's cache it may have left half-made.
            if let Some(others) = taken.take() {
                self.analyzer.put_back_shared(others);
            }
            let db = self.db();
            let root = &self.roots[r];
            self.graph = CallGraph::new(db, self.roots[0].func.krate(db));
            crate::engine::proof::subst::forget_solver_cache(self.graph.interner, roots::env_of(db, root.func));
            let caught = match crate::engine::panics::classify(payload) {
                Unwound::Cancelled(payload) => std::panic::resume_unwind(payload),
                // Asked again on this thread, the query gives its own panic
                // (or, if it came of the other thread's order, an answer).
                Unwound::PanicElsewhere if attempts == 0 => {
                    attempts += 1;
                    continue;
                }
                Unwound::PanicElsewhere => CaughtPanic {
                    message: "a query this root needs panicked on another thread".to_owned(),
                    location: None,
                },
                Unwound::Panicked(caught) => caught,
            };
            let root_name = root_name_of(db, root);
            tracing::error!("checking {root_name} panicked: {caught}");
            self.pending_errors.push((internal_error(&root_name, &root.location, caught), None));
            let report = RootReport {
                function: root_name,
                location: root.location.clone(),
                functions_checked: 0,
                findings: 0,
                allowed: Vec::new(),
            };
            self.reports.push((r, report));
            self.watch.root_judged(self.reports.len(), self.roots.len());
            break;
        }
        if !reused {
            *self.root_ms.entry(r).or_default() += root_started.elapsed().as_millis();
        }
    }

    /// One root: its outcome reused (`false`), or its reaches built (or `kept`
    /// from when it was put off), then put off or judged.
    fn judge_root(
        &mut self,
        r: usize,
        probe: bool,
        kept: &mut Option<RootReaches<'a>>,
        read_before: Option<&[WalkStamp]>,
        taken: &mut Option<Shared>,
    ) -> bool {
        // A root put off was found not reusable when it was reached first.
        if read_before.is_none() && self.reuse_stored(r) {
            return false;
        }
        let root = &self.roots[r];
        let root_key: RootKey = RootKey::new(root.func, root.args.clone(), root.location.clone());
        if let Some(memos) = self.memos.as_deref_mut() {
            // A root put off was found not reusable when it was reached first.
            if read_before.is_none() {
                if let Some((outcome, unasked)) = memos.reusable(self.analyzer.db, &root_key) {
                    self.analyzer.apply_outcome(outcome, r, &mut self.findings, &mut self.checked_overall);
                    self.reports.push((r, outcome.report.clone()));
                    self.analysis.timings.roots_reused += 1;
                    self.analysis.timings.roots_reused_unasked += usize::from(unasked);
                    self.watch.root_judged(self.reports.len(), self.roots.len());
                    return false;
                }
            }
            self.graph.record_walks();
        }
        // Checked at the instantiations the workspace makes: any body may add one.
        let mut keepable = true;
        let reaches = match kept.take() {
            Some(kept) => kept,
            None => self.reach_root(r, &mut keepable),
        };
        if probe && !self.analyzer.holds_code_of(&reaches.reaches, &self.first_files) {
            self.put_off(r, reaches);
            return true;
        }
        // What this root adds, apart from what the others add (`apply_outcome`
        // merges it): its own findings, and the shared sets taken out meanwhile.
        *taken = Some(self.analyzer.take_shared());
        let mut judging = RootJudging::new(keepable);
        let RootReaches { root_name, never_instantiated, reaches } = reaches;
        for reach in reaches {
            self.judge_reach(r, &root_name, never_instantiated, reach, &mut judging);
        }
        self.finish_root(r, root_key, root_name, judging, read_before, taken.take().expect("taken above"));
        true
    }

    /// Judged in the last pass: its reaches are kept for it while they are small,
    /// else built again then (the walks are salsa's by then).
    fn put_off(&mut self, r: usize, reaches: RootReaches<'a>) {
        let nodes: usize = reaches.reaches.iter().map(|reach| reach.nodes.len()).sum();
        let keep = self.kept_nodes + nodes <= PUT_OFF_NODES_KEPT;
        self.kept_nodes += if keep { nodes } else { 0 };
        let read = if self.memos.is_some() { self.graph.recorded_walks() } else { Vec::new() };
        self.put_off.push_back(PutOff { root: r, kept: keep.then_some(reaches), read });
    }

    /// The reaches of root `r`: a generic root is checked at each instantiation the
    /// workspace makes, or at the arguments its `--root` pattern gives.
    fn reach_root(&mut self, r: usize, keepable: &mut bool) -> RootReaches<'a> {
        let db = self.db();
        let root = &self.roots[r];
        let root_name = root_name_of(db, root);
        crate::engine::panics::inject_root_panic_for_tests(&root_name);
        let (func, env) = (root.func, roots::env_of(db, root.func));
        let identity = GenericArgs::identity_for_item(self.graph.interner, SolverDefId::FunctionId(func));
        let instances = self.instances_of(r, identity, keepable);
        let never_instantiated = instances.is_empty();
        let instances = if never_instantiated { vec![identity] } else { instances };
        let mut reaches = Vec::with_capacity(instances.len());
        for args in instances {
            let reach_started = Instant::now();
            let root_node = Node::function(func, args);
            let outside = resolve::outside_of_params(&mut self.graph, func, args, env);
            let analyzer = &self.analyzer;
            let is_local = |node: &Node<'_>| analyzer.examines(node);
            let config = self.config;
            let grows = |func: FunctionId| analyzer.growth_entry(func, config).is_some();
            let policy =
                ReachPolicy { is_local: &is_local, strict_panics: config.strict_panics, grows: &grows, stop: None };
            let mut reach = reach::reach(
                &mut self.graph,
                root_node,
                env,
                outside,
                &policy,
                self.cache.as_deref_mut().map(|c| c as &mut dyn Summaries),
                &mut self.walked_nodes,
            );
            self.times.reach += reach_started.elapsed();
            if reach.truncated {
                // Reported at the root itself.
                let body = hir_def::expr_store::Body::of(db, DefWithBodyId::FunctionId(func));
                let site = Site { owner: DefWithBodyId::FunctionId(func), expr: body.root_expr().into() };
                if let Some(last) = reach.edges[0].last_mut() {
                    last.edge.site = Some(site);
                }
            }
            reaches.push(reach);
        }
        RootReaches { root_name, never_instantiated, reaches }
    }

    /// The generic arguments root `r` is checked at: its `--root` pattern's, the
    /// instantiations the workspace makes of a generic root (none: never
    /// instantiated), or its own identity.
    fn instances_of<'db>(&mut self, r: usize, identity: GenericArgs<'db>, keepable: &mut bool) -> Vec<GenericArgs<'db>>
    where
        'a: 'db,
    {
        let db = self.db();
        let root = &self.roots[r];
        let explicit = (!root.args.is_empty())
            .then(|| crate::engine::source::root_args::lower_root_args(self.analyzer.db, root.func, &root.args));
        if let Some(explicit) = explicit {
            // Read once already when the roots were collected.
            explicit.into_iter().collect()
        } else if roots::is_generic(identity) {
            *keepable = false;
            self.analysis.root_instantiations.add(instantiations::instantiating_names(db, root.func));
            let (analyzer, config) = (&self.analyzer, self.config);
            let local = self.local_functions.get_or_insert_with(|| {
                let local = analyzer.all_local_functions();
                // What each body names, read on every core first (syntax, or
                // a lowered body), when there are enough to share.
                let threads = crate::engine::load::parallel_names::threads(config.jobs);
                crate::engine::load::on_every_core::map(analyzer.db, &local, threads, 500, |db, &func| {
                    crate::engine::proof::incremental::names_in_body(db, func);
                });
                local
            });
            instantiations::instantiations(db, root.func, local)
        } else {
            vec![identity]
        }
    }

    /// Judges one reach of root `r`: the allowances, the summaries it leaves, its
    /// findings and what it lets through, added to `judging`.
    fn judge_reach(
        &mut self,
        r: usize,
        root_name: &str,
        never_instantiated: bool,
        mut reach: Reach<'a>,
        judging: &mut RootJudging<'a>,
    ) {
        let db = self.db();
        note_reach_facts(db, &reach, judging);
        // What a sealed field holds was read from the instantiations the crate
        // graph makes of a generic function: a workspace body may add one.
        for names in &reach.program.instantiating {
            judging.keepable = false;
            self.analysis.root_instantiations.add(names.clone());
        }
        let judge_started = Instant::now();
        self.analyzer.mark_allowances(&mut reach, self.config);
        // Never instantiated: checked at its own parameters for what it does
        // whatever they are; its calls on them are one finding that says so.
        let generic_calls = never_instantiated && strip_generic_calls(&mut reach);
        if generic_calls {
            self.never_instantiated_finding(r, root_name, judging);
        }
        judge::find_callbacks(db, &mut reach, &|node| holder_fn(db, node));
        let judged = Judged::new(&reach, &self.analyzer.allowed_terminals);
        let reported = reach.reported();
        self.times.judge += judge_started.elapsed();
        trace_reach(db, root_name, &reach, &judged, &reported);
        crate::engine::proof::reach_profile::log(db, root_name, &reach);
        if let Some(cache) = self.cache.as_mut() {
            // A reach with calls on open parameters taken out is no summary.
            if !reach.truncated && !generic_calls {
                let summaries_started = Instant::now();
                // A reach that walked what it now summarises (the first
                // analysis of an empty cache) is kept too, but not the
                // walks of what it summarised: the next analysis answers
                // those from their summaries, which stand for closed code
                // outside the workspace that no edit of it changes (why
                // they are kept across runs). Not keeping the outcome had
                // the first edit after a load judge those roots again
                // (`lsp_bench specifics`: edits up to 221 ms, against at
                // most 107 ms); keeping those walks had an edit that asks
                // them verify 2,720 walks, not 1,210.
                judging.summarised_now.extend(self.analyzer.remember_closed(&mut self.graph, &reach, &judged, cache));
                self.times.summaries += summaries_started.elapsed();
            }
        }
        self.analyzer.note_used_allowances(&reach, &judged);
        self.analyzer.record_findings(
            r,
            root_name,
            &reach,
            &judged,
            &reported,
            &mut judging.findings,
            &mut judging.lines,
        );
        judging.allowed.extend(self.analyzer.allowed_calls(&reach, &judged));
        judging.functions_checked += reach.nodes.len();
    }

    /// The one finding of a generic root never instantiated whose calls on its
    /// open parameters were taken out of its reach.
    fn never_instantiated_finding(&self, r: usize, root_name: &str, judging: &mut RootJudging<'a>) {
        let root = &self.roots[r];
        let reason = GENERIC_ROOT_NEVER_INSTANTIATED.to_owned();
        let key = FindingKey::new(root.location.clone(), root_name.to_owned(), vec![reason.clone()]);
        let finding = Finding {
            kind: FindingKind::Allocation,
            location: root.location.clone(),
            function: root_name.to_owned(),
            roots: vec![root_name.to_owned()],
            reasons: vec![reason],
            chain: Vec::new(),
            allocates_in: None,
            buffer: None,
            in_dependency: !root.func.krate(self.analyzer.db).data(self.analyzer.db).origin.is_local(),
        };
        judging.findings.insert(key, (finding, r));
        judging.lines.insert((root.location.file.clone(), root.location.line));
    }

    /// Root `r` is judged: its outcome added to the analysis, and kept for the next
    /// one when it may be.
    fn finish_root(
        &mut self,
        r: usize,
        root_key: RootKey,
        root_name: String,
        judging: RootJudging<'a>,
        read_before: Option<&[WalkStamp]>,
        taken: Shared,
    ) {
        let db = self.db();
        let RootJudging {
            keepable,
            memo_keepable,
            lines,
            functions_checked,
            allowed,
            findings,
            checked,
            bodies,
            summarised_now,
            sees_every_impl,
            closed,
            mut answers,
        } = judging;
        let root = &self.roots[r];
        let report = RootReport {
            function: root_name,
            location: root.location.clone(),
            functions_checked,
            findings: lines.len(),
            allowed,
        };
        let mut outcome = self.analyzer.restore_shared(taken, report.clone());
        outcome.findings = findings.into_iter().map(|(key, (finding, _))| (key, finding)).collect();
        if self.keeping.is_some() {
            self.keep_for_store(&outcome, &checked, keepable, &root_key.args);
        }
        outcome.checked =
            checked.into_iter().map(|node| crate::engine::proof::incremental::instance_number(db, node)).collect();
        self.analyzer.apply_outcome(&outcome, r, &mut self.findings, &mut self.checked_overall);
        if let Some(memos) = self.memos.as_deref_mut().filter(|_| keepable && memo_keepable) {
            let mut walks = self.graph.recorded_walks();
            walks.extend(read_before.iter().copied().flatten().copied());
            walks.retain(|&stamp| !summarised_now.contains(&crate::engine::proof::incremental::walked_node(db, stamp)));
            walks.sort_unstable();
            walks.dedup();
            // Each open call was resolved again on every round of its reach.
            if let Some(answers) = &mut answers {
                answers.sort_unstable();
                answers.dedup();
            }
            memos.keep(db, root_key, walks, &bodies, ReachFacts { sees_every_impl, closed, answers }, outcome);
        }
        self.reports.push((r, report));
        self.watch.root_judged(self.reports.len(), self.roots.len());
    }

    /// Root outcome `outcome`, which checked `checked`, as a run after edits may
    /// reuse it (`stored_roots`): unless `keepable` is false, or what it read of
    /// the workspace's code or a function it reports cannot be told by place.
    fn keep_for_store(
        &mut self,
        outcome: &RootOutcome,
        checked: &FxHashSet<Node<'a>>,
        keepable: bool,
        args: &[String],
    ) {
        let db = self.db();
        let hashes: Vec<u64> = checked.iter().map(|&node| stable_instance_hash(db, node)).collect();
        self.stable_checked.extend(&hashes);
        if !keepable {
            return;
        }
        let Some(functions) = workspace_functions_of(&self.analyzer, checked.iter()) else { return };
        let making_items = functions.iter().copied().filter(|&func| body_makes_items(db, func));
        let Some(walked_making_items) = places_of(&mut self.analyzer, making_items) else { return };
        let Some(walked) = places_of(&mut self.analyzer, functions.into_iter()) else { return };
        let Some(reached) = places_of(&mut self.analyzer, outcome.reached.iter().copied()) else { return };
        let kept = StoredRoot {
            args: args.to_vec(),
            report: outcome.report.clone(),
            findings: outcome.findings.clone(),
            reached,
            lets_through: outcome.lets_through.clone(),
            used_allow: outcome.used_allow.clone(),
            checked: hashes,
            walked,
            walked_making_items,
        };
        self.keeping.as_mut().expect("keeping outcomes").push(kept);
    }

    /// The run's answer once every root is judged, with its totals and timings;
    /// the summaries written.
    pub(super) fn finish(mut self, started: Instant, names_before: u128, inference_before: u64) -> Analysis {
        let mut analysis = std::mem::take(&mut self.analysis);
        let mut reports = std::mem::take(&mut self.reports);
        reports.sort_by_key(|(r, _)| *r);
        analysis.timings.costliest_roots = costliest(&reports, &self.root_ms);
        analysis.roots = reports.into_iter().map(|(_, report)| report).collect();
        let findings = std::mem::take(&mut self.findings);
        analysis.findings = merge_by_line(findings.into_values().map(|(finding, _)| finding).collect());
        (analysis.exemptions, analysis.errors) = self.analyzer.directives_report(&self.pending_errors);
        let reused_stored = analysis.timings.roots_reused_stored > 0;
        analysis.functions_checked = if reused_stored { self.stable_checked.len() } else { self.checked_overall.len() };
        analysis.unused_allow =
            (0..self.config.allow.len()).filter(|i| !self.analyzer.used_allow.contains(i)).collect();
        analysis.timings.bodies_walked = self.walked_nodes.len();
        // Every walked function's place, or none: one left out would let an edit
        // of its body pass as unread.
        if analysis.timings.roots_reused == 0 {
            // The functions walked, and those the reused stored outcomes read.
            if let Some(functions) = workspace_functions_of(&self.analyzer, self.walked_nodes.iter()) {
                let db = self.db();
                let making_items: Vec<FunctionId> =
                    functions.iter().copied().filter(|&func| body_makes_items(db, func)).collect();
                let walked = places_of(&mut self.analyzer, functions.into_iter());
                let making_items = places_of(&mut self.analyzer, making_items.into_iter());
                if let Some((mut walked, mut making_items)) = walked.zip(making_items) {
                    for (places, stored) in
                        [(&mut walked, &mut self.stored_walked), (&mut making_items, &mut self.stored_making_items)]
                    {
                        places.append(stored);
                        places.sort();
                        places.dedup();
                    }
                    analysis.walked_workspace_code = Some(walked);
                    analysis.walked_making_items = making_items;
                }
            }
        }
        analysis.stored_roots = self.keeping.take().filter(|_| analysis.timings.roots_reused == 0);
        if let Some(walk_ahead) = self.walk_ahead.take() {
            analysis.timings.roots_walked_ahead = walk_ahead.finish();
        }
        // One that reused stored outcomes walked only some roots: the language
        // server's first analysis of the load still walks every root (and
        // keeps the outcomes for the store).
        if analysis.timings.roots_stored == 0 {
            self.analyzer.ws.note_analysis_finished();
        }
        if let Some(cache) = self.cache.as_mut() {
            if let Err(err) = cache.save() {
                tracing::warn!("could not write {}: {err}", cache.path().display());
            }
            analysis.timings.cache_hits = cache.hits;
            analysis.timings.cache_entries = cache.len();
        }
        analysis.timings.analysis_ms = names_before + started.elapsed().as_millis();
        analysis.timings.reach_ms = self.times.reach.as_millis();
        analysis.timings.judge_ms = self.times.judge.as_millis();
        analysis.timings.summaries_ms = self.times.summaries.as_millis();
        analysis.timings.inference_ms =
            u128::from((crate::engine::proof::incremental::inference_nanos() - inference_before) / 1_000_000);
        analysis
    }
}

/// The workspace functions among `nodes`, with the bodies that can name a static
/// whose one-time setup they looked into; `None` when one cannot be told. A
/// closure in a static's, a constant's or a discriminant's initialiser is in no
/// function's body, nor is the initialiser itself: the item level, all of which
/// counts. A closure in an anonymous constant may be in any body: nothing is
/// known then.
fn workspace_functions_of<'a, 'n>(
    analyzer: &Analyzer<'a>,
    nodes: impl Iterator<Item = &'n Node<'a>>,
) -> Option<FxHashSet<FunctionId>>
where
    'a: 'n,
{
    let db = analyzer.db;
    let holders: Option<FxHashSet<Option<FunctionId>>> = nodes
        .filter(|node| analyzer.examines(node))
        .map(|node| match holder_fn(db, node) {
            Some(func) => Some(Some(func)),
            None => match *node {
                Node::Init(..) => Some(None),
                Node::Closure { closure, .. } => {
                    matches!(closure.loc(db).owner, hir_ty::InferBodyId::DefWithBodyId(_)).then_some(None)
                }
                _ => None,
            },
        })
        .collect();
    let mut functions: FxHashSet<FunctionId> = holders?.into_iter().flatten().collect();
    // A static's one-time setup is proved (or not) by reading every body that
    // can name it: those bodies were read too.
    let setups: Vec<FunctionId> = functions.iter().copied().collect();
    for func in setups {
        let interner = hir_ty::next_solver::DbInterner::new_with(db, func.krate(db));
        let facts = BodyFacts::of(db, func.into(), interner.lang_items());
        for &id in facts.setup_statics.iter().filter(|id| id.module(db).krate(db).data(db).origin.is_local()) {
            for body in crate::engine::proof::static_setup::bodies_naming(db, id).unwrap_or_default() {
                // Initialisers are in the item level, all of which counts.
                if let DefWithBodyId::FunctionId(read) = body {
                    functions.insert(read);
                }
            }
        }
    }
    Some(functions)
}

/// The places of `functions`, sorted; `None` when one has none.
fn places_of(analyzer: &mut Analyzer<'_>, functions: impl Iterator<Item = FunctionId>) -> Option<Vec<Location>> {
    let places: Option<Vec<Location>> = functions.map(|func| analyzer.item_location(func)).collect();
    places.map(|mut places| {
        places.sort();
        places.dedup();
        places
    })
}

/// Whether `func`'s body has items in it, its macros' expansions included
/// (rust-analyzer makes a block scope for each block that has).
pub(super) fn body_makes_items(db: &dyn HirDatabase, func: FunctionId) -> bool {
    hir_def::expr_store::Body::of(db, DefWithBodyId::FunctionId(func)).blocks(db).next().is_some()
}

/// What a reach tells of the root's outcome beyond its findings: the instances it
/// checks, whether it sees every impl or resolves anything outside its walks, the
/// answers it resolved open calls with, and the workspace bodies it walks.
fn note_reach_facts<'db>(db: &'db dyn HirDatabase, reach: &Reach<'db>, judging: &mut RootJudging<'db>) {
    judging.checked.extend(reach.nodes.iter().copied());
    judging.sees_every_impl |= reach.sees_every_impl();
    judging.closed &= reach.resolves_nothing_outside_walks();
    match &mut judging.answers {
        Some(answers) if !reach.program.outside.normalized => answers.extend(reach.program.answers.iter().copied()),
        _ => judging.answers = None,
    }
    for (node, &local) in reach.nodes.iter().zip(&reach.local) {
        match (local, holder_fn(db, node), node) {
            (true, Some(func), _) => {
                judging.bodies.insert(func.into());
            }
            // Workspace code outside a function (a const's closure): its
            // file is not known here, so the outcome is not kept.
            (true, None, _) => judging.memo_keepable = false,
            (false, _, Node::Init(def, _)) if def.module(db).krate(db).data(db).origin.is_local() => {
                judging.bodies.insert(*def);
            }
            _ => {}
        }
    }
}

/// `NOALLOC_LOG=noalloc_ls::engine::reach=trace`: every vertex and edge.
fn trace_reach(db: &dyn HirDatabase, root_name: &str, reach: &Reach<'_>, judged: &Judged, reported: &[bool]) {
    if tracing::enabled!(target: "noalloc_ls::engine::reach", tracing::Level::TRACE) {
        for (v, node) in reach.nodes.iter().enumerate() {
            tracing::trace!(target: "noalloc_ls::engine::reach", "{root_name} [{v}] {} any={} own={} reported={}", node.name(db), judged.any[v], judged.own[v], reported[v]);
            for resolved in &reach.edges[v] {
                tracing::trace!(target: "noalloc_ls::engine::reach", "    {:?} first_use={} -> {:?} callbacks {:?}", resolved.verdict, resolved.edge.context.first_use, resolved.targets.iter().map(|t| match t { Resolved::Vertex(j) => format!("[{j}]"), Resolved::Terminal(t) => format!("{t:?}").chars().take(60).collect() }).collect::<Vec<_>>(), resolved.callbacks);
            }
        }
    }
}
