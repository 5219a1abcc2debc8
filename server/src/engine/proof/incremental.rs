//! What makes re-analysis after an edit cheap: the walk of one instance (a function,
//! closure, drop glue or derive at given generic arguments) is a salsa tracked query
//! on rust-analyzer's database. Owns that query and the conversions of the walk's
//! edges to and from a form salsa may keep across revisions; knows nothing of what a
//! walk finds (`walk`) or of roots and findings (`analysis`).
//!
//! A walk reads the body, its inference results and trait resolutions through
//! rust-analyzer's own queries, and salsa records those reads. After an edit, the
//! walks whose reads did not change are reused as they were (salsa verifies their
//! dependencies instead of re-running them), so an edit re-walks the edited bodies
//! only: an edit inside one function body leaves every other function's inference
//! untouched, and item trees (hence impls) do not change with a body.
//!
//! Why a stored form: rust-analyzer's `Ty<'db>` and `GenericArgs<'db>` are views
//! into interned storage that is collected between revisions unless something holds
//! it; salsa may only keep the owning `StoredTy` / `StoredGenericArgs`.
//!
//! Also memoized here, across analyses: the identity of an instance
//! (`identity::instance_identity`), the key of its on-disk summary, which costs
//! more to build than the lookup itself; an instance's name; and which allowlist
//! entries name a function. After an edit these are read again for every function
//! the roots reach, and nearly all are std's, whose answers never change.
//!
//! And the answers that stand between an item edit and the walks: where a call
//! goes (`resolved_call`, so that no walk runs the trait solver over its crate's
//! impls, which any impl added changes), what a path in
//! a body resolves to (`value_path`, so that no walk reads a def map, which any
//! item added changes), the item level that root outcomes are kept under
//! (`items_generation`), and the names a body may call a function by
//! (`names_in_body`, which keeps a generic root's search for its instantiations to
//! the bodies that mention it).

use std::cell::Cell;

use hir_def::FunctionId;
use hir_ty::{
    db::{HirDatabase, InternedClosureId},
    next_solver::{StoredGenericArgs, StoredTy},
    traits::StoredParamEnvAndCrate,
    ParamEnvAndCrate,
};

use super::allowances::{CallContext, FilledPlace, Growth};
use super::summary::{CachedSummary, SummaryKey};
use super::walk::{CallGraph, Edge, Node, Panic, PassedClosures, Signature, Site, Target, UnknownKind, Walked};

thread_local! {
    /// Walks executed (not reused) on this thread: how tests and logs see that an
    /// edit re-walked only what it touched.
    static EXECUTED: Cell<usize> = const { Cell::new(0) };
}

/// The walks this thread has executed so far (reused ones do not count).
pub fn walks_executed() -> usize {
    EXECUTED.with(Cell::get)
}

thread_local! {
    /// Time this thread has spent in rust-analyzer's type inference of bodies the
    /// walks read (answered from salsa's memo or computed), for `--timings`.
    static INFERENCE_NANOS: Cell<u64> = const { Cell::new(0) };
}

/// Nanoseconds this thread has spent getting bodies' inference results so far.
pub(crate) fn inference_nanos() -> u64 {
    INFERENCE_NANOS.with(Cell::get)
}

thread_local! {
    /// The crate whose goals the trait solver's cache on this thread was filled
    /// with since it was last emptied (`inference_of`).
    static SOLVER_CACHE_CRATE: Cell<Option<ra_ap_ide_db::base_db::Crate>> = const { Cell::new(None) };
}

/// The inference results of a body, timed. rust-analyzer's trait solver keeps one
/// cache per thread whose entries do not say which crate's impls answered them: a
/// goal such as `u32: PartialEq<?T>` answered in a crate that adds
/// `impl PartialEq<Value> for u32` is ambiguous there, and the same entry read
/// while inferring std's body (where only core's impl is visible, so `?T = u32`)
/// would leave that body's comparison unresolved, depending on which body was
/// inferred first. So the cache is emptied whenever this thread infers a body of
/// another crate than the last: each body's inference reads only answers of its
/// own crate.
pub(crate) fn inference_of<'db>(
    db: &'db dyn HirDatabase,
    def: hir_def::DefWithBodyId,
) -> &'db hir_ty::InferenceResult<'db> {
    let started = std::time::Instant::now();
    let krate = hir_def::HasModule::krate(&def, db);
    if SOLVER_CACHE_CRATE.with(|last| last.replace(Some(krate))) != Some(krate) {
        hir_ty::next_solver::clear_tls_solver_cache();
        // Stamped with today's revision again, as an interner made before reads it.
        hir_ty::next_solver::DbInterner::new_with(db, krate);
    }
    let result = hir_ty::InferenceResult::of(db, def);
    INFERENCE_NANOS.with(|n| n.set(n.get() + started.elapsed().as_nanos() as u64));
    result
}

/// The edges of `node` under `env`, from salsa: walked the first time, and again only
/// when something the walk read has changed.
pub(crate) fn walked<'db>(
    db: &'db dyn HirDatabase,
    node: Node<'db>,
    env: ParamEnvAndCrate<'db>,
) -> (Walked<'db>, WalkStamp) {
    let key = WalkKey::new(db, StoredNode::new(node), env.store());
    let stored = walk_query(db, key);
    (stored.get(db), WalkStamp { key: salsa::plumbing::AsId::as_id(&key), generation: stored.generation })
}

/// Which execution of which walk an analysis read: the same stamp later means the
/// walk was reused as it was, every read it made unchanged.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) struct WalkStamp {
    key: salsa::Id,
    generation: u64,
}

/// Numbers the executions of walks (and of `items_generation`), process-wide.
static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn next_generation() -> u64 {
    GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What the walk `stamp` names walked.
pub(crate) fn walked_node<'db>(db: &'db dyn HirDatabase, stamp: WalkStamp) -> Node<'db> {
    let key: WalkKey<'db> = salsa::plumbing::FromId::from_id(stamp.key);
    key.node(db).get()
}

/// Whether the walk `stamp` names is still the execution it names: salsa verifies
/// its reads (and walks it again if one changed, under a new generation).
pub(crate) fn walk_unchanged(db: &dyn HirDatabase, stamp: WalkStamp) -> bool {
    let key: WalkKey<'_> = salsa::plumbing::FromId::from_id(stamp.key);
    walk_query(db, key).generation == stamp.generation
}

/// A number that changes whenever what an analysis resolves outside the walks may
/// read of `crates`' item level has: their trait and inherent impls with the impls'
/// headers, items and their signatures; traits and their items; the signatures of
/// types, type aliases, consts and statics with the fields of types; and the names
/// the types, values and macros of each module resolve to (`ItemLevel`). What
/// resolves outside the walks (`dyn` targets, which method of an impl a call picks,
/// the values a root's parameters may hold, the paths allowlists match) reads
/// nothing else of the workspace. A free function's signature or a new one is not
/// among them: only bodies read those, through their walks. So adding or removing a
/// function leaves this number as it was (rust-analyzer keeps each of these values
/// when an edit changes neither, and salsa does not re-run this query). A type
/// added changes it; `root_reuse` then keeps an outcome only when `item_edits`
/// proves that no code but plain bodies names it.
pub(crate) fn items_generation(db: &dyn HirDatabase, crates: Vec<ra_ap_ide_db::base_db::Crate>) -> u64 {
    *items_generation_query(db, CratesKey::new(db, crates))
}

/// The modules of `crates`' def maps. A function's identity holds its module's, a
/// salsa struct its crate's def map makes and drops with the module: while every
/// module an outcome was kept under is still among these, the functions it kept
/// are still there to be asked about (`root_reuse`), even when their files'
/// texts are the same.
pub(crate) fn workspace_modules(
    db: &dyn HirDatabase,
    crates: Vec<ra_ap_ide_db::base_db::Crate>,
) -> Vec<hir_def::ModuleId> {
    crates.into_iter().flat_map(|krate| modules_of(db, krate).iter().copied()).collect()
}

/// The modules of `krate`'s def map.
#[salsa::tracked(returns(ref))]
fn modules_of(db: &dyn HirDatabase, krate: ra_ap_ide_db::base_db::Crate) -> Vec<hir_def::ModuleId> {
    hir_def::nameres::crate_def_map(db, krate).modules().map(|(module, _)| module).collect()
}

/// Two numbers, each changing whenever its part of the module scopes of `crates`
/// has (`ScopePart`). Both are part of the item level (`items_generation`), kept
/// apart because adding a type, a function or an import that brings neither a
/// macro nor a trait changes the rest and leaves them as they were: then what a
/// workspace file's macro calls were found to expand to stands (`item_edits`
/// keeps what the files no edit touched spell only while the macros stand); the
/// traits may change under a proof that touches no import, and the macros under
/// one whose names (a glob's, a macro's among them) no macro call spells
/// (`root_reuse`).
pub(crate) fn scope_generations(db: &dyn HirDatabase, crates: Vec<ra_ap_ide_db::base_db::Crate>) -> [u64; 2] {
    let crates = CratesKey::new(db, crates);
    [ScopePart::Macros, ScopePart::Traits].map(|part| *scope_generation_query(db, ScopeKey::new(db, crates, part)))
}

/// The arguments of a query of more than one, interned for good. Salsa would
/// intern them itself, but it collects such a value once it has gone unread
/// for a few revisions, and the answer with it: then every walk that read the
/// answer runs again, and a generation number (`scope_generations`) changes
/// with nothing changed. So every query here takes one key of its own.
#[salsa::interned(revisions = usize::MAX)]
struct ScopeKey<'db> {
    crates: CratesKey<'db>,
    part: ScopePart,
}

/// A part of the module scopes that some of what an analysis reads may change
/// with no path to it spelled.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
enum ScopePart {
    /// The names in the macro namespace (declared, imported or re-exported),
    /// with their visibility: what a macro call's path may resolve to. Textual
    /// `macro_rules!` scopes are not here; their edits spell `macro`.
    Macros,
    /// The traits in scope (declared or imported by name): a method call may
    /// pick one of their methods with no path to it.
    Traits,
}

#[salsa::tracked(returns(ref))]
fn scope_generation_query<'db>(db: &'db dyn HirDatabase, key: ScopeKey<'db>) -> u64 {
    let part = key.part(db);
    for &krate in key.crates(db).crates(db) {
        scope_part(db, CrateScopeKey::new(db, krate, part));
    }
    next_generation()
}

/// A crate and a part of its module scopes (`ScopeKey`).
#[salsa::interned(revisions = usize::MAX)]
struct CrateScopeKey<'db> {
    krate: ra_ap_ide_db::base_db::Crate,
    part: ScopePart,
}

/// Per module of `krate`, each of its names with what `part` of it resolves to.
#[salsa::tracked(returns(ref))]
fn scope_part<'db>(
    db: &'db dyn HirDatabase,
    key: CrateScopeKey<'db>,
) -> Vec<(hir_def::ModuleId, hir::Name, NameTarget<hir_def::ModuleDefId>)> {
    let (krate, part) = (*key.krate(db), *key.part(db));
    let mut names = Vec::new();
    for (module_id, module) in hir_def::nameres::crate_def_map(db, krate).modules() {
        for (name, per_ns) in module.scope.entries() {
            let target = match part {
                ScopePart::Macros => per_ns.macros.map(|item| (hir_def::ModuleDefId::MacroId(item.def), item.vis)),
                ScopePart::Traits => per_ns
                    .types
                    .filter(|item| matches!(item.def, hir_def::ModuleDefId::TraitId(_)))
                    .map(|item| (item.def, item.vis)),
            };
            names.extend(target.map(|target| (module_id, name.clone(), target)));
        }
    }
    names
}

/// Reads the signature of `def` and of what it holds (fields, variants, a trait's
/// items), so that a query calling this depends on them.
fn read_signatures(db: &dyn HirDatabase, def: hir_def::ModuleDefId) {
    use hir_def::{signatures::*, AdtId, AssocItemId, ModuleDefId};
    match def {
        // Consts and type aliases: as associated ones. Free functions never come
        // here (`ItemLevel` leaves them out).
        ModuleDefId::ConstId(id) => read_assoc_signature(db, AssocItemId::ConstId(id)),
        ModuleDefId::TypeAliasId(id) => read_assoc_signature(db, AssocItemId::TypeAliasId(id)),
        ModuleDefId::AdtId(AdtId::StructId(id)) => {
            StructSignature::of(db, id);
            VariantFields::of(db, id.into());
        }
        ModuleDefId::AdtId(AdtId::UnionId(id)) => {
            UnionSignature::of(db, id);
            VariantFields::of(db, id.into());
        }
        ModuleDefId::AdtId(AdtId::EnumId(id)) => {
            EnumSignature::of(db, id);
            for variant in hir::Enum::from(id).variants(db) {
                VariantFields::of(db, hir_def::EnumVariantId::from(variant).into());
            }
        }
        ModuleDefId::TraitId(id) => {
            TraitSignature::of(db, id);
            for (_, item) in hir_def::nameres::assoc::TraitItems::query_with_diagnostics(db, id).0.items.iter() {
                read_assoc_signature(db, *item);
            }
        }
        ModuleDefId::StaticId(id) => {
            StaticSignature::of(db, id);
        }
        _ => {}
    }
}

fn read_assoc_signature(db: &dyn HirDatabase, item: hir_def::AssocItemId) {
    use hir_def::{signatures::*, AssocItemId};
    match item {
        AssocItemId::FunctionId(id) => {
            FunctionSignature::of(db, id);
        }
        AssocItemId::ConstId(id) => {
            ConstSignature::of(db, id);
        }
        AssocItemId::TypeAliasId(id) => {
            TypeAliasSignature::of(db, id);
        }
    }
}

#[salsa::interned(revisions = usize::MAX)]
struct CratesKey<'db> {
    #[returns(ref)]
    crates: Vec<ra_ap_ide_db::base_db::Crate>,
}

#[salsa::tracked(returns(ref))]
fn items_generation_query<'db>(db: &'db dyn HirDatabase, key: CratesKey<'db>) -> u64 {
    for &krate in key.crates(db) {
        hir_ty::method_resolution::TraitImpls::for_crate(db, krate);
        hir_ty::method_resolution::InherentImpls::for_crate(db, krate);
        let level = item_level(db, krate);
        for &def in &level.declarations {
            read_signatures(db, def);
        }
        for &impl_ in &level.impls {
            hir_def::signatures::ImplSignature::of(db, impl_);
            for (_, item) in hir_def::nameres::assoc::ImplItems::of(db, impl_).0.items.iter() {
                read_assoc_signature(db, *item);
            }
        }
    }
    next_generation()
}

/// One crate's def map less what only bodies read: the functions it declares.
/// Equal after an edit that adds, removes or moves a free function (their ids are
/// kept with their names), so salsa keeps it and `items_generation` stands.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct ItemLevel {
    /// Per module, each name with what it resolves to.
    names: Vec<ModuleName>,
    impls: Vec<hir_def::ImplId>,
    /// Every item declared, free functions but for.
    declarations: Vec<hir_def::ModuleDefId>,
}

/// A name of a module with what it resolves to in the type, value and macro
/// namespaces, with its visibility. A value that is a function declared there is
/// left out; one imported (a re-export, which gives a function a path) is kept.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct ModuleName {
    module: hir_def::ModuleId,
    name: hir::Name,
    types: Option<NameTarget<hir_def::ModuleDefId>>,
    values: Option<NameTarget<hir_def::ModuleDefId>>,
    macros: Option<NameTarget<hir_def::MacroId>>,
}

type NameTarget<Def> = (Def, hir_def::visibility::Visibility);

#[salsa::tracked(returns(ref))]
fn item_level(db: &dyn HirDatabase, krate: ra_ap_ide_db::base_db::Crate) -> ItemLevel {
    use hir_def::ModuleDefId;
    let is_declared_fn = |def: &ModuleDefId| matches!(def, ModuleDefId::FunctionId(_));
    let mut level = ItemLevel { names: Vec::new(), impls: Vec::new(), declarations: Vec::new() };
    for (module_id, module) in hir_def::nameres::crate_def_map(db, krate).modules() {
        for (name, per_ns) in module.scope.entries() {
            let types = per_ns.types.map(|item| (item.def, item.vis));
            let values = per_ns
                .values
                .filter(|item| item.import.is_some() || !is_declared_fn(&item.def))
                .map(|item| (item.def, item.vis));
            let macros = per_ns.macros.map(|item| (item.def, item.vis));
            if types.is_some() || values.is_some() || macros.is_some() {
                level.names.push(ModuleName { module: module_id, name: name.clone(), types, values, macros });
            }
        }
        level.impls.extend(module.scope.impls());
        level.declarations.extend(module.scope.declarations().filter(|def| !is_declared_fn(def)));
        level.declarations.extend(module.scope.unnamed_consts().map(ModuleDefId::ConstId));
    }
    level
}

/// What a path expression of a body names in the value namespace, as far as the
/// walks ask: a local binding, a static or a const.
#[derive(Clone, Copy, PartialEq, Eq, Debug, salsa::SalsaValue)]
pub(crate) enum PathValue {
    Local(hir_def::hir::BindingId),
    Static(hir_def::StaticId),
    Const(hir_def::ConstId),
    Other,
}

/// What the path expression `expr` of `owner`'s body names. A query of its own:
/// resolving reads the crate's def map, which adding or removing any item changes,
/// while the answer seldom does; salsa keeps the answer, and the walk that asked
/// stands instead of running again.
pub(crate) fn value_path(
    db: &dyn HirDatabase,
    owner: hir_def::DefWithBodyId,
    expr: hir_def::hir::ExprId,
) -> Option<PathValue> {
    *value_path_query(db, ValuePathKey::new(db, owner, expr))
}

/// A path expression of a body (`ScopeKey`).
#[salsa::interned(revisions = usize::MAX)]
struct ValuePathKey<'db> {
    owner: hir_def::DefWithBodyId,
    expr: hir_def::hir::ExprId,
}

#[salsa::tracked]
fn value_path_query<'db>(db: &'db dyn HirDatabase, key: ValuePathKey<'db>) -> Option<PathValue> {
    let (owner, expr) = (*key.owner(db), *key.expr(db));
    use hir_def::{
        expr_store::{scope::ExprScopes, Body},
        hir::Expr,
        resolver::{resolver_for_scope, ValueNs},
    };
    let body = Body::of(db, owner);
    let Expr::Path(path) = &body[expr] else { return None };
    let scopes = ExprScopes::of(db, owner);
    let resolver = resolver_for_scope(db, owner, scopes.scope_for(expr));
    Some(match resolver.resolve_path_in_value_ns_fully(db, path, body.expr_path_hygiene(expr))? {
        ValueNs::LocalBinding(binding) => PathValue::Local(binding),
        ValueNs::StaticId(id) => PathValue::Static(id),
        ValueNs::ConstId(id) => PathValue::Const(id),
        _ => PathValue::Other,
    })
}

/// Whether no code can store an atomic static's empty value back
/// (`static_setup::never_emptied`). A query of its own: the scan reads the crate's
/// def map and the bodies the static's visibility admits; salsa keeps the answer,
/// and the walk that asked stands while it holds.
pub(crate) fn static_never_emptied(db: &dyn HirDatabase, place: super::static_setup::SetupStatic) -> bool {
    *never_emptied_query(db, SetupStaticKey::new(db, place.id, place.empty, place.pointer, place.mutable))
}

/// A static setup may fill and its empty value (`static_never_emptied`).
#[salsa::interned(revisions = usize::MAX)]
struct SetupStaticKey<'db> {
    id: hir_def::StaticId,
    empty: u128,
    pointer: bool,
    mutable: bool,
}

#[salsa::tracked]
fn never_emptied_query<'db>(db: &'db dyn HirDatabase, key: SetupStaticKey<'db>) -> bool {
    let place = super::static_setup::SetupStatic {
        id: *key.id(db),
        empty: *key.empty(db),
        pointer: *key.pointer(db),
        mutable: *key.mutable(db),
    };
    super::static_setup::never_emptied(db, place)
}

/// What a body may name a function by: the last segments of its paths and the
/// names of its method calls, macro expansions included; and whether it holds
/// items of its own (whose `use`s may name one by another name).
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
pub(crate) struct NamesInBody {
    pub names: Vec<hir::Name>,
    pub holds_items: bool,
}

/// `NamesInBody` of `func`'s body, no inference: from its syntax when it holds no
/// macro call, else from its lowered body, macro expansions included. Lowering
/// every body of a large workspace to look for one name was most of what it cost
/// beyond loading (13,500 functions of the 80k-line synthetic workspace: 0.7 s).
#[salsa::tracked(returns(ref))]
pub(crate) fn names_in_body(db: &dyn HirDatabase, func: FunctionId) -> NamesInBody {
    if let Some(spelled) = names_spelled_in_body(db, func) {
        return spelled;
    }
    use hir_def::{
        expr_store::{path::Path, Body},
        hir::Expr,
    };
    let body = Body::of(db, hir_def::DefWithBodyId::FunctionId(func));
    let mut names: Vec<hir::Name> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<&hir::Name> = rustc_hash::FxHashSet::default();
    for (_, expr) in body.exprs() {
        let name = match expr {
            Expr::Path(Path::LangItem(_, name)) => name.as_ref(),
            Expr::Path(path) => path.segments().last().map(|segment| segment.name),
            Expr::MethodCall { method_name, .. } => Some(method_name),
            _ => None,
        };
        if let Some(name) = name.filter(|name| seen.insert(name)) {
            names.push(name.clone());
        }
    }
    NamesInBody { names, holds_items: body.blocks(db).next().is_some() }
}

/// Every name `func`'s body spells (a superset of those its lowered body has:
/// lowering adds names only by expanding macros, and by desugaring, whose calls
/// are to lang items, which `instantiations::instantiations` looks for by inference),
/// and whether it holds items; `None` when it holds a macro call, or has no body.
fn names_spelled_in_body(db: &dyn HirDatabase, func: FunctionId) -> Option<NamesInBody> {
    use hir::HasSource;
    use hir_expand::name::AsName;
    use ra_ap_syntax::{ast, AstNode};
    let body = hir::Function::from(func).source(db)?.value.body()?;
    let mut names: Vec<hir::Name> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<hir::Name> = rustc_hash::FxHashSet::default();
    let mut holds_items = false;
    for node in body.syntax().descendants() {
        if ast::MacroCall::can_cast(node.kind()) {
            return None;
        }
        holds_items |= ast::Item::can_cast(node.kind());
        if let Some(name) = ast::NameRef::cast(node).map(|name_ref| name_ref.as_name()) {
            if seen.insert(name.clone()) {
                names.push(name);
            }
        }
    }
    Some(NamesInBody { names, holds_items })
}

/// A number for an instance that stays the same across analyses (its interned
/// key, never collected): how outcomes kept from one analysis count the functions
/// they checked together with another's.
pub(crate) fn instance_number(db: &dyn HirDatabase, node: Node<'_>) -> salsa::Id {
    salsa::plumbing::AsId::as_id(&InstanceKey::new(db, StoredNode::new(node)))
}

/// `identity::instance_identity`, memoized: the summary cache's key for `node`.
pub(crate) fn instance_key<'db>(db: &'db dyn HirDatabase, node: Node<'db>) -> Option<&'db SummaryKey> {
    let Node::Fn { .. } = node else { return None };
    instance_key_query(db, InstanceKey::new(db, StoredNode::new(node))).as_ref()
}

/// `Node::name`, memoized across analyses: the chains of findings name the same
/// instances after every edit.
pub(crate) fn node_name<'db>(db: &'db dyn HirDatabase, node: Node<'db>) -> &'db str {
    node_name_query(db, InstanceKey::new(db, StoredNode::new(node)))
}

#[salsa::tracked(returns(ref))]
fn node_name_query<'db>(db: &'db dyn HirDatabase, key: InstanceKey<'db>) -> String {
    key.node(db).get().name_uncached(db)
}

#[salsa::interned(revisions = usize::MAX)]
struct InstanceKey<'db> {
    #[returns(ref)]
    node: StoredNode<'db>,
}

#[salsa::tracked(returns(ref))]
fn instance_key_query<'db>(db: &'db dyn HirDatabase, key: InstanceKey<'db>) -> Option<SummaryKey> {
    crate::engine::source::identity::instance_identity(db, &key.node(db).get()).map(SummaryKey::new)
}

/// The allowlist entries that name a function: `Some(Ok(i))` entry `i` of
/// `CheckConfig::allow`, `Some(Err(()))` a built-in one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub(crate) struct AllowMatch {
    /// An entry that lets its calls through.
    pub allow: Option<Result<usize, ()>>,
    /// A `growth:` entry: its calls grow their receiver.
    pub growth: Option<Result<usize, ()>>,
}

/// The configured allowlist: `(growth, path pattern)` of each entry, in order.
#[salsa::interned(revisions = usize::MAX)]
pub(crate) struct AllowList<'db> {
    #[returns(ref)]
    patterns: Vec<(bool, String)>,
}

/// Which entries of `list`, then of the built-in allowlist, name `func`.
/// Memoized across analyses: matching every reached function's paths against every
/// pattern is a fifth of an edit's analysis otherwise, and std's functions never
/// change names.
pub(crate) fn allow_match<'db>(db: &'db dyn HirDatabase, list: AllowList<'db>, func: FunctionId) -> AllowMatch {
    *allow_match_query(db, AllowKey::new(db, list, func))
}

/// An allowlist and a function (`ScopeKey`).
#[salsa::interned(revisions = usize::MAX)]
struct AllowKey<'db> {
    list: AllowList<'db>,
    func: FunctionId,
}

#[salsa::tracked]
fn allow_match_query<'db>(db: &'db dyn HirDatabase, key: AllowKey<'db>) -> AllowMatch {
    let (list, func) = (key.list(db), *key.func(db));
    let names = crate::engine::source::identity::FnNames::of(db, func);
    let patterns = list.patterns(db);
    let configured = |growth: bool| patterns.iter().position(|(grows, path)| *grows == growth && names.matches(path));
    AllowMatch {
        allow: match configured(false) {
            Some(i) => Some(Ok(i)),
            None => super::builtin::allows(|pattern| names.defined_matches(pattern)).then_some(Err(())),
        },
        growth: match configured(true) {
            Some(i) => Some(Ok(i)),
            None => super::builtin::grows(|pattern| names.matches(pattern)).then_some(Err(())),
        },
    }
}

/// Where a call of `func` at `args` goes in `env` (`CallGraph::resolve_call`),
/// memoized. rust-analyzer's `lookup_impl_method` is no query, and the trait
/// solver it runs reads every impl of the environment's crate, so a walk that
/// called it directly ran again whenever any impl of that crate changed (every
/// walk of a workspace body, for a trait impl added anywhere in the workspace).
/// Through this query a walk reads the answer only, which salsa keeps when an
/// edit leaves it the same.
pub(crate) fn resolved_call<'db>(
    db: &'db dyn HirDatabase,
    func: FunctionId,
    args: hir_ty::next_solver::GenericArgs<'db>,
    env: ParamEnvAndCrate<'db>,
) -> Vec<Target<'db>> {
    resolved_call_query(db, CallKey::new(db, func, args.store(), env.store())).iter().map(StoredTarget::get).collect()
}

/// `resolved_call`, with a stamp that tells later whether the answer is still the
/// same (`answer_unchanged`): for what a reach resolves outside its walks.
pub(crate) fn resolved_call_stamped<'db>(
    db: &'db dyn HirDatabase,
    func: FunctionId,
    args: hir_ty::next_solver::GenericArgs<'db>,
    env: ParamEnvAndCrate<'db>,
) -> (Vec<Target<'db>>, AnswerStamp) {
    let key = CallKey::new(db, func, args.store(), env.store());
    let stamp =
        AnswerStamp::Call { key: salsa::plumbing::AsId::as_id(&key), generation: *call_answer_generation(db, key) };
    (resolved_call_query(db, key).iter().map(StoredTarget::get).collect(), stamp)
}

/// Whether a value of `ty` needs drop glue under `env`, with a stamp that tells
/// later whether the answer is still the same (`answer_unchanged`).
pub(crate) fn needs_drop_stamped<'db>(
    db: &'db dyn HirDatabase,
    ty: hir_ty::next_solver::Ty<'db>,
    env: ParamEnvAndCrate<'db>,
) -> (bool, AnswerStamp) {
    let key = DropKey::new(db, ty.store(), env.store());
    let stamp =
        AnswerStamp::Drop { key: salsa::plumbing::AsId::as_id(&key), generation: *drop_answer_generation(db, key) };
    (*needs_drop_query(db, key), stamp)
}

/// Which answer of a question asked outside the walks an analysis read
/// (`resolved_call_stamped`, `needs_drop_stamped`): the same stamp later means
/// the same answer.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) enum AnswerStamp {
    Call { key: salsa::Id, generation: u64 },
    Drop { key: salsa::Id, generation: u64 },
}

/// Whether the question `stamp` names still has the answer it had (salsa
/// verifies what the answer read, and works it out again if one changed).
pub(crate) fn answer_unchanged(db: &dyn HirDatabase, stamp: AnswerStamp) -> bool {
    match stamp {
        AnswerStamp::Call { key, generation } => {
            *call_answer_generation(db, salsa::plumbing::FromId::from_id(key)) == generation
        }
        AnswerStamp::Drop { key, generation } => {
            *drop_answer_generation(db, salsa::plumbing::FromId::from_id(key)) == generation
        }
    }
}

/// A new number each time `resolved_call_query`'s answer for `key` changes: it
/// reads only that answer, which salsa compares, so it runs again only then.
#[salsa::tracked(returns(ref))]
fn call_answer_generation<'db>(db: &'db dyn HirDatabase, key: CallKey<'db>) -> u64 {
    let _ = resolved_call_query(db, key);
    next_generation()
}

#[salsa::interned(revisions = usize::MAX)]
struct DropKey<'db> {
    #[returns(ref)]
    ty: StoredTy,
    #[returns(ref)]
    env: StoredParamEnvAndCrate,
}

#[salsa::tracked(returns(ref))]
fn needs_drop_query<'db>(db: &'db dyn HirDatabase, key: DropKey<'db>) -> bool {
    let env = key.env(db).as_ref(db);
    CallGraph::new(db, env.krate).needs_drop(key.ty(db).as_ref(), env)
}

/// `call_answer_generation` for `needs_drop_query`.
#[salsa::tracked(returns(ref))]
fn drop_answer_generation<'db>(db: &'db dyn HirDatabase, key: DropKey<'db>) -> u64 {
    let _ = needs_drop_query(db, key);
    next_generation()
}

#[salsa::interned(revisions = usize::MAX)]
struct CallKey<'db> {
    func: FunctionId,
    #[returns(ref)]
    args: StoredGenericArgs,
    #[returns(ref)]
    env: StoredParamEnvAndCrate,
}

#[salsa::tracked(returns(ref))]
fn resolved_call_query<'db>(db: &'db dyn HirDatabase, key: CallKey<'db>) -> Vec<StoredTarget<'db>> {
    let env = key.env(db).as_ref(db);
    let mut graph = CallGraph::new(db, env.krate);
    graph.resolve_call_uncached(*key.func(db), key.args(db).as_ref(), env).iter().map(StoredTarget::new).collect()
}

#[salsa::interned(revisions = usize::MAX)]
struct WalkKey<'db> {
    #[returns(ref)]
    node: StoredNode<'db>,
    #[returns(ref)]
    env: StoredParamEnvAndCrate,
}

/// A walk must read no def map directly (a resolver, a module's path, a name
/// worked out without its query): adding any item to a crate changes its def map,
/// and every walk of the crate's bodies would run again. What it needs of one goes
/// through a query whose answer salsa keeps (`value_path`, `node_name`).
#[salsa::tracked(returns(ref), no_eq)]
fn walk_query<'db>(db: &'db dyn HirDatabase, key: WalkKey<'db>) -> StoredWalked<'db> {
    EXECUTED.with(|n| n.set(n.get() + 1));
    let env = key.env(db).as_ref(db);
    let node = key.node(db).get();
    let mut graph = CallGraph::new(db, env.krate);
    StoredWalked::new(&graph.walk_uncached(node, env), next_generation())
}

#[derive(Clone, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
enum StoredNode<'db> {
    Fn { func: FunctionId, args: StoredGenericArgs, consts: Option<super::constants::ConstArgs<'db>> },
    Closure { closure: InternedClosureId<'db>, parent_args: StoredGenericArgs },
    DropGlue(StoredTy),
    Derived { method: FunctionId, args: StoredGenericArgs },
    Init(hir_def::DefWithBodyId, StoredGenericArgs),
}

impl<'db> StoredNode<'db> {
    fn new(node: Node<'db>) -> Self {
        match node {
            Node::Fn { func, args, consts } => StoredNode::Fn { func, args: args.store(), consts },
            Node::Closure { closure, parent_args } => StoredNode::Closure { closure, parent_args: parent_args.store() },
            Node::DropGlue(ty) => StoredNode::DropGlue(ty.store()),
            Node::Derived { method, args } => StoredNode::Derived { method, args: args.store() },
            Node::Init(def, args) => StoredNode::Init(def, args.store()),
        }
    }

    fn get(&self) -> Node<'db> {
        match self {
            StoredNode::Fn { func, args, consts } => Node::Fn { func: *func, args: args.as_ref(), consts: *consts },
            StoredNode::Closure { closure, parent_args } => {
                Node::Closure { closure: *closure, parent_args: parent_args.as_ref() }
            }
            StoredNode::DropGlue(ty) => Node::DropGlue(ty.as_ref()),
            StoredNode::Derived { method, args } => Node::Derived { method: *method, args: args.as_ref() },
            StoredNode::Init(def, args) => Node::Init(*def, args.as_ref()),
        }
    }
}

#[derive(Debug, salsa::SalsaValue)]
struct StoredWalked<'db> {
    edges: Vec<StoredEdge<'db>>,
    coercions: Vec<(StoredTy, StoredTy)>,
    address_taken: Vec<StoredTaken<'db>>,
    fn_casts: Vec<(Signature, Signature)>,
    statics: Vec<(hir_def::DefWithBodyId, StoredGenericArgs)>,
    untyped: Vec<StoredTy>,
    empties: Vec<FilledPlace>,
    /// Which execution of the walk this is (`WalkStamp`).
    generation: u64,
}

#[derive(Debug, salsa::SalsaValue)]
struct StoredTaken<'db> {
    target: StoredTarget<'db>,
    signature: Signature,
}

#[derive(Debug, salsa::SalsaValue)]
struct StoredEdge<'db> {
    target: StoredTarget<'db>,
    site: Option<Site>,
    drop_of: Option<StoredTy>,
    callee_label: Option<String>,
    context: CallContext,
    growth: Option<Growth>,
    panic: Panic,
    passed: PassedClosures,
    passes_owned: bool,
    fills: Vec<FilledPlace>,
    dyn_args: Vec<(StoredTy, StoredTy)>,
}

#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
enum StoredTarget<'db> {
    Node(StoredNode<'db>),
    Allocator(FunctionId),
    Foreign(FunctionId),
    Intrinsic(FunctionId),
    Unknown { what: String, kind: UnknownKind },
    FnPointer { what: String, signature: Signature },
    Dyn { method: FunctionId, args: StoredGenericArgs },
    DynDrop(StoredTy),
    Summary(std::sync::Arc<CachedSummary>),
}

impl<'db> StoredTarget<'db> {
    fn new(target: &Target<'db>) -> Self {
        match target {
            Target::Node(node) => StoredTarget::Node(StoredNode::new(*node)),
            Target::Allocator(f) => StoredTarget::Allocator(*f),
            Target::Foreign(f) => StoredTarget::Foreign(*f),
            Target::Intrinsic(f) => StoredTarget::Intrinsic(*f),
            Target::Unknown { what, kind } => StoredTarget::Unknown { what: what.clone(), kind: *kind },
            Target::FnPointer { what, signature } => {
                StoredTarget::FnPointer { what: what.clone(), signature: signature.clone() }
            }
            Target::Dyn { method, args } => StoredTarget::Dyn { method: *method, args: args.store() },
            Target::DynDrop(ty) => StoredTarget::DynDrop(ty.store()),
            Target::Summary(summary) => StoredTarget::Summary(summary.clone()),
        }
    }

    fn get(&self) -> Target<'db> {
        match self {
            StoredTarget::Node(node) => Target::Node(node.get()),
            StoredTarget::Allocator(f) => Target::Allocator(*f),
            StoredTarget::Foreign(f) => Target::Foreign(*f),
            StoredTarget::Intrinsic(f) => Target::Intrinsic(*f),
            StoredTarget::Unknown { what, kind } => Target::Unknown { what: what.clone(), kind: *kind },
            StoredTarget::FnPointer { what, signature } => {
                Target::FnPointer { what: what.clone(), signature: signature.clone() }
            }
            StoredTarget::Dyn { method, args } => Target::Dyn { method: *method, args: args.as_ref() },
            StoredTarget::DynDrop(ty) => Target::DynDrop(ty.as_ref()),
            StoredTarget::Summary(summary) => Target::Summary(summary.clone()),
        }
    }
}

impl<'db> StoredWalked<'db> {
    fn new(walked: &Walked<'db>, generation: u64) -> Self {
        StoredWalked {
            generation,
            edges: walked.edges.iter().map(StoredEdge::new).collect(),
            coercions: walked.coercions.iter().map(|(from, to)| (from.store(), to.store())).collect(),
            address_taken: walked
                .address_taken
                .iter()
                .map(|(t, sig)| StoredTaken { target: StoredTarget::new(t), signature: sig.clone() })
                .collect(),
            fn_casts: walked.fn_casts.clone(),
            statics: walked.statics.iter().map(|&(def, args)| (def, args.store())).collect(),
            untyped: walked.untyped.iter().map(|ty| ty.store()).collect(),
            empties: walked.empties.clone(),
        }
    }

    fn get(&self, _db: &'db dyn HirDatabase) -> Walked<'db> {
        Walked {
            edges: self.edges.iter().map(StoredEdge::get).collect(),
            coercions: self.coercions.iter().map(|(from, to)| (from.as_ref(), to.as_ref())).collect(),
            address_taken: self
                .address_taken
                .iter()
                .map(|taken| (taken.target.get(), taken.signature.clone()))
                .collect(),
            fn_casts: self.fn_casts.clone(),
            statics: self.statics.iter().map(|(def, args)| (*def, args.as_ref())).collect(),
            untyped: self.untyped.iter().map(StoredTy::as_ref).collect(),
            empties: self.empties.clone(),
        }
    }
}

impl<'db> StoredEdge<'db> {
    fn new(edge: &Edge<'db>) -> Self {
        StoredEdge {
            target: StoredTarget::new(&edge.target),
            site: edge.site,
            drop_of: edge.drop_of.map(|ty| ty.store()),
            callee_label: edge.callee_label.clone(),
            context: edge.context,
            growth: edge.growth.clone(),
            panic: edge.panic,
            passed: edge.passed,
            passes_owned: edge.passes_owned,
            fills: edge.fills.clone(),
            dyn_args: edge.dyn_args.iter().map(|(from, to)| (from.store(), to.store())).collect(),
        }
    }

    fn get(&self) -> Edge<'db> {
        Edge {
            target: self.target.get(),
            site: self.site,
            drop_of: self.drop_of.as_ref().map(StoredTy::as_ref),
            callee_label: self.callee_label.clone(),
            context: self.context,
            growth: self.growth.clone(),
            panic: self.panic,
            passed: self.passed,
            passes_owned: self.passes_owned,
            fills: self.fills.clone(),
            dyn_args: self.dyn_args.iter().map(|(from, to)| (from.as_ref(), to.as_ref())).collect(),
        }
    }
}
