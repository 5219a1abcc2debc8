//! Which adoption files a check uses: flags first, then `allow`, `baseline` and
//! `exemptions` of `[workspace.metadata.noalloc]` / `[package.metadata.noalloc]`
//! (paths relative to the workspace root). The engine's own settings (`roots`,
//! `line-only`, `scratch`) are read by `CheckConfig::with_manifest`.

use std::path::{Path, PathBuf};

/// The files a check reads or writes; `None` when neither a flag nor Cargo.toml
/// names one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AdoptionFiles {
    pub allow: Option<PathBuf>,
    pub baseline: Option<PathBuf>,
    pub exemptions: Option<PathBuf>,
}

impl AdoptionFiles {
    /// Fills what no flag set from the workspace's Cargo.toml; the workspace table
    /// wins over the package table, as for the engine's settings.
    pub fn with_manifest(mut self, workspace_root: &Path) -> Result<AdoptionFiles, String> {
        let path = workspace_root.join("Cargo.toml");
        let text = std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let manifest: toml::Table = text.parse().map_err(|err| format!("{}: {err}", path.display()))?;
        for section in ["workspace", "package"] {
            let Some(table) = manifest.get(section).and_then(|s| s.get("metadata")?.get("noalloc")?.as_table()) else {
                continue;
            };
            for (key, slot) in
                [("allow", &mut self.allow), ("baseline", &mut self.baseline), ("exemptions", &mut self.exemptions)]
            {
                match table.get(key) {
                    Some(toml::Value::String(file)) if slot.is_none() => *slot = Some(workspace_root.join(file)),
                    None | Some(toml::Value::String(_)) => {}
                    Some(_) => {
                        return Err(format!(
                            "{}: {section}.metadata.noalloc.{key} must be a file path (a string)",
                            path.display()
                        ));
                    }
                }
            }
        }
        Ok(self)
    }
}
