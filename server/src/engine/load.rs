//! Loading a cargo workspace into rust-analyzer's database, with std's source and
//! (unless turned off) build scripts and the toolchain's proc-macro server. Owns the
//! database and the VFS; the analysis borrows them.

use std::path::{Path, PathBuf};

use ra_ap_ide_db::RootDatabase;
use ra_ap_load_cargo::{LoadCargoConfig, ProcMacroServerChoice, load_workspace_at};
use ra_ap_paths::{AbsPathBuf, Utf8PathBuf};
use ra_ap_proc_macro_api::ProcMacroClient;
use ra_ap_project_model::{CargoConfig, RustLibSource};
use ra_ap_vfs::{FileId, Vfs, VfsPath};

use super::std_source::{self, MISSING_STD_SOURCE, StdSource};

#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Run build scripts and expand proc macros (derives, attributes). Off for
    /// untrusted workspaces (`--no-build-scripts`).
    pub build_scripts: bool,
    /// Std's source; discovered from the environment when `None`.
    pub std_source: Option<StdSource>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions { build_scripts: true, std_source: None }
    }
}

/// Why a workspace could not be loaded. Each message says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    NoStdSource,
    NoWorkspace(PathBuf),
    Failed(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NoStdSource => f.write_str(MISSING_STD_SOURCE),
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
    _proc_macro_server: Option<ProcMacroClient>,
}

impl Workspace {
    pub fn load(path: &Path, options: &LoadOptions, progress: &(dyn Fn(String) + Sync)) -> Result<Workspace, LoadError> {
        let root = std::fs::canonicalize(path).map_err(|_| LoadError::NoWorkspace(path.to_path_buf()))?;
        if !root.join("Cargo.toml").is_file() {
            return Err(LoadError::NoWorkspace(path.to_path_buf()));
        }
        let std_source = match &options.std_source {
            Some(found) => found.clone(),
            None => std_source::discover_from_env().ok_or(LoadError::NoStdSource)?,
        };
        let sysroot_src = Utf8PathBuf::from_path_buf(std_source.library.clone())
            .map(AbsPathBuf::assert)
            .map_err(|p| LoadError::Failed(format!("std source path is not UTF-8: {}", p.display())))?;
        let cargo_config = CargoConfig {
            sysroot: Some(RustLibSource::Discover),
            sysroot_src: Some(sysroot_src),
            all_targets: true,
            set_test: false,
            ..CargoConfig::default()
        };
        let load_config = LoadCargoConfig {
            load_out_dirs_from_check: options.build_scripts,
            with_proc_macro_server: if options.build_scripts {
                ProcMacroServerChoice::Sysroot
            } else {
                ProcMacroServerChoice::None
            },
            prefill_caches: false,
            num_worker_threads: 1,
            proc_macro_processes: 1,
        };
        let (db, vfs, proc_macro_server) = load_workspace_at(&root, &cargo_config, &load_config, progress)
            .map_err(|err| LoadError::Failed(one_line(&err)))?;
        Ok(Workspace { db, vfs, root, std_source, _proc_macro_server: proc_macro_server })
    }

    /// The on-disk path of a file, if it has one.
    pub fn file_path(&self, file: FileId) -> Option<PathBuf> {
        let path: &VfsPath = self.vfs.file_path(file);
        path.as_path().map(|p| p.to_path_buf().into())
    }

    /// `path` relative to the workspace root when it is inside it.
    pub fn display_path(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).display().to_string()
    }
}
