//! The documents' links resolve: every relative link in README.md, ARCHITECTURE.md,
//! docs/*.md and the crates' READMEs names a file or directory of the repository,
//! and its `#anchor`, if any, a heading of the page it points at (as GitHub anchors
//! headings). Links with a scheme (`https:`, `mailto:`) are not followed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The pages whose links are checked, relative to the repository's root.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> =
        ["README.md", "ARCHITECTURE.md", "editors/README.md", "bounded/README.md", "json/README.md"]
            .iter()
            .map(PathBuf::from)
            .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("the repository has docs/")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| path.strip_prefix(root).unwrap().to_path_buf())
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The text with fenced code blocks and inline code spans blanked out (newlines
/// kept, so byte offsets and line numbers stay those of the file).
fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        let opens = marker.len() >= 3 && marker.chars().all(|c| c == marker.chars().next().unwrap());
        match &fence {
            Some(open) if opens && trimmed.trim_end() == marker && marker.starts_with(open.as_str()) => {
                fence = None;
                out.push_str(&blank(line));
            }
            Some(_) => out.push_str(&blank(line)),
            None if opens => {
                fence = Some(marker);
                out.push_str(&blank(line));
            }
            None => out.push_str(line),
        }
    }
    blank_code_spans(&out)
}

fn blank(s: &str) -> String {
    s.chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect()
}

/// Inline code spans (a run of backticks to the next run of the same length, across
/// lines) blanked out.
fn blank_code_spans(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            let next = text[i..].find('`').map_or(text.len(), |n| i + n);
            out.push_str(&text[i..next]);
            i = next;
            continue;
        }
        let run = text[i..].bytes().take_while(|&b| b == b'`').count();
        let ticks = &text[i..i + run];
        // The closing run: the same number of backticks, not part of a longer run.
        let mut search = i + run;
        let close = loop {
            match text[search..].find(ticks) {
                Some(n) => {
                    let at = search + n;
                    let len = text[at..].bytes().take_while(|&b| b == b'`').count();
                    if len == run {
                        break Some(at);
                    }
                    search = at + len;
                }
                None => break None,
            }
        };
        match close {
            Some(at) => {
                out.push_str(&blank(&text[i..at + run]));
                i = at + run;
            }
            None => {
                out.push_str(ticks);
                i += run;
            }
        }
    }
    out
}

/// Each inline link's target (`[text](target)`, `![alt](target)`) with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    let prose = prose(text);
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(n) = prose[from..].find("](") {
        let start = from + n + 2;
        from = start;
        let rest = &prose[start..];
        let Some(end) = rest.find(')') else { continue };
        let inside = rest[..end].trim();
        let target = inside.split_whitespace().next().unwrap_or("").trim_start_matches('<').trim_end_matches('>');
        if target.is_empty() {
            continue;
        }
        let line = prose[..start].matches('\n').count() + 1;
        links.push((line, target.to_owned()));
    }
    links
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`),
/// spaces as `-`; a link in it counts by its text.
pub fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // `[text](target)` -> `text`.
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](").map(|n| open + n) else { break };
        let Some(close) = rest[mid..].find(')').map(|n| mid + n) else { break };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..mid]);
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings, GitHub style: a repeated one gets `-1`, `-2`, ...
fn anchors(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = Vec::new();
    for (line, original) in prose.lines().zip(text.lines()) {
        let trimmed = line.trim_start();
        let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
        if !(1..=6).contains(&hashes) || line.len() - trimmed.len() > 3 || !trimmed[hashes..].starts_with(' ') {
            continue;
        }
        // The heading as written (code spans included), without the closing `#`s.
        let heading = original.trim_start()[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(heading);
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.push(if *count == 0 { base.clone() } else { format!("{base}-{count}") });
        *count += 1;
    }
    anchors
}

/// A rustdoc intra-doc link (`[`Vec<T>`](Vec)` in a crate README that is also the
/// crate's documentation): a Rust path, not a file.
fn is_rust_path(target: &str) -> bool {
    !target.is_empty() && target.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':')
}

/// Every broken link of the pages under `root`, as `page:line: target: why`.
pub fn broken_links(root: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for page in pages(root) {
        let text = std::fs::read_to_string(root.join(&page)).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let dir = page.parent().unwrap_or(Path::new(""));
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let mut report = |why: String| broken.push(format!("{}:{line}: {target}: {why}", page.display()));
            let resolved = if path.is_empty() {
                page.clone()
            } else if let Some(from_root) = path.strip_prefix('/') {
                PathBuf::from(from_root)
            } else {
                dir.join(path)
            };
            if !root.join(&resolved).exists() {
                if anchor.is_none() && is_rust_path(path) {
                    continue;
                }
                report(format!("no file {}", resolved.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if resolved.extension().is_none_or(|ext| ext != "md") {
                report(format!("an anchor into {}, which is no markdown page", resolved.display()));
                continue;
            }
            let target_text = std::fs::read_to_string(root.join(&resolved)).unwrap();
            if !anchors(&target_text).iter().any(|a| a == anchor) {
                report(format!("no heading #{anchor} in {}", resolved.display()));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_in_the_documents_resolves() {
    let root = crate::package_dir().join("..").canonicalize().unwrap();
    let broken = broken_links(&root);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn headings_are_anchored_as_github_does() {
    assert_eq!(slug("Inside `noalloc-ls`"), "inside-noalloc-ls");
    assert_eq!(slug("Soundness: silence means \"proved clean\""), "soundness-silence-means-proved-clean");
    assert_eq!(
        slug("Edits are read from the text, by the names they touch"),
        "edits-are-read-from-the-text-by-the-names-they-touch"
    );
    assert_eq!(slug("`cargo noalloc`"), "cargo-noalloc");
    assert_eq!(slug("See [the map](x.md) first"), "see-the-map-first");
    assert_eq!(anchors("# A\n\n```\n# not a heading\n```\n## A\n"), ["a", "a-1"]);
}

#[test]
fn links_in_code_are_not_links() {
    let text = "[a](one.md) `[b](two.md)`\n```\n[c](three.md)\n```\n[d\ne](four.md#x)\n";
    assert_eq!(links(text), [(1, "one.md".to_owned()), (6, "four.md#x".to_owned())]);
}
