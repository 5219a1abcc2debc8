//! Loading a cargo workspace into rust-analyzer's database, with std's source,
//! the features and target cargo is asked for, and (unless turned off) build
//! scripts and a proc-macro server. Owns the database and the VFS; the analysis
//! borrows them. Beside it: where std's source is found (`std_source`), what an
//! older std lacks (`std_layout`), which proc-macro server expands derives
//! (`proc_macro_server`), the intrinsics left out of a load (`deferred_intrinsics`),
//! and name resolution spread over the cores (`parallel_names`,
//! `module_files`, `expand_ahead`, `on_every_core`).

pub mod deferred_intrinsics;
pub mod expand_ahead;
pub mod module_files;
pub(crate) mod on_every_core;
pub(crate) mod parallel_names;
pub mod proc_macro_server;
pub mod std_layout;
pub mod std_source;

use std::path::{Path, PathBuf};

use ra_ap_ide_db::RootDatabase;
use ra_ap_load_cargo::{load_workspace_at, LoadCargoConfig, ProcMacroServerChoice};
use ra_ap_paths::{AbsPathBuf, Utf8PathBuf};
use ra_ap_proc_macro_api::ProcMacroClient;
use ra_ap_project_model::{CargoConfig, CargoFeatures, RustLibSource};
use ra_ap_vfs::{FileId, Vfs, VfsPath};

use self::deferred_intrinsics::DeferredIntrinsics;
use self::proc_macro_server::ProcMacroServer;
use self::std_source::{StdSource, MISSING_STD_SOURCE};

#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Run build scripts and expand proc macros (derives, attributes). Off for
    /// untrusted workspaces (`--no-build-scripts`).
    pub build_scripts: bool,
    /// Std's source; discovered from the environment when `None`.
    pub std_source: Option<StdSource>,
    /// The cargo features to turn on (`--features`, `--all-features`,
    /// `--no-default-features`).
    pub features: Features,
    /// The target triple to check for (`--target`); the host's when `None`.
    pub target: Option<String>,
    /// Check the release profile's cfgs (`--release`: `debug_assertions` off), not
    /// the dev profile's (on, as `cargo check`, clippy and rust-analyzer have it).
    pub release: bool,
    /// Leave std's x86 intrinsics past the baseline out while no source names one
    /// (`deferred_intrinsics`). Off only to measure rust-analyzer as it loads.
    pub defer_intrinsics: bool,
    /// Resolve no names of what proc-macro crates depend on from the registry
    /// (`leave_out_proc_macro_dependencies`). Off only to measure rust-analyzer as
    /// it loads.
    pub leave_out_proc_macro_dependencies: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            build_scripts: true,
            std_source: None,
            features: Features::default(),
            target: None,
            defer_intrinsics: true,
            leave_out_proc_macro_dependencies: true,
            release: false,
        }
    }
}

/// The cargo features a check turns on, as cargo's flags say them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Features {
    /// `--all-features`.
    pub all: bool,
    /// `--no-default-features`.
    pub no_default: bool,
    /// `--features a,b` (`package/feature` works as in cargo).
    pub names: Vec<String>,
}

impl Features {
    fn to_cargo(&self) -> CargoFeatures {
        if self.all {
            CargoFeatures::All
        } else {
            CargoFeatures::Selected { features: self.names.clone(), no_default_features: self.no_default }
        }
    }
}

/// The flags cargo would take (`--all-features`, `--no-default-features --features
/// a,b`; empty for the defaults), names sorted: one spelling for one selection, so
/// it can key a cache.
impl std::fmt::Display for Features {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.all {
            return f.write_str("--all-features");
        }
        let mut names = self.names.clone();
        names.sort();
        names.dedup();
        let mut flags = Vec::new();
        if self.no_default {
            flags.push("--no-default-features".to_owned());
        }
        if !names.is_empty() {
            flags.push(format!("--features {}", names.join(",")));
        }
        f.write_str(&flags.join(" "))
    }
}

/// Why a workspace could not be loaded. Each message says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    NoStdSource,
    /// The toolchain the workspace pins is not installed, or lacks std's source:
    /// the message says which and the command that installs it.
    PinnedToolchain(String),
    /// No `cargo` or `rustc`: the message says where it was looked for.
    NoToolchain(String),
    NoWorkspace(PathBuf),
    Failed(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NoStdSource => f.write_str(MISSING_STD_SOURCE),
            LoadError::PinnedToolchain(message) => f.write_str(message),
            LoadError::NoToolchain(message) => f.write_str(message),
            LoadError::NoWorkspace(path) => {
                write!(f, "no cargo workspace at {}: pass the directory that holds Cargo.toml", path.display())
            }
            LoadError::Failed(message) => write!(f, "could not load the workspace: {message}"),
        }
    }
}

/// The root cause of a load failure on one line: cargo's own message, without the
/// command line rust-analyzer ran.
fn one_line(err: &anyhow::Error) -> String {
    let text = format!("{err:#}");
    let cause = match text.rfind("exited with an error: ") {
        Some(at) => text[at + "exited with an error: ".len()..].to_owned(),
        None => err.root_cause().to_string(),
    };
    cause.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A loaded workspace: rust-analyzer's database and the files it knows.
pub struct Workspace {
    pub db: RootDatabase,
    pub vfs: Vfs,
    pub root: PathBuf,
    pub std_source: StdSource,
    /// What this std release lacks of the layout rust-analyzer reads, and was added.
    pub std_layout: std_layout::StdLayout,
    /// Whose proc-macro server expands the derives.
    pub proc_macro_choice: ProcMacroServer,
    /// What the toolchain's `rustc -vV` printed when the workspace was loaded
    /// (`summary_cache::toolchain_version`), and the proc-macro server when it is
    /// not the toolchain's own: part of what a summary depends on.
    pub toolchain_version: String,
    features: Features,
    target: Option<String>,
    release: bool,
    build_scripts: bool,
    proc_macro_server: Option<ProcMacroClient>,
    /// std's intrinsics left out of `db` until a source names one.
    pub deferred_intrinsics: DeferredIntrinsics,
    /// Every crate's names were resolved up front once (`parallel_names`): std's
    /// and the dependencies' do not change while the workspace stays loaded.
    names_resolved: std::sync::atomic::AtomicBool,
    /// An analysis of this load ran to its end: salsa holds the walks of its
    /// roots (`walk_ahead` helps only the analyses before).
    analysis_finished: std::sync::atomic::AtomicBool,
    /// Milliseconds spent resolving names before an analysis began (checking
    /// `--root` patterns), for that analysis's timings to report.
    names_ms_before_analysis: std::sync::atomic::AtomicU64,
}

impl Workspace {
    pub fn load(
        path: &Path,
        options: &LoadOptions,
        progress: &(dyn Fn(String) + Sync),
    ) -> Result<Workspace, LoadError> {
        let root = std::fs::canonicalize(path).map_err(|_| LoadError::NoWorkspace(path.to_path_buf()))?;
        if !root.join("Cargo.toml").is_file() {
            return Err(LoadError::NoWorkspace(path.to_path_buf()));
        }
        let (std_source, printed_sysroot) = match &options.std_source {
            Some(found) => (found.clone(), None),
            None => {
                // rust-analyzer runs cargo as its `toolchain` crate finds it; say where
                // we looked when it is nowhere, rather than cargo's "not found".
                std_source::find_tool(std_source::Tool::Cargo).map_err(LoadError::NoToolchain)?;
                let (found, printed_sysroot) = std_source::discover_from_env(&root);
                // A pinned toolchain rustup does not have: its own message, before
                // a fallback std source is taken for it (cargo would not run anyway).
                let pinned = || std_source::pinned_toolchain_problem(&root);
                let found = match found {
                    Some(found) if found.origin == std_source::StdSourceOrigin::Toolchain => found,
                    Some(found) => match pinned() {
                        Some(problem @ std_source::PinnedProblem::NotInstalled(_)) => {
                            return Err(LoadError::PinnedToolchain(problem.message().to_owned()))
                        }
                        _ => found,
                    },
                    None => {
                        return Err(pinned().map_or(LoadError::NoStdSource, |problem| {
                            LoadError::PinnedToolchain(problem.message().to_owned())
                        }))
                    }
                };
                (found, printed_sysroot)
            }
        };
        let utf8 = |path: PathBuf| {
            Utf8PathBuf::from_path_buf(path)
                .map(AbsPathBuf::assert)
                .map_err(|p| LoadError::Failed(format!("a toolchain path is not UTF-8: {}", p.display())))
        };
        let sysroot_src = utf8(std_source.library.clone())?;
        // The sysroot `rustc --print sysroot` gave is the one rust-analyzer would
        // ask the same `rustc` for, in the same directory.
        // The pinned toolchain's proc-macro server, or another's where it cannot be
        // used (known only when its sysroot was printed: a named one is a packager's).
        let proc_macro_server = match (&printed_sysroot, options.build_scripts) {
            (Some(sysroot), true) => ProcMacroServer::choose(sysroot),
            _ => ProcMacroServer::Pinned,
        };
        let sysroot = match printed_sysroot.map(utf8).transpose()? {
            Some(printed) => RustLibSource::Path(printed),
            None => RustLibSource::Discover,
        };
        let mut extra_env = std_source::toolchain_env();
        if let ProcMacroServer::Replaced { sysroot, .. } = &proc_macro_server {
            // rust-analyzer runs cargo (metadata, build scripts, proc macros) as the
            // toolchain this names, and `rustc` (cfgs) from the pinned sysroot.
            extra_env.insert("RUSTUP_TOOLCHAIN".to_owned(), Some(sysroot.display().to_string()));
        }
        let cargo_config = CargoConfig {
            sysroot: Some(sysroot),
            sysroot_src: Some(sysroot_src),
            all_targets: true,
            set_test: false,
            features: options.features.to_cargo(),
            target: options.target.clone(),
            extra_env,
            // The profile's cfgs: code under `cfg(debug_assertions)` runs in dev and
            // test builds, code under `cfg(not(debug_assertions))` in release ones.
            // (rust-analyzer reads std with `debug_assertions` on either way: more
            // code, never less.)
            cfg_overrides: {
                let debug_assertions = ra_ap_cfg::CfgAtom::Flag(ra_ap_intern::sym::debug_assertions);
                let (enable, disable) = if options.release {
                    (Vec::new(), vec![debug_assertions])
                } else {
                    (vec![debug_assertions], Vec::new())
                };
                ra_ap_project_model::CfgOverrides {
                    global: ra_ap_cfg::CfgDiff::new(enable, disable),
                    ..Default::default()
                }
            },
            ..CargoConfig::default()
        };
        let load_config = LoadCargoConfig {
            load_out_dirs_from_check: options.build_scripts,
            with_proc_macro_server: match &proc_macro_server {
                _ if !options.build_scripts => ProcMacroServerChoice::None,
                ProcMacroServer::Pinned => ProcMacroServerChoice::Sysroot,
                ProcMacroServer::Replaced { server, .. } => ProcMacroServerChoice::Explicit(utf8(server.clone())?),
                ProcMacroServer::Unavailable { .. } => ProcMacroServerChoice::None,
            },
            prefill_caches: false,
            num_worker_threads: 1,
            proc_macro_processes: 1,
        };
        // `rustc -vV` runs while rust-analyzer waits for cargo.
        let (loaded, toolchain_version) = std::thread::scope(|scope| {
            let version = scope.spawn(|| crate::engine::reuse::summary_cache::toolchain_version(&root));
            let loaded = load_workspace_at(&root, &cargo_config, &load_config, progress);
            (loaded, version.join().unwrap_or_default())
        });
        let toolchain_version = match &proc_macro_server {
            ProcMacroServer::Pinned => toolchain_version,
            other => format!("{toolchain_version}proc-macro server: {other:?}\n"),
        };
        let (mut db, vfs, proc_macro_client) = loaded.map_err(|err| LoadError::Failed(one_line(&err)))?;
        keep_noalloc_attributes_unexpanded(&mut db);
        if options.leave_out_proc_macro_dependencies {
            leave_out_proc_macro_dependencies(&mut db);
        }
        // Before any name is resolved: what a std older than rust-analyzer's lacks.
        let std_layout = std_layout::adapt(&mut db, &vfs, &std_source.library);
        let deferred_intrinsics = if options.defer_intrinsics {
            DeferredIntrinsics::defer(&mut db, &vfs, &std_source.library)
        } else {
            DeferredIntrinsics::default()
        };
        Ok(Workspace {
            db,
            vfs,
            root,
            std_source,
            std_layout,
            proc_macro_choice: proc_macro_server,
            toolchain_version,
            features: options.features.clone(),
            target: options.target.clone(),
            release: options.release,
            build_scripts: options.build_scripts,
            proc_macro_server: proc_macro_client,
            deferred_intrinsics,
            names_resolved: std::sync::atomic::AtomicBool::new(false),
            analysis_finished: std::sync::atomic::AtomicBool::new(false),
            names_ms_before_analysis: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// What the user is told once about this load: a std layout not understood, a
    /// proc-macro server that cannot be used. Both front ends show them.
    pub fn load_warnings(&self) -> Vec<String> {
        let std_layout = self.std_layout.warning(&self.std_source.library);
        std_layout.into_iter().chain(self.proc_macro_choice.warning()).collect()
    }

    /// The features the workspace was loaded with: part of what a summary depends on.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The target triple it was loaded for; `None` for the host's.
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// The profile whose cfgs it was loaded with: `"dev"` or `"release"`.
    pub fn profile(&self) -> &'static str {
        if self.release {
            "release"
        } else {
            "dev"
        }
    }

    /// Whether build scripts ran (`--no-build-scripts` turns them off).
    pub fn build_scripts(&self) -> bool {
        self.build_scripts
    }

    /// Whether the toolchain's proc-macro server expands derives and attributes.
    pub fn has_proc_macro_server(&self) -> bool {
        self.proc_macro_server.is_some()
    }

    /// Runs `resolve` the first time it is called for this loaded workspace (and
    /// again after a `resolve` that did not finish, e.g. cancelled by an edit).
    pub(crate) fn resolve_names_once(&self, resolve: impl FnOnce()) {
        use std::sync::atomic::Ordering;
        if !self.names_resolved.load(Ordering::Acquire) {
            resolve();
            self.names_resolved.store(true, Ordering::Release);
        }
    }

    /// Whether an analysis of this load ran to its end.
    pub(crate) fn analysis_finished(&self) -> bool {
        self.analysis_finished.load(std::sync::atomic::Ordering::Acquire)
    }

    pub(crate) fn note_analysis_finished(&self) {
        self.analysis_finished.store(true, std::sync::atomic::Ordering::Release);
    }

    /// Notes time spent resolving names before an analysis began.
    pub(crate) fn note_names_before_analysis(&self, elapsed: std::time::Duration) {
        self.names_ms_before_analysis.fetch_add(elapsed.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// The time `note_names_before_analysis` noted since the last call.
    pub(crate) fn take_names_before_analysis(&self) -> u128 {
        self.names_ms_before_analysis.swap(0, std::sync::atomic::Ordering::Relaxed).into()
    }

    /// The on-disk path of a file, if it has one.
    pub fn file_path(&self, file: FileId) -> Option<PathBuf> {
        let path: &VfsPath = self.vfs.file_path(file);
        path.as_path().map(|p| p.to_path_buf().into())
    }

    /// The on-disk path of `file` when it is a Rust file of the workspace's own
    /// source roots (not std's, nor a dependency's).
    pub(crate) fn local_rust_file_path(&self, file: FileId) -> Option<PathBuf> {
        use ra_ap_ide_db::base_db::SourceDatabase;
        let root = self.db.file_source_root(file).source_root_id(&self.db);
        if self.db.source_root(root).source_root(&self.db).is_library {
            return None;
        }
        self.file_path(file).filter(|path| path.extension().is_some_and(|extension| extension == "rs"))
    }

    /// The cargo features the workspace's crate whose root file is `root_file` was
    /// loaded with (its `feature = "..."` cfgs), sorted; `None` when no crate of the
    /// workspace has that root.
    pub fn crate_features(&self, root_file: &Path) -> Option<Vec<String>> {
        let krate = workspace_crates(&self.db)
            .into_iter()
            .find(|krate| self.file_path(krate.data(&self.db).root_file_id).as_deref() == Some(root_file))?;
        let mut features: Vec<String> =
            krate.cfg_options(&self.db).get_cfg_values("feature").map(|value| value.as_str().to_owned()).collect();
        features.sort();
        Some(features)
    }

    /// `path` relative to the workspace root when it is inside it.
    pub fn display_path(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
    }
}

/// `#[noalloc::root]` and its siblings are inert attribute macros: expanded, they
/// would move the items they stand on into macro files, where the directives (read
/// from the source file) could not find them. Taking away the expanders of the
/// `noalloc` crate makes rust-analyzer leave those items where they are written, as
/// it does for any attribute whose expander is missing.
fn keep_noalloc_attributes_unexpanded(db: &mut RootDatabase) {
    use ra_ap_ide_db::base_db::{self, salsa::Setter};
    let noalloc_crates: Vec<base_db::Crate> = base_db::all_crates(db)
        .iter()
        .copied()
        .filter(|krate| {
            krate.data(db).is_proc_macro
                && krate
                    .extra_data(db)
                    .display_name
                    .as_ref()
                    .is_some_and(|name| name.crate_name().as_str() == "noalloc")
        })
        .collect();
    if noalloc_crates.is_empty() {
        return;
    }
    let proc_macros = hir_expand::proc_macro::ProcMacros::get(db);
    let mut by_crate = proc_macros.by_crate(db).clone();
    by_crate.retain(|krate, _| !noalloc_crates.contains(krate));
    proc_macros.set_by_crate(db).to(by_crate);
}

/// Drops the edges from proc-macro crates to the registry crates they depend on
/// (`syn`, `quote`, `proc-macro2`), so that a crate only a proc macro uses has no
/// def map built: `syn`'s alone is 220 ms, after `std`'s, on the way to the
/// workspace's. Nothing the engine reads changes: a proc-macro crate's code runs
/// in the compiler, never in the program, and what it gives other crates is its
/// macros, which rust-analyzer knows from the crate's root functions and the
/// compiled library (their names and their expansions), not from its imports;
/// rustc lets it export nothing else. Its edges to std's crates and to the
/// workspace's stay.
fn leave_out_proc_macro_dependencies(db: &mut RootDatabase) {
    use ra_ap_ide_db::base_db::{
        self,
        salsa::{Durability, Setter},
    };
    let proc_macro_crates: Vec<base_db::Crate> =
        base_db::all_crates(db).iter().copied().filter(|krate| krate.data(db).is_proc_macro).collect();
    let mut left_out = 0;
    for krate in proc_macro_crates {
        let mut data = krate.data(db).clone();
        let before = data.dependencies.len();
        data.dependencies.retain(|dep| {
            let origin = &dep.crate_id.data(db).origin;
            origin.is_lang() || origin.is_local()
        });
        if data.dependencies.len() != before {
            left_out += before - data.dependencies.len();
            krate.set_data(db).with_durability(Durability::MEDIUM).to(data);
        }
    }
    tracing::debug!("left out {left_out} dependencies of proc-macro crates");
}

/// The workspace's own crates: not std's, nor the dependencies'.
pub(crate) fn workspace_crates(db: &dyn ra_ap_ide_db::base_db::SourceDatabase) -> Vec<ra_ap_ide_db::base_db::Crate> {
    ra_ap_ide_db::base_db::all_crates(db).iter().copied().filter(|krate| krate.data(db).origin.is_local()).collect()
}
