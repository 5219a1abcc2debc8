//! Finding the toolchain and the standard library's source the way a user's machine
//! has them. `rustc` and `cargo` as rust-analyzer's `toolchain` crate finds them
//! (`$RUSTC`/`$CARGO`, `PATH`, `$CARGO_HOME/bin`, `~/.cargo/bin`), run in the
//! workspace so its `rust-toolchain.toml` picks the toolchain; then std's source: that
//! toolchain's `lib/rustlib/src/rust/library`, `RUST_SRC_PATH`, Debian's
//! `rust-web-src` location. Owns nothing else.

use std::path::{Path, PathBuf};
use std::process::Command;

pub use ra_ap_toolchain::Tool;

/// Where std's source was found, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdSource {
    pub library: PathBuf,
    pub origin: StdSourceOrigin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdSourceOrigin {
    Toolchain,
    RustSrcPath,
    Debian,
}

pub const DEBIAN_RUST_SRC: &str = "/usr/lib/rustlib/src/rust/library";

/// The message a user sees when no std source exists anywhere we look.
pub const MISSING_STD_SOURCE: &str = "no standard library source found: run `rustup component add rust-src`, or set RUST_SRC_PATH to a `library` directory (Debian: `apt-get install rust-web-src`)";

/// Looks in the three places in order. `sysroot` is the toolchain's sysroot when known.
pub fn discover(sysroot: Option<&Path>, rust_src_path: Option<&Path>, debian: &Path) -> Option<StdSource> {
    let toolchain = sysroot.map(|s| s.join("lib/rustlib/src/rust/library"));
    let candidates = [
        (toolchain, StdSourceOrigin::Toolchain),
        (rust_src_path.map(Path::to_path_buf), StdSourceOrigin::RustSrcPath),
        (Some(debian.to_path_buf()), StdSourceOrigin::Debian),
    ];
    candidates.into_iter().find_map(|(path, origin)| {
        let path = path?;
        is_library_dir(&path).then_some(StdSource { library: path, origin })
    })
}

/// Discovery from this process's environment: `rustc --print sysroot` run in the
/// workspace, and `RUST_SRC_PATH`. With it, the sysroot `rustc` printed, if it was
/// asked: rust-analyzer, handed it, does not run `rustc` again for it.
pub fn discover_from_env(workspace: &Path) -> (Option<StdSource>, Option<PathBuf>) {
    let named = std::env::var_os("NOALLOC_TOOLCHAIN_SYSROOT").is_some();
    let sysroot = toolchain_sysroot(workspace);
    let printed = sysroot.clone().filter(|_| !named);
    let rust_src_path = std::env::var_os("RUST_SRC_PATH").map(PathBuf::from);
    // NOALLOC_DEBIAN_RUST_SRC moves the last fallback (for packagers, and for tests).
    let debian =
        std::env::var_os("NOALLOC_DEBIAN_RUST_SRC").map_or_else(|| PathBuf::from(DEBIAN_RUST_SRC), PathBuf::from);
    (discover(sysroot.as_deref(), rust_src_path.as_deref(), &debian), printed)
}

/// The sysroot of the toolchain the workspace uses (its `rust-toolchain.toml`, else
/// rustup's default). `NOALLOC_TOOLCHAIN_SYSROOT` names it instead of asking `rustc
/// --print sysroot` (for packagers, and for tests).
pub fn toolchain_sysroot(workspace: &Path) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NOALLOC_TOOLCHAIN_SYSROOT") {
        return Some(PathBuf::from(path));
    }
    sysroot_or_error(workspace).ok()
}

/// `rustc --print sysroot` run in the workspace, or what it printed on stderr.
fn sysroot_or_error(workspace: &Path) -> Result<PathBuf, String> {
    let rustc = find_tool(Tool::Rustc)?;
    let out = Command::new(rustc)
        .args(["--print", "sysroot"])
        .current_dir(workspace)
        .output()
        .map_err(|err| err.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let path = String::from_utf8(out.stdout).map_err(|err| err.to_string())?;
    Ok(PathBuf::from(path.trim()))
}

/// The toolchain a `rust-toolchain.toml` (or legacy `rust-toolchain`) file pins, in
/// the workspace or a directory above it, as rustup looks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinnedToolchain {
    /// The file's name (`rust-toolchain.toml`), as the message names it.
    pub file: String,
    pub channel: String,
}

/// The nearest toolchain file at or above `workspace` and the channel it pins;
/// `None` when there is none or it pins no channel (only components, say).
pub fn pinned_toolchain(workspace: &Path) -> Option<PinnedToolchain> {
    for dir in workspace.ancestors() {
        for file in ["rust-toolchain", "rust-toolchain.toml"] {
            let Ok(text) = std::fs::read_to_string(dir.join(file)) else { continue };
            let channel = match text.parse::<toml::Table>() {
                Ok(table) => table.get("toolchain")?.get("channel")?.as_str()?.to_owned(),
                // The legacy form: the channel alone on one line.
                Err(_) if file == "rust-toolchain" && text.trim().lines().count() == 1 => text.trim().to_owned(),
                Err(_) => return None,
            };
            return Some(PinnedToolchain { file: file.to_owned(), channel });
        }
    }
    None
}

/// Why std's source was not found when the workspace pins a toolchain through a
/// file and rustup picks it (no `RUSTUP_TOOLCHAIN` or sysroot override): the
/// toolchain is not installed, or is installed without `rust-src`. `None` when no
/// file pins one, or neither is the reason: the general message applies.
pub fn pinned_toolchain_problem(workspace: &Path) -> Option<PinnedProblem> {
    if std::env::var_os("RUSTUP_TOOLCHAIN").is_some() || std::env::var_os("NOALLOC_TOOLCHAIN_SYSROOT").is_some() {
        return None;
    }
    let pinned = pinned_toolchain(workspace)?;
    pinned_problem(&pinned, sysroot_or_error(workspace))
}

/// What is missing of a pinned toolchain; each message names the command that
/// installs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinnedProblem {
    /// The toolchain itself: cargo cannot run either, whatever std source is found.
    NotInstalled(String),
    /// Its `rust-src` component: `RUST_SRC_PATH` may stand in.
    NoStdSource(String),
}

impl PinnedProblem {
    pub fn message(&self) -> &str {
        match self {
            PinnedProblem::NotInstalled(message) | PinnedProblem::NoStdSource(message) => message,
        }
    }
}

fn pinned_problem(pinned: &PinnedToolchain, sysroot: Result<PathBuf, String>) -> Option<PinnedProblem> {
    let PinnedToolchain { file, channel } = pinned;
    match sysroot {
        Err(stderr) if stderr.contains("is not installed") => Some(PinnedProblem::NotInstalled(format!(
            "{file} pins {channel}, which is not installed: rustup toolchain install {channel} -c rust-src"
        ))),
        Ok(sysroot) if !is_library_dir(&sysroot.join("lib/rustlib/src/rust/library")) => Some(PinnedProblem::NoStdSource(format!(
            "{file} pins {channel}, whose standard library source is not installed: rustup component add rust-src --toolchain {channel}"
        ))),
        _ => None,
    }
}

/// Where `cargo` or `rustc` is, as rust-analyzer finds it; when it is nowhere, a
/// message that says where it was looked for and what to do.
pub fn find_tool(tool: Tool) -> Result<PathBuf, String> {
    let found = tool.path();
    if found.as_str() != tool.name() {
        return Ok(found.into());
    }
    let name = tool.name();
    let variable = name.to_uppercase();
    let cargo_home = match std::env::var_os("CARGO_HOME") {
        Some(home) => format!("$CARGO_HOME/bin ({})", Path::new(&home).join("bin").display()),
        None => match dirs::home_dir() {
            Some(home) => format!("~/.cargo/bin ({})", home.join(".cargo/bin").display()),
            None => "~/.cargo/bin (no home directory)".to_owned(),
        },
    };
    Err(format!(
        "no `{name}` found: looked at ${variable}, each directory of PATH and {cargo_home}; install Rust with rustup (https://rustup.rs), or set {variable} to the `{name}` to use"
    ))
}

/// What cargo's child processes need to find the toolchain when `PATH` does not
/// lead to it: `RUSTC` set to the `rustc` found (in `~/.cargo/bin`, say), since cargo
/// itself looks only at `RUSTC` and `PATH`. Empty when `PATH` or `RUSTC` already
/// leads there (a rustup proxy on `PATH` picks the toolchain itself).
pub fn toolchain_env() -> ra_ap_ide_db::FxHashMap<String, Option<String>> {
    let mut env = ra_ap_ide_db::FxHashMap::default();
    if std::env::var_os("RUSTC").is_some() {
        return env;
    }
    let Ok(rustc) = find_tool(Tool::Rustc) else { return env };
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| Some(dir.as_path()) == rustc.parent()));
    if !on_path {
        env.insert("RUSTC".to_owned(), Some(rustc.display().to_string()));
    }
    env
}

fn is_library_dir(path: &Path) -> bool {
    path.join("core/src/lib.rs").is_file() && path.join("alloc/src/lib.rs").is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_library(root: &Path) -> PathBuf {
        let lib = root.join("library");
        for krate in ["core", "alloc"] {
            std::fs::create_dir_all(lib.join(krate).join("src")).unwrap();
            std::fs::write(lib.join(krate).join("src/lib.rs"), "").unwrap();
        }
        lib
    }

    #[test]
    fn prefers_toolchain_then_env_then_debian() {
        let dir = tempfile::tempdir().unwrap();
        let sysroot = dir.path().join("sysroot");
        let toolchain_lib = fake_library(&sysroot.join("lib/rustlib/src/rust"));
        let env_lib = fake_library(&dir.path().join("env"));
        let debian_lib = fake_library(&dir.path().join("debian"));

        let found = discover(Some(&sysroot), Some(&env_lib), &debian_lib).unwrap();
        assert_eq!(found, StdSource { library: toolchain_lib, origin: StdSourceOrigin::Toolchain });

        let no_toolchain = dir.path().join("empty-sysroot");
        let found = discover(Some(&no_toolchain), Some(&env_lib), &debian_lib).unwrap();
        assert_eq!(found.origin, StdSourceOrigin::RustSrcPath);

        let found = discover(Some(&no_toolchain), None, &debian_lib).unwrap();
        assert_eq!(found, StdSource { library: debian_lib, origin: StdSourceOrigin::Debian });

        assert_eq!(discover(Some(&no_toolchain), None, &dir.path().join("nowhere")), None);
    }

    #[test]
    fn a_pinned_toolchain_that_is_missing_says_how_to_install_it() {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("ws/member");
        std::fs::create_dir_all(&workspace).unwrap();
        assert_eq!(pinned_toolchain(&workspace), None);
        std::fs::write(dir.path().join("ws/rust-toolchain.toml"), "[toolchain]\nchannel = \"1.95\"\n").unwrap();
        let pinned = pinned_toolchain(&workspace).unwrap();
        assert_eq!(pinned, PinnedToolchain { file: "rust-toolchain.toml".to_owned(), channel: "1.95".to_owned() });
        let rustup = "error: toolchain '1.95-x86_64-unknown-linux-gnu' is not installed\nhelp: run `rustup toolchain install` to install it\n";
        assert_eq!(
            pinned_problem(&pinned, Err(rustup.to_owned())).as_ref().map(PinnedProblem::message),
            Some("rust-toolchain.toml pins 1.95, which is not installed: rustup toolchain install 1.95 -c rust-src")
        );
        let sysroot = dir.path().join("sysroot");
        assert_eq!(
            pinned_problem(&pinned, Ok(sysroot.clone())).as_ref().map(PinnedProblem::message),
            Some("rust-toolchain.toml pins 1.95, whose standard library source is not installed: rustup component add rust-src --toolchain 1.95")
        );
        fake_library(&sysroot.join("lib/rustlib/src/rust"));
        assert_eq!(pinned_problem(&pinned, Ok(sysroot)), None);
        assert_eq!(pinned_problem(&pinned, Err("some other failure".to_owned())), None);

        std::fs::write(workspace.join("rust-toolchain"), "1.85\n").unwrap();
        assert_eq!(pinned_toolchain(&workspace).unwrap().channel, "1.85");
    }
}
