//! Adopting noalloc in code that already allocates: the allowlist (built-in and
//! `--allow FILE`), the baseline of accepted findings, the reviewed list of
//! exemptions, and where Cargo.toml names those files. Reads, writes and compares
//! those files; what allocates is decided by the engine alone.

pub mod allowlist;
pub mod baseline;
pub mod exemptions_file;
pub mod settings;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::engine::Location;

/// A place where a file the team keeps and the code disagree (a stale baseline
/// entry, an exemption the list does not show). It fails the check like an error
/// finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// `stale-baseline-entry` or `exemptions-list-differs`, as `"code"` in JSON.
    pub code: &'static str,
    pub location: Location,
    pub message: String,
    /// The lines that differ, `- ` as the file has them and `+ ` as the code has them.
    pub diff: Vec<String>,
    /// The workspace function the entry names, when it names one.
    pub function: Option<String>,
}

/// A file the tool reads could not be used: the check cannot run (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub file: PathBuf,
    /// 1-based, when one line is at fault.
    pub line: Option<u32>,
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// Reads a file the team keeps; a missing one says how to create it.
fn read_kept_file(path: &Path, how_to_create: &str) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|err| FileError {
        file: path.to_owned(),
        line: None,
        message: if err.kind() == std::io::ErrorKind::NotFound {
            format!("not found; {how_to_create}")
        } else {
            err.to_string()
        },
    })
}

/// A location at the start of line `line` of `file`.
fn line_location(file: &Path, line: u32) -> Location {
    Location { file: file.to_owned(), line, column: 1, end_line: line, end_column: 1 }
}

/// The lines of workspace source files, as keys that survive moving code: the text
/// of a line with its indentation, trailing `// noalloc:` comment and runs of
/// spaces taken out.
#[derive(Default)]
pub struct SourceLines {
    files: HashMap<PathBuf, Vec<String>>,
}

impl SourceLines {
    /// Line `line` (1-based) of `file`, normalised; empty when it can't be read.
    pub fn key(&mut self, file: &Path, line: u32) -> String {
        let lines = self
            .files
            .entry(file.to_owned())
            .or_insert_with(|| std::fs::read_to_string(file).unwrap_or_default().lines().map(normalise_line).collect());
        lines.get((line as usize).wrapping_sub(1)).cloned().unwrap_or_default()
    }
}

fn normalise_line(line: &str) -> String {
    let code = ["// noalloc:", "//noalloc:"]
        .iter()
        .filter_map(|marker| line.find(marker))
        .min()
        .map_or(line, |at| &line[..at]);
    code.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `path` relative to the workspace root, with `/` separators, for the files the
/// team keeps (the same on every machine).
fn relative(root: &Path, path: &Path) -> String {
    let shown = path.strip_prefix(root).unwrap_or(path);
    shown.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::normalise_line;

    #[test]
    fn a_line_key_drops_indentation_spacing_and_the_directive() {
        assert_eq!(
            normalise_line("    let s =  String::from(\"a\"); // noalloc:exempt measured: once"),
            "let s = String::from(\"a\");"
        );
        assert_eq!(normalise_line("\tf(x) //noalloc:exempt debug: log"), "f(x)");
        assert_eq!(normalise_line("  g(); // a comment stays"), "g(); // a comment stays");
    }
}
