//! The allowlist: functions whose calls are not reported. noalloc's own short list
//! (only where the source cannot show the truth, each entry with its reason) and
//! the lines of an `--allow FILE`. Matching calls against it is the engine's job.

use std::path::Path;

use super::{read_kept_file, FileError};
use crate::engine::{AllowEntry, AllowSource};

/// The kinds an allowlist line may give: those of `// noalloc:exempt <kind>:
/// <reason>` (calls are not reported), and `growth` (calls grow their receiver and
/// are judged like `Vec::push`).
pub const KINDS: &[&str] = &["amortized", "measured", "debug", "profiling", crate::engine::GROWTH_KIND];

/// The built-in entries (the engine's own list, `engine::builtin`), in the order
/// they go first in `CheckConfig::allow`.
pub fn built_in() -> Vec<AllowEntry> {
    crate::engine::builtin::entries()
}

/// Reads an `--allow` file: lines `kind: path::to::function`, blank lines and `#`
/// comments. The first malformed line is an error with its line number.
/// The whole allowlist of a check: the built-in entries, then `file`'s lines.
pub fn with_file(file: Option<&Path>) -> Result<Vec<AllowEntry>, FileError> {
    let mut allow = built_in();
    if let Some(path) = file {
        allow.extend(read(path)?);
    }
    Ok(allow)
}

pub fn read(path: &Path) -> Result<Vec<AllowEntry>, FileError> {
    let text = read_kept_file(path, "write lines `amortized|measured|debug|profiling|growth: path::to::function`")?;
    parse(path, &text)
}

pub fn parse(path: &Path, text: &str) -> Result<Vec<AllowEntry>, FileError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index as u32 + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let malformed = |message: String| FileError { file: path.to_owned(), line: Some(line_number), message };
        let (kind, function) = match line.split_once(':') {
            Some((kind, function)) if !kind.trim().contains(char::is_whitespace) => (kind.trim(), function.trim()),
            _ => return Err(malformed(format!("expected `kind: path::to::function`, found `{line}`"))),
        };
        if !KINDS.contains(&kind) {
            return Err(malformed(format!(
                "unknown allowlist kind `{kind}` (expected amortized, measured, debug, profiling or growth) in `{line}`"
            )));
        }
        if function.is_empty() || function.starts_with(':') {
            return Err(malformed(format!("expected a function path after `{kind}:`, found `{line}`")));
        }
        entries.push(AllowEntry {
            kind: kind.to_owned(),
            path: function.to_owned(),
            source: AllowSource::File { file: path.to_owned(), line: line_number },
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn lines_comments_and_blank_lines() {
        let text = "
# amortised: grows to the high-water mark once
amortized: alloc::vec::Vec::push
  debug :  app::log::trace   
growth: ring::Ring::push
";
        let entries = parse(Path::new("allow.txt"), text).unwrap();
        assert_eq!(
            entries,
            vec![
                AllowEntry {
                    kind: "amortized".into(),
                    path: "alloc::vec::Vec::push".into(),
                    source: AllowSource::File { file: "allow.txt".into(), line: 3 },
                },
                AllowEntry {
                    kind: "debug".into(),
                    path: "app::log::trace".into(),
                    source: AllowSource::File { file: "allow.txt".into(), line: 4 },
                },
                AllowEntry {
                    kind: "growth".into(),
                    path: "ring::Ring::push".into(),
                    source: AllowSource::File { file: "allow.txt".into(), line: 5 },
                },
            ]
        );
    }

    #[test]
    fn a_malformed_line_is_an_error_with_its_line_number() {
        let error = |text: &str| parse(Path::new("allow.txt"), text).unwrap_err().to_string();
        assert_eq!(
            error("debug: a::b\nalloc::vec::Vec::push\n"),
            "allow.txt:2: unknown allowlist kind `alloc` (expected amortized, measured, debug, profiling or growth) in `alloc::vec::Vec::push`"
        );
        assert_eq!(
            error("\n\namortized a::b"),
            "allow.txt:3: expected `kind: path::to::function`, found `amortized a::b`"
        );
        assert_eq!(error("measured:   "), "allow.txt:1: expected a function path after `measured:`, found `measured:`");
    }

    #[test]
    fn every_built_in_entry_has_a_known_kind_and_a_reason() {
        for entry in built_in() {
            assert!(KINDS.contains(&entry.kind.as_str()), "{entry:?}");
            let AllowSource::BuiltIn { reason } = entry.source else { panic!("{entry:?}") };
            assert!(!reason.is_empty());
        }
    }
}
