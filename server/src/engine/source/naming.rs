//! The names users read: crate-qualified paths of functions (`krate::m::Type::method`,
//! `alloc::vec::Vec::<u32>::push`), of closures and of types. Code outside the
//! workspace is named by the public path its crate exports it under, from
//! rust-analyzer's import map (`core::iter::IntoIterator`, not
//! `core::iter::traits::collect::IntoIterator`), so reasons and the baseline keys
//! made of them name nothing std keeps internally; where there is no public path,
//! the path where it is defined. Display only: identities are `identity`'s.

use hir_def::{
    import_map::ImportMap, item_scope::ItemInNs, signatures::FunctionSignature, AdtId, FunctionId, ItemContainerId,
    Lookup, ModuleDefId, ModuleId, TraitId,
};
use hir_ty::{
    db::HirDatabase,
    display::{DisplayTarget, HirDisplay},
    next_solver::{GenericArgs, Ty, TyKind},
};
use rustc_type_ir::inherent::IntoKind;

/// A crate's own name as paths spell it (`memchr`, `vendored_probe`).
pub(crate) fn crate_name(db: &dyn HirDatabase, krate: base_db::Crate) -> String {
    hir::Crate::from(krate)
        .display_name(db)
        .map(|name| name.crate_name().to_string())
        .unwrap_or_else(|| "<crate>".to_owned())
}

/// `krate::a::b` for a module.
pub(crate) fn module_path(db: &dyn HirDatabase, module: ModuleId) -> String {
    let module = hir::Module::from(module);
    let mut parts = vec![crate_name(db, module.krate(db).into())];
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

/// The public path of an item outside the workspace: the shortest path its own
/// crate exports it under (`core::iter::IntoIterator`, where it is defined in
/// `core::iter::traits::collect`), stable paths before unstable or hidden ones; `None`
/// for workspace items and items their crate does not export.
fn public_path(db: &dyn HirDatabase, item: ItemInNs) -> Option<String> {
    let krate = item.krate(db)?;
    if krate.data(db).origin.is_local() {
        return None;
    }
    let infos = ImportMap::of(db, krate).import_info_for(item)?;
    infos
        .iter()
        .map(|info| {
            let path = format!("{}::{}", module_path(db, info.container), info.name.as_str());
            ((info.is_unstable, info.is_doc_hidden, path.matches("::").count(), path.len()), path)
        })
        .min()
        .map(|(_, path)| path)
}

/// Every path the crate of an item outside the workspace exports it under (each
/// `pub use` of it), shortest first; empty for workspace items.
fn public_paths(db: &dyn HirDatabase, item: ItemInNs) -> Vec<String> {
    let Some(krate) = item.krate(db) else { return Vec::new() };
    if krate.data(db).origin.is_local() {
        return Vec::new();
    }
    let Some(infos) = ImportMap::of(db, krate).import_info_for(item) else { return Vec::new() };
    let mut paths: Vec<String> =
        infos.iter().map(|info| format!("{}::{}", module_path(db, info.container), info.name.as_str())).collect();
    paths.sort_by_key(|path| (path.matches("::").count(), path.len()));
    paths.dedup();
    paths
}

/// Every path a user may write for a function outside the workspace: those its
/// crate exports it under (a method's: each path of its type or trait, then its
/// name) and the path where it is defined.
pub(crate) fn exported_fn_paths(db: &dyn HirDatabase, func: FunctionId) -> Vec<String> {
    let name = FunctionSignature::of(db, func).name.as_str().to_owned();
    let method_of = |owner: ItemInNs| -> Vec<String> {
        public_paths(db, owner).into_iter().map(|path| format!("{path}::{name}")).collect()
    };
    let mut paths = match func.loc(db).container {
        ItemContainerId::ModuleId(_) => public_paths(db, ItemInNs::Values(ModuleDefId::FunctionId(func))),
        ItemContainerId::TraitId(trait_) => method_of(ItemInNs::Types(ModuleDefId::TraitId(trait_))),
        ItemContainerId::ImplId(impl_) => match db.impl_self_ty(impl_).skip_binder().kind() {
            TyKind::Adt(adt, _) => method_of(ItemInNs::Types(ModuleDefId::AdtId(adt.def_id()))),
            _ => Vec::new(),
        },
        ItemContainerId::ExternBlockId(_) => Vec::new(),
    };
    let defined = defined_fn_path(db, func);
    if !paths.contains(&defined) {
        paths.push(defined);
    }
    paths
}

pub(crate) fn adt_path(db: &dyn HirDatabase, adt: AdtId) -> String {
    public_path(db, ItemInNs::Types(ModuleDefId::AdtId(adt))).unwrap_or_else(|| defined_adt_path(db, adt))
}

fn defined_adt_path(db: &dyn HirDatabase, adt: AdtId) -> String {
    let (module, name) = match adt {
        AdtId::StructId(id) => (id.lookup(db).container, hir::Struct::from(id).name(db)),
        AdtId::EnumId(id) => (id.lookup(db).container, hir::Enum::from(id).name(db)),
        AdtId::UnionId(id) => (id.lookup(db).container, hir::Union::from(id).name(db)),
    };
    format!("{}::{}", module_path(db, module), name.as_str())
}

pub(crate) fn trait_path(db: &dyn HirDatabase, trait_: TraitId) -> String {
    public_path(db, ItemInNs::Types(ModuleDefId::TraitId(trait_))).unwrap_or_else(|| defined_trait_path(db, trait_))
}

fn defined_trait_path(db: &dyn HirDatabase, trait_: TraitId) -> String {
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
            if shown.is_empty() {
                path
            } else {
                format!("{path}::<{}>", shown.join(", "))
            }
        }
        _ => format!("<{}>", ty_name(db, ty)),
    }
}

/// Whether a user can call `func` by a path its crate exports: a public free
/// function, trait method or inherent method of an exported type, or a method of
/// an exported trait's impl (`<Vec<T> as FromIterator>::from_iter`). Workspace
/// functions are the user's own: never "exported" in this sense.
pub(crate) fn is_exported(db: &dyn HirDatabase, func: FunctionId) -> bool {
    use hir::HasVisibility;
    // Neither an unstable function (`Vec::with_capacity_in`) nor a hidden one is
    // what a user on stable writes.
    let attrs = hir::HasAttrs::attrs(hir::Function::from(func), db);
    if attrs.is_unstable() || attrs.is_doc_hidden() {
        return false;
    }
    let exported = |item: ItemInNs| public_path(db, item).is_some();
    let exported_ty = |ty: Ty<'_>| match ty.kind() {
        TyKind::Adt(adt, _) => exported(ItemInNs::Types(ModuleDefId::AdtId(adt.def_id()))),
        _ => true,
    };
    match func.loc(db).container {
        ItemContainerId::ModuleId(_) => exported(ItemInNs::Values(ModuleDefId::FunctionId(func))),
        ItemContainerId::TraitId(trait_) => exported(ItemInNs::Types(ModuleDefId::TraitId(trait_))),
        ItemContainerId::ImplId(impl_) => {
            let self_ty = db.impl_self_ty(impl_).skip_binder();
            match db.impl_trait(impl_) {
                Some(trait_ref) => {
                    exported(ItemInNs::Types(ModuleDefId::TraitId(trait_ref.skip_binder().def_id.0)))
                        && exported_ty(self_ty)
                }
                None => {
                    hir::Function::from(func).visibility(db) == hir::Visibility::Public
                        && (!matches!(self_ty.kind(), TyKind::Adt(..)) || exported_ty(self_ty))
                }
            }
        }
        ItemContainerId::ExternBlockId(_) => false,
    }
}

/// The path where a function is defined (`alloc::vec::Vec::push`), whatever
/// re-exports it.
pub(crate) fn defined_fn_path(db: &dyn HirDatabase, func: FunctionId) -> String {
    let name = FunctionSignature::of(db, func).name.as_str().to_owned();
    match func.loc(db).container {
        ItemContainerId::ModuleId(module) => format!("{}::{name}", module_path(db, module)),
        ItemContainerId::ExternBlockId(block) => format!("{}::{name}", module_path(db, block.lookup(db).container)),
        ItemContainerId::ImplId(impl_) => match (db.impl_self_ty(impl_).skip_binder().kind(), db.impl_trait(impl_)) {
            (TyKind::Adt(adt, _), _) => format!("{}::{name}", defined_adt_path(db, adt.def_id())),
            (_, Some(trait_ref)) => {
                let ty = db.impl_self_ty(impl_).skip_binder();
                format!("<{} as {}>::{name}", ty_name(db, ty), defined_trait_path(db, trait_ref.skip_binder().def_id.0))
            }
            _ => format!("<{}>::{name}", ty_name(db, db.impl_self_ty(impl_).skip_binder())),
        },
        ItemContainerId::TraitId(trait_) => format!("{}::{name}", defined_trait_path(db, trait_)),
    }
}

/// The crate-qualified path of a function as a user writes it; with `args`,
/// generic impl types are shown.
pub(crate) fn fn_path(db: &dyn HirDatabase, func: FunctionId, args: Option<GenericArgs<'_>>) -> String {
    match args {
        None => plain_fn_path(db, func).clone(),
        Some(_) => fn_path_uncached(db, func, args),
    }
}

/// `fn_path` without arguments, memoized across analyses: findings, chains and
/// allowlist matching name the same functions after every edit.
#[salsa::tracked(returns(ref))]
fn plain_fn_path(db: &dyn HirDatabase, func: FunctionId) -> String {
    fn_path_uncached(db, func, None)
}

fn fn_path_uncached(db: &dyn HirDatabase, func: FunctionId, args: Option<GenericArgs<'_>>) -> String {
    let name = FunctionSignature::of(db, func).name.as_str().to_owned();
    match func.loc(db).container {
        ItemContainerId::ModuleId(module) => public_path(db, ItemInNs::Values(ModuleDefId::FunctionId(func)))
            .unwrap_or_else(|| format!("{}::{name}", module_path(db, module))),
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
