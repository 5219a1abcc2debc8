//! noalloc-ls: finds every heap allocation reachable from the functions a team marks
//! `// noalloc:root`. One engine (`engine`), two front ends: the headless checker
//! (`cli`) and the language server (`lsp`), which share `uri` to name files.

pub mod adoption;
pub mod allocator;
pub mod cli;
pub mod cross_check;
pub mod engine;
pub mod lsp;
pub mod stdx;
pub mod uri;
