//! Integration tests of noalloc-ls: the engine on the fixture workspaces under
//! `test-data/` (golden findings, updated with `UPDATE_EXPECT=1`), and the checker's
//! command line: formats, exit statuses and errors; and `--cross-check` against the
//! compiled program.
//!
//! Loading a workspace with std takes seconds, so each fixture is loaded once per
//! test binary and shared (`fixture`).

mod adoption;
mod cargo_stream;
mod cli;
mod compositions;
mod cross_check;
mod docs;
mod engine;
mod generic_roots;
mod html_report;
mod live_workspace;
mod lsp;
mod precision;
mod progress;
mod soundness;
mod toolchains;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use noalloc_ls::engine::{analyze, Analysis, CheckConfig, LoadOptions, Workspace};

/// Each root and its status, one a line: `krate::f: clean` or `flagged (N findings)`.
pub fn roots_table(analysis: &Analysis) -> String {
    let mut out = String::new();
    for root in &analysis.roots {
        let status = match root.findings {
            0 => "clean".to_owned(),
            n => format!("flagged ({n} finding{})", if n == 1 { "" } else { "s" }),
        };
        out.push_str(&format!("{}: {status}\n", root.function));
    }
    out
}

pub fn test_data(name: &str) -> PathBuf {
    package_dir().join("../test-data").join(name).canonicalize().unwrap()
}

/// The server package's directory: as `cargo test` names it when it runs the
/// tests, else as the build did. A target directory shared between checkouts can
/// hand this one a test binary another checkout built (the sources are the same),
/// whose `env!` names the other checkout.
pub fn package_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// A package named `name` in a temporary directory, with `files` (paths under the
/// package's root) written beside its `Cargo.toml`; the directory, and its
/// canonical path.
pub fn temp_package(name: &str, files: &[(impl AsRef<str>, impl AsRef<str>)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let manifest = format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
    let files = files.iter().map(|(path, text)| (path.as_ref(), text.as_ref()));
    for (path, text) in std::iter::once(("Cargo.toml", manifest.as_str())).chain(files) {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    (dir, root)
}

/// A loaded fixture and its analysis with the default configuration.
pub struct Fixture {
    pub ws: Workspace,
    pub analysis: Analysis,
}

type Shared = Arc<Mutex<Fixture>>;

/// Loads `test-data/<name>` once for the whole test binary.
pub fn fixture(name: &'static str) -> Shared {
    static LOADED: OnceLock<Mutex<Vec<(&'static str, Shared)>>> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| Mutex::new(Vec::new()));
    let mut loaded = loaded.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, shared)) = loaded.iter().find(|(n, _)| *n == name) {
        return shared.clone();
    }
    let ws = Workspace::load(&test_data(name), &LoadOptions::default(), &|_| {}).expect("fixture loads");
    let config = CheckConfig::default().with_manifest(&ws.root).expect("fixture manifest");
    let analysis = analyze(&ws, &config);
    let shared = Arc::new(Mutex::new(Fixture { ws, analysis }));
    loaded.push((name, shared.clone()));
    shared
}
