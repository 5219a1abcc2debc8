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

/// The edits a live workspace took, numbered from 1, with each file's text before
/// it; the last `EditLog::KEPT`.
#[derive(Clone, Default)]
pub struct EditLog {
    entries: VecDeque<LoggedEdit>,
    /// How many edits were taken so far.
    taken: u64,
    /// Every file an edit changed since the load, whether or not still logged.
    touched: std::sync::Arc<FxHashSet<FileId>>,
    /// How many changes no comparison of texts can read were taken.
    unreadable: u64,
}

#[derive(Clone)]
struct LoggedEdit {
    number: u64,
    /// `None`: a change of the database no text comparison can read (std's
    /// intrinsics put back).
    file: Option<(FileId, Arc<str>)>,
}

impl EditLog {
    /// More than a burst of typing between two analyses.
    const KEPT: usize = 64;

    /// Notes that `file`'s text, `before`, was replaced.
    pub fn took(&mut self, file: FileId, before: Arc<str>) {
        if !self.touched.contains(&file) {
            std::sync::Arc::make_mut(&mut self.touched).insert(file);
        }
        self.push(Some((file, before)));
    }

    /// Notes a change no comparison of texts can read.
    pub fn took_unreadable(&mut self) {
        self.unreadable += 1;
        self.push(None);
    }

    fn push(&mut self, file: Option<(FileId, Arc<str>)>) {
        self.taken += 1;
        if self.entries.len() == Self::KEPT {
            self.entries.pop_front();
        }
        self.entries.push_back(LoggedEdit { number: self.taken, file });
    }

    /// How many edits were taken so far: what an analysis of the database as it
    /// is now has seen.
    pub fn taken(&self) -> u64 {
        self.taken
    }

    /// Whether an edit after the first `seen` may have changed a macro's
    /// definition: a file it changed spells `macro` (`macro_rules!`, `macro`,
    /// `#[macro_export]`, `#[macro_use]`) before or now (`now`: its text), or the
    /// log cannot tell.
    fn macros_edited_after(&self, seen: u64, now: impl Fn(FileId) -> Arc<str>) -> bool {
        self.texts_after(seen).is_none_or(|texts| {
            texts.iter().any(|(&file, before)| before.contains("macro") || now(file).contains("macro"))
        })
    }

    /// Each file edited after the first `seen` edits, with its text then; `None`
    /// when the log no longer reaches back that far or a change among them cannot
    /// be read.
    fn texts_after(&self, seen: u64) -> Option<FxHashMap<FileId, Arc<str>>> {
        let first_kept = self.entries.front().map_or(self.taken + 1, |entry| entry.number);
        if seen + 1 < first_kept {
            return None;
        }
        let mut texts = FxHashMap::default();
        for entry in self.entries.iter().filter(|entry| entry.number > seen) {
            let (file, before) = entry.file.as_ref()?;
            texts.entry(*file).or_insert_with(|| before.clone());
        }
        Some(texts)
    }
}

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

/// What the search for a touched name's spellings in the files no edit touched reads.
struct SpellingSearch<'a, 'db> {
    sema: &'a Semantics<'db, RootDatabase>,
    log: &'a EditLog,
    /// Every file of the database.
    files: &'a [FileId],
    library: &'a LibraryMacros,
    in_library: &'a dyn Fn(FileId) -> bool,
    /// Whether a workspace file may `include!` another's text.
    includes: bool,
    /// Whether a touched item is a member (a call names it after a `.`).
    members: bool,
}

impl SpellingSearch<'_, '_> {
    /// Where the untouched files (those of `within`'s module alone, if given)
    /// spell `name`, read as `reading` says: `None` when one may name it outside
    /// the bodies of plain functions.
    fn spelled_in(
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
            Some((rest, edition)) => naming_or_bringing(rest, *edition, &finders, bringing, members),
            None => naming_or_bringing(db.file_text(file).text(db), edition_of(db, file), &finders, bringing, members),
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

/// The tokens of `text` outside its top-level trait impls under no attribute a
/// macro may read (`only_trait_impls_changed`), whitespace aside.
fn outside_trait_impls(text: &str, edition: Edition) -> Vec<String> {
    let file = SourceFile::parse(text, edition).tree();
    let plain_impl = |item: &ast::Item| matches!(item, ast::Item::Impl(imp) if imp.trait_().is_some() && !imp.attrs().any(|attr| read_by_a_macro(&attr)));
    let impls: Vec<TextRange> = file.items().filter(plain_impl).map(|item| item.syntax().text_range()).collect();
    let tokens = file.syntax().descendants_with_tokens().filter_map(NodeOrToken::into_token);
    tokens
        .filter(|token| {
            token.kind() != SyntaxKind::WHITESPACE
                && !impls.iter().any(|range| range.contains_range(token.text_range()))
        })
        .map(|token| token.text().to_owned())
        .collect()
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

/// How deep expansions are followed into the macros they call.
const EXPANSION_DEPTH: usize = 8;

/// A touched name, and the library macros that may bring it (`LibraryMacros::bringing`),
/// looked for in what a workspace file's calls of those macros expand to.
struct Spelling<'a> {
    name: &'a memchr::memmem::Finder<'a>,
    bringing: &'a Words,
    /// Whether a method call's name counts (`Reading::method_calls`).
    method_calls: bool,
}

/// Words looked for token by token: an identifier is one word, found in a set;
/// any other token (a literal, a doc comment) is searched for them as whole words.
struct Words {
    set: FxHashSet<String>,
    finders: Vec<memchr::memmem::Finder<'static>>,
}

impl Words {
    fn new(words: &[String]) -> Words {
        Words { set: words.iter().cloned().collect(), finders: finders_of(words) }
    }

    /// Whether `text` holds one of the words as a whole word.
    fn in_text(&self, text: &str) -> bool {
        spells_any(text, &self.finders)
    }

    /// Whether `token` holds one of the words as a whole word.
    fn in_token(&self, token: &SyntaxToken) -> bool {
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
    fn in_file(&self, sema: &Semantics<'_, RootDatabase>, file: &SyntaxNode) -> Naming {
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
    fn expansion_names(&self, sema: &Semantics<'_, RootDatabase>, call: &ast::MacroCall, depth: usize) -> bool {
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
    fn calls_to_expand(
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

/// Whether `attr` derives only the compiler's own derives (`Clone`, `Debug`, …,
/// as rust-analyzer resolves them: an import may shadow one), whose impls call
/// no macro and make no path of the item's tokens.
fn builtin_derives_only(sema: &Semantics<'_, RootDatabase>, attr: &ast::Attr) -> bool {
    let derive = attr.path().and_then(|path| path.as_single_name_ref()).is_some_and(|name| name.text() == "derive");
    let derived = || attr.meta().and_then(|meta| sema.resolve_derive_macro(&meta));
    derive
        && derived().is_some_and(|derived| {
            derived
                .iter()
                .all(|derived| derived.is_some_and(|derived| derived.kind(sema.db) == hir::MacroKind::DeriveBuiltIn))
        })
}

/// Whether `token` is a segment of a path that is the qualifier of a longer one.
fn a_qualifier(token: &SyntaxToken) -> bool {
    let segment = token.parent().filter(|node| node.kind() == SyntaxKind::NAME_REF).and_then(|name| name.parent());
    let path = segment.filter(|node| node.kind() == SyntaxKind::PATH_SEGMENT).and_then(|segment| segment.parent());
    path.and_then(|path| path.parent()).is_some_and(|parent| parent.kind() == SyntaxKind::PATH)
}

/// Whether a macro may read `attr` and the item under it: anything but the
/// compiler's own attributes (`#[thread_local]`, which `thread_local!` expands to,
/// is one), `cfg_attr` (which applies others) aside.
fn read_by_a_macro(attr: &ast::Attr) -> bool {
    let builtin = attr.path().and_then(|path| path.as_single_name_ref()).is_some_and(|name| {
        let name = name.text();
        name != "cfg_attr"
            && hir_expand::inert_attr_macro::find_builtin_attr_idx(&ra_ap_intern::Symbol::intern(name)).is_some()
    });
    !builtin && !is_inert(attr)
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

/// What changed between two texts of a file, when only its plain items did
/// (`plain_items`).
#[derive(Debug, PartialEq, Eq)]
struct ItemsChanged {
    /// The names of the items added, removed or changed.
    names: FxHashSet<String>,
    /// Whether one of them is a member of an impl or a trait (a method: a call
    /// names it after a `.`).
    members: bool,
    /// Whether one of them is a trait's impl.
    impls: bool,
    /// Whether one of them is an import's binding.
    imports: bool,
    /// The names whose every touched item, before and after, is private to the
    /// file's module (`private`).
    private: FxHashSet<String>,
    /// Whether every touched import binding (and glob) is private.
    imports_private: bool,
    /// The touched glob imports (`PlainKind::Glob`), not among `names`: each
    /// one's path and whether it is private.
    globs: Vec<(String, bool)>,
    /// The touched types with derives (`derive_names`), before and after.
    derives: Vec<Derived>,
    /// The file after the edit without those items: its tokens, spaced, where
    /// the names are looked for.
    rest: String,
}

fn items_changed(before: &str, after: &str, edition: Edition) -> Option<ItemsChanged> {
    let parse = |text: &str| SourceFile::parse(text, edition).tree();
    let (before, after) = (parse(before), parse(after));
    let (items_before, items_after) = (plain_items(&before)?, plain_items(&after)?);
    fn by_name(items: &[PlainItem]) -> FxHashMap<&str, Vec<(&str, PlainKind)>> {
        let mut by_name: FxHashMap<&str, Vec<(&str, PlainKind)>> = FxHashMap::default();
        for item in items {
            by_name.entry(&item.name).or_default().push((&item.text, item.kind));
        }
        by_name.values_mut().for_each(|texts| texts.sort_unstable());
        by_name
    }
    let (then, now) = (by_name(&items_before), by_name(&items_after));
    let mut names: FxHashSet<String> = then
        .keys()
        .chain(now.keys())
        .filter(|name| then.get(*name) != now.get(*name))
        .map(|name| name.to_string())
        .collect();
    let touched = || items_before.iter().chain(&items_after).filter(|item| names.contains(&item.name));
    let any_of = |kind: PlainKind| touched().any(|item| item.kind == kind);
    // A trait's impl read under its trait's name is reached by a method call
    // that spells one of the trait's members too, from wherever the trait is in
    // scope.
    let methods: Vec<String> = touched().flat_map(|item| item.methods.iter().cloned()).collect();
    let (members, impls) = (any_of(PlainKind::Member) || !methods.is_empty(), any_of(PlainKind::TraitImpl));
    let imports = any_of(PlainKind::Import) || any_of(PlainKind::Glob);
    let mut private: FxHashSet<String> = names
        .iter()
        .filter(|&name| touched().filter(|item| item.name == *name).all(|item| item.private))
        .cloned()
        .collect();
    let imports_private =
        touched().filter(|item| matches!(item.kind, PlainKind::Import | PlainKind::Glob)).all(|item| item.private);
    let derived = |items: &[PlainItem], now: bool| {
        let types = items.iter().filter(|item| names.contains(&item.name) && ast::Adt::can_cast(item.node.kind()));
        types
            .filter_map(move |item| {
                let (name, text, range) = (item.name.clone(), item.node.text().to_string(), item.node.text_range());
                Some(Derived { name, derives: derive_names(&item.node)?, text, now: now.then_some(range) })
            })
            .collect::<Vec<_>>()
    };
    // The types there now first: one taken out may have the text of one there.
    let derives: Vec<Derived> = derived(&items_after, true).into_iter().chain(derived(&items_before, false)).collect();
    let touched_globs: FxHashSet<String> =
        touched().filter(|item| item.kind == PlainKind::Glob).map(|item| item.name.clone()).collect();
    let (kept, read) = outside_items(&after, &items_after, &names)?;
    // One token a line: a line comment ends where it did.
    if outside_items(&before, &items_before, &names)?.0 != kept {
        return None;
    }
    for method in methods {
        private.remove(&method);
        names.insert(method);
    }
    // A glob is named by its path and `::*`, which no code spells: it is read
    // as the names it brings (`touched_names_unspelled`).
    names.retain(|name| !touched_globs.contains(name));
    let globs = touched_globs
        .into_iter()
        .map(|name| {
            let glob_private = private.remove(&name);
            (name.strip_suffix("::*").unwrap_or(&name).to_owned(), glob_private)
        })
        .collect();
    Some(ItemsChanged {
        names,
        members,
        impls,
        imports,
        private,
        imports_private,
        globs,
        derives,
        rest: read.join("\n"),
    })
}

/// A touched type with derives (`ItemsChanged::derives`).
#[derive(Debug, PartialEq, Eq)]
struct Derived {
    /// The type's name.
    name: String,
    /// The paths its derives name (`derive_names`).
    derives: Vec<String>,
    /// Its text, attributes and all.
    text: String,
    /// Where it is in the file's text now; `None` for one as it was before.
    now: Option<TextRange>,
}

/// An item other code sees only by its name: a free function, a struct, an
/// enum, a union, a type alias, a const or a static at the top level of a file,
/// a function or a const in a plain inherent impl (`plain_impl`), or a name a
/// plain import binds (`import_bindings`), a plain trait's header and each of
/// its members (`plain_trait`), or a trait's impl for a type the file defines,
/// under that type's name, or of a trait the file defines, under that trait's
/// name and its members' (`plain_trait_impl`), or an inline module of plain
/// items (`held_by_a_module`). Another trait impl (a blanket
/// one of another module's trait, or one for a reference, a tuple or an alias,
/// which answers goals about types other code holds under other names), a
/// module of its own file, a macro's definition or call, and the rest are not.
struct PlainItem {
    name: String,
    /// Its text; a member's with its impl's header before it (`impl Foo` moved
    /// to `impl Bar` changes what its methods are called on).
    text: String,
    node: SyntaxNode,
    kind: PlainKind,
    /// Whether only its module and the modules under it can name it (`private`).
    private: bool,
    /// Names a method call may spell to reach it: a trait's impl read under
    /// its trait's name, that trait's members (`plain_trait_impl`).
    methods: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum PlainKind {
    /// A free item.
    Free,
    /// A name an import binds.
    Import,
    /// A function or a const of an inherent impl, or a member of a trait.
    Member,
    /// A trait's impl, named by its self type.
    TraitImpl,
    /// A trait's header: its name, generics, supertraits and bounds.
    Trait,
    /// A glob import (`use a::b::*;`), named by its path and `::*`.
    Glob,
}

/// The plain items of `file`; `None` when one has no name (`const _`), which
/// makes its edits unread.
fn plain_items(file: &SourceFile) -> Option<Vec<PlainItem>> {
    let mut items = Vec::new();
    for item in file.items() {
        if let Some(members) = plain_impl(&item) {
            push_members(&mut items, &item, &members)?;
            continue;
        }
        if let Some((name, members)) = plain_trait(&item) {
            // The header and each member apart: a member added to a trait whose
            // impls other code holds values of takes over method calls that
            // spell it (`Member`), wherever the trait is in scope.
            let header = push_members(&mut items, &item, &members)?;
            let (node, private) = (item.syntax().clone(), private(&item));
            items.push(PlainItem {
                name: unraw(&name?),
                text: header,
                node,
                kind: PlainKind::Trait,
                private,
                methods: Vec::new(),
            });
            continue;
        }
        if let Some(ImplReading { name, methods }) = plain_trait_impl(&item, file) {
            let (text, node) = (item.syntax().text().to_string(), item.syntax().clone());
            items.push(PlainItem { name, text, node, kind: PlainKind::TraitImpl, private: false, methods });
            continue;
        }
        if let ast::Item::Use(import) = &item {
            if let Some(path) = glob_import(import) {
                let (name, node) = (format!("{path}::*"), item.syntax().clone());
                items.push(PlainItem {
                    text: format!("{} {name}", visibility_text(import)),
                    name,
                    node,
                    kind: PlainKind::Glob,
                    private: private(&item),
                    methods: Vec::new(),
                });
                continue;
            }
            for (name, text, leaf) in import_bindings(import).into_iter().flatten() {
                items.push(PlainItem {
                    name,
                    text,
                    node: leaf,
                    kind: PlainKind::Import,
                    private: private(&item),
                    methods: Vec::new(),
                });
            }
            continue;
        }
        let name = match &item {
            // What an inline module holds is named through the module's name
            // (`outside_items` has it hold plain items only).
            ast::Item::Module(it) if it.item_list().is_some() => it.name(),
            ast::Item::Fn(it) => it.name(),
            ast::Item::Struct(it) => it.name(),
            ast::Item::Enum(it) => it.name(),
            ast::Item::Union(it) => it.name(),
            ast::Item::TypeAlias(it) => it.name(),
            ast::Item::Const(it) => it.name(),
            ast::Item::Static(it) => it.name(),
            _ => continue,
        };
        let (text, node) = (item.syntax().text().to_string(), item.syntax().clone());
        items.push(PlainItem {
            name: unraw(&name?),
            text,
            node,
            kind: PlainKind::Free,
            private: private(&item),
            methods: Vec::new(),
        });
    }
    Some(items)
}

/// Whether `item` (at the top level of a file) is private to its module: no
/// visibility, or `pub(self)`. Then only that module and the modules under it
/// can name it: rust-analyzer resolves a path, an import and a glob import only
/// to what is visible from the module it is resolved in, which is the caller's
/// for what a macro makes.
fn private(item: &ast::Item) -> bool {
    ast::AnyHasVisibility::cast(item.syntax().clone())
        .is_some_and(|item| matches!(visibility_text(&item).as_str(), "" | "pub(self)"))
}

/// The visibility `item` is written with, as its tokens (`pub(crate)`); empty
/// when it has none.
fn visibility_text(item: &impl HasVisibility) -> String {
    item.visibility().map(|visibility| tokens_outside(visibility.syntax(), &[]).concat()).unwrap_or_default()
}

/// Pushes each member of `item` (an impl or a trait whose `members` they are)
/// as a plain item, its text with the header's before it; gives the header.
/// `None` when a member has no name.
fn push_members(items: &mut Vec<PlainItem>, item: &ast::Item, members: &ast::AssocItemList) -> Option<String> {
    let header = tokens_outside(item.syntax(), &[members.syntax().text_range()]).join(" ");
    for member in members.assoc_items() {
        let text = format!("{header}\n{}", member.syntax().text());
        // Never private: rust-analyzer resolves a method call to a private
        // method of another module too (and says so).
        let (name, node) = (unraw(&member_name(&member)?), member.syntax().clone());
        items.push(PlainItem { name, text, node, kind: PlainKind::Member, private: false, methods: Vec::new() });
    }
    Some(header)
}

/// The names a plain import binds: each with what it binds it to (its
/// visibility and full path, `use a::{b as c}` binding `c` to `a::b`) and its
/// leaf. `None` when it is not plain: under an attribute, or holding a glob, an
/// `_` (which brings a trait into scope unnamed) or a leaf whose name cannot be
/// told. Two imports binding the same names to the same paths are the same, in
/// any order or grouping.
fn import_bindings(import: &ast::Use) -> Option<Vec<(String, String, SyntaxNode)>> {
    if import.attrs().next().is_some() {
        return None;
    }
    let visibility = visibility_text(import);
    let mut bindings = Vec::new();
    let mut trees = vec![(import.use_tree()?, String::new())];
    while let Some((tree, prefix)) = trees.pop() {
        if tree.star_token().is_some() || (tree.path().is_none() && tree.coloncolon_token().is_some()) {
            return None;
        }
        let path = match (tree.path(), prefix.is_empty()) {
            (Some(path), true) => tokens_outside(path.syntax(), &[]).concat(),
            (Some(path), false) => format!("{prefix}::{}", tokens_outside(path.syntax(), &[]).concat()),
            (None, _) => prefix,
        };
        if let Some(list) = tree.use_tree_list() {
            trees.extend(list.use_trees().map(|tree| (tree, path.clone())));
            continue;
        }
        // `a::b::{self}` binds `b` to `a::b`.
        let path = path.strip_suffix("::self").map_or(path.clone(), str::to_owned);
        let name = match tree.rename() {
            Some(rename) => unraw(&rename.name()?),
            None => {
                let name = path.rsplit("::").next()?;
                if matches!(name, "" | "self" | "super" | "crate") {
                    return None;
                }
                unraw_text(name)
            }
        };
        bindings.push((name.clone(), format!("{visibility} {path} as {name}"), tree.syntax().clone()));
    }
    Some(bindings)
}

/// The path of a plain glob import, `use a::b::*;`: no attribute, one path, no
/// group; as its tokens.
fn glob_import(import: &ast::Use) -> Option<String> {
    let tree = import.use_tree()?;
    let plain = import.attrs().next().is_none()
        && tree.star_token().is_some()
        && tree.use_tree_list().is_none()
        && tree.rename().is_none();
    plain.then(|| tree.path().map(|path| tokens_outside(path.syntax(), &[]).concat())).flatten()
}

/// The names a glob import of `path` in `file` brings in, when `path` resolves
/// to a module there: those of its scope visible from the file's module.
/// `None` when it resolves to anything else (an enum's variants).
fn glob_names(sema: &Semantics<'_, RootDatabase>, file: FileId, path: &str) -> Option<Vec<String>> {
    let mut segments: Vec<&str> = path.split("::").collect();
    let kind = match segments.first().copied()? {
        "" => {
            segments.remove(0);
            hir::PathKind::Abs
        }
        "crate" => {
            segments.remove(0);
            hir::PathKind::Crate
        }
        "self" | "super" => {
            let leading = segments.iter().take_while(|segment| matches!(**segment, "self" | "super")).count();
            let supers = segments[..leading].iter().filter(|segment| **segment == "super").count();
            segments.drain(..leading);
            hir::PathKind::Super(u8::try_from(supers).ok()?)
        }
        _ => hir::PathKind::Plain,
    };
    let segments: Vec<String> = segments.iter().map(|segment| unraw_text(segment)).collect();
    let module = resolved_in_file(sema, file, kind, &segments).into_iter().find_map(|item| match item {
        hir::ItemInNs::Types(hir::ModuleDef::Module(module)) => Some(module),
        _ => None,
    })?;
    let from = sema.file_to_module_def(file)?;
    Some(module.scope(sema.db, Some(from)).into_iter().map(|(name, _)| unraw_text(name.as_str())).collect())
}

/// The tokens of `node` outside `ranges`, but whitespace.
fn tokens_outside(node: &SyntaxNode, ranges: &[TextRange]) -> Vec<String> {
    node.descendants_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .filter(|token| {
            token.kind() != SyntaxKind::WHITESPACE
                && !ranges.iter().any(|range| range.contains_range(token.text_range()))
        })
        .map(|token| token.text().to_owned())
        .collect()
}

/// `name` as other code may spell it too: `r#fn` is `fn`, `r#len` is `len`.
fn unraw(name: &ast::Name) -> String {
    unraw_text(name.text())
}

/// `unraw` of a name's text (a `NameRef`'s, a path's last segment).
fn unraw_text(text: &str) -> String {
    text.strip_prefix("r#").unwrap_or(text).to_owned()
}

/// The name of a function, a const or an associated type of an impl or a trait.
fn member_name(member: &ast::AssocItem) -> Option<ast::Name> {
    match member {
        ast::AssocItem::Fn(it) => it.name(),
        ast::AssocItem::Const(it) => it.name(),
        ast::AssocItem::TypeAlias(it) => it.name(),
        ast::AssocItem::MacroCall(_) => None,
    }
}

/// The members of `item` when it is a plain inherent impl: no trait, no
/// attribute, no macro call in its header, and nothing in it but functions and
/// consts.
fn plain_impl(item: &ast::Item) -> Option<ast::AssocItemList> {
    let ast::Item::Impl(imp) = item else { return None };
    let members = imp.assoc_item_list()?;
    let header_plain = header_plain(imp.syntax(), &members);
    let only_fns_and_consts =
        members.assoc_items().all(|member| matches!(member, ast::AssocItem::Fn(_) | ast::AssocItem::Const(_)));
    (imp.trait_().is_none() && header_plain && only_fns_and_consts).then_some(members)
}

/// Whether `item` (an impl or a trait) has no attribute and no macro call outside
/// its `members`.
fn header_plain(item: &SyntaxNode, members: &ast::AssocItemList) -> bool {
    item.descendants().all(|node| {
        members.syntax().text_range().contains_range(node.text_range())
            || !matches!(node.kind(), SyntaxKind::ATTR | SyntaxKind::MACRO_CALL)
    })
}

/// The name and the members of `item` when it is a plain trait: no attribute,
/// no macro call in its header, not `auto` (which holds for types with no impl),
/// and nothing in it but functions, consts and associated types.
fn plain_trait(item: &ast::Item) -> Option<(Option<ast::Name>, ast::AssocItemList)> {
    let ast::Item::Trait(trait_) = item else { return None };
    let members = trait_.assoc_item_list()?;
    let header_plain = header_plain(trait_.syntax(), &members);
    let only_members = members.assoc_items().all(|member| !matches!(member, ast::AssocItem::MacroCall(_)));
    (trait_.auto_token().is_none() && header_plain && only_members).then(|| (trait_.name(), members))
}

/// The paths an attribute `#[derive(A, b::B)]` derives, when that is all it
/// is: each a name or a path of names (no leading `::`, no generic arguments).
fn plain_derive(attr: &ast::Attr) -> Option<Vec<String>> {
    let derive = attr.path()?.as_single_name_ref()?;
    if derive.text() != "derive" || attr.excl_token().is_some() {
        return None;
    }
    let ast::Meta::TokenTreeMeta(meta) = attr.meta()? else { return None };
    let tokens = meta.token_tree()?;
    let mut paths = vec![String::new()];
    let inner = tokens.syntax().children_with_tokens().filter_map(NodeOrToken::into_token);
    for token in inner
        .filter(|token| !matches!(token.kind(), SyntaxKind::WHITESPACE | SyntaxKind::L_PAREN | SyntaxKind::R_PAREN))
    {
        match token.kind() {
            SyntaxKind::IDENT | SyntaxKind::COLON | SyntaxKind::COLON2 => paths.last_mut()?.push_str(token.text()),
            SyntaxKind::COMMA => paths.push(String::new()),
            _ => return None,
        }
    }
    paths.retain(|path| !path.is_empty());
    paths
        .iter()
        .all(|path| path.split("::").all(|segment| !segment.is_empty() && !segment.contains(':')))
        .then_some(paths)
}

/// The names `item`'s attributes derive, when every attribute it has is a plain
/// derive (`plain_derive`) and it has one; `None` when it has none or another.
fn derive_names(item: &SyntaxNode) -> Option<Vec<String>> {
    let attrs: Vec<ast::Attr> = item.children().filter_map(ast::Attr::cast).collect();
    if attrs.is_empty() {
        return None;
    }
    attrs.iter().map(plain_derive).collect::<Option<Vec<_>>>().map(|names| names.concat())
}

/// The macro each of `paths` names as a derive at the top level of `file`;
/// `None` when one names none, or more than one.
fn derive_macros(sema: &Semantics<'_, RootDatabase>, file: FileId, paths: &[String]) -> Option<Vec<hir::Macro>> {
    paths
        .iter()
        .map(|path| {
            let segments: Vec<String> = path.split("::").map(str::to_owned).collect();
            let mut macros = resolved_in_file(sema, file, hir::PathKind::Plain, &segments).into_iter().filter_map(
                |item| match item {
                    hir::ItemInNs::Macros(it) => Some(it),
                    _ => None,
                },
            );
            let first = macros.next()?;
            macros.next().is_none().then_some(first)
        })
        .collect()
}

/// Whether the derives of each type of `derived` (touched in `file`) make impls
/// for that type only, which answer goals about it alone: each is the
/// compiler's own (`Clone`, `Debug`, ...), or a procedural macro's that
/// expanded to such impls (`impls_for_only`). A type the edits took out or
/// changed is read as it expanded while it was there (`known`, by its file and
/// text, with the macros its derives named then: the same now; not known: not
/// read). Its derives' paths resolve now as they did before the edits while
/// none starts with a name the edits touched (`qualifiers`, which the caller
/// looks for among them).
fn derives_make_impls_for_their_types(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    derived: &[Derived],
    known: &mut FxHashMap<(FileId, String), (bool, Vec<hir::Macro>)>,
    qualifiers: &mut FxHashSet<String>,
) -> bool {
    derived.iter().all(|derived| {
        let qualified =
            derived.derives.iter().filter_map(|path| path.split_once("::").map(|(first, _)| first.to_owned()));
        qualifiers.extend(qualified);
        let Some(macros) = derive_macros(sema, file, &derived.derives) else { return false };
        if macros.iter().all(|it| it.kind(sema.db) == hir::MacroKind::DeriveBuiltIn) {
            return true;
        }
        let key = (file, derived.text.clone());
        match derived.now {
            Some(range) => {
                let impls_only = expands_to_impls_for_it_only(sema, file, range, &derived.name);
                // Every text a type took while typed stays until then: a type
                // taken out after is only not read.
                if known.len() >= MAX_DERIVED_KNOWN {
                    known.clear();
                }
                known.insert(key, (impls_only, macros));
                impls_only
            }
            None => known.get(&key).is_some_and(|(impls_only, then)| *impls_only && *then == macros),
        }
    })
}

/// How many readings of types' derives are kept (`UntouchedFiles::derived`).
const MAX_DERIVED_KNOWN: usize = 4096;

/// Whether each derive of the type at `range` of `file` (named `name`) is the
/// compiler's own or expanded to impls for it only (`impls_for_only`). What a
/// procedural macro that failed (or was not built: no build scripts) left is
/// read as it is: it is all the analysis sees, now and from a fresh load.
fn expands_to_impls_for_it_only(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    range: TextRange,
    name: &str,
) -> bool {
    let source = sema.parse(sema.attach_first_edition(file));
    let adt = source
        .syntax()
        .covering_element(range)
        .ancestors()
        .filter(|node| node.text_range() == range)
        .find_map(ast::Adt::cast);
    let Some(adt) = adt else { return false };
    adt.attrs().all(|attr| {
        let Some(meta) = attr.meta() else { return false };
        let (Some(macros), Some(expansions)) = (sema.resolve_derive_macro(&meta), sema.expand_derive_macro(&meta))
        else {
            return false;
        };
        macros.len() == expansions.len()
            && macros.into_iter().zip(expansions).all(|(derived, expansion)| match (derived, expansion) {
                (Some(derived), _) if derived.kind(sema.db) == hir::MacroKind::DeriveBuiltIn => true,
                (Some(_), Some(expansion)) => impls_for_only(&expansion.value, name),
                _ => false,
            })
    })
}

/// Whether `expansion`, what a derive of the type `name` expanded to, is trait
/// impls for that type only: each of its items such an impl, or a `const _`
/// whose block holds only such impls, extern crates, imports binding no name
/// of those types, and types, functions, consts and statics of its own, which
/// no code outside the block can name, with impls of traits for them; and
/// nowhere a macro call, a macro's definition, or an attribute a macro may read.
/// The impls' self types are written as the type's name alone (generic
/// arguments aside), resolved in the type's module, where nothing but the type
/// binds it (`plain_trait_impl`).
fn impls_for_only(expansion: &SyntaxNode, name: &str) -> bool {
    if !matches!(expansion.kind(), SyntaxKind::MACRO_ITEMS | SyntaxKind::SOURCE_FILE) {
        return false;
    }
    let mut own = vec![name.to_owned()];
    let mut blocks = Vec::new();
    for item in expansion.children().filter_map(ast::Item::cast) {
        match item {
            ast::Item::Impl(_) => {}
            ast::Item::Const(konst) if konst.underscore_token().is_some() => match konst.body() {
                Some(ast::Expr::BlockExpr(block)) if block.modifier().is_none() => blocks.push(block),
                _ => return false,
            },
            _ => return false,
        }
    }
    for block in &blocks {
        let Some(statements) = block.stmt_list() else { return false };
        if statements
            .tail_expr()
            .is_some_and(|tail| !matches!(&tail, ast::Expr::TupleExpr(unit) if unit.fields().next().is_none()))
        {
            return false;
        }
        for statement in statements.statements() {
            let ast::Stmt::Item(item) = statement else { return false };
            match &item {
                ast::Item::Struct(_) | ast::Item::Enum(_) | ast::Item::Union(_) => {
                    own.extend(
                        ast::AnyHasName::cast(item.syntax().clone())
                            .and_then(|it| it.name())
                            .map(|it| it.text().to_string()),
                    );
                }
                ast::Item::Use(import) => {
                    let binds = import.syntax().descendants().filter_map(ast::UseTree::cast).any(|tree| {
                        let bound = tree.rename().and_then(|rename| rename.name()).map(|it| it.text().to_string());
                        let last = || {
                            tree.path()
                                .and_then(|path| path.segment())
                                .and_then(|it| it.name_ref())
                                .map(|it| it.text().to_string())
                        };
                        tree.star_token().is_some() || bound.or_else(last).is_some_and(|bound| bound == name)
                    });
                    if binds {
                        return false;
                    }
                }
                ast::Item::Impl(_)
                | ast::Item::ExternCrate(_)
                | ast::Item::Fn(_)
                | ast::Item::Const(_)
                | ast::Item::Static(_)
                | ast::Item::TypeAlias(_) => {}
                _ => return false,
            }
        }
    }
    let for_own_type = |imp: &ast::Impl| {
        let self_type = match imp.self_ty() {
            Some(ast::Type::PathType(path)) => path.path(),
            _ => None,
        };
        let single = self_type.filter(|path| path.qualifier().is_none() && path.coloncolon_token().is_none());
        let named = single.and_then(|path| path.segment()).and_then(|segment| segment.name_ref());
        let generic_params: Vec<String> = imp
            .generic_param_list()
            .into_iter()
            .flat_map(|params| params.generic_params())
            .filter_map(|param| match param {
                ast::GenericParam::TypeParam(it) => it.name().map(|name| name.text().to_string()),
                _ => None,
            })
            .collect();
        imp.trait_().is_some()
            && named.is_some_and(|named| {
                own.iter().any(|own| named.text() == own.as_str())
                    && !generic_params.iter().any(|param| named.text() == param.as_str())
            })
    };
    expansion.descendants().all(|node| match node.kind() {
        SyntaxKind::MACRO_CALL | SyntaxKind::MACRO_RULES | SyntaxKind::MACRO_DEF => false,
        SyntaxKind::ATTR => ast::Attr::cast(node).is_some_and(|attr| !read_by_a_macro(&attr)),
        SyntaxKind::IMPL => ast::Impl::cast(node).is_some_and(|imp| for_own_type(&imp)),
        _ => true,
    })
}

/// What a path of `kind` and `segments` resolves to at the top level of `file`.
fn resolved_in_file(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    kind: hir::PathKind,
    segments: &[String],
) -> Vec<hir::ItemInNs> {
    let names = segments.iter().map(|segment| hir::Name::new_symbol_root(ra_ap_intern::Symbol::intern(segment)));
    let source = sema.parse(sema.attach_first_edition(file));
    sema.resolve_mod_path(source.syntax(), &hir::ModPath::from_segments(kind, names)).into_iter().flatten().collect()
}

/// What a trait's impl is read under (`plain_trait_impl`): a name, and the
/// names of the members of its trait when that is the name (a method call may
/// spell only a member).
struct ImplReading {
    name: String,
    methods: Vec<String>,
}

/// What `item`, a trait's impl holding nothing but functions, consts and
/// associated types, is read under. Under its self type's name, when that is a
/// struct, an enum or a union `file` defines at its top level under a name
/// nothing else there binds (no alias, no import), written as that name alone
/// (generic arguments aside), not one of the impl's own parameters: the impl
/// answers only goals about that type, which code holds only where the type's
/// name is spelled or a function returning it is walked. Else under its trait's
/// name, when that trait is a plain one (`plain_trait`) `file` defines so,
/// written so, with the names of its members: the impl (a blanket one, one for
/// an alias or a std type) answers only goals of that trait, which arise only
/// where its name is spelled (a bound, a path, a `dyn`, a supertrait, an impl
/// a bound of which names it) or a member's is, as a method call (a method
/// it brings to a type may take over such a call); no desugaring calls a
/// trait std does not define. `None` otherwise.
fn plain_trait_impl(item: &ast::Item, file: &SourceFile) -> Option<ImplReading> {
    let ast::Item::Impl(imp) = item else { return None };
    let members_plain = imp.assoc_item_list()?.assoc_items().all(|member| {
        matches!(member, ast::AssocItem::Fn(_) | ast::AssocItem::Const(_) | ast::AssocItem::TypeAlias(_))
    });
    if !members_plain {
        return None;
    }
    // The name of a path type written as a name alone.
    let name_alone = |ty: ast::Type| {
        let ast::Type::PathType(ty) = ty else { return None };
        let path = ty.path()?;
        if path.qualifier().is_some() || path.segment()?.coloncolon_token().is_some() {
            return None;
        }
        Some(unraw_text(path.segment()?.name_ref()?.text()))
    };
    let own_param = |name: &str| {
        imp.generic_param_list().is_some_and(|params| {
            params.type_or_const_params().any(|param| param.name().is_some_and(|param| unraw(&param) == name))
        })
    };
    if let Some(name) = imp.self_ty().and_then(name_alone).filter(|name| !own_param(name)) {
        if let Some(TypeBinding::Adt) = only_type_binding(file, &name) {
            return Some(ImplReading { name, methods: Vec::new() });
        }
    }
    let name = name_alone(imp.trait_()?)?;
    let Some(TypeBinding::Trait(trait_)) = only_type_binding(file, &name) else { return None };
    let (_, members) = plain_trait(&ast::Item::Trait(trait_))?;
    let methods =
        members.assoc_items().map(|member| member_name(&member).map(|name| unraw(&name))).collect::<Option<_>>()?;
    Some(ImplReading { name, methods })
}

/// What binds a name in the type namespace at the top level of a file.
enum TypeBinding {
    Adt,
    Trait(ast::Trait),
    /// An alias, a module, or what an import, a macro or an extern crate may bind.
    Other,
}

/// What binds `name` in the type namespace at the top level of `file`, when one
/// item alone does: none may be an import that binds it (or one whose bindings
/// cannot be told), a macro or an extern crate.
fn only_type_binding(file: &SourceFile, name: &str) -> Option<TypeBinding> {
    let mut binding = file.items().filter_map(|other| {
        let (binding, other_name) = match &other {
            ast::Item::Struct(it) => (TypeBinding::Adt, it.name()),
            ast::Item::Enum(it) => (TypeBinding::Adt, it.name()),
            ast::Item::Union(it) => (TypeBinding::Adt, it.name()),
            ast::Item::Trait(it) => (TypeBinding::Trait(it.clone()), it.name()),
            ast::Item::TypeAlias(it) => (TypeBinding::Other, it.name()),
            ast::Item::Module(it) => (TypeBinding::Other, it.name()),
            ast::Item::ExternCrate(_) | ast::Item::MacroCall(_) | ast::Item::MacroRules(_) | ast::Item::MacroDef(_) => {
                return Some(TypeBinding::Other);
            }
            ast::Item::Use(import) => {
                let binds =
                    import_bindings(import).is_none_or(|bindings| bindings.iter().any(|(bound, ..)| bound == name));
                return binds.then_some(TypeBinding::Other);
            }
            _ => return None,
        };
        other_name.is_some_and(|other| unraw(&other) == name).then_some(binding)
    });
    let first = binding.next()?;
    binding.next().is_none().then_some(first)
}

/// The tokens of `file`, but whitespace, as they are compared (`.0`) and as they
/// are read (`.1`); `None` when one of its plain items (`items`) named in `names` has an
/// attribute, or an item or a macro call in it. Read: outside those items, and
/// outside an impl whose every member is among them (or that has none).
/// Compared: outside every plain import too (whose bindings are its items); a
/// binding the edits did not touch is read where it names one (`pub use
/// self::f as g` with `f` added).
fn outside_items(
    file: &SourceFile,
    items: &[PlainItem],
    names: &FxHashSet<String>,
) -> Option<(Vec<String>, Vec<String>)> {
    let mut touched: Vec<TextRange> = Vec::new();
    for item in items {
        if !names.contains(&item.name) {
            continue;
        }
        // A trait impl's own members are part of it.
        let own_member = |node: &SyntaxNode| {
            matches!(item.kind, PlainKind::TraitImpl | PlainKind::Trait)
                && node.parent().and_then(|list| list.parent()).as_ref() == Some(&item.node)
        };
        // A derive of the item's own, by names alone (`derive_names`), makes
        // impls for it only.
        let own_derive = |node: &SyntaxNode| {
            ast::Adt::can_cast(item.node.kind())
                && node.parent().as_ref() == Some(&item.node)
                && ast::Attr::cast(node.clone()).is_some_and(|attr| plain_derive(&attr).is_some())
        };
        let reaches_out = item.node.descendants().any(|node| {
            (node.kind() == SyntaxKind::ATTR && !own_derive(&node))
                || node.kind() == SyntaxKind::MACRO_CALL
                || (node != item.node
                    && ast::Item::can_cast(node.kind())
                    && !own_member(&node)
                    && !held_by_a_module(&item.node, &node))
        });
        if reaches_out {
            return None;
        }
        touched.push(item.node.text_range());
    }
    // An impl made of touched members only, or of none, changes nothing but
    // through them.
    for item in file.items() {
        let all_touched = |members: ast::AssocItemList| {
            members.assoc_items().all(|member| member_name(&member).is_some_and(|name| names.contains(&unraw(&name))))
        };
        if plain_impl(&item).is_some_and(all_touched) {
            touched.push(item.syntax().text_range());
        }
    }
    let mut compared_apart = touched.clone();
    for item in file.items() {
        if let ast::Item::Use(import) = &item {
            if import_bindings(import).is_some() {
                compared_apart.push(item.syntax().text_range());
            }
        }
    }
    Some((tokens_outside(file.syntax(), &compared_apart), tokens_outside(file.syntax(), &touched)))
}

/// Whether `node`, an item under `item`, is one an inline module `item` may hold
/// with nothing but the module's name reaching it: a free function, a type, a
/// const, a static, an import or an inline module of such items. Not an impl (a
/// trait's answers goals anywhere; an inherent one's methods are called by
/// their names alone), a trait, a macro's definition (`#[macro_export]`, or
/// textual scope running on past the module) nor an out-of-line module (a file
/// of its own).
fn held_by_a_module(item: &SyntaxNode, node: &SyntaxNode) -> bool {
    item.kind() == SyntaxKind::MODULE
        && match ast::Item::cast(node.clone()) {
            Some(ast::Item::Fn(_) | ast::Item::Struct(_) | ast::Item::Enum(_) | ast::Item::Union(_)) => true,
            Some(ast::Item::TypeAlias(_) | ast::Item::Const(_) | ast::Item::Static(_) | ast::Item::Use(_)) => true,
            Some(ast::Item::Module(module)) => module.item_list().is_some(),
            _ => false,
        }
}

/// Where `text`, a touched file's, can name a free function called one of
/// `names` (`naming`); anywhere when a call of one of the macros in `bringing`
/// may be made there (`may_call_any`).
fn naming_or_bringing(
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
fn may_call_any(text: &str, edition: Edition, bringing: &Words) -> bool {
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
enum Naming {
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
    fn and(self, other: Naming) -> Naming {
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
fn naming(text: &str, edition: Edition, reading: Reading, names: &[memchr::memmem::Finder<'_>]) -> Naming {
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
fn naming_in(
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
fn qualified_by_a_library_module(token: &SyntaxToken, library_module: &dyn Fn(&ast::Path) -> bool) -> bool {
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
fn place_in_a_plain_body(token: &SyntaxToken, read: &dyn Fn(&ast::Attr) -> bool) -> Option<Option<TextRange>> {
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
fn expands_within_its_body(sema: &Semantics<'_, RootDatabase>, call: &ast::MacroCall) -> bool {
    !expansion_may_hold(sema, call, 0, &|node| {
        let global = matches!(node.kind(), SyntaxKind::IMPL | SyntaxKind::MACRO_RULES | SyntaxKind::MACRO_DEF);
        global
            || ast::AnyHasAttrs::cast(node.clone()).is_some_and(|node| node.attrs().any(|attr| read_by_a_macro(&attr)))
    })
}

/// Whether what `call` expands to, nested calls followed, may hold a node
/// `found` picks: a call that does not expand, or goes too deep, may make
/// anything.
fn expansion_may_hold(
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
enum Patterns {
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
fn may_import_unseen(file: &SyntaxNode, read: &dyn Fn(&ast::Attr) -> bool) -> bool {
    file.descendants().any(|node| match node.kind() {
        SyntaxKind::USE_TREE => ast::UseTree::cast(node).is_some_and(|tree| tree.star_token().is_some()),
        SyntaxKind::MACRO_CALL => {
            node.parent().is_some_and(|parent| matches!(parent.kind(), SyntaxKind::SOURCE_FILE | SyntaxKind::ITEM_LIST))
        }
        SyntaxKind::ATTR => ast::Attr::cast(node).is_some_and(|attr| read(&attr)),
        _ => false,
    })
}

/// Those of the workspace `files` a scope of which may take in another module's
/// public import unseen (`may_glob_import`): read again for a touched file, and
/// for another once a macro's definition was edited since it was read (`known`,
/// with how many edits the log had taken then).
fn files_that_may_glob(
    sema: &Semantics<'_, RootDatabase>,
    log: &EditLog,
    files: &[FileId],
    macros_edited_since: &dyn Fn(u64) -> bool,
    known: &mut FxHashMap<FileId, (bool, u64)>,
) -> Vec<FileId> {
    let read = |file: FileId| may_glob_import(sema, sema.parse(sema.attach_first_edition(file)).syntax());
    let globbing = |&file: &FileId| {
        if log.touched.contains(&file) {
            return read(file);
        }
        match known.get(&file).filter(|&&(_, found_at)| !macros_edited_since(found_at)) {
            Some(&(globs, _)) => globs,
            None => known.entry(file).insert_entry((read(file), log.taken())).get().0,
        }
    };
    files.iter().copied().filter(globbing).collect()
}

/// Whether a scope of `file` (a workspace file's syntax) may take in what another
/// module's public import binds with no path of it naming the import: `file` may
/// import unseen (`may_import_unseen`), or a macro call anywhere in it (a
/// statement, an expression: a block may hold items) expands to an import that
/// may (`expansion_may_hold`).
fn may_glob_import(sema: &Semantics<'_, RootDatabase>, file: &SyntaxNode) -> bool {
    // A glob import, or an item under an attribute a macro may read.
    let importing = |node: &SyntaxNode| match node.kind() {
        SyntaxKind::USE_TREE => ast::UseTree::cast(node.clone()).is_some_and(|tree| tree.star_token().is_some()),
        SyntaxKind::ATTR => ast::Attr::cast(node.clone()).is_some_and(|attr| read_by_a_macro(&attr)),
        _ => false,
    };
    may_import_unseen(file, &|attr| read_by_a_macro_resolved(sema, attr))
        || file
            .descendants()
            .filter_map(ast::MacroCall::cast)
            .any(|call| expansion_may_hold(sema, &call, 0, &importing))
}

/// Whether `name_ref` is a path's first segment, which resolves in its module's
/// scope: not a later segment (`c::len`), nor after a leading `::`, nor in an
/// import (whose grouped paths go on from their prefix).
fn stands_alone(name_ref: &SyntaxNode) -> bool {
    let Some(segment) = name_ref.parent().and_then(ast::PathSegment::cast) else { return false };
    let first = segment.coloncolon_token().is_none() && segment.parent_path().qualifier().is_none();
    first && !name_ref.ancestors().any(|node| node.kind() == SyntaxKind::USE)
}

/// Where a spelling of a touched name counts, besides a path's (`naming`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Reading {
    patterns: Patterns,
    /// Whether a method call's name counts: one of the names is a member of an
    /// impl (`x.len()` may call it).
    method_calls: bool,
}

impl Reading {
    /// Paths and the lone identifier patterns `patterns` says.
    #[cfg(test)]
    fn paths(patterns: Patterns) -> Reading {
        Reading { patterns, method_calls: false }
    }
}

/// Whether a local binding before a path in its body counts as shadowing the
/// items of its name (`a_local_binding`): in a file's text it does; in a macro's
/// expansion the two may come from different hygiene contexts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Locals {
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
fn a_local_binding(name_ref: &SyntaxNode, name: &str) -> bool {
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
fn in_an_open_block(node: &SyntaxNode) -> bool {
    node.ancestors().filter_map(ast::StmtList::cast).any(|block| open(&block))
}

/// Whether `block` imports a glob, or holds a macro call where an item can be
/// (which may expand to an import).
fn open(block: &ast::StmtList) -> bool {
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
fn in_a_macros_input(token: &SyntaxToken, read: &dyn Fn(&ast::Attr) -> bool) -> bool {
    token.parent_ancestors().any(|node| node.kind() == SyntaxKind::TOKEN_TREE) || in_or_under_an_attribute(token, read)
}

/// Whether `token` is in an attribute, or in an item under one that `read` says
/// a macro reads.
fn in_or_under_an_attribute(token: &SyntaxToken, read: &dyn Fn(&ast::Attr) -> bool) -> bool {
    token.parent_ancestors().any(|node| {
        node.kind() == SyntaxKind::ATTR
            || ast::AnyHasAttrs::cast(node).is_some_and(|node| node.attrs().any(|attr| read(&attr)))
    })
}

/// Whether a macro may read the item under `attr`, told from its text: any
/// attribute but the inert ones (`is_inert`).
fn not_inert(attr: &ast::Attr) -> bool {
    !is_inert(attr)
}

/// Whether a macro may read the item under `attr` (`read_by_a_macro`), but for
/// a derive of the compiler's own derives only, which makes an impl that names
/// the item by its own name, in its own module, and its fields by theirs.
fn read_by_a_macro_resolved(sema: &Semantics<'_, RootDatabase>, attr: &ast::Attr) -> bool {
    read_by_a_macro(attr) && !builtin_derives_only(sema, attr)
}

/// Whether `token` is in an import, which may rename what it imports (`use … as`).
fn in_an_import(token: &SyntaxToken) -> bool {
    token.parent_ancestors().any(|node| matches!(node.kind(), SyntaxKind::USE | SyntaxKind::EXTERN_CRATE))
}

/// Whether the identifier `token` stands where a path to a free function can be
/// (`naming`), or, as `reading` says, where a method call names its method.
fn where_a_path_can_be(token: &SyntaxToken, reading: Reading, locals: Locals) -> bool {
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
