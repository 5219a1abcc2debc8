//! Prints a `Report` in the chosen `MessageFormat`: picks the format's module
//! (`human`, `short`, `cargo_json`, `noalloc_json`, `sarif`, `html`) and holds the text they share (paths relative
//! to the workspace, the help of each finding kind, the `--report` sections).

use std::path::Path;

use super::cargo_packages::workspace_packages;
use super::report::{compiled_chain_text, Report};
use super::{cargo_json, html, human, noalloc_json, sarif, short, MessageFormat, RenderOptions};
use crate::cross_check::Outcome;
use crate::engine::{AllowSource, Analysis, FindingKind, Workspace};

/// Renders an analysis in the chosen format.
pub fn render(ws: &Workspace, analysis: &Analysis, options: &RenderOptions, elapsed_ms: u128) -> String {
    render_report(ws, &Report::of(analysis), options, elapsed_ms)
}

/// Renders a report in the chosen format.
pub fn render_report(ws: &Workspace, report: &Report<'_>, options: &RenderOptions, elapsed_ms: u128) -> String {
    let paths = Paths { root: &ws.root };
    match options.format {
        MessageFormat::Sarif => sarif::render(&paths, report),
        MessageFormat::CargoJson => {
            let features = |root_file: &Path| ws.crate_features(root_file).unwrap_or_default();
            let checked_as = cargo_json::CheckedAs { profile: ws.profile(), features: &features };
            cargo_json::render(&paths, report, &workspace_packages(&ws.root), &checked_as, options)
        }
        MessageFormat::NoallocJson => noalloc_json::render(&paths, report, elapsed_ms),
        MessageFormat::Html => html::render(&paths, report, &workspace_packages(&ws.root), elapsed_ms),
        MessageFormat::Short => short::render(&paths, report, options),
        MessageFormat::Human => human::render(&paths, report, options),
    }
}

/// Shows the workspace's files relative to its root.
pub(super) struct Paths<'a> {
    pub(super) root: &'a Path,
}

impl Paths<'_> {
    pub(super) fn show(&self, path: &Path) -> String {
        path.strip_prefix(self.root).unwrap_or(path).display().to_string()
    }
}

/// The fix to suggest for `finding`: by its kind at a workspace line; at a
/// dependency's line (a `--root` on a dependency), what the caller can do, as its
/// source is not the user's to exempt.
pub(super) fn help_for(finding: &crate::engine::Finding) -> &'static str {
    if finding.in_dependency {
        "a dependency's code: call it where its allocation does no harm, keep what it returns across calls, or list the function in the allowlist (`--allow`) with the reason"
    } else {
        help(finding.kind)
    }
}

/// The fix to suggest for a finding of each kind at a workspace line.
fn help(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::Allocation => {
            "keep the memory across calls (a buffer in `self` or a `&mut` parameter, or `bounded`), or exempt the line: `// noalloc:exempt <kind>: <reason>`"
        }
        FindingKind::MayGrow => {
            "prove room first (`if buf.len() < buf.capacity()`), or reserve the capacity where the buffer is built (`Vec::with_capacity`)"
        }
        FindingKind::SwallowedError => {
            "return the error (`?`), or build it without allocating (an error enum, `&'static str`), so a failed pass costs nothing"
        }
    }
}

/// `--report`: each growth a room proof let through, with the proof and what the
/// growth used of it (`src/x.rs:12: growth with room: ...`), and each call
/// allowed as first-use setup under a guard, with the guard and the place it
/// finds empty (`src/x.rs:12: first-use setup: ...`), once per line.
pub(super) fn allowed_text(paths: &Paths<'_>, report: &Report<'_>) -> String {
    let mut lines: Vec<String> = Vec::new();
    for call in report.analysis.roots.iter().flat_map(|root| &root.allowed) {
        let place = |at: &crate::engine::Location| format!("{}:{}", paths.show(&at.file), at.line);
        let line = match (&call.room, &call.guard) {
            (Some(room), _) => {
                let each_pass = match &room.each_pass {
                    Some((each, at)) => format!(", `{each}` a pass of the loop at {}", place(at)),
                    None => String::new(),
                };
                format!(
                    "{}: growth with room: {} appends `{}` of the room for `{}` proven at {}{each_pass}\n",
                    place(&call.location),
                    call.callee,
                    room.appends,
                    room.room,
                    place(&room.proven_at),
                )
            }
            (None, Some(guard)) => format!(
                "{}: first-use setup: {} under the guard at {} that finds `{}` empty\n",
                place(&call.location),
                call.callee,
                place(&guard.at),
                guard.place,
            ),
            (None, None) => continue,
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines.concat()
}

/// `--report`: the `--allow` lines no check used.
pub(super) fn unused_allow_text(paths: &Paths<'_>, report: &Report<'_>) -> String {
    let mut out = String::new();
    for entry in &report.unused_allow {
        if let AllowSource::File { file, line } = &entry.source {
            out.push_str(&format!(
                "{}:{line}: allowlist line no check used: {}: {}\n",
                paths.show(file),
                entry.kind,
                entry.path
            ));
        }
    }
    out
}

/// `--report`: each root where the compiled program and the engine did not simply
/// agree, then a count of each outcome.
pub(super) fn cross_check_text(paths: &Paths<'_>, report: &Report<'_>) -> String {
    let Some(cross_checked) = report.cross_check else { return String::new() };
    let mut out = String::new();
    let (mut agree, mut explained, mut engine_only, mut skipped, mut failed) = (0, 0, 0, 0, 0);
    for root in &cross_checked.roots {
        let at = format!("{}:{}: cross-check: {}", paths.show(&root.location.file), root.location.line, root.root);
        match &root.outcome {
            Outcome::Agree { .. } => agree += 1,
            Outcome::CompiledAllocates { chain, explained_by: Some(allowance) } => {
                explained += 1;
                let allowance = allowance.describe(|file| paths.show(file));
                out.push_str(&format!(
                    "{at}: compiled code allocates, allowed by {allowance}: {}\n",
                    compiled_chain_text(chain)
                ));
            }
            Outcome::CompiledAllocates { explained_by: None, .. } => failed += 1,
            Outcome::EngineOnly => {
                engine_only += 1;
                out.push_str(&format!("{at}: flagged, but the compiled code does not reach the allocator (optimised away, or the analysis is imprecise)\n"));
            }
            Outcome::Skipped { reason } => {
                skipped += 1;
                out.push_str(&format!("{at}: not compared: {reason}\n"));
            }
        }
        for call in &root.unmatched_pointer_calls {
            out.push_str(&format!("{at}: call by pointer that no function of the program matches: {call}\n"));
        }
    }
    out.push_str(&format!(
        "cross-check: {} root{}: {agree} agree, {explained} allowed by the analysis, {engine_only} flagged only by the analysis, {skipped} not compared, {failed} failed\n",
        cross_checked.roots.len(),
        plural(cross_checked.roots.len())
    ));
    out
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
