//! The directive language: in comments (`// noalloc:root`, `exempt <kind>: <reason>`,
//! `fixed`, `append`) and as attributes (`#[noalloc::root]`, `#[noalloc::exempt(kind,
//! "reason")]`, ...), read by the same rules. Parses them and finds what each one
//! stands on, from syntax alone; mapping items to functions is the caller's business.

use ra_ap_syntax::{
    ast::{self},
    AstNode, AstToken, SourceFile, SyntaxKind, SyntaxNode, SyntaxToken, TextRange,
};

/// One directive, parsed from a comment's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    Root,
    Exempt { kind: String, reason: String },
    Fixed,
    Append,
}

/// How a directive is written: a comment (`// noalloc:root`) or an attribute of the
/// `noalloc` crate (`#[noalloc::root]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirectiveForm {
    Comment,
    Attribute,
}

/// Why a comment that starts with `noalloc:`, or an attribute `noalloc::..`, is not a
/// directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectiveParseError {
    UnknownWord(String),
    MissingKind,
    MissingReason {
        kind: String,
    },
    /// `#[noalloc::root(..)]`: only `exempt` takes arguments.
    UnexpectedArguments(String),
}

impl DirectiveParseError {
    /// The message, showing the fix in the form the directive was written in.
    pub fn message(&self, form: DirectiveForm) -> String {
        let exempt = |kind: &str, reason: &str| match form {
            DirectiveForm::Comment => format!("`// noalloc:exempt {kind}: {reason}`"),
            DirectiveForm::Attribute => format!("`#[noalloc::exempt({kind}, \"{reason}\")]`"),
        };
        let prefix = match form {
            DirectiveForm::Comment => "noalloc:",
            DirectiveForm::Attribute => "noalloc::",
        };
        match self {
            DirectiveParseError::UnknownWord(word) => {
                format!("unknown noalloc directive `{word}` (expected root, exempt, fixed or append)")
            }
            DirectiveParseError::MissingKind => {
                format!("{prefix}exempt needs a kind and a reason: {}", exempt("<kind>", "<reason>"))
            }
            DirectiveParseError::MissingReason { kind } => {
                format!("{prefix}exempt {kind} has no reason: write {}", exempt(kind, "<why this is fine>"))
            }
            DirectiveParseError::UnexpectedArguments(word) => format!("{prefix}{word} takes no arguments"),
        }
    }
}

impl std::fmt::Display for DirectiveParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(DirectiveForm::Comment))
    }
}

/// Parses the text of one comment token. `None` when the comment is not a noalloc
/// directive at all (ordinary comments, doc comments).
pub fn parse_comment(text: &str) -> Option<Result<Directive, DirectiveParseError>> {
    let body = text.strip_prefix("//")?;
    if body.starts_with('/') || body.starts_with('!') {
        return None; // doc comments are documentation, not directives
    }
    let rest = body.trim_start().strip_prefix("noalloc:")?;
    let word_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
    let (word, tail) = rest.split_at(word_end);
    Some(match word {
        "root" => Ok(Directive::Root),
        "fixed" => Ok(Directive::Fixed),
        "append" => Ok(Directive::Append),
        "exempt" => parse_exempt(tail),
        other => Err(DirectiveParseError::UnknownWord(other.to_owned())),
    })
}

/// Parses an attribute's meta (`noalloc::root`, `noalloc::exempt(kind, "reason")`,
/// also inside `cfg_attr`). `None` when it is not one of the `noalloc` crate's.
pub fn parse_attribute(meta: &ast::Meta) -> Option<Result<Directive, DirectiveParseError>> {
    let path = meta.path()?;
    let crate_segment = path.qualifier()?.as_single_name_ref()?;
    if crate_segment.text() != "noalloc" {
        return None;
    }
    let word = path.segment()?.name_ref()?.text().to_string();
    let arguments = match meta {
        ast::Meta::PathMeta(_) => None,
        ast::Meta::TokenTreeMeta(it) => it.token_tree(),
        _ => return Some(Err(DirectiveParseError::UnexpectedArguments(word))),
    };
    Some(match (word.as_str(), arguments) {
        ("root", None) => Ok(Directive::Root),
        ("fixed", None) => Ok(Directive::Fixed),
        ("append", None) => Ok(Directive::Append),
        ("exempt", Some(arguments)) => parse_exempt_arguments(&arguments),
        ("exempt", None) => Err(DirectiveParseError::MissingKind),
        ("root" | "fixed" | "append", Some(_)) => Err(DirectiveParseError::UnexpectedArguments(word)),
        _ => Err(DirectiveParseError::UnknownWord(word)),
    })
}

/// `(kind, "reason")`, as `parse_exempt` reads `kind: reason`.
fn parse_exempt_arguments(arguments: &ast::TokenTree) -> Result<Directive, DirectiveParseError> {
    let tokens: Vec<SyntaxToken> = arguments
        .syntax()
        .children_with_tokens()
        .filter_map(|it| it.into_token())
        .filter(|token| !token.kind().is_trivia() && !matches!(token.kind(), SyntaxKind::L_PAREN | SyntaxKind::R_PAREN))
        .collect();
    let kinds: Vec<SyntaxKind> = tokens.iter().map(SyntaxToken::kind).collect();
    let kind = match kinds.first() {
        Some(SyntaxKind::IDENT) => tokens[0].text().to_owned(),
        _ => return Err(DirectiveParseError::MissingKind),
    };
    let reason = match kinds.as_slice() {
        [SyntaxKind::IDENT] | [SyntaxKind::IDENT, SyntaxKind::COMMA] => String::new(),
        [SyntaxKind::IDENT, SyntaxKind::COMMA, SyntaxKind::STRING]
        | [SyntaxKind::IDENT, SyntaxKind::COMMA, SyntaxKind::STRING, SyntaxKind::COMMA] => {
            ast::String::cast(tokens[2].clone())
                .and_then(|string| string.value().ok().map(|value| value.trim().to_owned()))
                .unwrap_or_default()
        }
        _ => return Err(DirectiveParseError::MissingKind),
    };
    if reason.is_empty() {
        return Err(DirectiveParseError::MissingReason { kind });
    }
    Ok(Directive::Exempt { kind, reason })
}

fn parse_exempt(tail: &str) -> Result<Directive, DirectiveParseError> {
    let tail = tail.trim();
    let (kind, reason) = match tail.split_once(':') {
        Some((kind, reason)) => (kind.trim(), reason.trim()),
        None => (tail, ""),
    };
    if kind.is_empty() || kind.contains(char::is_whitespace) {
        return Err(DirectiveParseError::MissingKind);
    }
    if reason.is_empty() {
        return Err(DirectiveParseError::MissingReason { kind: kind.to_owned() });
    }
    Ok(Directive::Exempt { kind: kind.to_owned(), reason: reason.to_owned() })
}

/// What a root directive stands on.
#[derive(Debug, Clone)]
pub enum RootItem {
    Fn(ast::Fn),
    Impl(ast::Impl),
    Module(ast::Module),
}

/// An exemption as written, with the lines it covers (0-based): a comment covers
/// one line; an attribute covers its whole item, as `#[allow(..)]` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExemptionSite {
    pub kind: String,
    pub reason: String,
    pub comment: TextRange,
    /// The first line it covers: the line the exemption is listed and reported by.
    pub covered_line: u32,
    /// The last line it covers (`covered_line` for a comment).
    pub last_covered_line: u32,
}

impl ExemptionSite {
    /// Every line it covers (0-based).
    pub fn covered_lines(&self) -> std::ops::RangeInclusive<u32> {
        self.covered_line..=self.last_covered_line
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectiveError {
    pub range: TextRange,
    pub message: String,
}

/// Everything the directives of one file say.
#[derive(Debug, Default)]
pub struct FileDirectives {
    pub roots: Vec<(TextRange, RootItem)>,
    pub exemptions: Vec<ExemptionSite>,
    pub fixed_types: Vec<ast::Adt>,
    pub append_fns: Vec<ast::Fn>,
    pub errors: Vec<DirectiveError>,
}

/// Collects the directives of a parsed file: its comments, then its attributes.
pub fn collect(file: &SourceFile) -> FileDirectives {
    let text = file.syntax().text().to_string();
    let lines = LineStarts::new(&text);
    let mut out = FileDirectives::default();
    for token in file.syntax().descendants_with_tokens().filter_map(|it| it.into_token()) {
        if token.kind() != SyntaxKind::COMMENT {
            continue;
        }
        let Some(parsed) = parse_comment(token.text()) else { continue };
        let range = token.text_range();
        let line = lines.line_of(u32::from(range.start()));
        let trailing = lines.has_code_before(&text, u32::from(range.start()));
        let place = Place {
            range,
            form: DirectiveForm::Comment,
            item: attached_item(&token),
            covered_lines: Some({
                let covered = if trailing { line } else { next_code_line(&text, &lines, line) };
                (covered, covered)
            }),
        };
        place.record(parsed, &mut out);
    }
    for attr in file.syntax().descendants().filter_map(ast::Attr::cast) {
        let item = attr.syntax().parent().filter(|parent| ast::Item::can_cast(parent.kind()));
        for meta in attr.skip_cfg_attrs() {
            let Some(parsed) = parse_attribute(&meta) else { continue };
            let place = Place {
                range: attr.syntax().text_range(),
                form: DirectiveForm::Attribute,
                covered_lines: item.as_ref().map(|item| {
                    let end = u32::from(item.text_range().end()).saturating_sub(1);
                    (lines.line_of(u32::from(first_code_offset(item))), lines.line_of(end))
                }),
                item: item.clone(),
            };
            place.record(parsed, &mut out);
        }
    }
    out
}

/// Where a directive is written, and what it stands on.
struct Place {
    range: TextRange,
    form: DirectiveForm,
    /// The item it is attached to.
    item: Option<SyntaxNode>,
    /// The first and last line an exemption covers (0-based); `None` where an
    /// exemption may not stand (an attribute on a statement).
    covered_lines: Option<(u32, u32)>,
}

impl Place {
    fn record(self, parsed: Result<Directive, DirectiveParseError>, out: &mut FileDirectives) {
        let range = self.range;
        let directive = match parsed {
            Ok(directive) => directive,
            Err(err) => {
                out.errors.push(DirectiveError { range, message: err.message(self.form) });
                return;
            }
        };
        match directive {
            Directive::Root => {
                let item = self.item.clone();
                if let Some(item) = item.clone().and_then(ast::Fn::cast) {
                    out.roots.push((range, RootItem::Fn(item)));
                } else if let Some(item) = item.clone().and_then(ast::Impl::cast) {
                    out.roots.push((range, RootItem::Impl(item)));
                } else if let Some(item) = item.and_then(ast::Module::cast) {
                    out.roots.push((range, RootItem::Module(item)));
                } else {
                    out.errors.push(self.misplaced("root", "a fn, impl or mod"));
                }
            }
            Directive::Fixed => match self.item.clone().and_then(ast::Adt::cast) {
                Some(ast::Adt::Union(_)) | None => out.errors.push(self.misplaced("fixed", "a struct or enum")),
                Some(adt) => out.fixed_types.push(adt),
            },
            Directive::Append => match self.item.clone().and_then(ast::Fn::cast) {
                Some(item) => out.append_fns.push(item),
                None => out.errors.push(self.misplaced("append", "a fn")),
            },
            Directive::Exempt { kind, reason } => match self.covered_lines {
                Some((covered_line, last_covered_line)) => {
                    out.exemptions.push(ExemptionSite { kind, reason, comment: range, covered_line, last_covered_line })
                }
                None => out.errors.push(DirectiveError {
                    range,
                    message: format!(
                        "#[noalloc::exempt] must stand on an item (attributes on statements are not stable Rust): write `// noalloc:exempt {kind}: {reason}` above the line"
                    ),
                }),
            },
        }
    }

    fn misplaced(&self, word: &str, expected: &str) -> DirectiveError {
        let message = match self.form {
            DirectiveForm::Comment => format!("noalloc:{word} must stand on the line above {expected}"),
            DirectiveForm::Attribute => format!("#[noalloc::{word}] must stand on {expected}"),
        };
        DirectiveError { range: self.range, message }
    }
}

/// Whether the file writes its directives as attributes (`#[noalloc::root]`) rather
/// than comments: the form a quick fix should offer there.
pub fn form_used(file: &SourceFile) -> DirectiveForm {
    let uses_attributes = file
        .syntax()
        .descendants()
        .filter_map(ast::Attr::cast)
        .flat_map(|attr| attr.skip_cfg_attrs())
        .any(|meta| parse_attribute(&meta).is_some());
    if uses_attributes {
        DirectiveForm::Attribute
    } else {
        DirectiveForm::Comment
    }
}

/// Where an item's code starts, after its attributes, doc comments and comments.
fn first_code_offset(item: &SyntaxNode) -> ra_ap_syntax::TextSize {
    item.children_with_tokens()
        .find(|it| !matches!(it.kind(), SyntaxKind::COMMENT | SyntaxKind::WHITESPACE | SyntaxKind::ATTR))
        .map_or(item.text_range().start(), |it| it.text_range().start())
}

/// The directives in the comments above an item (which rust-analyzer keeps inside
/// the item's node) and in its attributes: how a function's `noalloc:append` is read
/// where it is called.
pub fn attached_directives(item: &SyntaxNode) -> Vec<Directive> {
    item.children_with_tokens()
        .take_while(|it| matches!(it.kind(), SyntaxKind::COMMENT | SyntaxKind::WHITESPACE | SyntaxKind::ATTR))
        .filter_map(|it| match it {
            ra_ap_syntax::NodeOrToken::Token(token) if token.kind() == SyntaxKind::COMMENT => {
                parse_comment(token.text())?.ok().map(|directive| vec![directive])
            }
            ra_ap_syntax::NodeOrToken::Node(node) => Some(
                ast::Attr::cast(node)?.skip_cfg_attrs().iter().filter_map(|meta| parse_attribute(meta)?.ok()).collect(),
            ),
            ra_ap_syntax::NodeOrToken::Token(_) => None,
        })
        .flatten()
        .collect()
}

/// rust-analyzer attaches the comments above an item inside the item's node, before
/// its first non-trivia token. Returns that item, if the comment is one of them.
fn attached_item(token: &SyntaxToken) -> Option<SyntaxNode> {
    let parent = token.parent()?;
    if !ast::Item::can_cast(parent.kind()) && parent.kind() != SyntaxKind::FN {
        return None;
    }
    let first_code = parent
        .children_with_tokens()
        .find(|it| !matches!(it.kind(), SyntaxKind::COMMENT | SyntaxKind::WHITESPACE | SyntaxKind::ATTR));
    match first_code {
        Some(first) if first.text_range().start() < token.text_range().start() => None,
        _ => Some(parent),
    }
}

/// The first line after `line` that holds something other than blanks and comments.
fn next_code_line(text: &str, lines: &LineStarts, line: u32) -> u32 {
    let mut candidate = line + 1;
    while let Some(content) = lines.line_text(text, candidate) {
        let trimmed = content.trim();
        if !trimmed.is_empty() && !trimmed.starts_with("//") {
            return candidate;
        }
        candidate += 1;
    }
    line + 1
}

/// Byte offsets of line starts: enough line arithmetic for directives.
struct LineStarts(Vec<u32>);

impl LineStarts {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        LineStarts(starts)
    }
    fn line_of(&self, offset: u32) -> u32 {
        (self.0.partition_point(|&start| start <= offset) - 1) as u32
    }
    fn line_text<'t>(&self, text: &'t str, line: u32) -> Option<&'t str> {
        let start = *self.0.get(line as usize)? as usize;
        let end = self.0.get(line as usize + 1).map_or(text.len(), |&e| e as usize);
        text.get(start..end)
    }
    fn has_code_before(&self, text: &str, offset: u32) -> bool {
        let line = self.line_of(offset);
        let start = self.0[line as usize] as usize;
        !text[start..offset as usize].trim().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ra_ap_syntax::{ast::HasName, Edition};

    fn directives(src: &str) -> FileDirectives {
        collect(&SourceFile::parse(src, Edition::CURRENT).tree())
    }

    #[test]
    fn directives_attached_to_an_item() {
        let file = SourceFile::parse(
            "// noalloc:append\n/// Pushes.\n#[inline]\nfn f() { // noalloc:root\n}\nfn g() {}\n",
            Edition::CURRENT,
        )
        .tree();
        let fns: Vec<_> = file.syntax().descendants().filter_map(ast::Fn::cast).collect();
        assert_eq!(attached_directives(fns[0].syntax()), vec![Directive::Append]);
        assert_eq!(attached_directives(fns[1].syntax()), vec![]);
    }

    #[test]
    fn parses_the_words() {
        assert_eq!(parse_comment("// noalloc:root"), Some(Ok(Directive::Root)));
        assert_eq!(parse_comment("//noalloc:root"), Some(Ok(Directive::Root)));
        assert_eq!(parse_comment("// noalloc:fixed"), Some(Ok(Directive::Fixed)));
        assert_eq!(parse_comment("// noalloc:append"), Some(Ok(Directive::Append)));
        assert_eq!(
            parse_comment("// noalloc:exempt measured: warm-up only"),
            Some(Ok(Directive::Exempt { kind: "measured".into(), reason: "warm-up only".into() }))
        );
        assert_eq!(parse_comment("// an ordinary comment"), None);
        assert_eq!(parse_comment("/// noalloc:root"), None);
        assert_eq!(parse_comment("// noalloc:rooot"), Some(Err(DirectiveParseError::UnknownWord("rooot".into()))));
        assert_eq!(
            parse_comment("// noalloc:exempt debug"),
            Some(Err(DirectiveParseError::MissingReason { kind: "debug".into() }))
        );
        assert_eq!(
            parse_comment("// noalloc:exempt debug:   "),
            Some(Err(DirectiveParseError::MissingReason { kind: "debug".into() }))
        );
        assert_eq!(parse_comment("// noalloc:exempt"), Some(Err(DirectiveParseError::MissingKind)));
    }

    #[test]
    fn root_above_fn_with_attributes_and_docs_between() {
        let d = directives(
            r#"
// noalloc:root
/// Docs.
#[inline]
pub fn a() {}

impl S {
    //noalloc:root
    fn b(&self) {}
}

// noalloc:root
impl T {}

// noalloc:root
mod m {}
"#,
        );
        let kinds: Vec<_> = d
            .roots
            .iter()
            .map(|(_, item)| match item {
                RootItem::Fn(f) => format!("fn {}", f.name().unwrap()),
                RootItem::Impl(_) => "impl".to_owned(),
                RootItem::Module(m) => format!("mod {}", m.name().unwrap()),
            })
            .collect();
        assert_eq!(kinds, ["fn a", "fn b", "impl", "mod m"]);
        assert!(d.errors.is_empty(), "{:?}", d.errors);
    }

    #[test]
    fn root_on_a_struct_or_in_a_body_is_an_error() {
        let d = directives(
            r#"
// noalloc:root
struct S;

fn f() {
    // noalloc:root
    let x = 1;
}
"#,
        );
        assert!(d.roots.is_empty());
        assert_eq!(d.errors.len(), 2);
        assert!(d.errors.iter().all(|e| e.message.contains("must stand on the line above a fn")));
    }

    #[test]
    fn exemption_trailing_or_alone_covers_its_line_or_the_next() {
        let d = directives(
            "fn f() {\n    let s = String::new(); // noalloc:exempt debug: logging\n    // noalloc:exempt measured: once per request\n\n    let t = vec![1];\n}\n",
        );
        let covered: Vec<_> = d.exemptions.iter().map(|e| (e.kind.as_str(), e.covered_lines())).collect();
        assert_eq!(covered, [("debug", 1..=1), ("measured", 4..=4)]);
    }

    #[test]
    fn fixed_and_append_find_their_items() {
        let d = directives(
            "// noalloc:fixed\nstruct Ring;\n// noalloc:append\nfn push_it() {}\n// noalloc:fixed\nfn nope() {}\n",
        );
        assert_eq!(d.fixed_types.len(), 1);
        assert_eq!(d.append_fns.len(), 1);
        assert_eq!(d.errors.len(), 1);
    }

    #[test]
    fn attributes_read_like_the_comments() {
        let d = directives(
            r#"
#[noalloc::root]
/// Docs.
#[inline]
pub fn a() {}

#[noalloc::root]
impl T {}

#[cfg_attr(feature = "check", noalloc::root)]
mod m {}

#[noalloc::fixed]
struct Ring;

#[noalloc::append]
fn push_it() {}

#[noalloc::exempt(measured, "runs once per process")]
/// The attribute covers the whole item, its initialiser too.
static TABLE: [u8; 2] = [
    0, 1,
];
"#,
        );
        assert_eq!(d.roots.len(), 3);
        assert_eq!(d.fixed_types.len(), 1);
        assert_eq!(d.append_fns.len(), 1);
        let exempt: Vec<_> =
            d.exemptions.iter().map(|e| (e.kind.as_str(), e.reason.as_str(), e.covered_lines())).collect();
        assert_eq!(exempt, [("measured", "runs once per process", 20..=22)]);
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        let file = SourceFile::parse("#[noalloc::append]\n#[inline]\nfn f() {}\n", Edition::CURRENT).tree();
        let f = file.syntax().descendants().find_map(ast::Fn::cast).unwrap();
        assert_eq!(attached_directives(f.syntax()), vec![Directive::Append]);
        assert_eq!(form_used(&file), DirectiveForm::Attribute);
    }

    #[test]
    fn malformed_attributes_are_errors_like_malformed_comments() {
        let d = directives(
            r#"
#[noalloc::rooot]
fn a() {}
#[noalloc::exempt(debug)]
fn b() {}
#[noalloc::exempt(debug, "  ")]
fn c() {}
#[noalloc::exempt]
fn d() {}
#[noalloc::root(now)]
fn e() {}
#[noalloc::root]
struct S;
#[serde::skip]
fn not_ours() {}
"#,
        );
        let messages: Vec<_> = d.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "unknown noalloc directive `rooot` (expected root, exempt, fixed or append)",
                "noalloc::exempt debug has no reason: write `#[noalloc::exempt(debug, \"<why this is fine>\")]`",
                "noalloc::exempt debug has no reason: write `#[noalloc::exempt(debug, \"<why this is fine>\")]`",
                "noalloc::exempt needs a kind and a reason: `#[noalloc::exempt(<kind>, \"<reason>\")]`",
                "noalloc::root takes no arguments",
                "#[noalloc::root] must stand on a fn, impl or mod",
            ]
        );
        assert!(d.roots.is_empty());
    }
}

/// Whether a workspace function is marked `noalloc:append`, from its comments. A
/// salsa query, so that the walks which ask depend on its answer, not on the file's
/// text: an edit elsewhere in the file re-reads the comments but re-walks nothing.
#[salsa::tracked]
pub(crate) fn is_append_fn(db: &dyn hir_ty::db::HirDatabase, func: hir_def::FunctionId) -> bool {
    use hir::HasSource;
    hir_def::HasModule::krate(&func, db).data(db).origin.is_local()
        && hir::Function::from(func).source(db).is_some_and(|source| {
            attached_directives(ra_ap_syntax::AstNode::syntax(&source.value)).contains(&Directive::Append)
        })
}
