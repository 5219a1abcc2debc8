//! Fields of a dependency's structs that hold fn pointers or `dyn` values and that
//! only the dependency's own code can write: memchr's `Searcher { call: fn(..), .. }`,
//! which a `Finder` the root's caller built carries into the root.
//!
//! A field whose visibility stops short of other crates can be named, and so stored
//! into, only by the code of the modules it is visible from. What a value from
//! outside holds in such a field is therefore what that code stores there: the
//! functions whose address it takes and the types it coerces, read from the walks
//! of the bodies that store into it (`Program::read_sealed_fields` takes them in).
//! A store's value made from a parameter of a function that is not `pub` is
//! followed to every call of that function (its callers are in the code its
//! visibility admits), and those callers are walked too. Where a store's value
//! is not made that way (a call's result, a parameter of a `pub` function or of
//! a trait's method, a function whose address is taken), or the field is lent out mutably (`&mut s.call`, a `ref mut`
//! binding, a destructuring assignment), what the field holds cannot be told and it
//! is read as a value from outside, as every field was before.
//!
//! Sealed: a named field of a struct outside the workspace (a workspace's edits
//! could add a store no stamp records), not public, whose declared type holds a fn
//! pointer or a `dyn` and no type parameter (a parameter's value comes from the
//! caller whatever the field's visibility) and no cell (a `Cell::set` stores
//! through a shared reference). The code the field is visible from is
//! its crate's modules the visibility admits, with the items declared in their
//! bodies' blocks. The analysis trusts the type system: code that makes such a
//! struct out of untyped memory (a `transmute` of bytes) is not looked for.

use hir::db::HirDatabase;
use hir_def::{
    expr_store::Body,
    hir::{Expr, ExprId, Pat, PatId, Statement},
    DefWithBodyId, FieldId, HasModule, VariantId,
};
use hir_ty::{
    next_solver::{GenericArgs, SolverDefId, Ty, TyKind},
    Adjust, InferenceResult, ParamEnvAndCrate,
};
use rustc_type_ir::{
    inherent::{GenericArgs as _, IntoKind},
    TypeVisitableExt,
};

use super::walk::{CallGraph, Node};

/// How deep a stored value's making is followed (through locals, branches and
/// constructors).
const MAX_VALUE_DEPTH: usize = 16;

/// Whether `field`, of declared type `declared`, is sealed (see the module's doc).
pub(crate) fn is_sealed<'db>(
    graph: &mut CallGraph<'db>,
    field: FieldId,
    declared: Ty<'db>,
    env: ParamEnvAndCrate<'db>,
) -> bool {
    let db = graph.db;
    let VariantId::StructId(_) = field.parent else { return false };
    if field.parent.fields(db).shape != hir_def::item_tree::FieldsShape::Record {
        return false;
    }
    if field.parent.module(db).krate(db).data(db).origin.is_local() {
        return false;
    }
    let visibility = hir_def::signatures::VariantFields::field_visibilities(db, field.parent)[field.local_id];
    // A cell's content is set through a shared reference (`Cell::set`), which the
    // stores looked for do not see.
    !matches!(visibility, hir_def::visibility::Visibility::Public)
        && !declared.has_param()
        && graph.holds_dyn_or_fn_pointer(declared, env)
        && !super::resolve::holds_unsafe_cell(graph, declared, env, &mut Default::default(), 0, &mut false)
}

/// What the code that can store into a sealed field stores there.
pub(crate) struct FieldStores<'db> {
    /// The bodies that store into it (and their closures), to be walked: what they
    /// take the address of and coerce is what may be in the field.
    pub storing: Vec<Node<'db>>,
    /// Some store's value, or a mutable loan of the field, comes from elsewhere:
    /// the field may hold anything of its type from outside.
    pub from_outside: bool,
    /// For each generic function among the storing bodies whose instantiations
    /// across the crate graph were read, the names a workspace body must spell
    /// to add one (`None`: it need not spell one): an edit anywhere there may
    /// change what the field holds.
    pub instantiating: Vec<Option<Vec<String>>>,
    /// The storing bodies read.
    read: Vec<DefWithBodyId>,
}

impl<'db> FieldStores<'db> {
    fn new(from_outside: bool) -> Self {
        FieldStores { storing: Vec::new(), from_outside, instantiating: Vec::new(), read: Vec::new() }
    }

    /// The generic arguments `def`'s body stores at: a generic function of a
    /// dependency at each instantiation the crate graph makes of it
    /// (`instantiations_in_graph`: none, when nothing calls it). Where they cannot
    /// all be found, and for a generic impl's const, at its own parameters, and
    /// what the field holds is from outside too: a walk at open parameters does
    /// not tell what their instances store.
    fn instances(&mut self, graph: &CallGraph<'db>, def: DefWithBodyId) -> Vec<GenericArgs<'db>> {
        let identity = match def {
            DefWithBodyId::FunctionId(func) => {
                GenericArgs::identity_for_item(graph.interner, SolverDefId::FunctionId(func))
            }
            DefWithBodyId::ConstId(id) => GenericArgs::identity_for_item(graph.interner, SolverDefId::ConstId(id)),
            _ => return vec![GenericArgs::empty(graph.interner)],
        };
        if !crate::engine::source::roots::is_generic(identity) {
            return vec![identity];
        }
        let found = match def {
            DefWithBodyId::FunctionId(func) => {
                let found = crate::engine::source::instantiations::instantiations_in_graph(graph.db, func);
                self.instantiating.push(found.names);
                found.args
            }
            _ => None,
        };
        found.unwrap_or_else(|| {
            self.from_outside = true;
            vec![identity]
        })
    }
}

/// The stores into the sealed field `field`.
pub(crate) fn stores_into<'db>(graph: &CallGraph<'db>, field: FieldId) -> FieldStores<'db> {
    let db = graph.db;
    let from_outside = FieldStores::new(true);
    let Some(bodies) = bodies_seeing_field(db, field) else { return from_outside };
    let name = field.parent.fields(db).fields()[field.local_id].name.clone();
    let mut stores = FieldStores::new(false);
    for def in bodies {
        let body = Body::of(db, def);
        // Only bodies that spell the field's name can store into it.
        let spells = body.exprs().any(|(_, expr)| match expr {
            Expr::Field { name: used, .. } => *used == name,
            Expr::RecordLit { fields, .. } => fields.iter().any(|f| f.name == name),
            _ => false,
        }) || body
            .pats()
            .any(|(_, pat)| matches!(pat, Pat::Record { args, .. } if args.iter().any(|a| a.name == name)));
        if !spells {
            continue;
        }
        let infer = super::incremental::inference_of(db, def);
        let scan = Scan::default();
        let reading = BodyStores { db, body, infer, owner: def, field, scan: &scan };
        match reading.stores() {
            Some(true) => {
                // The storing body, and the callers whose arguments a store takes
                // its value from.
                for def in std::iter::once(def).chain(scan.callers.into_inner()) {
                    if stores.read.contains(&def) {
                        continue;
                    }
                    stores.read.push(def);
                    let body_infer = super::incremental::inference_of(db, def);
                    for args in stores.instances(graph, def) {
                        stores.storing.push(node_at(def, args));
                        let Some(closures) = closures_of(Body::of(db, def), body_infer, args) else {
                            return from_outside;
                        };
                        stores.storing.extend(closures);
                    }
                }
            }
            Some(false) => {}
            None => {
                tracing::debug!(target: "noalloc_ls::engine::reach", "sealed field {field:?} ({}): a store or loan in {} from outside", name.as_str(), crate::engine::source::naming::owner_path(db, hir_ty::InferBodyId::DefWithBodyId(def)));
                return from_outside;
            }
        }
    }
    stores
}

/// What following a store's value into the callers of its function found: the
/// calling bodies, and the parameters being followed (a cycle holds what its
/// other callers give).
#[derive(Default)]
struct Scan {
    callers: std::cell::RefCell<Vec<DefWithBodyId>>,
    following: std::cell::RefCell<Vec<(hir_def::FunctionId, usize)>>,
}

/// The closures of a body walked at `args`, its generic arguments: a store
/// inside one is walked in the closure's node. `None` when the body holds a
/// coroutine (an `async` block or closure), whose body is walked where the code
/// that polls it is.
fn closures_of<'db>(body: &Body, infer: &InferenceResult<'db>, args: GenericArgs<'db>) -> Option<Vec<Node<'db>>> {
    body.exprs()
        .filter(|(_, expr)| matches!(expr, Expr::Closure { .. }))
        .map(|(id, _)| match infer.type_of_expr_or_pat(id.into())?.kind() {
            TyKind::Closure(closure, _) => Some(Node::Closure { closure: closure.0, parent_args: args }),
            _ => None,
        })
        .collect()
}

/// The node that walks `def`'s body at generic arguments `args`.
fn node_at<'db>(def: DefWithBodyId, args: GenericArgs<'db>) -> Node<'db> {
    match def {
        DefWithBodyId::FunctionId(func) => Node::function(func, args),
        other => Node::Init(other, args),
    }
}

/// The bodies of the code `field` is visible from; `None` past
/// `scope::MAX_SCOPE_BODIES` (it is read as from outside).
fn bodies_seeing_field(db: &dyn HirDatabase, field: FieldId) -> Option<Vec<DefWithBodyId>> {
    let visibility = hir_def::signatures::VariantFields::field_visibilities(db, field.parent)[field.local_id];
    super::scope::bodies_in_scope(db, visibility, field.parent.module(db).krate(db))
}

/// One body read for its stores into one field.
struct BodyStores<'a, 'db> {
    db: &'db dyn HirDatabase,
    body: &'a Body,
    infer: &'a InferenceResult<'db>,
    owner: DefWithBodyId,
    field: FieldId,
    scan: &'a Scan,
}

impl<'db> BodyStores<'_, 'db> {
    /// Whether the body stores into the field (`Some(true)`), does not
    /// (`Some(false)`), or stores or lends it in a way whose value cannot be told
    /// (`None`).
    fn stores(&self) -> Option<bool> {
        let mut stores = false;
        for (id, expr) in self.body.exprs() {
            match expr {
                Expr::RecordLit { fields, .. } if self.builds_struct(id) => {
                    for f in fields.iter().filter(|f| self.names_field(&f.name)) {
                        stores = true;
                        if !self.made_here(f.expr, 0) {
                            return None;
                        }
                    }
                }
                // A mutable auto-borrow (`s.call.take()`) lends the field out.
                Expr::Field { .. } if self.is_field(id) && self.lent_mutably(id) => return None,
                Expr::Ref { expr: inner, mutability, .. } if mutability.is_mut() && self.is_field(*inner) => {
                    return None;
                }
                Expr::Assignment { target, value } => match &self.body[*target] {
                    Pat::Expr(place) if self.is_field(*place) => {
                        stores = true;
                        if !self.made_here(*value, 0) {
                            return None;
                        }
                    }
                    _ if self.assigns(*target, |place| self.is_field(place)) => return None,
                    _ => {}
                },
                _ => {}
            }
        }
        // A pattern of the struct that binds the field by mutable reference.
        for (id, pat) in self.body.pats() {
            let Pat::Record { args, .. } = pat else { continue };
            if self.infer.variant_resolution_for_pat(id) != Some(self.field.parent) {
                continue;
            }
            for arg in args.iter().filter(|a| self.names_field(&a.name)) {
                if self.binds_mutably(arg.pat) {
                    return None;
                }
            }
        }
        Some(stores)
    }

    /// Whether `expr` is auto-borrowed mutably (a `&mut self` method's receiver).
    fn lent_mutably(&self, expr: ExprId) -> bool {
        super::allowances::auto_borrow(self.infer, expr).is_some_and(|m| m.is_mut())
    }

    fn names_field(&self, name: &hir::Name) -> bool {
        *name == self.field.parent.fields(self.db).fields()[self.field.local_id].name
    }

    fn builds_struct(&self, expr: ExprId) -> bool {
        self.infer.variant_resolution_for_expr(expr) == Some(self.field.parent)
    }

    /// Whether `expr` is a place expression of the field.
    fn is_field(&self, expr: ExprId) -> bool {
        matches!(self.infer.field_resolution(expr), Some(either::Either::Left(f)) if f == self.field)
    }

    /// Whether `pat` binds something by mutable reference (explicit `ref mut`, or
    /// a binding of `&mut` type through match ergonomics).
    fn binds_mutably(&self, pat: PatId) -> bool {
        let mut found = false;
        self.body.walk_pats(pat, &mut |p| {
            if let Pat::Bind { id, .. } = &self.body[p] {
                found |= matches!(self.infer.binding_ty(*id).kind(), TyKind::Ref(_, _, m) if m.is_mut())
                    || matches!(self.infer.binding_ty(*id).kind(), TyKind::RawPtr(_, m) if m.is_mut());
            }
        });
        found
    }

    /// Whether the value of `expr` is made in this body from functions, closures
    /// and coercions its walk sees (or is the field itself, copied): a fn item, a
    /// closure, a static or const (or a shared reference to one), a local set
    /// only from such values, a branch or constructor of them, an expression that
    /// never returns.
    fn made_here(&self, expr: ExprId, depth: usize) -> bool {
        if depth > MAX_VALUE_DEPTH {
            return false;
        }
        let ty = self.infer.type_of_expr_or_pat(expr.into());
        if ty.is_some_and(|ty| matches!(ty.kind(), TyKind::Never)) {
            return true;
        }
        // Coerced to a `dyn` here: the walk records the coercion.
        let unsized_here = self.infer.expr_adjustment(expr).is_some_and(|adjustments| {
            adjustments.iter().any(|a| matches!(a.kind, Adjust::Pointer(hir_ty::PointerCast::Unsize)))
        });
        if unsized_here {
            return true;
        }
        let all =
            |exprs: &mut dyn Iterator<Item = ExprId>| Iterator::all(&mut &mut *exprs, |e| self.made_here(e, depth + 1));
        match &self.body[expr] {
            Expr::Path(_) => {
                ty.is_some_and(|ty| matches!(ty.kind(), TyKind::FnDef(..)))
                    || self.names_static_or_const(expr)
                    || self.local_made_here(expr, depth)
            }
            Expr::Closure { .. } | Expr::Literal(_) => true,
            Expr::Cast { expr: inner, .. } => self.made_here(*inner, depth + 1),
            Expr::Ref { expr: inner, mutability, .. } if !mutability.is_mut() => self.made_here(*inner, depth + 1),
            Expr::Block { statements, tail, label: None, .. } | Expr::Unsafe { statements, tail, .. } => {
                let _ = statements;
                tail.is_none_or(|tail| self.made_here(tail, depth + 1))
            }
            Expr::If { then_branch, else_branch, .. } => {
                self.made_here(*then_branch, depth + 1) && else_branch.is_none_or(|e| self.made_here(e, depth + 1))
            }
            Expr::Match { arms, .. } => all(&mut arms.iter().map(|arm| arm.expr)),
            Expr::Call { callee, args } => self.is_constructor(*callee) && all(&mut args.iter().copied()),
            Expr::RecordLit { fields, spread, .. } => {
                matches!(spread, hir_def::hir::RecordSpread::None) && all(&mut fields.iter().map(|f| f.expr))
            }
            Expr::Tuple { exprs } => all(&mut exprs.iter().copied()),
            Expr::Array(hir_def::hir::Array::ElementList { elements }) => all(&mut elements.iter().copied()),
            Expr::Field { .. } => self.is_field(expr),
            _ => false,
        }
    }

    /// Whether path `expr` names a static or a const: the walk reads its
    /// initialiser (`Walked::statics`), and the program takes in what it holds.
    fn names_static_or_const(&self, expr: ExprId) -> bool {
        // An associated const (`Owned::<T>::VTABLE`), read at its instance.
        matches!(
            self.infer.assoc_resolutions_for_expr(expr),
            Some((hir_ty::method_resolution::CandidateId::ConstId(_), _))
        ) || matches!(
            super::incremental::value_path(self.db, self.owner, expr),
            Some(super::incremental::PathValue::Static(_) | super::incremental::PathValue::Const(_))
        )
    }

    /// Whether a tuple struct's or an enum variant's constructor is called (`Some(f)`).
    fn is_constructor(&self, callee: ExprId) -> bool {
        let Some(ty) = self.infer.type_of_expr_or_pat(callee.into()) else { return false };
        matches!(
            ty.kind(),
            TyKind::FnDef(def, _)
                if matches!(def.0, hir_def::CallableDefId::StructId(_) | hir_def::CallableDefId::EnumVariantId(_))
        )
    }

    /// Whether the local that path `expr` names is set, by its `let` and every
    /// assignment to it, only from values made here.
    fn local_made_here(&self, expr: ExprId, depth: usize) -> bool {
        let Some(super::incremental::PathValue::Local(binding)) =
            super::incremental::value_path(self.db, self.owner, expr)
        else {
            return false;
        };
        if let Some(index) = self.param_index(binding) {
            return !self.binding_reassigned(binding) && self.param_made_here(index, depth);
        }
        let mut declared = false;
        for (id, e) in self.body.exprs() {
            match e {
                Expr::Block { statements, .. } | Expr::Unsafe { statements, .. } => {
                    for statement in statements.iter() {
                        let Statement::Let { pat, initializer, .. } = statement else { continue };
                        if let Pat::Bind { id, subpat: None } = &self.body[*pat] {
                            if *id == binding {
                                declared = true;
                                if initializer.is_some_and(|init| !self.made_here(init, depth + 1)) {
                                    return false;
                                }
                            }
                        }
                    }
                }
                Expr::Assignment { target, value } => {
                    // `x = v` with `v` made here; never a destructuring assignment to it.
                    let keeps_it_made_here = match &self.body[*target] {
                        Pat::Expr(place) if self.names_local(*place, binding) => self.made_here(*value, depth + 1),
                        _ => !self.assigns(*target, |place| self.names_local(place, binding)),
                    };
                    if !keeps_it_made_here {
                        return false;
                    }
                }
                _ if self.lends_local(id, e, binding) => return false,
                _ => {}
            }
        }
        declared
    }

    /// The position among the function's inputs (`self` first) of the parameter
    /// that binds `binding` directly.
    fn param_index(&self, binding: hir_def::hir::BindingId) -> Option<usize> {
        let DefWithBodyId::FunctionId(_) = self.owner else { return None };
        let offset = usize::from(self.body.self_param.is_some());
        if self.body.self_param.as_ref().is_some_and(|param| param.formal == binding || param.user_written == binding) {
            return Some(0);
        }
        let binds = |pat: PatId| matches!(&self.body[pat], Pat::Bind { id, subpat: None } if *id == binding);
        self.body.params.iter().position(|param| binds(param.formal) || binds(param.user_written)).map(|i| i + offset)
    }

    /// Whether the body assigns to `binding` or lends it out mutably.
    fn binding_reassigned(&self, binding: hir_def::hir::BindingId) -> bool {
        self.body.exprs().any(|(id, expr)| {
            matches!(expr, Expr::Assignment { target, .. } if self.assigns(*target, |place| self.names_local(place, binding)))
                || self.lends_local(id, expr, binding)
        })
    }

    /// Whether the assignee `target` (plain, or a destructuring pattern) assigns
    /// a place `is_place` accepts.
    fn assigns(&self, target: PatId, is_place: impl Fn(ExprId) -> bool) -> bool {
        let mut found = false;
        self.body.walk_pats(target, &mut |p| {
            if let Pat::Expr(place) = &self.body[p] {
                found |= is_place(*place);
            }
        });
        found
    }

    /// Whether `expr` lends the local `binding` out mutably (`&mut x`, a `&mut
    /// self` method on it): whoever borrows it may set it.
    fn lends_local(&self, id: ExprId, expr: &Expr, binding: hir_def::hir::BindingId) -> bool {
        match expr {
            Expr::Ref { expr: inner, mutability, .. } => mutability.is_mut() && self.names_local(*inner, binding),
            Expr::Path(_) => self.names_local(id, binding) && self.lent_mutably(id),
            _ => false,
        }
    }

    /// Whether every caller of this body's function gives its input `index` a
    /// value made in the caller's body. Only a function that is not `pub` and not
    /// a trait's method has callers that can all be found (in the code its
    /// visibility admits), and only when nothing there takes its address.
    fn param_made_here(&self, index: usize, depth: usize) -> bool {
        let DefWithBodyId::FunctionId(func) = self.owner else { return false };
        if self.scan.following.borrow().contains(&(func, index)) {
            return true;
        }
        if depth > MAX_VALUE_DEPTH {
            return false;
        }
        let db = self.db;
        if !crate::engine::source::roots::is_free_or_inherent(db, func) {
            return false;
        }
        let visibility = hir::HasVisibility::visibility(&hir::Function::from(func), db);
        if matches!(visibility, hir_def::visibility::Visibility::Public) {
            return false;
        }
        let Some(bodies) = super::scope::bodies_in_scope(db, visibility, func.krate(db)) else { return false };
        self.scan.following.borrow_mut().push((func, index));
        let name = hir_def::signatures::FunctionSignature::of(db, func).name.clone();
        for def in bodies {
            let body = Body::of(db, def);
            let names_func = body.exprs().any(|(_, expr)| match expr {
                Expr::Path(path) => path.segments().last().is_some_and(|segment| *segment.name == name),
                Expr::MethodCall { method_name, .. } => *method_name == name,
                _ => false,
            });
            if !names_func {
                continue;
            }
            let infer = super::incremental::inference_of(db, def);
            let caller = BodyStores { db, body, infer, owner: def, field: self.field, scan: self.scan };
            match caller.arguments_made_here(func, index, depth + 1) {
                Some(true) => self.scan.callers.borrow_mut().push(def),
                Some(false) => {}
                None => return false,
            }
        }
        true
    }

    /// Whether this body calls `func` (`Some(true)`: every call's input `index`
    /// made here), does not (`Some(false)`), or gives it a value from elsewhere or
    /// takes its address (`None`).
    fn arguments_made_here(&self, func: hir_def::FunctionId, index: usize, depth: usize) -> Option<bool> {
        let is_func = |e: ExprId| {
            self.infer.type_of_expr_or_pat(e.into()).is_some_and(
                |ty| matches!(ty.kind(), TyKind::FnDef(def, _) if def.0 == hir_def::CallableDefId::FunctionId(func)),
            )
        };
        let mut callees = Vec::new();
        let mut calls = false;
        for (id, expr) in self.body.exprs() {
            let argument = match expr {
                Expr::Call { callee, args } if is_func(*callee) => {
                    callees.push(*callee);
                    args.get(index).copied()
                }
                Expr::MethodCall { receiver, args, .. }
                    if self.infer.method_resolution(id).is_some_and(|(f, _)| f == func) =>
                {
                    if index == 0 {
                        Some(*receiver)
                    } else {
                        args.get(index - 1).copied()
                    }
                }
                _ => continue,
            };
            calls = true;
            if !argument.is_some_and(|argument| self.made_here(argument, depth)) {
                return None;
            }
        }
        // Named anywhere but as a callee, its address is taken.
        let named_otherwise =
            self.body.exprs().any(|(id, expr)| matches!(expr, Expr::Path(_)) && is_func(id) && !callees.contains(&id));
        if named_otherwise {
            return None;
        }
        Some(calls)
    }

    /// Whether path `expr` names the local `binding`.
    fn names_local(&self, expr: ExprId, binding: hir_def::hir::BindingId) -> bool {
        matches!(
            super::incremental::value_path(self.db, self.owner, expr),
            Some(super::incremental::PathValue::Local(b)) if b == binding
        )
    }
}
