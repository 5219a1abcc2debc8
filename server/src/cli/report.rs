//! What the checker prints, before it is printed: the findings the baseline does not
//! accept, the engine's error findings and the disagreements with the team's files
//! and the compiled program, as one `Report`. Owns no format; `render` and the
//! per-format modules print it.

use crate::adoption::Disagreement;
use crate::cross_check::{self, CrossCheck, Outcome};
use crate::engine::{self, AllowEntry, Analysis, Finding, Location};

/// What the checker prints: the findings the baseline does not accept, the error
/// findings, and where the team's files and the code disagree.
pub struct Report<'a> {
    pub analysis: &'a Analysis,
    pub findings: Vec<&'a Finding>,
    pub disagreements: Vec<Disagreement>,
    /// How many findings the baseline accepted; `None` without a baseline.
    pub baselined: Option<usize>,
    /// Lines of `--allow` files that no check used.
    pub unused_allow: Vec<&'a AllowEntry>,
    /// `--cross-check`: each root against the compiled program.
    pub cross_check: Option<&'a CrossCheck>,
}

impl<'a> Report<'a> {
    /// Everything the analysis found, with no adoption files.
    pub fn of(analysis: &'a Analysis) -> Report<'a> {
        Report {
            analysis,
            findings: analysis.findings.iter().collect(),
            disagreements: Vec::new(),
            baselined: None,
            unused_allow: Vec::new(),
            cross_check: None,
        }
    }

    /// Adds a cross-check: each root whose compiled code reaches the allocator
    /// unexplained becomes an error finding at the root.
    pub fn add_cross_check(&mut self, cross_checked: &'a CrossCheck) {
        for root in cross_checked.failures() {
            let Outcome::CompiledAllocates { chain, .. } = &root.outcome else { continue };
            self.disagreements.push(Disagreement {
                code: "cross-check",
                location: root.location.clone(),
                message: format!(
                    "cross-check: compiled code reaches the allocator: {}, which the analysis judged clean",
                    compiled_chain_text(chain)
                ),
                diff: Vec::new(),
                function: None,
            });
        }
        self.cross_check = Some(cross_checked);
    }

    /// Error findings of the engine, then disagreements, as one list.
    pub(super) fn errors(&self) -> Vec<ErrorLine<'_>> {
        let engine_errors = self.analysis.errors.iter().map(|error| ErrorLine {
            code: error.kind.code(),
            location: &error.location,
            message: &error.message,
            diff: &[],
            function: error.function.as_deref(),
            roots: &error.roots,
            panic: error.panic.as_ref(),
        });
        let disagreements = self.disagreements.iter().map(|d| ErrorLine {
            code: d.code,
            location: &d.location,
            message: &d.message,
            diff: &d.diff,
            function: d.function.as_deref(),
            roots: &[],
            panic: None,
        });
        engine_errors.chain(disagreements).collect()
    }
}

/// An error finding as printed, whichever part of the tool found it.
pub(super) struct ErrorLine<'a> {
    pub(super) code: &'static str,
    pub(super) location: &'a Location,
    pub(super) message: &'a str,
    pub(super) diff: &'a [String],
    pub(super) function: Option<&'a str>,
    pub(super) roots: &'a [String],
    /// An internal error's panic.
    pub(super) panic: Option<&'a engine::PanicReport>,
}

/// A compiled chain: `a > b > (by pointer) c > __rust_alloc`.
pub(super) fn compiled_chain_text(chain: &[cross_check::CompiledStep]) -> String {
    let steps: Vec<String> = chain
        .iter()
        .map(
            |step| if step.through_pointer { format!("(by pointer) {}", step.function) } else { step.function.clone() },
        )
        .collect();
    steps.join(" > ")
}
