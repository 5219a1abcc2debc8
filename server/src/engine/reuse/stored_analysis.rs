//! Whole-check reuse: the analysis of a workspace none of whose inputs changed
//! since a run stored it, as cargo skips a crate whose fingerprint is fresh. The
//! fingerprint hashes everything the analysis reads: every file rust-analyzer
//! loaded (the workspace's, the dependencies', std's, generated ones), the crate
//! graph (editions, cfgs and environment that build scripts set, dependency
//! names), the toolchain, lock file, engine build and the check's settings. One
//! file per workspace and settings in the cache directory, replaced (atomically)
//! when the fingerprint changes; anything unreadable is a miss.
//!
//! An edit of the workspace's own files that changes nothing the analysis read (a
//! comment, a body no root's reach walks: `edit_digest`) also reuses it: the
//! fingerprint is made of one over everything but those files' texts, and one per
//! file, with the file's digest stored beside it. An edit of bodies some roots'
//! reaches walked, and of nothing else, leaves the other roots' outcomes standing
//! (`stored_roots`): only the roots that read the edit are checked again.

use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ra_ap_ide_db::base_db::{self, SourceDatabase};
use rustc_stable_hash::hashers::{SipHasher128Hash, StableSipHasher128};
use serde::{Deserialize, Serialize};

use super::{
    edit_digest::BodyChange,
    edit_digest::FileDigest,
    stored_roots::StoredRoots,
    summary_cache::{self, SummaryCache},
};
use crate::engine::{Analysis, CheckConfig, RootInstantiations, Workspace};

/// Bump when `Analysis` changes shape or meaning.
const FORMAT_VERSION: u32 = 4;

/// A 128-bit hash of everything an analysis depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint(pub [u64; 2]);

impl rustc_stable_hash::FromStableHash for Fingerprint {
    type Hash = SipHasher128Hash;
    fn from(SipHasher128Hash(hash): SipHasher128Hash) -> Fingerprint {
        Fingerprint(hash)
    }
}

/// The stored file: read as `StoredFile<Analysis>`, written from a borrowed
/// analysis, `StoredFile<&Analysis>`, which serializes the same.
#[derive(Serialize, Deserialize)]
struct StoredFile<A = Analysis> {
    version: u32,
    fingerprint: Fingerprint,
    /// Of everything but the texts of the editable files.
    around_edits: Fingerprint,
    editable: Vec<EditableFile>,
    analysis: A,
}

/// A workspace file whose edits may leave the analysis as it was: a `.rs` file of
/// the workspace's crates, none of them a proc-macro crate (whose bodies make
/// other crates' items).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct EditableFile {
    path: PathBuf,
    text: Fingerprint,
    /// `None` when it did not parse, or the analysis did not say what it walked.
    digest: Option<FileDigest>,
}

/// What is hashed of a workspace: its fingerprint and the parts it is made of.
struct Hashed {
    fingerprint: Fingerprint,
    around_edits: Fingerprint,
    /// The editable files, with their texts' hashes, by path.
    editable: Vec<(PathBuf, Fingerprint, ra_ap_vfs::FileId)>,
}

/// What the store holds for today's files.
pub enum Stored {
    /// The analysis: nothing it read changed.
    Whole(Analysis),
    /// The roots' outcomes that the edits since leave standing: the others read
    /// a body the edits changed, and are to be checked again.
    Partly(StoredRoots),
}

/// Where a workspace's analysis under some settings is kept, and the fingerprint
/// of what it reads today.
pub struct AnalysisStore {
    path: PathBuf,
    hashed: Hashed,
    /// What keys the summary cache (part of the fingerprint already: asking again
    /// would run `rustc -vV` again).
    summary_key: Vec<String>,
    /// How long working out the fingerprint took.
    pub fingerprint_ms: u128,
    /// Threads the digests are worked out on (`CheckConfig::jobs`).
    threads: usize,
}

impl AnalysisStore {
    /// The store of `ws` checked with `config`; `None` when the cache is off
    /// (`config.cache_dir` unset).
    pub fn open(ws: &Workspace, config: &CheckConfig) -> Option<AnalysisStore> {
        let dir = config.cache_dir.as_ref()?;
        let started = Instant::now();
        let summary_key = summary_cache::key_material_for(ws, config);
        let settings = settings_material(ws, config, &summary_key);
        let mut slot = StableSipHasher128::new();
        ws.root.hash(&mut slot);
        settings.hash(&mut slot);
        let Fingerprint([slot, _]) = slot.finish();
        let hashed = fingerprint(ws, &settings);
        let path = dir.join(format!("analysis-{slot:016x}.json"));
        Some(AnalysisStore {
            path,
            hashed,
            summary_key,
            fingerprint_ms: started.elapsed().as_millis(),
            threads: crate::engine::load::parallel_names::threads(config.jobs),
        })
    }

    /// The stored analysis, when it was stored under today's fingerprint, or when
    /// what changed since is edits of the workspace's files in nothing it read (the
    /// store then takes today's fingerprint); or the roots' outcomes it holds that
    /// edits of bodies some roots read leave standing.
    pub fn load(&self, ws: &Workspace) -> Option<Stored> {
        let bytes = std::fs::read(&self.path).ok()?;
        let stored: StoredFile = serde_json::from_slice(&bytes).ok()?;
        if stored.version != FORMAT_VERSION {
            return None;
        }
        if stored.fingerprint == self.hashed.fingerprint {
            return Some(Stored::Whole(stored.analysis));
        }
        self.load_after_edits(ws, stored)
    }

    /// `stored`, if every editable file whose text changed since is the same to its
    /// analysis, and nothing else changed; else, if those files changed only in
    /// plain bodies, the outcomes of the roots that read none of them.
    fn load_after_edits(&self, ws: &Workspace, stored: StoredFile) -> Option<Stored> {
        if stored.around_edits != self.hashed.around_edits || stored.editable.len() != self.hashed.editable.len() {
            return None;
        }
        let mut edited = Vec::new();
        let mut editable = Vec::with_capacity(stored.editable.len());
        // Where the edits that moved or changed what the analysis read did so.
        let mut changed: Vec<(PathBuf, BodyChange)> = Vec::new();
        let mut relocations = Vec::new();
        for (then, (path, text, file)) in stored.editable.into_iter().zip(&self.hashed.editable) {
            if then.path != *path {
                return None;
            }
            if then.text == *text {
                editable.push(then);
                continue;
            }
            let then_digest = then.digest?;
            let now = digest(&ws.db, *file, &stored.analysis.root_instantiations)?;
            if !then_digest.same_to_analysis(&now) {
                tracing::debug!("{} changed in what the stored analysis read", path.display());
                let (bodies, relocation) = then_digest.changed_bodies(&now)?;
                changed.extend(bodies.into_iter().map(|body| (path.clone(), body)));
                relocations.push((path.clone(), relocation));
                continue;
            }
            edited.push(path.display().to_string());
            editable.push(EditableFile { path: path.clone(), text: *text, digest: Some(then_digest.carried_to(now)) });
        }
        if !relocations.is_empty() {
            let roots = stored.analysis.stored_roots?;
            return Some(Stored::Partly(StoredRoots::standing_after(roots, &changed, relocations)));
        }
        tracing::info!("reused the stored analysis: edits of {} change nothing it read", edited.join(", "));
        let mut analysis = stored.analysis;
        if let Err(err) = self.write(editable, &analysis) {
            tracing::warn!("could not store the analysis in {}: {err}", self.path.display());
        }
        analysis.timings.edited_files_unread = edited.len();
        Some(Stored::Whole(analysis))
    }

    /// Keeps `analysis` of `ws` for the next run with the same inputs, and for one
    /// after edits in nothing it read. One where a root's check panicked is not
    /// kept: the next run checks that root again.
    pub fn store(&self, ws: &Workspace, analysis: &Analysis) -> std::io::Result<()> {
        if analysis.errors.iter().any(|error| error.kind == crate::engine::ErrorKind::InternalError) {
            return Ok(());
        }
        let started = Instant::now();
        let walked = analysis.walked_workspace_code.as_ref();
        // Parsing and hashing every file of a large workspace: on every core.
        let digests = crate::engine::load::on_every_core::map(
            &ws.db,
            &self.hashed.editable,
            self.threads,
            100,
            |db, (path, _, file)| {
                let walked = walked?;
                let mut digest = digest(db, *file, &analysis.root_instantiations)?;
                for place in walked.iter().filter(|place| place.file == *path) {
                    digest.mark_walked((place.line, place.column), (place.end_line, place.end_column));
                }
                for place in analysis.walked_making_items.iter().filter(|place| place.file == *path) {
                    digest.mark_making_items((place.line, place.column), (place.end_line, place.end_column));
                }
                Some(digest)
            },
        );
        let editable = self
            .hashed
            .editable
            .iter()
            .zip(digests)
            .map(|((path, text, _), digest)| EditableFile { path: path.clone(), text: *text, digest })
            .collect();
        self.write(editable, analysis)?;
        forget_old_analyses(self.path.parent().unwrap_or(Path::new(".")));
        tracing::debug!("analysis stored in {} ms", started.elapsed().as_millis());
        Ok(())
    }

    /// Writes `analysis`, with the editable files' digests, under today's
    /// fingerprint.
    fn write(&self, editable: Vec<EditableFile>, analysis: &Analysis) -> std::io::Result<()> {
        let file = StoredFile {
            version: FORMAT_VERSION,
            fingerprint: self.hashed.fingerprint,
            around_edits: self.hashed.around_edits,
            editable,
            analysis,
        };
        let bytes = serde_json::to_vec(&file).map_err(std::io::Error::other)?;
        crate::stdx::write_atomically(&self.path, &bytes)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The summaries of the same cache directory and key, for working the analysis
    /// out when none is stored.
    pub fn summaries(&self) -> SummaryCache {
        let key: Vec<&str> = self.summary_key.iter().map(String::as_str).collect();
        SummaryCache::open(self.path.parent().unwrap_or(Path::new(".")), &key)
    }
}

/// The settings an analysis depends on besides the files: what keys the
/// summaries (toolchain, std source, lock file, manifest, engine build,
/// features, target, allowlist, panic policy), the roots and buffer settings,
/// and whether build scripts and proc macros ran.
fn settings_material(ws: &Workspace, config: &CheckConfig, summary_key: &[String]) -> Vec<String> {
    let mut material = summary_key.to_vec();
    material.push(format!("roots {:?}", config.roots));
    material.push(format!("line-only {:?}", config.line_only));
    material.push(format!("scratch {:?}", config.scratch));
    material.push(format!("build scripts {} proc macros {}", ws.build_scripts(), ws.has_proc_macro_server()));
    material
}

/// The digest of a workspace file, parsed as its first crate's edition, for an
/// analysis whose generic roots bodies instantiate as `instantiations` says; `None`
/// when any body may instantiate one.
fn digest(
    db: &ra_ap_ide_db::RootDatabase,
    file: ra_ap_vfs::FileId,
    instantiations: &RootInstantiations,
) -> Option<FileDigest> {
    let names = match instantiations {
        RootInstantiations::NotFromBodies => &[][..],
        RootInstantiations::Named(names) => names.as_slice(),
        RootInstantiations::AnyBody => return None,
    };
    let edition = base_db::relevant_crates(db, file).first()?.data(db).edition;
    let parse = base_db::EditionedFileId::new(db, file, edition).parse(db);
    FileDigest::of(&parse, db.file_text(file).text(db), names)
}

/// Whether edits of `file`, a Rust file of the workspace's source roots, may leave
/// an analysis as it was (`EditableFile`): its crates are the workspace's, none a
/// proc-macro crate.
fn is_editable(db: &ra_ap_ide_db::RootDatabase, file: ra_ap_vfs::FileId) -> bool {
    let crates = base_db::relevant_crates(db, file);
    !crates.is_empty()
        && crates.iter().all(|krate| {
            let data = krate.data(db);
            data.origin.is_local() && !data.is_proc_macro
        })
}

/// Hashes the settings, the crate graph and every loaded file, in an order that
/// does not depend on how the files were loaded: the texts of the editable files
/// each on its own, the rest together.
fn fingerprint(ws: &Workspace, settings: &[String]) -> Hashed {
    let db = &ws.db;
    let mut hasher = StableSipHasher128::new();
    FORMAT_VERSION.hash(&mut hasher);
    settings.hash(&mut hasher);
    let path_of = |file| ws.vfs.file_path(file).to_string();
    let mut crates: Vec<String> = base_db::all_crates(db)
        .iter()
        .map(|krate| {
            let data = krate.data(db);
            let mut dependencies: Vec<String> = data
                .dependencies
                .iter()
                .map(|dep| format!("{} = {}", dep.name, path_of(dep.crate_id.data(db).root_file_id)))
                .collect();
            dependencies.sort();
            format!(
                "{} {:?} {:?} {:?} {} {:?} {:?} {:?} {:?} {:?}",
                path_of(data.root_file_id),
                data.edition,
                data.origin,
                data.crate_attrs,
                data.is_proc_macro,
                data.proc_macro_cwd,
                krate.extra_data(db),
                krate.cfg_options(db),
                krate.env(db),
                dependencies,
            )
        })
        .collect();
    crates.sort();
    if tracing::enabled!(tracing::Level::TRACE) {
        for (i, line) in settings.iter().chain(&crates).enumerate() {
            tracing::trace!("fingerprint input {i}: {line}");
        }
    }
    crates.hash(&mut hasher);
    let mut files: Vec<(String, ra_ap_vfs::FileId)> =
        ws.vfs.iter().map(|(file, path)| (path.to_string(), file)).collect();
    files.sort();
    let mut editable = Vec::new();
    for (path, file) in files {
        let text = db.file_text(file).text(db);
        tracing::trace!("fingerprint file {path} {}", text.len());
        path.hash(&mut hasher);
        match ws.local_rust_file_path(file).filter(|_| is_editable(db, file)) {
            Some(local) => {
                let mut text_hasher = StableSipHasher128::new();
                text.hash(&mut text_hasher);
                let text: Fingerprint = text_hasher.finish();
                editable.push((local, text, file));
            }
            None => text.hash(&mut hasher),
        }
    }
    let around_edits: Fingerprint = hasher.finish();
    let mut whole = StableSipHasher128::new();
    around_edits.0.hash(&mut whole);
    for (path, text, _) in &editable {
        path.hash(&mut whole);
        text.0.hash(&mut whole);
    }
    Hashed { fingerprint: whole.finish(), around_edits, editable }
}

/// How long a stored analysis no run has written is kept: one file per workspace
/// directory and settings would otherwise pile up (temporary checkouts, CI clones).
const KEPT_UNTOUCHED: Duration = Duration::from_secs(14 * 24 * 60 * 60);

/// Deletes the stored analyses of `dir` that no run wrote for `KEPT_UNTOUCHED`.
fn forget_old_analyses(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let stored = name.to_str().is_some_and(|name| name.starts_with("analysis-") && name.ends_with(".json"));
        let old = entry.metadata().and_then(|meta| meta.modified()).ok().and_then(|at| at.elapsed().ok());
        if stored && old.is_some_and(|old| old > KEPT_UNTOUCHED) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
