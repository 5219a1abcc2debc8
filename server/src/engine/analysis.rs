//! Judging a workspace: finds the roots, walks what each reaches, decides which
//! instances allocate, and turns that into findings at workspace lines with chains.
//! The per-instance walking lives in `callgraph`; this module owns roots, `dyn`
//! resolution per root, allocation propagation and locations.

use std::time::Instant;

use hir::{Semantics, db::HirDatabase};
use hir_def::{DefWithBodyId, FunctionId, Lookup, ModuleDefId, TraitId, signatures::FunctionSignature};
use hir_ty::{
    ParamEnvAndCrate,
    next_solver::{DbInterner, GenericArgs, SolverDefId, Ty, TyKind},
};
use ra_ap_ide_db::{
    RootDatabase,
    base_db::{RootQueryDb, SourceDatabase},
    line_index::LineIndex,
};
use ra_ap_syntax::{AstNode, TextRange};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::inherent::{GenericArgs as _, IntoKind};

use super::{
    Analysis, ChainStep, CheckConfig, ErrorFinding, ErrorKind, Finding, FindingKind, Location, RootReport,
    Workspace,
    callgraph::{CallGraph, Edge, Node, Site, Target, dyn_principal},
    directives::{self, RootItem},
    naming,
};

/// Analyzes every root of the workspace.
pub fn analyze(ws: &Workspace, config: &CheckConfig) -> Analysis {
    let db: &RootDatabase = &ws.db;
    hir::attach_db(db, || Analyzer::new(ws).run(config))
}

struct RootFn {
    func: FunctionId,
    location: Location,
}

/// What one root reaches: its nodes and each node's edges with `dyn` calls resolved.
struct Reach<'db> {
    nodes: Vec<Node<'db>>,
    index: FxHashMap<Node<'db>, usize>,
    edges: Vec<Vec<ResolvedEdge<'db>>>,
}

#[derive(Clone)]
struct ResolvedEdge<'db> {
    edge: Edge<'db>,
    /// For `Target::Dyn`: the impls it may call.
    dyn_targets: Vec<Target<'db>>,
}

/// Why a node allocates, for its chain: which edge, and to what.
#[derive(Clone, Copy)]
enum Witness {
    Edge { edge: usize, dyn_target: Option<usize> },
}

struct Analyzer<'a> {
    ws: &'a Workspace,
    db: &'a RootDatabase,
    line_indexes: FxHashMap<FileId, std::sync::Arc<LineIndex>>,
}

impl<'a> Analyzer<'a> {
    fn new(ws: &'a Workspace) -> Self {
        Analyzer { ws, db: &ws.db, line_indexes: FxHashMap::default() }
    }

    fn run(mut self, config: &CheckConfig) -> Analysis {
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
            let unknown_dyn = self.dyn_traits_of_params(root.func, graph.interner);
            let reach = self.reach(&mut graph, root_node, env, &unknown_dyn);
            checked_overall.extend(reach.nodes.iter().copied());
            let judged = Judged::new(&reach, |node| self.is_local(node));
            let mut root_findings = 0;
            for (i, node) in reach.nodes.iter().enumerate() {
                if !self.is_local(node) {
                    continue;
                }
                for (e, resolved) in reach.edges[i].iter().enumerate() {
                    let Some(site) = resolved.edge.site else { continue };
                    let Some(reason) = self.reason(&reach, &judged, resolved) else { continue };
                    let Some(location) = self.site_location(site) else { continue };
                    let function = self.holder_name(node);
                    let chain = self.chain(&reach, &judged, i, e);
                    root_findings += 1;
                    let key = (location.clone(), function.clone(), vec![reason.clone()]);
                    let finding = findings.entry(key).or_insert_with(|| Finding {
                        kind: FindingKind::Allocation,
                        location,
                        function,
                        roots: Vec::new(),
                        reasons: vec![reason],
                        chain,
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
        // One finding per line and function: reasons of different instances merge.
        let mut merged: FxHashMap<(Location, String), Finding> = FxHashMap::default();
        for finding in findings.into_values() {
            match merged.entry((finding.location.clone(), finding.function.clone())) {
                std::collections::hash_map::Entry::Occupied(mut slot) => {
                    let existing = slot.get_mut();
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
        analysis.findings = findings;
        analysis.errors.sort_by(|a, b| a.location.cmp(&b.location));
        analysis.functions_checked = checked_overall.len();
        analysis.timings.bodies_walked = graph.bodies_walked;
        analysis.timings.analysis_ms = started.elapsed().as_millis();
        analysis
    }

    /// Every node reachable from `root`, with `dyn` calls resolved against the types
    /// the reached code coerces to `dyn Trait` (and every impl for traits that the
    /// root's own parameters bring in as `dyn`).
    fn reach<'db>(
        &self,
        graph: &mut CallGraph<'db>,
        root: Node<'db>,
        env: ParamEnvAndCrate<'db>,
        unknown_dyn: &FxHashSet<TraitId>,
    ) -> Reach<'db> {
        let mut reach = Reach { nodes: Vec::new(), index: FxHashMap::default(), edges: Vec::new() };
        let mut queue = vec![root];
        let mut coerced: Vec<(Ty<'db>, TraitId)> = Vec::new();
        // (node index, edge index) of every dyn call seen, and how many candidates it has seen.
        let mut dyn_sites: Vec<(usize, usize, usize)> = Vec::new();
        let mut all_impls_done: FxHashSet<(usize, usize)> = FxHashSet::default();
        let mut add = |reach: &mut Reach<'db>, queue: &mut Vec<Node<'db>>, node: Node<'db>| {
            if !reach.index.contains_key(&node) {
                reach.index.insert(node, usize::MAX);
                queue.push(node);
            }
        };
        reach.index.insert(root, usize::MAX);
        loop {
            while let Some(node) = queue.pop() {
                let walked = graph.walk(node, env);
                let i = reach.nodes.len();
                reach.nodes.push(node);
                reach.index.insert(node, i);
                for (from, to) in &walked.coercions {
                    if let Some(trait_) = dyn_principal(*to) {
                        if !coerced.contains(&(*from, trait_)) {
                            coerced.push((*from, trait_));
                        }
                    }
                }
                let mut edges = Vec::with_capacity(walked.edges.len());
                for (e, edge) in walked.edges.iter().enumerate() {
                    match &edge.target {
                        Target::Node(next) => add(&mut reach, &mut queue, *next),
                        Target::Dyn { .. } => dyn_sites.push((i, e, 0)),
                        _ => {}
                    }
                    edges.push(ResolvedEdge { edge: edge.clone(), dyn_targets: Vec::new() });
                }
                reach.edges.push(edges);
            }
            // Resolve dyn calls against the candidates found so far; new impls may
            // bring new coercions, so repeat until nothing changes.
            let mut changed = false;
            for site in dyn_sites.iter_mut() {
                let (i, e, seen) = *site;
                let Target::Dyn { method, args } = reach.edges[i][e].edge.target.clone() else { continue };
                let trait_ = match method.lookup(graph.db).container {
                    hir_def::ItemContainerId::TraitId(t) => t,
                    _ => continue,
                };
                if unknown_dyn.contains(&trait_) && all_impls_done.insert((i, e)) {
                    for target in self.all_impls(graph, method, trait_, env) {
                        if let Target::Node(next) = target {
                            add(&mut reach, &mut queue, next);
                        }
                        reach.edges[i][e].dyn_targets.push(target);
                        changed = true;
                    }
                }
                for &(concrete, coerced_trait) in &coerced[seen..] {
                    if !self.trait_or_super(graph.db, coerced_trait, trait_) {
                        continue;
                    }
                    let mut new_args: Vec<_> = args.as_slice().to_vec();
                    new_args[0] = concrete.into();
                    if let Some(target) = graph.resolve_call(method, GenericArgs::new_from_slice(&new_args), env) {
                        if let Target::Node(next) = target {
                            add(&mut reach, &mut queue, next);
                        }
                        if !reach.edges[i][e].dyn_targets.contains(&target) {
                            reach.edges[i][e].dyn_targets.push(target);
                            changed = true;
                        }
                    }
                }
                site.2 = coerced.len();
            }
            if !changed && queue.is_empty() {
                break;
            }
        }
        reach
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
    fn dyn_traits_of_params(&self, func: FunctionId, interner: DbInterner<'_>) -> FxHashSet<TraitId> {
        let db: &dyn HirDatabase = self.db;
        let sig = db.callable_item_signature(func.into()).skip_binder().skip_binder();
        let mut out = FxHashSet::default();
        for &param in sig.inputs().iter() {
            collect_dyn_traits(param, &mut out);
        }
        let _ = interner;
        out
    }

    fn is_local(&self, node: &Node<'_>) -> bool {
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

    /// The reason an edge of a workspace function allocates, if it does.
    fn reason(&self, reach: &Reach<'_>, judged: &Judged, resolved: &ResolvedEdge<'_>) -> Option<String> {
        let db: &dyn HirDatabase = self.db;
        match &resolved.edge.target {
            Target::Node(next) => {
                if self.is_local(next) {
                    return None;
                }
                let j = reach.index[next];
                if !judged.bad_own[j] {
                    return None;
                }
                Some(match resolved.edge.drop_of {
                    Some(ty) => format!("drops `{}`, whose drop glue allocates", naming::ty_name(db, ty)),
                    None => format!("calls {}", naming::node_name(db, next)),
                })
            }
            Target::Allocator(func) => Some(format!("calls the allocator {}", naming::fn_path(db, *func, None))),
            Target::Foreign(func) => Some(format!(
                "calls foreign function {} (body not visible)",
                naming::fn_path(db, *func, None)
            )),
            Target::Unknown(what) => Some(format!("call with no known callee: {what}")),
            Target::Dyn { method, .. } => {
                let mut allocating = Vec::new();
                for target in &resolved.dyn_targets {
                    let bad = match target {
                        Target::Node(next) => judged.bad_any[reach.index[next]],
                        Target::Allocator(_) | Target::Foreign(_) | Target::Unknown(_) => true,
                        Target::Dyn { .. } => false,
                    };
                    if bad {
                        allocating.push(match target {
                            Target::Node(next) => naming::node_name(db, next),
                            Target::Unknown(what) => what.clone(),
                            Target::Allocator(f) | Target::Foreign(f) => naming::fn_path(db, *f, None),
                            Target::Dyn { .. } => String::new(),
                        });
                    }
                }
                if allocating.is_empty() {
                    return None;
                }
                allocating.sort();
                let trait_ = naming::trait_path_of(db, *method);
                let name = FunctionSignature::of(db, *method).name.as_str().to_owned();
                Some(format!("calls dyn {trait_}::{name}, and these impls allocate: {}", allocating.join(", ")))
            }
        }
    }

    /// From the callee of edge `e` of node `i` down to the allocation.
    fn chain(&mut self, reach: &Reach<'_>, judged: &Judged, i: usize, e: usize) -> Vec<ChainStep> {
        let db: &dyn HirDatabase = self.db;
        let mut chain = Vec::new();
        let mut target = reach.edges[i][e].edge.target.clone();
        if let Target::Dyn { .. } = target {
            match reach.edges[i][e].dyn_targets.iter().find(|t| match t {
                Target::Node(n) => judged.bad_any[reach.index[n]],
                _ => true,
            }) {
                Some(t) => target = t.clone(),
                None => return chain,
            }
        }
        let mut seen = FxHashSet::default();
        loop {
            match target {
                Target::Node(node) => {
                    let j = reach.index[&node];
                    if !seen.insert(j) {
                        break;
                    }
                    let Some(Witness::Edge { edge, dyn_target }) = judged.witness[j] else {
                        chain.push(ChainStep { function: naming::node_name(db, &node), location: None });
                        break;
                    };
                    let resolved = &reach.edges[j][edge];
                    let location = resolved.edge.site.and_then(|site| self.site_location(site));
                    chain.push(ChainStep { function: naming::node_name(db, &node), location });
                    target = match dyn_target {
                        Some(d) => resolved.dyn_targets[d].clone(),
                        None => resolved.edge.target.clone(),
                    };
                }
                Target::Allocator(func) | Target::Foreign(func) => {
                    chain.push(ChainStep { function: naming::fn_path(db, func, None), location: None });
                    break;
                }
                Target::Unknown(what) => {
                    chain.push(ChainStep { function: what, location: None });
                    break;
                }
                Target::Dyn { .. } => break,
            }
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
            let text = db.file_text(file).text(db);
            if !ra_ap_syntax::SourceFile::parse(text, ra_ap_syntax::Edition::CURRENT).errors().is_empty() {
                broken.extend(self.ws.file_path(file));
            }
            let found = directives::collect(&source);
            for error in found.errors {
                if let Some(location) = self.location(file, error.range) {
                    errors.push(ErrorFinding { kind: ErrorKind::MalformedDirective, location, message: error.message });
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
    match def {
        DefWithBodyId::FunctionId(f) => f.krate(db),
        DefWithBodyId::StaticId(s) => s.lookup(db).container.krate(db),
        DefWithBodyId::ConstId(c) => c.lookup(db).container.module(db).krate(db),
        DefWithBodyId::VariantId(v) => v.lookup(db).parent.lookup(db).container.krate(db),
    }
}

fn function_id(f: hir::Function) -> Option<FunctionId> {
    match ModuleDefId::try_from(hir::ModuleDef::Function(f)) {
        Ok(ModuleDefId::FunctionId(id)) => Some(id),
        _ => None,
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

/// Which nodes of a root's reach allocate. `bad_any` follows every edge; `bad_own`
/// follows only edges into code outside the workspace, so a finding at a workspace
/// line blames what that line calls, not workspace code reported on its own lines.
struct Judged {
    bad_any: Vec<bool>,
    bad_own: Vec<bool>,
    witness: Vec<Option<Witness>>,
}

impl Judged {
    fn new(reach: &Reach<'_>, is_local: impl Fn(&Node<'_>) -> bool) -> Judged {
        let n = reach.nodes.len();
        let local: Vec<bool> = reach.nodes.iter().map(&is_local).collect();
        let terminal_bad = |target: &Target<'_>, in_local: bool| match target {
            Target::Allocator(_) => true,
            // Foreign functions and unknown callees are judged where the workspace
            // calls them; inside std and dependencies the allocator symbols are what
            // count, and fn pointers there point at fn items already reached.
            Target::Foreign(_) => in_local,
            Target::Unknown(what) => in_local || !what.starts_with("fn pointer"),
            _ => false,
        };
        let mut judged = Judged { bad_any: vec![false; n], bad_own: vec![false; n], witness: vec![None; n] };
        // Reverse edges: who calls node j, through which edge.
        let mut callers: Vec<Vec<(usize, usize, Option<usize>)>> = vec![Vec::new(); n];
        let mut queue_any = std::collections::VecDeque::new();
        let mut queue_own = std::collections::VecDeque::new();
        for i in 0..n {
            for (e, resolved) in reach.edges[i].iter().enumerate() {
                let mut direct_targets: Vec<(&Target<'_>, Option<usize>)> = vec![(&resolved.edge.target, None)];
                if let Target::Dyn { .. } = resolved.edge.target {
                    direct_targets = resolved.dyn_targets.iter().enumerate().map(|(d, t)| (t, Some(d))).collect();
                }
                for (target, d) in direct_targets {
                    match target {
                        Target::Node(next) => {
                            if let Some(&j) = reach.index.get(next) {
                                if j < n {
                                    callers[j].push((i, e, d));
                                }
                            }
                        }
                        other => {
                            if terminal_bad(other, local[i]) {
                                if !judged.bad_any[i] {
                                    judged.bad_any[i] = true;
                                    queue_any.push_back(i);
                                }
                                if !local[i] && !judged.bad_own[i] {
                                    judged.bad_own[i] = true;
                                    judged.witness[i] = Some(Witness::Edge { edge: e, dyn_target: d });
                                    queue_own.push_back(i);
                                }
                            }
                        }
                    }
                }
            }
        }
        while let Some(j) = queue_any.pop_front() {
            for &(i, _, _) in &callers[j] {
                if !judged.bad_any[i] {
                    judged.bad_any[i] = true;
                    queue_any.push_back(i);
                }
            }
        }
        while let Some(j) = queue_own.pop_front() {
            for &(i, e, d) in &callers[j] {
                if !local[i] && !judged.bad_own[i] {
                    judged.bad_own[i] = true;
                    judged.witness[i] = Some(Witness::Edge { edge: e, dyn_target: d });
                    queue_own.push_back(i);
                }
            }
        }
        judged
    }
}

#[cfg(test)]
mod tests {
    use super::wildcard_match;

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
