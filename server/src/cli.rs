//! The headless checker (`noalloc-ls --check`): loads a workspace, runs the engine,
//! and prints findings as rustc-style text, one line each (`short`) or JSON lines,
//! ending with an exit status: 0 clean, 1 findings or errors, 2 could not run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use annotate_snippets::{Level, Renderer, Snippet};
use serde_json::json;

use crate::engine::{self, Analysis, CheckConfig, ErrorFinding, Finding, LoadOptions, Location, Workspace};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MessageFormat {
    #[default]
    Human,
    Short,
    Json,
}

/// How findings are printed.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    pub format: MessageFormat,
    /// Under each finding, the chain of calls down to the allocation.
    pub report: bool,
    pub color: bool,
}

/// Everything `--check` takes.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub path: PathBuf,
    pub render: RenderOptions,
    pub timings: bool,
    pub load: LoadOptions,
    pub config: CheckConfig,
}

/// Exit statuses, as cargo and clippy use them.
pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FOUND: i32 = 1;
pub const EXIT_COULD_NOT_RUN: i32 = 2;

/// Runs the check and writes the output; returns the exit status.
pub fn run(options: &CheckOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let started = Instant::now();
    let ws = match Workspace::load(&options.path, &options.load, &|msg| tracing::debug!("{msg}")) {
        Ok(ws) => ws,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return EXIT_COULD_NOT_RUN;
        }
    };
    let load_ms = started.elapsed().as_millis();
    let config = match options.config.clone().with_manifest(&ws.root) {
        Ok(config) => config,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_COULD_NOT_RUN;
        }
    };
    let analysis = engine::analyze(&ws, &config);
    let total_ms = started.elapsed().as_millis();
    for file in &analysis.files_with_syntax_errors {
        let _ = writeln!(err, "warning: {} has syntax errors; findings there may be incomplete", ws.display_path(file));
    }
    let rendered = render(&ws, &analysis, &options.render, total_ms);
    let _ = out.write_all(rendered.as_bytes());
    if options.timings {
        let _ = writeln!(
            err,
            "timings: load {load_ms} ms, analysis {} ms ({} bodies walked, {} summaries from cache, {} cached), total {total_ms} ms",
            analysis.timings.analysis_ms,
            analysis.timings.bodies_walked,
            analysis.timings.cache_hits,
            analysis.timings.cache_entries
        );
    }
    if analysis.findings.is_empty() && analysis.errors.is_empty() { EXIT_CLEAN } else { EXIT_FOUND }
}

/// Renders an analysis in the chosen format.
pub fn render(ws: &Workspace, analysis: &Analysis, options: &RenderOptions, elapsed_ms: u128) -> String {
    let paths = Paths { root: &ws.root };
    match options.format {
        MessageFormat::Json => render_json(&paths, analysis, elapsed_ms),
        MessageFormat::Short => render_short(&paths, analysis),
        MessageFormat::Human => render_human(&paths, analysis, options),
    }
}

struct Paths<'a> {
    root: &'a Path,
}

impl Paths<'_> {
    fn show(&self, path: &Path) -> String {
        path.strip_prefix(self.root).unwrap_or(path).display().to_string()
    }
}

fn render_short(paths: &Paths<'_>, analysis: &Analysis) -> String {
    let mut out = String::new();
    for error in &analysis.errors {
        out.push_str(&format!("{}:{}: error: {}\n", paths.show(&error.location.file), error.location.line, error.message));
    }
    for finding in &analysis.findings {
        out.push_str(&format!(
            "{}:{}: {}: {}\n",
            paths.show(&finding.location.file),
            finding.location.line,
            finding.function,
            finding.reasons.join("; ")
        ));
    }
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
        "chain": chain,
    })
}

fn error_json(paths: &Paths<'_>, error: &ErrorFinding) -> serde_json::Value {
    let mut value = location_json(paths, &error.location);
    value["kind"] = json!("error");
    value["code"] = json!(error.kind.code());
    value["message"] = json!(error.message);
    value
}

fn render_json(paths: &Paths<'_>, analysis: &Analysis, elapsed_ms: u128) -> String {
    let mut out = String::new();
    for error in &analysis.errors {
        out.push_str(&error_json(paths, error).to_string());
        out.push('\n');
    }
    for finding in &analysis.findings {
        out.push_str(&finding_json(paths, finding).to_string());
        out.push('\n');
    }
    let summary = json!({
        "kind": "summary",
        "roots": analysis.roots.len(),
        "findings": analysis.findings.len(),
        "errors": analysis.errors.len(),
        "functions_checked": analysis.functions_checked,
        "elapsed_ms": elapsed_ms,
    });
    out.push_str(&summary.to_string());
    out.push('\n');
    out
}

/// The fix to suggest for a finding.
const HELP: &str = "keep the memory across calls (a buffer in `self` or a `&mut` parameter, or `bounded`), or exempt the line: `// noalloc:exempt <kind>: <reason>`";

fn render_human(paths: &Paths<'_>, analysis: &Analysis, options: &RenderOptions) -> String {
    let renderer = if options.color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    for error in &analysis.errors {
        let source = std::fs::read_to_string(&error.location.file).unwrap_or_default();
        let origin = paths.show(&error.location.file);
        let message = Level::Error.title(&error.message).snippet(snippet(&source, &origin, &error.location, Level::Error, ""));
        out.push_str(&renderer.render(message).to_string());
        out.push_str("\n\n");
    }
    for finding in &analysis.findings {
        let source = std::fs::read_to_string(&finding.location.file).unwrap_or_default();
        let origin = paths.show(&finding.location.file);
        let title = format!("`{}` can allocate: {}", finding.function, finding.reasons.join("; "));
        let label = finding.reasons.first().map(String::as_str).unwrap_or("");
        let roots_note = format!("reached from root{} {}", if finding.roots.len() == 1 { "" } else { "s" }, finding.roots.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", "));
        let chain_note = chain_text(paths, finding);
        let mut message = Level::Error
            .title(&title)
            .id("noalloc")
            .snippet(snippet(&source, &origin, &finding.location, Level::Error, label))
            .footer(Level::Note.title(&roots_note));
        if options.report && !chain_note.is_empty() {
            message = message.footer(Level::Note.title(&chain_note));
        }
        message = message.footer(Level::Help.title(HELP));
        out.push_str(&renderer.render(message).to_string());
        out.push_str("\n\n");
    }
    if options.report {
        for exemption in &analysis.exemptions {
            out.push_str(&format!(
                "exemption at {}:{} ({}: {}){}\n",
                paths.show(&exemption.location.file),
                exemption.location.line,
                exemption.kind,
                exemption.reason,
                if exemption.line_only { ", line only" } else { "" }
            ));
            if exemption.lets_through.is_empty() {
                out.push_str("    lets nothing through\n");
            }
            for item in &exemption.lets_through {
                out.push_str(&format!("    lets through: {item}\n"));
            }
        }
    }
    out.push_str(&format!(
        "noalloc: {} root{} checked, {} finding{}, {} error{} ({} functions checked)\n",
        analysis.roots.len(),
        plural(analysis.roots.len()),
        analysis.findings.len(),
        plural(analysis.findings.len()),
        analysis.errors.len(),
        plural(analysis.errors.len()),
        analysis.functions_checked,
    ));
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `because X calls Y at file:line > ...`
fn chain_text(paths: &Paths<'_>, finding: &Finding) -> String {
    let steps: Vec<String> = finding
        .chain
        .windows(2)
        .map(|pair| match &pair[0].location {
            Some(loc) => format!("{} calls {} at {}:{}", pair[0].function, pair[1].function, paths.show(&loc.file), loc.line),
            None => format!("{} calls {}", pair[0].function, pair[1].function),
        })
        .collect();
    if steps.is_empty() { String::new() } else { format!("because {}", steps.join(" > ")) }
}

/// The source line(s) of `location`, underlined.
fn snippet<'a>(source: &'a str, origin: &'a str, location: &Location, level: Level, label: &'a str) -> Snippet<'a> {
    let line_starts: Vec<usize> =
        std::iter::once(0).chain(source.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let first_line = location.line.saturating_sub(1) as usize;
    let last_line = (location.end_line.max(location.line).saturating_sub(1) as usize).min(first_line + 3);
    let start = line_starts.get(first_line).copied().unwrap_or(0);
    let end = line_starts.get(last_line + 1).map(|e| e - 1).unwrap_or(source.len()).max(start);
    let text = source.get(start..end).unwrap_or("");
    let span_start = (location.column.saturating_sub(1) as usize).min(text.len());
    let span_end = if location.end_line == location.line {
        (location.end_column.saturating_sub(1) as usize).clamp(span_start, text.len())
    } else {
        text.find('\n').unwrap_or(text.len()).max(span_start)
    };
    let span_end = if span_end == span_start { (span_start + 1).min(text.len()) } else { span_end };
    Snippet::source(text)
        .line_start(location.line as usize)
        .origin(origin)
        .fold(false)
        .annotation(level.span(span_start..span_end).label(label))
}
