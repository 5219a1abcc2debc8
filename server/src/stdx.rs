//! Small helpers more than one part of the crate uses, none of them about
//! allocation (in the manner of rust-analyzer's `stdx`): path patterns with `*`,
//! whole-word search in source text, atomic file writes, a file's path for
//! messages, and the attributes that are inert wherever they stand. What uses them
//! decides what they mean; nothing here knows a rule of the engine.

use std::path::Path;

use ra_ap_ide_db::base_db::SourceDatabase;
use ra_ap_vfs::FileId;

/// `*` matches any run of characters; everything else matches itself. How
/// `--root` patterns and allowlist lines match paths.
pub fn wildcard_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `b` can be part of an ASCII identifier.
pub(crate) fn is_ident_byte(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

/// Whether the `len` bytes at `at` are a whole word: no byte of an ASCII
/// identifier right before or after them.
pub(crate) fn whole_word_at(bytes: &[u8], at: usize, len: usize) -> bool {
    (at == 0 || !is_ident_byte(bytes[at - 1])) && bytes.get(at + len).is_none_or(|&b| !is_ident_byte(b))
}

/// Whether `text` holds `word` (a finder's needle) as a whole word: in code, a
/// comment or a literal.
pub(crate) fn spells_word(text: &str, word: &memchr::memmem::Finder<'_>) -> bool {
    let bytes = text.as_bytes();
    word.find_iter(bytes).any(|at| whole_word_at(bytes, at, word.needle().len()))
}

/// Whether `text` holds one of `words` as a whole word (`spells_word`).
pub(crate) fn spells_any(text: &str, words: &[memchr::memmem::Finder<'_>]) -> bool {
    words.iter().any(|word| spells_word(text, word))
}

/// A finder for each of `words`.
pub(crate) fn finders_of<'a>(words: impl IntoIterator<Item = &'a String>) -> Vec<memchr::memmem::Finder<'static>> {
    words.into_iter().map(|word| memchr::memmem::Finder::new(word.as_bytes()).into_owned()).collect()
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`:
/// an interrupted write leaves the old file as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// A file of the database by its path, for messages (its id when it has none).
pub(crate) fn path_of(db: &dyn SourceDatabase, file: FileId) -> String {
    let path =
        db.source_root(db.file_source_root(file).source_root_id(db)).source_root(db).path_for_file(&file).cloned();
    path.map_or_else(|| format!("{file:?}"), |path| path.to_string())
}

/// Built-in attributes that neither read a body, nor make items, nor make code
/// reachable from elsewhere: lints, docs, inlining and hints, `cfg` (rust-analyzer
/// has applied it already), tests. The readers of attributes each add what is
/// inert for their own question (`edit_digest::is_inert`: code generation and
/// linkage; `sealed_files`: layout).
pub(crate) const INERT_ATTRIBUTES: [&str; 15] = [
    "allow",
    "warn",
    "deny",
    "forbid",
    "expect",
    "deprecated",
    "doc",
    "inline",
    "cold",
    "must_use",
    "track_caller",
    "cfg",
    "test",
    "ignore",
    "should_panic",
];

#[cfg(test)]
mod tests {
    use super::{wildcard_match, write_atomically};

    #[test]
    fn wildcards() {
        assert!(wildcard_match("krate::m::f", "krate::m::f"));
        assert!(!wildcard_match("krate::m::f", "krate::m::g"));
        assert!(wildcard_match("krate::*", "krate::m::f"));
        assert!(wildcard_match("*::handle", "krate::Server::handle"));
        assert!(wildcard_match("krate::*::new*", "krate::a::b::new_with"));
        assert!(!wildcard_match("krate::*::new", "other::a::new"));
    }

    #[test]
    fn an_interrupted_write_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("baseline.json");
        write_atomically(&path, b"old").unwrap();
        // A write that fails before the rename (the target's directory entry is
        // replaced by a directory, so persisting cannot succeed) keeps the old bytes
        // of a sibling file intact and leaves no partial file behind.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("inner"), b"x").unwrap();
        assert!(write_atomically(&blocked, b"new").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.starts_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}
