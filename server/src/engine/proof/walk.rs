//! The walk of one instance: what a `(function, generic arguments)` instance, a
//! closure, a derived method or drop glue does, read from rust-analyzer's inference
//! results with the caller's arguments substituted. It records neutral facts — the
//! calls (resolved to a body where the source decides it, or left open with the
//! reason), drops, coercions to `dyn Trait`, functions whose address is taken, the
//! statics a body reads, and where each call stands (`allowances::BodyFacts`).
//! It judges nothing: which calls are allowed, reported or cut is `judge`'s work,
//! and `dyn`/fn-pointer targets are `resolve`'s.

use std::rc::Rc;

use hir_def::{
    expr_store::{Body, ExpressionStore},
    hir::{
        Array, BindingAnnotation, BindingId, ClosureKind, Expr, ExprId, ExprOrPatId, Pat, PatId, RecordSpread,
        Statement,
    },
    lang_item::LangItems,
    signatures::{FnFlags, FunctionSignature},
    AdtId, CallableDefId, DefWithBodyId, FunctionId, ItemContainerId, TraitId, VariantId,
};
use hir_ty::{
    db::HirDatabase,
    drop::{has_drop_glue, DropGlue},
    method_resolution::is_dyn_method,
    next_solver::{infer::DbInternerInferExt, DbInterner, GenericArgs, Ty, TyKind, TypingMode},
    Adjust, InferBodyId, InferenceResult, OverloadedDeref, ParamEnvAndCrate, PointerCast,
};
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::{
    inherent::{BoundExistentialPredicates as _, GenericArgs as _, IntoKind},
    TypeVisitableExt,
};

pub(crate) use super::model::{
    growing_without_end, Edge, Node, Panic, PassedClosures, Shape, Signature, Site, Target, UnknownKind, Walked,
};
use super::{
    allowances::{
        auto_borrow, filled_places, is_long_lived_place, is_static_place, owns, place_key, BodyFacts, FilledPlace,
        Growth, Room,
    },
    constants::{ConstArgs, Evaluator, Value, MAX_CARRY_DEPTH},
    incremental::PathValue,
    room::{Amount, RoomProof},
    subst::Instantiate,
};

/// How deep `holds_dyn_or_fn_pointer` looks into a type before it takes it to
/// hold anything.
const MAX_HOLDS_DEPTH: usize = 32;

/// Foreign symbols that are the allocator itself.
const ALLOCATOR_SYMBOLS: &[&str] = &[
    "__rust_alloc",
    "__rust_alloc_zeroed",
    "__rust_realloc",
    "__rdl_alloc",
    "__rdl_alloc_zeroed",
    "__rdl_realloc",
    "malloc",
    "calloc",
    "realloc",
    "reallocarray",
    "posix_memalign",
    "aligned_alloc",
    "memalign",
    "valloc",
    "pvalloc",
    "strdup",
    "strndup",
    "mallocx",
    "rallocx",
    "je_malloc",
    "mi_malloc",
];

/// Crates whose containers and lazy cells the allowances know by name.
const STD_CRATES: &[&str] = &["core", "alloc", "std", "hashbrown", "once_cell", "lazy_static"];

/// Buffers whose growth reallocates only when full.
const GROWABLE: &[&str] = &["Vec", "String", "VecDeque", "BinaryHeap", "HashMap", "HashSet", "IndexMap", "IndexSet"];

/// Methods that grow a buffer by one element, and by many.
const GROWS_BY_ONE: &[&str] = &["push", "push_back", "push_front", "insert", "write_char"];
const GROWS_BY_MANY: &[&str] = &[
    "extend",
    "extend_from_slice",
    "extend_from_within",
    "push_str",
    "insert_str",
    "append",
    "write_fmt",
    "write_str",
    "write",
    "write_all",
    "resize",
    "resize_with",
    "clone_from",
];

/// Lazy cells and their methods that initialise on first use.
/// (`thread_local::*`: the storage `thread_local!` expands to, in std's
/// `sys::thread_local` modules.)
const FIRST_USE_TYPES: &[&str] = &[
    "OnceLock",
    "OnceCell",
    "LazyLock",
    "LazyCell",
    "Lazy",
    "Once",
    "OnceBox",
    "LocalKey",
    "thread_local::Storage",
    "thread_local::LazyStorage",
    "thread_local::EagerStorage",
];
const FIRST_USE_METHODS: &[&str] = &[
    "get_or_init",
    "get_or_try_init",
    "get_mut_or_init",
    "call_once",
    "call_once_force",
    "force",
    "force_mut",
    "deref",
    "deref_mut",
    "with",
    "with_borrow",
    "with_borrow_mut",
];

/// First-use methods whose closure argument runs on every call (the cell's own
/// initialiser is elsewhere): `LocalKey::with` and friends.
const EVERY_CALL_METHODS: &[&str] = &["with", "with_borrow", "with_borrow_mut"];

/// `LocalKey`'s methods past `with`: each initialises the thread-local on first
/// use, as `with` does, and otherwise runs its closure (judged on every call) or
/// moves values in and out of the `Cell`/`RefCell` it holds, running no trait
/// method of the value but its drop (a `Drop` of the user's is judged as a
/// callback). Not `take`: it runs the value's `Default`, which may allocate.
const LOCAL_KEY_METHODS: &[&str] = &["try_with", "update", "set", "get", "replace"];

/// `Option`'s methods that fill it when empty: first-use setup on a field or static.
const OPTION_FIRST_USE_METHODS: &[&str] = &["get_or_insert_with", "get_or_insert"];

/// std's methods that turn a `dyn Any` into a value of a type it names.
const DOWNCASTS: &[&str] = &[
    "downcast_ref",
    "downcast_mut",
    "downcast",
    "downcast_ref_unchecked",
    "downcast_mut_unchecked",
    "downcast_unchecked",
];

/// Whether `Owner::method` of std initialises its value on first use.
fn initialises_on_first_use(owner: &str, method: &str) -> bool {
    (FIRST_USE_TYPES.contains(&owner) && FIRST_USE_METHODS.contains(&method))
        || (owner == "LocalKey" && LOCAL_KEY_METHODS.contains(&method))
        || (owner == "Option" && OPTION_FIRST_USE_METHODS.contains(&method))
}

/// Static call resolution and the per-body facts, shared by the walks of one
/// analysis (or one salsa query).
pub(crate) struct CallGraph<'db> {
    pub db: &'db dyn HirDatabase,
    pub interner: DbInterner<'db>,
    lang: &'db LangItems,
    facts: FxHashMap<DefWithBodyId, Rc<BodyFacts>>,
    panic_machinery: FxHashMap<FunctionId, bool>,
    holds_pointers: FxHashMap<Ty<'db>, bool>,
    /// The walks this analysis has read (the roots' reaches overlap: specifics asks
    /// for 2,700 walks 17,600 times), and the summary keys of its instances.
    walks: FxHashMap<(Node<'db>, ParamEnvAndCrate<'db>), (Rc<Walked<'db>>, super::incremental::WalkStamp)>,
    instance_keys: FxHashMap<Node<'db>, Option<&'db super::summary::SummaryKey>>,
    /// `constants::decisive_params`, per function.
    decisive_params: FxHashMap<FunctionId, &'db [bool]>,
    /// Traits as summaries name them (`identity::trait_identity`: a source lookup).
    trait_identities: FxHashMap<TraitId, Option<crate::engine::source::identity::ItemIdentity>>,
    /// Fingerprints of types and functions (`identity::ty_fingerprint`).
    ty_fingerprints: FxHashMap<Ty<'db>, Option<u64>>,
    fn_fingerprints: FxHashMap<FunctionId, Option<u64>>,
    /// The stamps of the walks read since `record_walks` (a root's, to reuse its
    /// outcome while they hold).
    recorded: Option<Vec<super::incremental::WalkStamp>>,
    /// The environment each instance is walked in (`walk_env`).
    walk_envs: super::walk_env::WalkEnvs<'db>,
    /// The stores into each sealed field (`sealed_fields::stores_into`).
    sealed_stores: FxHashMap<hir_def::FieldId, Rc<super::sealed_fields::FieldStores<'db>>>,
}

impl<'db> CallGraph<'db> {
    pub(crate) fn new(db: &'db dyn HirDatabase, krate: base_db::Crate) -> Self {
        let interner = DbInterner::new_with(db, krate);
        CallGraph {
            db,
            interner,
            lang: interner.lang_items(),
            facts: FxHashMap::default(),
            panic_machinery: FxHashMap::default(),
            holds_pointers: FxHashMap::default(),
            walks: FxHashMap::default(),
            instance_keys: FxHashMap::default(),
            decisive_params: FxHashMap::default(),
            trait_identities: FxHashMap::default(),
            ty_fingerprints: FxHashMap::default(),
            fn_fingerprints: FxHashMap::default(),
            recorded: None,
            walk_envs: Default::default(),
            sealed_stores: FxHashMap::default(),
        }
    }

    /// `sealed_fields::stores_into`, read once per analysis.
    pub(crate) fn sealed_stores(&mut self, field: hir_def::FieldId) -> Rc<super::sealed_fields::FieldStores<'db>> {
        if let Some(stores) = self.sealed_stores.get(&field) {
            return stores.clone();
        }
        let stores = Rc::new(super::sealed_fields::stores_into(self, field));
        self.sealed_stores.insert(field, stores.clone());
        stores
    }

    /// `incremental::walked`, read once per analysis.
    /// `env` is the root's: the walk is in the environment `walk_env` chooses.
    pub(crate) fn walked(&mut self, node: Node<'db>, env: ParamEnvAndCrate<'db>) -> Rc<Walked<'db>> {
        let db = self.db;
        let env = self.walk_envs.env_of(db, node, env);
        let (walked, stamp) = self.walks.entry((node, env)).or_insert_with(|| {
            let (walked, stamp) = super::incremental::walked(db, node, env);
            (Rc::new(walked), stamp)
        });
        if let Some(recorded) = &mut self.recorded {
            recorded.push(*stamp);
        }
        walked.clone()
    }

    /// Starts keeping the stamps of the walks read from now on.
    pub(crate) fn record_walks(&mut self) {
        self.recorded = Some(Vec::new());
    }

    /// The stamps kept since `record_walks`, and stops keeping them.
    pub(crate) fn recorded_walks(&mut self) -> Vec<super::incremental::WalkStamp> {
        let mut recorded = self.recorded.take().unwrap_or_default();
        recorded.sort_unstable();
        recorded.dedup();
        recorded
    }

    /// `constants::decisive_params`, read once per analysis.
    fn decisive_params(&mut self, func: FunctionId) -> &'db [bool] {
        let db = self.db;
        self.decisive_params.entry(func).or_insert_with(|| super::constants::decisive_params(db, func).as_slice())
    }

    /// `incremental::instance_key`, read once per analysis.
    pub(crate) fn instance_key(&mut self, node: Node<'db>) -> Option<&'db super::summary::SummaryKey> {
        let db = self.db;
        *self.instance_keys.entry(node).or_insert_with(|| super::incremental::instance_key(db, node))
    }

    /// `identity::trait_identity`, worked out once per analysis.
    pub(crate) fn trait_identity(&mut self, trait_: TraitId) -> Option<crate::engine::source::identity::ItemIdentity> {
        let db = self.db;
        self.trait_identities
            .entry(trait_)
            .or_insert_with(|| crate::engine::source::identity::trait_identity(db, trait_))
            .clone()
    }

    /// `identity::ty_fingerprint`, worked out once per analysis.
    pub(crate) fn ty_fingerprint(&mut self, ty: Ty<'db>) -> Option<u64> {
        let db = self.db;
        *self.ty_fingerprints.entry(ty).or_insert_with(|| crate::engine::source::identity::ty_fingerprint(db, ty))
    }

    /// `identity::fn_fingerprint`, worked out once per analysis.
    pub(crate) fn fn_fingerprint(&mut self, func: FunctionId) -> Option<u64> {
        let db = self.db;
        *self.fn_fingerprints.entry(func).or_insert_with(|| crate::engine::source::identity::fn_fingerprint(db, func))
    }

    /// The identities of `traits` and of all their supertraits, sorted, once each:
    /// what a coercion to `dyn` of one of them answers calls of. `None` when one
    /// has no source to name it by.
    pub(crate) fn dyn_trait_identities(
        &mut self,
        traits: &[TraitId],
    ) -> Option<Vec<crate::engine::source::identity::ItemIdentity>> {
        let mut all = Vec::new();
        for &trait_ in traits {
            all.push(self.trait_identity(trait_)?);
            for &super_ in hir_ty::all_super_traits(self.db, trait_).iter() {
                all.push(self.trait_identity(super_)?);
            }
        }
        all.sort();
        all.dedup();
        Some(all)
    }

    pub(crate) fn is_allocator_symbol(name: &str) -> bool {
        ALLOCATOR_SYMBOLS.contains(&name)
    }

    /// The allowance facts of a body, read once.
    fn facts_of(&mut self, def: DefWithBodyId) -> Rc<BodyFacts> {
        let db = self.db;
        let lang = self.lang;
        self.facts.entry(def).or_insert_with(|| Rc::new(BodyFacts::of(db, def, lang))).clone()
    }

    /// The growth a call of `func` at `site` makes when `func` is on the allowlist
    /// as `growth:` (a third-party container's `push`): its receiver's place and the
    /// room proof in the calling body. The site is the call, or a path call's callee.
    pub(crate) fn growth_at(&mut self, site: Site, func: FunctionId) -> Option<Growth> {
        let db = self.db;
        let ExprOrPatId::ExprId(expr) = site.expr else { return None };
        let body = Body::of(db, site.owner);
        let store: &ExpressionStore = body;
        let call = match &store[expr] {
            Expr::MethodCall { .. } | Expr::Call { .. } => expr,
            _ => store.exprs().find(|(_, e)| matches!(e, Expr::Call { callee, .. } if *callee == expr))?.0,
        };
        let need = growth_entry_need(FunctionSignature::of(db, func).name.as_str());
        let facts = self.facts_of(site.owner);
        let infer = super::incremental::inference_of(db, site.owner);
        growth_of_call(db, store, &facts, call, need, true, &mut |e| infer.type_of_expr_or_pat(e.into()))
    }

    /// The standard-library type a method belongs to (`Vec`, `OnceLock`, ...): its
    /// impl's self type, or for a trait method the `Self` it is called on.
    fn std_type_of_method(&self, func: FunctionId, args: GenericArgs<'db>) -> Option<String> {
        let db = self.db;
        let adt = match func.loc(db).container {
            ItemContainerId::ImplId(impl_) => db.impl_self_ty(impl_).skip_binder().as_adt()?.0,
            ItemContainerId::TraitId(_) => match strip_refs(args.as_slice().first()?.ty()?).kind() {
                TyKind::Adt(adt_def, _) => adt_def.def_id(),
                _ => return None,
            },
            _ => return None,
        };
        let adt = hir::Adt::from(adt);
        let krate = adt.module(db).krate(db).display_name(db)?.crate_name().to_string();
        if !STD_CRATES.contains(&krate.as_str()) {
            return None;
        }
        let name = adt.name(db).as_str().to_owned();
        // The storage `thread_local!` expands to (`std::sys::thread_local::*::Storage`).
        let module = crate::engine::source::naming::module_path(db, adt.module(db).into());
        Some(if module.contains("::thread_local") { format!("thread_local::{name}") } else { name })
    }

    /// Whether a call of `func` (which never returns) enters the panic, abort or
    /// exit machinery: a diverging function of the standard library, or one whose
    /// body only calls such a function. A diverging function that does work first
    /// (`fn run() -> ! { loop { .. } }`) is not.
    fn is_panic_machinery(&mut self, func: FunctionId) -> bool {
        if let Some(&known) = self.panic_machinery.get(&func) {
            return known;
        }
        // Assume not while looking (recursion).
        self.panic_machinery.insert(func, false);
        let db = self.db;
        let answer = if hir_def::HasModule::krate(&func, db).data(db).origin.is_lang() {
            true
        } else {
            let body = Body::of(db, DefWithBodyId::FunctionId(func));
            let infer = super::incremental::inference_of(db, DefWithBodyId::FunctionId(func));
            self.only_diverges(body, infer, body.root_expr())
        };
        self.panic_machinery.insert(func, answer);
        answer
    }

    /// A body that is nothing but a call into the panic machinery (`{ panic!(..) }`,
    /// `{ std::process::abort() }`), with literal or binding arguments only.
    fn only_diverges(&mut self, store: &ExpressionStore, infer: &InferenceResult<'db>, expr: ExprId) -> bool {
        match &store[expr] {
            Expr::Block { statements, tail, .. } | Expr::Unsafe { statements, tail, .. } => {
                let last = match (statements.as_ref(), tail) {
                    ([], Some(tail)) => *tail,
                    ([Statement::Expr { expr, .. }], None) => *expr,
                    _ => return false,
                };
                self.only_diverges(store, infer, last)
            }
            Expr::Call { callee, .. } => {
                let Some(ty) = infer.type_of_expr_or_pat((*callee).into()) else { return false };
                match ty.kind() {
                    TyKind::FnDef(def, _) => match def.0 {
                        CallableDefId::FunctionId(f) => {
                            infer.type_of_expr_or_pat(expr.into()).is_some_and(|t| t.is_never())
                                && self.is_panic_machinery(f)
                        }
                        _ => false,
                    },
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The edges of `node`, walked now (the memoized form is `incremental::walked`).
    pub(crate) fn walk_uncached(&mut self, node: Node<'db>, env: ParamEnvAndCrate<'db>) -> Walked<'db> {
        match node {
            Node::Fn { func, args, consts } => {
                let def = DefWithBodyId::FunctionId(func);
                let body = Body::of(self.db, def);
                let db = self.db;
                let mut walker = BodyWalker::new(self, def, args, env);
                if let Some(consts) = consts {
                    let params = super::constants::param_bindings(body);
                    for (param, value) in params.iter().zip(consts.values(db).iter()) {
                        if let (Some(param), Some(value)) = (param, value) {
                            walker.bind(*param, *value);
                        }
                    }
                    walker.carry_depth = *consts.depth(db);
                }
                let (statements, tail): (&[Statement], Option<ExprId>) = match &body[body.root_expr()] {
                    Expr::Block { statements, tail, .. } => (statements, *tail),
                    _ => (&[], Some(body.root_expr())),
                };
                for &param in body.params.iter() {
                    // A parameter the body returns is moved out (`fn must_use<T>(value:
                    // T) -> T { value }`), not dropped.
                    if !walker.moved_out_by_tail(body, param.formal, statements, tail) {
                        walker.drop_bindings_of(body, param.formal);
                    }
                    // The callee owns its arguments: what `_` or `..` leaves unbound
                    // is dropped in it (`fn ignore(_: Noisy)`).
                    walker.drop_unbound_parts(body, param.formal);
                }
                walker.visit_expr(body, body.root_expr());
                walker.out
            }
            Node::Closure { closure, parent_args } => {
                let loc = closure.loc(self.db);
                let InferBodyId::DefWithBodyId(def) = loc.owner else { return Walked::default() };
                let body = Body::of(self.db, def);
                let mut walker = BodyWalker::new(self, def, parent_args, env);
                if let Expr::Closure { body: closure_body, args, .. } = &body[loc.expr] {
                    for &arg in args.iter() {
                        walker.drop_bindings_of(body, arg);
                        walker.drop_unbound_parts(body, arg);
                    }
                    walker.visit_expr(body, *closure_body);
                    // A body that is no block is its own tail (`|n| make(n).len()`).
                    walker.drop_temporaries(body, *closure_body, false);
                }
                walker.out
            }
            Node::Init(def, args) => {
                let body = Body::of(self.db, def);
                let mut walker = BodyWalker::new(self, def, args, env);
                walker.visit_expr(body, body.root_expr());
                walker.out
            }
            Node::DropGlue(ty) => self.drop_glue_edges(ty, env),
            Node::Derived { method, args } => self.derived_edges(method, args, env),
        }
    }

    /// Drop glue: the type's own `Drop` impl, then what it owns: fields, a `Box`'s
    /// contents, a closure's captures, elements; for `dyn Trait`, whatever may stand
    /// behind it.
    fn drop_glue_edges(&mut self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> Walked<'db> {
        let mut out = Walked::default();
        let mut owned: Vec<Ty<'db>> = Vec::new();
        match ty.kind() {
            TyKind::Adt(adt_def, args) => {
                let adt: AdtId = adt_def.def_id();
                if hir_ty::drop::destructor(self.db, adt).is_some() {
                    if let Some(drop_fn) = self.lang.Drop_drop {
                        let drop_args = GenericArgs::new_from_slice(&[ty.into()]);
                        for target in self.resolve_call(drop_fn, drop_args, env) {
                            out.edges.push(Edge::new(target, None));
                        }
                    }
                }
                // A `Box` owns its contents: the compiler drops them before freeing.
                if Some(adt) == self.lang.OwnedBox.map(AdtId::from) {
                    owned.extend(args.as_slice().first().and_then(|a| a.ty()));
                }
                // Union fields are never dropped implicitly.
                if !matches!(adt, AdtId::UnionId(_)) {
                    owned.extend(self.field_types(ty, env));
                }
            }
            TyKind::Tuple(tys) => owned.extend(tys.iter()),
            TyKind::Array(elem, _) | TyKind::Slice(elem) => owned.push(elem),
            TyKind::Closure(_, args) => owned.push(args.as_closure().tupled_upvars_ty()),
            TyKind::Coroutine(_, args) => owned.push(args.as_coroutine().tupled_upvars_ty()),
            TyKind::CoroutineClosure(_, args) => owned.push(args.as_coroutine_closure().tupled_upvars_ty()),
            TyKind::Dynamic(..) => out.edges.push(Edge::new(Target::DynDrop(ty), None)),
            _ => {}
        }
        for owned_ty in owned {
            if self.needs_drop(owned_ty, env) {
                out.edges.push(Edge::new(Target::Node(Node::DropGlue(owned_ty)), None));
            }
        }
        out
    }

    /// A derived method calls the same method on every field, with the field's type
    /// in place of `Self` (and of `Rhs = Self` for comparisons).
    fn derived_edges(&mut self, method: FunctionId, args: GenericArgs<'db>, env: ParamEnvAndCrate<'db>) -> Walked<'db> {
        let mut out = Walked::default();
        let Some(self_ty) = args.as_slice().first().and_then(|a| a.ty()) else { return out };
        let fields: Vec<Ty<'db>> = match self_ty.kind() {
            TyKind::Tuple(tys) => tys.iter().collect(),
            TyKind::Array(elem, _) | TyKind::Slice(elem) => vec![elem],
            TyKind::Closure(_, closure_args) => closure_args.as_closure().upvar_tys().iter().collect(),
            _ => self.field_types(self_ty, env),
        };
        for field_ty in fields {
            let field_args: Vec<_> = args
                .as_slice()
                .iter()
                .map(|arg| if arg.ty() == Some(self_ty) { field_ty.into() } else { *arg })
                .collect();
            for target in self.resolve_call(method, GenericArgs::new_from_slice(&field_args), env) {
                out.edges.push(Edge::new(target, None));
            }
        }
        out
    }

    /// The types of every field of every variant of an ADT, instantiated.
    pub(crate) fn field_types(&self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> Vec<Ty<'db>> {
        self.field_types_noting_aliases(ty, env, &mut false)
    }

    /// `field_types`, noting in `aliases` whether a field's type, as declared,
    /// holds a projection or an alias, which it normalises (through the impls).
    pub(crate) fn field_types_noting_aliases(
        &self,
        ty: Ty<'db>,
        env: ParamEnvAndCrate<'db>,
        aliases: &mut bool,
    ) -> Vec<Ty<'db>> {
        let TyKind::Adt(adt_def, args) = ty.kind() else { return Vec::new() };
        let variants: Vec<VariantId> = match adt_def.def_id() {
            AdtId::StructId(id) => vec![id.into()],
            AdtId::UnionId(id) => vec![id.into()],
            AdtId::EnumId(id) => id.enum_variants(self.db).variants.values().map(|&(v, _)| v.into()).collect(),
        };
        let mut inst = Instantiate::new(self.interner, env, args);
        let mut out = Vec::new();
        for variant in variants {
            for (_, field) in self.db.field_types(variant).iter() {
                let declared = field.ty().skip_binder();
                *aliases |= declared.has_aliases();
                out.push(inst.ty(declared));
            }
        }
        out
    }

    /// Whether a type holds a trait object or a fn pointer (through references,
    /// arrays, tuples, type arguments and fields), so a static of it matters. A
    /// type met again (`Option<Box<Node>>` inside `Node`) adds nothing; one nested
    /// past `MAX_HOLDS_DEPTH` may hold anything: yes.
    pub(crate) fn holds_dyn_or_fn_pointer(&mut self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> bool {
        if let Some(&known) = self.holds_pointers.get(&ty) {
            return known;
        }
        let answer = self.holds_dyn_or_fn_pointer_within(ty, env, 0, &mut FxHashSet::default());
        self.holds_pointers.insert(ty, answer);
        answer
    }

    /// `seen`: the types looked into already by this question (each answers once).
    fn holds_dyn_or_fn_pointer_within(
        &mut self,
        ty: Ty<'db>,
        env: ParamEnvAndCrate<'db>,
        depth: usize,
        seen: &mut FxHashSet<Ty<'db>>,
    ) -> bool {
        if depth > MAX_HOLDS_DEPTH {
            return true;
        }
        if !seen.insert(ty) {
            return false;
        }
        match ty.kind() {
            TyKind::Dynamic(..) | TyKind::FnPtr(..) | TyKind::FnDef(..) | TyKind::Closure(..) => true,
            TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) | TyKind::Slice(inner) | TyKind::Array(inner, _) => {
                self.holds_dyn_or_fn_pointer_within(inner, env, depth + 1, seen)
            }
            TyKind::Tuple(tys) => tys.iter().any(|t| self.holds_dyn_or_fn_pointer_within(t, env, depth + 1, seen)),
            TyKind::Adt(_, args) => {
                args.as_slice()
                    .iter()
                    .filter_map(|a| a.ty())
                    .any(|t| self.holds_dyn_or_fn_pointer_within(t, env, depth + 1, seen))
                    || self
                        .field_types(ty, env)
                        .into_iter()
                        .any(|t| self.holds_dyn_or_fn_pointer_within(t, env, depth + 1, seen))
            }
            _ => false,
        }
    }

    pub(crate) fn needs_drop(&self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> bool {
        let infcx = self.interner.infer_ctxt().build(TypingMode::PostAnalysis);
        !matches!(has_drop_glue(&infcx, ty, env.param_env), DropGlue::None)
    }

    /// Where a call of `func` at `args` (already instantiated) goes: one target, or
    /// for a specialised trait method whose impl cannot be decided, every candidate
    /// (memoized: `incremental::resolved_call`).
    pub(crate) fn resolve_call(
        &mut self,
        func: FunctionId,
        args: GenericArgs<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Vec<Target<'db>> {
        let args = super::subst::settled(self.interner, args);
        if super::subst::too_large_types(&args) {
            return vec![growing_without_end(crate::engine::source::naming::fn_path(self.db, func, None))];
        }
        super::incremental::resolved_call(self.db, func, args, env)
    }

    /// `resolve_call`, worked out now.
    pub(crate) fn resolve_call_uncached(
        &mut self,
        func: FunctionId,
        args: GenericArgs<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Vec<Target<'db>> {
        let db = self.db;
        let self_ty = || args.as_slice().first().and_then(|a| a.ty());
        if self.is_fn_trait_call(func) {
            let Some(self_ty) = self_ty() else { return Vec::new() };
            return self.resolve_fn_trait_call(func, args, self_ty, env).into_iter().collect();
        }
        if Some(func) == self.lang.DropInPlace {
            let Some(ty) = self_ty() else { return Vec::new() };
            return self.needs_drop(ty, env).then_some(Target::Node(Node::DropGlue(ty))).into_iter().collect();
        }
        let container = func.loc(db).container;
        if let ItemContainerId::TraitId(trait_) = container {
            if is_dyn_method(self.interner, env.param_env, func, args).is_some() {
                return vec![Target::Dyn { method: func, args }];
            }
            // The compiler's own `Clone` of tuples and closures: element-wise; of fn
            // pointers and fn items: a copy.
            if Some(trait_) == self.lang.Clone
                && self_ty().is_some_and(|ty| {
                    matches!(ty.kind(), TyKind::Tuple(_) | TyKind::Closure(..) | TyKind::FnPtr(..) | TyKind::FnDef(..))
                })
            {
                return vec![Target::Node(Node::Derived { method: func, args })];
            }
            if let Some(body) = self.async_fn_polled(func, self_ty()) {
                return vec![body];
            }
            let (resolved, resolved_args) = db.lookup_impl_method(env, func, args);
            return match resolved {
                // rust-analyzer gave up (ambiguity, or an item the selected impl
                // inherits from the impl it specialises), or the trait's default runs.
                either::Either::Left(resolved) if resolved == func => {
                    match super::impls::candidates(db, self.interner, env, func, args) {
                        // A call on a type parameter that too many impls may
                        // answer, or on a type the solver could not reveal.
                        Some(candidates) if candidates.is_empty() => {
                            let who =
                                self_ty().map(|t| crate::engine::source::naming::ty_name(db, t)).unwrap_or_default();
                            let name = FunctionSignature::of(db, func).name.as_str().to_owned();
                            let what = format!(
                                "<{who} as {}>::{name}",
                                crate::engine::source::naming::trait_path_of(db, func)
                            );
                            let kind = if args.has_param() { UnknownKind::Generic } else { UnknownKind::Opaque };
                            vec![Target::Unknown { what, kind }]
                        }
                        Some(candidates) => candidates.into_iter().map(|(f, a)| self.resolve_concrete(f, a)).collect(),
                        None => vec![self.resolve_concrete(resolved, resolved_args)],
                    }
                }
                either::Either::Left(resolved) => vec![self.resolve_concrete(resolved, resolved_args)],
                either::Either::Right(_) => vec![Target::Node(Node::Derived { method: func, args })],
            };
        }
        vec![self.resolve_concrete(func, args)]
    }

    /// `Future::poll` on the future an `async fn` returns (handed to generic code
    /// as `F: Future`): that function's body, as where the future is made.
    fn async_fn_polled(&mut self, func: FunctionId, self_ty: Option<Ty<'db>>) -> Option<Target<'db>> {
        if Some(func) != self.lang.FuturePoll {
            return None;
        }
        let TyKind::Coroutine(coroutine, args) = self_ty?.kind() else { return None };
        let loc = coroutine.0.loc(self.db);
        let ClosureKind::Coroutine {
            kind: hir_def::hir::CoroutineKind::Async,
            source: hir_def::hir::CoroutineSource::Fn,
        } = loc.kind
        else {
            return None;
        };
        let hir_ty::InferBodyId::DefWithBodyId(DefWithBodyId::FunctionId(async_fn)) = loc.owner else { return None };
        let parent_args = GenericArgs::new_from_slice(args.as_coroutine().parent_args());
        Some(self.resolve_concrete(async_fn, parent_args))
    }

    fn resolve_concrete(&mut self, func: FunctionId, args: GenericArgs<'db>) -> Target<'db> {
        let db = self.db;
        let args = super::subst::settled(self.interner, args);
        let sig = FunctionSignature::of(db, func);
        let container = func.loc(db).container;
        if sig.flags.contains(FnFlags::RUSTC_INTRINSIC) {
            return Target::Intrinsic(func);
        }
        if let ItemContainerId::ExternBlockId(_) = container {
            let name = sig.name.as_str();
            return if Self::is_allocator_symbol(name) { Target::Allocator(func) } else { Target::Foreign(func) };
        }
        if !sig.has_body() {
            let self_ty = args.as_slice().first().and_then(|a| a.ty());
            return match container {
                ItemContainerId::TraitId(_) => {
                    let who = self_ty.map(|t| crate::engine::source::naming::ty_name(db, t)).unwrap_or_default();
                    let what = format!(
                        "<{who} as {}>::{}",
                        crate::engine::source::naming::trait_path_of(db, func),
                        sig.name.as_str()
                    );
                    let kind = if args.has_param() { UnknownKind::Generic } else { UnknownKind::Opaque };
                    Target::Unknown { what, kind }
                }
                _ => Target::Unknown {
                    what: crate::engine::source::naming::fn_path(db, func, None),
                    kind: UnknownKind::NoBody,
                },
            };
        }
        Target::Node(Node::function(func, args))
    }

    pub(crate) fn is_fn_family_trait(&self, trait_: TraitId) -> bool {
        [self.lang.Fn, self.lang.FnMut, self.lang.FnOnce].contains(&Some(trait_))
    }

    fn is_fn_trait_call(&self, func: FunctionId) -> bool {
        [self.lang.Fn_call, self.lang.FnMut_call_mut, self.lang.FnOnce_call_once].contains(&Some(func))
    }

    /// `Fn*::call*` on a concrete callee type: a fn item, a closure, or a pointer.
    fn resolve_fn_trait_call(
        &mut self,
        func: FunctionId,
        args: GenericArgs<'db>,
        self_ty: Ty<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Vec<Target<'db>> {
        let callee = strip_refs(self_ty);
        let one = match callee.kind() {
            TyKind::FnDef(def, fn_args) => {
                return match def.0 {
                    CallableDefId::FunctionId(f) => self.resolve_call(f, fn_args, env),
                    // Constructors allocate nothing.
                    _ => Vec::new(),
                };
            }
            TyKind::Closure(closure, closure_args) => Some(Target::Node(Node::Closure {
                closure: closure.0,
                parent_args: GenericArgs::new_from_slice(closure_args.as_closure().parent_args()),
            })),
            TyKind::FnPtr(..) => signature_of(self.db, self.interner, callee).map(|signature| Target::FnPointer {
                what: format!("`{}`", crate::engine::source::naming::ty_name(self.db, callee)),
                signature,
            }),
            TyKind::Dynamic(..) => Some(Target::Dyn { method: func, args: replace_self(args, callee) }),
            TyKind::Param(_) | TyKind::Alias(..) => Some(Target::Unknown {
                what: format!("`{}`", crate::engine::source::naming::ty_name(self.db, callee)),
                kind: if callee.has_param() { UnknownKind::Generic } else { UnknownKind::Opaque },
            }),
            _ => {
                // A hand-written `Fn*` impl, on the type or on a reference to it
                // (core's array `Drain` implements `FnMut` for `&mut Drain`): the
                // callee as called, then with each reference taken off.
                let mut receiver = self_ty;
                loop {
                    let (resolved, resolved_args) = self.db.lookup_impl_method(env, func, replace_self(args, receiver));
                    if let either::Either::Left(f) = resolved {
                        if f != func {
                            break Some(self.resolve_concrete(f, resolved_args));
                        }
                    }
                    match receiver.kind() {
                        TyKind::Ref(_, inner, _) => receiver = inner,
                        _ => {
                            break Some(Target::Unknown {
                                what: format!("`{}`", crate::engine::source::naming::ty_name(self.db, callee)),
                                kind: UnknownKind::Unresolved,
                            })
                        }
                    }
                }
            }
        };
        one.into_iter().collect()
    }
}

fn replace_self<'db>(args: GenericArgs<'db>, self_ty: Ty<'db>) -> GenericArgs<'db> {
    let mut new: Vec<_> = args.as_slice().to_vec();
    if let Some(first) = new.first_mut() {
        *first = self_ty.into();
    }
    GenericArgs::new_from_slice(&new)
}

/// The signature a fn item, closure or fn pointer type has as a pointer.
pub(crate) fn signature_of<'db>(db: &dyn HirDatabase, interner: DbInterner<'db>, ty: Ty<'db>) -> Option<Signature> {
    let sig = ty.callable_sig(interner)?.skip_binder();
    Some(Signature {
        inputs: sig.inputs().iter().map(|input| type_shape(db, *input)).collect(),
        output: type_shape(db, sig.output()),
    })
}

/// A type's shape with its regions erased; `Shape::Any` for what a pointer's type
/// cannot pin down (parameters, projections, inference leftovers).
pub(crate) fn type_shape(db: &dyn HirDatabase, ty: Ty<'_>) -> Shape {
    let ctor = |name: String, args: Vec<Shape>| Shape::Ctor(name, args);
    match ty.kind() {
        TyKind::Ref(_, inner, m) => ctor(if m.is_mut() { "&mut" } else { "&" }.to_owned(), vec![type_shape(db, inner)]),
        TyKind::RawPtr(inner, m) => {
            ctor(if m.is_mut() { "*mut" } else { "*const" }.to_owned(), vec![type_shape(db, inner)])
        }
        TyKind::Slice(inner) => ctor("[]".to_owned(), vec![type_shape(db, inner)]),
        TyKind::Array(inner, _) => ctor("[;N]".to_owned(), vec![type_shape(db, inner)]),
        TyKind::Tuple(tys) => ctor("()".to_owned(), tys.iter().map(|t| type_shape(db, t)).collect()),
        TyKind::Adt(adt, args) => ctor(
            format!("{:?}", adt.def_id()),
            args.as_slice().iter().filter_map(|a| a.ty()).map(|t| type_shape(db, t)).collect(),
        ),
        TyKind::Dynamic(..) => ctor(format!("dyn {:?}", dyn_principal(ty)), Vec::new()),
        TyKind::FnPtr(..) => ctor("fn".to_owned(), Vec::new()),
        _ if is_primitive(ty) => ctor(crate::engine::source::naming::ty_name(db, ty), Vec::new()),
        _ => Shape::Any,
    }
}

/// A `bool`, `char`, number, `str` or `!`: a type that holds nothing else.
pub(crate) fn is_primitive(ty: Ty<'_>) -> bool {
    matches!(
        ty.kind(),
        TyKind::Bool | TyKind::Char | TyKind::Int(_) | TyKind::Uint(_) | TyKind::Float(_) | TyKind::Str | TyKind::Never
    )
}

/// The receiver of a method call, or the first argument of a path call.
fn receiver(store: &ExpressionStore, call: ExprId) -> Option<ExprId> {
    match &store[call] {
        Expr::MethodCall { receiver, .. } => Some(*receiver),
        Expr::Call { args, .. } => args.first().copied(),
        _ => None,
    }
}

/// What a call appends: the length of the argument of `push_str(s)`,
/// `extend_from_slice(xs)` (the second argument of a path call), or for a count
/// (`reserve(xs.len())`, `resize(xs.len(), 0)`) the length it names; the length
/// of an array (`&n.to_be_bytes()`) or a string literal, or a constant count
/// (`reserve(16)`).
fn appended<'db>(
    db: &'db dyn HirDatabase,
    store: &ExpressionStore,
    call: ExprId,
    ty_of: &mut dyn FnMut(ExprId) -> Option<Ty<'db>>,
) -> Option<Amount> {
    let arg = match &store[call] {
        Expr::MethodCall { args, .. } => args.first().copied(),
        Expr::Call { args, .. } => args.get(1).copied(),
        _ => None,
    }?;
    let mut inner = arg;
    while let Expr::Ref { expr, .. } = &store[inner] {
        inner = *expr;
    }
    match &store[inner] {
        Expr::MethodCall { receiver, method_name, args, .. } if args.is_empty() && method_name.as_str() == "len" => {
            return place_key(store, *receiver).map(Amount::length_of);
        }
        Expr::Literal(hir_def::hir::Literal::String(text)) => {
            return Some(Amount::constant(text.as_str().len() as u128))
        }
        Expr::Literal(hir_def::hir::Literal::Uint(n, _)) => return Some(Amount::constant(*n)),
        Expr::Literal(hir_def::hir::Literal::Int(n, _)) => return u128::try_from(*n).ok().map(Amount::constant),
        _ => {}
    }
    if let Some(TyKind::Array(_, len)) = ty_of(arg).map(|ty| strip_refs(ty).kind()) {
        return hir_ty::consteval::try_const_usize(db, len).map(Amount::constant);
    }
    place_key(store, arg).map(Amount::length_of)
}

/// How much a call of a `growth:` allowlist function adds, by its name: the length
/// of what it is given for the names that append many (`extend_from_slice`,
/// `put_slice`, `reserve`, ...), the width of a fixed-width put of a byte buffer
/// (`put_u32`, `put_f64_le`: 4, 8 bytes), one element otherwise, as `Vec::push`.
pub(crate) fn growth_entry_need(name: &str) -> Room {
    let many = GROWS_BY_MANY.contains(&name) || name.ends_with("_slice") || name.starts_with("reserve");
    if many {
        return Room::Many;
    }
    let width = name
        .strip_prefix("put_")
        .map(|rest| rest.trim_end_matches("_le").trim_end_matches("_ne"))
        .and_then(|ty| ty.strip_prefix(['u', 'i', 'f']))
        .and_then(|bits| bits.parse::<u128>().ok())
        .filter(|bits| matches!(bits, 8 | 16 | 32 | 64 | 128));
    match width {
        Some(bits) if bits > 8 => Room::Bytes(bits / 8),
        _ => Room::One,
    }
}

/// Whether the last argument of `call` (the `char` of `push(c)`, `insert(i, c)`)
/// is a literal one byte long.
fn pushes_ascii_literal(store: &ExpressionStore, call: ExprId) -> bool {
    let last = match &store[call] {
        Expr::MethodCall { args, .. } | Expr::Call { args, .. } => args.last(),
        _ => None,
    };
    last.is_some_and(|&arg| matches!(&store[arg], Expr::Literal(hir_def::hir::Literal::Char(c)) if c.is_ascii()))
}

/// The growth of the buffer a call's receiver names, by `need`, with the
/// comparison of `facts` that proves room for it (for many, a length of what is
/// appended, when `length_counts` says its length is what the buffer counts).
/// `ty_of` gives an expression's type (for the types that hold the place's fields,
/// and whether it is behind `&mut`).
fn growth_of_call<'db>(
    db: &'db dyn HirDatabase,
    store: &ExpressionStore,
    facts: &BodyFacts,
    call: ExprId,
    need: Room,
    length_counts: bool,
    ty_of: &mut dyn FnMut(ExprId) -> Option<Ty<'db>>,
) -> Option<Growth> {
    let receiver = receiver(store, call)?;
    let buffer = place_key(store, receiver)?;
    let appends = match need {
        Room::One => Some(Amount::constant(1)),
        Room::Char => Some(Amount::constant(4)),
        Room::Bytes(n) => Some(Amount::constant(n)),
        Room::Many if length_counts => appended(db, store, call, ty_of),
        Room::Many => None,
    };
    let proof = appends.and_then(|appends| facts.room(call, &buffer, &appends));
    // The place's base, and the types that hold its fields.
    let mut base = receiver;
    let mut holders = Vec::new();
    loop {
        match &store[base] {
            Expr::Field { expr, .. } => {
                if let Some(TyKind::Adt(adt_def, _)) = ty_of(*expr).map(strip_refs).map(|t| t.kind()) {
                    holders.push(adt_def.def_id());
                }
                base = *expr;
            }
            Expr::UnaryOp { expr, .. } | Expr::Ref { expr, .. } => base = *expr,
            _ => break,
        }
    }
    let on_self = buffer == "self" || buffer.starts_with("self.");
    let through_mut_ref =
        ty_of(base).is_some_and(|ty| matches!(ty.kind(), TyKind::Ref(_, _, mutability) if mutability.is_mut()));
    Some(Growth { buffer, proof, long_lived: on_self || through_mut_ref, on_self, holders })
}

/// A call of a compiler intrinsic, while its arguments are visited.
#[derive(Clone, Copy)]
struct IntrinsicCall {
    call: ExprId,
    /// It calls the functions it is given and keeps none of them
    /// (`const_eval_select`, `catch_unwind`): a function item passed to it
    /// directly is called, its address taken by nothing.
    keeps_nothing: bool,
}

/// The walk of one body at one instantiation.
struct BodyWalker<'g, 'db> {
    graph: &'g mut CallGraph<'db>,
    owner: DefWithBodyId,
    infer: &'db InferenceResult<'db>,
    inst: Instantiate<'db>,
    env: ParamEnvAndCrate<'db>,
    facts: Rc<BodyFacts>,
    /// The callee being visited and its call: a path call's function is mentioned
    /// by its callee expression, while its arguments belong to the call.
    callee_of_call: Option<(ExprId, ExprId)>,
    /// How the code being visited relates to panicking.
    panic: Panic,
    /// The call of a compiler intrinsic whose arguments are being visited: it may
    /// call the functions it is given.
    intrinsic_call: Option<IntrinsicCall>,
    /// Immutable `let` bindings of this body and their initialisers: the only
    /// source of a fn pointer bound by one (`let f: fn() -> i32 = helper;`).
    let_initializers: FxHashMap<BindingId, ExprId>,
    /// The body is the user's code (a workspace crate): its casts and transmutes
    /// are not trusted to keep types (`Walked::untyped`); std's are.
    own_code: bool,
    /// The bindings whose value this instance knows (`constants`): parameters
    /// given constants, immutable `let`s and `match` arms bound to known values.
    constants: FxHashMap<BindingId, Value>,
    /// The places that can change (a `let mut`, what a `&mut` parameter points
    /// to) whose value is known here: from where they get it until the walk
    /// meets them again, or enters a loop or a closure (which may come back to
    /// them changed). The walk visits a body in the order it runs, and decides a
    /// condition and a call's arguments before it visits them.
    mutable_values: FxHashMap<BindingId, Value>,
    /// How many calls deep the constants of this instance were carried.
    carry_depth: u8,
    /// The expression just visited surely does not finish: a branch that the
    /// constants decide is taken and ends in `return`, `break` or a panic. What
    /// follows it in its block does not run.
    diverged: bool,
    out: Walked<'db>,
}

impl<'g, 'db> BodyWalker<'g, 'db> {
    fn new(
        graph: &'g mut CallGraph<'db>,
        owner: DefWithBodyId,
        args: GenericArgs<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Self {
        let infer = super::incremental::inference_of(graph.db, owner);
        let inst = Instantiate::new(graph.interner, env, args);
        let facts = graph.facts_of(owner);
        let empties = facts.empties.clone();
        let own_code = hir_def::HasModule::krate(&owner, graph.db).data(graph.db).origin.is_local();
        BodyWalker {
            graph,
            owner,
            infer,
            inst,
            env,
            facts,
            callee_of_call: None,
            panic: Panic::No,
            intrinsic_call: None,
            let_initializers: FxHashMap::default(),
            own_code,
            constants: FxHashMap::default(),
            mutable_values: FxHashMap::default(),
            carry_depth: 0,
            diverged: false,
            out: Walked { empties, ..Walked::default() },
        }
    }

    /// Records an edge, with the context of its site.
    fn push(&mut self, mut edge: Edge<'db>) {
        if let Some(site) = edge.site {
            edge.context = self.facts.context(site.expr);
            edge.fills = self.facts.filled(site.expr);
            if self.facts.runs_once(site.expr) {
                edge.passed = PassedClosures::Fill;
            }
        }
        if edge.panic == Panic::No {
            edge.panic = self.panic;
        }
        self.out.edges.push(edge);
    }

    fn site(&self, expr: impl Into<ExprOrPatId>) -> Option<Site> {
        Some(Site { owner: self.owner, expr: expr.into() })
    }

    fn unknown(&mut self, expr: ExprId, what: String, kind: UnknownKind) {
        let site = self.site(expr);
        self.push(Edge::new(Target::Unknown { what, kind }, site));
    }

    fn call(
        &mut self,
        store: &ExpressionStore,
        func: FunctionId,
        args: GenericArgs<'db>,
        expr: ExprId,
        label: Option<String>,
    ) {
        let args = self.inst.args(args);
        let targets = self.graph.resolve_call(func, args, self.env);
        if targets.is_empty() {
            return;
        }
        let site = self.site(expr);
        let call = match self.callee_of_call {
            Some((callee, call)) if callee == expr => call,
            _ => expr,
        };
        let name = FunctionSignature::of(self.graph.db, func).name.as_str().to_owned();
        // `a.downcast_ref::<Box<dyn Shape>>()` of a `dyn Any` the user's code got
        // from anywhere.
        if DOWNCASTS.contains(&name.as_str())
            && hir_def::HasModule::krate(&func, self.graph.db).data(self.graph.db).origin.is_lang()
        {
            if let Some(target) = args.as_slice().iter().rev().find_map(|a| a.ty()) {
                self.note_untyped(target);
            }
        }
        let growth = self.growth(store, func, &name, args, call);
        let first_use = self.is_first_use_call(store, func, &name, args, call);
        let first_use_of_param = first_use && !receiver(store, call).is_some_and(|r| is_static_place(store, r));
        let passes_owned = self.passes_owned(store, call);
        let fills = self.fills_at(store, call, receiver(store, call).filter(|_| first_use));
        let dyn_args = self.dyn_args(store, call);
        // The positions some target can branch on: the only arguments evaluated.
        let mut decisive: Vec<bool> = Vec::new();
        for target in &targets {
            if let Target::Node(Node::Fn { func: callee, .. }) = target {
                let of_callee = self.graph.decisive_params(*callee);
                decisive.resize(decisive.len().max(of_callee.len()), false);
                decisive.iter_mut().zip(of_callee.iter()).for_each(|(any, &this)| *any |= this);
            }
        }
        let values =
            if decisive.contains(&true) { self.argument_values(store, call, expr, &decisive) } else { Vec::new() };
        for mut target in targets {
            if let Target::Node(Node::Fn { func: callee, consts, .. }) = &mut target {
                *consts = self.carried_constants(*callee, &values);
            }
            let mut edge = Edge {
                callee_label: label.clone(),
                growth: growth.clone(),
                passes_owned,
                fills: fills.clone(),
                dyn_args: dyn_args.clone(),
                ..Edge::new(target, site)
            };
            edge.context = self.facts.context(call.into());
            edge.context.first_use |= first_use;
            edge.context.first_use_of_param |= first_use_of_param;
            let cell_fill = first_use
                && !EVERY_CALL_METHODS.contains(&name.as_str())
                && !LOCAL_KEY_METHODS.contains(&name.as_str());
            if cell_fill || self.facts.runs_once(call.into()) {
                edge.passed = PassedClosures::Fill;
            }
            edge.panic = self.panic;
            self.out.edges.push(edge);
        }
    }

    /// The values of the arguments of `call` (its receiver first) that this
    /// instance knows; empty when it knows none. A function given to
    /// `const_eval_select` is called with the elements of its first argument.
    fn argument_values(
        &mut self,
        store: &ExpressionStore,
        call: ExprId,
        callee: ExprId,
        decisive: &[bool],
    ) -> Vec<Option<Value>> {
        // A panic path is cut: nothing below it is judged.
        if self.carry_depth >= MAX_CARRY_DEPTH || self.panic != Panic::No {
            return Vec::new();
        }
        let args: Vec<ExprId> = match (&store[call], self.intrinsic_call) {
            (Expr::Path(_), Some(intrinsic)) if intrinsic.keeps_nothing && call == callee => {
                match &store[intrinsic.call] {
                    Expr::Call { args, .. } => match args.first().map(|&tuple| &store[tuple]) {
                        Some(Expr::Tuple { exprs }) => exprs.to_vec(),
                        _ => return Vec::new(),
                    },
                    _ => return Vec::new(),
                }
            }
            (Expr::MethodCall { receiver, args, .. }, _) => {
                std::iter::once(*receiver).chain(args.iter().copied()).collect()
            }
            (Expr::Call { args, .. }, _) => args.to_vec(),
            _ => return Vec::new(),
        };
        // A changeable place named twice may change between the two.
        if !self.mutable_values.is_empty() {
            let mut named = Vec::new();
            for &arg in &args {
                super::constants::mentions(store, arg, &mut |binding| named.push(binding));
            }
            named.sort();
            for pair in named.windows(2).filter(|pair| pair[0] == pair[1]) {
                self.mutable_values.remove(&pair[0]);
            }
        }
        let values: Vec<Option<Value>> = args
            .iter()
            .enumerate()
            .map(|(i, &arg)| if decisive.get(i) == Some(&true) { self.evaluate(store, arg) } else { None })
            .collect();
        if values.iter().all(Option::is_none) {
            return Vec::new();
        }
        values
    }

    /// The constants `callee`'s instance is walked at: the known `values` of
    /// its arguments that can decide one of its branches, one call deeper.
    fn carried_constants(&mut self, callee: FunctionId, values: &[Option<Value>]) -> Option<ConstArgs<'db>> {
        if values.is_empty() {
            return None;
        }
        let decisive = self.graph.decisive_params(callee);
        if decisive.len() != values.len() {
            return None;
        }
        let carried: Box<[Option<Value>]> = values
            .iter()
            .zip(decisive.iter())
            .map(|(value, &decisive)| value.filter(|value| decisive && value.is_carried()))
            .collect();
        if carried.iter().all(Option::is_none) {
            return None;
        }
        Some(ConstArgs::new(self.graph.db, carried, self.carry_depth + 1))
    }

    /// The arguments of `call` (its receiver included) that are coerced to a `dyn`
    /// as they are passed: (concrete pointee, the `dyn` type).
    fn dyn_args(&mut self, store: &ExpressionStore, call: ExprId) -> Vec<(Ty<'db>, Ty<'db>)> {
        let args: Vec<ExprId> = match &store[call] {
            Expr::MethodCall { receiver, args, .. } => std::iter::once(*receiver).chain(args.iter().copied()).collect(),
            Expr::Call { args, .. } => args.to_vec(),
            _ => return Vec::new(),
        };
        let mut coerced = Vec::new();
        for arg in args {
            let Some(adjustments) = self.infer.expr_adjustment(arg) else { continue };
            let Some(mut source) = self.expr_ty(arg) else { continue };
            for adjustment in adjustments {
                let target = self.inst.ty(adjustment.target.as_ref());
                if let Adjust::Pointer(PointerCast::Unsize) = &adjustment.kind {
                    if let (Some(from), Some(to)) = (pointee(source), pointee(target)) {
                        coerced.extend(self.unsized_to_dyn(from, to));
                    }
                }
                source = target;
            }
        }
        coerced
    }

    /// A call that grows a buffer: a growth method of a std collection, or a
    /// `noalloc:append` function, on a place the source names.
    fn growth(
        &mut self,
        store: &ExpressionStore,
        func: FunctionId,
        name: &str,
        args: GenericArgs<'db>,
        call: ExprId,
    ) -> Option<Growth> {
        let mut length_counts = true;
        let mut zero_sized = false;
        let need = if *crate::engine::source::directives::is_append_fn(self.graph.db, func) {
            Room::One
        } else {
            let need = if GROWS_BY_ONE.contains(&name) {
                Room::One
            } else if GROWS_BY_MANY.contains(&name) {
                Room::Many
            } else {
                return None;
            };
            let owner = self.graph.std_type_of_method(func, args)?;
            if !GROWABLE.contains(&owner.as_str()) {
                return None;
            }
            // `clone_from` reuses the buffer of a `Vec` or `String` with the room;
            // a map's rebuilds its table unless the sizes match.
            if name == "clone_from" && !matches!(owner.as_str(), "Vec" | "String") {
                return None;
            }
            // A sequence of zero-sized elements never allocates: its capacity is
            // `usize::MAX` from the start.
            zero_sized = matches!(owner.as_str(), "Vec" | "VecDeque" | "BinaryHeap")
                && args.as_slice().first().and_then(|a| a.ty()).is_some_and(|element| self.is_zero_sized(element));
            // A `String` grows by the `char`'s UTF-8 length: one byte only for an
            // ASCII literal.
            if owner == "String" && need == Room::One && !pushes_ascii_literal(store, call) {
                Room::Char
            } else {
                // And by bytes: a length proves room for what is appended only when
                // it counts bytes (`t.len()` of a `&str`), not `char`s or `String`s.
                length_counts = owner != "String" || need != Room::Many || self.appends_bytes(store, call);
                need
            }
        };
        let facts = self.facts.clone();
        let db = self.graph.db;
        let mut growth = growth_of_call(db, store, &facts, call, need, length_counts, &mut |expr| self.expr_ty(expr))?;
        if zero_sized {
            // Room that is never used up: the call's own proof, of what it needs.
            let need = Amount::constant(1);
            growth.proof = Some(RoomProof { at: call, amount: need.clone(), pass: None, need });
        }
        Some(growth)
    }

    /// What an unsizing coercion of `from` to `to` makes a `dyn` of: the pointee
    /// itself (`&Loud` to `&dyn A`), or a struct's last field, however deep
    /// (`&Wrap<Loud>` to `&Wrap<dyn A>`, `&RefCell<Loud>` to `&RefCell<dyn A>`).
    fn unsized_to_dyn(&self, mut from: Ty<'db>, mut to: Ty<'db>) -> Option<(Ty<'db>, Ty<'db>)> {
        for _ in 0..MAX_HOLDS_DEPTH {
            match (from.kind(), to.kind()) {
                (_, TyKind::Dynamic(..)) => return Some((from, to)),
                (TyKind::Adt(from_def, _), TyKind::Adt(to_def, _)) if from_def.def_id() == to_def.def_id() => {
                    from = *self.graph.field_types(from, self.env).last()?;
                    to = *self.graph.field_types(to, self.env).last()?;
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether values of `ty` take no memory (`()`, a unit struct), by its layout;
    /// no when the layout is unknown (a type parameter).
    fn is_zero_sized(&self, ty: Ty<'db>) -> bool {
        if ty.has_param() {
            return false;
        }
        self.graph.db.layout_of_ty(ty.store(), self.env.store()).is_ok_and(|layout| layout.size.bytes() == 0)
    }

    /// Whether a `String` growth's argument is a count of bytes: a `str`, a
    /// `String`, or a number (`reserve(n)`).
    fn appends_bytes(&mut self, store: &ExpressionStore, call: ExprId) -> bool {
        let Expr::MethodCall { args, .. } = &store[call] else { return false };
        let Some(ty) = args.first().and_then(|&arg| self.expr_ty(arg)).map(strip_refs) else { return false };
        match ty.kind() {
            TyKind::Str | TyKind::Int(_) | TyKind::Uint(_) => true,
            TyKind::Adt(..) => crate::engine::source::naming::ty_name(self.graph.db, ty) == "String",
            _ => false,
        }
    }

    /// A call that initialises a field or static on first use:
    /// `OnceLock::get_or_init`, `LazyLock`'s deref, `Once::call_once`, a
    /// thread-local's `with`, `Option::get_or_insert_with`. On a local it runs on
    /// every call, and is judged like any other.
    fn is_first_use_call(
        &mut self,
        store: &ExpressionStore,
        func: FunctionId,
        name: &str,
        args: GenericArgs<'db>,
        call: ExprId,
    ) -> bool {
        // The name first: most calls are ruled out before their owner is looked up.
        if !FIRST_USE_METHODS.contains(&name)
            && !OPTION_FIRST_USE_METHODS.contains(&name)
            && !LOCAL_KEY_METHODS.contains(&name)
        {
            return false;
        }
        // An `Option` can be emptied again: first use only in the user's own code
        // (`BodyFacts::of_body`).
        self.graph
            .std_type_of_method(func, args)
            .is_some_and(|owner| initialises_on_first_use(&owner, name) && (owner != "Option" || self.own_code))
            && receiver(store, call).is_some_and(|receiver| is_long_lived_place(store, self.infer, receiver))
    }

    /// What the first-use setup at `site` fills: inside a guarded branch, the
    /// guarded place; for a first-use call (`get_or_init`), `place`, its receiver.
    fn fills_at(&self, store: &ExpressionStore, site: ExprId, place: Option<ExprId>) -> Vec<FilledPlace> {
        let mut fills = self.facts.filled(site.into());
        if let Some(place) = place {
            fills.extend(filled_places(self.graph.db, self.owner, store, self.infer, place));
        }
        fills
    }

    /// A value of `ty` made out of untracked memory (`Walked::untyped`), in the
    /// user's code.
    fn note_untyped(&mut self, ty: Ty<'db>) {
        if self.own_code && self.graph.holds_dyn_or_fn_pointer(ty, self.env) && !self.out.untyped.contains(&ty) {
            self.out.untyped.push(ty);
        }
    }

    /// `ud as *mut Box<dyn Shape>` from a pointer to something else, or from an
    /// integer: what it points to is untracked memory.
    fn note_pointer_cast(&mut self, from: ExprId, to: Ty<'db>) {
        let TyKind::RawPtr(pointee, _) = to.kind() else { return };
        let Some(source) = self.expr_ty(from) else { return };
        let retyped = match source.kind() {
            TyKind::RawPtr(was, _) | TyKind::Ref(_, was, _) => was != pointee,
            TyKind::Int(_) | TyKind::Uint(_) => true,
            _ => false,
        };
        if retyped {
            self.note_untyped(pointee);
        }
    }

    /// Whether `call` hands its callee a reference to memory this body owns: an
    /// argument `&x`/`&mut x`, or a receiver borrowed by autoref, where `x` is a
    /// local, a by-value parameter or a temporary (`allowances::owns`).
    fn passes_owned(&self, store: &ExpressionStore, call: ExprId) -> bool {
        let borrowed_owned = |arg: ExprId| match &store[arg] {
            Expr::Ref { expr: inner, .. } => owns(store, self.infer, *inner),
            _ => false,
        };
        match &store[call] {
            Expr::MethodCall { receiver, args, .. } => {
                let autoref = auto_borrow(self.infer, *receiver).is_some();
                (autoref && owns(store, self.infer, *receiver))
                    || borrowed_owned(*receiver)
                    || args.iter().any(|&arg| borrowed_owned(arg))
            }
            Expr::Call { args, .. } => args.iter().any(|&arg| borrowed_owned(arg)),
            _ => false,
        }
    }

    /// `f` in `f(1)`, when the callee is a plain name.
    fn callee_label(store: &ExpressionStore, expr: ExprId) -> Option<String> {
        let Expr::Call { callee, .. } = &store[expr] else { return None };
        let Expr::Path(path) = &store[*callee] else { return None };
        let mod_path = path.mod_path()?;
        mod_path.as_ident().map(|name| name.as_str().to_owned())
    }

    fn expr_ty(&mut self, expr: ExprId) -> Option<Ty<'db>> {
        let ty = self.infer.type_of_expr_or_pat(expr.into())?;
        Some(self.inst.ty(ty))
    }

    /// The function a `!`-typed call enters, when it is the panic machinery.
    fn panic_call(&mut self, store: &ExpressionStore, expr: ExprId) -> bool {
        if !self.expr_ty(expr).is_some_and(|t| t.is_never()) {
            return false;
        }
        let func = match &store[expr] {
            Expr::MethodCall { .. } => self.infer.method_resolution(expr).map(|(f, _)| f),
            Expr::Call { callee, .. } => match self.expr_ty(*callee).map(|t| t.kind()) {
                Some(TyKind::FnDef(def, _)) => match def.0 {
                    CallableDefId::FunctionId(f) => Some(f),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        func.is_some_and(|f| self.graph.is_panic_machinery(f))
    }

    fn visit_expr(&mut self, store: &ExpressionStore, expr: ExprId) {
        self.forget_mutable_values(store, expr);
        let ty = self.expr_ty(expr);
        if let (Expr::Cast { expr: from, .. }, Some(to)) = (&store[expr], ty) {
            self.note_pointer_cast(*from, to);
        }
        match &store[expr] {
            // An `async` block's body runs when its future is polled: walked in
            // place (where the future is made), as if polled there.
            Expr::Closure {
                body, closure_kind: ClosureKind::Coroutine { .. } | ClosureKind::OldCoroutine(_), ..
            } => {
                self.visit_adjustments(store, expr, ty);
                self.visit_expr(store, *body);
                return;
            }
            // A closure's body is its own node, walked only when something calls it.
            Expr::Closure { .. } => {
                self.visit_adjustments(store, expr, ty);
                return;
            }
            Expr::Missing => {
                self.unknown(
                    expr,
                    "code that did not expand or lower (a macro without expansion?)".to_owned(),
                    UnknownKind::NotExpanded,
                );
                return;
            }
            Expr::InlineAsm(asm) => {
                if !super::inline_asm::stays_inside(self.graph.db, self.owner, expr, asm) {
                    self.unknown(expr, "inline assembly that may call or jump".to_owned(), UnknownKind::Asm);
                }
                store.walk_child_exprs(expr, |child| self.visit_expr(store, child));
                return;
            }
            // Panic paths: a call into the panic machinery runs no further; what
            // computes its arguments, or a block that ends in it, runs only on the
            // way there. Recorded, not dropped: `--strict-panics` checks them.
            Expr::Call { .. } | Expr::MethodCall { .. } if self.panic_call(store, expr) => {
                let outer = self.panic;
                self.panic = Panic::Call;
                self.visit_call(store, expr, ty);
                if let Expr::Call { callee, .. } = &store[expr] {
                    self.callee_of_call = Some((*callee, expr));
                    self.visit_expr(store, *callee);
                    self.callee_of_call = None;
                }
                self.panic = if outer == Panic::No { Panic::OnPath } else { outer };
                match &store[expr] {
                    Expr::Call { args, .. } => args.iter().for_each(|&arg| self.visit_expr(store, arg)),
                    Expr::MethodCall { receiver, args, .. } => {
                        self.visit_expr(store, *receiver);
                        args.iter().for_each(|&arg| self.visit_expr(store, arg));
                    }
                    _ => {}
                }
                self.panic = outer;
                return;
            }
            Expr::Block { .. } | Expr::Unsafe { .. }
                if self.panic == Panic::No && self.block_ends_in_panic(store, expr) && !leaves_early(store, expr) =>
            {
                self.panic = Panic::OnPath;
                self.visit_expr_inner(store, expr, ty);
                self.panic = Panic::No;
                return;
            }
            _ => {}
        }
        self.visit_expr_inner(store, expr, ty);
    }

    fn visit_expr_inner(&mut self, store: &ExpressionStore, expr: ExprId, ty: Option<Ty<'db>>) {
        self.visit_call(store, expr, ty);
        if let Expr::Await { expr: awaited } = &store[expr] {
            self.visit_await(*awaited, expr);
        }
        if let Expr::Path(_) = &store[expr] {
            self.note_static(expr, ty);
        }
        if let Expr::Block { statements, tail, .. } | Expr::Unsafe { statements, tail, .. } = &store[expr] {
            for (i, statement) in statements.iter().enumerate() {
                match statement {
                    Statement::Let { pat, initializer, else_branch, .. } => {
                        if let (Pat::Bind { id, subpat: None }, Some(init), None) =
                            (&store[*pat], initializer, else_branch)
                        {
                            if store[*id].mode == BindingAnnotation::Unannotated {
                                self.let_initializers.insert(*id, *init);
                            }
                        }
                        if !self.moved_out_by_tail(store, *pat, &statements[i + 1..], *tail) {
                            self.drop_bindings_of(store, *pat);
                        }
                        // `let _ = make();` drops the value at once; `let (a, _) =
                        // (1, make());` the parts it leaves unbound.
                        if let Some(init) = initializer {
                            self.drop_temporaries(store, *init, matches!(store[*pat], Pat::Wild));
                            if !matches!(store[*pat], Pat::Wild) && !self.is_place(store, *init) {
                                self.drop_unbound_parts(store, *pat);
                            }
                        }
                    }
                    // A statement's value is dropped at its end.
                    Statement::Expr { expr, .. } => self.drop_temporaries(store, *expr, true),
                    Statement::Item(_) => {}
                }
            }
            // The tail's value is the block's; its temporaries die with the block.
            if let Some(tail) = tail {
                self.drop_temporaries(store, *tail, false);
            }
        }
        self.visit_children(store, expr);
        match &store[expr] {
            // Assigning to a place drops the value it held, once the new value is
            // made (a deferred `let x; x = v;` is taken to have held one too).
            Expr::Assignment { target, value } => {
                self.drop_assigned_places(store, *target);
                // `_ = make();`, `(_, y) = (make(), 1);`: what no place takes is dropped.
                if !self.is_place(store, *value) {
                    self.drop_unbound_parts(store, *target);
                }
            }
            // A condition's temporaries are dropped once it is decided (`if
            // make().ok()`, and `while`, which lowers to a loop of `if`); a
            // scrutinee's (`match make().0`, `if let .. = make()`) once the match
            // ends, and so is the scrutinee's value when no arm binds it.
            Expr::If { condition, .. } => self.drop_temporaries(store, *condition, false),
            Expr::Match { expr: scrutinee, arms } => {
                self.drop_temporaries(store, *scrutinee, true);
                // A guard's temporaries are dropped once it is decided (`v if
                // make(v).ok() =>`).
                for guard in arms.iter().filter_map(|arm| arm.guard) {
                    self.drop_temporaries(store, guard, false);
                }
            }
            Expr::Let { expr: scrutinee, .. } => self.drop_temporaries(store, *scrutinee, true),
            // What computes a returned or break value dies on the way out
            // (`return make().0`).
            Expr::Return { expr: Some(value) } | Expr::Break { expr: Some(value), .. } => {
                self.drop_temporaries(store, *value, false)
            }
            _ => {}
        }
    }

    /// The calls an expression makes itself: a function item mentioned as a value
    /// (called, or taken as a pointer), a method or operator, a call through a
    /// pointer or an unresolved callee; then its adjustments.
    fn visit_call(&mut self, store: &ExpressionStore, expr: ExprId, ty: Option<Ty<'db>>) {
        if let Some(ty) = ty {
            if let TyKind::FnDef(def, args) = ty.kind() {
                if let CallableDefId::FunctionId(func) = def.0 {
                    // A function item called here is a call. One used as a value may
                    // be called later: through a pointer (its address is taken), a
                    // generic `F: Fn` (resolved where that calls it), or an
                    // intrinsic given it (`catch_unwind`): a call here.
                    let called_here = matches!(self.callee_of_call, Some((callee, _)) if callee == expr);
                    if called_here || self.intrinsic_call.is_some() {
                        self.call(store, func, args, expr, None);
                    }
                    let given_to_intrinsic = self.intrinsic_call.is_some_and(|intrinsic| {
                        intrinsic.keeps_nothing
                            && matches!(&store[intrinsic.call], Expr::Call { args, .. } if args.contains(&expr))
                    });
                    if !called_here && !given_to_intrinsic {
                        self.note_address_taken(func, args, ty);
                    }
                }
            }
        }
        match &store[expr] {
            Expr::MethodCall { method_name, .. } => match self.infer.method_resolution(expr) {
                Some((func, args)) => self.call(store, func, args, expr, Self::callee_label(store, expr)),
                None => self.unknown(
                    expr,
                    format!("method `{}` (type inference did not resolve it)", method_name.as_str()),
                    UnknownKind::Unresolved,
                ),
            },
            Expr::Call { callee, .. } => {
                if let Some((func, fargs)) = self.infer.method_resolution(expr) {
                    self.call(store, func, fargs, expr, Self::callee_label(store, expr));
                } else {
                    self.visit_plain_call(store, expr, *callee);
                }
            }
            _ => {
                // Overloaded operators (`+`, `[]`, unary) resolve as methods.
                if let Some((func, args)) = self.infer.method_resolution(expr) {
                    self.call(store, func, args, expr, None);
                }
            }
        }
        self.visit_adjustments(store, expr, ty);
    }

    /// A call that is not a method: through a fn pointer, of a constructor, of a
    /// function item (handled as a mention), or of something inference left open.
    fn visit_plain_call(&mut self, store: &ExpressionStore, expr: ExprId, callee: ExprId) {
        let Some(callee_ty) = self.expr_ty(callee).map(strip_refs) else {
            let what = Self::callee_label(store, expr).unwrap_or_else(|| "a callee".to_owned());
            return self.unknown(expr, format!("{what} (type inference did not resolve it)"), UnknownKind::Unresolved);
        };
        match callee_ty.kind() {
            TyKind::FnDef(def, fn_args) => {
                // `transmute` of a fn pointer to another fn-pointer type.
                if let CallableDefId::FunctionId(func) = def.0 {
                    let sig = FunctionSignature::of(self.graph.db, func);
                    if sig.flags.contains(FnFlags::RUSTC_INTRINSIC) && sig.name.as_str() == "transmute" {
                        let tys: Vec<Ty<'db>> =
                            fn_args.as_slice().iter().filter_map(|a| a.ty()).map(|t| self.inst.ty(t)).collect();
                        if let [from, to] = tys.as_slice() {
                            let interner = self.graph.interner;
                            match (
                                signature_of(self.graph.db, interner, *from),
                                signature_of(self.graph.db, interner, *to),
                            ) {
                                (Some(from), Some(to)) => self.out.fn_casts.push((from, to)),
                                // Words or a pointer turned into a `dyn` or a fn pointer.
                                _ => self.note_untyped(*to),
                            }
                        }
                    }
                }
            }
            TyKind::FnPtr(..) => {
                if let Some(targets) = self.local_pointer_targets(store, callee, 0) {
                    let site = self.site(expr);
                    for target in targets {
                        self.push(Edge { callee_label: Self::callee_label(store, expr), ..Edge::new(target, site) });
                    }
                    return;
                }
                let what = Self::callee_label(store, expr).unwrap_or_else(|| {
                    format!("`{}`", crate::engine::source::naming::ty_name(self.graph.db, callee_ty))
                });
                match signature_of(self.graph.db, self.graph.interner, callee_ty) {
                    Some(signature) => {
                        let site = self.site(expr);
                        self.push(Edge::new(Target::FnPointer { what, signature }, site));
                    }
                    None => self.unknown(expr, what, UnknownKind::Unresolved),
                }
            }
            TyKind::Closure(closure, closure_args) => {
                let site = self.site(expr);
                let node = Node::Closure {
                    closure: closure.0,
                    parent_args: GenericArgs::new_from_slice(closure_args.as_closure().parent_args()),
                };
                self.push(Edge::new(Target::Node(node), site));
            }
            // Tuple-struct and variant constructors allocate nothing.
            TyKind::Adt(..) => {}
            _ => {
                let what = Self::callee_label(store, expr).unwrap_or_else(|| {
                    format!("`{}`", crate::engine::source::naming::ty_name(self.graph.db, callee_ty))
                });
                self.unknown(
                    expr,
                    format!("{what} (type inference did not resolve the call)"),
                    UnknownKind::Unresolved,
                );
            }
        }
    }

    /// The value of `expr` at this instance, when the types and the known
    /// constants decide it (`constants`).
    fn evaluate(&mut self, store: &ExpressionStore, expr: ExprId) -> Option<Value> {
        self.evaluator(store).value(expr)
    }

    fn evaluator<'e>(&'e mut self, store: &'e ExpressionStore) -> Evaluator<'e, 'db> {
        Evaluator {
            db: self.graph.db,
            owner: self.owner,
            store,
            infer: self.infer,
            inst: &mut self.inst,
            env: self.env,
            bound: &self.constants,
            mutable: &self.mutable_values,
        }
    }

    /// Gives `binding` a known value: for good when it cannot change, until the
    /// walk meets it again when it can (`mut`, a `&mut` parameter).
    fn bind(&mut self, binding: BindingId, value: Value) {
        let through_mut_ref =
            matches!(self.infer.binding_ty(binding).kind(), TyKind::Ref(_, _, rustc_type_ir::Mutability::Mut));
        if through_mut_ref {
            self.mutable_values.insert(binding, value);
        } else {
            self.constants.insert(binding, value);
        }
    }

    /// The walk meets `expr`: a place that can change named by it, or by
    /// anything in it when it is a loop or a closure, may change from here on.
    fn forget_mutable_values(&mut self, store: &ExpressionStore, expr: ExprId) {
        if self.mutable_values.is_empty() {
            return;
        }
        match &store[expr] {
            Expr::Loop { .. } | Expr::Closure { .. } => self.mutable_values.clear(),
            Expr::Path(_) => {
                if let Some(PathValue::Local(binding)) = super::incremental::value_path(self.graph.db, self.owner, expr)
                {
                    self.mutable_values.remove(&binding);
                }
            }
            _ => {}
        }
    }

    /// The branch of an `if` or `match` that runs, when the constants decide
    /// which: `Some(None)` for an `if` without `else` whose condition is false.
    /// A `match` arm's bindings are bound to their values.
    fn decided_branch(&mut self, store: &ExpressionStore, expr: ExprId) -> Option<Option<ExprId>> {
        match &store[expr] {
            Expr::If { condition, then_branch, else_branch } => match self.evaluate(store, *condition)? {
                Value::Bool(false) => Some(*else_branch),
                Value::Bool(true) => Some(Some(*then_branch)),
                _ => None,
            },
            Expr::Match { expr: scrutinee, arms } => {
                let value = self.evaluate(store, *scrutinee)?;
                let (arm, binds) = self.evaluator(store).arm_taken(value, arms)?;
                for (binding, value) in binds {
                    if store[binding].mode == BindingAnnotation::Unannotated {
                        self.constants.insert(binding, value);
                    }
                }
                Some(Some(arms[arm].expr))
            }
            _ => None,
        }
    }

    /// Whether `expr` has type `!`: it never finishes, whatever the constants.
    fn never_finishes(&self, expr: ExprId) -> bool {
        self.infer.type_of_expr_or_pat(expr.into()).is_some_and(|ty| matches!(ty.kind(), TyKind::Never))
    }

    fn visit_children(&mut self, store: &ExpressionStore, expr: ExprId) {
        self.visit_children_of(store, expr);
        // Only a decided branch and a block that holds one can leave this set.
        if !matches!(
            &store[expr],
            Expr::If { .. } | Expr::Match { .. } | Expr::Block { label: None, .. } | Expr::Unsafe { .. }
        ) {
            self.diverged = false;
        }
    }

    fn visit_children_of(&mut self, store: &ExpressionStore, expr: ExprId) {
        match &store[expr] {
            Expr::If { condition, .. } | Expr::Match { expr: condition, .. } => {
                let Some(branch) = self.decided_branch(store, expr) else {
                    store.walk_child_exprs(expr, |child| self.visit_expr(store, child));
                    self.diverged = false;
                    return;
                };
                // Only the branch that runs is walked (its condition too).
                self.visit_expr(store, *condition);
                self.diverged = false;
                if let Some(branch) = branch {
                    self.visit_expr(store, branch);
                    self.diverged |= self.never_finishes(branch);
                }
            }
            // What follows a statement that surely does not finish is not walked.
            Expr::Block { statements, tail, .. } | Expr::Unsafe { statements, tail, .. } => {
                let labelled = matches!(&store[expr], Expr::Block { label: Some(_), .. });
                self.diverged = false;
                for statement in statements.iter() {
                    match statement {
                        Statement::Let { initializer, else_branch, pat, .. } => {
                            // Its value as it is computed: before the walk meets
                            // what it reads.
                            let value = match (&store[*pat], initializer, else_branch) {
                                (Pat::Bind { id, subpat: None }, Some(init), None) => {
                                    self.evaluate(store, *init).map(|value| (*id, value))
                                }
                                _ => None,
                            };
                            initializer.iter().chain(else_branch).for_each(|&e| self.visit_expr(store, e));
                            store.walk_exprs_in_pat(*pat, &mut |e| self.visit_expr(store, e));
                            if let Some((binding, value)) = value {
                                match store[binding].mode {
                                    BindingAnnotation::Unannotated => self.bind(binding, value),
                                    BindingAnnotation::Mutable => {
                                        self.mutable_values.insert(binding, value);
                                    }
                                    _ => {}
                                }
                            }
                            self.diverged = false;
                        }
                        Statement::Expr { expr, .. } => self.visit_expr(store, *expr),
                        Statement::Item(_) => {}
                    }
                    if self.diverged {
                        break;
                    }
                }
                if !self.diverged {
                    if let Some(tail) = tail {
                        self.visit_expr(store, *tail);
                    }
                }
                // A `break` out of a labelled block goes on after it.
                if labelled {
                    self.diverged = false;
                }
            }
            Expr::Call { callee, args } => {
                self.callee_of_call = Some((*callee, expr));
                self.visit_expr(store, *callee);
                self.callee_of_call = None;
                let intrinsic = match self.expr_ty(*callee).map(|t| t.kind()) {
                    Some(TyKind::FnDef(def, _)) => match def.0 {
                        CallableDefId::FunctionId(f) => {
                            let sig = FunctionSignature::of(self.graph.db, f);
                            sig.flags.contains(FnFlags::RUSTC_INTRINSIC).then(|| IntrinsicCall {
                                call: expr,
                                keeps_nothing: matches!(sig.name.as_str(), "const_eval_select" | "catch_unwind"),
                            })
                        }
                        _ => None,
                    },
                    _ => None,
                };
                let outer = std::mem::replace(&mut self.intrinsic_call, intrinsic);
                for &arg in args.iter() {
                    self.visit_expr(store, arg);
                }
                self.intrinsic_call = outer;
            }
            _ => store.walk_child_exprs(expr, |child| self.visit_expr(store, child)),
        }
    }

    /// `x.await` polls `IntoFuture::into_future(x)`. An `async fn`'s or block's
    /// future was walked where it was made (the call, or the block in place).
    fn visit_await(&mut self, awaited: ExprId, expr: ExprId) {
        let Some(ty) = self.expr_ty(awaited) else {
            return self.unknown(
                expr,
                "`.await` (type inference did not resolve it)".to_owned(),
                UnknownKind::Unresolved,
            );
        };
        let made_by_async = match ty.kind() {
            TyKind::Alias(alias) => matches!(alias.kind, rustc_type_ir::AliasTyKind::Opaque { .. }),
            TyKind::Coroutine(..) => true,
            _ => false,
        };
        if made_by_async {
            return;
        }
        let site = self.site(expr);
        let args = GenericArgs::new_from_slice(&[ty.into()]);
        for method in [self.graph.lang.IntoFutureIntoFuture, self.graph.lang.FuturePoll].into_iter().flatten() {
            let is_poll = Some(method) == self.graph.lang.FuturePoll;
            // `IntoFuture` for a `Future` is the identity; `poll` needs `Self: Future`.
            if is_poll && !self.implements_future(ty) {
                continue;
            }
            let targets = self.graph.resolve_call(method, args, self.env);
            if targets.is_empty() {
                self.unknown(expr, "`.await`".to_owned(), UnknownKind::Unresolved);
            }
            for target in targets {
                self.push(Edge::new(target, site));
            }
        }
    }

    fn implements_future(&mut self, ty: Ty<'db>) -> bool {
        let Some(future) = self.graph.lang.Future else { return false };
        hir_ty::traits::implements_trait_unique(ty, self.graph.db, self.env, future)
    }

    /// A path to a static or const whose type holds a trait object or a fn pointer:
    /// its initialiser is read for them.
    ///
    /// An associated const (`Owned::<T>::VTABLE`, `<T as Tr>::OPS`) is read at
    /// the arguments inference resolved its path to, instantiated: a generic
    /// impl's const holds what it holds at this instance. A trait's const whose
    /// impl the solver does not select holds what the type allows from outside.
    fn note_static(&mut self, expr: ExprId, ty: Option<Ty<'db>>) {
        let Some(ty) = ty else { return };
        let holds_pointers = self.graph.holds_dyn_or_fn_pointer(ty, self.env);
        let associated = match self.infer.assoc_resolutions_for_expr(expr) {
            Some((hir_ty::method_resolution::CandidateId::ConstId(id), args)) => Some((id, args)),
            _ => None,
        };
        if let Some((id, args)) = associated.filter(|_| holds_pointers) {
            let args = self.inst.args(args);
            match self.inst.impl_const(id, args) {
                Some((id, args)) => self.out.statics.push((DefWithBodyId::ConstId(id), args)),
                None => self.out.untyped.push(self.inst.ty(ty)),
            }
            return;
        }
        let no_args = GenericArgs::new_from_slice(&[]);
        match super::incremental::value_path(self.graph.db, self.owner, expr) {
            Some(PathValue::Static(id))
                if holds_pointers || super::erased_statics::is_erased_block_static(self.graph, id, ty, self.env) =>
            {
                self.out.statics.push((DefWithBodyId::StaticId(id), no_args))
            }
            Some(PathValue::Const(id)) if holds_pointers => {
                let args =
                    GenericArgs::identity_for_item(self.graph.interner, hir_ty::next_solver::SolverDefId::ConstId(id));
                self.out.statics.push((DefWithBodyId::ConstId(id), args))
            }
            _ => {}
        }
    }

    /// The function a fn pointer holds when its only source is an immutable local
    /// binding of this body initialised with a function item or a closure (through
    /// casts and other such bindings): `let f: fn() -> i32 = helper; f()`. `None`
    /// when the source is anything else (a parameter, a field, a `mut` binding): the
    /// program-wide rule applies.
    fn local_pointer_targets(
        &mut self,
        store: &ExpressionStore,
        callee: ExprId,
        depth: usize,
    ) -> Option<Vec<Target<'db>>> {
        let Some(PathValue::Local(binding)) = super::incremental::value_path(self.graph.db, self.owner, callee) else {
            return None;
        };
        let mut init = *self.let_initializers.get(&binding)?;
        while let Expr::Cast { expr, .. } = &store[init] {
            init = *expr;
        }
        match self.expr_ty(init)?.kind() {
            TyKind::FnDef(def, args) => match def.0 {
                CallableDefId::FunctionId(func) => Some(self.graph.resolve_call(func, args, self.env)),
                // Constructors allocate nothing.
                _ => Some(Vec::new()),
            },
            TyKind::Closure(closure, args) => Some(vec![Target::Node(Node::Closure {
                closure: closure.0,
                parent_args: GenericArgs::new_from_slice(args.as_closure().parent_args()),
            })]),
            TyKind::FnPtr(..) if depth < 4 => self.local_pointer_targets(store, init, depth + 1),
            _ => None,
        }
    }

    /// A function item used as a value, with the signature it has as a pointer.
    fn note_address_taken(&mut self, func: FunctionId, args: GenericArgs<'db>, fn_def_ty: Ty<'db>) {
        let fn_def_ty = self.inst.ty(fn_def_ty);
        let Some(signature) = signature_of(self.graph.db, self.graph.interner, fn_def_ty) else { return };
        let args = self.inst.args(args);
        for target in self.graph.resolve_call(func, args, self.env) {
            self.out.address_taken.push((target, signature.clone()));
        }
    }

    /// Overloaded auto-deref calls `Deref::deref`; unsizing to `dyn Trait` records a
    /// coercion; a closure turned into a fn pointer may be called through it.
    fn visit_adjustments(&mut self, store: &ExpressionStore, expr: ExprId, ty: Option<Ty<'db>>) {
        let Some(adjustments) = self.infer.expr_adjustment(expr) else { return };
        let Some(mut source) = ty else { return };
        for adjustment in adjustments {
            let target = self.inst.ty(adjustment.target.as_ref());
            match &adjustment.kind {
                Adjust::Deref(Some(OverloadedDeref(mutability))) => {
                    let deref_fn = if mutability.is_mut() {
                        self.graph.lang.DerefMut_deref_mut
                    } else {
                        self.graph.lang.Deref_deref
                    };
                    if let Some(deref_fn) = deref_fn {
                        let args = GenericArgs::new_from_slice(&[source.into()]);
                        for target in self.graph.resolve_call(deref_fn, args, self.env) {
                            let site = self.site(expr);
                            let mut edge = Edge::new(target, site);
                            edge.context = self.facts.context(expr.into());
                            // A static or field `LazyLock`'s deref initialises on first use.
                            let name = FunctionSignature::of(self.graph.db, deref_fn).name.as_str().to_owned();
                            let first_use = self
                                .graph
                                .std_type_of_method(deref_fn, args)
                                .is_some_and(|owner| initialises_on_first_use(&owner, &name))
                                && is_long_lived_place(store, self.infer, expr);
                            edge.context.first_use |= first_use;
                            edge.context.first_use_of_param |= first_use && !is_static_place(store, expr);
                            edge.fills = self.fills_at(store, expr, Some(expr).filter(|_| first_use));
                            edge.panic = self.panic;
                            self.out.edges.push(edge);
                        }
                    }
                }
                Adjust::Pointer(PointerCast::Unsize) => {
                    if let (Some(from), Some(to)) = (pointee(source), pointee(target)) {
                        if let Some(coercion) = self.unsized_to_dyn(from, to) {
                            self.out.coercions.push(coercion);
                        }
                    }
                }
                Adjust::Pointer(PointerCast::ClosureFnPointer(_)) => {
                    if let TyKind::Closure(closure, args) = source.kind() {
                        let site = self.site(expr);
                        let closure = Node::Closure {
                            closure: closure.0,
                            parent_args: GenericArgs::new_from_slice(args.as_closure().parent_args()),
                        };
                        if let Some(signature) = signature_of(self.graph.db, self.graph.interner, source) {
                            self.out.address_taken.push((Target::Node(closure), signature));
                        }
                        self.push(Edge::new(Target::Node(closure), site));
                    }
                }
                _ => {}
            }
            source = target;
        }
    }

    /// Whether a block ends in a call into the panic machinery (it runs only on
    /// the way to a panic if it also has no way out before: `leaves_early`).
    fn block_ends_in_panic(&mut self, store: &ExpressionStore, block: ExprId) -> bool {
        let (statements, tail) = match &store[block] {
            Expr::Block { statements, tail, .. } | Expr::Unsafe { statements, tail, .. } => (statements, *tail),
            _ => return false,
        };
        let last = tail.or_else(|| match statements.last() {
            Some(Statement::Expr { expr, .. }) => Some(*expr),
            _ => None,
        });
        let Some(last) = last else { return false };
        match &store[last] {
            Expr::Call { .. } | Expr::MethodCall { .. } => self.panic_call(store, last),
            Expr::Block { .. } | Expr::Unsafe { .. } => self.block_ends_in_panic(store, last),
            _ => false,
        }
    }

    /// Values made by expressions and never moved into a place are dropped at the
    /// end of their statement: `make().len()` (an auto-borrowed receiver),
    /// `&make()`, `make() == make()` and `*make()` (operands an operator borrows), a
    /// statement's or a tail's own value (`discarded`). Values moved into a call, a
    /// binding, a field or the return value are dropped there, not here.
    fn drop_temporaries(&mut self, store: &ExpressionStore, expr: ExprId, discarded: bool) {
        // A value a call makes, an aggregate made and never bound (`(make(),
        // 1).1`), the value of a block, `if`, `match` or `loop` (`{ make() }.0`,
        // `let _ = if c { make() } else { make() };`), an awaited output, and a
        // `const` read (a fresh value each time: `QC.0`) drop whole; what is moved
        // into them is dropped there.
        if discarded && self.made_here(store, expr) {
            self.drop_value(expr);
        }
        match &store[expr] {
            Expr::Call { args: parts, .. }
            | Expr::Tuple { exprs: parts }
            | Expr::Array(Array::ElementList { elements: parts }) => {
                for &part in parts.iter() {
                    self.drop_temporaries(store, part, false);
                }
            }
            Expr::Array(Array::Repeat { initializer, .. }) => self.drop_temporaries(store, *initializer, false),
            // A receiver borrowed by autoref, or by an overloaded auto-deref
            // (`{ make() }.pow(1)` calls `Deref::deref(&{ make() })`).
            Expr::MethodCall { receiver, args, .. } => {
                let overloaded_deref = self
                    .infer
                    .expr_adjustment(*receiver)
                    .is_some_and(|adjustments| adjustments.iter().any(|a| matches!(a.kind, Adjust::Deref(Some(_)))));
                let borrowed = overloaded_deref || auto_borrow(self.infer, *receiver).is_some();
                self.drop_temporaries(store, *receiver, borrowed);
                for &arg in args.iter() {
                    self.drop_temporaries(store, arg, false);
                }
            }
            Expr::Ref { expr: inner, .. } | Expr::Field { expr: inner, .. } => {
                self.drop_temporaries(store, *inner, true)
            }
            // An indexed temporary (`make()[0]`) and what computes the index.
            Expr::Index { base, index } => {
                self.drop_temporaries(store, *base, true);
                self.drop_temporaries(store, *index, false);
            }
            // A struct update's base (`..make()`) drops what the literal does not
            // move out of it.
            Expr::RecordLit { fields, spread, .. } => {
                for field in fields.iter() {
                    self.drop_temporaries(store, field.expr, false);
                }
                if let RecordSpread::Expr(base) = spread {
                    self.drop_temporaries(store, *base, true);
                }
            }
            // A comparison borrows its operands (`PartialEq::eq(&self, ..)`):
            // `make() == make()` drops both at the end of the statement. Arithmetic
            // moves them into the operator's call.
            Expr::BinaryOp { lhs, rhs, op } => {
                let borrowed = matches!(op, Some(hir_def::hir::BinaryOp::CmpOp(_)) | None);
                self.drop_temporaries(store, *lhs, borrowed);
                self.drop_temporaries(store, *rhs, borrowed);
            }
            // An overloaded `*` borrows its operand (`Deref::deref(&self)`): `*make()`.
            // A `Box`'s built-in `*` moves out of it, and a reference owns nothing.
            Expr::UnaryOp { expr: inner, op: hir_def::hir::UnaryOp::Deref } => {
                let overloaded = self.infer.method_resolution(expr).is_some();
                self.drop_temporaries(store, *inner, overloaded);
            }
            Expr::UnaryOp { expr: inner, .. } | Expr::Cast { expr: inner, .. } => {
                self.drop_temporaries(store, *inner, false)
            }
            _ => {}
        }
    }

    /// Whether `expr` makes a value of its own rather than naming a place: a
    /// call, an aggregate, a block, `if`, `match` or `loop`, an `.await`, a
    /// `const` (an associated one too: a path not resolved alone), a unit struct.
    /// Not a unit variant (`x == None`): the enum's drop glue is judged as a whole,
    /// and a variant without fields drops none of them.
    fn made_here(&mut self, store: &ExpressionStore, expr: ExprId) -> bool {
        match &store[expr] {
            Expr::Call { .. }
            | Expr::MethodCall { .. }
            | Expr::Tuple { .. }
            | Expr::Array(_)
            | Expr::RecordLit { .. }
            | Expr::Block { .. }
            | Expr::Unsafe { .. }
            | Expr::Const(_)
            | Expr::If { .. }
            | Expr::Match { .. }
            | Expr::Loop { .. }
            | Expr::Await { .. } => true,
            Expr::Path(_) => match super::incremental::value_path(self.graph.db, self.owner, expr) {
                Some(PathValue::Const(_)) | None => true,
                Some(PathValue::Other) => {
                    matches!(self.infer.variant_resolution_for_expr(expr), Some(VariantId::StructId(_)))
                }
                Some(PathValue::Local(_) | PathValue::Static(_)) => false,
            },
            _ => false,
        }
    }

    /// The places an assignment writes (`place = v`, and each place of a
    /// destructuring assignment): the values they held are dropped there.
    fn drop_assigned_places(&mut self, store: &ExpressionStore, target: PatId) {
        store.walk_pats(target, &mut |pat| {
            if let Pat::Expr(place) = store[pat] {
                self.drop_value(place);
            }
        });
    }

    /// A drop edge for the value of `expr`, a temporary.
    fn drop_value(&mut self, expr: ExprId) {
        if let Some(ty) = self.expr_ty(expr) {
            self.push_drop(ty, expr.into());
        }
    }

    /// A drop of a value of `ty` at `site`, when `ty` has drop glue.
    fn push_drop(&mut self, ty: Ty<'db>, site: ExprOrPatId) {
        if matches!(ty.kind(), TyKind::Ref(..) | TyKind::RawPtr(..) | TyKind::Never)
            || !self.graph.needs_drop(ty, self.env)
        {
            return;
        }
        let site = self.site(site);
        self.push(Edge { drop_of: Some(ty), ..Edge::new(Target::Node(Node::DropGlue(ty)), site) });
    }

    /// Whether the binding `pat` makes is moved out as its block's value (`let res
    /// = make(); check(&res); res`) with no way to leave the block before (in the
    /// statements `after` it): then it is never dropped in the block.
    fn moved_out_by_tail(
        &self,
        store: &ExpressionStore,
        pat: PatId,
        after: &[Statement],
        tail: Option<ExprId>,
    ) -> bool {
        let Pat::Bind { id, subpat: None } = &store[pat] else { return false };
        let Some(tail) = tail else { return false };
        let names_binding = matches!(
            super::incremental::value_path(self.graph.db, self.owner, tail),
            Some(PathValue::Local(binding)) if binding == *id
        );
        names_binding
            && matches!(store[*id].mode, BindingAnnotation::Unannotated | BindingAnnotation::Mutable)
            && after.iter().all(|statement| match statement {
                Statement::Let { initializer, else_branch, .. } => {
                    initializer.is_none_or(|e| !leaves_early(store, e)) && else_branch.is_none()
                }
                Statement::Expr { expr, .. } => !leaves_early(store, *expr),
                Statement::Item(_) => true,
            })
    }

    /// Values bound by `pat` are dropped at the end of their scope.
    fn drop_bindings_of(&mut self, store: &ExpressionStore, pat: PatId) {
        let mut bindings = Vec::new();
        store.walk_bindings_in_pat(pat, |binding| bindings.push(binding));
        for binding in bindings {
            let ty = self.inst.ty(self.infer.binding_ty(binding));
            self.push_drop(ty, ExprOrPatId::PatId(pat));
        }
    }
}

impl<'db> BodyWalker<'_, 'db> {
    /// Whether `expr` is a place (a local or a static, a field, a deref, an index):
    /// a pattern matched against it moves out only what it binds by value, and the
    /// rest stays where it is, dropped with its owner. Anything else is a value
    /// made for the pattern.
    fn is_place(&mut self, store: &ExpressionStore, expr: ExprId) -> bool {
        match &store[expr] {
            Expr::Field { .. } | Expr::Index { .. } | Expr::UnaryOp { op: hir_def::hir::UnaryOp::Deref, .. } => true,
            Expr::Path(_) => matches!(
                super::incremental::value_path(self.graph.db, self.owner, expr),
                Some(PathValue::Local(_) | PathValue::Static(_))
            ),
            _ => false,
        }
    }

    /// The parts of an owned value that `pat` leaves unbound are dropped where it
    /// is matched: `_`, what `..` skips, the referent of a `ref` binding (`let (a,
    /// _) = (1, make())`, `fn f(Holder { k, .. }: Holder)`, `_ = make()`). Below a
    /// reference (`&pat`, or the default binding modes of matching through one)
    /// nothing is owned.
    fn drop_unbound_parts(&mut self, store: &ExpressionStore, pat: PatId) {
        if self.infer.pat_adjustment(pat).is_some_and(|adjustments| !adjustments.is_empty()) {
            return;
        }
        let ty = self.pat_ty(pat);
        match &store[pat] {
            Pat::Wild | Pat::Lit(_) | Pat::Range { .. } | Pat::Path(_) | Pat::ConstBlock(_) => {
                if let Some(ty) = ty {
                    self.push_drop(ty, pat.into());
                }
            }
            Pat::Bind { id, subpat } => {
                if matches!(store[*id].mode, BindingAnnotation::Ref | BindingAnnotation::RefMut) {
                    // The binding is `&T`; the `T` it borrows is dropped here.
                    let bound = self.inst.ty(self.infer.binding_ty(*id));
                    if let TyKind::Ref(_, referent, _) = bound.kind() {
                        self.push_drop(referent, pat.into());
                    }
                } else if let Some(subpat) = subpat {
                    self.drop_unbound_parts(store, *subpat);
                }
            }
            Pat::Or(alternatives) => {
                for &alternative in alternatives.iter() {
                    self.drop_unbound_parts(store, alternative);
                }
            }
            Pat::Tuple { args, ellipsis } => {
                for &arg in args.iter() {
                    self.drop_unbound_parts(store, arg);
                }
                if let (Some(at), Some(TyKind::Tuple(tys))) = (ellipsis, ty.map(|t| t.kind())) {
                    let skipped = tys.len().saturating_sub(args.len());
                    for element in tys.iter().skip(*at as usize).take(skipped) {
                        self.push_drop(element, pat.into());
                    }
                }
            }
            Pat::TupleStruct { args, ellipsis, .. } => {
                for &arg in args.iter() {
                    self.drop_unbound_parts(store, arg);
                }
                if let (Some(at), Some(ty)) = (ellipsis, ty) {
                    match self.variant_fields(pat, ty) {
                        Some(fields) => {
                            let skipped = fields.len().saturating_sub(args.len());
                            for (_, field) in fields.into_iter().skip(*at as usize).take(skipped) {
                                self.push_drop(field, pat.into());
                            }
                        }
                        None => self.push_drop(ty, pat.into()),
                    }
                }
            }
            Pat::Record { args, ellipsis, .. } => {
                for field in args.iter() {
                    self.drop_unbound_parts(store, field.pat);
                }
                if let (true, Some(ty)) = (ellipsis, ty) {
                    match self.variant_fields(pat, ty) {
                        Some(fields) => {
                            for (name, field) in fields {
                                if !args.iter().any(|named| named.name == name) {
                                    self.push_drop(field, pat.into());
                                }
                            }
                        }
                        None => self.push_drop(ty, pat.into()),
                    }
                }
            }
            Pat::Slice { prefix, slice, suffix } => {
                for &element in prefix.iter().chain(suffix.iter()) {
                    self.drop_unbound_parts(store, element);
                }
                match slice {
                    // A bare `..` of an array: the elements it skips.
                    Some(rest) if matches!(store[*rest], Pat::Rest) => {
                        if let Some(TyKind::Array(element, _)) = ty.map(|t| t.kind()) {
                            self.push_drop(element, pat.into());
                        }
                    }
                    Some(rest) => self.drop_unbound_parts(store, *rest),
                    None => {}
                }
            }
            Pat::Box { inner } => self.drop_unbound_parts(store, *inner),
            // Through a reference, or into a place (a destructuring assignment's).
            Pat::Ref { .. } | Pat::Deref { .. } | Pat::Expr(_) | Pat::Rest | Pat::Missing | Pat::NotNull => {}
        }
    }

    /// The type `pat` matches, instantiated.
    fn pat_ty(&mut self, pat: PatId) -> Option<Ty<'db>> {
        let ty = self.infer.type_of_expr_or_pat(pat.into())?;
        Some(self.inst.ty(ty))
    }

    /// The fields of the variant `pat` names, in order, with their types at `ty`'s
    /// arguments; `None` when the variant is not known (then the whole value is
    /// taken as dropped).
    fn variant_fields(&mut self, pat: PatId, ty: Ty<'db>) -> Option<Vec<(hir_expand::name::Name, Ty<'db>)>> {
        let (Some(variant), TyKind::Adt(_, args)) = (self.infer.variant_resolution_for_pat(pat), ty.kind()) else {
            return None;
        };
        let db = self.graph.db;
        let data = variant.fields(db);
        let mut inst = Instantiate::new(self.graph.interner, self.env, args);
        Some(
            db.field_types(variant)
                .iter()
                .map(|(id, field)| (data.fields()[id].name.clone(), inst.ty(field.ty().skip_binder())))
                .collect(),
        )
    }
}

/// Whether `expr` can leave before its end other than by panicking: a `return`
/// (`?` is one), a `break` or `continue` (even to a loop inside it: not told
/// apart), a `become`, a `yield`. Closures and async blocks leave only
/// themselves.
fn leaves_early(store: &ExpressionStore, expr: ExprId) -> bool {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match &store[e] {
            Expr::Return { .. }
            | Expr::Break { .. }
            | Expr::Continue { .. }
            | Expr::Become { .. }
            | Expr::Yield { .. }
            | Expr::Yeet { .. } => {
                return true;
            }
            Expr::Closure { .. } => continue,
            _ => store.walk_child_exprs(e, |child| stack.push(child)),
        }
    }
    false
}

pub(crate) fn strip_refs(mut ty: Ty<'_>) -> Ty<'_> {
    while let TyKind::Ref(_, inner, _) = ty.kind() {
        ty = inner;
    }
    ty
}

/// The pointee of a pointer-like type: `&T`, `*T`, `Box<T>`, `Rc<T>`, `Arc<T>`, `Pin<P>`.
fn pointee<'db>(ty: Ty<'db>) -> Option<Ty<'db>> {
    match ty.kind() {
        TyKind::Ref(_, inner, _) | TyKind::RawPtr(inner, _) => Some(inner),
        TyKind::Adt(_, args) => {
            let first = args.as_slice().first()?.ty()?;
            match first.kind() {
                TyKind::Dynamic(..) => Some(first),
                _ => pointee(first).or(Some(first)),
            }
        }
        _ => None,
    }
}

/// The trait a `dyn` type names first.
pub(crate) fn dyn_principal<'db>(ty: Ty<'db>) -> Option<TraitId> {
    match ty.kind() {
        TyKind::Dynamic(preds, _) => preds.principal_def_id().map(|id| id.0),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{growth_entry_need, Room};

    #[test]
    fn a_growth_entry_adds_one_element_unless_its_name_says_many() {
        for one in ["push", "insert", "put_u8", "put_i8", "push_back", "put_uint"] {
            assert_eq!(growth_entry_need(one), Room::One, "{one}");
        }
        assert_eq!(growth_entry_need("put_u32"), Room::Bytes(4));
        assert_eq!(growth_entry_need("put_f64_le"), Room::Bytes(8));
        assert_eq!(growth_entry_need("put_i128_ne"), Room::Bytes(16));
        for many in
            ["put_slice", "extend_from_slice", "insert_from_slice", "extend", "reserve", "reserve_exact", "append"]
        {
            assert_eq!(growth_entry_need(many), Room::Many, "{many}");
        }
    }
}
