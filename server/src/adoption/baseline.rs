//! The baseline: findings a team accepted when it adopted noalloc, so that a check
//! fails only on new ones. A TOML file of `[[finding]]` tables, sorted, keyed by
//! file, function, kind, reasons and the text of the line (never its number), so
//! that moving code keeps its entries. Reading, writing and comparing it live here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{line_location, read_kept_file, relative, Disagreement, FileError, SourceLines};
use crate::engine::Finding;
use crate::stdx::write_atomically;

/// One accepted finding. Two identical findings are two identical entries.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    /// Relative to the workspace root, `/`-separated.
    pub file: String,
    pub function: String,
    /// `allocation`, `may-grow` or `swallowed-error`.
    pub kind: String,
    pub reasons: Vec<String>,
    /// The finding's line, without indentation (`SourceLines::key`).
    pub source: String,
}

impl Entry {
    pub fn of(root: &Path, finding: &Finding, lines: &mut SourceLines) -> Entry {
        Entry {
            file: relative(root, &finding.location.file),
            function: finding.function.clone(),
            kind: finding.kind.code().to_owned(),
            reasons: finding.reasons.clone(),
            source: lines.key(&finding.location.file, finding.location.line),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct BaselineFile<E> {
    #[serde(rename = "finding", default = "Vec::new")]
    findings: Vec<E>,
}

const HEADER: &str = "\
# noalloc baseline: the findings accepted when it was recorded (`--baseline FILE --start`).
# `--baseline FILE` fails on findings not listed here, and on listed ones that are gone
# until `--baseline FILE --prune` drops them. Keyed by the text of the line, not its number.
";

/// A baseline as read, each entry with the line of the file it starts on.
#[derive(Debug)]
pub struct Baseline {
    path: PathBuf,
    entries: Vec<(Entry, u32)>,
}

impl Baseline {
    pub fn read(path: &Path) -> Result<Baseline, FileError> {
        let text = read_kept_file(path, "record one with `--baseline FILE --start`")?;
        Baseline::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Baseline, FileError> {
        let file: BaselineFile<toml::Spanned<Entry>> = toml::from_str(text).map_err(|err| FileError {
            file: path.to_owned(),
            line: err.span().map(|span| line_of(text, span.start)),
            message: err.message().to_owned(),
        })?;
        let entries = file
            .findings
            .into_iter()
            .map(|spanned| {
                let line = line_of(text, spanned.span().start);
                (spanned.into_inner(), line)
            })
            .collect();
        Ok(Baseline { path: path.to_owned(), entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// 1-based line of byte `offset`.
fn line_of(text: &str, offset: usize) -> u32 {
    text[..offset.min(text.len())].matches('\n').count() as u32 + 1
}

/// The baseline file for `entries`: sorted, so that it diffs well.
pub fn render(entries: &[Entry]) -> String {
    let mut findings = entries.to_vec();
    findings.sort();
    let body = toml::to_string(&BaselineFile { findings }).expect("a baseline serialises");
    format!("{HEADER}\n{body}")
}

/// Writes `entries` to `path`, atomically.
pub fn write(path: &Path, entries: &[Entry]) -> Result<(), FileError> {
    write_atomically(path, render(entries).as_bytes()).map_err(|err| FileError {
        file: path.to_owned(),
        line: None,
        message: format!("could not write the baseline: {err}"),
    })
}

/// How today's findings stand against a baseline.
#[derive(Debug)]
pub struct Comparison {
    /// Whether each finding (in the order given) is listed in the baseline.
    pub listed: Vec<bool>,
    /// Entries that no finding matches any more, in file order.
    pub stale: Vec<Disagreement>,
    /// The entries that still match a finding: the baseline after `--prune`.
    pub kept: Vec<Entry>,
}

impl Comparison {
    pub fn baselined(&self) -> usize {
        self.listed.iter().filter(|listed| **listed).count()
    }
}

/// Matches each finding's entry to one baseline entry with the same key.
pub fn compare(baseline: &Baseline, current: &[Entry]) -> Comparison {
    let mut unmatched: HashMap<&Entry, Vec<u32>> = HashMap::new();
    for (entry, line) in baseline.entries.iter().rev() {
        unmatched.entry(entry).or_default().push(*line);
    }
    let mut kept = Vec::new();
    let listed = current
        .iter()
        .map(|entry| {
            let matched = unmatched.get_mut(entry).and_then(Vec::pop).is_some();
            if matched {
                kept.push(entry.clone());
            }
            matched
        })
        .collect();
    let mut stale: Vec<(u32, &Entry)> =
        unmatched.into_iter().flat_map(|(entry, lines)| lines.into_iter().map(move |line| (line, entry))).collect();
    stale.sort();
    let stale = stale
        .into_iter()
        .map(|(line, entry)| Disagreement {
            code: "stale-baseline-entry",
            location: line_location(&baseline.path, line),
            message: format!(
                "stale baseline entry: `{}` no longer has this finding in {}: `{}` ({}); run with `--prune` to drop it",
                entry.function,
                entry.file,
                entry.source,
                entry.reasons.join("; ")
            ),
            diff: Vec::new(),
            function: Some(entry.function.clone()),
        })
        .collect();
    Comparison { listed, stale, kept }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;

    fn entry(function: &str, source: &str) -> Entry {
        Entry {
            file: "src/lib.rs".into(),
            function: function.into(),
            kind: "allocation".into(),
            reasons: vec!["calls alloc::string::String::from".into()],
            source: source.into(),
        }
    }

    #[test]
    fn renders_sorted_toml_and_reads_it_back_with_line_numbers() {
        let entries = [entry("k::g", "String::from(\"b\")"), entry("k::f", "String::from(\"a\")")];
        let text = render(&entries);
        expect![[r#"
            # noalloc baseline: the findings accepted when it was recorded (`--baseline FILE --start`).
            # `--baseline FILE` fails on findings not listed here, and on listed ones that are gone
            # until `--baseline FILE --prune` drops them. Keyed by the text of the line, not its number.

            [[finding]]
            file = "src/lib.rs"
            function = "k::f"
            kind = "allocation"
            reasons = ["calls alloc::string::String::from"]
            source = 'String::from("a")'

            [[finding]]
            file = "src/lib.rs"
            function = "k::g"
            kind = "allocation"
            reasons = ["calls alloc::string::String::from"]
            source = 'String::from("b")'
        "#]]
        .assert_eq(&text);
        let baseline = Baseline::parse(Path::new("b.toml"), &text).unwrap();
        let lines: Vec<u32> = baseline.entries.iter().map(|(_, line)| *line).collect();
        assert_eq!(lines, [5, 12]);
    }

    #[test]
    fn identical_findings_are_counted_not_merged() {
        let twice = [entry("k::f", "g()"), entry("k::f", "g()")];
        let baseline = Baseline::parse(Path::new("b.toml"), &render(&twice)).unwrap();
        let three = [entry("k::f", "g()"), entry("k::f", "g()"), entry("k::f", "g()")];
        let comparison = compare(&baseline, &three);
        assert_eq!(comparison.listed, [true, true, false]);
        let once = compare(&baseline, &three[..1]);
        assert_eq!(once.stale.len(), 1);
        assert_eq!(once.kept, &three[..1]);
    }

    #[test]
    fn a_malformed_baseline_names_its_line() {
        let error = Baseline::parse(Path::new("b.toml"), "[[finding]]\nfile = \"a\"\n").unwrap_err();
        assert_eq!(error.file, Path::new("b.toml"));
        assert!(error.line.is_some(), "{error}");
        assert!(error.message.contains("missing field"), "{error}");
    }
}
