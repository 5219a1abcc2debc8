//! The walk's data model: what the engine walks (`Node`), what a call leads to
//! (`Target`), the facts one walk records (`Edge`, `Walked`), and the shapes
//! fn pointers are matched by (`Signature`). Plain data the walk fills, the reach
//! links and the judge reads; no logic beyond naming and building them.

use hir_def::{hir::ExprOrPatId, DefWithBodyId, FunctionId};
use hir_ty::{
    db::{HirDatabase, InternedClosureId},
    next_solver::{GenericArgs, Ty},
};

use super::allowances::{CallContext, FilledPlace, Growth};

/// One unit the engine walks: a function at given generic arguments, a closure body
/// at its parent's arguments, the drop glue of a type, or the initialiser of a
/// static or const (read for the trait objects and fn pointers it stores, never
/// called: it runs at compile time).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Node<'db> {
    /// A function at generic arguments, and at the constants some of its
    /// parameters are known to hold (`constants`; `None` for most instances):
    /// the branches those decide are walked only as they run.
    Fn {
        func: FunctionId,
        args: GenericArgs<'db>,
        consts: Option<super::constants::ConstArgs<'db>>,
    },
    Closure {
        closure: InternedClosureId<'db>,
        parent_args: GenericArgs<'db>,
    },
    DropGlue(Ty<'db>),
    /// A method of a built-in derive (`Clone`, `Debug`, `PartialEq`, `Hash`, ...),
    /// which has no body: it calls the same trait method on each field.
    Derived {
        method: FunctionId,
        args: GenericArgs<'db>,
    },
    /// The initialiser of a static or const, at the generic arguments of the
    /// impl or trait that holds it (an associated const: `Owned::<T>::VTABLE`).
    Init(DefWithBodyId, GenericArgs<'db>),
}

impl<'db> Node<'db> {
    /// A function at generic arguments, with no constants known.
    pub(crate) fn function(func: FunctionId, args: GenericArgs<'db>) -> Node<'db> {
        Node::Fn { func, args, consts: None }
    }

    /// The function (or closure) a node stands for, as users write it.
    pub(crate) fn name(&self, db: &'db dyn HirDatabase) -> String {
        super::incremental::node_name(db, *self).to_owned()
    }

    /// `name`, worked out (`incremental::node_name` memoizes it).
    pub(crate) fn name_uncached(&self, db: &dyn HirDatabase) -> String {
        use crate::engine::source::naming::{fn_path, owner_path, ty_name};
        match *self {
            Node::Fn { func, args, .. } => fn_path(db, func, Some(args)),
            Node::Derived { method, args } => fn_path(db, method, Some(args)),
            Node::Closure { closure, .. } => format!("{}::{{closure}}", owner_path(db, closure.loc(db).owner)),
            Node::DropGlue(ty) => format!("core::ptr::drop_in_place::<{}>", ty_name(db, ty)),
            Node::Init(def, _) => format!("the initialiser of {def:?}"),
        }
    }
}

/// What an edge leads to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Target<'db> {
    Node(Node<'db>),
    /// An allocator entry point with no body: `__rust_alloc*`, `malloc`, ...
    Allocator(FunctionId),
    /// A foreign function that is not an allocator: its body is not visible.
    Foreign(FunctionId),
    /// A compiler intrinsic: no body; the built-in allowlist says why it is fine.
    Intrinsic(FunctionId),
    /// A call whose callee the source does not show, and why.
    Unknown {
        what: String,
        kind: UnknownKind,
    },
    /// A call through a fn pointer of this signature: resolved per root against the
    /// functions whose address the program takes (`resolve`).
    FnPointer {
        what: String,
        signature: Signature,
    },
    /// A `dyn Trait` method call: resolved per root against the types the program
    /// coerces to `dyn Trait` (`resolve`).
    Dyn {
        method: FunctionId,
        args: GenericArgs<'db>,
    },
    /// Dropping a `dyn Trait` value (`Box<dyn Trait>`): the drop glue of every type
    /// that may stand behind it.
    DynDrop(Ty<'db>),
    /// An instance outside the workspace answered from the on-disk summaries.
    Summary(std::sync::Arc<super::summary::CachedSummary>),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum UnknownKind {
    /// A call on a type parameter the root leaves open: a generic root checked
    /// without an instantiation.
    Generic,
    /// A `dyn Fn` or fn pointer from the root's caller, an impl no source shows.
    Opaque,
    /// Type inference did not resolve the call (an inference gap, a derive whose
    /// macro did not expand).
    Unresolved,
    /// Code that did not expand or lower (a macro with no expansion).
    NotExpanded,
    /// Inline assembly.
    Asm,
    /// A function declared without a body that is neither foreign nor an intrinsic.
    NoBody,
    /// The walk stopped at its size bound.
    Truncated,
}

/// A call the walk does not follow: its types are larger than
/// `subst::MAX_TYPE_EXTENT` (`what`: the function called).
pub(crate) fn growing_without_end<'db>(what: String) -> Target<'db> {
    let max = super::subst::MAX_TYPE_EXTENT;
    Target::Unknown {
        what: format!(
            "{what} at types that grow without end (a type nested in itself more than {} times, more than {} deep or {} long: polymorphic recursion?)",
            max.self_nesting, max.depth, max.written
        ),
        kind: UnknownKind::Truncated,
    }
}

/// A fn-pointer signature with regions erased: the shape of each input and of the
/// output (`walk::signature_of`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Signature {
    pub inputs: Vec<Shape>,
    pub output: Shape,
}

impl Signature {
    /// Whether a pointer of signature `self` may point at a function of `other`:
    /// the same arity, and at every position types that may be the same.
    pub(crate) fn admits(&self, other: &Signature) -> bool {
        self.inputs.len() == other.inputs.len()
            && self.inputs.iter().zip(&other.inputs).all(|(a, b)| a.may_equal(b))
            && self.output.may_equal(&other.output)
    }
}

/// A type with its regions erased, as far as the walk can pin it down.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Shape {
    /// A type the walk cannot pin down (a parameter, a projection, an inference
    /// leftover): it may be any type.
    Any,
    /// A type constructor (a primitive, `&mut`, `*const`, a slice, an array, a
    /// tuple, an ADT, a `dyn` by its principal trait, a fn pointer) and its type
    /// arguments.
    Ctor(String, Vec<Shape>),
}

impl Shape {
    /// Whether the two may be the same type: equal constructors with arguments
    /// that may be the same, position by position; `Any` may be anything.
    pub(crate) fn may_equal(&self, other: &Shape) -> bool {
        match (self, other) {
            (Shape::Any, _) | (_, Shape::Any) => true,
            (Shape::Ctor(a, xs), Shape::Ctor(b, ys)) => {
                a == b && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.may_equal(y))
            }
        }
    }
}

/// Where in a body an edge comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Site {
    pub owner: DefWithBodyId,
    pub expr: ExprOrPatId,
}

/// How a call relates to panicking.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) enum Panic {
    /// An ordinary call.
    #[default]
    No,
    /// The call enters the panic, abort or exit machinery.
    Call,
    /// The call runs only on the way to such a call: a panic message's arguments,
    /// or a block that ends in a panic.
    OnPath,
}

/// What closures passed to an allowed call are: the fill of a first-use cell, or
/// callbacks that run on every call (`LocalKey::with`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) enum PassedClosures {
    #[default]
    Callbacks,
    Fill,
}

#[derive(Clone, Debug)]
pub(crate) struct Edge<'db> {
    pub target: Target<'db>,
    pub site: Option<Site>,
    /// A value of this type is dropped here (for drop glue edges).
    pub drop_of: Option<Ty<'db>>,
    /// The callee as written, when it is a plain name (`f` in `f(1)`).
    pub callee_label: Option<String>,
    /// Where the site stands: error path, loop, first-use setup.
    pub context: CallContext,
    /// The call grows a buffer (`v.push(x)`, a `noalloc:append` fn).
    pub growth: Option<Growth>,
    pub panic: Panic,
    /// For a first-use call: what the closures it is given are.
    pub passed: PassedClosures,
    /// The call hands the callee a reference to memory this body owns (`l.get()`
    /// on a local `l`, `f(&mut tmp)`): a field the callee fills on "first use"
    /// through it is new on every call.
    pub passes_owned: bool,
    /// For first-use setup: what it fills. Emptied anywhere in the root's reach,
    /// it is filled again on a later call, and the setup is judged.
    pub fills: Vec<FilledPlace>,
    /// The call's arguments coerced to a `dyn` at the call: (concrete pointee, the
    /// `dyn` type). The reach may judge the callee for exactly those types
    /// (`reach::DynContext`).
    pub dyn_args: Vec<(Ty<'db>, Ty<'db>)>,
}

impl<'db> Edge<'db> {
    pub(crate) fn new(target: Target<'db>, site: Option<Site>) -> Self {
        Edge {
            target,
            site,
            drop_of: None,
            callee_label: None,
            context: CallContext::default(),
            growth: None,
            panic: Panic::No,
            passed: PassedClosures::Callbacks,
            passes_owned: false,
            fills: Vec::new(),
            dyn_args: Vec::new(),
        }
    }
}

/// The walked body of one node.
#[derive(Default, Debug)]
pub(crate) struct Walked<'db> {
    pub edges: Vec<Edge<'db>>,
    /// Unsize coercions to `dyn Trait`: (concrete pointee, the `dyn` type).
    pub coercions: Vec<(Ty<'db>, Ty<'db>)>,
    /// Functions and closures whose address is taken (as a value, not called on
    /// the spot), with their signature.
    pub address_taken: Vec<(Target<'db>, Signature)>,
    /// Fn pointers transmuted to another fn-pointer type: (from, to).
    pub fn_casts: Vec<(Signature, Signature)>,
    /// Statics and consts read whose type holds a trait object or a fn pointer,
    /// each at the generic arguments it is read at (empty but for an associated
    /// const of a generic impl or of a trait).
    pub statics: Vec<(DefWithBodyId, GenericArgs<'db>)>,
    /// Values the user's code makes out of memory the type system does not track
    /// (a pointer cast from `*mut c_void` or an integer, a `transmute`, a
    /// `downcast_ref` of a `dyn Any`), whose type holds a trait object or a fn
    /// pointer: what they hold comes from outside the program.
    pub untyped: Vec<Ty<'db>>,
    /// What the body may empty of what first use fills (`BodyFacts::empties`).
    pub empties: Vec<FilledPlace>,
}
