//! `--message-format human`: rustc-style text, each finding's source line
//! underlined (annotate-snippets), its roots, chain and help as notes.

use annotate_snippets::{Level, Renderer, Snippet};

use super::render::{allowed_text, cross_check_text, help_for, plural, unused_allow_text, Paths};
use super::report::{ErrorLine, Report};
use super::RenderOptions;
use crate::engine::{Finding, FindingKind, Location};

/// rustc-style text: each error and finding with its source line underlined, then
/// what `--report` adds and a summary line.
pub(super) fn render(paths: &Paths<'_>, report: &Report<'_>, options: &RenderOptions) -> String {
    let analysis = report.analysis;
    let renderer = if options.color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    let errors = report.errors();
    for error in &errors {
        out.push_str(&error_text(paths, error, &renderer));
        out.push('\n');
    }
    for finding in &report.findings {
        out.push_str(&finding_text(paths, finding, options, &renderer));
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
        out.push_str(&allowed_text(paths, report));
        out.push_str(&unused_allow_text(paths, report));
        out.push_str(&cross_check_text(paths, report));
    }
    let baselined = match report.baselined {
        Some(count) => format!(" ({count} more in the baseline)"),
        None => String::new(),
    };
    out.push_str(&format!(
        "noalloc: {} root{} checked, {} finding{}{baselined}, {} error{} ({} functions checked)\n",
        analysis.roots.len(),
        plural(analysis.roots.len()),
        report.findings.len(),
        plural(report.findings.len()),
        errors.len(),
        plural(errors.len()),
        analysis.functions_checked,
    ));
    out
}

/// An error finding as rustc words an error: its line underlined, then the lines
/// of its diff.
pub(super) fn error_text(paths: &Paths<'_>, error: &ErrorLine<'_>, renderer: &Renderer) -> String {
    let source = std::fs::read_to_string(&error.location.file).unwrap_or_default();
    let origin = paths.show(&error.location.file);
    let message =
        Level::Error.title(error.message).snippet(snippet(&source, &origin, error.location, Level::Error, ""));
    let mut out = renderer.render(message).to_string();
    out.push('\n');
    for line in error.diff {
        out.push_str(&format!("   {line}\n"));
    }
    out
}

/// A finding as rustc words an error: its line underlined, the roots that reach
/// it, where it first allocates, the chain with `--report`, and the help.
pub(super) fn finding_text(
    paths: &Paths<'_>,
    finding: &Finding,
    options: &RenderOptions,
    renderer: &Renderer,
) -> String {
    let source = std::fs::read_to_string(&finding.location.file).unwrap_or_default();
    let origin = paths.show(&finding.location.file);
    let title = finding_title(finding);
    let label = finding.reasons.first().map(String::as_str).unwrap_or("");
    let roots_note = roots_note(finding);
    let chain_note = chain_text(paths, finding);
    let first_note = finding.allocates_in.as_ref().map(|first| format!("first allocates in {first}"));
    let mut message = Level::Error
        .title(&title)
        .id("noalloc")
        .snippet(snippet(&source, &origin, &finding.location, Level::Error, label))
        .footer(Level::Note.title(&roots_note));
    if let Some(first_note) = &first_note {
        message = message.footer(Level::Note.title(first_note));
    }
    if options.report && !chain_note.is_empty() {
        message = message.footer(Level::Note.title(&chain_note));
    }
    message = message.footer(Level::Help.title(help_for(finding)));
    let text = renderer.render(message).to_string();
    text
}

/// A finding's headline: `` `krate::f` can allocate: calls X ``.
pub(super) fn finding_title(finding: &Finding) -> String {
    match finding.kind {
        FindingKind::MayGrow => {
            format!("`{}` can allocate when full: {}", finding.function, finding.reasons.join("; "))
        }
        _ => format!("`{}` can allocate: {}", finding.function, finding.reasons.join("; ")),
    }
}

/// `reached from root `a`` (or `roots `a`, `b``).
pub(super) fn roots_note(finding: &Finding) -> String {
    format!(
        "reached from root{} {}",
        if finding.roots.len() == 1 { "" } else { "s" },
        finding.roots.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", ")
    )
}

/// `because X calls Y at file:line > ...`
pub(super) fn chain_text(paths: &Paths<'_>, finding: &Finding) -> String {
    let steps: Vec<String> = finding
        .chain
        .windows(2)
        .map(|pair| match &pair[0].location {
            Some(loc) => {
                format!("{} calls {} at {}:{}", pair[0].function, pair[1].function, paths.show(&loc.file), loc.line)
            }
            None => format!("{} calls {}", pair[0].function, pair[1].function),
        })
        .collect();
    if steps.is_empty() {
        String::new()
    } else {
        format!("because {}", steps.join(" > "))
    }
}

/// The source line(s) of `location`, underlined.
fn snippet<'a>(source: &'a str, origin: &'a str, location: &Location, level: Level, label: &'a str) -> Snippet<'a> {
    let line_starts: Vec<usize> = std::iter::once(0).chain(source.match_indices('\n').map(|(i, _)| i + 1)).collect();
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
