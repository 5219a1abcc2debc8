//! Which impl's method runs for a trait method call at concrete types when
//! rust-analyzer's `lookup_impl_method` gives up, with std's specialisation
//! (`default fn`) taken into account. `lookup_impl_method` selects the most
//! specific impl but does not look for an item that impl inherits from the impl it
//! specialises (`ZipImpl::fold` for `Zip<slice::Iter, slice::Iter>`: the
//! `TrustedRandomAccess` impl specialises the `TrustedRandomAccessNoCoerce` one,
//! which defines `fold`), and it gives up when the selection is ambiguous.
//!
//! Here every impl whose header unifies with the trait reference is tried with the
//! trait solver: its where-clauses hold, fail, or are left undecided. Of the ones
//! that hold, the one that specialises all the others runs: its item, or else the
//! item of the nearest less specific impl that defines it, or else the trait's
//! default body. When that cannot be decided (an undecided where-clause, no single
//! most specific impl), every candidate may run: each one's item, and the default
//! body if one of them inherits it. Never none: with no impl found, the caller keeps
//! what `lookup_impl_method` answered.
//!
//! A call whose trait reference is still generic (a provided method called on a type
//! parameter, or on a type that holds one: a body walked at its own parameters)
//! is not the trait's default body alone: any impl in the crate graph whose header
//! unifies with it for some choice of the parameters may run. Each one's item runs
//! (at the impl's arguments where the unification settles them, else at its own
//! parameters), and the default body where one inherits it, at that impl's `Self`.
//! Past `MAX_OPEN_CANDIDATES` the call stays open (an empty answer: the caller makes
//! it a call on a type parameter with no known callee).
//!
//! Every impl of a trait that may run is in one of the crates a build links
//! (`all_for_trait`, `linked_crates`), which `resolve` reads for `dyn` calls too.

use std::cmp::Reverse;

use hir::db::HirDatabase;
use hir_def::{signatures::FunctionSignature, AssocItemId, FunctionId, GenericDefId, ImplId, ItemContainerId, TraitId};
use hir_ty::{
    method_resolution::TraitImpls,
    next_solver::{
        infer::{
            traits::{Obligation, ObligationCause},
            DbInternerInferExt, InferCtxt,
        },
        obligation_ctxt::ObligationCtxt,
        AnyImplId, Const, ConstKind, DbInterner, GenericArg, GenericArgs, SimplifiedType, SolverDefId, TraitRef, Ty,
        TyKind, TypingMode, Unnormalized,
    },
    GenericPredicates, ParamEnvAndCrate, Span,
};
use rustc_type_ir::{
    fast_reject::{simplify_type, TreatParams},
    inherent::{GenericArgs as _, IntoKind},
    Interner as _, TypeFlags, TypeFoldable, TypeFolder, TypeSuperFoldable, TypeVisitableExt,
};

/// How many functions a call on a type parameter may resolve to before it is left
/// open (a call with no known callee): `Iterator::fold` on an `I: Iterator` would
/// otherwise walk every iterator of std at its own parameters.
const MAX_OPEN_CANDIDATES: usize = 32;

/// One function that may run for the call, at its generic arguments.
pub(crate) type Candidate<'db> = (FunctionId, GenericArgs<'db>);

/// The database, interner and environment the trait solver works in.
#[derive(Clone, Copy)]
struct Solver<'db> {
    db: &'db dyn HirDatabase,
    interner: DbInterner<'db>,
    env: ParamEnvAndCrate<'db>,
}

/// Whether an impl applies to a trait reference.
enum Applies<'db> {
    /// Its where-clauses hold; the impl's generic arguments.
    Yes(GenericArgs<'db>),
    /// The solver leaves a where-clause undecided.
    Maybe(GenericArgs<'db>),
    No,
}

/// The functions that may run for `func` (a trait method) at `args` (the trait's
/// arguments, `Self` first, then the method's own). `None` when no impl applies or
/// the trait reference is still generic and the method has no default body (a
/// required method called on a type parameter): the caller keeps
/// `lookup_impl_method`'s answer. Empty: a call on a type parameter with too many
/// impls that may run, or on a `Self` no impl is indexed under, left open.
pub(crate) fn candidates<'db>(
    db: &'db dyn HirDatabase,
    interner: DbInterner<'db>,
    env: ParamEnvAndCrate<'db>,
    func: FunctionId,
    args: GenericArgs<'db>,
) -> Option<Vec<Candidate<'db>>> {
    let ItemContainerId::TraitId(trait_) = func.loc(db).container else { return None };
    let trait_params = GenericArgs::identity_for_item(interner, SolverDefId::TraitId(trait_)).len();
    let trait_args = args.as_slice().get(..trait_params)?;
    let method_args = &args.as_slice()[trait_params..];
    let trait_args = GenericArgs::new_from_slice(trait_args);
    let solver = Solver { db, interner, env };
    if trait_args.has_type_flags(TypeFlags::HAS_TY_PARAM | TypeFlags::HAS_CT_PARAM) || trait_args.has_non_region_infer()
    {
        if !FunctionSignature::of(db, func).has_body() {
            return None;
        }
        return Some(open_candidates(solver, trait_, func, args, trait_args, method_args));
    }
    let self_ty = trait_args.as_slice().first()?.ty()?;
    // A `Self` that names no type the impls are indexed under (an opaque type
    // or a projection the solver could not reveal) would have every impl of the
    // trait looked through, which a reach reused across edits is not asked
    // again about: left open, a call with no known callee.
    let Some(simplified) = simplify_type(interner, self_ty, TreatParams::InstantiateWithInfer) else {
        return Some(Vec::new());
    };
    let trait_ref = TraitRef::new_from_args(interner, trait_.into(), trait_args);

    let mut yes: Vec<(ImplId, GenericArgs<'db>)> = Vec::new();
    let mut maybe: Vec<(ImplId, GenericArgs<'db>)> = Vec::new();
    for impl_ in impls_for(solver, trait_, &simplified) {
        match applies(solver, impl_, trait_ref, false) {
            Applies::Yes(impl_args) => yes.push((impl_, impl_args)),
            Applies::Maybe(impl_args) => maybe.push((impl_, impl_args)),
            Applies::No => {}
        }
    }
    if yes.is_empty() && maybe.is_empty() {
        return None;
    }
    let item = |impl_: ImplId| impl_item(db, impl_, func);
    let with_method_args = |impl_args: GenericArgs<'db>| {
        GenericArgs::new_from_iter(interner, impl_args.iter().chain(method_args.iter().copied()))
    };
    let specializes = |a: ImplId, b: ImplId| interner.impl_specializes(AnyImplId::ImplId(a), AnyImplId::ImplId(b));

    if maybe.is_empty() {
        let others_below = |a: ImplId| yes.iter().filter(|&&(b, _)| a != b && specializes(a, b)).count();
        let most_specific = yes.iter().any(|&(a, _)| others_below(a) == yes.len() - 1);
        if most_specific {
            // From the most specific down: the first impl that defines the item.
            let mut chain = yes.clone();
            chain.sort_by_key(|&(impl_, _)| Reverse(others_below(impl_)));
            let found = chain.iter().find_map(|&(impl_, impl_args)| Some((item(impl_)?, with_method_args(impl_args))));
            return Some(vec![found.unwrap_or((func, args))]);
        }
    }
    // Undecided: whatever any candidate would run.
    let mut out: Vec<Candidate<'db>> = Vec::new();
    for &(impl_, impl_args) in yes.iter().chain(&maybe) {
        let candidate = match item(impl_) {
            Some(f) => (f, with_method_args(impl_args)),
            None => (func, args),
        };
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    Some(out)
}

/// `impl_`'s own item for the trait method `func`, if it overrides it.
pub(crate) fn impl_item(db: &dyn HirDatabase, impl_: ImplId, func: FunctionId) -> Option<FunctionId> {
    let name = &FunctionSignature::of(db, func).name;
    impl_.impl_items(db).items.iter().find_map(|(n, item)| match *item {
        AssocItemId::FunctionId(f) if n == name => Some(f),
        _ => None,
    })
}

/// The functions that may run for a provided method `func` whose trait arguments
/// are still generic: every impl in the crate graph that applies for some choice of
/// the parameters, its item or else the default body at its `Self`. Empty past
/// `MAX_OPEN_CANDIDATES`.
fn open_candidates<'db>(
    solver: Solver<'db>,
    trait_: TraitId,
    func: FunctionId,
    args: GenericArgs<'db>,
    trait_args: GenericArgs<'db>,
    method_args: &[GenericArg<'db>],
) -> Vec<Candidate<'db>> {
    let Solver { db, interner, .. } = solver;
    let trait_ref = TraitRef::new_from_args(interner, trait_.into(), trait_args);
    let mut out: Vec<Candidate<'db>> = Vec::new();
    let mut any_impl = false;
    for impl_ in all_for_trait(db, trait_) {
        let Ok(impl_) = ImplId::try_from(impl_) else { continue };
        // `Yes` only where the unification settles every argument of the impl.
        let settled = match applies(solver, impl_, trait_ref, true) {
            Applies::Yes(impl_args) => Some(impl_args),
            Applies::Maybe(_) => None,
            Applies::No => continue,
        };
        any_impl = true;
        let candidate = match (impl_item(db, impl_, func), settled) {
            (Some(f), Some(impl_args)) => {
                (f, GenericArgs::new_from_iter(interner, impl_args.iter().chain(method_args.iter().copied())))
            }
            (Some(f), None) => (f, own_args(interner, SolverDefId::FunctionId(f))),
            // Inherits the default: the default body at the impl's `Self`.
            (None, Some(impl_args)) => match db.impl_trait(impl_) {
                Some(impl_trait) => {
                    let impl_ref = impl_trait.instantiate(interner, impl_args).skip_norm_wip();
                    (
                        func,
                        GenericArgs::new_from_iter(interner, impl_ref.args.iter().chain(method_args.iter().copied())),
                    )
                }
                None => (func, args),
            },
            (None, None) => (func, args),
        };
        if !out.contains(&candidate) {
            out.push(candidate);
            if out.len() > MAX_OPEN_CANDIDATES {
                return Vec::new();
            }
        }
    }
    // No impl in the crate graph: one elsewhere would inherit the default.
    if !any_impl {
        out.push((func, args));
    }
    out
}

/// An item's own generic parameters as its arguments, to walk it at them, but for
/// its const parameters, which become error consts: the root's environment does
/// not declare them, and rust-analyzer's trait solver panics on a const parameter
/// whose type no environment gives (`ConstArgHasType`); it takes an error const as
/// well-typed.
pub(crate) fn own_args<'db>(interner: DbInterner<'db>, def: SolverDefId<'db>) -> GenericArgs<'db> {
    let identity = GenericArgs::identity_for_item(interner, def);
    if !identity.has_type_flags(TypeFlags::HAS_CT_PARAM) {
        return identity;
    }
    GenericArgs::new_from_iter(
        interner,
        identity.iter().map(|arg| match arg.konst() {
            Some(ct) if matches!(ct.kind(), ConstKind::Param(_)) => GenericArg::from(Const::error(interner)),
            _ => arg,
        }),
    )
}

/// Replaces the type and const parameters, inference variables and projections of
/// a trait reference with fresh inference variables: what it may be for some
/// choice of them.
struct Opened<'a, 'db> {
    infcx: &'a InferCtxt<'db>,
}

impl<'db> TypeFolder<DbInterner<'db>> for Opened<'_, 'db> {
    fn cx(&self) -> DbInterner<'db> {
        self.infcx.interner
    }

    fn fold_ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
        match ty.kind() {
            TyKind::Param(_) | TyKind::Infer(_) | TyKind::Alias(..) => self.infcx.next_ty_var(Span::Dummy),
            _ => ty.super_fold_with(self),
        }
    }

    fn fold_const(&mut self, ct: Const<'db>) -> Const<'db> {
        match ct.kind() {
            ConstKind::Param(_) | ConstKind::Infer(_) => self.infcx.next_const_var(Span::Dummy),
            _ => ct.super_fold_with(self),
        }
    }
}

/// The impls of `trait_` in the crate and its dependencies that may be for a
/// type simplified to `self_ty`: those indexed under it, and the blanket ones.
fn impls_for<'db>(solver: Solver<'db>, trait_: TraitId, self_ty: &SimplifiedType<'db>) -> Vec<ImplId> {
    let mut out = Vec::new();
    for impls in TraitImpls::for_crate_and_deps(solver.db, solver.env.krate) {
        out.extend_from_slice(impls.for_trait_and_self_ty(trait_, self_ty).0);
        out.extend_from_slice(impls.blanket_impls(trait_));
    }
    out
}

/// The crates a build of the workspace may link: its own and every crate they
/// depend on. The crate graph holds more: what only procedural macros depend on
/// (`syn`, `quote`: left out of their dependencies, `load`), which runs in the
/// compiler, not in the program. A query, so that a walk that reads it depends on
/// the crate graph once.
#[salsa::tracked(returns(ref))]
pub fn linked_crates(db: &dyn HirDatabase) -> rustc_hash::FxHashSet<base_db::Crate> {
    let mut linked = rustc_hash::FxHashSet::default();
    let mut stack = crate::engine::load::workspace_crates(db);
    while let Some(krate) = stack.pop() {
        if linked.insert(krate) {
            stack.extend(krate.data(db).dependencies.iter().map(|dep| dep.crate_id));
        }
    }
    linked
}

/// Every impl of `trait_` that may run: in the linked crates (`linked_crates`)
/// that depend on the trait's crate, and in the block that defines the trait.
/// rust-analyzer's `Impl::all_for_trait` reads every crate of the graph, building
/// the def maps of the unlinked ones on first use (`syn`'s: 0.15 s of the first
/// analysis of `specifics`).
pub fn all_for_trait(db: &dyn HirDatabase, trait_: TraitId) -> Vec<hir::Impl> {
    let module = hir_def::Lookup::lookup(&trait_, db).container;
    let linked = linked_crates(db);
    let mut all = Vec::new();
    let mut collect = |impls: &TraitImpls<'_>| {
        impls.for_trait(trait_, |impls| match impls {
            either::Either::Left(impls) => all.extend(impls.iter().copied().map(hir::Impl::from)),
            either::Either::Right(impls) => all.extend(impls.iter().copied().map(hir::Impl::from)),
        });
    };
    for krate in module.krate(db).transitive_rev_deps(db) {
        if linked.contains(&krate) {
            collect(TraitImpls::for_crate(db, krate));
        }
    }
    if let Some(impls) = module.block(db).and_then(|block| TraitImpls::for_block(db, block)) {
        collect(impls);
    }
    all
}

/// Whether `impl_`'s header unifies with `trait_ref` and its where-clauses hold.
/// `open`: for some choice of `trait_ref`'s parameters (`Opened`).
fn applies<'db>(solver: Solver<'db>, impl_: ImplId, trait_ref: TraitRef<'db>, open: bool) -> Applies<'db> {
    let Solver { db, interner, env } = solver;
    let Some(impl_trait) = db.impl_trait(impl_) else { return Applies::No };
    let infcx = interner.infer_ctxt().build(TypingMode::PostAnalysis);
    let trait_ref = if open { trait_ref.fold_with(&mut Opened { infcx: &infcx }) } else { trait_ref };
    let fresh = infcx.fresh_args_for_item(Span::Dummy, SolverDefId::ImplId(impl_));
    let impl_ref = impl_trait.instantiate(interner, fresh).skip_norm_wip();
    let cause = ObligationCause::dummy();
    let mut ocx = ObligationCtxt::new(&infcx);
    if ocx.eq(&cause, env.param_env, trait_ref, impl_ref).is_err() {
        return Applies::No;
    }
    for clause in GenericPredicates::query_all(db, GenericDefId::ImplId(impl_))
        .iter_instantiated(interner, fresh.as_slice())
        .map(Unnormalized::skip_norm_wip)
    {
        ocx.register_obligation(Obligation::new(interner, cause, env.param_env, clause));
    }
    if !ocx.try_evaluate_obligations().is_empty() {
        return Applies::No;
    }
    let undecided = !ocx.into_pending_obligations().is_empty();
    let impl_args = infcx.resolve_vars_if_possible(fresh);
    let settled = !impl_args.has_non_region_infer();
    let impl_args = GenericArgs::new_from_iter(
        interner,
        impl_args.iter().map(|arg| match arg.ty() {
            Some(ty) => GenericArg::from(ty.replace_infer_with_error(interner)),
            None => arg,
        }),
    );
    if undecided || !settled {
        Applies::Maybe(impl_args)
    } else {
        Applies::Yes(impl_args)
    }
}
