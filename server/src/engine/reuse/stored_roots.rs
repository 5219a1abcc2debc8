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
use std::path::PathBuf;

use hir::db::HirDatabase;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::edit_digest::{BodyChange, LineColumn, Relocation};
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
    fn relocate(&mut self, relocations: &FxHashMap<PathBuf, Relocation>) {
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

    /// Whether its outcome read any of the plain bodies in `changed`, by file.
    fn read_any(&self, changed: &[(PathBuf, BodyChange)]) -> bool {
        self.walked.iter().any(|walked| {
            let (start, end) = ((walked.line, walked.column), (walked.end_line, walked.end_column));
            changed.iter().any(|(file, body)| *file == walked.file && body.start < end && start < body.end)
        })
    }
}

/// The stored outcomes an edit leaves standing, by root, for one run to take.
#[derive(Debug, Default)]
pub struct StoredRoots {
    standing: FxHashMap<(Location, Vec<String>), StoredRoot>,
    /// Roots the stored analysis holds.
    pub(crate) stored: usize,
    /// The files whose edits changed bodies some root read.
    pub(crate) edited_files: usize,
    /// The changed bodies whose macro calls changed, by file and where they start
    /// in today's text: they must make no items there for any outcome to stand
    /// (`confirm`).
    unconfirmed: Vec<(PathBuf, LineColumn)>,
}

impl StoredRoots {
    /// The outcomes of `stored` that read none of `changed`, their places moved
    /// to where the edits of each file in `relocations` put them.
    pub(crate) fn standing_after(
        stored: Vec<StoredRoot>,
        changed: &[(PathBuf, BodyChange)],
        relocations: Vec<(PathBuf, Relocation)>,
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
        // Where each such body starts now: bodies before it may have grown.
        let unconfirmed = changed
            .iter()
            .filter(|(_, body)| body.macros_changed)
            .map(|(file, body)| {
                let start = relocations.get(file).map_or(body.start, |relocation| relocation.position(body.start));
                (file.clone(), start)
            })
            .collect();
        StoredRoots { stored: total, standing, edited_files, unconfirmed }
    }

    /// Asks `any_makes_items` of the changed bodies whose macro calls changed (by
    /// file, and where each starts today); if one may make items (an impl
    /// anywhere counts for every root), no outcome stands. Names must be resolved.
    pub(crate) fn confirm(&mut self, any_makes_items: impl FnOnce(&[(PathBuf, LineColumn)]) -> bool) {
        let unconfirmed = std::mem::take(&mut self.unconfirmed);
        if !unconfirmed.is_empty() && any_makes_items(&unconfirmed) {
            tracing::debug!("an edited body makes items: every root is checked");
            self.standing.clear();
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::edit_digest::FileDigest;
    use ra_ap_syntax::{Edition, SourceFile};

    /// A body whose macro calls changed is asked about where it starts in today's
    /// text, below a body that grew: asked at its old place, another function (or
    /// none) would answer for it.
    #[test]
    fn a_changed_body_is_confirmed_where_it_starts_today() {
        let digest = |text: &str| FileDigest::of(&SourceFile::parse(text, Edition::CURRENT), text, &[]).unwrap();
        let mut then = digest("fn a() { 1 }\nfn b() { m!(1) }\n");
        then.mark_walked((2, 1), (2, u32::MAX));
        let (changed, relocation) = then.changed_bodies(&digest("fn a() {\n    1\n}\nfn b() { m!(2) }\n")).unwrap();
        let file = PathBuf::from("lib.rs");
        let changed: Vec<_> = changed.into_iter().map(|body| (file.clone(), body)).collect();
        let mut roots = StoredRoots::standing_after(Vec::new(), &changed, vec![(file.clone(), relocation)]);
        let mut asked = Vec::new();
        roots.confirm(|bodies| {
            asked = bodies.to_vec();
            false
        });
        assert_eq!(asked, vec![(file, (4, 8))]);
    }
}
