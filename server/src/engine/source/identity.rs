//! Identities that outlive a run, as types: what a definition *is* (the key of an
//! instance in the on-disk summary cache) and how the files a team keeps name it
//! (allowlist entries, baseline reasons). An identity is built from its crate and
//! version, the file and offset of its source (inside a macro expansion, the offset
//! there too), its container (an impl is its own source position, so `<String as
//! From<char>>` and `<String as From<Box<str>>>` differ) and the identities of its
//! generic arguments; never from printed names, so two nested `fn inner`s, two
//! impls that print alike, or two versions of one crate never share a key. Display
//! names are `naming`'s; `FnNames` picks the ones that stay put across toolchains.

use hir::{db::HirDatabase, HasSource};
use hir_def::{AdtId, FunctionId, ItemContainerId, Lookup, TraitId};
use hir_expand::{HirFileId, InFile};
use hir_ty::next_solver::{GenericArgs, Ty, TyKind};
use ra_ap_syntax::{AstNode, SyntaxNode};
use rustc_type_ir::inherent::IntoKind;
use serde::{Deserialize, Serialize};

use crate::engine::proof::walk::Node;

/// A crate as it stays across runs: its name and version. std's crates have no
/// version (the std source keys the cache file itself).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct CrateIdentity {
    pub name: String,
    pub version: Option<String>,
}

/// Where a definition's source stands: its file, relative to its crate's `src/`
/// (what stays put across machines), and its offset there; for code a macro
/// expanded, the offset inside each expansion, outermost first.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct Place {
    pub file: String,
    pub offsets: Vec<u32>,
}

/// A type, trait or impl: its crate and source place.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct ItemIdentity {
    pub krate: CrateIdentity,
    pub place: Place,
}

/// What holds a function.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum Container {
    /// A module, a block or an `extern` block.
    Free,
    /// An impl, by its own source place (in the function's crate).
    Impl(Place),
    /// A trait's default method.
    Trait(ItemIdentity),
}

/// A function definition.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct FnIdentity {
    pub krate: CrateIdentity,
    pub container: Container,
    pub name: String,
    pub place: Place,
}

/// A generic argument.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum ArgIdentity {
    Ty(TyIdentity),
    /// Lifetimes are erased.
    Lifetime,
    /// A const, as its value prints. Kept as rust-analyzer's `Debug` text (as is
    /// `TyIdentity::Array::len`): the next solver's `Const` offers no other form
    /// covering every kind of const (values, parameters, unevaluated), a value
    /// prints as its bytes, the same in every process, and the text is part of
    /// the summaries' keys on disk.
    Const(String),
}

/// A type. Types without a definition of their own (scalars, `str`, `!`, fn
/// pointers) are what they print.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub enum TyIdentity {
    Adt { item: ItemIdentity, args: Vec<ArgIdentity> },
    Ref { mutable: bool, inner: Box<TyIdentity> },
    Ptr { mutable: bool, inner: Box<TyIdentity> },
    Slice(Box<TyIdentity>),
    Array { element: Box<TyIdentity>, len: String },
    Tuple(Vec<TyIdentity>),
    FnDef(Box<InstanceIdentity>),
    Dyn { principal: Option<ItemIdentity>, shown: String },
    Shown(String),
}

/// A function at given generic arguments: the key of its on-disk summary.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct InstanceIdentity {
    pub func: FnIdentity,
    pub args: Vec<ArgIdentity>,
}

/// The identity of an instance, or `None` for instances that cannot be named
/// across runs (closures, unresolved parameters, opaque types), nor at
/// arguments naming an item of the workspace (`names_workspace_item`), nor at
/// known constants (walked in each analysis): those are never cached.
pub(crate) fn instance_identity(db: &dyn HirDatabase, node: &Node<'_>) -> Option<InstanceIdentity> {
    let Node::Fn { func, args, consts: None } = *node else { return None };
    if names_workspace_item(db, args) {
        return None;
    }
    Some(InstanceIdentity { func: function_identity(db, func)?, args: args_identity(db, args)? })
}

/// Whether `args` name a type, a function or a `dyn` trait of a workspace crate,
/// at any depth (`Vec<Option<Foo>>`). Its identity (crate, file, offset) stays
/// while the code around it changes between runs: a `Drop` impl added to `Foo`
/// changes what `Vec::<Foo>::truncate` runs, and a summary kept under that
/// identity would still say it allocates nothing.
fn names_workspace_item(db: &dyn HirDatabase, args: GenericArgs<'_>) -> bool {
    use hir_def::HasModule;
    let local = |krate: base_db::Crate| krate.data(db).origin.is_local();
    args.iter().flat_map(|arg| arg.walk()).filter_map(|arg| arg.ty()).any(|ty| match ty.kind() {
        TyKind::Adt(adt, _) => local(adt.def_id().krate(db)),
        TyKind::FnDef(def, _) => match def.0 {
            hir_def::CallableDefId::FunctionId(it) => local(it.krate(db)),
            hir_def::CallableDefId::StructId(it) => local(it.krate(db)),
            hir_def::CallableDefId::EnumVariantId(it) => local(it.krate(db)),
        },
        TyKind::Dynamic(..) => {
            crate::engine::proof::walk::dyn_principal(ty).is_some_and(|trait_| local(trait_.krate(db)))
        }
        // Closures, coroutines and opaque types have no identity anyway.
        _ => false,
    })
}

/// A fingerprint of a type's identity, as summaries name what they call back
/// (`summary_cache::CallsBack`): the same type gives the same fingerprint in every
/// run of one engine build. `None` for a type that cannot be named across runs.
pub(crate) fn ty_fingerprint(db: &dyn HirDatabase, ty: Ty<'_>) -> Option<u64> {
    ty_identity(db, ty).map(|identity| fingerprint(&identity))
}

/// A fingerprint of a function's identity (see `ty_fingerprint`).
pub(crate) fn fn_fingerprint(db: &dyn HirDatabase, func: FunctionId) -> Option<u64> {
    function_identity(db, func).map(|identity| fingerprint(&identity))
}

fn fingerprint<T: std::hash::Hash>(identity: &T) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(identity)
}

/// How the files a team keeps name a function: the path where it is defined
/// (`alloc::vec::Vec::push`) and, for code outside the workspace, the public path
/// its crate exports it under (`core::iter::IntoIterator::into_iter`, defined in
/// `core::iter::traits::collect`). An allowlist entry may give either; reasons (and
/// so baseline keys) show the public one, which a toolchain upgrade does not move.
/// The public path costs a lookup in the crate's import map, so it is found only
/// for a pattern whose last segment matches the function's name.
pub(crate) struct FnNames<'a> {
    db: &'a dyn HirDatabase,
    func: FunctionId,
    name: String,
    defined: String,
    public: std::cell::OnceCell<String>,
}

impl<'a> FnNames<'a> {
    pub(crate) fn of(db: &'a dyn HirDatabase, func: FunctionId) -> FnNames<'a> {
        let name = hir_def::signatures::FunctionSignature::of(db, func).name.as_str().to_owned();
        FnNames { db, func, name, defined: super::naming::defined_fn_path(db, func), public: Default::default() }
    }

    /// Whether a pattern (`*` matches any run of characters) names the function
    /// where it is defined.
    pub(crate) fn defined_matches(&self, pattern: &str) -> bool {
        crate::stdx::wildcard_match(pattern, &self.defined)
    }

    /// Whether a pattern names the function by either path.
    pub(crate) fn matches(&self, pattern: &str) -> bool {
        if self.defined_matches(pattern) {
            return true;
        }
        let last = pattern.rsplit("::").next().unwrap_or(pattern);
        if !crate::stdx::wildcard_match(last, &self.name) {
            return false;
        }
        let public = self.public.get_or_init(|| super::naming::fn_path(self.db, self.func, None));
        if crate::stdx::wildcard_match(pattern, public) {
            return true;
        }
        // std's facade re-exports core's and alloc's public modules at the same
        // paths (`std::iter` is `core::iter`, `std::vec` is `alloc::vec`).
        let in_std = ["core::", "alloc::"]
            .iter()
            .find_map(|krate| public.strip_prefix(krate))
            .map(|rest| format!("std::{rest}"));
        in_std.is_some_and(|path| crate::stdx::wildcard_match(pattern, &path))
    }
}

fn crate_identity(db: &dyn HirDatabase, krate: base_db::Crate) -> CrateIdentity {
    let data = krate.extra_data(db);
    CrateIdentity {
        name: data.display_name.as_ref().map(|n| n.to_string()).unwrap_or_default(),
        version: data.version.clone(),
    }
}

fn place(db: &dyn HirDatabase, file: HirFileId, node: &SyntaxNode) -> Option<Place> {
    let offset = u32::from(node.text_range().start());
    match file {
        HirFileId::FileId(file) => {
            let file = file.file_id(db);
            let root = db.file_source_root(file).source_root_id(db);
            let path = db.source_root(root).source_root(db).path_for_file(&file).map(|p| p.to_string())?;
            let file = path.rsplit_once("/src/").map(|(_, rel)| rel.to_owned()).unwrap_or(path);
            Some(Place { file, offsets: vec![offset] })
        }
        HirFileId::MacroFile(macro_file) => {
            let call = macro_file.call_node(db);
            let mut outer = place(db, call.file_id, &call.value)?;
            outer.offsets.push(offset);
            Some(outer)
        }
    }
}

fn in_file_place(db: &dyn HirDatabase, node: InFile<SyntaxNode>) -> Option<Place> {
    place(db, node.file_id, &node.value)
}

fn function_identity(db: &dyn HirDatabase, func: FunctionId) -> Option<FnIdentity> {
    let source = hir::Function::from(func).source(db)?;
    let krate = hir_def::HasModule::krate(&func, db);
    let container = match func.loc(db).container {
        ItemContainerId::ImplId(impl_) => {
            let source = hir::Impl::from(impl_).source(db)?;
            Container::Impl(place(db, source.file_id, source.value.syntax())?)
        }
        ItemContainerId::TraitId(trait_) => Container::Trait(trait_identity(db, trait_)?),
        _ => Container::Free,
    };
    Some(FnIdentity {
        krate: crate_identity(db, krate),
        container,
        name: hir_def::signatures::FunctionSignature::of(db, func).name.as_str().to_owned(),
        place: place(db, source.file_id, source.value.syntax())?,
    })
}

pub(crate) fn trait_identity(db: &dyn HirDatabase, trait_: TraitId) -> Option<ItemIdentity> {
    let source = hir::Trait::from(trait_).source(db)?;
    let krate = trait_.lookup(db).container.krate(db);
    Some(ItemIdentity {
        krate: crate_identity(db, krate),
        place: in_file_place(db, source.map(|s| s.syntax().clone()))?,
    })
}

fn adt_identity(db: &dyn HirDatabase, adt: AdtId) -> Option<ItemIdentity> {
    let (krate, source) = match adt {
        AdtId::StructId(id) => {
            (id.lookup(db).container.krate(db), hir::Struct::from(id).source(db)?.map(|s| s.syntax().clone()))
        }
        AdtId::EnumId(id) => {
            (id.lookup(db).container.krate(db), hir::Enum::from(id).source(db)?.map(|s| s.syntax().clone()))
        }
        AdtId::UnionId(id) => {
            (id.lookup(db).container.krate(db), hir::Union::from(id).source(db)?.map(|s| s.syntax().clone()))
        }
    };
    Some(ItemIdentity { krate: crate_identity(db, krate), place: in_file_place(db, source)? })
}

fn args_identity(db: &dyn HirDatabase, args: GenericArgs<'_>) -> Option<Vec<ArgIdentity>> {
    args.as_slice()
        .iter()
        .map(|arg| match arg.ty() {
            Some(ty) => ty_identity(db, ty).map(ArgIdentity::Ty),
            None if arg.region().is_some() => Some(ArgIdentity::Lifetime),
            None => Some(ArgIdentity::Const(format!("{arg:?}"))),
        })
        .collect()
}

fn boxed(db: &dyn HirDatabase, ty: Ty<'_>) -> Option<Box<TyIdentity>> {
    ty_identity(db, ty).map(Box::new)
}

fn ty_identity(db: &dyn HirDatabase, ty: Ty<'_>) -> Option<TyIdentity> {
    Some(match ty.kind() {
        TyKind::Adt(adt, args) => {
            TyIdentity::Adt { item: adt_identity(db, adt.def_id())?, args: args_identity(db, args)? }
        }
        TyKind::Ref(_, inner, m) => TyIdentity::Ref { mutable: m.is_mut(), inner: boxed(db, inner)? },
        TyKind::RawPtr(inner, m) => TyIdentity::Ptr { mutable: m.is_mut(), inner: boxed(db, inner)? },
        TyKind::Slice(inner) => TyIdentity::Slice(boxed(db, inner)?),
        TyKind::Array(inner, len) => TyIdentity::Array { element: boxed(db, inner)?, len: format!("{len:?}") },
        TyKind::Tuple(tys) => TyIdentity::Tuple(tys.iter().map(|t| ty_identity(db, t)).collect::<Option<_>>()?),
        TyKind::FnDef(def, args) => match def.0 {
            hir_def::CallableDefId::FunctionId(f) => TyIdentity::FnDef(Box::new(InstanceIdentity {
                func: function_identity(db, f)?,
                args: args_identity(db, args)?,
            })),
            _ => return None,
        },
        TyKind::Dynamic(..) => TyIdentity::Dyn {
            principal: crate::engine::proof::walk::dyn_principal(ty).and_then(|t| trait_identity(db, t)),
            shown: super::naming::ty_name(db, ty),
        },
        TyKind::FnPtr(..)
        | TyKind::Bool
        | TyKind::Char
        | TyKind::Int(_)
        | TyKind::Uint(_)
        | TyKind::Float(_)
        | TyKind::Str
        | TyKind::Never => TyIdentity::Shown(super::naming::ty_name(db, ty)),
        _ => return None,
    })
}
