//! The engine: which lines reachable from each `// noalloc:root` can allocate, why,
//! and through which chain of calls. Answers in plain data; knows nothing of LSP,
//! terminals or exit codes.

mod analysis;
#[cfg(test)]
mod layering;
pub mod load;
mod panics;
pub mod proof;
pub mod reuse;
pub mod source;

// What the front ends, tests and benchmarks reach by the engine's own paths.
pub use load::{deferred_intrinsics, expand_ahead, module_files, std_source};
pub use proof::{builtin, impls, incremental};
pub use reuse::{edit, edit_digest, stored_analysis, summary_cache};
pub use source::{directives, identity};

use std::path::PathBuf;

pub use analysis::{analyze, analyze_reusing_stored, analyze_watched, root_pattern_problems, Unwatched, Watch};
pub use load::{LoadError, LoadOptions, Workspace};
pub use panics::{note_panic_locations, CaughtPanic};
pub use reuse::root_reuse::RootMemos;
pub use reuse::stored_analysis::AnalysisStore;

/// What to check, beyond the directives in the code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CheckConfig {
    /// Extra roots by path (`krate::m::f`), `*` matching any run of characters.
    pub roots: Vec<String>,
    /// Where summaries of code outside the workspace are kept between runs; `None`
    /// works them out every time.
    pub cache_dir: Option<PathBuf>,
    /// Exemption kinds that cover only their line, not what it calls (`--line-only`).
    pub line_only: Vec<String>,
    /// Functions allowed to allocate: the built-in list, then `--allow FILE` lines.
    pub allow: Vec<AllowEntry>,
    /// Types whose fields are long-lived buffers (`--scratch path::Type`), as paths.
    pub scratch: Vec<String>,
    /// Cut only the call into the panic machinery, not what a panic path computes
    /// before it (`--strict-panics`, setting `strict-panics = true`).
    pub strict_panics: bool,
    /// Threads that resolve names, and whether a second core walks ahead of the
    /// first analysis of a load (`--jobs`); `None` uses every core this process
    /// may run on, up to 8.
    pub jobs: Option<std::num::NonZeroUsize>,
}

/// The allowlist kind of a growth function (`growth: smallvec::SmallVec::push`):
/// a call to it grows its receiver and is judged like `Vec::push`, not let through.
pub const GROWTH_KIND: &str = "growth";

/// One allowlist line: calls of functions matching `path` are not reported; for a
/// `growth` line, calls of them are judged as growth of their receiver.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AllowEntry {
    /// `amortized`, `measured`, `debug`, `profiling`, or `growth` (`GROWTH_KIND`).
    pub kind: String,
    /// A crate-qualified function path (`alloc::vec::Vec::push`); `*` matches any run
    /// of characters.
    pub path: String,
    pub source: AllowSource,
}

/// Where an allowlist line comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AllowSource {
    /// noalloc's own list; every entry says why.
    BuiltIn { reason: &'static str },
    /// A line of an `--allow` file (1-based).
    File { file: PathBuf, line: u32 },
}

impl CheckConfig {
    /// Fills what is unset from `[workspace.metadata.noalloc]` and
    /// `[package.metadata.noalloc]` of the workspace's Cargo.toml (`roots`,
    /// `line-only`, `scratch`). Settings given here (flags, editor settings) win.
    /// The adoption files (`allow`, `baseline`, `exemptions`) are read by
    /// `adoption::settings`.
    pub fn with_manifest(mut self, workspace_root: &std::path::Path) -> Result<CheckConfig, String> {
        let path = workspace_root.join("Cargo.toml");
        let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let manifest: toml::Table = text.parse().map_err(|err| format!("{}: {err}", path.display()))?;
        let tables = ["workspace", "package"]
            .into_iter()
            .filter_map(|section| manifest.get(section)?.get("metadata")?.get("noalloc")?.as_table());
        for table in tables {
            let strings = |key: &str| -> Result<Vec<String>, String> {
                match table.get(key) {
                    None => Ok(Vec::new()),
                    Some(toml::Value::Array(items)) => items
                        .iter()
                        .map(|item| item.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| format!("{}: metadata.noalloc.{key} must be a list of strings", path.display())),
                    Some(_) => Err(format!("{}: metadata.noalloc.{key} must be a list of strings", path.display())),
                }
            };
            if self.roots.is_empty() {
                self.roots = strings("roots")?;
            }
            if self.line_only.is_empty() {
                self.line_only = strings("line-only")?;
            }
            if self.scratch.is_empty() {
                self.scratch = strings("scratch")?;
            }
            match table.get("strict-panics") {
                None => {}
                Some(toml::Value::Boolean(on)) => self.strict_panics |= *on,
                Some(_) => {
                    return Err(format!("{}: metadata.noalloc.strict-panics must be true or false", path.display()))
                }
            }
        }
        Ok(self)
    }
}

/// What a panic caught outside any root's check said, and where (`panics`).
pub fn caught_panic(payload: Box<dyn std::any::Any + Send>) -> CaughtPanic {
    match panics::classify(payload) {
        panics::Unwound::Panicked(caught) => caught,
        panics::Unwound::PanicElsewhere => {
            CaughtPanic { message: "a query panicked on another thread".to_owned(), location: None }
        }
        panics::Unwound::Cancelled(_) => CaughtPanic { message: "cancelled".to_owned(), location: None },
    }
}

/// A thread that asks rust-analyzer, named `name`: macro expansion and inference
/// recurse deeply, so each gets 64 MiB of stack.
pub fn analysis_thread(name: &str) -> std::thread::Builder {
    std::thread::Builder::new().name(name.to_owned()).stack_size(64 << 20)
}

/// The user cache directory for summaries: `NOALLOC_CACHE_DIR`, else the
/// platform's cache directory (`~/.cache/noalloc` on Linux).
pub fn default_cache_dir() -> Option<PathBuf> {
    match std::env::var_os("NOALLOC_CACHE_DIR") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => dirs::cache_dir().map(|dir| dir.join("noalloc")),
    }
}

/// A place in a file of the workspace or of a dependency. Lines and columns are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Location {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// One step of a chain: `function` calls the next step at `location`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChainStep {
    pub function: String,
    pub location: Option<Location>,
    /// A function a user can call by a path its crate exports (`Vec::with_capacity`),
    /// not an internal one (`RawVec::try_allocate_in`).
    pub exported: bool,
}

/// The first thing in a chain that allocates, as a user would name it: the deepest
/// exported function below the callee, short of the allocator's own API
/// (`alloc::alloc::alloc`, `Global`'s `Allocator` impl). `None` when that is the
/// callee itself.
pub(crate) fn first_allocating(chain: &[ChainStep]) -> Option<String> {
    let allocator_api = |name: &str| {
        ["alloc::alloc::", "core::alloc::", "std::alloc::"].iter().any(|prefix| name.starts_with(prefix))
            || name.contains("Allocator>::")
    };
    chain
        .iter()
        .skip(1)
        .rev()
        .find(|step| step.exported && !allocator_api(&step.function))
        .map(|step| step.function.clone())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FindingKind {
    /// The line allocates, or calls something that does.
    Allocation,
    /// The line grows a long-lived buffer (`self.buf.push(..)`) where no comparison
    /// proves room: it reallocates when the buffer is full.
    MayGrow,
    /// An error that allocates is built, then swallowed where the code can run again
    /// within the root's call (a loop, an iterator adapter, a closure).
    SwallowedError,
}

impl FindingKind {
    pub const ALL: [FindingKind; 3] = [FindingKind::Allocation, FindingKind::MayGrow, FindingKind::SwallowedError];

    pub fn code(self) -> &'static str {
        match self {
            FindingKind::Allocation => "allocation",
            FindingKind::MayGrow => "may-grow",
            FindingKind::SwallowedError => "swallowed-error",
        }
    }
}

/// A line of the workspace that can allocate.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The first thing in the chain that allocates, as a user names it
    /// (`alloc::string::String::with_capacity` under `alloc::fmt::format`).
    pub allocates_in: Option<String>,
    /// For `MayGrow`: the buffer as written (`self.buf`), and where its growth is.
    pub buffer: Option<String>,
    /// The line is a dependency's (a `--root` on a dependency): not the user's
    /// source to change or exempt.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_dependency: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ErrorKind {
    MalformedDirective,
    /// An exemption on a reached line that lets nothing through.
    UnusedExemption,
    /// Checking a root panicked (in noalloc or in rust-analyzer): that root has no
    /// verdict; the others were checked.
    InternalError,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 3] =
        [ErrorKind::MalformedDirective, ErrorKind::UnusedExemption, ErrorKind::InternalError];

    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::MalformedDirective => "malformed-directive",
            ErrorKind::UnusedExemption => "unused-exemption",
            ErrorKind::InternalError => "internal-error",
        }
    }
}

/// An exemption as written, and what it lets through.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ExemptionReport {
    /// Where the comment is.
    pub location: Location,
    /// The line it covers (1-based).
    pub covered_line: u32,
    pub kind: String,
    pub reason: String,
    /// Covers only its line, not what the line calls (`--line-only KIND`).
    pub line_only: bool,
    /// The allocations it lets through, as findings would name them.
    pub lets_through: Vec<String>,
}

/// A problem with the directives themselves; it fails the check like a finding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ErrorFinding {
    pub kind: ErrorKind,
    pub location: Location,
    pub message: String,
    /// The workspace function the error stands in, if any.
    pub function: Option<String>,
    /// The roots that reach that function.
    pub roots: Vec<String>,
    /// For an internal error: the panic's message and where it was raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panic: Option<PanicReport>,
}

/// A panic caught while checking a root, as an internal error reports it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PanicReport {
    pub message: String,
    /// `file:line:column` of the panic, when known.
    pub location: Option<String>,
}

/// What was checked for one root.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RootReport {
    pub function: String,
    pub location: Location,
    pub functions_checked: usize,
    pub findings: usize,
    /// The workspace lines where an allowance of the engine let a call through for
    /// this root (what `--cross-check` holds compiled chains against).
    pub allowed: Vec<AllowedCall>,
}

/// A call the engine's rules allowed, at a workspace line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AllowedCall {
    pub kind: AllowanceKind,
    pub location: Location,
    /// What the line calls, as findings name it.
    pub callee: String,
    /// For growth with room: the proof that covered it, and what it used.
    #[serde(default)]
    pub room: Option<RoomUse>,
    /// For first-use setup under a guard, of a call that may allocate: the place
    /// the guard finds empty, and where the guard is.
    #[serde(default)]
    pub guard: Option<FirstUseGuard>,
}

/// The test that let a first-use setup through (`--report`): the place it finds
/// empty (`STATE`, `self.table`), as the source names it, and where it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FirstUseGuard {
    pub place: String,
    pub at: Location,
}

/// The comparison that let a growth through (`--report`), so that a reviewer can
/// check the arithmetic: the room it proves, where, and what the growth appends.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoomUse {
    /// The room proven, as the source spells it (`payload.len() + 4`).
    pub room: String,
    /// Where the comparison is.
    pub proven_at: Location,
    /// Inside a loop of a bounded number of passes: the room each pass may use,
    /// and where the loop is.
    pub each_pass: Option<(String, Location)>,
    /// What the growth appends (`4`, `payload.len()`).
    pub appends: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AllowanceKind {
    /// Building an error that ends the root's call, or dropping one once per call.
    ErrorPath,
    /// First-use setup (a fill, a lazy cell).
    FirstUse,
    /// Growth that a comparison proves has room, or in a `noalloc:fixed` type or a
    /// `noalloc:append` function.
    Room,
    /// A panic path.
    PanicPath,
}

impl AllowanceKind {
    pub fn describe(self) -> &'static str {
        match self {
            AllowanceKind::ErrorPath => "error path",
            AllowanceKind::FirstUse => "first-use setup",
            AllowanceKind::Room => "growth with room",
            AllowanceKind::PanicPath => "panic path",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Timings {
    pub analysis_ms: u128,
    /// Building the roots' reaches: walking bodies, inference included.
    pub reach_ms: u128,
    /// rust-analyzer's type inference of the bodies walked (part of `reach_ms`), on
    /// the analysis's thread.
    pub inference_ms: u128,
    /// rust-analyzer's name resolution of the workspace's crates and what they
    /// import (std's included): its def maps.
    pub name_resolution_ms: u128,
    /// Finding the roots: parsing every workspace file for directives.
    pub roots_ms: u128,
    /// Allowances, callbacks and verdicts.
    pub judge_ms: u128,
    /// Storing the summaries of closed instances.
    pub summaries_ms: u128,
    pub bodies_walked: usize,
    /// Instances outside the workspace answered from the on-disk summaries.
    pub cache_hits: usize,
    /// Summaries in the cache file after the run.
    pub cache_entries: usize,
    /// Nothing the analysis reads changed since a run stored it: it was read back
    /// (`stored_analysis`), not worked out.
    pub reused: bool,
    /// Hashing what the analysis reads, to find a stored one.
    pub fingerprint_ms: u128,
    /// With `reused`: the files edited since the analysis was stored, in nothing it
    /// read (`edit_digest`).
    #[serde(default)]
    pub edited_files_unread: usize,
    /// Roots whose outcome in the last analysis of a live workspace still held, and
    /// was reused (`root_reuse`).
    #[serde(default)]
    pub roots_reused: usize,
    /// Of those, the roots reused without asking their walks again: the edits
    /// since touched only functions no other code names (`item_edits`).
    #[serde(default)]
    pub roots_reused_unasked: usize,
    /// Roots whose outcome in the stored analysis no edit since could change
    /// (`stored_roots`), of `roots_stored`; the edits were in `stored_edited_files`
    /// files.
    #[serde(default)]
    pub roots_reused_stored: usize,
    #[serde(default)]
    pub roots_stored: usize,
    #[serde(default)]
    pub stored_edited_files: usize,
    /// Roots a second core reached from the far end of the order while this
    /// analysis reached the others (`walk_ahead`; the first analysis of a load).
    #[serde(default)]
    pub roots_walked_ahead: usize,
    /// The roots that took longest to check (at most `COSTLIEST_ROOTS`, longest
    /// first), with how many functions each reached: where the time of a check
    /// goes.
    #[serde(default)]
    pub costliest_roots: Vec<RootCost>,
}

/// How many roots `Timings::costliest_roots` names.
pub const COSTLIEST_ROOTS: usize = 10;

/// What checking one root cost.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RootCost {
    pub root: String,
    /// The functions its reach holds (over every instantiation).
    pub functions: usize,
    pub ms: u128,
}

/// The answer for a workspace.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Analysis {
    pub findings: Vec<Finding>,
    pub errors: Vec<ErrorFinding>,
    pub roots: Vec<RootReport>,
    pub exemptions: Vec<ExemptionReport>,
    pub functions_checked: usize,
    pub timings: Timings,
    /// Workspace files that do not parse: the analysis covers what does.
    pub files_with_syntax_errors: Vec<PathBuf>,
    /// Indexes into `CheckConfig::allow` of the lines no check used.
    pub unused_allow: Vec<usize>,
    /// `--root` patterns (or `roots = [..]` settings) that match no function: the
    /// check cannot run as asked.
    pub unmatched_root_patterns: Vec<String>,
    /// `--root` patterns whose generic arguments cannot be read, as whole messages.
    pub bad_root_arguments: Vec<String>,
    /// Where the workspace functions are whose bodies the roots' reaches walked
    /// (whole items, as the source has them): what of the workspace's bodies the
    /// analysis read (`edit_digest`). `None` when some roots' outcomes were reused
    /// rather than walked.
    #[serde(default)]
    pub walked_workspace_code: Option<Vec<Location>>,
    /// Those of them whose bodies hold items, their macros' expansions included:
    /// an edit of their macro calls may change the item level.
    #[serde(default)]
    pub walked_making_items: Vec<Location>,
    /// What bodies must do to add an instantiation of a generic root checked at
    /// the instantiations the workspace makes.
    #[serde(default)]
    pub root_instantiations: RootInstantiations,
    /// Each root's outcome, for a run after edits of bodies some roots read to
    /// keep the others' (`stored_roots`); a root whose outcome cannot be kept is
    /// left out. `None` when some roots' outcomes were reused from a live
    /// workspace's memory, or there is no cache to keep them in.
    #[serde(default)]
    pub stored_roots: Option<Vec<reuse::stored_roots::StoredRoot>>,
}

/// Whether the workspace's bodies instantiate generic roots, and how a body must
/// name one to (`instantiations::instantiations`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RootInstantiations {
    /// No root is checked at the instantiations bodies make.
    #[default]
    NotFromBodies,
    /// By one of these names (the roots' names and what they are imported as).
    Named(Vec<String>),
    /// Some root may be instantiated without being named (an operator's method):
    /// any body counts.
    AnyBody,
}

impl RootInstantiations {
    /// One more root checked at the instantiations bodies make, which they must
    /// name by one of `names` (`None`: they need not name it).
    pub(crate) fn add(&mut self, names: Option<Vec<String>>) {
        *self = match (std::mem::take(self), names) {
            (RootInstantiations::AnyBody, _) | (_, None) => RootInstantiations::AnyBody,
            (RootInstantiations::NotFromBodies, Some(names)) => RootInstantiations::Named(names),
            (RootInstantiations::Named(mut before), Some(names)) => {
                before.extend(names.into_iter().filter(|name| !before.contains(name)).collect::<Vec<_>>());
                RootInstantiations::Named(before)
            }
        };
    }
}

/// `--root` patterns a check refuses to run with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RootPatternProblems {
    /// Patterns that match no function of the workspace or of a crate it depends on.
    pub unmatched: Vec<String>,
    /// Whole messages for patterns whose generic arguments cannot be read.
    pub bad_arguments: Vec<String>,
}
