//! The files the editor has open: their text and version, incremental edits, and
//! the conversion between LSP positions (UTF-16 code units) and the engine's
//! 1-based line and byte column. Owns nothing of the analysis.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{Position, TextDocumentContentChangeEvent, Uri};

use crate::uri::file_uri;

/// One open file.
#[derive(Debug, Clone)]
pub struct Document {
    pub text: String,
    pub version: i32,
}

#[derive(Debug, Default)]
pub struct Documents {
    open: HashMap<PathBuf, Document>,
}

impl Documents {
    pub fn open(&mut self, path: PathBuf, text: String, version: i32) {
        self.open.insert(path, Document { text, version });
    }

    pub fn close(&mut self, path: &Path) -> Option<Document> {
        self.open.remove(path)
    }

    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.open.get(path)
    }

    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.open.keys().map(PathBuf::as_path)
    }

    /// Applies `didChange` events in order. A range that is out of bounds is clamped,
    /// the way editors do, rather than refused.
    pub fn change(
        &mut self,
        path: &Path,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Result<&Document, String> {
        let doc = self.open.get_mut(path).ok_or_else(|| format!("{} is not open", path.display()))?;
        for change in changes {
            match change.range {
                None => doc.text = change.text,
                Some(range) => {
                    let start = offset(&doc.text, range.start);
                    let end = offset(&doc.text, range.end).max(start);
                    doc.text.replace_range(start..end, &change.text);
                }
            }
        }
        doc.version = version;
        Ok(doc)
    }
}

/// The byte offset of an LSP position (UTF-16), clamped to the text.
pub fn offset(text: &str, position: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
    let mut units = 0;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= position.character {
            return line_start + i;
        }
        units += c.len_utf16() as u32;
    }
    line_end
}

/// The LSP position of a byte offset.
pub fn position(text: &str, offset: usize) -> Position {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = text[line_start..offset].chars().map(|c| c.len_utf16() as u32).sum();
    Position { line, character }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Where each line of a text starts: positions in a large file without rescanning it
/// for every finding.
#[derive(Debug, Clone)]
pub struct LineStarts(Vec<usize>);

impl LineStarts {
    pub fn new(text: &str) -> LineStarts {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineStarts(starts)
    }

    /// The LSP position of the engine's 1-based line and byte column, clamped to
    /// the text.
    pub fn position(&self, text: &str, line: u32, column: u32) -> Position {
        let line0 = line.max(1) as usize - 1;
        let Some(&line_start) = self.0.get(line0) else {
            return position(text, text.len());
        };
        let line_end = self.0.get(line0 + 1).map_or(text.len(), |&next| next - 1);
        let byte = floor_char_boundary(text, (line_start + column.saturating_sub(1) as usize).min(line_end));
        let character = text[line_start..byte].chars().map(|c| c.len_utf16() as u32).sum();
        Position { line: line0 as u32, character }
    }
}

/// The text of line `line` (0-based), without its newline.
pub fn line_text(text: &str, line: u32) -> Option<&str> {
    text.split('\n').nth(line as usize).map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// `file://` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> Uri {
    file_uri(path).parse().unwrap_or_else(|_| "file:///".parse().expect("a valid URI"))
}

/// The path of a `file://` URI; `None` for other schemes.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let mut bytes = Vec::with_capacity(rest.len());
    let raw = rest.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%' && i + 2 < raw.len() {
            if let Ok(byte) = u8::from_str_radix(&rest[i + 1..i + 3], 16) {
                bytes.push(byte);
                i += 3;
                continue;
            }
        }
        bytes.push(raw[i]);
        i += 1;
    }
    let decoded = String::from_utf8(bytes).ok()?;
    Some(PathBuf::from(decoded))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Range;

    #[test]
    fn positions_count_utf16_units() {
        let text = "fn a() {}\nlet é = \"𝄞x\";\n";
        let p = Position { line: 1, character: 11 }; // after the surrogate pair
        assert_eq!(&text[offset(text, p)..offset(text, p) + 1], "x");
        assert_eq!(position(text, offset(text, p)), p);
        // The engine's column is in bytes: `x` is byte 14 (1-based 15) of line 2.
        assert_eq!(LineStarts::new(text).position(text, 2, 15), p);
        // Out of range clamps.
        assert_eq!(offset(text, Position { line: 0, character: 99 }), 9);
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
    }

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut docs = Documents::default();
        let path = PathBuf::from("/w/src/lib.rs");
        docs.open(path.clone(), "fn a() {}\n".into(), 1);
        let edit = |sl, sc, el, ec, text: &str| TextDocumentContentChangeEvent {
            range: Some(Range { start: Position::new(sl, sc), end: Position::new(el, ec) }),
            range_length: None,
            text: text.into(),
        };
        let doc = docs.change(&path, 2, vec![edit(0, 3, 0, 4, "bc"), edit(0, 0, 0, 0, "pub ")]).unwrap();
        assert_eq!(doc.text, "pub fn bc() {}\n");
        assert_eq!(doc.version, 2);
    }

    #[test]
    fn uris_round_trip() {
        let path = Path::new("/tmp/a b/ü#.rs");
        let uri = path_to_uri(path);
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC%23.rs");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        assert_eq!(uri_to_path(&"untitled:Untitled-1".parse().unwrap()), None);
    }
}
