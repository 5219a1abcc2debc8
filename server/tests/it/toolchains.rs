//! The same verdicts under every toolchain of the supported std range: the
//! `toolchains` fixture checked as a workspace pinned to 1.85, 1.88, 1.91, 1.93 and
//! 1.95 would be (`RUSTUP_TOOLCHAIN` names each: its std source, its cargo, and its
//! proc-macro server for the fixture's `#[derive(serde::Serialize)]`, or on 1.85
//! the `stable` toolchain's that stands in for it), its findings compared with
//! `expected.verdicts`. A release whose `rust-src` is not installed is skipped with
//! a notice, so README's `cargo test --workspace` passes on a bare clone;
//! `.ci/parts/toolchains.sh` installs them all and sets
//! `NOALLOC_TOOLCHAIN_MATRIX=require`, under which a missing one fails. And a
//! std outside the range: one warning, from `--check` and from the server.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use crate::cli::{noalloc, run};
use crate::lsp::{uri, Client, Scratch};
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

/// A std source of no supported release under `dir`: a `core::fmt::Arguments`
/// with no constructor `format_args!` is lowered to, and no `Sized`.
fn std_of_unknown_layout(dir: &Path) -> PathBuf {
    let library = dir.join("library");
    let files = [
        ("core/src/lib.rs", "#![no_core]\npub mod fmt;\npub mod marker;\n"),
        ("core/src/fmt/mod.rs", "pub struct Arguments<'a> {\n    pieces: &'a [&'static str],\n}\n"),
        ("core/src/marker.rs", "pub trait Copy {}\n"),
        ("alloc/src/lib.rs", "#![no_std]\n"),
        ("std/src/lib.rs", "#![no_std]\n"),
    ];
    for (path, text) in files {
        let path = library.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    library
}

/// The environment that makes `library` the std source read: the toolchain's own
/// out of the way.
fn with_std_source(library: &Path) -> [(&'static str, String); 3] {
    [
        ("NOALLOC_TOOLCHAIN_SYSROOT", "/nonexistent/sysroot".to_owned()),
        ("RUST_SRC_PATH", library.display().to_string()),
        ("NOALLOC_DEBIAN_RUST_SRC", "/nonexistent/library".to_owned()),
    ]
}

const NOT_UNDERSTOOD: &str = "has a layout noalloc does not read (`core::fmt::Arguments` has neither `new`";

#[test]
fn a_std_of_unknown_layout_is_one_warning_from_check() {
    let dir = tempfile::tempdir().unwrap();
    let library = std_of_unknown_layout(dir.path());
    let path = test_data("clean");
    let mut cmd = noalloc(&["--check", path.to_str().unwrap(), "--message-format", "short", "--no-cache"]);
    let (code, stdout, stderr) = run(cmd.envs(with_std_source(&library)));
    // What std would have resolved is a finding, never silence.
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("clean::sum: call with no known callee"), "{stdout}");
    let warnings: Vec<&str> = stderr.lines().filter(|line| line.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains(&format!("the std source at {} {NOT_UNDERSTOOD}", library.display())), "{stderr}");
    assert!(warnings[0].contains("supported std releases are 1.85 to 1.95"), "{stderr}");
}

#[test]
fn a_std_of_unknown_layout_is_one_warning_from_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let library = std_of_unknown_layout(dir.path());
    let ws = Scratch::of("clean");
    let env = with_std_source(&library);
    let env: Vec<(&str, &str)> = env.iter().map(|(key, value)| (*key, value.as_str())).collect();
    let mut client = Client::start_with_env(&ws.root(), json!({ "buildScripts": false }), &env);
    client.open(&ws.file("src/lib.rs"));
    client.wait_quiescent();
    let warnings = |client: &Client| -> Vec<String> {
        let messages = client.notifications.iter().filter(|n| n["method"] == "window/showMessage");
        messages
            .filter(|n| n["params"]["type"] == 2)
            .map(|n| n["params"]["message"].as_str().unwrap().to_owned())
            .collect()
    };
    let shown = warnings(&client);
    assert_eq!(shown.len(), 1, "{:#?}", client.notifications);
    assert!(shown[0].starts_with("noalloc: the std source at "), "{}", shown[0]);
    assert!(shown[0].contains(NOT_UNDERSTOOD), "{}", shown[0]);
    assert!(!client.diagnostics_of(&ws.file("src/lib.rs")).is_empty());

    // A reload (the manifest saved) loads the same std: nothing is shown again.
    let manifest = ws.file("Cargo.toml");
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri(&manifest) } }));
    client.wait_quiescent();
    assert_eq!(warnings(&client).len(), 1, "{:#?}", client.notifications);
    assert_eq!(client.shutdown(), 0);
}
