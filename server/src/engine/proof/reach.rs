//! What one root reaches: the instances its calls lead to, breadth-first over the
//! walks (`incremental::walked`), with the calls the source leaves open (`dyn`, fn
//! pointers, `dyn` drops) resolved against the program the root reaches
//! (`resolve::Program`) until nothing new turns up. Instances outside the workspace
//! may be answered from the on-disk summaries: one whose reach adds to the program
//! (a coercion to `dyn`, a function's address) only while no call left open could
//! be resolved against what it adds. Decides nothing about allocation beyond which
//! edges are followed at all (the panic policy, `judge::follows`).

use hir_def::{FunctionId, Lookup, TraitId};
use hir_ty::ParamEnvAndCrate;
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::TypeVisitableExt;

use super::dyn_context::{self, Coercion, DynContext};
use super::subst::too_large_types;
use super::summary::{Additions, CallsBack, Summaries};
use super::{
    allowances::FilledPlace,
    judge::{follows, Verdict},
    resolve::{Outside, Program},
    walk::{dyn_principal, growing_without_end, CallGraph, Edge, Node, PassedClosures, Target, UnknownKind},
};
use crate::engine::source::identity::ItemIdentity;

/// A bound on the instances one root may reach (polymorphic recursion can
/// instantiate without end). Reaching it is reported, never taken as clean.
pub(crate) const MAX_NODES_PER_ROOT: usize = 200_000;

/// The unknown a call to `node` is, when its types are larger than
/// `subst::MAX_TYPE_EXTENT`; `None` for any other node.
fn too_large<'db>(graph: &CallGraph<'db>, node: &Node<'db>) -> Option<Target<'db>> {
    let db = graph.db;
    let large = match *node {
        Node::Fn { args, .. } | Node::Derived { args, .. } => too_large_types(&args),
        Node::Closure { parent_args, .. } => too_large_types(&parent_args),
        Node::DropGlue(ty) => too_large_types(&ty),
        Node::Init(..) => false,
    };
    // Named only when reported: this runs on every edge the reach follows.
    large.then(|| {
        growing_without_end(match *node {
            Node::Fn { func, .. } | Node::Derived { method: func, .. } => {
                crate::engine::source::naming::fn_path(db, func, None)
            }
            Node::Closure { closure, .. } => {
                format!("{}::{{closure}}", crate::engine::source::naming::owner_path(db, closure.loc(db).owner))
            }
            _ => "core::ptr::drop_in_place".to_owned(),
        })
    })
}

/// What one root reaches. Vertex 0 is the root.
pub(crate) struct Reach<'db> {
    pub nodes: Vec<Node<'db>>,
    pub local: Vec<bool>,
    /// The vertex is a closure: its failures are checked, not allowed.
    pub closure: Vec<bool>,
    /// The vertex is a function on the allowlist (index into `CheckConfig::allow`).
    pub allowed: Vec<Option<usize>>,
    pub edges: Vec<Vec<ResolvedEdge<'db>>>,
    /// What the vertex's own walk adds to the program (`remember_closed` keeps it
    /// with the summaries of the instances above it).
    pub adds: Vec<OwnAdditions>,
    /// What the reach's bodies may empty of what first use fills: a fill of any
    /// of it is not first use (`Edge::fills`).
    pub emptied: FxHashSet<FilledPlace>,
    /// The walk stopped at `MAX_NODES_PER_ROOT`.
    pub truncated: bool,
    pub program: Program<'db>,
    /// The `dyn` context each vertex is judged in (index into `contexts`; 0 is
    /// the whole program's).
    pub context: Vec<u32>,
    pub contexts: Vec<DynContext<'db>>,
    /// The coercions to `dyn Trait` of each vertex's own walk that makes any.
    pub coerced_at: FxHashMap<usize, Vec<Coercion<'db>>>,
}

#[derive(Clone)]
pub(crate) struct ResolvedEdge<'db> {
    pub edge: Edge<'db>,
    /// The exemption on the edge's line, if any (index into the analyzer's list).
    pub exempted: Option<usize>,
    /// That exemption covers only the line (`--line-only`), not what it calls.
    pub line_only: bool,
    pub verdict: Verdict,
    /// What the edge leads to: one target, or for an open call every candidate.
    pub targets: Vec<Resolved<'db>>,
    /// For an allowed call (growth with room, first use): what it runs that the
    /// allowance does not cover — closures and element impls it calls back.
    pub callbacks: Vec<usize>,
}

impl<'db> ResolvedEdge<'db> {
    pub(crate) fn new(edge: Edge<'db>, targets: Vec<Resolved<'db>>) -> Self {
        ResolvedEdge {
            edge,
            exempted: None,
            line_only: false,
            verdict: Verdict::Judged,
            targets,
            callbacks: Vec::new(),
        }
    }

    /// Nothing below the edge is judged but its callbacks: an allowance, or an
    /// exemption that covers what the line calls, or a cut panic path.
    pub(crate) fn allowed(&self) -> bool {
        matches!(self.verdict, Verdict::Allowed | Verdict::Cut) || (self.exempted.is_some() && !self.line_only)
    }
}

/// What a walked body adds to the program that calls left open are resolved against.
#[derive(Clone, Default)]
pub(crate) struct OwnAdditions {
    /// The principal traits of its coercions to `dyn`.
    pub dyn_traits: Vec<TraitId>,
    /// It coerces to a `dyn` of auto traits only (`dyn Send`).
    pub auto_dyn: bool,
    /// It takes a function's address or casts a fn pointer.
    pub fn_pointers: bool,
    /// It reads a static or const, whose initialiser and type add more: such an
    /// instance is never summarised.
    pub statics: bool,
}

/// The calls left open in a reach, as a summary's additions are checked against
/// them: the traits of its `dyn` calls and drops (named as summaries name them),
/// and whether it calls through fn pointers.
#[derive(Default)]
struct OpenCalls {
    dyn_traits: FxHashSet<ItemIdentity>,
    /// A `dyn` call of a trait that has no source to name it by, or a drop of a
    /// `dyn` of auto traits only: any summary that coerces to `dyn` may answer it.
    unnamed_dyn: bool,
    fn_pointers: bool,
}

impl OpenCalls {
    fn of(graph: &mut CallGraph<'_>, reach: &Reach<'_>, open: &[(usize, usize)]) -> OpenCalls {
        let db = graph.db;
        let mut calls = OpenCalls::default();
        for &(v, e) in open {
            let trait_ = match &reach.edges[v][e].edge.target {
                Target::Dyn { method, .. } => match method.lookup(db).container {
                    hir_def::ItemContainerId::TraitId(trait_) => Some(trait_),
                    _ => None,
                },
                Target::DynDrop(ty) => {
                    calls.unnamed_dyn |= dyn_principal(*ty).is_none();
                    dyn_principal(*ty)
                }
                Target::FnPointer { .. } => {
                    calls.fn_pointers = true;
                    None
                }
                _ => None,
            };
            if let Some(trait_) = trait_ {
                match graph.trait_identity(trait_) {
                    Some(name) => {
                        calls.dyn_traits.insert(name);
                    }
                    None => calls.unnamed_dyn = true,
                }
            }
        }
        calls
    }

    /// Whether one of these calls could be resolved against `adds`.
    fn may_resolve_against(&self, adds: &Additions) -> bool {
        (adds.fn_pointers && self.fn_pointers)
            || (self.unnamed_dyn && (adds.auto_dyn || !adds.dyn_traits.is_empty()))
            || adds.dyn_traits.iter().any(|t| self.dyn_traits.contains(t))
    }
}

/// What an allowed call (growth with room, first use) may run back, as
/// `judge::find_callbacks` finds it, named as summaries name what they call back:
/// a summary stands in for a vertex below such calls only when it holds none of
/// it. Edges that may become allowed are taken as allowed (the verdicts come
/// after the reach).
#[derive(Clone, PartialEq, Eq, Hash)]
struct RunsBack {
    /// The closures of this function (`Some(None)`: a function with no identity,
    /// so any closure), unless the call passes only a first use's fill.
    closures_of: Option<Option<u64>>,
    /// The trait impls of these types, the types a growth call is generic over
    /// (`None`: a type with no identity, so any impl).
    impls_for: Vec<Option<u64>>,
}

impl RunsBack {
    /// What the allowed `edge` of `caller` runs back.
    fn of<'db>(graph: &mut CallGraph<'db>, caller: &Node<'db>, edge: &Edge<'db>) -> RunsBack {
        let closures_of = match crate::engine::analysis::holder_fn(graph.db, caller) {
            Some(func) if edge.passed != PassedClosures::Fill => Some(graph.fn_fingerprint(func)),
            _ => None,
        };
        let mut impls_for = Vec::new();
        if let (Some(_), Target::Node(Node::Fn { args, .. })) = (&edge.growth, &edge.target) {
            for ty in args.as_slice().iter().filter_map(|a| a.ty()) {
                impls_for.push(graph.ty_fingerprint(ty));
            }
        }
        RunsBack { closures_of, impls_for }
    }

    /// Whether a reach that may call `back` could run some of it.
    fn may_run(&self, back: &CallsBack) -> bool {
        let closures = match self.closures_of {
            None => false,
            Some(None) => !back.closure_holders.is_empty(),
            Some(Some(holder)) => back.closure_holders.binary_search(&holder).is_ok(),
        };
        let impls = self.impls_for.iter().any(|ty| match ty {
            None => !back.impl_types.is_empty(),
            Some(ty) => back.impl_types.binary_search(ty).is_ok(),
        });
        let runs_any = self.closures_of.is_some() || !self.impls_for.is_empty();
        closures || impls || (back.unnamed && runs_any)
    }
}

#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Resolved<'db> {
    Vertex(usize),
    Terminal(Target<'db>),
}

impl Reach<'_> {
    /// The vertices whose own lines are reported: reached from the root without
    /// crossing an allowance (except into what it calls back) or the building of an
    /// error that a function returns.
    pub(crate) fn reported(&self) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![0];
        while let Some(v) = stack.pop() {
            if v >= seen.len() || seen[v] || self.allowed[v].is_some() {
                continue;
            }
            seen[v] = true;
            for resolved in &self.edges[v] {
                stack.extend(resolved.callbacks.iter().copied());
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

    /// Whether this reach resolved nothing outside its walks: no `dyn` call,
    /// fn-pointer call or `dyn` drop, whose targets are found among the impls
    /// of the types the program coerces, and no look through every impl
    /// (`sees_every_impl`).
    pub(crate) fn resolves_nothing_outside_walks(&self) -> bool {
        let open = |edge: &ResolvedEdge<'_>| {
            matches!(edge.edge.target, Target::Dyn { .. } | Target::FnPointer { .. } | Target::DynDrop(_))
        };
        !self.sees_every_impl() && !self.edges.iter().flatten().any(open)
    }

    /// Whether this reach looked through every impl of some trait in the crate
    /// graph: it takes a `dyn` value from outside (`resolve::Outside`), or it
    /// walked a body at arguments holding a type parameter, where a provided
    /// method may run at any impl whose header applies (`impls::candidates`).
    pub(crate) fn sees_every_impl(&self) -> bool {
        let Outside { dyn_traits, auto_dyn, anything, .. } = &self.program.outside;
        let open = |args: &hir_ty::next_solver::GenericArgs<'_>| args.has_non_region_param();
        !dyn_traits.is_empty()
            || *auto_dyn
            || *anything
            || self.nodes.iter().any(|node| match node {
                Node::Fn { args, .. } | Node::Derived { args, .. } => open(args),
                Node::Closure { parent_args, .. } => open(parent_args),
                Node::DropGlue(ty) => ty.has_non_region_param(),
                Node::Init(_, args) => open(args),
            })
    }
}

impl Reach<'_> {
    /// The vertices some path from the root reaches through a call that hands its
    /// callee memory the caller owns (`Edge::passes_owned`): what they fill on
    /// "first use" through a parameter may be new on every call.
    pub(crate) fn below_owned_memory(&self) -> Vec<bool> {
        let mut below = vec![false; self.nodes.len()];
        let mut stack = Vec::new();
        let mark = |j: usize, below: &mut Vec<bool>, stack: &mut Vec<usize>| {
            if !below[j] {
                below[j] = true;
                stack.push(j);
            }
        };
        for edges in &self.edges {
            for resolved in edges.iter().filter(|resolved| resolved.edge.passes_owned) {
                for target in &resolved.targets {
                    if let Resolved::Vertex(j) = target {
                        mark(*j, &mut below, &mut stack);
                    }
                }
            }
        }
        while let Some(v) = stack.pop() {
            for resolved in &self.edges[v] {
                for target in &resolved.targets {
                    if let Resolved::Vertex(j) = target {
                        mark(*j, &mut below, &mut stack);
                    }
                }
            }
        }
        below
    }
}

/// How the reach is built: which instances are the workspace's, and which edges
/// are followed.
pub(crate) struct ReachPolicy<'a> {
    pub is_local: &'a dyn Fn(&Node<'_>) -> bool,
    pub strict_panics: bool,
    /// Whether a function is on the allowlist as `growth:`: a call to it grows its
    /// receiver, as `Vec::push` does.
    pub grows: &'a dyn Fn(FunctionId) -> bool,
    /// When set, the reach ends at the next vertex, truncated (`walk_ahead`: the
    /// analysis it walks ahead of is done).
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
}

/// Every vertex reachable from `root`, with open calls resolved to a fixpoint.
pub(crate) fn reach<'db>(
    graph: &mut CallGraph<'db>,
    root: Node<'db>,
    env: ParamEnvAndCrate<'db>,
    outside: Outside,
    policy: &ReachPolicy<'_>,
    mut cache: Option<&mut dyn Summaries>,
    walked_nodes: &mut rustc_hash::FxHashSet<Node<'db>>,
) -> Reach<'db> {
    let mut building = Building::new(outside);
    building.reach.program.read_sealed_fields(graph, env);
    building.vertex(policy, root, 0, &[]);
    let mut walked_count = 0;
    loop {
        while let Some(v) = building.queue.pop() {
            walked_count += 1;
            let stopped = policy.stop.is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed));
            if walked_count > MAX_NODES_PER_ROOT || stopped {
                building.reach.truncated = true;
                building.queue.clear();
                break;
            }
            if !building.reach.local[v]
                && !building.walked_anyway.contains(&v)
                && building.summary_stands_in(graph, v, cache.as_deref_mut())
            {
                continue;
            }
            walked_nodes.insert(building.reach.nodes[v]);
            building.walk_vertex(graph, v, env, policy);
        }
        let mut changed = building.resolve_open_calls(graph, env, policy);
        // A summary stands in for its instance only while no open call could be
        // resolved against what its reach adds: else the instance is walked, and
        // what it adds taken in.
        if !building.summarised_adding.is_empty() && !building.open.is_empty() {
            changed |= building.walk_summaries_resolved_against(graph);
        }
        if building.reach.truncated || (!changed && building.queue.is_empty()) {
            break;
        }
    }
    building.finish(graph)
}

/// A reach while it is built: its vertices by node, the vertices left to walk,
/// the open calls, and what the allowed calls above each vertex may run back.
struct Building<'db> {
    reach: Reach<'db>,
    /// Each vertex by its node and `dyn` context.
    index: FxHashMap<(Node<'db>, u32), usize>,
    queue: Vec<usize>,
    /// What the allowed calls above each vertex may run back (indices into
    /// `runs_back`, sorted): a summary stands in for a vertex below allowed calls
    /// only when its reach holds none of it, since what they call back is judged.
    runs_back: Vec<RunsBack>,
    runs_back_index: FxHashMap<RunsBack, u32>,
    above: Vec<Vec<u32>>,
    /// Calls resolved against the program: (vertex, edge), once each.
    open: Vec<(usize, usize)>,
    open_seen: FxHashSet<(usize, usize)>,
    /// Vertices answered by a summary whose reach adds to the program, and those
    /// walked anyway because an open call could be resolved against what it adds.
    summarised_adding: Vec<usize>,
    walked_anyway: FxHashSet<usize>,
}

impl<'db> Building<'db> {
    fn new(outside: Outside) -> Self {
        Building {
            reach: Reach {
                nodes: Vec::new(),
                local: Vec::new(),
                closure: Vec::new(),
                allowed: Vec::new(),
                edges: Vec::new(),
                adds: Vec::new(),
                emptied: FxHashSet::default(),
                truncated: false,
                program: Program { outside, ..Program::default() },
                context: Vec::new(),
                contexts: vec![DynContext::default()],
                coerced_at: FxHashMap::default(),
            },
            index: FxHashMap::default(),
            queue: Vec::new(),
            runs_back: Vec::new(),
            runs_back_index: FxHashMap::default(),
            above: Vec::new(),
            open: Vec::new(),
            open_seen: FxHashSet::default(),
            summarised_adding: Vec::new(),
            walked_anyway: FxHashSet::default(),
        }
    }

    /// The vertex of `node` in `dyn` context `context`, made and queued if new;
    /// `inherited`: what the allowed calls above it may run back.
    fn vertex(&mut self, policy: &ReachPolicy<'_>, node: Node<'db>, context: u32, inherited: &[u32]) -> usize {
        let (reach, queue, above) = (&mut self.reach, &mut self.queue, &mut self.above);
        if let Some(&v) = self.index.get(&(node, context)) {
            // New allowed calls above: what is below is looked at again.
            let before = above[v].len();
            for &c in inherited {
                if let Err(at) = above[v].binary_search(&c) {
                    above[v].insert(at, c);
                }
            }
            if above[v].len() != before {
                queue.push(v);
            }
            return v;
        }
        reach.nodes.push(node);
        reach.local.push((policy.is_local)(&node));
        reach.closure.push(matches!(node, Node::Closure { .. }));
        reach.allowed.push(None);
        reach.edges.push(Vec::new());
        reach.adds.push(OwnAdditions::default());
        reach.context.push(context);
        above.push(inherited.to_vec());
        let v = reach.nodes.len() - 1;
        self.index.insert((node, context), v);
        queue.push(v);
        v
    }

    /// Whether a summary stands in for vertex `v` (outside the workspace): one is
    /// cached and its reach holds nothing the allowed calls above may run back.
    fn summary_stands_in(
        &mut self,
        graph: &mut CallGraph<'db>,
        v: usize,
        mut cache: Option<&mut (dyn Summaries + '_)>,
    ) -> bool {
        let reach = &mut self.reach;
        let cached = cache.as_deref_mut().and_then(|cache| {
            let key = graph.instance_key(reach.nodes[v])?;
            cache.get(key)
        });
        let Some(summary) = cached else { return false };
        if !self.above[v].iter().all(|&c| !self.runs_back[c as usize].may_run(&summary.calls_back)) {
            return false;
        }
        let standing_in =
            matches!(reach.edges[v].first(), Some(resolved) if matches!(resolved.edge.target, Target::Summary(_)));
        if !standing_in {
            if let Some(cache) = cache {
                cache.note_hit();
            }
            if !summary.adds.is_empty() {
                self.summarised_adding.push(v);
            }
            let target = Target::Summary(summary);
            let targets = vec![Resolved::Terminal(target.clone())];
            reach.edges[v] = vec![ResolvedEdge::new(Edge::new(target, None), targets)];
        }
        true
    }

    /// Walks vertex `v`: what it adds to the program, and its edges, their
    /// targets made vertices or left open.
    fn walk_vertex(
        &mut self,
        graph: &mut CallGraph<'db>,
        v: usize,
        env: ParamEnvAndCrate<'db>,
        policy: &ReachPolicy<'_>,
    ) {
        let walked = graph.walked(self.reach.nodes[v], env);
        let reach = &mut self.reach;
        reach.adds[v] = OwnAdditions {
            dyn_traits: walked.coercions.iter().filter_map(|&(_, to)| dyn_principal(to)).collect(),
            auto_dyn: walked.coercions.iter().any(|&(_, to)| dyn_principal(to).is_none()),
            fn_pointers: !(walked.address_taken.is_empty() && walked.fn_casts.is_empty()),
            statics: !walked.statics.is_empty(),
        };
        reach.program.absorb(&walked);
        let coerced: Vec<Coercion<'db>> =
            walked.coercions.iter().filter_map(|&(from, to)| Some((from, dyn_principal(to)?, to))).collect();
        if !coerced.is_empty() {
            reach.coerced_at.insert(v, coerced);
        }
        reach.emptied.extend(walked.empties.iter().copied());
        for &ty in &walked.untyped {
            reach.program.read_from_outside(graph, ty, env);
        }
        for &def in &walked.statics {
            reach.program.read_static(graph, def, env);
        }
        let inherited = self.above[v].clone();
        let mut edges = Vec::with_capacity(walked.edges.len());
        for (e, edge) in walked.edges.iter().enumerate() {
            let mut resolved = ResolvedEdge::new(edge.clone(), Vec::new());
            if let (None, Target::Node(Node::Fn { func, args, .. }), Some(site)) =
                (&edge.growth, &edge.target, edge.site)
            {
                if (policy.grows)(*func) || super::builtin::grows_on_self(graph.db, *func, *args) {
                    resolved.edge.growth = graph.growth_at(site, *func);
                }
            }
            let edge = &resolved.edge;
            if !follows(edge, policy.strict_panics) {
                resolved.verdict = Verdict::Cut;
                edges.push(resolved);
                continue;
            }
            let mut below = std::borrow::Cow::Borrowed(&inherited[..]);
            if edge.growth.is_some() || edge.context.first_use {
                let criterion = RunsBack::of(graph, &self.reach.nodes[v], edge);
                let next = self.runs_back.len() as u32;
                let runs_back = &mut self.runs_back;
                let c = *self.runs_back_index.entry(criterion.clone()).or_insert_with(|| {
                    runs_back.push(criterion);
                    next
                });
                if let Err(at) = below.binary_search(&c) {
                    below.to_mut().insert(at, c);
                }
            }
            resolved.targets = match &edge.target {
                Target::Node(next) => match too_large(graph, next) {
                    Some(unknown) => vec![Resolved::Terminal(unknown)],
                    None => {
                        let reach = &mut self.reach;
                        let context =
                            dyn_context::entered(graph, &mut reach.contexts, reach.context[v], edge, next, env);
                        vec![Resolved::Vertex(self.vertex(policy, *next, context, &below))]
                    }
                },
                Target::Dyn { .. } | Target::FnPointer { .. } | Target::DynDrop(_) => {
                    if self.open_seen.insert((v, e)) {
                        self.open.push((v, e));
                    }
                    Vec::new()
                }
                other => vec![Resolved::Terminal(other.clone())],
            };
            edges.push(resolved);
        }
        self.reach.edges[v] = edges;
    }

    /// Resolves every open call against the program as it stands; whether a
    /// target was added.
    fn resolve_open_calls(
        &mut self,
        graph: &mut CallGraph<'db>,
        env: ParamEnvAndCrate<'db>,
        policy: &ReachPolicy<'_>,
    ) -> bool {
        let mut changed = false;
        let candidates = dyn_context::candidates(&self.reach);
        for i in 0..self.open.len() {
            let (v, e) = self.open[i];
            let inherited = self.above[v].clone();
            let reach = &mut self.reach;
            let context = reach.context[v];
            let call = reach.edges[v][e].edge.target.clone();
            let targets = match call.clone() {
                Target::Dyn { method, args } => {
                    let decided = dyn_context::trait_of(graph, method)
                        .and_then(|trait_| dyn_context::decision(&reach.contexts, &candidates, context, trait_));
                    reach.program.dyn_targets(graph, method, args, env, decided)
                }
                Target::FnPointer { signature, .. } => reach.program.fn_pointer_targets(&signature),
                Target::DynDrop(ty) => reach.program.dyn_drop_targets(graph, ty, env),
                _ => Vec::new(),
            };
            for target in targets {
                // A target that reads a value at another type than the call
                // passed is judged where what it may hold is decided (see
                // `dyn_context`).
                let context = dyn_context::target_context(graph, &self.reach.contexts, context, &call, &target, env);
                let resolved = match target {
                    Target::Node(next) => match too_large(graph, &next) {
                        Some(unknown) => Resolved::Terminal(unknown),
                        None => Resolved::Vertex(self.vertex(policy, next, context, &inherited)),
                    },
                    other => Resolved::Terminal(other),
                };
                let reach = &mut self.reach;
                if reach.edges[v].len() > e && !reach.edges[v][e].targets.contains(&resolved) {
                    reach.edges[v][e].targets.push(resolved);
                    changed = true;
                }
            }
        }
        changed
    }

    /// The summaries an open call could be resolved against what their reach adds:
    /// their instances are walked instead. Whether there were any.
    fn walk_summaries_resolved_against(&mut self, graph: &mut CallGraph<'db>) -> bool {
        let mut changed = false;
        let calls = OpenCalls::of(graph, &self.reach, &self.open);
        let (reach, queue, walked_anyway) = (&mut self.reach, &mut self.queue, &mut self.walked_anyway);
        self.summarised_adding.retain(|&v| {
            let Some(Target::Summary(summary)) = reach.edges[v].first().map(|resolved| &resolved.edge.target) else {
                return false;
            };
            if !calls.may_resolve_against(&summary.adds) {
                return true;
            }
            walked_anyway.insert(v);
            reach.edges[v].clear();
            queue.push(v);
            changed = true;
            false
        });
        changed
    }

    /// The reach once built: what stays open after the fixpoint is reported, never
    /// dropped, and a truncated reach says so at its root.
    fn finish(self, graph: &mut CallGraph<'db>) -> Reach<'db> {
        let mut reach = self.reach;
        for &(v, e) in &self.open {
            let resolved = &mut reach.edges[v][e];
            let unknown = match &resolved.edge.target {
                Target::FnPointer { what, signature } if reach.program.fn_pointer_from_outside(signature) => {
                    Some(format!("{what} (a fn pointer from the root's caller or a static set at run time)"))
                }
                Target::Dyn { method, .. } if resolved.targets.is_empty() => {
                    let db = graph.db;
                    let trait_ = crate::engine::source::naming::trait_path_of(db, *method);
                    let name = hir_def::signatures::FunctionSignature::of(db, *method).name.as_str().to_owned();
                    Some(format!(
                        "dyn {trait_}::{name} (no type is coerced to `dyn {trait_}` where the root can see it)"
                    ))
                }
                // A fn pointer of a signature whose address the program never takes
                // and that nothing outside hands in is never called: there is none
                // (`fmt::rt::Argument`'s formatter under a `write!` of a literal,
                // where no argument is made). The same holds for dropping a `dyn`
                // value no coercion of the program made. The targets of a call
                // that has some rest on the same completeness of `taken` and
                // `coerced`: an empty set is that answer, not a gap.
                _ => None,
            };
            if let Some(what) = unknown {
                resolved.targets.push(Resolved::Terminal(Target::Unknown { what, kind: UnknownKind::Opaque }));
            }
        }
        if reach.truncated {
            let what = format!("the analysis stopped after {MAX_NODES_PER_ROOT} instances (polymorphic recursion?)");
            let edge = Edge::new(Target::Unknown { what, kind: UnknownKind::Truncated }, None);
            let target = Resolved::Terminal(edge.target.clone());
            reach.edges[0].push(ResolvedEdge::new(edge, vec![target]));
        }
        reach
    }
}

#[cfg(test)]
mod tests {
    use super::{CallsBack, RunsBack};

    #[test]
    fn an_allowed_call_runs_back_its_callers_closures_and_its_types_impls() {
        let back = CallsBack { impl_types: vec![3, 7], closure_holders: vec![11], unnamed: false };
        let runs = |closures_of, impls_for: Vec<Option<u64>>| RunsBack { closures_of, impls_for }.may_run(&back);
        // By the types the call is generic over.
        assert!(runs(None, vec![Some(1), Some(7)]));
        assert!(!runs(None, vec![Some(1), Some(2)]));
        // A type with no identity may be any of them.
        assert!(runs(None, vec![None]));
        // By the closures of the calling function, unless it passes only a fill.
        assert!(runs(Some(Some(11)), vec![]));
        assert!(!runs(Some(Some(12)), vec![]));
        assert!(runs(Some(None), vec![]));
        assert!(!runs(None, vec![]));
        // A reach holding something with no identity may run anything back.
        let unnamed = CallsBack { unnamed: true, ..CallsBack::default() };
        assert!(RunsBack { closures_of: None, impls_for: vec![Some(1)] }.may_run(&unnamed));
        // A call that runs nothing back (a first use given only its fill) runs none of it.
        assert!(!RunsBack { closures_of: None, impls_for: vec![] }.may_run(&unnamed));
    }
}
