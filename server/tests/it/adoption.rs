//! Adopting noalloc in code that already allocates: the baseline (`--start`,
//! `--prune`, moved code, new and stale findings), the exemptions list, the
//! allowlist file, and their settings in Cargo.toml. Each test works on its own copy
//! of `test-data/adoption`, since it writes files and edits code.

use std::path::PathBuf;

use expect_test::expect_file;
use noalloc_ls::adoption::settings::AdoptionFiles;
use noalloc_ls::engine::CheckConfig;

use crate::cli::{noalloc, run};
use crate::test_data;

/// A copy of `test-data/adoption` in a temporary directory.
struct Copy {
    dir: tempfile::TempDir,
}

impl Copy {
    fn new() -> Copy {
        let dir = tempfile::tempdir().unwrap();
        let from = test_data("adoption");
        for file in ["Cargo.toml", "Cargo.lock", "src/lib.rs"] {
            std::fs::create_dir_all(dir.path().join(file).parent().unwrap()).unwrap();
            std::fs::copy(from.join(file), dir.path().join(file)).unwrap();
        }
        Copy { dir }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join(file)
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.path(file)).unwrap()
    }

    /// Replaces `from` (which must be there) by `to` in `src/lib.rs`.
    fn edit(&self, from: &str, to: &str) {
        let source = self.read("src/lib.rs");
        assert!(source.contains(from), "{from}");
        std::fs::write(self.path("src/lib.rs"), source.replacen(from, to, 1)).unwrap();
    }

    /// Checks the copy from inside it, so that relative file flags land there.
    fn check(&self, extra: &[&str]) -> (i32, String, String) {
        let mut args = vec!["--check", ".", "--color", "never", "--no-cache"];
        args.extend_from_slice(extra);
        run(noalloc(&args).current_dir(self.dir.path()))
    }
}

fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn start_records_todays_findings_and_the_check_then_passes() {
    let ws = Copy::new();
    let (code, stdout, stderr) = ws.check(&["--baseline", "baseline.toml", "--start"]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", "noalloc: recorded 2 findings in baseline.toml\n"));
    expect_file!["../../../test-data/adoption/expected.baseline.toml"].assert_eq(&ws.read("baseline.toml"));

    let (code, stdout, stderr) = ws.check(&["--baseline", "baseline.toml"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("noalloc: 3 roots checked, 0 findings (2 more in the baseline), 0 errors"), "{stdout}");
}

#[test]
fn moving_code_keeps_the_baseline_passing() {
    let ws = Copy::new();
    assert_eq!(ws.check(&["--baseline", "baseline.toml", "--start"]).0, 0);
    ws.edit("// noalloc:root\npub fn greet", "\n\n\npub fn unrelated() {}\n\n// noalloc:root\npub fn greet");
    ws.edit("    let owned = String::from(name);", "\n        let owned   =   String::from(name);");
    let (code, stdout, stderr) = ws.check(&["--baseline", "baseline.toml", "--message-format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}");
    assert_eq!((&lines[0]["findings"], &lines[0]["baselined"]), (&0.into(), &2.into()));
}

#[test]
fn a_baseline_fails_on_new_findings_only() {
    let ws = Copy::new();
    assert_eq!(ws.check(&["--baseline", "baseline.toml", "--start"]).0, 0);
    ws.edit(
        "    greeting.len() + label(name)",
        "    let shout = name.to_uppercase();\n    greeting.len() + label(&shout)",
    );
    let (code, stdout, stderr) = ws.check(&["--baseline", "baseline.toml", "--message-format", "short"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "src/lib.rs:6: adoption::greet: calls <str>::to_uppercase\n");
}

#[test]
fn a_stale_baseline_entry_fails_until_prune_drops_it() {
    let ws = Copy::new();
    assert_eq!(ws.check(&["--baseline", "baseline.toml", "--start"]).0, 0);
    ws.edit("    let owned = String::from(name);\n    owned.len()", "    name.len()");

    let (code, stdout, stderr) = ws.check(&["--baseline", "baseline.toml", "--message-format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(
        lines[0],
        serde_json::json!({
            "kind": "error",
            "code": "stale-baseline-entry",
            "file": "baseline.toml",
            "line": 12,
            "column": 1,
            "message": "stale baseline entry: `adoption::label` no longer has this finding in src/lib.rs: \
                `let owned = String::from(name);` (calls alloc::string::String::from); run with `--prune` to drop it",
            "function": "adoption::label",
            "roots": [],
        })
    );
    let summary = &lines[1];
    assert_eq!(summary["kind"], "summary");
    assert_eq!((&summary["findings"], &summary["errors"], &summary["baselined"]), (&0.into(), &1.into(), &1.into()));

    let (code, _, stderr) = ws.check(&["--baseline", "baseline.toml", "--prune"]);
    assert_eq!((code, stderr.as_str()), (0, "noalloc: pruned 1 stale entry from baseline.toml, kept 1\n"));
    expect_file!["../../../test-data/adoption/expected.pruned.toml"].assert_eq(&ws.read("baseline.toml"));
    let (code, stdout, _) = ws.check(&["--baseline", "baseline.toml", "--message-format", "short"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn write_exemptions_lists_each_with_what_it_lets_through_and_the_check_then_passes() {
    let ws = Copy::new();
    let (code, _, stderr) = ws.check(&["--exemptions", "exemptions.txt", "--write-exemptions"]);
    assert_eq!((code, stderr.as_str()), (0, "noalloc: wrote 2 exemptions to exemptions.txt\n"));
    expect_file!["../../../test-data/adoption/expected.exemptions.txt"].assert_eq(&ws.read("exemptions.txt"));
    // The findings that are not exempted still fail the check.
    let (code, stdout, stderr) = ws.check(&["--exemptions", "exemptions.txt", "--message-format", "short"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(!stdout.contains("error"), "{stdout}");
}

#[test]
fn an_exemptions_list_that_differs_from_the_code_fails_with_the_difference() {
    let ws = Copy::new();
    assert_eq!(ws.check(&["--exemptions", "exemptions.txt", "--write-exemptions"]).0, 0);
    ws.edit("runs once at start-up", "runs once per request");
    ws.edit("    // noalloc:exempt debug: tracing is compiled out in release\n", "");
    let (code, stdout, stderr) = ws.check(&["--exemptions", "exemptions.txt", "--message-format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let errors: Vec<serde_json::Value> = json_lines(&stdout).into_iter().filter(|l| l["kind"] == "error").collect();
    assert_eq!(
        errors,
        [
            serde_json::json!({
                "kind": "error",
                "code": "exemptions-list-differs",
                "file": "src/lib.rs",
                "line": 16,
                "column": 32,
                "message": "this exemption differs from exemptions.txt: review it, then run with `--write-exemptions`",
                "diff": [
                    "  src/lib.rs: let table = vec![0u8; 16];",
                    "-     measured: runs once at start-up",
                    "+     measured: runs once per request",
                ],
                "function": null,
                "roots": [],
            }),
            serde_json::json!({
                "kind": "error",
                "code": "exemptions-list-differs",
                "file": "exemptions.txt",
                "line": 10,
                "column": 1,
                "message": "exemptions.txt lists an exemption the code no longer has: `src/lib.rs: trace(msg)`; \
                    run with `--write-exemptions`",
                "diff": [
                    "- src/lib.rs: trace(msg)",
                    "-     debug: tracing is compiled out in release",
                    "-         calls adoption::trace, which allocates",
                ],
                "function": null,
                "roots": [],
            }),
        ]
    );
}

#[test]
fn settings_in_cargo_toml_name_the_files() {
    let ws = Copy::new();
    let manifest = ws.read("Cargo.toml").replace(
        "[dependencies]",
        "[package.metadata.noalloc]\nbaseline = \"noalloc/baseline.toml\"\nexemptions = \"noalloc/exemptions.txt\"\n\n[dependencies]",
    );
    std::fs::write(ws.path("Cargo.toml"), manifest).unwrap();
    let (code, _, stderr) = ws.check(&["--start", "--write-exemptions"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(ws.read("noalloc/baseline.toml"), include_str!("../../../test-data/adoption/expected.baseline.toml"));
    assert_eq!(ws.read("noalloc/exemptions.txt"), include_str!("../../../test-data/adoption/expected.exemptions.txt"));
    let (code, stdout, _) = ws.check(&["--message-format", "short"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn manifest_settings_fill_what_flags_leave_unset() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        r#"
[workspace.metadata.noalloc]
allow = "noalloc/allow.txt"
scratch = ["app::Scratch"]

[package.metadata.noalloc]
allow = "ignored: the workspace table wins"
baseline = "noalloc/baseline.toml"
scratch = ["app::Ignored"]
"#,
    )
    .unwrap();
    let flagged = AdoptionFiles { exemptions: Some("from-flag.txt".into()), ..AdoptionFiles::default() };
    assert_eq!(
        flagged.with_manifest(dir.path()).unwrap(),
        AdoptionFiles {
            allow: Some(dir.path().join("noalloc/allow.txt")),
            baseline: Some(dir.path().join("noalloc/baseline.toml")),
            exemptions: Some("from-flag.txt".into()),
        }
    );
    let config = CheckConfig::default().with_manifest(dir.path()).unwrap();
    assert_eq!(config.scratch, ["app::Scratch"]);
    let flagged = CheckConfig { scratch: vec!["flag::Type".into()], ..CheckConfig::default() };
    assert_eq!(flagged.with_manifest(dir.path()).unwrap().scratch, ["flag::Type"]);

    std::fs::write(dir.path().join("Cargo.toml"), "[package.metadata.noalloc]\nbaseline = [\"a\"]\n").unwrap();
    let error = AdoptionFiles::default().with_manifest(dir.path()).unwrap_err();
    assert!(error.ends_with("package.metadata.noalloc.baseline must be a file path (a string)"), "{error}");
}

#[test]
fn a_malformed_allow_line_stops_the_check_with_its_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let allow = dir.path().join("allow.txt");
    std::fs::write(
        &allow,
        "# reviewed 2024\namortized: alloc::vec::Vec::push\namortised: alloc::string::String::push\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(&mut noalloc(&[
        "--check",
        test_data("clean").to_str().unwrap(),
        "--no-cache",
        "--allow",
        allow.to_str().unwrap(),
    ]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!(
            "error: {}:3: unknown allowlist kind `amortised` (expected amortized, measured, debug, profiling or growth) \
             in `amortised: alloc::string::String::push`\n",
            allow.display()
        )
    );
}

#[test]
fn writing_a_file_needs_its_name() {
    let (code, _, stderr) =
        run(&mut noalloc(&["--check", test_data("clean").to_str().unwrap(), "--no-cache", "--start"]));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: --start needs baseline: give `--baseline FILE` or set `baseline = \"FILE\"` in [workspace.metadata.noalloc]\n"
    );
}

#[test]
fn allow_file_lines_hide_their_calls_and_report_says_which_went_unused() {
    let ws = Copy::new();
    std::fs::write(
        ws.path("allow.txt"),
        "# owned labels are measured in production\namortized: alloc::string::String::from\ndebug: adoption::never_called\n",
    )
    .unwrap();
    let (code, stdout, stderr) = ws.check(&["--allow", "allow.txt", "--report", "--message-format", "short"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "src/lib.rs:5: adoption::greet: calls alloc::fmt::format\n\
         allow.txt:3: allowlist line no check used: debug: adoption::never_called\n"
    );
}

#[test]
fn an_allow_line_may_name_the_exported_path_of_what_std_defines_privately() {
    let ws = Copy::new();
    ws.edit(
        "// noalloc:root\npub fn warm_up",
        "// noalloc:root\npub fn numbers(xs: &[u32]) -> usize {\n    xs.iter().map(|x| x + 1).collect::<Vec<u32>>().len()\n}\n\n// noalloc:root\npub fn warm_up",
    );
    let (_, stdout, _) = ws.check(&["--message-format", "short"]);
    assert!(stdout.contains("as core::iter::Iterator>::collect"), "{stdout}");
    // `Iterator::collect` is defined in `core::iter::traits::iterator`; users write
    // `core::iter::Iterator::collect` (or `std::iter::..`, which re-exports it).
    for path in ["core::iter::Iterator::collect", "std::iter::Iterator::collect"] {
        std::fs::write(ws.path("allow.txt"), format!("amortized: {path}\n")).unwrap();
        let (_, stdout, stderr) = ws.check(&["--allow", "allow.txt", "--report", "--message-format", "short"]);
        assert!(!stdout.contains("collect"), "{path}: {stdout}{stderr}");
        assert!(!stdout.contains("allowlist line no check used"), "{path}: {stdout}");
    }
}

#[test]
fn the_specifics_exemptions_list_matches_the_code() {
    let specifics = test_data("specifics");
    let list = specifics.join("exemptions.txt");
    let (_, stdout, stderr) = run(&mut noalloc(&[
        "--check",
        specifics.to_str().unwrap(),
        "--no-cache",
        "--message-format",
        "short",
        "--exemptions",
        list.to_str().unwrap(),
    ]));
    assert!(!stdout.contains("exemptions.txt"), "{stdout}{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

/// A std of another release than the toolchain's: nightly's `rust-src`, which
/// `.ci/run` installs. (Debian's `rust-web-src` is 1.85 on these machines, older
/// than this rust-analyzer lowers `format_args!` for: its `format!` calls read as
/// code that did not expand.)
fn other_std_library() -> PathBuf {
    let out = std::process::Command::new("rustc").args(["+nightly", "--print", "sysroot"]).output();
    let sysroot =
        out.ok().filter(|out| out.status.success()).map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned());
    let library = PathBuf::from(sysroot.unwrap_or_default()).join("lib/rustlib/src/rust/library");
    assert!(
        library.join("core/src/lib.rs").exists(),
        "this test needs nightly's std source (`rustup +nightly component add rust-src`), as .ci/run installs it"
    );
    library
}

#[test]
#[ignore = "needs a second std source, nightly's: `rustup +nightly component add rust-src`; .ci/run runs it"]
fn a_baseline_names_no_std_internals_and_holds_under_another_std_source() {
    let other_std = other_std_library();
    let ws = Copy::new();
    // Findings whose callees std defines in private modules: `Iterator` lives in
    // `core::iter::traits::iterator`, `ToString` in `alloc::string`.
    ws.edit(
        "// noalloc:root\npub fn warm_up",
        "// noalloc:root\npub fn numbers(xs: &[u32]) -> usize {\n    let all: Vec<String> = xs.iter().map(|x| x.to_string()).collect();\n    all.len()\n}\n\n// noalloc:root\npub fn warm_up",
    );
    assert_eq!(ws.check(&["--baseline", "baseline.toml", "--start"]).0, 0);
    let baseline = ws.read("baseline.toml");
    assert!(baseline.contains("as core::iter::Iterator>::collect"), "{baseline}");
    assert!(!baseline.contains("::traits::"), "{baseline}");

    // The toolchain's std out of the way, the other one comes from RUST_SRC_PATH.
    let other = |args: &[&str]| {
        let mut all = vec!["--check", ".", "--color", "never", "--no-cache"];
        all.extend_from_slice(args);
        run(noalloc(&all)
            .current_dir(ws.path("."))
            .env("NOALLOC_TOOLCHAIN_SYSROOT", "/nonexistent/sysroot")
            .env("RUST_SRC_PATH", &other_std)
            .env("NOALLOC_DEBIAN_RUST_SRC", "/nonexistent/library"))
    };
    // The other std is the one read: the chains run through its files.
    let (_, stdout, stderr) = other(&["--message-format", "json"]);
    assert!(stdout.contains(&format!("\"file\":\"{}/", other_std.display())), "{stdout}{stderr}");
    let (code, stdout, stderr) = other(&["--baseline", "baseline.toml"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("0 findings (4 more in the baseline)"), "{stdout}");
}

#[test]
fn growth_lines_judge_calls_as_growth_of_their_receiver() {
    // `test-data/growth-allow` names allow.txt in its Cargo.toml; that file's
    // `growth: smallvec::SmallVec::append` makes the call with room clean and the
    // one without a `may grow`, and the line counts as used. `--report` names the
    // proof that let the call with room through, and what the call used of it.
    let fixture = test_data("growth-allow");
    let check = |extra: &[&str]| {
        let mut args =
            vec!["--check", fixture.to_str().unwrap(), "--no-cache", "--message-format", "short", "--report"];
        args.extend_from_slice(extra);
        run(&mut noalloc(&args))
    };
    let (code, stdout, stderr) = check(&[]);
    // `put_u32`, a trait's default method, appends 4 bytes by its name; what it
    // runs of its `Self` is the growth, not a callback.
    let expected = "src/lib.rs:14: growth_allow::append_anyway: may grow `v`\n\
        src/lib.rs:31: growth_allow::prefix_with_room_for_three: may grow `out`\n\
        src/lib.rs:8: growth with room: smallvec::SmallVec::<[u32; 8]>::append appends `more.len()` \
        of the room for `more.len()` proven at src/lib.rs:7\n\
        src/lib.rs:22: growth with room: <BytesMut as bytes::BufMut>::put_u32 appends `4` \
        of the room for `4` proven at src/lib.rs:21\n";
    assert_eq!((code, stdout.as_str()), (1, expected), "{stderr}");

    // The same line from `--allow`; without it, both calls of `append` are judged by
    // its body, while `put_u32` on a `BytesMut` stays growth by the built-in list.
    let dir = tempfile::tempdir().unwrap();
    let (with_line, without_line) = (dir.path().join("with.txt"), dir.path().join("without.txt"));
    std::fs::write(&with_line, "growth: smallvec::*SmallVec::append\ngrowth: bytes::BufMut::put_u32\n").unwrap();
    std::fs::write(&without_line, "# nothing\n").unwrap();
    let (code, flagged, _) = check(&["--allow", with_line.to_str().unwrap()]);
    assert_eq!((code, flagged), (1, stdout));
    let (code, stdout, _) = check(&["--allow", without_line.to_str().unwrap()]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(code, 1);
    assert!(
        lines.len() == 4
            && lines[0].starts_with("src/lib.rs:8: growth_allow::append_with_room: calls ")
            && lines[1].starts_with("src/lib.rs:14: growth_allow::append_anyway: calls ")
            && lines[..2].iter().all(|line| line.ends_with("::append"))
            && lines[2] == "src/lib.rs:31: growth_allow::prefix_with_room_for_three: may grow `out`"
            && lines[3]
                .starts_with("src/lib.rs:22: growth with room: <BytesMut as bytes::BufMut>::put_u32 appends `4`"),
        "{stdout}"
    );
}
