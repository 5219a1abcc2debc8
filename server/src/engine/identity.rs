//! Identities that outlive a run: the key of an instance in the on-disk summary
//! cache. Built from what a definition *is* — its crate and version, the file and
//! offset of its source (inside a macro expansion, the offset there too), its
//! container (an impl is its own source position, so `<String as From<char>>` and
//! `<String as From<Box<str>>>` differ) — and the identities of its generic
//! arguments. Never from printed names: two nested `fn inner`s, two impls that
//! print alike, or two versions of one crate must never share a key. Display names
//! are `naming`'s.

use hir::{HasSource, db::HirDatabase};
use hir_def::{AdtId, FunctionId, ItemContainerId, Lookup, TraitId};
use hir_expand::{HirFileId, InFile};
use hir_ty::next_solver::{GenericArgs, Ty, TyKind};
use ra_ap_syntax::{AstNode, SyntaxNode};
use rustc_type_ir::inherent::IntoKind;

use super::walk::Node;

/// The identity of an instance, or `None` for instances that cannot be named
/// across runs (closures, unresolved parameters, opaque types): those are never
/// cached.
pub(crate) fn instance_identity(db: &dyn HirDatabase, node: &Node<'_>) -> Option<String> {
    let Node::Fn { func, args } = *node else { return None };
    let mut key = function_identity(db, func)?;
    key.push('<');
    key.push_str(&args_identity(db, args)?);
    key.push('>');
    Some(key)
}

/// `crate@version` of a crate; std's crates have no version (the std source is
/// part of the cache file's key).
fn crate_identity(db: &dyn HirDatabase, krate: base_db::Crate) -> String {
    let name = krate.extra_data(db).display_name.as_ref().map(|n| n.to_string()).unwrap_or_default();
    let version = krate.extra_data(db).version.clone().unwrap_or_default();
    format!("{name}@{version}")
}

/// Where a syntax node stands: its file (relative to its source root) and offset,
/// and for a macro expansion the offset inside it and, recursively, the macro call's
/// own place.
fn source_identity(db: &dyn HirDatabase, file: HirFileId, node: &SyntaxNode) -> Option<String> {
    let offset = u32::from(node.text_range().start());
    match file {
        HirFileId::FileId(file) => {
            let file = file.file_id(db);
            let root = db.file_source_root(file).source_root_id(db);
            let path = db.source_root(root).source_root(db).path_for_file(&file).map(|p| p.to_string())?;
            // The path relative to the crate's root is what stays put across
            // machines; the std source and lock file key the cache file itself.
            let path = path.rsplit_once("/src/").map(|(_, rel)| rel.to_owned()).unwrap_or(path);
            Some(format!("{path}:{offset}"))
        }
        HirFileId::MacroFile(macro_file) => {
            let call = macro_file.call_node(db);
            let outer = source_identity(db, call.file_id, &call.value)?;
            Some(format!("{outer}!{offset}"))
        }
    }
}

fn function_identity(db: &dyn HirDatabase, func: FunctionId) -> Option<String> {
    let source = hir::Function::from(func).source(db)?;
    let krate = hir_def::HasModule::krate(&func, db);
    let place = source_identity(db, source.file_id, source.value.syntax())?;
    let name = hir_def::signatures::FunctionSignature::of(db, func).name.as_str().to_owned();
    let container = match func.loc(db).container {
        ItemContainerId::ImplId(impl_) => {
            let source = hir::Impl::from(impl_).source(db)?;
            format!("impl[{}]::", source_identity(db, source.file_id, source.value.syntax())?)
        }
        ItemContainerId::TraitId(trait_) => format!("trait[{}]::", trait_identity(db, trait_)?),
        _ => String::new(),
    };
    Some(format!("{}/{container}{name}@{place}", crate_identity(db, krate)))
}

fn trait_identity(db: &dyn HirDatabase, trait_: TraitId) -> Option<String> {
    let source = hir::Trait::from(trait_).source(db)?;
    let krate = trait_.lookup(db).container.krate(db);
    Some(format!("{}/{}", crate_identity(db, krate), in_file_identity(db, source.as_ref().map(|s| s.syntax().clone()))?))
}

fn adt_identity(db: &dyn HirDatabase, adt: AdtId) -> Option<String> {
    let (krate, source) = match adt {
        AdtId::StructId(id) => (id.lookup(db).container.krate(db), hir::Struct::from(id).source(db)?.map(|s| s.syntax().clone())),
        AdtId::EnumId(id) => (id.lookup(db).container.krate(db), hir::Enum::from(id).source(db)?.map(|s| s.syntax().clone())),
        AdtId::UnionId(id) => (id.lookup(db).container.krate(db), hir::Union::from(id).source(db)?.map(|s| s.syntax().clone())),
    };
    Some(format!("{}/{}", crate_identity(db, krate), in_file_identity(db, source)?))
}

fn in_file_identity(db: &dyn HirDatabase, node: InFile<SyntaxNode>) -> Option<String> {
    source_identity(db, node.file_id, &node.value)
}

fn args_identity(db: &dyn HirDatabase, args: GenericArgs<'_>) -> Option<String> {
    let mut parts = Vec::new();
    for arg in args.as_slice() {
        parts.push(match arg.ty() {
            Some(ty) => ty_identity(db, ty)?,
            // Lifetimes are erased; consts print as their value.
            None if arg.region().is_some() => "'_".to_owned(),
            None => format!("{arg:?}"),
        });
    }
    Some(parts.join(","))
}

fn ty_identity(db: &dyn HirDatabase, ty: Ty<'_>) -> Option<String> {
    Some(match ty.kind() {
        TyKind::Adt(adt, args) => format!("{}<{}>", adt_identity(db, adt.def_id())?, args_identity(db, args)?),
        TyKind::Ref(_, inner, m) => format!("&{}{}", if m.is_mut() { "mut " } else { "" }, ty_identity(db, inner)?),
        TyKind::RawPtr(inner, m) => format!("*{}{}", if m.is_mut() { "mut " } else { "const " }, ty_identity(db, inner)?),
        TyKind::Slice(inner) => format!("[{}]", ty_identity(db, inner)?),
        TyKind::Array(inner, len) => format!("[{}; {len:?}]", ty_identity(db, inner)?),
        TyKind::Tuple(tys) => {
            let mut parts = Vec::new();
            for t in tys.iter() {
                parts.push(ty_identity(db, t)?);
            }
            format!("({})", parts.join(","))
        }
        TyKind::FnDef(def, args) => match def.0 {
            hir_def::CallableDefId::FunctionId(f) => format!("fn {}<{}>", function_identity(db, f)?, args_identity(db, args)?),
            _ => return None,
        },
        TyKind::Dynamic(..) => {
            let principal = super::walk::dyn_principal(ty).and_then(|t| trait_identity(db, t)).unwrap_or_default();
            format!("dyn {principal} {}", super::naming::ty_name(db, ty))
        }
        TyKind::FnPtr(..) => super::naming::ty_name(db, ty),
        TyKind::Bool | TyKind::Char | TyKind::Int(_) | TyKind::Uint(_) | TyKind::Float(_) | TyKind::Str | TyKind::Never => {
            super::naming::ty_name(db, ty)
        }
        _ => return None,
    })
}
