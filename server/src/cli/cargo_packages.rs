//! The workspace's packages and their targets as `cargo metadata` lists them, and
//! which package, target, crate and module a file of the workspace belongs to: what
//! cargo's JSON stream (`cargo_json`) and the HTML report (`html`) name. Knows no
//! finding and no format.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A package of the workspace.
#[derive(Debug, Clone)]
pub(super) struct CargoPackage {
    /// cargo's package id (`path+file:///ws#example@0.1.0`).
    pub(super) id: String,
    pub(super) manifest_path: PathBuf,
    pub(super) targets: Vec<CargoTarget>,
}

/// A target of a package, with the fields cargo prints in a `compiler-message`.
#[derive(Debug, Clone)]
pub(super) struct CargoTarget {
    pub(super) name: String,
    pub(super) kind: Vec<String>,
    pub(super) src_path: PathBuf,
    /// The object cargo prints in its messages.
    pub(super) json: CargoTargetJson,
}

/// A target as cargo prints it in its messages, its fields in cargo's order.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub(super) struct CargoTargetJson {
    pub(super) kind: Vec<String>,
    pub(super) crate_types: Vec<String>,
    pub(super) name: String,
    pub(super) src_path: PathBuf,
    pub(super) edition: String,
    pub(super) doc: bool,
    pub(super) doctest: bool,
    pub(super) test: bool,
}

/// Where a file belongs: its package, the target whose sources hold it, and the
/// module path the file is (`example::net::http` for `src/net/http.rs`).
#[derive(Debug, Clone, Copy)]
pub(super) struct FilePlace<'a> {
    pub(super) package: &'a CargoPackage,
    pub(super) target: &'a CargoTarget,
}

/// The workspace's packages (`cargo metadata --no-deps`); empty when cargo cannot
/// say (the formats then do without package ids).
pub(super) fn workspace_packages(root: &Path) -> Vec<CargoPackage> {
    let Ok(out) = super::args::cargo_output(root, &["metadata", "--no-deps", "--format-version", "1", "--offline"])
    else {
        return Vec::new();
    };
    let Ok(metadata) = serde_json::from_slice::<Value>(&out) else { return Vec::new() };
    metadata["packages"].as_array().into_iter().flatten().filter_map(package_of).collect()
}

fn package_of(package: &Value) -> Option<CargoPackage> {
    let targets = package["targets"]
        .as_array()?
        .iter()
        .filter_map(|target| {
            let kind: Vec<String> =
                target["kind"].as_array()?.iter().filter_map(|k| k.as_str().map(str::to_owned)).collect();
            let src_path = PathBuf::from(target["src_path"].as_str()?);
            let strings = |key: &str| -> Vec<String> {
                target[key].as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect()
            };
            let name = target["name"].as_str()?.to_owned();
            let json = CargoTargetJson {
                kind: kind.clone(),
                crate_types: strings("crate_types"),
                name: name.clone(),
                src_path: src_path.clone(),
                edition: target["edition"].as_str().unwrap_or("2015").to_owned(),
                doc: target["doc"].as_bool().unwrap_or(true),
                doctest: target["doctest"].as_bool().unwrap_or(false),
                test: target["test"].as_bool().unwrap_or(true),
            };
            Some(CargoTarget { name, kind, src_path, json })
        })
        .collect();
    Some(CargoPackage {
        id: package["id"].as_str()?.to_owned(),
        manifest_path: PathBuf::from(package["manifest_path"].as_str()?),
        targets,
    })
}

/// The package and target `file` belongs to: the target whose source directory
/// holds it most closely (a library before a binary in the same directory), in
/// the package whose directory holds it most closely. `None` outside the packages.
pub(super) fn place_of<'a>(packages: &'a [CargoPackage], file: &Path) -> Option<FilePlace<'a>> {
    let package = packages
        .iter()
        .filter(|package| package.manifest_path.parent().is_some_and(|dir| file.starts_with(dir)))
        .max_by_key(|package| package.manifest_path.components().count())?;
    let source_dir = |target: &CargoTarget| target.src_path.parent().map(Path::to_path_buf).unwrap_or_default();
    let target = package
        .targets
        .iter()
        .filter(|target| file.starts_with(source_dir(target)))
        .max_by_key(|target| (source_dir(target).components().count(), target.is_library()))
        .or_else(|| package.targets.iter().find(|target| target.is_library()))
        .or_else(|| package.targets.first())?;
    Some(FilePlace { package, target })
}

impl CargoTarget {
    fn is_library(&self) -> bool {
        self.kind.iter().any(|kind| kind == "lib" || kind == "rlib" || kind == "proc-macro")
    }

    /// The crate's name as paths spell it (`my_crate` for `my-crate`).
    pub(super) fn crate_name(&self) -> String {
        self.name.replace('-', "_")
    }
}

impl FilePlace<'_> {
    /// The module path `file` is, by Rust's file layout: the target's root file is
    /// the crate, `a.rs` and `a/mod.rs` beside it `krate::a`, `a/b.rs` `krate::a::b`.
    pub(super) fn module_of(&self, file: &Path) -> String {
        let krate = self.target.crate_name();
        let Some(dir) = self.target.src_path.parent() else { return krate };
        if file == self.target.src_path {
            return krate;
        }
        let Ok(relative) = file.strip_prefix(dir) else { return krate };
        let mut segments: Vec<String> =
            relative.with_extension("").components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if segments.last().is_some_and(|last| last == "mod") {
            segments.pop();
        }
        std::iter::once(krate).chain(segments).collect::<Vec<_>>().join("::")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(name: &str, kind: &str, src: &str) -> CargoTarget {
        CargoTarget {
            name: name.into(),
            kind: vec![kind.into()],
            src_path: src.into(),
            json: CargoTargetJson::default(),
        }
    }

    #[test]
    fn a_file_belongs_to_the_closest_target_and_is_the_module_its_path_spells() {
        let packages = vec![
            CargoPackage {
                id: "app".into(),
                manifest_path: "/ws/Cargo.toml".into(),
                targets: vec![target("app", "bin", "/ws/src/main.rs"), target("my-lib", "lib", "/ws/src/lib.rs")],
            },
            CargoPackage {
                id: "inner".into(),
                manifest_path: "/ws/inner/Cargo.toml".into(),
                targets: vec![target("inner", "lib", "/ws/inner/src/lib.rs")],
            },
        ];
        let module = |file: &str| {
            let place = place_of(&packages, Path::new(file)).expect("in a package");
            (place.package.id.clone(), place.module_of(Path::new(file)))
        };
        assert_eq!(module("/ws/src/lib.rs"), ("app".into(), "my_lib".into()));
        assert_eq!(module("/ws/src/net/mod.rs"), ("app".into(), "my_lib::net".into()));
        assert_eq!(module("/ws/src/net/http.rs"), ("app".into(), "my_lib::net::http".into()));
        assert_eq!(module("/ws/inner/src/a.rs"), ("inner".into(), "inner::a".into()));
        assert!(place_of(&packages, Path::new("/elsewhere/lib.rs")).is_none());
    }
}
