//! Statics that keep a function's address as an erased pointer: the CPU-dispatch
//! idiom (memchr's `static FN: AtomicPtr<()> = AtomicPtr::new(detect as *mut ())`,
//! set again by `detect` to the routine it picks, then called after a `transmute`
//! back to a fn pointer).
//!
//! A static declared inside a block can be named only by the code of that block:
//! the functions the block declares and the body that holds the block. What any of
//! them stores there is a function whose address it takes, unless it stores what
//! its own caller hands it (a parameter that may hold a fn pointer or an erased
//! pointer). So the functions that may be behind such a static are the addresses
//! those bodies take (`Program::read_static` takes them in); where that cannot be
//! told (the holder is not found, a body takes such a parameter, a body declares
//! items of its own that may name the static too), the program may hold any
//! function's address from outside (`Outside::erased_addresses`). A static
//! declared outside a block is not looked at this way.

use hir::db::HirDatabase;
use hir_def::{
    expr_store::Body, nameres::block_def_map, BlockIdLt, DefWithBodyId, FunctionId, ItemContainerId, Lookup,
    ModuleDefId, StaticId,
};
use hir_ty::{
    next_solver::{GenericArgs, SolverDefId, Ty, TyKind},
    ParamEnvAndCrate,
};
use rustc_hash::FxHashSet;
use rustc_type_ir::inherent::{GenericArgs as _, IntoKind};

use super::walk::{CallGraph, Node};

/// How far into a type `holds_erased_pointer` looks.
const MAX_DEPTH: usize = 8;

/// Whether `id` is declared inside a block and its type holds an erased pointer
/// (a raw pointer to `()`, as `AtomicPtr<()>` does).
pub(crate) fn is_erased_block_static<'db>(
    graph: &mut CallGraph<'db>,
    id: StaticId,
    ty: Ty<'db>,
    env: ParamEnvAndCrate<'db>,
) -> bool {
    let ItemContainerId::ModuleId(module) = id.lookup(graph.db).container else { return false };
    module.block(graph.db).is_some() && holds_erased_pointer(graph, ty, env, 0, &mut FxHashSet::default())
}

/// Whether a block declares code that runs: a function, an impl, a static or a
/// const.
fn declares_code(map: &hir_def::nameres::DefMap) -> bool {
    let scope = &map[map.root_module_id()].scope;
    scope.impls().len() > 0
        || scope
            .declarations()
            .any(|def| matches!(def, ModuleDefId::FunctionId(_) | ModuleDefId::StaticId(_) | ModuleDefId::ConstId(_)))
}

/// Whether `inner` is a block inside `block` (not `block` itself).
fn strictly_within<'db>(db: &'db dyn HirDatabase, inner: BlockIdLt<'db>, block: BlockIdLt<'db>) -> bool {
    let mut around = inner.module(db).block(db);
    while let Some(current) = around {
        if current == block {
            return true;
        }
        around = current.module(db).block(db);
    }
    false
}

fn holds_erased_pointer<'db>(
    graph: &mut CallGraph<'db>,
    ty: Ty<'db>,
    env: ParamEnvAndCrate<'db>,
    depth: usize,
    seen: &mut FxHashSet<Ty<'db>>,
) -> bool {
    if depth > MAX_DEPTH || !seen.insert(ty) {
        return false;
    }
    match ty.kind() {
        TyKind::RawPtr(inner, _) => matches!(inner.kind(), TyKind::Tuple(tys) if tys.is_empty()),
        TyKind::Adt(_, args) => {
            let fields = graph.field_types(ty, env);
            args.as_slice()
                .iter()
                .filter_map(|arg| arg.ty())
                .chain(fields)
                .any(|t| holds_erased_pointer(graph, t, env, depth + 1, seen))
        }
        TyKind::Tuple(tys) => tys.iter().any(|t| holds_erased_pointer(graph, t, env, depth + 1, seen)),
        TyKind::Array(inner, _) => holds_erased_pointer(graph, inner, env, depth + 1, seen),
        _ => false,
    }
}

/// The code that can name a block static: the functions its block declares, and
/// the function whose body holds the block.
pub(crate) struct BlockCode<'db> {
    pub declared: Vec<FunctionId>,
    pub holder: FunctionId,
    block: BlockIdLt<'db>,
}

/// The code that can name the block static `id`; `None` when it cannot all be
/// named (the holder is not a function of the module around the block).
pub(crate) fn code_naming<'db>(graph: &CallGraph<'db>, id: StaticId) -> Option<BlockCode<'db>> {
    let db = graph.db;
    let ItemContainerId::ModuleId(module) = id.lookup(db).container else { return None };
    let block = module.block(db)?;
    let block_map = block_def_map(db, block);
    let declared: Vec<FunctionId> = block_map[block_map.root_module_id()]
        .scope
        .declarations()
        .filter_map(|def| match def {
            ModuleDefId::FunctionId(func) => Some(func),
            _ => None,
        })
        .collect();
    // The module the body holding the block (and any blocks around it) is in.
    let mut outer = block.module(db);
    while let Some(around) = outer.block(db) {
        outer = around.module(db);
    }
    let outer_map = outer.def_map(db);
    let scope = &outer_map[outer].scope;
    let in_impls = scope.impls().flat_map(|impl_| {
        impl_.impl_items(db).items.iter().filter_map(|(_, item)| match item {
            hir_def::AssocItemId::FunctionId(func) => Some(*func),
            _ => None,
        })
    });
    let holder = scope
        .declarations()
        .filter_map(|def| match def {
            ModuleDefId::FunctionId(func) => Some(func),
            _ => None,
        })
        .chain(in_impls)
        .find(|&func| Body::of(db, DefWithBodyId::FunctionId(func)).blocks(db).any(|(inner, _)| inner == block))?;
    Some(BlockCode { declared, holder, block })
}

/// The walks of the code that can store into a block static (what each takes the
/// address of), and whether some of it may store what its caller hands it, or
/// declares items of its own (which may name the static too): then anything may
/// be there.
pub(crate) fn storing_walks<'db>(
    graph: &mut CallGraph<'db>,
    code: &BlockCode<'db>,
    env: ParamEnvAndCrate<'db>,
) -> (Vec<std::rc::Rc<super::walk::Walked<'db>>>, bool) {
    let db = graph.db;
    let mut walks = Vec::with_capacity(code.declared.len() + 1);
    let mut from_outside = false;
    for &func in code.declared.iter().chain(std::iter::once(&code.holder)) {
        let args = GenericArgs::identity_for_item(graph.interner, SolverDefId::FunctionId(func));
        let sig =
            db.callable_item_signature(func.into()).instantiate(graph.interner, args).skip_norm_wip().skip_binder();
        for &input in sig.inputs().iter() {
            from_outside |= graph.holds_dyn_or_fn_pointer(input, env)
                || holds_erased_pointer(graph, input, env, 0, &mut FxHashSet::default());
        }
        // Code declared in a block inside the static's block may name it too;
        // that of the blocks around it may not. (`use`s and types run nothing.)
        let body = Body::of(db, DefWithBodyId::FunctionId(func));
        from_outside |= body
            .blocks(db)
            .any(|(inner, map)| (func != code.holder || strictly_within(db, inner, code.block)) && declares_code(map));
        walks.push(graph.walked(Node::function(func, args), env));
    }
    (walks, from_outside)
}
