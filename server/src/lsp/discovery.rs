//! Which cargo projects an editor session serves, found as rust-analyzer finds them:
//! in each workspace folder, the Cargo.toml of the folder or of a folder above it,
//! else those of the folders directly below it (`a/Cargo.toml`, `b/Cargo.toml`);
//! or, when `linkedProjects` is set, exactly the ones it names. Owns the search and
//! the message when it finds nothing; serving the projects is `projects`'s.

use std::path::{Path, PathBuf};

/// The projects found, and the folders the search looked in.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Discovery {
    /// The directories that hold each project's Cargo.toml, each once, in the
    /// order found.
    pub(super) projects: Vec<PathBuf>,
    /// Where the search looked, for the message when it finds nothing.
    pub(super) searched: Vec<PathBuf>,
    /// `linkedProjects` entries that name no Cargo.toml.
    pub(super) missing_links: Vec<PathBuf>,
}

/// The projects of `folders`; `linked` (`noalloc.linkedProjects`: Cargo.toml files
/// or the directories that hold them, relative ones taken from the first folder)
/// replaces the search when it names any.
pub(super) fn discover(folders: &[PathBuf], linked: &[PathBuf]) -> Discovery {
    let mut found = Discovery::default();
    if !linked.is_empty() {
        let base = folders.first().cloned().unwrap_or_default();
        for entry in linked {
            let path = base.join(entry);
            let dir = if path.file_name().is_some_and(|name| name == "Cargo.toml") {
                path.parent().map(Path::to_path_buf).unwrap_or_default()
            } else {
                path.clone()
            };
            found.searched.push(path);
            if dir.join("Cargo.toml").is_file() {
                add(&mut found.projects, dir);
            } else {
                found.missing_links.push(entry.clone());
            }
        }
        return found;
    }
    for folder in folders {
        found.searched.push(folder.clone());
        if let Some(root) = folder.ancestors().find(|dir| dir.join("Cargo.toml").is_file()) {
            add(&mut found.projects, root.to_path_buf());
            continue;
        }
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        let mut below: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|dir| dir.join("Cargo.toml").is_file())
            .collect();
        below.sort();
        for dir in below {
            add(&mut found.projects, dir);
        }
    }
    found
}

fn add(projects: &mut Vec<PathBuf>, dir: PathBuf) {
    if !projects.contains(&dir) {
        projects.push(dir);
    }
}

impl Discovery {
    /// What an editor user reads when nothing was found: where the search looked
    /// and the setting that fixes it.
    pub(super) fn nothing_found_message(&self) -> String {
        let places: Vec<String> = self.searched.iter().map(|path| path.display().to_string()).collect();
        if self.missing_links.is_empty() {
            format!(
                "noalloc: no Cargo.toml in {} (nor in a folder above, nor in the folders directly below): nothing is checked. Open the folder of a cargo project, or list its Cargo.toml in the `noalloc.linkedProjects` setting",
                places.join(", ")
            )
        } else {
            let links: Vec<String> = self.missing_links.iter().map(|path| path.display().to_string()).collect();
            format!(
                "noalloc: `noalloc.linkedProjects` names no Cargo.toml at {}: nothing is checked for it. List Cargo.toml files or the directories that hold them, relative to the first workspace folder",
                links.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"p\"\n").unwrap();
    }

    #[test]
    fn projects_one_level_down_are_found_when_the_folder_has_none() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        project(&root.join("b"));
        project(&root.join("a"));
        project(&root.join("a/deeper/c"));
        std::fs::create_dir_all(root.join("docs")).unwrap();
        let found = discover(std::slice::from_ref(&root), &[]);
        assert_eq!(found.projects, [root.join("a"), root.join("b")]);
    }

    #[test]
    fn the_folders_own_cargo_toml_or_one_above_wins() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        project(&root);
        project(&root.join("tools"));
        std::fs::create_dir_all(root.join("src/inner")).unwrap();
        assert_eq!(discover(std::slice::from_ref(&root), &[]).projects, std::slice::from_ref(&root));
        assert_eq!(discover(&[root.join("src/inner")], &[]).projects, std::slice::from_ref(&root));
    }

    #[test]
    fn linked_projects_replace_the_search() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        project(&root.join("a"));
        project(&root.join("far/b"));
        let linked = [PathBuf::from("far/b/Cargo.toml"), PathBuf::from("a"), PathBuf::from("gone")];
        let found = discover(std::slice::from_ref(&root), &linked);
        assert_eq!(found.projects, [root.join("far/b"), root.join("a")]);
        assert_eq!(found.missing_links, [PathBuf::from("gone")]);
        assert!(found.nothing_found_message().contains("names no Cargo.toml at gone"));
    }

    #[test]
    fn nothing_found_says_where_it_looked_and_which_setting_fixes_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        std::fs::create_dir_all(root.join("notes")).unwrap();
        let found = discover(std::slice::from_ref(&root), &[]);
        assert!(found.projects.is_empty());
        let message = found.nothing_found_message();
        assert!(message.contains(&format!("no Cargo.toml in {}", root.display())), "{message}");
        assert!(message.contains("noalloc.linkedProjects"), "{message}");
    }
}
