//! The directive language in comments: `// noalloc:root`, `exempt <kind>: <reason>`,
//! `fixed`, `append`. Parses comment text and finds what each directive stands on,
//! from syntax alone; mapping items to functions is the caller's business.

use ra_ap_syntax::{
    AstNode, SourceFile, SyntaxKind, SyntaxNode, SyntaxToken, TextRange,
    ast::{self},
};

/// One directive, parsed from a comment's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    Root,
    Exempt { kind: String, reason: String },
    Fixed,
    Append,
}

/// Why a comment that starts with `noalloc:` is not a directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectiveParseError {
    UnknownWord(String),
    MissingKind,
    MissingReason { kind: String },
}

impl std::fmt::Display for DirectiveParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DirectiveParseError::UnknownWord(word) => write!(
                f,
                "unknown noalloc directive `{word}` (expected root, exempt, fixed or append)"
            ),
            DirectiveParseError::MissingKind => {
                write!(f, "noalloc:exempt needs a kind and a reason: `// noalloc:exempt <kind>: <reason>`")
            }
            DirectiveParseError::MissingReason { kind } => write!(
                f,
                "noalloc:exempt {kind} has no reason: write `// noalloc:exempt {kind}: <why this is fine>`"
            ),
        }
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

/// An exemption as written, with the line it covers (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExemptionSite {
    pub kind: String,
    pub reason: String,
    pub comment: TextRange,
    pub covered_line: u32,
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

/// Collects the directives of a parsed file.
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
        let directive = match parsed {
            Ok(directive) => directive,
            Err(err) => {
                out.errors.push(DirectiveError { range, message: err.to_string() });
                continue;
            }
        };
        match directive {
            Directive::Root => match attached_item(&token) {
                Some(node) => {
                    if let Some(item) = ast::Fn::cast(node.clone()) {
                        out.roots.push((range, RootItem::Fn(item)));
                    } else if let Some(item) = ast::Impl::cast(node.clone()) {
                        out.roots.push((range, RootItem::Impl(item)));
                    } else if let Some(item) = ast::Module::cast(node.clone()) {
                        out.roots.push((range, RootItem::Module(item)));
                    } else {
                        out.errors.push(misplaced(range, "root", "a fn, impl or mod"));
                    }
                }
                None => out.errors.push(misplaced(range, "root", "a fn, impl or mod")),
            },
            Directive::Fixed => match attached_item(&token).and_then(ast::Adt::cast) {
                Some(ast::Adt::Union(_)) | None => out.errors.push(misplaced(range, "fixed", "a struct or enum")),
                Some(adt) => out.fixed_types.push(adt),
            },
            Directive::Append => match attached_item(&token).and_then(ast::Fn::cast) {
                Some(item) => out.append_fns.push(item),
                None => out.errors.push(misplaced(range, "append", "a fn")),
            },
            Directive::Exempt { kind, reason } => {
                let line = lines.line_of(u32::from(range.start()));
                let trailing = lines.has_code_before(&text, u32::from(range.start()));
                let covered_line = if trailing { line } else { next_code_line(&text, &lines, line) };
                out.exemptions.push(ExemptionSite { kind, reason, comment: range, covered_line });
            }
        }
    }
    out
}

fn misplaced(range: TextRange, word: &str, expected: &str) -> DirectiveError {
    DirectiveError { range, message: format!("noalloc:{word} must stand on the line above {expected}") }
}

/// The directives in the comments above an item (which rust-analyzer keeps inside
/// the item's node): how a function's `noalloc:append` is read where it is called.
pub fn attached_directives(item: &SyntaxNode) -> Vec<Directive> {
    item.children_with_tokens()
        .take_while(|it| matches!(it.kind(), SyntaxKind::COMMENT | SyntaxKind::WHITESPACE | SyntaxKind::ATTR))
        .filter_map(|it| it.into_token())
        .filter(|token| token.kind() == SyntaxKind::COMMENT)
        .filter_map(|token| parse_comment(token.text())?.ok())
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
    use ra_ap_syntax::{Edition, ast::HasName};

    fn directives(src: &str) -> FileDirectives {
        collect(&SourceFile::parse(src, Edition::CURRENT).tree())
    }

    #[test]
    fn directives_attached_to_an_item() {
        let file = SourceFile::parse("// noalloc:append\n/// Pushes.\n#[inline]\nfn f() { // noalloc:root\n}\nfn g() {}\n", Edition::CURRENT).tree();
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
        assert_eq!(
            parse_comment("// noalloc:rooot"),
            Some(Err(DirectiveParseError::UnknownWord("rooot".into())))
        );
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
        let covered: Vec<_> = d.exemptions.iter().map(|e| (e.kind.as_str(), e.covered_line)).collect();
        assert_eq!(covered, [("debug", 1), ("measured", 4)]);
    }

    #[test]
    fn fixed_and_append_find_their_items() {
        let d = directives("// noalloc:fixed\nstruct Ring;\n// noalloc:append\nfn push_it() {}\n// noalloc:fixed\nfn nope() {}\n");
        assert_eq!(d.fixed_types.len(), 1);
        assert_eq!(d.append_fns.len(), 1);
        assert_eq!(d.errors.len(), 1);
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
