//! Instantiating a caller's types into a callee: replaces generic parameters with the
//! arguments of the instance being walked and normalizes projections
//! (`<Vec<u8> as IntoIterator>::IntoIter`). Knows nothing of calls or allocation.

use hir_ty::{
    next_solver::{
        infer::{traits::ObligationCause, DbInternerInferExt, InferCtxt},
        obligation_ctxt::ObligationCtxt,
        Const, ConstKind, DbInterner, ErrorGuaranteed, GenericArgs, Region, RegionKind, Ty, TyKind, TypingMode,
    },
    ParamEnvAndCrate,
};
use std::ops::ControlFlow;

use rustc_type_ir::{
    inherent::{Const as _, IntoKind, Ty as _},
    TypeFlags, TypeFoldable, TypeFolder, TypeSuperFoldable, TypeSuperVisitable, TypeVisitable, TypeVisitableExt,
    TypeVisitor,
};

/// Substitutes `args` for the generic parameters of one instance and normalizes what
/// becomes normalizable. Parameters beyond `args` are left as they are (a generic root).
pub(crate) struct Instantiate<'db> {
    infcx: InferCtxt<'db>,
    env: ParamEnvAndCrate<'db>,
    args: GenericArgs<'db>,
    /// How many normalizations the fold is inside: a projection whose
    /// normal form holds another to normalize, and so on without end (a type
    /// that grows with each step), stops at `MAX_NORMALIZING_DEPTH`.
    normalizing: usize,
    /// The normalizations the fold of one type may still ask for
    /// (`NORMALIZATIONS_PER_FOLD`): normal forms that each hold several
    /// projections to normalize multiply, even within the depth bound.
    normalizations_left: usize,
    /// Each type folded so far, and what it became: the arguments never
    /// change, so neither does a type's instance. A fold that a bound cut
    /// short is not kept (`cuts`): asked elsewhere, it may go further.
    folded: rustc_hash::FxHashMap<Ty<'db>, Ty<'db>>,
    /// How many times a bound left a projection as it was.
    cuts: usize,
}

/// How deeply normalizations may nest inside one another in one fold. Past it the
/// projection is left as it is, which stands for any type (`resolve`): the sound
/// side.
const MAX_NORMALIZING_DEPTH: usize = 32;

/// How many normalizations the fold of one type or argument list may ask for;
/// past it, projections are left as they are (the sound side, as above).
const NORMALIZATIONS_PER_FOLD: usize = 4096;

impl<'db> Instantiate<'db> {
    pub(crate) fn new(interner: DbInterner<'db>, env: ParamEnvAndCrate<'db>, args: GenericArgs<'db>) -> Self {
        let infcx = interner.infer_ctxt().build(TypingMode::PostAnalysis);
        Instantiate { infcx, env, args, normalizing: 0, normalizations_left: 0, folded: Default::default(), cuts: 0 }
    }

    pub(crate) fn ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
        self.normalizations_left = NORMALIZATIONS_PER_FOLD;
        ty.fold_with(self)
    }

    pub(crate) fn args(&mut self, args: GenericArgs<'db>) -> GenericArgs<'db> {
        self.normalizations_left = NORMALIZATIONS_PER_FOLD;
        args.fold_with(self)
    }

    /// The const a path to associated const `id` at `args` (instantiated) reads:
    /// for a trait's const, the one of the impl the arguments select, when the
    /// solver selects one (else the trait's own, whose default may not be what
    /// runs: `None`).
    pub(crate) fn impl_const(
        &mut self,
        id: hir_def::ConstId,
        args: GenericArgs<'db>,
    ) -> Option<(hir_def::ConstId, GenericArgs<'db>)> {
        let db = self.infcx.interner.db();
        let in_trait = matches!(id.loc(db).container, hir_def::ItemContainerId::TraitId(_));
        let (found, found_args) =
            hir_ty::method_resolution::lookup_impl_const(&self.infcx, self.env.param_env, id, args);
        (!in_trait || found != id).then(|| (found, settled(self.infcx.interner, found_args)))
    }

    /// `fold_ty`, worked out.
    fn fold_ty_uncached(&mut self, ty: Ty<'db>) -> Ty<'db> {
        match ty.kind() {
            TyKind::Alias(..) if self.normalizing >= MAX_NORMALIZING_DEPTH || self.normalizations_left == 0 => {
                self.cuts += 1;
                ty
            }
            TyKind::Alias(..) => {
                self.normalizations_left -= 1;
                let ty = ty.super_fold_with(self);
                let mut ocx = ObligationCtxt::new(&self.infcx);
                match ocx.structurally_normalize_ty(&ObligationCause::dummy(), self.env.param_env, ty) {
                    Ok(normalized) => {
                        let normalized = normalized.replace_infer_with_error(self.infcx.interner);
                        if normalized == ty {
                            return ty;
                        }
                        self.normalizing += 1;
                        let folded = normalized.super_fold_with(self);
                        self.normalizing -= 1;
                        folded
                    }
                    Err(_) => {
                        // `NOALLOC_LOG=noalloc_ls::engine::subst=debug`: how often.
                        tracing::debug!("normalizing {ty:?} failed: the thread's solver cache is emptied");
                        forget_solver_cache(self.infcx.interner, self.env);
                        ty
                    }
                }
            }
            TyKind::Param(param) => match self.args.as_slice().get(param.index as usize).and_then(|arg| arg.ty()) {
                Some(arg) => arg,
                None => ty,
            },
            _ => ty.super_fold_with(self),
        }
    }
}

/// `args` with no inference variable left: a region variable is erased, a type
/// or const variable an error. rust-analyzer's `lookup_impl_method` answers with
/// the impl's arguments as its own inference context left them (a region
/// variable where the impl's lifetime was not pinned down: `Buf<'?0>` for
/// `impl Write for Buf<'_>`); handed on, such a variable names nothing in the
/// next context, whose solver panics looking it up. Every instance the walk
/// keeps, and every call it resolves, goes through here.
pub(crate) fn settled<'db>(interner: DbInterner<'db>, args: GenericArgs<'db>) -> GenericArgs<'db> {
    if !args.has_infer() {
        return args;
    }
    struct Settle<'db>(DbInterner<'db>);
    impl<'db> TypeFolder<DbInterner<'db>> for Settle<'db> {
        fn cx(&self) -> DbInterner<'db> {
            self.0
        }
        fn fold_ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
            match ty.kind() {
                _ if !ty.has_infer() => ty,
                TyKind::Infer(_) => Ty::new_error(self.0, ErrorGuaranteed),
                _ => ty.super_fold_with(self),
            }
        }
        fn fold_const(&mut self, ct: Const<'db>) -> Const<'db> {
            match ct.kind() {
                _ if !ct.has_infer() => ct,
                ConstKind::Infer(_) => Const::new_error(self.0, ErrorGuaranteed),
                _ => ct.super_fold_with(self),
            }
        }
        fn fold_region(&mut self, region: Region<'db>) -> Region<'db> {
            if let RegionKind::ReVar(_) = region.kind() {
                Region::new_erased(self.0)
            } else {
                region
            }
        }
    }
    args.fold_with(&mut Settle(interner))
}

/// How large the types in a value are: how deeply they nest (`Vec<Option<u8>>`:
/// 3), how many types it takes to write them out (`((T, T), (T, T))`: 7), and
/// how often one type constructor nests inside itself along one path
/// (`Vec<Vec<Vec<u8>>>`: 3), each counted up to a cap (past it, the cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TypeExtent {
    pub depth: usize,
    pub written: usize,
    pub self_nesting: usize,
}

/// The `TypeExtent` of `value`, each figure counted up to `cap`. Each distinct
/// type is measured once, so a type whose parts repeat costs its distinct parts
/// to measure, not its written size (a part met again counts for its depth and
/// size, and for its self-nesting only where it was first met).
pub(crate) fn extent<'db, T: TypeVisitable<DbInterner<'db>>>(value: &T, cap: TypeExtent) -> TypeExtent {
    struct Measure<'db> {
        /// Depth of the type being measured, and the extent of its parts so far.
        now: usize,
        parts: TypeExtent,
        cap: TypeExtent,
        /// The type constructors on the path from the top, each with how often.
        on_path: rustc_hash::FxHashMap<hir_def::AdtId, usize>,
        self_nesting: usize,
        measured: rustc_hash::FxHashMap<Ty<'db>, TypeExtent>,
    }
    impl<'db> TypeVisitor<DbInterner<'db>> for Measure<'db> {
        type Result = ControlFlow<()>;
        fn visit_ty(&mut self, ty: Ty<'db>) -> ControlFlow<()> {
            let own = match self.measured.get(&ty) {
                Some(&own) => own,
                None => {
                    let outer = (self.now, self.parts);
                    (self.now, self.parts) = (self.now + 1, TypeExtent { depth: 0, written: 0, self_nesting: 0 });
                    if self.now >= self.cap.depth {
                        return ControlFlow::Break(());
                    }
                    let adt = match ty.kind() {
                        TyKind::Adt(adt, _) => Some(adt.def_id()),
                        _ => None,
                    };
                    if let Some(adt) = adt {
                        let times = self.on_path.entry(adt).or_default();
                        *times += 1;
                        self.self_nesting = self.self_nesting.max(*times);
                        if self.self_nesting >= self.cap.self_nesting {
                            return ControlFlow::Break(());
                        }
                    }
                    let inner = ty.super_visit_with(self);
                    if let Some(adt) = adt {
                        *self.on_path.get_mut(&adt).expect("counted above") -= 1;
                    }
                    let own =
                        TypeExtent { depth: 1 + self.parts.depth, written: 1 + self.parts.written, self_nesting: 0 };
                    (self.now, self.parts) = outer;
                    inner?;
                    self.measured.insert(ty, own);
                    own
                }
            };
            self.parts.depth = self.parts.depth.max(own.depth);
            self.parts.written = self.parts.written.saturating_add(own.written);
            let too_deep = self.now + own.depth >= self.cap.depth;
            if too_deep || self.parts.written >= self.cap.written {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    let empty = TypeExtent { depth: 0, written: 0, self_nesting: 0 };
    let mut measure = Measure {
        now: 0,
        parts: empty,
        cap,
        on_path: Default::default(),
        self_nesting: 0,
        measured: Default::default(),
    };
    match value.visit_with(&mut measure) {
        ControlFlow::Continue(()) => TypeExtent { self_nesting: measure.self_nesting, ..measure.parts },
        ControlFlow::Break(()) => cap,
    }
}

/// How large the types of an instance or a call may be before the walk stops
/// there and reports it: a type constructor nested inside itself more than 16
/// times along one path, types nested more than 128 deep, or more than 1,048,576
/// types written out. Past this, the instances are growing without end
/// (`ArrayVec<ArrayVec<..<T, CAP>..>>`, polymorphic recursion through a trait's
/// impls), and every fold of them, ours and the trait solver's, recurses until
/// the stack runs out or takes time exponential in their depth. rustc bounds
/// the same (`recursion_limit`, `type_length_limit`); iterator adapters and
/// closures nest deep, but rarely one type inside itself.
pub(crate) const MAX_TYPE_EXTENT: TypeExtent = TypeExtent { depth: 128, written: 1 << 20, self_nesting: 16 };

/// Whether the types of `value` are larger than `MAX_TYPE_EXTENT`.
pub(crate) fn too_large_types<'db, T: TypeVisitable<DbInterner<'db>>>(value: &T) -> bool {
    let max = MAX_TYPE_EXTENT;
    let cap = TypeExtent { depth: max.depth + 1, written: max.written + 1, self_nesting: max.self_nesting + 1 };
    let extent = extent(value, cap);
    extent.depth > max.depth || extent.written > max.written || extent.self_nesting > max.self_nesting
}

/// Empties this thread's trait-solver cache: after a normalization of ours
/// failed, or a panic left a solve half-done. rust-analyzer 0.0.348's solver keeps its answers in a cache per
/// thread, shared by every inference that thread runs, and a normalization
/// outside a body can fail where the same goal inside one holds: `precision`'s
/// `<[u32; 4] as smallvec::Array>::Item`, normalized before any body had
/// solved it (depending on where the workspace lies on disk), failed, and
/// the next inference on that thread then left `SmallVec::extend_from_slice`
/// unresolved; asked after an inference had solved it, it gives `u32`. Kept,
/// the failure would make a body's inference depend on which thread walked
/// what before it (`walk_ahead`). Few normalizations fail (a cold check of
/// `specifics` none, of `soundness` two, of `precision` none to three,
/// depending on which thread got where first), so the cache is rarely lost.
/// Ours stays failed: the alias it leaves stands for anything (`resolve`),
/// the sound side. The emptied cache is set up again for the
/// database and revision at hand, as rust-analyzer's solver expects of the
/// cache of a solve under way.
pub(crate) fn forget_solver_cache(interner: DbInterner<'_>, env: ParamEnvAndCrate<'_>) {
    hir_ty::next_solver::clear_tls_solver_cache();
    DbInterner::new_with(interner.db(), env.krate);
}

impl<'db> TypeFolder<DbInterner<'db>> for Instantiate<'db> {
    fn cx(&self) -> DbInterner<'db> {
        self.infcx.interner
    }

    fn fold_ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
        if !ty.has_type_flags(TypeFlags::HAS_ALIAS | TypeFlags::HAS_PARAM) {
            return ty;
        }
        if let Some(&folded) = self.folded.get(&ty) {
            return folded;
        }
        let cuts_before = self.cuts;
        let folded = self.fold_ty_uncached(ty);
        if self.cuts == cuts_before {
            self.folded.insert(ty, folded);
        }
        folded
    }

    fn fold_const(&mut self, ct: Const<'db>) -> Const<'db> {
        let ConstKind::Param(param) = ct.kind() else {
            return ct.super_fold_with(self);
        };
        self.args.as_slice().get(param.index as usize).and_then(|arg| arg.konst()).unwrap_or(ct)
    }

    fn fold_region(&mut self, region: Region<'db>) -> Region<'db> {
        let RegionKind::ReEarlyParam(param) = region.kind() else {
            return region;
        };
        self.args.as_slice().get(param.index as usize).and_then(|arg| arg.region()).unwrap_or(region)
    }
}
