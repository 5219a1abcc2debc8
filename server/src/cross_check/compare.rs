//! Root by root, the engine's verdict against the compiled program's: where they
//! agree, where the compiled program reaches the allocator from a root the engine
//! judged clean (explained by one of the engine's allowances the `Analysis` shows,
//! or not), and where the engine flags a root whose compiled code is clean. Plain
//! data in and out; `cli` prints it.

use crate::engine::{AllowEntry, Analysis, Location};
use crate::stdx::wildcard_match;

use super::reach::{CompiledReach, CompiledStep};

/// The compiled program's answer for a root, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compiled {
    Reached(CompiledReach),
    /// The harness could not name or build the root.
    Skipped(String),
}

/// How the two verdicts on one root relate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Both clean, or both allocate.
    Agree { allocates: bool },
    /// The engine judged the root clean and the compiled code reaches the allocator.
    /// `explained_by` names the engine's allowance the chain passes through; `None`
    /// is a failure of the check.
    CompiledAllocates { chain: Vec<CompiledStep>, explained_by: Option<Allowance> },
    /// The engine flags the root; the compiled code does not reach the allocator
    /// (optimised away, or the engine is imprecise). Not a failure.
    EngineOnly,
    /// Not compared.
    Skipped { reason: String },
}

/// An allowance of the analysis that a compiled chain passes through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allowance {
    /// A `// noalloc:exempt` comment at `location`.
    Exemption { location: Location, kind: String, reason: String },
    /// An allowlist line.
    Allowlist { kind: String, path: String },
    /// One of the engine's own rules (error path, first use, room, panic path) on a
    /// line the chain calls through.
    Rule { kind: crate::engine::AllowanceKind, location: Location, callee: String },
}

impl Allowance {
    /// How the allowance reads, with `show` printing the exemption's file.
    pub fn describe(&self, show: impl Fn(&std::path::Path) -> String) -> String {
        match self {
            Allowance::Exemption { location, kind, reason } => {
                format!("exemption at {}:{} ({kind}: {reason})", show(&location.file), location.line)
            }
            Allowance::Allowlist { kind, path } => format!("allowlist: {kind}: {path}"),
            Allowance::Rule { kind, location, callee } => {
                format!("{} at {}:{} (calls {callee})", kind.describe(), show(&location.file), location.line)
            }
        }
    }
}

/// One root's comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootComparison {
    pub root: String,
    pub location: Location,
    pub outcome: Outcome,
    /// Calls by pointer the compiled graph could match to no function.
    pub unmatched_pointer_calls: Vec<String>,
}

impl RootComparison {
    /// Whether this root fails the check.
    pub fn fails(&self) -> bool {
        matches!(self.outcome, Outcome::CompiledAllocates { explained_by: None, .. })
    }
}

/// Compares each root of `analysis` with its compiled answer (`compiled` holds one
/// per root, in the order of `analysis.roots`). `allow` is the allowlist the
/// analysis ran with.
pub fn compare(analysis: &Analysis, compiled: &[Compiled], allow: &[AllowEntry]) -> Vec<RootComparison> {
    analysis
        .roots
        .iter()
        .zip(compiled)
        .map(|(root, compiled)| {
            let engine_flags = root.findings > 0;
            let (outcome, unmatched_pointer_calls) = match compiled {
                Compiled::Skipped(reason) => (Outcome::Skipped { reason: reason.clone() }, Vec::new()),
                Compiled::Reached(reach) => {
                    let outcome = match (&reach.allocates, engine_flags) {
                        (Some(_), true) => Outcome::Agree { allocates: true },
                        (None, false) => Outcome::Agree { allocates: false },
                        (None, true) => Outcome::EngineOnly,
                        (Some(chain), false) => Outcome::CompiledAllocates {
                            chain: chain.clone(),
                            explained_by: explanation(analysis, allow, chain).or_else(|| rule_on_chain(root, chain)),
                        },
                    };
                    (outcome, reach.unmatched_pointer_calls.clone())
                }
            };
            RootComparison {
                root: root.function.clone(),
                location: root.location.clone(),
                outcome,
                unmatched_pointer_calls,
            }
        })
        .collect()
}

/// The allowance of the engine a compiled chain passes through, as far as the
/// `Analysis` shows them: an exemption whose line a call of the chain is on (read
/// from the line tables, so an inlined call still counts) or whose lets-through
/// names a function of the chain, or an allowlist line matching one.
fn explanation(analysis: &Analysis, allow: &[AllowEntry], chain: &[CompiledStep]) -> Option<Allowance> {
    let in_chain = |path: &str| chain.iter().any(|step| same_function(&step.function, path));
    let on_line = |file: &std::path::Path, line: u32| {
        chain.iter().flat_map(|step| &step.called_at).any(|(at_file, at_line)| *at_line == line && at_file == file)
    };
    for exemption in &analysis.exemptions {
        let on_its_line = on_line(&exemption.location.file, exemption.covered_line);
        if on_its_line || exemption.lets_through.iter().filter_map(|item| called_function(item)).any(in_chain) {
            return Some(Allowance::Exemption {
                location: exemption.location.clone(),
                kind: exemption.kind.clone(),
                reason: exemption.reason.clone(),
            });
        }
    }
    allow
        .iter()
        .find(|entry| chain.iter().any(|step| wildcard_match(&entry.path, &without_generics(&step.function))))
        .map(|entry| Allowance::Allowlist { kind: entry.kind.clone(), path: entry.path.clone() })
}

/// One of the engine's own allowances for `root` on a line the compiled chain calls
/// through (from the line tables, so inlined calls still count).
fn rule_on_chain(root: &crate::engine::RootReport, chain: &[CompiledStep]) -> Option<Allowance> {
    root.allowed
        .iter()
        .find(|allowed| {
            chain
                .iter()
                .flat_map(|step| &step.called_at)
                .any(|(file, line)| *line == allowed.location.line && *file == allowed.location.file)
        })
        .map(|allowed| Allowance::Rule {
            kind: allowed.kind,
            location: allowed.location.clone(),
            callee: allowed.callee.clone(),
        })
}

/// The function a lets-through line names: `calls X` or `calls X, which allocates`.
fn called_function(item: &str) -> Option<&str> {
    let rest = item.strip_prefix("calls ")?;
    Some(
        rest.split(", ")
            .next()
            .unwrap_or(rest)
            .trim_start_matches("the allocator ")
            .trim_start_matches("foreign function "),
    )
}

/// Whether a demangled compiled name and an engine path name the same function,
/// generic arguments aside.
fn same_function(compiled: &str, engine: &str) -> bool {
    let compiled = without_generics(compiled);
    let engine = without_generics(engine);
    compiled == engine || compiled.ends_with(&format!("::{engine}"))
}

/// `alloc::vec::Vec<u8>::push` and `alloc::vec::Vec::<u8>::push` as
/// `alloc::vec::Vec::push`; `<T as Trait>` stays.
fn without_generics(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0usize;
    for (at, c) in path.char_indices() {
        match c {
            // The `<` of a qualified path (`<T as Trait>::m`) is kept, with the
            // path's own text.
            '<' if at == 0 => out.push(c),
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.replace("::::", "::").trim_end_matches("::").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_arguments_do_not_stop_a_name_from_matching() {
        assert_eq!(without_generics("alloc::vec::Vec<u8>::push"), "alloc::vec::Vec::push");
        assert_eq!(without_generics("alloc::vec::Vec::<u8>::push"), "alloc::vec::Vec::push");
        assert_eq!(
            without_generics("<u32 as alloc::string::ToString>::to_string"),
            "<u32 as alloc::string::ToString>::to_string"
        );
        assert!(same_function("specifics::exemptions::log_line", "specifics::exemptions::log_line"));
        assert_eq!(
            called_function("calls specifics::exemptions::log_line, which allocates"),
            Some("specifics::exemptions::log_line")
        );
        assert!(wildcard_match("app::*::trace", "app::log::trace"));
        assert!(!wildcard_match("app::*::trace", "app::log::debug"));
    }
}
