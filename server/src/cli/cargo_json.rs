//! `--message-format cargo-json` (the bare `json` of `cargo noalloc`): cargo's own
//! JSON stream, as `cargo check --message-format json` prints it, so that rust-analyzer's
//! `check.overrideCommand`, bacon, cargo-watch and editors' problem matchers show
//! noalloc's findings as they show rustc's and clippy's. Per checked target (a
//! lib or bin target holding a root or a message), its `compiler-message`s (one per
//! error finding and finding, carrying rustc's diagnostic schema: `spans`,
//! `children`, `rendered`, `code` `noalloc::<code>` as clippy's are
//! `clippy::<lint>`), then its `compiler-artifact`; at the end `build-finished`.
//! Owns the mapping to that schema only.

use std::path::Path;

use super::cargo_packages::{place_of, CargoPackage, CargoTarget, CargoTargetJson, FilePlace};
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
    message: &'a Diagnostic,
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

/// cargo's `compiler-artifact`: the target was checked. noalloc builds nothing, so
/// it names no files.
#[derive(serde::Serialize)]
struct CompilerArtifact<'a> {
    reason: &'static str,
    package_id: &'a str,
    manifest_path: &'a Path,
    target: &'a CargoTargetJson,
    profile: ArtifactProfile,
    features: Vec<String>,
    filenames: Vec<String>,
    executable: Option<String>,
    /// cargo's "up to date, its messages replayed": the stored analysis was read
    /// back because nothing it reads changed (rust-analyzer's flycheck takes only
    /// artifacts that are not fresh as "this package was checked again").
    fresh: bool,
}

/// cargo's profile of an artifact: the one whose cfgs were checked.
#[derive(serde::Serialize)]
struct ArtifactProfile {
    opt_level: &'static str,
    /// Nothing is compiled, so there is no debug information.
    debuginfo: u8,
    debug_assertions: bool,
    overflow_checks: bool,
    test: bool,
}

/// How the workspace was checked, for the artifacts: from the loaded workspace.
pub(super) struct CheckedAs<'a> {
    /// `"dev"` or `"release"`: the profile whose cfgs were checked.
    pub(super) profile: &'a str,
    /// The features a target's crate was loaded with, by the target's root file.
    pub(super) features: &'a dyn Fn(&Path) -> Vec<String>,
}

/// The stream: per checked target, in `cargo metadata`'s order, a
/// `compiler-message` line per error finding and finding in it, then its
/// `compiler-artifact`; then `{"reason":"build-finished","success":..}`. A target
/// is checked when it holds a root or a message. A file in no package of
/// `packages` (or no packages at all: cargo could not list them) gets a bare
/// rustc diagnostic line, first, which cargo's readers take too.
pub(super) fn render(
    paths: &Paths<'_>,
    report: &Report<'_>,
    packages: &[CargoPackage],
    checked_as: &CheckedAs<'_>,
    options: &RenderOptions,
) -> String {
    // rustc's `rendered` has no colour unless asked for
    // (`--message-format json-diagnostic-rendered-ansi`).
    let renderer = Renderer::plain();
    let errors = report.errors();
    let messages: Vec<(&Path, Diagnostic)> = errors
        .iter()
        .map(|error| (error.location.file.as_path(), error_diagnostic(paths, error, &renderer)))
        .chain(report.findings.iter().map(|finding| {
            (finding.location.file.as_path(), finding_diagnostic(paths, report, finding, options, &renderer))
        }))
        .collect();
    // Where each message and each root stands, found once.
    let placed: Vec<(Option<FilePlace<'_>>, &Diagnostic)> =
        messages.iter().map(|(file, diagnostic)| (place_of(packages, file), diagnostic)).collect();
    let root_places: Vec<FilePlace<'_>> =
        report.analysis.roots.iter().filter_map(|root| place_of(packages, &root.location.file)).collect();
    let mut out = String::new();
    for (_, diagnostic) in placed.iter().filter(|(place, _)| place.is_none()) {
        out.push_str(&json_line(diagnostic));
    }
    for package in packages {
        for target in &package.targets {
            let holds =
                |place: &FilePlace<'_>| std::ptr::eq(place.package, package) && std::ptr::eq(place.target, target);
            let rooted = root_places.iter().any(holds);
            let mut checked = rooted;
            for (_, diagnostic) in placed.iter().filter(|(place, _)| place.as_ref().is_some_and(holds)) {
                checked = true;
                out.push_str(&json_line(&CompilerMessage {
                    reason: "compiler-message",
                    package_id: &package.id,
                    manifest_path: &package.manifest_path,
                    target: &target.json,
                    message: diagnostic,
                }));
            }
            if checked {
                out.push_str(&json_line(&artifact(package, target, checked_as, report.analysis.timings.reused)));
            }
        }
    }
    let success = errors.is_empty() && report.findings.is_empty();
    out.push_str(&format!("{{\"reason\":\"build-finished\",\"success\":{success}}}\n"));
    out
}

fn artifact<'a>(
    package: &'a CargoPackage,
    target: &'a CargoTarget,
    checked_as: &CheckedAs<'_>,
    fresh: bool,
) -> CompilerArtifact<'a> {
    let dev = checked_as.profile != "release";
    CompilerArtifact {
        reason: "compiler-artifact",
        package_id: &package.id,
        manifest_path: &package.manifest_path,
        target: &target.json,
        profile: ArtifactProfile {
            opt_level: if dev { "0" } else { "3" },
            debuginfo: 0,
            debug_assertions: dev,
            overflow_checks: dev,
            test: false,
        },
        features: (checked_as.features)(&target.src_path),
        filenames: Vec::new(),
        executable: None,
        fresh,
    }
}

/// A message as one line of the stream.
fn json_line(message: &impl serde::Serialize) -> String {
    let mut line = serde_json::to_string(message).expect("a message prints as JSON");
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
