//! `--message-format sarif`: the findings as one SARIF 2.1.0 log, for code scanning
//! (GitHub's `upload-sarif`, GitLab, Azure DevOps). One result per finding or error,
//! its rule the finding code (with the code's explanation and README link), the
//! chain of calls as a `codeFlow`, the roots that reach it as `relatedLocations`.

use std::path::Path;

use serde_json::{json, Value};

use super::explain;
use super::render::{help_for, Paths};
use super::report::{ErrorLine, Report};
use crate::engine::{Finding, FindingKind, Location};
use crate::uri::file_uri;

/// The base the workspace's files are relative to.
const SRCROOT: &str = "%SRCROOT%";

pub(super) fn render(paths: &Paths<'_>, report: &Report<'_>) -> String {
    let codes = explain::codes();
    let rule_index = |code: &str| codes.iter().position(|(known, _)| *known == code);
    let rules: Vec<Value> = codes.iter().map(|(code, text)| rule(code, text)).collect();
    let mut results: Vec<Value> =
        report.errors().iter().map(|error| error_result(paths, error, rule_index(error.code))).collect();
    results.extend(
        report.findings.iter().map(|finding| finding_result(paths, report, finding, rule_index(finding.kind.code()))),
    );
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "noalloc",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": explain::readme_url(),
                    "rules": rules,
                }
            },
            "originalUriBaseIds": {
                SRCROOT: { "uri": format!("{}/", file_uri(paths.root)) }
            },
            "results": results,
        }]
    });
    let mut out = serde_json::to_string_pretty(&log).expect("a JSON value prints");
    out.push('\n');
    out
}

fn rule(code: &str, text: &str) -> Value {
    let first_sentence = text.split(". ").next().unwrap_or(text).trim_end_matches('.');
    let is_error = !FindingKind::ALL.iter().any(|kind| kind.code() == code);
    json!({
        "id": code,
        "shortDescription": { "text": format!("{}.", first_sentence.replace('\n', " ")) },
        "fullDescription": { "text": text.replace('\n', " ") },
        "help": { "text": text, "markdown": text },
        "helpUri": explain::readme_link(code),
        "defaultConfiguration": { "level": if is_error { "error" } else { "warning" } },
    })
}

fn finding_result(paths: &Paths<'_>, report: &Report<'_>, finding: &Finding, rule_index: Option<usize>) -> Value {
    let title = match finding.kind {
        FindingKind::MayGrow => {
            format!("`{}` can allocate when full: {}", finding.function, finding.reasons.join("; "))
        }
        _ => format!("`{}` can allocate: {}", finding.function, finding.reasons.join("; ")),
    };
    let roots: Vec<Value> = finding
        .roots
        .iter()
        .filter_map(|root| report.analysis.roots.iter().find(|known| known.function == *root))
        .enumerate()
        .map(|(id, root)| {
            let mut location = location(paths, &root.location);
            location["id"] = json!(id);
            location["message"] = json!({ "text": format!("root `{}`", root.function) });
            location
        })
        .collect();
    let mut steps = vec![json!({
        "location": with_message(location(paths, &finding.location), &format!("in `{}`: {}", finding.function, finding.reasons.first().map_or("", String::as_str))),
    })];
    steps.extend(finding.chain.windows(2).map(|pair| {
        let text = format!("`{}` calls `{}`", pair[0].function, pair[1].function);
        let at = match &pair[0].location {
            Some(at) => location(paths, at),
            None => json!({}),
        };
        json!({ "location": with_message(at, &text) })
    }));
    let mut result = json!({
        "ruleId": finding.kind.code(),
        "level": "warning",
        "message": { "text": format!("{title}. Help: {}", help_for(finding)) },
        "locations": [with_function(location(paths, &finding.location), &finding.function)],
        "relatedLocations": roots,
        "codeFlows": [{ "threadFlows": [{ "locations": steps }] }],
    });
    if let Some(index) = rule_index {
        result["ruleIndex"] = json!(index);
    }
    result
}

fn error_result(paths: &Paths<'_>, error: &ErrorLine<'_>, rule_index: Option<usize>) -> Value {
    let mut text = error.message.to_owned();
    for line in error.diff {
        text.push('\n');
        text.push_str(line);
    }
    let mut result = json!({
        "ruleId": error.code,
        "level": "error",
        "message": { "text": text },
        "locations": [location(paths, error.location)],
    });
    if let Some(index) = rule_index {
        result["ruleIndex"] = json!(index);
    }
    result
}

/// A SARIF `location`: the file (relative to the workspace when inside it) and region.
fn location(paths: &Paths<'_>, at: &Location) -> Value {
    let artifact = match at.file.strip_prefix(paths.root) {
        Ok(relative) => json!({ "uri": relative_uri(relative), "uriBaseId": SRCROOT }),
        Err(_) => json!({ "uri": file_uri(&at.file) }),
    };
    let mut region = json!({ "startLine": at.line.max(1), "startColumn": at.column.max(1) });
    if at.end_line >= at.line && at.end_line > 0 {
        region["endLine"] = json!(at.end_line);
        if at.end_column > 0 && (at.end_line > at.line || at.end_column >= at.column) {
            region["endColumn"] = json!(at.end_column);
        }
    }
    json!({ "physicalLocation": { "artifactLocation": artifact, "region": region } })
}

fn with_message(mut location: Value, text: &str) -> Value {
    location["message"] = json!({ "text": text });
    location
}

fn with_function(mut location: Value, function: &str) -> Value {
    location["logicalLocations"] = json!([{ "fullyQualifiedName": function, "kind": "function" }]);
    location
}

/// A relative path as a URI reference: `file_uri`'s encoding without its scheme.
fn relative_uri(path: &Path) -> String {
    file_uri(path).trim_start_matches("file://").to_owned()
}
