//! Calls the source leaves open, resolved against the program one root reaches:
//! a `dyn Trait` method goes to the impls of every type the program coerces to
//! `dyn Trait` (its reach and the initialisers of the statics it reads); a call
//! through a fn pointer goes to every function of that signature whose address the
//! program takes; dropping a `dyn Trait` runs the drop glue of those types. What
//! the root's caller hands in (its parameters, their fields) and what a static
//! holds without its initialiser saying what (set at run time elsewhere) may be
//! anything: every impl in the crate graph, or, for fn pointers and `dyn Fn`, a
//! call with no known callee. An empty set for a fn pointer (no function of its
//! signature has its address taken, none comes from outside) is a call that never
//! runs; for a `dyn` method it is a call with no known callee, with the reason.

use hir::db::HirDatabase;
use hir_def::{DefWithBodyId, FunctionId, TraitId};
use hir_ty::{
    next_solver::{GenericArgs, SolverDefId, Ty, TyKind},
    ParamEnvAndCrate,
};
use rustc_hash::FxHashSet;
use rustc_type_ir::{
    inherent::{GenericArgs as _, IntoKind, Term as _},
    AliasTyKind, TypeVisitableExt,
};

use super::dyn_context::Coercion;
use super::walk::{dyn_principal, CallGraph, Node, Signature, Target, UnknownKind, Walked};
use crate::engine::source::naming;

/// What may stand behind `dyn` values and fn pointers in one root's program.
#[derive(Default)]
pub(crate) struct Program<'db> {
    /// Coercions to `dyn Trait`: (concrete type, trait, the `dyn` type).
    pub coerced: Vec<Coercion<'db>>,
    /// Those of them made by the initialisers of statics and consts the program
    /// reads (and what their calls coerce): a static is in every context.
    pub static_coerced: Vec<Coercion<'db>>,
    /// Concrete types coerced to a `dyn` of auto traits only (`dyn Send`), which
    /// has no methods but has drop glue.
    pub coerced_auto: Vec<Ty<'db>>,
    /// Functions and closures whose address is taken, with their signature.
    pub taken: Vec<(Target<'db>, Signature)>,
    /// Fn pointers transmuted to another signature.
    pub casts: Vec<(Signature, Signature)>,
    /// Statics and consts whose initialisers have been read, at the arguments
    /// read (`Walked::statics`).
    pub statics: FxHashSet<(DefWithBodyId, GenericArgs<'db>)>,
    /// Sealed fields whose stores have been read.
    pub sealed_read: FxHashSet<hir_def::FieldId>,
    /// What the stores read depend on beyond the walks: for each generic storing
    /// function whose instantiations across the crate graph were read, the names
    /// a workspace body must spell to add one (`FieldStores::instantiating`).
    pub instantiating: Vec<Option<Vec<String>>>,
    /// What comes from outside the program: the root's caller, or statics set at
    /// run time.
    pub outside: Outside,
    /// The answers the program's open calls were resolved with (`dyn` targets
    /// at the coerced types, whether those need drop glue), each stamped: the
    /// same stamps later mean the same answers (`incremental::answer_unchanged`).
    pub answers: Vec<super::incremental::AnswerStamp>,
}

/// What the program receives from outside: traits of `dyn` values, and fn-pointer
/// signatures.
#[derive(Default)]
pub(crate) struct Outside {
    pub dyn_traits: FxHashSet<TraitId>,
    /// A `dyn` of auto traits only (`Box<dyn Send>`): any type may stand behind it.
    pub auto_dyn: bool,
    pub fn_pointers: Vec<Signature>,
    /// A value whose type the scan could not see all of (nested past its depth
    /// bound, a projection it cannot normalise, an opaque type): it may hold a
    /// `dyn` of any trait and a fn pointer of any signature.
    pub anything: bool,
    /// A static keeping a function's address as an erased pointer may hold one
    /// the program does not take (`erased_statics`): any fn pointer may be it.
    pub erased_addresses: bool,
    /// Whether a type looked into held a projection or an alias (a field's
    /// `<T as Tr>::Out`), normalised through the impls: what it holds may change
    /// with an impl, which no stamp records.
    pub normalized: bool,
    /// Sealed fields of the values from outside (`sealed_fields`): what they hold
    /// is what their crate's code stores there, read by `Program::read_sealed_fields`.
    pub sealed: Vec<hir_def::FieldId>,
}

impl<'db> Program<'db> {
    /// Takes in what a walked body adds. Returns whether anything was new.
    pub(crate) fn absorb(&mut self, walked: &Walked<'db>) -> bool {
        let before = (self.coerced.len(), self.coerced_auto.len(), self.taken.len(), self.casts.len());
        for &(from, to) in &walked.coercions {
            match dyn_principal(to) {
                Some(trait_) => {
                    if !self.coerced.contains(&(from, trait_, to)) {
                        self.coerced.push((from, trait_, to));
                    }
                }
                None => {
                    if !self.coerced_auto.contains(&from) {
                        self.coerced_auto.push(from);
                    }
                }
            }
        }
        for taken in &walked.address_taken {
            if !self.taken.contains(taken) {
                self.taken.push(taken.clone());
            }
        }
        for cast in &walked.fn_casts {
            if !self.casts.contains(cast) {
                self.casts.push(cast.clone());
            }
        }
        before != (self.coerced.len(), self.coerced_auto.len(), self.taken.len(), self.casts.len())
    }

    /// `absorb` for what a static's or const's initialiser (or a function it calls)
    /// adds: its coercions are in every context too.
    fn absorb_static(&mut self, walked: &Walked<'db>) -> bool {
        for &(from, to) in &walked.coercions {
            if let Some(trait_) = dyn_principal(to) {
                if !self.static_coerced.contains(&(from, trait_, to)) {
                    self.static_coerced.push((from, trait_, to));
                }
            }
        }
        self.absorb(walked)
    }

    /// Reads the initialiser of a static or const the program reads. What its type
    /// holds that the initialiser does not account for was set at run time by code
    /// outside the program.
    pub(crate) fn read_static(
        &mut self,
        graph: &mut CallGraph<'db>,
        (def, args): (DefWithBodyId, GenericArgs<'db>),
        env: ParamEnvAndCrate<'db>,
    ) -> bool {
        if !self.statics.insert((def, args)) {
            return false;
        }
        let walked = graph.walked(Node::Init(def, args), env);
        let mut changed = self.absorb_static(&walked);
        let ty = match def {
            DefWithBodyId::StaticId(id) => graph.db.value_ty(id.into()).map(|ty| ty.skip_binder()),
            DefWithBodyId::ConstId(id) => {
                graph.db.value_ty(id.into()).map(|ty| ty.instantiate(graph.interner, args).skip_norm_wip())
            }
            _ => None,
        };
        // What the functions it calls (`const fn`s, run at compile time) coerce to
        // `dyn` or take the address of is in the value too (`const PICKED: &dyn
        // Shape = pick();`).
        let mut seen: FxHashSet<Node<'db>> = FxHashSet::default();
        let mut stack: Vec<Node<'db>> = callees(&walked).collect();
        while let Some(node) = stack.pop() {
            if seen.len() >= MAX_INITIALISER_CALLEES || !seen.insert(node) {
                continue;
            }
            let callee = graph.walked(node, env);
            changed |= self.absorb_static(&callee);
            for &inner in &callee.statics {
                changed |= self.read_static(graph, inner, env);
            }
            stack.extend(callees(&callee));
        }
        // Past the bound, what it holds is taken as unknown.
        if let (true, Some(ty)) = (seen.len() >= MAX_INITIALISER_CALLEES, ty) {
            changed |= self.read_from_outside(graph, ty, env);
        }
        if let Some(ty) = ty {
            let mut held = Outside::default();
            collect_outside(graph, ty, env, &mut held, &mut FxHashSet::default(), 0, Sealing::On);
            // A `static mut`, or one with interior mutability (`Mutex<fn()>`,
            // `AtomicPtr`), may hold what any code stored at run time: its
            // initialiser accounts for nothing. Otherwise what it accounts for
            // is not from outside.
            let settable = match def {
                DefWithBodyId::StaticId(id) => {
                    hir_def::signatures::StaticSignature::of(graph.db, id)
                        .flags
                        .contains(hir_def::signatures::StaticFlags::MUTABLE)
                        || holds_unsafe_cell(graph, ty, env, &mut FxHashSet::default(), 0, &mut held.normalized)
                }
                _ => false,
            };
            if !settable {
                let coerced: FxHashSet<TraitId> =
                    walked.coercions.iter().filter_map(|&(_, to)| dyn_principal(to)).collect();
                held.dyn_traits.retain(|trait_| !coerced.contains(trait_));
                held.auto_dyn &= !walked.coercions.iter().any(|&(_, to)| dyn_principal(to).is_none());
                held.fn_pointers
                    .retain(|signature| !walked.address_taken.iter().any(|(_, taken)| signature.admits(taken)));
            }
            changed |= self.take_outside(held);
            changed |= self.read_sealed_fields(graph, env);
        }
        // A block's static keeping a function's address as an erased pointer:
        // what the code that can name it stores there.
        if let (DefWithBodyId::StaticId(id), Some(ty)) = (def, ty) {
            if super::erased_statics::is_erased_block_static(graph, id, ty, env) {
                let mut erased_addresses = true;
                if let Some(code) = super::erased_statics::code_naming(graph, id) {
                    let (walks, from_outside) = super::erased_statics::storing_walks(graph, &code, env);
                    for storing in &walks {
                        changed |= self.absorb_static(storing);
                    }
                    erased_addresses = from_outside;
                }
                changed |= self.take_outside(Outside { erased_addresses, ..Outside::default() });
            }
        }
        for &inner in &walked.statics {
            changed |= self.read_static(graph, inner, env);
        }
        changed
    }

    /// Takes in a value whose content comes from outside (made by the user's code
    /// out of untracked memory, `Walked::untyped`): what its type holds.
    pub(crate) fn read_from_outside(
        &mut self,
        graph: &mut CallGraph<'db>,
        ty: Ty<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> bool {
        let mut held = Outside::default();
        collect_outside(graph, ty, env, &mut held, &mut FxHashSet::default(), 0, Sealing::Off);
        self.take_outside(held)
    }

    /// Reads the stores into the sealed fields of values from outside not read yet:
    /// the walks of the code that stores there are taken in like a static's
    /// initialiser (in every context); a field whose stores cannot all be told
    /// holds what its type may hold from outside.
    pub(crate) fn read_sealed_fields(&mut self, graph: &mut CallGraph<'db>, env: ParamEnvAndCrate<'db>) -> bool {
        let mut changed = false;
        while let Some(&field) = self.outside.sealed.iter().find(|field| !self.sealed_read.contains(field)) {
            self.sealed_read.insert(field);
            let stores = graph.sealed_stores(field);
            self.instantiating.extend(stores.instantiating.iter().cloned());
            for &node in &stores.storing {
                let walked = graph.walked(node, env);
                changed |= self.absorb_static(&walked);
                for &inner in &walked.statics {
                    changed |= self.read_static(graph, inner, env);
                }
                for &ty in &walked.untyped {
                    changed |= self.read_from_outside(graph, ty, env);
                }
            }
            if stores.from_outside {
                let declared = graph.db.field_types(field.parent)[field.local_id].ty().skip_binder();
                let mut held = Outside::default();
                collect_outside(graph, declared, env, &mut held, &mut FxHashSet::default(), 0, Sealing::On);
                changed |= self.take_outside(held);
            }
        }
        changed
    }

    /// Takes in what comes from outside; returns whether anything was new.
    fn take_outside(&mut self, held: Outside) -> bool {
        let mut changed = false;
        for trait_ in held.dyn_traits {
            changed |= self.outside.dyn_traits.insert(trait_);
        }
        if held.auto_dyn && !self.outside.auto_dyn {
            self.outside.auto_dyn = true;
            changed = true;
        }
        if held.erased_addresses && !self.outside.erased_addresses {
            self.outside.erased_addresses = true;
            changed = true;
        }
        if held.anything && !self.outside.anything {
            self.outside.anything = true;
            changed = true;
        }
        // Not what the program holds: how it was found.
        self.outside.normalized |= held.normalized;
        for field in held.sealed {
            if !self.outside.sealed.contains(&field) {
                self.outside.sealed.push(field);
                changed = true;
            }
        }
        for signature in held.fn_pointers {
            if !self.outside.fn_pointers.contains(&signature) {
                self.outside.fn_pointers.push(signature);
                changed = true;
            }
        }
        changed
    }

    /// The targets of a `dyn Trait` method call. In a `dyn` context that decides
    /// the trait (`decided`: its candidate coercions, `dyn_context::decision`),
    /// the types coerced there and in statics stand behind it; elsewhere every
    /// type the program coerces.
    pub(crate) fn dyn_targets(
        &mut self,
        graph: &mut CallGraph<'db>,
        method: FunctionId,
        args: GenericArgs<'db>,
        env: ParamEnvAndCrate<'db>,
        decided: Option<&[Coercion<'db>]>,
    ) -> Vec<Target<'db>> {
        let db = graph.db;
        let hir_def::ItemContainerId::TraitId(trait_) = hir_def::Lookup::lookup(&method, db).container else {
            return Vec::new();
        };
        let mut targets = Vec::new();
        let from_outside =
            self.outside.anything || self.outside.dyn_traits.iter().any(|&t| trait_or_super(db, t, trait_));
        if from_outside {
            if graph.is_fn_family_trait(trait_) {
                // A `dyn Fn` from outside could be any closure.
                let what = format!(
                    "`dyn {}` from the root's caller or a static set at run time",
                    naming::trait_path(db, trait_)
                );
                targets.push(Target::Unknown { what, kind: UnknownKind::Opaque });
            } else if super::impls::all_for_trait(db, trait_).len() > MAX_OUTSIDE_IMPLS {
                // `dyn Error` inside an `io::Error` from the caller: every impl of
                // std's widest traits, each walked at its own parameters, is more
                // than the walk can bear (rust-analyzer's solver overflows on the
                // types some of them build). A call with no known callee.
                let what = format!(
                    "`dyn {}` from the root's caller or a static set at run time (more than {MAX_OUTSIDE_IMPLS} impls may stand behind it)",
                    naming::trait_path(db, trait_)
                );
                targets.push(Target::Unknown { what, kind: UnknownKind::Opaque });
            } else {
                targets.extend(all_impls(graph, method, trait_, args, env));
            }
        }
        let called_dyn = args.as_slice().first().and_then(|arg| arg.ty());
        let candidates: Vec<Coercion<'db>> = match decided {
            Some(in_context) => in_context
                .iter()
                .chain(self.static_coerced.iter().filter(|c| !in_context.contains(c)))
                .copied()
                .collect(),
            None => self.coerced.clone(),
        };
        for &(concrete, coerced_trait, coerced_dyn) in &candidates {
            // A `dyn FnMut(usize) -> bool` holds only what was coerced to that
            // type: the trait's arguments must agree, position by position.
            // The `Fn` traits share their one argument (`Args`) along the
            // supertrait chain: a `dyn Fn(&CStr)` upcast to `dyn FnMut` is still
            // not a `dyn FnMut(usize)`.
            let comparable = coerced_trait == trait_
                || (graph.is_fn_family_trait(coerced_trait) && graph.is_fn_family_trait(trait_));
            let same_arguments =
                !comparable || called_dyn.is_none_or(|called| trait_arguments_may_equal(db, called, coerced_dyn));
            if trait_or_super(db, coerced_trait, trait_) && same_arguments {
                let mut new_args: Vec<_> = args.as_slice().to_vec();
                new_args[0] = concrete.into();
                let (resolved, stamp) =
                    super::incremental::resolved_call_stamped(db, method, GenericArgs::new_from_slice(&new_args), env);
                self.answers.push(stamp);
                targets.extend(resolved);
            }
        }
        targets
    }

    /// The drop glue that may run when a `dyn` value is dropped (types that need
    /// no drop glue have none): of the types the program coerces to it (to a
    /// subtrait of its trait, or, for a `dyn` of auto traits only, to any `dyn`,
    /// which may be upcast to it), and of every type that implements its trait
    /// when one may come from outside. Where that is any type at all (a blanket
    /// impl, a `dyn Send` from outside), the drop is a call with no known callee.
    pub(crate) fn dyn_drop_targets(
        &mut self,
        graph: &mut CallGraph<'db>,
        dyn_ty: Ty<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Vec<Target<'db>> {
        let db = graph.db;
        let mut targets = Vec::new();
        let any_type = |what: String| Target::Unknown { what, kind: UnknownKind::Opaque };
        let types: Vec<Ty<'db>> = match dyn_principal(dyn_ty) {
            Some(trait_) => {
                let mut types: Vec<Ty<'db>> = self
                    .coerced
                    .iter()
                    .filter(|&&(_, coerced, _)| trait_or_super(db, coerced, trait_))
                    .map(|&(ty, _, _)| ty)
                    .collect();
                let impls = super::impls::all_for_trait(db, trait_);
                let outside =
                    self.outside.anything || self.outside.dyn_traits.iter().any(|&t| trait_or_super(db, t, trait_));
                if outside && impls.len() > MAX_OUTSIDE_IMPLS {
                    let trait_path = naming::trait_path(db, trait_);
                    targets.push(any_type(format!(
                        "drop of a `dyn {trait_path}` from the root's caller or a static set at run time (more than {MAX_OUTSIDE_IMPLS} impls may stand behind it)"
                    )));
                } else if outside {
                    for impl_ in impls {
                        let Ok(id) = hir_def::ImplId::try_from(impl_) else { continue };
                        let self_ty = db.impl_self_ty(id).skip_binder();
                        if matches!(self_ty.kind(), TyKind::Param(_)) {
                            let trait_path = naming::trait_path(db, trait_);
                            targets.push(any_type(format!(
                                "drop of a `dyn {trait_path}` from the root's caller or a static set at run time (a blanket impl: any type may stand behind it)"
                            )));
                            break;
                        }
                        types.push(self_ty);
                    }
                }
                types
            }
            None => {
                if self.outside.auto_dyn || self.outside.anything || !self.outside.dyn_traits.is_empty() {
                    targets.push(any_type(
                        "drop of a `dyn` of auto traits only from the root's caller or a static set at run time (any type may stand behind it)"
                            .to_owned(),
                    ));
                }
                self.coerced_auto.iter().copied().chain(self.coerced.iter().map(|&(ty, _, _)| ty)).collect()
            }
        };
        for ty in types {
            if matches!(ty.kind(), TyKind::Param(_)) {
                continue;
            }
            let (needs_drop, stamp) = super::incremental::needs_drop_stamped(db, ty, env);
            self.answers.push(stamp);
            if needs_drop {
                let target = Target::Node(Node::DropGlue(ty));
                if !targets.contains(&target) {
                    targets.push(target);
                }
            }
        }
        targets
    }

    /// The targets of a call through a fn pointer of `signature`.
    pub(crate) fn fn_pointer_targets(&self, signature: &Signature) -> Vec<Target<'db>> {
        tracing::trace!(target: "noalloc_ls::engine::reach", "fn pointer {signature:?} against {} taken: {:?}", self.taken.len(), self.taken.iter().map(|(_, taken)| taken).collect::<Vec<_>>());
        let mut targets: Vec<Target<'db>> = Vec::new();
        for (target, taken) in &self.taken {
            let direct = signature.admits(taken);
            let cast = self.casts.iter().any(|(from, to)| signature.admits(to) && from.admits(taken));
            if (direct || cast) && !targets.contains(target) {
                targets.push(target.clone());
            }
        }
        targets
    }

    /// Whether a pointer of `signature` may come from outside the program.
    pub(crate) fn fn_pointer_from_outside(&self, signature: &Signature) -> bool {
        self.outside.anything
            || self.outside.erased_addresses
            || self.outside.fn_pointers.iter().any(|outside| outside.admits(signature))
    }
}

/// Whether two `dyn` types of one trait may be the same: their principal traits'
/// arguments (`(usize,)` in `dyn FnMut(usize) -> bool`) may be the same types,
/// position by position. Where either is not a `dyn` with a principal, yes.
fn trait_arguments_may_equal<'db>(db: &dyn HirDatabase, a: Ty<'db>, b: Ty<'db>) -> bool {
    fn principal_args<'db>(ty: Ty<'db>) -> Option<Vec<Ty<'db>>> {
        let TyKind::Dynamic(preds, ..) = ty.kind() else { return None };
        preds.iter().find_map(|pred| match pred.skip_binder() {
            rustc_type_ir::ExistentialPredicate::Trait(trait_ref) => {
                Some(trait_ref.args.as_slice().iter().filter_map(|arg| arg.ty()).collect())
            }
            _ => None,
        })
    }
    match (principal_args(a), principal_args(b)) {
        (Some(xs), Some(ys)) => {
            xs.len() != ys.len()
                || xs
                    .iter()
                    .zip(&ys)
                    .all(|(x, y)| super::walk::type_shape(db, *x).may_equal(&super::walk::type_shape(db, *y)))
        }
        _ => true,
    }
}

pub(crate) fn trait_or_super(db: &dyn HirDatabase, coerced: TraitId, called: TraitId) -> bool {
    coerced == called || hir_ty::all_super_traits(db, coerced).contains(&called)
}

/// Every impl of `trait_` in the crate graph, at `method` (called on a `dyn` at
/// `args`): the impl's own item at its own parameters, or, for an impl that
/// inherits the trait's default body, that body at the impl's `Self` (its calls on
/// `self` then resolve to that impl's items).
fn all_impls<'db>(
    graph: &mut CallGraph<'db>,
    method: FunctionId,
    trait_: TraitId,
    args: GenericArgs<'db>,
    env: ParamEnvAndCrate<'db>,
) -> Vec<Target<'db>> {
    let db = graph.db;
    let interner = graph.interner;
    let trait_params = GenericArgs::identity_for_item(interner, SolverDefId::TraitId(trait_)).len();
    let method_args: Vec<_> = match args.as_slice().get(trait_params..) {
        Some(method_args) => method_args.to_vec(),
        None => GenericArgs::identity_for_item(interner, SolverDefId::FunctionId(method)).as_slice()[trait_params..]
            .to_vec(),
    };
    let called_dyn =
        args.as_slice().first().and_then(|arg| arg.ty()).filter(|ty| matches!(ty.kind(), TyKind::Dynamic(..)));
    let mut out = Vec::new();
    for impl_ in super::impls::all_for_trait(db, trait_) {
        let Ok(id) = hir_def::ImplId::try_from(impl_) else { continue };
        if let Some(item) = super::impls::impl_item(db, id, method) {
            let mut args = super::impls::own_args(interner, SolverDefId::FunctionId(item));
            // A forwarding impl (`impl<T: Log + ?Sized> Log for &T`, `Box<T>`,
            // `Arc<T>`): what stands behind it from outside is again any value
            // of the trait, so its parameter is the `dyn` itself, and its call on
            // `T` a `dyn` call resolved as this one is.
            if let (Some(called_dyn), Some(index)) = (called_dyn, forwarded_param(db, id)) {
                let mut own: Vec<_> = args.as_slice().to_vec();
                if index < own.len() {
                    own[index] = called_dyn.into();
                    args = GenericArgs::new_from_slice(&own);
                }
            }
            out.extend(graph.resolve_call(item, args, env));
            continue;
        }
        let Some(impl_trait) = db.impl_trait(id) else { continue };
        let impl_ref =
            impl_trait.instantiate(interner, super::impls::own_args(interner, SolverDefId::ImplId(id))).skip_norm_wip();
        let args = GenericArgs::new_from_iter(interner, impl_ref.args.iter().chain(method_args.iter().copied()));
        for target in graph.resolve_call(method, args, env) {
            if !out.contains(&target) {
                out.push(target);
            }
        }
    }
    out
}

/// The index of the impl's type parameter its self type points at (`&T`, `&mut
/// T`, `*const T`, or the first type argument of `Box<T>`, `Rc<T>`, `Arc<T>`).
fn forwarded_param(db: &dyn HirDatabase, id: hir_def::ImplId) -> Option<usize> {
    let self_ty = db.impl_self_ty(id).skip_binder();
    let pointee = match self_ty.kind() {
        TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) => inner,
        TyKind::Adt(adt, adt_args) => {
            let hir_def::AdtId::StructId(strukt) = adt.def_id() else { return None };
            let name = hir_def::signatures::StructSignature::of(db, strukt).name.as_str().to_owned();
            if !matches!(name.as_str(), "Box" | "Rc" | "Arc") {
                return None;
            }
            adt_args.as_slice().first()?.ty()?
        }
        _ => return None,
    };
    match pointee.kind() {
        TyKind::Param(param) => Some(param.index as usize),
        _ => None,
    }
}

/// How many impls of a trait a `dyn` from outside is resolved to, each walked at
/// its own parameters; past it, the call or drop has no known callee.
const MAX_OUTSIDE_IMPLS: usize = 64;

/// How many functions an initialiser's calls are followed into for what they put
/// in its value.
const MAX_INITIALISER_CALLEES: usize = 256;

/// The functions and closures a walked body calls.
fn callees<'a, 'db>(walked: &'a Walked<'db>) -> impl Iterator<Item = Node<'db>> + 'a {
    walked.edges.iter().filter_map(|edge| match edge.target {
        Target::Node(node @ (Node::Fn { .. } | Node::Closure { .. })) => Some(node),
        _ => None,
    })
}

/// What the root receives from its caller: the `dyn` traits and fn-pointer
/// signatures its parameters hold, through references, type arguments and fields.
pub(crate) fn outside_of_params<'db>(
    graph: &mut CallGraph<'db>,
    func: FunctionId,
    args: GenericArgs<'db>,
    env: ParamEnvAndCrate<'db>,
) -> Outside {
    let db = graph.db;
    let sig = db.callable_item_signature(func.into()).instantiate(graph.interner, args).skip_norm_wip().skip_binder();
    let mut out = Outside::default();
    let mut seen = FxHashSet::default();
    for &param in sig.inputs().iter() {
        collect_outside(graph, param, env, &mut out, &mut seen, 0, Sealing::On);
    }
    out
}

/// Whether a value of `ty` can change behind a shared reference: it holds an
/// `UnsafeCell` (through fields, type arguments, references and pointers).
pub(crate) fn holds_unsafe_cell<'db>(
    graph: &mut CallGraph<'db>,
    ty: Ty<'db>,
    env: ParamEnvAndCrate<'db>,
    seen: &mut FxHashSet<Ty<'db>>,
    depth: usize,
    normalized: &mut bool,
) -> bool {
    // Past the depth bound, taken as able to change (the sound side).
    if depth > 8 {
        return true;
    }
    if !seen.insert(ty) {
        return false;
    }
    match ty.kind() {
        TyKind::Adt(adt, args) => {
            if let hir_def::AdtId::StructId(id) = adt.def_id() {
                if hir_def::signatures::StructSignature::of(graph.db, id)
                    .flags
                    .contains(hir_def::signatures::StructFlags::IS_UNSAFE_CELL)
                {
                    return true;
                }
            }
            let fields = graph.field_types_noting_aliases(ty, env, normalized);
            args.as_slice()
                .iter()
                .filter_map(|arg| arg.ty())
                .any(|t| holds_unsafe_cell(graph, t, env, seen, depth + 1, normalized))
                || fields.into_iter().any(|t| holds_unsafe_cell(graph, t, env, seen, depth + 1, normalized))
        }
        TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) | TyKind::Slice(inner) | TyKind::Array(inner, _) => {
            holds_unsafe_cell(graph, inner, env, seen, depth + 1, normalized)
        }
        TyKind::Tuple(tys) => tys.iter().any(|t| holds_unsafe_cell(graph, t, env, seen, depth + 1, normalized)),
        _ => false,
    }
}

/// Whether `collect_outside` notes sealed fields (`sealed_fields`) or looks into
/// them: a value the type system tracked keeps its sealed fields' stores; one made
/// out of untracked memory (`Walked::untyped`) may hold anything in any field.
#[derive(Clone, Copy)]
enum Sealing {
    On,
    Off,
}

/// How far into a value's type `collect_outside` looks (references, type arguments
/// and fields, breadth first); past it, the value may hold anything.
const MAX_OUTSIDE_DEPTH: usize = 32;

/// What a value of `ty` from outside may hold: the `dyn` traits and fn-pointer
/// signatures in it. Breadth first, so a type is looked into at the least depth it
/// has. What it cannot see into (past the depth bound, a projection it cannot
/// normalise, an opaque type) may hold anything (`Outside::anything`). A type
/// parameter holds nothing it knows of: calls on it are calls on a type parameter.
/// With `Sealing::On`, a sealed field is noted (`Outside::sealed`), not looked into.
fn collect_outside<'db>(
    graph: &mut CallGraph<'db>,
    ty: Ty<'db>,
    env: ParamEnvAndCrate<'db>,
    out: &mut Outside,
    seen: &mut FxHashSet<Ty<'db>>,
    depth: usize,
    sealing: Sealing,
) {
    let mut queue: std::collections::VecDeque<(Ty<'db>, usize)> = std::collections::VecDeque::from([(ty, depth)]);
    while let Some((ty, depth)) = queue.pop_front() {
        if !seen.insert(ty) {
            continue;
        }
        if depth > MAX_OUTSIDE_DEPTH {
            out.anything = true;
            continue;
        }
        match ty.kind() {
            TyKind::Dynamic(preds, ..) => {
                match dyn_principal(ty) {
                    Some(t) => {
                        out.dyn_traits.insert(t);
                    }
                    None => out.auto_dyn = true,
                }
                // What its associated types are bound to comes from outside too
                // (`dyn Iterator<Item = Box<dyn Handler>>`).
                for pred in preds.iter() {
                    if let rustc_type_ir::ExistentialPredicate::Projection(projection) = pred.skip_binder() {
                        if let Some(t) = projection.term.as_type() {
                            queue.push_back((t, depth + 1));
                        }
                    }
                }
            }
            TyKind::FnPtr(..) => {
                if let Some(signature) = super::walk::signature_of(graph.db, graph.interner, ty) {
                    if !out.fn_pointers.contains(&signature) {
                        out.fn_pointers.push(signature);
                    }
                }
            }
            TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) | TyKind::Slice(inner) | TyKind::Array(inner, _) => {
                queue.push_back((inner, depth + 1))
            }
            TyKind::Adt(adt, args) => {
                for arg in args.as_slice() {
                    if let Some(t) = arg.ty() {
                        queue.push_back((t, depth + 1));
                    }
                }
                let fields = graph.field_types_noting_aliases(ty, env, &mut out.normalized);
                let struct_fields = match (sealing, adt.def_id()) {
                    (Sealing::On, hir_def::AdtId::StructId(id)) => Some(hir_def::VariantId::from(id)),
                    _ => None,
                };
                for (i, field) in fields.into_iter().enumerate() {
                    if let Some(parent) = struct_fields {
                        let declared = graph.db.field_types(parent);
                        if let Some((local_id, declared)) = declared.iter().nth(i) {
                            let id = hir_def::FieldId { parent, local_id };
                            let declared = declared.ty().skip_binder();
                            if super::sealed_fields::is_sealed(graph, id, declared, env) {
                                if !out.sealed.contains(&id) {
                                    out.sealed.push(id);
                                }
                                continue;
                            }
                        }
                    }
                    queue.push_back((field, depth + 1));
                }
            }
            TyKind::Tuple(tys) => {
                for t in tys.iter() {
                    queue.push_back((t, depth + 1));
                }
            }
            TyKind::Alias(alias) => {
                out.normalized = true;
                let normalized =
                    super::subst::Instantiate::new(graph.interner, env, GenericArgs::new_from_slice(&[])).ty(ty);
                if normalized != ty {
                    queue.push_back((normalized, depth));
                } else if !(matches!(alias.kind, AliasTyKind::Projection { .. }) && ty.has_param()) {
                    // A projection on a type parameter is one: calls on it are
                    // calls on a type parameter. Anything else unseen may hold
                    // anything.
                    out.anything = true;
                }
            }
            _ => {}
        }
    }
}
