//! Whole-check reuse: the analysis of a workspace none of whose inputs changed
//! since a run stored it, as cargo skips a crate whose fingerprint is fresh. The
//! fingerprint hashes everything the analysis reads: every file rust-analyzer
//! loaded (the workspace's, the dependencies', std's, generated ones), the crate
//! graph (editions, cfgs and environment that build scripts set, dependency
//! names), the toolchain, lock file, engine build and the check's settings. One
//! file per workspace and settings in the cache directory, replaced (atomically)
//! when the fingerprint changes; anything unreadable is a miss.

use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ra_ap_ide_db::base_db::{self, SourceDatabase};
use rustc_stable_hash::hashers::{SipHasher128Hash, StableSipHasher128};
use serde::{Deserialize, Serialize};

use super::{Analysis, CheckConfig, Workspace, summary_cache::{self, SummaryCache}};

/// Bump when `Analysis` changes shape or meaning.
const FORMAT_VERSION: u32 = 1;

/// A 128-bit hash of everything an analysis depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint(pub [u64; 2]);

impl rustc_stable_hash::FromStableHash for Fingerprint {
    type Hash = SipHasher128Hash;
    fn from(SipHasher128Hash(hash): SipHasher128Hash) -> Fingerprint {
        Fingerprint(hash)
    }
}

#[derive(Serialize, Deserialize)]
struct StoredFile {
    version: u32,
    fingerprint: Fingerprint,
    analysis: Analysis,
}

/// Where a workspace's analysis under some settings is kept, and the fingerprint
/// of what it reads today.
pub struct AnalysisStore {
    path: PathBuf,
    fingerprint: Fingerprint,
    /// What keys the summary cache (part of the fingerprint already: asking again
    /// would run `rustc -vV` again).
    summary_key: Vec<String>,
    /// How long working out the fingerprint took.
    pub fingerprint_ms: u128,
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
        let fingerprint = fingerprint(ws, &settings);
        let path = dir.join(format!("analysis-{slot:016x}.json"));
        Some(AnalysisStore {
            path,
            fingerprint,
            summary_key,
            fingerprint_ms: started.elapsed().as_millis(),
        })
    }

    /// The stored analysis, when it was stored under today's fingerprint.
    pub fn load(&self) -> Option<Analysis> {
        let bytes = std::fs::read(&self.path).ok()?;
        let stored: StoredFile = serde_json::from_slice(&bytes).ok()?;
        (stored.version == FORMAT_VERSION && stored.fingerprint == self.fingerprint)
            .then_some(stored.analysis)
    }

    /// Keeps `analysis` for the next run with the same inputs.
    pub fn store(&self, analysis: &Analysis) -> std::io::Result<()> {
        let file = StoredFile {
            version: FORMAT_VERSION,
            fingerprint: self.fingerprint,
            analysis: analysis.clone(),
        };
        let bytes = serde_json::to_vec(&file).map_err(std::io::Error::other)?;
        summary_cache::write_atomically(&self.path, &bytes)?;
        forget_old_analyses(self.path.parent().unwrap_or(Path::new(".")));
        Ok(())
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
    material.push(format!(
        "build scripts {} proc macros {}",
        ws.build_scripts(),
        ws.has_proc_macro_server()
    ));
    material
}

/// Hashes the settings, the crate graph and every loaded file, in an order that
/// does not depend on how the files were loaded.
fn fingerprint(ws: &Workspace, settings: &[String]) -> Fingerprint {
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
                .map(|dep| {
                    format!(
                        "{} = {}",
                        dep.name,
                        path_of(dep.crate_id.data(db).root_file_id)
                    )
                })
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
    let mut files: Vec<(String, ra_ap_vfs::FileId)> = ws
        .vfs
        .iter()
        .map(|(file, path)| (path.to_string(), file))
        .collect();
    files.sort();
    for (path, file) in files {
        let text = db.file_text(file).text(db);
        tracing::trace!("fingerprint file {path} {}", text.len());
        path.hash(&mut hasher);
        text.hash(&mut hasher);
    }
    hasher.finish()
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
        let stored = name
            .to_str()
            .is_some_and(|name| name.starts_with("analysis-") && name.ends_with(".json"));
        let old = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|at| at.elapsed().ok());
        if stored && old.is_some_and(|old| old > KEPT_UNTOUCHED) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
