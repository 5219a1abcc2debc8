//! One-time setup on a static recognised by its shape, not by a lazy cell's name:
//! a branch taken only while a static still holds the value it was initialised
//! with (its "empty" value), that fills it, where no code that can name the static
//! stores the empty value back. The static is one of std's atomics, or a `static
//! mut` pointer, `bool` or unsigned integer read and assigned directly. Owns
//! reading the guard, the fill (in the branch or up to `MAX_CALL_DEPTH` calls
//! below it) and every use of the static; `allowances` marks what the setup
//! covers, and the lazy cells of std (`OnceLock`, ...) are `walk`'s, by name.

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

/// How many calls below the branch a fill is looked for: the branch calls a
/// function that fills the static, or calls one that does.
const MAX_CALL_DEPTH: usize = 2;

/// A static setup may fill, and the value it starts with: while it holds that
/// value it is empty (a pointer's is null). One of std's atomic statics
/// (`AtomicBool`, `AtomicU8`.. `AtomicUsize`, `AtomicPtr`), read by `load` and
/// filled by `store`, `swap` or `compare_exchange`; or (`mutable`) a `static mut`
/// raw pointer, `bool` or unsigned integer, read and assigned directly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct SetupStatic {
    pub id: StaticId,
    pub empty: u128,
    pub pointer: bool,
    pub mutable: bool,
}

/// Mutable locals and the value each was last assigned, in the statements read
/// so far (`p = Box::into_raw(..)`): what a fill of `p` stores.
type Assigned = [(BindingId, ExprId)];

/// What a branch's condition says about an atomic static.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Guard {
    pub place: SetupStatic,
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
    /// The static the path `expr` names that setup may fill, with its empty value.
    pub(crate) fn setup_static(&self, expr: ExprId) -> Option<SetupStatic> {
        let Expr::Path(_) = &self.store[expr] else { return None };
        let PathValue::Static(id) = value_path(self.db, self.owner, expr)? else { return None };
        let ty = self.infer.type_of_expr_or_pat(expr.into())?;
        if is_static_mut(self.db, id) {
            let pointer = matches!(ty.kind(), TyKind::RawPtr(..));
            if !(pointer || ty.is_bool() || matches!(ty.kind(), TyKind::Uint(_))) {
                return None;
            }
            return Some(SetupStatic { id, empty: initial_value(self.db, id, true)?, pointer, mutable: true });
        }
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
        Some(SetupStatic {
            id,
            empty: initial_value(self.db, id, false)?,
            pointer: name == "AtomicPtr",
            mutable: false,
        })
    }

    /// `S.load(..)` of an atomic `S`, a `static mut` `S` read, or a binding in
    /// `loads` set to one: the static `S`.
    fn loaded(&self, expr: ExprId, loads: &[(BindingId, SetupStatic)]) -> Option<SetupStatic> {
        match &self.store[expr] {
            Expr::MethodCall { receiver, method_name, args, .. }
                if method_name.as_str() == "load" && args.len() == 1 =>
            {
                self.setup_static(*receiver).filter(|s| !s.mutable)
            }
            Expr::Path(_) => match value_path(self.db, self.owner, expr)? {
                PathValue::Local(binding) => loads.iter().find(|(b, _)| *b == binding).map(|(_, s)| *s),
                PathValue::Static(_) => self.setup_static(expr).filter(|s| s.mutable),
                _ => None,
            },
            _ => None,
        }
    }

    /// The static a binding is set to a load of, by a `let` of the binding
    /// alone: `let p = S.load(Acquire);`, `let mut p = ..`. A `mut` one is a
    /// guard's only until a statement may write it (`writes_local`).
    pub(crate) fn load_binding(&self, pat: hir_def::hir::PatId, init: ExprId) -> Option<(BindingId, SetupStatic)> {
        let Pat::Bind { id, subpat: None } = &self.store[pat] else { return None };
        if !matches!(self.store[*id].mode, BindingAnnotation::Unannotated | BindingAnnotation::Mutable) {
            return None;
        }
        Some((*id, self.loaded(init, &[])?))
    }

    /// Whether evaluating `expr` may write the local `binding`: assign it, borrow
    /// it `&mut` (also by a method's receiver, or a `ref mut` pattern matched
    /// against it), in closures made there too.
    pub(crate) fn writes_local(&self, expr: ExprId, binding: BindingId) -> bool {
        let store = self.store;
        let names = |e: ExprId| {
            matches!(store[e], Expr::Path(_)) && value_path(self.db, self.owner, e) == Some(PathValue::Local(binding))
        };
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            if let Some(place) = self.place_written(e) {
                if names(place) {
                    return true;
                }
            }
            if let Expr::Assignment { target, .. } = &store[e] {
                let mut assigned = false;
                store.walk_pats(*target, &mut |pat| assigned |= matches!(store[pat], Pat::Expr(t) if names(t)));
                if assigned {
                    return true;
                }
            }
            store.walk_child_exprs(e, |child| stack.push(child));
        }
        false
    }

    /// The place `expr` writes or lends out for writing other than by an
    /// assignment: `&mut p`, `&raw mut p`, a compound assignment's left side, a
    /// method's receiver borrowed `&mut`, a scrutinee a `ref mut` pattern binds.
    fn place_written(&self, expr: ExprId) -> Option<ExprId> {
        let store = self.store;
        match &store[expr] {
            Expr::Ref { expr: inner, mutability, .. } if mutability.is_mut() => Some(*inner),
            Expr::BinaryOp { lhs, op: Some(hir_def::hir::BinaryOp::Assignment { .. }), .. } => Some(*lhs),
            Expr::MethodCall { receiver, .. }
                if super::allowances::auto_borrow(self.infer, *receiver).is_some_and(|m| m.is_mut()) =>
            {
                Some(*receiver)
            }
            Expr::Match { expr: scrutinee, arms } if arms.iter().any(|arm| self.binds_ref_mut(arm.pat)) => {
                Some(*scrutinee)
            }
            Expr::Let { expr: scrutinee, pat } if self.binds_ref_mut(*pat) => Some(*scrutinee),
            _ => None,
        }
    }

    /// Whether `pat` binds anything by `ref mut`.
    fn binds_ref_mut(&self, pat: hir_def::hir::PatId) -> bool {
        let store = self.store;
        let mut found = false;
        store.walk_pats(pat, &mut |p| {
            found |= matches!(&store[p], Pat::Bind { id, .. } if store[*id].mode == BindingAnnotation::RefMut)
        });
        found
    }

    /// What an `if`'s condition guards: `S.load(..) == EMPTY`, `p.is_null()` for
    /// `p` a load of a null-initialised `AtomicPtr`, `!S.load(..)` for an
    /// `AtomicBool` that starts `false` (or `S` itself for a `static mut`); or
    /// `S.compare_exchange(EMPTY, v, ..).is_ok()` (the guard fills it).
    pub(crate) fn if_guard(&self, condition: ExprId, loads: &[(BindingId, SetupStatic)]) -> Option<Guard> {
        let store = self.store;
        let unfilled = |place: SetupStatic| Some(Guard { place, filled_by_guard: false });
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
    pub(crate) fn cas_from_empty(&self, expr: ExprId) -> Option<SetupStatic> {
        self.cas_from_empty_after(expr, &[])
    }

    /// `cas_from_empty`, with the mutable locals `assigned` before it.
    fn cas_from_empty_after(&self, expr: ExprId, assigned: &Assigned) -> Option<SetupStatic> {
        let Expr::MethodCall { receiver, method_name, args, .. } = &self.store[expr] else { return None };
        if !matches!(method_name.as_str(), "compare_exchange" | "compare_exchange_weak") {
            return None;
        }
        let place = self.setup_static(*receiver).filter(|s| !s.mutable)?;
        let [current, new, ..] = args.as_ref() else { return None };
        (self.value(*current, 0) == Some(place.empty) && self.not_empty(place, *new, 0, assigned)).then_some(place)
    }

    /// The expressions of `branch` that run before it fills `place`, with the
    /// statement that fills it: the branch's statements up to the first one that
    /// fills it on every run, none before it able to leave the branch (`return`,
    /// `break`, `continue`, `?`, `.await`). `None` when no such statement fills it.
    pub(crate) fn setup_before_fill(&self, branch: ExprId, place: SetupStatic) -> Option<Vec<ExprId>> {
        self.setup_before_fill_at(branch, place, 0, &[])
    }

    /// `setup_before_fill`, `depth` calls below the branch, with the mutable
    /// locals `assigned` before it. A statement that assigns a mutable local
    /// (`p = Box::into_raw(..)`) tells what a fill after it stores of it; one that
    /// may write it otherwise, that nothing is known of it.
    fn setup_before_fill_at(
        &self,
        branch: ExprId,
        place: SetupStatic,
        depth: usize,
        assigned: &Assigned,
    ) -> Option<Vec<ExprId>> {
        let store = self.store;
        let (Expr::Block { statements, tail, .. } | Expr::Unsafe { statements, tail, .. }) = &store[branch] else {
            return self.fills(branch, place, depth, assigned).then(|| vec![branch]);
        };
        let mut assigned = assigned.to_vec();
        let mut covered = Vec::new();
        for statement in statements.iter() {
            let (exprs, fills) = match statement {
                Statement::Let { initializer, else_branch, .. } => {
                    let exprs: Vec<ExprId> = initializer.iter().chain(else_branch.iter()).copied().collect();
                    let fills = initializer.is_some_and(|init| self.fills(init, place, depth, &assigned));
                    (exprs, fills)
                }
                Statement::Expr { expr, .. } => (vec![*expr], self.fills(*expr, place, depth, &assigned)),
                Statement::Item(_) => continue,
            };
            if fills {
                covered.extend(exprs);
                return Some(covered);
            }
            if exprs.iter().any(|&e| self.may_leave(e)) {
                return None;
            }
            assigned.retain(|&(binding, _)| !self.statement_writes(statement, binding));
            if let Statement::Expr { expr, .. } = statement {
                assigned.extend(self.local_assignment(*expr));
            }
            covered.extend(exprs);
        }
        let tail = (*tail)?;
        self.fills(tail, place, depth, &assigned).then(|| {
            covered.push(tail);
            covered
        })
    }

    /// Whether `statement` may write the local `binding` (`writes_local`; a `let`
    /// whose pattern binds `ref mut` may borrow it).
    pub(crate) fn statement_writes(&self, statement: &Statement, binding: BindingId) -> bool {
        match statement {
            Statement::Let { pat, initializer, else_branch, .. } => {
                initializer.is_some_and(|init| self.binds_ref_mut(*pat) || self.writes_local(init, binding))
                    || else_branch.is_some_and(|e| self.writes_local(e, binding))
            }
            Statement::Expr { expr, .. } => self.writes_local(*expr, binding),
            Statement::Item(_) => false,
        }
    }

    /// `p = v` for a local `p`: the binding and the value.
    fn local_assignment(&self, expr: ExprId) -> Option<(BindingId, ExprId)> {
        let Expr::Assignment { target, value } = &self.store[expr] else { return None };
        let Pat::Expr(target) = &self.store[*target] else { return None };
        let Expr::Path(_) = &self.store[*target] else { return None };
        let PathValue::Local(binding) = value_path(self.db, self.owner, *target)? else { return None };
        Some((binding, *value))
    }

    /// Whether evaluating `expr` fills `place` whenever it completes: a `store`
    /// or `swap` of a value that is not empty, a `compare_exchange` from empty to
    /// one (if it fails, another filled it), an assignment of one to a `static
    /// mut`, as what the expression evaluates first (a `match`'s scrutinee, an
    /// `if`'s condition, a call's receiver and arguments, in order, none before it
    /// able to leave), in a block's statements before anything can leave it, or in
    /// the body of a function of the crate called here (`MAX_CALL_DEPTH` calls
    /// deep). `assigned`: mutable locals' values before it.
    fn fills(&self, expr: ExprId, place: SetupStatic, depth: usize, assigned: &Assigned) -> bool {
        let store = self.store;
        // The operands a call evaluates before it runs, in order: one fills, or
        // none leaves and the call itself fills, of the mutable locals none of
        // them writes.
        let operands_then = |operands: &[ExprId], call_fills: &dyn Fn(&Assigned) -> bool| {
            for &operand in operands {
                if self.fills(operand, place, depth, assigned) {
                    return true;
                }
                if self.may_leave(operand) {
                    return false;
                }
            }
            let unwritten: Vec<_> = assigned
                .iter()
                .filter(|&&(binding, _)| !operands.iter().any(|&operand| self.writes_local(operand, binding)))
                .copied()
                .collect();
            call_fills(&unwritten)
        };
        match &store[expr] {
            Expr::MethodCall { receiver, method_name, args, .. } => {
                let stores = |assigned: &Assigned| {
                    self.setup_static(*receiver) == Some(place)
                        && !place.mutable
                        && match (method_name.as_str(), args.as_ref()) {
                            ("store" | "swap", [value, _]) => self.not_empty(place, *value, 0, assigned),
                            _ => self.cas_from_empty_after(expr, assigned) == Some(place),
                        }
                };
                let operands: Vec<ExprId> = std::iter::once(*receiver).chain(args.iter().copied()).collect();
                operands_then(&operands, &stores)
            }
            Expr::Call { callee, args } => operands_then(args, &|_: &Assigned| {
                depth < MAX_CALL_DEPTH && self.callee_fills(*callee, place, depth + 1)
            }),
            // `S = v` for a `static mut` `S`: `v` is evaluated first.
            Expr::Assignment { target, value } => {
                let to_place = matches!(store[*target], Pat::Expr(target) if self.setup_static(target) == Some(place));
                to_place
                    && place.mutable
                    && !self.may_leave(*value)
                    && operands_then(&[*value], &|assigned: &Assigned| self.not_empty(place, *value, 0, assigned))
            }
            Expr::Match { expr: scrutinee, .. } => self.fills(*scrutinee, place, depth, assigned),
            Expr::If { condition, .. } => self.fills(*condition, place, depth, assigned),
            Expr::Let { expr: scrutinee, .. } => self.fills(*scrutinee, place, depth, assigned),
            Expr::Block { label: None, .. } | Expr::Unsafe { .. } => {
                self.setup_before_fill_at(expr, place, depth, assigned).is_some()
            }
            _ => false,
        }
    }

    /// Whether the callee `callee` is a function of this crate, neither generic
    /// nor a trait's method, whose body fills `place` before anything can leave it
    /// (`depth` calls below the branch).
    fn callee_fills(&self, callee: ExprId, place: SetupStatic, depth: usize) -> bool {
        let Some(ty) = self.infer.type_of_expr_or_pat(callee.into()) else { return false };
        let TyKind::FnDef(def, args) = ty.kind() else { return false };
        let CallableDefId::FunctionId(func) = def.0 else { return false };
        if !crate::engine::source::roots::is_free_or_inherent(self.db, func)
            || crate::engine::source::roots::is_generic(args)
            || func.krate(self.db) != self.owner.krate(self.db)
        {
            return false;
        }
        let def = DefWithBodyId::FunctionId(func);
        let body = Body::of(self.db, def);
        let infer = super::incremental::inference_of(self.db, def);
        let view = BodyView { db: self.db, owner: def, store: body, infer };
        view.setup_before_fill_at(body.root_expr(), place, depth, &[]).is_some()
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
    /// `Box::leak`, a reference, through casts, immutable bindings set to one, and
    /// mutable ones `assigned` one (which is read without them).
    fn not_empty(&self, place: SetupStatic, value: ExprId, depth: usize, assigned: &Assigned) -> bool {
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
            Expr::Cast { expr, .. } => self.not_empty(place, *expr, depth + 1, assigned),
            Expr::Ref { .. } => true,
            Expr::Call { callee, .. } => self
                .callee_path(*callee)
                .is_some_and(|path| matches!(path.as_str(), "alloc::boxed::Box::into_raw" | "alloc::boxed::Box::leak")),
            Expr::Path(_) => {
                let last_assigned = match value_path(self.db, self.owner, value) {
                    Some(PathValue::Local(binding)) => assigned.iter().rev().find(|(b, _)| *b == binding),
                    _ => None,
                };
                match last_assigned {
                    Some(&(_, assigned_value)) => self.not_empty(place, assigned_value, depth + 1, &[]),
                    None => self.immutable_init(value).is_some_and(|init| self.not_empty(place, init, depth + 1, &[])),
                }
            }
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

/// The value a static is initialised with, read from its initialiser: an atomic's
/// (`AtomicU8::new(UNINIT)`, `AtomicPtr::new(ptr::null_mut())`), or a `static
/// mut`'s (`ptr::null_mut()`, `false`, `UNINIT`).
fn initial_value(db: &dyn HirDatabase, id: StaticId, mutable: bool) -> Option<u128> {
    let def = DefWithBodyId::StaticId(id);
    let body = Body::of(db, def);
    let infer = super::incremental::inference_of(db, def);
    let view = BodyView { db, owner: def, store: body, infer };
    if mutable {
        return view.value(body.root_expr(), 0);
    }
    let Expr::Call { callee, args } = &body[body.root_expr()] else { return None };
    let [arg] = args.as_ref() else { return None };
    let is_new = view.callee_path(*callee).is_some_and(|path| path.starts_with("core::sync::atomic::Atomic"));
    is_new.then(|| view.value(*arg, 0)).flatten()
}

/// Whether `id` is a `static mut`.
fn is_static_mut(db: &dyn HirDatabase, id: StaticId) -> bool {
    let signature = hir_def::signatures::StaticSignature::of(db, id);
    signature.flags.contains(hir_def::signatures::StaticFlags::MUTABLE)
}

/// Whether code outside the crate may name the static `id` by its symbol:
/// `#[no_mangle]`, `#[export_name = ..]`, or an attribute under `cfg_attr` that
/// may be one.
fn exported(db: &dyn HirDatabase, id: StaticId) -> bool {
    use hir::HasSource;
    use ra_ap_syntax::ast::HasAttrs;
    let flags = hir_def::attrs::AttrFlags::query(db, hir_def::AttrDefId::StaticId(id));
    if flags.contains(hir_def::attrs::AttrFlags::NO_MANGLE) {
        return true;
    }
    let Some(source) = hir::Static::from(id).source(db) else { return true };
    source.value.attrs().any(|attr| {
        attr.path().is_none_or(|path| matches!(path.to_string().as_str(), "export_name" | "cfg_attr" | "no_mangle"))
    })
}

/// Whether nothing can store `place`'s empty value back: the static is neither
/// `pub`, exported by its symbol (`#[no_mangle]`) nor declared in a block, and
/// every use of it in the code its visibility admits leaves it filled
/// (`uses_keep_filled`).
pub(crate) fn never_emptied(db: &dyn HirDatabase, place: SetupStatic) -> bool {
    let signature = hir_def::signatures::StaticSignature::of(db, place.id);
    if is_static_mut(db, place.id) != place.mutable || exported(db, place.id) {
        return false;
    }
    let Some(bodies) = bodies_naming(db, place.id) else { return false };
    let (module, visibility) = (place.id.module(db), hir::HasVisibility::visibility(&hir::Static::from(place.id), db));
    // A body names the static by its own name, unless a `use .. as` renames it.
    let spelled = (!renamed_in_scope(db, visibility, module.krate(db), &bodies, place.id)).then_some(&signature.name);
    bodies.into_iter().all(|def| uses_keep_filled(db, def, place, spelled))
}

/// The bodies that can name the static `id`, which `never_emptied` reads: those
/// of the code its visibility admits. `None` when that is not known: the static
/// is `pub` or declared in a block, or past `scope::MAX_SCOPE_BODIES`.
pub(crate) fn bodies_naming(db: &dyn HirDatabase, id: StaticId) -> Option<Vec<DefWithBodyId>> {
    let module = id.module(db);
    if module.is_block_module(db) {
        return None;
    }
    let visibility = hir::HasVisibility::visibility(&hir::Static::from(id), db);
    if matches!(visibility, hir_def::visibility::Visibility::Public) {
        return None;
    }
    super::scope::bodies_in_scope(db, visibility, module.krate(db))
}

/// Whether every use of `place` in `def`'s body leaves it filled: of an atomic,
/// a `load`, or a `store`, `swap` or `compare_exchange` of a value that is not
/// empty, where any other use (a reference handed on, `fetch_*`, `as_ptr`, a
/// store of a value that cannot be told) may empty it; of a `static mut`
/// (`mut_use_keeps_filled`), a read or an assignment of a value that is not
/// empty. A `sym` operand of inline assembly that may name it may do anything.
/// `spelled`: the only name a path to it can end in, when it is known.
fn uses_keep_filled(db: &dyn HirDatabase, def: DefWithBodyId, place: SetupStatic, spelled: Option<&hir::Name>) -> bool {
    let body = Body::of(db, def);
    let names_place = |id: ExprId| {
        let Expr::Path(path) = &body[id] else { return false };
        spelled.is_none_or(|name| path.segments().last().is_some_and(|segment| segment.name == name))
            && matches!(value_path(db, def, id), Some(PathValue::Static(s)) if s == place.id)
    };
    let in_asm = body.exprs().any(|(_, expr)| {
        let Expr::InlineAsm(asm) = expr else { return false };
        asm.operands.iter().any(|(_, operand)| match operand {
            hir_def::hir::AsmOperand::Sym(path) => {
                spelled.is_none_or(|name| path.segments().last().is_some_and(|segment| segment.name == name))
            }
            _ => false,
        })
    });
    if in_asm {
        return false;
    }
    let uses: Vec<ExprId> = body.exprs().map(|(id, _)| id).filter(|&id| names_place(id)).collect();
    if uses.is_empty() {
        return true;
    }
    let infer = super::incremental::inference_of(db, def);
    let view = BodyView { db, owner: def, store: body, infer };
    if place.mutable {
        let parents = parents(body);
        return uses.iter().all(|&used| view.mut_use_keeps_filled(place, &parents, used));
    }
    // Each use must be the receiver of a method that leaves the static filled.
    let mut kept_filled = rustc_hash::FxHashSet::default();
    for (_, expr) in body.exprs() {
        let Expr::MethodCall { receiver, method_name, args, .. } = expr else { continue };
        if !uses.contains(receiver) {
            continue;
        }
        let keeps = match (method_name.as_str(), args.as_ref()) {
            ("load", [_]) => true,
            ("store" | "swap", [value, _]) => view.not_empty(place, *value, 0, &[]),
            // A `compare_exchange` writes its new value only while the static
            // holds the current one: from empty, it never empties a filled one.
            ("compare_exchange" | "compare_exchange_weak", [current, value, _, _]) => {
                view.value(*current, 0) == Some(place.empty) || view.not_empty(place, *value, 0, &[])
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

/// Each expression's parent in `store`: the expression whose child it is (a
/// block's statements' expressions and an assignment's target's are the block's
/// and the assignment's).
fn parents(store: &ExpressionStore) -> rustc_hash::FxHashMap<ExprId, ExprId> {
    let mut parents = rustc_hash::FxHashMap::default();
    for (id, _) in store.exprs() {
        store.walk_child_exprs(id, |child| {
            parents.insert(child, id);
        });
    }
    parents
}

impl BodyView<'_, '_> {
    /// Whether the use `used` of the `static mut` `place` leaves it filled: the
    /// target of an assignment of a value that is not empty, or a read of its
    /// value (a copy, a method's receiver taken by value or `&`, a `&` borrow,
    /// `*&raw const S`). An assignment of anything else, `&mut S`, `&raw mut S`
    /// (`addr_of_mut!`), a `&raw const S` kept as a pointer (it may be cast to
    /// `*mut`), a compound assignment, a `&mut self` method, a `ref mut` binding
    /// of it may empty it.
    fn mut_use_keeps_filled(
        &self,
        place: SetupStatic,
        parents: &rustc_hash::FxHashMap<ExprId, ExprId>,
        used: ExprId,
    ) -> bool {
        let store = self.store;
        let mut at = used;
        loop {
            let Some(&parent) = parents.get(&at) else { return true };
            if self.place_written(parent) == Some(at) {
                return false;
            }
            match &store[parent] {
                Expr::Assignment { target, value } if *value != at => {
                    return matches!(store[*target], Pat::Expr(target) if target == at)
                        && self.not_empty(place, *value, 0, &[]);
                }
                Expr::Ref { rawness: hir_def::hir::type_ref::Rawness::RawPtr, .. } => match parents.get(&parent) {
                    // `*&raw const S`: the place again.
                    Some(&deref) if matches!(store[deref], Expr::UnaryOp { op: UnaryOp::Deref, .. }) => at = deref,
                    _ => return false,
                },
                Expr::Block { statements, .. } | Expr::Unsafe { statements, .. } => {
                    return !statements.iter().any(|statement| {
                        matches!(statement, Statement::Let { pat, initializer: Some(init), .. }
                            if *init == at && self.binds_ref_mut(*pat))
                    });
                }
                Expr::Field { .. } | Expr::Index { .. } => return false,
                _ => return true,
            }
        }
    }
}
