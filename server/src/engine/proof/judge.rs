//! The rules, applied per edge to one root's reach: which calls are cut as panic
//! paths, allowed (first-use setup, growth with a room proof, `noalloc:fixed` and
//! `noalloc:append`, exemptions, the allowlist), or judged by what they call; and
//! how "allocates" travels back from the allocator to the root, with the error
//! rule (an error built for the root's return is allowed; one dropped where the
//! code repeats is reported). An allowance covers its own call only: what an
//! allowed call runs back in the caller's code (closures, element `Clone`/`Hash`
//! impls) is judged as if called from the allowed line.

use hir::db::HirDatabase;
use hir_def::{FunctionId, ItemContainerId, Lookup};
use hir_ty::next_solver::{GenericArgs, Ty};
use rustc_hash::{FxHashMap, FxHashSet};

use super::{
    allowances::CallContext,
    reach::{Reach, Resolved},
    room::Ledger,
    walk::{Edge, Node, Panic, PassedClosures, Site, Target},
};

/// How an edge is judged, after the allowances.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) enum Verdict {
    /// By what it calls.
    #[default]
    Judged,
    /// Not at all, but for what it calls back: an exemption covers it, or first-use
    /// setup, or growth with room.
    Allowed,
    /// It grows a buffer with no room proven: it allocates when the buffer is full.
    Grows { long_lived: bool },
    /// A panic path: not followed.
    Cut,
}

/// Whether the reach follows an edge: panic paths are cut (with `--strict-panics`,
/// only the call into the panic machinery itself).
pub(crate) fn follows(edge: &Edge<'_>, strict_panics: bool) -> bool {
    match edge.panic {
        Panic::No => true,
        Panic::Call => false,
        Panic::OnPath => strict_panics,
    }
}

/// The growth verdicts of one vertex: growth that the room left of its proof
/// covers (`room::Ledger`), in a `noalloc:fixed` type's method or a
/// `noalloc:append` function, is allowed; other growth in the workspace may grow.
/// A proof is used up by the growths it covers, in body order. Outside the
/// workspace (std, dependencies) only room proofs count, and growth without one
/// is judged by what it calls.
pub(crate) struct GrowthRules {
    pub in_workspace: bool,
    pub in_append_fn: bool,
    pub in_fixed_type: bool,
}

impl GrowthRules {
    /// The rules for a body outside the workspace.
    pub(crate) const OUTSIDE: GrowthRules =
        GrowthRules { in_workspace: false, in_append_fn: false, in_fixed_type: false };

    /// Verdicts for the growth edges of a vertex, in order. `scratch(holders)` says
    /// whether a place's holders make it a `--scratch` buffer.
    pub(crate) fn apply(&self, reach: &mut Reach<'_>, v: usize, scratch: &dyn Fn(&[hir_def::AdtId]) -> bool) {
        let mut ledger = Ledger::default();
        // A call with several targets is charged once.
        let mut charged: FxHashMap<Option<Site>, bool> = FxHashMap::default();
        for resolved in reach.edges[v].iter_mut() {
            let Some(growth) = &resolved.edge.growth else { continue };
            if resolved.verdict != Verdict::Judged {
                continue;
            }
            let room = match &growth.proof {
                Some(proof) => match resolved.edge.site {
                    Some(site) => *charged.entry(Some(site)).or_insert_with(|| ledger.charge(proof)),
                    None => ledger.charge(proof),
                },
                None => false,
            };
            let trusted = self.in_append_fn || (self.in_fixed_type && growth.on_self);
            if room || trusted {
                resolved.verdict = Verdict::Allowed;
            } else if self.in_workspace {
                resolved.verdict = Verdict::Grows { long_lived: growth.long_lived || scratch(&growth.holders) };
            }
        }
    }
}

/// For each allowed edge, the vertices it runs back: closures of the calling body
/// (unless they are the fill of a first-use cell), workspace functions, and trait
/// impls of the types the allowed call is generic over (the elements' `Clone`,
/// `Hash`, `Eq` of a growing collection).
pub(crate) fn find_callbacks(
    db: &dyn HirDatabase,
    reach: &mut Reach<'_>,
    holder_of: &dyn Fn(&Node<'_>) -> Option<FunctionId>,
) {
    for v in 0..reach.nodes.len() {
        let caller = holder_of(&reach.nodes[v]);
        for e in 0..reach.edges[v].len() {
            let resolved = &reach.edges[v][e];
            if resolved.verdict != Verdict::Allowed {
                continue;
            }
            let fill = resolved.edge.passed == PassedClosures::Fill;
            let mut element_types: Vec<Ty<'_>> = Vec::new();
            if resolved.edge.growth.is_some() {
                for target in &resolved.targets {
                    if let Resolved::Vertex(j) = target {
                        if let Node::Fn { func, args, .. } = reach.nodes[*j] {
                            // A trait's method (`BufMut::put_u32`) is generic over its
                            // `Self`, the buffer that grows: its own methods are the
                            // growth, not callbacks.
                            let own_self =
                                usize::from(matches!(func.lookup(db).container, ItemContainerId::TraitId(_)));
                            element_types.extend(args.as_slice().iter().skip(own_self).filter_map(|a| a.ty()));
                        }
                    }
                }
            }
            let mut callbacks = Vec::new();
            let mut seen: FxHashSet<usize> = FxHashSet::default();
            let mut stack: Vec<usize> = resolved
                .targets
                .iter()
                .filter_map(|t| if let Resolved::Vertex(j) = t { Some(*j) } else { None })
                .collect();
            while let Some(j) = stack.pop() {
                if !seen.insert(j) {
                    continue;
                }
                let node = reach.nodes[j];
                let is_callback = match node {
                    Node::Closure { .. } => !fill && caller.is_some() && holder_of(&node) == caller,
                    _ if reach.local[j] => !fill,
                    Node::Fn { func, args, .. } => is_impl_for(db, func, args, &element_types),
                    Node::Derived { args, .. } => derived_self_type(args).is_some_and(|t| element_types.contains(&t)),
                    _ => false,
                };
                if is_callback {
                    callbacks.push(j);
                    continue;
                }
                for edge in &reach.edges[j] {
                    // An allowance below is judged on its own, with its own callbacks.
                    if matches!(edge.verdict, Verdict::Cut | Verdict::Allowed) {
                        continue;
                    }
                    for target in &edge.targets {
                        if let Resolved::Vertex(k) = target {
                            stack.push(*k);
                        }
                    }
                }
            }
            callbacks.sort_unstable();
            reach.edges[v][e].callbacks = callbacks;
        }
    }
}

/// Whether `func` at `args` is a trait impl's method for one of `types`.
fn is_impl_for(db: &dyn HirDatabase, func: FunctionId, args: GenericArgs<'_>, types: &[Ty<'_>]) -> bool {
    !types.is_empty() && called_back_self_type(db, func, args).is_some_and(|self_ty| types.contains(&self_ty))
}

/// The self type of `func` at `args` when it is a trait impl's method, which an
/// allowed call generic over that type runs back (`find_callbacks`). The
/// collection's allocator (`Allocator` impls) is the growth itself, not a callback.
pub(crate) fn called_back_self_type<'db>(
    db: &'db dyn HirDatabase,
    func: FunctionId,
    args: GenericArgs<'db>,
) -> Option<Ty<'db>> {
    let ItemContainerId::ImplId(impl_) = func.lookup(db).container else { return None };
    let trait_ = crate::engine::source::roots::implemented_trait(db, func)?;
    if hir::Trait::from(trait_).name(db).as_str() == "Allocator" {
        return None;
    }
    let interner = hir_ty::next_solver::DbInterner::new_no_crate(db);
    Some(db.impl_self_ty(impl_).instantiate(interner, args.as_slice()).skip_norm_wip())
}

/// The type a derived method (`Clone` of a `#[derive(Clone)]` type) is for, which
/// an allowed call generic over it runs back.
pub(crate) fn derived_self_type<'db>(args: GenericArgs<'db>) -> Option<Ty<'db>> {
    args.as_slice().first().and_then(|a| a.ty())
}

/// How a vertex allocates, as bits: on its normal path; only while building an
/// error that it returns; only while building an error it drops once per call.
pub(crate) const NORMAL: u8 = 1;
pub(crate) const ON_ERROR: u8 = 2;
pub(crate) const ONCE: u8 = 4;

/// What a call contributes to its caller, given how the callee allocates and where
/// the call stands. The second value says an error was swallowed where the code can
/// run again (a loop, a closure): that is where the finding goes.
pub(crate) fn through(context: CallContext, callee: u8, in_closure: bool) -> (u8, bool) {
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

/// Whether calling `target` allocates or can't be judged: the allocator, a
/// foreign function or intrinsic not on the allowlist, a call with no known
/// callee, or a summary that says so.
pub(crate) fn terminal_flags(target: &Target<'_>, allowed_terminals: &FxHashSet<FunctionId>) -> u8 {
    let bad = match target {
        Target::Allocator(_) => true,
        Target::Foreign(f) | Target::Intrinsic(f) => !allowed_terminals.contains(f),
        Target::Unknown { .. } => true,
        Target::Summary(summary) => {
            return (if summary.allocates { NORMAL } else { 0 })
                | (if summary.on_error { ON_ERROR } else { 0 })
                | (if summary.once { ONCE } else { 0 });
        }
        Target::Node(_) | Target::Dyn { .. } | Target::FnPointer { .. } | Target::DynDrop(_) => false,
    };
    if bad {
        NORMAL
    } else {
        0
    }
}

/// Why a vertex allocates in one way (one flag), for its chain: which edge, which
/// of its targets (or callbacks, after the targets), and which flag of that target
/// the call carries up (`0` for a terminal). A vertex that allocates on its normal
/// path and also builds an error has a witness for each: the chain of a finding
/// follows the flag that made it one, never an error path beside it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Witness {
    pub edge: usize,
    pub target: usize,
    pub below: u8,
}

/// The flags, in the order of the per-flag witnesses.
pub(crate) const FLAGS: [u8; 3] = [NORMAL, ON_ERROR, ONCE];

/// The index of `flag` in `FLAGS`.
fn flag_index(flag: u8) -> usize {
    FLAGS.iter().position(|&f| f == flag).expect("a single flag")
}

/// The flags set in `flags`, one at a time.
fn each_flag(flags: u8) -> impl Iterator<Item = u8> {
    FLAGS.into_iter().filter(move |f| flags & f != 0)
}

/// The flag a chain of `flags` explains: the normal path first, then a returned
/// error, then one dropped once.
pub(crate) fn highest_flag(flags: u8) -> u8 {
    each_flag(flags).next().unwrap_or(0)
}

/// One witness per flag.
pub(crate) type Witnesses = [Option<Witness>; 3];

/// How the vertices of a root's reach allocate. `any` follows every edge; `own`
/// follows only edges into code outside the workspace, so a finding at a workspace
/// line blames what that line calls, not workspace code reported on its own lines.
/// The errors a workspace function builds still count in `own` where code outside
/// drops them (`.map(check).filter_map(Result::ok)`): that is where they allocate
/// again on every pass. Witnesses are found breadth-first from the allocator, one
/// per flag: shortest chains along which that flag travels.
pub(crate) struct Judged {
    pub any: Vec<u8>,
    pub own: Vec<u8>,
    pub witness: Vec<Witnesses>,
    /// Each vertex's strongly connected component in the reach: a call within one
    /// is recursion, which runs again like a loop.
    component: Vec<usize>,
}

/// The length of a chain, in calls.
type Steps = u32;

/// How many calls the chain through `terminal` adds: a summary's own chain, one
/// for anything else.
fn terminal_steps(terminal: &Target<'_>) -> Steps {
    match terminal {
        Target::Summary(summary) => Steps::try_from(summary.chain.len().saturating_sub(1)).unwrap_or(Steps::MAX).max(1),
        _ => 1,
    }
}

/// Each vertex's witness per flag with its chain's length: the lowest (length,
/// witness) over its seeds and over the calls into vertices with a chain, where
/// `carries(v, w, j, flag)` says which flags of `v` a call into `j` with `flag`
/// gives (Dijkstra's order: chains grow by one call a step).
fn shortest_witnesses(
    n: usize,
    seeds: &[(usize, u8, Steps, Witness)],
    callers: &[Vec<(usize, Witness)>],
    carries: impl Fn(usize, Witness, usize, u8) -> u8,
) -> Vec<[Option<(Steps, Witness)>; 3]> {
    use std::{cmp::Reverse, collections::BinaryHeap};
    let mut best: Vec<[Option<(Steps, Witness)>; 3]> = vec![[None; 3]; n];
    let offer = |best: &mut Vec<[Option<(Steps, Witness)>; 3]>, v: usize, f: usize, steps: Steps, w: Witness| {
        let better = best[v][f].is_none_or(|old| (steps, w) < old);
        if better {
            best[v][f] = Some((steps, w));
        }
        better
    };
    let mut heap = BinaryHeap::new();
    for &(v, flags, steps, w) in seeds {
        for f in each_flag(flags).map(flag_index) {
            if offer(&mut best, v, f, steps, w) {
                heap.push(Reverse((steps, v, f)));
            }
        }
    }
    let mut done = vec![[false; 3]; n];
    while let Some(Reverse((steps, j, f))) = heap.pop() {
        if done[j][f] || best[j][f].is_none_or(|(s, _)| s != steps) {
            continue;
        }
        done[j][f] = true;
        let through = steps.saturating_add(1);
        for &(v, w) in &callers[j] {
            let w = Witness { below: FLAGS[f], ..w };
            for g in each_flag(carries(v, w, j, FLAGS[f])).map(flag_index) {
                if !done[v][g] && offer(&mut best, v, g, through, w) {
                    heap.push(Reverse((through, v, g)));
                }
            }
        }
    }
    best
}

impl Judged {
    pub(crate) fn new(reach: &Reach<'_>, allowed_terminals: &FxHashSet<FunctionId>) -> Judged {
        let n = reach.nodes.len();
        // (caller, witness) for every judged edge into a vertex.
        let mut callers: Vec<Vec<(usize, Witness)>> = vec![Vec::new(); n];
        // The edges that allocate on their own, with the length of their chain and
        // the flags each gives.
        let mut direct_witnesses: Vec<Vec<(Steps, Witness, u8)>> = vec![Vec::new(); n];
        for v in 0..n {
            for (e, resolved) in reach.edges[v].iter().enumerate() {
                let context = resolved.edge.context;
                for (c, &callback) in resolved.callbacks.iter().enumerate() {
                    if reach.allowed[callback].is_none() && !(resolved.exempted.is_some() && !resolved.line_only) {
                        callers[callback].push((v, Witness { edge: e, target: resolved.targets.len() + c, below: 0 }));
                    }
                }
                if resolved.allowed() {
                    continue;
                }
                if let Verdict::Grows { .. } = resolved.verdict {
                    let (flags, _) = through(context, NORMAL, reach.closure[v]);
                    direct_witnesses[v].push((1, Witness { edge: e, target: 0, below: 0 }, flags));
                    continue;
                }
                for (t, target) in resolved.targets.iter().enumerate() {
                    let witness = Witness { edge: e, target: t, below: 0 };
                    match target {
                        Resolved::Vertex(j) if reach.allowed[*j].is_none() => callers[*j].push((v, witness)),
                        Resolved::Vertex(_) => {}
                        Resolved::Terminal(terminal) => {
                            let callee = terminal_flags(terminal, allowed_terminals);
                            let (flags, _) = through(context, callee, reach.closure[v]);
                            if flags != 0 {
                                direct_witnesses[v].push((terminal_steps(terminal), witness, flags));
                            }
                        }
                    }
                }
            }
        }
        let mut judged = Judged {
            any: vec![0; n],
            own: vec![0; n],
            witness: vec![[None; 3]; n],
            component: recursion_components(&callers),
        };
        // Flags travel from callee `j` to caller `v` through the call's context.
        let contribution = |judged: &Judged, v: usize, w: Witness, j: usize, flags: u8| {
            let context = judged.context_into(reach.edges[v][w.edge].edge.context, v, j);
            through(context, flags, reach.closure[v]).0
        };
        // The flags, to a fixpoint; then each vertex's witness: the call on its
        // shortest chain down to what allocates, the first such call in the body on
        // a tie. That chain is the same whether a callee below was walked or
        // answered by its summary (which carries its chain's length), so a warm
        // run names what a cold one does. `own` is given the lengths of the `any`
        // chains.
        let propagate =
            |judged: &Judged,
             flags: &mut Vec<u8>,
             own_of: Option<&[[Steps; 3]]>|
             -> Vec<[Option<(Steps, Witness)>; 3]> {
                let own_only = own_of.is_some();
                let takes_part = |v: usize| !own_only || !reach.local[v];
                // Seeds: (vertex, flags, chain length, witness).
                let mut seeds: Vec<(usize, u8, Steps, Witness)> = Vec::new();
                for v in (0..n).filter(|&v| takes_part(v)) {
                    for &(steps, w, flags) in &direct_witnesses[v] {
                        seeds.push((v, flags, steps, w));
                    }
                }
                if let Some(any_steps) = own_of {
                    // Errors of workspace callees, where code outside calls them.
                    for j in (0..n).filter(|&j| reach.local[j] && judged.any[j] & !NORMAL != 0) {
                        for &(v, w) in callers[j].iter().filter(|&&(v, _)| !reach.local[v]) {
                            for below in each_flag(judged.any[j] & !NORMAL) {
                                let contributed = contribution(judged, v, w, j, below);
                                let steps = any_steps[j][flag_index(below)].saturating_add(1);
                                if contributed != 0 {
                                    seeds.push((v, contributed, steps, Witness { below, ..w }));
                                }
                            }
                        }
                    }
                }
                let mut queue = std::collections::VecDeque::new();
                for &(v, contributed, _, _) in &seeds {
                    if contributed & !flags[v] != 0 {
                        flags[v] |= contributed;
                        queue.push_back(v);
                    }
                }
                while let Some(j) = queue.pop_front() {
                    for &(v, w) in callers[j].iter().filter(|&&(v, _)| takes_part(v)) {
                        let contributed = contribution(judged, v, w, j, flags[j]);
                        if contributed & !flags[v] != 0 {
                            flags[v] |= contributed;
                            queue.push_back(v);
                        }
                    }
                }
                shortest_witnesses(n, &seeds, &callers, |v, w, j, flag| {
                    if takes_part(v) {
                        contribution(judged, v, w, j, flag)
                    } else {
                        0
                    }
                })
            };
        // `any` first (`own` reads it), but `own`'s chains are the witnesses: they
        // stay outside the workspace where they can.
        let mut any = vec![0; n];
        let any_witness = propagate(&judged, &mut any, None);
        judged.any = any;
        let any_steps: Vec<[Steps; 3]> =
            any_witness.iter().map(|ws| ws.map(|w| w.map_or(Steps::MAX, |(steps, _)| steps))).collect();
        let mut own = vec![0; n];
        let witness = propagate(&judged, &mut own, Some(&any_steps));
        judged.own = own;
        judged.witness = witness
            .into_iter()
            .zip(any_witness)
            .map(|(own, any)| std::array::from_fn(|f| own[f].or(any[f]).map(|(_, w)| w)))
            .collect();
        judged
    }

    /// The witness of vertex `j` for `flag`, or for its first flag that has one.
    pub(crate) fn witness_for(&self, j: usize, flag: u8) -> Option<Witness> {
        let of_flag = if FLAGS.contains(&flag) { self.witness[j][flag_index(flag)] } else { None };
        of_flag.or_else(|| self.witness[j].iter().flatten().next().copied())
    }

    /// Where a call from vertex `v` into vertex `j` stands: a call within a cycle of
    /// the reach is recursion, and runs again like a call in a loop.
    pub(crate) fn context_into(&self, context: CallContext, v: usize, j: usize) -> CallContext {
        CallContext { repeats: context.repeats || self.recursive(v, j), ..context }
    }

    /// Where a call from vertex `v` into `target` stands: `context_into` for a
    /// vertex, the call's own context for a terminal.
    pub(crate) fn context_toward(&self, context: CallContext, v: usize, target: &Resolved<'_>) -> CallContext {
        match target {
            Resolved::Vertex(j) => self.context_into(context, v, *j),
            Resolved::Terminal(_) => context,
        }
    }

    /// Whether a call from vertex `v` into vertex `j` is recursion.
    pub(crate) fn recursive(&self, v: usize, j: usize) -> bool {
        self.component[v] == self.component[j]
    }

    /// How calling `target` allocates, as flags.
    pub(crate) fn flags(&self, target: &Resolved<'_>, allowed_terminals: &FxHashSet<FunctionId>) -> u8 {
        match target {
            Resolved::Vertex(j) => self.any[*j],
            Resolved::Terminal(terminal) => terminal_flags(terminal, allowed_terminals),
        }
    }
}

/// The strongly connected component of each vertex, given the callers of each:
/// two vertices share one when each reaches the other, and a vertex that calls
/// itself is alone in its own (the caller lists show the self-call).
fn recursion_components(callers: &[Vec<(usize, Witness)>]) -> Vec<usize> {
    let mut graph = petgraph::Graph::<(), ()>::with_capacity(callers.len(), 0);
    let nodes: Vec<_> = (0..callers.len()).map(|_| graph.add_node(())).collect();
    for (j, calls) in callers.iter().enumerate() {
        for &(v, _) in calls {
            graph.add_edge(nodes[j], nodes[v], ());
        }
    }
    let mut component = vec![0; callers.len()];
    for (c, members) in petgraph::algo::tarjan_scc(&graph).into_iter().enumerate() {
        for node in members {
            component[node.index()] = c;
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::{recursion_components, through, CallContext, Witness, NORMAL, ONCE, ON_ERROR};

    #[test]
    fn recursion_is_a_cycle_of_callers() {
        let call = |v: usize| (v, Witness { edge: 0, target: 0, below: 0 });
        // 0 calls 1; 1 and 2 call each other; 3 calls itself; 4 is called by 2 only.
        let callers = vec![vec![], vec![call(0), call(2)], vec![call(1)], vec![call(3)], vec![call(2)]];
        let component = recursion_components(&callers);
        assert_eq!(component[1], component[2]);
        assert_ne!(component[0], component[1]);
        assert_ne!(component[4], component[2]);
        assert_ne!(component[3], component[0]);
    }

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
}
