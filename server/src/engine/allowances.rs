//! What the source says about where a call stands, for SPEC's "Allowed, not
//! reported": whether it builds the error its function returns, whether its value is
//! what the function returns (`?`, `return`, the tail), whether it can run again in
//! one call of the function (a loop), whether it is first-use setup (a branch that
//! finds a field or static empty and fills it), and which buffers a comparison
//! proves to have room. Read once per body from rust-analyzer's HIR; judged in
//! `analysis`.

use std::rc::Rc;

use hir_def::{
    CallableDefId,
    expr_store::ExpressionStore,
    hir::{ArithOp, BinaryOp, CmpOp, Expr, ExprId, ExprOrPatId, LogicOp, Ordering, Pat, PatId, Statement, UnaryOp},
    lang_item::LangItems,
};
use hir_ty::{InferenceResult, next_solver::TyKind};
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
}

/// How much room a comparison proves a buffer has.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Room {
    /// `len() < capacity()`: room for one more element.
    One,
    /// `capacity() - len() >= n`, `len() + n <= capacity()`: room for `n`.
    Many,
}

/// A call that grows a buffer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Growth {
    /// The buffer as written: `self.buf`, `out`.
    pub buffer: String,
    /// A comparison proves room for what the call adds.
    pub room: bool,
    /// The buffer is reached through `self` or a `&mut` binding: it outlives the call.
    pub long_lived: bool,
    /// The buffer is a field of `self` (room is trusted in `noalloc:fixed` types).
    pub on_self: bool,
    /// The types whose fields the place goes through (for `--scratch`).
    pub holders: Vec<hir_def::AdtId>,
}

type Rooms = Rc<Vec<(String, Room)>>;

/// The buffers (as `place_key` spells them) a condition proves to have room.
type Proven = Vec<(String, Room)>;

#[derive(Clone, Default)]
struct Scope {
    context: CallContext,
    rooms: Rooms,
}

impl Scope {
    fn with_rooms(&self, more: &[(String, Room)]) -> Scope {
        if more.is_empty() {
            return self.clone();
        }
        let mut rooms = (*self.rooms).clone();
        rooms.extend(more.iter().cloned());
        Scope { context: self.context, rooms: Rc::new(rooms) }
    }
}

/// The facts of one body (closures included), by expression and pattern.
#[derive(Default)]
pub(crate) struct BodyFacts {
    scopes: FxHashMap<ExprOrPatId, Scope>,
    propagated: FxHashSet<ExprId>,
}

impl BodyFacts {
    /// The context of a call, a drop or an adjustment at `site`.
    pub(crate) fn context(&self, site: ExprOrPatId) -> CallContext {
        let mut context = self.scopes.get(&site).map(|scope| scope.context).unwrap_or_default();
        if let ExprOrPatId::ExprId(expr) = site {
            context.propagates = self.propagated.contains(&expr);
        }
        context
    }

    /// The room proven for the buffer `place` (as `place_key` spells it) at `expr`.
    pub(crate) fn room(&self, expr: ExprId, place: &str) -> Option<Room> {
        let scope = self.scopes.get(&ExprOrPatId::ExprId(expr))?;
        scope.rooms.iter().filter(|(p, _)| p == place).map(|(_, room)| *room).max()
    }

    /// Reads the facts of a body whose root expression is `root`.
    pub(crate) fn of_body(store: &ExpressionStore, infer: &InferenceResult<'_>, lang: &LangItems, root: ExprId) -> BodyFacts {
        let mut collector = Collector { store, infer, lang, out: BodyFacts::default() };
        collector.visit(root, &Scope::default(), true);
        collector.out
    }
}

struct Collector<'a, 'db> {
    store: &'a ExpressionStore,
    infer: &'a InferenceResult<'db>,
    lang: &'a LangItems,
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
        match &store[expr] {
            Expr::Block { statements, tail: block_tail, .. } | Expr::Unsafe { statements, tail: block_tail, .. } => {
                let mut scope = scope.clone();
                for statement in statements.iter() {
                    match statement {
                        Statement::Let { pat, initializer, else_branch, .. } => {
                            self.visit_pat(*pat, &scope);
                            if let Some(init) = initializer {
                                self.visit(*init, &scope, false);
                            }
                            if let Some(else_branch) = else_branch {
                                self.visit(*else_branch, &scope, false);
                            }
                        }
                        Statement::Expr { expr, .. } => {
                            self.visit(*expr, &scope, false);
                            // `if v.len() == v.capacity() { return/break }`: room after it.
                            if let Expr::If { condition, then_branch, else_branch: None } = &store[*expr] {
                                if self.diverges(*then_branch) {
                                    let (_, if_false) = self.room_facts(*condition);
                                    scope = scope.with_rooms(&if_false);
                                }
                            }
                        }
                        Statement::Item(_) => {}
                    }
                }
                if let Some(block_tail) = block_tail {
                    self.visit(*block_tail, &scope, tail);
                }
            }
            Expr::If { condition, then_branch, else_branch } => {
                self.visit(*condition, &scope, false);
                let (if_true, if_false) = self.room_facts(*condition);
                let mut then_scope = scope.with_rooms(&if_true);
                if self.first_use_guard(*condition, *then_branch) {
                    then_scope.context.first_use = true;
                }
                self.visit(*then_branch, &then_scope, tail);
                if let Some(else_branch) = else_branch {
                    self.visit(*else_branch, &scope.with_rooms(&if_false), tail);
                }
            }
            Expr::Match { expr: scrutinee, arms } => {
                match self.try_operand(*scrutinee) {
                    // `x?`: `match Try::branch(x) { .. }`; `x`'s error is returned.
                    Some(operand) => {
                        self.out.scopes.insert((*scrutinee).into(), scope.clone());
                        if let Expr::Call { callee, .. } = &store[*scrutinee] {
                            self.out.scopes.insert((*callee).into(), scope.clone());
                        }
                        self.visit(operand, &scope, true);
                    }
                    None => self.visit(*scrutinee, &scope, false),
                }
                for arm in arms.iter() {
                    self.visit_pat(arm.pat, &scope);
                    if let Some(guard) = arm.guard {
                        self.visit(guard, &scope, false);
                    }
                    self.visit(arm.expr, &scope, tail);
                }
            }
            Expr::Return { expr: Some(value) } => self.visit(*value, &scope, true),
            Expr::Loop { body, .. } => {
                let mut body_scope = scope.clone();
                body_scope.context.repeats = true;
                self.visit(*body, &body_scope, false);
            }
            Expr::Closure { body, args, .. } => {
                // A closure returns to whoever calls it; only first-use carries in.
                let closure_scope = Scope {
                    context: CallContext { first_use: scope.context.first_use, ..CallContext::default() },
                    rooms: Rooms::default(),
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

    fn diverges(&self, expr: ExprId) -> bool {
        if self.infer.type_of_expr_or_pat(expr.into()).is_some_and(|ty| ty.is_never()) {
            return true;
        }
        // A block whose last statement is `return`, `break` or `continue`.
        let store = self.store;
        match &store[expr] {
            Expr::Block { statements, tail: None, .. } => match statements.last() {
                Some(Statement::Expr { expr, .. }) => {
                    matches!(store[*expr], Expr::Return { .. } | Expr::Break { .. } | Expr::Continue { .. })
                }
                _ => false,
            },
            Expr::Block { tail: Some(tail), .. } => self.diverges(*tail),
            Expr::Return { .. } | Expr::Break { .. } | Expr::Continue { .. } => true,
            _ => false,
        }
    }

    /// `if P.is_none() { P = .. }` (also `is_empty()`, `if let None = P`, `!P.is_some()`)
    /// where `P` is a field or a static that the branch fills.
    fn first_use_guard(&self, condition: ExprId, then_branch: ExprId) -> bool {
        let store = self.store;
        let place = match &store[condition] {
            Expr::MethodCall { receiver, method_name, args, .. }
                if args.is_empty() && matches!(method_name.as_str(), "is_none" | "is_empty") =>
            {
                place_key(store, *receiver)
            }
            Expr::UnaryOp { expr, op: UnaryOp::Not } => match &store[*expr] {
                Expr::MethodCall { receiver, method_name, args, .. }
                    if args.is_empty() && method_name.as_str() == "is_some" =>
                {
                    place_key(store, *receiver)
                }
                _ => None,
            },
            Expr::Let { pat, expr } => match &store[*pat] {
                Pat::Path(path) if path.mod_path().and_then(|p| p.as_ident()).is_some_and(|n| n.as_str() == "None") => {
                    place_key(store, *expr)
                }
                _ => None,
            },
            _ => None,
        };
        let Some(place) = place else { return false };
        is_long_lived(&place) && self.fills(then_branch, &place)
    }

    /// Whether `expr` assigns `place`, or fills it through a method (`insert`,
    /// `replace`, `get_or_insert*`, a growth method).
    fn fills(&self, expr: ExprId, place: &str) -> bool {
        let store = self.store;
        let mut found = false;
        let mut stack = vec![expr];
        while let Some(e) = stack.pop() {
            match &store[e] {
                Expr::Assignment { target, .. } => {
                    if let Pat::Expr(target) = &store[*target] {
                        found |= place_key(store, *target).as_deref() == Some(place);
                    }
                }
                Expr::MethodCall { receiver, method_name, .. } if FILLING_METHODS.contains(&method_name.as_str()) => {
                    found |= place_key(store, *receiver).as_deref() == Some(place);
                }
                _ => {}
            }
            store.walk_child_exprs(e, |child| stack.push(child));
        }
        found
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
                compare(lhs, *cmp, rhs)
            }
            _ => (Vec::new(), Vec::new()),
        }
    }

    fn measure(&self, expr: ExprId) -> Measure {
        let store = self.store;
        match &store[expr] {
            Expr::MethodCall { receiver, method_name, args, .. } if args.is_empty() => {
                let Some(place) = place_key(store, *receiver) else { return Measure::Other };
                match method_name.as_str() {
                    "len" => Measure::Len(place),
                    "capacity" => Measure::Cap(place),
                    _ => Measure::Other,
                }
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::ArithOp(ArithOp::Sub)) } => {
                match (self.measure(*lhs), self.measure(*rhs)) {
                    (Measure::Cap(a), Measure::Len(b)) if a == b => Measure::Spare(a),
                    _ => Measure::Other,
                }
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::ArithOp(ArithOp::Add)) } => {
                match (self.measure(*lhs), self.measure(*rhs)) {
                    (Measure::Len(place), _) | (_, Measure::Len(place)) => Measure::LenPlus(place),
                    _ => Measure::Other,
                }
            }
            Expr::Literal(hir_def::hir::Literal::Int(0, _) | hir_def::hir::Literal::Uint(0, _)) => Measure::Zero,
            _ => Measure::Other,
        }
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
    Len(String),
    Cap(String),
    /// `capacity() - len()`
    Spare(String),
    /// `len() + n`
    LenPlus(String),
    Zero,
    Other,
}

/// What `lhs cmp rhs` proves when true, and when false.
fn compare(lhs: Measure, cmp: CmpOp, rhs: Measure) -> (Proven, Proven) {
    use Measure::*;
    // Write every comparison as `a < b` or `a <= b`, or an equality.
    let (a, b, strict) = match cmp {
        CmpOp::Ord { ordering: Ordering::Less, strict } => (lhs, rhs, strict),
        CmpOp::Ord { ordering: Ordering::Greater, strict } => (rhs, lhs, strict),
        CmpOp::Eq { negated } => {
            let place = match (&lhs, &rhs) {
                (Len(p), Cap(q)) | (Cap(p), Len(q)) if p == q => Some((p.clone(), Room::One)),
                (Spare(p), Zero) | (Zero, Spare(p)) => Some((p.clone(), Room::One)),
                _ => None,
            };
            let facts: Vec<_> = place.into_iter().collect();
            // `len == cap` is true when full: room when false.
            return if negated { (facts, Vec::new()) } else { (Vec::new(), facts) };
        }
    };
    let (mut if_true, mut if_false) = (Vec::new(), Vec::new());
    match (a, b) {
        // len < cap
        (Len(p), Cap(q)) if p == q && strict => if_true.push((p, Room::One)),
        // cap <= len: full
        (Cap(p), Len(q)) if p == q && !strict => if_false.push((p, Room::One)),
        // len + n <= cap
        (LenPlus(p), Cap(q)) if p == q => if_true.push((p, Room::Many)),
        // cap < len + n: not enough
        (Cap(p), LenPlus(q)) if p == q => if_false.push((p, Room::Many)),
        // 0 < cap - len
        (Zero, Spare(p)) if strict => if_true.push((p, Room::One)),
        // n <= cap - len
        (_, Spare(p)) => if_true.push((p, Room::Many)),
        // cap - len <= 0
        (Spare(p), Zero) if !strict => if_false.push((p, Room::One)),
        // cap - len < n
        (Spare(p), _) => if_false.push((p, Room::Many)),
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

/// Whether `expr` names a field or a static: a place that outlives the call.
pub(crate) fn is_long_lived_place(store: &ExpressionStore, expr: ExprId) -> bool {
    place_key(store, expr).is_some_and(|place| is_long_lived(&place))
}

/// A field (`self.x`, `state.cache`) or a static (`CACHE`, by Rust's naming).
fn is_long_lived(place: &str) -> bool {
    place.contains('.') || is_static_name(place.rsplit("::").next().unwrap_or(place))
}

fn is_static_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len(p: &str) -> Measure {
        Measure::Len(p.to_owned())
    }
    fn cap(p: &str) -> Measure {
        Measure::Cap(p.to_owned())
    }
    const LT: CmpOp = CmpOp::Ord { ordering: Ordering::Less, strict: true };
    const GE: CmpOp = CmpOp::Ord { ordering: Ordering::Greater, strict: false };
    const EQ: CmpOp = CmpOp::Eq { negated: false };

    #[test]
    fn comparisons_that_prove_room() {
        let one = vec![("v".to_owned(), Room::One)];
        let many = vec![("v".to_owned(), Room::Many)];
        assert_eq!(compare(len("v"), LT, cap("v")), (one.clone(), vec![]));
        assert_eq!(compare(len("v"), EQ, cap("v")), (vec![], one.clone()));
        assert_eq!(compare(len("v"), GE, cap("v")), (vec![], one.clone()));
        assert_eq!(compare(Measure::Spare("v".into()), GE, Measure::Other), (many.clone(), vec![]));
        assert_eq!(compare(Measure::LenPlus("v".into()), CmpOp::Ord { ordering: Ordering::Less, strict: false }, cap("v")), (many, vec![]));
        // Another buffer's capacity proves nothing.
        assert_eq!(compare(len("v"), LT, cap("w")), (vec![], vec![]));
        // `len() > capacity()` is never true and proves nothing.
        assert_eq!(compare(cap("v"), LT, len("v")), (vec![], vec![]));
    }

    #[test]
    fn long_lived_places() {
        assert!(is_long_lived("self.cache"));
        assert!(is_long_lived("CACHE"));
        assert!(is_long_lived("crate::state::TABLE"));
        assert!(!is_long_lived("cache"));
        assert!(!is_long_lived("Foo"));
    }
}
