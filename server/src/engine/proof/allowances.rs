//! What the source says about where a call stands, for SPEC's "Allowed, not
//! reported": whether it builds the error its function returns, whether its value is
//! what the function returns (`?`, `return`, the tail), whether it can run again in
//! one call of the function (a loop), whether it is first-use setup (a branch that
//! finds a field or static empty and fills it), and which buffers a comparison
//! proves to have room. Read once per body from rust-analyzer's HIR; judged in
//! `analysis`.

use std::rc::Rc;

use hir::db::HirDatabase;
use hir_def::DefWithBodyId;
use hir_def::{
    expr_store::ExpressionStore,
    hir::{
        ArithOp, BinaryOp, CmpOp, Expr, ExprId, ExprOrPatId, LogicOp, LoopSource, MatchArm, Ordering, Pat, PatId,
        Statement, UnaryOp,
    },
    lang_item::LangItems,
    CallableDefId,
};

use super::{
    incremental::PathValue,
    room::{Amount, Pass, RoomProof},
    static_setup::{BodyView, Guard, SetupStatic},
    walk::strip_refs,
};
use hir_ty::{next_solver::TyKind, Adjust, AutoBorrow, InferenceResult};
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::inherent::IntoKind;

/// Where a call stands in its body.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub(crate) struct CallContext {
    /// It builds the `Err` that the function returns (`return Err(format!(..))`, the
    /// `From` conversion of `?`).
    pub error_return: bool,
    /// Its value is what the function returns: the operand of `?`, of `return`, or
    /// the tail. An error it returns travels on to the function's caller.
    pub propagates: bool,
    /// It can run again within one call of its function: it is inside a loop.
    pub repeats: bool,
    /// It runs only when a guard found a field or static empty: first-use setup.
    pub first_use: bool,
    /// That field is reached through a parameter (`self.cache`), not a static: it
    /// is first use only if what the caller passed outlives the call (`reach`
    /// revokes it below a call handed memory its caller owns).
    pub first_use_of_param: bool,
}

/// The test a first-use fill runs under (`if P.is_none()`, `if S.load(..) ==
/// UNINIT`), and the place it finds empty, as the source names it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct SetupGuard {
    pub at: ExprId,
    pub place: String,
}

/// What a first-use fill fills, and what code may empty again: a field, a static,
/// or every value of a type (`*self = Self::new()`, `*slot = None` through a
/// `&mut Option`). A fill holds only while nothing in its root's reach empties any
/// of the places it goes through (`BodyFacts::empties`, `Edge::fills`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum FilledPlace {
    Field(hir_def::FieldId),
    Static(hir_def::StaticId),
    Type(hir_def::AdtId),
}

/// How much a growth appends, by the kind of call.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Room {
    /// One element (`push`, `insert`).
    One,
    /// What it is given: a slice, a `str`, a count (`extend_from_slice`, `reserve`).
    Many,
    /// What a `String`'s `push` or `insert` of a `char` needs: up to 4 bytes.
    /// `len() < capacity()` leaves room for one byte.
    Char,
    /// A fixed number of bytes (`BufMut::put_u32`: 4).
    Bytes(u128),
}

/// A call that grows a buffer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Growth {
    /// The buffer as written: `self.buf`, `out`.
    pub buffer: String,
    /// The comparison that proves room for what the call adds, if one does, and
    /// what the call appends. A proof is used up by the growths it covers, in
    /// body order (`judge`, `room::Ledger`).
    pub proof: Option<RoomProof>,
    /// The buffer is reached through `self` or a `&mut` binding: it outlives the call.
    pub long_lived: bool,
    /// The buffer is a field of `self` (room is trusted in `noalloc:fixed` types).
    pub on_self: bool,
    /// The types whose fields the place goes through (for `--scratch`).
    pub holders: Vec<hir_def::AdtId>,
}

/// One proof in scope: the buffer, the room it has, the comparison, and inside
/// a loop of a bounded number of passes, the share of it each pass may use.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Proof {
    place: String,
    amount: Amount,
    at: ExprId,
    pass: Option<Pass>,
}

impl Proof {
    /// The room a growth here may use: the proof's, or a pass's share of it.
    fn room(&self) -> &Amount {
        self.pass.as_ref().map_or(&self.amount, |pass| &pass.room)
    }
}

type Rooms = Rc<Vec<Proof>>;

/// The proofs of room a condition gives.
type Proven = Vec<Proof>;

#[derive(Clone, Default)]
struct Scope {
    context: CallContext,
    rooms: Rooms,
    /// Bindings set, in this scope's blocks, to a load of a static setup may fill
    /// (`let p = PTR.load(Acquire)`): a guard may test them. A `mut` one only
    /// until a statement may write it. Not carried into a loop's body or a
    /// closure, which may run after the static was filled.
    loads: Rc<Vec<(hir_def::hir::BindingId, SetupStatic)>>,
}

impl Scope {
    /// The proofs that still hold once `written` (places, as `place_key` spells
    /// them) may have been replaced, taken or shrunk: none about them, nor about
    /// what they hold, nor any whose amount reads a length they may change
    /// (`xs.push(..)` changes `xs.len()`).
    fn without_rooms_of(&self, written: &[String]) -> Scope {
        let stale = |proof: &Proof| {
            written.iter().any(|place| {
                holds(place, &proof.place) || proof.amount.reads(place.strip_suffix(".*").unwrap_or(place))
            })
        };
        if !self.rooms.iter().any(stale) {
            return self.clone();
        }
        let rooms = self.rooms.iter().filter(|proof| !stale(proof)).cloned().collect();
        Scope { rooms: Rc::new(rooms), ..self.clone() }
    }

    /// Forgets the loads of the `mut` bindings `written` says may be written.
    fn forget_loads_written(&mut self, store: &ExpressionStore, written: impl Fn(hir_def::hir::BindingId) -> bool) {
        let written = |&(binding, _): &(hir_def::hir::BindingId, SetupStatic)| {
            store[binding].mode != hir_def::hir::BindingAnnotation::Unannotated && written(binding)
        };
        if self.loads.iter().any(written) {
            self.loads = Rc::new(self.loads.iter().filter(|load| !written(load)).copied().collect());
        }
    }

    fn with_rooms(&self, more: &[Proof]) -> Scope {
        if more.is_empty() {
            return self.clone();
        }
        let mut rooms = (*self.rooms).clone();
        rooms.extend(more.iter().cloned());
        Scope { rooms: Rc::new(rooms), ..self.clone() }
    }
}

/// The facts of one body (closures included), by expression and pattern.
#[derive(Default)]
pub(crate) struct BodyFacts {
    scopes: FxHashMap<ExprOrPatId, Scope>,
    propagated: FxHashSet<ExprId>,
    /// Expressions that fill a field or static a guard found empty, and those of
    /// them that fill a field reached through a parameter.
    fills: FxHashSet<ExprId>,
    fills_of_param: FxHashSet<ExprId>,
    /// What each of those fills (`FilledPlace`): the field or static, the fields
    /// and types it is reached through.
    filled: FxHashMap<ExprId, Rc<[FilledPlace]>>,
    /// Those of them that are one-time setup on a static: they run at most once
    /// (`static_setup`), with all they call.
    runs_once: FxHashSet<ExprId>,
    /// The guard each of those runs under.
    guards: FxHashMap<ExprId, Rc<SetupGuard>>,
    /// The statics whose one-time setup here was looked into, by reading every
    /// body that can name them (`static_setup::bodies_naming`), proved or not.
    pub setup_statics: Vec<hir_def::StaticId>,
    /// What this body may empty of the places first use fills (the user's code only:
    /// std's `Option::take` is seen at the user's call).
    pub empties: Vec<FilledPlace>,
}

impl BodyFacts {
    /// The context of a call, a drop or an adjustment at `site`.
    pub(crate) fn context(&self, site: ExprOrPatId) -> CallContext {
        let mut context = self.scopes.get(&site).map(|scope| scope.context).unwrap_or_default();
        if let ExprOrPatId::ExprId(expr) = site {
            context.propagates = self.propagated.contains(&expr);
            context.first_use |= self.fills.contains(&expr);
            context.first_use_of_param |= self.fills_of_param.contains(&expr);
        }
        context
    }

    /// Whether the call at `site` is one-time setup on a static: it runs at most
    /// once, and so does everything below it, the workspace's code and the
    /// closures it is handed included.
    pub(crate) fn runs_once(&self, site: ExprOrPatId) -> bool {
        matches!(site, ExprOrPatId::ExprId(expr) if self.runs_once.contains(&expr))
    }

    /// The guard the first-use fill at `expr` runs under, if it runs under one.
    pub(crate) fn guard(&self, expr: ExprId) -> Option<&SetupGuard> {
        self.guards.get(&expr).map(|guard| &**guard)
    }

    /// The facts of `owner`'s body.
    pub(crate) fn of(db: &dyn HirDatabase, owner: DefWithBodyId, lang: &LangItems) -> BodyFacts {
        let krate = hir_def::HasModule::krate(&owner, db);
        let body = hir_def::expr_store::Body::of(db, owner);
        let infer = super::incremental::inference_of(db, owner);
        let own_code = krate.data(db).origin.is_local();
        BodyFacts::of_body(db, owner, body, infer, lang, body.root_expr(), own_code)
    }

    /// What a first-use fill at `expr` fills (empty elsewhere).
    pub(crate) fn filled(&self, expr: ExprOrPatId) -> Vec<FilledPlace> {
        match expr {
            ExprOrPatId::ExprId(expr) => self.filled.get(&expr).map_or_else(Vec::new, |places| places.to_vec()),
            ExprOrPatId::PatId(_) => Vec::new(),
        }
    }

    /// The latest comparison in scope at `expr` that proves room for a growth of
    /// the buffer `place` (as `place_key` spells it) by `need` on its own. Whether
    /// it still has that room when the growth runs is the ledger's to say.
    pub(crate) fn room(&self, expr: ExprId, place: &str, need: &Amount) -> Option<RoomProof> {
        let scope = self.scopes.get(&ExprOrPatId::ExprId(expr))?;
        scope.rooms.iter().rev().find(|proof| proof.place == place && proof.room().covers(need)).map(|proof| {
            RoomProof { at: proof.at, amount: proof.amount.clone(), pass: proof.pass.clone(), need: need.clone() }
        })
    }

    /// Reads the facts of a body whose root expression is `root`.
    /// `own_code`: the body is the user's (a workspace crate), whose `Option`
    /// fields filled on first use they vouch stay filled; in std's and the
    /// dependencies' code only cells that never empty (`OnceLock`, ...) are.
    pub(crate) fn of_body(
        db: &dyn HirDatabase,
        owner: DefWithBodyId,
        store: &ExpressionStore,
        infer: &InferenceResult<'_>,
        lang: &LangItems,
        root: ExprId,
        own_code: bool,
    ) -> BodyFacts {
        let mut collector = Collector {
            db,
            owner,
            store,
            infer,
            lang,
            own_code,
            lengths: FxHashMap::default(),
            for_passes: FxHashMap::default(),
            out: BodyFacts::default(),
        };
        collector.visit(root, &Scope::default(), true);
        if own_code {
            collector.out.empties = collector.emptied_places(root);
        }
        collector.out
    }
}

struct Collector<'a, 'db> {
    db: &'a dyn HirDatabase,
    owner: DefWithBodyId,
    own_code: bool,
    store: &'a ExpressionStore,
    infer: &'a InferenceResult<'db>,
    lang: &'a LangItems,
    /// Bindings set to a place's length (`let n = xs.len()`): `n` -> `xs`.
    lengths: FxHashMap<String, String>,
    /// `for` loops (their `loop`) and bounds on how many passes each makes.
    for_passes: FxHashMap<ExprId, Vec<Amount>>,
    out: BodyFacts,
}

impl Collector<'_, '_> {
    /// `tail`: the expression's value is what the enclosing function or closure returns.
    fn visit(&mut self, expr: ExprId, scope: &Scope, tail: bool) {
        let store = self.store;
        let mut scope = scope.clone();
        if tail {
            self.out.propagated.insert(expr);
            if self.builds_error(expr) {
                scope.context.error_return = true;
            }
        }
        self.out.scopes.insert(expr.into(), scope.clone());
        // A `mut` binding's load is known only through the statements of blocks
        // and an `if`'s test, in the order they run.
        let view = BodyView { db: self.db, owner: self.owner, store, infer: self.infer };
        if !matches!(store[expr], Expr::Block { .. } | Expr::Unsafe { .. } | Expr::If { .. }) {
            scope.forget_loads_written(store, |_| true);
        }
        match &store[expr] {
            Expr::Block { statements, tail: block_tail, .. } | Expr::Unsafe { statements, tail: block_tail, .. } => {
                let mut scope = scope.clone();
                for statement in statements.iter() {
                    match statement {
                        Statement::Let { pat, initializer, else_branch, .. } => {
                            self.visit_pat(*pat, &scope);
                            let length = match (&store[*pat], initializer) {
                                (Pat::Bind { id, .. }, Some(init)) => match self.measure(*init) {
                                    Measure::Count(amount) if amount.constant == 0 && amount.lengths.len() == 1 => {
                                        Some((store[*id].name.as_str().to_owned(), amount.lengths[0].clone()))
                                    }
                                    _ => None,
                                },
                                _ => None,
                            };
                            if let Some(init) = initializer {
                                // `let value = match .. { .. Err(e) .. }; match value { Ok(v) =>
                                // Ok(v), Err(e) => Err(fix(e)) }` as the tail: its error is returned.
                                let returned =
                                    tail && block_tail.is_some_and(|block_tail| self.returns_binding(*pat, block_tail));
                                self.visit(*init, &scope, returned);
                                scope = scope.without_rooms_of(&self.written_places(*init));
                            }
                            // New bindings shadow what the proofs and lengths name.
                            scope = scope.without_rooms_of(&self.bind(*pat));
                            if let Some(load) = initializer.and_then(|init| self.view().load_binding(*pat, init)) {
                                let mut loads = (*scope.loads).clone();
                                loads.push(load);
                                scope.loads = Rc::new(loads);
                            }
                            if let Some((name, of)) = length {
                                self.lengths.insert(name, of);
                            }
                            if let Some(else_branch) = else_branch {
                                self.visit(*else_branch, &scope, false);
                            }
                        }
                        Statement::Expr { expr, .. } => {
                            self.visit(*expr, &scope, false);
                            // A proof made before holds only while its buffer is left
                            // alone (`*v = Vec::new()`, `mem::take(v)`, `v = w`).
                            let written = self.written_places(*expr);
                            self.forget_lengths(&written);
                            scope = scope.without_rooms_of(&written);
                            // `if v.len() == v.capacity() { return/break }`, and
                            // `assert!(v.capacity() - v.len() >= n)`: room after it.
                            if let Some((condition, then_branch)) = self.guard(*expr) {
                                if self.diverges(then_branch) {
                                    let (_, if_false) = self.room_facts(condition);
                                    scope = scope.with_rooms(&if_false);
                                }
                            }
                        }
                        Statement::Item(_) => {}
                    }
                    scope.forget_loads_written(store, |binding| view.statement_writes(statement, binding));
                }
                if let Some(block_tail) = block_tail {
                    self.visit(*block_tail, &scope, tail);
                }
            }
            Expr::If { condition, then_branch, else_branch } => {
                scope.forget_loads_written(store, |binding| view.writes_local(*condition, binding));
                self.visit(*condition, &scope, false);
                let (if_true, if_false) = self.room_facts(*condition);
                let mut then_scope = scope.with_rooms(&if_true);
                if let Expr::Let { pat, .. } = &store[*condition] {
                    then_scope = then_scope.without_rooms_of(&self.bind(*pat));
                }
                if let Some((guarded, place)) = self.first_use_guard(*condition, *then_branch) {
                    self.mark_fills(guarded, *then_branch, SetupGuard { at: *condition, place });
                } else if let Some(guard) = self.static_guard(*condition, &scope) {
                    self.mark_static_setup(guard, *condition, *then_branch);
                }
                self.visit(*then_branch, &then_scope, tail);
                if let Some(else_branch) = else_branch {
                    self.visit(*else_branch, &scope.with_rooms(&if_false), tail);
                }
            }
            Expr::Match { expr: scrutinee, arms } => {
                self.note_for_loop(*scrutinee, arms);
                match self.try_operand(*scrutinee) {
                    // `x?`: `match Try::branch(x) { .. }`; `x`'s error is returned.
                    Some(operand) => {
                        self.out.scopes.insert((*scrutinee).into(), scope.clone());
                        if let Expr::Call { callee, .. } = &store[*scrutinee] {
                            self.out.scopes.insert((*callee).into(), scope.clone());
                        }
                        self.visit(operand, &scope, true);
                    }
                    // `match x { Ok(v) => v, Err(e) => return Err(e) }` (a hand-written
                    // `?`, as serde_json's `tri!`): `x`'s error is returned.
                    None => {
                        let returned = self.err_arms_return(arms, false);
                        self.visit(*scrutinee, &scope, returned)
                    }
                }
                if let Some(place) =
                    self.static_setup_applies().then(|| self.view().cas_from_empty(*scrutinee)).flatten()
                {
                    // `match S.compare_exchange(EMPTY, v, ..) { Ok(_) => setup, .. }`
                    for arm in arms.iter().filter(|arm| arm.guard.is_none()) {
                        if self.result_variant_of(arm.pat) == Some(true) {
                            self.mark_static_setup(Guard { place, filled_by_guard: true }, *scrutinee, arm.expr);
                        }
                    }
                }
                for arm in arms.iter() {
                    self.visit_pat(arm.pat, &scope);
                    let scope = scope.without_rooms_of(&self.bind(arm.pat));
                    if let Some(guard) = arm.guard {
                        self.visit(guard, &scope, false);
                    }
                    self.visit(arm.expr, &scope, tail);
                }
            }
            Expr::Return { expr: Some(value) } => self.visit(*value, &scope, true),
            Expr::Loop { body, source, .. } => {
                // A proof made before the loop covers one growth, not one a pass;
                // but a `for` loop of at most `n` passes may use a share of it on
                // each pass (`for &x in xs.iter().take(16) { v.push(x) }`).
                let passes = if *source == LoopSource::ForLoop { self.for_passes.remove(&expr) } else { None };
                let shares = passes.map(|passes| self.shares(&scope.rooms, &passes, expr)).unwrap_or_default();
                let mut body_scope = Scope { context: scope.context, rooms: Rc::new(shares), ..Scope::default() };
                body_scope.context.repeats = true;
                self.visit(*body, &body_scope, false);
            }
            Expr::Closure { body, args, .. } => {
                // A closure returns to whoever calls it; only first-use carries in.
                let closure_scope = Scope {
                    context: CallContext { first_use: scope.context.first_use, ..CallContext::default() },
                    ..Scope::default()
                };
                for &arg in args.iter() {
                    self.visit_pat(arg, &closure_scope);
                }
                self.visit(*body, &closure_scope, true);
            }
            _ => {
                let error_scope = scope.clone();
                store.walk_child_exprs(expr, |child| self.visit(child, &error_scope, false));
            }
        }
    }

    /// The names `pat` binds, which shadow what proofs and lengths call by those
    /// names: the lengths measured of them or kept in them are forgotten.
    fn bind(&mut self, pat: PatId) -> Vec<String> {
        let store = self.store;
        let mut names = Vec::new();
        store.walk_pats(pat, &mut |p| {
            if let Pat::Bind { id, .. } = &store[p] {
                names.push(store[*id].name.as_str().to_owned());
            }
        });
        self.forget_lengths(&names);
        names
    }

    /// Forgets the lengths kept in, or measured of, the places `written`.
    fn forget_lengths(&mut self, written: &[String]) {
        if !written.is_empty() {
            self.lengths.retain(|name, of| !written.iter().any(|w| holds(w, name) || holds(w, of)));
        }
    }

    /// The environment the body is checked in, for a function's body.
    fn env(&self) -> Option<hir_ty::ParamEnvAndCrate<'_>> {
        match self.owner {
            DefWithBodyId::FunctionId(func) => Some(crate::engine::source::roots::env_of(self.db, func)),
            _ => None,
        }
    }

    /// The places `expr` may replace, take or shrink: assigned ones, ones
    /// borrowed `&mut` or cast to a `*mut` pointer, or passed on as `&mut` (to a function, or as the receiver
    /// of a method of what holds them), and buffers shrunk (`shrink_to_fit`).
    /// A growth of the buffer itself uses its proof (`judge`) and is no write here.
    fn written_places(&self, expr: ExprId) -> Vec<String> {
        let store = self.store;
        let mutable_ref = |e: ExprId| {
            self.infer
                .type_of_expr_or_pat(e.into())
                .is_some_and(|ty| matches!(ty.kind(), TyKind::Ref(_, _, m) if m.is_mut()))
        };
        let mut written = Vec::new();
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            match &store[e] {
                Expr::Assignment { target, .. } => {
                    store.walk_pats(*target, &mut |pat| {
                        if let Pat::Expr(place) = &store[pat] {
                            written.extend(place_key(store, *place));
                        }
                    });
                }
                Expr::Ref { expr: inner, mutability, .. } if mutability.is_mut() => {
                    written.extend(place_key(store, *inner))
                }
                // `v as *mut Vec<u32>`: written through the pointer at will.
                Expr::Cast { expr: inner, .. }
                    if self
                        .infer
                        .type_of_expr_or_pat(e.into())
                        .is_some_and(|ty| matches!(ty.kind(), TyKind::RawPtr(_, m) if m.is_mut())) =>
                {
                    written.extend(place_key(store, *inner))
                }
                Expr::Call { args, .. } => {
                    written
                        .extend(args.iter().filter(|&&arg| mutable_ref(arg)).filter_map(|&arg| place_key(store, arg)));
                }
                Expr::MethodCall { receiver, args, method_name, .. } => {
                    written
                        .extend(args.iter().filter(|&&arg| mutable_ref(arg)).filter_map(|&arg| place_key(store, arg)));
                    let borrows_mut =
                        mutable_ref(*receiver) || auto_borrow(self.infer, *receiver).is_some_and(|m| m.is_mut());
                    if let Some(place) = place_key(store, *receiver).filter(|_| borrows_mut) {
                        // A std method of the buffer itself writes it only by
                        // shrinking it, and a built-in growth of a third-party
                        // container (`BytesMut::put_slice`) only by appending; one of
                        // what holds it (`self.reset()`) may do anything to its
                        // fields, and one of the user's own (a trait impl for `Vec`)
                        // anything to it.
                        let users_own = self.infer.method_resolution(e).is_some_and(|(func, args)| {
                            !hir_def::HasModule::krate(&func, self.db).data(self.db).origin.is_lang()
                                && !super::builtin::is_builtin_growth(self.db, func, args, self.env())
                        });
                        if users_own || SHRINKING_METHODS.contains(&method_name.as_str()) {
                            written.push(place);
                        } else {
                            written.push(format!("{place}.*"));
                        }
                    }
                }
                _ => {}
            }
            store.walk_child_exprs(e, |child| stack.push(child));
        }
        written
    }

    fn visit_pat(&mut self, pat: PatId, scope: &Scope) {
        let store = self.store;
        let mut pats = Vec::new();
        store.walk_pats(pat, &mut |p| pats.push(p));
        for p in pats {
            self.out.scopes.insert(p.into(), scope.clone());
            if let Pat::Expr(expr) | Pat::ConstBlock(expr) | Pat::Lit(expr) = &store[p] {
                self.visit(*expr, scope, false);
            }
        }
    }

    /// `Err(..)`, or the `FromResidual::from_residual` of `?`.
    fn builds_error(&self, expr: ExprId) -> bool {
        let Expr::Call { callee, .. } = &self.store[expr] else { return false };
        let Some(ty) = self.infer.type_of_expr_or_pat((*callee).into()) else { return false };
        let TyKind::FnDef(def, _) = ty.kind() else { return false };
        match def.0 {
            CallableDefId::EnumVariantId(variant) => Some(variant) == self.lang.ResultErr,
            CallableDefId::FunctionId(func) => Some(func) == self.lang.TryTraitFromResidual,
            CallableDefId::StructId(_) => false,
        }
    }

    /// Whether the block tail `tail` hands the value of the binding `pat` to the
    /// function's return and nothing else uses it: `tail` is the binding itself,
    /// or a `match` on it whose arms binding its error return an `Err` (`Err(e) =>
    /// Err(fix(e))`, `return Err(..)`) and whose other arms match `Ok(..)` only.
    fn returns_binding(&self, pat: PatId, tail: ExprId) -> bool {
        let store = self.store;
        let Pat::Bind { id: binding, subpat: None } = &store[pat] else { return false };
        let names_it = |e: ExprId| {
            matches!(
                super::incremental::value_path(self.db, self.owner, e),
                Some(super::incremental::PathValue::Local(b)) if b == *binding
            )
        };
        let returned = match &store[tail] {
            Expr::Path(_) => names_it(tail),
            Expr::Match { expr: scrutinee, arms } => names_it(*scrutinee) && self.err_arms_return(arms, true),
            _ => false,
        };
        // Counted only for a tail of that shape: a scan of the whole body.
        returned && store.exprs().filter(|&(e, expr)| matches!(expr, Expr::Path(_)) && names_it(e)).count() == 1
    }

    /// Whether a `match` on a `Result` hands its error to the function's return:
    /// every arm matches `Ok(..)` or `Err(..)` without a guard, and each `Err` arm
    /// returns an `Err` (`return Err(e)`; with `in_tail`, the match being the
    /// function's value, also an `Err(..)` as the arm's value).
    fn err_arms_return(&self, arms: &[hir_def::hir::MatchArm], in_tail: bool) -> bool {
        let store = self.store;
        let mut err_arms = 0;
        let all = arms.iter().all(|arm| {
            arm.guard.is_none()
                && match self.result_variant_of(arm.pat) {
                    Some(true) => true,
                    Some(false) => {
                        err_arms += 1;
                        match &store[arm.expr] {
                            Expr::Return { expr: Some(value) } => self.builds_error(*value),
                            _ => in_tail && self.builds_error(arm.expr),
                        }
                    }
                    None => false,
                }
        });
        all && err_arms > 0
    }

    /// Whether `pat` is `Ok(..)` (`Some(true)`) or `Err(..)` (`Some(false)`).
    fn result_variant_of(&self, pat: PatId) -> Option<bool> {
        let Pat::TupleStruct { .. } = &self.store[pat] else { return None };
        match self.infer.variant_resolution_for_pat(pat)? {
            hir_def::VariantId::EnumVariantId(variant) if Some(variant) == self.lang.ResultOk => Some(true),
            hir_def::VariantId::EnumVariantId(variant) if Some(variant) == self.lang.ResultErr => Some(false),
            _ => None,
        }
    }

    /// For `Try::branch(x)` (what `x?` lowers to), `x`.
    fn try_operand(&self, scrutinee: ExprId) -> Option<ExprId> {
        let Expr::Call { callee, args } = &self.store[scrutinee] else { return None };
        let ty = self.infer.type_of_expr_or_pat((*callee).into())?;
        let TyKind::FnDef(def, _) = ty.kind() else { return None };
        match (def.0, args.as_ref()) {
            (CallableDefId::FunctionId(func), [operand]) if Some(func) == self.lang.TryTraitBranch => Some(*operand),
            _ => None,
        }
    }

    /// `for pat in head { .. }` lowers to `match IntoIterator::into_iter(head) {
    /// mut iter => loop { .. } }`: notes bounds on how many passes the loop makes.
    fn note_for_loop(&mut self, scrutinee: ExprId, arms: &[MatchArm]) {
        let store = self.store;
        let [arm] = arms else { return };
        if !matches!(store[arm.expr], Expr::Loop { source: LoopSource::ForLoop, .. }) {
            return;
        }
        let Expr::Call { callee, args } = &store[scrutinee] else { return };
        let [head] = args.as_ref() else { return };
        let into_iter = self.infer.type_of_expr_or_pat((*callee).into()).is_some_and(|ty| {
            matches!(ty.kind(), TyKind::FnDef(def, _)
                if matches!(def.0, CallableDefId::FunctionId(f) if Some(f) == self.lang.IntoIterIntoIter))
        });
        if into_iter {
            let passes = self.passes(*head);
            if !passes.is_empty() {
                self.for_passes.insert(arm.expr, passes);
            }
        }
    }

    /// Bounds on how many items `iterable` yields: a `take(n)`, the length of the
    /// slice, array, `Vec`, `VecDeque` or `str` it goes over, the end of a range of
    /// unsigned integers, through std's adapters that yield no more than they are
    /// given (`iter`, `copied`, `map`, `filter`, `enumerate`, `zip`, ...).
    fn passes(&self, iterable: ExprId) -> Vec<Amount> {
        let store = self.store;
        let mut bounds = Vec::new();
        match &store[iterable] {
            Expr::MethodCall { receiver, method_name, args, .. } if self.is_std_method(iterable) => {
                match (method_name.as_str(), args.as_ref()) {
                    ("take", [n]) => {
                        if let Measure::Count(n) = self.measure(*n) {
                            bounds.push(n);
                        }
                        bounds.extend(self.passes(*receiver));
                    }
                    ("zip", [other]) => {
                        bounds.extend(self.passes(*receiver));
                        bounds.extend(self.passes(*other));
                    }
                    (
                        "iter" | "iter_mut" | "into_iter" | "copied" | "cloned" | "enumerate" | "map" | "filter"
                        | "filter_map" | "map_while" | "take_while" | "skip_while" | "skip" | "step_by" | "rev"
                        | "inspect" | "fuse" | "peekable" | "bytes" | "chars" | "char_indices",
                        _,
                    ) => bounds.extend(self.passes(*receiver)),
                    _ => {}
                }
            }
            Expr::Ref { expr: inner, .. } => bounds.extend(self.passes(*inner)),
            Expr::RecordLit { fields, .. } if self.is_range_of_unsigned(iterable) => {
                let field = |name: &str| fields.iter().find(|f| f.name.as_str() == name).map(|f| self.measure(f.expr));
                match (field("start"), field("end")) {
                    (Some(Measure::Count(start)), Some(Measure::Count(end)))
                        if start.lengths.is_empty() && end.lengths.is_empty() =>
                    {
                        bounds.push(Amount::constant(end.constant.saturating_sub(start.constant)))
                    }
                    (_, Some(Measure::Count(end))) => bounds.push(end),
                    _ => {}
                }
            }
            _ => {}
        }
        let Some(ty) = self.infer.type_of_expr_or_pat(iterable.into()).map(strip_refs) else { return bounds };
        match ty.kind() {
            TyKind::Array(_, len) => {
                bounds.extend(hir_ty::consteval::try_const_usize(self.db, len).map(Amount::constant))
            }
            TyKind::Slice(_) | TyKind::Str => bounds.extend(place_key(store, iterable).map(Amount::length_of)),
            TyKind::Adt(adt, _) => {
                let sequence = matches!(adt.def_id(), hir_def::AdtId::StructId(id)
                    if matches!(hir::Struct::from(id).name(self.db).as_str(), "Vec" | "VecDeque")
                        && hir_def::HasModule::krate(&id, self.db).data(self.db).origin.is_lang());
                if sequence {
                    bounds.extend(place_key(store, iterable).map(Amount::length_of));
                }
            }
            _ => {}
        }
        bounds
    }

    /// Whether the method call `expr` resolves to a method of std (core, alloc, std).
    fn is_std_method(&self, expr: ExprId) -> bool {
        self.infer
            .method_resolution(expr)
            .is_some_and(|(func, _)| hir_def::HasModule::krate(&func, self.db).data(self.db).origin.is_lang())
    }

    /// Whether `expr` is `a..b` of an unsigned integer type.
    fn is_range_of_unsigned(&self, expr: ExprId) -> bool {
        let Some(ty) = self.infer.type_of_expr_or_pat(expr.into()) else { return false };
        let TyKind::Adt(adt, args) = ty.kind() else { return false };
        matches!(adt.def_id(), hir_def::AdtId::StructId(id) if Some(id) == self.lang.Range)
            && args.as_slice().first().and_then(|a| a.ty()).is_some_and(|t| matches!(t.kind(), TyKind::Uint(_)))
    }

    /// The proofs a loop of at most `passes` passes gives each pass: of each proof
    /// in scope (not already a share), as much room a pass as fits all the passes
    /// within it, taken from it once.
    fn shares(&self, rooms: &[Proof], passes: &[Amount], at: ExprId) -> Vec<Proof> {
        rooms
            .iter()
            .filter(|proof| proof.pass.is_none())
            .filter_map(|proof| {
                let (each, bound) = passes
                    .iter()
                    .filter_map(|bound| Some((proof.amount.times_within(bound)?.min(64), bound)))
                    .max_by_key(|(each, _)| *each)?;
                (each > 0).then_some(())?;
                let taken = bound.times(each)?;
                let pass = Pass { at, room: Amount::constant(each), taken };
                Some(Proof { pass: Some(pass), ..proof.clone() })
            })
            .collect()
    }

    /// `if condition { then }` with no `else`, also as the only thing in a block
    /// (`assert!(c)` expands to `{ if !(c) { panic!(..); } }`), and inside an `if`
    /// whose condition the cfgs made `true` (`debug_assert!(c)` is
    /// `if cfg!(debug_assertions) { assert!(c); }`: a proof under the dev
    /// profile's cfgs, none under `--release`'s, where the condition is `false`).
    fn guard(&self, expr: ExprId) -> Option<(ExprId, ExprId)> {
        let store = self.store;
        match &store[expr] {
            Expr::If { condition, then_branch, else_branch: None }
                if matches!(store[*condition], Expr::Literal(hir_def::hir::Literal::Bool(true))) =>
            {
                self.guard(*then_branch)
            }
            Expr::If { condition, then_branch, else_branch: None } => Some((*condition, *then_branch)),
            Expr::Block { label: None, statements, tail: None, .. } => match statements.as_ref() {
                [Statement::Expr { expr, .. }] => self.guard(*expr),
                _ => None,
            },
            Expr::Block { label: None, statements, tail: Some(tail), .. } if statements.is_empty() => self.guard(*tail),
            _ => None,
        }
    }

    fn diverges(&self, expr: ExprId) -> bool {
        if self.infer.type_of_expr_or_pat(expr.into()).is_some_and(|ty| ty.is_never()) {
            return true;
        }
        // A block whose last statement is `return`, `break` or `continue`, or a call
        // that never returns (`panic!(..);`).
        let store = self.store;
        match &store[expr] {
            // Its own `break 'label` leaves it, not the code around it.
            Expr::Block { label: Some(_), .. } => false,
            Expr::Block { statements, tail: None, .. } => match statements.last() {
                Some(Statement::Expr { expr, .. }) => {
                    matches!(store[*expr], Expr::Return { .. } | Expr::Break { .. } | Expr::Continue { .. })
                        || self.infer.type_of_expr_or_pat((*expr).into()).is_some_and(|ty| ty.is_never())
                }
                _ => false,
            },
            Expr::Block { tail: Some(tail), .. } => self.diverges(*tail),
            Expr::Return { .. } | Expr::Break { .. } | Expr::Continue { .. } => true,
            _ => false,
        }
    }

    /// `if P.is_none() { P = .. }` (also `if let None = P`, `!P.is_some()`) where `P`
    /// is a field or a static that the branch fills: `None` becomes `Some` once. An
    /// emptied collection (`is_empty()`) can be emptied again: refilling it is not
    /// first use.
    fn first_use_guard(&self, condition: ExprId, then_branch: ExprId) -> Option<(ExprId, String)> {
        let store = self.store;
        let guarded = match &store[condition] {
            Expr::MethodCall { receiver, method_name, args, .. }
                if args.is_empty() && method_name.as_str() == "is_none" =>
            {
                Some(*receiver)
            }
            Expr::UnaryOp { expr, op: UnaryOp::Not } => match &store[*expr] {
                Expr::MethodCall { receiver, method_name, args, .. }
                    if args.is_empty() && method_name.as_str() == "is_some" =>
                {
                    Some(*receiver)
                }
                _ => None,
            },
            Expr::Let { pat, expr } => match &store[*pat] {
                Pat::Path(path) if is_name(path, "None") => Some(*expr),
                _ => None,
            },
            _ => None,
        }?;
        let place = place_key(store, guarded)?;
        // An `Option` can be emptied again (`take()`, `= None`): outside the
        // user's code nothing vouches that it is not (std's `Peekable::peek`).
        (self.own_code && is_long_lived_place(store, self.infer, guarded) && self.fills_place(then_branch, &place))
            .then_some((guarded, place))
    }

    /// This body read for guards and fills of atomic statics.
    fn view(&self) -> BodyView<'_, '_> {
        BodyView { db: self.db, owner: self.owner, store: self.store, infer: self.infer }
    }

    /// Whether setup on an atomic static is looked for in this body: in the
    /// workspace's code and its dependencies', not std's (whose own lazy cells are
    /// recognised by name).
    fn static_setup_applies(&self) -> bool {
        !hir_def::HasModule::krate(&self.owner, self.db).data(self.db).origin.is_lang()
    }

    /// What an `if`'s condition guards of an atomic static: a test that finds it
    /// empty (`static_setup::BodyView::if_guard`), or `if let Ok(_) =
    /// S.compare_exchange(EMPTY, v, ..)`.
    fn static_guard(&self, condition: ExprId, scope: &Scope) -> Option<Guard> {
        if !self.static_setup_applies() {
            return None;
        }
        let view = self.view();
        match &self.store[condition] {
            Expr::Let { pat, expr } if self.result_variant_of(*pat) == Some(true) => {
                view.cas_from_empty(*expr).map(|place| Guard { place, filled_by_guard: true })
            }
            _ => view.if_guard(condition, &scope.loads),
        }
    }

    /// Marks the one-time setup of an atomic static in `branch`, which only runs
    /// while the guard found it empty: all of the branch when the guard filled it
    /// (a `compare_exchange` that succeeded), else the statements up to the one
    /// that fills it; not the bodies of closures made there. Only while no code
    /// that can name the static empties it again
    /// (`static_setup::never_emptied`, through its query).
    fn mark_static_setup(&mut self, guard: Guard, at: ExprId, branch: ExprId) {
        let covered =
            if guard.filled_by_guard { Some(vec![branch]) } else { self.view().setup_before_fill(branch, guard.place) };
        let Some(covered) = covered else { return };
        if !self.out.setup_statics.contains(&guard.place.id) {
            self.out.setup_statics.push(guard.place.id);
        }
        if !super::incremental::static_never_emptied(self.db, guard.place) {
            return;
        }
        let store = self.store;
        // A `static mut`'s uses were all read, its fills among them.
        let filled: Rc<[FilledPlace]> =
            if guard.place.mutable { Rc::new([]) } else { Rc::new([FilledPlace::Static(guard.place.id)]) };
        let name = hir::Static::from(guard.place.id).name(self.db).as_str().to_owned();
        let setup = Rc::new(SetupGuard { at, place: name });
        let mut stack = covered;
        while let Some(e) = stack.pop() {
            self.out.fills.insert(e);
            self.out.runs_once.insert(e);
            self.out.filled.insert(e, filled.clone());
            self.out.guards.insert(e, setup.clone());
            // A closure made here may be kept and run on later calls: its body is
            // judged as usual.
            if !matches!(store[e], Expr::Closure { .. }) {
                store.walk_child_exprs(e, |child| stack.push(child));
            }
        }
    }

    /// The expressions of `expr` that fill `place`: an assignment to it, or a
    /// filling method called on it.
    fn fills_of(&self, expr: ExprId, place: &str) -> Vec<ExprId> {
        let store = self.store;
        let mut found = Vec::new();
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            match &store[e] {
                Expr::Assignment { target, .. } => {
                    if let Pat::Expr(target) = &store[*target] {
                        if place_key(store, *target).as_deref() == Some(place) {
                            found.push(e);
                        }
                    }
                }
                Expr::MethodCall { receiver, method_name, .. }
                    if FILLING_METHODS.contains(&method_name.as_str())
                        && place_key(store, *receiver).as_deref() == Some(place) =>
                {
                    found.push(e);
                }
                _ => {}
            }
            store.walk_child_exprs(e, |child| stack.push(child));
        }
        found
    }

    fn fills_place(&self, expr: ExprId, place: &str) -> bool {
        !self.fills_of(expr, place).is_empty()
    }

    /// Marks the fill of `place` in `branch` (the value assigned, the filling call
    /// and its arguments) as first-use setup; the rest of the branch is not.
    fn mark_fills(&mut self, guarded: ExprId, branch: ExprId, guard: SetupGuard) {
        let store = self.store;
        let of_param = !is_static_key(&guard.place);
        let filled: Rc<[FilledPlace]> = filled_places(self.db, self.owner, store, self.infer, guarded).into();
        let fills = self.fills_of(branch, &guard.place);
        let guard = Rc::new(guard);
        for fill in fills {
            let mut stack = vec![fill];
            while let Some(e) = stack.pop() {
                self.out.fills.insert(e);
                self.out.filled.insert(e, filled.clone());
                self.out.guards.insert(e, guard.clone());
                if of_param {
                    self.out.fills_of_param.insert(e);
                }
                store.walk_child_exprs(e, |child| stack.push(child));
            }
        }
    }

    /// What this body may empty of a place a first use fills: a place assigned
    /// anything but `Some(..)`, borrowed `&mut` (but to match on it), or `take`n;
    /// a `&mut` handed on empties what it points to. Locals are new on every call
    /// and not counted.
    fn emptied_places(&self, root: ExprId) -> Vec<FilledPlace> {
        let store = self.store;
        let mut emptied = Vec::new();
        let mut scrutinees: FxHashSet<ExprId> = FxHashSet::default();
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            match &store[e] {
                Expr::Match { expr, .. } | Expr::Let { expr, .. } => {
                    scrutinees.insert(*expr);
                }
                Expr::Assignment { target, value } => {
                    let fills = matches!(&store[*value], Expr::Call { callee, .. }
                        if matches!(&store[*callee], Expr::Path(path) if is_name(path, "Some")));
                    if !fills {
                        store.walk_pats(*target, &mut |pat| {
                            if let Pat::Expr(place) = &store[pat] {
                                emptied.extend(self.emptied_place(*place));
                            }
                        });
                    }
                }
                Expr::Ref { expr: inner, mutability, .. } if mutability.is_mut() && !scrutinees.contains(&e) => {
                    emptied.extend(self.emptied_place(*inner));
                }
                Expr::MethodCall { receiver, method_name, args, .. } => {
                    if EMPTYING_METHODS.contains(&method_name.as_str()) {
                        // Through a reference (`slot.take()` with `slot: &mut
                        // Option<_>`), what it points to; else the place itself.
                        emptied.extend(self.pointee_emptied(*receiver).or_else(|| self.emptied_place(*receiver)));
                    }
                    // Any method of a raw pointer may write what it points to
                    // (`p.write(None)`).
                    if self
                        .infer
                        .type_of_expr_or_pat((*receiver).into())
                        .is_some_and(|ty| matches!(ty.kind(), TyKind::RawPtr(..)))
                    {
                        emptied.extend(self.pointee_emptied(*receiver));
                    }
                    emptied.extend(self.handed_on(args));
                }
                Expr::Call { args, .. } => emptied.extend(self.handed_on(args)),
                // A `*mut` made (`self as *mut S as *mut Option<_>`), or a `&mut`
                // stored in a struct (whose `Drop` may empty it), writes what it
                // points to.
                Expr::Cast { .. } => emptied.extend(self.pointee_emptied(e)),
                Expr::RecordLit { fields, .. } => {
                    let values: Vec<ExprId> = fields.iter().map(|field| field.expr).collect();
                    emptied.extend(self.handed_on(&values));
                }
                _ => {}
            }
            store.walk_child_exprs(e, |child| stack.push(child));
        }
        let mut seen = FxHashSet::default();
        emptied.retain(|place| seen.insert(*place));
        emptied
    }

    /// What the `&mut` and `*mut` values among `values` (arguments, a struct's
    /// fields) may empty. A `&mut place` written out is the `Expr::Ref` rule's.
    fn handed_on(&self, values: &[ExprId]) -> Vec<FilledPlace> {
        values
            .iter()
            .filter(|&&value| !matches!(self.store[value], Expr::Ref { .. }))
            .filter_map(|&value| self.pointee_emptied(value))
            .collect()
    }

    /// What writing the place `expr` may empty: its field or static, or for a
    /// deref (`*self`, `*slot`) every value of its type. A local is its own.
    fn emptied_place(&self, expr: ExprId) -> Option<FilledPlace> {
        match &self.store[expr] {
            Expr::UnaryOp { expr: inner, op: UnaryOp::Deref } => self.pointee_emptied(*inner),
            _ => field_or_static(self.db, self.owner, self.store, self.infer, expr),
        }
    }

    /// What a `&mut` or `*mut` value handed on may empty: every value of the type
    /// it points to.
    fn pointee_emptied(&self, expr: ExprId) -> Option<FilledPlace> {
        let ty = self.infer.type_of_expr_or_pat(expr.into())?;
        let (TyKind::Ref(_, pointee, m) | TyKind::RawPtr(pointee, m)) = ty.kind() else { return None };
        if !m.is_mut() {
            return None;
        }
        match pointee.kind() {
            TyKind::Adt(adt, _) => Some(FilledPlace::Type(adt.def_id())),
            _ => None,
        }
    }

    /// What `condition` proves when true, and when false.
    fn room_facts(&self, condition: ExprId) -> (Proven, Proven) {
        let store = self.store;
        match &store[condition] {
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::LogicOp(LogicOp::And)) } => {
                let mut if_true = self.room_facts(*lhs).0;
                if_true.extend(self.room_facts(*rhs).0);
                (if_true, Vec::new())
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::LogicOp(LogicOp::Or)) } => {
                let mut if_false = self.room_facts(*lhs).1;
                if_false.extend(self.room_facts(*rhs).1);
                (Vec::new(), if_false)
            }
            Expr::UnaryOp { expr, op: UnaryOp::Not } => {
                let (if_true, if_false) = self.room_facts(*expr);
                (if_false, if_true)
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::CmpOp(cmp)) } => {
                let (lhs, rhs) = (self.measure(*lhs), self.measure(*rhs));
                let (if_true, if_false) = compare(lhs, *cmp, rhs);
                let prove = |facts: Vec<(String, Amount)>| {
                    facts
                        .into_iter()
                        .filter(|(_, amount)| !amount.is_zero())
                        .map(|(place, amount)| Proof { place, amount, at: condition, pass: None })
                        .collect()
                };
                (prove(if_true), prove(if_false))
            }
            _ => (Vec::new(), Vec::new()),
        }
    }

    fn measure(&self, expr: ExprId) -> Measure {
        let store = self.store;
        match &store[expr] {
            Expr::Path(_) => match place_key(store, expr).and_then(|name| self.lengths.get(&name)) {
                Some(of) => Measure::Count(Amount::length_of(of.clone())),
                None => self.constant(expr).map_or(Measure::Other, |n| Measure::Count(Amount::constant(n))),
            },
            Expr::MethodCall { receiver, method_name, args, .. } if args.is_empty() => {
                let Some(place) = place_key(store, *receiver) else { return Measure::Other };
                match method_name.as_str() {
                    "len" => Measure::Count(Amount::length_of(place)),
                    "capacity" => Measure::Cap(place),
                    _ => Measure::Other,
                }
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::ArithOp(ArithOp::Sub)) } => {
                match (self.measure(*lhs), self.measure(*rhs)) {
                    (Measure::Cap(a), Measure::Count(b)) if b == Amount::length_of(a.clone()) => Measure::Spare(a),
                    _ => Measure::Other,
                }
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::ArithOp(ArithOp::Add)) } => {
                match (self.measure(*lhs), self.measure(*rhs)) {
                    (Measure::Count(a), Measure::Count(b)) => a.plus(&b).map_or(Measure::Other, Measure::Count),
                    _ => Measure::Other,
                }
            }
            Expr::Literal(hir_def::hir::Literal::Uint(n, _)) => Measure::Count(Amount::constant(*n)),
            Expr::Literal(hir_def::hir::Literal::Int(n, _)) if *n >= 0 => Measure::Count(Amount::constant(*n as u128)),
            _ => Measure::Other,
        }
    }

    /// The value of a path to a `const` item of an unsigned type, evaluated.
    fn constant(&self, expr: ExprId) -> Option<u128> {
        let PathValue::Const(konst) = super::incremental::value_path(self.db, self.owner, expr)? else { return None };
        let ty = self.infer.type_of_expr_or_pat(expr.into())?;
        if !matches!(ty.kind(), TyKind::Uint(_)) {
            return None;
        }
        let interner = hir_ty::next_solver::DbInterner::new_no_crate(self.db);
        let value = self.db.const_eval(konst, hir_ty::next_solver::GenericArgs::empty(interner), None).ok()?;
        Some(hir_ty::consteval::allocation_as_usize(value))
    }
}

/// Methods that fill an emptied place.
const FILLING_METHODS: &[&str] = &[
    "insert",
    "replace",
    "get_or_insert",
    "get_or_insert_with",
    "push",
    "push_str",
    "extend",
    "extend_from_slice",
    "set",
];

/// One side of a comparison about a buffer.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Measure {
    /// A count: constants and lengths added (`v.len()`, `v.len() + 4`,
    /// `payload.len() + 4`, a binding set to a length, a `const`).
    Count(Amount),
    Cap(String),
    /// `capacity() - len()`
    Spare(String),
    Other,
}

/// What `lhs cmp rhs` proves when true, and when false: (buffer, room).
fn compare(lhs: Measure, cmp: CmpOp, rhs: Measure) -> (Vec<(String, Amount)>, Vec<(String, Amount)>) {
    use Measure::*;
    let one = |p: &str| (p.to_owned(), Amount::constant(1));
    let and_one = |n: Amount| n.plus(&Amount::constant(1));
    // Write every comparison as `a < b` or `a <= b`, or an equality.
    let (a, b, strict) = match cmp {
        CmpOp::Ord { ordering: Ordering::Less, strict } => (lhs, rhs, strict),
        CmpOp::Ord { ordering: Ordering::Greater, strict } => (rhs, lhs, strict),
        CmpOp::Eq { negated } => {
            let full = match (&lhs, &rhs) {
                (Count(n), Cap(p)) | (Cap(p), Count(n)) if *n == Amount::length_of(p.clone()) => Some(one(p)),
                (Spare(p), Count(n)) | (Count(n), Spare(p)) if n.is_zero() => Some(one(p)),
                _ => None,
            };
            let facts: Vec<_> = full.into_iter().collect();
            // `len == cap` is true when full: room when false.
            return if negated { (facts, Vec::new()) } else { (Vec::new(), facts) };
        }
    };
    let (mut if_true, mut if_false) = (Vec::new(), Vec::new());
    match (a, b) {
        // len + n < cap, len + n <= cap: room for n + 1, for n
        (Count(sum), Cap(p)) => {
            if let Some(n) = sum.without_length_of(&p) {
                if_true.extend(if strict { and_one(n) } else { Some(n) }.map(|n| (p, n)));
            }
        }
        // cap < len + n, cap <= len + n: when false, room for n, for n + 1
        (Cap(p), Count(sum)) => {
            if let Some(n) = sum.without_length_of(&p) {
                if_false.extend(if strict { Some(n) } else { and_one(n) }.map(|n| (p, n)));
            }
        }
        // n < cap - len, n <= cap - len
        (Count(n), Spare(p)) => if_true.extend(if strict { and_one(n) } else { Some(n) }.map(|n| (p, n))),
        // cap - len < n, cap - len <= n: when false, room for n, for n + 1
        (Spare(p), Count(n)) => if_false.extend(if strict { Some(n) } else { and_one(n) }.map(|n| (p, n))),
        _ => {}
    }
    (if_true, if_false)
}

/// The place an expression names, as written: `self.buf`, `out`, `STATE.items`.
/// Dereferences and borrows are looked through.
pub(crate) fn place_key(store: &ExpressionStore, expr: ExprId) -> Option<String> {
    match &store[expr] {
        Expr::Field { expr: base, name } => Some(format!("{}.{}", place_key(store, *base)?, name.as_str())),
        Expr::Path(path) => {
            let path = path.mod_path()?;
            if path.is_self() {
                return Some("self".to_owned());
            }
            let segments: Vec<&str> = path.segments().iter().map(|name| name.as_str()).collect();
            (!segments.is_empty()).then(|| segments.join("::"))
        }
        Expr::UnaryOp { expr: inner, op: UnaryOp::Deref } | Expr::Ref { expr: inner, .. } => place_key(store, *inner),
        _ => None,
    }
}

/// Whether `expr` names a place that outlives the call: a static, or a field
/// reached through a reference (`self.cache` in a `&self` method, `state.cache`
/// with `state: &mut State`). A field of a value the function owns (a local, a
/// by-value parameter, a `Box` it holds) is new on every call.
pub(crate) fn is_long_lived_place(store: &ExpressionStore, infer: &InferenceResult<'_>, expr: ExprId) -> bool {
    let mut base = expr;
    let mut through_field = false;
    loop {
        match &store[base] {
            Expr::Field { expr: inner, .. } => {
                through_field = true;
                base = *inner;
            }
            Expr::UnaryOp { expr: inner, op: UnaryOp::Deref } | Expr::Ref { expr: inner, .. } => base = *inner,
            _ => break,
        }
    }
    is_static_place(store, base) || (through_field && is_pointer(infer, base))
}

/// Whether `expr`'s type is a reference or a raw pointer.
fn is_pointer(infer: &InferenceResult<'_>, expr: ExprId) -> bool {
    infer.type_of_expr_or_pat(expr.into()).is_some_and(|ty| matches!(ty.kind(), TyKind::Ref(..) | TyKind::RawPtr(..)))
}

/// The mutability of the borrow a method call's receiver gets by autoref, if any.
pub(crate) fn auto_borrow(infer: &InferenceResult<'_>, receiver: ExprId) -> Option<rustc_type_ir::Mutability> {
    infer.expr_adjustment(receiver)?.iter().find_map(|a| match a.kind {
        Adjust::Borrow(AutoBorrow::Ref(m)) => Some(m.into()),
        Adjust::Borrow(AutoBorrow::RawPtr(m)) => Some(m),
        _ => None,
    })
}

/// Whether `expr` names a static (by Rust's naming), or a place inside one.
pub(crate) fn is_static_place(store: &ExpressionStore, expr: ExprId) -> bool {
    place_key(store, expr).is_some_and(|place| is_static_key(&place))
}

/// Whether `path` is the bare name `name` (`None`, `Some`).
fn is_name(path: &hir_def::expr_store::path::Path, name: &str) -> bool {
    path.mod_path().and_then(|p| p.as_ident()).is_some_and(|n| n.as_str() == name)
}

/// Whether a place, as `place_key` spells it, is a static or inside one.
fn is_static_key(place: &str) -> bool {
    let base = place.split('.').next().unwrap_or(place);
    is_static_name(base.rsplit("::").next().unwrap_or(base))
}

/// Whether `expr` is memory the body owns: a temporary, a local or a by-value
/// parameter (not a reference or pointer), or a place inside one (not behind a
/// reference). A reference to it handed to a callee points to memory that is new
/// on every call.
pub(crate) fn owns(store: &ExpressionStore, infer: &InferenceResult<'_>, expr: ExprId) -> bool {
    match &store[expr] {
        Expr::Field { expr: base, .. } => owns(store, infer, *base),
        Expr::Index { base, .. } => owns(store, infer, *base),
        Expr::UnaryOp { expr: inner, op: UnaryOp::Deref } => !is_pointer(infer, *inner) && owns(store, infer, *inner),
        Expr::Path(_) => !is_static_place(store, expr) && !is_pointer(infer, expr),
        _ => true,
    }
}

/// Methods that can leave a buffer less room than it had.
const SHRINKING_METHODS: &[&str] = &["shrink_to_fit", "shrink_to", "set_len"];

/// Methods that empty the `Option` or cell they are called on.
const EMPTYING_METHODS: &[&str] = &["take", "take_if"];

/// What a first use of the place `expr` fills (`FilledPlace`): its field or static,
/// its type, and the fields and types it is reached through. Emptying any of them
/// (`self.state = State::new()` for `self.state.cache`) empties it.
pub(crate) fn filled_places(
    db: &dyn HirDatabase,
    owner: DefWithBodyId,
    store: &ExpressionStore,
    infer: &InferenceResult<'_>,
    expr: ExprId,
) -> Vec<FilledPlace> {
    let mut places = Vec::new();
    let mut base = expr;
    loop {
        if let Some(TyKind::Adt(adt, _)) = infer.type_of_expr_or_pat(base.into()).map(|ty| strip_refs(ty).kind()) {
            places.push(FilledPlace::Type(adt.def_id()));
        }
        places.extend(field_or_static(db, owner, store, infer, base));
        match &store[base] {
            Expr::Field { expr: inner, .. }
            | Expr::UnaryOp { expr: inner, op: UnaryOp::Deref }
            | Expr::Ref { expr: inner, .. } => base = *inner,
            _ => break,
        }
    }
    places
}

/// The field (`self.cache`) or the static (`CACHE`) the place `expr` names.
fn field_or_static(
    db: &dyn HirDatabase,
    owner: DefWithBodyId,
    store: &ExpressionStore,
    infer: &InferenceResult<'_>,
    expr: ExprId,
) -> Option<FilledPlace> {
    match &store[expr] {
        Expr::Field { .. } => match infer.field_resolution(expr)? {
            either::Either::Left(field) => Some(FilledPlace::Field(field)),
            either::Either::Right(_) => None,
        },
        Expr::Path(_) => match super::incremental::value_path(db, owner, expr)? {
            PathValue::Static(id) => Some(FilledPlace::Static(id)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether writing `written` (a place, or `place.*`: what a method of `place`
/// may write, its fields) can change `place`, as `place_key` spells them.
fn holds(written: &str, place: &str) -> bool {
    match written.strip_suffix(".*") {
        Some(holder) => place.strip_prefix(holder).is_some_and(|rest| rest.starts_with('.')),
        None => place == written || place.strip_prefix(written).is_some_and(|rest| rest.starts_with('.')),
    }
}

fn is_static_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len(p: &str) -> Measure {
        Measure::Count(Amount::length_of(p.to_owned()))
    }
    fn cap(p: &str) -> Measure {
        Measure::Cap(p.to_owned())
    }
    fn spare(p: &str) -> Measure {
        Measure::Spare(p.to_owned())
    }
    fn count(n: u128) -> Measure {
        Measure::Count(Amount::constant(n))
    }
    fn plus(a: Measure, b: Measure) -> Measure {
        match (a, b) {
            (Measure::Count(a), Measure::Count(b)) => Measure::Count(a.plus(&b).unwrap()),
            _ => Measure::Other,
        }
    }
    const LT: CmpOp = CmpOp::Ord { ordering: Ordering::Less, strict: true };
    const LE: CmpOp = CmpOp::Ord { ordering: Ordering::Less, strict: false };
    const GE: CmpOp = CmpOp::Ord { ordering: Ordering::Greater, strict: false };
    const GT: CmpOp = CmpOp::Ord { ordering: Ordering::Greater, strict: true };
    const EQ: CmpOp = CmpOp::Eq { negated: false };

    #[test]
    fn a_write_of_a_place_or_of_what_holds_it_changes_it() {
        assert!(holds("v", "v"));
        assert!(holds("self", "self.buf"));
        assert!(holds("self.*", "self.buf"));
        // A method of the buffer itself is no write of it (a growth uses its proof).
        assert!(!holds("self.buf.*", "self.buf"));
        assert!(!holds("v.*", "v"));
        assert!(!holds("w", "v"));
        assert!(!holds("self.bu", "self.buf"));
        assert!(!holds("self.buf", "self"));
    }

    #[test]
    fn comparisons_that_prove_room() {
        let room = |n: u128, lengths: &[&str]| {
            let mut amount = Amount::constant(n);
            for place in lengths {
                amount = amount.plus(&Amount::length_of((*place).to_owned())).unwrap();
            }
            vec![("v".to_owned(), amount)]
        };
        assert_eq!(compare(len("v"), LT, cap("v")), (room(1, &[]), vec![]));
        assert_eq!(compare(len("v"), EQ, cap("v")), (vec![], room(1, &[])));
        assert_eq!(compare(len("v"), GE, cap("v")), (vec![], room(1, &[])));
        assert_eq!(compare(spare("v"), GE, len("xs")), (room(0, &["xs"]), vec![]));
        assert_eq!(compare(plus(len("v"), len("xs")), LE, cap("v")), (room(0, &["xs"]), vec![]));
        assert_eq!(compare(plus(len("xs"), len("v")), LE, cap("v")), (room(0, &["xs"]), vec![]));
        // A sum: room for what it adds up to.
        assert_eq!(compare(spare("v"), GE, plus(len("payload"), count(4))), (room(4, &["payload"]), vec![]));
        assert_eq!(compare(spare("v"), GT, count(3)), (room(4, &[]), vec![]));
        assert_eq!(compare(spare("v"), LT, count(8)), (vec![], room(8, &[])));
        // A room for an amount the code does not spell is no proof.
        assert_eq!(compare(spare("v"), GE, Measure::Other), (vec![], vec![]));
        // Another buffer's capacity proves nothing.
        assert_eq!(compare(len("v"), LT, cap("w")), (vec![], vec![]));
        // `len() > capacity()` is never true and proves nothing.
        assert_eq!(compare(cap("v"), LT, len("v")), (vec![], room(0, &[])));
    }
}
