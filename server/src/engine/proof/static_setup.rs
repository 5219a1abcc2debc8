//! One-time setup on a static recognised by its shape, not by a lazy cell's name:
//! a branch taken only while one of std's atomic statics still holds the value it
//! was initialised with (its "empty" value), that fills it, where no code that can
//! name the static stores the empty value back. Owns reading the guard, the fill
//! and every use of the static; `allowances` marks what the setup covers, and the
//! lazy cells of std (`OnceLock`, ...) are `walk`'s, by name.

use hir::db::HirDatabase;
use hir_def::{
    expr_store::{Body, ExpressionStore},
    hir::{BindingAnnotation, BindingId, CmpOp, Expr, ExprId, Literal, Pat, Statement, UnaryOp},
    nameres::crate_def_map,
    CallableDefId, DefWithBodyId, HasModule, ModuleDefId, StaticId,
};
use hir_ty::{next_solver::TyKind, InferenceResult};
use rustc_type_ir::inherent::IntoKind;

use super::incremental::{value_path, PathValue};

/// How deep a value is followed through locals and casts.
const MAX_VALUE_DEPTH: usize = 8;

/// One of std's atomic statics (`AtomicBool`, `AtomicU8`.. `AtomicUsize`,
/// `AtomicPtr`), and the value it starts with: while it holds that value it is
/// empty (a pointer's is null).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct AtomicStatic {
    pub id: StaticId,
    pub empty: u128,
    pub pointer: bool,
}

/// What a branch's condition says about an atomic static.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Guard {
    pub place: AtomicStatic,
    /// The condition filled the static itself: a `compare_exchange` from empty
    /// that succeeded. The branch runs at most once, all of it.
    pub filled_by_guard: bool,
}

/// One body, read for guards and fills of atomic statics.
pub(crate) struct BodyView<'a, 'db> {
    pub db: &'a dyn HirDatabase,
    pub owner: DefWithBodyId,
    pub store: &'a ExpressionStore,
    pub infer: &'a InferenceResult<'db>,
}

impl BodyView<'_, '_> {
    /// The atomic static the path `expr` names, with its empty value.
    pub(crate) fn atomic_static(&self, expr: ExprId) -> Option<AtomicStatic> {
        let Expr::Path(_) = &self.store[expr] else { return None };
        let PathValue::Static(id) = value_path(self.db, self.owner, expr)? else { return None };
        let ty = self.infer.type_of_expr_or_pat(expr.into())?;
        let TyKind::Adt(adt, _) = ty.kind() else { return None };
        let hir_def::AdtId::StructId(strukt) = adt.def_id() else { return None };
        if !strukt.krate(self.db).data(self.db).origin.is_lang() {
            return None;
        }
        let name = hir::Struct::from(strukt).name(self.db);
        let name = name.as_str();
        if !name.starts_with("Atomic") {
            return None;
        }
        Some(AtomicStatic { id, empty: initial_value(self.db, id)?, pointer: name == "AtomicPtr" })
    }

    /// `S.load(..)`, or a binding in `loads` set to one: the static `S`.
    fn loaded(&self, expr: ExprId, loads: &[(BindingId, AtomicStatic)]) -> Option<AtomicStatic> {
        match &self.store[expr] {
            Expr::MethodCall { receiver, method_name, args, .. }
                if method_name.as_str() == "load" && args.len() == 1 =>
            {
                self.atomic_static(*receiver)
            }
            Expr::Path(_) => match value_path(self.db, self.owner, expr)? {
                PathValue::Local(binding) => loads.iter().find(|(b, _)| *b == binding).map(|(_, s)| *s),
                _ => None,
            },
            _ => None,
        }
    }

    /// The static an immutable binding is set to a load of, by a `let` of the
    /// binding alone: `let p = S.load(Acquire);`.
    pub(crate) fn load_binding(&self, pat: hir_def::hir::PatId, init: ExprId) -> Option<(BindingId, AtomicStatic)> {
        let Pat::Bind { id, subpat: None } = &self.store[pat] else { return None };
        if self.store[*id].mode != BindingAnnotation::Unannotated {
            return None;
        }
        Some((*id, self.loaded(init, &[])?))
    }

    /// What an `if`'s condition guards: `S.load(..) == EMPTY`, `p.is_null()` for
    /// `p` a load of a null-initialised `AtomicPtr`, `!S.load(..)` for an
    /// `AtomicBool` that starts `false`; or `S.compare_exchange(EMPTY, v, ..)
    /// .is_ok()` (the guard fills it).
    pub(crate) fn if_guard(&self, condition: ExprId, loads: &[(BindingId, AtomicStatic)]) -> Option<Guard> {
        let store = self.store;
        let unfilled = |place: AtomicStatic| Some(Guard { place, filled_by_guard: false });
        match &store[condition] {
            Expr::BinaryOp { lhs, rhs, op: Some(hir_def::hir::BinaryOp::CmpOp(CmpOp::Eq { negated: false })) } => {
                [(*lhs, *rhs), (*rhs, *lhs)].into_iter().find_map(|(load, value)| {
                    let place = self.loaded(load, loads)?;
                    (self.value(value, 0) == Some(place.empty)).then_some(Guard { place, filled_by_guard: false })
                })
            }
            Expr::MethodCall { receiver, method_name, args, .. } if args.is_empty() => match method_name.as_str() {
                "is_null" => self.loaded(*receiver, loads).filter(|s| s.pointer && s.empty == 0).and_then(unfilled),
                "is_ok" => self.cas_from_empty(*receiver).map(|place| Guard { place, filled_by_guard: true }),
                _ => None,
            },
            Expr::UnaryOp { expr, op: UnaryOp::Not } => {
                let is_bool = self.infer.type_of_expr_or_pat((*expr).into()).is_some_and(|ty| ty.is_bool());
                self.loaded(*expr, loads).filter(|s| is_bool && s.empty == 0).and_then(unfilled)
            }
            _ => None,
        }
    }

    /// `S.compare_exchange(EMPTY, v, ..)` (or `_weak`) with `v` not empty: it
    /// succeeds only while `S` is empty, and fills it.
    pub(crate) fn cas_from_empty(&self, expr: ExprId) -> Option<AtomicStatic> {
        let Expr::MethodCall { receiver, method_name, args, .. } = &self.store[expr] else { return None };
        if !matches!(method_name.as_str(), "compare_exchange" | "compare_exchange_weak") {
            return None;
        }
        let place = self.atomic_static(*receiver)?;
        let [current, new, ..] = args.as_ref() else { return None };
        (self.value(*current, 0) == Some(place.empty) && self.not_empty(place, *new, 0)).then_some(place)
    }

    /// The expressions of `branch` that run before it fills `place`, with the
    /// statement that fills it: the branch's statements up to the first one that
    /// fills it on every run, none before it able to leave the branch (`return`,
    /// `break`, `continue`, `?`, `.await`). `None` when no such statement fills it.
    pub(crate) fn setup_before_fill(&self, branch: ExprId, place: AtomicStatic) -> Option<Vec<ExprId>> {
        self.setup_before_fill_at(branch, place, 0)
    }

    /// `setup_before_fill`, `depth` calls below the branch.
    fn setup_before_fill_at(&self, branch: ExprId, place: AtomicStatic, depth: usize) -> Option<Vec<ExprId>> {
        let (Expr::Block { statements, tail, .. } | Expr::Unsafe { statements, tail, .. }) = &self.store[branch] else {
            return self.fills(branch, place, depth).then(|| vec![branch]);
        };
        let mut covered = Vec::new();
        for statement in statements.iter() {
            let (exprs, fills) = match statement {
                Statement::Let { initializer, else_branch, .. } => {
                    let exprs: Vec<ExprId> = initializer.iter().chain(else_branch.iter()).copied().collect();
                    let fills = initializer.is_some_and(|init| self.fills(init, place, depth));
                    (exprs, fills)
                }
                Statement::Expr { expr, .. } => (vec![*expr], self.fills(*expr, place, depth)),
                Statement::Item(_) => continue,
            };
            if fills {
                covered.extend(exprs);
                return Some(covered);
            }
            if exprs.iter().any(|&e| self.may_leave(e)) {
                return None;
            }
            covered.extend(exprs);
        }
        let tail = (*tail)?;
        self.fills(tail, place, depth).then(|| {
            covered.push(tail);
            covered
        })
    }

    /// Whether evaluating `expr` fills `place` whenever it completes: a `store`
    /// or `swap` of a value that is not empty, a `compare_exchange` from empty to
    /// one (if it fails, another filled it), as what the expression evaluates
    /// first (a `match`'s scrutinee, an `if`'s condition, a call's receiver and
    /// arguments, in order, none before it able to leave), in a block's
    /// statements before anything can leave it, or in the body of a function of
    /// the crate called here (one call deep).
    fn fills(&self, expr: ExprId, place: AtomicStatic, depth: usize) -> bool {
        let store = self.store;
        // The operands a call evaluates before it runs, in order: one fills, or
        // none leaves and the call itself fills.
        let operands_then = |operands: &mut dyn Iterator<Item = ExprId>, call_fills: &dyn Fn() -> bool| {
            for operand in operands {
                if self.fills(operand, place, depth) {
                    return true;
                }
                if self.may_leave(operand) {
                    return false;
                }
            }
            call_fills()
        };
        match &store[expr] {
            Expr::MethodCall { receiver, method_name, args, .. } => {
                let stores = || {
                    self.atomic_static(*receiver) == Some(place)
                        && match (method_name.as_str(), args.as_ref()) {
                            ("store" | "swap", [value, _]) => self.not_empty(place, *value, 0),
                            _ => self.cas_from_empty(expr) == Some(place),
                        }
                };
                operands_then(&mut std::iter::once(*receiver).chain(args.iter().copied()), &stores)
            }
            Expr::Call { callee, args } => {
                operands_then(&mut args.iter().copied(), &|| depth == 0 && self.callee_fills(*callee, place))
            }
            Expr::Match { expr: scrutinee, .. } => self.fills(*scrutinee, place, depth),
            Expr::If { condition, .. } => self.fills(*condition, place, depth),
            Expr::Let { expr: scrutinee, .. } => self.fills(*scrutinee, place, depth),
            Expr::Block { label: None, .. } | Expr::Unsafe { .. } => {
                self.setup_before_fill_at(expr, place, depth).is_some()
            }
            _ => false,
        }
    }

    /// Whether the callee `callee` is a function of this crate, not a trait's
    /// method, whose body fills `place` before anything can leave it.
    fn callee_fills(&self, callee: ExprId, place: AtomicStatic) -> bool {
        let Some(ty) = self.infer.type_of_expr_or_pat(callee.into()) else { return false };
        let TyKind::FnDef(def, _) = ty.kind() else { return false };
        let CallableDefId::FunctionId(func) = def.0 else { return false };
        if !crate::engine::source::roots::is_free_or_inherent(self.db, func)
            || func.krate(self.db) != self.owner.krate(self.db)
        {
            return false;
        }
        let def = DefWithBodyId::FunctionId(func);
        let body = Body::of(self.db, def);
        let infer = super::incremental::inference_of(self.db, def);
        let view = BodyView { db: self.db, owner: def, store: body, infer };
        view.setup_before_fill_at(body.root_expr(), place, 1).is_some()
    }

    /// Whether `expr` can leave the code around it other than by panicking: a
    /// `return`, `break`, `continue` (also inside it, conservatively), `?`
    /// (a `return` once lowered), `.await`, `yield`.
    fn may_leave(&self, expr: ExprId) -> bool {
        let store = self.store;
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            if matches!(
                store[e],
                Expr::Return { .. }
                    | Expr::Break { .. }
                    | Expr::Continue { .. }
                    | Expr::Await { .. }
                    | Expr::Yield { .. }
                    | Expr::Yeet { .. }
                    | Expr::Become { .. }
            ) {
                return true;
            }
            store.walk_child_exprs(e, |child| stack.push(child));
        }
        false
    }

    /// Whether `value`, stored into `place`, is certainly not its empty value: a
    /// constant that differs from it; for a pointer, `Box::into_raw`,
    /// `Box::leak`, a reference, through casts and immutable bindings set to one.
    fn not_empty(&self, place: AtomicStatic, value: ExprId, depth: usize) -> bool {
        if depth > MAX_VALUE_DEPTH {
            return false;
        }
        if !place.pointer {
            return self.value(value, 0).is_some_and(|v| v != place.empty);
        }
        if place.empty != 0 {
            return false;
        }
        match &self.store[value] {
            Expr::Cast { expr, .. } => self.not_empty(place, *expr, depth + 1),
            Expr::Ref { .. } => true,
            Expr::Call { callee, .. } => self
                .callee_path(*callee)
                .is_some_and(|path| matches!(path.as_str(), "alloc::boxed::Box::into_raw" | "alloc::boxed::Box::leak")),
            Expr::Path(_) => self.immutable_init(value).is_some_and(|init| self.not_empty(place, init, depth + 1)),
            _ => false,
        }
    }

    /// For a path naming an immutable local set by a `let` of it alone, the
    /// initialiser.
    fn immutable_init(&self, path: ExprId) -> Option<ExprId> {
        let PathValue::Local(binding) = value_path(self.db, self.owner, path)? else { return None };
        if self.store[binding].mode != BindingAnnotation::Unannotated {
            return None;
        }
        self.store.exprs().find_map(|(_, expr)| {
            let (Expr::Block { statements, .. } | Expr::Unsafe { statements, .. }) = expr else { return None };
            statements.iter().find_map(|statement| match statement {
                Statement::Let { pat, initializer: Some(init), .. }
                    if matches!(&self.store[*pat], Pat::Bind { id, subpat: None } if *id == binding) =>
                {
                    Some(*init)
                }
                _ => None,
            })
        })
    }

    /// The defining path of the function `callee` names.
    fn callee_path(&self, callee: ExprId) -> Option<String> {
        let ty = self.infer.type_of_expr_or_pat(callee.into())?;
        let TyKind::FnDef(def, _) = ty.kind() else { return None };
        let CallableDefId::FunctionId(func) = def.0 else { return None };
        Some(crate::engine::source::naming::defined_fn_path(self.db, func))
    }

    /// The value of a constant expression: a literal integer or `bool`, a path to
    /// a `const` of such a type, `ptr::null()`/`ptr::null_mut()` (0).
    fn value(&self, expr: ExprId, depth: usize) -> Option<u128> {
        match &self.store[expr] {
            Expr::Literal(Literal::Bool(b)) => Some(u128::from(*b)),
            Expr::Literal(Literal::Uint(n, _)) => Some(*n),
            Expr::Literal(Literal::Int(n, _)) if *n >= 0 => Some(*n as u128),
            Expr::Path(_) => match value_path(self.db, self.owner, expr)? {
                PathValue::Const(konst) => {
                    let ty = self.infer.type_of_expr_or_pat(expr.into())?;
                    if !matches!(ty.kind(), TyKind::Uint(_) | TyKind::Bool) {
                        return None;
                    }
                    let interner = hir_ty::next_solver::DbInterner::new_no_crate(self.db);
                    let empty = hir_ty::next_solver::GenericArgs::empty(interner);
                    let value = self.db.const_eval(konst, empty, None).ok()?;
                    Some(hir_ty::consteval::allocation_as_usize(value))
                }
                _ => None,
            },
            Expr::Call { callee, args } if args.is_empty() && depth == 0 => self
                .callee_path(*callee)
                .filter(|path| matches!(path.as_str(), "core::ptr::null" | "core::ptr::null_mut"))
                .map(|_| 0),
            _ => None,
        }
    }
}

/// The value an atomic static is initialised with (`AtomicU8::new(UNINIT)`,
/// `AtomicPtr::new(ptr::null_mut())`), read from its initialiser.
fn initial_value(db: &dyn HirDatabase, id: StaticId) -> Option<u128> {
    let def = DefWithBodyId::StaticId(id);
    let body = Body::of(db, def);
    let Expr::Call { callee, args } = &body[body.root_expr()] else { return None };
    let [arg] = args.as_ref() else { return None };
    let infer = super::incremental::inference_of(db, def);
    let view = BodyView { db, owner: def, store: body, infer };
    let is_new = view.callee_path(*callee).is_some_and(|path| path.starts_with("core::sync::atomic::Atomic"));
    is_new.then(|| view.value(*arg, 0)).flatten()
}

/// Whether nothing can store `place`'s empty value back: the static is neither
/// `pub` nor `static mut` nor declared in a block, and every use of it in the
/// code its visibility admits is a `load`, or a `store`, `swap` or
/// `compare_exchange` of a value that is not empty. Any other use (a reference
/// handed on, `fetch_*`, `as_ptr`, a store of a value that cannot be told)
/// may empty it.
pub(crate) fn never_emptied(db: &dyn HirDatabase, place: AtomicStatic) -> bool {
    let signature = hir_def::signatures::StaticSignature::of(db, place.id);
    if signature.flags.contains(hir_def::signatures::StaticFlags::MUTABLE) {
        return false;
    }
    let module = place.id.module(db);
    if module.is_block_module(db) {
        return false;
    }
    let visibility = hir::HasVisibility::visibility(&hir::Static::from(place.id), db);
    if matches!(visibility, hir_def::visibility::Visibility::Public) {
        return false;
    }
    let Some(bodies) = super::scope::bodies_in_scope(db, visibility, module.krate(db)) else { return false };
    // A body names the static by its own name, unless a `use .. as` renames it.
    let spelled = (!renamed_in_scope(db, visibility, module.krate(db), &bodies, place.id)).then_some(&signature.name);
    bodies.into_iter().all(|def| uses_keep_filled(db, def, place, spelled))
}

/// Whether every use of `place` in `def`'s body leaves it filled. `spelled`: the
/// only name a path to it can end in, when it is known.
fn uses_keep_filled(
    db: &dyn HirDatabase,
    def: DefWithBodyId,
    place: AtomicStatic,
    spelled: Option<&hir::Name>,
) -> bool {
    let body = Body::of(db, def);
    let names_place = |id: ExprId| {
        let Expr::Path(path) = &body[id] else { return false };
        spelled.is_none_or(|name| path.segments().last().is_some_and(|segment| segment.name == name))
            && matches!(value_path(db, def, id), Some(PathValue::Static(s)) if s == place.id)
    };
    let uses: Vec<ExprId> = body.exprs().map(|(id, _)| id).filter(|&id| names_place(id)).collect();
    if uses.is_empty() {
        return true;
    }
    let infer = super::incremental::inference_of(db, def);
    let view = BodyView { db, owner: def, store: body, infer };
    // Each use must be the receiver of a method that leaves the static filled.
    let mut kept_filled = rustc_hash::FxHashSet::default();
    for (_, expr) in body.exprs() {
        let Expr::MethodCall { receiver, method_name, args, .. } = expr else { continue };
        if !uses.contains(receiver) {
            continue;
        }
        let keeps = match (method_name.as_str(), args.as_ref()) {
            ("load", [_]) => true,
            // A `compare_exchange` writes its new value, and only that.
            ("store" | "swap", [value, _]) | ("compare_exchange" | "compare_exchange_weak", [_, value, _, _]) => {
                view.not_empty(place, *value, 0)
            }
            _ => false,
        };
        if keeps {
            kept_filled.insert(*receiver);
        }
    }
    uses.iter().all(|used| kept_filled.contains(used))
}

/// Whether a `use .. as` in the code `visibility` admits (modules, or the blocks
/// of `bodies`) names the static `id` by another name than its own.
fn renamed_in_scope(
    db: &dyn HirDatabase,
    visibility: hir_def::visibility::Visibility,
    krate: ra_ap_ide_db::base_db::Crate,
    bodies: &[DefWithBodyId],
    id: StaticId,
) -> bool {
    let own = &hir_def::signatures::StaticSignature::of(db, id).name;
    let renames = |scope: &hir_def::item_scope::ItemScope| {
        scope.values().any(|(name, item)| item.def == ModuleDefId::StaticId(id) && name != own)
    };
    let def_map = crate_def_map(db, krate);
    let in_modules = def_map
        .modules()
        .any(|(module_id, module)| visibility.is_visible_from(db, module_id) && renames(&module.scope));
    in_modules
        || bodies.iter().any(|&def| {
            Body::of(db, def).blocks(db).any(|(_, block_map)| renames(&block_map[block_map.root_module_id()].scope))
        })
}
