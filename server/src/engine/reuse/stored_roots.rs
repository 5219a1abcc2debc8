//! Roots' outcomes kept with the stored analysis (`stored_analysis`), for a check
//! after edits of bodies some roots' reaches walked: a root whose reach walked
//! none of the changed bodies keeps the outcome the stored analysis found, its
//! places moved where the edits moved them, and only the others are checked
//! again. Owns what is kept of one root and which of them an edit leaves
//! standing; the run applies them (`analysis::run`).
//!
//! Why a kept outcome still holds. The edits qualify only when everything but the
//! texts of the workspace's editable files is as it was (the stored analysis's
//! fingerprint around them), and each edited file keeps its skeleton
//! (`edit_digest`: the item level and every directive, each token placed from the
//! plain body before it), and each changed body its items, macro calls and
//! attributes, or, walked and found with no items, none in today's expansion
//! (`StoredRoots::confirm`): what changed is the text of plain function bodies.
//! Of the workspace's files a root's outcome reads the skeleton and the bodies
//! its reach walked, with the bodies that can name a static whose one-time setup
//! it looked into (`run::workspace_functions_of`, per root); the targets of its
//! `dyn` calls and fn pointers come from the program its own reach makes
//! (`resolve`), and what comes from outside from the item level. So an edit of
//! other bodies changes nothing it read. A root whose reach holds a closure in
//! an anonymous constant (in any body), or one checked at the instantiations the
//! workspace's bodies make (any body may add one), is not kept: it is checked
//! again whatever the edit.
//!
//! The instances each root checked are kept as stable hashes of their identities
//! (`identity::instance_identity`, or the name for an instance with none), so that
//! "functions checked" counts instances across kept and new outcomes alike.

use std::hash::BuildHasher;

use hir::db::HirDatabase;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::edit_digest::{LineColumn, Relocation};
use super::root_reuse::FindingKey;
use crate::engine::proof::walk::Node;
use crate::engine::{Finding, Location, RootReport};

/// What one root added to a stored analysis, in terms that outlive the run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredRoot {
    /// The generic arguments its `--root` pattern gives, as written.
    pub(crate) args: Vec<String>,
    pub(crate) report: RootReport,
    /// Its findings, keyed as the analysis merges them, each naming this root only.
    pub(crate) findings: Vec<(FindingKey, Finding)>,
    /// The workspace functions whose lines it reports, by their places.
    pub(crate) reached: Vec<Location>,
    /// (exemption index, what it lets through).
    pub(crate) lets_through: Vec<(usize, String)>,
    /// Allowlist entries it uses.
    pub(crate) used_allow: Vec<usize>,
    /// The instances it checked (`stable_instance_hash`).
    pub(crate) checked: Vec<u64>,
    /// The workspace functions whose bodies its outcome read, by their places,
    /// and those of them whose bodies hold items (`edit_digest::BodyDigest`).
    pub(crate) walked: Vec<Location>,
    pub(crate) walked_making_items: Vec<Location>,
}

impl StoredRoot {
    /// Every place it names, moved as the edits moved its file's places.
    fn relocate(&mut self, relocations: &FxHashMap<std::path::PathBuf, Relocation>) {
        let relocate = |place: &mut Location| {
            if let Some(relocation) = relocations.get(&place.file) {
                (place.line, place.column) = relocation.position((place.line, place.column));
                (place.end_line, place.end_column) = relocation.position((place.end_line, place.end_column));
            }
        };
        relocate(&mut self.report.location);
        for allowed in &mut self.report.allowed {
            relocate(&mut allowed.location);
            if let Some(room) = &mut allowed.room {
                relocate(&mut room.proven_at);
                if let Some((_, place)) = &mut room.each_pass {
                    relocate(place);
                }
            }
            if let Some(guard) = &mut allowed.guard {
                relocate(&mut guard.at);
            }
        }
        for (key, finding) in &mut self.findings {
            relocate(&mut key.location);
            relocate(&mut finding.location);
            for step in &mut finding.chain {
                if let Some(place) = &mut step.location {
                    relocate(place);
                }
            }
        }
        self.reached.iter_mut().chain(&mut self.walked).chain(&mut self.walked_making_items).for_each(relocate);
    }

    /// Whether its outcome read any of `changed`: (file, start, end) of plain bodies.
    fn read_any(&self, changed: &[ChangedBody]) -> bool {
        self.walked.iter().any(|walked| {
            let (start, end) = ((walked.line, walked.column), (walked.end_line, walked.end_column));
            changed.iter().any(|body| body.file == walked.file && body.start < end && start < body.end)
        })
    }
}

/// A plain body whose text an edit changed, where it was when the analysis was
/// stored, and whether its macro calls changed (`edit_digest::BodyChange`).
#[derive(Debug, Clone)]
pub(crate) struct ChangedBody {
    pub file: std::path::PathBuf,
    pub start: LineColumn,
    pub end: LineColumn,
    pub macros_changed: bool,
}

/// The stored outcomes an edit leaves standing, by root, for one run to take.
#[derive(Debug, Default)]
pub struct StoredRoots {
    standing: FxHashMap<(Location, Vec<String>), StoredRoot>,
    /// Roots the stored analysis holds.
    pub(crate) stored: usize,
    /// The files whose edits changed bodies some root read.
    pub(crate) edited_files: usize,
    /// The changed bodies whose macro calls changed, by file and start: they must
    /// make no items in today's text for any outcome to stand (`confirm`).
    unconfirmed: Vec<(std::path::PathBuf, LineColumn)>,
}

impl StoredRoots {
    /// The outcomes of `stored` that read none of `changed`, their places moved
    /// to where the edits of each file in `relocations` put them.
    pub(crate) fn standing_after(
        stored: Vec<StoredRoot>,
        changed: &[ChangedBody],
        relocations: Vec<(std::path::PathBuf, Relocation)>,
    ) -> StoredRoots {
        let total = stored.len();
        let edited_files = relocations.len();
        let relocations: FxHashMap<_, _> = relocations.into_iter().collect();
        let standing = stored
            .into_iter()
            .filter(|root| !root.read_any(changed))
            .map(|mut root| {
                root.relocate(&relocations);
                ((root.report.location.clone(), root.args.clone()), root)
            })
            .collect();
        let unconfirmed =
            changed.iter().filter(|body| body.macros_changed).map(|body| (body.file.clone(), body.start)).collect();
        StoredRoots { stored: total, standing, edited_files, unconfirmed }
    }

    /// Asks `makes_items` of each changed body whose macro calls changed (its
    /// file, and where it starts); if one may make items (an impl anywhere counts
    /// for every root), no outcome stands. Names must be resolved.
    pub(crate) fn confirm(&mut self, mut makes_items: impl FnMut(&std::path::Path, LineColumn) -> bool) {
        if self.unconfirmed.iter().any(|(file, start)| makes_items(file, *start)) {
            tracing::debug!("an edited body makes items: every root is checked");
            self.standing.clear();
        }
        self.unconfirmed.clear();
    }

    /// Whether an outcome stands for the root at `location` checked at `args`.
    pub(crate) fn holds(&self, location: &Location, args: &[String]) -> bool {
        self.standing.contains_key(&(location.clone(), args.to_vec()))
    }

    /// The standing outcome of the root at `location` checked at `args`, taken out.
    pub(crate) fn take(&mut self, location: &Location, args: &[String]) -> Option<StoredRoot> {
        self.standing.remove(&(location.clone(), args.to_vec()))
    }
}

/// A hash of what `node` is that is the same in every run of this build: its
/// instance identity (the summary cache's key), or for an instance with none
/// (closures, drop glue, instances at known constants) its name.
pub(crate) fn stable_instance_hash(db: &dyn HirDatabase, node: Node<'_>) -> u64 {
    match crate::engine::proof::incremental::instance_key(db, node) {
        Some(key) => key.stable_hash(),
        None => rustc_hash::FxBuildHasher.hash_one(crate::engine::proof::incremental::node_name(db, node)),
    }
}
