//! The proof: what a root reaches and whether any of it can allocate. The walk of
//! one body (`walk`, its data model and the facts it records), the calls it
//! cannot resolve alone (`resolve`, `dyn_context`, `erased_statics`,
//! `sealed_fields`, `impls`, `subst`), the reach over the whole call graph
//! (`reach`), the rules that allow a call (`allowances`, `room`, `judge`,
//! `builtin`, `inline_asm`, `static_setup`), the values the types and constant
//! arguments decide at an instance (`constants`), the findings at workspace lines (`findings`), and the salsa
//! queries the proof asks (`incremental`).

pub(crate) mod allowances;
pub mod builtin;
pub(crate) mod constants;
pub(crate) mod dyn_context;
pub(crate) mod erased_statics;
pub(crate) mod findings;
pub mod impls;
pub mod incremental;
pub(crate) mod inline_asm;
pub(crate) mod judge;
pub(crate) mod model;
pub(crate) mod reach;
pub(crate) mod reach_profile;
pub(crate) mod resolve;
pub(crate) mod room;
pub(crate) mod scope;
pub(crate) mod sealed_fields;
pub(crate) mod static_setup;
pub(crate) mod subst;
pub(crate) mod summary;
pub(crate) mod walk;
pub(crate) mod walk_env;
