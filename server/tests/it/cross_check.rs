//! `--cross-check` on the fixtures: each root's verdict against the compiled,
//! optimised program (golden per-root outcomes; every failure of the check on
//! `specifics` is one of the engine's allowances, named in `ALLOWED` below), that
//! the check fails when the engine misses an allocation, and the flag's output.
//!
//! The harness is built with fat LTO once per fixture under the target directory;
//! later runs find it fresh.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use expect_test::{expect, expect_file};
use noalloc_ls::cli::{render_report, MessageFormat, RenderOptions, Report};
use noalloc_ls::cross_check::{self, Allowance, CrossCheck, Outcome};
use noalloc_ls::engine::Analysis;

use crate::cli::{noalloc, run};
use crate::{fixture, test_data};

/// The fixture's root directory and analysis, copied out so that the fixture's lock
/// is not held through a build.
fn analysed(name: &'static str) -> (PathBuf, Analysis) {
    let shared = fixture(name);
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    (fixture.ws.root.clone(), fixture.analysis.clone())
}

/// One line per root: its outcome, the compiled chain when it matters. Paths are
/// relative to the workspace `root`.
fn outcomes(root: &Path, cross_checked: &CrossCheck) -> String {
    let mut out = String::new();
    for compared in &cross_checked.roots {
        let outcome = match &compared.outcome {
            Outcome::Agree { allocates: true } => "agree: allocates".to_owned(),
            Outcome::Agree { allocates: false } => "agree: clean".to_owned(),
            Outcome::CompiledAllocates { chain, explained_by } => {
                let last = chain.last().map(|step| step.function.as_str()).unwrap_or("");
                match explained_by {
                    Some(allowance) => {
                        let allowance =
                            allowance.describe(|file| file.strip_prefix(root).unwrap_or(file).display().to_string());
                        format!("compiled allocates ({last}), allowed by {allowance}")
                    }
                    None => format!("compiled allocates ({last}), the analysis said clean"),
                }
            }
            Outcome::EngineOnly => "flagged, compiled clean".to_owned(),
            Outcome::Skipped { reason } => format!("not compared: {reason}"),
        };
        out.push_str(&format!("{}: {outcome}\n", compared.root));
        for call in &compared.unmatched_pointer_calls {
            out.push_str(&format!("    call by pointer with no match: {call}\n"));
        }
    }
    out
}

#[test]
fn example_roots_agree_with_the_compiled_program() {
    let (root, analysis) = analysed("example");
    let cross_checked = cross_check::run(&root, &analysis, &[]).expect("the harness builds");
    expect![[r#"
        example::handle: agree: allocates
        example::checksum: agree: clean
    "#]]
    .assert_eq(&outcomes(&root, &cross_checked));
    // Under the target directory, never in the user's tree.
    assert!(cross_checked.harness_dir.ancestors().any(|dir| dir.ends_with("noalloc-cross-check")));
    assert!(
        !cross_checked.harness_dir.starts_with(&root) || cross_checked.harness_dir.starts_with(root.join("target"))
    );
}

/// The roots of `specifics` the engine judges clean through one of its allowances,
/// which the compiled program (rightly) still reaches the allocator from. The
/// `Analysis` names each allowed call per root (`RootReport::allowed`), and the
/// check finds its line on the compiled chain (the line tables, so inlined calls
/// count): each of these is explained, none fails.
const ALLOWED: &[(&str, &str)] = &[
    ("specifics::error_paths::return_err_format", "error path: `return Err(format!(..))`"),
    ("specifics::error_paths::tail_err_to_string", "error path: a tail `Err(..to_string())`"),
    ("specifics::error_paths::helper_error_propagated", "error path: a helper's error passed up by `?`"),
    ("specifics::error_paths::question_mark_into_box", "error path: `?` boxing the error"),
    ("specifics::error_paths::propagated_from_a_loop", "error path: `?` inside a loop ends the call"),
    ("specifics::error_paths::swallowed_once", "error path: an error dropped once per call"),
    ("specifics::first_use::Cache::table_is_none_guard", "first use: `if self.table.is_none()`"),
    ("specifics::first_use::Cache::table_if_let_none", "first use: `if let None = self.table`"),
    ("specifics::first_use::Cache::get_or_insert_with_field", "first use: `get_or_insert_with` on a field"),
    ("specifics::first_use::Cache::once_cell", "first use: `OnceCell::get_or_init` on a field"),
    ("specifics::first_use::once_lock_static", "first use: `OnceLock::get_or_init` on a static"),
    ("specifics::first_use::lazy_lock_static", "first use: `LazyLock`"),
    ("specifics::first_use::once_call_once", "first use: `Once::call_once`"),
    ("specifics::first_use::thread_local_first_use", "first use: `thread_local!` initialisation"),
    ("specifics::reused::fixed_type_push", "reused memory: a `noalloc:fixed` type's push"),
    ("specifics::reused::append_fn_with_room", "reused memory: a `noalloc:append` fn after a room check"),
];

#[test]
fn specifics_disagreements_are_the_engines_allowances() {
    let (root, analysis) = analysed("specifics");
    let cross_checked = cross_check::run(&root, &analysis, &[]).expect("the harness builds");
    expect_file!["../../../test-data/specifics/expected.cross-check"].assert_eq(&outcomes(&root, &cross_checked));
    let failing: Vec<&str> = cross_checked.failures().map(|root| root.root.as_str()).collect();
    assert!(
        failing.is_empty(),
        "a failure no allowance explains is an engine bug: fix it or list it in ARCHITECTURE.md: {failing:?}"
    );
    for (root, why) in ALLOWED {
        let compared = cross_checked.roots.iter().find(|r| r.root == *root).expect("compared");
        assert!(
            matches!(&compared.outcome, Outcome::CompiledAllocates { explained_by: Some(Allowance::Rule { .. }), .. }),
            "{root} ({why}) is not explained by the engine's rule: {:?}",
            compared.outcome
        );
    }
}

/// The engine with one rule off: drop glue. Its findings in `Drop` impls are taken
/// out of the real analysis (as an engine that ignores drop glue would never have
/// made them); the cross-check must then fail exactly the roots that only drop glue
/// flagged.
#[test]
fn the_check_fails_the_roots_an_engine_without_drop_glue_misses() {
    let (root, mut analysis) = analysed("specifics");
    let through_drop_glue = |function: &str| function.ends_with("::drop");
    analysis.findings.retain(|finding| !through_drop_glue(&finding.function));
    let mut remaining: BTreeMap<&str, usize> = BTreeMap::new();
    for finding in &analysis.findings {
        for root in &finding.roots {
            *remaining.entry(root.as_str()).or_default() += 1;
        }
    }
    let remaining: BTreeMap<String, usize> = remaining.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    let mut now_clean = Vec::new();
    for report in &mut analysis.roots {
        let count = remaining.get(&report.function).copied().unwrap_or(0);
        if report.findings > 0 && count == 0 {
            now_clean.push(report.function.clone());
        }
        report.findings = count;
    }
    assert_eq!(now_clean, ["specifics::drops::drop_guard", "specifics::drops::drop_vec_of_guards"]);
    let cross_checked = cross_check::run(&root, &analysis, &[]).expect("the harness builds");
    let failing: Vec<&str> = cross_checked.failures().map(|root| root.root.as_str()).collect();
    for root in &now_clean {
        assert!(failing.contains(&root.as_str()), "{root} is not reported: {failing:?}");
    }
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let mut report = Report::of(&analysis);
    report.add_cross_check(&cross_checked);
    let short =
        render_report(&fixture.ws, &report, &RenderOptions { format: MessageFormat::Short, ..Default::default() }, 0);
    let line = short.lines().find(|line| line.contains("drop_guard")).expect("an error line for drop_guard");
    expect!["src/drops.rs:20: error: cross-check: compiled code reaches the allocator: specifics::drops::drop_guard > calloc, which the analysis judged clean"]
    .assert_eq(line);
}

#[test]
fn the_flag_adds_cross_check_objects_to_json() {
    let path = test_data("example");
    let (code, stdout, stderr) = run(noalloc(&[
        "--check",
        path.to_str().unwrap(),
        "--no-cache",
        "--cross-check",
        "--timings",
        "--message-format",
        "json",
    ])
    .env("NOALLOC_CACHE_DIR", std::env::temp_dir().join("noalloc-it-cross-check")));
    assert_eq!(code, 1, "{stderr}");
    let objects: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let outcomes: Vec<(&str, &str)> = objects
        .iter()
        .filter(|o| o["kind"] == "cross-check")
        .map(|o| (o["root"].as_str().unwrap(), o["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(outcomes, [("example::handle", "agree-allocates"), ("example::checksum", "agree-clean")]);
    assert!(stderr.contains("timings: cross-check build"), "{stderr}");
}
