//! Instantiating a caller's types into a callee: replaces generic parameters with the
//! arguments of the instance being walked and normalizes projections
//! (`<Vec<u8> as IntoIterator>::IntoIter`). Knows nothing of calls or allocation.

use hir_ty::{
    ParamEnvAndCrate,
    next_solver::{
        Const, ConstKind, DbInterner, GenericArgs, Region, RegionKind, Ty, TyKind, TypingMode,
        infer::{DbInternerInferExt, InferCtxt, traits::ObligationCause},
        obligation_ctxt::ObligationCtxt,
    },
};
use rustc_type_ir::{TypeFlags, TypeFoldable, TypeFolder, TypeSuperFoldable, TypeVisitableExt, inherent::IntoKind};

/// Substitutes `args` for the generic parameters of one instance and normalizes what
/// becomes normalizable. Parameters beyond `args` are left as they are (a generic root).
pub(crate) struct Instantiate<'db> {
    infcx: InferCtxt<'db>,
    env: ParamEnvAndCrate<'db>,
    args: GenericArgs<'db>,
}

impl<'db> Instantiate<'db> {
    pub(crate) fn new(interner: DbInterner<'db>, env: ParamEnvAndCrate<'db>, args: GenericArgs<'db>) -> Self {
        let infcx = interner.infer_ctxt().build(TypingMode::PostAnalysis);
        Instantiate { infcx, env, args }
    }

    pub(crate) fn ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
        ty.fold_with(self)
    }

    pub(crate) fn args(&mut self, args: GenericArgs<'db>) -> GenericArgs<'db> {
        args.fold_with(self)
    }
}

impl<'db> TypeFolder<DbInterner<'db>> for Instantiate<'db> {
    fn cx(&self) -> DbInterner<'db> {
        self.infcx.interner
    }

    fn fold_ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
        if !ty.has_type_flags(TypeFlags::HAS_ALIAS | TypeFlags::HAS_PARAM) {
            return ty;
        }
        match ty.kind() {
            TyKind::Alias(..) => {
                let ty = ty.super_fold_with(self);
                let mut ocx = ObligationCtxt::new(&self.infcx);
                match ocx.structurally_normalize_ty(&ObligationCause::dummy(), self.env.param_env, ty) {
                    Ok(normalized) => {
                        let normalized = normalized.replace_infer_with_error(self.infcx.interner);
                        if normalized == ty { ty } else { normalized.super_fold_with(self) }
                    }
                    Err(_) => ty,
                }
            }
            TyKind::Param(param) => match self.args.as_slice().get(param.index as usize).and_then(|arg| arg.ty()) {
                Some(arg) => arg,
                None => ty,
            },
            _ => ty.super_fold_with(self),
        }
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
