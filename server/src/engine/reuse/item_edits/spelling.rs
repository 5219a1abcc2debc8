//! The name-spelling search: where files spell a touched name (as a path, a
//! method call, in a macro's input or expansion), told apart as the bodies of
//! plain functions or elsewhere (`Naming`), and the search of the untouched
//! files for one name (`SpellingSearch`).

use super::*;

/// What the search for a touched name's spellings in the files no edit touched reads.
pub(super) struct SpellingSearch<'a, 'db> {
    pub(super) sema: &'a Semantics<'db, RootDatabase>,
    pub(super) log: &'a EditLog,
    /// Every file of the database.
    pub(super) files: &'a [FileId],
    pub(super) library: &'a LibraryMacros,
    pub(super) in_library: &'a dyn Fn(FileId) -> bool,
    /// Whether a workspace file may `include!` another's text.
    pub(super) includes: bool,
    /// Whether a touched item is a member (a call names it after a `.`).
    pub(super) members: bool,
}

impl SpellingSearch<'_, '_> {
    /// Where the untouched files (those of `within`'s module alone, if given)
    /// spell `name`, read as `reading` says: `None` when one may name it outside
    /// the bodies of plain functions.
    pub(super) fn spelled_in(
        &self,
        name: &String,
        reading: Reading,
        within: Option<&(FileId, std::rc::Rc<FxHashSet<FileId>>)>,
    ) -> Option<SpelledIn> {
        let SpellingSearch { sema, log, files, library, in_library, includes, members } = *self;
        let db: &dyn SourceDatabase = sema.db;
        let Some(brought) = library.bringing(std::slice::from_ref(name)) else {
            tracing::debug!("`{name}` may be brought by a library's macro whose name no file spells");
            return None;
        };
        let finder = memchr::memmem::Finder::new(name.as_bytes());
        let brought_words = Words::new(&brought);
        let mut bodies_of = Vec::new();
        let read_expansions = std::cell::Cell::new(false);
        let resolved_attributes = std::cell::Cell::new(false);
        let resolved_paths = std::cell::Cell::new(false);
        let library_module = |path: &ast::Path| {
            let module = match sema.resolve_path(path) {
                Some(hir::PathResolution::Def(hir::ModuleDef::Module(module))) => module,
                _ => return false,
            };
            let library = !module.krate(sema.db).origin(sema.db).is_local();
            resolved_paths.set(resolved_paths.get() || library);
            library
        };
        let read = |attr: &ast::Attr| {
            resolved_attributes.set(resolved_attributes.get() || read_by_a_macro(attr));
            read_by_a_macro_resolved(sema, attr)
        };
        let seeing = |file: &FileId| within.is_none_or(|(_, files)| files.contains(file));
        for &file in files.iter().filter(|file| !log.touched.contains(*file) && seeing(file)) {
            let text = db.file_text(file).text(db);
            let naming = if !in_library(file) {
                let source = || sema.parse(sema.attach_first_edition(file));
                // An import no name shows (a glob, or one a macro makes) may
                // bring in any of the touched items.
                let open = reading.patterns == Patterns::InOpenBlocks
                    && spells_word(text, &finder)
                    && may_import_unseen(source().syntax(), &read);
                let reading = if open { Reading { patterns: Patterns::Everywhere, ..reading } } else { reading };
                let mut naming = if spells_word(text, &finder) {
                    naming_in(source().syntax(), reading, std::slice::from_ref(&finder), &read, &library_module)
                } else {
                    Naming::Nowhere
                };
                if naming != Naming::Elsewhere && brought_words.in_text(text) {
                    read_expansions.set(true);
                    let spelling = Spelling { name: &finder, bringing: &brought_words, method_calls: members };
                    naming = naming.and(spelling.in_file(sema, source().syntax()));
                }
                let within_bodies = |macro_calls: &[TextRange]| {
                    read_expansions.set(read_expansions.get() || !macro_calls.is_empty());
                    let source = source();
                    macro_calls.iter().all(|&range| {
                        let call = source.syntax().covering_element(range).into_node().and_then(ast::MacroCall::cast);
                        call.is_some_and(|call| expands_within_its_body(sema, &call))
                    })
                };
                match naming {
                    // A file another may `include!` is no file of its own bodies.
                    Naming::InPlainBodies { .. } if includes => Naming::Elsewhere,
                    Naming::InPlainBodies { macro_calls } if !within_bodies(&macro_calls) => Naming::Elsewhere,
                    naming => naming,
                }
            } else if includes && (spells_word(text, &finder) || brought_words.in_text(text)) {
                Naming::Elsewhere
            } else {
                Naming::Nowhere
            };
            match naming {
                Naming::Nowhere => {}
                Naming::InPlainBodies { .. } => bodies_of.push(file),
                Naming::Elsewhere => {
                    tracing::debug!("`{name}` may be named in {} (or a call of {brought:?} there)", path_of(db, file));
                    return None;
                }
            }
        }
        tracing::debug!(
            "`{name}` is named only in plain bodies, of {} file(s); no call of {brought:?} brings it",
            bodies_of.len()
        );
        let (read_expansions, resolved_attributes, resolved_paths) =
            (read_expansions.get(), resolved_attributes.get(), resolved_paths.get());
        Some(SpelledIn {
            brought,
            bodies_of,
            read_expansions,
            resolved_attributes,
            resolved_paths,
            found_at: log.taken(),
        })
    }
}

/// How deep expansions are followed into the macros they call.
pub(super) const EXPANSION_DEPTH: usize = 8;

/// A touched name, and the library macros that may bring it (`LibraryMacros::bringing`),
/// looked for in what a workspace file's calls of those macros expand to.
pub(super) struct Spelling<'a> {
    pub(super) name: &'a memchr::memmem::Finder<'a>,
    pub(super) bringing: &'a Words,
    /// Whether a method call's name counts (`Reading::method_calls`).
    pub(super) method_calls: bool,
}

/// Words looked for token by token: an identifier is one word, found in a set;
/// any other token (a literal, a doc comment) is searched for them as whole words.
pub(super) struct Words {
    pub(super) set: FxHashSet<String>,
    pub(super) finders: Vec<memchr::memmem::Finder<'static>>,
}

impl Words {
    pub(super) fn new(words: &[String]) -> Words {
        Words { set: words.iter().cloned().collect(), finders: finders_of(words) }
    }

    /// Whether `text` holds one of the words as a whole word.
    pub(super) fn in_text(&self, text: &str) -> bool {
        spells_any(text, &self.finders)
    }

    /// Whether `token` holds one of the words as a whole word.
    pub(super) fn in_token(&self, token: &SyntaxToken) -> bool {
        let text = token.text();
        match token.kind() {
            SyntaxKind::IDENT => self.set.contains(text.strip_prefix("r#").unwrap_or(text)),
            _ => self.in_text(text),
        }
    }
}

impl Spelling<'_> {
    /// Where the calls of bringing macros in `file`, a workspace file's syntax,
    /// name the function (`calls_to_expand`): in plain bodies when each call whose
    /// expansion names it is in one (`Naming::InPlainBodies`, whose calls are
    /// then told whether they expand within their bodies), elsewhere when another
    /// does or a bringing macro is spelled where a call of it may be made
    /// (`use … as`, a macro's definition).
    ///
    /// A file is read this way after `naming` looked for the name itself there:
    /// so here only the bringing macros are looked for.
    pub(super) fn in_file(&self, sema: &Semantics<'_, RootDatabase>, file: &SyntaxNode) -> Naming {
        let Some(calls) = self.calls_to_expand(sema, file, 0) else { return Naming::Elsewhere };
        let mut macro_calls = Vec::new();
        for call in calls.iter().filter(|call| self.expansion_names(sema, call, 0)) {
            let place = call.syntax().first_token().and_then(|token| place_in_a_plain_body(&token, &not_inert));
            match place {
                Some(Some(range)) => macro_calls.push(range),
                _ => return Naming::Elsewhere,
            }
        }
        if macro_calls.is_empty() {
            Naming::Nowhere
        } else {
            Naming::InPlainBodies { macro_calls }
        }
    }

    /// Whether what `call` expands to, nested calls followed, may name a free
    /// function of the name: where a path can be, with no binding counted as
    /// shadowing one (a macro's hygiene may hide it), or in a literal
    /// (`format_args!` reads names from its string). A call that does not
    /// expand, one that goes too deep and a procedural macro in an expansion may.
    pub(super) fn expansion_names(
        &self,
        sema: &Semantics<'_, RootDatabase>,
        call: &ast::MacroCall,
        depth: usize,
    ) -> bool {
        let Some(expansion) = sema.expand_macro_call(call).filter(|_| depth < EXPANSION_DEPTH) else { return true };
        match self.calls_to_expand(sema, &expansion.value, depth + 1) {
            Some(calls) => calls.iter().any(|call| self.expansion_names(sema, call, depth + 1)),
            None => true,
        }
    }

    /// The macro calls in `node` (a workspace file's syntax, `depth` 0, or an
    /// expansion) whose path or input spells a bringing macro, or in an
    /// expansion the name; `None` when `node` may name the function outside
    /// them (`expansion_names`), or spells a bringing macro outside a call's
    /// path and input where a macro may be made of it (a macro's definition, an
    /// import: `use … as`; not a type's or a module's path, `u32`) or under an
    /// attribute that is not one of the compiler's.
    pub(super) fn calls_to_expand(
        &self,
        sema: &Semantics<'_, RootDatabase>,
        node: &SyntaxNode,
        depth: usize,
    ) -> Option<Vec<ast::MacroCall>> {
        let expansion = depth > 0;
        let mut calls: Vec<ast::MacroCall> = Vec::new();
        for element in node.descendants_with_tokens() {
            let token = match element {
                NodeOrToken::Token(token) => token,
                NodeOrToken::Node(node) => {
                    // A procedural macro in an expansion may build any name.
                    let procedural = expansion
                        && ast::MacroCall::cast(node)
                            .is_some_and(|call| sema.resolve_macro_call(&call).is_none_or(|mac| mac.is_proc_macro()));
                    if procedural {
                        return None;
                    }
                    continue;
                }
            };
            let names = expansion && spells_word(token.text(), self.name);
            // A path's qualifier (`$crate::vec::from_elem`) is a module or a type.
            if !names && (!self.bringing.in_token(&token) || a_qualifier(&token)) {
                continue;
            }
            if ast::Comment::cast(token.clone()).is_some_and(|comment| !comment.is_doc()) {
                continue;
            }
            if token
                .parent_ancestors()
                .filter_map(ast::AnyHasAttrs::cast)
                .any(|node| node.attrs().any(|attr| read_by_a_macro_resolved(sema, &attr)))
            {
                return None;
            }
            // The compiler's attribute (`#[thread_local]`), not a macro's.
            if token.parent_ancestors().any(|node| node.kind() == SyntaxKind::ATTR) {
                continue;
            }
            match token.parent_ancestors().find_map(ast::MacroCall::cast) {
                Some(call) => {
                    if !calls.contains(&call) {
                        calls.push(call);
                    }
                }
                // Outside a macro call: a bringing macro's name only where no macro
                // can be made of it (not in a macro's definition, whose calls may
                // call it, nor in an import, which may rename it), the name where
                // no path can be.
                None => {
                    let word = token.kind().is_literal()
                        || matches!(token.kind(), SyntaxKind::COMMENT | SyntaxKind::LIFETIME_IDENT);
                    let may_call = token.parent_ancestors().any(|node| node.kind() == SyntaxKind::TOKEN_TREE)
                        || in_an_import(&token);
                    let brings = self.bringing.in_token(&token);
                    let reading = Reading { patterns: Patterns::Everywhere, method_calls: self.method_calls };
                    if (brings && may_call)
                        || (names && (word || where_a_path_can_be(&token, reading, Locals::MayBeHidden)))
                    {
                        return None;
                    }
                }
            }
        }
        Some(calls)
    }
}

/// Whether `token` is a segment of a path that is the qualifier of a longer one.
pub(super) fn a_qualifier(token: &SyntaxToken) -> bool {
    let segment = token.parent().filter(|node| node.kind() == SyntaxKind::NAME_REF).and_then(|name| name.parent());
    let path = segment.filter(|node| node.kind() == SyntaxKind::PATH_SEGMENT).and_then(|segment| segment.parent());
    path.and_then(|path| path.parent()).is_some_and(|parent| parent.kind() == SyntaxKind::PATH)
}

/// Whether a macro may read `attr` and the item under it: anything but the
/// compiler's own attributes (`#[thread_local]`, which `thread_local!` expands to,
/// is one), `cfg_attr` (which applies others) aside.
pub(super) fn read_by_a_macro(attr: &ast::Attr) -> bool {
    let builtin = attr.path().and_then(|path| path.as_single_name_ref()).is_some_and(|name| {
        let name = name.text();
        name != "cfg_attr"
            && hir_expand::inert_attr_macro::find_builtin_attr_idx(&ra_ap_intern::Symbol::intern(name)).is_some()
    });
    !builtin && !is_inert(attr)
}

/// Where `text`, a touched file's, can name a free function called one of
/// `names` (`naming`); anywhere when a call of one of the macros in `bringing`
/// may be made there (`may_call_any`).
pub(super) fn naming_or_bringing(
    text: &str,
    edition: Edition,
    names: &[memchr::memmem::Finder<'_>],
    bringing: &Words,
    method_calls: bool,
) -> Naming {
    let reading = Reading { patterns: Patterns::Everywhere, method_calls };
    if may_call_any(text, edition, bringing) {
        Naming::Elsewhere
    } else {
        naming(text, edition, reading, names)
    }
}

/// Whether `text`, Rust source of `edition`, spells one of the macros in
/// `bringing` where a call of it may be made: a macro call's path or input, a
/// macro's definition, an attribute or an item under one that is not inert, an
/// import (`use … as` may rename it). Not as a type's or a module's path (`u32`),
/// nor in a plain comment.
pub(super) fn may_call_any(text: &str, edition: Edition, bringing: &Words) -> bool {
    if !bringing.in_text(text) {
        return false;
    }
    let file = SourceFile::parse(text, edition).tree();
    file.syntax().descendants_with_tokens().filter_map(NodeOrToken::into_token).any(|token| {
        let plain_comment = ast::Comment::cast(token.clone()).is_some_and(|comment| !comment.is_doc());
        let where_a_call_may_be = || {
            in_a_macros_input(&token, &not_inert)
                || token.parent_ancestors().any(|node| node.kind() == SyntaxKind::MACRO_CALL)
                || in_an_import(&token)
        };
        !plain_comment && bringing.in_token(&token) && where_a_call_may_be()
    })
}

/// Where a text may name a function (`naming`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Naming {
    Nowhere,
    /// Only in the bodies of plain functions (`place_in_a_plain_body`), which nothing
    /// reads but a walk of that body: there, or in the input of the macro calls
    /// at `macro_calls` in them, if each expands to nothing but code of that body
    /// (`expands_within_its_body`).
    InPlainBodies {
        macro_calls: Vec<TextRange>,
    },
    /// Elsewhere too.
    Elsewhere,
}

impl Naming {
    /// Where a text names a function that `self` and `other` each tell of a part.
    pub(super) fn and(self, other: Naming) -> Naming {
        match (self, other) {
            (Naming::Elsewhere, _) | (_, Naming::Elsewhere) => Naming::Elsewhere,
            (Naming::Nowhere, naming) | (naming, Naming::Nowhere) => naming,
            (Naming::InPlainBodies { mut macro_calls }, Naming::InPlainBodies { macro_calls: more }) => {
                macro_calls.extend(more.into_iter().filter(|call| !macro_calls.contains(call)).collect::<Vec<_>>());
                Naming::InPlainBodies { macro_calls }
            }
        }
    }
}

/// Where `text`, Rust source of `edition`, can name a free function called one
/// of `names`. In a macro's input (a macro call, an attribute, an item under an
/// attribute that is not inert, a derive among them) every spelling counts, as an
/// identifier or a whole word in a literal, a lifetime or a doc comment: a macro
/// may make anything of its tokens (`m!(. len)` may expand to `len()`, a derive
/// may read a string or a doc). Elsewhere only an identifier where a path can be
/// counts: not a method or a field (`x.len()`, `x.len`, `S { len: 0 }`,
/// `S { len: p }`; `..len` is a range, a path) nor a definition (`fn len`, a
/// field `len: usize`, `use x as len`), apart from a lone identifier pattern
/// (`let len`) where `patterns` says. A plain comment counts nowhere: it is no
/// token of any macro's input.
pub(super) fn naming(text: &str, edition: Edition, reading: Reading, names: &[memchr::memmem::Finder<'_>]) -> Naming {
    if !spells_any(text, names) {
        return Naming::Nowhere;
    }
    naming_in(SourceFile::parse(text, edition).tree().syntax(), reading, names, &not_inert, &|_| false)
}

/// `naming` in `file`'s syntax, where `read` tells the attributes a macro may
/// read the item under (`not_inert`; with the attributes resolved,
/// `read_by_a_macro_resolved`), and `library_module` whether a path resolves to
/// a module of a library crate, whose items are that crate's
/// (`qualified_by_a_library_module`; never, unresolved).
pub(super) fn naming_in(
    file: &SyntaxNode,
    reading: Reading,
    names: &[memchr::memmem::Finder<'_>],
    read: &dyn Fn(&ast::Attr) -> bool,
    library_module: &dyn Fn(&ast::Path) -> bool,
) -> Naming {
    let mut named = false;
    let mut macro_calls = Vec::new();
    for token in file.descendants_with_tokens().filter_map(NodeOrToken::into_token) {
        let kind = token.kind();
        let plain_comment = ast::Comment::cast(token.clone()).is_some_and(|comment| !comment.is_doc());
        let words = kind.is_literal() || matches!(kind, SyntaxKind::COMMENT | SyntaxKind::LIFETIME_IDENT);
        let names = !plain_comment
            && names.iter().any(|name| spells_word(token.text(), name))
            && (in_a_macros_input(&token, read)
                || (!words
                    && where_a_path_can_be(&token, reading, Locals::Shadow)
                    && !qualified_by_a_library_module(&token, library_module)));
        if !names {
            continue;
        }
        let Some(place) = place_in_a_plain_body(&token, read) else { return Naming::Elsewhere };
        named = true;
        if let Some(call) = place.filter(|call| !macro_calls.contains(call)) {
            macro_calls.push(call);
        }
    }
    if named {
        Naming::InPlainBodies { macro_calls }
    } else {
        Naming::Nowhere
    }
}

/// Whether `token`, a name in a path, follows a qualifier that `library_module`
/// resolves to a module of a library crate (`std::io::Write`, `Write` in `use
/// std::fmt::{self, Write}`): it names an item of that module, which a crate
/// from a registry, a git source or the sysroot cannot take from the
/// workspace (it does not depend on it). A type's path (`Vec::name`) may name
/// an associated item of the workspace's trait's impl, so only a module's
/// counts.
pub(super) fn qualified_by_a_library_module(token: &SyntaxToken, library_module: &dyn Fn(&ast::Path) -> bool) -> bool {
    let Some(segment) = token
        .parent()
        .filter(|parent| parent.kind() == SyntaxKind::NAME_REF)
        .and_then(|name| name.parent())
        .and_then(ast::PathSegment::cast)
    else {
        return false;
    };
    let path = segment.parent_path();
    let qualifier = match path.qualifier() {
        Some(qualifier) => Some(qualifier),
        // The first path of a group in an import: the group's prefix.
        None => path
            .syntax()
            .parent()
            .and_then(ast::UseTree::cast)
            .and_then(|tree| tree.parent_use_tree_list())
            .and_then(|list| list.parent_use_tree().path()),
    };
    qualifier.is_some_and(|qualifier| library_module(&qualifier))
}

/// Where `token` is in the body of a plain function, a body that only its own
/// walks read: `Some(None)` outside any macro's input, `Some(Some(range))` in the
/// input of the macro call at `range` there (whose expansion is lowered into the
/// body, unless it makes an item that counts elsewhere:
/// `expands_within_its_body`); `None` elsewhere. Not in a `const fn` (whose
/// evaluation a type elsewhere may read), an `async fn` or one returning
/// `impl Trait` (whose hidden type callers read), nor in an item of the body
/// other than a function (an `impl` there counts for the whole program), nor
/// in an attribute or under one a macro may read.
pub(super) fn place_in_a_plain_body(
    token: &SyntaxToken,
    read: &dyn Fn(&ast::Attr) -> bool,
) -> Option<Option<TextRange>> {
    if in_or_under_an_attribute(token, read) {
        return None;
    }
    // The outermost macro call whose input holds it.
    let call = token.parent_ancestors().filter_map(ast::MacroCall::cast).last();
    let from = call.as_ref().map_or_else(|| token.parent(), |call| call.syntax().parent())?;
    let Some(ast::Item::Fn(function)) = from.ancestors().find_map(ast::Item::cast) else { return None };
    let in_body = function.body().is_some_and(|body| body.syntax().text_range().contains_range(token.text_range()));
    let opaque = function
        .ret_type()
        .is_some_and(|ret| ret.syntax().descendants().any(|node| node.kind() == SyntaxKind::IMPL_TRAIT_TYPE));
    let plain = in_body && function.const_token().is_none() && function.async_token().is_none() && !opaque;
    plain.then(|| call.map(|call| call.syntax().text_range()))
}

/// Whether the expansion of `call`, a macro call in a plain body, and of the
/// calls in it, is nothing but code of that body: no `impl` (which counts for
/// the whole program), no macro definition (one may be exported), no item under
/// an attribute a macro may read (a derive makes an `impl`). A call that does
/// not expand, or goes too deep, may make anything.
pub(super) fn expands_within_its_body(sema: &Semantics<'_, RootDatabase>, call: &ast::MacroCall) -> bool {
    !expansion_may_hold(sema, call, 0, &|node| {
        let global = matches!(node.kind(), SyntaxKind::IMPL | SyntaxKind::MACRO_RULES | SyntaxKind::MACRO_DEF);
        global
            || ast::AnyHasAttrs::cast(node.clone()).is_some_and(|node| node.attrs().any(|attr| read_by_a_macro(&attr)))
    })
}

/// Whether what `call` expands to, nested calls followed, may hold a node
/// `found` picks: a call that does not expand, or goes too deep, may make
/// anything.
pub(super) fn expansion_may_hold(
    sema: &Semantics<'_, RootDatabase>,
    call: &ast::MacroCall,
    depth: usize,
    found: &dyn Fn(&SyntaxNode) -> bool,
) -> bool {
    let Some(expansion) = sema.expand_macro_call(call).filter(|_| depth < EXPANSION_DEPTH) else { return true };
    expansion.value.descendants().any(|node| {
        found(&node)
            || ast::MacroCall::cast(node).is_some_and(|inner| expansion_may_hold(sema, &inner, depth + 1, found))
    })
}

/// Where a name standing alone counts: a path's first segment (`len()`,
/// `Len::new()`, `Vec<Len>`), which resolves in the scope of its module, or a
/// lone identifier pattern (`let len`), which resolves to a const, a struct or a
/// variant of its name when one is in scope and is a binding otherwise. Another
/// module's scope holds an item of the touched ones only by an import: one that
/// spells its name (a path's later segment, which counts anywhere), a glob
/// (`use crate::c::*`), or one a macro makes (a macro call where an item can
/// be, an attribute a macro reads: `may_import_unseen`). A file with none of
/// those is closed: there a name standing alone counts only inside a block
/// that imports a glob or holds a macro call where an item can be.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Patterns {
    /// In the module of the items edited, a file that may import unseen, or a
    /// file another may `include!`.
    Everywhere,
    /// In a closed file of another module: only inside an open block (`open`).
    InOpenBlocks,
}

/// Whether `file` (a workspace file's syntax) may import a name that no path of
/// it spells: it holds a glob import, a macro call where an item can be, or an
/// attribute a macro may read (`read`: not only the compiler's own derives),
/// whose expansion may hold an import.
pub(super) fn may_import_unseen(file: &SyntaxNode, read: &dyn Fn(&ast::Attr) -> bool) -> bool {
    file.descendants().any(|node| match node.kind() {
        SyntaxKind::USE_TREE => ast::UseTree::cast(node).is_some_and(|tree| tree.star_token().is_some()),
        SyntaxKind::MACRO_CALL => {
            node.parent().is_some_and(|parent| matches!(parent.kind(), SyntaxKind::SOURCE_FILE | SyntaxKind::ITEM_LIST))
        }
        SyntaxKind::ATTR => ast::Attr::cast(node).is_some_and(|attr| read(&attr)),
        _ => false,
    })
}

/// Whether `name_ref` is a path's first segment, which resolves in its module's
/// scope: not a later segment (`c::len`), nor after a leading `::`, nor in an
/// import (whose grouped paths go on from their prefix).
pub(super) fn stands_alone(name_ref: &SyntaxNode) -> bool {
    let Some(segment) = name_ref.parent().and_then(ast::PathSegment::cast) else { return false };
    let first = segment.coloncolon_token().is_none() && segment.parent_path().qualifier().is_none();
    first && !name_ref.ancestors().any(|node| node.kind() == SyntaxKind::USE)
}

/// Where a spelling of a touched name counts, besides a path's (`naming`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Reading {
    pub(super) patterns: Patterns,
    /// Whether a method call's name counts: one of the names is a member of an
    /// impl (`x.len()` may call it).
    pub(super) method_calls: bool,
}

impl Reading {
    /// Paths and the lone identifier patterns `patterns` says.
    #[cfg(test)]
    pub(super) fn paths(patterns: Patterns) -> Reading {
        Reading { patterns, method_calls: false }
    }
}

/// Whether a local binding before a path in its body counts as shadowing the
/// items of its name (`a_local_binding`): in a file's text it does; in a macro's
/// expansion the two may come from different hygiene contexts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Locals {
    Shadow,
    MayBeHidden,
}

/// Whether `name_ref` is a path expression of one segment (`len`) that a binding
/// of the same name before it in its body is in scope for: a `let` earlier in a
/// block around it, a parameter of its function or closure, its `match` arm's
/// pattern or its `for` loop's, and no `open` block between the two. A local
/// shadows the items of its scope and those outside it (but not a block's inside
/// it), so such a path names no function whatever the items are (whether that
/// binding is one is told by `Patterns`).
pub(super) fn a_local_binding(name_ref: &SyntaxNode, name: &str) -> bool {
    let Some(path) = name_ref.parent().and_then(|segment| segment.parent()).and_then(ast::Path::cast) else {
        return false;
    };
    let single = path.qualifier().is_none()
        && path
            .segment()
            .is_some_and(|segment| segment.coloncolon_token().is_none() && segment.syntax().children().count() == 1);
    let Some(expression) = path.syntax().parent().filter(|parent| single && ast::PathExpr::can_cast(parent.kind()))
    else {
        return false;
    };
    let binds = |pattern: Option<ast::Pat>| {
        pattern.is_some_and(|pattern| {
            pattern
                .syntax()
                .descendants()
                .filter_map(ast::IdentPat::cast)
                .any(|binding| binding.name().is_some_and(|it| it.text() == name))
        })
    };
    let params_bind =
        |params: Option<ast::ParamList>| params.is_some_and(|params| params.params().any(|param| binds(param.pat())));
    let is = |node: Option<&SyntaxNode>, child: &SyntaxNode| node == Some(child);
    let mut child = expression;
    for node in child.ancestors().skip(1) {
        // A constant's expression (`[u8; len]`, `[0; len]`, `const { len }`) sees
        // no local: rustc refuses one there.
        let constant = matches!(node.kind(), SyntaxKind::CONST_ARG | SyntaxKind::ARRAY_TYPE)
            || ast::ArrayExpr::cast(node.clone()).is_some_and(|array| array.semicolon_token().is_some())
            || ast::BlockExpr::cast(node.clone()).is_some_and(|block| block.const_token().is_some());
        if constant {
            return false;
        }
        let bound = if let Some(block) = ast::StmtList::cast(node.clone()) {
            let bound = block
                .statements()
                .take_while(|statement| statement.syntax().text_range().end() <= child.text_range().start())
                .any(|statement| matches!(statement, ast::Stmt::LetStmt(binding) if binds(binding.pat())));
            // A block's imports shadow the bindings outside it.
            if !bound && open(&block) {
                return false;
            }
            bound
        } else if let Some(function) = ast::Fn::cast(node.clone()) {
            return is(function.body().as_ref().map(AstNode::syntax), &child) && params_bind(function.param_list());
        } else if let Some(closure) = ast::ClosureExpr::cast(node.clone()) {
            is(closure.body().as_ref().map(AstNode::syntax), &child) && params_bind(closure.param_list())
        } else if let Some(arm) = ast::MatchArm::cast(node.clone()) {
            !is(arm.pat().as_ref().map(AstNode::syntax), &child) && binds(arm.pat())
        } else if let Some(each) = ast::ForExpr::cast(node.clone()) {
            is(each.loop_body().as_ref().map(AstNode::syntax), &child) && binds(each.pat())
        } else if ast::Item::can_cast(node.kind()) {
            return false;
        } else {
            false
        };
        if bound {
            return true;
        }
        child = node;
    }
    false
}

/// Whether a block around `node` is `open`.
pub(super) fn in_an_open_block(node: &SyntaxNode) -> bool {
    node.ancestors().filter_map(ast::StmtList::cast).any(|block| open(&block))
}

/// Whether `block` imports a glob, or holds a macro call where an item can be
/// (which may expand to an import).
pub(super) fn open(block: &ast::StmtList) -> bool {
    block.statements().any(|statement| match statement {
        ast::Stmt::Item(ast::Item::Use(import)) => {
            import.syntax().descendants_with_tokens().any(|element| element.kind() == SyntaxKind::STAR)
        }
        ast::Stmt::Item(ast::Item::MacroCall(_)) => true,
        ast::Stmt::ExprStmt(statement) => matches!(statement.expr(), Some(ast::Expr::MacroExpr(_))),
        _ => false,
    }) || matches!(block.tail_expr(), Some(ast::Expr::MacroExpr(_)))
}

/// Whether `token` is in a macro call's or an attribute's input, or in an item
/// under an attribute that `read` says a macro reads (a derive's or an
/// attribute macro's).
pub(super) fn in_a_macros_input(token: &SyntaxToken, read: &dyn Fn(&ast::Attr) -> bool) -> bool {
    token.parent_ancestors().any(|node| node.kind() == SyntaxKind::TOKEN_TREE) || in_or_under_an_attribute(token, read)
}

/// Whether `token` is in an attribute, or in an item under one that `read` says
/// a macro reads.
pub(super) fn in_or_under_an_attribute(token: &SyntaxToken, read: &dyn Fn(&ast::Attr) -> bool) -> bool {
    token.parent_ancestors().any(|node| {
        node.kind() == SyntaxKind::ATTR
            || ast::AnyHasAttrs::cast(node).is_some_and(|node| node.attrs().any(|attr| read(&attr)))
    })
}

/// Whether a macro may read the item under `attr`, told from its text: any
/// attribute but the inert ones (`is_inert`).
pub(super) fn not_inert(attr: &ast::Attr) -> bool {
    !is_inert(attr)
}

/// Whether a macro may read the item under `attr` (`read_by_a_macro`), but for
/// a derive of the compiler's own derives only, which makes an impl that names
/// the item by its own name, in its own module, and its fields by theirs.
pub(super) fn read_by_a_macro_resolved(sema: &Semantics<'_, RootDatabase>, attr: &ast::Attr) -> bool {
    read_by_a_macro(attr) && !builtin_derives_only(sema, attr)
}

/// Whether `token` is in an import, which may rename what it imports (`use … as`).
pub(super) fn in_an_import(token: &SyntaxToken) -> bool {
    token.parent_ancestors().any(|node| matches!(node.kind(), SyntaxKind::USE | SyntaxKind::EXTERN_CRATE))
}

/// Whether the identifier `token` stands where a path to a free function can be
/// (`naming`), or, as `reading` says, where a method call names its method.
pub(super) fn where_a_path_can_be(token: &SyntaxToken, reading: Reading, locals: Locals) -> bool {
    let Some(parent) = token.parent() else { return true };
    let holder = parent.parent().map(|node| node.kind());
    match parent.kind() {
        SyntaxKind::NAME => {
            holder == Some(SyntaxKind::IDENT_PAT)
                && (reading.patterns == Patterns::Everywhere || in_an_open_block(&parent))
        }
        SyntaxKind::NAME_REF if holder == Some(SyntaxKind::METHOD_CALL_EXPR) => reading.method_calls,
        SyntaxKind::NAME_REF
            if reading.patterns == Patterns::InOpenBlocks && stands_alone(&parent) && !in_an_open_block(&parent) =>
        {
            false
        }
        SyntaxKind::NAME_REF => {
            !matches!(
                holder,
                Some(SyntaxKind::FIELD_EXPR | SyntaxKind::RECORD_EXPR_FIELD | SyntaxKind::RECORD_PAT_FIELD)
            ) && !(locals == Locals::Shadow && a_local_binding(&parent, token.text()))
        }
        _ => true,
    }
}
