//! The harness crate: a small binary under the workspace's target directory (never
//! in the user's tree) that depends on the workspace's library crates by path and
//! keeps every root it can name alive in a `#[used]` static, built with fat LTO and
//! one codegen unit to LLVM IR, so the IR holds the whole optimised program, std
//! and every dependency included. Owns generating and building it; reading the IR
//! is `ir`'s job.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The harness's package and binary name.
const HARNESS: &str = "noalloc-cross-check-harness";
/// Its table of roots, as the IR names it once demangled.
pub const ROOTS_TABLE: &str = "noalloc_cross_check_harness::NOALLOC_ROOTS";
/// Builds that drop the roots the compiler refuses before giving up.
const ATTEMPTS: usize = 3;

/// A built harness.
#[derive(Debug)]
pub struct Harness {
    /// Where the harness crate is.
    pub dir: PathBuf,
    /// The whole program's IR.
    pub ir: PathBuf,
    /// The roots in the table, in order (indexes into the roots asked for).
    pub kept: Vec<usize>,
    /// Roots the harness could not name, with the reason (the compiler's message).
    pub skipped: BTreeMap<usize, String>,
    /// Held while the harness is written, built and its IR read: another check of
    /// the same workspace waits.
    _lock: std::fs::File,
}

/// A workspace library crate the harness can depend on.
struct LibraryCrate {
    /// The crate's name in paths (`my_crate`).
    crate_name: String,
    package: String,
    manifest_dir: PathBuf,
}

/// Generates the harness for `roots` (crate-qualified paths) of the workspace at
/// `workspace_root` and builds it; an unchanged workspace is not rebuilt (cargo's
/// own freshness check).
pub fn build(workspace_root: &Path, roots: &[String]) -> Result<Harness, String> {
    let metadata = cargo_metadata(workspace_root)?;
    let target_dir =
        metadata["target_directory"].as_str().map(PathBuf::from).ok_or("cargo metadata: no target_directory")?;
    let libraries = library_crates(&metadata);
    let mut skipped = BTreeMap::new();
    let mut candidates = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        // `<krate::T as Trait>::m` names its crate after the `<`.
        let krate = root.trim_start_matches('<').split("::").next().unwrap_or("");
        if !libraries.iter().any(|lib| lib.crate_name == krate) {
            skipped.insert(
                index,
                format!("`{krate}` is not a library crate of the workspace: the harness cannot link it"),
            );
        } else if root.contains('{') || !root.contains("::") {
            skipped.insert(index, "not a path the harness can name".to_owned());
        } else {
            candidates.push(index);
        }
    }
    let dir = target_dir.join("noalloc-cross-check").join(harness_dir_name(workspace_root));
    std::fs::create_dir_all(dir.join("src")).map_err(|err| format!("{}: {err}", dir.display()))?;
    let lock_path = dir.join(".noalloc-lock");
    let build_lock = std::fs::File::create(&lock_path).map_err(|err| format!("{}: {err}", lock_path.display()))?;
    build_lock.lock().map_err(|err| format!("{}: {err}", lock_path.display()))?;
    write_if_changed(&dir.join("Cargo.toml"), &manifest(&libraries))?;
    let lock = workspace_root.join("Cargo.lock");
    if lock.is_file() && !dir.join("Cargo.lock").is_file() {
        // The workspace's own versions of its dependencies.
        std::fs::copy(&lock, dir.join("Cargo.lock")).map_err(|err| format!("{}: {err}", lock.display()))?;
    }
    // The roots the compiler refused last time, while the sources are unchanged:
    // left out at once, so that a fresh harness is not rebuilt to learn them again.
    let fingerprint = sources_fingerprint(workspace_root, roots);
    let refused_file = dir.join("refused.json");
    if let Some(earlier) = read_refused(&refused_file, &fingerprint) {
        candidates.retain(|&index| match earlier.get(&roots[index]) {
            Some(reason) => {
                skipped.insert(index, reason.clone());
                false
            }
            None => true,
        });
    }
    for _ in 0..ATTEMPTS {
        write_if_changed(&dir.join("src/main.rs"), &main_rs(roots, &candidates))?;
        let refused = match cargo_build(&dir)? {
            Ok(()) => {
                let ir = find_ir(&dir)?;
                let refused: BTreeMap<&str, &str> =
                    skipped.iter().map(|(&index, reason)| (roots[index].as_str(), reason.as_str())).collect();
                write_if_changed(
                    &refused_file,
                    &serde_json::json!({"sources": fingerprint, "refused": refused}).to_string(),
                )?;
                return Ok(Harness { dir, ir, kept: candidates, skipped, _lock: build_lock });
            }
            Err(refused) => refused,
        };
        if refused.lines.is_empty() {
            return Err(format!("building the cross-check harness at {} failed:\n{}", dir.display(), refused.rendered));
        }
        // Line 1 + FIRST_ROOT_LINE + i holds candidate i.
        let mut kept = Vec::new();
        for (position, &index) in candidates.iter().enumerate() {
            match refused.lines.get(&(FIRST_ROOT_LINE + position as u32)) {
                Some(reason) => {
                    skipped.insert(index, reason.clone());
                }
                None => kept.push(index),
            }
        }
        candidates = kept;
    }
    Err(format!(
        "the cross-check harness at {} still fails to build after dropping the roots the compiler refused",
        dir.display()
    ))
}

/// A hash of the roots and of the size and modification time of every `.rs` and
/// `Cargo.toml` file of the workspace (`target` and hidden directories aside).
fn sources_fingerprint(workspace_root: &Path, roots: &[String]) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    roots.hash(&mut hasher);
    let mut stack = vec![workspace_root.to_owned()];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().filter_map(Result::ok) {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let path = entry.path();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    stack.push(path);
                }
            } else if name.ends_with(".rs") || name == "Cargo.toml" || name == "Cargo.lock" {
                let modified = entry.metadata().ok().map(|m| (m.len(), m.modified().ok()));
                files.push((path, modified));
            }
        }
    }
    files.sort();
    files.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The roots refused by the last build, if it saw the same sources.
fn read_refused(path: &Path, fingerprint: &str) -> Option<BTreeMap<String, String>> {
    let value: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    if value["sources"] != fingerprint {
        return None;
    }
    serde_json::from_value(value["refused"].clone()).ok()
}

fn cargo_metadata(workspace_root: &Path) -> Result<Value, String> {
    let output = Command::new(cargo())
        .args(["metadata", "--format-version", "1", "--no-deps", "--manifest-path"])
        .arg(workspace_root.join("Cargo.toml"))
        .output()
        .map_err(|err| format!("could not run cargo metadata: {err}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    serde_json::from_slice(&output.stdout).map_err(|err| format!("cargo metadata: {err}"))
}

fn cargo() -> PathBuf {
    std::env::var_os("CARGO").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("cargo"))
}

fn library_crates(metadata: &Value) -> Vec<LibraryCrate> {
    let mut libraries = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let is_lib = |target: &&Value| {
            target["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| matches!(k.as_str(), Some("lib" | "rlib"))))
        };
        let Some(target) = package["targets"].as_array().into_iter().flatten().find(is_lib) else { continue };
        let (Some(name), Some(package_name), Some(manifest)) =
            (target["name"].as_str(), package["name"].as_str(), package["manifest_path"].as_str())
        else {
            continue;
        };
        libraries.push(LibraryCrate {
            crate_name: name.replace('-', "_"),
            package: package_name.to_owned(),
            manifest_dir: Path::new(manifest).parent().unwrap_or(Path::new(".")).to_owned(),
        });
    }
    libraries
}

/// One harness per workspace: its directory name and a hash of its path.
fn harness_dir_name(workspace_root: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    workspace_root.hash(&mut hasher);
    let name = workspace_root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{name}-{:016x}", hasher.finish())
}

fn manifest(libraries: &[LibraryCrate]) -> String {
    let mut text = format!(
        "# Generated by `noalloc-ls --cross-check`; rewritten on every run.\n\
         [package]\nname = \"{HARNESS}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\n"
    );
    for lib in libraries {
        text.push_str(&format!(
            "{} = {{ package = \"{}\", path = {} }}\n",
            lib.crate_name,
            lib.package,
            toml::Value::String(lib.manifest_dir.display().to_string())
        ));
    }
    // The whole program, optimised, in one module, with line tables: a compiled
    // call is matched to the source line it comes from, through inlining.
    text.push_str(
        "\n[profile.release]\nlto = \"fat\"\ncodegen-units = 1\ndebug = \"line-tables-only\"\nincremental = false\n",
    );
    text
}

/// The line of `main.rs` that holds the first root.
const FIRST_ROOT_LINE: u32 = 6;

fn main_rs(roots: &[String], kept: &[usize]) -> String {
    let mut text = format!(
        "//! Generated by `noalloc-ls --cross-check`: keeps each root alive for the compiled call graph.\n\
         #![allow(warnings)]\n\
         struct Roots([*const (); {}]);\n\
         unsafe impl Sync for Roots {{}}\n\
         #[used] static NOALLOC_ROOTS: Roots = Roots([\n",
        kept.len()
    );
    debug_assert_eq!(text.lines().count() as u32, FIRST_ROOT_LINE - 1);
    for &index in kept {
        text.push_str(&format!("    {} as *const (),\n", roots[index]));
    }
    text.push_str("]);\nfn main() {}\n");
    text
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        // Left alone, so that cargo sees a fresh harness.
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes()).map_err(|err| format!("{}: {err}", path.display()))?;
    file.persist(path).map_err(|err| format!("{}: {err}", path.display()))?;
    Ok(())
}

/// What the compiler refused: its message for each line of `main.rs`, and the
/// whole output for the rest.
struct Refused {
    lines: BTreeMap<u32, String>,
    rendered: String,
}

fn cargo_build(dir: &Path) -> Result<Result<(), Refused>, String> {
    let output = Command::new(cargo())
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .args(["rustc", "--release", "--bin", HARNESS, "--message-format", "json", "--", "--emit=llvm-ir"])
        .output()
        .map_err(|err| format!("could not run cargo to build the cross-check harness: {err}"))?;
    if output.status.success() {
        return Ok(Ok(()));
    }
    let mut refused = Refused { lines: BTreeMap::new(), rendered: String::new() };
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else { continue };
        let message = &message["message"];
        if message["level"] != "error" {
            continue;
        }
        if let Some(rendered) = message["rendered"].as_str() {
            refused.rendered.push_str(rendered);
        }
        let text = message["message"].as_str().unwrap_or("refused by the compiler").to_owned();
        for span in message["spans"].as_array().into_iter().flatten() {
            if span["file_name"] == "src/main.rs" {
                if let Some(line) = span["line_start"].as_u64() {
                    refused.lines.entry(line as u32).or_insert_with(|| text.clone());
                }
            }
        }
    }
    refused.rendered.push_str(String::from_utf8_lossy(&output.stderr).trim());
    Ok(Err(refused))
}

/// The IR file of the last build.
fn find_ir(dir: &Path) -> Result<PathBuf, String> {
    let deps = dir.join("target/release/deps");
    let prefix = format!("{}-", HARNESS.replace('-', "_"));
    let newest = std::fs::read_dir(&deps)
        .map_err(|err| format!("{}: {err}", deps.display()))?
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with(&prefix) && name.ends_with(".ll")
        })
        .max_by_key(|entry| entry.metadata().and_then(|m| m.modified()).ok());
    newest
        .map(|entry| entry.path())
        .ok_or_else(|| format!("the harness build wrote no LLVM IR under {}", deps.display()))
}
