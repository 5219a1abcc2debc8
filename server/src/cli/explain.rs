//! `--explain CODE`: the explanation of a finding code, as `rustc --explain` prints
//! one. The text is `finding-codes.md`, which is also docs/finding-codes.md under
//! its title (a test keeps the two equal), so there is one source.

use std::io::Write;

const FINDING_CODES: &str = include_str!("finding-codes.md");

/// Each code with its explanation, in the order of docs/finding-codes.md.
pub fn codes() -> Vec<(&'static str, &'static str)> {
    FINDING_CODES
        .split("\n### ")
        .skip(1)
        .filter_map(|section| {
            let (code, text) = section.split_once('\n')?;
            Some((code.trim(), text.trim()))
        })
        .collect()
}

/// The explanation of `code`, if it is one.
pub fn explanation(code: &str) -> Option<&'static str> {
    codes().into_iter().find(|(known, _)| *known == code).map(|(_, text)| text)
}

/// The README: the repository's (`repository` in Cargo.toml), else where the
/// project is expected to live.
pub fn readme_url() -> String {
    match env!("CARGO_PKG_REPOSITORY").trim_end_matches('/') {
        "" => "https://github.com/noalloc/noalloc/blob/main/README.md".to_owned(),
        repository => format!("{repository}/blob/main/README.md"),
    }
}

/// The section of docs/finding-codes.md that explains `code`, as a link.
pub fn readme_link(code: &str) -> String {
    let page = match env!("CARGO_PKG_REPOSITORY").trim_end_matches('/') {
        "" => "https://github.com/noalloc/noalloc/blob/main/docs/finding-codes.md".to_owned(),
        repository => format!("{repository}/blob/main/docs/finding-codes.md"),
    };
    match explanation(code) {
        Some(_) => format!("{page}#{code}"),
        None => format!("{page}#finding-codes"),
    }
}

/// Prints the explanation; an unknown code is an error listing the known ones.
pub fn run(code: &str, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match explanation(code) {
        Some(text) => {
            let _ = writeln!(out, "{code}\n\n{text}");
            super::EXIT_CLEAN
        }
        None => {
            let known: Vec<&str> = codes().into_iter().map(|(code, _)| code).collect();
            let _ = writeln!(err, "error: `{code}` is not a noalloc finding code (the codes: {})", known.join(", "));
            super::EXIT_COULD_NOT_RUN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{ErrorKind, FindingKind};

    /// docs/finding-codes.md is `finding-codes.md` under its title; `UPDATE_EXPECT=1`
    /// writes the page from the file.
    #[test]
    fn docs_page_is_the_explanations() {
        // As `cargo test` names the package now: the binary may be another checkout's.
        let package = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
        let path = std::path::Path::new(&package).join("../docs/finding-codes.md");
        let page = std::fs::read_to_string(&path).unwrap();
        let expected = format!("# Finding codes\n\n{}\n", FINDING_CODES.trim_end());
        if page != expected {
            if std::env::var_os("UPDATE_EXPECT").is_some() {
                std::fs::write(&path, expected).unwrap();
            } else {
                panic!("docs/finding-codes.md differs from server/src/cli/finding-codes.md: run with UPDATE_EXPECT=1");
            }
        }
        assert!(readme_link("allocation").ends_with("/docs/finding-codes.md#allocation"));
    }

    #[test]
    fn every_code_the_tool_reports_is_explained() {
        let engine_codes =
            FindingKind::ALL.map(FindingKind::code).into_iter().chain(ErrorKind::ALL.map(ErrorKind::code));
        for code in engine_codes.chain(["stale-baseline-entry", "exemptions-list-differs"]) {
            assert!(explanation(code).is_some(), "{code} has no explanation");
        }
        assert!(explanation("may-grow").unwrap().starts_with("The line grows a buffer"));
    }
}
