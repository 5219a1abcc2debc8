//! Sizes the types decide, and constant arguments (SPEC: "sizes the types
//! decide"): the values of conditions that are constants at one instance —
//! `T::IS_ZST`, `size_of::<T>() == 0`, `layout.size() == 0` for a `Layout` the
//! instance or a constant argument fixes, `capacity == 0` for a literal or `const`
//! capacity — so that the walk visits only the branch that runs. Owns the values
//! (`Value`), the evaluator of one body's expressions at one instance
//! (`Evaluator`), and which parameters of a function can decide one of its
//! branches (`decisive_params`), which is where a constant argument is carried
//! into the callee's instance (`ConstArgs`, part of `Node::Fn`).
//!
//! Invariant: a value is returned only when it is the value at every run of the
//! instance; anything else (a `mut` binding, an unknown operand, a function the
//! evaluator does not know) is `None`, and both branches are walked.

use hir::db::HirDatabase;
use hir_def::{
    expr_store::{Body, ExpressionStore},
    hir::{
        BinaryOp, BindingAnnotation, BindingId, CmpOp, Expr, ExprId, Literal, LogicOp, Ordering, Pat, PatId, UnaryOp,
    },
    CallableDefId, DefWithBodyId, FunctionId,
};
use hir_ty::{
    method_resolution::CandidateId,
    next_solver::{GenericArgs, Ty, TyKind},
    InferenceResult, ParamEnvAndCrate,
};
use rustc_hash::FxHashMap;
use rustc_type_ir::{inherent::IntoKind, TypeVisitableExt};

use super::{incremental::PathValue, subst::Instantiate};

/// How many calls deep a constant argument is carried: a bound on the
/// instances a recursion that computes new constants could make.
pub(crate) const MAX_CARRY_DEPTH: u8 = 12;

/// A value known at an instance.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub(crate) enum Value {
    Bool(bool),
    /// A non-negative integer.
    Int(u128),
    /// A `core::alloc::Layout`.
    Layout(Layout),
    /// `Ok` of a `Layout` (`Layout::array`, `layout_array`).
    OkLayout(Layout),
    /// A `Vec` or `String` as `new()` makes it: no memory, no elements. Held by
    /// a place that can change (a `let mut`, a `&mut` parameter) only until the
    /// walk meets the place again (`BodyWalker::mutable_values`).
    EmptyBuffer,
}

/// The size and alignment of a `core::alloc::Layout`, in bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
pub(crate) struct Layout {
    pub size: u128,
    pub align: u128,
}

/// The largest size a `Layout` may have: `isize::MAX` (on 64-bit targets).
const MAX_LAYOUT_SIZE: u128 = i64::MAX as u128;

/// The known values of a function's parameters at one instance (`self` first),
/// and how many calls deep they were carried.
#[salsa::interned(revisions = usize::MAX, debug)]
pub(crate) struct ConstArgs<'db> {
    #[returns(ref)]
    pub values: Box<[Option<Value>]>,
    pub depth: u8,
}

impl Value {
    /// Whether the callee can be walked at this value: a `Layout` (what std's
    /// allocation paths decide on), a size or count of zero, an empty buffer,
    /// `false`: the values that can decide there is nothing to allocate. Others
    /// are known in the body that computes them, not carried.
    pub(crate) fn is_carried(self) -> bool {
        match self {
            Value::Bool(b) => !b,
            Value::Int(n) => n == 0,
            Value::Layout(_) | Value::OkLayout(_) | Value::EmptyBuffer => true,
        }
    }

    fn bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn int(self) -> Option<u128> {
        match self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    fn layout(self) -> Option<Layout> {
        match self {
            Value::Layout(layout) => Some(layout),
            _ => None,
        }
    }
}

/// `elem` repeated `count` times, as `Layout::array`/`layout_array` build it:
/// known when the size is (zero-sized elements or no elements make zero bytes
/// whatever the other operand), `None` when it overflows or is not known.
fn repeated(elem: Layout, count: Option<u128>) -> Option<Value> {
    let size = match count {
        _ if elem.size == 0 => 0,
        Some(0) => 0,
        Some(n) => elem.size.checked_mul(n)?,
        None => return None,
    };
    (size <= MAX_LAYOUT_SIZE).then_some(Value::OkLayout(Layout { size, align: elem.align }))
}

/// The functions of std whose value the evaluator knows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, salsa::SalsaValue)]
enum Known {
    SizeOf,
    AlignOf,
    LayoutNew,
    LayoutSize,
    LayoutAlign,
    LayoutArray,
    /// `Layout::repeat_packed` (`repeat` gives a pair, not a `Layout`).
    LayoutRepeat,
    RawVecLayoutArray,
    BufferNew,
    VecCapacity,
    StringCapacity,
    BufferLen,
}

/// Each known function: its name, the module or type it is defined in (as
/// `naming::defined_fn_path` spells it, less the name), and what it is.
const KNOWN: &[(&str, &str, Known)] = &[
    ("size_of", "core::mem", Known::SizeOf),
    ("size_of", "core::intrinsics", Known::SizeOf),
    ("align_of", "core::mem", Known::AlignOf),
    ("align_of", "core::intrinsics", Known::AlignOf),
    ("min_align_of", "core::intrinsics", Known::AlignOf),
    ("new", "core::alloc::layout::Layout", Known::LayoutNew),
    ("size", "core::alloc::layout::Layout", Known::LayoutSize),
    ("align", "core::alloc::layout::Layout", Known::LayoutAlign),
    ("array", "core::alloc::layout::Layout", Known::LayoutArray),
    ("repeat_packed", "core::alloc::layout::Layout", Known::LayoutRepeat),
    ("layout_array", "alloc::raw_vec", Known::RawVecLayoutArray),
    ("new", "alloc::vec::Vec", Known::BufferNew),
    ("new", "alloc::string::String", Known::BufferNew),
    ("capacity", "alloc::vec::Vec", Known::VecCapacity),
    ("capacity", "alloc::string::String", Known::StringCapacity),
    ("len", "alloc::vec::Vec", Known::BufferLen),
    ("len", "alloc::string::String", Known::BufferLen),
];

/// Which known function `func` is. A salsa query: asked of most calls' arguments.
#[salsa::tracked]
fn known_function(db: &dyn HirDatabase, func: FunctionId) -> Option<Known> {
    let name = hir_def::signatures::FunctionSignature::of(db, func).name.as_str().to_owned();
    if !KNOWN.iter().any(|(known, ..)| *known == name) {
        return None;
    }
    if !hir_def::HasModule::krate(&func, db).data(db).origin.is_lang() {
        return None;
    }
    let path = crate::engine::source::naming::defined_fn_path(db, func);
    let owner = path.strip_suffix(name.as_str())?.strip_suffix("::")?;
    KNOWN.iter().find(|(known, defined_in, _)| *known == name && *defined_in == owner).map(|(.., known)| *known)
}

/// The parameters of `func` (`self` first) that can decide one of its branches:
/// mentioned in a condition, a scrutinee or a `let`'s initialiser, or passed to
/// a call (which may branch on it in turn). Only these carry a constant into the callee.
/// A salsa query: a caller's walk asks it of each callee, and depends on its
/// answer, not on the callee's body (an edit of that body re-walks the caller
/// only when the answer changes).
#[salsa::tracked(returns(ref))]
pub(crate) fn decisive_params(db: &dyn HirDatabase, func: FunctionId) -> Vec<bool> {
    let body = Body::of(db, DefWithBodyId::FunctionId(func));
    let params = param_bindings(body);
    let mut decisive = vec![false; params.len()];
    if params.iter().all(Option::is_none) {
        return decisive;
    }
    for (_, expr) in body.exprs() {
        let deciding: Vec<ExprId> = match expr {
            Expr::If { condition, .. } => vec![*condition],
            Expr::Match { expr: scrutinee, .. } => vec![*scrutinee],
            Expr::Block { statements, .. } | Expr::Unsafe { statements, .. } => statements
                .iter()
                .filter_map(|statement| match statement {
                    hir_def::hir::Statement::Let { initializer, .. } => *initializer,
                    _ => None,
                })
                .collect(),
            Expr::Call { args, .. } => args.to_vec(),
            Expr::MethodCall { receiver, args, .. } => std::iter::once(*receiver).chain(args.iter().copied()).collect(),
            _ => continue,
        };
        for expr in deciding {
            mentions(body, expr, &mut |binding| {
                if let Some(i) = params.iter().position(|p| *p == Some(binding)) {
                    decisive[i] = true;
                }
            });
        }
    }
    decisive
}

/// The binding of each parameter of a body (`self` first) that a constant can
/// be given: an immutable name (`layout: Layout`), not a pattern.
pub(crate) fn param_bindings(body: &Body) -> Vec<Option<BindingId>> {
    let mut params: Vec<Option<BindingId>> = Vec::new();
    if let Some(self_param) = &body.self_param {
        params.push(Some(self_param.formal).filter(|id| body[*id].mode == BindingAnnotation::Unannotated));
    }
    for param in body.params.iter() {
        params.push(match &body[param.formal] {
            Pat::Bind { id, subpat: None } if body[*id].mode == BindingAnnotation::Unannotated => Some(*id),
            _ => None,
        });
    }
    params
}

/// Calls `found` with each local binding `expr` may mention, at any depth: the
/// bindings named as a path of one segment names them. Read by name, not
/// resolved (cheap, asked of every call): a binding it cannot tell from another
/// of the same name, or from an item, counts as mentioned, which only makes
/// more of what the caller does (carry a constant, forget a value) happen.
pub(crate) fn mentions(store: &ExpressionStore, expr: ExprId, found: &mut dyn FnMut(BindingId)) {
    if let Some(path) = match &store[expr] {
        Expr::Path(path) => path.mod_path(),
        _ => None,
    } {
        let is_self = path.is_self();
        let name = path.as_ident();
        for (binding, data) in store.bindings() {
            if Some(&data.name) == name || (is_self && data.name.symbol() == &ra_ap_intern::sym::self_) {
                found(binding);
            }
        }
    }
    store.walk_child_exprs(expr, |child| mentions(store, child, found));
}

/// The evaluator of one body's expressions at one instance.
pub(crate) struct Evaluator<'a, 'db> {
    pub db: &'db dyn HirDatabase,
    pub owner: DefWithBodyId,
    pub store: &'a ExpressionStore,
    pub infer: &'db InferenceResult<'db>,
    pub inst: &'a mut Instantiate<'db>,
    pub env: ParamEnvAndCrate<'db>,
    /// The bindings whose value is known: parameters given constants, immutable
    /// `let`s of known values, a `match` arm's binding of a known scrutinee.
    pub bound: &'a FxHashMap<BindingId, Value>,
    /// The places that can change whose value is known at the expression
    /// evaluated: a `let mut`, what a `&mut` parameter points to.
    pub mutable: &'a FxHashMap<BindingId, Value>,
}

impl<'db> Evaluator<'_, 'db> {
    /// The value of `expr` at this instance, when it is known.
    pub(crate) fn value(&mut self, expr: ExprId) -> Option<Value> {
        self.value_within(expr, &mut Vec::new())
    }

    /// The first arm of `arms` that a scrutinee of value `value` runs, with what
    /// its pattern binds; `None` when that is not known (an arm before it with a
    /// guard or a pattern the evaluator cannot decide).
    pub(crate) fn arm_taken(
        &mut self,
        value: Value,
        arms: &[hir_def::hir::MatchArm],
    ) -> Option<(usize, Vec<(BindingId, Value)>)> {
        for (i, arm) in arms.iter().enumerate() {
            let mut binds = Vec::new();
            match self.matches(arm.pat, value, &mut binds)? {
                false => continue,
                true if arm.guard.is_none() => return Some((i, binds)),
                true => return None,
            }
        }
        None
    }

    fn value_within(&mut self, expr: ExprId, scratch: &mut Vec<(BindingId, Value)>) -> Option<Value> {
        let store = self.store;
        match &store[expr] {
            Expr::Literal(Literal::Bool(b)) => Some(Value::Bool(*b)),
            Expr::Literal(Literal::Uint(n, _)) => Some(Value::Int(*n)),
            Expr::Literal(Literal::Int(n, _)) => u128::try_from(*n).ok().map(Value::Int),
            Expr::Path(_) => self.path_value(expr, scratch),
            Expr::UnaryOp { expr: operand, op: UnaryOp::Not } => {
                Some(Value::Bool(!self.value_within(*operand, scratch)?.bool()?))
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::LogicOp(op)) } => {
                let l = self.value_within(*lhs, scratch).and_then(Value::bool);
                let r = self.value_within(*rhs, scratch).and_then(Value::bool);
                // `false &&`, `true ||`: either side decides it alone (the other
                // has no effect the walk needs: both are walked as the condition).
                let short = matches!(op, LogicOp::Or);
                if l == Some(short) || r == Some(short) {
                    return Some(Value::Bool(short));
                }
                (l == Some(!short) && r == Some(!short)).then_some(Value::Bool(!short))
            }
            Expr::BinaryOp { lhs, rhs, op: Some(BinaryOp::CmpOp(op)) } => {
                let (l, r) = match (self.value_within(*lhs, scratch)?, self.value_within(*rhs, scratch)?) {
                    (Value::Bool(l), Value::Bool(r)) => (u128::from(l), u128::from(r)),
                    (l, r) => (l.int()?, r.int()?),
                };
                let holds = match op {
                    CmpOp::Eq { negated } => (l == r) != *negated,
                    CmpOp::Ord { ordering: Ordering::Less, strict: true } => l < r,
                    CmpOp::Ord { ordering: Ordering::Less, strict: false } => l <= r,
                    CmpOp::Ord { ordering: Ordering::Greater, strict: true } => l > r,
                    CmpOp::Ord { ordering: Ordering::Greater, strict: false } => l >= r,
                };
                Some(Value::Bool(holds))
            }
            Expr::Call { callee, args } => {
                let ty = self.infer.type_of_expr_or_pat((*callee).into())?;
                let TyKind::FnDef(def, fn_args) = ty.kind() else { return None };
                let CallableDefId::FunctionId(func) = def.0 else { return None };
                let known = (*known_function(self.db, func))?;
                let fn_args = self.inst.args(fn_args);
                let values: Vec<Option<Value>> = args.iter().map(|&arg| self.value_within(arg, scratch)).collect();
                self.known_value(known, fn_args, &values)
            }
            Expr::MethodCall { receiver, args, .. } => {
                let (func, fn_args) = self.infer.method_resolution(expr)?;
                let known = (*known_function(self.db, func))?;
                let fn_args = self.inst.args(fn_args);
                let values: Vec<Option<Value>> = std::iter::once(*receiver)
                    .chain(args.iter().copied())
                    .map(|arg| self.value_within(arg, scratch))
                    .collect();
                self.known_value(known, fn_args, &values)
            }
            Expr::Match { expr: scrutinee, arms } => {
                let value = self.value_within(*scrutinee, scratch)?;
                let (arm, binds) = self.arm_taken(value, arms)?;
                let depth = scratch.len();
                scratch.extend(binds);
                let value = self.value_within(arms[arm].expr, scratch);
                scratch.truncate(depth);
                value
            }
            Expr::Block { statements, tail: Some(tail), .. } if statements.is_empty() => {
                self.value_within(*tail, scratch)
            }
            // A `String`'s `vec` and a `Vec`'s `len`, of an empty one.
            Expr::Field { expr: base, name } => match (self.value_within(*base, scratch)?, name.as_str()) {
                (Value::EmptyBuffer, "len") => Some(Value::Int(0)),
                (Value::EmptyBuffer, "vec") => Some(Value::EmptyBuffer),
                _ => None,
            },
            _ => None,
        }
    }

    /// A local bound to a known value, or a `const` (an associated one at the
    /// arguments inference resolved its path to, instantiated).
    fn path_value(&mut self, expr: ExprId, scratch: &[(BindingId, Value)]) -> Option<Value> {
        if let Some((CandidateId::ConstId(konst), args)) = self.infer.assoc_resolutions_for_expr(expr) {
            let args = self.inst.args(args);
            return self.assoc_const_value(konst, args, expr);
        }
        match super::incremental::value_path(self.db, self.owner, expr)? {
            PathValue::Local(binding) => scratch
                .iter()
                .rev()
                .find(|(b, _)| *b == binding)
                .map(|(_, v)| *v)
                .or_else(|| self.bound.get(&binding).or_else(|| self.mutable.get(&binding)).copied()),
            PathValue::Const(konst) => {
                let interner = hir_ty::next_solver::DbInterner::new_no_crate(self.db);
                self.const_value(konst, GenericArgs::empty(interner), expr)
            }
            _ => None,
        }
    }

    /// An associated const: `SizedTypeProperties`'s from the layout of the type
    /// (`T::IS_ZST`, `T::LAYOUT`, `T::SIZE`, `T::ALIGN`), any other of an integer
    /// or `bool` type by const evaluation.
    fn assoc_const_value(&mut self, konst: hir_def::ConstId, args: GenericArgs<'db>, expr: ExprId) -> Option<Value> {
        if args.has_param() {
            return None;
        }
        let name = hir_def::signatures::ConstSignature::of(self.db, konst).name.clone()?;
        let container = hir_def::Lookup::lookup(&konst, self.db).container;
        if let hir_def::ItemContainerId::TraitId(trait_) = container {
            let trait_name = hir_def::signatures::TraitSignature::of(self.db, trait_).name.as_str().to_owned();
            if trait_name == "SizedTypeProperties"
                && hir_def::HasModule::krate(&trait_, self.db).data(self.db).origin.is_lang()
            {
                let layout = self.layout_of(args.as_slice().first()?.ty()?)?;
                return match name.as_str() {
                    "IS_ZST" => Some(Value::Bool(layout.size == 0)),
                    "LAYOUT" => Some(Value::Layout(layout)),
                    "SIZE" => Some(Value::Int(layout.size)),
                    "ALIGN" => Some(Value::Int(layout.align)),
                    _ => None,
                };
            }
        }
        self.const_value(konst, args, expr)
    }

    /// A `const` of an integer or `bool` type, evaluated.
    fn const_value(&mut self, konst: hir_def::ConstId, args: GenericArgs<'db>, expr: ExprId) -> Option<Value> {
        let ty = self.infer.type_of_expr_or_pat(expr.into())?;
        let is_bool = match ty.kind() {
            TyKind::Bool => true,
            TyKind::Uint(_) => false,
            _ => return None,
        };
        let value = hir_ty::consteval::allocation_as_usize(self.db.const_eval(konst, args, Some(self.env)).ok()?);
        Some(if is_bool { Value::Bool(value != 0) } else { Value::Int(value) })
    }

    /// The size and alignment of `ty` at this instance.
    fn layout_of(&mut self, ty: Ty<'db>) -> Option<Layout> {
        let ty = self.inst.ty(ty);
        if ty.has_param() {
            return None;
        }
        let layout = self.db.layout_of_ty(ty.store(), self.env.store()).ok()?;
        Some(Layout { size: u128::from(layout.size.bytes()), align: u128::from(layout.align.abi.bytes()) })
    }

    /// What a function the evaluator knows returns, given its arguments.
    fn known_value(&mut self, known: Known, fn_args: GenericArgs<'db>, values: &[Option<Value>]) -> Option<Value> {
        let first_ty = || fn_args.as_slice().iter().find_map(|a| a.ty());
        match known {
            Known::SizeOf if values.is_empty() => Some(Value::Int(self.layout_of(first_ty()?)?.size)),
            Known::AlignOf if values.is_empty() => Some(Value::Int(self.layout_of(first_ty()?)?.align)),
            Known::LayoutNew if values.is_empty() => Some(Value::Layout(self.layout_of(first_ty()?)?)),
            Known::LayoutSize => Some(Value::Int(values.first().copied()??.layout()?.size)),
            Known::LayoutAlign => Some(Value::Int(values.first().copied()??.layout()?.align)),
            Known::LayoutArray => {
                let elem = self.layout_of(first_ty()?)?;
                repeated(elem, values.first().copied()?.and_then(Value::int))
            }
            Known::LayoutRepeat => {
                let elem = values.first().copied()??.layout()?;
                repeated(elem, values.get(1).copied()?.and_then(Value::int))
            }
            Known::RawVecLayoutArray => {
                let elem = values.get(1).copied()??.layout()?;
                repeated(elem, values.first().copied()?.and_then(Value::int))
            }
            Known::BufferNew if values.is_empty() => Some(Value::EmptyBuffer),
            // A `Vec` of zero-sized elements has room for `usize::MAX` from the start.
            Known::VecCapacity if values.first().copied()? == Some(Value::EmptyBuffer) => {
                let zero_sized = self.layout_of(first_ty()?)?.size == 0;
                Some(Value::Int(if zero_sized { u128::from(u64::MAX) } else { 0 }))
            }
            Known::StringCapacity | Known::BufferLen if values.first().copied()? == Some(Value::EmptyBuffer) => {
                Some(Value::Int(0))
            }
            _ => None,
        }
    }

    /// Whether a value `value` matches `pat`: `None` when that is not known.
    fn matches(&mut self, pat: PatId, value: Value, binds: &mut Vec<(BindingId, Value)>) -> Option<bool> {
        let store = self.store;
        match &store[pat] {
            Pat::Wild => Some(true),
            Pat::Bind { id, subpat: None } => {
                binds.push((*id, value));
                Some(true)
            }
            Pat::Lit(expr) => Some(self.value(*expr)? == value),
            Pat::Or(pats) => {
                for &pat in pats.iter() {
                    if self.matches(pat, value, binds)? {
                        return Some(true);
                    }
                }
                Some(false)
            }
            Pat::TupleStruct { args, .. } => {
                let Value::OkLayout(layout) = value else { return None };
                let hir_def::VariantId::EnumVariantId(variant) = self.infer.variant_resolution_for_pat(pat)? else {
                    return None;
                };
                let name = variant.loc(self.db).parent.enum_variants(self.db).variant_name_by_id(variant)?;
                match (name.as_str(), &**args) {
                    ("Ok", [inner]) => self.matches(*inner, Value::Layout(layout), binds),
                    ("Err", _) => Some(false),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeating_a_layout_is_known_when_its_size_is() {
        let zst = Layout { size: 0, align: 1 };
        let word = Layout { size: 8, align: 8 };
        assert_eq!(repeated(zst, None), Some(Value::OkLayout(zst)));
        assert_eq!(repeated(word, Some(0)), Some(Value::OkLayout(Layout { size: 0, align: 8 })));
        assert_eq!(repeated(word, Some(3)), Some(Value::OkLayout(Layout { size: 24, align: 8 })));
        assert_eq!(repeated(word, None), None);
        // Past `isize::MAX` bytes it is an error, not known here.
        assert_eq!(repeated(word, Some(u128::from(u64::MAX))), None);
    }
}
