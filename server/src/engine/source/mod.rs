//! What the user wrote and how things are named: the directives
//! (`directives`), the roots they and the settings mark (`roots`,
//! `root_args`), and the names findings and summaries use (`naming`,
//! `identity`).

pub mod directives;
pub mod identity;
pub(crate) mod instantiations;
pub(crate) mod naming;
pub(crate) mod root_args;
pub(crate) mod roots;
