//! The instantiations code makes of a generic function: the generic arguments
//! its calls and function items give it, followed up through generic callers.
//! Two searches share it: a generic root is checked at the instantiations the
//! workspace's code makes (`instantiations`), and a generic function of a
//! dependency that stores into a sealed field stores what its instantiations
//! across the crate graph store (`instantiations_in_graph`).

use std::collections::VecDeque;

use hir::db::HirDatabase;
use hir_def::{CallableDefId, DefWithBodyId, FunctionId, HasModule, ItemContainerId, ModuleDefId};
use hir_ty::{
    next_solver::{DbInterner, GenericArgs, Region, RegionKind, SolverDefId, Ty, TyKind},
    InferenceResult, ParamEnvAndCrate,
};
use ra_ap_ide_db::base_db::Crate;
use ra_ap_syntax::AstNode;
use rustc_hash::FxHashSet;
use rustc_type_ir::{
    inherent::{GenericArgs as _, IntoKind},
    TypeFlags, TypeFoldable, TypeFolder, TypeSuperFoldable, TypeVisitableExt,
};

use super::roots::{env_of, implemented_trait};

/// How far the search for a generic root's instantiations follows generic code:
/// generic callers one above another, generic functions followed in all, and
/// instantiations found through them. Past any bound some instantiation may go
/// unseen, and the root is checked at its own parameters too (`instantiations`).
const FOLLOWED_DEPTH: usize = 8;
const FOLLOWED_FUNCTIONS: usize = 64;
const FOLLOWED_INSTANCES: usize = 1024;

/// The concrete generic arguments the workspace's code instantiates `func` with:
/// calls and function items naming it (a trait impl's method also through the
/// trait's method, at the types that select it), with no parameter left open.
/// A call whose arguments are in its caller's own parameters (`outer<T>` calling
/// `func::<T>`, a method of `impl<T> W<T>`, a blanket impl, an `impl Trait`
/// argument, a closure inside a generic function) instantiates `func` at each
/// instantiation of that caller, found the same way (`generic_callers`); a
/// caller generic over lifetimes only instantiates it at its arguments with the
/// lifetimes erased.
///
/// When some instantiation may go unseen (a bound of the search reached, a call
/// that may be `func`'s through a `dyn` or opaque receiver or an inference gap, a
/// caller that code outside the workspace may instantiate), the identity
/// arguments come too: the root is also checked at its own parameters, and its
/// calls on them are findings, never passed.
///
/// Only the bodies that can name a function followed are inferred: those whose
/// paths or method calls use one of its names (the names it is imported under
/// included), or that hold items of their own (a `use` there may rename it). A
/// function an operator, a `for` loop, `?` or `.await` may call without naming it
/// is looked for in every body. So a generic root costs the bodies that mention
/// it and its generic callers, not the workspace. `local` is the workspace's
/// functions (the trait methods with bodies are added).
pub(crate) fn instantiations<'db>(
    db: &'db dyn HirDatabase,
    func: FunctionId,
    local: &[FunctionId],
) -> Vec<GenericArgs<'db>> {
    let workspace = crate::engine::load::workspace_crates(db);
    let generic = generic_bodies_of_workspace(db);
    let (mut out, incomplete) = search(db, generic_callers(db, func), local, &generic, &workspace);
    if incomplete {
        let identity = GenericArgs::identity_for_item(DbInterner::new_no_crate(db), SolverDefId::FunctionId(func));
        if !out.contains(&identity) {
            out.push(identity);
        }
    }
    out
}

/// How many functions the crates that can name a dependency's function may hold
/// for `instantiations_in_graph` to read them: past it, finding its
/// instantiations costs more than the precision is worth.
const MAX_GRAPH_FUNCTIONS: usize = 20_000;

/// The instantiations the crate graph's code makes of `func`, a generic function
/// of a crate outside the workspace, found as `instantiations` finds a generic
/// root's, in the code of every crate that can name it: its own, and every crate
/// that depends on it, directly or not (the workspace's among them). The program
/// a check speaks of is the crate graph it loads, as for the types coerced to a
/// `dyn` and the functions whose address is taken. `args` is `None` when some
/// instantiation may go unseen (a bound reached, a call through a `dyn` or an
/// inference gap, a generic caller that code of a crate outside them may
/// instantiate: a method of an impl of std's traits).
pub(crate) fn instantiations_in_graph<'db>(db: &'db dyn HirDatabase, func: FunctionId) -> GraphInstantiations<'db> {
    let scope = dependents(db, func.krate(db));
    let mut bodies: Vec<FunctionId> = Vec::new();
    let mut generic: Vec<FunctionId> = Vec::new();
    for &krate in &scope {
        bodies.extend(functions_of(db, krate));
        generic.extend(generic_bodies(db, krate));
        if bodies.len() > MAX_GRAPH_FUNCTIONS {
            return GraphInstantiations { args: None, names: names_naming(db, &[func]) };
        }
    }
    let callers = follow_generic_callers(db, func, &generic, &scope);
    let (args, incomplete) = search(db, &callers, &bodies, &generic, &scope);
    GraphInstantiations { args: (!incomplete).then_some(args), names: names_naming(db, &callers.followed) }
}

/// What `instantiations_in_graph` found of a function.
pub(crate) struct GraphInstantiations<'db> {
    /// Every instantiation, or `None` when some may go unseen.
    pub args: Option<Vec<GenericArgs<'db>>>,
    /// The names a workspace body must spell to add one (`None`: it need not
    /// spell one).
    pub names: Option<Vec<String>>,
}

/// The functions of crate `krate`'s modules, impls and traits (those declared in
/// bodies' blocks are `block_functions`).
#[salsa::tracked(returns(ref))]
fn functions_of(db: &dyn HirDatabase, krate: Crate) -> Vec<FunctionId> {
    let mut out = Vec::new();
    for (_, module) in hir_def::nameres::crate_def_map(db, krate).modules() {
        scope_functions(db, &module.scope, &mut out);
    }
    out
}

/// The functions declared in `func`'s body's blocks (theirs too).
fn block_functions(db: &dyn HirDatabase, func: FunctionId) -> Vec<FunctionId> {
    let body = hir_def::expr_store::Body::of(db, DefWithBodyId::FunctionId(func));
    let mut out = Vec::new();
    for (_, block_map) in body.blocks(db) {
        scope_functions(db, &block_map[block_map.root_module_id()].scope, &mut out);
    }
    out
}

/// The functions a module's (or block's) scope declares, with the methods of its
/// traits and impls.
fn scope_functions(db: &dyn HirDatabase, scope: &hir_def::item_scope::ItemScope, out: &mut Vec<FunctionId>) {
    let mut bodies = Vec::new();
    crate::engine::proof::scope::scope_bodies(db, scope, &mut bodies);
    out.extend(bodies.into_iter().filter_map(|def| match def {
        DefWithBodyId::FunctionId(func) => Some(func),
        _ => None,
    }));
}

/// `krate` and every crate that depends on it, directly or not.
fn dependents(db: &dyn HirDatabase, krate: Crate) -> Vec<Crate> {
    let all = ra_ap_ide_db::base_db::all_crates(db);
    let mut scope = vec![krate];
    let mut grew = true;
    while grew {
        grew = false;
        for &other in all.iter() {
            if !scope.contains(&other) && other.data(db).dependencies.iter().any(|dep| scope.contains(&dep.crate_id)) {
                scope.push(other);
                grew = true;
            }
        }
    }
    scope
}

/// The instantiations of the first of `callers.followed` that the functions
/// `bodies` and `generic` make (`generic`: the generic ones among the crates
/// `crates`, whose instantiations are followed), and whether some may go unseen.
fn search<'db>(
    db: &'db dyn HirDatabase,
    callers: &GenericCallers,
    bodies: &[FunctionId],
    generic: &[FunctionId],
    crates: &[Crate],
) -> (Vec<GenericArgs<'db>>, bool) {
    let followed = &callers.followed;
    let targets = Targets::new(db, followed, crates);
    let interner = DbInterner::new_no_crate(db);
    let mut found = Found {
        args: vec![Vec::new(); followed.len()],
        queue: VecDeque::new(),
        propagated: 0,
        incomplete: callers.incomplete,
    };
    // The calls in the parameters of a function followed, by that function.
    let mut dependent: Vec<Vec<(usize, Site<'db>)>> = vec![Vec::new(); followed.len()];
    let mut seen = FxHashSet::default();
    let mut sites = Vec::new();
    // With whether a body must be seen to name a target to be read: one
    // declared in a block may use a name a `use` of that block gives it.
    let mut queue: Vec<(FunctionId, bool)> = bodies.iter().chain(generic).rev().map(|&f| (f, true)).collect();
    while let Some((caller, by_name)) = queue.pop() {
        if !seen.insert(caller) || (by_name && !targets.may_be_named_in(db, caller)) {
            continue;
        }
        if crate::engine::proof::incremental::names_in_body(db, caller).holds_items {
            queue.extend(block_functions(db, caller).into_iter().map(|f| (f, false)));
        }
        targets.sites_in(db, caller, &mut sites);
        for (target, site) in sites.drain(..) {
            match site {
                Site::Args(args) | Site::Trait { args, .. } if args.has_non_region_param() => {
                    match followed.iter().position(|&f| f == caller) {
                        Some(c) => dependent[c].push((target, site)),
                        None => found.incomplete = true,
                    }
                }
                Site::Args(args) => found.add(target, erase_early_regions(interner, args), false),
                Site::Trait { .. } | Site::Unknown => found.incomplete = true,
            }
        }
    }
    // Each instantiation of a caller followed, into its calls in its parameters.
    while let Some((c, caller_args)) = found.queue.pop_front() {
        if dependent[c].is_empty() {
            continue;
        }
        let env = env_of(db, followed[c]);
        let mut instantiate =
            crate::engine::proof::subst::Instantiate::new(DbInterner::new_with(db, env.krate), env, caller_args);
        for &(target, site) in &dependent[c] {
            let args = match site {
                Site::Args(args) | Site::Trait { args, .. } => erase_early_regions(interner, instantiate.args(args)),
                Site::Unknown => continue,
            };
            let resolved = match site {
                _ if args.has_non_region_param() || args.has_non_region_infer() => Some(Site::Unknown),
                Site::Trait { callee, .. } => trait_site(db, env, callee, args, followed[target]),
                _ => Some(Site::Args(args)),
            };
            match resolved {
                Some(Site::Args(args)) => found.add(target, args, true),
                Some(_) => found.incomplete = true,
                None => {}
            }
        }
        if found.propagated > FOLLOWED_INSTANCES {
            found.incomplete = true;
            break;
        }
    }
    (std::mem::take(&mut found.args[0]), found.incomplete)
}

/// The instantiations found of each function followed (`instantiations`), and
/// those whose calls are still to be followed.
struct Found<'db> {
    args: Vec<Vec<GenericArgs<'db>>>,
    queue: VecDeque<(usize, GenericArgs<'db>)>,
    /// How many were found through a caller's instantiations.
    propagated: usize,
    incomplete: bool,
}

impl<'db> Found<'db> {
    fn add(&mut self, target: usize, args: GenericArgs<'db>, propagated: bool) {
        if !self.args[target].contains(&args) {
            self.propagated += usize::from(propagated);
            self.args[target].push(args);
            self.queue.push_back((target, args));
        }
    }
}

/// One use in a body of a function whose instantiations are looked for.
#[derive(Clone, Copy)]
enum Site<'db> {
    /// A call or function item at these arguments (an impl's, when the call is
    /// through its trait's method), in the parameters of the caller when it is
    /// generic.
    Args(GenericArgs<'db>),
    /// A call of trait method `callee` at `args`, in the caller's parameters:
    /// whether it is the function's depends on what they are.
    Trait { callee: FunctionId, args: GenericArgs<'db> },
    /// A call that may be the function's, at arguments no instantiation tells: a
    /// `dyn` or opaque receiver, an impl no source shows, an inference gap.
    Unknown,
}

/// The functions whose instantiations are looked for, with what a body must name
/// to use one of them.
struct Targets<'a> {
    funcs: &'a [FunctionId],
    /// Each one's name, and the trait whose method it implements.
    names: Vec<hir::Name>,
    traits: Vec<Option<hir_def::TraitId>>,
    /// Every name they go by (imports included).
    all_names: Vec<hir::Name>,
    /// Some may be called without being named: every body may use it.
    unnamed: bool,
}

impl<'a> Targets<'a> {
    /// `funcs`, looked for in the code of `crates` (where they may be imported
    /// under other names).
    fn new(db: &dyn HirDatabase, funcs: &'a [FunctionId], crates: &[Crate]) -> Targets<'a> {
        let names = funcs.iter().map(|&f| hir_def::signatures::FunctionSignature::of(db, f).name.clone()).collect();
        let traits = funcs.iter().map(|&f| implemented_trait(db, f)).collect();
        let unnamed = funcs.iter().any(|&f| called_without_its_name(db, f));
        let mut all_names: Vec<hir::Name> = Vec::new();
        if !unnamed {
            for &f in funcs {
                for name in names_of(db, f, crates) {
                    if !all_names.contains(&name) {
                        all_names.push(name);
                    }
                }
            }
        }
        Targets { funcs, names, traits, all_names, unnamed }
    }

    fn may_be_named_in(&self, db: &dyn HirDatabase, body: FunctionId) -> bool {
        if self.unnamed {
            return true;
        }
        let named = crate::engine::proof::incremental::names_in_body(db, body);
        named.holds_items || self.all_names.iter().any(|name| named.names.contains(name))
    }

    /// The uses of the targets in `caller`'s body (its closures' included), by target.
    fn sites_in<'db>(&self, db: &'db dyn HirDatabase, caller: FunctionId, out: &mut Vec<(usize, Site<'db>)>) {
        let infer = InferenceResult::of(db, DefWithBodyId::FunctionId(caller));
        let mut env = None;
        for (expr, ty) in infer.expression_types() {
            if let TyKind::FnDef(def, args) = ty.kind() {
                if let CallableDefId::FunctionId(callee) = def.0 {
                    self.use_of(db, caller, &mut env, callee, args, out);
                }
            }
            if let Some((callee, args)) = infer.method_resolution(expr) {
                self.use_of(db, caller, &mut env, callee, args, out);
            }
        }
    }

    /// What a call or function item of `callee` at `args` in `caller` is to the targets.
    fn use_of<'db>(
        &self,
        db: &'db dyn HirDatabase,
        caller: FunctionId,
        env: &mut Option<ParamEnvAndCrate<'db>>,
        callee: FunctionId,
        args: GenericArgs<'db>,
        out: &mut Vec<(usize, Site<'db>)>,
    ) {
        if let Some(target) = self.funcs.iter().position(|&f| f == callee) {
            out.push((target, if args.has_non_region_infer() { Site::Unknown } else { Site::Args(args) }));
        }
        let ItemContainerId::TraitId(trait_) = callee.loc(db).container else { return };
        let mut name = None;
        for (target, &func) in self.funcs.iter().enumerate() {
            if self.traits[target] != Some(trait_) || func == callee {
                continue;
            }
            if *name.get_or_insert_with(|| &hir_def::signatures::FunctionSignature::of(db, callee).name)
                != &self.names[target]
            {
                continue;
            }
            let env = *env.get_or_insert_with(|| env_of(db, caller));
            if let Some(site) = trait_site(db, env, callee, args, func) {
                out.push((target, site));
            }
        }
    }
}

/// A call of trait method `callee` at `args` as a use of `target`, a method of an
/// impl of that trait: `target`'s arguments when the trait solver selects its
/// impl; `None` when it selects another; when it selects none, `Trait` while the
/// caller's parameters may decide, else `Unknown`.
fn trait_site<'db>(
    db: &'db dyn HirDatabase,
    env: ParamEnvAndCrate<'db>,
    callee: FunctionId,
    args: GenericArgs<'db>,
    target: FunctionId,
) -> Option<Site<'db>> {
    if args.has_non_region_infer() {
        return Some(Site::Unknown);
    }
    let interner = DbInterner::new_with(db, env.krate);
    let args = crate::engine::proof::subst::settled(interner, args);
    match db.lookup_impl_method(env, callee, args) {
        (either::Either::Left(impl_fn), impl_args) if impl_fn == target => Some(if impl_args.has_non_region_infer() {
            Site::Unknown
        } else {
            Site::Args(crate::engine::proof::subst::settled(interner, impl_args))
        }),
        (either::Either::Left(same), _) if same == callee => {
            Some(if args.has_non_region_param() { Site::Trait { callee, args } } else { Site::Unknown })
        }
        _ => None,
    }
}

/// Whether code outside the crates `crates` may instantiate `func` where no body
/// of theirs shows it: a method of an impl of a trait from outside them (std's
/// generic code calls `Clone::clone`, `Iterator::next`, `Drop::drop`, `fmt` on
/// what it is handed, at types only it knows).
fn instantiated_out_of_sight(db: &dyn HirDatabase, func: FunctionId, crates: &[Crate]) -> bool {
    implemented_trait(db, func)
        .is_some_and(|trait_| !crates.contains(&hir_def::GenericDefId::TraitId(trait_).krate(db)))
}

/// `args` with the early-bound lifetimes of a caller generic over them erased,
/// as a caller instantiates them.
fn erase_early_regions<'db>(interner: DbInterner<'db>, args: GenericArgs<'db>) -> GenericArgs<'db> {
    struct Erase<'db>(DbInterner<'db>);
    impl<'db> TypeFolder<DbInterner<'db>> for Erase<'db> {
        fn cx(&self) -> DbInterner<'db> {
            self.0
        }
        fn fold_ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
            if ty.has_type_flags(TypeFlags::HAS_RE_PARAM) {
                ty.super_fold_with(self)
            } else {
                ty
            }
        }
        fn fold_region(&mut self, region: Region<'db>) -> Region<'db> {
            if let RegionKind::ReEarlyParam(_) = region.kind() {
                Region::new_erased(self.0)
            } else {
                region
            }
        }
    }
    if args.has_type_flags(TypeFlags::HAS_RE_PARAM) {
        args.fold_with(&mut Erase(interner))
    } else {
        args
    }
}

/// The generic functions whose instantiations make a generic root's.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct GenericCallers {
    /// The root first, then the generic functions that call one before them at
    /// arguments in their own parameters, nearest first.
    followed: Vec<FunctionId>,
    /// Some instantiation may go unseen: a bound reached, or a function followed
    /// that code outside the workspace may instantiate.
    incomplete: bool,
}

/// `GenericCallers` of `root`: from the root up, each level the generic bodies
/// that call a function of the level below at arguments in their own parameters,
/// up to `FOLLOWED_DEPTH` levels and `FOLLOWED_FUNCTIONS` functions; each function
/// once (recursion and cycles stop there). A query of its own: both what the
/// bodies must name (`instantiating_names`) and the instantiations read it.
#[salsa::tracked(returns(ref))]
fn generic_callers(db: &dyn HirDatabase, root: FunctionId) -> GenericCallers {
    follow_generic_callers(db, root, &generic_bodies_of_workspace(db), &crate::engine::load::workspace_crates(db))
}

/// `GenericCallers` of `root` among `candidates`, the generic functions of the
/// crates `crates`.
fn follow_generic_callers(
    db: &dyn HirDatabase,
    root: FunctionId,
    candidates: &[FunctionId],
    crates: &[Crate],
) -> GenericCallers {
    let mut followed = vec![root];
    // The root is checked at the instantiations the workspace's bodies make, as
    // README's "generic root" says, a method of a trait from outside included. A
    // generic function on the way to it must have all of its instantiations there
    // to be followed: one that code outside may instantiate leaves the search
    // incomplete (`instantiated_out_of_sight`).
    let mut incomplete = false;
    let mut level = 0..1;
    let mut sites = Vec::new();
    for depth in 1.. {
        if level.is_empty() {
            break;
        }
        let below: Vec<FunctionId> = followed[level.clone()].to_vec();
        let targets = Targets::new(db, &below, crates);
        let start = followed.len();
        for &caller in candidates {
            if followed.contains(&caller) || !targets.may_be_named_in(db, caller) {
                continue;
            }
            targets.sites_in(db, caller, &mut sites);
            let in_parameters = sites.drain(..).any(|(_, site)| match site {
                Site::Args(args) | Site::Trait { args, .. } => args.has_non_region_param(),
                Site::Unknown => false,
            });
            if !in_parameters {
                continue;
            }
            if depth > FOLLOWED_DEPTH || followed.len() >= FOLLOWED_FUNCTIONS {
                incomplete = true;
                continue;
            }
            incomplete |= instantiated_out_of_sight(db, caller, crates);
            followed.push(caller);
        }
        level = start..followed.len();
    }
    GenericCallers { followed, incomplete }
}

/// The functions of the workspace with a body and type or const parameters (their
/// own, their impl's or their trait's, `Self` included): those whose calls may be
/// in parameters an instantiation of them decides. Trait methods with a default
/// body included.
fn generic_bodies_of_workspace(db: &dyn HirDatabase) -> Vec<FunctionId> {
    crate::engine::load::workspace_crates(db)
        .into_iter()
        .flat_map(|krate| generic_bodies(db, krate).iter().copied())
        .collect()
}

/// `generic_bodies_of_workspace` of one crate, read from the syntax of its
/// functions and impls: lowering the signature of every function of a large
/// workspace to learn which are generic would cost more than the rest of the
/// search.
#[salsa::tracked(returns(ref))]
fn generic_bodies(db: &dyn HirDatabase, krate: ra_ap_ide_db::base_db::Crate) -> Vec<FunctionId> {
    use ra_ap_syntax::ast::{self, HasGenericParams};
    // Type or const parameters declared.
    let declares = |list: Option<ast::GenericParamList>| {
        list.is_some_and(|list| {
            list.generic_params().any(|param| !matches!(param, ast::GenericParam::LifetimeParam(_)))
        })
    };
    // A function with a body and parameters of its own (`impl Trait` arguments
    // included) or of its container: `Self` is a parameter of every trait method.
    let generic_fn = |func: FunctionId| {
        let node = func.loc(db).id.to_node(db);
        let container_generic = match func.loc(db).container {
            ItemContainerId::TraitId(_) => true,
            ItemContainerId::ImplId(impl_) => declares(impl_.loc(db).id.to_node(db).generic_param_list()),
            _ => false,
        };
        node.body().is_some()
            && (container_generic
                || declares(node.generic_param_list())
                || node.param_list().is_some_and(|params| {
                    params.syntax().descendants().any(|n| ast::ImplTraitType::can_cast(n.kind()))
                }))
    };
    functions_of(db, krate).iter().copied().filter(|&func| generic_fn(func)).collect()
}

/// Methods of the traits that operators, `for` loops, `?`, `.await`, calls of
/// closures, drops and formatting call without naming them.
const CALLED_WITHOUT_ITS_NAME: &[&str] = &[
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "neg",
    "not",
    "bitand",
    "bitor",
    "bitxor",
    "shl",
    "shr",
    "add_assign",
    "sub_assign",
    "mul_assign",
    "div_assign",
    "rem_assign",
    "bitand_assign",
    "bitor_assign",
    "bitxor_assign",
    "shl_assign",
    "shr_assign",
    "index",
    "index_mut",
    "deref",
    "deref_mut",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "partial_cmp",
    "cmp",
    "into_iter",
    "next",
    "branch",
    "from_residual",
    "from_output",
    "from",
    "poll",
    "into_future",
    "call",
    "call_mut",
    "call_once",
    "drop",
    "fmt",
    "clone",
];

/// The names a body must use to instantiate `func` (`instantiations`): those of
/// `func` and of the generic functions whose instantiations make its
/// (`generic_callers`), their own and those imports give them; `None` when it may
/// without naming one.
pub(crate) fn instantiating_names(db: &dyn HirDatabase, func: FunctionId) -> Option<Vec<String>> {
    names_naming(db, &generic_callers(db, func).followed)
}

/// The names a workspace body must use to name one of `followed`; `None` when
/// it may without naming one.
fn names_naming(db: &dyn HirDatabase, followed: &[FunctionId]) -> Option<Vec<String>> {
    let workspace = crate::engine::load::workspace_crates(db);
    if followed.iter().any(|&f| called_without_its_name(db, f)) {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    for &f in followed {
        for name in names_of(db, f, &workspace) {
            if !out.iter().any(|known| known == name.as_str()) {
                out.push(name.as_str().to_owned());
            }
        }
    }
    Some(out)
}

/// Whether code may call `func` without spelling its name: an operator's or a
/// desugaring's trait method, or a lang item (a `no_std` crate may define one).
fn called_without_its_name(db: &dyn HirDatabase, func: FunctionId) -> bool {
    let name = &hir_def::signatures::FunctionSignature::of(db, func).name;
    CALLED_WITHOUT_ITS_NAME.contains(&name.as_str())
        || hir_def::attrs::AttrFlags::lang_item(db, hir_def::AttrDefId::FunctionId(func)).is_some()
}

/// The names `func` goes by in the crates `crates`: its own, and those their
/// imports give it.
fn names_of(db: &dyn HirDatabase, func: FunctionId, crates: &[Crate]) -> Vec<hir::Name> {
    let mut names = vec![hir_def::signatures::FunctionSignature::of(db, func).name.clone()];
    for &krate in crates {
        for (_, module) in hir_def::nameres::crate_def_map(db, krate).modules() {
            for (name, item) in module.scope.values() {
                if item.def == ModuleDefId::FunctionId(func) && !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    }
    names
}
