//! Code actions as text edits on one file: insert an exemption for a finding,
//! reserve capacity for a "may grow" finding, mark a fn as a root (as a comment, or
//! as `#[noalloc::root]` in a file that writes its directives as attributes). Works
//! on the document's text and its syntax tree alone; which lines allocate comes
//! from the diagnostics the engine produced.

use lsp_types::{Position, Range, TextEdit};
use ra_ap_syntax::{
    ast::{self, HasArgList, HasName},
    AstNode, Edition, SourceFile, SyntaxKind, TextRange, TextSize,
};

use super::documents::{line_text, offset, position};
use crate::engine::directives::{self, DirectiveForm};

/// Title prefix of the exemption quick fix (editors' tests select it by this).
pub const EXEMPTION_TITLE: &str = "Insert a noalloc exemption";

/// A trailing `// noalloc:exempt measured: <reason>` on `line` (0-based); on a line
/// that already ends in a comment, the exemption goes alone on the line above (it
/// then covers the next line). Always the comment form, also in files that use the
/// attributes: a finding's line is a statement, and attributes on statements are
/// not stable Rust.
pub fn exemption_edit(text: &str, line: u32) -> Option<TextEdit> {
    let content = line_text(text, line)?;
    let directive = "// noalloc:exempt measured: <reason>";
    if has_line_comment(content) {
        let indent: String = content.chars().take_while(|c| c.is_whitespace()).collect();
        let at = Position::new(line, 0);
        return Some(TextEdit { range: Range::new(at, at), new_text: format!("{indent}{directive}\n") });
    }
    let end = Position::new(line, content.encode_utf16().count() as u32);
    let trimmed = content.trim_end();
    let new_text = if trimmed.len() < content.len() { directive.to_owned() } else { format!(" {directive}") };
    Some(TextEdit { range: Range::new(end, end), new_text })
}

/// Whether a line of code ends in a `//` comment (strings are lexed, not guessed).
fn has_line_comment(line: &str) -> bool {
    parse(line)
        .syntax()
        .descendants_with_tokens()
        .filter_map(|t| t.into_token())
        .any(|t| t.kind() == SyntaxKind::COMMENT && t.text().starts_with("//"))
}

/// The fn at `position`: the innermost fn whose node holds it.
pub fn fn_at(file: &SourceFile, text: &str, position: Position) -> Option<ast::Fn> {
    let at = TextSize::try_from(offset(text, position)).ok()?;
    let token = file.syntax().token_at_offset(at).right_biased()?;
    token.parent_ancestors().find_map(ast::Fn::cast)
}

pub fn parse(text: &str) -> SourceFile {
    SourceFile::parse(text, Edition::CURRENT).tree()
}

/// Whether a fn already carries `// noalloc:root` or `#[noalloc::root]`.
pub fn is_marked_root(func: &ast::Fn) -> bool {
    directives::attached_directives(func.syntax()).contains(&directives::Directive::Root)
}

/// A root directive on the line above the fn, in the form the file uses: `//
/// noalloc:root` above its doc comments and attributes, or `#[noalloc::root]`
/// directly above the fn's code (below its doc comments), as attributes stand.
pub fn mark_root_edit(text: &str, func: &ast::Fn) -> TextEdit {
    let file = func.syntax().ancestors().last().and_then(SourceFile::cast);
    let form = file.map_or(DirectiveForm::Comment, |file| directives::form_used(&file));
    let (start, directive): (usize, &str) = match form {
        DirectiveForm::Comment => (func.syntax().text_range().start().into(), "// noalloc:root"),
        DirectiveForm::Attribute => {
            let code = func
                .syntax()
                .children_with_tokens()
                .find(|it| !matches!(it.kind(), SyntaxKind::COMMENT | SyntaxKind::WHITESPACE | SyntaxKind::ATTR))
                .map_or(func.syntax().text_range().start(), |it| it.text_range().start());
            (code.into(), "#[noalloc::root]")
        }
    };
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..start];
    let indent = if indent.trim().is_empty() { indent } else { "" };
    let (at, new_text) = if indent.len() == start - line_start {
        (position(text, line_start), format!("{indent}{directive}\n"))
    } else {
        (position(text, start), format!("{directive}\n{indent}"))
    };
    TextEdit { range: Range::new(at, at), new_text }
}

/// A name users read for a fn: `f`, or `Type::f` inside an impl.
pub fn fn_display_name(func: &ast::Fn) -> String {
    let name = func.name().map(|n| n.text().to_string()).unwrap_or_else(|| "fn".to_owned());
    let owner = func
        .syntax()
        .ancestors()
        .find_map(ast::Impl::cast)
        .and_then(|imp| imp.self_ty())
        .map(|ty| ty.syntax().text().to_string());
    match owner {
        Some(owner) => format!("{owner}::{name}"),
        None => name,
    }
}

/// For a growing call (`self.buf.push(x)`) in `range`: wrap its statement in a
/// capacity check, `if recv.len() < recv.capacity() { ... }`.
pub fn capacity_guard_edit(file: &SourceFile, text: &str, range: Range) -> Option<TextEdit> {
    let call = method_call_in(file, text, range)?;
    let receiver = call.receiver()?.syntax().text().to_string();
    let stmt = call.syntax().ancestors().find_map(ast::ExprStmt::cast)?;
    let stmt_range = stmt.syntax().text_range();
    let stmt_text = stmt.syntax().text().to_string();
    // One element needs `len() < capacity()`; a slice or string needs room for its
    // length, which is what the engine accepts as proof for bulk growth.
    let method = call.name_ref()?.text().to_string();
    let args: Vec<ast::Expr> = call.arg_list()?.args().collect();
    let added = match (method.as_str(), args.as_slice()) {
        ("extend_from_slice" | "push_str" | "append" | "extend", [added]) => Some(added),
        ("insert_str", [_, added]) => Some(added),
        _ => None,
    };
    let condition = match added {
        Some(added) => format!("{receiver}.capacity() - {receiver}.len() >= {}.len()", added.syntax().text()),
        None => format!("{receiver}.len() < {receiver}.capacity()"),
    };
    let new_text = format!("if {condition} {{ {stmt_text} }}");
    Some(TextEdit { range: lsp_range(text, stmt_range), new_text })
}

/// For a growing call on a field (`self.buf.push(x)`): where that field is
/// initialised with `Vec::new()` (or `String::new()`) in this file, use
/// `with_capacity` instead.
pub fn with_capacity_edit(file: &SourceFile, text: &str, range: Range) -> Option<(String, TextEdit)> {
    let call = method_call_in(file, text, range)?;
    let ast::Expr::FieldExpr(field) = call.receiver()? else {
        return None;
    };
    let field_name = field.name_ref()?.text().to_string();
    for init in file.syntax().descendants().filter_map(ast::RecordExprField::cast) {
        if init.field_name().map(|n| n.text().to_string()) != Some(field_name.clone()) {
            continue;
        }
        let Some(ast::Expr::CallExpr(ctor)) = init.expr() else {
            continue;
        };
        let ctor_text = ctor.syntax().text().to_string();
        let Some(ty) = ctor_text.strip_suffix("::new()") else {
            continue;
        };
        let new_text = format!("{ty}::with_capacity(/* the most it will hold */ 0)");
        return Some((field_name, TextEdit { range: lsp_range(text, ctor.syntax().text_range()), new_text }));
    }
    None
}

fn method_call_in(file: &SourceFile, text: &str, range: Range) -> Option<ast::MethodCallExpr> {
    let start = TextSize::try_from(offset(text, range.start)).ok()?;
    let end = TextSize::try_from(offset(text, range.end)).ok()?;
    let target = TextRange::new(start, end.max(start));
    let node = file.syntax().covering_element(target);
    let node = match node {
        ra_ap_syntax::NodeOrToken::Node(n) => n,
        ra_ap_syntax::NodeOrToken::Token(t) => t.parent()?,
    };
    node.ancestors().find_map(ast::MethodCallExpr::cast)
}

fn lsp_range(text: &str, range: TextRange) -> Range {
    Range::new(position(text, range.start().into()), position(text, range.end().into()))
}

/// Applies edits to a text, as an editor would.
#[cfg(test)]
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut edits: Vec<&TextEdit> = edits.iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse((e.range.start, e.range.end)));
    let mut out = text.to_owned();
    for edit in edits {
        let start = offset(&out, edit.range.start);
        let end = offset(&out, edit.range.end).max(start);
        out.replace_range(start..end, &edit.new_text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exemption_trails_the_line_or_stands_above_a_commented_one() {
        let text = "fn f() {\n    let s = String::from(\"//\");\n    let t = g(); // why\n}\n";
        let once = apply(text, &[exemption_edit(text, 1).unwrap()]);
        assert_eq!(
            once.lines().nth(1).unwrap(),
            "    let s = String::from(\"//\"); // noalloc:exempt measured: <reason>"
        );
        let twice = apply(text, &[exemption_edit(text, 2).unwrap()]);
        assert_eq!(twice.lines().nth(2).unwrap(), "    // noalloc:exempt measured: <reason>");
        assert_eq!(twice.lines().nth(3).unwrap(), "    let t = g(); // why");
    }

    #[test]
    fn mark_root_goes_above_docs_and_attributes() {
        let text = "impl S {\n    /// Docs.\n    #[inline]\n    fn handle(&self) {\n        work();\n    }\n}\n";
        let file = parse(text);
        let func = fn_at(&file, text, Position::new(4, 9)).unwrap();
        assert_eq!(fn_display_name(&func), "S::handle");
        assert!(!is_marked_root(&func));
        let marked = apply(text, &[mark_root_edit(text, &func)]);
        assert_eq!(marked, "impl S {\n    // noalloc:root\n    /// Docs.\n    #[inline]\n    fn handle(&self) {\n        work();\n    }\n}\n");
        let file = parse(&marked);
        assert!(is_marked_root(&fn_at(&file, &marked, Position::new(5, 9)).unwrap()));
    }

    #[test]
    fn mark_root_as_an_attribute_where_the_file_uses_attributes() {
        let text = "#[noalloc::root]\nfn a() {}\n\n/// Docs.\n#[inline]\npub fn handle() {\n    work();\n}\n";
        let file = parse(text);
        assert!(is_marked_root(&fn_at(&file, text, Position::new(1, 4)).unwrap()));
        let func = fn_at(&file, text, Position::new(6, 5)).unwrap();
        assert!(!is_marked_root(&func));
        let marked = apply(text, &[mark_root_edit(text, &func)]);
        assert_eq!(marked, "#[noalloc::root]\nfn a() {}\n\n/// Docs.\n#[inline]\n#[noalloc::root]\npub fn handle() {\n    work();\n}\n");
    }

    #[test]
    fn reserve_capacity_guard_and_constructor() {
        let text = "struct S { buf: Vec<u8> }\nimpl S {\n    fn new() -> S { S { buf: Vec::new() } }\n    fn put(&mut self, b: u8) {\n        self.buf.push(b);\n    }\n}\n";
        let file = parse(text);
        let range = Range::new(Position::new(4, 8), Position::new(4, 24));
        let guarded = apply(text, &[capacity_guard_edit(&file, text, range).unwrap()]);
        assert!(guarded.contains("if self.buf.len() < self.buf.capacity() { self.buf.push(b); }"), "{guarded}");
        let bulk = text.replace("self.buf.push(b);", "self.buf.extend_from_slice(bs);");
        let bulk_range = Range::new(Position::new(4, 8), Position::new(4, 38));
        let guarded = apply(&bulk, &[capacity_guard_edit(&parse(&bulk), &bulk, bulk_range).unwrap()]);
        assert!(
            guarded.contains("if self.buf.capacity() - self.buf.len() >= bs.len() { self.buf.extend_from_slice(bs); }"),
            "{guarded}"
        );
        let (field, edit) = with_capacity_edit(&file, text, range).unwrap();
        assert_eq!(field, "buf");
        assert!(apply(text, &[edit]).contains("S { buf: Vec::with_capacity(/* the most it will hold */ 0) }"));
    }
}
