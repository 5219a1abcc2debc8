//! `--message-format noalloc-json` (the bare `json` of `noalloc-ls --check`):
//! noalloc's own JSON lines, one object a line (errors, findings with their chains,
//! cross-checked roots), then a summary line. cargo's stream (`cargo-json`, the bare
//! `json` of `cargo noalloc`) is `cargo_json`'s.

use serde_json::json;

use super::render::Paths;
use super::report::{ErrorLine, Report};
use crate::cross_check::{self, Outcome};
use crate::engine::{Finding, Location};

/// One JSON object a line: errors, findings, cross-checked roots, then a summary.
pub(super) fn render(paths: &Paths<'_>, report: &Report<'_>, elapsed_ms: u128) -> String {
    let analysis = report.analysis;
    let mut out = String::new();
    let errors = report.errors();
    for error in &errors {
        out.push_str(&error_json(paths, error).to_string());
        out.push('\n');
    }
    for finding in &report.findings {
        out.push_str(&finding_json(paths, finding).to_string());
        out.push('\n');
    }
    for root in report.cross_check.iter().flat_map(|cross_checked| &cross_checked.roots) {
        out.push_str(&cross_check_json(paths, root).to_string());
        out.push('\n');
    }
    let summary = json!({
        "kind": "summary",
        "roots": analysis.roots.len(),
        "findings": report.findings.len(),
        "errors": errors.len(),
        "internal_errors": errors.iter().filter(|error| error.panic.is_some()).count(),
        "baselined": report.baselined.unwrap_or(0),
        "functions_checked": analysis.functions_checked,
        "elapsed_ms": elapsed_ms,
    });
    out.push_str(&summary.to_string());
    out.push('\n');
    out
}

fn location_json(paths: &Paths<'_>, location: &Location) -> serde_json::Value {
    json!({"file": paths.show(&location.file), "line": location.line, "column": location.column})
}

fn finding_json(paths: &Paths<'_>, finding: &Finding) -> serde_json::Value {
    let chain: Vec<_> = finding
        .chain
        .iter()
        .map(|step| match &step.location {
            Some(loc) => json!({"function": step.function, "file": paths.show(&loc.file), "line": loc.line}),
            None => json!({"function": step.function}),
        })
        .collect();
    json!({
        "kind": "finding",
        "code": finding.kind.code(),
        "file": paths.show(&finding.location.file),
        "line": finding.location.line,
        "column": finding.location.column,
        "function": finding.function,
        "roots": finding.roots,
        "reasons": finding.reasons,
        "allocates_in": finding.allocates_in,
        "chain": chain,
    })
}

fn error_json(paths: &Paths<'_>, error: &ErrorLine<'_>) -> serde_json::Value {
    let mut value = location_json(paths, error.location);
    value["kind"] = json!("error");
    value["code"] = json!(error.code);
    value["message"] = json!(error.message);
    value["function"] = json!(error.function);
    value["roots"] = json!(error.roots);
    if !error.diff.is_empty() {
        value["diff"] = json!(error.diff);
    }
    if let Some(panic) = error.panic {
        value["panic"] = json!({"message": panic.message, "location": panic.location});
    }
    value
}

fn cross_check_json(paths: &Paths<'_>, root: &cross_check::RootComparison) -> serde_json::Value {
    let mut value = location_json(paths, &root.location);
    value["kind"] = json!("cross-check");
    value["root"] = json!(root.root);
    let chain_json = |chain: &[cross_check::CompiledStep]| -> Vec<serde_json::Value> {
        chain
            .iter()
            .map(|step| {
                let at: Vec<_> =
                    step.called_at.iter().map(|(file, line)| json!({"file": paths.show(file), "line": line})).collect();
                json!({"function": step.function, "by_pointer": step.through_pointer, "called_at": at})
            })
            .collect()
    };
    match &root.outcome {
        Outcome::Agree { allocates } => {
            value["outcome"] = json!(if *allocates { "agree-allocates" } else { "agree-clean" });
        }
        Outcome::CompiledAllocates { chain, explained_by } => {
            value["outcome"] =
                json!(if explained_by.is_some() { "compiled-allocates-allowed" } else { "compiled-allocates" });
            value["chain"] = json!(chain_json(chain));
            if let Some(allowance) = explained_by {
                value["allowed_by"] = json!(allowance.describe(|file| paths.show(file)));
            }
        }
        Outcome::EngineOnly => value["outcome"] = json!("flagged-compiled-clean"),
        Outcome::Skipped { reason } => {
            value["outcome"] = json!("not-compared");
            value["reason"] = json!(reason);
        }
    }
    value["unmatched_pointer_calls"] = json!(root.unmatched_pointer_calls);
    value
}
