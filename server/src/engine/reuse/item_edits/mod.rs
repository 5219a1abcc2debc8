//! Which edits a root's outcome outlives without asking rust-analyzer: edits that
//! add, remove or change plain items only (free functions, types, consts,
//! statics, the methods and consts of inherent impls, the names imports bind,
//! traits, a trait's impls for a type the file defines, a type's derives of the
//! compiler's own: `PlainItem`), under names no other code spells (a method's
//! or a trait member's: also as a method call's).
//! Owns the log of edits a live workspace took, the comparison of a file's text
//! before and after them, and the search for the names they touched; knows
//! nothing of roots (`root_reuse`).
//!
//! Why: adding a function changes its crate's def map, and salsa then re-runs
//! rust-analyzer's inference of every body of the crate a kept walk read, to find
//! each result the same (`specifics`, `lsp_bench items`: most of an item edit's
//! time). A body's inference reads the def map only through the paths it
//! resolves, and a path can resolve to a new (or lose a removed) function only if
//! it spells its name: in the text of a file, or in what a macro makes of a
//! file's text and a `macro_rules!` body, which is in a file too. Only a
//! procedural macro can build a name no file spells, so for a root whose
//! workspace code a procedural macro made (a derive's impl, a body calling a
//! function-like one) the names are looked for in those expansions too
//! (`procedural_expansions`).
//!
//! Where a name is looked for: in a workspace file, parsed, anywhere a path can
//! be (`naming`), so not as a method or a field (never a free
//! function) nor as a definition, which names nothing (but a lone identifier
//! pattern, which may resolve), nor after a qualifier that resolves to a
//! library crate's module (`std::io::Write`: `qualified_by_a_library_module`;
//! in an untouched file, where rust-analyzer resolves it); in a macro's input (a macro call, an attribute,
//! an item a derive or an attribute macro reads) every spelling counts, as does a
//! whole word in a literal or a doc comment there, and in a plain comment none
//! does. In a file of another module that imports nothing unseen (no glob, no
//! macro call where an item can be, no attribute a macro reads), a name standing
//! alone (a path's first segment, a lone pattern) resolves in that module's own
//! scope, which the touched items are not in: it counts only in a block that may
//! import unseen (`Patterns`). A crate from a registry, a git source or the
//! sysroot cannot depend on a workspace crate (rust-analyzer puts every path
//! crate in a local source root), so the bodies in a library source root cannot
//! name a workspace function. Only its exported macros can, which expand in the
//! caller's crate, and only when a workspace crate calls one: each macro whose
//! body spells the name (`library_macros::LibraryMacros::bringing`) must not be
//! spelled in a procedural macro's expansion that made a root's code, and a
//! workspace file's call of one counts only if what rust-analyzer expands it to
//! names the function (`Spelling::in_file`: `thread_local!` may bring
//! `value` on some platforms, not here). A workspace file that `include!`s
//! (which may take in a library's file), or calls a library's macro that may
//! bring an `include!`, makes every library file count in full.
//!
//! A name spelled only in the bodies of plain functions (`Naming::InPlainBodies`)
//! changes only what walks of those bodies read: the roots whose workspace code
//! is in none of those files (`TouchedNames::named_in_bodies_of`) are not asked.
//!
//! An edit qualifies when the file's text outside its plain items of the
//! touched names is the same token for token (whitespace aside), and each such
//! item, before and after, has no attribute (but a plain derive, below), no item
//! and no macro call in it (an `impl` in a body counts for the whole program, and
//! a macro call may expand to one). An inline module holding only free
//! functions, types, consts, statics, imports and inline modules of the same is
//! read under its own name: what it holds is named through it
//! (`held_by_a_module`). Other items (other trait impls,
//! modules of their own files) are left to salsa. An import is read as the names it binds,
//! each to its path: it changes what paths spelling them resolve to, and which
//! traits are in scope, which the outcomes are kept under
//! (`incremental::scope_generations`) unless no import was touched, or none
//! of the root's bodies is under a touched import's module nor, for a public
//! import, in a file that may take it in through a glob, its own or one a
//! macro call there expands to (`TouchedNames::may_change_traits_in`). A trait is read as its header and each
//! member apart, a member as a method: one added may take over a method call
//! that spells it on a type that implements the trait, wherever the trait is in
//! scope. An inherent method is called only by its
//! name (no desugaring calls one; std's generic bodies call trait methods only),
//! so one added takes over no call that does not spell it. A type, a const, a
//! static, a member or an import added, removed or changed also changes the
//! item level a root's outcome is kept under (`incremental::items_generation`):
//! other code sees it only by its name, so with its name spelled nowhere else
//! the outcome stands. A trait's impl for a struct, an enum or a union of the
//! file, written as its name alone (`plain_trait_impl`), is read under that
//! name: it answers only goals about that type, which arise only where a value
//! of it is, so in bodies that spell its name or that a root reaches through
//! a function of the file. Any other impl of a trait the file defines, so
//! written (a blanket one, one for an alias or for std's type), is read under
//! the trait's name and its members': it answers goals of that trait only,
//! which arise where its name is spelled or, as a method call, a member's.
//! But a `dyn` call's targets are resolved outside the
//! walks, and a reach that looked through every impl of a trait (a `dyn` from
//! the root's caller, a body walked at a type parameter) may find it with no
//! name spelled: `TouchedNames::touches_trait_impls` has `root_reuse` judge
//! those roots, and the ones whose walks read the name, again. So with a
//! type's derives, by names or paths alone (`derive_names`), when each resolves
//! in the file's module to a derive of the compiler's own (`derive_macros`),
//! which makes an impl for that type and nothing else, or to a procedural
//! macro's whose expansion is that too (`impls_for_only`: serde's, impls inside
//! a `const _` block); a type taken out is read as its derives expanded while
//! it was there (`derives_make_impls_for_their_types`).
//!
//! An item private to its module (no visibility, or `pub(self)`; not a method,
//! which rust-analyzer resolves a call to from anywhere) is named only in the
//! files of its module and of the modules under it: rust-analyzer resolves a
//! path, an import and a glob only to what is visible from the module it is
//! resolved in, which for a macro's expansion is the caller's. Other files are
//! not searched for its name (`module_subtree_files`), unless a file `include!`s.
//! So a private glob import (`use a::b::*;` alone) is read as every name of the
//! module it imports from (`glob_names`), each private to the importing module
//! (a public one, as those names, public);
//! a macro it brings changes the macro scope, which a macro call can see only
//! by spelling its name; then a derive, found the compiler's own under the
//! macros of now only, is not read (`TouchedNames::touches_derives`).

use std::collections::VecDeque;

use hir::Semantics;
use hir_def::{expr_store::Body, DefWithBodyId, Lookup};
use hir_expand::{HirFileId, MacroCallId, MacroDefKind};
use ra_ap_ide_db::{base_db::SourceDatabase, RootDatabase};
use ra_ap_syntax::{
    ast::{self, HasAttrs, HasGenericParams, HasLoopBody, HasModuleItem, HasName, HasVisibility},
    AstNode, AstToken, Edition, NodeOrToken, SourceFile, SyntaxKind, SyntaxNode, SyntaxToken, TextRange,
};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};
use triomphe::Arc;

use super::edit_digest::is_inert;
use super::library_macros::LibraryMacros;
use crate::stdx::{finders_of, path_of, spells_any, spells_word};

mod derives_and_globs;
mod edit_log;
mod plain_items;
mod spelling;

use derives_and_globs::*;
pub(crate) use edit_log::EditLog;
use plain_items::*;
use spelling::*;

/// Which names the files no edit touched spell, as found so far: those files keep
/// the text they were loaded with (std's and the dependencies', mostly), so each
/// name is looked for in them once. Found again from scratch after a change no
/// comparison can read (it changes files without telling which), and when
/// whether a workspace file `include!`s changes (library files count in full
/// while one does).
#[derive(Default)]
pub(crate) struct UntouchedFiles {
    unreadable: u64,
    includes: bool,
    /// The workspace files that `include!` (or call a library's macro that may) as
    /// they were loaded, found once.
    including_at_load: Option<Vec<FileId>>,
    /// The exported macros of the library files, read once.
    library_macros: Option<LibraryMacros>,
    /// Per name, how spellings are read (`Reading`), and the file whose module
    /// alone may name it with those under it, if so: `None` when an untouched
    /// file may name it outside the bodies of plain functions, else where they do.
    spelled: FxHashMap<(String, Reading, Option<FileId>), Option<SpelledIn>>,
    /// Per workspace file, whether a scope of it may take in another module's
    /// public import unseen (`may_glob_import`), and how many edits the log had
    /// taken when that was found (it reads what macro calls expand to).
    glob_importing: FxHashMap<FileId, (bool, u64)>,
    /// Per type of a touched file (its file and text, attributes and all) whose
    /// derives are not all the compiler's own, whether what they expanded to was
    /// impls for it only (`derives_make_impls_for_their_types`): how a type the
    /// edits take out is read.
    derived: FxHashMap<(FileId, String), (bool, Vec<hir::Macro>)>,
}

/// Where the files no edit touched name a function's name, when only the bodies
/// of plain functions do (`Naming::InPlainBodies`).
struct SpelledIn {
    /// The library macros that may bring it into a workspace crate
    /// (`LibraryMacros::bringing`): no untouched file calls one, or each call
    /// expands to no path of the name.
    brought: Vec<String>,
    /// The workspace files whose plain bodies name it.
    bodies_of: Vec<FileId>,
    /// Whether that was told from what macro calls expand to, which an edit of
    /// a macro's definition (in a touched file) may change: then it is found
    /// again once a file that spells `macro` has been edited since.
    read_expansions: bool,
    /// Whether an attribute's path was resolved to tell it (a derive of the
    /// compiler's own reads nothing: `read_by_a_macro_resolved`), and whether a
    /// path's qualifier was found a library's module (`std::io::Write` names
    /// none of the workspace's items: `qualified_by_a_library_module`), which a
    /// workspace item named `std` in scope would change.
    resolved_attributes: bool,
    resolved_paths: bool,
    /// How many edits the log had taken when it was found.
    found_at: u64,
}

impl UntouchedFiles {
    /// Forgets which names the files spell, for other settings.
    pub(crate) fn forget_names(&mut self) {
        self.spelled.clear();
        self.glob_importing.clear();
        self.derived.clear();
    }

    /// Forgets which names the files spell where that was told from what a
    /// macro call expands to or what an attribute's path resolves to, for other
    /// macros in scope: a macro call's path may resolve to another macro. The
    /// rest was told from the files' texts (and the libraries' macros), and a
    /// name found where it may count for more than plain bodies stays so (only
    /// cautious).
    pub(crate) fn forget_names_read_through_macros(&mut self) {
        self.spelled.retain(|_, spelled_in| {
            spelled_in.as_ref().is_none_or(|spelled_in| !spelled_in.read_expansions && !spelled_in.resolved_attributes)
        });
        self.glob_importing.clear();
        self.derived.clear();
    }

    /// Forgets which names the files spell where that was told from a path's
    /// qualifier resolved, for another item level (`incremental::items_generation`).
    pub(crate) fn forget_names_read_through_paths(&mut self) {
        self.spelled.retain(|_, spelled_in| spelled_in.as_ref().is_none_or(|spelled_in| !spelled_in.resolved_paths));
    }
}

/// The names of the plain items the edits after the first `seen` of `log`
/// added, removed or changed, when that is all they changed and no file (nor the
/// rest of an edited one) spells one of them, nor calls a library's macro that
/// may bring one: then the edits change nothing that a walk of a body outside the
/// edited files reads, unless a procedural macro's expansion in it spells one of
/// those names or macros (`TouchedNames::spelled_in`). `None` when that cannot be
/// told. `files`: every file of the database.
pub(crate) fn touched_names_unspelled(
    sema: &Semantics<'_, RootDatabase>,
    log: &EditLog,
    seen: u64,
    files: &[FileId],
    untouched: &mut UntouchedFiles,
) -> Option<TouchedNames> {
    let db: &dyn SourceDatabase = sema.db;
    let EditsRead { mut names, members, impls, derives, mut touched_in, imports_in, globs, rests, derive_qualifiers } =
        read_edits(sema, log, seen, untouched)?;
    let in_library =
        |file: FileId| db.source_root(db.file_source_root(file).source_root_id(db)).source_root(db).is_library;
    // A change no comparison can read may have changed a library's file.
    if untouched.unreadable != log.unreadable {
        *untouched = UntouchedFiles { unreadable: log.unreadable, ..UntouchedFiles::default() };
    }
    let UntouchedFiles { includes: includes_known, including_at_load, library_macros, spelled, glob_importing, .. } =
        untouched;
    let library = &*library_macros.get_or_insert_with(|| {
        let started = std::time::Instant::now();
        let texts = files.iter().filter(|&&file| in_library(file) && !log.touched.contains(&file));
        let library = LibraryMacros::read(texts.map(|&file| db.file_text(file).text(db).clone()).collect());
        tracing::debug!("read the libraries' {} in {:?}", library.describe(), started.elapsed());
        library
    });
    // A workspace file may `include!` one of a library's, or call a library's
    // macro that may. Untouched files keep the text they were loaded with, so only
    // the touched ones are read again.
    let includes_now = |file: FileId| {
        let text = db.file_text(file).text(db);
        !in_library(file)
            && (text.contains("include!") || library.including().is_none_or(|including| spells_any(text, including)))
    };
    let including_at_load =
        including_at_load.get_or_insert_with(|| files.iter().copied().filter(|&file| includes_now(file)).collect());
    let includes = including_at_load.iter().any(|file| !log.touched.contains(file))
        || log.touched.iter().any(|&file| includes_now(file));
    if *includes_known != includes {
        *includes_known = includes;
        spelled.clear();
    }
    // A glob touches the names it brings in, in its module: the names of the
    // module it imports from. A private one's are private there; a public one's
    // other modules see as its module's public items, by a path that spells
    // them or by a glob of its module (which makes a file open: `Patterns`),
    // and its traits as a public import's (`may_glob_import`). One whose file's
    // text another `include!`s may bring anything anywhere.
    for (file, path, private) in globs {
        if includes {
            tracing::debug!("a glob import of `{path}` in {} may be included anywhere", path_of(db, file));
            return None;
        }
        let Some(brought) = glob_names(sema, file, &path) else {
            tracing::debug!("a glob import of `{path}` in {} imports from no module", path_of(db, file));
            return None;
        };
        for name in brought {
            touched_in.entry(name.clone()).or_default().push((file, private));
            names.insert(name);
        }
    }
    // A derive's path resolves as it did before the edits unless they touched
    // what its first segment names.
    if derive_qualifiers.iter().any(|qualifier| names.contains(qualifier)) {
        tracing::debug!("the edits touched what a derive's path starts with");
        return None;
    }
    // A name with other letters may be spelled in other bytes (NFC).
    if !names.iter().all(|name| name.is_ascii()) {
        return None;
    }
    // A name whose items are private to the one module (file) that has them is
    // named only in the files of that module and of the modules under it; with
    // a file `include!`d, its text may be any module's.
    let mut subtrees: FxHashMap<FileId, Option<std::rc::Rc<FxHashSet<FileId>>>> = FxHashMap::default();
    let mut subtree = |file: FileId| {
        subtrees.entry(file).or_insert_with(|| module_subtree_files(sema, file).map(std::rc::Rc::new)).clone()
    };
    let mut confined: FxHashMap<&str, (FileId, std::rc::Rc<FxHashSet<FileId>>)> = FxHashMap::default();
    for (name, files) in touched_in.iter().filter(|_| !includes) {
        if let [(file, true)] = files[..] {
            if let Some(files) = subtree(file) {
                confined.insert(name, (file, files));
            }
        }
    }
    // What was told from macro calls' expansions may differ once a macro's
    // definition was edited since.
    let macros_edited_since =
        |found_at: u64| log.macros_edited_after(found_at, |file| db.file_text(file).text(db).clone());
    // An import binds in its module, which the modules under it see (`use
    // super::*`); a public one, also any scope that globs its module, maybe
    // through a macro's expansion (`may_glob_import`).
    let imports = match imports_in.is_empty() {
        true => ImportsReach::Nowhere,
        false if includes => ImportsReach::Anywhere,
        false => imports_in
            .iter()
            .map(|&(file, _)| subtree(file))
            .try_fold(FxHashSet::default(), |mut all, files| {
                all.extend(files?.iter().copied());
                Some(all)
            })
            .map_or(ImportsReach::Anywhere, |mut within| {
                if imports_in.iter().any(|&(_, private)| !private) {
                    let workspace: Vec<FileId> = files.iter().copied().filter(|&file| !in_library(file)).collect();
                    within.extend(files_that_may_glob(sema, log, &workspace, &macros_edited_since, glob_importing));
                }
                ImportsReach::Within(within)
            }),
    };
    // A name standing alone in another module's file sees an item of the
    // touched ones only through an import (`Patterns`).
    let patterns = if includes { Patterns::Everywhere } else { Patterns::InOpenBlocks };
    let reading = Reading { patterns, method_calls: members };
    // A file touched after a name was looked for only makes the answer cautious.
    let mut bringing = Vec::new();
    let mut bodies_of = FxHashSet::default();
    for name in &names {
        let stale = |spelled_in: &SpelledIn| spelled_in.read_expansions && macros_edited_since(spelled_in.found_at);
        let within = confined.get(name.as_str());
        let key = (name.clone(), reading, within.map(|&(file, _)| file));
        if spelled.get(&key).is_some_and(|spelled_in| spelled_in.as_ref().is_some_and(stale)) {
            spelled.remove(&key);
        }
        let search = SpellingSearch { sema, log, files, library, in_library: &in_library, includes, members };
        let spelled_in = spelled.entry(key).or_insert_with(|| search.spelled_in(name, reading, within));
        let spelled_in = spelled_in.as_ref()?;
        bringing.extend(spelled_in.brought.iter().cloned());
        bodies_of.extend(spelled_in.bodies_of.iter().copied());
    }
    let finders = finders_of(&names);
    let bringing = Words::new(&bringing);
    touched_files_naming(db, log, &rests, &in_library, &finders, &bringing, members, &mut bodies_of)?;
    // A procedural macro's expansion may spell a name or call a macro bringing one.
    Some(TouchedNames {
        finders: finders.into_iter().chain(bringing.finders).collect(),
        bodies_of,
        impls,
        derives,
        imports,
    })
}

/// What the edits after the first `seen` of `log` changed, when they changed
/// only plain items (`items_changed`) and each touched type's derives make only
/// impls for it.
struct EditsRead {
    names: FxHashSet<String>,
    members: bool,
    impls: bool,
    derives: bool,
    /// Each touched name's files, and whether it is private in each.
    touched_in: FxHashMap<String, Vec<(FileId, bool)>>,
    /// The files whose imports the edits touched, and whether all were private.
    imports_in: Vec<(FileId, bool)>,
    /// The glob imports touched: each one's file, path and whether it is private.
    globs: Vec<(FileId, String, bool)>,
    /// Each touched file without its touched items (`ItemsChanged::rest`), and its edition.
    rests: FxHashMap<FileId, (String, Edition)>,
    /// The first segments of the touched types' derives' paths (`serde` of
    /// `serde::Serialize`).
    derive_qualifiers: FxHashSet<String>,
}

/// Reads what the edits after the first `seen` of `log` changed (`EditsRead`);
/// `None` when they changed more than plain items.
fn read_edits(
    sema: &Semantics<'_, RootDatabase>,
    log: &EditLog,
    seen: u64,
    untouched: &mut UntouchedFiles,
) -> Option<EditsRead> {
    let db: &dyn SourceDatabase = sema.db;
    let before = log.texts_after(seen)?;
    let mut names = FxHashSet::default();
    let mut members = false;
    let mut impls = false;
    let mut derives = false;
    let mut touched_in: FxHashMap<String, Vec<(FileId, bool)>> = FxHashMap::default();
    let mut imports_in: Vec<(FileId, bool)> = Vec::new();
    let mut globs: Vec<(FileId, String, bool)> = Vec::new();
    let mut rests = FxHashMap::default();
    let mut derive_qualifiers = FxHashSet::default();
    for (file, before) in before {
        let now = db.file_text(file).text(db);
        if **now == *before {
            continue;
        }
        // Parsed as its crates parse it (keywords differ between editions).
        let crates = ra_ap_ide_db::base_db::relevant_crates(db, file);
        let edition = crates.first()?.data(db).edition;
        if crates.iter().any(|krate| krate.data(db).edition != edition) {
            return None;
        }
        let changed = items_changed(&before, now, edition)?;
        // A derive's name resolves in the file's module under its macros of
        // now: when they were others before (`incremental::scope_generations`),
        // the derive is not read (`TouchedNames::touches_derives`).
        if !derives_make_impls_for_their_types(
            sema,
            file,
            &changed.derives,
            &mut untouched.derived,
            &mut derive_qualifiers,
        ) {
            tracing::debug!(
                "a derive of {} may be a procedural macro that makes more than impls for its type",
                path_of(db, file)
            );
            return None;
        }
        for name in &changed.names {
            touched_in.entry(name.clone()).or_default().push((file, changed.private.contains(name)));
        }
        globs.extend(changed.globs.into_iter().map(|(path, private)| (file, path, private)));
        names.extend(changed.names);
        members |= changed.members;
        impls |= changed.impls || !changed.derives.is_empty();
        derives |= !changed.derives.is_empty();
        if changed.imports {
            imports_in.push((file, changed.imports_private));
        }
        rests.insert(file, (changed.rest, edition));
    }
    Some(EditsRead { names, members, impls, derives, touched_in, imports_in, globs, rests, derive_qualifiers })
}

/// Whether the touched files name one of `finders` (or call a macro of
/// `bringing`) only in plain bodies, whose files are added to `bodies_of`: a
/// library file's every word counts (it may be where a macro is). The bodies of a
/// touched workspace file count as an untouched one's: a root that walks one has
/// that file's changed text among its own. `None` when one names them elsewhere.
#[allow(clippy::too_many_arguments)]
fn touched_files_naming(
    db: &dyn SourceDatabase,
    log: &EditLog,
    rests: &FxHashMap<FileId, (String, Edition)>,
    in_library: &dyn Fn(FileId) -> bool,
    finders: &[memchr::memmem::Finder<'static>],
    bringing: &Words,
    members: bool,
    bodies_of: &mut FxHashSet<FileId>,
) -> Option<()> {
    for &file in log.touched.iter() {
        let naming = match rests.get(&file) {
            _ if in_library(file) => {
                let text = db.file_text(file).text(db);
                if spells_any(text, finders) || bringing.in_text(text) {
                    Naming::Elsewhere
                } else {
                    Naming::Nowhere
                }
            }
            Some((rest, edition)) => naming_or_bringing(rest, *edition, finders, bringing, members),
            None => naming_or_bringing(db.file_text(file).text(db), edition_of(db, file), finders, bringing, members),
        };
        match naming {
            Naming::Nowhere => {}
            // What a macro call there expands to is not read: the rest of a file
            // is no file's text.
            Naming::InPlainBodies { macro_calls } if macro_calls.is_empty() => {
                bodies_of.insert(file);
            }
            Naming::InPlainBodies { .. } | Naming::Elsewhere => return None,
        }
    }
    Some(())
}

/// Whether every edit after the first `seen` of `log` changed only trait impls at
/// the top level of a file (added, removed or changed; none under an attribute a
/// macro may read), the rest of each file the same token for token (whitespace
/// aside): then no type, signature, trait, import, name or module changed, only
/// which impls there are and what they hold. `false` when the log cannot tell.
pub(crate) fn only_trait_impls_changed(db: &dyn SourceDatabase, log: &EditLog, seen: u64) -> bool {
    let Some(before) = log.texts_after(seen) else { return false };
    before.iter().all(|(&file, before)| {
        let now = db.file_text(file).text(db);
        let edition = edition_of(db, file);
        **now == **before || outside_trait_impls(before, edition) == outside_trait_impls(now, edition)
    })
}

/// The files of the modules `file` is (a file may be mounted twice) and of every
/// module under them: where an item private to its module may be named. `None`
/// when `file` is no module's.
fn module_subtree_files(sema: &Semantics<'_, RootDatabase>, file: FileId) -> Option<FxHashSet<FileId>> {
    let db = sema.db;
    let mut modules: Vec<hir::Module> = sema.file_to_module_defs(file).collect();
    if modules.is_empty() {
        return None;
    }
    let mut files = FxHashSet::default();
    while let Some(module) = modules.pop() {
        files.insert(module.definition_source_file_id(db).original_file(db).file_id(db));
        modules.extend(module.children(db));
    }
    Some(files)
}

/// `file`'s path, for the log.
/// The edition `file` is parsed in: its first crate's (the names looked for are
/// compared as text, so another crate's keywords change nothing).
fn edition_of(db: &dyn SourceDatabase, file: FileId) -> Edition {
    ra_ap_ide_db::base_db::relevant_crates(db, file).first().map_or(Edition::CURRENT, |krate| krate.data(db).edition)
}

/// The names of the functions edits touched, and of the library macros that may
/// bring one of them; and the workspace files where the bodies of plain
/// functions name one (only walks of those bodies read it).
pub(crate) struct TouchedNames {
    finders: Vec<memchr::memmem::Finder<'static>>,
    bodies_of: FxHashSet<FileId>,
    /// Whether one of the touched items is a trait's impl (`PlainItem`), and
    /// whether one has a derive.
    impls: bool,
    derives: bool,
    /// Where the touched imports may have changed which traits are in scope.
    imports: ImportsReach,
}

/// Where touched imports may have brought a trait into scope or taken one out.
enum ImportsReach {
    /// No import was touched.
    Nowhere,
    /// In these files: those of the touched imports' modules and of the modules
    /// under them (a glob of theirs sees what a private import binds), and for
    /// a public import every file that may glob its module (`may_glob_import`).
    Within(FxHashSet<FileId>),
    Anywhere,
}

impl TouchedNames {
    /// Whether `text` holds one of the names as a whole word.
    pub(crate) fn spelled_in(&self, text: &str) -> bool {
        spells_any(text, &self.finders)
    }

    /// Whether a body in `file` may name one of the functions.
    pub(crate) fn named_in_bodies_of(&self, file: FileId) -> bool {
        self.bodies_of.contains(&file)
    }

    /// Whether the edits added, removed or changed a trait's impl: a walk that
    /// looks through every impl of a trait in the crate graph, or code resolved
    /// outside the walks (`dyn` targets), may see it with no name spelled.
    pub(crate) fn touches_trait_impls(&self) -> bool {
        self.impls
    }

    /// Whether a touched item has a derive, found the compiler's own under the
    /// macros in scope now.
    pub(crate) fn touches_derives(&self) -> bool {
        self.derives
    }

    /// Whether the edits may have changed which traits are in scope in a body of
    /// `files`: an import may bring a trait into a module's scope (std's, a
    /// dependency's, with impls for the types its bodies hold), which a method
    /// call that spells only the method may then pick; a private one, only into
    /// its module's and the modules' under it; a public one, also into the
    /// scopes that may glob its module. A trait the edits define has impls
    /// only where the edits put them, for types under touched names (`PlainItem`).
    pub(crate) fn may_change_traits_in(&self, mut files: impl Iterator<Item = FileId>) -> bool {
        match &self.imports {
            ImportsReach::Nowhere => false,
            ImportsReach::Within(within) => files.any(|file| within.contains(&file)),
            ImportsReach::Anywhere => true,
        }
    }
}

/// The calls of procedural macros whose expansions made `def` or are lowered into
/// its body: such a macro may build a name that no file spells.
pub(crate) fn procedural_expansions(db: &dyn SourceDatabase, def: DefWithBodyId, calls: &mut FxHashSet<MacroCallId>) {
    let (_, source_map) = Body::with_source_map(db, def);
    for mut file in
        std::iter::once(body_file(db, def)).chain(source_map.macro_calls().map(|(_, call)| HirFileId::MacroFile(call)))
    {
        while let Some(call) = file.macro_file() {
            let loc = call.loc(db);
            if matches!(loc.def.kind, MacroDefKind::ProcMacro(..)) {
                calls.insert(call);
            }
            file = loc.kind.file_id();
        }
    }
}

/// The text a macro call expanded to.
pub(crate) fn expansion_text(db: &dyn SourceDatabase, call: MacroCallId) -> String {
    HirFileId::MacroFile(call).parse_or_expand(db).to_string()
}

/// The file `def` is written in, or the macro expansion that made it.
pub(crate) fn body_file(db: &dyn SourceDatabase, def: DefWithBodyId) -> HirFileId {
    match def {
        DefWithBodyId::FunctionId(it) => it.lookup(db).id.file_id,
        DefWithBodyId::StaticId(it) => it.lookup(db).id.file_id,
        DefWithBodyId::ConstId(it) => it.lookup(db).id.file_id,
        DefWithBodyId::VariantId(it) => it.lookup(db).id.file_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(before: &str, after: &str) -> Option<Vec<String>> {
        items_changed(before, after, Edition::CURRENT).map(|changed| {
            let mut names: Vec<String> = changed.names.into_iter().collect();
            names.sort();
            names
        })
    }

    const FILE: &str = "use std::fmt;\n\npub struct S;\n\npub fn kept() -> u32 {\n    1\n}\n";

    #[test]
    fn a_raw_name_is_looked_for_as_any_spelling_of_it() {
        assert_eq!(names(FILE, &format!("{FILE}fn r#later() {{}}\n")), Some(vec!["later".to_owned()]));
        assert_eq!(names(FILE, &format!("{FILE}use std::fmt::r#Write;\n")), Some(vec!["Write".to_owned()]));
        let finders = [memchr::memmem::Finder::new("later")];
        assert!(spells_any("fn f() { r#later() }", &finders));
    }

    #[test]
    fn a_function_added_or_removed_at_the_top_level_is_named() {
        let added = format!("{FILE}fn bench_item() -> u32 {{ 1 }}\n");
        assert_eq!(names(FILE, &added), Some(vec!["bench_item".to_owned()]));
        assert_eq!(names(&added, FILE), Some(vec!["bench_item".to_owned()]));
        // Whitespace between items, and the body of a function, change nothing else.
        let body = FILE.replace("    1\n", "    2 + 3\n\n");
        assert_eq!(names(FILE, &body), Some(vec!["kept".to_owned()]));
        assert_eq!(names(FILE, &FILE.replace("\n\n", "\n")), Some(vec![]));
    }

    #[test]
    fn types_consts_and_statics_are_plain_items_too() {
        assert_eq!(names(FILE, &FILE.replace("pub struct S;", "pub struct S(u8);")), Some(vec!["S".to_owned()]));
        let added = format!("{FILE}pub enum E {{ A, B = 2 }}\nunion U {{ a: u8 }}\ntype T = [u8; 2];\nconst C: u8 = 1;\nstatic V: u8 = C;\n");
        assert_eq!(names(FILE, &added), Some(["C", "E", "T", "U", "V"].map(str::to_owned).to_vec()));
        // A struct and a function of one name, one replacing the other.
        assert_eq!(names(FILE, &FILE.replace("pub struct S;", "pub fn S() {}")), Some(vec!["S".to_owned()]));
    }

    #[test]
    fn the_members_of_an_inherent_impl_are_plain_items_too() {
        let members =
            |before: &str, after: &str| items_changed(before, after, Edition::CURRENT).map(|changed| changed.members);
        let with_impl = format!("{FILE}impl S {{\n    fn a() -> u8 {{ 1 }}\n}}\n");
        // An impl added whole, a method added to one, changed, or moved to
        // another type by the impl's header.
        assert_eq!(names(FILE, &with_impl), Some(vec!["a".to_owned()]));
        assert_eq!(members(FILE, &with_impl), Some(true));
        // Its header is read with its members only.
        assert!(!items_changed(FILE, &with_impl, Edition::CURRENT).unwrap().rest.contains("impl"));
        let more = with_impl.replace("}\n}\n", "}\n    pub const B: u8 = 2;\n    fn c(&self) {}\n}\n");
        assert_eq!(names(&with_impl, &more), Some(vec!["B".to_owned(), "c".to_owned()]));
        assert_eq!(names(&with_impl, &with_impl.replace("{ 1 }", "{ 2 }")), Some(vec!["a".to_owned()]));
        assert_eq!(
            names(&more, &more.replace("impl S", "impl<T> W<T>")),
            Some(["B", "a", "c"].map(str::to_owned).to_vec())
        );
        // An impl with no members changes nothing.
        assert_eq!(names(FILE, &format!("{FILE}impl S {{}}\n")), Some(vec![]));
        assert_eq!(members(FILE, &format!("{FILE}fn f() {{}}\n")), Some(false));
    }

    #[test]
    fn a_trait_impl_for_a_type_of_the_file_is_named_by_that_type() {
        let impls =
            |before: &str, after: &str| items_changed(before, after, Edition::CURRENT).map(|changed| changed.impls);
        let adding = |item: &str| format!("{FILE}{item}\n");
        let display = "impl fmt::Display for S {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        Ok(())\n    }\n}";
        assert_eq!(names(FILE, &adding(display)), Some(vec!["S".to_owned()]));
        assert_eq!(impls(FILE, &adding(display)), Some(true));
        assert_eq!(impls(FILE, &adding("fn f() {}")), Some(false));
        // Its members, its trait and its generic arguments are its text.
        let with = adding(display);
        assert_eq!(names(&with, &with.replace("Ok(())", "write!(f, \"s\")")), None, "a macro call in it is not read");
        assert_eq!(names(&with, &with.replace("Ok(())", "Err(fmt::Error)")), Some(vec!["S".to_owned()]));
        assert_eq!(names(&with, &with.replace("Display", "Debug")), Some(vec!["S".to_owned()]));
        let generic =
            "pub struct G<T>(T);\n\nimpl<T> Default for G<T> {\n    fn default() -> Self {\n        todo!()\n    }\n}";
        assert_eq!(names(FILE, &adding(&generic.replace("todo!()", "loop {}"))), Some(vec!["G".to_owned()]));
        assert_eq!(names(FILE, &adding("unsafe impl Send for S {}\nimpl Copy for S {}")), Some(vec!["S".to_owned()]));
        // For a type other code may hold under another name, or for any type:
        // the rest of the file changed.
        for other in [
            "impl Default for &'static S {\n    fn default() -> Self {\n        &S\n    }\n}",
            "impl<S> Tr for S {}",
            "impl Tr for u32 {}",
            "impl Tr for crate::S {}",
            "impl Tr for (S, S) {}",
            "impl Tr for dyn Send {}",
            "#[cfg(test)]\nimpl Tr for S {}",
        ] {
            assert_eq!(names(FILE, &adding(other)), None, "{other}");
        }
        // `A` is an alias, `B` an import, `C` a struct of a glob import's too:
        // the impl may be for any type.
        for (defined, imp) in [
            ("pub type A = u32;", "impl Tr for A {}"),
            ("use std::string::String as B;", "impl Tr for B {}"),
            ("use std::collections::*;\npub struct C;", "impl Tr for C {}"),
            ("pub struct D;\npub type D = u32;", "impl Tr for D {}"),
        ] {
            let before = adding(defined);
            assert_eq!(names(&before, &format!("{before}{imp}\n")), None, "{imp}");
        }
        // An associated type is a member; a macro call in the impl is not.
        assert_eq!(names(FILE, &adding("impl Iterator for S {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> {\n        None\n    }\n}")), Some(vec!["S".to_owned()]));
        assert_eq!(names(FILE, &adding("impl Tr for S {\n    m!();\n}")), None);
    }

    #[test]
    fn a_trait_impl_of_a_trait_of_the_file_is_named_by_that_trait_and_its_members() {
        let changed = |before: &str, after: &str| {
            items_changed(before, after, Edition::CURRENT).map(|changed| (changed.members, changed.impls))
        };
        let with_trait =
            format!("{FILE}pub trait Tr {{\n    type Out;\n    fn tr(&self) -> u8 {{ 0 }}\n    const K: u8;\n}}\n");
        let adding = |item: &str| format!("{with_trait}{item}\n");
        // For any type, an alias, a parameter, std's: each member may be called
        // as a method on it.
        for imp in [
            "impl<T> Tr for T {}",
            "impl Tr for u32 {}",
            "impl Tr for crate::S {}",
            "impl Tr for (S, S) {}",
            "impl Tr for dyn Send {}",
        ] {
            assert_eq!(
                names(&with_trait, &adding(imp)),
                Some(["K", "Out", "Tr", "tr"].map(str::to_owned).to_vec()),
                "{imp}"
            );
            assert_eq!(changed(&with_trait, &adding(imp)), Some((true, true)), "{imp}");
        }
        // The trait added with its impl, a member changed in both: its names.
        let blanket = "pub trait New {\n    fn new_method(&self) {}\n}\n\nimpl<T: Copy> New for T {}";
        assert_eq!(names(FILE, &format!("{FILE}{blanket}\n")), Some(["New", "new_method"].map(str::to_owned).to_vec()));
        // None private: a method call resolves to a member wherever the trait is in scope.
        let private =
            items_changed(FILE, &format!("{FILE}{}\n", blanket.replace("pub trait", "trait")), Edition::CURRENT)
                .unwrap();
        assert!(!private.private.contains("new_method"), "{:?}", private.private);
        // A trait of another module, of a path, an alias or an import, or one
        // with a macro call among its members: the rest of the file changed.
        for (defined, imp) in [
            ("", "impl<T> Other for T {}"),
            ("", "impl<T> self::Tr for T {}"),
            ("pub type Al = u32;", "impl<T> Al for T {}"),
            ("use std::fmt::Debug as Tr2;", "impl<T> Tr2 for T {}"),
            ("pub trait Tr2 {}\npub struct Tr2;", "impl Tr2 for u8 {}"),
            ("pub trait Tr2 {\n    m!();\n}", "impl Tr2 for u8 {}"),
        ] {
            let before = adding(defined);
            assert_eq!(names(&before, &format!("{before}{imp}\n")), None, "{imp}");
        }
    }

    #[test]
    fn a_trait_is_its_header_and_its_members() {
        let members =
            |before: &str, after: &str| items_changed(before, after, Edition::CURRENT).map(|changed| changed.members);
        let with_trait = format!("{FILE}pub trait Tr: Clone {{\n    fn m(&self) -> u8;\n}}\n");
        assert_eq!(names(FILE, &with_trait), Some(vec!["Tr".to_owned(), "m".to_owned()]));
        assert_eq!(members(FILE, &with_trait), Some(true));
        // A member added, with a default body, a const or an associated type:
        // the member only, called after a `.` too.
        let more = with_trait.replace("u8;\n}", "u8;\n    fn n(&self) {}\n    const C: u8 = 1;\n    type T;\n}");
        assert_eq!(names(&with_trait, &more), Some(["C", "T", "n"].map(str::to_owned).to_vec()));
        assert_eq!(members(&with_trait, &more), Some(true));
        // The header changed: the trait and every member.
        assert_eq!(names(&with_trait, &with_trait.replace(": Clone", "")), Some(vec!["Tr".to_owned(), "m".to_owned()]));
        // An import is read as an import.
        let imports =
            |before: &str, after: &str| items_changed(before, after, Edition::CURRENT).map(|changed| changed.imports);
        assert_eq!(imports(FILE, &with_trait), Some(false));
        assert_eq!(imports(FILE, &format!("{FILE}use std::io::Read;\n")), Some(true));
    }

    #[test]
    fn an_inline_module_of_plain_items_is_named_by_its_name() {
        let adding = |item: &str| format!("{FILE}{item}\n");
        for module in [
            "pub mod m {}",
            "mod m {\n    // a comment\n}",
            "pub mod m {\n    use std::fmt::Write;\n    pub struct T(u8);\n    pub fn f() -> u8 {\n        const C: u8 = 1;\n        C\n    }\n    mod n {\n        static S: u8 = 0;\n    }\n}",
        ] {
            assert_eq!(names(FILE, &adding(module)), Some(vec!["m".to_owned()]), "{module}");
            assert_eq!(names(&adding(module), FILE), Some(vec!["m".to_owned()]), "{module}");
        }
        let private = |module: &str| {
            items_changed(FILE, &adding(module), Edition::CURRENT).map(|changed| changed.private.contains("m"))
        };
        assert_eq!((private("mod m {}"), private("pub(crate) mod m {}")), (Some(true), Some(false)));
        // What reaches out of the module with no name: an impl (anywhere in it),
        // a trait, a macro's definition or call, an attribute, a module of its
        // own file.
        for module in [
            "pub mod m {\n    pub struct T;\n    impl T {\n        pub fn f() {}\n    }\n}",
            "pub mod m {\n    pub fn f() {\n        struct L;\n        impl Clone for L {\n            fn clone(&self) -> L {\n                L\n            }\n        }\n    }\n}",
            "pub mod m {\n    pub trait Tr {}\n}",
            "pub mod m {\n    macro_rules! mac {\n        () => {};\n    }\n}",
            "pub mod m {\n    std::thread_local! {}\n}",
            "#[cfg(test)]\nmod m {}",
            "pub mod m {\n    #![allow(unused)]\n}",
            "pub mod m {\n    #[derive(Clone)]\n    pub struct T;\n}",
            "pub mod m {\n    mod n;\n}",
            "pub mod m;",
        ] {
            assert_eq!(names(FILE, &adding(module)), None, "{module}");
        }
    }

    #[test]
    fn a_type_s_derives_by_name_make_its_impls() {
        let derives = |before: &str, after: &str| {
            items_changed(before, after, Edition::CURRENT).map(|changed| {
                let mut derives: Vec<String> =
                    changed.derives.into_iter().flat_map(|derived| derived.derives).collect();
                derives.sort();
                derives.dedup();
                (changed.names.into_iter().collect::<Vec<_>>(), derives)
            })
        };
        let derived = FILE.replace("pub struct S;", "#[derive(Clone, Debug)]\npub struct S;");
        let both = Some((vec!["S".to_owned()], vec!["Clone".to_owned(), "Debug".to_owned()]));
        assert_eq!(derives(FILE, &derived), both);
        assert_eq!(derives(&derived, FILE), both);
        assert_eq!(derives(FILE, &derived.replace("struct S;", "enum S {}")), both);
        let more = FILE.replace("pub struct S;", "#[derive(Clone)]\n#[derive(Debug)]\npub struct S(u8);");
        assert_eq!(derives(FILE, &more), both);
        // A derive untouched is not read; a derive by a path is read as that
        // path. Another attribute, a derive's helper attribute, a derive of a
        // function: not plain.
        assert_eq!(derives(&derived, &format!("{derived}fn f() {{}}\n")), Some((vec!["f".to_owned()], vec![])));
        let by_path = Some((vec!["S".to_owned()], vec!["serde::Serialize".to_owned()]));
        assert_eq!(
            derives(FILE, &FILE.replace("pub struct S;", "#[derive(serde::Serialize)]\npub struct S;")),
            by_path
        );
        for other in [
            "#[derive(::serde::Serialize)]\npub struct S;",
            "#[derive(serde::Serialize<u8>)]\npub struct S;",
            "#[derive(Clone)]\n#[repr(C)]\npub struct S;",
            "#[derive(Default)]\npub enum S {\n    #[default]\n    A,\n}",
            "#[derive = \"Clone\"]\npub struct S;",
            "#[derive(Clone)]\npub fn S() {}",
        ] {
            assert_eq!(derives(FILE, &FILE.replace("pub struct S;", other)), None, "{other}");
        }
    }

    #[test]
    fn a_derive_s_expansion_of_impls_for_its_type_only_is_read() {
        const SERIALIZE: &str = "#[doc(hidden)]
#[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::absolute_paths)]
const _: () = {
    #[allow(unused_extern_crates, clippy::useless_attribute)]
    extern crate serde as _serde;
    #[automatically_derived]
    impl _serde::Serialize for BenchType {
        fn serialize<__S>(&self, __serializer: __S) -> _serde::__private::Result<__S::Ok, __S::Error>
        where
            __S: _serde::Serializer,
        {
            _serde::Serializer::serialize_newtype_struct(__serializer, \"BenchType\", &self.0)
        }
    }
};
";
        let read = |text: &str| impls_for_only(SourceFile::parse(text, Edition::CURRENT).tree().syntax(), "BenchType");
        assert!(read(SERIALIZE));
        assert!(read(""));
        assert!(read("impl<T> Clone for BenchType<T> { fn clone(&self) -> Self { todo() } }"));
        // A type of the block's own, with its impls.
        let visitor = "struct __Visitor;\n    impl Visitor for __Visitor {}\n    #[automatically_derived]";
        assert!(read(&SERIALIZE.replace("#[automatically_derived]", visitor)));
        for other in [
            // Impls for another type, a parameter of the impl, an impl of no trait.
            "impl Clone for u8 {}",
            "impl<BenchType> Clone for BenchType {}",
            "impl BenchType { fn helper() {} }",
            "impl Clone for crate::BenchType {}",
            // Items other code may name, a macro call or definition, an attribute
            // a macro reads.
            "fn helper() {}",
            "const NAMED: () = ();",
            "impl Clone for BenchType { fn clone(&self) -> Self { m!() } }",
            "macro_rules! m { () => {} }",
            "#[my_attribute]\nimpl Clone for BenchType {}",
        ] {
            assert!(!read(other), "{other}");
        }
        // An impl in the block for a type an import there binds to the name, or
        // for any type, in a function's body.
        assert!(!read(&SERIALIZE.replace("extern crate serde as _serde;", "use std::string::String as BenchType;")));
        assert!(!read(&SERIALIZE.replace("extern crate serde as _serde;", "use other::*;")));
        assert!(!read(&SERIALIZE.replace("&self.0)", "{ impl Clone for u8 {} &self.0 })")));
        assert!(!read(&SERIALIZE.replace("const _: () = {", "const _: () = unsafe {")));
    }

    #[test]
    fn an_import_binds_its_names_as_plain_items() {
        let with = |import: &str| FILE.replace("use std::fmt;", import);
        let names_of = |before: &str, after: &str| names(&with(before), &with(after));
        let names = |list: &[&str]| Some(list.iter().map(|name| name.to_string()).collect::<Vec<_>>());
        assert_eq!(names_of("use std::fmt;", "use std::fmt;\nuse std::fmt::Debug;"), names(&["Debug"]));
        assert_eq!(names_of("use std::fmt;", "use std::{fmt, io};"), names(&["io"]));
        assert_eq!(names_of("use std::{fmt, io};", "use std::{io, fmt};"), names(&[]));
        assert_eq!(names_of("use std::{fmt, io};", "use std::io;\nuse std::fmt;"), names(&[]));
        assert_eq!(names_of("use std::fmt;", "use std::fmt as f;"), names(&["f", "fmt"]));
        assert_eq!(names_of("use std::fmt;", "pub(crate) use std::fmt;"), names(&["fmt"]));
        assert_eq!(names_of("use std::fmt;", "use std::fmt::{self, Write as W};"), names(&["W"]));
        assert_eq!(names_of("use std::fmt;", "use core::fmt;"), names(&["fmt"]));
        // A glob alone is an item of its own, named by its path; in a group,
        // an `_` (a trait brought in unnamed), under an attribute: unread.
        assert_eq!(names_of("use std::fmt;", "use std::fmt::*;"), names(&["fmt"]));
        let globs = |before: &str, after: &str| {
            items_changed(&with(before), &with(after), Edition::CURRENT).map(|changed| changed.globs)
        };
        assert_eq!(globs("use std::fmt;", "use std::fmt::*;"), Some(vec![("std::fmt".to_owned(), true)]));
        assert_eq!(globs("use std::fmt;", "use std::fmt;\nuse std::io::*;"), Some(vec![("std::io".to_owned(), true)]));
        assert_eq!(globs("use std::io::*;", "pub use std::io::*;"), Some(vec![("std::io".to_owned(), false)]));
        assert_eq!(globs("use std::io::*;", "use std::io::*;\nfn f() {}"), Some(vec![]));
        assert_eq!(names_of("use std::fmt;", "use std::{fmt, io::*};"), None);
        assert_eq!(names_of("use std::fmt;", "use std::fmt;\nuse std::fmt::Write as _;"), None);
        assert_eq!(names_of("use std::fmt;", "#[allow(unused_imports)]\nuse std::fmt;"), None);
        // A binding the edits left is read where it names what they touched.
        let reexported = with("pub use self::kept as again;");
        let changed = items_changed(&reexported, &reexported.replace("    1\n", "    2\n"), Edition::CURRENT).unwrap();
        assert_eq!(changed.names, FxHashSet::from_iter(["kept".to_owned()]));
        assert!(changed.rest.contains("kept"), "{}", changed.rest);
    }

    #[test]
    fn a_name_is_private_when_every_item_it_touches_is() {
        let private = |before: &str, after: &str| {
            let changed = items_changed(before, after, Edition::CURRENT).unwrap();
            let mut private: Vec<String> = changed.private.into_iter().collect();
            private.sort();
            (private, changed.imports_private)
        };
        let adding = |item: &str| private(FILE, &format!("{FILE}{item}\n"));
        let none = || (Vec::<String>::new(), true);
        let only = |name: &str| (vec![name.to_owned()], true);
        assert_eq!(adding("fn f() {}"), only("f"));
        assert_eq!(adding("pub(self) struct T;"), only("T"));
        assert_eq!(adding("trait Tr {}"), only("Tr"));
        assert_eq!(adding("use std::io::Write;"), only("Write"));
        for visible in
            ["pub fn f() {}", "pub(crate) fn f() {}", "pub(super) const C: u8 = 1;", "pub(in crate) static S: u8 = 1;"]
        {
            assert_eq!(adding(visible), none(), "{visible}");
        }
        assert_eq!(adding("pub use std::io::Write;"), (vec![], false));
        // A method: rust-analyzer resolves a call to another module's private one.
        assert_eq!(adding("impl S {\n    fn m(&self) {}\n}"), none());
        // A trait's impl for the file's type: other code holds values of it.
        assert_eq!(adding("impl Clone for S {\n    fn clone(&self) -> S {\n        S\n    }\n}"), none());
        // Private before, public after.
        assert_eq!(private(&format!("{FILE}fn f() {{}}\n"), &format!("{FILE}pub fn f() {{}}\n")), none());
    }

    #[test]
    fn an_edit_of_anything_but_plain_items_is_not_read() {
        // A trait with an attribute or a macro call, an auto trait, a trait's
        // impl for a type by a path, an impl with an
        // attribute or a macro call in it, a module of its own file, an unnamed const; an item's
        // attribute, item or macro call
        // (a type's too).
        assert_eq!(names(FILE, &format!("{FILE}#[cfg(test)]\ntrait Tr {{ fn m(&self) {{}} }}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}trait Tr {{ m!(); }}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}auto trait Tr {{}}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}impl Clone for self::S {{ fn clone(&self) -> S {{ S }} }}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}#[cfg(test)]\nimpl S {{ fn m() {{}} }}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}impl S {{ fn m() {{}} make!(); }}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}impl S {{ #[inline] fn m() {{}} }}\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}mod m;\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}const _: () = ();\n")), None);
        // A derive by a path is read, then resolved (`derives_make_impls_for_their_types`).
        assert_eq!(
            names(FILE, &FILE.replace("pub struct S;", "#[derive(Clone, pm::Made)]\npub struct S;")),
            Some(vec!["S".to_owned()])
        );
        assert_eq!(names(FILE, &FILE.replace("pub struct S;", "pub struct S(m!());")), None);
        assert_eq!(names(FILE, &format!("{FILE}const C: u8 = {{ struct In; 1 }};\n")), None);
        assert_eq!(names(FILE, &format!("{FILE}#[no_mangle]\nfn malloc() {{}}\n")), None);
        assert_eq!(
            names(FILE, &format!("{FILE}fn f() {{ impl Clone for S {{ fn clone(&self) -> S {{ S }} }} }}\n")),
            None
        );
        assert_eq!(names(FILE, &format!("{FILE}fn f() {{ my_macro!(); }}\n")), None);
        // An unclosed function takes the items after it into its body.
        let unclosed = FILE.replace("pub struct S;", "fn open() {\npub struct S;");
        assert_eq!(names(FILE, &unclosed), None);
        // A comment is a token like any other.
        assert_eq!(names(FILE, &FILE.replace("use std::fmt;", "use std::fmt; // noalloc:allow")), None);
    }

    #[test]
    fn a_member_is_named_by_a_method_call_too() {
        let finders = [memchr::memmem::Finder::new("len")];
        let members = Reading { patterns: Patterns::Everywhere, method_calls: true };
        let naming = |text: &str, reading: Reading| naming(text, Edition::CURRENT, reading, &finders);
        let in_a_body = Naming::InPlainBodies { macro_calls: Vec::new() };
        assert_eq!(naming("fn f(v: &[u8]) -> usize { v.len() }", members), in_a_body);
        assert_eq!(
            naming("fn f(v: &[u8]) -> usize { v.len() }", Reading::paths(Patterns::Everywhere)),
            Naming::Nowhere
        );
        assert_eq!(naming("const N: usize = V.len();", members), Naming::Elsewhere);
        // A field is no method.
        assert_eq!(naming("fn f(s: S) -> usize { s.len }", members), Naming::Nowhere);
    }

    #[test]
    fn names_are_found_as_whole_words_only() {
        let finders = [memchr::memmem::Finder::new("item")];
        assert!(spells_any("call(item)", &finders));
        assert!(spells_any("format!(\"{item}\")", &finders));
        assert!(spells_any("item", &finders));
        assert!(!spells_any("bench_item items item2", &finders));
    }

    #[test]
    fn a_function_is_named_only_where_a_path_can_be() {
        let finders = [memchr::memmem::Finder::new("len")];
        let names = |text: &str| {
            naming(text, Edition::CURRENT, Reading::paths(Patterns::Everywhere), &finders) != Naming::Nowhere
        };
        // Methods, fields, definitions and plain comments name no free function.
        for text in [
            "fn f(v: &[u8]) -> usize { v.len() + v\n    .len() + s.len }",
            "impl S { pub const fn len(&self) -> usize { 0 } }",
            "fn f() -> usize { lenient() + r#lens }",
            "fn f<'a>(x: &'a [u8]) -> usize { x.len() }",
            "pub struct Fixed { pub len: usize }",
            "fn f() -> Fixed { Fixed { buf, len: 0 } }",
            "fn f(s: Fixed) -> usize { let Fixed { len: n, .. } = s; n }",
            "use crate::c::other as len;",
            "// `len() < capacity()` proves room\nfn f() {} /* len */",
            // Literals, lifetimes and doc comments that no macro reads.
            "fn f() { g(\"{len}\") }",
            "fn f<'len>() {}",
            "/// Like `len`.\n#[inline]\n#[must_use]\nfn f() {}",
        ] {
            assert!(!names(text), "{text}");
        }
        // Paths, ranges, imports, shorthand fields, lone identifier patterns (which
        // may resolve to a const a function shadows) and `r#` do.
        for text in [
            "fn f() -> usize { len() }",
            "fn f() -> usize { crate::c::len() }",
            "fn f() { for _ in 0..len {} }",
            "fn f() { for _ in 0..=len {} }",
            "use crate::c::{len, other};",
            "fn f() -> S { S { len } }",
            "fn f(s: S) { let S { len } = s; }",
            "fn f() { let len = 1; }",
            "fn f(len: usize) {}",
            "fn f() { match 1 { len => {} } }",
            "fn f() -> usize { r#len() }",
        ] {
            assert!(names(text), "{text}");
        }
        // In a macro's input, any spelling: the macro may strip the dot, build a
        // path of a field, or read a literal or a doc.
        for text in [
            "fn f() { strip_dot!(. len) }",
            "fn f() { crate::m! { x.len } }",
            "macro_rules! m { ($x:expr) => { $x.len() } }",
            "#[my_attribute(x.len)]\nfn f() {}",
            "#![doc = x.len]",
            "fn f() { format!(\"{len}\"); }",
            "#[path = \"len.rs\"]\nmod m;",
            "#[my_attribute]\nfn f(x: S) -> usize { x.len }",
            "/// Like `len`.\n#[derive(Parse)]\nstruct S;",
            "#[derive(Parse)]\nstruct S {\n    /// len\n    a: u8,\n}",
            "#[derive(Clone)]\nstruct S { len: usize }",
        ] {
            assert!(names(text), "{text}");
        }
        // In a closed file of another module a name standing alone (a path's
        // first segment, a lone identifier pattern) counts only in a block whose
        // imports, or what a macro there makes, may bring the function in.
        let elsewhere = |text: &str| {
            naming(text, Edition::CURRENT, Reading::paths(Patterns::InOpenBlocks), &finders) != Naming::Nowhere
        };
        for text in [
            "fn f() { let len = 1; }",
            "fn f(len: usize) {}",
            "fn f() { match 1 { len => {} } }",
            "fn f() { use crate::c::other; let len = 1; }",
            "fn f() { { use crate::c::*; } if true { let len = 1; } }",
            "fn f() -> usize { len() }",
            "fn f() -> usize { len::<u8>() + len::new() }",
            "fn f(x: Vec<len>) -> len { x[0] }",
            "impl len {}",
        ] {
            assert!(!elsewhere(text), "{text}");
        }
        for text in [
            "fn f() { use crate::c::*; let len = 1; }",
            "fn f() { use crate::c::{self, *}; if true { let len = 1; } }",
            "fn f() { imports!(); let len = 1; }",
            "fn f() { imports! {} let len = 1; }",
            "fn f() { let len = 1; imports!() }",
            "fn f() { imports!(); len() }",
            // A later segment, or an import's.
            "fn f() { crate::c::len() }",
            "fn f() { self::len(); }",
            "use crate::c::len;",
            "use crate::c::{len as l};",
            "fn f() { ::len::g() }",
        ] {
            assert!(elsewhere(text), "{text}");
        }
        // A path to a binding in scope names no function, wherever it stands
        // (here in the edited module, where a lone pattern counts in any case).
        let shadowed = |text: &str| {
            let file = SourceFile::parse(text, Edition::CURRENT).tree();
            let mut tokens = file.syntax().descendants_with_tokens().filter_map(NodeOrToken::into_token);
            !tokens.any(|token| {
                token.text() == "len"
                    && token.parent().is_some_and(|parent| parent.kind() == SyntaxKind::NAME_REF)
                    && where_a_path_can_be(&token, Reading::paths(Patterns::Everywhere), Locals::Shadow)
            })
        };
        for text in [
            "fn f(v: &[u8]) -> usize { let len = v.len(); len * 2 }",
            "fn f(len: usize) -> S { S { len } }",
            "fn f() { let g = |len: usize| len + 1; }",
            "fn f(v: &[u8]) { for len in v { g(*len); } }",
            "fn f(x: Option<usize>) -> usize { match x { Some(len) if len > 0 => len, _ => 0 } }",
            "fn f(s: S) -> usize { let S { len: n, .. } = s; let len = n; { len } }",
            "fn f() -> usize { let len = 1; { use crate::c::other; len } }",
        ] {
            assert!(shadowed(text), "{text}");
        }
        for text in [
            // Before its binding, in its own initialiser, outside its scope, in
            // another function, or a path of more than one segment.
            "fn f() -> usize { let n = len(); let len = 1; n }",
            "fn f() { let len = len(); }",
            "fn f() { { let len = 1; } len(); }",
            "fn f(len: usize) { fn g() -> usize { len() } }",
            "fn f(v: &[u8]) { for len in len() {} }",
            "fn f(len: usize) { self::len(); }",
            "fn f(len: usize) { len::<u8>(); }",
            "fn f(x: Option<usize>) { if let Some(len) = x { len(); } }",
            // A constant's expression.
            "fn f() { let len = 1; let a: [u8; len] = [0; len]; }",
            "fn f() { let len = 1; let a = [0; len]; }",
            "fn f() { let len = 1; g::<{ len }>(); }",
            "fn f() { let len = 1; let a = const { len }; }",
            // A block's glob import shadows a binding outside the block.
            "fn f() -> usize { let len = 1; { use crate::c::*; len } }",
            "fn f(len: usize) { if true { imports!(); len; } }",
        ] {
            assert!(!shadowed(text), "{text}");
        }
        // A group after the macro call's ends it: what follows is code again.
        assert!(!names("fn f() { m!(x); v.len(); }"));
        assert!(!names("fn f() -> bool { !v.is_empty() && v.len() > 1 }"));
    }

    #[test]
    fn a_name_in_a_plain_body_is_told_from_one_elsewhere() {
        let finders = [memchr::memmem::Finder::new("len")];
        let naming = |text: &str| naming(text, Edition::CURRENT, Reading::paths(Patterns::Everywhere), &finders);
        // Only a walk of the body reads it.
        for text in [
            "fn f() -> usize { len() }",
            "fn f() { let a: [u8; len()] = [0; len()]; let c = || len(); }",
            "impl S { fn f(&self) -> usize { crate::c::len() } }",
            "trait T { fn f(&self) -> usize { len() } }",
            "fn f() -> Box<dyn Fn() -> usize> { Box::new(|| len()) }",
            "fn f() { fn g() -> usize { len() } }",
            "fn f() { impl S { fn g() -> usize { len() } } }",
            "fn f() { let len = 1; }",
        ] {
            assert_eq!(naming(text), Naming::InPlainBodies { macro_calls: Vec::new() }, "{text}");
        }
        // Read by other bodies, by a type or by the whole program, or in a macro's
        // input (which may make an item of it).
        for text in [
            "const fn f() -> usize { len() }",
            "async fn f() -> usize { len() }",
            "fn f() -> impl Fn() -> usize { || len() }",
            "static S: usize = len();",
            "const C: usize = len();",
            "struct S([u8; len()]);",
            "fn f(a: [u8; len()]) {}",
            "fn f() { impl S { fn g() -> usize { 0 } } const C: usize = len(); }",
            "#[attribute_macro] fn f() -> usize { len() }",
            "use crate::c::len;",
            "fn f() -> usize { 1 }\nfn g() -> usize { len() }\nstatic S: usize = len();",
        ] {
            assert_eq!(naming(text), Naming::Elsewhere, "{text}");
        }
        assert_eq!(naming("fn f() -> usize { v.len() }"), Naming::Nowhere);
        // In a macro call's input in a plain body: there, if what it expands to
        // stays in the body (told with rust-analyzer's expansion).
        let in_call = |text: &str, call: &str| {
            let at = text.find(call).unwrap();
            let range = TextRange::new((at as u32).into(), ((at + call.len()) as u32).into());
            assert_eq!(naming(text), Naming::InPlainBodies { macro_calls: vec![range] }, "{text}");
        };
        in_call("fn f() -> usize { m!(len) }", "m!(len)");
        in_call("fn f() { println!(\"{len}\"); }", "println!(\"{len}\")");
        in_call("fn f() { outer!(inner!(len)); len(); }", "outer!(inner!(len))");
        in_call("fn f() { #[cfg(x)] m!(len); }", "m!(len)");
        assert_eq!(naming("#[derive(D)] struct S { a: [u8; m!(len)] }"), Naming::Elsewhere);
        assert_eq!(naming("static S: usize = m!(len);"), Naming::Elsewhere);
        assert_eq!(naming("m!(len);"), Naming::Elsewhere);
    }

    #[test]
    fn the_log_reads_back_only_as_far_as_it_keeps() {
        let mut log = EditLog::default();
        let file = FileId::from_raw(0);
        log.took(file, Arc::from("a"));
        log.took(file, Arc::from("b"));
        let texts = log.texts_after(0).expect("all kept");
        assert_eq!(&*texts[&file], "a");
        assert_eq!(&*log.texts_after(1).expect("kept")[&file], "b");
        assert!(log.texts_after(2).expect("nothing since").is_empty());
        for _ in 0..EditLog::KEPT {
            log.took(file, Arc::from("c"));
        }
        assert!(log.texts_after(0).is_none());
        log.took_unreadable();
        assert!(log.texts_after(log.taken() - 1).is_none());
    }
}
