//! The call graph of instances: what one `(function, generic arguments)` instance,
//! closure instance or drop glue calls, read from rust-analyzer's inference results
//! with the caller's arguments substituted. Knows nothing of roots, findings or
//! allowances; those are judged on top of these edges.

use std::rc::Rc;

use hir_def::{
    AdtId, CallableDefId, DefWithBodyId, FunctionId, ItemContainerId, TraitId, VariantId,
    expr_store::{Body, ExpressionStore},
    hir::{Expr, ExprId, ExprOrPatId, PatId, Statement},
    lang_item::LangItems,
    signatures::{FnFlags, FunctionSignature},
};
use hir_ty::{
    Adjust, InferBodyId, InferenceResult, OverloadedDeref, ParamEnvAndCrate, PointerCast,
    db::{HirDatabase, InternedClosureId},
    drop::{DropGlue, has_drop_glue},
    method_resolution::is_dyn_method,
    next_solver::{DbInterner, GenericArgs, Ty, TyKind, TypingMode, infer::DbInternerInferExt},
};
use rustc_hash::FxHashMap;
use rustc_type_ir::inherent::{BoundExistentialPredicates as _, GenericArgs as _, IntoKind};

use super::{
    allowances::{BodyFacts, CallContext, Growth, Room, is_long_lived_place, place_key},
    subst::Instantiate,
};

/// One unit the engine walks: a function at given generic arguments, a closure body
/// at its parent's arguments, or the drop glue of a type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Node<'db> {
    Fn { func: FunctionId, args: GenericArgs<'db> },
    Closure { closure: InternedClosureId<'db>, parent_args: GenericArgs<'db> },
    DropGlue(Ty<'db>),
    /// A method of a built-in derive (`Clone`, `Debug`, `PartialEq`, `Hash`, ...),
    /// which has no body: it calls the same trait method on each field.
    Derived { method: FunctionId, args: GenericArgs<'db> },
}

/// What an edge leads to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Target<'db> {
    Node(Node<'db>),
    /// An allocator entry point with no body: `__rust_alloc*`, `malloc`, ...
    Allocator(FunctionId),
    /// A foreign function that is not an allocator: its body is not visible.
    Foreign(FunctionId),
    /// A call whose callee the source does not determine (fn pointer, `impl Fn`
    /// parameter of a generic root, a trait method on an unresolved parameter).
    Unknown { what: String, kind: UnknownKind },
    /// A `dyn Trait` method call: resolved per root against the types that root's
    /// reachable code coerces to `dyn Trait`.
    Dyn { method: FunctionId, args: GenericArgs<'db> },
    /// An instance outside the workspace answered from the on-disk summaries.
    Summary(std::sync::Arc<super::summary_cache::CachedSummary>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum UnknownKind {
    /// A call through a fn pointer value.
    FnPointer,
    /// A call on a type the root leaves generic, or a `dyn Fn` from the root's caller.
    Opaque,
}

/// Where in a body an edge comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Site {
    pub owner: DefWithBodyId,
    pub expr: ExprOrPatId,
}

#[derive(Clone, Debug)]
pub(crate) struct Edge<'db> {
    pub target: Target<'db>,
    pub site: Option<Site>,
    /// A value of this binding is dropped here (for drop glue edges).
    pub drop_of: Option<Ty<'db>>,
    /// The callee as written, when it is a plain name (`f` in `f(1)`).
    pub callee_label: Option<String>,
    /// For a `format_args!` argument (`Argument::new_display(&x)`): the call that
    /// consumes the formatted arguments (`write_fmt`, `format`, ...), which is where
    /// the argument's `Display::fmt` runs and meets its writer.
    pub format_consumer: Option<ExprId>,
    /// Where the site stands: error path, loop, first-use setup.
    pub context: CallContext,
    /// The call grows a buffer (`v.push(x)`, a `noalloc:append` fn).
    pub growth: Option<Growth>,
}

impl<'db> Edge<'db> {
    pub(crate) fn new(target: Target<'db>, site: Option<Site>) -> Self {
        Edge {
            target,
            site,
            drop_of: None,
            callee_label: None,
            format_consumer: None,
            context: CallContext::default(),
            growth: None,
        }
    }
}

/// The walked body of one node.
#[derive(Default, Debug)]
pub(crate) struct Walked<'db> {
    pub edges: Vec<Edge<'db>>,
    /// Unsize coercions to `dyn Trait`: (concrete pointee, the `dyn` type).
    pub coercions: Vec<(Ty<'db>, Ty<'db>)>,
}

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
];

/// Lazy cells and their methods that initialise on first use.
const FIRST_USE_TYPES: &[&str] = &["OnceLock", "OnceCell", "LazyLock", "LazyCell", "Lazy", "Once", "LocalKey", "OnceBox"];
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

/// `Option`'s methods that fill it when empty: first-use setup on a field or static.
const OPTION_FIRST_USE_METHODS: &[&str] = &["get_or_insert_with", "get_or_insert"];

/// Whether `Owner::method` of std initialises its value on first use.
fn initialises_on_first_use(owner: &str, method: &str) -> bool {
    (FIRST_USE_TYPES.contains(&owner) && FIRST_USE_METHODS.contains(&method))
        || (owner == "Option" && OPTION_FIRST_USE_METHODS.contains(&method))
}

/// Walks bodies and caches what each node calls. One per analysis; shared by roots.
pub(crate) struct CallGraph<'db> {
    pub db: &'db dyn HirDatabase,
    pub interner: DbInterner<'db>,
    lang: &'db LangItems,
    walked: FxHashMap<Node<'db>, Rc<Walked<'db>>>,
    facts: FxHashMap<DefWithBodyId, Rc<BodyFacts>>,
    pub bodies_walked: usize,
}

impl<'db> CallGraph<'db> {
    pub(crate) fn new(db: &'db dyn HirDatabase, krate: base_db::Crate) -> Self {
        let interner = DbInterner::new_with(db, krate);
        CallGraph {
            db,
            interner,
            lang: interner.lang_items(),
            walked: FxHashMap::default(),
            facts: FxHashMap::default(),
            bodies_walked: 0,
        }
    }

    pub(crate) fn is_allocator_symbol(name: &str) -> bool {
        ALLOCATOR_SYMBOLS.contains(&name)
    }

    /// The allowance facts of a body, read once.
    fn facts_of(&mut self, def: DefWithBodyId) -> Rc<BodyFacts> {
        let db = self.db;
        let lang = self.lang;
        self.facts
            .entry(def)
            .or_insert_with(|| {
                let body = Body::of(db, def);
                let infer = InferenceResult::of(db, def);
                Rc::new(BodyFacts::of_body(&body, infer, lang, body.root_expr()))
            })
            .clone()
    }

    /// The standard-library type a method belongs to (`Vec`, `OnceLock`, ...): its
    /// impl's self type, or for a trait method the `Self` it is called on.
    fn std_type_of_method(&self, func: FunctionId, args: GenericArgs<'db>) -> Option<String> {
        let db = self.db;
        let adt = match func.loc(db).container {
            ItemContainerId::ImplId(impl_) => db.impl_self_ty(impl_).skip_binder().as_adt()?.0,
            ItemContainerId::TraitId(_) => {
                match strip_refs(args.as_slice().first()?.ty()?).kind() {
                    TyKind::Adt(adt_def, _) => adt_def.def_id(),
                    _ => return None,
                }
            }
            _ => return None,
        };
        let adt = hir::Adt::from(adt);
        let krate = adt.module(db).krate(db).display_name(db)?.crate_name().to_string();
        STD_CRATES.contains(&krate.as_str()).then(|| adt.name(db).as_str().to_owned())
    }

    /// The edges of `node`, walking its body the first time.
    pub(crate) fn walk(&mut self, node: Node<'db>, env: ParamEnvAndCrate<'db>) -> Rc<Walked<'db>> {
        if let Some(walked) = self.walked.get(&node) {
            return walked.clone();
        }
        let walked = Rc::new(super::incremental::walked(self.db, node, env));
        self.bodies_walked += 1;
        self.walked.insert(node, walked.clone());
        walked
    }

    pub(crate) fn walk_uncached(&mut self, node: Node<'db>, env: ParamEnvAndCrate<'db>) -> Walked<'db> {
        match node {
            Node::Fn { func, args } => {
                let def = DefWithBodyId::FunctionId(func);
                let body = Body::of(self.db, def);
                let mut walker = BodyWalker::new(self, def, args, env);
                for &param in body.params.iter() {
                    walker.drop_bindings_of(&body, param.formal);
                }
                walker.visit_expr(&body, body.root_expr());
                walker.out
            }
            Node::Closure { closure, parent_args } => {
                let loc = closure.loc(self.db);
                let InferBodyId::DefWithBodyId(def) = loc.owner else { return Walked::default() };
                let body = Body::of(self.db, def);
                let mut walker = BodyWalker::new(self, def, parent_args, env);
                if let Expr::Closure { body: closure_body, args, .. } = &body[loc.expr] {
                    for &arg in args.iter() {
                        walker.drop_bindings_of(&body, arg);
                    }
                    walker.visit_expr(&body, *closure_body);
                }
                walker.out
            }
            Node::DropGlue(ty) => self.drop_glue_edges(ty, env),
            Node::Derived { method, args } => self.derived_edges(method, args, env),
        }
    }

    /// Drop glue: the type's own `Drop` impl, then its fields' glue.
    fn drop_glue_edges(&mut self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> Walked<'db> {
        let mut out = Walked::default();
        let push = |out: &mut Walked<'db>, target| out.edges.push(Edge::new(target, None));
        match ty.kind() {
            TyKind::Adt(adt_def, _) => {
                let adt: AdtId = adt_def.def_id();
                if hir_ty::drop::destructor(self.db, adt).is_some() {
                    if let Some(drop_fn) = self.lang.Drop_drop {
                        let drop_args = GenericArgs::new_from_slice(&[ty.into()]);
                        if let Some(target) = self.resolve_call(drop_fn, drop_args, env) {
                            push(&mut out, target);
                        }
                    }
                }
                // Union fields are never dropped implicitly.
                if !matches!(adt, AdtId::UnionId(_)) {
                    for field_ty in self.field_types(ty, env) {
                        if self.needs_drop(field_ty, env) {
                            push(&mut out, Target::Node(Node::DropGlue(field_ty)));
                        }
                    }
                }
            }
            TyKind::Tuple(tys) => {
                for field_ty in tys.iter() {
                    if self.needs_drop(field_ty, env) {
                        push(&mut out, Target::Node(Node::DropGlue(field_ty)));
                    }
                }
            }
            TyKind::Array(elem, _) | TyKind::Slice(elem) => {
                if self.needs_drop(elem, env) {
                    push(&mut out, Target::Node(Node::DropGlue(elem)));
                }
            }
            _ => {}
        }
        out
    }

    /// A derived method calls the same method on every field, with the field's type
    /// in place of `Self` (and of `Rhs = Self` for comparisons).
    fn derived_edges(&mut self, method: FunctionId, args: GenericArgs<'db>, env: ParamEnvAndCrate<'db>) -> Walked<'db> {
        let mut out = Walked::default();
        let Some(self_ty) = args.as_slice().first().and_then(|a| a.ty()) else { return out };
        for field_ty in self.field_types(self_ty, env) {
            let field_args: Vec<_> = args
                .as_slice()
                .iter()
                .map(|arg| if arg.ty() == Some(self_ty) { field_ty.into() } else { *arg })
                .collect();
            if let Some(target) = self.resolve_call(method, GenericArgs::new_from_slice(&field_args), env) {
                out.edges.push(Edge::new(target, None));
            }
        }
        out
    }

    /// The types of every field of every variant of an ADT, instantiated.
    fn field_types(&self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> Vec<Ty<'db>> {
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
                out.push(inst.ty(field.ty().skip_binder()));
            }
        }
        out
    }

    pub(crate) fn needs_drop(&self, ty: Ty<'db>, env: ParamEnvAndCrate<'db>) -> bool {
        let infcx = self.interner.infer_ctxt().build(TypingMode::PostAnalysis);
        !matches!(has_drop_glue(&infcx, ty, env.param_env), DropGlue::None)
    }

    /// Where a call of `func` at `args` (already instantiated) goes.
    pub(crate) fn resolve_call(
        &mut self,
        func: FunctionId,
        args: GenericArgs<'db>,
        env: ParamEnvAndCrate<'db>,
    ) -> Option<Target<'db>> {
        let db = self.db;
        if self.is_fn_trait_call(func) {
            let self_ty = args.as_slice().first()?.ty()?;
            return self.resolve_fn_trait_call(func, args, self_ty, env);
        }
        if Some(func) == self.lang.DropInPlace {
            let ty = args.as_slice().first()?.ty()?;
            return self.needs_drop(ty, env).then_some(Target::Node(Node::DropGlue(ty)));
        }
        let container = func.loc(db).container;
        if let ItemContainerId::TraitId(_) = container {
            if is_dyn_method(self.interner, env.param_env, func, args).is_some() {
                return Some(Target::Dyn { method: func, args });
            }
            let (resolved, resolved_args) = db.lookup_impl_method(env, func, args);
            return match resolved {
                either::Either::Left(resolved) => self.resolve_concrete(resolved, resolved_args),
                either::Either::Right(_) => Some(Target::Node(Node::Derived { method: func, args })),
            };
        }
        self.resolve_concrete(func, args)
    }

    fn resolve_concrete(&mut self, func: FunctionId, args: GenericArgs<'db>) -> Option<Target<'db>> {
        let db = self.db;
        let sig = FunctionSignature::of(db, func);
        let container = func.loc(db).container;
        if sig.flags.contains(FnFlags::RUSTC_INTRINSIC) {
            // Intrinsics have no body; none of them allocates (`box_new` is gone from
            // std: `Box::new` allocates through `__rust_alloc`, which we see).
            return None;
        }
        if let ItemContainerId::ExternBlockId(_) = container {
            let name = sig.name.as_str();
            return Some(if Self::is_allocator_symbol(name) { Target::Allocator(func) } else { Target::Foreign(func) });
        }
        if !sig.has_body() {
            if let ItemContainerId::TraitId(_) = container {
                let self_ty = args.as_slice().first().and_then(|a| a.ty());
                let who = self_ty.map(|t| super::naming::ty_name(db, t)).unwrap_or_default();
                let what = format!("<{who} as {}>::{}", super::naming::trait_path_of(db, func), sig.name.as_str());
                return Some(Target::Unknown { what, kind: UnknownKind::Opaque });
            }
            return None;
        }
        Some(Target::Node(Node::Fn { func, args }))
    }

    /// An associated fn of `core::fmt::rt::Argument` or `core::fmt::Arguments`: what
    /// `format_args!` expands to.
    pub(crate) fn is_format_machinery(&self, func: FunctionId) -> bool {
        let ItemContainerId::ImplId(impl_) = func.loc(self.db).container else { return false };
        let Some((adt, _)) = self.db.impl_self_ty(impl_).skip_binder().as_adt() else { return false };
        let adt = Some(adt);
        adt == self.lang.FormatArgument.map(AdtId::from) || adt == self.lang.FormatArguments.map(AdtId::from)
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
    ) -> Option<Target<'db>> {
        let mut callee = self_ty;
        while let TyKind::Ref(_, inner, _) = callee.kind() {
            callee = inner;
        }
        match callee.kind() {
            TyKind::FnDef(def, fn_args) => match def.0 {
                CallableDefId::FunctionId(f) => self.resolve_call(f, fn_args, env),
                _ => None,
            },
            TyKind::Closure(closure, closure_args) => Some(Target::Node(Node::Closure {
                closure: closure.0,
                parent_args: GenericArgs::new_from_slice(closure_args.as_closure().parent_args()),
            })),
            TyKind::FnPtr(..) => Some(Target::Unknown {
                what: format!("`{}`", super::naming::ty_name(self.db, callee)),
                kind: UnknownKind::FnPointer,
            }),
            TyKind::Dynamic(..) => Some(Target::Dyn { method: func, args: replace_self(args, callee) }),
            TyKind::Param(_) | TyKind::Alias(..) => Some(Target::Unknown {
                what: format!("`{}`", super::naming::ty_name(self.db, callee)),
                kind: UnknownKind::Opaque,
            }),
            _ => {
                let (resolved, resolved_args) = self.db.lookup_impl_method(env, func, replace_self(args, callee));
                match resolved {
                    either::Either::Left(f) if f != func => self.resolve_concrete(f, resolved_args),
                    _ => None,
                }
            }
        }
    }
}

fn replace_self<'db>(args: GenericArgs<'db>, self_ty: Ty<'db>) -> GenericArgs<'db> {
    let mut new: Vec<_> = args.as_slice().to_vec();
    if let Some(first) = new.first_mut() {
        *first = self_ty.into();
    }
    GenericArgs::new_from_slice(&new)
}

/// The walk of one body at one instantiation.
struct BodyWalker<'g, 'db> {
    graph: &'g mut CallGraph<'db>,
    /// The calls whose arguments are being walked, innermost last; `false` for the
    /// calls of the `format_args!` machinery itself.
    enclosing_calls: Vec<(ExprId, bool)>,
    owner: DefWithBodyId,
    infer: &'db InferenceResult<'db>,
    inst: Instantiate<'db>,
    env: ParamEnvAndCrate<'db>,
    facts: Rc<BodyFacts>,
    /// The callee being visited and its call: a path call's function is mentioned
    /// by its callee expression, while its arguments belong to the call.
    callee_of_call: Option<(ExprId, ExprId)>,
    out: Walked<'db>,
}

impl<'g, 'db> BodyWalker<'g, 'db> {
    fn new(graph: &'g mut CallGraph<'db>, owner: DefWithBodyId, args: GenericArgs<'db>, env: ParamEnvAndCrate<'db>) -> Self {
        let infer = InferenceResult::of(graph.db, owner);
        let inst = Instantiate::new(graph.interner, env, args);
        let facts = graph.facts_of(owner);
        BodyWalker {
            graph,
            enclosing_calls: Vec::new(),
            owner,
            infer,
            inst,
            env,
            facts,
            callee_of_call: None,
            out: Walked::default(),
        }
    }

    /// Records an edge, with the context of its site.
    fn push(&mut self, mut edge: Edge<'db>) {
        if let Some(site) = edge.site {
            edge.context = self.facts.context(site.expr);
        }
        self.out.edges.push(edge);
    }

    fn site(&self, expr: impl Into<ExprOrPatId>) -> Option<Site> {
        Some(Site { owner: self.owner, expr: expr.into() })
    }

    fn call(&mut self, store: &ExpressionStore, func: FunctionId, args: GenericArgs<'db>, expr: ExprId, label: Option<String>) {
        let format_consumer = if self.graph.is_format_machinery(func) {
            self.enclosing_calls.iter().rev().find(|(_, consumes)| *consumes).map(|&(call, _)| call)
        } else {
            None
        };
        let args = self.inst.args(args);
        if let Some(target) = self.graph.resolve_call(func, args, self.env) {
            let site = self.site(expr);
            let call = match self.callee_of_call {
                Some((callee, call)) if callee == expr => call,
                _ => expr,
            };
            let name = FunctionSignature::of(self.graph.db, func).name.as_str().to_owned();
            let growth = self.growth(store, func, &name, args, call);
            let first_use = self.is_first_use_call(store, func, &name, args, call);
            let mut edge = Edge { callee_label: label, format_consumer, growth, ..Edge::new(target, site) };
            edge.context = self.facts.context(call.into());
            edge.context.first_use |= first_use;
            self.out.edges.push(edge);
        }
    }

    /// The receiver of a method call, or the first argument of a path call.
    fn receiver(store: &ExpressionStore, call: ExprId) -> Option<ExprId> {
        match &store[call] {
            Expr::MethodCall { receiver, .. } => Some(*receiver),
            Expr::Call { args, .. } => args.first().copied(),
            _ => None,
        }
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
        let need = if *super::incremental::is_append_fn(self.graph.db, func) {
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
            need
        };
        let receiver = Self::receiver(store, call)?;
        let buffer = place_key(store, receiver)?;
        let room = self.facts.room(call, &buffer).is_some_and(|room| room >= need);
        // The place's base, and the types that hold its fields.
        let mut base = receiver;
        let mut holders = Vec::new();
        loop {
            match &store[base] {
                Expr::Field { expr, .. } => {
                    if let Some(TyKind::Adt(adt_def, _)) = self.expr_ty(*expr).map(strip_refs).map(|t| t.kind()) {
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
            self.expr_ty(base).is_some_and(|ty| matches!(ty.kind(), TyKind::Ref(_, _, mutability) if mutability.is_mut()));
        Some(Growth { buffer, room, long_lived: on_self || through_mut_ref, on_self, holders })
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
        if !FIRST_USE_METHODS.contains(&name) && !OPTION_FIRST_USE_METHODS.contains(&name) {
            return false;
        }
        self.graph.std_type_of_method(func, args).is_some_and(|owner| initialises_on_first_use(&owner, name))
            && Self::receiver(store, call).is_some_and(|receiver| is_long_lived_place(store, receiver))
    }

    /// The function a call expression calls, before impl resolution.
    fn callee_of(&mut self, store: &ExpressionStore, expr: ExprId) -> Option<FunctionId> {
        if let Some((func, _)) = self.infer.method_resolution(expr) {
            return Some(func);
        }
        let Expr::Call { callee, .. } = &store[expr] else { return None };
        match self.expr_ty(*callee)?.kind() {
            TyKind::FnDef(def, _) => match def.0 {
                CallableDefId::FunctionId(func) => Some(func),
                _ => None,
            },
            _ => None,
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

    fn visit_expr(&mut self, store: &ExpressionStore, expr: ExprId) {
        let ty = self.expr_ty(expr);
        match &store[expr] {
            // A closure's body is its own node, walked only when something calls it.
            Expr::Closure { .. } => {
                self.visit_adjustments(store, expr, ty);
                return;
            }
            // Panic paths: a call that never returns (`panic_fmt`, `unwrap_failed`,
            // `handle_alloc_error`, `process::exit`) is skipped with its arguments,
            // and so is a block that ends in one.
            Expr::Call { .. } | Expr::MethodCall { .. } if ty.is_some_and(|t| t.is_never()) => return,
            Expr::Block { .. } | Expr::Unsafe { .. } if self.block_ends_in_diverging_call(store, expr) => return,
            _ => {}
        }
        if let Some(ty) = ty {
            if let TyKind::FnDef(def, args) = ty.kind() {
                if let CallableDefId::FunctionId(func) = def.0 {
                    // A function item mentioned as a value (called, or stored as a
                    // pointer as `format_args!` does with `Display::fmt`) may be called.
                    self.call(store, func, args, expr, None);
                }
            }
        }
        if let Some((func, args)) = self.infer.method_resolution(expr) {
            self.call(store, func, args, expr, Self::callee_label(store, expr));
        } else if let Expr::Call { callee, .. } = &store[expr] {
            // A built-in call through a fn pointer: no callee the source can show.
            if let Some(callee_ty) = self.expr_ty(*callee) {
                if let TyKind::FnPtr(..) = callee_ty.kind() {
                    let what = Self::callee_label(store, expr)
                        .unwrap_or_else(|| format!("`{}`", super::naming::ty_name(self.graph.db, callee_ty)));
                    let site = self.site(expr);
                    self.push(Edge::new(Target::Unknown { what, kind: UnknownKind::FnPointer }, site));
                }
            }
        }
        self.visit_adjustments(store, expr, ty);
        if let Expr::Block { statements, .. } | Expr::Unsafe { statements, .. } = &store[expr] {
            for statement in statements.iter() {
                if let Statement::Let { pat, .. } = statement {
                    self.drop_bindings_of(store, *pat);
                }
            }
        }
        match &store[expr] {
            Expr::Call { callee, args } => {
                self.callee_of_call = Some((*callee, expr));
                self.visit_expr(store, *callee);
                self.callee_of_call = None;
                let consumes = !self.callee_of(store, expr).is_some_and(|f| self.graph.is_format_machinery(f));
                self.enclosing_calls.push((expr, consumes));
                for &arg in args.iter() {
                    self.visit_expr(store, arg);
                }
                self.enclosing_calls.pop();
            }
            Expr::MethodCall { .. } => {
                let consumes = !self.callee_of(store, expr).is_some_and(|f| self.graph.is_format_machinery(f));
                self.enclosing_calls.push((expr, consumes));
                store.walk_child_exprs(expr, |child| self.visit_expr(store, child));
                self.enclosing_calls.pop();
            }
            _ => store.walk_child_exprs(expr, |child| self.visit_expr(store, child)),
        }
    }

    /// Overloaded auto-deref calls `Deref::deref`; unsizing to `dyn Trait` records a
    /// coercion; a closure turned into a fn pointer may be called.
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
                        if let Some(target) = self.graph.resolve_call(deref_fn, args, self.env) {
                            let site = self.site(expr);
                            let mut edge = Edge::new(target, site);
                            edge.context = self.facts.context(expr.into());
                            // A static or field `LazyLock`'s deref initialises on first use.
                            let name = FunctionSignature::of(self.graph.db, deref_fn).name.as_str().to_owned();
                            edge.context.first_use |= self
                                .graph
                                .std_type_of_method(deref_fn, args)
                                .is_some_and(|owner| initialises_on_first_use(&owner, &name))
                                && is_long_lived_place(store, expr);
                            self.out.edges.push(edge);
                        }
                    }
                }
                Adjust::Pointer(PointerCast::Unsize) => {
                    if let (Some(from), Some(to)) = (pointee(source), pointee(target)) {
                        if matches!(to.kind(), TyKind::Dynamic(..)) {
                            self.out.coercions.push((from, to));
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
                        self.push(Edge::new(Target::Node(closure), site));
                    }
                }
                _ => {}
            }
            source = target;
        }
    }

    fn block_ends_in_diverging_call(&mut self, store: &ExpressionStore, block: ExprId) -> bool {
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
            Expr::Call { .. } | Expr::MethodCall { .. } => self.expr_ty(last).is_some_and(|t| t.is_never()),
            Expr::Block { .. } | Expr::Unsafe { .. } => self.block_ends_in_diverging_call(store, last),
            _ => false,
        }
    }

    /// Values bound by `pat` are dropped at the end of their scope.
    fn drop_bindings_of(&mut self, store: &ExpressionStore, pat: PatId) {
        self.drop_bindings(store, pat, ExprOrPatId::PatId(pat));
    }

    fn drop_bindings(&mut self, store: &ExpressionStore, pat: PatId, site: ExprOrPatId) {
        let mut bindings = Vec::new();
        store.walk_bindings_in_pat(pat, |binding| bindings.push(binding));
        for binding in bindings {
            let ty = self.inst.ty(self.infer.binding_ty(binding));
            if matches!(ty.kind(), TyKind::Ref(..) | TyKind::RawPtr(..)) || !self.graph.needs_drop(ty, self.env) {
                continue;
            }
            let site = Some(Site { owner: self.owner, expr: site });
            self.push(Edge { drop_of: Some(ty), ..Edge::new(Target::Node(Node::DropGlue(ty)), site) });
        }
    }
}

fn strip_refs(mut ty: Ty<'_>) -> Ty<'_> {
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
