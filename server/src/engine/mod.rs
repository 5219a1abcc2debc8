//! The engine: which lines reachable from each `// noalloc:root` can allocate, why,
//! and through which chain of calls. Answers in plain data; knows nothing of LSP,
//! terminals or exit codes.

mod analysis;
pub(crate) mod callgraph;
pub mod directives;
pub mod edit;
pub mod load;
pub(crate) mod naming;
pub mod std_source;
mod subst;

use std::path::PathBuf;

pub use analysis::analyze;
pub use load::{LoadError, LoadOptions, Workspace};

/// What to check, beyond the directives in the code.
#[derive(Debug, Clone, Default)]
pub struct CheckConfig {
    /// Extra roots by path (`krate::m::f`), `*` matching any run of characters.
    pub roots: Vec<String>,
}

/// A place in a file of the workspace or of a dependency. Lines and columns are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// One step of a chain: `function` calls the next step at `location`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainStep {
    pub function: String,
    pub location: Option<Location>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// The line allocates, or calls something that does.
    Allocation,
}

impl FindingKind {
    pub fn code(self) -> &'static str {
        match self {
            FindingKind::Allocation => "allocation",
        }
    }
}

/// A line of the workspace that can allocate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    pub location: Location,
    /// The workspace function that holds the line.
    pub function: String,
    /// The roots that reach it.
    pub roots: Vec<String>,
    pub reasons: Vec<String>,
    /// From the callee named in the first reason down to the allocation.
    pub chain: Vec<ChainStep>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    MalformedDirective,
}

impl ErrorKind {
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::MalformedDirective => "malformed-directive",
        }
    }
}

/// A problem with the directives themselves; it fails the check like a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorFinding {
    pub kind: ErrorKind,
    pub location: Location,
    pub message: String,
}

/// What was checked for one root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootReport {
    pub function: String,
    pub location: Location,
    pub functions_checked: usize,
    pub findings: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timings {
    pub analysis_ms: u128,
    pub bodies_walked: usize,
}

/// The answer for a workspace.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    pub findings: Vec<Finding>,
    pub errors: Vec<ErrorFinding>,
    pub roots: Vec<RootReport>,
    pub functions_checked: usize,
    pub timings: Timings,
    /// Workspace files that do not parse: the analysis covers what does.
    pub files_with_syntax_errors: Vec<PathBuf>,
}
