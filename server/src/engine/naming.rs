//! The names users read: crate-qualified paths of functions (`krate::m::Type::method`,
//! `alloc::vec::Vec::<u32>::push`), of closures and of types. Display only.

use hir_def::{
    AdtId, FunctionId, ItemContainerId, Lookup, ModuleId, TraitId,
    signatures::FunctionSignature,
};
use hir_ty::{
    db::HirDatabase,
    display::{DisplayTarget, HirDisplay},
    next_solver::{GenericArgs, Ty, TyKind},
};
use rustc_type_ir::inherent::IntoKind;


/// `krate::a::b` for a module.
pub(crate) fn module_path(db: &dyn HirDatabase, module: ModuleId) -> String {
    let module = hir::Module::from(module);
    let krate = module.krate(db);
    let crate_name = krate
        .display_name(db)
        .map(|name| name.crate_name().to_string())
        .unwrap_or_else(|| "<crate>".to_owned());
    let mut parts = vec![crate_name];
    let mut chain = module.path_to_root(db);
    chain.reverse();
    parts.extend(chain.into_iter().filter_map(|m| m.name(db)).map(|n| n.as_str().to_owned()));
    parts.join("::")
}

pub(crate) fn ty_name(db: &dyn HirDatabase, ty: Ty<'_>) -> String {
    let krate = base_db::all_crates(db).first().copied();
    match krate {
        Some(krate) => ty.display(db, DisplayTarget::from_crate(db, krate)).to_string(),
        None => format!("{ty:?}"),
    }
}

pub(crate) fn adt_path(db: &dyn HirDatabase, adt: AdtId) -> String {
    let (module, name) = match adt {
        AdtId::StructId(id) => (id.lookup(db).container, hir::Struct::from(id).name(db)),
        AdtId::EnumId(id) => (id.lookup(db).container, hir::Enum::from(id).name(db)),
        AdtId::UnionId(id) => (id.lookup(db).container, hir::Union::from(id).name(db)),
    };
    format!("{}::{}", module_path(db, module), name.as_str())
}

pub(crate) fn trait_path(db: &dyn HirDatabase, trait_: TraitId) -> String {
    let module = trait_.lookup(db).container;
    format!("{}::{}", module_path(db, module), hir::Trait::from(trait_).name(db).as_str())
}

/// The trait that declares `func`, as a path; empty when `func` is not a trait item.
pub(crate) fn trait_path_of(db: &dyn HirDatabase, func: FunctionId) -> String {
    match func.loc(db).container {
        ItemContainerId::TraitId(trait_) => trait_path(db, trait_),
        _ => String::new(),
    }
}

/// A type as a path prefix: `alloc::vec::Vec::<u32>`, or `<u32>` for non-ADTs.
fn type_prefix(db: &dyn HirDatabase, ty: Ty<'_>) -> String {
    match ty.kind() {
        TyKind::Adt(adt, args) => {
            let path = adt_path(db, adt.def_id());
            let shown: Vec<String> = args
                .as_slice()
                .iter()
                .filter_map(|arg| arg.ty())
                .map(|t| ty_name(db, t))
                .filter(|name| name != "Global")
                .collect();
            if shown.is_empty() { path } else { format!("{path}::<{}>", shown.join(", ")) }
        }
        _ => format!("<{}>", ty_name(db, ty)),
    }
}

/// The crate-qualified path of a function; with `args`, generic impl types are shown.
pub(crate) fn fn_path(db: &dyn HirDatabase, func: FunctionId, args: Option<GenericArgs<'_>>) -> String {
    let name = FunctionSignature::of(db, func).name.as_str().to_owned();
    match func.loc(db).container {
        ItemContainerId::ModuleId(module) => format!("{}::{name}", module_path(db, module)),
        ItemContainerId::ExternBlockId(block) => {
            let module = block.lookup(db).container;
            format!("{}::{name}", module_path(db, module))
        }
        ItemContainerId::ImplId(impl_) => {
            let self_ty = db.impl_self_ty(impl_);
            let ty = match args {
                Some(args) => {
                    let interner = hir_ty::next_solver::DbInterner::new_no_crate(db);
                    self_ty.instantiate(interner, args.as_slice()).skip_norm_wip()
                }
                None => self_ty.skip_binder(),
            };
            match (ty.kind(), db.impl_trait(impl_)) {
                // `<u32 as alloc::string::ToString>::to_string`: a type with no path of its own.
                (kind, Some(trait_ref)) if !matches!(kind, TyKind::Adt(..)) => {
                    let trait_ = trait_path(db, trait_ref.skip_binder().def_id.0);
                    format!("<{} as {trait_}>::{name}", ty_name(db, ty))
                }
                (TyKind::Adt(adt, _), _) if args.is_none() => format!("{}::{name}", adt_path(db, adt.def_id())),
                _ => format!("{}::{name}", type_prefix(db, ty)),
            }
        }
        ItemContainerId::TraitId(trait_) => {
            let trait_path = trait_path(db, trait_);
            match args.and_then(|a| a.as_slice().first().and_then(|s| s.ty())) {
                Some(self_ty) if !matches!(self_ty.kind(), TyKind::Param(_)) => {
                    format!("<{} as {trait_path}>::{name}", ty_name(db, self_ty))
                }
                _ => format!("{trait_path}::{name}"),
            }
        }
    }
}

/// The path of the function that holds a body (the owner of a closure).
pub(crate) fn owner_path(db: &dyn HirDatabase, owner: hir_ty::InferBodyId<'_>) -> String {
    match owner {
        hir_ty::InferBodyId::DefWithBodyId(hir_def::DefWithBodyId::FunctionId(func)) => fn_path(db, func, None),
        _ => "<const>".to_owned(),
    }
}
