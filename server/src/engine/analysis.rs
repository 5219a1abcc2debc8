//! Judging a workspace, root by root: finds the roots (`roots`), builds what each
//! reaches (`reach`, with open calls resolved by `resolve`), applies the rules
//! (`judge`), and turns the judged reach into findings at workspace lines
//! (`findings`). This module owns the run: the order of those steps and of the
//! roots (a `Watch`'s files first, with their answer handed over once complete), the
//! allowances that need the workspace's directives and settings, and what goes
//! into the on-disk summaries.

use std::path::{Path, PathBuf};
use std::time::Instant;

use hir::db::HirDatabase;
use hir_def::{DefWithBodyId, FunctionId, HasModule, Lookup};
use ra_ap_ide_db::{line_index::LineIndex, RootDatabase};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::engine::proof::{
    allowances::{BodyFacts, Growth},
    incremental::AllowMatch,
    judge::{self, highest_flag, GrowthRules, Judged, Verdict, NORMAL, ONCE, ON_ERROR},
    reach::{Reach, Resolved, ResolvedEdge},
    room::RoomProof,
    walk::{CallGraph, Node, Site, Target, UnknownKind},
};
use crate::engine::reuse::{
    root_reuse::{FindingKey, ReuseContext, RootMemos, RootOutcome},
    stored_roots::StoredRoots,
    summary_cache::{self, Additions, CachedStep, CachedSummary, CallsBack, SummaryCache},
};
use crate::engine::source::{
    naming,
    roots::{self, ExemptLines},
};
mod run;

use crate::engine::{
    panics::CaughtPanic, AllowanceKind, AllowedCall, Analysis, CheckConfig, ErrorFinding, ErrorKind, ExemptionReport,
    Finding, FindingKind, FirstUseGuard, Location, PanicReport, RoomUse, RootCost, RootReport, Workspace, GROWTH_KIND,
};

/// How many instances the reaches of the roots put off to the last pass (watched
/// files first) may hold in memory, together; past it they are built again. Kept,
/// an edit does not build them twice; the bound keeps the memory they take small
/// (`lsp_bench` on specifics, peak RSS: 560 MiB keeping none, 585 MiB keeping
/// 10 000, 606 MiB keeping 50 000 or more; edit latency the same within noise).
const PUT_OFF_NODES_KEPT: usize = 10_000;

/// The finding of a generic root no code of the workspace instantiates.
pub(crate) const GENERIC_ROOT_NEVER_INSTANTIATED: &str =
    "generic root never instantiated here: add a `--root` with concrete arguments or call it from a test";

/// Takes the calls on type parameters the root leaves open out of its reach, where
/// the root reaches them without an exemption or allowance covering them: what is
/// left is what it does whatever they are. Returns whether there were any.
fn strip_generic_calls(reach: &mut Reach<'_>) -> bool {
    let mut any = false;
    let mut seen = vec![false; reach.nodes.len()];
    let mut stack = vec![0];
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut seen[v], true) || reach.allowed[v].is_some() {
            continue;
        }
        let closure = reach.closure[v];
        // As `Reach::reported` goes: not below an allowance or an error returned.
        let followed =
            |resolved: &&mut ResolvedEdge<'_>| !resolved.allowed() && (closure || !resolved.edge.context.error_return);
        for resolved in reach.edges[v].iter_mut().filter(followed) {
            let before = resolved.targets.len();
            resolved.targets.retain(|target| {
                !matches!(target, Resolved::Terminal(Target::Unknown { kind: UnknownKind::Generic, .. }))
            });
            any |= resolved.targets.len() != before;
            stack.extend(resolved.targets.iter().filter_map(|target| match target {
                Resolved::Vertex(j) => Some(*j),
                Resolved::Terminal(_) => None,
            }));
        }
    }
    any
}

/// Analyzes every root of the workspace.
pub fn analyze(ws: &Workspace, config: &CheckConfig) -> Analysis {
    analyze_watched(ws, config, None, None, &mut Unwatched)
}

/// What a front end hears while an analysis runs, so that it can show the answer
/// for the files it cares about before the whole answer is ready (the language
/// server: the open files' diagnostics, and `$/progress`). The engine orders its
/// work by `first_files` and calls back; it knows nothing of why.
pub trait Watch {
    /// The files whose answer is wanted first.
    fn first_files(&self) -> &[PathBuf];
    /// One more root is judged: `judged` of `total`.
    fn root_judged(&mut self, judged: usize, total: usize);
    /// Every root that can say anything about `files` is judged: what `partial`
    /// says about them (findings, errors and exemptions there) is what the whole
    /// analysis will say. The rest of `partial` is not complete yet; of its
    /// timings, only the bodies walked so far are given.
    fn files_complete(&mut self, files: &[PathBuf], partial: &Analysis);
}

/// No one watching: the roots are judged in order.
pub struct Unwatched;

impl Watch for Unwatched {
    fn first_files(&self) -> &[PathBuf] {
        &[]
    }
    fn root_judged(&mut self, _: usize, _: usize) {}
    fn files_complete(&mut self, _: &[PathBuf], _: &Analysis) {}
}

/// `analyze`, telling `watch` how it goes and judging first what its files need.
/// With `summaries`, uses those the caller keeps across analyses (the language
/// server opens them once per workspace load) instead of opening
/// `config.cache_dir`'s file: no `rustc -vV` and no reading of the file per analysis.
/// With `outcomes` (the language server keeps them per workspace load), reuses each
/// root's outcome from the analyses before while it holds (`root_reuse`), and keeps
/// this one's.
pub fn analyze_watched(
    ws: &Workspace,
    config: &CheckConfig,
    summaries: Option<&mut SummaryCache>,
    outcomes: Option<&mut RootMemos>,
    watch: &mut dyn Watch,
) -> Analysis {
    let db: &RootDatabase = &ws.db;
    hir::attach_db(db, || Analyzer::new(ws).run(config, summaries, outcomes, None, watch))
}

/// `analyze_watched` after edits of bodies some roots of a stored analysis read:
/// the outcomes in `stored` (`stored_analysis::Stored::Partly`) stand for their
/// roots, and the other roots are checked.
pub fn analyze_reusing_stored(
    ws: &Workspace,
    config: &CheckConfig,
    summaries: Option<&mut SummaryCache>,
    stored: StoredRoots,
    watch: &mut dyn Watch,
) -> Analysis {
    let db: &RootDatabase = &ws.db;
    hir::attach_db(db, || Analyzer::new(ws).run(config, summaries, None, Some(stored), watch))
}

/// A watch's files, as given and as the file system names them (the workspace's
/// paths are canonical; an editor's may go through a symlink).
struct FirstFiles {
    given: Vec<PathBuf>,
    paths: FxHashSet<PathBuf>,
    /// The workspace's files among them.
    ids: FxHashSet<FileId>,
}

impl FirstFiles {
    fn new(given: &[PathBuf], ws: &Workspace) -> FirstFiles {
        let paths: FxHashSet<PathBuf> =
            given.iter().cloned().chain(given.iter().filter_map(|path| std::fs::canonicalize(path).ok())).collect();
        let ids = match given.is_empty() {
            true => FxHashSet::default(),
            false => ws
                .vfs
                .iter()
                .map(|(id, _)| id)
                .filter(|&id| ws.file_path(id).is_some_and(|path| paths.contains(&path)))
                .collect(),
        };
        FirstFiles { given: given.to_vec(), paths, ids }
    }

    fn holds(&self, path: &Path) -> bool {
        self.paths.contains(path)
    }

    /// Each file as given, and whether it is sealed (`sealed_files`): a file the
    /// workspace does not hold is not.
    fn sealed(&self, ws: &Workspace) -> Vec<(Given, bool)> {
        let started = Instant::now();
        let given: Vec<Given> = self
            .given
            .iter()
            .map(|path| Given { path: path.clone(), canonical: std::fs::canonicalize(path).ok() })
            .collect();
        let ids: Vec<Option<FileId>> = given
            .iter()
            .map(|given| self.ids.iter().copied().find(|&id| ws.file_path(id).is_some_and(|path| given.is(&path))))
            .collect();
        let known: Vec<FileId> = ids.iter().flatten().copied().collect();
        let verdicts: FxHashMap<FileId, Result<usize, String>> = match known.is_empty() {
            true => FxHashMap::default(),
            false => known.iter().copied().zip(crate::engine::reuse::sealed_files::sealed_each(ws, &known)).collect(),
        };
        given
            .into_iter()
            .zip(ids)
            .map(|(given, id)| {
                let sealed = match id.map(|id| &verdicts[&id]) {
                    Some(Ok(names)) => {
                        tracing::debug!(
                            "{} is sealed ({names} names looked for, {:?})",
                            given.path.display(),
                            started.elapsed()
                        );
                        true
                    }
                    Some(Err(why)) => {
                        tracing::debug!("{} is not sealed: {why} ({:?})", given.path.display(), started.elapsed());
                        false
                    }
                    None => false,
                };
                (given, sealed)
            })
            .collect()
    }
}

/// A watched file as given, and as the file system names it.
struct Given {
    path: PathBuf,
    canonical: Option<PathBuf>,
}

impl Given {
    /// Whether `path` (a workspace path) is this file.
    fn is(&self, path: &Path) -> bool {
        self.path == path || self.canonical.as_deref() == Some(path)
    }
}

/// What is wrong with the `--root` patterns (`CheckConfig::roots`): those that
/// match no function of the workspace or of its dependencies, and those whose
/// generic arguments cannot be read. What a check refuses to run with, found
/// before any root is walked.
pub fn root_pattern_problems(ws: &Workspace, config: &CheckConfig) -> crate::engine::RootPatternProblems {
    let db: &RootDatabase = &ws.db;
    let found = hir::attach_db(db, || {
        let mut analyzer = Analyzer::new(ws);
        // Matching the patterns reads every crate's def map: resolved here as the
        // analysis would, on every core, and counted as its time.
        let started = Instant::now();
        analyzer.resolve_names(config);
        ws.note_names_before_analysis(started.elapsed());
        analyzer.collect_roots(config)
    });
    crate::engine::RootPatternProblems { unmatched: found.unmatched_patterns, bad_arguments: found.bad_root_arguments }
}

/// The state of one analysis: the workspace's directives and what the rules have
/// learnt so far. Its methods live with their jobs (`roots`, `findings`).
pub(crate) struct Analyzer<'a> {
    pub ws: &'a Workspace,
    pub db: &'a RootDatabase,
    pub line_indexes: FxHashMap<FileId, std::sync::Arc<LineIndex>>,
    pub exemptions: Vec<Exemption>,
    /// (file, 1-based line) -> index into `exemptions`.
    pub exempt_lines: ExemptLines,
    /// Types marked `noalloc:fixed` and functions marked `noalloc:append`.
    pub fixed_types: FxHashSet<hir_def::AdtId>,
    pub append_fns: FxHashSet<FunctionId>,
    /// Which allowlist entries name a function, looked up once from its names
    /// (asked while the reach is built, hence the cell).
    allow_matches: std::cell::RefCell<FxHashMap<FunctionId, AllowMatch>>,
    /// The configured allowlist, as the memoized matches know it.
    allow_list: std::cell::OnceCell<crate::engine::proof::incremental::AllowList<'a>>,
    /// Foreign functions and intrinsics on the allowlist that some root calls.
    pub allowed_terminals: FxHashSet<FunctionId>,
    /// Allowlist entries that let something through.
    used_allow: FxHashSet<usize>,
    /// The roots that reach each workspace function whose lines are reported.
    reached_by: FxHashMap<FunctionId, Vec<String>>,
    /// Each root judged, by name: its place in the order of roots (they may be
    /// judged in another order, the watched files' first).
    root_order: FxHashMap<String, usize>,
    /// The crates outside the workspace that hold a `--root` (`memchr` for
    /// `--root memchr::memchr`): their code is examined as the workspace's is, and
    /// its lines are where findings stand; their directives are never read.
    examined_dependencies: Vec<base_db::Crate>,
}

/// The sets every root adds to, taken out while one root is judged.
struct Shared {
    used_allow: FxHashSet<usize>,
    allowed_terminals: FxHashSet<FunctionId>,
    reached_by: FxHashMap<FunctionId, Vec<String>>,
    lets_through: Vec<Vec<String>>,
}

/// An exemption comment and what the analysis learns about it.
pub(crate) struct Exemption {
    pub report: ExemptionReport,
    /// The function the comment stands in.
    pub func: Option<FunctionId>,
}

impl<'a> Analyzer<'a> {
    /// What turning a judged reach into findings reads of this analysis.
    pub(crate) fn findings(&mut self) -> crate::engine::proof::findings::FindingsContext<'_> {
        crate::engine::proof::findings::FindingsContext {
            db: self.db,
            ws: self.ws,
            line_indexes: &mut self.line_indexes,
            exemptions: &self.exemptions,
            allowed_terminals: &self.allowed_terminals,
        }
    }

    /// Where a range of a workspace file is, as users read it.
    pub(crate) fn location(&mut self, file: FileId, range: ra_ap_syntax::TextRange) -> Option<Location> {
        self.findings().location(file, range)
    }

    fn new(ws: &'a Workspace) -> Self {
        Analyzer {
            ws,
            db: &ws.db,
            line_indexes: FxHashMap::default(),
            exemptions: Vec::new(),
            exempt_lines: FxHashMap::default(),
            fixed_types: FxHashSet::default(),
            append_fns: FxHashSet::default(),
            allow_matches: Default::default(),
            allow_list: Default::default(),
            allowed_terminals: FxHashSet::default(),
            used_allow: FxHashSet::default(),
            reached_by: FxHashMap::default(),
            root_order: FxHashMap::default(),
            examined_dependencies: Vec::new(),
        }
    }

    /// Whether a vertex is code whose lines findings stand at: a workspace
    /// function or closure, or one of a dependency that holds a `--root`.
    pub(crate) fn examines(&self, node: &Node<'_>) -> bool {
        let db: &dyn HirDatabase = self.db;
        code_crate(db, node)
            .is_some_and(|krate| krate.data(db).origin.is_local() || self.examined_dependencies.contains(&krate))
    }

    /// The whole analysis: names resolved, roots collected, every root judged in
    /// the order the watch asks for (`run::RunState`), and the totals.
    fn run(
        mut self,
        config: &CheckConfig,
        summaries: Option<&mut SummaryCache>,
        outcomes: Option<&mut RootMemos>,
        stored: Option<StoredRoots>,
        watch: &mut dyn Watch,
    ) -> Analysis {
        let started = Instant::now();
        let mut analysis = Analysis::default();
        // Name resolution of the workspace's crates (and so of every crate they
        // import from, std's too): rust-analyzer's def maps, which everything after
        // reads. Forced here so that `--timings` can tell it apart.
        self.resolve_names(config);
        // Names resolved before the analysis began (checking `--root` patterns)
        // count as its own.
        let names_before = self.ws.take_names_before_analysis();
        let names_here = started.elapsed().as_millis();
        analysis.timings.name_resolution_ms = names_before + names_here;
        // An edited body whose macro calls changed must make no items for a
        // stored outcome to stand (`stored_roots`): told once names are resolved.
        let stored = stored.map(|mut stored| {
            stored.confirm(|bodies| self.any_body_makes_items(bodies));
            stored
        });
        let found = self.collect_roots(config);
        analysis.timings.roots_ms = started.elapsed().as_millis() - names_here;
        self.take_directives(found.directives);
        let pending_errors = found.errors;
        analysis.files_with_syntax_errors = found.broken;
        analysis.unmatched_root_patterns = found.unmatched_patterns;
        analysis.bad_root_arguments = found.bad_root_arguments;
        self.examined_dependencies = found.dependency_crates;
        let roots = found.roots;
        if roots.is_empty() {
            // Nothing to walk; the directives are still read and their errors told.
            (analysis.exemptions, analysis.errors) = self.directives_report(&pending_errors);
            analysis.unused_allow = (0..config.allow.len()).collect();
            analysis.timings.analysis_ms = names_before + started.elapsed().as_millis();
            return analysis;
        }
        let mut opened = config.cache_dir.as_ref().filter(|_| summaries.is_none()).map(|dir| {
            let material = summary_cache::key_material_for(self.ws, config);
            SummaryCache::open(dir, &material.iter().map(String::as_str).collect::<Vec<_>>())
        });
        let cache = summaries.or(opened.as_mut());
        let inference_before = crate::engine::proof::incremental::inference_nanos();
        let ws = self.ws;
        let mut state = run::RunState::new(self, config, roots, cache, outcomes, watch, analysis, pending_errors);
        state.take_stored(stored);
        let sealed = state.first_files.sealed(ws);
        let order = run::order_roots(&state.roots, &state.first_files, sealed);
        state.start_walk_ahead(&order.order);
        state.begin_reuse();
        state.judge_roots(order);
        state.finish(started, names_before, inference_before)
    }

    /// Whether a workspace function whose body starts at one of `bodies` (file,
    /// and where it starts) has items in it (`run::body_makes_items`); `true` too
    /// when no function is found at one of them.
    fn any_body_makes_items(&mut self, bodies: &[(PathBuf, crate::engine::edit_digest::LineColumn)]) -> bool {
        let mut found = vec![false; bodies.len()];
        for func in self.all_local_functions() {
            let Some(place) = self.item_location(func) else { continue };
            let (start, end) = ((place.line, place.column), (place.end_line, place.end_column));
            for (i, (file, body)) in bodies.iter().enumerate() {
                if place.file == *file && start <= *body && *body < end {
                    found[i] = true;
                    if run::body_makes_items(self.db, func) {
                        return true;
                    }
                }
            }
        }
        found.contains(&false)
    }

    /// Root `r`'s findings in one judged reach, added to `findings` (each with the
    /// root's index), their lines to `lines`; what its exemptions let through, and
    /// the workspace functions it reports lines of, noted.
    #[allow(clippy::too_many_arguments)]
    fn record_findings(
        &mut self,
        r: usize,
        root_name: &str,
        reach: &Reach<'_>,
        judged: &Judged,
        reported: &[bool],
        findings: &mut FxHashMap<FindingKey, (Finding, usize)>,
        lines: &mut FxHashSet<(PathBuf, u32)>,
    ) {
        let db: &dyn HirDatabase = self.db;
        for (i, node) in reach.nodes.iter().enumerate() {
            if !reach.local[i] || !reported[i] {
                continue;
            }
            if let Some(func) = holder_fn(db, node) {
                let reached_by = self.reached_by.entry(func).or_default();
                if !reached_by.iter().any(|name| name == root_name) {
                    reached_by.push(root_name.to_owned());
                }
            }
            for (e, resolved) in reach.edges[i].iter().enumerate() {
                let Some(site) = resolved.edge.site else { continue };
                if let Some(x) = resolved.exempted {
                    if let Some(let_through) = self.findings().let_through(reach, judged, i, resolved) {
                        let lets = &mut self.exemptions[x].report.lets_through;
                        if !lets.contains(&let_through) {
                            lets.push(let_through);
                        }
                    }
                    continue;
                }
                let Some((kind, reason, buffer)) = self.findings().reason(reach, judged, i, resolved) else {
                    continue;
                };
                let Some(location) = self.findings().site_location(site) else { continue };
                let function = self.findings().holder_name(node);
                let chain = self.findings().chain(reach, judged, i, e);
                lines.insert((location.file.clone(), location.line));
                let key = FindingKey::new(location.clone(), function.clone(), vec![reason.clone()]);
                let allocates_in = crate::engine::first_allocating(&chain);
                let finding = match findings.entry(key) {
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        let finding = Finding {
                            kind,
                            location,
                            function,
                            roots: Vec::new(),
                            reasons: vec![reason],
                            allocates_in,
                            chain,
                            buffer,
                            in_dependency: holder_fn(db, node)
                                .is_some_and(|func| !func.krate(db).data(db).origin.is_local()),
                        };
                        &mut slot.insert((finding, r)).0
                    }
                    // This root's first finding of the line keeps its chain.
                    std::collections::hash_map::Entry::Occupied(slot) => &mut slot.into_mut().0,
                };
                if !finding.roots.iter().any(|name| name == root_name) {
                    finding.roots.push(root_name.to_owned());
                }
            }
        }
    }

    /// What an outcome is reused under: the settings and the directives (compared
    /// whole, `ReuseContext`); and the macros and the traits in scope
    /// (`incremental::scope_generations`). The rest of the item level is told
    /// apart (`RootMemos::begin`).
    fn reuse_context(&self, config: &CheckConfig) -> (ReuseContext, [u64; 2]) {
        let db: &dyn HirDatabase = self.db;
        let local = crate::engine::load::workspace_crates(self.db);
        let scopes = crate::engine::proof::incremental::scope_generations(db, local);
        let mut exempt_lines: Vec<((PathBuf, u32), usize)> =
            self.exempt_lines.iter().map(|(line, &x)| (line.clone(), x)).collect();
        exempt_lines.sort();
        let mut fixed_types: Vec<hir_def::AdtId> = self.fixed_types.iter().copied().collect();
        fixed_types.sort();
        let mut append_fns: Vec<FunctionId> = self.append_fns.iter().copied().collect();
        append_fns.sort();
        let context = ReuseContext {
            config: config.clone(),
            exemptions: self.exemptions.iter().map(|exemption| (exemption.report.clone(), exemption.func)).collect(),
            exempt_lines,
            fixed_types,
            append_fns,
        };
        (context, scopes)
    }

    /// Holds the workspace's directives for the run: the rules read them.
    fn take_directives(&mut self, directives: roots::Directives) {
        let roots::Directives { exemptions, exempt_lines, fixed_types, append_fns } = directives;
        self.exemptions = exemptions;
        self.exempt_lines = exempt_lines;
        self.fixed_types = fixed_types;
        self.append_fns = append_fns;
    }

    /// Resolves the names of the workspace's crates and of every crate they import:
    /// on `config.jobs` threads once per load (std's and the dependencies' def maps
    /// outlive edits), then the workspace's own, on demand.
    fn resolve_names(&self, config: &CheckConfig) {
        crate::engine::load::parallel_names::resolve_once(self.ws, config.jobs);
        for krate in crate::engine::load::workspace_crates(self.db) {
            hir_def::nameres::crate_def_map(self.db, krate);
        }
    }

    /// Takes the sets every root adds to out of the analyzer, so that what one root
    /// adds can be told apart; `restore_shared` puts them back.
    fn take_shared(&mut self) -> Shared {
        Shared {
            used_allow: std::mem::take(&mut self.used_allow),
            allowed_terminals: std::mem::take(&mut self.allowed_terminals),
            reached_by: std::mem::take(&mut self.reached_by),
            lets_through: self
                .exemptions
                .iter_mut()
                .map(|exemption| std::mem::take(&mut exemption.report.lets_through))
                .collect(),
        }
    }

    /// Puts back what `take_shared` took; returns what the root judged since added
    /// (to be merged by `apply_outcome`), with its report; its findings and the
    /// instances it checked are the caller's to fill in.
    fn restore_shared(&mut self, others: Shared, report: RootReport) -> RootOutcome {
        let mut outcome = RootOutcome {
            report,
            findings: Vec::new(),
            used_allow: std::mem::replace(&mut self.used_allow, others.used_allow).into_iter().collect(),
            allowed_terminals: std::mem::replace(&mut self.allowed_terminals, others.allowed_terminals)
                .into_iter()
                .collect(),
            reached: std::mem::replace(&mut self.reached_by, others.reached_by).into_keys().collect(),
            lets_through: Vec::new(),
            checked: Vec::new(),
        };
        for (x, lets) in others.lets_through.into_iter().enumerate() {
            let mine = std::mem::replace(&mut self.exemptions[x].report.lets_through, lets);
            outcome.lets_through.extend(mine.into_iter().map(|let_through| (x, let_through)));
        }
        outcome
    }

    /// Puts back what `take_shared` took, dropping what was added since (a root
    /// whose check panicked).
    fn put_back_shared(&mut self, others: Shared) {
        self.used_allow = others.used_allow;
        self.allowed_terminals = others.allowed_terminals;
        self.reached_by = others.reached_by;
        for (x, lets) in others.lets_through.into_iter().enumerate() {
            self.exemptions[x].report.lets_through = lets;
        }
    }

    /// Adds what root `r` found (judged now or reused) to the analysis.
    fn apply_outcome(
        &mut self,
        outcome: &RootOutcome,
        r: usize,
        findings: &mut FxHashMap<FindingKey, (Finding, usize)>,
        checked_overall: &mut FxHashSet<salsa::Id>,
    ) {
        let root_name = &outcome.report.function;
        self.root_order.insert(root_name.clone(), r);
        for (key, finding) in &outcome.findings {
            match findings.entry(key.clone()) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert((finding.clone(), r));
                }
                std::collections::hash_map::Entry::Occupied(slot) => {
                    let (merged, first_root) = slot.into_mut();
                    if r < *first_root {
                        // Judged out of order (the watched files first): the chain
                        // is the earlier root's, as in a run in order.
                        *first_root = r;
                        merged.kind = finding.kind;
                        merged.chain = finding.chain.clone();
                        merged.allocates_in = finding.allocates_in.clone();
                        merged.buffer = finding.buffer.clone();
                    }
                    for name in &finding.roots {
                        if !merged.roots.contains(name) {
                            merged.roots.push(name.clone());
                        }
                    }
                }
            }
        }
        for &func in &outcome.reached {
            let reached_by = self.reached_by.entry(func).or_default();
            if !reached_by.contains(root_name) {
                reached_by.push(root_name.clone());
            }
        }
        for (x, let_through) in &outcome.lets_through {
            let lets = &mut self.exemptions[*x].report.lets_through;
            if !lets.contains(let_through) {
                lets.push(let_through.clone());
            }
        }
        self.used_allow.extend(&outcome.used_allow);
        self.allowed_terminals.extend(&outcome.allowed_terminals);
        checked_overall.extend(&outcome.checked);
    }

    /// Tells `watch` that `files` are complete, with the answer so far (`so_far`:
    /// the findings, the roots' reports and the errors in directives) and how many
    /// bodies were walked so far.
    fn tell_complete(
        &self,
        watch: &mut dyn Watch,
        files: &[PathBuf],
        so_far: (
            &FxHashMap<FindingKey, (Finding, usize)>,
            &[(usize, RootReport)],
            &[(ErrorFinding, Option<FunctionId>)],
        ),
        walked: usize,
    ) {
        let (findings, reports, pending_errors) = so_far;
        let mut partial = self.answer_so_far(findings, reports, pending_errors);
        partial.timings.bodies_walked = walked;
        tracing::debug!("{} watched files complete after {} roots", files.len(), reports.len());
        watch.files_complete(files, &partial);
    }

    /// The answer of the roots judged so far (`reports`, with their index in the
    /// order of roots), without the run's totals.
    fn answer_so_far(
        &self,
        findings: &FxHashMap<FindingKey, (Finding, usize)>,
        reports: &[(usize, RootReport)],
        pending_errors: &[(ErrorFinding, Option<FunctionId>)],
    ) -> Analysis {
        let mut reports = reports.to_vec();
        reports.sort_by_key(|(r, _)| *r);
        let (exemptions, errors) = self.directives_report(pending_errors);
        Analysis {
            findings: merge_by_line(findings.values().map(|(finding, _)| finding.clone()).collect()),
            roots: reports.into_iter().map(|(_, report)| report).collect(),
            exemptions,
            errors,
            ..Analysis::default()
        }
    }

    /// The exemptions with what they let through, and the errors in directives:
    /// malformed ones (`pending`, found with the roots) and exemptions on a reached
    /// line that let nothing through; each with the roots known to reach it.
    fn directives_report(
        &self,
        pending: &[(ErrorFinding, Option<FunctionId>)],
    ) -> (Vec<ExemptionReport>, Vec<ErrorFinding>) {
        let mut exemptions = Vec::with_capacity(self.exemptions.len());
        let mut errors = Vec::new();
        for exemption in &self.exemptions {
            let mut report = exemption.report.clone();
            report.lets_through.sort();
            let reached = exemption.func.is_some_and(|func| self.reached_by.contains_key(&func));
            // In a function generic over types, a line may let something through
            // at instantiations another workspace makes (a dependent's keys), not
            // at the ones checked here.
            let generic = exemption.func.is_some_and(|func| generic_over_types(self.db, func));
            if reached && !generic && report.lets_through.is_empty() {
                let message = format!(
                    "exemption lets nothing through: delete it (noalloc:exempt {}: {})",
                    report.kind, report.reason
                );
                errors.push(self.error(ErrorKind::UnusedExemption, report.location.clone(), message, exemption.func));
            }
            exemptions.push(report);
        }
        for (error, func) in pending {
            let mut error = error.clone();
            if let Some(func) = func {
                error.roots = self.reached_by.get(func).cloned().unwrap_or_default();
            }
            errors.push(error);
        }
        for error in &mut errors {
            error.roots.sort_by_key(|root| self.root_order.get(root).copied());
        }
        errors.sort_by(|a, b| a.location.cmp(&b.location));
        (exemptions, errors)
    }

    /// Whether a root's reaches hold code of one of `files`: a workspace function
    /// or closure defined there, or a call written there (a macro's expansion is
    /// where the macro is called). Only then can judging the root say anything
    /// about those files.
    fn holds_code_of(&mut self, reaches: &[Reach<'_>], files: &FirstFiles) -> bool {
        let db: &dyn HirDatabase = self.db;
        let mut holders: FxHashSet<FunctionId> = FxHashSet::default();
        let mut real_files = FxHashSet::default();
        for reach in reaches {
            for v in (0..reach.nodes.len()).filter(|&v| reach.local[v]) {
                if let Some(func) = holder_fn(db, &reach.nodes[v]).filter(|&func| holders.insert(func)) {
                    let held = match func.lookup(db).id.file_id.file_id() {
                        Some(file) => files.ids.contains(&file.file_id(db)),
                        // Defined by a macro: where its name is shown.
                        None => self.fn_location(func).is_some_and(|location| files.holds(&location.file)),
                    };
                    if held {
                        return true;
                    }
                }
                for site in reach.edges[v].iter().filter_map(|resolved| resolved.edge.site) {
                    let (_, source_map) = hir_def::expr_store::Body::with_source_map(db, site.owner);
                    let Ok(source) = source_map.expr_or_pat_syntax(site.expr) else { continue };
                    let held = match source.file_id.file_id() {
                        Some(file) => real_files.insert(file) && files.ids.contains(&file.file_id(db)),
                        // In a macro's expansion: where findings place it.
                        None => self.findings().site_location(site).is_some_and(|location| files.holds(&location.file)),
                    };
                    if held {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Decides each edge's verdict: first-use setup, growth of buffers (with room,
    /// in `noalloc:fixed` types and `noalloc:append` functions, on long-lived
    /// memory), exemptions on workspace lines, and allowlisted functions.
    fn mark_allowances(&mut self, reach: &mut Reach<'_>, config: &CheckConfig) {
        let db: &dyn HirDatabase = self.db;
        let below_owned = reach.below_owned_memory();
        for v in 0..reach.nodes.len() {
            if let Node::Fn { func, .. } = reach.nodes[v] {
                reach.allowed[v] = self.allow_entry(func, config).and_then(Result::ok);
            }
            for e in 0..reach.edges[v].len() {
                let resolved = &mut reach.edges[v][e];
                if resolved.verdict == Verdict::Cut {
                    continue;
                }
                // First use of a field reached through a parameter holds only while
                // what was passed outlives the call: not below a call handed memory
                // its caller owns (`let mut lazy = Lazy::new(); lazy.get()`). And
                // only while nothing the root reaches empties it again.
                let context = resolved.edge.context;
                let emptied = resolved.edge.fills.iter().any(|place| reach.emptied.contains(place));
                if context.first_use && !(context.first_use_of_param && below_owned[v]) && !emptied {
                    resolved.verdict = Verdict::Allowed;
                }
                let terminals: Vec<FunctionId> = resolved
                    .targets
                    .iter()
                    .filter_map(|t| match t {
                        Resolved::Terminal(Target::Foreign(f) | Target::Intrinsic(f)) => Some(*f),
                        _ => None,
                    })
                    .collect();
                for f in terminals {
                    if self.allow_entry(f, config).is_some() {
                        self.allowed_terminals.insert(f);
                    }
                }
            }
            if !reach.local[v] {
                // std and dependencies guard their own buffers: a room proof in their
                // bodies counts as one in the workspace's.
                GrowthRules::OUTSIDE.apply(reach, v, &|_| false);
                continue;
            }
            let holder = holder_fn(db, &reach.nodes[v]);
            let rules = GrowthRules {
                in_workspace: true,
                in_append_fn: holder.is_some_and(|f| self.append_fns.contains(&f)),
                in_fixed_type: holder.is_some_and(|f| self.fixed_holder(f)),
            };
            let scratch = |holders: &[hir_def::AdtId]| {
                holders.iter().any(|&adt| {
                    let path = naming::adt_path(db, adt);
                    config.scratch.iter().any(|pattern| crate::stdx::wildcard_match(pattern, &path))
                })
            };
            rules.apply(reach, v, &scratch);
            if self.exempt_lines.is_empty() {
                continue;
            }
            for e in 0..reach.edges[v].len() {
                let Some(site) = reach.edges[v][e].edge.site else { continue };
                if let Some(location) = self.findings().site_location(site) {
                    if let Some(&x) = self.exempt_lines.get(&(location.file, location.line)) {
                        let resolved = &mut reach.edges[v][e];
                        resolved.exempted = Some(x);
                        resolved.line_only = self.exemptions[x].report.line_only;
                    }
                }
            }
        }
    }

    /// The workspace lines where a rule let a call through for this root.
    fn allowed_calls(&mut self, reach: &Reach<'_>, judged: &Judged) -> Vec<AllowedCall> {
        let mut out: Vec<AllowedCall> = Vec::new();
        let mut facts: FxHashMap<DefWithBodyId, BodyFacts> = FxHashMap::default();
        for v in (0..reach.nodes.len()).filter(|&v| reach.local[v]) {
            for resolved in &reach.edges[v] {
                let Some(site) = resolved.edge.site else { continue };
                let builds_error = resolved.edge.context.error_return
                    || resolved
                        .targets
                        .iter()
                        .any(|t| judged.flags(t, &self.allowed_terminals) & (ON_ERROR | ONCE) != 0);
                let kind = match resolved.verdict {
                    Verdict::Cut => AllowanceKind::PanicPath,
                    Verdict::Allowed if resolved.edge.context.first_use => AllowanceKind::FirstUse,
                    Verdict::Allowed if resolved.edge.growth.is_some() => AllowanceKind::Room,
                    _ if builds_error => AllowanceKind::ErrorPath,
                    _ => continue,
                };
                let Some(location) = self.findings().site_location(site) else { continue };
                let callee =
                    resolved.targets.first().map(|t| self.findings().target_name(reach, t)).unwrap_or_default();
                let room = match (kind, &resolved.edge.growth) {
                    (AllowanceKind::Room, Some(Growth { proof: Some(proof), .. })) => self.room_use(site, proof),
                    _ => None,
                };
                let allocates = resolved.targets.iter().any(|t| judged.flags(t, &self.allowed_terminals) != 0);
                let guard = match kind {
                    AllowanceKind::FirstUse if allocates => self.first_use_guard(site, &mut facts),
                    _ => None,
                };
                let call = AllowedCall { kind, location, callee, room, guard };
                if !out.contains(&call) {
                    out.push(call);
                }
            }
        }
        out
    }

    /// The guard a first-use setup at `site` runs under (`--report`), read from
    /// its body's facts (kept in `facts`).
    fn first_use_guard(
        &mut self,
        site: Site,
        facts: &mut FxHashMap<DefWithBodyId, BodyFacts>,
    ) -> Option<FirstUseGuard> {
        let hir_def::hir::ExprOrPatId::ExprId(expr) = site.expr else { return None };
        let db: &dyn HirDatabase = self.db;
        let body_facts = facts.entry(site.owner).or_insert_with(|| {
            let interner = hir_ty::next_solver::DbInterner::new_with(db, site.owner.krate(db));
            BodyFacts::of(db, site.owner, interner.lang_items())
        });
        let guard = body_facts.guard(expr)?.clone();
        let at = self.findings().site_location(Site { owner: site.owner, expr: guard.at.into() })?;
        Some(FirstUseGuard { place: guard.place, at })
    }

    /// What the proof that covered a growth at `site` proves, where, and what the
    /// growth used of it (`--report`).
    fn room_use(&mut self, site: Site, proof: &RoomProof) -> Option<RoomUse> {
        let at = |expr: hir_def::hir::ExprId| Site { owner: site.owner, expr: expr.into() };
        let proven_at = self.findings().site_location(at(proof.at))?;
        let each_pass = match &proof.pass {
            Some(pass) => Some((pass.room.describe(), self.findings().site_location(at(pass.at))?)),
            None => None,
        };
        Some(RoomUse { room: proof.amount.describe(), proven_at, each_pass, appends: proof.need.describe() })
    }

    /// The allowlist entries that name `func`, looked up once for both kinds.
    fn allow_match(&self, func: FunctionId, config: &CheckConfig) -> AllowMatch {
        let db: &dyn HirDatabase = self.db;
        let list = *self.allow_list.get_or_init(|| {
            let patterns: Vec<(bool, String)> =
                config.allow.iter().map(|entry| (entry.kind == GROWTH_KIND, entry.path.clone())).collect();
            crate::engine::proof::incremental::AllowList::new(db, patterns)
        });
        *self
            .allow_matches
            .borrow_mut()
            .entry(func)
            .or_insert_with(|| crate::engine::proof::incremental::allow_match(db, list, func))
    }

    /// The allowlist entry that names `func`, if any: `Ok` an entry of the
    /// configuration, `Err` a built-in one.
    fn allow_entry(&self, func: FunctionId, config: &CheckConfig) -> Option<Result<usize, ()>> {
        self.allow_match(func, config).allow
    }

    /// The `growth:` allowlist entry that names `func`, if any (as `allow_entry`).
    fn growth_entry(&self, func: FunctionId, config: &CheckConfig) -> Option<Result<usize, ()>> {
        self.allow_match(func, config).growth
    }

    /// An error finding in `func` (if any), with the roots known so far to reach it.
    pub(crate) fn error(
        &self,
        kind: ErrorKind,
        location: Location,
        message: String,
        func: Option<FunctionId>,
    ) -> ErrorFinding {
        let db: &dyn HirDatabase = self.db;
        ErrorFinding {
            kind,
            location,
            message,
            function: func.map(|func| naming::fn_path(db, func, None)),
            roots: func.and_then(|func| self.reached_by.get(&func)).cloned().unwrap_or_default(),
            panic: None,
        }
    }

    /// Whether `func` is a method of a `noalloc:fixed` type.
    fn fixed_holder(&self, func: FunctionId) -> bool {
        let db: &dyn HirDatabase = self.db;
        let hir_def::ItemContainerId::ImplId(impl_) = func.lookup(db).container else { return false };
        db.impl_self_ty(impl_).skip_binder().as_adt().is_some_and(|(adt, _)| self.fixed_types.contains(&adt))
    }

    /// Allowlist entries that let something through in this root.
    fn note_used_allowances(&mut self, reach: &Reach<'_>, judged: &Judged) {
        let mut used = std::mem::take(&mut self.used_allow);
        for v in 0..reach.nodes.len() {
            self.allow_entries_used_at(reach, judged, v, &mut used);
        }
        self.used_allow = used;
    }

    /// The allowlist entries (indices into `CheckConfig::allow`) vertex `v` uses:
    /// its own, when what it runs allocates; those of the allowlisted foreign
    /// functions and intrinsics it calls; the `growth:` entries of the calls it
    /// grows a buffer with; and those the summary standing in for it used.
    fn allow_entries_used_at(&self, reach: &Reach<'_>, judged: &Judged, v: usize, used: &mut impl Extend<usize>) {
        if let Some(entry) = reach.allowed[v].filter(|_| judged.any[v] != 0) {
            used.extend([entry]);
        }
        let matches = self.allow_matches.borrow();
        for resolved in &reach.edges[v] {
            if let (Some(_), Target::Node(Node::Fn { func, .. })) = (&resolved.edge.growth, &resolved.edge.target) {
                if let Some(AllowMatch { growth: Some(Ok(entry)), .. }) = matches.get(func) {
                    used.extend([*entry]);
                }
            }
            if let Target::Summary(summary) = &resolved.edge.target {
                used.extend(summary.uses_allow.iter().copied());
            }
            if resolved.verdict == Verdict::Cut {
                continue;
            }
            for target in &resolved.targets {
                if let Resolved::Terminal(Target::Foreign(f) | Target::Intrinsic(f)) = target {
                    if let Some(AllowMatch { allow: Some(Ok(entry)), .. }) = matches.get(f) {
                        used.extend([*entry]);
                    }
                }
            }
        }
    }

    /// Stores the summary of every vertex outside the workspace whose reach is
    /// closed: no workspace code, no call resolved against the program (`dyn`, fn
    /// pointers, `dyn` drops), no unknown callee and no static read below it. Such
    /// a summary holds in any program checked with the same allowlist (the cache
    /// file is keyed by it). What its reach adds to the program (coercions to
    /// `dyn`, functions' addresses) goes with it, named, so that a reach it stands
    /// in for can tell when that matters; so do the allowlist entries it uses.
    /// Gives the instances it summarised now.
    fn remember_closed<'db>(
        &mut self,
        graph: &mut CallGraph<'db>,
        reach: &Reach<'db>,
        judged: &Judged,
        cache: &mut SummaryCache,
    ) -> Vec<Node<'db>> {
        let n = reach.nodes.len();
        let mut open = vec![false; n];
        let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut queue = Vec::new();
        // What each vertex's own walk (or its summary) adds, named, and the
        // allowlist entries it uses.
        let mut adds: Vec<Additions> = vec![Additions::default(); n];
        let mut uses_allow: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); n];
        // And what it could run back for an allowed call above it.
        let mut calls_back: Vec<CallsBack> = vec![CallsBack::default(); n];
        for v in 0..n {
            let own = &reach.adds[v];
            let mut opens = reach.local[v]
                || own.statics
                || reach.edges[v].iter().any(|resolved| {
                    // Whether that first use holds depends on what the caller passed.
                    (resolved.edge.context.first_use_of_param && resolved.verdict == Verdict::Allowed)
                        || !resolved.callbacks.is_empty()
                        || matches!(
                            resolved.edge.target,
                            Target::Dyn { .. } | Target::FnPointer { .. } | Target::DynDrop(_) | Target::Unknown { .. }
                        )
                });
            if !opens {
                match graph.dyn_trait_identities(&own.dyn_traits) {
                    Some(dyn_traits) => {
                        adds[v] = Additions { dyn_traits, auto_dyn: own.auto_dyn, fn_pointers: own.fn_pointers }
                    }
                    // A trait with no source to name it by: not summarised.
                    None => opens = true,
                }
                calls_back[v] = own_calls_back(graph, &reach.nodes[v]);
                for resolved in &reach.edges[v] {
                    if let Target::Summary(summary) = &resolved.edge.target {
                        adds[v].merge(&summary.adds);
                        calls_back[v].merge(&summary.calls_back);
                    }
                }
                self.allow_entries_used_at(reach, judged, v, &mut uses_allow[v]);
            }
            if opens {
                open[v] = true;
                queue.push(v);
            }
            for resolved in &reach.edges[v] {
                for target in resolved.targets.iter() {
                    if let Resolved::Vertex(j) = target {
                        callers[*j].push(v);
                    }
                }
                for &j in &resolved.callbacks {
                    callers[j].push(v);
                }
            }
        }
        while let Some(j) = queue.pop() {
            for &v in &callers[j] {
                if !open[v] {
                    open[v] = true;
                    queue.push(v);
                }
            }
        }
        // A closed vertex's reach adds what its own walk and every callee's reach
        // add, uses the entries they use, and may run back what they may.
        let mut pending: Vec<usize> = (0..n)
            .filter(|&v| !open[v] && !(adds[v].is_empty() && uses_allow[v].is_empty() && calls_back[v].is_empty()))
            .collect();
        while let Some(j) = pending.pop() {
            for &v in &callers[j] {
                if v != j && !open[v] {
                    let (from, entries, back) = (adds[j].clone(), uses_allow[j].clone(), calls_back[j].clone());
                    let before = uses_allow[v].len();
                    uses_allow[v].extend(entries);
                    if adds[v].merge(&from) | (uses_allow[v].len() != before) | calls_back[v].merge(&back) {
                        pending.push(v);
                    }
                }
            }
        }
        let mut summarised = Vec::new();
        for v in 0..n {
            if open[v] {
                continue;
            }
            let Some(key) = graph.instance_key(reach.nodes[v]) else { continue };
            if cache.contains(key) {
                continue;
            }
            let flags = judged.own[v];
            let chain = if flags != 0 {
                self.findings()
                    .chain_from(reach, judged, Resolved::Vertex(v), highest_flag(flags))
                    .into_iter()
                    .map(|step| CachedStep {
                        function: step.function,
                        line: step.location.as_ref().map_or(0, |l| l.line),
                        column: step.location.as_ref().map_or(0, |l| l.column),
                        end_line: step.location.as_ref().map_or(0, |l| l.end_line),
                        end_column: step.location.as_ref().map_or(0, |l| l.end_column),
                        file: step.location.map(|l| l.file),
                        exported: step.exported,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let summary = CachedSummary {
                allocates: flags & NORMAL != 0,
                on_error: flags & ON_ERROR != 0,
                once: flags & ONCE != 0,
                chain,
                adds: std::mem::take(&mut adds[v]),
                uses_allow: {
                    let mut entries: Vec<usize> = uses_allow[v].iter().copied().collect();
                    entries.sort_unstable();
                    entries
                },
                calls_back: std::mem::take(&mut calls_back[v]),
            };
            cache.insert(key.clone(), summary);
            summarised.push(reach.nodes[v]);
        }
        summarised
    }
}

/// The roots that took longest, longest first (`Timings::costliest_roots`).
fn costliest(reports: &[(usize, RootReport)], root_ms: &FxHashMap<usize, u128>) -> Vec<RootCost> {
    // A root whose outcome was reused has no time of its own.
    let mut costs: Vec<RootCost> = reports
        .iter()
        .filter_map(|(r, report)| {
            Some(RootCost { root: report.function.clone(), functions: report.functions_checked, ms: *root_ms.get(r)? })
        })
        .collect();
    costs.sort_by(|a, b| b.ms.cmp(&a.ms).then_with(|| b.functions.cmp(&a.functions)));
    costs.truncate(crate::engine::COSTLIEST_ROOTS);
    costs
}

/// A root's name as findings give it: its path, and the arguments a `--root`
/// pattern gives it.
fn root_name_of(db: &dyn HirDatabase, root: &roots::RootFn) -> String {
    let name = naming::fn_path(db, root.func, None);
    if root.args.is_empty() {
        name
    } else {
        format!("{name}::<{}>", root.args.join(", "))
    }
}

/// The error finding of a root whose check panicked.
fn internal_error(root_name: &str, location: &Location, caught: CaughtPanic) -> ErrorFinding {
    ErrorFinding {
        kind: ErrorKind::InternalError,
        location: location.clone(),
        message: format!("internal error while checking this root: {caught}; the rest of the check went on"),
        function: Some(root_name.to_owned()),
        roots: vec![root_name.to_owned()],
        panic: Some(PanicReport { message: caught.message, location: caught.location }),
    }
}

/// One finding per line and function: reasons of different instances and columns
/// merge; the first column stands for the line.
fn merge_by_line(findings: Vec<Finding>) -> Vec<Finding> {
    let mut merged: FxHashMap<(std::path::PathBuf, u32, String), Finding> = FxHashMap::default();
    let mut sorted = findings;
    sorted.sort_by(|a, b| a.location.cmp(&b.location));
    for finding in sorted {
        let key = (finding.location.file.clone(), finding.location.line, finding.function.clone());
        match merged.entry(key) {
            std::collections::hash_map::Entry::Occupied(mut slot) => {
                let existing = slot.get_mut();
                // A line that allocates outright is an allocation, whatever else it does.
                if finding.kind == FindingKind::Allocation {
                    existing.kind = FindingKind::Allocation;
                }
                existing.buffer = existing.buffer.take().or(finding.buffer);
                // The chain stays the one of the reason shown first (reasons are sorted below).
                if finding.reasons.iter().min() < existing.reasons.iter().min() {
                    existing.chain = finding.chain;
                    existing.allocates_in = finding.allocates_in;
                }
                for reason in finding.reasons {
                    if !existing.reasons.contains(&reason) {
                        existing.reasons.push(reason);
                    }
                }
                for root in finding.roots {
                    if !existing.roots.contains(&root) {
                        existing.roots.push(root);
                    }
                }
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(finding);
            }
        }
    }
    let mut findings: Vec<Finding> = merged.into_values().collect();
    for finding in &mut findings {
        finding.reasons.sort();
        finding.roots.sort();
    }
    findings.sort_by(|a, b| (&a.location, &a.function).cmp(&(&b.location, &b.function)));
    findings
}

/// What a vertex itself could be run back as by an allowed call above it
/// (`judge::find_callbacks`): a trait impl's or derived method, by its self type;
/// a closure, by the function that holds it.
fn own_calls_back<'db>(graph: &mut CallGraph<'db>, node: &Node<'db>) -> CallsBack {
    let db = graph.db;
    let mut back = CallsBack::default();
    let self_ty = match *node {
        Node::Fn { func, args, .. } => judge::called_back_self_type(db, func, args),
        Node::Derived { args, .. } => judge::derived_self_type(args),
        Node::Closure { .. } => {
            if let Some(holder) = holder_fn(db, node) {
                match graph.fn_fingerprint(holder) {
                    Some(fingerprint) => back.closure_holders.push(fingerprint),
                    None => back.unnamed = true,
                }
            }
            None
        }
        Node::DropGlue(_) | Node::Init(..) => None,
    };
    if let Some(ty) = self_ty {
        match graph.ty_fingerprint(ty) {
            Some(fingerprint) => back.impl_types.push(fingerprint),
            None => back.unnamed = true,
        }
    }
    back
}

/// Whether `func` (or the impl that holds it) has type or const parameters.
fn generic_over_types(db: &dyn HirDatabase, func: FunctionId) -> bool {
    let own = !hir::GenericDef::Function(hir::Function::from(func)).type_or_const_params(db).is_empty();
    own || matches!(func.lookup(db).container, hir_def::ItemContainerId::ImplId(impl_)
        if !hir::GenericDef::Impl(hir::Impl::from(impl_)).type_or_const_params(db).is_empty())
}

/// The workspace function a vertex's lines belong to (a closure's owner).
pub(crate) fn holder_fn(db: &dyn HirDatabase, node: &Node<'_>) -> Option<FunctionId> {
    match *node {
        Node::Fn { func, .. } => Some(func),
        Node::Closure { closure, .. } => match closure.loc(db).owner {
            hir_ty::InferBodyId::DefWithBodyId(DefWithBodyId::FunctionId(func)) => Some(func),
            _ => None,
        },
        _ => None,
    }
}

/// A workspace function, or a closure defined in one.
pub(crate) fn is_local(db: &dyn HirDatabase, node: &Node<'_>) -> bool {
    code_crate(db, node).is_some_and(|krate| krate.data(db).origin.is_local())
}

/// The crate whose code a function or closure vertex is; `None` for the others.
fn code_crate(db: &dyn HirDatabase, node: &Node<'_>) -> Option<base_db::Crate> {
    match *node {
        Node::Fn { func, .. } => Some(func.krate(db)),
        Node::Closure { closure, .. } => crate::engine::proof::walk_env::body_crate(db, closure.loc(db).owner),
        Node::DropGlue(_) | Node::Derived { .. } | Node::Init(..) => None,
    }
}
