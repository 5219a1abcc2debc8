//! Everything that makes a second answer cheaper than the first, and nothing the
//! verdicts depend on: the live workspace that takes edits (`edit`), summaries
//! of closed code kept on disk (`summary_cache`), the stored analysis of a
//! checkout (`stored_analysis`, `edit_digest`) and the roots' outcomes in it that
//! an edit leaves standing (`stored_roots`), roots' outcomes reused across edits
//! of a live workspace (`root_reuse`, `item_edits`, `sealed_files`,
//! `library_macros`), and a
//! second core walking ahead of the first analysis (`walk_ahead`).

pub mod edit;
pub mod edit_digest;
pub(crate) mod item_edits;
pub(crate) mod library_macros;
pub(crate) mod root_reuse;
pub(crate) mod sealed_files;
pub mod stored_analysis;
pub mod stored_roots;
pub mod summary_cache;
pub(crate) mod walk_ahead;
