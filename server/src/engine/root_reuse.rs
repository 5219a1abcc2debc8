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
//! is not among them, only the walks of bodies that name it see it), every walk
//! its reach read still the same execution (salsa verifies their reads), and the
//! text of every file holding its workspace code unchanged (findings carry lines).
//! Generic roots checked at the instantiations the workspace makes are never
//! reused: any body may add one. Knows nothing of how outcomes are made
//! (`analysis`).

use triomphe::Arc;

use hir_def::{FunctionId, Lookup};
use hir_ty::db::HirDatabase;
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

use super::{Finding, Location, RootReport, incremental::WalkStamp};

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
pub(crate) type FindingKey = (Location, String, Vec<String>);

/// What a root is: its function, the arguments its pattern gives, where it is.
pub(crate) type RootKey = (FunctionId, Vec<String>, Location);

struct Memo {
    walks: Vec<WalkStamp>,
    files: Vec<(FileId, Arc<str>)>,
    outcome: RootOutcome,
}

/// The outcomes of the last analysis, with what they were made under.
#[derive(Default)]
pub struct RootMemos {
    /// Settings, directives and item level of the analysis that made them.
    context: Option<String>,
    memos: FxHashMap<RootKey, Memo>,
}

impl RootMemos {
    /// Starts an analysis made under `context`: outcomes made under another are
    /// dropped.
    pub(crate) fn begin(&mut self, context: String) {
        if self.context.as_ref() != Some(&context) {
            self.memos.clear();
            self.context = Some(context);
        }
    }

    /// The outcome of `root` from the last analysis, if it still holds.
    pub(crate) fn reusable(&self, db: &dyn HirDatabase, root: &RootKey) -> Option<&RootOutcome> {
        let memo = self.memos.get(root)?;
        let files_same = memo.files.iter().all(|(file, text)| Arc::ptr_eq(db.file_text(*file).text(db), text));
        (files_same && memo.walks.iter().all(|&stamp| super::incremental::walk_unchanged(db, stamp))).then_some(&memo.outcome)
    }

    /// Keeps `outcome` of `root`, made of `walks` and of the workspace code of
    /// `holders` (and the root itself).
    pub(crate) fn keep(
        &mut self,
        db: &dyn HirDatabase,
        root: RootKey,
        walks: Vec<WalkStamp>,
        holders: &FxHashSet<FunctionId>,
        outcome: RootOutcome,
    ) {
        let files: FxHashSet<FileId> =
            holders.iter().chain([&root.0]).map(|func| func.lookup(db).id.file_id.original_file(db).file_id(db)).collect();
        let files = files.into_iter().map(|file| (file, db.file_text(file).text(db).clone())).collect();
        self.memos.insert(root, Memo { walks, files, outcome });
    }
}
