//! `--message-format short`: one line an error or finding, `path:line: ...`.

use super::render::{allowed_text, cross_check_text, unused_allow_text, Paths};
use super::report::Report;
use super::RenderOptions;

/// One line a finding: `path:line: function: reasons`.
pub(super) fn render(paths: &Paths<'_>, report: &Report<'_>, options: &RenderOptions) -> String {
    let mut out = String::new();
    for error in report.errors() {
        out.push_str(&format!(
            "{}:{}: error: {}\n",
            paths.show(&error.location.file),
            error.location.line,
            error.message
        ));
    }
    for finding in &report.findings {
        out.push_str(&format!(
            "{}:{}: {}: {}\n",
            paths.show(&finding.location.file),
            finding.location.line,
            finding.function,
            finding.reasons.join("; ")
        ));
    }
    if options.report {
        out.push_str(&allowed_text(paths, report));
        out.push_str(&unused_allow_text(paths, report));
        out.push_str(&cross_check_text(paths, report));
    }
    out
}
