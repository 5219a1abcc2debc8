//! The macros that std and the dependencies export, read from their source text:
//! where each body is (`exported_macros`), and which of them can bring a word into
//! a workspace crate's code (`LibraryMacros::bringing`). Knows nothing of edits
//! or roots (`item_edits`, `sealed_files`).
//!
//! Why. A library's bodies cannot name a workspace item: no crate of std or of the
//! dependencies depends on a workspace crate. Only an exported macro can, since
//! it expands in its caller's crate. It does so only if a workspace crate calls it,
//! and a call spells the macro's name: in a workspace file, in the body of
//! another exported macro a workspace crate calls, or in what a procedural macro
//! makes. A macro a workspace crate never calls brings nothing into it.
//!
//! A macro is also reachable under another name in two ways:
//! - a re-export, as in `pub use inner as outer;`;
//! - a definition made by a call, as in `macro_rules! $name { … }`, whose name
//!   comes from the call's input.
//!
//! Both are followed (`bringing`).

use std::ops::Range;

use ra_ap_rustc_lexer::TokenKind;
use rustc_hash::{FxHashMap, FxHashSet};
use triomphe::Arc;

use crate::engine::load::deferred_intrinsics::{is_trivia, tokens};
use crate::stdx::{finders_of, is_ident_byte, whole_word_at};

/// A macro another crate can call, as written in a file's text.
pub(crate) struct ExportedMacro<'a> {
    /// Its name; `None` when a caller gives it (`macro_rules! $name`) or it is
    /// made otherwise.
    pub(crate) name: Option<&'a str>,
    /// From its first delimited group to the end of its last: its rules, or its
    /// parameters and body (`macro m($x:expr) { … }`).
    pub(crate) body: &'a str,
}

/// The macros defined in `text` that another crate can call, each from its keyword
/// to the end of its last delimited group. Another crate can call a
/// `macro_rules!` only if it is `#[macro_export]`ed (none is, in a file that never
/// spells the word), and a `macro` only if it is `pub`. A definition inside another
/// macro's body is one too.
pub(crate) fn exported_macros(text: &str) -> impl Iterator<Item = ExportedMacro<'_>> {
    let bytes = text.as_bytes();
    let exports = text.contains("macro_export");
    memchr::memmem::find_iter(bytes, "macro").filter_map(move |at| {
        let rules = bytes[at..].starts_with(b"macro_rules");
        let len = if rules { "macro_rules".len() } else { "macro".len() };
        let public = if rules { exports } else { text[..at].trim_end().ends_with("pub") };
        (public && whole_word_at(bytes, at, len)).then(|| macro_after_keyword(&text[at + len..], rules)).flatten()
    })
}

/// The macro whose definition `text` goes on with, after its keyword (`rules`:
/// `macro_rules!`): up to the end of its first delimited group, and of the one
/// right after it. `None` when `text` does not go on as a macro's definition does
/// (the word in prose).
fn macro_after_keyword(text: &str, rules: bool) -> Option<ExportedMacro<'_>> {
    let offset_of = |piece: &str| piece.as_ptr() as usize - text.as_ptr() as usize;
    let mut tokens = tokens(text).filter(|&(kind, _)| !is_trivia(kind)).peekable();
    if rules && !matches!(tokens.next(), Some((TokenKind::Bang, _))) {
        return None;
    }
    let name = match *tokens.peek()? {
        (TokenKind::Ident | TokenKind::RawIdent, name) => {
            tokens.next();
            Some(name.trim_start_matches("r#"))
        }
        (TokenKind::Dollar, _) => {
            // `$name`, bound by the enclosing macro's call.
            tokens.next();
            tokens.next();
            None
        }
        // Made otherwise (`[<make_ $name>]` in a `paste!` call).
        _ => None,
    };
    let mut depth = 0usize;
    let mut groups = 0usize;
    let mut body: Option<Range<usize>> = None;
    for (kind, piece) in tokens {
        let open = matches!(kind, TokenKind::OpenParen | TokenKind::OpenBrace | TokenKind::OpenBracket);
        let at = offset_of(piece);
        if depth == 0 && !open {
            // Past the last group, or no group at all.
            break;
        }
        let body = body.get_or_insert(at..at);
        body.end = at + piece.len();
        match kind {
            _ if open => depth += 1,
            TokenKind::CloseParen | TokenKind::CloseBrace | TokenKind::CloseBracket => {
                depth -= 1;
                if depth == 0 {
                    groups += 1;
                    if groups == 2 {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    body.map(|body| ExportedMacro { name, body: &text[body] })
}

/// The exported macros of the library files, read once.
pub(crate) struct LibraryMacros {
    texts: Vec<Arc<str>>,
    macros: Vec<MacroBody>,
    /// The macros whose calls may define a macro named by their input: one whose
    /// body defines `macro_rules! $name`, or calls (spells) such a one.
    defining: FxHashSet<String>,
    renames: Renames,
    /// The macros that may bring `include` (`include!`, which may take in a
    /// library's file); `None`: cannot tell.
    including: Option<Vec<memchr::memmem::Finder<'static>>>,
}

/// An exported macro's name and where its body is.
struct MacroBody {
    name: Option<String>,
    text: usize,
    body: Range<usize>,
    /// Whether it is in the body of a macro with a name, which spells what it does:
    /// the name of one without is then that macro's callers' to give.
    held: bool,
    /// The words its expansion may hold where a path can be (`expandable_words`).
    words: FxHashSet<String>,
    /// The identifiers it builds from pieces (`built_identifiers`): it may bring
    /// any word one of them matches.
    builds: Vec<BuiltIdentifier>,
}

impl LibraryMacros {
    /// Reads the exported macros of `texts`, the library files' texts.
    pub(crate) fn read(texts: Vec<Arc<str>>) -> LibraryMacros {
        let mut macros = Vec::new();
        let mut renames = Renames::default();
        for (index, text) in texts.iter().enumerate() {
            renames.read(text);
            for found in exported_macros(text) {
                let start = found.body.as_ptr() as usize - text.as_bytes().as_ptr() as usize;
                let body = start..start + found.body.len();
                let words = expandable_words(found.body);
                let builds = built_identifiers(found.body);
                macros.push(MacroBody {
                    name: found.name.map(str::to_owned),
                    text: index,
                    body,
                    held: false,
                    words,
                    builds,
                });
            }
        }
        let holds = |outer: &MacroBody, inner: &MacroBody| {
            outer.name.is_some()
                && outer.text == inner.text
                && outer.body.start < inner.body.start
                && inner.body.end <= outer.body.end
        };
        let mut templated = Vec::new();
        for index in 0..macros.len() {
            if macros[index].name.is_some() {
                continue;
            }
            let holders: Vec<usize> =
                (0..macros.len()).filter(|&outer| holds(&macros[outer], &macros[index])).collect();
            macros[index].held = !holders.is_empty();
            templated.extend(holders.into_iter().filter_map(|outer| macros[outer].name.clone()));
        }
        let mut library = LibraryMacros { texts, macros, defining: Default::default(), renames, including: None };
        library.defining = library.closed_under_bodies(templated, |_, _| Vec::new()).0.into_iter().collect();
        let including = library.bringing(&["include".to_owned()]);
        library.including = including.map(|names| finders_of(&names));
        library
    }

    /// The names of the macros that may bring a call of `include!` (which may take
    /// in a library's file) into a workspace crate's code; `None` when that cannot
    /// be told.
    pub(crate) fn including(&self) -> Option<&[memchr::memmem::Finder<'static>]> {
        self.including.as_deref()
    }

    /// What was read, for a log.
    pub(crate) fn describe(&self) -> String {
        let Renames { named, unread, hidden } = &self.renames;
        let renamed = named.values().map(Vec::len).sum::<usize>();
        let including = self.including.as_ref().map(|finders| {
            finders.iter().map(|finder| String::from_utf8_lossy(finder.needle()).into_owned()).collect::<Vec<_>>()
        });
        format!(
            "{} exported macros, {renamed} renames, {} after a comment, hidden: {hidden}; including: {including:?}",
            self.macros.len(),
            unread.len()
        )
    }

    /// The names of the exported macros that may bring one of `words` into a
    /// workspace crate's code (a call of one may expand to a path spelling it), and
    /// the names those are re-exported or defined under: each a workspace crate
    /// must call (spell) for one of `words` to come in by a library's macro.
    /// `words` themselves are not among them. `None` when one of those macros may
    /// have a name no file spells: made by a procedural macro, or a rename hidden
    /// behind a comment (`as /* … */ name`).
    pub(crate) fn bringing(&self, words: &[String]) -> Option<Vec<String>> {
        let (found, unnamed) = self.closed_under_bodies(words.to_vec(), |library, word| library.other_names(word));
        let renamed_unread = self.renames.hidden && found.len() > words.len();
        (!unnamed && !renamed_unread).then(|| found.into_iter().skip(words.len()).collect())
    }

    /// `words`, then every macro's name whose body spells one of them
    /// (`expandable_words`), and so on, with what `more` adds for each macro's name
    /// added; and whether a macro whose name no file spells was among them.
    fn closed_under_bodies(
        &self,
        words: Vec<String>,
        more: impl Fn(&LibraryMacros, &str) -> Vec<String>,
    ) -> (Vec<String>, bool) {
        let mut unnamed = false;
        let mut found = words;
        let mut seen: FxHashSet<String> = found.iter().cloned().collect();
        let mut brought = vec![false; self.macros.len()];
        let mut next = 0;
        while next < found.len() {
            let new = next..found.len();
            next = found.len();
            let mut added = Vec::new();
            for (index, m) in self.macros.iter().enumerate() {
                let brings = |word: &String| m.words.contains(word) || m.builds.iter().any(|built| built.may_be(word));
                if brought[index] || !found[new.clone()].iter().any(brings) {
                    continue;
                }
                brought[index] = true;
                match &m.name {
                    Some(name) => added.push(name.clone()),
                    // Defined by a call of the macro whose body holds it, which is
                    // brought too: its calls' input names it.
                    None => unnamed |= !m.held,
                }
            }
            let mut also = Vec::new();
            for name in &added {
                also.extend(more(self, name));
            }
            for word in added.into_iter().chain(also) {
                if seen.insert(word.clone()) {
                    found.push(word);
                }
            }
        }
        (found, unnamed)
    }

    /// The other names the macro `name` may be called by: what a library file
    /// renames it to (`name as other`), and, when its calls define macros, every
    /// identifier in the input of a call of it in a library file.
    fn other_names(&self, name: &str) -> Vec<String> {
        let mut names = self.renames.named.get(name).cloned().unwrap_or_default();
        names.extend(self.renames.unread.iter().cloned());
        if !self.defining.contains(name) {
            return names;
        }
        let finder = memchr::memmem::Finder::new(name.as_bytes());
        for text in &self.texts {
            let bytes = text.as_bytes();
            for at in finder.find_iter(bytes).filter(|&at| whole_word_at(bytes, at, name.len())) {
                let mut after = tokens(&text[at + name.len()..]).filter(|&(kind, _)| !is_trivia(kind));
                if let Some((TokenKind::Bang, _)) = after.next() {
                    names.extend(identifiers_of_group(after));
                }
            }
        }
        names
    }
}

/// What the library files rename (`use m::name as other;`), read once.
#[derive(Default)]
struct Renames {
    /// Per name, what it is renamed to.
    named: FxHashMap<String, Vec<String>>,
    /// The names something is renamed to where what comes before `as` was not read
    /// (a comment is in between): each may rename any macro.
    unread: Vec<String>,
    /// Whether a comment right after an `as` hides what something is renamed to.
    hidden: bool,
}

impl Renames {
    /// Reads every `as` of `text` with a word on each side (a cast's too, which is
    /// none of a macro's), from the bytes around it.
    fn read(&mut self, text: &str) {
        let bytes = text.as_bytes();
        for at in memchr::memmem::find_iter(bytes, "as").filter(|&at| whole_word_at(bytes, at, 2)) {
            if in_a_line_comment(text, at) {
                continue;
            }
            let after = text[at + 2..].trim_start();
            if after.starts_with("/*") || after.starts_with("//") {
                self.hidden = true;
                continue;
            }
            let after = after.strip_prefix("r#").unwrap_or(after);
            let len = after.bytes().take_while(|&b| is_ident_byte(b)).count();
            if len == 0 || !text[at + 2..].starts_with(|c: char| c.is_whitespace()) {
                continue;
            }
            let other = after[..len].to_owned();
            let before = text[..at].trim_end_matches(|c: char| c.is_whitespace() && c != '\n');
            let line_ended = before.ends_with('\n');
            let before = before.trim_end();
            // A line comment may end the line before; `*/` a block comment.
            let previous_line = before.rsplit('\n').next().unwrap_or_default();
            if before.ends_with("*/") || (line_ended && previous_line.contains("//")) {
                self.unread.push(other);
                continue;
            }
            let name_len = before.bytes().rev().take_while(|&b| is_ident_byte(b)).count();
            if name_len > 0 && before.len() < at {
                self.named.entry(before[before.len() - name_len..].to_owned()).or_default().push(other);
            }
        }
    }
}

/// The words a macro's body (its rules) spells where its expansion, or a macro
/// it hands them to, may make a path of them: every identifier (a field's or a
/// metavariable's too, since a macro called in the body may strip the `.` of
/// `x.len` or the `$` of `$len`), and every whole word in a literal, a lifetime or
/// a doc comment, which another macro may read. A plain comment holds none: no
/// macro sees it.
fn expandable_words(body: &str) -> FxHashSet<String> {
    let mut words = FxHashSet::default();
    for (kind, piece) in tokens(body) {
        let counts = match kind {
            TokenKind::LineComment { doc_style } | TokenKind::BlockComment { doc_style, .. } => doc_style.is_some(),
            TokenKind::Ident
            | TokenKind::RawIdent
            | TokenKind::Literal { .. }
            | TokenKind::Lifetime { .. }
            | TokenKind::RawLifetime => true,
            _ => false,
        };
        if counts {
            let mut pieces = piece.split(|c: char| !(c == '_' || c.is_ascii_alphanumeric()));
            words.extend(pieces.by_ref().filter(|word| !word.is_empty()).map(str::to_owned));
        }
    }
    words
}

/// An identifier a macro's body builds from pieces (`${concat(x, _y)}`, a
/// metavariable expression): each piece is a word, or a metavariable (`None`),
/// which its callers give.
#[derive(Debug, PartialEq, Eq)]
struct BuiltIdentifier(Vec<Option<String>>);

impl BuiltIdentifier {
    /// Whether the identifier may be `word`: its words in order, anything between
    /// them where metavariables are.
    fn may_be(&self, word: &str) -> bool {
        let mut rest = word;
        let mut anything_before = false;
        for (index, piece) in self.0.iter().enumerate() {
            let Some(piece) = piece else {
                anything_before = true;
                continue;
            };
            let at = if !anything_before {
                rest.starts_with(piece.as_str()).then_some(0)
            } else if index == self.0.len() - 1 {
                rest.ends_with(piece.as_str()).then(|| rest.len() - piece.len())
            } else {
                rest.find(piece.as_str())
            };
            let Some(at) = at else { return false };
            rest = &rest[at + piece.len()..];
            anything_before = false;
        }
        anything_before || rest.is_empty()
    }
}

/// The identifiers `body`, a macro's, builds from pieces.
fn built_identifiers(body: &str) -> Vec<BuiltIdentifier> {
    let pieces: Vec<(TokenKind, &str)> = tokens(body).filter(|&(kind, _)| !is_trivia(kind)).collect();
    let mut built = Vec::new();
    for (at, window) in pieces.windows(4).enumerate() {
        if window.iter().map(|&(_, piece)| piece).ne(["$", "{", "concat", "("]) {
            continue;
        }
        let mut identifier = Vec::new();
        let mut metavariable = false;
        for &(kind, piece) in pieces[at + 4..].iter().take_while(|&&(_, piece)| piece != ")") {
            match piece {
                "$" => metavariable = true,
                "," => {}
                _ if metavariable => {
                    identifier.push(None);
                    metavariable = false;
                }
                _ if matches!(kind, TokenKind::Literal { .. }) => {
                    identifier.push(Some(piece.trim_matches('"').to_owned()))
                }
                _ => identifier.push(Some(piece.to_owned())),
            }
        }
        built.push(BuiltIdentifier(identifier));
    }
    built
}

/// Whether the line of `text` that `at` is on has a line comment begun before it:
/// a `//` with no quote before it on that line (one may begin a string that holds
/// the `//`).
fn in_a_line_comment(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |end| end + 1)..at];
    line.find("//").is_some_and(|comment| !line[..comment].contains(['"', '\'']))
}

/// The identifiers of the delimited group `tokens` begins with, but a macro's
/// metavariables (`$n`: what its own call's input gives, read there).
fn identifiers_of_group<'a>(tokens: impl Iterator<Item = (TokenKind, &'a str)>) -> Vec<String> {
    let mut depth = 0usize;
    let mut identifiers = Vec::new();
    let mut after_dollar = false;
    for (kind, piece) in tokens {
        match kind {
            TokenKind::OpenParen | TokenKind::OpenBrace | TokenKind::OpenBracket => depth += 1,
            TokenKind::CloseParen | TokenKind::CloseBrace | TokenKind::CloseBracket => depth = depth.saturating_sub(1),
            TokenKind::Ident | TokenKind::RawIdent if depth > 0 && !after_dollar => {
                identifiers.push(piece.trim_start_matches("r#").to_owned())
            }
            _ => {}
        }
        if depth == 0 {
            break;
        }
        after_dollar = kind == TokenKind::Dollar;
    }
    identifiers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(texts: &[&str]) -> LibraryMacros {
        LibraryMacros::read(texts.iter().map(|&text| Arc::from(text)).collect())
    }

    fn bringing(texts: &[&str], word: &str) -> Vec<String> {
        let mut names = library(texts).bringing(&[word.to_owned()]).expect("every macro named");
        names.sort();
        names
    }

    /// Whether a body of a macro in `text` that another crate can call spells
    /// `helper`.
    fn macros_spell_helper(text: &str) -> Option<String> {
        exported_macros(text).any(|m| expandable_words(m.body).contains("helper")).then(|| "helper".to_owned())
    }

    #[test]
    fn a_macro_body_is_read_to_the_end_of_its_groups() {
        let rules = "#[macro_export]\nmacro_rules! call { () => { $crate::m::helper() }; }\nfn helper() {}";
        assert_eq!(macros_spell_helper(rules).as_deref(), Some("helper"));
        // After the macro's group, the file's own code names nothing a macro expands.
        let after = "#[macro_export]\nmacro_rules! call { () => { 1 } }\nfn helper() {}\nfn f() { helper() }";
        assert_eq!(macros_spell_helper(after), None);
        // A macro no other crate can call.
        assert_eq!(macros_spell_helper(&rules.replace("#[macro_export]", "")), None);
        assert_eq!(macros_spell_helper("pub(crate) macro call($x:expr) { helper($x) }"), None);
        // A `macro` has its parameters, then its body.
        let two_groups = "pub macro call($x:expr) { helper($x) }";
        assert_eq!(macros_spell_helper(two_groups).as_deref(), Some("helper"));
        let one_group = "pub macro call { ($x:expr) => { helper($x) } }";
        assert_eq!(macros_spell_helper(one_group).as_deref(), Some("helper"));
        // A literal in a body (a path a derive reads from a string), a raw identifier.
        assert_eq!(
            macros_spell_helper("#[macro_export] macro_rules! m { () => { #[serde(with = \"helper\")] } }").as_deref(),
            Some("helper")
        );
        assert_eq!(
            macros_spell_helper("#[macro_export] macro_rules! m { () => { r#helper() } }").as_deref(),
            Some("helper")
        );
        // Parts of other words, and the word `macro` in prose, are not the name.
        assert_eq!(macros_spell_helper("#[macro_export] macro_rules! m { () => { helpers(); my_helper() } }"), None);
        assert_eq!(macros_spell_helper("// a pub macro that helps\nfn helper() {}"), None);
    }

    #[test]
    fn exported_macros_are_read_with_their_names_and_bodies() {
        let text =
            "#[macro_export]\nmacro_rules! outer {\n    ($n:ident) => { macro_rules! $n { () => { len() } } };\n}\n\
                    pub macro two($x:expr) { $x + 1 }\nmacro private() {}\n/// a macro in prose\n";
        let found: Vec<_> = exported_macros(text).map(|m| (m.name, m.body)).collect();
        assert_eq!(
            found,
            vec![
                (Some("outer"), "{\n    ($n:ident) => { macro_rules! $n { () => { len() } } };\n}"),
                (None, "{ () => { len() } }"),
                (Some("two"), "($x:expr) { $x + 1 }"),
            ]
        );
        // Not exported: no `#[macro_export]` in the file.
        assert_eq!(exported_macros("macro_rules! m { () => { len() } }").count(), 0);
    }

    #[test]
    fn a_word_is_brought_by_the_macros_whose_bodies_spell_it_and_their_callers() {
        let text = "#[macro_export]\nmacro_rules! direct { () => { len() }; }\n\
                    #[macro_export]\nmacro_rules! caller { () => { $crate::direct!() }; }\n\
                    #[macro_export]\nmacro_rules! unrelated { () => { width() }; }\n\
                    fn len() {}\n";
        assert_eq!(bringing(&[text], "len"), ["caller", "direct"]);
        assert_eq!(bringing(&[text], "width"), ["unrelated"]);
        // A function's body names nothing in a workspace crate.
        assert_eq!(bringing(&["pub fn f() { len() }\n"], "len"), Vec::<String>::new());
        // A macro that builds identifiers may bring any word its pieces match, and
        // so may its callers.
        let building = "#[macro_export]\nmacro_rules! build { ($x:ident) => { ${ concat($x, _len) }() }; }\n\
                        #[macro_export]\nmacro_rules! calls_build { () => { $crate::build!(my) }; }\n";
        assert_eq!(bringing(&[text, building], "my_len"), ["build", "calls_build"]);
        assert_eq!(bringing(&[text, building], "_len"), ["build", "calls_build"]);
        assert_eq!(bringing(&[text, building], "len"), ["caller", "direct"]);
        assert_eq!(bringing(&[text, building], "my_width"), Vec::<String>::new());
    }

    #[test]
    fn an_identifier_built_from_pieces_may_be_any_word_they_match() {
        let built = |body: &str| built_identifiers(body);
        let suffixed = built("{ ($name:ident) => { ${concat($name, _relax)}() } }");
        assert_eq!(suffixed, [BuiltIdentifier(vec![None, Some("_relax".to_owned())])]);
        assert!(suffixed[0].may_be("cas_relax") && suffixed[0].may_be("_relax"));
        assert!(!suffixed[0].may_be("cas_relaxed") && !suffixed[0].may_be("value"));
        let framed = built("{ ($name:ident) => { ${ concat(__aarch64_, $name, \"1\") } } }");
        assert!(framed[0].may_be("__aarch64_cas1") && !framed[0].may_be("__aarch64_cas2") && !framed[0].may_be("cas1"));
        let inner = built("{ ($a:ident, $b:ident) => { ${concat($a, _mid_, $b)} } }");
        assert!(inner[0].may_be("x_mid_y") && !inner[0].may_be("x_y"));
        // Metavariables alone: any word.
        assert!(built("{ ($a:ident, $b:ident) => { ${concat($a, $b)} } }")[0].may_be("include"));
        assert!(built("{ () => { ${concat(inc, lude)} } }")[0].may_be("include"));
        assert!(!built("{ () => { ${concat(inc, lude)} } }")[0].may_be("includes"));
    }

    #[test]
    fn a_body_spells_every_word_a_macro_may_see() {
        let words = |body: &str| {
            let mut words: Vec<String> = expandable_words(body).into_iter().collect();
            words.sort();
            words
        };
        // Fields, methods and metavariables count; a plain comment does not.
        assert_eq!(
            words("{ ($v:expr) => { self.len + $v.width() // a comment\n /* another */ }; }"),
            ["expr", "len", "self", "v", "width"]
        );
        // Literals, lifetimes, doc comments: whole words.
        assert_eq!(
            words("{ () => { /// the len\n call!(\"width of\", 'cap) }; }"),
            ["call", "cap", "len", "of", "the", "width"]
        );
    }

    #[test]
    fn the_macros_that_may_include_a_file_are_known() {
        let names = |texts: &[&str]| -> Option<Vec<String>> {
            let including = library(texts)
                .including
                .map(|finders| finders.iter().map(|f| String::from_utf8_lossy(f.needle()).into_owned()).collect());
            including.map(|mut names: Vec<String>| {
                names.sort();
                names
            })
        };
        let text =
            "#[macro_export]\nmacro_rules! generated { () => { include!(concat!(env!(\"OUT_DIR\"), \"/g.rs\")); }; }\n\
                    #[macro_export]\nmacro_rules! wraps { () => { $crate::generated!(); }; }\n\
                    #[macro_export]\nmacro_rules! other { () => { 1 }; }\n";
        assert_eq!(names(&[text]), Some(vec!["generated".to_owned(), "wraps".to_owned()]));
        let pasted =
            "paste::paste! {\n    #[macro_export]\n    macro_rules! [<make_ x>] { () => { include!(\"x.rs\") } }\n}\n";
        assert_eq!(names(&[pasted]), None);
    }

    #[test]
    fn a_macro_is_brought_under_the_names_it_is_re_exported_or_defined_under() {
        let defining = "#[macro_export]\nmacro_rules! define { ($n:ident) => { #[macro_export] macro_rules! $n { () => { len() } } }; }\n";
        let renamed = "#[macro_export]\nmacro_rules! direct { () => { len() }; }\npub use direct as also;\n";
        let calling = "define! { made }\nlet n = len as u64;\n";
        assert_eq!(bringing(&[defining, renamed, calling], "len"), ["also", "define", "direct", "made"]);
        // A cast of a word that is no macro's name renames nothing.
        assert_eq!(bringing(&["let n = len as u64;\n"], "len"), Vec::<String>::new());
        // Renamed across lines and comments: a comment before `as` hides what is
        // renamed, so what it is renamed to counts for every macro.
        let spread =
            "pub use crate::{\n    direct\n    as r#spread,\n};\npub use crate::unrelated /* hidden */ as commented;\n\
                      pub use crate::unrelated // hidden\n    as line_commented;\n";
        assert_eq!(bringing(&[renamed, spread], "len"), ["also", "commented", "direct", "line_commented", "spread"]);
        // Prose in a comment renames nothing, to the end of its line.
        let prose = "/// a word as\n/// a doc says\nconst S: &str = \"//\"; pub use crate::direct as quoted;\n";
        assert_eq!(bringing(&[renamed, prose], "len"), ["also", "direct", "quoted"]);
        let hidden = "pub use crate::direct as /* hidden */ secret;\n";
        assert_eq!(library(&[renamed, hidden]).bringing(&["len".to_owned()]), None);
        assert_eq!(library(&[renamed, hidden]).bringing(&["width".to_owned()]), Some(Vec::new()));
        // A macro that calls a defining one defines too: its calls' input is read.
        let through =
            "#[macro_export]\nmacro_rules! through { ($n:ident) => { $crate::define!($n) }; }\nthrough!(indirect);\n";
        assert_eq!(bringing(&[defining, through], "len"), ["define", "indirect", "through"]);
        // A name a procedural macro makes: no file spells it.
        let pasted = "paste::paste! {\n    #[macro_export]\n    macro_rules! [<make_ len>] { () => { len() } }\n}\n";
        assert_eq!(library(&[pasted]).bringing(&["len".to_owned()]), None);
        assert_eq!(library(&[pasted]).bringing(&["width".to_owned()]), Some(Vec::new()));
    }
}
