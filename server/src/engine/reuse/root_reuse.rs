//! Reusing a root's whole outcome from the last analysis of a live workspace: its
//! report, the findings it makes, the exemptions it lets through, the allowlist
//! entries it uses and the functions it checks. After a body edit most roots reach
//! nothing the edit touched, and building, judging and naming their reaches again
//! was most of the analysis.
//!
//! An outcome is reused only while everything it was made of holds: the same
//! settings, directives and item level (`incremental::items_generation`: impls,
//! traits, types and what each name resolves to, where `dyn` targets and the
//! values a root's parameters may hold come from; a free function added or removed
//! is not among them, only the walks of bodies that name it see it; a type, a
//! const, a static, an inherent impl's method or an import's binding under a
//! name only plain bodies spell is seen by their walks only, as `item_edits`
//! proves; a trait's impl for a type or of a trait under such a name, by the
//! roots that hold a value of the type, spell a member of the trait or look
//! through every impl of a trait, which are judged again), the traits in scope (which may change only by a trait defined under
//! such a name, or by private imports outside the modules of the root's code),
//! the macros in scope (which may change only by imports binding macros under
//! such names, and then with no derive touched: `item_edits` found it the
//! compiler's own under the macros of now), every walk
//! its reach read still the same execution (salsa verifies their reads), and the
//! text of every file holding its workspace code (functions, and the initialisers
//! of statics and consts it reads) unchanged (findings and chains carry lines).
//! A root whose reach resolved nothing outside its walks (no `dyn` call,
//! fn-pointer call or `dyn` drop, no look through every impl) reads the item
//! level and the traits and macros in scope only through its walks: after any
//! edit that removes or renames no module, its walks tell. After edits of trait
//! impls only (`item_edits::only_trait_impls_changed`: no type, signature,
//! trait, name or scope changed), one that resolved `dyn` calls or drops
//! against the types its walks coerce, and looked through no impl of its own
//! accord, read outside its walks only the answers it resolved them with
//! (`ReachFacts::answers`): its walks and those answers, asked again, tell.
//! Generic roots checked at the instantiations the workspace makes are never
//! reused: any body may add one. Knows nothing of how outcomes are made
//! (`analysis`).
//!
//! The walks are not asked at all when the edits since the outcome was last found
//! holding touched only plain items that no other code names (but the bodies
//! of plain functions in files that hold none of the root's workspace code), nor
//! any procedural macro's expansion in the root's workspace code (`item_edits`):
//! asking would have salsa infer again every workspace body they read, only to
//! find each the same, since an item added or removed changes its crate's def
//! map.

use triomphe::Arc;

use hir::Semantics;
use hir_def::{DefWithBodyId, FunctionId, ModuleId};
use hir_expand::MacroCallId;
use hir_ty::db::HirDatabase;
use ra_ap_ide_db::RootDatabase;
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

use super::item_edits::{self, EditLog};
use crate::engine::proof::incremental::{AnswerStamp, WalkStamp};
use crate::engine::{CheckConfig, ExemptionReport, Finding, Location, RootReport};

/// What outcomes are made under: the settings and the workspace's directives. An
/// outcome made under another is not reused.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct ReuseContext {
    pub config: CheckConfig,
    /// Each exemption as written (nothing let through yet), with its function.
    pub exemptions: Vec<(ExemptionReport, Option<FunctionId>)>,
    /// (file, 1-based line) -> index into `exemptions`, sorted.
    pub exempt_lines: Vec<((std::path::PathBuf, u32), usize)>,
    /// The types marked `noalloc:fixed` and the functions marked `noalloc:append`, sorted.
    pub fixed_types: Vec<hir_def::AdtId>,
    pub append_fns: Vec<FunctionId>,
}

/// What one root adds to an analysis.
pub(crate) struct RootOutcome {
    pub report: RootReport,
    /// Its findings, keyed as the analysis merges them, each naming this root only.
    pub findings: Vec<(FindingKey, Finding)>,
    /// The workspace functions whose lines it reports.
    pub reached: Vec<FunctionId>,
    /// (exemption index, what it lets through).
    pub lets_through: Vec<(usize, String)>,
    /// Allowlist entries it uses.
    pub used_allow: Vec<usize>,
    /// Foreign functions and intrinsics on the allowlist it calls.
    pub allowed_terminals: Vec<FunctionId>,
    /// The instances it checks (`incremental::instance_number`).
    pub checked: Vec<salsa::Id>,
}

/// How an analysis merges findings: one per place, function and reasons.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct FindingKey {
    pub location: Location,
    /// The workspace function that holds the line, as findings name it.
    pub function: String,
    pub reasons: Vec<String>,
}

impl FindingKey {
    pub(crate) fn new(location: Location, function: String, reasons: Vec<String>) -> FindingKey {
        FindingKey { location, function, reasons }
    }
}

/// What a root is: its function, the arguments its pattern gives, where it is.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct RootKey {
    pub func: FunctionId,
    /// The generic arguments its `--root` pattern gives, as written.
    pub args: Vec<String>,
    pub location: Location,
}

impl RootKey {
    pub(crate) fn new(func: FunctionId, args: Vec<String>, location: Location) -> RootKey {
        RootKey { func, args, location }
    }
}

struct Memo {
    walks: Vec<WalkStamp>,
    files: Vec<(FileId, Arc<str>)>,
    outcome: RootOutcome,
    /// How many edits the database had taken when the outcome was last found to
    /// hold (`EditLog::taken`), and the item level then
    /// (`incremental::items_generation`).
    seen: u64,
    items: u64,
    /// The traits and the macros in scope then (`incremental::scope_generations`),
    /// and the modules (`RootMemos::modules`).
    traits: u64,
    macros: u64,
    modules: u64,
    /// The calls of procedural macros that made some of the root's workspace code.
    procedural: Vec<MacroCallId>,
    /// Whether its reach looked through every impl of a trait in the crate graph
    /// (`ReachFacts::sees_every_impl`).
    sees_every_impl: bool,
    /// Whether its reaches resolved nothing outside their walks (`ReachFacts::closed`).
    closed: bool,
    /// What they resolved outside them (`ReachFacts::answers`).
    answers: Option<Vec<AnswerStamp>>,
}

/// What a root's reaches read beyond their walks, for `RootMemos::keep`.
pub(crate) struct ReachFacts {
    /// Whether a reach took a `dyn` value from outside (whose targets are
    /// every impl of its trait in the crate graph), or walked a body at
    /// arguments holding a type parameter (where a provided method's callees are
    /// every impl whose header may apply): a trait impl added or removed
    /// anywhere may change its outcome.
    pub sees_every_impl: bool,
    /// Whether the reaches resolved nothing outside their walks: no `dyn` call,
    /// fn-pointer call or `dyn` drop (whose targets the reach finds among the
    /// program's impls), and no look through every impl.
    pub closed: bool,
    /// The answers the reaches' open calls were resolved with (`dyn` targets at
    /// the types coerced, whether those need drop glue: `resolve::Program`),
    /// stamped; `None` when a type they looked into was normalised through the
    /// impls (`resolve::Outside::normalized`), which no stamp records.
    pub answers: Option<Vec<AnswerStamp>>,
}

/// The outcomes of the last analysis, with what they were made under.
#[derive(Default)]
pub struct RootMemos {
    /// Settings and directives of the analysis that made them.
    context: Option<ReuseContext>,
    /// The item level of this analysis, the traits and the macros in scope.
    items: u64,
    traits: u64,
    macros: u64,
    /// How many times a module was gone from the def maps an analysis saw, since
    /// the one before (`incremental::workspace_modules`), and the modules of the
    /// last: while this number stands, every function an outcome kept is still
    /// there to be asked about.
    modules: u64,
    live_modules: FxHashSet<ModuleId>,
    memos: FxHashMap<RootKey, Memo>,
    /// The edits the database of this analysis took, and every file it holds.
    edits: EditLog,
    files: std::sync::Arc<[FileId]>,
    /// The names the edits after a number of them touched, when they leave alone
    /// every body outside the files they touched that no procedural macro's
    /// expansion spelling one of them made (`item_edits::touched_names_unspelled`),
    /// worked out once per analysis.
    proofs: FxHashMap<u64, Option<item_edits::TouchedNames>>,
    /// Per number of edits seen, whether the edits since changed only trait
    /// impls (`item_edits::only_trait_impls_changed`), worked out once per analysis.
    impl_edits: FxHashMap<u64, bool>,
    /// Whether a procedural macro's expansion spells one of those names.
    expansions_spelling: FxHashMap<(u64, MacroCallId), bool>,
    /// The names the files no edit touched spell, kept across analyses.
    untouched: item_edits::UntouchedFiles,
}

impl RootMemos {
    /// Starts an analysis made under `context`, at the item level `items`, with
    /// `traits` and `macros` in scope and `modules` in the def maps: outcomes made
    /// under another context are dropped. One made at another item level is
    /// reused only when the edits since touched nothing but items under names no
    /// other code spells, or its reach resolved nothing outside its walks
    /// (`reusable`).
    pub(crate) fn begin(
        &mut self,
        context: ReuseContext,
        items: u64,
        [macros, traits]: [u64; 2],
        modules: Vec<ModuleId>,
    ) {
        if self.context.as_ref() != Some(&context) {
            self.memos.clear();
            self.untouched.forget_names();
            self.context = Some(context);
        }
        if self.macros != macros {
            // What a macro call in a file no edit touched expands to may differ.
            self.untouched.forget_names_read_through_macros();
        }
        if self.items != items {
            // What a path's qualifier there resolves to may differ.
            self.untouched.forget_names_read_through_paths();
        }
        let modules: FxHashSet<ModuleId> = modules.into_iter().collect();
        if !self.live_modules.is_subset(&modules) {
            self.modules += 1;
        }
        self.live_modules = modules;
        self.items = items;
        self.traits = traits;
        self.macros = macros;
    }

    /// Tells the memos the edits the database of the next analysis has taken, and
    /// every file it holds.
    pub(crate) fn see_edits(&mut self, edits: EditLog, files: std::sync::Arc<[FileId]>) {
        self.edits = edits;
        self.files = files;
        self.proofs.clear();
        self.impl_edits.clear();
        self.expansions_spelling.clear();
    }

    /// The outcome of `root` from the last analysis, if it still holds, and whether
    /// that was known without asking its walks.
    pub(crate) fn reusable(&mut self, root_db: &RootDatabase, root: &RootKey) -> Option<(&RootOutcome, bool)> {
        let db: &dyn HirDatabase = root_db;
        let RootMemos {
            memos,
            edits,
            files,
            proofs,
            impl_edits,
            expansions_spelling,
            untouched,
            items,
            traits,
            macros,
            modules,
            ..
        } = self;
        let memo = memos.get_mut(root)?;
        let files_same = memo.files.iter().all(|(file, text)| Arc::ptr_eq(db.file_text(*file).text(db), text));
        if !files_same {
            return None;
        }
        let now = edits.taken();
        let level_changed = memo.items != *items;
        let names = (memo.seen != now).then(|| {
            proofs.entry(memo.seen).or_insert_with(|| {
                let started = std::time::Instant::now();
                let names =
                    item_edits::touched_names_unspelled(&Semantics::new(root_db), edits, memo.seen, files, untouched);
                tracing::debug!(
                    "edits {}..={}: other bodies untouched: {} ({:?})",
                    memo.seen + 1,
                    now,
                    names.is_some(),
                    started.elapsed()
                );
                names
            })
        });
        // The edits touched only items whose names no code spells but the plain
        // bodies `names` tells of, nor any procedural macro's expansion that made
        // some of the root's code. Under other macros in scope (a glob import
        // brought one, under a name spelled nowhere else), a derive was found to
        // be the compiler's own under the macros of now only.
        let macros_changed = memo.macros != *macros;
        let proven = names
            .and_then(|names| names.as_ref())
            .filter(|names| !(macros_changed && names.touches_derives()))
            .filter(|names| {
                memo.procedural.iter().all(|&call| {
                    !*expansions_spelling
                        .entry((memo.seen, call))
                        .or_insert_with(|| names.spelled_in(&item_edits::expansion_text(db, call)))
                })
            });
        // A trait brought into a module's scope may take over a method call that
        // spells only the method; the edits may have done so only by defining
        // one, whose impls are for types under the touched names, or by private
        // imports, in the modules under theirs only.
        let memo_files = || memo.files.iter().map(|&(file, _)| file);
        // A reach that resolved nothing outside its walks reads the item level
        // and the traits in scope through its walks only, which salsa confirms
        // (inferring the bodies again); the names its findings give and its
        // allowlist entries match are its functions', whose identities change
        // with them (rust-analyzer's item ids hold the item's name). Its walks
        // are asked only while no module was dropped since (one added is no
        // matter): one dropped takes the identities of its functions along, and
        // asking about them then is asking about what no longer exists.
        let closed = memo.closed && memo.modules == *modules;
        let traits_changed =
            memo.traits != *traits && proven.is_none_or(|names| names.may_change_traits_in(memo_files()));
        if traits_changed && !closed {
            return None;
        }
        // A trait's impl answers goals about its type only where a value of it
        // is, so in the bodies that name it; but a `dyn` target is resolved
        // outside the walks, and a reach that looked through every impl of a
        // trait may find the new one with no name spelled.
        let impls = proven.is_some_and(item_edits::TouchedNames::touches_trait_impls);
        let untouched = !traits_changed
            && proven.is_some_and(|names| !memo_files().any(|file| names.named_in_bodies_of(file)))
            && !(impls && memo.sees_every_impl);
        // Another item level may have changed what resolves outside the walks
        // (`dyn` targets, methods picked), unless the edits are proven to have
        // changed only what the walks of those bodies read, or nothing resolved
        // outside them.
        // Or only trait impls changed since (no type, signature, trait, name or
        // scope): then a reach that looked through no impl of its own accord
        // resolved outside its walks only what its stamped answers tell (`dyn`
        // targets at the types its walks coerce, their drop glue), which are
        // asked again.
        let walks_alone_tell = !level_changed || (proven.is_some() && !impls) || closed;
        let asks_answers = !untouched
            && !walks_alone_tell
            && !memo.sees_every_impl
            && memo.answers.is_some()
            && memo.modules == *modules
            && memo.traits == *traits
            && memo.macros == *macros
            && *impl_edits
                .entry(memo.seen)
                .or_insert_with(|| item_edits::only_trait_impls_changed(root_db, edits, memo.seen));
        let walks_tell = walks_alone_tell || asks_answers;
        let answers_same = || {
            !asks_answers
                || memo
                    .answers
                    .iter()
                    .flatten()
                    .all(|&stamp| crate::engine::proof::incremental::answer_unchanged(db, stamp))
        };
        if !untouched
            && !(walks_tell
                && memo.walks.iter().all(|&stamp| crate::engine::proof::incremental::walk_unchanged(db, stamp))
                && answers_same())
        {
            return None;
        }
        memo.seen = now;
        memo.items = *items;
        memo.traits = *traits;
        memo.macros = *macros;
        memo.modules = *modules;
        Some((&memo.outcome, untouched))
    }

    /// Keeps `outcome` of `root`, made of `walks` and of the workspace `bodies` its
    /// reach walked (functions, and statics' and consts' initialisers), and the
    /// root's own.
    pub(crate) fn keep(
        &mut self,
        db: &dyn HirDatabase,
        root: RootKey,
        walks: Vec<WalkStamp>,
        bodies: &FxHashSet<DefWithBodyId>,
        facts: ReachFacts,
        outcome: RootOutcome,
    ) {
        let bodies = || bodies.iter().copied().chain([DefWithBodyId::FunctionId(root.func)]);
        let files: FxHashSet<FileId> =
            bodies().map(|body| item_edits::body_file(db, body).original_file(db).file_id(db)).collect();
        let files = files.into_iter().map(|file| (file, db.file_text(file).text(db).clone())).collect();
        let mut procedural = FxHashSet::default();
        bodies().for_each(|body| item_edits::procedural_expansions(db, body, &mut procedural));
        let procedural = procedural.into_iter().collect();
        let seen = self.edits.taken();
        let ReachFacts { sees_every_impl, closed, answers } = facts;
        let (items, traits, macros, modules) = (self.items, self.traits, self.macros, self.modules);
        self.memos.insert(
            root,
            Memo {
                walks,
                files,
                outcome,
                seen,
                items,
                traits,
                macros,
                modules,
                procedural,
                sees_every_impl,
                closed,
                answers,
            },
        );
    }
}
