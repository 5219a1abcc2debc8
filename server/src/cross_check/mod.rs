//! `--cross-check`: holds the engine's verdict on each root against the compiled,
//! optimised whole program. A harness crate keeps the roots alive (`harness`), its
//! fat-LTO LLVM IR gives the call graph (`ir`), a search from each root's symbol
//! finds the allocator (`reach`), and `compare` weighs that against the
//! `engine::Analysis`. Decides nothing about allocation in the source; the engine
//! does.

mod compare;
mod harness;
mod ir;
mod reach;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::engine::{AllowEntry, Analysis};

pub use compare::{compare, Allowance, Compiled, Outcome, RootComparison};
pub use reach::{CompiledReach, CompiledStep};

/// The cross-check of one workspace.
#[derive(Debug, Clone)]
pub struct CrossCheck {
    pub roots: Vec<RootComparison>,
    /// Where the harness crate was generated and built.
    pub harness_dir: PathBuf,
    pub timings: CrossCheckTimings,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrossCheckTimings {
    /// Generating and building the harness (cargo; nothing to do when fresh).
    pub build_ms: u128,
    /// Reading the IR and searching it from every root.
    pub graph_ms: u128,
    /// Functions defined or declared in the whole program.
    pub functions_in_program: usize,
}

impl CrossCheck {
    /// The roots that fail the check: the compiled code allocates, the engine said
    /// clean, and no allowance of the engine explains it.
    pub fn failures(&self) -> impl Iterator<Item = &RootComparison> {
        self.roots.iter().filter(|root| root.fails())
    }
}

/// Builds the workspace's roots as one optimised program and compares, root by
/// root, with `analysis`. `allow` is the allowlist the analysis ran with.
pub fn run(workspace_root: &Path, analysis: &Analysis, allow: &[AllowEntry]) -> Result<CrossCheck, String> {
    let started = Instant::now();
    let root_paths: Vec<String> = analysis.roots.iter().map(|root| root.function.clone()).collect();
    let built = harness::build(workspace_root, &root_paths)?;
    let build_ms = started.elapsed().as_millis();
    let started = Instant::now();
    let text = std::fs::read_to_string(&built.ir).map_err(|err| format!("{}: {err}", built.ir.display()))?;
    let program = reach::CompiledProgram::new(ir::Module::parse(&text));
    drop(text);
    let table = program
        .module()
        .globals
        .iter()
        .find(|(symbol, _)| program.name(symbol) == harness::ROOTS_TABLE)
        .map(|(_, entries)| entries.clone())
        .ok_or_else(|| format!("{}: the harness's table of roots is not in the IR", built.ir.display()))?;
    if table.len() != built.kept.len() {
        return Err(format!(
            "{}: the table of roots holds {} entries, the harness kept {}",
            built.ir.display(),
            table.len(),
            built.kept.len()
        ));
    }
    let mut compiled: Vec<Compiled> = root_paths
        .iter()
        .enumerate()
        .map(|(index, _)| {
            Compiled::Skipped(built.skipped.get(&index).cloned().unwrap_or_else(|| "not built".to_owned()))
        })
        .collect();
    for (&index, symbol) in built.kept.iter().zip(&table) {
        compiled[index] = Compiled::Reached(program.reach(symbol));
    }
    let roots = compare(analysis, &compiled, allow);
    let timings = CrossCheckTimings {
        build_ms,
        graph_ms: started.elapsed().as_millis(),
        functions_in_program: program.module().functions.len(),
    };
    Ok(CrossCheck { roots, harness_dir: built.dir, timings })
}

/// Whether Cargo.toml turns the cross-check on (`cross-check = true` in
/// `[workspace.metadata.noalloc]` or `[package.metadata.noalloc]`).
pub fn enabled_in_manifest(workspace_root: &Path) -> Result<bool, String> {
    let path = workspace_root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let manifest: toml::Table = text.parse().map_err(|err| format!("{}: {err}", path.display()))?;
    let mut enabled = false;
    for section in ["workspace", "package"] {
        let setting = manifest
            .get(section)
            .and_then(|s| s.get("metadata"))
            .and_then(|m| m.get("noalloc"))
            .and_then(|n| n.get("cross-check"));
        match setting {
            None => {}
            Some(toml::Value::Boolean(on)) => enabled |= on,
            Some(_) => return Err(format!("{}: metadata.noalloc.cross-check must be true or false", path.display())),
        }
    }
    Ok(enabled)
}

#[cfg(test)]
mod tests {
    use super::enabled_in_manifest;

    #[test]
    fn the_manifest_turns_the_cross_check_on() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        std::fs::write(&manifest, "[package]\nname = \"a\"\n[package.metadata.noalloc]\ncross-check = true\n").unwrap();
        assert_eq!(enabled_in_manifest(dir.path()), Ok(true));
        std::fs::write(&manifest, "[workspace]\n[workspace.metadata.noalloc]\nroots = []\n").unwrap();
        assert_eq!(enabled_in_manifest(dir.path()), Ok(false));
        std::fs::write(&manifest, "[workspace.metadata.noalloc]\ncross-check = \"yes\"\n").unwrap();
        assert!(enabled_in_manifest(dir.path())
            .unwrap_err()
            .ends_with("metadata.noalloc.cross-check must be true or false"));
    }
}
