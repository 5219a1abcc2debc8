//! The engine's answer in LSP terms: diagnostics per file, hover text, code lenses.
//! Only translates; every decision about allocation was made by the engine. Owns the
//! wording users read in the editor and the links to docs/finding-codes.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeDescription, CodeLens, Command, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    Location as LspLocation, NumberOrString, Position, Range, Uri,
};

use super::documents::{path_to_uri, LineStarts};
use super::settings::Settings;
use crate::engine::{Analysis, Finding, Location, RootReport};

/// The page that explains each code, docs/finding-codes.md: the repository's
/// (`repository` in Cargo.toml), else where the project is expected to live.
// LSP-NEEDS: a `repository` key in Cargo.toml; until then the fallback below.
pub fn finding_codes_url() -> String {
    match env!("CARGO_PKG_REPOSITORY").trim_end_matches('/') {
        "" => "https://github.com/noalloc/noalloc/blob/main/docs/finding-codes.md".to_owned(),
        repository => format!("{repository}/blob/main/docs/finding-codes.md"),
    }
}

pub const SOURCE: &str = "noalloc";

/// The section (a heading of docs/finding-codes.md, as GitHub anchors it) for a
/// finding or error code; every code has its own heading there.
pub fn code_section(code: &str) -> &'static str {
    match code {
        "allocation" => "#allocation",
        "may-grow" => "#may-grow",
        "swallowed-error" => "#swallowed-error",
        "malformed-directive" => "#malformed-directive",
        "unused-exemption" => "#unused-exemption",
        _ => "#finding-codes",
    }
}

/// The text of a file as the analysis saw it, for positions: open documents, then
/// the database, then the disk. Remembers what it read.
pub struct Texts<'a> {
    lookup: &'a dyn Fn(&Path) -> Option<String>,
    cache: BTreeMap<PathBuf, Option<(String, LineStarts)>>,
    /// The workspace root, for short paths in hovers.
    root: Option<&'a Path>,
}

impl<'a> Texts<'a> {
    pub fn new(lookup: &'a dyn Fn(&Path) -> Option<String>, root: Option<&'a Path>) -> Self {
        Texts { lookup, cache: BTreeMap::new(), root }
    }

    fn get(&mut self, path: &Path) -> Option<&(String, LineStarts)> {
        let lookup = self.lookup;
        self.cache
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                lookup(path).map(|text| {
                    let starts = LineStarts::new(&text);
                    (text, starts)
                })
            })
            .as_ref()
    }

    /// The LSP range of an engine location; without the text, columns are taken as
    /// UTF-16 already (right for ASCII).
    pub fn range(&mut self, loc: &Location) -> Range {
        match self.get(&loc.file) {
            Some((text, starts)) => Range {
                start: starts.position(text, loc.line, loc.column),
                end: starts.position(text, loc.end_line, loc.end_column),
            },
            None => Range {
                start: Position::new(loc.line.saturating_sub(1), loc.column.saturating_sub(1)),
                end: Position::new(loc.end_line.saturating_sub(1), loc.end_column.saturating_sub(1)),
            },
        }
    }

    pub fn location(&mut self, loc: &Location) -> LspLocation {
        LspLocation { uri: path_to_uri(&loc.file), range: self.range(loc) }
    }
}

fn code_description(code: &str) -> Option<CodeDescription> {
    let href: Uri = format!("{}{}", finding_codes_url(), code_section(code)).parse().ok()?;
    Some(CodeDescription { href })
}

/// The one-line message of a finding.
pub fn finding_message(finding: &Finding) -> String {
    let first = match &finding.allocates_in {
        Some(first) => format!(" (first allocates in {first})"),
        None => String::new(),
    };
    format!("`{}` can allocate: {}{first}", finding.function, finding.reasons.join("; "))
}

/// Every diagnostic of an analysis, by file.
pub fn diagnostics(
    analysis: &Analysis,
    settings: &Settings,
    texts: &mut Texts<'_>,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut out: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for finding in &analysis.findings {
        let code = finding.kind.code();
        let diagnostic = Diagnostic {
            range: texts.range(&finding.location),
            severity: Some(settings.severity.to_lsp()),
            code: Some(NumberOrString::String(code.to_owned())),
            code_description: code_description(code),
            source: Some(SOURCE.to_owned()),
            message: finding_message(finding),
            related_information: Some(related(analysis, finding, texts)),
            tags: None,
            data: None,
        };
        out.entry(finding.location.file.clone()).or_default().push(diagnostic);
    }
    for error in &analysis.errors {
        let code = error.kind.code();
        let diagnostic = Diagnostic {
            range: texts.range(&error.location),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(code.to_owned())),
            code_description: code_description(code),
            source: Some(SOURCE.to_owned()),
            message: error.message.clone(),
            related_information: None,
            tags: None,
            data: None,
        };
        out.entry(error.location.file.clone()).or_default().push(diagnostic);
    }
    out
}

/// The roots that reach a finding, then each call of the chain where it happens:
/// the finding's line calls the first step, each step calls the next at its location.
fn related(analysis: &Analysis, finding: &Finding, texts: &mut Texts<'_>) -> Vec<DiagnosticRelatedInformation> {
    let mut out = Vec::new();
    for root in &finding.roots {
        let location = root_report(analysis, root).map(|r| &r.location).unwrap_or(&finding.location);
        out.push(DiagnosticRelatedInformation { location: texts.location(location), message: format!("root: {root}") });
    }
    let mut at = &finding.location;
    for step in &finding.chain {
        out.push(DiagnosticRelatedInformation {
            location: texts.location(at),
            message: format!("calls {}", step.function),
        });
        if let Some(next) = &step.location {
            at = next;
        }
    }
    out
}

pub fn root_report<'a>(analysis: &'a Analysis, function: &str) -> Option<&'a RootReport> {
    analysis.roots.iter().find(|r| r.function == function)
}

/// The one-line status of a root: "no allocations · 312 functions checked".
pub fn root_status(root: &RootReport) -> String {
    let checked = plural(root.functions_checked, "function", "functions");
    match root.findings {
        0 => format!("no allocations · {checked} checked"),
        n => format!("{} · {checked} checked", plural(n, "allocation", "allocations")),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A code lens above each root of `file`.
pub fn code_lenses(analysis: &Analysis, file: &Path, texts: &mut Texts<'_>) -> Vec<CodeLens> {
    analysis
        .roots
        .iter()
        .filter(|root| root.location.file == file)
        .map(|root| {
            let range = texts.range(&root.location);
            // A command without an id shows as plain text.
            let command =
                Command { title: format!("noalloc: {}", root_status(root)), command: String::new(), arguments: None };
            CodeLens { range, command: Some(command), data: None }
        })
        .collect()
}

/// Markdown for a hover at `position` of `file`: the root declared on that line, and
/// the findings whose range holds the position.
pub fn hover(analysis: &Analysis, file: &Path, position: Position, texts: &mut Texts<'_>) -> Option<(String, Range)> {
    let mut parts = Vec::new();
    let mut hover_range = None;
    for root in analysis.roots.iter().filter(|r| r.location.file == file) {
        let range = texts.range(&root.location);
        if range.start.line != position.line {
            continue;
        }
        hover_range.get_or_insert(range);
        let mut text = format!("**noalloc root** `{}`: {}", root.function, root_status(root));
        for finding in analysis.findings.iter().filter(|f| f.roots.contains(&root.function)) {
            let where_ = display_location(&finding.location, texts);
            text.push_str(&format!("\n- {where_} `{}`: {}", finding.function, finding.reasons.join("; ")));
        }
        parts.push(text);
    }
    for finding in analysis.findings.iter().filter(|f| f.location.file == file) {
        let range = texts.range(&finding.location);
        if !contains(range, position) {
            continue;
        }
        hover_range.get_or_insert(range);
        let mut text = format!("**noalloc**: this line allocates: {}", finding.reasons.join("; "));
        text.push_str(&format!("\n\nreached from {}", quoted_list(&finding.roots)));
        if !finding.chain.is_empty() {
            text.push_str("\n\ncall chain:");
            let mut at = &finding.location;
            for step in &finding.chain {
                text.push_str(&format!("\n1. `{}` at {}", step.function, display_location(at, texts)));
                if let Some(next) = &step.location {
                    at = next;
                }
            }
        }
        parts.push(text);
    }
    for error in analysis.errors.iter().filter(|e| e.location.file == file) {
        let range = texts.range(&error.location);
        if contains(range, position) {
            hover_range.get_or_insert(range);
            parts.push(format!("**noalloc** ({}): {}", error.kind.code(), error.message));
        }
    }
    let range = hover_range?;
    Some((parts.join("\n\n---\n\n"), range))
}

fn quoted_list(items: &[String]) -> String {
    items.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}

/// `file:line`, the file relative to the workspace, std from `library/`, a
/// registry crate from its `name-version/`.
fn display_location(loc: &Location, texts: &Texts<'_>) -> String {
    if let Some(relative) = texts.root.and_then(|root| loc.file.strip_prefix(root).ok()) {
        return format!("{}:{}", relative.display(), loc.line);
    }
    let path = loc.file.display().to_string();
    let short = match path.rfind("/library/") {
        Some(i) => path[i + "/library/".len()..].to_owned(),
        None => match path.find("/registry/src/") {
            Some(i) => {
                path[i + "/registry/src/".len()..].split_once('/').map_or(path.clone(), |(_, rest)| rest.to_owned())
            }
            None => path.clone(),
        },
    };
    format!("{short}:{}", loc.line)
}

pub fn contains(range: Range, position: Position) -> bool {
    range.start <= position && position <= range.end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{ErrorKind, FindingKind};

    /// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation dropped.
    fn anchor(heading: &str) -> String {
        heading
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_code_links_to_a_heading_of_the_finding_codes_page() {
        let page = include_str!("../../../docs/finding-codes.md");
        let anchors: Vec<String> = page
            .lines()
            .filter_map(|l| l.strip_prefix("# ").or_else(|| l.strip_prefix("### ")))
            .map(|h| format!("#{}", anchor(h)))
            .collect();
        let codes = FindingKind::ALL.map(FindingKind::code).into_iter().chain(ErrorKind::ALL.map(ErrorKind::code));
        for code in codes.chain(["an-unknown-code"]) {
            let section = code_section(code);
            assert!(anchors.iter().any(|a| a == section), "{code}: no heading {section} in docs/finding-codes.md");
        }
        assert!(finding_codes_url().ends_with("/docs/finding-codes.md"));
    }
}
