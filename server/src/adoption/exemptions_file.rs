//! The reviewed list of exemptions (`--exemptions FILE`): every
//! `// noalloc:exempt`, its reason, and what it lets through, keyed by file and the
//! text of the line it covers (not its number). Writing the list and telling where
//! the code and the list disagree live here; the engine finds the exemptions.

use std::path::{Path, PathBuf};

use super::{line_location, read_kept_file, relative, Disagreement, FileError, SourceLines};
use crate::engine::{ExemptionReport, Location};
use crate::stdx::write_atomically;

const HEADER: &str = "\
# noalloc exemptions: every `// noalloc:exempt`, its reason, and what it lets through.
# Written by `noalloc-ls --check --exemptions FILE --write-exemptions`; `--exemptions FILE`
# fails when the code and this list disagree, so a change in what an exemption covers
# gets reviewed.
";

/// One exemption as the list shows it: `file: covered line`, then indented its
/// kind and reason, and under those what it lets through.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Listed {
    header: String,
    body: Vec<String>,
}

impl Listed {
    fn of(root: &Path, exemption: &ExemptionReport, lines: &mut SourceLines) -> Listed {
        let header = format!(
            "{}: {}",
            relative(root, &exemption.location.file),
            lines.key(&exemption.location.file, exemption.covered_line)
        );
        let line_only = if exemption.line_only { " (line only)" } else { "" };
        let mut body = vec![format!("    {}{line_only}: {}", exemption.kind, exemption.reason)];
        if exemption.lets_through.is_empty() {
            body.push("        (lets nothing through)".to_owned());
        }
        body.extend(exemption.lets_through.iter().map(|item| format!("        {item}")));
        Listed { header, body }
    }

    fn lines(&self, sign: char) -> Vec<String> {
        std::iter::once(&self.header).chain(&self.body).map(|line| format!("{sign} {line}")).collect()
    }
}

/// The exemptions of an analysis, in file and line order.
fn listed(root: &Path, exemptions: &[ExemptionReport]) -> Vec<(Listed, Location)> {
    let mut lines = SourceLines::default();
    let mut in_order: Vec<&ExemptionReport> = exemptions.iter().collect();
    in_order.sort_by(|a, b| {
        (&a.location.file, a.covered_line, a.location.line).cmp(&(&b.location.file, b.covered_line, b.location.line))
    });
    in_order
        .into_iter()
        .map(|exemption| (Listed::of(root, exemption, &mut lines), exemption.location.clone()))
        .collect()
}

/// The list file for `exemptions`.
pub fn render(root: &Path, exemptions: &[ExemptionReport]) -> String {
    let mut out = String::from(HEADER);
    for (listed, _) in listed(root, exemptions) {
        out.push('\n');
        out.push_str(&listed.header);
        out.push('\n');
        for line in &listed.body {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Writes the list to `path`, atomically.
pub fn write(path: &Path, root: &Path, exemptions: &[ExemptionReport]) -> Result<(), FileError> {
    write_atomically(path, render(root, exemptions).as_bytes()).map_err(|err| FileError {
        file: path.to_owned(),
        line: None,
        message: format!("could not write the exemptions list: {err}"),
    })
}

/// A list as read from its file, each entry with the line it starts on.
#[derive(Debug)]
pub struct ExemptionsList {
    path: PathBuf,
    entries: Vec<(Listed, u32)>,
}

impl ExemptionsList {
    pub fn read(path: &Path) -> Result<ExemptionsList, FileError> {
        let text = read_kept_file(path, "write it with `--exemptions FILE --write-exemptions`")?;
        ExemptionsList::parse(path, &text)
    }

    /// Reads a list written by `render` (comments and blank lines aside).
    pub fn parse(path: &Path, text: &str) -> Result<ExemptionsList, FileError> {
        let mut entries: Vec<(Listed, u32)> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with(char::is_whitespace) {
                let Some((current, _)) = entries.last_mut() else {
                    return Err(FileError {
                        file: path.to_owned(),
                        line: Some(index as u32 + 1),
                        message: "an indented line before any `file: line` of an exemption".to_owned(),
                    });
                };
                current.body.push(line.to_owned());
            } else {
                entries.push((Listed { header: line.to_owned(), body: Vec::new() }, index as u32 + 1));
            }
        }
        Ok(ExemptionsList { path: path.to_owned(), entries })
    }
}

/// Where the list and the exemptions in the code disagree: an exemption
/// the list lacks, one it has that the code does not, or one whose reason or what it
/// lets through changed.
pub fn compare(list: &ExemptionsList, root: &Path, exemptions: &[ExemptionReport]) -> Vec<Disagreement> {
    let path = list.path.as_path();
    let mut in_file = list.entries.clone();
    let shown = relative(root, path);
    let mut in_code = listed(root, exemptions);
    in_code.retain(|(listed, _)| match in_file.iter().position(|(l, _)| l == listed) {
        Some(at) => {
            in_file.remove(at);
            false
        }
        None => true,
    });
    let mut disagreements = Vec::new();
    for (listed, location) in in_code {
        let disagreement = match in_file.iter().position(|(l, _)| l.header == listed.header) {
            Some(at) => {
                let (before, _) = in_file.remove(at);
                let mut diff: Vec<String> = before
                    .body
                    .iter()
                    .filter(|line| !listed.body.contains(line))
                    .map(|line| format!("- {line}"))
                    .collect();
                diff.extend(
                    listed.body.iter().filter(|line| !before.body.contains(line)).map(|line| format!("+ {line}")),
                );
                Disagreement {
                    code: "exemptions-list-differs",
                    location,
                    message: format!(
                        "this exemption differs from {shown}: review it, then run with `--write-exemptions`"
                    ),
                    diff: std::iter::once(format!("  {}", listed.header)).chain(diff).collect(),
                    function: None,
                }
            }
            None => Disagreement {
                code: "exemptions-list-differs",
                location,
                message: format!("exemption not in {shown}: review it, then run with `--write-exemptions`"),
                diff: listed.lines('+'),
                function: None,
            },
        };
        disagreements.push(disagreement);
    }
    for (listed, line) in in_file {
        disagreements.push(Disagreement {
            code: "exemptions-list-differs",
            location: line_location(path, line),
            message: format!(
                "{shown} lists an exemption the code no longer has: `{}`; run with `--write-exemptions`",
                listed.header
            ),
            diff: listed.lines('-'),
            function: None,
        });
    }
    disagreements
}
