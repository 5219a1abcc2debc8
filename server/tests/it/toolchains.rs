//! The same verdicts under every toolchain of the supported std range: the
//! `toolchains` fixture checked as a workspace pinned to 1.85, 1.88, 1.91, 1.93 and
//! 1.95 would be (`RUSTUP_TOOLCHAIN` names each: its std source, its cargo, and its
//! proc-macro server for the fixture's `#[derive(serde::Serialize)]`, or on 1.85
//! the `stable` toolchain's that stands in for it), its findings compared with
//! `expected.verdicts`. A release whose `rust-src` is not installed is skipped with
//! a notice, so README's `cargo test --workspace` passes on a bare clone;
//! `.ci/parts/toolchains.sh` installs them all and sets
//! `NOALLOC_TOOLCHAIN_MATRIX=require`, under which a missing one fails.

use std::path::PathBuf;
use std::process::Command;

use crate::cli::{noalloc, run};
use crate::test_data;

/// The releases the matrix checks: the first and last of the supported range, and
/// the layouts between (the sized hierarchy and format_args! constructors moved in
/// 1.89, replaced in 1.93; macros in the prelude from 1.94; a proc-macro server
/// rust-analyzer 0.0.348 can talk to from 1.88).
const RELEASES: [&str; 5] = ["1.85", "1.88", "1.91", "1.93", "1.95"];

/// The sysroot of an installed toolchain that has std's source, without letting
/// rustup install anything.
fn sysroot_with_std_source(release: &str) -> Option<PathBuf> {
    let out = Command::new("rustup")
        .args(["run", release, "rustc", "--print", "sysroot"])
        .env("RUSTUP_AUTO_INSTALL", "0")
        .output()
        .ok()?;
    let sysroot = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && sysroot.join("lib/rustlib/src/rust/library/core/src/lib.rs").is_file()).then_some(sysroot)
}

/// `(major, minor)` of `1.88`.
fn version(release: &str) -> (u32, u32) {
    let mut parts = release.split('.').map(|p| p.parse::<u32>().unwrap());
    (parts.next().unwrap(), parts.next().unwrap())
}

/// The expected `file:line function` lines for `release`: the unprefixed ones,
/// and those whose `A..=B:` range holds it.
fn expected_for(release: &str, text: &str) -> Vec<String> {
    let at = version(release);
    let mut lines = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        match line.split_once(": ") {
            Some((range, verdict)) => {
                let (from, to) = range.split_once("..=").expect("a range is `A..=B`");
                if version(from) <= at && at <= version(to) {
                    lines.push(verdict.to_owned());
                }
            }
            None => lines.push(line.to_owned()),
        }
    }
    lines.sort();
    lines
}

#[test]
fn same_verdicts_under_every_supported_std_release() {
    let fixture = test_data("toolchains");
    let expected = std::fs::read_to_string(fixture.join("expected.verdicts")).unwrap();
    let required = std::env::var("NOALLOC_TOOLCHAIN_MATRIX").is_ok_and(|v| v == "require");
    let mut differences = Vec::new();
    for release in RELEASES {
        let Some(sysroot) = sysroot_with_std_source(release) else {
            assert!(!required, "std {release}'s source is not installed: rustup toolchain install {release} --profile minimal -c rust-src");
            eprintln!("notice: std {release} skipped (not installed: rustup toolchain install {release} --profile minimal -c rust-src)");
            continue;
        };
        let mut cmd = noalloc(&[
            "--check",
            fixture.to_str().unwrap(),
            "--message-format",
            "short",
            "--no-cache",
            "--color",
            "never",
        ]);
        cmd.env("RUSTUP_TOOLCHAIN", &sysroot).env_remove("NOALLOC_TOOLCHAIN_SYSROOT").env_remove("RUSTC");
        let (code, stdout, stderr) = run(&mut cmd);
        assert!(code == 0 || code == 1, "std {release}: exit {code}: {stderr}");
        assert!(!stderr.contains("layout noalloc does not read"), "std {release}: {stderr}");
        // A proc-macro server that cannot read what it is sent panics on stderr.
        assert!(!stderr.contains("panicked"), "std {release}: {stderr}");
        assert!(!stdout.contains("did not expand or lower"), "std {release}:\n{stdout}");
        // `src/lib.rs:26: toolchains::handle: calls ...` -> `src/lib.rs:26 toolchains::handle`.
        let mut got: Vec<String> = stdout
            .lines()
            .filter_map(|line| {
                let mut parts = line.splitn(3, ": ");
                let place = parts.next().filter(|place| place.starts_with("src/"))?;
                Some(format!("{place} {}", parts.next()?))
            })
            .collect();
        got.sort();
        let want = expected_for(release, &expected);
        if got != want {
            differences.push(format!("std {release}:\n  expected {want:?}\n  got      {got:?}\n{stdout}"));
        }
    }
    assert!(differences.is_empty(), "verdicts differ from expected.verdicts:\n{}", differences.join("\n"));
}

#[test]
fn expected_verdicts_read_by_release() {
    let text = "# c\nsrc/a.rs:26 a::f\n1.85..=1.88: src/a.rs:45 a::g\n";
    assert_eq!(expected_for("1.85", text), ["src/a.rs:26 a::f", "src/a.rs:45 a::g"]);
    assert_eq!(expected_for("1.88", text), ["src/a.rs:26 a::f", "src/a.rs:45 a::g"]);
    assert_eq!(expected_for("1.89", text), ["src/a.rs:26 a::f"]);
}
