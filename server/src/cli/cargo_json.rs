//! `--message-format cargo-json` (the bare `json` of `cargo noalloc`): cargo's own
//! JSON stream, as `cargo check --message-format json` prints it, so that rust-analyzer's
//! `check.overrideCommand`, bacon, cargo-watch and editors' problem matchers show
//! noalloc's findings as they show rustc's and clippy's. One `compiler-message`
//! per error finding and finding, carrying rustc's diagnostic schema (`spans`,
//! `children`, `rendered`, `code` `noalloc::<code>` as clippy's are
//! `clippy::<lint>`), then `build-finished`. Owns the mapping to that schema only.

use std::path::Path;

use super::cargo_packages::{place_of, CargoPackage, CargoTargetJson};
use super::render::{help_for, Paths};
use super::report::{ErrorLine, Report};
use super::{explain, human, RenderOptions};
use crate::engine::{Finding, Location};
use annotate_snippets::Renderer;

/// cargo's `compiler-message`, its fields in cargo's order.
#[derive(serde::Serialize)]
struct CompilerMessage<'a> {
    reason: &'static str,
    package_id: &'a str,
    manifest_path: &'a Path,
    target: &'a CargoTargetJson,
    message: Diagnostic,
}

/// rustc's diagnostic (`--error-format json`), its fields in rustc's order.
#[derive(serde::Serialize)]
struct Diagnostic {
    #[serde(rename = "$message_type")]
    message_type: &'static str,
    message: String,
    code: Option<DiagnosticCode>,
    level: &'static str,
    spans: Vec<DiagnosticSpan>,
    children: Vec<Diagnostic>,
    rendered: Option<String>,
}

#[derive(serde::Serialize)]
struct DiagnosticCode {
    code: String,
    explanation: Option<&'static str>,
}

#[derive(serde::Serialize)]
struct DiagnosticSpan {
    file_name: String,
    byte_start: usize,
    byte_end: usize,
    line_start: u32,
    line_end: u32,
    column_start: usize,
    column_end: usize,
    is_primary: bool,
    text: Vec<DiagnosticSpanLine>,
    label: Option<String>,
    suggested_replacement: Option<String>,
    suggestion_applicability: Option<String>,
    expansion: Option<()>,
}

#[derive(serde::Serialize)]
struct DiagnosticSpanLine {
    text: String,
    highlight_start: usize,
    highlight_end: usize,
}

/// The stream: a `compiler-message` line per error finding and finding, then
/// `{"reason":"build-finished","success":..}`. A file in no package of
/// `packages` (or no packages at all: cargo could not list them) gets a bare
/// rustc diagnostic line, which cargo's readers take too.
pub(super) fn render(
    paths: &Paths<'_>,
    report: &Report<'_>,
    packages: &[CargoPackage],
    options: &RenderOptions,
) -> String {
    // rustc's `rendered` has no colour unless asked for
    // (`--message-format json-diagnostic-rendered-ansi`).
    let renderer = Renderer::plain();
    let mut out = String::new();
    let errors = report.errors();
    for error in &errors {
        let diagnostic = error_diagnostic(paths, error, &renderer);
        out.push_str(&message_line(packages, &error.location.file, diagnostic));
    }
    for finding in &report.findings {
        let diagnostic = finding_diagnostic(paths, report, finding, options, &renderer);
        out.push_str(&message_line(packages, &finding.location.file, diagnostic));
    }
    let success = errors.is_empty() && report.findings.is_empty();
    out.push_str(&format!("{{\"reason\":\"build-finished\",\"success\":{success}}}\n"));
    out
}

/// cargo's `compiler-message` line for a diagnostic in `file`, or the bare diagnostic's.
fn message_line(packages: &[CargoPackage], file: &Path, diagnostic: Diagnostic) -> String {
    let mut line = match place_of(packages, file) {
        Some(place) => serde_json::to_string(&CompilerMessage {
            reason: "compiler-message",
            package_id: &place.package.id,
            manifest_path: &place.package.manifest_path,
            target: &place.target.json,
            message: diagnostic,
        }),
        None => serde_json::to_string(&diagnostic),
    }
    .expect("a diagnostic prints as JSON");
    line.push('\n');
    line
}

fn finding_diagnostic(
    paths: &Paths<'_>,
    report: &Report<'_>,
    finding: &Finding,
    options: &RenderOptions,
    renderer: &Renderer,
) -> Diagnostic {
    let code = finding.kind.code();
    let label = finding.reasons.first().cloned();
    let mut spans = vec![span(paths, &finding.location, true, label)];
    // The roots that reach it, where they are, as rustc's secondary spans.
    for root in report.analysis.roots.iter().filter(|root| finding.roots.contains(&root.function)) {
        spans.push(span(paths, &root.location, false, Some(format!("root `{}` reaches it", root.function))));
    }
    let mut children = vec![child("note", human::roots_note(finding))];
    if let Some(first) = &finding.allocates_in {
        children.push(child("note", format!("first allocates in {first}")));
    }
    let chain = human::chain_text(paths, finding);
    if options.report && !chain.is_empty() {
        children.push(child("note", chain));
    }
    children.push(child("help", help_for(finding).to_owned()));
    Diagnostic {
        message_type: "diagnostic",
        message: human::finding_title(finding),
        code: Some(DiagnosticCode { code: format!("noalloc::{code}"), explanation: explain::explanation(code) }),
        level: "error",
        spans,
        children,
        rendered: Some(human::finding_text(paths, finding, options, renderer) + "\n"),
    }
}

fn error_diagnostic(paths: &Paths<'_>, error: &ErrorLine<'_>, renderer: &Renderer) -> Diagnostic {
    Diagnostic {
        message_type: "diagnostic",
        message: error.message.to_owned(),
        code: Some(DiagnosticCode {
            code: format!("noalloc::{}", error.code),
            explanation: explain::explanation(error.code),
        }),
        level: "error",
        spans: vec![span(paths, error.location, true, None)],
        children: error.diff.iter().map(|line| child("note", line.clone())).collect(),
        rendered: Some(human::error_text(paths, error, renderer)),
    }
}

/// A `note:` or `help:` child without a span.
fn child(level: &'static str, message: String) -> Diagnostic {
    Diagnostic {
        message_type: "diagnostic",
        message,
        code: None,
        level,
        spans: Vec::new(),
        children: Vec::new(),
        rendered: None,
    }
}

/// rustc's span of a location: the file relative to the workspace root (as cargo
/// has rustc print the workspace's files), byte offsets into the file, 1-based
/// lines, 1-based columns in characters (the engine's are in bytes), and the lines
/// it covers with their highlights.
fn span(paths: &Paths<'_>, location: &Location, is_primary: bool, label: Option<String>) -> DiagnosticSpan {
    let source = std::fs::read_to_string(&location.file).unwrap_or_default();
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let line_start_byte =
        |line: u32| -> usize { lines.iter().take(line.saturating_sub(1) as usize).map(|text| text.len()).sum() };
    let text_of = |line: u32| -> &str {
        lines.get(line.saturating_sub(1) as usize).map_or("", |text| text.trim_end_matches(['\n', '\r']))
    };
    // A byte column as rustc's character column (1-based), within the line's text.
    let char_column = |line: u32, byte_column: u32| -> usize {
        let text = text_of(line);
        let mut bytes = (byte_column.saturating_sub(1) as usize).min(text.len());
        while !text.is_char_boundary(bytes) {
            bytes -= 1;
        }
        text[..bytes].chars().count() + 1
    };
    let (line_start, line_end) = (location.line.max(1), location.end_line.max(location.line).max(1));
    let end_column = if location.end_line < location.line { location.column } else { location.end_column };
    let (column_start, column_end) = (char_column(line_start, location.column), char_column(line_end, end_column));
    let byte_start = line_start_byte(line_start) + location.column.saturating_sub(1) as usize;
    let byte_end = line_start_byte(line_end) + end_column.saturating_sub(1) as usize;
    let text = (line_start..=line_end)
        .map(|line| DiagnosticSpanLine {
            text: text_of(line).to_owned(),
            highlight_start: if line == line_start { column_start } else { 1 },
            highlight_end: if line == line_end { column_end } else { text_of(line).chars().count() + 1 },
        })
        .collect();
    DiagnosticSpan {
        file_name: paths.show(&location.file),
        byte_start,
        byte_end: byte_end.max(byte_start),
        line_start,
        line_end,
        column_start,
        column_end,
        is_primary,
        text,
        label,
        suggested_replacement: None,
        suggestion_applicability: None,
        expansion: None,
    }
}
