//! On-disk summaries of instances outside the workspace: whether each allocates and
//! its chain down to the allocator, so a later run skips walking std and
//! dependencies again. One file per toolchain + std source + dependency versions +
//! target + features, in the user's cache directory; written atomically.

use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::proof::summary::Summaries;
pub use crate::engine::proof::summary::{Additions, CachedStep, CachedSummary, CallsBack, SummaryKey};
use crate::engine::source::identity::InstanceIdentity;

/// Bump when the meaning of a summary changes.
const FORMAT_VERSION: u32 = 10;

/// The file: JSON, with each summary beside the identity of its instance.
#[derive(Serialize, Deserialize, Default)]
struct SummaryFile {
    version: u32,
    entries: Vec<(InstanceIdentity, CachedSummary)>,
}

/// The summaries of one toolchain/dependency configuration.
pub struct SummaryCache {
    path: PathBuf,
    entries: FxHashMap<SummaryKey, Arc<CachedSummary>>,
    dirty: bool,
    pub hits: usize,
}

impl Summaries for SummaryCache {
    fn get(&self, key: &SummaryKey) -> Option<Arc<CachedSummary>> {
        SummaryCache::get(self, key)
    }

    fn note_hit(&mut self) {
        SummaryCache::note_hit(self)
    }
}

impl SummaryCache {
    /// Opens (or starts) the cache file for `key_material` under `dir`. A missing or
    /// unreadable file is an empty cache: summaries are always recomputable.
    pub fn open(dir: &Path, key_material: &[&str]) -> SummaryCache {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        FORMAT_VERSION.hash(&mut hasher);
        key_material.hash(&mut hasher);
        let path = dir.join(format!("summaries-{:016x}.json", hasher.finish()));
        let entries = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<SummaryFile>(&bytes).ok())
            .filter(|file| file.version == FORMAT_VERSION)
            .map(|file| file.entries.into_iter().map(|(k, v)| (SummaryKey::new(k), Arc::new(v))).collect())
            .unwrap_or_default();
        SummaryCache { path, entries, dirty: false, hits: 0 }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The summary kept for `key`; a summary that stands in for its instance is
    /// counted with `note_hit`.
    pub fn get(&self, key: &SummaryKey) -> Option<Arc<CachedSummary>> {
        self.entries.get(key).cloned()
    }

    pub fn note_hit(&mut self) {
        self.hits += 1;
    }

    pub fn contains(&self, key: &SummaryKey) -> bool {
        self.entries.contains_key(key)
    }

    pub fn insert(&mut self, key: SummaryKey, summary: CachedSummary) {
        if let std::collections::hash_map::Entry::Vacant(slot) = self.entries.entry(key) {
            slot.insert(Arc::new(summary));
            self.dirty = true;
        }
    }

    /// A copy of the summaries read so far, for a reach on another thread
    /// (`walk_ahead`) to stop where this one would; never saved.
    pub(crate) fn read_only_copy(&self) -> SummaryCache {
        SummaryCache { path: self.path.clone(), entries: self.entries.clone(), dirty: false, hits: 0 }
    }

    /// Writes the file if anything was added.
    pub fn save(&mut self) -> std::io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let file = SummaryFile {
            version: FORMAT_VERSION,
            entries: self.entries.iter().map(|(k, v)| (k.identity().clone(), (**v).clone())).collect(),
        };
        let bytes = serde_json::to_vec(&file).map_err(std::io::Error::other)?;
        crate::stdx::write_atomically(&self.path, &bytes)?;
        self.dirty = false;
        Ok(())
    }
}

/// What the allowlist adds to the key: allowlisted functions change what closed
/// summaries say.
fn allow_key_material(allow: &[crate::engine::AllowEntry]) -> Vec<String> {
    // The kind counts: a `growth:` entry changes how calls into the function are
    // judged inside the bodies whose summaries are kept, other kinds do not.
    allow.iter().map(|entry| format!("allow {}: {}", entry.kind, entry.path)).collect()
}

/// What the summaries depend on besides the code itself, for the cache key: the
/// toolchain, std's source, the lock file of the *cargo workspace* the checked
/// path belongs to (also when checking a member), the manifest, the enabled
/// features, the target and the profile, the engine build, and the settings that change
/// verdicts (allowlist, panic policy).
pub fn key_material_for(ws: &crate::engine::Workspace, config: &crate::engine::CheckConfig) -> Vec<String> {
    let mut material = key_material(&ws.toolchain_version, &ws.root, &ws.std_source.library);
    material.push(format!("features {}", ws.features()));
    material.push(format!("target {}", ws.target().unwrap_or(std::env::consts::ARCH)));
    material.push(format!("profile {}", ws.profile()));
    material.extend(verdict_settings_material(config));
    material
}

/// The settings that change verdicts (the allowlist, the panic policy), as key
/// material: what summaries worked out under other settings cannot stand for.
pub fn verdict_settings_material(config: &crate::engine::CheckConfig) -> Vec<String> {
    let mut material = allow_key_material(&config.allow);
    material.push(format!("strict-panics {}", config.strict_panics));
    material
}

/// What the toolchain's `rustc -vV` prints in the workspace (its version, commit
/// and host); empty when it cannot run.
pub fn toolchain_version(workspace_root: &Path) -> String {
    std::process::Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .current_dir(workspace_root)
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default()
}

/// What every check of `workspace_root` keys its summaries by: the toolchain
/// (`toolchain_version`, as printed when the workspace was loaded), std's source,
/// the lock file, the manifest and the engine build.
fn key_material(toolchain_version: &str, workspace_root: &Path, std_library: &Path) -> Vec<String> {
    let toolchain = toolchain_version.to_owned();
    // The lock file sits at the cargo workspace's root, which may be above the
    // checked member.
    let lock = workspace_root
        .ancestors()
        .map(|dir| dir.join("Cargo.lock"))
        .find(|lock| lock.is_file())
        .and_then(|lock| std::fs::read_to_string(lock).ok())
        .unwrap_or_default();
    let manifest = std::fs::read_to_string(workspace_root.join("Cargo.toml")).unwrap_or_default();
    vec![toolchain, std_library.display().to_string(), lock, manifest, engine_build()]
}

/// Which build of the engine worked the summaries out: its version and the size
/// and time of the running executable, so a rebuilt engine never reads what an
/// older one concluded (the format number alone misses a change of meaning).
fn engine_build() -> String {
    let exe = std::env::current_exe().and_then(std::fs::metadata);
    let (len, modified) = match exe {
        Ok(meta) => (meta.len(), meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())),
        Err(_) => (0, None),
    };
    format!("noalloc-ls {} {len} {:?}", env!("CARGO_PKG_VERSION"), modified.map(|d| d.as_nanos()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The identity of a free function `name` of crate `krate`.
    fn key(krate: &str, name: &str) -> SummaryKey {
        use crate::engine::source::identity::{Container, CrateIdentity, FnIdentity, Place};
        SummaryKey::new(InstanceIdentity {
            func: FnIdentity {
                krate: CrateIdentity { name: krate.into(), version: None },
                container: Container::Free,
                name: name.into(),
                place: Place { file: "lib.rs".into(), offsets: vec![0] },
            },
            args: Vec::new(),
        })
    }

    fn summary(allocates: bool) -> CachedSummary {
        CachedSummary {
            allocates,
            on_error: false,
            once: false,
            chain: vec![CachedStep {
                function: "alloc::alloc::alloc".into(),
                file: None,
                line: 95,
                column: 5,
                end_line: 95,
                end_column: 12,
                exported: true,
            }],
            adds: Default::default(),
            uses_allow: Vec::new(),
            calls_back: Default::default(),
        }
    }

    #[test]
    fn round_trips_and_keys_by_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = SummaryCache::open(dir.path(), &["toolchain-a"]);
        assert!(cache.is_empty());
        cache.insert(key("alloc", "push"), summary(true));
        cache.save().unwrap();

        let again = SummaryCache::open(dir.path(), &["toolchain-a"]);
        assert_eq!(again.get(&key("alloc", "push")).as_deref(), Some(&summary(true)));
        // Another crate's function of the same name is another instance.
        assert_eq!(again.get(&key("other", "push")), None);

        let other = SummaryCache::open(dir.path(), &["toolchain-b"]);
        assert!(other.is_empty());
        assert_ne!(other.path(), again.path());
    }

    #[test]
    fn a_corrupt_file_is_an_empty_cache_and_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SummaryCache::open(dir.path(), &["k"]);
        std::fs::write(cache.path(), b"{ not json").unwrap();
        let mut cache = SummaryCache::open(dir.path(), &["k"]);
        assert!(cache.is_empty());
        cache.insert(key("k", "f"), summary(false));
        cache.save().unwrap();
        assert_eq!(SummaryCache::open(dir.path(), &["k"]).len(), 1);
    }

    #[test]
    fn concurrent_writers_and_readers_never_see_half_a_file() {
        // CI runners restoring and saving one shared cache directory at once: every
        // read finds a whole file (an old one or a new one), never a torn one.
        let dir = tempfile::tempdir().unwrap();
        let path = SummaryCache::open(dir.path(), &["shared"]).path().to_owned();
        let stop = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| {
                let mut whole_reads = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    if let Ok(bytes) = std::fs::read(&path) {
                        let file: SummaryFile = serde_json::from_slice(&bytes).expect("a whole file");
                        assert_eq!(file.version, FORMAT_VERSION);
                        whole_reads += 1;
                    }
                }
                whole_reads
            });
            let writers: Vec<_> = (0..4)
                .map(|w| {
                    let dir = dir.path();
                    scope.spawn(move || {
                        for round in 0..25 {
                            let mut cache = SummaryCache::open(dir, &["shared"]);
                            for i in 0..50 {
                                cache.insert(key(&format!("writer{w}"), &format!("f{round}_{i}")), summary(i % 2 == 0));
                            }
                            cache.save().unwrap();
                        }
                    })
                })
                .collect();
            for writer in writers {
                writer.join().unwrap();
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            assert!(reader.join().unwrap() > 0);
        });
        // Whatever won the last rename is a usable cache.
        assert!(!SummaryCache::open(dir.path(), &["shared"]).is_empty());
    }
}
