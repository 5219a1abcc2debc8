//! What of a workspace file an analysis reads, so that a run after an edit can tell
//! that the edit cannot change the analysis a run stored (`stored_analysis`). Owns
//! the digest of one file and the comparison of two.
//!
//! A file's digest is its skeleton and its plain bodies:
//! - the skeleton: every token outside the plain bodies, with its line and column,
//!   and every comment that mentions `noalloc` wherever it is (directives). Item
//!   level, names, `use`s, impls, macro calls at item level, attributes, statics'
//!   and constants' initialisers, and the place of every line a finding or root
//!   can name outside the bodies are in it;
//! - a plain body is the block of a function that is not nested in another body,
//!   not `const` (const evaluation reads it), not `async` and returns no `impl
//!   Trait` (its callers' types come from it), under no attribute but the inert
//!   built-in ones (an attribute macro reads the body, and may make items of it),
//!   in a file with no `type .. = impl Trait` (whose hidden type any body of the
//!   module may define). For each: where it is, its text, and the text of what in
//!   it reaches beyond it: items (an impl in a body counts for the whole program),
//!   macro calls (they may expand to items) and attributes.
//!
//! An edit leaves the analysis as it was when the skeleton is the same and every
//! body whose text changed is one no root's reach walked, with the same items,
//! macro calls and attributes in it, starting where it started. The roots' reaches
//! read nothing else of the file: the targets of `dyn` calls and fn pointers come
//! from the reach and from statics' initialisers, the roots and exemptions from
//! directives, the rest from the item level; the bodies that can name a static
//! whose one-time setup a reach looked into count as walked
//! (`run::workspace_functions_of`). A file that does not parse is never taken as
//! unchanged.
//!
//! An edit that changed only the text of plain bodies (`changed_bodies`: the
//! skeleton the same with each token placed from the body before it, so bodies
//! may grow or shrink by lines) leaves standing the outcomes of the roots that
//! walked none of them (`stored_roots`), their places moved (`Relocation`). A
//! changed body must keep its items, macro calls and attributes, or, walked and
//! found by rust-analyzer with no items (`mark_making_items`), have none in
//! today's expansion either.

use ra_ap_ide_db::line_index::LineIndex;
use ra_ap_syntax::{
    ast::{self, HasAttrs},
    AstNode, NodeOrToken, Parse, SourceFile, SyntaxKind, SyntaxNode, TextRange,
};
use rustc_stable_hash::StableSipHasher128;
use serde::{Deserialize, Serialize};
use std::hash::Hash;

use super::stored_analysis::Fingerprint;

/// A line and column, 1-based, as `Location` counts them.
pub type LineColumn = (u32, u32);

/// A file's skeleton and plain bodies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    skeleton: Fingerprint,
    /// The skeleton with each token's place taken from the plain body before it
    /// (its end, or its start for a directive inside it; the file's start before
    /// the first), and each body's start from the end of the one before: the same
    /// after an edit that only changes bodies, however their lines move.
    shape: Fingerprint,
    bodies: Vec<BodyDigest>,
}

/// Where the places of a file are after an edit that changed only plain bodies
/// (`FileDigest::changed_bodies`): each body, where it was and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation {
    moves: Vec<BodyMove>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct BodyMove {
    then: (LineColumn, LineColumn),
    now: (LineColumn, LineColumn),
}

impl Relocation {
    /// Where `at`, a place of the file before the edit outside the bodies it
    /// changed, is now: it moved as the end of the body before it moved, or as
    /// the start of the unchanged body it is in.
    pub fn position(&self, at: LineColumn) -> LineColumn {
        let Some(body) = self.moves.iter().rev().find(|body| body.then.0 <= at) else { return at };
        match at < body.then.1 {
            true => moved(body.then.0, body.now.0, at),
            false => moved(body.then.1, body.now.1, at),
        }
    }
}

/// `at`, which stood after `then`, placed as far after `now`.
fn moved(then: LineColumn, now: LineColumn, at: LineColumn) -> LineColumn {
    match at.0 == then.0 {
        true => (now.0, now.1 + (at.1 - then.1)),
        false => (now.0 + (at.0 - then.0), at.1),
    }
}

/// `at` as far from `from` (`None`: the file's start): lines apart, and the column
/// apart on `from`'s line.
fn relative_to(from: Option<LineColumn>, at: LineColumn) -> LineColumn {
    match from {
        None => at,
        Some(from) if at.0 == from.0 => (0, at.1 - from.1),
        Some(from) => (at.0 - from.0, at.1),
    }
}

/// A plain body an edit changed (`FileDigest::changed_bodies`), where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyChange {
    pub start: LineColumn,
    pub end: LineColumn,
    /// Its macro calls, items or attributes changed: it makes no items only if
    /// rust-analyzer finds none in today's text.
    pub macros_changed: bool,
}

/// One plain body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BodyDigest {
    start: LineColumn,
    end: LineColumn,
    text: Fingerprint,
    /// Its items, macro calls and attributes.
    reaching_out: Fingerprint,
    /// A root's reach walked it (or code inside it).
    walked: bool,
    /// Walked, and rust-analyzer found items in it, its macros' expansions
    /// included (`mark_making_items`).
    #[serde(default)]
    makes_items: bool,
    /// It may instantiate a generic root checked at the instantiations bodies
    /// make: it names one, or (when there are such roots) holds a macro call or
    /// item, whose expansion or `use` may name one.
    may_instantiate_a_root: bool,
}

impl FileDigest {
    /// The digest of a file whose text is `text`, parsed; `None` when it has syntax
    /// errors. `instantiating_names` are the names of generic roots the analysis
    /// checks at the instantiations bodies make (`RootInstantiations::Named`).
    pub fn of(parse: &Parse<SourceFile>, text: &str, instantiating_names: &[String]) -> Option<FileDigest> {
        if !parse.errors().is_empty() {
            return None;
        }
        let file = &parse.tree();
        let index = LineIndex::new(text);
        let line_column = |offset| {
            let at = index.line_col(offset);
            (at.line + 1, at.col + 1)
        };
        let bodies: Vec<(TextRange, SyntaxNode)> = plain_bodies(file).collect();
        let mut skeleton = StableSipHasher128::new();
        let mut shape = StableSipHasher128::new();
        let mut next_body = 0;
        for token in file.syntax().descendants_with_tokens().filter_map(|element| element.into_token()) {
            let range = token.text_range();
            while next_body < bodies.len() && bodies[next_body].0.end() <= range.start() {
                next_body += 1;
            }
            let in_body = bodies.get(next_body).is_some_and(|(body, _)| body.contains_range(range));
            let kept = match token.kind() {
                SyntaxKind::WHITESPACE => false,
                SyntaxKind::COMMENT => token.text().to_ascii_lowercase().contains("noalloc"),
                _ => !in_body,
            };
            if kept {
                let at = line_column(range.start());
                at.hash(&mut skeleton);
                (token.kind() as u16).hash(&mut skeleton);
                token.text().hash(&mut skeleton);
                let from = match in_body {
                    true => Some(line_column(bodies[next_body].0.start())),
                    false => next_body.checked_sub(1).map(|before| line_column(bodies[before].0.end())),
                };
                (in_body, relative_to(from, at)).hash(&mut shape);
                (token.kind() as u16).hash(&mut shape);
                token.text().hash(&mut shape);
            }
        }
        for (k, (range, _)) in bodies.iter().enumerate() {
            let from = k.checked_sub(1).map(|before| line_column(bodies[before].0.end()));
            relative_to(from, line_column(range.start())).hash(&mut shape);
        }
        let bodies = bodies
            .into_iter()
            .map(|(range, body)| BodyDigest {
                start: line_column(range.start()),
                end: line_column(range.end()),
                text: fingerprint_of(|hasher| text[range].hash(hasher)),
                reaching_out: fingerprint_of(|hasher| {
                    for node in body.descendants().skip(1).filter(|node| reaches_out(node.kind())) {
                        text[node.text_range()].hash(hasher);
                    }
                }),
                walked: false,
                makes_items: false,
                may_instantiate_a_root: !instantiating_names.is_empty()
                    && body.descendants_with_tokens().any(|element| match element {
                        NodeOrToken::Node(node) => reaches_out(node.kind()),
                        NodeOrToken::Token(token) => {
                            token.kind() == SyntaxKind::IDENT
                                && instantiating_names.iter().any(|name| token.text().trim_start_matches("r#") == name)
                        }
                    }),
            })
            .collect();
        Some(FileDigest { skeleton: skeleton.finish(), shape: shape.finish(), bodies })
    }

    /// Marks the bodies that overlap `walked` (a walked function's place, from
    /// `start` to `end`) as walked.
    pub fn mark_walked(&mut self, start: LineColumn, end: LineColumn) {
        for body in &mut self.bodies {
            if body.start < end && start < body.end {
                body.walked = true;
            }
        }
    }

    /// Marks the bodies that overlap `place` (a walked function's, from `start` to
    /// `end`, whose body has items in it) as making items.
    pub fn mark_making_items(&mut self, start: LineColumn, end: LineColumn) {
        for body in &mut self.bodies {
            if body.start < end && start < body.end {
                body.makes_items = true;
            }
        }
    }

    /// Whether a file whose digest was `self` when an analysis was made, and is
    /// `now`, is the same to that analysis.
    pub fn same_to_analysis(&self, now: &FileDigest) -> bool {
        self.skeleton == now.skeleton
            && self.bodies.len() == now.bodies.len()
            && self.bodies.iter().zip(&now.bodies).all(|(then, now)| {
                then.start == now.start
                    && (then.text == now.text && then.end == now.end
                        || !then.walked
                            && then.reaching_out == now.reaching_out
                            && !then.may_instantiate_a_root
                            && !now.may_instantiate_a_root)
            })
    }

    /// When a file whose digest was `self` when an analysis was made, and is `now`,
    /// changed only in the text of plain bodies, each keeping the items, macro
    /// calls and attributes in it or, for a body the analysis walked and found no
    /// items in, its having none (to be confirmed by the expansions of today's
    /// text: `BodyChange::macros_changed`): where those bodies were, and where
    /// what the analysis named of the file is now (`None`: it changed otherwise).
    /// What a run after the edit must check again is the roots whose reaches read
    /// one of them (`stored_roots`).
    pub fn changed_bodies(&self, now: &FileDigest) -> Option<(Vec<BodyChange>, Relocation)> {
        if self.shape != now.shape || self.bodies.len() != now.bodies.len() {
            return None;
        }
        let mut changed = Vec::new();
        let mut moves = Vec::with_capacity(self.bodies.len());
        for (then, now) in self.bodies.iter().zip(&now.bodies) {
            moves.push(BodyMove { then: (then.start, then.end), now: (now.start, now.end) });
            if then.text != now.text {
                let macros_changed = then.reaching_out != now.reaching_out;
                if macros_changed && (!then.walked || then.makes_items) {
                    return None;
                }
                changed.push(BodyChange { start: then.start, end: then.end, macros_changed });
            }
        }
        Some((changed, Relocation { moves }))
    }

    /// `now`, with the walked bodies of `self`, a digest the same to the analysis.
    pub fn carried_to(&self, mut now: FileDigest) -> FileDigest {
        for (then, now) in self.bodies.iter().zip(&mut now.bodies) {
            now.walked = then.walked;
        }
        now
    }
}

fn fingerprint_of(write: impl FnOnce(&mut StableSipHasher128)) -> Fingerprint {
    let mut hasher = StableSipHasher128::new();
    write(&mut hasher);
    hasher.finish()
}

/// Nodes of a body that can matter beyond it.
fn reaches_out(kind: SyntaxKind) -> bool {
    kind == SyntaxKind::MACRO_CALL || kind == SyntaxKind::ATTR || ast::Item::can_cast(kind)
}

/// The plain bodies of `file` (see the module's doc), in order, with their ranges.
fn plain_bodies(file: &SourceFile) -> impl Iterator<Item = (TextRange, SyntaxNode)> + '_ {
    let defines_hidden_types = file
        .syntax()
        .descendants()
        .filter_map(ast::TypeAlias::cast)
        .any(|alias| alias.ty().is_some_and(|ty| has_impl_trait(ty.syntax())));
    file.syntax()
        .descendants()
        .filter(move |_| !defines_hidden_types)
        .filter_map(ast::Fn::cast)
        .filter(|function| {
            function.const_token().is_none()
                && function.async_token().is_none()
                && function.gen_token().is_none()
                && !function.ret_type().is_some_and(|ret| has_impl_trait(ret.syntax()))
                && function.syntax().ancestors().skip(1).all(|outer| !ast::BlockExpr::can_cast(outer.kind()))
                && function.syntax().ancestors().all(|node| {
                    ast::AnyHasAttrs::cast(node).is_none_or(|node| node.attrs().all(|attr| is_inert(&attr)))
                })
        })
        .filter_map(|function| function.body())
        .map(|body| (body.syntax().text_range(), body.syntax().clone()))
}

fn has_impl_trait(node: &SyntaxNode) -> bool {
    node.descendants().any(|node| node.kind() == SyntaxKind::IMPL_TRAIT_TYPE)
}

/// A built-in attribute that neither reads a body nor makes items, or a tool's
/// (`#[unsafe(no_mangle)]` as `#[no_mangle]`): those inert anywhere
/// (`stdx::INERT_ATTRIBUTES`), and those of code generation and linkage, which
/// change no body's walk (`sealed_files` does not count the linkage ones: they
/// make a function reachable by its symbol). Layout (`repr`) is not counted.
pub(crate) fn is_inert(attr: &ast::Attr) -> bool {
    const CODE_GENERATION: [&str; 7] =
        ["target_feature", "no_mangle", "export_name", "link_section", "link_name", "optimize", "coverage"];
    let Some(meta) = attr.meta() else { return false };
    let meta = meta.syntax().text().to_string();
    let meta = match meta.strip_prefix("unsafe") {
        Some(rest) => rest.trim_start().trim_start_matches('(').trim_start(),
        None => meta.as_str(),
    };
    let path_len = meta.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(meta.len());
    let segments: Vec<&str> = meta[..path_len].split("::").collect();
    match segments.as_slice() {
        [name] => crate::stdx::INERT_ATTRIBUTES.contains(name) || CODE_GENERATION.contains(name),
        [tool, _] => matches!(*tool, "rustfmt" | "clippy" | "rust_analyzer"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ra_ap_syntax::Edition;

    fn digest(text: &str) -> Option<FileDigest> {
        FileDigest::of(&SourceFile::parse(text, Edition::CURRENT), text, &[])
    }

    /// Whether `after` is the same to an analysis of `before` that walked the bodies
    /// starting on the lines `walked`.
    fn same(before: &str, after: &str, walked: &[u32]) -> bool {
        let mut then = digest(before).expect("parses");
        for &line in walked {
            then.mark_walked((line, 1), (line, u32::MAX));
        }
        digest(after).is_some_and(|now| then.same_to_analysis(&now))
    }

    const BASE: &str = "\
// noalloc:root
fn root() -> u32 { helper() }
fn helper() -> u32 { 1 }
fn unreached() -> u32 { 2 }
impl S {
    fn method(&self) -> u32 { 3 }
}
struct S;
";

    #[test]
    fn edits_of_bodies_no_reach_walked() {
        assert!(same(BASE, BASE, &[2, 3]));
        // A comment after everything, a body no root walks, a method no root walks.
        assert!(same(BASE, &format!("{BASE}// edited\n"), &[2, 3]));
        assert!(same(BASE, &BASE.replace("{ 2 }", "{ 2 + 40 }"), &[2, 3]));
        assert!(same(BASE, &BASE.replace("{ 3 }", "{ let x = 3; x }"), &[2, 3]));
    }

    #[test]
    fn edits_that_change_an_analysis() {
        // A walked body, in its text or only its spacing (findings carry columns).
        assert!(!same(BASE, &BASE.replace("{ 1 }", "{ 10 }"), &[2, 3]));
        assert!(!same(BASE, &BASE.replace("{ 1 }", "{  1 }"), &[2, 3]));
        // The item level: a signature, an item, a line moved, a directive.
        assert!(!same(BASE, &BASE.replace("-> u32 { 2 }", "-> u64 { 2 }"), &[2, 3]));
        assert!(!same(BASE, &format!("{BASE}struct T;\n"), &[2, 3]));
        assert!(!same(BASE, &format!("\n{BASE}"), &[2, 3]));
        assert!(!same(BASE, &BASE.replace("fn unreached", "// noalloc:root\nfn unreached"), &[2, 3]));
        assert!(!same(BASE, &BASE.replace("{ 2 }", "{ // noalloc:exempt debug: x\n 2 }"), &[2, 3]));
        // An unwalked body that gains an item, a macro call or an attribute.
        assert!(!same(BASE, &BASE.replace("{ 2 }", "{ impl S { fn extra() {} } 2 }"), &[2, 3]));
        assert!(!same(BASE, &BASE.replace("{ 2 }", "{ make_items!(); 2 }"), &[2, 3]));
        assert!(!same(BASE, &BASE.replace("{ 2 }", "{ #[noalloc::exempt(debug, \"x\")] 2 }"), &[2, 3]));
        // A body that stops parsing; one that grows by a line (what follows moves).
        assert!(!same(BASE, &BASE.replace("{ 2 }", "{ 2 + }"), &[2, 3]));
        assert!(!same(BASE, &BASE.replace("{ 2 }", "{\n 2 }"), &[2, 3]));
    }

    #[test]
    fn bodies_whose_edits_reach_beyond_them_are_skeleton() {
        let kinds = [
            "const fn unreached() -> u32 { 2 }",
            "async fn unreached() -> u32 { 2 }",
            "fn unreached() -> impl Sized { 2 }",
            "#[my_macro] fn unreached() -> u32 { 2 }",
            "fn outer() { fn unreached() -> u32 { 2 } }",
        ];
        for text in kinds {
            let edited = text.replace("{ 2 }", "{ 3 }");
            assert!(!same(text, &edited, &[]), "{text}");
        }
        let inert = "#[inline]\n#[allow(dead_code)]\nfn unreached() -> u32 { 2 }";
        assert!(same(inert, &inert.replace("{ 2 }", "{ 3 }"), &[]));
        // A hidden type any body of the module may define.
        let hidden = "type T = impl Sized;\nfn unreached() -> T { 2 }";
        assert!(!same(hidden, &hidden.replace("{ 2 }", "{ 3 }"), &[]));
        // Under an attribute macro on the impl.
        let attributed = "#[async_trait]\nimpl S { fn m(&self) { 2; } }";
        assert!(!same(attributed, &attributed.replace("{ 2; }", "{ 3; }"), &[]));
    }

    #[test]
    fn bodies_that_may_instantiate_a_generic_root() {
        let text = "fn unreached() -> u32 { let x = 2; x }\nfn other() { }";
        let with = |text: &str| {
            FileDigest::of(&SourceFile::parse(text, Edition::CURRENT), text, &["largest".to_owned()]).unwrap()
        };
        let then = with(text);
        assert!(then.same_to_analysis(&with(&text.replace("x = 2", "x = 3"))));
        // Names one, or holds a macro call that may.
        assert!(!then.same_to_analysis(&with(&text.replace("x = 2", "x = largest(&[2])"))));
        let macro_call = "fn unreached() -> u32 { let x = m!(2); x }";
        assert!(!with(macro_call).same_to_analysis(&with(&macro_call.replace("m!(2)", "m!(3)"))));
        assert!(!with(macro_call).same_to_analysis(&with(&macro_call.replace("x }", "x + 1 }"))));
        // Without such roots, an edit beside an unchanged macro call is not read.
        assert!(digest(macro_call).unwrap().same_to_analysis(&digest(&macro_call.replace("x }", "x + 1 }")).unwrap()));
    }

    /// The bodies an edit changed, where they were: what a run after it checks
    /// again the roots that read them of; `None` for an edit beyond plain bodies.
    #[test]
    fn changed_bodies_are_told_by_place() {
        // `helper` (line 3) walked, found with no items; `method` (line 6) walked,
        // with items; `unreached` (line 4) not walked.
        let then = {
            let mut then = digest(BASE).unwrap();
            then.mark_walked((3, 1), (3, u32::MAX));
            then.mark_walked((6, 1), (6, u32::MAX));
            then.mark_making_items((6, 1), (6, u32::MAX));
            then
        };
        let changed = |after: &str| then.changed_bodies(&digest(after).unwrap()).map(|(changed, _)| changed);
        let at = |start, end, macros_changed| BodyChange { start, end, macros_changed };
        assert_eq!(changed(BASE), Some(vec![]));
        assert_eq!(changed(&BASE.replace("{ 1 }", "{ 10 }")), Some(vec![at((3, 20), (3, 25), false)]));
        assert_eq!(
            changed(&BASE.replace("{ 1 }", "{ 10 }").replace("{ 3 }", "{ 4 }")),
            Some(vec![at((3, 20), (3, 25), false), at((6, 29), (6, 34), false)])
        );
        // A body that ends further along its last line: where it was.
        assert_eq!(changed(&BASE.replace("{ 2 }", "{  2 }")), Some(vec![at((4, 23), (4, 28), false)]));
        // A macro call in a walked body with no items: to be confirmed.
        assert_eq!(changed(&BASE.replace("{ 1 }", "{ m!(1) }")), Some(vec![at((3, 20), (3, 25), true)]));
        // The item level, a directive, a line moved outside the bodies.
        assert_eq!(changed(&BASE.replace("-> u32 { 2 }", "-> u64 { 2 }")), None);
        assert_eq!(changed(&BASE.replace("{ 2 }", "{ // noalloc:exempt debug: x\n 2 }")), None);
        assert_eq!(changed(&format!("\n{BASE}")), None);
        assert_eq!(changed(&BASE.replace("fn unreached", "\nfn unreached")), None);
        // Macro calls or items changed in a body not walked, or one with items.
        assert_eq!(changed(&BASE.replace("{ 2 }", "{ impl S { fn extra() {} } 2 }")), None);
        assert_eq!(changed(&BASE.replace("{ 2 }", "{ make_items!(); 2 }")), None);
        assert_eq!(changed(&BASE.replace("{ 3 }", "{ m!(3) }")), None);
    }

    /// A body that grows by lines moves what follows it; the places an analysis
    /// named there are found where they went.
    #[test]
    fn places_after_a_grown_body_are_relocated() {
        let then = digest(BASE).unwrap();
        let grown = BASE.replace("{ 1 }", "{\n    let one = 1;\n    one\n}");
        let (changed, relocation) = then.changed_bodies(&digest(&grown).unwrap()).expect("only a body changed");
        assert_eq!(changed, vec![BodyChange { start: (3, 20), end: (3, 25), macros_changed: false }]);
        // Before the body, unmoved; the end of `helper`'s item, at its body's end.
        assert_eq!(relocation.position((2, 1)), (2, 1));
        assert_eq!(relocation.position((3, 25)), (6, 2));
        // `unreached`'s item and body, three lines down; `method`'s body inside.
        assert_eq!(relocation.position((4, 1)), (7, 1));
        assert_eq!(relocation.position((4, 25)), (7, 25));
        assert_eq!(relocation.position((6, 31)), (9, 31));
        // A body shortened on its last line: what follows on that line moves left.
        let shortened = "fn a() { 100 } fn b() { 2 }";
        let (_, relocation) =
            digest(shortened).unwrap().changed_bodies(&digest(&shortened.replace("100", "1")).unwrap()).unwrap();
        assert_eq!(relocation.position((1, 16)), (1, 14));
    }

    #[test]
    fn walked_marks_carry_over() {
        let then = {
            let mut digest = digest(BASE).unwrap();
            digest.mark_walked((3, 1), (3, 30));
            digest
        };
        let now = then.carried_to(digest(&BASE.replace("{ 2 }", "{ 4 }")).unwrap());
        assert!(now.bodies[1].walked && !now.bodies[2].walked);
        assert!(!now.same_to_analysis(&digest(&BASE.replace("{ 1 }", "{ 5 }")).unwrap()));
    }
}
