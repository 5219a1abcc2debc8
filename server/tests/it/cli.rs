//! The checker's command line: formats, `--report`, `--root`, exit statuses, and
//! the messages for what stops it from running.

use std::process::{Command, Output};

use expect_test::{expect, expect_file};

use crate::test_data;

pub(crate) fn noalloc(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_noalloc-ls"));
    // Tests never touch the user's cache directory.
    cmd.args(args).env_remove("NOALLOC_LOG").env("NOALLOC_CACHE_DIR", std::env::temp_dir().join("noalloc-it-cache"));
    cmd
}

pub(crate) fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("noalloc-ls runs");
    (status.code().expect("exited"), String::from_utf8(stdout).unwrap(), String::from_utf8(stderr).unwrap())
}

fn check(fixture: &str, extra: &[&str]) -> (i32, String, String) {
    let path = test_data(fixture);
    // Without the summary cache, so "functions checked" does not depend on earlier runs.
    let mut args = vec!["--check", path.to_str().unwrap(), "--color", "never", "--no-cache"];
    args.extend_from_slice(extra);
    run(&mut noalloc(&args))
}

#[test]
fn example_human_output_and_exit_status() {
    let (code, stdout, _) = check("example", &[]);
    assert_eq!(code, 1);
    expect_file!["../../../test-data/example/expected.human"].assert_eq(&stdout);
}

#[test]
fn example_report_shows_the_chain() {
    let (code, stdout, _) = check("example", &["--report"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("because alloc::fmt::format"), "{stdout}");
    assert!(stdout.contains("__rust_alloc"), "{stdout}");
}

/// `--report` names each call that first-use setup lets through and that may
/// allocate, with the guard it runs under and the place the guard finds empty:
/// a static's setup by shape (also a fill two calls below the guard, reported
/// at the call in the branch), as the precision fixture writes it.
#[test]
fn report_names_the_guard_of_first_use_setup() {
    let (code, stdout, _) = check("precision", &["--message-format", "short", "--report"]);
    assert_eq!(code, 1);
    let setup: String =
        stdout.lines().filter(|line| line.contains(": first-use setup: ")).map(|line| format!("{line}\n")).collect();
    expect![[r#"
        src/static_setup.rs:29: first-use setup: alloc::boxed::Box::<[u64; 64]>::new under the guard at src/static_setup.rs:28 that finds `SQUARES` empty
        src/static_setup.rs:74: first-use setup: <Split<'_, char> as core::iter::Iterator>::collect under the guard at src/static_setup.rs:72 that finds `STATE` empty
        src/static_setup.rs:76: first-use setup: alloc::vec::Vec::<&str>::into_boxed_slice under the guard at src/static_setup.rs:72 that finds `STATE` empty
        src/static_setup.rs:276: first-use setup: alloc::boxed::Box::<[u64; 16]>::new under the guard at src/static_setup.rs:275 that finds `CUBES` empty
        src/static_setup.rs:327: first-use setup: alloc::string::String::from under the guard at src/static_setup.rs:326 that finds `GREETING_SET` empty
        src/static_setup.rs:366: first-use setup: alloc::boxed::Box::<[u32; 6]>::new_uninit under the guard at src/static_setup.rs:364 that finds `PRIMES_READY` empty
        src/static_setup.rs:405: first-use setup: alloc::boxed::Box::<[u64; 4]>::new under the guard at src/static_setup.rs:404 that finds `SEED` empty
        src/static_setup.rs:454: first-use setup: precision::static_setup::init_prefix under the guard at src/static_setup.rs:453 that finds `PREFIX_STATE` empty
    "#]]
    .assert_eq(&setup);
}

#[test]
fn example_json_lines() {
    let (code, stdout, _) = check("example", &["--message-format", "json"]);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (summary, findings) = lines.split_last().unwrap();
    assert_eq!(summary["kind"], "summary");
    assert_eq!(summary["roots"], 2);
    assert_eq!(summary["findings"], findings.len());
    assert_eq!(summary["errors"], 0);
    assert!(summary["functions_checked"].as_u64().unwrap() > 10);
    assert!(summary["elapsed_ms"].is_u64());
    let finding = findings.iter().find(|f| f["line"] == 30).expect("the format! line");
    assert_eq!(finding["kind"], "finding");
    assert_eq!(finding["file"], "src/lib.rs");
    assert_eq!(finding["line"], 30);
    assert_eq!(finding["function"], "example::log_request");
    assert_eq!(finding["roots"], serde_json::json!(["example::handle"]));
    assert_eq!(finding["reasons"], serde_json::json!(["calls alloc::fmt::format"]));
    let chain = finding["chain"].as_array().unwrap();
    assert!(chain.len() >= 2);
    assert_eq!(chain[0]["function"], "alloc::fmt::format");
    assert!(chain[0]["file"].as_str().unwrap().ends_with("alloc/src/fmt.rs"));
}

#[test]
fn a_panic_on_one_root_is_its_error_finding_and_the_others_are_checked() {
    let path = test_data("example");
    let args = ["--check", path.to_str().unwrap(), "--no-cache", "--message-format", "json"];
    let (code, stdout, stderr) = run(noalloc(&args).env("NOALLOC_PANIC_ON_ROOT", "example::checksum"));
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary = lines.last().unwrap();
    assert_eq!((summary["kind"].as_str(), summary["roots"].as_u64()), (Some("summary"), Some(2)), "{stdout}");
    assert_eq!((summary["errors"].as_u64(), summary["internal_errors"].as_u64()), (Some(1), Some(1)), "{stdout}");
    let error = lines.iter().find(|l| l["kind"] == "error").expect("the internal error");
    assert_eq!(error["code"], "internal-error");
    assert_eq!(
        (error["file"].as_str(), error["line"].as_u64()),
        (Some("src/lib.rs"), Some(35)),
        "at the root: {error}"
    );
    assert_eq!(error["roots"], serde_json::json!(["example::checksum"]));
    assert_eq!(error["panic"]["message"], "injected by NOALLOC_PANIC_ON_ROOT");
    assert!(error["panic"]["location"].as_str().is_some_and(|l| l.contains("panics.rs")), "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("internal error while checking this root: injected by NOALLOC_PANIC_ON_ROOT"),
        "{message}"
    );
    assert!(message.ends_with("the rest of the check went on"), "{message}");
    // The other root's finding is still there.
    assert!(
        lines
            .iter()
            .any(|l| l["kind"] == "finding" && l["line"] == 30 && l["roots"] == serde_json::json!(["example::handle"])),
        "{stdout}"
    );
}

#[test]
fn json_errors_carry_their_function_and_roots() {
    let (_, stdout, _) = check("specifics", &["--message-format", "json"]);
    let errors: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["kind"] == "error")
        .collect();
    let unused = errors.iter().find(|e| e["code"] == "unused-exemption").expect("the unused exemption");
    assert_eq!(unused["function"], "specifics::exemptions::exempt_that_lets_nothing_through");
    assert_eq!(unused["roots"], serde_json::json!(["specifics::exemptions::exempt_that_lets_nothing_through"]));
    let no_reason = errors
        .iter()
        .find(|e| e["line"] == 38 && e["file"] == "src/directives.rs")
        .expect("the exemption without a reason");
    assert_eq!(no_reason["function"], "specifics::directives::missing_reason");
    assert_eq!(no_reason["roots"], serde_json::json!([]));
    let misplaced =
        errors.iter().find(|e| e["line"] == 34 && e["file"] == "src/directives.rs").expect("the root on a struct");
    assert_eq!(misplaced["function"], serde_json::Value::Null);
}

#[test]
fn a_finding_names_the_first_stable_exported_function_that_allocates() {
    let (_, stdout, _) = check("specifics", &["--message-format", "json"]);
    let findings: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["kind"] == "finding")
        .collect();
    let at = |file: &str, line: u64| {
        findings
            .iter()
            .find(|f| f["file"] == file && f["line"] == line)
            .unwrap_or_else(|| panic!("a finding at {file}:{line}"))
    };
    // `String::from` copies through `<[u8]>::to_vec`; the unstable `to_vec_in` and
    // `Vec::with_capacity_in`, the private `ConvertVec` and `RawVec` are skipped.
    assert_eq!(at("src/containers.rs", 19)["allocates_in"], "<[u8]>::to_vec");
    assert_eq!(at("src/formatting.rs", 47)["allocates_in"], "alloc::vec::Vec::<u8>::with_capacity");
    // Nothing below `Box::new` that a user writes: the callee is the first thing.
    assert_eq!(at("src/containers.rs", 30)["allocates_in"], serde_json::Value::Null);
    // A call with no known callee allocates nowhere known.
    assert!(findings
        .iter()
        .filter(|f| f["reasons"][0].as_str().unwrap().starts_with("call with no known callee"))
        .all(|f| f["allocates_in"].is_null()));
    // Two reasons on one line: the chain and its first allocation follow the reason shown first.
    let two = at("src/directives.rs", 16);
    assert_eq!(two["reasons"][0], "calls <str as alloc::borrow::ToOwned>::to_owned");
    assert_eq!(two["chain"][0]["function"], "<str as alloc::borrow::ToOwned>::to_owned");
    assert_eq!(two["allocates_in"], "<[u8]>::to_vec");

    let (_, human, _) = check("specifics", &[]);
    assert!(human.contains("= note: first allocates in <[u8]>::to_vec"), "{human}");
}

#[test]
fn example_short_format() {
    let (code, stdout, _) = check("example", &["--message-format", "short"]);
    assert_eq!(code, 1);
    // `write!` into the fixed `Response` (line 25) is judged for `Response` alone,
    // though the root's `format!` (line 30) coerces a `String` to `dyn fmt::Write`.
    assert_eq!(stdout, "src/lib.rs:30: example::log_request: calls alloc::fmt::format\n");
}

#[test]
fn root_flag_adds_roots_by_path_with_wildcards() {
    let (code, stdout, _) = check("example", &["--message-format", "short", "--root", "example::unmarked_*"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("example::unmarked_tags: calls"), "{stdout}");
}

/// `--root` names functions of the crates the workspace depends on, by the paths
/// its code writes: `memchr::memchr` (a re-export of `memchr::memchr::memchr`),
/// `probe::total` (`vendored-probe`, renamed `probe` in Cargo.toml, re-exported
/// from a private module). Both are clean; the dependency's own directives are not
/// read: its `noalloc:root` on `copy_of` adds no root, its malformed
/// `noalloc:nonsense` is no error.
#[test]
fn root_flag_names_functions_of_dependencies() {
    let (code, stdout, stderr) = check("dependency-roots", &["--root", "memchr::memchr", "--root", "probe::total"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("noalloc: 2 roots checked, 0 findings, 0 errors ("), "{stdout}");
}

/// A dependency root that allocates is reported at the dependency's line, whose
/// `noalloc:exempt` comment (its author's, not the user's) covers nothing.
#[test]
fn a_dependency_root_reports_the_dependency_line() {
    let (code, stdout, stderr) = check("dependency-roots", &["--message-format", "short", "--root", "probe::copy_of"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "vendor/vendored-probe/src/lib.rs:19: vendored_probe::copy_of: calls alloc::vec::Vec::<u32>::extend_from_slice\n"
    );
    // Its help is what the caller can do: the line is not the user's to exempt.
    let (_, human, _) = check("dependency-roots", &["--root", "probe::copy_of"]);
    assert!(human.contains("help: a dependency's code: call it where"), "{human}");
    assert!(!human.contains("exempt the line"), "{human}");
    // A workspace line's help still offers the exemption.
    let (_, own, _) = check("example", &[]);
    assert!(own.contains("or exempt the line"), "{own}");
}

/// A wildcard in the crate segment means the workspace's crates: `*::total` does
/// not search the dependencies (nor std), and names no function here.
#[test]
fn a_wildcard_crate_segment_searches_the_workspace_only() {
    let (code, _, stderr) = check("dependency-roots", &["--root", "*::total"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--root `*::total` matches no function of the workspace or of a crate it depends on"),
        "{stderr}"
    );
}

#[test]
fn clean_workspace_exits_zero() {
    let (code, stdout, _) = check("clean", &["--message-format", "short"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

/// With no root to walk the directives are still read: a workspace whose only
/// directive is malformed fails on it (it used to pass, silent, exit 0).
#[test]
fn a_malformed_directive_is_reported_when_there_is_no_root() {
    let ws = crate::lsp::Scratch::of("clean");
    let lib = r#"//! Its only directive is malformed: nothing is a root.

// noalloc:rooot
pub fn sum(xs: &[u64]) -> u64 {
    xs.iter().copied().sum()
}
"#;
    std::fs::write(ws.file("src/lib.rs"), lib).unwrap();
    let root = ws.root();
    let (code, stdout, stderr) =
        run(&mut noalloc(&["--check", root.to_str().unwrap(), "--no-cache", "--message-format", "short"]));
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "src/lib.rs:3: error: unknown noalloc directive `rooot` (expected root, exempt, fixed or append)\n"
    );
}

/// A cargo project nested in a package's folder (cargo-fuzz's `fuzz/`, a benchmark
/// workspace) is not this workspace's code: its roots are no error here. A file of
/// the package itself outside the module tree still is.
#[test]
fn a_nested_project_s_roots_are_its_own() {
    let ws = crate::lsp::Scratch::of("clean");
    let root_fn = "// noalloc:root\npub fn first(xs: &[u8]) -> u8 {\n    xs[0]\n}\n";
    std::fs::create_dir_all(ws.file("fuzz/src")).unwrap();
    std::fs::write(
        ws.file("fuzz/Cargo.toml"),
        "[package]\nname = \"fuzz\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(ws.file("fuzz/src/lib.rs"), root_fn).unwrap();
    let check = || {
        let root = ws.root();
        run(&mut noalloc(&["--check", root.to_str().unwrap(), "--no-cache", "--message-format", "short"]))
    };
    let (code, stdout, stderr) = check();
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    std::fs::write(ws.file("src/stray.rs"), root_fn).unwrap();
    let (code, stdout, _) = check();
    assert_eq!(code, 1);
    assert!(stdout.starts_with("src/stray.rs:1: error: noalloc:root on an item the analysis cannot see"), "{stdout}");
}

#[test]
fn broken_code_is_checked_as_far_as_it_goes() {
    let (code, stdout, stderr) = check("broken", &["--message-format", "short"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("broken::handler: calls alloc::string::String::from"), "{stdout}");
    assert!(stderr.contains("src/lib.rs has syntax errors"), "{stderr}");
    // A file with no directive is read for its syntax errors alone.
    assert!(stderr.contains("src/plain.rs has syntax errors"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn missing_std_source_exits_2_and_says_how_to_install_it() {
    let path = test_data("clean");
    let (code, stdout, stderr) = run(noalloc(&["--check", path.to_str().unwrap()])
        .env("NOALLOC_TOOLCHAIN_SYSROOT", "/nonexistent/sysroot")
        .env_remove("RUST_SRC_PATH")
        .env("NOALLOC_DEBIAN_RUST_SRC", "/nonexistent/library"));
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("rustup component add rust-src"), "{stderr}");
    assert!(stderr.contains("RUST_SRC_PATH"), "{stderr}");
}

#[test]
fn rust_src_path_is_used_when_the_toolchain_has_none() {
    let sysroot = std::process::Command::new("rustc").args(["--print", "sysroot"]).output().unwrap();
    let library = format!("{}/lib/rustlib/src/rust/library", String::from_utf8(sysroot.stdout).unwrap().trim());
    let path = test_data("clean");
    let (code, _, stderr) = run(noalloc(&["--check", path.to_str().unwrap()])
        .env("NOALLOC_TOOLCHAIN_SYSROOT", "/nonexistent/sysroot")
        .env("RUST_SRC_PATH", &library)
        .env("NOALLOC_DEBIAN_RUST_SRC", "/nonexistent/library"));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn no_workspace_and_bad_manifest_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(&mut noalloc(&["--check", dir.path().to_str().unwrap()]));
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: no cargo workspace at"), "{stderr}");

    let (code, _, stderr) = check("bad-manifest", &[]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: could not load the workspace: error: unclosed table"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn bad_flags_exit_2() {
    let (code, _, stderr) = run(&mut noalloc(&["--check", "--message-format", "yaml"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("yaml"), "{stderr}");
}

/// `summaries from cache` and `bodies walked` from a `--timings` line.
fn timings_figures(stderr: &str) -> (u64, u64) {
    let line = stderr.lines().find(|l| l.starts_with("timings:")).expect("a timings line");
    let number_before = |marker: &str| -> u64 {
        let end = line.find(marker).expect(marker);
        line[..end].rsplit(|c: char| !c.is_ascii_digit()).find(|s| !s.is_empty()).unwrap().parse().unwrap()
    };
    (number_before(" bodies walked"), number_before(" summaries from cache"))
}

#[test]
fn second_run_reuses_summaries_from_disk_with_the_same_findings() {
    let cache = tempfile::tempdir().unwrap();
    let path = test_data("example");
    let run_once = || {
        run(noalloc(&["--check", path.to_str().unwrap(), "--message-format", "short", "--timings"])
            .env("NOALLOC_CACHE_DIR", cache.path()))
    };
    let (code_cold, out_cold, err_cold) = run_once();
    // Without the stored analysis, as after an edit: only the summaries are reused.
    let files = |prefix: &str| -> Vec<std::path::PathBuf> {
        let entries = std::fs::read_dir(cache.path()).unwrap().map(|e| e.unwrap().path());
        entries.filter(|path| path.file_name().unwrap().to_str().unwrap().starts_with(prefix)).collect()
    };
    for stored in files("analysis-") {
        std::fs::remove_file(stored).unwrap();
    }
    let (code_warm, out_warm, err_warm) = run_once();
    assert_eq!((code_cold, &out_cold), (code_warm, &out_warm));
    let (walked_cold, _) = timings_figures(&err_cold);
    let (walked_warm, hits_warm) = timings_figures(&err_warm);
    assert!(hits_warm > 0, "{err_warm}");
    assert!(walked_warm < walked_cold, "cold {err_cold} warm {err_warm}");
    assert_eq!(files("summaries-").len(), 1, "one summary file per configuration: {:?}", files(""));
}

/// `--check` of `root` with `extra` flags and the cache directory `cache`, in the
/// short format and with `--timings` (whose line says whether a stored analysis
/// answered).
fn check_with_cache(root: &std::path::Path, cache: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["--check", root.to_str().unwrap(), "--message-format", "short", "--timings"];
    args.extend_from_slice(extra);
    run(noalloc(&args).env("NOALLOC_CACHE_DIR", cache))
}

/// A summary is kept only for an instance whose arguments name nothing of the
/// workspace: `Vec::<Foo>::truncate` runs `Foo`'s drop, which an edit may add
/// while `Foo` keeps its crate, file and offset. Before, the second check
/// answered `truncate` from the first one's summary and found nothing.
#[test]
fn a_summary_never_stands_for_an_instance_at_a_workspace_type() {
    let lib = "pub struct Foo(pub u8);\n\n// noalloc:root\npub fn root(v: &mut Vec<Foo>) {\n    v.truncate(0);\n}\n";
    let (_dir, root) = crate::temp_package("summaries", &[("src/lib.rs", lib)]);
    let cache = tempfile::tempdir().unwrap();
    let (code, out, err) = check_with_cache(&root, cache.path(), &[]);
    assert_eq!(code, 0, "{out}{err}");
    let dropped = format!("{lib}\nimpl Drop for Foo {{\n    fn drop(&mut self) {{\n        let _ = Vec::<u8>::with_capacity(1);\n    }}\n}}\n");
    std::fs::write(root.join("src/lib.rs"), dropped).unwrap();
    let (code, out, err) = check_with_cache(&root, cache.path(), &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("lib.rs:10:"), "{out}");
}

/// An unchanged workspace is answered from the analysis a run stored; an edit,
/// other settings or a damaged store make the check run again.
#[test]
fn an_unchanged_workspace_reuses_its_stored_analysis_and_an_edit_does_not() {
    const REUSED: &str = "nothing changed since the stored analysis";
    let ws = crate::lsp::Scratch::of("example");
    let cache = tempfile::tempdir().unwrap();
    let root = ws.root();
    let check = |extra: &[&str]| check_with_cache(&root, cache.path(), extra);
    let (code, first, err) = check(&[]);
    assert!(code == 1 && !err.contains(REUSED), "{err}");
    let (code, again, err) = check(&[]);
    assert!(code == 1 && err.contains(REUSED), "{err}");
    assert_eq!(again, first);

    // Other settings: worked out again, and kept beside the first.
    let (_, _, err) = check(&["--strict-panics"]);
    assert!(!err.contains(REUSED), "{err}");
    let (_, _, err) = check(&["--strict-panics"]);
    assert!(err.contains(REUSED), "{err}");
    let (_, _, err) = check(&[]);
    assert!(err.contains(REUSED), "{err}");

    // An edit: a new root that allocates.
    let lib = ws.file("src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).unwrap();
    text.push_str("\n// noalloc:root\npub fn added() -> Vec<u8> {\n    Vec::with_capacity(8)\n}\n");
    std::fs::write(&lib, &text).unwrap();
    let (code, edited, err) = check(&[]);
    assert!(code == 1 && !err.contains(REUSED), "{err}");
    assert!(edited.contains("example::added"), "{edited}");
    let (_, _, err) = check(&[]);
    assert!(err.contains(REUSED), "{err}");

    // A damaged store is a miss, never an error.
    for entry in std::fs::read_dir(cache.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap().to_str().unwrap().starts_with("analysis-") {
            std::fs::write(&path, "{\"version\": 1, \"fingerprint\"").unwrap();
        }
    }
    let (code, damaged, err) = check(&[]);
    assert!(code == 1 && !err.contains(REUSED), "{err}");
    assert_eq!(damaged, edited);
}

/// An edit in nothing the stored analysis read (a comment, a body no root's reach
/// walks) reuses it; each answer so reused is the one a check without the store
/// works out. An edit of a walked body, or one that may make items, does not
/// (the roots that did not read a walked body keep their outcomes: the next test).
#[test]
fn an_edit_in_nothing_the_analysis_read_reuses_it() {
    const EDITS_UNREAD: &str = "the edits of 1 file changed nothing the stored analysis read";
    let ws = crate::lsp::Scratch::of("example");
    let cache = tempfile::tempdir().unwrap();
    let root = ws.root();
    let check = |cache: &std::path::Path| check_with_cache(&root, cache, &[]);
    let lib = ws.file("src/lib.rs");
    let edit = |from: &str, to: &str| {
        let text = std::fs::read_to_string(&lib).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(&lib, text.replacen(from, to, 1)).unwrap();
    };
    let (code, first, err) = check(cache.path());
    assert!(code == 1 && !err.contains("stored analysis"), "{err}");
    let unread_edits = [
        // A comment at the end, and the body of a function no root reaches.
        ("collect()\n}\n", "collect()\n}\n// a comment\n"),
        ("(0..count as u32).collect()", "(1..count as u32 + 1).collect()"),
    ];
    for (from, to) in unread_edits {
        edit(from, to);
        let (code, reused, err) = check(cache.path());
        assert!(code == 1 && err.contains(EDITS_UNREAD), "{from}: {err}");
        assert_eq!(reused, first);
        // The store now holds today's text: the same again is no edit.
        let (_, _, err) = check(cache.path());
        assert!(err.contains("nothing changed since the stored analysis"), "{err}");
        let fresh = tempfile::tempdir().unwrap();
        let (fresh_code, worked_out, _) = check(fresh.path());
        assert_eq!((fresh_code, &worked_out), (code, &reused), "{from}");
    }
    let read_edits = [
        // A comment that moves what follows it: findings and roots carry lines.
        ("// noalloc:root\npub fn checksum", "// a comment\n// noalloc:root\npub fn checksum"),
        // A body the root `handle` walks.
        ("\"GET {path}\"", "\"PUT {path}\""),
        // An impl in a body no root walks: a new method anywhere in the program.
        ("(1..count as u32 + 1).collect()", "{ impl Response { fn x() {} } (1..count as u32).collect() }"),
    ];
    for (from, to) in read_edits {
        edit(from, to);
        let (code, _, err) = check(cache.path());
        let reused_whole = err.contains("changed nothing the stored analysis read") || err.contains("nothing changed");
        assert!(code == 1 && !reused_whole, "{from}: {err}");
    }
}

/// An edit of bodies some roots' reaches walked, and of nothing else, checks
/// those roots again and keeps the others' stored outcomes; the answer is the one
/// a check without the store works out, an allocation the edit adds included.
/// An edit beyond plain bodies checks every root.
#[test]
fn an_edit_of_bodies_some_roots_read_checks_only_those_roots() {
    let ws = crate::lsp::Scratch::of("example");
    let cache = tempfile::tempdir().unwrap();
    let root = ws.root();
    let lib = ws.file("src/lib.rs");
    let edit = |from: &str, to: &str| {
        let text = std::fs::read_to_string(&lib).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(&lib, text.replacen(from, to, 1)).unwrap();
    };
    let (code, _, err) = check_with_cache(&root, cache.path(), &[]);
    assert!(code == 1 && !err.contains("stored analysis"), "{err}");
    const GROWN: &str = "std::hint::black_box(&line);\n    std::hint::black_box(line);";
    let steps: [(&[(&str, &str)], &str, bool); 4] = [
        // A macro call in the body of `log_request`, which `handle` reaches:
        // `checksum` stands.
        (&[("\"GET {path}\"", "\"PUT {path}\"")], "1 of 2", false),
        // `checksum`'s own body, made to allocate: `handle` stands.
        (&[("bytes.iter().fold", "bytes.to_vec().iter().fold")], "1 of 2", true),
        // `log_request`'s body grown by a line: `checksum`'s finding, below it,
        // stands one line down.
        (&[("std::hint::black_box(line);", GROWN)], "1 of 2", true),
        // Both, back as they were.
        (
            &[
                (GROWN, "std::hint::black_box(line);"),
                ("\"PUT {path}\"", "\"GET {path}\""),
                ("bytes.to_vec().iter().fold", "bytes.iter().fold"),
            ],
            "0 of 2",
            false,
        ),
    ];
    for (edits, reused, checksum_allocates) in steps {
        for (from, to) in edits {
            edit(from, to);
        }
        let (code, kept, err) = check_with_cache(&root, cache.path(), &[]);
        let told = format!("changed function bodies: {reused} roots' outcomes reused");
        assert!(err.contains(&told), "{edits:?}: {err}");
        assert_eq!(kept.contains("example::checksum"), checksum_allocates, "{kept}");
        let fresh = tempfile::tempdir().unwrap();
        let (fresh_code, worked_out, _) = check_with_cache(&root, fresh.path(), &[]);
        assert_eq!((code, &kept), (fresh_code, &worked_out), "{edits:?}");
        // The store now holds today's text: the same again is no edit.
        let (_, again, err) = check_with_cache(&root, cache.path(), &[]);
        assert!(err.contains("nothing changed since the stored analysis"), "{err}");
        assert_eq!(again, kept);
    }

    // A signature changed: every root is checked, none reused.
    edit("pub fn unmarked_tags(count: usize)", "pub fn unmarked_tags(count: u32)");
    let (_, _, err) = check_with_cache(&root, cache.path(), &[]);
    assert!(!err.contains("stored analysis") && !err.contains("outcomes reused"), "{err}");
}

#[test]
fn unknown_values_are_errors_that_list_the_valid_ones() {
    let (code, _, stderr) = run(&mut noalloc(&["--check", "--color", "bogus"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("[possible values: auto, always, never]"), "{stderr}");
    let (code, _, stderr) = run(&mut noalloc(&["--check", "--message-format", "yaml"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("[possible values: human, short, json, noalloc-json, cargo-json, sarif, html]"),
        "{stderr}"
    );
}

#[test]
fn explain_prints_a_finding_code_as_the_readme_explains_it() {
    let (code, stdout, _) = run(&mut noalloc(&["--explain", "may-grow"]));
    assert_eq!(code, 0);
    assert!(stdout.starts_with("may-grow\n\nThe line grows a buffer kept in a long-lived value"), "{stdout}");
    let (code, stdout, stderr) = run(&mut noalloc(&["--explain", "mayb-grow"]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "error: `mayb-grow` is not a noalloc finding code (the codes: allocation, may-grow, swallowed-error, malformed-directive, unused-exemption, internal-error, stale-baseline-entry, exemptions-list-differs, cross-check)\n"
    );
}

/// `test-data/features`: a root behind a feature, one behind a 32-bit target's cfg,
/// ones whose code depends on the profile (`debug_assertions`: what runs, and
/// whether a `debug_assert!` proves room), and roots written as
/// `#[noalloc::root]`.
#[test]
fn features_and_target_choose_what_is_checked() {
    let (code, stdout, stderr) = check("features", &["--message-format", "short"]);
    assert_eq!(code, 1, "{stderr}");
    expect![[r#"
        src/lib.rs:7: features::attributed: calls alloc::vec::from_elem
        src/lib.rs:58: features::cold_start: calls alloc::vec::from_elem
        src/lib.rs:68: features::profiled: calls alloc::vec::from_elem
    "#]]
    .assert_eq(&stdout);

    let (_, gated, stderr) = check("features", &["--message-format", "short", "--features", "gated"]);
    expect![[r#"
        src/lib.rs:7: features::attributed: calls alloc::vec::from_elem
        src/lib.rs:21: features::gated: calls <str as alloc::borrow::ToOwned>::to_owned
        src/lib.rs:58: features::cold_start: calls alloc::vec::from_elem
        src/lib.rs:68: features::profiled: calls alloc::vec::from_elem
    "#]]
    .assert_eq(&gated);
    assert!(stderr.is_empty(), "{stderr}");

    // The release profile's cfgs: `profiled` formats instead, and the
    // `debug_assert!` proves nothing.
    let (_, release, stderr) = check("features", &["--message-format", "short", "--release"]);
    expect![[r#"
        src/lib.rs:7: features::attributed: calls alloc::vec::from_elem
        src/lib.rs:58: features::cold_start: calls alloc::vec::from_elem
        src/lib.rs:70: features::profiled: calls alloc::fmt::format
        src/lib.rs:79: features::room_after_debug_assert: may grow `v`
        src/lib.rs:80: features::room_after_debug_assert: may grow `v`
    "#]]
    .assert_eq(&release);
    assert!(stderr.is_empty(), "{stderr}");
    let (_, all, _) = check("features", &["--message-format", "short", "--all-features"]);
    assert_eq!(all, gated);

    let (_, narrow, stderr) = check("features", &["--message-format", "short", "--target", "i686-unknown-linux-gnu"]);
    assert!(narrow.contains("features::narrow: calls"), "{narrow}{stderr}");
}

/// `#[noalloc::exempt(..)]` on an item covers the whole item, as `#[allow(..)]`
/// does: `warm_up`'s allocation, on the line after its signature, is let through
/// (and listed as such), while its twin `cold_start` without the attribute is
/// reported (in the test above).
#[test]
fn an_exemption_attribute_covers_its_whole_item() {
    let (_, stdout, stderr) = check("features", &["--report"]);
    let report = format!("{stdout}{stderr}");
    assert!(!report.contains("features::warm_up"), "{report}");
    assert!(
        report.contains("exemption at src/lib.rs:45 (measured: runs once, at start-up)\n    lets through: calls alloc::vec::from_elem"),
        "{report}"
    );
}

#[test]
fn cargo_noalloc_takes_cargos_flags() {
    let manifest = test_data("features").join("Cargo.toml");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-noalloc"));
    cmd.args(["noalloc", "--manifest-path", manifest.to_str().unwrap(), "-p", "features", "-F", "gated"])
        .args(["--message-format", "short", "--no-cache", "-q"])
        .env_remove("NOALLOC_LOG");
    let (code, stdout, stderr) = run(&mut cmd);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("src/lib.rs:21: features::gated: calls"), "{stdout}");

    let mut unknown = Command::new(env!("CARGO_BIN_EXE_cargo-noalloc"));
    unknown.args(["noalloc", "--manifest-path", manifest.to_str().unwrap(), "-p", "nope"]);
    let (code, _, stderr) = run(&mut unknown);
    assert_eq!(code, 2);
    assert_eq!(stderr, "error: package `nope` is not in the workspace (its packages: features)\n");
}

/// The bare `--message-format json` is each binary's own family's JSON: noalloc's
/// lines for `noalloc-ls --check` (the spec's), cargo's stream for `cargo noalloc`
/// (rust-analyzer's `check.overrideCommand`); `noalloc-json` and `cargo-json` name
/// either in both.
#[test]
fn bare_json_is_noallocs_lines_for_noalloc_ls_and_cargos_stream_for_cargo_noalloc() {
    let root = test_data("example");
    // The last line of each run, parsed: every line is a JSON object.
    let last_line = |(code, stdout, stderr): (i32, String, String)| {
        assert_eq!(code, 1, "{stderr}");
        let lines: Vec<serde_json::Value> = stdout
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("{err}: {line}")))
            .collect();
        lines.last().cloned().unwrap_or_else(|| panic!("no output\n{stderr}"))
    };
    let noalloc_ls =
        |format: &str| last_line(run(&mut noalloc(&["--check", root.to_str().unwrap(), "--message-format", format])));
    let cargo_noalloc = |format: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-noalloc"));
        cmd.args(["noalloc", "--message-format", format])
            .current_dir(&root)
            .env_remove("NOALLOC_LOG")
            .env("NOALLOC_CACHE_DIR", std::env::temp_dir().join("noalloc-it-cache"));
        last_line(run(&mut cmd))
    };
    let is_summary = |line: &serde_json::Value| line["kind"] == "summary" && line["findings"] == 1;
    let build_finished = serde_json::json!({"reason": "build-finished", "success": false});

    let json = noalloc_ls("json");
    assert!(is_summary(&json), "{json}");
    let noalloc_json = noalloc_ls("noalloc-json");
    assert!(is_summary(&noalloc_json), "{noalloc_json}");
    assert_eq!(noalloc_ls("cargo-json"), build_finished);

    assert_eq!(cargo_noalloc("json"), build_finished);
    assert_eq!(cargo_noalloc("cargo-json"), build_finished);
    let noalloc_json = cargo_noalloc("noalloc-json");
    assert!(is_summary(&noalloc_json), "{noalloc_json}");

    // `--help` says what `json` is in each.
    let (_, help, _) = run(&mut noalloc(&["--help"]));
    assert!(help.contains("noalloc's JSON lines, as `noalloc-json`"), "{help}");
    let (_, help, _) = run(Command::new(env!("CARGO_BIN_EXE_cargo-noalloc")).args(["noalloc", "--help"]));
    assert!(help.contains("cargo's JSON stream, as `cargo-json`"), "{help}");
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let (code, stdout, stderr) = check("example", &["--message-format", "sarif"]);
    assert_eq!(code, 1, "{stderr}");
    let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut schema: serde_json::Value =
        serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).expect("the vendored schema parses");
    // The schema's own pattern for `language` (of a run and of a tool component)
    // fails the meta-schema's `format: regex` (a stray `]`); noalloc writes no
    // `language`, so the pattern is replaced by what it means before compiling.
    for owner in ["run", "toolComponent"] {
        let language = &mut schema["definitions"][owner]["properties"]["language"]["pattern"];
        assert_eq!(language, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
        *language = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(
        |r| r["id"] == "allocation" && r["helpUri"].as_str().unwrap().ends_with("docs/finding-codes.md#allocation")
    ));
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let result = results.iter().find(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"] == 30).unwrap();
    assert_eq!(result["ruleId"], "allocation");
    assert_eq!(result["level"], "warning");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/lib.rs");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 30);
    assert_eq!(result["relatedLocations"][0]["message"]["text"], "root `example::handle`");
    let flow = result["codeFlows"][0]["threadFlows"][0]["locations"].as_array().unwrap();
    assert!(flow.len() >= 3, "{flow:#?}");
    assert!(
        flow.iter().any(|step| step["location"]["message"]["text"].as_str().unwrap().contains("__rust_alloc")),
        "{flow:#?}"
    );
}

#[test]
fn sarif_error_findings_are_errors() {
    let (_, stdout, _) = check("specifics", &["--message-format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let malformed: Vec<_> = results.iter().filter(|r| r["ruleId"] == "malformed-directive").collect();
    assert!(!malformed.is_empty());
    assert!(malformed.iter().all(|r| r["level"] == "error"));
}

/// As a desktop-started editor runs it: no cargo on PATH, the toolchain in
/// `~/.cargo/bin` (here links to the real one), and no `CARGO`/`RUSTC`.
#[test]
fn toolchain_is_found_in_home_cargo_bin_when_path_lacks_it() {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().unwrap();
    let toolchain_bin = std::path::PathBuf::from(String::from_utf8(sysroot.stdout).unwrap().trim()).join("bin");
    let home = tempfile::tempdir().unwrap();
    let run_in_home = |home: &std::path::Path| {
        let path = test_data("example");
        run(noalloc(&["--check", path.to_str().unwrap(), "--message-format", "short", "--no-cache"])
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", home)
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("CARGO_HOME")
            .env_remove("RUSTUP_HOME")
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("RUST_SRC_PATH")
            .env_remove("NOALLOC_TOOLCHAIN_SYSROOT"))
    };

    let (code, stdout, stderr) = run_in_home(home.path());
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        format!(
            "error: no `cargo` found: looked at $CARGO, each directory of PATH and ~/.cargo/bin ({}/.cargo/bin); install Rust with rustup (https://rustup.rs), or set CARGO to the `cargo` to use\n",
            home.path().display()
        )
    );

    let cargo_bin = home.path().join(".cargo/bin");
    std::fs::create_dir_all(&cargo_bin).unwrap();
    for tool in ["cargo", "rustc"] {
        std::os::unix::fs::symlink(toolchain_bin.join(tool), cargo_bin.join(tool)).unwrap();
    }
    let (code, stdout, stderr) = run_in_home(home.path());
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("src/lib.rs:30: example::log_request: calls alloc::fmt::format"), "{stdout}");
}

#[test]
fn root_arguments_that_cannot_be_read_stop_the_check() {
    let root = |args: &str| format!("specifics::generics::never_instantiated::<{args}>");
    let (code, _, stderr) = check(
        "specifics",
        &["--root", &root("NoSuchType"), "--root", &root("specifics::generics::Plain, u8"), "--root", &root("fn()")],
    );
    assert_eq!(code, 2, "{stderr}");
    for why in [
        "`NoSuchType` names no type in scope",
        "the function takes 1 generic argument, 2 given",
        "`fn()` cannot be read here",
    ] {
        assert!(stderr.contains(why), "{why}: {stderr}");
    }
}

/// A static's one-time setup is proved by reading every body that can name the
/// static, reached by a root or not: an edit of such a body that empties it
/// again is read (the stored analysis is not reused), and so is the edit that
/// takes that back. Warm runs agree with `--no-cache`.
#[test]
fn an_edit_of_a_body_that_names_a_set_up_static_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"setup_edit\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    let lib = dir.path().join("src/lib.rs");
    let clean = "use std::ptr;\nuse std::sync::atomic::{AtomicPtr, Ordering};\n\n\
        static TABLE: AtomicPtr<Vec<u32>> = AtomicPtr::new(ptr::null_mut());\n\n\
        // noalloc:root\npub fn get(i: usize) -> u32 {\n    let t = TABLE.load(Ordering::Acquire);\n    \
        if t.is_null() {\n        let new = Box::into_raw(Box::new(vec![1, 2, 3]));\n        \
        TABLE.store(new, Ordering::Release);\n        return unsafe { &*new }[i % 3];\n    }\n    \
        unsafe { &*t }[i % 3]\n}\n\npub fn other() -> usize {\n    3\n}\n";
    let emptied = clean.replace("    3\n}", "    TABLE.store(ptr::null_mut(), Ordering::Release);\n    3\n}");
    let cache = tempfile::tempdir().unwrap();
    let check = |extra: &[&str]| {
        let mut args = vec!["--check", dir.path().to_str().unwrap(), "--message-format", "short"];
        args.extend_from_slice(extra);
        run(noalloc(&args).env("NOALLOC_CACHE_DIR", cache.path())).1
    };
    let flagged = "src/lib.rs:10: setup_edit::get: calls alloc::boxed::Box::<Vec<u32, Global>>::new";
    for (text, is_flagged) in [(clean, false), (emptied.as_str(), true), (clean, false)] {
        std::fs::write(&lib, text).unwrap();
        let warm = check(&[]);
        assert_eq!(warm.contains(flagged), is_flagged, "{warm}");
        assert_eq!(warm, check(&["--no-cache"]));
    }
}
