//! Judging a workspace: finds the roots, walks what each reaches, decides which
//! instances allocate, and turns that into findings at workspace lines with chains.
//! The per-instance walking lives in `callgraph`; this module owns roots, `dyn`
//! resolution per root, allocation propagation and locations.

use std::time::Instant;

use hir::{Semantics, db::HirDatabase};
use hir_def::{DefWithBodyId, hir::ExprId, FunctionId, HasModule, Lookup, ModuleDefId, TraitId, signatures::FunctionSignature};
use hir_ty::{
    ParamEnvAndCrate,
    next_solver::{GenericArgs, SolverDefId, Ty, TyKind},
};
use ra_ap_ide_db::{
    RootDatabase,
    base_db::SourceDatabase,
    line_index::LineIndex,
};
use ra_ap_syntax::{AstNode, TextRange, ast::HasName};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::inherent::{GenericArgs as _, IntoKind};

use super::{
    Analysis, ChainStep, CheckConfig, ErrorFinding, ErrorKind, ExemptionReport, Finding, FindingKind, Location,
    RootReport, Workspace,
    allowances::{CallContext, Growth},
    callgraph::{CallGraph, Edge, Node, Site, Target, UnknownKind, dyn_principal},
    directives::{self, RootItem},
    naming,
    summary_cache::{self, CachedStep, CachedSummary, SummaryCache},
};

/// Analyzes every root of the workspace.
pub fn analyze(ws: &Workspace, config: &CheckConfig) -> Analysis {
    let db: &RootDatabase = &ws.db;
    hir::attach_db(db, || Analyzer::new(ws).run(config, None))
}

/// `analyze` with summaries the caller keeps across analyses (the language server
/// opens them once per workspace load) instead of opening `config.cache_dir`'s file:
/// no `rustc -vV` and no reading of the file per analysis.
pub fn analyze_with_summaries(ws: &Workspace, config: &CheckConfig, summaries: &mut SummaryCache) -> Analysis {
    let db: &RootDatabase = &ws.db;
    hir::attach_db(db, || Analyzer::new(ws).run(config, Some(summaries)))
}

/// A bound on the instances one root may reach.
const MAX_NODES_PER_ROOT: usize = 200_000;

struct RootFn {
    func: FunctionId,
    location: Location,
}

/// What one root reaches. A vertex is a node in a `dyn` context: the coercions to
/// `dyn Trait` made by the node's callers on the way down, which is where a `dyn`
/// call's concrete types usually come from (`write!` into a `Response` coerces the
/// `Response`; `format!` coerces a `String`).
struct Reach<'db> {
    nodes: Vec<Node<'db>>,
    local: Vec<bool>,
    /// The vertex is a closure: its failures are checked, not allowed.
    closure: Vec<bool>,
    /// The vertex is a function on the allowlist (index into `CheckConfig::allow`).
    allowed: Vec<Option<usize>>,
    edges: Vec<Vec<ResolvedEdge<'db>>>,
}

impl Reach<'_> {
    /// The vertices whose own lines are reported: reached from the root without
    /// crossing an allowance (an exemption that covers callees, first-use setup,
    /// growth with room, an allowlisted function) or the building of an error that a
    /// function returns.
    fn reported(&self) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![0];
        while let Some(v) = stack.pop() {
            if v >= seen.len() || seen[v] || self.allowed[v].is_some() {
                continue;
            }
            seen[v] = true;
            for resolved in &self.edges[v] {
                if resolved.allowed() || (resolved.edge.context.error_return && !self.closure[v]) {
                    continue;
                }
                for target in &resolved.targets {
                    if let Resolved::Vertex(j) = target {
                        stack.push(*j);
                    }
                }
            }
        }
        seen
    }
}

/// How an edge is judged, after the allowances.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Verdict {
    /// By what it calls.
    #[default]
    Judged,
    /// Not at all: an exemption covers it, or first-use setup, or growth with room.
    Allowed,
    /// It grows a buffer with no room proven: it allocates when the buffer is full.
    Grows { long_lived: bool },
}

#[derive(Clone)]
struct ResolvedEdge<'db> {
    edge: Edge<'db>,
    /// The exemption on the edge's line, if any (index into the analyzer's list).
    exempted: Option<usize>,
    /// That exemption covers only the line (`--line-only`), not what it calls.
    line_only: bool,
    verdict: Verdict,
    /// What the edge leads to: one target, or for a `dyn` call the impls it may call.
    targets: Vec<Resolved<'db>>,
}

impl<'db> ResolvedEdge<'db> {
    fn new(edge: Edge<'db>, targets: Vec<Resolved<'db>>) -> Self {
        ResolvedEdge { edge, exempted: None, line_only: false, verdict: Verdict::Judged, targets }
    }

    /// Nothing below the edge is judged: an allowance, or an exemption that covers
    /// what the line calls.
    fn allowed(&self) -> bool {
        self.verdict == Verdict::Allowed || (self.exempted.is_some() && !self.line_only)
    }
}

#[derive(Clone, PartialEq)]
enum Resolved<'db> {
    Vertex(usize),
    Terminal(Target<'db>),
}

/// Why a vertex allocates, for its chain: which edge, and which of its targets.
#[derive(Clone, Copy)]
struct Witness {
    edge: usize,
    target: usize,
}

/// Interned sets of `(concrete type, dyn trait)` coercions.
#[derive(Default)]
struct Contexts<'db> {
    sets: Vec<Vec<(Ty<'db>, TraitId)>>,
    ids: FxHashMap<Vec<(Ty<'db>, TraitId)>, u32>,
}

impl<'db> Contexts<'db> {
    fn intern(&mut self, set: Vec<(Ty<'db>, TraitId)>) -> u32 {
        if let Some(&id) = self.ids.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(set.clone());
        self.ids.insert(set, id);
        id
    }

    /// `ctx` plus `more`.
    fn extend(&mut self, ctx: u32, more: &[(Ty<'db>, TraitId)]) -> u32 {
        let mut set = self.sets[ctx as usize].clone();
        let before = set.len();
        for item in more {
            if !set.contains(item) {
                set.push(*item);
            }
        }
        if set.len() == before { ctx } else { self.intern(set) }
    }
}

struct Analyzer<'a> {
    ws: &'a Workspace,
    db: &'a RootDatabase,
    line_indexes: FxHashMap<FileId, std::sync::Arc<LineIndex>>,
    exemptions: Vec<Exemption>,
    /// (file, 1-based line) -> index into `exemptions`.
    exempt_lines: FxHashMap<(std::path::PathBuf, u32), usize>,
    /// Types marked `noalloc:fixed` and functions marked `noalloc:append`.
    fixed_types: FxHashSet<hir_def::AdtId>,
    append_fns: FxHashSet<FunctionId>,
    /// Which allowlist entry names a function, once looked up.
    allow_matches: FxHashMap<FunctionId, Option<usize>>,
    /// Foreign functions on the allowlist that some root calls.
    allowed_foreign: FxHashSet<FunctionId>,
    /// Allowlist entries that let something through.
    used_allow: FxHashSet<usize>,
}

/// An exemption comment and what the analysis learns about it.
struct Exemption {
    report: ExemptionReport,
    /// The function the comment stands in.
    func: Option<FunctionId>,
    reached: bool,
}

impl<'a> Analyzer<'a> {
    fn new(ws: &'a Workspace) -> Self {
        Analyzer {
            ws,
            db: &ws.db,
            line_indexes: FxHashMap::default(),
            exemptions: Vec::new(),
            exempt_lines: FxHashMap::default(),
            fixed_types: FxHashSet::default(),
            append_fns: FxHashSet::default(),
            allow_matches: FxHashMap::default(),
            allowed_foreign: FxHashSet::default(),
            used_allow: FxHashSet::default(),
        }
    }

    fn run(mut self, config: &CheckConfig, summaries: Option<&mut SummaryCache>) -> Analysis {
        let started = Instant::now();
        let mut analysis = Analysis::default();
        let (roots, errors, broken) = self.collect_roots(config);
        analysis.errors = errors;
        analysis.files_with_syntax_errors = broken;
        let Some(first_root) = roots.first() else {
            analysis.timings.analysis_ms = started.elapsed().as_millis();
            return analysis;
        };
        let db: &dyn HirDatabase = self.db;
        let mut graph = CallGraph::new(db, first_root.func.krate(db));
        let mut opened = config.cache_dir.as_ref().filter(|_| summaries.is_none()).map(|dir| {
            let mut material = summary_cache::key_material(&self.ws.root, &self.ws.std_source.library);
            material.extend(summary_cache::allow_key_material(&config.allow));
            SummaryCache::open(dir, &material.iter().map(String::as_str).collect::<Vec<_>>())
        });
        let mut cache = summaries.or(opened.as_mut());
        let mut findings: FxHashMap<(Location, String, Vec<String>), Finding> = FxHashMap::default();
        let mut checked_overall: FxHashSet<Node<'_>> = FxHashSet::default();
        for root in &roots {
            let root_name = naming::fn_path(db, root.func, None);
            let env = ParamEnvAndCrate {
                param_env: db.trait_environment(root.func.into()),
                krate: root.func.krate(db),
            };
            let args = GenericArgs::identity_for_item(graph.interner, SolverDefId::FunctionId(root.func));
            let root_node = Node::Fn { func: root.func, args };
            let unknown_dyn = self.dyn_traits_of_params(root.func);
            let mut reach = self.reach(&mut graph, root_node, env, &unknown_dyn, cache.as_deref_mut());
            checked_overall.extend(reach.nodes.iter().copied());
            self.mark_allowances(&mut reach, config);
            let judged = Judged::new(&reach, &self.allowed_foreign);
            let reported = reach.reported();
            if let Some(cache) = cache.as_mut() {
                self.remember_closed(&reach, &judged, cache);
            }
            self.note_used_allowances(&reach, &judged);
            let mut root_findings = 0;
            for (i, node) in reach.nodes.iter().enumerate() {
                if !reach.local[i] || !reported[i] {
                    continue;
                }
                if let Some(func) = self.holder_fn(node) {
                    for exemption in self.exemptions.iter_mut().filter(|x| x.func == Some(func)) {
                        exemption.reached = true;
                    }
                }
                for (e, resolved) in reach.edges[i].iter().enumerate() {
                    let Some(site) = resolved.edge.site else { continue };
                    if let Some(x) = resolved.exempted {
                        if let Some(let_through) = self.let_through(&reach, &judged, i, resolved) {
                            let lets = &mut self.exemptions[x].report.lets_through;
                            if !lets.contains(&let_through) {
                                lets.push(let_through);
                            }
                        }
                        continue;
                    }
                    let Some((kind, reason, buffer)) = self.reason(&reach, &judged, i, resolved) else { continue };
                    let Some(location) = self.site_location(site) else { continue };
                    let function = self.holder_name(node);
                    let chain = self.chain(&reach, &judged, i, e);
                    root_findings += 1;
                    let key = (location.clone(), function.clone(), vec![reason.clone()]);
                    let finding = findings.entry(key).or_insert_with(|| Finding {
                        kind,
                        location,
                        function,
                        roots: Vec::new(),
                        reasons: vec![reason],
                        chain,
                        buffer,
                    });
                    if !finding.roots.contains(&root_name) {
                        finding.roots.push(root_name.clone());
                    }
                }
            }
            analysis.roots.push(RootReport {
                function: root_name,
                location: root.location.clone(),
                functions_checked: reach.nodes.len(),
                findings: root_findings,
            });
        }
        // One finding per line and function: reasons of different instances and
        // columns merge; the first column stands for the line.
        let mut merged: FxHashMap<(std::path::PathBuf, u32, String), Finding> = FxHashMap::default();
        let mut sorted: Vec<Finding> = findings.into_values().collect();
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
        for exemption in std::mem::take(&mut self.exemptions) {
            let mut report = exemption.report;
            report.lets_through.sort();
            if exemption.reached && report.lets_through.is_empty() {
                analysis.errors.push(ErrorFinding {
                    kind: ErrorKind::UnusedExemption,
                    location: report.location.clone(),
                    message: format!(
                        "exemption lets nothing through: delete it (noalloc:exempt {}: {})",
                        report.kind, report.reason
                    ),
                });
            }
            analysis.exemptions.push(report);
        }
        let mut findings: Vec<Finding> = merged.into_values().collect();
        for finding in &mut findings {
            finding.reasons.sort();
            finding.roots.sort();
        }
        findings.sort_by(|a, b| (&a.location, &a.function).cmp(&(&b.location, &b.function)));
        analysis.findings = findings;
        analysis.errors.sort_by(|a, b| a.location.cmp(&b.location));
        analysis.functions_checked = checked_overall.len();
        analysis.unused_allow = (0..config.allow.len()).filter(|i| !self.used_allow.contains(i)).collect();
        analysis.timings.bodies_walked = graph.bodies_walked;
        if let Some(cache) = cache.as_mut() {
            if let Err(err) = cache.save() {
                tracing::warn!("could not write {}: {err}", cache.path().display());
            }
            analysis.timings.cache_hits = cache.hits;
            analysis.timings.cache_entries = cache.len();
        }
        analysis.timings.analysis_ms = started.elapsed().as_millis();
        analysis
    }

    /// Every vertex reachable from `root`, with `dyn` calls resolved: against the
    /// coercions of the call's context when it has some for the trait, else against
    /// every coercion the root's reachable code makes (rapid type analysis), and
    /// against every impl for traits that the root's own parameters carry as `dyn`.
    fn reach<'db>(
        &self,
        graph: &mut CallGraph<'db>,
        root: Node<'db>,
        env: ParamEnvAndCrate<'db>,
        unknown_dyn: &FxHashSet<TraitId>,
        mut cache: Option<&mut SummaryCache>,
    ) -> Reach<'db> {
        let mut reach = Reach { nodes: Vec::new(), local: Vec::new(), closure: Vec::new(), allowed: Vec::new(), edges: Vec::new() };
        let mut contexts = Contexts::default();
        let empty = contexts.intern(Vec::new());
        let mut index: FxHashMap<(Node<'db>, u32), usize> = FxHashMap::default();
        let mut ctx_of: Vec<u32> = Vec::new();
        let mut queue: Vec<usize> = Vec::new();
        let mut vertex = |reach: &mut Reach<'db>, ctx_of: &mut Vec<u32>, queue: &mut Vec<usize>, node: Node<'db>, ctx: u32| {
            *index.entry((node, ctx)).or_insert_with(|| {
                reach.nodes.push(node);
                reach.local.push(self.is_local(&node));
                reach.closure.push(matches!(node, Node::Closure { .. }));
                reach.allowed.push(None);
                reach.edges.push(Vec::new());
                ctx_of.push(ctx);
                queue.push(reach.nodes.len() - 1);
                reach.nodes.len() - 1
            })
        };
        vertex(&mut reach, &mut ctx_of, &mut queue, root, empty);
        // Every coercion of the root's reach, for `dyn` calls whose context has none.
        let mut coerced: Vec<(Ty<'db>, TraitId)> = Vec::new();
        let mut own_coercions: Vec<Vec<(Ty<'db>, TraitId)>> = Vec::new();
        let mut child_ctx_of: Vec<u32> = Vec::new();
        // `format_args!` arguments wait for their consumer's reach: (vertex, edge).
        let mut deferred: Vec<(usize, usize)> = Vec::new();
        // (vertex, edge, context of the call, how many of `coerced` it has seen).
        let mut dyn_sites: Vec<(usize, usize, u32, usize)> = Vec::new();
        let mut walked_count = 0;
        loop {
            while let Some(v) = queue.pop() {
                walked_count += 1;
                if walked_count > MAX_NODES_PER_ROOT {
                    // Polymorphic recursion can instantiate without end; stop there.
                    tracing::warn!("stopped after {MAX_NODES_PER_ROOT} instances");
                    queue.clear();
                    break;
                }
                if !reach.local[v] {
                    let cached = cache.as_deref_mut().and_then(|cache| {
                        let key = naming::instance_key(graph.db, &reach.nodes[v])?;
                        cache.get(&key)
                    });
                    if let Some(summary) = cached {
                        let target = Target::Summary(summary);
                        let targets = vec![Resolved::Terminal(target.clone())];
                        reach.edges[v] = vec![ResolvedEdge::new(Edge::new(target, None), targets)];
                        continue;
                    }
                }
                let walked = graph.walk(reach.nodes[v], env);
                let own: Vec<(Ty<'db>, TraitId)> =
                    walked.coercions.iter().filter_map(|&(from, to)| Some((from, dyn_principal(to)?))).collect();
                for item in &own {
                    if !coerced.contains(item) {
                        coerced.push(*item);
                    }
                }
                let child_ctx = contexts.extend(ctx_of[v], &own);
                own_coercions.resize(reach.nodes.len(), Vec::new());
                child_ctx_of.resize(reach.nodes.len(), empty);
                own_coercions[v] = own;
                child_ctx_of[v] = child_ctx;
                let mut edges = Vec::with_capacity(walked.edges.len());
                for (e, edge) in walked.edges.iter().enumerate() {
                    let targets = match &edge.target {
                        Target::Node(_) if edge.format_consumer.is_some() => {
                            deferred.push((v, e));
                            Vec::new()
                        }
                        Target::Node(next) => {
                            vec![Resolved::Vertex(vertex(&mut reach, &mut ctx_of, &mut queue, *next, child_ctx))]
                        }
                        Target::Dyn { .. } => {
                            dyn_sites.push((v, e, child_ctx, 0));
                            Vec::new()
                        }
                        other => vec![Resolved::Terminal(other.clone())],
                    };
                    edges.push(ResolvedEdge::new(edge.clone(), targets));
                }
                reach.edges[v] = edges;
            }
            let mut changed = false;
            // A `format_args!` argument's `Display::fmt` runs inside the call that
            // consumes the arguments: it sees the writers that call coerces.
            for (v, e) in std::mem::take(&mut deferred) {
                let edge = &reach.edges[v][e].edge;
                let (Target::Node(next), Some(consumer)) = (edge.target.clone(), edge.format_consumer) else { continue };
                let consumer_targets: Vec<usize> = edges_at(&reach.edges[v], consumer)
                    .filter(|r| r.edge.format_consumer.is_none())
                    .flat_map(|r| r.targets.iter())
                    .filter_map(|t| match t {
                        Resolved::Vertex(j) => Some(*j),
                        Resolved::Terminal(_) => None,
                    })
                    .collect();
                let writers = subtree_coercions(&reach, &own_coercions, &consumer_targets);
                let ctx = contexts.extend(child_ctx_of[v], &writers);
                let target = vertex(&mut reach, &mut ctx_of, &mut queue, next, ctx);
                reach.edges[v][e].targets = vec![Resolved::Vertex(target)];
                changed = true;
            }
            for site in dyn_sites.iter_mut() {
                let (v, e, ctx, seen) = *site;
                if seen == usize::MAX {
                    continue;
                }
                let Target::Dyn { method, args } = reach.edges[v][e].edge.target.clone() else { continue };
                let hir_def::ItemContainerId::TraitId(trait_) = method.lookup(graph.db).container else { continue };
                let in_context: Vec<Ty<'db>> = contexts.sets[ctx as usize]
                    .iter()
                    .filter(|(_, t)| self.trait_or_super(graph.db, *t, trait_))
                    .map(|(ty, _)| *ty)
                    .collect();
                let mut targets: Vec<Target<'db>> = Vec::new();
                if !in_context.is_empty() {
                    site.3 = usize::MAX;
                    for concrete in in_context {
                        targets.extend(self.dyn_impl(graph, method, args, concrete, env));
                    }
                } else {
                    if seen == 0 && unknown_dyn.contains(&trait_) {
                        if graph.is_fn_family_trait(trait_) {
                            // A `dyn Fn` from the root's caller could be any closure.
                            let what = format!("`dyn {}`", naming::trait_path(graph.db, trait_));
                            targets.push(Target::Unknown { what, kind: UnknownKind::Opaque });
                        } else {
                            targets.extend(self.all_impls(graph, method, trait_, env));
                        }
                    }
                    for &(concrete, coerced_trait) in &coerced[seen..] {
                        if self.trait_or_super(graph.db, coerced_trait, trait_) {
                            targets.extend(self.dyn_impl(graph, method, args, concrete, env));
                        }
                    }
                    site.3 = coerced.len();
                }
                for target in targets {
                    let resolved = match target {
                        Target::Node(next) => Resolved::Vertex(vertex(&mut reach, &mut ctx_of, &mut queue, next, ctx)),
                        other => Resolved::Terminal(other),
                    };
                    if !reach.edges[v][e].targets.contains(&resolved) {
                        reach.edges[v][e].targets.push(resolved);
                        changed = true;
                    }
                }
            }
            if !changed && queue.is_empty() {
                break;
            }
        }
        reach
    }

    /// Decides each edge's verdict: exemptions on workspace lines, first-use setup,
    /// growth of buffers (with room, in `noalloc:fixed` types and `noalloc:append`
    /// functions, on long-lived memory), and allowlisted functions.
    fn mark_allowances(&mut self, reach: &mut Reach<'_>, config: &CheckConfig) {
        let db: &dyn HirDatabase = self.db;
        for v in 0..reach.nodes.len() {
            if !config.allow.is_empty() {
                if let Node::Fn { func, .. } = reach.nodes[v] {
                    reach.allowed[v] = self.allow_entry(func, config);
                }
            }
            let holder = if reach.local[v] { self.holder_fn(&reach.nodes[v]) } else { None };
            let in_append_fn = holder.is_some_and(|f| self.append_fns.contains(&f));
            let in_fixed_type = holder.is_some_and(|f| self.fixed_holder(f));
            for e in 0..reach.edges[v].len() {
                let resolved = &mut reach.edges[v][e];
                resolved.verdict = if resolved.edge.context.first_use { Verdict::Allowed } else { Verdict::Judged };
                for target in &resolved.targets {
                    if let Resolved::Terminal(Target::Foreign(f)) = target {
                        if !config.allow.is_empty() && self.allow_entry(*f, config).is_some() {
                            self.allowed_foreign.insert(*f);
                        }
                    }
                }
                if !reach.local[v] {
                    continue;
                }
                let Some(site) = resolved.edge.site else { continue };
                if let Some(growth) = &resolved.edge.growth {
                    let trusted = in_append_fn || (in_fixed_type && growth.on_self);
                    resolved.verdict = if growth.room || trusted {
                        Verdict::Allowed
                    } else {
                        let scratch = growth.holders.iter().any(|&adt| {
                            let path = naming::adt_path(db, adt);
                            config.scratch.iter().any(|pattern| wildcard_match(pattern, &path))
                        });
                        Verdict::Grows { long_lived: growth.long_lived || scratch }
                    };
                }
                if !self.exempt_lines.is_empty() {
                    if let Some(location) = self.site_location(site) {
                        if let Some(&x) = self.exempt_lines.get(&(location.file, location.line)) {
                            let resolved = &mut reach.edges[v][e];
                            resolved.exempted = Some(x);
                            resolved.line_only = self.exemptions[x].report.line_only;
                        }
                    }
                }
            }
            // A `format_args!` argument formats into its consumer: a `write!` into a
            // buffer grows that buffer, and is judged with it.
            for e in 0..reach.edges[v].len() {
                let Some(consumer) = reach.edges[v][e].edge.format_consumer else { continue };
                let consumer_verdict =
                    edges_at(&reach.edges[v], consumer).find(|r| r.edge.growth.is_some()).map(|r| r.verdict);
                if let Some(verdict @ (Verdict::Allowed | Verdict::Grows { .. })) = consumer_verdict {
                    reach.edges[v][e].verdict = verdict;
                }
            }
        }
    }

    /// The allowlist entry that names `func`, if any.
    fn allow_entry(&mut self, func: FunctionId, config: &CheckConfig) -> Option<usize> {
        let db: &dyn HirDatabase = self.db;
        *self.allow_matches.entry(func).or_insert_with(|| {
            let path = naming::fn_path(db, func, None);
            config.allow.iter().position(|entry| wildcard_match(&entry.path, &path))
        })
    }

    /// Whether `func` is a method of a `noalloc:fixed` type.
    fn fixed_holder(&self, func: FunctionId) -> bool {
        let db: &dyn HirDatabase = self.db;
        let hir_def::ItemContainerId::ImplId(impl_) = func.lookup(db).container else { return false };
        db.impl_self_ty(impl_).skip_binder().as_adt().is_some_and(|(adt, _)| self.fixed_types.contains(&adt))
    }

    /// Allowlist entries that let something through in this root.
    fn note_used_allowances(&mut self, reach: &Reach<'_>, judged: &Judged) {
        for (v, allowed) in reach.allowed.iter().enumerate() {
            if let Some(entry) = allowed {
                if judged.any[v] != 0 {
                    self.used_allow.insert(*entry);
                }
            }
        }
        for f in &self.allowed_foreign {
            if let Some(Some(entry)) = self.allow_matches.get(f) {
                self.used_allow.insert(*entry);
            }
        }
    }

    /// What an exempted edge lets through: the reason a finding would give, or for a
    /// workspace callee that allocates inside, the callee.
    fn let_through(&self, reach: &Reach<'_>, judged: &Judged, v: usize, resolved: &ResolvedEdge<'_>) -> Option<String> {
        if let Some((_, reason, _)) = self.reason(reach, judged, v, resolved) {
            return Some(reason);
        }
        let x = resolved.exempted?;
        if self.exemptions[x].report.line_only {
            return None;
        }
        resolved.targets.iter().find(|t| matches!(t, Resolved::Vertex(j) if reach.local[*j] && judged.any[*j] != 0)).map(
            |target| format!("calls {}, which allocates", self.target_name(reach, target)),
        )
    }

    /// The workspace function a vertex's lines belong to (a closure's owner).
    fn holder_fn(&self, node: &Node<'_>) -> Option<FunctionId> {
        let db: &dyn HirDatabase = self.db;
        match *node {
            Node::Fn { func, .. } => Some(func),
            Node::Closure { closure, .. } => match closure.loc(db).owner {
                hir_ty::InferBodyId::DefWithBodyId(DefWithBodyId::FunctionId(func)) => Some(func),
                _ => None,
            },
            _ => None,
        }
    }

    /// Stores the summary of every vertex outside the workspace whose reach is closed:
    /// no workspace code, no `dyn` call, no deferred `format_args!` argument, no
    /// unknown callee below it. Such a summary holds in any context.
    fn remember_closed(&mut self, reach: &Reach<'_>, judged: &Judged, cache: &mut SummaryCache) {
        let db: &dyn HirDatabase = self.db;
        let n = reach.nodes.len();
        let mut open = vec![false; n];
        let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut queue = Vec::new();
        for v in 0..n {
            let opens = reach.local[v]
                || reach.allowed[v].is_some()
                || reach.edges[v].iter().any(|resolved| {
                    resolved.edge.format_consumer.is_some()
                        || matches!(resolved.edge.target, Target::Dyn { .. } | Target::Unknown { .. })
                });
            if opens {
                open[v] = true;
                queue.push(v);
            }
            for resolved in &reach.edges[v] {
                for target in &resolved.targets {
                    if let Resolved::Vertex(j) = target {
                        callers[*j].push(v);
                    }
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
        for v in 0..n {
            if open[v] {
                continue;
            }
            let Some(key) = naming::instance_key(db, &reach.nodes[v]) else { continue };
            let flags = judged.own[v];
            let chain = if flags != 0 {
                self.chain_from(reach, judged, Resolved::Vertex(v))
                    .into_iter()
                    .map(|step| CachedStep {
                        function: step.function,
                        line: step.location.as_ref().map_or(0, |l| l.line),
                        column: step.location.as_ref().map_or(0, |l| l.column),
                        file: step.location.map(|l| l.file),
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
            };
            cache.insert(key, summary);
        }
    }

    /// The impl of a `dyn` method for one concrete type.
    fn dyn_impl<'db>(
        &self,
        graph: &mut CallGraph<'db>,
        method: FunctionId,
        args: GenericArgs<'db>,
        concrete: Ty<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Option<Target<'db>> {
        let mut new_args: Vec<_> = args.as_slice().to_vec();
        new_args[0] = concrete.into();
        graph.resolve_call(method, GenericArgs::new_from_slice(&new_args), env)
    }

    fn trait_or_super(&self, db: &dyn HirDatabase, coerced: TraitId, called: TraitId) -> bool {
        coerced == called || hir_ty::all_super_traits(db, coerced).contains(&called)
    }

    /// Every impl of `trait_` in the crate graph, at `method`.
    fn all_impls<'db>(
        &self,
        graph: &mut CallGraph<'db>,
        method: FunctionId,
        trait_: TraitId,
        env: ParamEnvAndCrate<'db>,
    ) -> Vec<Target<'db>> {
        let db = graph.db;
        let name = FunctionSignature::of(db, method).name.clone();
        let mut out = Vec::new();
        for impl_ in hir::Impl::all_for_trait(db, hir::Trait::from(trait_)) {
            for item in impl_.items(db) {
                let hir::AssocItem::Function(f) = item else { continue };
                if f.name(db) != name {
                    continue;
                }
                let Ok(ModuleDefId::FunctionId(id)) = ModuleDefId::try_from(hir::ModuleDef::Function(f)) else {
                    continue;
                };
                let args = GenericArgs::identity_for_item(graph.interner, SolverDefId::FunctionId(id));
                if let Some(target) = graph.resolve_call(id, args, env) {
                    out.push(target);
                }
            }
        }
        out
    }

    /// Traits that a root's parameters carry as `dyn Trait` (any depth of references,
    /// boxes and ADT arguments): their calls may reach any impl.
    fn dyn_traits_of_params(&self, func: FunctionId) -> FxHashSet<TraitId> {
        let db: &dyn HirDatabase = self.db;
        let sig = db.callable_item_signature(func.into()).skip_binder().skip_binder();
        let mut out = FxHashSet::default();
        for &param in sig.inputs().iter() {
            collect_dyn_traits(param, &mut out);
        }
        out
    }

    fn is_local(&self, node: &Node<'_>) -> bool {
        // A workspace function, or a closure defined in one.
        let db: &dyn HirDatabase = self.db;
        let krate = match *node {
            Node::Fn { func, .. } => func.krate(db),
            Node::Closure { closure, .. } => match closure.loc(db).owner {
                hir_ty::InferBodyId::DefWithBodyId(def) => def_krate(db, def),
                _ => return false,
            },
            Node::DropGlue(_) | Node::Derived { .. } => return false,
        };
        krate.data(db).origin.is_local()
    }

    /// The workspace function that holds a node's lines.
    fn holder_name(&self, node: &Node<'_>) -> String {
        let db: &dyn HirDatabase = self.db;
        match *node {
            Node::Fn { func, .. } => naming::fn_path(db, func, None),
            _ => naming::node_name(db, node),
        }
    }

    /// The name of what a resolved target calls.
    fn target_name(&self, reach: &Reach<'_>, target: &Resolved<'_>) -> String {
        let db: &dyn HirDatabase = self.db;
        match target {
            Resolved::Vertex(j) => naming::node_name(db, &reach.nodes[*j]),
            Resolved::Terminal(Target::Allocator(f) | Target::Foreign(f)) => naming::fn_path(db, *f, None),
            Resolved::Terminal(Target::Unknown { what, .. }) => what.clone(),
            Resolved::Terminal(Target::Node(node)) => naming::node_name(db, node),
            Resolved::Terminal(Target::Dyn { method, .. }) => naming::fn_path(db, *method, None),
            Resolved::Terminal(Target::Summary(summary)) => {
                summary.chain.first().map(|step| step.function.clone()).unwrap_or_default()
            }
        }
    }

    /// The growth an edge stands for: its own, or for a `format_args!` argument, the
    /// growth of the call that formats it.
    fn growth_of<'r>(&self, reach: &'r Reach<'_>, v: usize, resolved: &'r ResolvedEdge<'_>) -> Option<&'r Growth> {
        if let Some(growth) = &resolved.edge.growth {
            return Some(growth);
        }
        edges_at(&reach.edges[v], resolved.edge.format_consumer?).find_map(|r| r.edge.growth.as_ref())
    }

    /// How calling `target` from vertex `v` allocates, as seen from `v`'s lines:
    /// workspace callees report their own normal allocations.
    fn callee_flags(&self, reach: &Reach<'_>, judged: &Judged, v: usize, target: &Resolved<'_>) -> u8 {
        match target {
            Resolved::Vertex(j) if reach.allowed[*j].is_some() => 0,
            Resolved::Vertex(j) if reach.local[*j] => judged.any[*j] & !NORMAL,
            Resolved::Vertex(j) => judged.own[*j],
            Resolved::Terminal(Target::Foreign(f)) if self.allowed_foreign.contains(f) => 0,
            Resolved::Terminal(terminal) => terminal_flags(terminal, v, reach.local[v]),
        }
    }

    /// Why an edge of a workspace function is a finding, if it is one: its kind, its
    /// reason, and for growth the buffer.
    fn reason(
        &self,
        reach: &Reach<'_>,
        judged: &Judged,
        v: usize,
        resolved: &ResolvedEdge<'_>,
    ) -> Option<(FindingKind, String, Option<String>)> {
        let db: &dyn HirDatabase = self.db;
        let context = resolved.edge.context;
        let in_closure = reach.closure[v];
        match resolved.verdict {
            Verdict::Allowed => return None,
            Verdict::Grows { long_lived } => {
                if through(context, NORMAL, in_closure).0 & NORMAL == 0 {
                    return None; // growing the error that the function returns
                }
                let buffer = self.growth_of(reach, v, resolved)?.buffer.clone();
                if long_lived {
                    return Some((FindingKind::MayGrow, format!("may grow `{buffer}`"), Some(buffer)));
                }
                if let Some(&Resolved::Vertex(j)) = resolved.targets.first() {
                    if reach.local[j] {
                        let name = naming::node_name(db, &reach.nodes[j]);
                        return Some((FindingKind::Allocation, format!("grows `{buffer}` through {name} (noalloc:append)"), None));
                    }
                }
            }
            Verdict::Judged => {}
        }
        let mut normal: Vec<&Resolved<'_>> = Vec::new();
        let mut swallowed: Option<&Resolved<'_>> = None;
        for target in &resolved.targets {
            let callee = match (target, &resolved.edge.target) {
                // A `dyn` call names every impl that allocates, workspace ones too.
                (Resolved::Vertex(j), Target::Dyn { .. }) if reach.allowed[*j].is_none() => judged.any[*j],
                _ => self.callee_flags(reach, judged, v, target),
            };
            let (flags, dropped) = through(context, callee, in_closure);
            if flags & NORMAL != 0 {
                if dropped {
                    swallowed.get_or_insert(target);
                } else {
                    normal.push(target);
                }
            }
        }
        if normal.is_empty() {
            let target = swallowed?;
            let callee = self.target_name(reach, target);
            let reason = if !in_closure {
                format!("drops the error of {callee}, which allocates, inside a loop: every failed pass allocates")
            } else if context.propagates || context.error_return {
                format!("returns the error of {callee}, which allocates, from a closure: its caller may drop it and call again")
            } else {
                format!("drops the error of {callee}, which allocates, in a closure that may run again")
            };
            return Some((FindingKind::SwallowedError, reason, None));
        }
        let unknown = |what: &String| {
            format!("call with no known callee: {}", resolved.edge.callee_label.as_ref().unwrap_or(what))
        };
        let reason = match &resolved.edge.target {
            Target::Node(_) => {
                let &Resolved::Vertex(j) = normal[0] else { return None };
                match resolved.edge.drop_of {
                    Some(ty) => format!("drops `{}`, whose drop glue allocates", naming::ty_name(db, ty)),
                    None => format!("calls {}", naming::node_name(db, &reach.nodes[j])),
                }
            }
            Target::Allocator(func) => format!("calls the allocator {}", naming::fn_path(db, *func, None)),
            Target::Foreign(func) => format!("calls foreign function {} (body not visible)", naming::fn_path(db, *func, None)),
            Target::Unknown { what, .. } => unknown(what),
            // Summaries stand for code outside the workspace, never for a workspace line.
            Target::Summary(_) => return None,
            Target::Dyn { method, .. } => {
                if let [Resolved::Terminal(Target::Unknown { what, .. })] = resolved.targets.as_slice() {
                    unknown(what)
                } else {
                    let mut allocating: Vec<String> = normal.iter().map(|target| self.target_name(reach, target)).collect();
                    allocating.sort();
                    allocating.dedup();
                    let trait_ = naming::trait_path_of(db, *method);
                    let name = FunctionSignature::of(db, *method).name.as_str().to_owned();
                    format!("calls dyn {trait_}::{name}, and these impls allocate: {}", allocating.join(", "))
                }
            }
        };
        Some((FindingKind::Allocation, reason, None))
    }

    /// From the callee of edge `e` of vertex `v` down to the allocation.
    fn chain(&mut self, reach: &Reach<'_>, judged: &Judged, v: usize, e: usize) -> Vec<ChainStep> {
        match reach.edges[v][e].targets.iter().find(|t| judged.is_bad(t)) {
            Some(target) => self.chain_from(reach, judged, target.clone()),
            None => Vec::new(),
        }
    }

    /// From `target` down to the allocation, following witnesses.
    fn chain_from<'db>(&mut self, reach: &Reach<'db>, judged: &Judged, mut target: Resolved<'db>) -> Vec<ChainStep> {
        let mut chain = Vec::new();
        let mut seen = FxHashSet::default();
        loop {
            if let Resolved::Vertex(j) = target {
                if let [only] = reach.edges[j].as_slice() {
                    if let Some(summary @ Resolved::Terminal(Target::Summary(_))) = only.targets.first() {
                        target = summary.clone();
                    }
                }
            }
            if let Resolved::Terminal(Target::Summary(summary)) = &target {
                chain.extend(summary.chain.iter().map(|step| ChainStep {
                    function: step.function.clone(),
                    location: step.file.clone().map(|file| Location {
                        file,
                        line: step.line,
                        column: step.column,
                        end_line: step.line,
                        end_column: step.column,
                    }),
                }));
                break;
            }
            let name = self.target_name(reach, &target);
            let Resolved::Vertex(j) = target else {
                chain.push(ChainStep { function: name, location: None });
                break;
            };
            let witness = if seen.insert(j) { judged.witness[j] } else { None };
            let Some(Witness { edge, target: t }) = witness else {
                chain.push(ChainStep { function: name, location: None });
                break;
            };
            let resolved = &reach.edges[j][edge];
            let location = resolved.edge.site.and_then(|site| self.site_location(site));
            chain.push(ChainStep { function: name, location });
            target = resolved.targets[t].clone();
        }
        chain
    }

    fn site_location(&mut self, site: Site) -> Option<Location> {
        let db: &dyn HirDatabase = self.db;
        let (_, source_map) = hir_def::expr_store::Body::with_source_map(db, site.owner);
        let source = source_map.expr_or_pat_syntax(site.expr).ok()?;
        let range = source.map(|ptr| ptr.text_range()).original_node_file_range_rooted(db);
        let file = range.file_id.file_id(db);
        self.location(file, range.range)
    }

    fn location(&mut self, file: FileId, range: TextRange) -> Option<Location> {
        let path = self.ws.file_path(file)?;
        let db = self.db;
        let index = self
            .line_indexes
            .entry(file)
            .or_insert_with(|| std::sync::Arc::new(LineIndex::new(db.file_text(file).text(db))))
            .clone();
        let start = index.line_col(range.start());
        let end = index.line_col(range.end());
        Some(Location { file: path, line: start.line + 1, column: start.col + 1, end_line: end.line + 1, end_column: end.col + 1 })
    }

    /// Roots from directives and `--root` patterns; malformed directives as errors.
    fn collect_roots(&mut self, config: &CheckConfig) -> (Vec<RootFn>, Vec<ErrorFinding>, Vec<std::path::PathBuf>) {
        let db = self.db;
        let sema = Semantics::new(db);
        let mut roots: Vec<RootFn> = Vec::new();
        let mut errors = Vec::new();
        let mut seen = FxHashSet::default();
        let mut broken = Vec::new();
        for file in self.local_files() {
            let source = sema.parse_guess_edition(file);
            if sema.attach_first_edition(file).parse_errors(db).is_some() {
                broken.extend(self.ws.file_path(file));
            }
            let found = directives::collect(&source);
            for error in found.errors {
                if let Some(location) = self.location(file, error.range) {
                    errors.push(ErrorFinding { kind: ErrorKind::MalformedDirective, location, message: error.message });
                }
            }
            for site in found.exemptions {
                let Some(location) = self.location(file, site.comment) else { continue };
                let func = source
                    .syntax()
                    .token_at_offset(site.comment.start())
                    .right_biased()
                    .and_then(|token| token.parent_ancestors().find_map(ra_ap_syntax::ast::Fn::cast))
                    .and_then(|f| sema.to_def(&f))
                    .and_then(function_id);
                let covered_line = site.covered_line + 1;
                let line_only = config.line_only.contains(&site.kind);
                self.exempt_lines.insert((location.file.clone(), covered_line), self.exemptions.len());
                self.exemptions.push(Exemption {
                    report: ExemptionReport {
                        location,
                        covered_line,
                        kind: site.kind,
                        reason: site.reason,
                        line_only,
                        lets_through: Vec::new(),
                    },
                    func,
                    reached: false,
                });
            }
            for adt in &found.fixed_types {
                if let Some(adt) = sema.to_def(adt) {
                    self.fixed_types.insert(adt_id(adt));
                }
            }
            for f in &found.append_fns {
                if let Some(id) = sema.to_def(f).and_then(function_id) {
                    self.append_fns.insert(id);
                }
            }
            for (range, item) in found.roots {
                let mut funcs = Vec::new();
                match item {
                    RootItem::Fn(f) => funcs.extend(sema.to_def(&f)),
                    RootItem::Impl(i) => {
                        if let Some(imp) = sema.to_def(&i) {
                            funcs.extend(impl_functions(db, imp));
                        }
                    }
                    RootItem::Module(m) => {
                        if let Some(module) = sema.to_def(&m) {
                            module_functions(db, module, &mut funcs);
                        }
                    }
                }
                for f in funcs {
                    let Some(id) = function_id(f) else { continue };
                    if seen.insert(id) {
                        let location = self.fn_location(id).or_else(|| self.location(file, range));
                        if let Some(location) = location {
                            roots.push(RootFn { func: id, location });
                        }
                    }
                }
            }
        }
        if !config.roots.is_empty() {
            for func in self.all_local_functions() {
                let path = naming::fn_path(db, func, None);
                if config.roots.iter().any(|pattern| wildcard_match(pattern, &path)) && seen.insert(func) {
                    if let Some(location) = self.fn_location(func) {
                        roots.push(RootFn { func, location });
                    }
                }
            }
        }
        roots.sort_by(|a, b| a.location.cmp(&b.location));
        (roots, errors, broken)
    }

    fn fn_location(&mut self, func: FunctionId) -> Option<Location> {
        let db: &dyn HirDatabase = self.db;
        let sema = Semantics::new(self.db);
        let src = sema.source(hir::Function::from(func))?;
        let node = src.value.name().map(|n| n.syntax().clone()).unwrap_or_else(|| src.value.syntax().clone());
        let range = src.with_value(&node).original_file_range_rooted(db);
        self.location(range.file_id.file_id(db), range.range)
    }

    fn local_files(&self) -> Vec<FileId> {
        let db = self.db;
        let mut files: Vec<FileId> = self
            .ws
            .vfs
            .iter()
            .map(|(file, _)| file)
            .filter(|&file| {
                let root = db.file_source_root(file).source_root_id(db);
                !db.source_root(root).source_root(db).is_library
            })
            .filter(|&file| self.ws.file_path(file).is_some_and(|p| p.extension().is_some_and(|e| e == "rs")))
            .collect();
        files.sort();
        files
    }

    fn all_local_functions(&self) -> Vec<FunctionId> {
        let db = self.db;
        let mut out = Vec::new();
        for krate in hir::Crate::all(db) {
            if !krate.origin(db).is_local() {
                continue;
            }
            let mut funcs = Vec::new();
            module_functions(db, krate.root_module(db), &mut funcs);
            out.extend(funcs.into_iter().filter_map(function_id));
        }
        out.sort();
        out.dedup();
        out
    }
}

fn def_krate(db: &dyn HirDatabase, def: DefWithBodyId) -> base_db::Crate {
    def.module(db).krate(db)
}

fn function_id(f: hir::Function) -> Option<FunctionId> {
    match ModuleDefId::try_from(hir::ModuleDef::Function(f)) {
        Ok(ModuleDefId::FunctionId(id)) => Some(id),
        _ => None,
    }
}

fn adt_id(adt: hir::Adt) -> hir_def::AdtId {
    match adt {
        hir::Adt::Struct(s) => hir_def::AdtId::StructId(s.into()),
        hir::Adt::Enum(e) => hir_def::AdtId::EnumId(e.into()),
        hir::Adt::Union(u) => hir_def::AdtId::UnionId(u.into()),
    }
}

fn impl_functions(db: &RootDatabase, imp: hir::Impl) -> Vec<hir::Function> {
    imp.items(db)
        .into_iter()
        .filter_map(|item| match item {
            hir::AssocItem::Function(f) => Some(f),
            _ => None,
        })
        .collect()
}

/// Every function declared in `module` and its submodules, impls included.
fn module_functions(db: &RootDatabase, module: hir::Module, out: &mut Vec<hir::Function>) {
    for decl in module.declarations(db) {
        match decl {
            hir::ModuleDef::Function(f) => out.push(f),
            hir::ModuleDef::Module(child) => module_functions(db, child, out),
            _ => {}
        }
    }
    for imp in module.impl_defs(db) {
        out.extend(impl_functions(db, imp));
    }
}

fn collect_dyn_traits(ty: Ty<'_>, out: &mut FxHashSet<TraitId>) {
    match ty.kind() {
        TyKind::Dynamic(..) => {
            if let Some(t) = dyn_principal(ty) {
                out.insert(t);
            }
        }
        TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) | TyKind::Slice(inner) | TyKind::Array(inner, _) => {
            collect_dyn_traits(inner, out)
        }
        TyKind::Adt(_, args) => {
            for arg in args.as_slice() {
                if let Some(t) = arg.ty() {
                    collect_dyn_traits(t, out);
                }
            }
        }
        TyKind::Tuple(tys) => {
            for t in tys.iter() {
                collect_dyn_traits(t, out);
            }
        }
        _ => {}
    }
}

/// `*` matches any run of characters; everything else matches itself.
pub(crate) fn wildcard_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text.ends_with(last) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The edges a vertex has at the call expression `call` (how a `format_args!`
/// argument finds the call that consumes it).
fn edges_at<'r, 'db>(edges: &'r [ResolvedEdge<'db>], call: ExprId) -> impl Iterator<Item = &'r ResolvedEdge<'db>> {
    let call = hir_def::hir::ExprOrPatId::ExprId(call);
    edges.iter().filter(move |r| r.edge.site.is_some_and(|site| site.expr == call))
}

/// Every coercion made in the vertices reachable from `starts`.
fn subtree_coercions<'db>(
    reach: &Reach<'db>,
    own: &[Vec<(Ty<'db>, TraitId)>],
    starts: &[usize],
) -> Vec<(Ty<'db>, TraitId)> {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<usize> = starts.to_vec();
    let mut out = Vec::new();
    while let Some(v) = stack.pop() {
        if v >= reach.edges.len() || !seen.insert(v) {
            continue;
        }
        for item in own.get(v).into_iter().flatten() {
            if !out.contains(item) {
                out.push(*item);
            }
        }
        for resolved in &reach.edges[v] {
            for target in &resolved.targets {
                if let Resolved::Vertex(j) = target {
                    stack.push(*j);
                }
            }
        }
    }
    out
}

/// How a vertex allocates, as bits: on its normal path; only while building an
/// error that it returns; only while building an error it drops once per call.
const NORMAL: u8 = 1;
const ON_ERROR: u8 = 2;
const ONCE: u8 = 4;

/// What a call contributes to its caller, given how the callee allocates and where
/// the call stands. The second value says an error was swallowed where the code can
/// run again (a loop, a closure): that is where the finding goes.
fn through(context: CallContext, callee: u8, in_closure: bool) -> (u8, bool) {
    let returns_error = context.error_return && !in_closure;
    let mut out = 0;
    let mut swallowed = false;
    if callee & NORMAL != 0 {
        out |= if returns_error { ON_ERROR } else { NORMAL };
    }
    let mut settle = |propagated: bool| {
        if propagated {
            out |= ON_ERROR;
        } else if in_closure || context.repeats {
            out |= NORMAL;
            swallowed = true;
        } else {
            out |= ONCE;
        }
    };
    if callee & ON_ERROR != 0 {
        settle(returns_error || (context.propagates && !in_closure));
    }
    if callee & ONCE != 0 {
        settle(returns_error);
    }
    (out, swallowed)
}

/// Whether a call of `target` from vertex `v` allocates or can't be judged.
/// Foreign functions are judged where the workspace calls them: inside std and
/// dependencies only the allocator symbols count. A fn pointer is unknown only in
/// the root itself (vertex 0): elsewhere it points at a fn item that the walk
/// already reached where it became a pointer.
fn terminal_flags(target: &Target<'_>, v: usize, local: bool) -> u8 {
    let bad = match target {
        Target::Allocator(_) => true,
        Target::Foreign(_) => local,
        Target::Unknown { kind: UnknownKind::FnPointer, .. } => v == 0,
        Target::Unknown { kind: UnknownKind::Opaque, .. } => true,
        Target::Summary(summary) => {
            return (if summary.allocates { NORMAL } else { 0 })
                | (if summary.on_error { ON_ERROR } else { 0 })
                | (if summary.once { ONCE } else { 0 });
        }
        Target::Node(_) | Target::Dyn { .. } => false,
    };
    if bad { NORMAL } else { 0 }
}

/// How the vertices of a root's reach allocate. `any` follows every edge; `own`
/// follows only edges into code outside the workspace, so a finding at a workspace
/// line blames what that line calls, not workspace code reported on its own lines.
/// Witnesses are found breadth-first from the allocator: shortest chains.
struct Judged {
    any: Vec<u8>,
    own: Vec<u8>,
    witness: Vec<Option<Witness>>,
}

impl Judged {
    fn new(reach: &Reach<'_>, allowed_foreign: &FxHashSet<FunctionId>) -> Judged {
        let n = reach.nodes.len();
        let mut judged = Judged { any: vec![0; n], own: vec![0; n], witness: vec![None; n] };
        // (caller, edge, target) for every judged edge into a vertex.
        let mut callers: Vec<Vec<(usize, Witness)>> = vec![Vec::new(); n];
        let mut direct: Vec<u8> = vec![0; n];
        let mut direct_witness: Vec<Option<Witness>> = vec![None; n];
        for v in 0..n {
            for (e, resolved) in reach.edges[v].iter().enumerate() {
                if resolved.allowed() {
                    continue;
                }
                let context = resolved.edge.context;
                if let Verdict::Grows { .. } = resolved.verdict {
                    let (flags, _) = through(context, NORMAL, reach.closure[v]);
                    direct[v] |= flags;
                    direct_witness[v].get_or_insert(Witness { edge: e, target: 0 });
                    continue;
                }
                for (t, target) in resolved.targets.iter().enumerate() {
                    let witness = Witness { edge: e, target: t };
                    match target {
                        Resolved::Vertex(j) if reach.allowed[*j].is_none() => callers[*j].push((v, witness)),
                        Resolved::Vertex(_) => {}
                        Resolved::Terminal(Target::Foreign(f)) if allowed_foreign.contains(f) => {}
                        Resolved::Terminal(terminal) => {
                            let callee = terminal_flags(terminal, v, reach.local[v]);
                            let (flags, _) = through(context, callee, reach.closure[v]);
                            if flags != 0 {
                                direct[v] |= flags;
                                direct_witness[v].get_or_insert(witness);
                            }
                        }
                    }
                }
            }
        }
        let propagate = |flags: &mut Vec<u8>, witness: &mut Vec<Option<Witness>>, own_only: bool| {
            let takes_part = |v: usize| !own_only || !reach.local[v];
            let mut queue = std::collections::VecDeque::new();
            for v in (0..n).filter(|&v| takes_part(v) && direct[v] != 0) {
                flags[v] |= direct[v];
                if witness[v].is_none() {
                    witness[v] = direct_witness[v];
                }
                queue.push_back(v);
            }
            while let Some(j) = queue.pop_front() {
                for &(v, w) in &callers[j] {
                    if !takes_part(v) {
                        continue;
                    }
                    let context = reach.edges[v][w.edge].edge.context;
                    let (contributed, _) = through(context, flags[j], reach.closure[v]);
                    if contributed & !flags[v] != 0 {
                        flags[v] |= contributed;
                        if witness[v].is_none() {
                            witness[v] = Some(w);
                        }
                        queue.push_back(v);
                    }
                }
            }
        };
        propagate(&mut judged.own, &mut judged.witness, true);
        propagate(&mut judged.any, &mut judged.witness, false);
        judged
    }

    /// How calling `target` allocates, as flags.
    fn flags(&self, target: &Resolved<'_>) -> u8 {
        match target {
            Resolved::Vertex(j) => self.any[*j],
            Resolved::Terminal(Target::Allocator(_) | Target::Foreign(_) | Target::Unknown { .. }) => NORMAL,
            Resolved::Terminal(summary @ Target::Summary(_)) => terminal_flags(summary, usize::MAX, false),
            Resolved::Terminal(_) => 0,
        }
    }

    /// Whether calling `target` can allocate at all.
    fn is_bad(&self, target: &Resolved<'_>) -> bool {
        self.flags(target) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::{CallContext, NORMAL, ON_ERROR, ONCE, through, wildcard_match};

    #[test]
    fn errors_flow_to_the_return_or_are_swallowed() {
        let plain = CallContext::default();
        let propagates = CallContext { propagates: true, ..plain };
        let builds_error = CallContext { error_return: true, ..plain };
        let in_loop = CallContext { repeats: true, ..plain };
        // An allocation building the returned error is allowed upward.
        assert_eq!(through(builds_error, NORMAL, false), (ON_ERROR, false));
        // `helper()?` passes the helper's error on; dropping it once is allowed once.
        assert_eq!(through(propagates, ON_ERROR, false), (ON_ERROR, false));
        assert_eq!(through(plain, ON_ERROR, false), (ONCE, false));
        // Dropped in a loop, or by a closure: reported, at this call.
        assert_eq!(through(in_loop, ON_ERROR, false), (NORMAL, true));
        assert_eq!(through(in_loop, ONCE, false), (NORMAL, true));
        assert_eq!(through(propagates, ON_ERROR, true), (NORMAL, true));
        assert_eq!(through(builds_error, NORMAL, true), (NORMAL, false));
        // Once per call stays once when passed on by `?`.
        assert_eq!(through(propagates, ONCE, false), (ONCE, false));
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match("krate::m::f", "krate::m::f"));
        assert!(!wildcard_match("krate::m::f", "krate::m::g"));
        assert!(wildcard_match("krate::*", "krate::m::f"));
        assert!(wildcard_match("*::handle", "krate::Server::handle"));
        assert!(wildcard_match("krate::*::new*", "krate::a::b::new_with"));
        assert!(!wildcard_match("krate::*::new", "other::a::new"));
    }
}
