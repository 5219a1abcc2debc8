//! Whether any code outside a workspace file can reach code written in it: when
//! none can, the first analysis after a load publishes that open file's
//! diagnostics once its own roots are judged, instead of reaching every other root
//! first to learn that it says nothing about it (`analysis`). Owns the reading of
//! such files (what they define, under which names) and the search for those
//! names everywhere else; knows nothing of roots.
//!
//! Why a search for names suffices. A reach enters code written in a file only
//! through a body defined there (a function, a method, a const's or static's
//! initialiser, a variant's discriminant; a closure is made in one of them, and a
//! call written there is in one). Outside a trait impl, such a body runs only where
//! a path or a method call names it, or through a value it made (a closure, a fn
//! pointer, a `dyn`), which it must have run to make. A trait impl's method runs for
//! code that never names it (an operator, a drop, std's generic code, a `dyn` call
//! on a caller's value), and an attribute may make anything of an item (a lang item,
//! an exported symbol, a procedural macro's output), so a file with a trait impl, a
//! trait (its default methods), a macro definition, an item-level macro call or an
//! attribute that is not inert is never sealed; a macro call in a body is expanded
//! and read the same way. Names are spelled in the files of the workspace's crates,
//! in the bodies of std's and the dependencies' macros that a workspace crate may
//! call (`library_macros`: a name counts as spelled where such a macro's is) and in
//! what procedural macros in the workspace's files expand to: no crate of std or
//! the dependencies depends on a workspace crate, so their code names nothing of
//! it otherwise. A name made from pieces (`include!` of a generated file) is not
//! searched for: a workspace that includes a file (or calls a library's macro
//! that may) is never sealed.

use hir::{db::HirDatabase, Semantics};
use ra_ap_ide_db::{base_db::SourceDatabase, RootDatabase};
use ra_ap_syntax::{
    ast::{self, HasAttrs, HasName},
    AstNode, SyntaxKind, SyntaxNode,
};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

use super::library_macros::LibraryMacros;
use crate::engine::load::Workspace;
use crate::stdx::spells_word;

/// How deep macro expansions are followed into one another before the answer is
/// "cannot tell".
const EXPANSION_DEPTH: usize = 8;

/// Past this many workspace files, the procedural macros in them are not expanded
/// to be read: that would cost more than it saves.
const FILES_EXPANDED: usize = 500;

/// Attributes that change nothing any other code can reach: those inert anywhere
/// (`stdx::INERT_ATTRIBUTES`), and layout. Not those of linkage (`no_mangle`,
/// `export_name`, ...), which make a function reachable by its symbol;
/// `target_feature`, `optimize` and `coverage` would be inert here too, and are
/// not counted yet.
const LAYOUT_ATTRIBUTES: [&str; 2] = ["repr", "non_exhaustive"];

/// For each of `files`, whether no code outside it can reach code written in it:
/// `Ok` with how many names it defines, else why not.
pub(crate) fn sealed_each(ws: &Workspace, files: &[FileId]) -> Vec<Result<usize, String>> {
    let db: &RootDatabase = &ws.db;
    let sema = Semantics::new(db);
    let mut verdicts = Verdicts::default();
    for &file in files {
        let crates = ra_ap_ide_db::base_db::relevant_crates(db, file);
        let read = if crates.is_empty() || crates.iter().any(|krate| !krate.data(db).origin.is_local()) {
            Err("not a file of the workspace's crates".to_owned())
        } else {
            let source = sema.parse(sema.attach_first_edition(file));
            let mut names = FxHashSet::default();
            read_sealed(&sema, source.syntax(), &mut names, 0).and_then(|()| {
                match names.iter().find(|name| !name.is_ascii()) {
                    // A name with other letters may be spelled in other bytes (NFC).
                    Some(name) => Err(format!("`{name}` is not ASCII")),
                    None => Ok(names),
                }
            })
        };
        verdicts.add(file, read);
    }
    if let Err(why) = verdicts.search(ws, &sema) {
        verdicts.all_unsealed(&why);
    }
    verdicts.verdicts
}

/// Each file's verdict so far, and the names of the files still sealed.
#[derive(Default)]
struct Verdicts {
    files: Vec<FileId>,
    verdicts: Vec<Result<usize, String>>,
    names: FxHashMap<String, usize>,
    finders: Vec<memchr::memmem::Finder<'static>>,
    /// Per name, the files that define it.
    owners: Vec<Vec<usize>>,
    /// The library macros that may bring a name (its index), to be looked for as
    /// the name is: `LibraryMacros::bringing`.
    bringing: Vec<(usize, memchr::memmem::Finder<'static>)>,
}

impl Verdicts {
    fn add(&mut self, file: FileId, read: Result<FxHashSet<String>, String>) {
        let at = self.files.len();
        self.files.push(file);
        self.verdicts.push(read.as_ref().map(FxHashSet::len).map_err(Clone::clone));
        for name in read.into_iter().flatten() {
            let next = self.names.len();
            let index = *self.names.entry(name.clone()).or_insert(next);
            if index == next {
                self.finders.push(memchr::memmem::Finder::new(name.as_bytes()).into_owned());
                self.owners.push(Vec::new());
            }
            self.owners[index].push(at);
        }
    }

    /// Whether some file is still sealed.
    fn undecided(&self) -> bool {
        self.verdicts.iter().any(Result::is_ok)
    }

    /// Whether a file still sealed defines the name `name`.
    fn live(&self, name: usize) -> bool {
        self.owners[name].iter().any(|&file| self.verdicts[file].is_ok())
    }

    /// The names some file still sealed defines, with their index, and the
    /// library macros that may bring one, with its index.
    fn live_finders(&self) -> Vec<(usize, &memchr::memmem::Finder<'static>)> {
        let names = (0..self.finders.len()).map(|name| (name, &self.finders[name]));
        let bringing = self.bringing.iter().map(|(name, finder)| (*name, finder));
        names.chain(bringing).filter(|&(name, _)| self.live(name)).collect()
    }

    /// Name `name` (or a macro that may bring it) is spelled in `file` (`place`
    /// says where; `None`: in no file of the workspace): the other files defining
    /// it are not sealed.
    fn spelled(&mut self, name: usize, file: Option<FileId>, place: &dyn Fn() -> String) {
        let spelled = String::from_utf8_lossy(self.finders[name].needle()).into_owned();
        let or_brought = if self.bringing.iter().any(|(brought, _)| *brought == name) {
            " (or a macro that may bring it)"
        } else {
            ""
        };
        for &owner in &self.owners[name] {
            if Some(self.files[owner]) != file && self.verdicts[owner].is_ok() {
                self.verdicts[owner] = Err(format!("`{spelled}`{or_brought} is spelled {}", place()));
            }
        }
    }

    fn all_unsealed(&mut self, why: &str) {
        for verdict in self.verdicts.iter_mut().filter(|verdict| verdict.is_ok()) {
            *verdict = Err(why.to_owned());
        }
    }

    /// Looks for the names of the files still sealed in every other file that can
    /// spell them; `Err` when none can be sealed.
    fn search(&mut self, ws: &Workspace, sema: &Semantics<'_, RootDatabase>) -> Result<(), String> {
        let db: &RootDatabase = &ws.db;
        let mut local = Vec::new();
        let mut library = Vec::new();
        for (file, _) in ws.vfs.iter() {
            let is_rust =
                ws.file_path(file).is_some_and(|path| path.extension().is_some_and(|extension| extension == "rs"));
            if !is_rust {
                continue;
            }
            let text = db.file_text(file).text(db);
            let crates = ra_ap_ide_db::base_db::relevant_crates(db, file);
            if ws.local_rust_file_path(file).is_some() || crates.iter().any(|krate| krate.data(db).origin.is_local()) {
                if text.contains("include!") {
                    return Err(format!("{} includes a file", crate::stdx::path_of(&ws.db, file)));
                }
                local.push(file);
            } else {
                library.push(text.clone());
            }
        }
        // A library's macro names a name in the workspace only where a workspace
        // crate calls it (`library_macros`).
        let library = LibraryMacros::read(library);
        let calls_including = |including: &[memchr::memmem::Finder<'static>]| {
            local.iter().any(|&file| including.iter().any(|finder| spells_word(db.file_text(file).text(db), finder)))
        };
        if library.including().is_none_or(calls_including) {
            return Err("a workspace file calls a library's macro that may include a file".to_owned());
        }
        for name in 0..self.finders.len() {
            let word = String::from_utf8_lossy(self.finders[name].needle()).into_owned();
            match library.bringing(&[word]) {
                Some(macros) => self.bringing.extend(
                    macros.iter().map(|brought| (name, memchr::memmem::Finder::new(brought.as_bytes()).into_owned())),
                ),
                None => self.spelled(name, None, &|| "by a library's macro whose name no file spells".to_owned()),
            }
        }
        for &file in &local {
            if !self.undecided() {
                return Ok(());
            }
            for name in spelled(db.file_text(file).text(db), &self.live_finders()) {
                self.spelled(name, Some(file), &|| format!("in {}", crate::stdx::path_of(&ws.db, file)));
            }
        }
        let procedural = ra_ap_ide_db::base_db::all_crates(db).iter().any(|krate| krate.data(db).is_proc_macro);
        if !procedural || !self.undecided() {
            return Ok(());
        }
        if local.len() > FILES_EXPANDED {
            return Err(format!("{} workspace files to expand procedural macros in", local.len()));
        }
        for file in local {
            let source = sema.parse(sema.attach_first_edition(file));
            let mut found = Vec::new();
            spelled_in_procedural_expansions(sema, source.syntax(), &self.live_finders(), 0, &mut found)?;
            for name in found {
                self.spelled(name, Some(file), &|| {
                    format!("by a procedural macro in {}", crate::stdx::path_of(&ws.db, file))
                });
            }
        }
        Ok(())
    }
}

/// Reads code of a sealed file (or a macro's expansion in it): the names its
/// bodies can be entered by go to `names`; `Err` when something in it may be
/// entered without one.
fn read_sealed(
    sema: &Semantics<'_, RootDatabase>,
    node: &SyntaxNode,
    names: &mut FxHashSet<String>,
    depth: usize,
) -> Result<(), String> {
    for node in node.descendants() {
        let mut name_of = |name: Option<ast::Name>| {
            if let Some(name) = name {
                names.insert(name.text().trim_start_matches("r#").to_owned());
            }
        };
        read_node(&node, &mut name_of)?;
        if let Some(call) = ast::MacroCall::cast(node.clone()) {
            let among_items = node.parent().is_some_and(|parent| {
                matches!(
                    parent.kind(),
                    SyntaxKind::SOURCE_FILE
                        | SyntaxKind::ITEM_LIST
                        | SyntaxKind::ASSOC_ITEM_LIST
                        | SyntaxKind::EXTERN_ITEM_LIST
                        | SyntaxKind::MACRO_ITEMS
                )
            });
            if among_items {
                return Err("a macro call among items".to_owned());
            }
            let Some(mac) = sema.resolve_macro_call(&call) else {
                return Err("a macro call rust-analyzer does not resolve".to_owned());
            };
            let db: &dyn HirDatabase = sema.db;
            if mac.is_proc_macro() || mac.name(db).as_str() == "include" {
                return Err(format!("a call of `{}!`", mac.name(db).as_str()));
            }
            if depth == EXPANSION_DEPTH {
                return Err("macros expanding into macros too deep".to_owned());
            }
            let Some(expansion) = sema.expand_macro_call(&call) else {
                return Err("a macro call rust-analyzer does not expand".to_owned());
            };
            read_sealed(sema, &expansion.value, names, depth + 1)?;
        }
    }
    Ok(())
}

/// One node of a sealed file: its name, if a body can be entered by it; `Err` for
/// what lets code in without a name.
fn read_node(node: &SyntaxNode, name_of: &mut impl FnMut(Option<ast::Name>)) -> Result<(), String> {
    if let Some(attr) = ast::Attr::cast(node.clone()) {
        return if inert(&attr) { Ok(()) } else { Err(format!("the attribute `{}`", attr.syntax().text())) };
    }
    match node.kind() {
        SyntaxKind::TRAIT => return Err("a trait".to_owned()),
        SyntaxKind::MACRO_RULES | SyntaxKind::MACRO_DEF => return Err("a macro definition".to_owned()),
        _ => {}
    }
    if ast::Impl::cast(node.clone()).is_some_and(|imp| imp.trait_().is_some()) {
        return Err("a trait impl".to_owned());
    }
    if let Some(function) = ast::Fn::cast(node.clone()) {
        name_of(function.name());
    } else if let Some(konst) = ast::Const::cast(node.clone()) {
        name_of(konst.name());
    } else if let Some(statik) = ast::Static::cast(node.clone()) {
        name_of(statik.name());
    } else if let Some(variant) = ast::Variant::cast(node.clone()) {
        if variant.const_arg().is_some() {
            name_of(variant.name());
        }
    } else if let Some(rename) = ast::Rename::cast(node.clone()) {
        // `pub use self::f as g`: `g` names `f`.
        name_of(rename.name());
    }
    Ok(())
}

/// Whether `attr` is inert (`stdx::INERT_ATTRIBUTES`, `LAYOUT_ATTRIBUTES`), or a tool's (`rustfmt::skip`,
/// `clippy::…`).
fn inert(attr: &ast::Attr) -> bool {
    let Some(path) = attr.path() else { return false };
    let text = path.syntax().text().to_string();
    crate::stdx::INERT_ATTRIBUTES.contains(&text.as_str())
        || LAYOUT_ATTRIBUTES.contains(&text.as_str())
        || text.starts_with("rustfmt::")
        || text.starts_with("clippy::")
}

/// The names (their index) `text` holds as a whole word (in code, a comment or a
/// literal).
fn spelled(text: &str, finders: &[(usize, &memchr::memmem::Finder<'_>)]) -> Vec<usize> {
    finders.iter().filter(|(_, finder)| spells_word(text, finder)).map(|&(name, _)| name).collect()
}

/// The names (their index) that the procedural macros called in `node` (a
/// workspace file, or a macro's expansion in it) spell in their expansions, to
/// `found`: function-like calls, attributes and derives, and those that other
/// macros' expansions make.
fn spelled_in_procedural_expansions(
    sema: &Semantics<'_, RootDatabase>,
    node: &SyntaxNode,
    finders: &[(usize, &memchr::memmem::Finder<'_>)],
    depth: usize,
    found: &mut Vec<usize>,
) -> Result<(), String> {
    if depth > EXPANSION_DEPTH {
        return Err("macros expanding into macros too deep".to_owned());
    }
    let mut expansions: Vec<SyntaxNode> = Vec::new();
    for node in node.descendants() {
        if let Some(call) = ast::MacroCall::cast(node.clone()) {
            let Some(mac) = sema.resolve_macro_call(&call) else { continue };
            // std's macros call no procedural macro of their own: only one in the
            // tokens handed to them.
            let db: &dyn HirDatabase = sema.db;
            let from_std = mac.module(db).krate(db).origin(db).is_lang();
            let tokens_call = call.token_tree().is_some_and(|tt| {
                let text = tt.syntax().text().to_string();
                text.contains('!') || text.contains('#')
            });
            if mac.is_proc_macro() || !from_std || tokens_call {
                expansions.extend(sema.expand_macro_call(&call).map(|expansion| expansion.value));
            }
        } else if let Some(item) = ast::Item::cast(node.clone()) {
            if item.attrs().any(|attr| attr.path().is_some_and(|path| path.syntax().text() == "cfg_attr")) {
                // What it applies (a derive among others) is not read here.
                return Err("a `cfg_attr` where procedural macros may be called".to_owned());
            }
            if item.attrs().any(|attr| !inert(&attr)) {
                if let Some(expansion) = sema.expand_attr_macro(&item) {
                    expansions.push(expansion.value.value);
                }
                for attr in item.attrs() {
                    let is_derive = attr.path().is_some_and(|path| path.syntax().text() == "derive");
                    if let Some(meta) = attr.meta().filter(|_| is_derive) {
                        expansions.extend(
                            sema.expand_derive_macro(&meta)
                                .into_iter()
                                .flatten()
                                .flatten()
                                .map(|expansion| expansion.value),
                        );
                    }
                }
            }
        }
    }
    for expansion in expansions {
        found.extend(spelled(&expansion.text().to_string(), finders));
        spelled_in_procedural_expansions(sema, &expansion, finders, depth + 1, found)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_as_whole_words() {
        let (helper, other) = (memchr::memmem::Finder::new("helper"), memchr::memmem::Finder::new("other"));
        let finders = [(0, &helper), (1, &other)];
        assert_eq!(spelled("crate::a::helper()", &finders), vec![0]);
        assert_eq!(spelled("\"{helper}\" other", &finders), vec![0, 1]);
        assert_eq!(spelled("helpers my_helper helper2 others", &finders), Vec::<usize>::new());
    }

    fn read(text: &str) -> Result<Vec<String>, String> {
        let file = ra_ap_syntax::SourceFile::parse(text, ra_ap_syntax::Edition::CURRENT).tree();
        let mut names = Vec::new();
        for node in file.syntax().descendants() {
            read_node(&node, &mut |name: Option<ast::Name>| names.extend(name.map(|name| name.text().to_string())))?;
        }
        names.sort();
        Ok(names)
    }

    #[test]
    fn what_a_sealed_file_may_hold() {
        let plain = "use std::fmt;\n#[inline]\npub fn f() -> u32 { g() }\nfn g() -> u32 { 1 }\npub struct S;\nimpl S { pub fn m(&self) {} }\nconst C: u32 = 1;\npub use self::g as h;\nenum E { A = 1, B }\n";
        assert_eq!(read(plain), Ok(vec!["A", "C", "f", "g", "h", "m"].into_iter().map(str::to_owned).collect()));
        for entered_unnamed in [
            "impl Clone for S { fn clone(&self) -> S { S } }",
            "fn f() { impl Drop for S { fn drop(&mut self) {} } }",
            "trait T { fn d(&self) {} }",
            "macro_rules! m { () => {} }",
            "#[derive(Clone)] struct S;",
            "#[no_mangle] fn f() {}",
            "#[cfg_attr(test, derive(Debug))] struct S;",
            "#[my_attribute] fn f() {}",
        ] {
            assert!(read(entered_unnamed).is_err(), "{entered_unnamed}");
        }
    }
}
