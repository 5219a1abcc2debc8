//! Where a walk resolves its calls: the environment (a crate, and where-clauses)
//! in which the trait solver answers the goals of an instance's body. Owns that
//! choice; knows nothing of what a walk finds (`walk`).
//!
//! A root's reach would walk every instance in the root's environment, where the
//! solver looks through the impls of the root's crate and of every crate it
//! depends on. But an instance of a library's function at the types of
//! libraries alone, with no type parameter (`Vec::<u8>::push`,
//! `core::ptr::drop_in_place::<String>`: most of a reach), has goals that name
//! only traits and types of those crates, and by the orphan rules an impl
//! answering such a goal is in the crate of its trait or of a type it names.
//! One of those crates depends on all the others (`alloc`, for
//! `drop_in_place::<String>`), so its environment answers every goal as the
//! root's does. Walked there, the instance is one walk for the roots of every
//! crate, and a trait impl added or removed in the workspace, which changes what
//! the solver reads at the root's crate, does not run it again. Anything else
//! (a workspace's function or type, a closure passed down from the workspace, a
//! type parameter, an opaque type or a projection in the arguments) is walked in
//! the root's environment.

use hir_def::{CallableDefId, HasModule};
use hir_ty::{
    db::HirDatabase,
    next_solver::{ConstKind, DbInterner, GenericArgKind, GenericArgs, ParamEnv, Ty, TyKind},
    InferBodyId, ParamEnvAndCrate,
};
use ra_ap_ide_db::base_db::Crate;
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::{inherent::IntoKind, Interner as _};

use super::walk::Node;

/// The environments chosen so far, and the crates each crate depends on.
#[derive(Default)]
pub(crate) struct WalkEnvs<'db> {
    chosen: FxHashMap<Node<'db>, Option<Crate>>,
    /// Each crate's transitive dependencies, itself among them.
    deps: FxHashMap<Crate, FxHashSet<Crate>>,
}

impl<'db> WalkEnvs<'db> {
    /// The environment `node`, reached from a root walked in `root`, is walked in.
    pub(crate) fn env_of(
        &mut self,
        db: &'db dyn HirDatabase,
        node: Node<'db>,
        root: ParamEnvAndCrate<'db>,
    ) -> ParamEnvAndCrate<'db> {
        let WalkEnvs { chosen, deps } = self;
        let library = *chosen.entry(node).or_insert_with(|| library_crate_for(db, &node, deps));
        match library {
            Some(krate) => ParamEnvAndCrate { param_env: ParamEnv::empty(DbInterner::new_no_crate(db)), krate },
            None => root,
        }
    }
}

/// The library crate whose environment answers `node`'s goals as any root's
/// does: one of the crates of its function and of the items its arguments name,
/// on which the others depend. `None` when a crate among them is the
/// workspace's, or the arguments hold what names no crate (a type parameter, an
/// inference variable, an opaque type, a projection).
fn library_crate_for(
    db: &dyn HirDatabase,
    node: &Node<'_>,
    deps: &mut FxHashMap<Crate, FxHashSet<Crate>>,
) -> Option<Crate> {
    let mut crates = FxHashSet::default();
    let args = match *node {
        Node::Fn { func, args, .. } | Node::Derived { method: func, args } => {
            crates.insert(func.krate(db));
            args
        }
        Node::Closure { closure, parent_args } => {
            crates.insert(body_crate(db, closure.loc(db).owner)?);
            parent_args
        }
        Node::DropGlue(ty) => GenericArgs::new_from_slice(&[ty.into()]),
        Node::Init(def, args) => {
            crates.insert(def.module(db).krate(db));
            args
        }
    };
    for arg in args.iter().flat_map(|arg| arg.walk()) {
        match arg.kind() {
            GenericArgKind::Type(ty) => crates.extend(ty_crates(db, ty)?),
            // A value names no item; a parameter or an inference variable, no crate.
            GenericArgKind::Const(konst) if matches!(konst.kind(), ConstKind::Value(_)) => {}
            GenericArgKind::Const(_) => return None,
            GenericArgKind::Lifetime(_) => {}
        }
    }
    if crates.iter().any(|krate| krate.data(db).origin.is_local()) {
        return None;
    }
    crates.iter().copied().find(|&krate| {
        let its = deps.entry(krate).or_insert_with(|| krate.transitive_deps(db).into_iter().collect());
        crates.iter().all(|other| its.contains(other))
    })
}

/// The crates of the items `ty` itself names (not its arguments, which
/// `GenericArg::walk` gives apart); `None` when it names what no crate holds.
fn ty_crates(db: &dyn HirDatabase, ty: Ty<'_>) -> Option<Vec<Crate>> {
    Some(match ty.kind() {
        TyKind::Bool
        | TyKind::Char
        | TyKind::Int(_)
        | TyKind::Uint(_)
        | TyKind::Float(_)
        | TyKind::Str
        | TyKind::Array(..)
        | TyKind::Slice(_)
        | TyKind::RawPtr(..)
        | TyKind::Ref(..)
        | TyKind::FnPtr(..)
        | TyKind::Tuple(_)
        | TyKind::Never => Vec::new(),
        TyKind::Adt(adt, _) => vec![adt.def_id().krate(db)],
        TyKind::Foreign(alias) => vec![alias.0.module(db).krate(db)],
        TyKind::FnDef(def, _) => vec![match def.0 {
            CallableDefId::FunctionId(it) => it.krate(db),
            CallableDefId::StructId(it) => it.module(db).krate(db),
            CallableDefId::EnumVariantId(it) => it.module(db).krate(db),
        }],
        TyKind::Closure(closure, _) => vec![body_crate(db, closure.0.loc(db).owner)?],
        // Its principal trait, auto traits and the traits of its projections.
        TyKind::Dynamic(predicates, _) => {
            let mut traits = Vec::new();
            for predicate in predicates.iter() {
                match predicate.skip_binder() {
                    rustc_type_ir::ExistentialPredicate::Trait(it) => traits.push(it.def_id.0.module(db).krate(db)),
                    rustc_type_ir::ExistentialPredicate::Projection(it) => {
                        traits.push(DbInterner::new_no_crate(db).projection_parent(it.def_id).0.module(db).krate(db));
                    }
                    rustc_type_ir::ExistentialPredicate::AutoTrait(it) => traits.push(it.0.module(db).krate(db)),
                }
            }
            traits
        }
        _ => return None,
    })
}

/// The crate of the body that holds a closure; `None` for an anonymous
/// const's (an array length's), which stands in an item's signature.
pub(crate) fn body_crate(db: &dyn HirDatabase, owner: InferBodyId<'_>) -> Option<Crate> {
    match owner {
        InferBodyId::DefWithBodyId(def) => Some(def.module(db).krate(db)),
        InferBodyId::AnonConstId(_) => None,
    }
}
