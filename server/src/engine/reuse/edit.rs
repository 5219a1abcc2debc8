//! Editing a loaded workspace while it is analyzed on another thread. Owns the
//! database handle that takes changes (file text goes in through `apply_change`,
//! which cancels analyses of older revisions) and lends the workspace to one
//! analysis at a time as a `Snapshot`. Knows nothing of LSP: paths and text in,
//! an `Analysis` or the reason there is none out.
//!
//! Why a lent workspace and not a clone per analysis: `analyze` takes a `Workspace`,
//! whose VFS and proc-macro client cannot be cloned. The live handle stays here;
//! the `Workspace` value travels to the analysis thread holding a clone of it (and
//! back holding a spare, unused database), so an edit never waits for more than the
//! cancelled analysis to unwind.
//!
//! The summaries of code outside the workspace (`summary_cache`) travel with the
//! lent workspace too: opened once per load (its key runs `rustc -vV` and its file
//! is read), then kept in memory, so an edit pays for neither. They stay valid for
//! the life of a `LiveWorkspace`: std and dependencies change only with a reload.

use std::path::{Path, PathBuf};
use std::time::Duration;

use base_db::salsa::Cancelled;
use ra_ap_ide_db::{base_db::SourceDatabase, ChangeWithProcMacros, RootDatabase};
use ra_ap_vfs::FileId;
use rustc_hash::FxHashMap;

use super::item_edits::EditLog;
use super::stored_analysis::Stored;
use super::stored_roots::StoredRoots;
use super::summary_cache::{self, SummaryCache};
use crate::engine::load::deferred_intrinsics::DeferredIntrinsics;
use crate::engine::proof::incremental::walks_executed;
use crate::engine::{analyze_watched, Analysis, AnalysisStore, CheckConfig, RootMemos, Unwatched, Watch, Workspace};

/// A loaded workspace that takes edits while an analysis may be running.
pub struct LiveWorkspace {
    /// The handle that takes changes. Salsa's `apply_change` waits until every clone
    /// of it (a running analysis) has unwound.
    db: RootDatabase,
    /// The workspace while no analysis holds it; its `db` is then a spare database.
    home: Option<Home>,
    files: FxHashMap<PathBuf, FileId>,
    /// Every file of the database, std's and the dependencies' too.
    all_files: std::sync::Arc<[FileId]>,
    root: PathBuf,
    /// std's intrinsics left out until an edit names one (moved out of the
    /// workspace, which may be lent when the edit comes).
    deferred_intrinsics: DeferredIntrinsics,
    /// The edits taken, with each file's text before, for the roots' outcomes to
    /// tell which edits they outlive (`item_edits`).
    edits: EditLog,
}

/// Why an edit was not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// The file is not part of the loaded workspace (a new file, or outside it):
    /// reloading the workspace picks it up.
    UnknownFile(PathBuf),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::UnknownFile(path) => write!(f, "{} is not a file of the loaded workspace", path.display()),
        }
    }
}

/// Why an analysis has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisFailure {
    /// A newer edit arrived: the answer would have been stale.
    Cancelled,
    /// The analysis panicked; the message and where. The workspace stays usable.
    Panicked(String),
}

/// What is lent to an analysis and comes back from it.
struct Home {
    ws: Workspace,
    summaries: Option<Summaries>,
    /// Each root's outcome in the last analyses, reused while it holds.
    outcomes: RootMemos,
}

/// The summaries of one cache directory, in memory.
struct Summaries {
    dir: PathBuf,
    /// The allowlist they were worked out under.
    allow: Vec<String>,
    cache: SummaryCache,
}

/// The workspace lent to one analysis, holding a clone of the live database.
pub struct Snapshot {
    home: Home,
    spare: RootDatabase,
}

/// The workspace coming back from an analysis, without its database clone.
pub struct Returned(Home);

impl LiveWorkspace {
    pub fn new(mut ws: Workspace) -> LiveWorkspace {
        let db = std::mem::replace(&mut ws.db, RootDatabase::new(None));
        let files = ws.vfs.iter().filter_map(|(id, path)| Some((path.as_path()?.to_path_buf().into(), id))).collect();
        let all_files = ws.vfs.iter().map(|(id, _)| id).collect();
        let root = ws.root.clone();
        let deferred_intrinsics = std::mem::take(&mut ws.deferred_intrinsics);
        LiveWorkspace {
            db,
            home: Some(Home { ws, summaries: None, outcomes: RootMemos::default() }),
            files,
            all_files,
            root,
            deferred_intrinsics,
            edits: EditLog::default(),
        }
    }

    /// The directory holding the workspace's Cargo.toml.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether `path` is a file the database knows (symlinks resolved).
    pub fn knows(&self, path: &Path) -> bool {
        self.file_id(path).is_some()
    }

    fn file_id(&self, path: &Path) -> Option<FileId> {
        if let Some(&id) = self.files.get(path) {
            return Some(id);
        }
        let canonical = std::fs::canonicalize(path).ok()?;
        self.files.get(&canonical).copied()
    }

    /// The text the database holds for `path`.
    pub fn file_text(&self, path: &Path) -> Option<String> {
        let id = self.file_id(path)?;
        Some(self.db.file_text(id).text(&self.db).to_string())
    }

    /// Replaces the text of one file. Cancels a running analysis and waits for it to
    /// unwind (salsa's `apply_change`). Returns whether the text changed: text equal
    /// to what the database holds changes nothing and cancels nothing.
    pub fn set_file_text(&mut self, path: &Path, text: &str) -> Result<bool, EditError> {
        let id = self.file_id(path).ok_or_else(|| EditError::UnknownFile(path.to_path_buf()))?;
        let text = if text.contains("\r\n") { text.replace("\r\n", "\n") } else { text.to_owned() };
        if **self.db.file_text(id).text(&self.db) == *text {
            return Ok(false);
        }
        if self.deferred_intrinsics.needed_after_edit(&self.db, id, path, &text) {
            self.deferred_intrinsics.restore(&mut self.db);
            self.edits.took_unreadable();
        }
        self.edits.took(id, self.db.file_text(id).text(&self.db).clone());
        let mut change = ChangeWithProcMacros::default();
        change.change_file(id, Some(text));
        let waited = self.db.apply_change(change);
        if waited > Duration::from_millis(50) {
            tracing::debug!("waited {waited:?} for a cancelled analysis to unwind");
        }
        Ok(true)
    }

    /// Lends the workspace to an analysis; `None` while another analysis holds it.
    pub fn snapshot(&mut self) -> Option<Snapshot> {
        let mut home = self.home.take()?;
        home.outcomes.see_edits(self.edits.clone(), self.all_files.clone());
        let spare = std::mem::replace(&mut home.ws.db, self.db.clone());
        Some(Snapshot { home, spare })
    }

    /// Takes the workspace back after an analysis.
    pub fn give_back(&mut self, returned: Returned) {
        debug_assert!(self.home.is_none(), "two workspaces came home");
        self.home = Some(returned.0);
    }

    /// The live database, to read (tests, tools); changes go through `set_file_text`.
    pub fn database(&self) -> &RootDatabase {
        &self.db
    }

    /// How many of std's intrinsic files are left out now (`deferred_intrinsics`).
    pub fn deferred_intrinsic_files(&self) -> usize {
        self.deferred_intrinsics.deferred_files()
    }

    /// Drops the syntax trees past rust-analyzer's own LRU limits (128 parsed
    /// files, 512 macro expansions); nothing while an analysis holds the
    /// workspace (salsa evicts only with every other handle on the database gone).
    /// salsa evicts them only when a new revision starts, so until the first edit
    /// the files name resolution parsed (all of std's, and its item macros'
    /// expansions) would stay. The server calls this once the first analysis of a
    /// load is over: that analysis reads again many of those files (the bodies it
    /// walks, the import maps that name std's functions), and parsing them again
    /// cost it 0.3–0.4 s (ARCHITECTURE.md, Decisions).
    pub fn drop_syntax(&mut self) {
        if self.home.is_some() {
            salsa::Database::trigger_lru_eviction(&mut self.db);
        }
    }

    /// Whether an analysis holds the workspace.
    pub fn is_lent(&self) -> bool {
        self.home.is_none()
    }

    /// Analyzes on this thread (tests, benchmarks, the first analysis): lends and
    /// takes back the workspace around `analyze`.
    pub fn analyze_here(&mut self, config: &CheckConfig) -> Option<Result<Analysis, AnalysisFailure>> {
        let mut snapshot = self.snapshot()?;
        let result = snapshot.analyze(config);
        self.give_back(snapshot.release());
        Some(result)
    }
}

impl Snapshot {
    /// Runs the analysis, catching salsa's cancellation and any panic. With a
    /// `cache_dir`, uses the summaries kept in memory since the first analysis of
    /// this load (reopened only when the directory setting or the allowlist changes).
    pub fn analyze(&mut self, config: &CheckConfig) -> Result<Analysis, AnalysisFailure> {
        self.analyze_watched(config, &mut Unwatched)
    }

    /// `analyze`, telling `watch` how it goes (`engine::Watch`): the answer for its
    /// files as soon as it is complete, and each root judged.
    pub fn analyze_watched(
        &mut self,
        config: &CheckConfig,
        watch: &mut dyn Watch,
    ) -> Result<Analysis, AnalysisFailure> {
        let Home { ws, summaries, outcomes } = &mut self.home;
        let run = std::panic::AssertUnwindSafe(|| {
            crate::engine::panics::inject_analysis_panic_for_tests();
            let Some(dir) = &config.cache_dir else {
                return analyze_watched(ws, config, None, Some(outcomes), watch);
            };
            let allow = summary_cache::verdict_settings_material(config);
            if summaries.as_ref().is_none_or(|s| s.dir != *dir || s.allow != allow) {
                let material = summary_cache::key_material_for(ws, config);
                let material: Vec<&str> = material.iter().map(String::as_str).collect();
                *summaries = Some(Summaries { dir: dir.clone(), allow, cache: SummaryCache::open(dir, &material) });
            }
            let cache = &mut summaries.as_mut().expect("opened above").cache;
            cache.hits = 0;
            analyze_watched(ws, config, Some(cache), Some(outcomes), watch)
        });
        let before = walks_executed();
        match std::panic::catch_unwind(run) {
            Ok(analysis) => {
                tracing::info!(
                    "{} of {} walks re-run, the rest reused from the database; {} of {} roots' outcomes reused ({} without asking their walks)",
                    walks_executed() - before,
                    analysis.timings.bodies_walked,
                    analysis.timings.roots_reused,
                    analysis.roots.len(),
                    analysis.timings.roots_reused_unasked
                );
                Ok(analysis)
            }
            Err(payload) => Err(match payload.downcast::<Cancelled>() {
                Ok(_) => AnalysisFailure::Cancelled,
                Err(payload) => AnalysisFailure::Panicked(crate::engine::panics::message_of(&*payload)),
            }),
        }
    }

    /// Resolves the names an analysis reads, on `config.jobs` threads, as an
    /// analysis would first. Whether it finished: an edit cancels it, and the
    /// analysis then resolves them.
    pub fn resolve_names(&self, config: &CheckConfig) -> bool {
        self.unless_cancelled(|ws| {
            hir::attach_db(&ws.db, || crate::engine::load::parallel_names::resolve_once(ws, config.jobs))
        })
        .is_some()
    }

    /// Where the analysis of exactly what this snapshot holds (files, settings) is
    /// stored between runs (`stored_analysis`), with its fingerprint worked out;
    /// `None` without a cache directory, or when an edit cancelled the hashing.
    pub fn analysis_store(&self, config: &CheckConfig) -> Option<AnalysisStore> {
        self.unless_cancelled(|ws| AnalysisStore::open(ws, config)).flatten()
    }

    /// What `store` holds for what this snapshot holds (`AnalysisStore::load`);
    /// `None` too when an edit cancelled the reading.
    pub fn stored_analysis(&self, store: &AnalysisStore) -> Option<Stored> {
        self.unless_cancelled(|ws| store.load(ws)).flatten()
    }

    /// The analysis with the roots' outcomes in `standing` reused and the other
    /// roots checked (`analyze_reusing_stored`): what the language server
    /// publishes while its first analysis confirms it. `None` when an edit
    /// cancelled it.
    pub fn analyze_reusing_stored(&self, config: &CheckConfig, standing: StoredRoots) -> Option<Analysis> {
        self.unless_cancelled(|ws| crate::engine::analyze_reusing_stored(ws, config, None, standing, &mut Unwatched))
    }

    /// Keeps `analysis` of this snapshot in `store` (`AnalysisStore::store`).
    pub fn store_analysis(&self, store: &AnalysisStore, analysis: &Analysis) -> std::io::Result<()> {
        self.unless_cancelled(|ws| store.store(ws, analysis))
            .unwrap_or_else(|| Err(std::io::Error::other("an edit cancelled it")))
    }

    /// What `work` gives on this snapshot's workspace; `None` when an edit cancelled
    /// it (salsa unwinds the queries of a snapshot a change waits for).
    fn unless_cancelled<T>(&self, work: impl FnOnce(&Workspace) -> T) -> Option<T> {
        let ws = &self.home.ws;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(ws))).ok()
    }

    /// Drops the database clone (letting a waiting edit go on) and returns the
    /// workspace to hand back to its `LiveWorkspace`.
    pub fn release(self) -> Returned {
        let Snapshot { mut home, spare } = self;
        drop(std::mem::replace(&mut home.ws.db, spare));
        Returned(home)
    }
}
