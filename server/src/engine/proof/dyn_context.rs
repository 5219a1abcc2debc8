//! `dyn` contexts: a call that coerces its argument to `dyn Trait` as it passes it
//! (`core::fmt::write(&mut buf as &mut dyn Write, ..)`) is judged for exactly the
//! types coerced there, the way a generic callee is judged per instance, when
//! nothing else can hand the callee a `dyn Trait` value.
//!
//! The rule. A context owns the traits of the `dyn`s its entering call coerces
//! (`DynContext::own`) and inherits its caller's context's decisions for the
//! others (`parent`: `DynContext { own: [Debug], parent: X }` inside `X { own:
//! [Write] }` when a `Debug` impl runs below `write!`). Below a context's vertices,
//! a `dyn Trait` value of a trait it owns is one of: coerced at its entering call
//! (`entry`); coerced by a vertex its vertices reach, and handed back up
//! (`candidates`); held by a static (the program's `static_coerced`); or from
//! outside (`resolve::Outside`, as in every context). That holds when:
//! - the callee's parameters can hold no other `dyn` of a related trait
//!   (`entered`);
//! - a value that changes its type view below it holds no `dyn` it decides:
//!   the inputs a fn pointer's target reads at other types than the pointer
//!   says (an erased `NonNull<()>` read as `&T`), the value a `dyn` drop drops,
//!   the concrete `self` of a `dyn` call of a trait no context of the chain
//!   decides (`target_context`). Where one may, the callee is judged in the
//!   nearest enclosing context that decides none of what it may hold (context
//!   0, the whole program's, at the end);
//! - the concrete `self` of a `dyn` call of a trait some context owns is judged
//!   in that owner's context: it is a value of that owner's flow;
//! - no vertex its vertices reach is judged outside it (`candidates`): such a
//!   vertex may hand back any `dyn` its own context allows, so the context is
//!   spoilt and its traits are decided by the next owner up the chain, or by the
//!   whole program.
//!
//! A context is the same whatever chain of contexts that own only its own traits
//! it is entered from (`DynContext::parent`): `Debug` formatting nested in
//! `Debug` impls is one context per type coerced, not one per nesting.
//!
//! Sound, only less precise where a rule cannot tell. A budget
//! (`MAX_DYN_CONTEXTS`) bounds the copies of vertices.

use hir_def::{FunctionId, TraitId};
use hir_ty::{
    next_solver::{GenericArgs, Ty, TyKind},
    ParamEnvAndCrate,
};
use rustc_hash::FxHashSet;
use rustc_type_ir::inherent::{IntoKind, Term as _};

use super::resolve::trait_or_super;
use super::walk::{dyn_principal, type_shape, CallGraph, Edge, Node, Signature, Target};

/// How many contexts one root's reach may hold, besides the whole program's;
/// past it, a context call is judged in its caller's context (sound: that
/// context's candidates include whatever the call coerces).
pub(crate) const MAX_DYN_CONTEXTS: usize = 32;

/// How far into a type `may_hold_related` looks; past it, it may hold anything.
const MAX_SCAN_DEPTH: usize = 32;

/// A coercion to `dyn Trait`: (concrete type, trait, the `dyn` type).
pub(crate) type Coercion<'db> = (Ty<'db>, TraitId, Ty<'db>);

/// One context: the traits it owns, the coercions at the calls that enter it, and
/// the context whose decisions it inherits for other traits. Context 0
/// (`DynContext::default()`) is the whole program: it decides nothing.
#[derive(Clone, PartialEq, Default)]
pub(crate) struct DynContext<'db> {
    /// Sorted, without repeats.
    pub own: Vec<TraitId>,
    pub entry: Vec<Coercion<'db>>,
    /// The context whose decisions it inherits for the traits it does not own:
    /// the nearest one up the chain it is entered from that owns such a trait. A
    /// context between that owns only traits this one owns decides nothing
    /// here, so a `Debug` value formatted inside another `Debug` impl is one
    /// context, however deep the nesting.
    pub parent: u32,
    /// The contexts it is entered from below `parent`: it lies within each of
    /// them too (`within`), so what it coerces is theirs to hand back up.
    pub entered_from: Vec<u32>,
}

/// The traits decided along the chain from context `c` up.
fn chain_traits(contexts: &[DynContext<'_>], mut c: u32) -> Vec<TraitId> {
    let mut traits = Vec::new();
    while c != 0 {
        traits.extend(contexts[c as usize].own.iter().copied());
        c = contexts[c as usize].parent;
    }
    traits
}

/// Whether context `inner` is `outer` or lies below it: up its parents and the
/// contexts it was entered from.
fn within(contexts: &[DynContext<'_>], inner: u32, outer: u32) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![inner];
    while let Some(c) = stack.pop() {
        if c == outer {
            return true;
        }
        if c == 0 || !seen.insert(c) {
            continue;
        }
        let context = &contexts[c as usize];
        stack.push(context.parent);
        stack.extend(context.entered_from.iter().copied());
    }
    false
}

/// The candidates a `dyn` call of `trait_` in context `c` is resolved against:
/// those of the nearest context up the chain that owns the trait and is not
/// spoilt (`candidates`); `None`: the whole program's.
pub(crate) fn decision<'a, 'db>(
    contexts: &[DynContext<'db>],
    candidates: &'a [Option<Vec<Coercion<'db>>>],
    mut c: u32,
    trait_: TraitId,
) -> Option<&'a [Coercion<'db>]> {
    while c != 0 {
        if contexts[c as usize].own.contains(&trait_) {
            if let Some(found) = &candidates[c as usize] {
                return Some(found);
            }
        }
        c = contexts[c as usize].parent;
    }
    None
}

/// The context the callee of `edge` is judged in, called from a vertex in context
/// `from`: a new one when the call coerces arguments to `dyn` and its callee can
/// get no other `dyn` of their traits from its caller; else the caller's.
pub(crate) fn entered<'db>(
    graph: &mut CallGraph<'db>,
    contexts: &mut Vec<DynContext<'db>>,
    from: u32,
    edge: &Edge<'db>,
    callee: &Node<'db>,
    env: ParamEnvAndCrate<'db>,
) -> u32 {
    if edge.dyn_args.is_empty() {
        return from;
    }
    let Node::Fn { func, args, .. } = *callee else { return from };
    let entry: Vec<Coercion<'db>> = edge
        .dyn_args
        .iter()
        .filter_map(|&(concrete, dyn_ty)| Some((concrete, dyn_principal(dyn_ty)?, dyn_ty)))
        .collect();
    if entry.len() != edge.dyn_args.len() {
        return from;
    }
    let mut own: Vec<TraitId> = entry.iter().map(|&(_, trait_, _)| trait_).collect();
    own.sort_unstable();
    own.dedup();
    if !hands_in_only_the_coerced(graph, func, args, &entry, &own, env) {
        return from;
    }
    let mut parent = from;
    while parent != 0 && contexts[parent as usize].own.iter().all(|trait_| own.contains(trait_)) {
        parent = contexts[parent as usize].parent;
    }
    let entered_from = if parent == from { Vec::new() } else { vec![from] };
    let context = DynContext { own, entry, parent, entered_from };
    if let Some(at) = contexts.iter().position(|known| same_context(known, &context)) {
        if !within(contexts, at as u32, from) {
            contexts[at].entered_from.push(from);
        }
        return at as u32;
    }
    if contexts.len() > MAX_DYN_CONTEXTS {
        return from;
    }
    contexts.push(context);
    (contexts.len() - 1) as u32
}

fn same_context<'db>(a: &DynContext<'db>, b: &DynContext<'db>) -> bool {
    a.own == b.own
        && a.parent == b.parent
        && a.entry.len() == b.entry.len()
        && a.entry.iter().all(|c| b.entry.contains(c))
        && b.entry.iter().all(|c| a.entry.contains(c))
}

/// Whether the parameters of `func` at `args` can hold a `dyn` of a trait related
/// to `traits` only where the call passes the coerced arguments: one parameter
/// that points straight at such a `dyn` per coerced argument, and nothing else
/// (the coerced values' own types included) that may hold one.
fn hands_in_only_the_coerced<'db>(
    graph: &mut CallGraph<'db>,
    func: FunctionId,
    args: GenericArgs<'db>,
    entry: &[Coercion<'db>],
    traits: &[TraitId],
    env: ParamEnvAndCrate<'db>,
) -> bool {
    let db = graph.db;
    let sig = db.callable_item_signature(func.into()).instantiate(graph.interner, args).skip_norm_wip().skip_binder();
    let mut direct = 0;
    for &input in sig.inputs().iter() {
        let pointee = match input.kind() {
            TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) => Some(inner),
            _ => None,
        };
        if pointee.and_then(dyn_principal).is_some_and(|trait_| traits.contains(&trait_)) {
            direct += 1;
            continue;
        }
        if may_hold_related(graph, input, traits, env) {
            return false;
        }
    }
    direct == entry.len() && entry.iter().all(|&(concrete, _, _)| !may_hold_related(graph, concrete, traits, env))
}

/// The context the target of an open call of a vertex in context `context` is
/// judged in. A `dyn` call of a trait a context of the chain owns: that owner's
/// (the value is of its flow). Otherwise the nearest context up the chain whose
/// decisions what the target reads at another type than the call passed (a `dyn`
/// call's concrete `self`, a fn pointer's erased inputs, a dropped `dyn`'s value)
/// cannot break: it holds no `dyn` of a trait decided there.
pub(crate) fn target_context<'db>(
    graph: &mut CallGraph<'db>,
    contexts: &[DynContext<'db>],
    context: u32,
    call: &Target<'db>,
    target: &Target<'db>,
    env: ParamEnvAndCrate<'db>,
) -> u32 {
    if context == 0 {
        return 0;
    }
    let Target::Node(node) = target else {
        // Not walked: nothing below it to judge in any context.
        return context;
    };
    if let Target::Dyn { method, .. } = call {
        if let Some(trait_) = trait_of(graph, *method) {
            let mut owner = context;
            while owner != 0 {
                if contexts[owner as usize].own.contains(&trait_) {
                    return owner;
                }
                owner = contexts[owner as usize].parent;
            }
        }
    }
    let retyped: Vec<Ty<'db>> = match (call, *node) {
        (Target::Dyn { .. }, Node::Fn { func, args, .. } | Node::Derived { method: func, args }) => {
            inputs(graph, func, args).into_iter().take(1).collect()
        }
        (Target::FnPointer { signature, .. }, Node::Fn { func, args, .. }) => {
            retyped_inputs(graph, func, args, signature)
        }
        // Only a closure that captures nothing becomes a fn pointer.
        (Target::FnPointer { .. }, Node::Closure { .. }) => Vec::new(),
        (Target::DynDrop(_), Node::DropGlue(ty)) => vec![ty],
        // A closure's captures behind a `dyn Fn`, an instance of any other kind:
        // not looked into.
        _ => return 0,
    };
    let mut at = context;
    while at != 0 {
        let decided = chain_traits(contexts, at);
        if retyped.iter().all(|&ty| !may_hold_related(graph, ty, &decided, env)) {
            break;
        }
        at = contexts[at as usize].parent;
    }
    at
}

pub(crate) fn trait_of(graph: &CallGraph<'_>, method: FunctionId) -> Option<TraitId> {
    match hir_def::Lookup::lookup(&method, graph.db).container {
        hir_def::ItemContainerId::TraitId(trait_) => Some(trait_),
        _ => None,
    }
}

fn inputs<'db>(graph: &CallGraph<'db>, func: FunctionId, args: GenericArgs<'db>) -> Vec<Ty<'db>> {
    let sig =
        graph.db.callable_item_signature(func.into()).instantiate(graph.interner, args).skip_norm_wip().skip_binder();
    sig.inputs().to_vec()
}

/// The inputs of `func` whose types are not the ones the pointer's signature
/// passes them as.
fn retyped_inputs<'db>(
    graph: &CallGraph<'db>,
    func: FunctionId,
    args: GenericArgs<'db>,
    pointer: &Signature,
) -> Vec<Ty<'db>> {
    let inputs = inputs(graph, func, args);
    if inputs.len() != pointer.inputs.len() {
        return inputs;
    }
    inputs
        .into_iter()
        .zip(&pointer.inputs)
        .filter(|(ty, passed)| type_shape(graph.db, *ty) != **passed)
        .map(|(ty, _)| ty)
        .collect()
}

/// Whether a value of `ty` may hold a `dyn` of a trait related to `traits` (one of
/// them, a subtrait or a supertrait), through references, pointers, type
/// arguments and fields. What it cannot see into (a type parameter, a projection
/// it cannot normalise, a closure's captures, past its depth) may.
pub(crate) fn may_hold_related<'db>(
    graph: &mut CallGraph<'db>,
    ty: Ty<'db>,
    traits: &[TraitId],
    env: ParamEnvAndCrate<'db>,
) -> bool {
    let db = graph.db;
    let related = |t: TraitId| traits.iter().any(|&c| trait_or_super(db, t, c) || trait_or_super(db, c, t));
    let mut seen: FxHashSet<Ty<'db>> = FxHashSet::default();
    let mut queue: std::collections::VecDeque<(Ty<'db>, usize)> = std::collections::VecDeque::from([(ty, 0)]);
    let mut normalized = false;
    while let Some((ty, depth)) = queue.pop_front() {
        if !seen.insert(ty) {
            continue;
        }
        if depth > MAX_SCAN_DEPTH {
            return true;
        }
        match ty.kind() {
            TyKind::Dynamic(preds, ..) => {
                if dyn_principal(ty).is_some_and(related) {
                    return true;
                }
                for pred in preds.iter() {
                    if let rustc_type_ir::ExistentialPredicate::Projection(projection) = pred.skip_binder() {
                        match projection.term.as_type() {
                            Some(t) => queue.push_back((t, depth + 1)),
                            None => return true,
                        }
                    }
                }
            }
            TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) | TyKind::Slice(inner) | TyKind::Array(inner, _) => {
                queue.push_back((inner, depth + 1))
            }
            TyKind::Adt(_, args) => {
                for t in args.as_slice().iter().filter_map(|arg| arg.ty()) {
                    queue.push_back((t, depth + 1));
                }
                for field in graph.field_types_noting_aliases(ty, env, &mut normalized) {
                    queue.push_back((field, depth + 1));
                }
            }
            TyKind::Tuple(tys) => queue.extend(tys.iter().map(|t| (t, depth + 1))),
            TyKind::Alias(_) => {
                let normalized =
                    super::subst::Instantiate::new(graph.interner, env, GenericArgs::new_from_slice(&[])).ty(ty);
                if normalized == ty {
                    return true;
                }
                queue.push_back((normalized, depth));
            }
            TyKind::FnPtr(..) | TyKind::FnDef(..) => {}
            _ if super::walk::is_primitive(ty) => {}
            _ => return true,
        }
    }
    false
}

/// For each context but the whole program's, the coercions the `dyn` calls of the
/// traits it owns are resolved against: those entering it, and those of every
/// vertex its vertices reach (a `dyn` made below may be handed back up). `None`
/// for a spoilt context: one from whose vertices a vertex judged outside it is
/// reached, which may hand back any `dyn` its own context allows. Index 0 is
/// `None`.
pub(crate) fn candidates<'db>(reach: &super::reach::Reach<'db>) -> Vec<Option<Vec<Coercion<'db>>>> {
    let mut out: Vec<Option<Vec<Coercion<'db>>>> = vec![None; reach.contexts.len()];
    for (c, context) in reach.contexts.iter().enumerate().skip(1) {
        // Which contexts lie within `c`: asked once per context, not per vertex.
        let inside: Vec<bool> =
            (0..reach.contexts.len()).map(|k| within(&reach.contexts, k as u32, c as u32)).collect();
        let mut seen = vec![false; reach.nodes.len()];
        let mut stack: Vec<usize> = (0..reach.nodes.len()).filter(|&v| reach.context[v] as usize == c).collect();
        let mut found = context.entry.clone();
        let mut spoilt = false;
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            if !inside[reach.context[v] as usize] {
                spoilt = true;
                break;
            }
            for coercion in reach.coerced_at.get(&v).into_iter().flatten() {
                if !found.contains(coercion) {
                    found.push(*coercion);
                }
            }
            for resolved in &reach.edges[v] {
                stack.extend(resolved.callbacks.iter().copied());
                stack.extend(resolved.targets.iter().filter_map(|target| match target {
                    super::reach::Resolved::Vertex(j) => Some(*j),
                    super::reach::Resolved::Terminal(_) => None,
                }));
            }
        }
        out[c] = (!spoilt).then_some(found);
    }
    out
}
