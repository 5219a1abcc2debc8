//! `--message-format html` and `--html FILE`: the report as one self-contained
//! page a CI job keeps as an artifact: a summary by crate and module, each root's
//! verdict, each finding with its code excerpt and its call chain (folded, open on
//! click), the error findings, the baselined findings, and the exemptions with what
//! they let through. Its CSS and script are inline and its Content-Security-Policy
//! forbids loading anything: the page makes no request. Owns the page only.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::cargo_packages::{place_of, CargoPackage};
use super::render::{help_for, plural, Paths};
use super::report::{ErrorLine, Report};
use super::{explain, human};
use crate::engine::{ErrorKind, Finding, Location, RootReport};

/// What the summary counts for one module.
#[derive(Default)]
struct ModuleCounts {
    roots: usize,
    clean: usize,
    findings: usize,
    errors: usize,
    exempted: usize,
    baselined: usize,
}

/// A root's verdict, as the page shows it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Clean,
    Allocates,
    /// Every finding that reaches it is in the baseline.
    Baselined,
    /// An error finding names it (an exemption that lets nothing through).
    Error,
    /// Checking it panicked: no verdict.
    InternalError,
}

impl Verdict {
    fn of(root: &RootReport, report: &Report<'_>, errors: &[ErrorLine<'_>]) -> Verdict {
        let names = |roots: &[String]| roots.contains(&root.function);
        if errors.iter().any(|error| error.code == ErrorKind::InternalError.code() && names(error.roots)) {
            Verdict::InternalError
        } else if report.findings.iter().any(|finding| names(&finding.roots)) {
            Verdict::Allocates
        } else if errors.iter().any(|error| names(error.roots)) {
            Verdict::Error
        } else if report.analysis.findings.iter().any(|finding| names(&finding.roots)) {
            Verdict::Baselined
        } else {
            Verdict::Clean
        }
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Clean => "clean",
            Verdict::Allocates => "allocates",
            Verdict::Baselined => "baselined",
            Verdict::Error => "error",
            Verdict::InternalError => "internal error",
        }
    }

    fn class(self) -> &'static str {
        match self {
            Verdict::Clean => "clean",
            Verdict::Allocates | Verdict::Error | Verdict::InternalError => "bad",
            Verdict::Baselined => "baselined",
        }
    }
}

/// The page.
pub(super) fn render(paths: &Paths<'_>, report: &Report<'_>, packages: &[CargoPackage], elapsed_ms: u128) -> String {
    let analysis = report.analysis;
    let errors = report.errors();
    let baselined: Vec<&Finding> = analysis
        .findings
        .iter()
        .filter(|finding| !report.findings.iter().any(|reported| std::ptr::eq(*reported, *finding)))
        .collect();
    let verdicts: Vec<Verdict> = analysis.roots.iter().map(|root| Verdict::of(root, report, &errors)).collect();
    let module = |file: &Path| -> (String, String) {
        match place_of(packages, file) {
            Some(place) => (place.target.crate_name(), place.module_of(file)),
            None => ("(outside the packages)".to_owned(), paths.show(file)),
        }
    };

    let mut modules: BTreeMap<(String, String), ModuleCounts> = BTreeMap::new();
    for (root, verdict) in analysis.roots.iter().zip(&verdicts) {
        let counts = modules.entry(module(&root.location.file)).or_default();
        counts.roots += 1;
        counts.clean += usize::from(*verdict == Verdict::Clean);
    }
    for finding in &report.findings {
        modules.entry(module(&finding.location.file)).or_default().findings += 1;
    }
    for error in &errors {
        modules.entry(module(&error.location.file)).or_default().errors += 1;
    }
    for exemption in &analysis.exemptions {
        modules.entry(module(&exemption.location.file)).or_default().exempted += 1;
    }
    for finding in &baselined {
        modules.entry(module(&finding.location.file)).or_default().baselined += 1;
    }

    let mut page = String::new();
    page.push_str(HEAD);
    let status = if report.findings.is_empty() && errors.is_empty() { "clean" } else { "bad" };
    let _ = writeln!(
        page,
        "<header><h1>noalloc report</h1><p class=\"totals {status}\" id=\"totals\">{} root{} checked, {} finding{}, {} error{}, {} baselined, {} exemption{} · {} functions checked in {} ms</p></header>",
        analysis.roots.len(),
        plural(analysis.roots.len()),
        report.findings.len(),
        plural(report.findings.len()),
        errors.len(),
        plural(errors.len()),
        baselined.len(),
        analysis.exemptions.len(),
        plural(analysis.exemptions.len()),
        analysis.functions_checked,
        elapsed_ms,
    );

    summary_section(&mut page, &modules);
    roots_section(&mut page, paths, analysis, &verdicts);
    let _ = writeln!(page, "<section id=\"findings\"><h2>Findings ({})</h2>", report.findings.len());
    if report.findings.len() > 1 {
        page.push_str("<p><button type=\"button\" id=\"open-all\">open every chain</button> <button type=\"button\" id=\"close-all\">close every chain</button></p>\n");
    }
    if report.findings.is_empty() {
        page.push_str("<p class=\"none\">No finding.</p>\n");
    }
    for (index, finding) in report.findings.iter().enumerate() {
        finding_article(&mut page, paths, report, finding, index);
    }
    page.push_str("</section>\n");

    errors_section(&mut page, paths, &errors);
    baselined_section(&mut page, paths, &baselined);
    exemptions_section(&mut page, paths, analysis);
    page.push_str(TAIL);
    page
}

/// The table of counts by crate and module.
fn summary_section(page: &mut String, modules: &BTreeMap<(String, String), ModuleCounts>) {
    page.push_str("<section id=\"summary\"><h2>By crate and module</h2>\n<table class=\"summary\"><thead><tr><th>crate</th><th>module</th><th>roots</th><th>clean</th><th>findings</th><th>errors</th><th>exempted</th><th>baselined</th></tr></thead><tbody>\n");
    for ((krate, module), counts) in modules {
        let _ = writeln!(
            page,
            "<tr data-crate=\"{}\" data-module=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(krate),
            escape(module),
            escape(krate),
            escape(module),
            counts.roots,
            counts.clean,
            if counts.findings > 0 { "bad" } else { "" },
            counts.findings,
            if counts.errors > 0 { "bad" } else { "" },
            counts.errors,
            counts.exempted,
            counts.baselined,
        );
    }
    page.push_str("</tbody></table></section>\n");
}

/// Each root with its verdict.
fn roots_section(page: &mut String, paths: &Paths<'_>, analysis: &crate::engine::Analysis, verdicts: &[Verdict]) {
    page.push_str("<section id=\"roots\"><h2>Roots</h2>\n<table class=\"roots\"><thead><tr><th>root</th><th>verdict</th><th>functions checked</th><th>where</th></tr></thead><tbody>\n");
    for (index, (root, verdict)) in analysis.roots.iter().zip(verdicts).enumerate() {
        let _ = writeln!(
            page,
            "<tr class=\"root\" id=\"root-{index}\" data-verdict=\"{}\"><td><code>{}</code></td><td><span class=\"verdict {}\">{}</span></td><td>{}</td><td>{}</td></tr>",
            verdict.word(),
            escape(&root.function),
            verdict.class(),
            verdict.word(),
            root.functions_checked,
            escape(&place(paths, &root.location)),
        );
    }
    page.push_str("</tbody></table></section>\n");
}

/// The error findings (malformed directives, stale baseline entries, ...).
fn errors_section(page: &mut String, paths: &Paths<'_>, errors: &[ErrorLine<'_>]) {
    if !errors.is_empty() {
        let _ = writeln!(page, "<section id=\"errors\"><h2>Error findings ({})</h2>", errors.len());
        for error in errors {
            let _ = write!(
                page,
                "<article class=\"error\" data-code=\"{}\"><h3><span class=\"code\">{}</span> {}</h3><p class=\"where\">{}</p>",
                escape(error.code),
                escape(error.code),
                escape(error.message),
                escape(&place(paths, error.location)),
            );
            page.push_str(&excerpt(error.location));
            if !error.diff.is_empty() {
                let _ = write!(page, "<pre class=\"diff\">{}</pre>", escape(&error.diff.join("\n")));
            }
            page.push_str("</article>\n");
        }
        page.push_str("</section>\n");
    }
}

/// The findings the baseline accepts.
fn baselined_section(page: &mut String, paths: &Paths<'_>, baselined: &[&Finding]) {
    if !baselined.is_empty() {
        let _ = writeln!(
            page,
            "<section id=\"baselined\"><h2>In the baseline ({})</h2><p>Findings the baseline accepts: they do not fail the check.</p><ul>",
            baselined.len()
        );
        for finding in baselined {
            let _ = writeln!(
                page,
                "<li><code>{}</code> at {}: {}</li>",
                escape(&finding.function),
                escape(&place(paths, &finding.location)),
                escape(&finding.reasons.join("; "))
            );
        }
        page.push_str("</ul></section>\n");
    }
}

/// The exemptions, each with what it lets through.
fn exemptions_section(page: &mut String, paths: &Paths<'_>, analysis: &crate::engine::Analysis) {
    let _ = writeln!(page, "<section id=\"exemptions\"><h2>Exemptions ({})</h2>", analysis.exemptions.len());
    if analysis.exemptions.is_empty() {
        page.push_str("<p class=\"none\">No exemption.</p>\n");
    } else {
        page.push_str("<table class=\"exemptions\"><thead><tr><th>where</th><th>kind</th><th>reason</th><th>covers</th><th>lets through</th></tr></thead><tbody>\n");
        for exemption in &analysis.exemptions {
            let lets_through = if exemption.lets_through.is_empty() {
                "<span class=\"none\">nothing</span>".to_owned()
            } else {
                let items: String =
                    exemption.lets_through.iter().map(|item| format!("<li>{}</li>", escape(item))).collect();
                format!("<ul>{items}</ul>")
            };
            let _ = writeln!(
                page,
                "<tr class=\"exemption\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{lets_through}</td></tr>",
                escape(&place(paths, &exemption.location)),
                escape(&exemption.kind),
                escape(&exemption.reason),
                if exemption.line_only { "its line only" } else { "its line and what it calls" },
            );
        }
        page.push_str("</tbody></table>\n");
    }
    page.push_str("</section>\n");
}

/// One finding: headline, place, code excerpt, roots, first allocation, the chain
/// folded in a `<details>`, and the help.
fn finding_article(page: &mut String, paths: &Paths<'_>, report: &Report<'_>, finding: &Finding, index: usize) {
    let code = finding.kind.code();
    let _ = write!(
        page,
        "<article class=\"finding\" id=\"finding-{index}\" data-code=\"{code}\"><h3><span class=\"code\" title=\"{}\">{code}</span> {}</h3><p class=\"where\">{} in <code>{}</code></p>",
        escape(explain::explanation(code).unwrap_or("").lines().next().unwrap_or("")),
        escape(&human::finding_title(finding)),
        escape(&place(paths, &finding.location)),
        escape(&finding.function),
    );
    page.push_str(&excerpt(&finding.location));
    let roots: Vec<String> = finding
        .roots
        .iter()
        .map(|name| match report.analysis.roots.iter().position(|root| root.function == *name) {
            Some(at) => format!("<a href=\"#root-{at}\"><code>{}</code></a>", escape(name)),
            None => format!("<code>{}</code>", escape(name)),
        })
        .collect();
    let _ = write!(page, "<p class=\"roots\">reached from root{} {}</p>", plural(roots.len()), roots.join(", "));
    if let Some(first) = &finding.allocates_in {
        let _ = write!(page, "<p class=\"first\">first allocates in <code>{}</code></p>", escape(first));
    }
    let steps = finding.chain.windows(2).count();
    let _ = write!(
        page,
        "<details class=\"chain\"><summary>call chain: {} call{} down to the allocation</summary><ol>",
        steps + 1,
        plural(steps + 1)
    );
    let _ = write!(
        page,
        "<li><code>{}</code> calls <code>{}</code> at {}</li>",
        escape(&finding.function),
        escape(finding.chain.first().map_or("", |step| step.function.as_str())),
        escape(&place(paths, &finding.location))
    );
    for pair in finding.chain.windows(2) {
        let at = pair[0].location.as_ref().map(|at| format!(" at {}", escape(&place(paths, at)))).unwrap_or_default();
        let _ = write!(
            page,
            "<li><code>{}</code> calls <code>{}</code>{at}</li>",
            escape(&pair[0].function),
            escape(&pair[1].function)
        );
    }
    let _ = writeln!(page, "</ol></details><p class=\"help\">help: {}</p></article>", escape(help_for(finding)));
}

/// `src/lib.rs:30:16`; outside the workspace, from std's or a registry crate's
/// directory on (`alloc/src/string.rs:3114:9`, `memchr-2.7.4/src/lib.rs:12:5`).
fn place(paths: &Paths<'_>, location: &Location) -> String {
    let shown = paths.show(&location.file);
    let shown = ["/lib/rustlib/src/rust/library/", "/registry/src/"]
        .iter()
        .find_map(|dir| {
            let rest = &shown[shown.find(dir)? + dir.len()..];
            // A registry's files are under its index's directory.
            Some(if *dir == "/registry/src/" {
                rest.split_once('/').map_or(rest, |(_, crate_dir)| crate_dir)
            } else {
                rest
            })
        })
        .unwrap_or(&shown);
    format!("{shown}:{}:{}", location.line, location.column)
}

/// The lines of `location` with two around them, numbered, the span marked.
fn excerpt(location: &Location) -> String {
    let Ok(source) = std::fs::read_to_string(&location.file) else { return String::new() };
    let lines: Vec<&str> = source.lines().collect();
    let first = location.line.max(1) as usize;
    let last = (location.end_line.max(location.line) as usize).min(first + 3);
    let mut out = String::from("<pre class=\"excerpt\"><code>");
    for number in first.saturating_sub(2).max(1)..=(last + 2).min(lines.len()) {
        let text = lines[number - 1];
        let marked = if number < first || number > last {
            escape(text)
        } else {
            let start = if number == first { location.column.saturating_sub(1) as usize } else { 0 };
            let end = if number == last && location.end_line == location.line.max(location.end_line) {
                location.end_column.saturating_sub(1) as usize
            } else {
                text.len()
            };
            let (start, end) = (floor_boundary(text, start), floor_boundary(text, end.max(start)));
            format!("{}<mark>{}</mark>{}", escape(&text[..start]), escape(&text[start..end]), escape(&text[end..]))
        };
        let class = if (first..=last).contains(&number) { " class=\"hit\"" } else { "" };
        // Each line a block of its own: no newline between them.
        let _ = write!(out, "<span{class}><span class=\"ln\">{number:>4}</span> {marked}</span>");
    }
    out.push_str("</code></pre>");
    out
}

/// The largest char boundary of `text` at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Text as HTML text or attribute value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="generator" content="noalloc">
<title>noalloc report</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 2rem 3rem; color: #1f2328; background: #fff; }
h1 { margin: .5rem 0; font-size: 1.6rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid #d0d7de; padding-bottom: .25rem; font-size: 1.25rem; }
h3 { font-size: 1rem; margin: 0 0 .25rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #eaeef2; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
.totals { font-weight: 600; padding: .5rem .75rem; border-radius: 6px; }
.totals.clean { background: #dafbe1; }
.totals.bad { background: #ffebe9; }
td.bad { color: #cf222e; font-weight: 600; }
.verdict { padding: 0 .45rem; border-radius: 1rem; font-size: 12px; font-weight: 600; white-space: nowrap; }
.verdict.clean { background: #dafbe1; color: #116329; }
.verdict.bad { background: #ffebe9; color: #a40e26; }
.verdict.baselined { background: #fff8c5; color: #7d4e00; }
article { border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
article.error { border-color: #ff8182; }
.code { background: #ffebe9; color: #a40e26; border-radius: 4px; padding: 0 .35rem; font-size: 12px; font-family: ui-monospace, monospace; }
.where { color: #57606a; margin: .1rem 0 .5rem; }
pre.excerpt, pre.diff { background: #f6f8fa; border-radius: 6px; padding: .5rem 0; overflow-x: auto; margin: .5rem 0; }
pre.excerpt > code > span { display: block; padding: 0 .75rem; }
pre.excerpt .hit { background: #fff8c5; }
pre.excerpt mark { background: none; color: inherit; text-decoration: underline wavy #cf222e; text-underline-offset: 3px; }
.ln { color: #8c959f; user-select: none; }
details.chain { margin: .5rem 0; }
details.chain summary { cursor: pointer; color: #0969da; }
details.chain ol { margin: .35rem 0; }
.help { color: #0a3069; margin: .25rem 0 0; }
.none { color: #57606a; }
button { font: inherit; padding: .2rem .6rem; }
</style>
</head>
<body>
"#;

const TAIL: &str = r#"<script>
for (const [id, open] of [["open-all", true], ["close-all", false]]) {
  const button = document.getElementById(id);
  if (button) button.addEventListener("click", () => {
    for (const chain of document.querySelectorAll("details.chain")) chain.open = open;
  });
}
</script>
</body>
</html>
"#;
