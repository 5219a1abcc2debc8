//! Which proc-macro server expands the derives and attribute macros of a
//! workspace: the pinned toolchain's own (`libexec/rust-analyzer-proc-macro-srv`)
//! where it reads what rust-analyzer 0.0.348 sends, else the `stable` toolchain's,
//! whose cargo then also builds the proc macros (a server loads only what its own
//! compiler built). Owns that choice and its warning; loading is `load`'s.
//!
//! The servers of 1.85 to 1.87 speak protocol 5 but cannot read 0.0.348's spans: a
//! root syntax context is numbered past their interner's range, and the server
//! panics (`assertion failed: id < InternId::MAX`) on the first expansion. 1.88's
//! (protocol 5, a newer span crate) and later ones (6) expand as the embedded
//! library expects.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The first release whose proc-macro server reads rust-analyzer 0.0.348's spans.
pub const FIRST_READABLE_SERVER: (u32, u32) = (1, 88);

/// The toolchain that takes over from a pinned one whose server cannot be used.
const REPLACEMENT_TOOLCHAIN: &str = "stable";

/// Where a workspace's proc macros are built and expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcMacroServer {
    /// The pinned toolchain's server, as rust-analyzer finds it in the sysroot.
    Pinned,
    /// The server of another installed toolchain, whose cargo builds the proc
    /// macros and runs the build scripts.
    Replaced {
        /// The pinned release (`1.85`).
        pinned: String,
        /// The replacement's sysroot (rustup takes it as `RUSTUP_TOOLCHAIN`).
        sysroot: PathBuf,
        /// Its release (`1.95`).
        release: String,
        server: PathBuf,
    },
    /// Neither the pinned toolchain's server nor another's can be used: derives and
    /// attribute macros stay unexpanded, and the calls into them are findings.
    Unavailable {
        /// The pinned release (`1.85`).
        pinned: String,
    },
}

impl ProcMacroServer {
    /// The server for the toolchain at `sysroot`.
    pub fn choose(sysroot: &Path) -> ProcMacroServer {
        let Some(pinned) = release_of(sysroot) else { return ProcMacroServer::Pinned };
        if readable(&pinned) {
            return ProcMacroServer::Pinned;
        }
        let pinned = pinned.to_string();
        match replacement() {
            Some((sysroot, release, server)) => {
                ProcMacroServer::Replaced { pinned, sysroot, release: release.to_string(), server }
            }
            None => ProcMacroServer::Unavailable { pinned },
        }
    }

    /// One line for the user when derives cannot be expanded.
    pub fn warning(&self) -> Option<String> {
        let ProcMacroServer::Unavailable { pinned } = self else { return None };
        let (major, minor) = FIRST_READABLE_SERVER;
        Some(format!(
            "the proc-macro server of {pinned} cannot read what noalloc sends it, and no toolchain {major}.{minor} or later is installed to expand derives and attribute macros with: rustup toolchain install {REPLACEMENT_TOOLCHAIN} --profile minimal. Calls into what they would generate are reported as calls with no known callee"
        ))
    }
}

/// `1.85` of `release: 1.85.1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Release(u32, u32);

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

fn readable(release: &Release) -> bool {
    (release.0, release.1) >= FIRST_READABLE_SERVER
}

/// The release the `rustc` of `sysroot` prints (`rustc -vV`); `None` when it does
/// not run or prints no release.
fn release_of(sysroot: &Path) -> Option<Release> {
    let out = Command::new(sysroot.join("bin").join("rustc")).arg("-vV").output().ok()?;
    parse_release(&String::from_utf8_lossy(&out.stdout))
}

fn parse_release(version_verbose: &str) -> Option<Release> {
    let line = version_verbose.lines().find_map(|line| line.strip_prefix("release: "))?;
    let mut parts = line.trim().split(['.', '-']);
    Some(Release(parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// The `stable` toolchain's sysroot, release and server, when rustup has it
/// installed (nothing is installed here) and its server is readable.
fn replacement() -> Option<(PathBuf, Release, PathBuf)> {
    let out = Command::new("rustup")
        .args(["run", REPLACEMENT_TOOLCHAIN, "rustc", "--print", "sysroot"])
        .env("RUSTUP_AUTO_INSTALL", "0")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let sysroot = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    let release = release_of(&sysroot).filter(readable)?;
    let server = ["libexec", "lib"]
        .iter()
        .map(|dir| sysroot.join(dir).join("rust-analyzer-proc-macro-srv"))
        .find(|path| path.is_file())?;
    Some((sysroot, release, server))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_read_from_rustc_version_verbose() {
        let v185 = "rustc 1.85.1 (4eb161250 2025-03-15)\nbinary: rustc\nhost: x86_64-unknown-linux-gnu\nrelease: 1.85.1\nLLVM version: 19.1.7\n";
        assert_eq!(parse_release(v185), Some(Release(1, 85)));
        assert!(!readable(&Release(1, 87)));
        assert!(readable(&Release(1, 88)));
        assert_eq!(parse_release("release: 1.96.0-nightly\n"), Some(Release(1, 96)));
        assert_eq!(parse_release("rustc 1.85.1\n"), None);
    }

    #[test]
    fn only_an_unavailable_server_warns() {
        assert_eq!(ProcMacroServer::Pinned.warning(), None);
        let warning = ProcMacroServer::Unavailable { pinned: "1.85".to_owned() }.warning().unwrap();
        assert!(warning.contains("rustup toolchain install stable"), "{warning}");
    }
}
