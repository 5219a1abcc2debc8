//! The team's adoption files in the editor: the baseline and the exemptions list
//! that CI checks against (from the settings or Cargo.toml), applied to the
//! diagnostics so that the squiggles match what CI fails on. Baselined findings
//! become hints (or are hidden: `baselined = "hide"`); a stale baseline entry, a
//! difference from the exemptions list and an unreadable file become errors on
//! that file. Compares through `crate::adoption`, as the checker does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use super::settings::{BaselinedFindings, Settings};
use super::to_proto::{self, Texts};
use crate::adoption::baseline::{self, Baseline};
use crate::adoption::exemptions_file::{self, ExemptionsList};
use crate::adoption::settings::AdoptionFiles;
use crate::adoption::{Disagreement, FileError, SourceLines};
use crate::engine::{Analysis, Location};

/// Weighs `diagnostics` (as `to_proto::diagnostics` made them from `analysis`:
/// each file's findings first, in the analysis's order) against the baseline and
/// exemptions list configured for the workspace at `root`.
pub fn apply(
    root: &Path,
    settings: &Settings,
    analysis: &Analysis,
    diagnostics: &mut BTreeMap<PathBuf, Vec<Diagnostic>>,
    texts: &mut Texts<'_>,
) {
    let files = AdoptionFiles {
        baseline: settings.baseline.as_ref().map(|file| root.join(file)),
        exemptions: settings.exemptions.as_ref().map(|file| root.join(file)),
        ..AdoptionFiles::default()
    }
    .with_manifest(root);
    let files = match files {
        Ok(files) => files,
        Err(message) => {
            tracing::warn!("adoption files: {message}");
            return;
        }
    };
    let mut problems: Vec<Disagreement> = Vec::new();
    if let Some(path) = &files.baseline {
        match Baseline::read(path) {
            Ok(recorded) => {
                let mut lines = SourceLines::default();
                let current: Vec<baseline::Entry> =
                    analysis.findings.iter().map(|finding| baseline::Entry::of(root, finding, &mut lines)).collect();
                let comparison = baseline::compare(&recorded, &current);
                mark_baselined(analysis, &comparison.listed, settings.baselined, diagnostics);
                problems.extend(comparison.stale);
            }
            Err(error) => problems.push(unreadable(error)),
        }
    }
    if let Some(path) = &files.exemptions {
        match ExemptionsList::read(path) {
            Ok(list) => problems.extend(exemptions_file::compare(&list, root, &analysis.exemptions)),
            Err(error) => problems.push(unreadable(error)),
        }
    }
    for problem in problems {
        let mut message = problem.message;
        for line in &problem.diff {
            message.push('\n');
            message.push_str(line);
        }
        diagnostics.entry(problem.location.file.clone()).or_default().push(Diagnostic {
            range: texts.range(&problem.location),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(problem.code.to_owned())),
            source: Some(to_proto::SOURCE.to_owned()),
            message,
            ..Diagnostic::default()
        });
    }
}

/// Baselined findings' diagnostics as hints, or gone.
fn mark_baselined(
    analysis: &Analysis,
    listed: &[bool],
    shown_as: BaselinedFindings,
    diagnostics: &mut BTreeMap<PathBuf, Vec<Diagnostic>>,
) {
    let mut next_in_file: BTreeMap<&Path, usize> = BTreeMap::new();
    let mut hidden: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (finding, &is_listed) in analysis.findings.iter().zip(listed) {
        let file = finding.location.file.as_path();
        let index = *next_in_file.entry(file).and_modify(|i| *i += 1).or_insert(0);
        if !is_listed {
            continue;
        }
        let Some(diagnostic) = diagnostics.get_mut(file).and_then(|ds| ds.get_mut(index)) else { continue };
        if diagnostic.message != to_proto::finding_message(finding) {
            tracing::error!("diagnostics out of step with findings in {}", file.display());
            continue;
        }
        match shown_as {
            BaselinedFindings::Hint => {
                diagnostic.severity = Some(DiagnosticSeverity::HINT);
                diagnostic.message.push_str(" (in the baseline)");
            }
            BaselinedFindings::Hide => hidden.entry(file.to_path_buf()).or_default().push(index),
        }
    }
    for (file, indexes) in hidden {
        if let Some(list) = diagnostics.get_mut(&file) {
            for index in indexes.into_iter().rev() {
                list.remove(index);
            }
        }
    }
}

/// A baseline or exemptions list that cannot be read, as an error on it.
fn unreadable(error: FileError) -> Disagreement {
    let line = error.line.unwrap_or(1);
    Disagreement {
        code: "unreadable-file",
        location: Location { file: error.file.clone(), line, column: 1, end_line: line, end_column: 1 },
        message: error.message,
        diff: Vec::new(),
        function: None,
    }
}
