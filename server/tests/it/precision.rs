//! Precision: on everyday code that never allocates, no finding. The `precision`
//! fixture's roots are checked against their goldens and *run* under bounded's
//! counting allocator (`test-data/precision/examples/oracle.rs`): a root is flagged
//! exactly when the counter sees it allocate. The false alarms still open are
//! named in `OPEN_FALSE_ALARMS`; one that goes away fails the test until it is
//! taken off the list, so the list is always the truth.

use std::collections::BTreeMap;

use expect_test::expect_file;
use noalloc_ls::cli::{render, MessageFormat, RenderOptions};

use crate::fixture;
use crate::roots_table;
use crate::soundness::{oracle_counts, own};

/// Roots that never allocate but are still flagged, each with why.
const OPEN_FALSE_ALARMS: &[(&str, &str)] = &[];

#[test]
fn precision_findings_match_golden() {
    let shared = fixture("precision");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let own = own(&fixture.analysis, "precision");
    let short = render(&fixture.ws, &own, &RenderOptions { format: MessageFormat::Short, ..Default::default() }, 0);
    expect_file!["../../../test-data/precision/expected.short"].assert_eq(&short);
    expect_file!["../../../test-data/precision/expected.roots"].assert_eq(&roots_table(&own));
    // `wide_simd` names AVX-512 intrinsics: std's are all loaded.
    assert_eq!(fixture.ws.deferred_intrinsics.deferred_files(), 0);
}

/// Where the engine's verdicts on the roots of fixture `name` disagree with the
/// counting allocator (flagged exactly when it counts an allocation), with the
/// false alarms in `open` expected flagged. Returns the oracle's counts too.
fn disagreements(name: &'static str, open: &[(&str, &str)]) -> (BTreeMap<String, u64>, Vec<String>) {
    let counts = oracle_counts(name);
    let shared = fixture(name);
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let own = own(&fixture.analysis, &name.replace('-', "_"));
    let verdicts: BTreeMap<&str, usize> =
        own.roots.iter().map(|root| (root.function.as_str(), root.findings)).collect();
    let open: BTreeMap<&str, &str> = open.iter().copied().collect();
    let mut wrong = Vec::new();
    for (root, &count) in &counts {
        let Some(&findings) = verdicts.get(root.as_str()) else {
            wrong.push(format!("{root}: run by the oracle, but not a root the engine checked"));
            continue;
        };
        match (count > 0, findings > 0, open.get(root.as_str())) {
            (true, false, _) => wrong.push(format!("{root}: judged clean, but allocates {count} time(s) a call")),
            (false, true, None) => {
                wrong.push(format!("{root}: flagged, but the counter sees no allocation (a false alarm)"))
            }
            (false, false, Some(why)) => {
                wrong.push(format!("{root}: clean now; take it off OPEN_FALSE_ALARMS (was: {why})"))
            }
            (true, true, Some(_)) => wrong.push(format!("{root}: allocates, so it is no false alarm")),
            _ => {}
        }
    }
    for root in verdicts.keys().filter(|root| !counts.contains_key(**root)) {
        wrong.push(format!("{root}: a root the oracle does not run"));
    }
    (counts, wrong)
}

#[test]
fn flagged_exactly_when_the_counting_allocator_sees_an_allocation() {
    let (counts, wrong) = disagreements("precision", OPEN_FALSE_ALARMS);
    assert!(wrong.is_empty(), "verdicts disagree with the counting allocator:\n{}", wrong.join("\n"));
    // Both sides are exercised.
    assert!(counts.values().filter(|&&n| n == 0).count() >= 10);
    assert!(counts.values().filter(|&&n| n > 0).count() >= 5);
}

/// `test-data/guarded-dependency`: a registry dependency (vendored) pushes only
/// after `len() < capacity()` in its own body. That proof counts: calling it is
/// clean; its method that pushes without one is flagged. Its CPU-dispatch statics
/// (`static AtomicPtr<()>` in a block) call what their block stores: clean for a
/// routine that does not allocate, flagged for one that does. Its private
/// fn-pointer fields, in values the roots' callers built, hold what its own code
/// stores there: clean when none of those routines allocates, flagged when one
/// does, and when the crate stores its caller's pointer, lends the field out or
/// keeps it in a cell its callers set.
#[test]
fn a_room_proof_in_a_dependency_counts_as_one_in_the_workspace() {
    // Sound, not a false alarm of the engine's making: the setter in the block
    // stores what its caller hands in, which may be any function.
    let settable = [(
        "guarded_dependency::dispatch_settable",
        "the dispatch static's block has a setter that stores its caller's fn pointer",
    )];
    let (counts, wrong) = disagreements("guarded-dependency", &settable);
    assert!(wrong.is_empty(), "verdicts disagree with the counting allocator:\n{}", wrong.join("\n"));
    assert_eq!(counts.values().filter(|&&n| n == 0).count(), 8, "{counts:?}");
    let shared = fixture("guarded-dependency");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let short = render(
        &fixture.ws,
        &fixture.analysis,
        &RenderOptions { format: MessageFormat::Short, ..Default::default() },
        0,
    );
    expect_file!["../../../test-data/guarded-dependency/expected.short"].assert_eq(&short);
}

/// What a dependency's private field holds, read from the instantiations the
/// crate graph makes of the generic function that stores there, is read again
/// after an edit of a body no root walks that makes another one: the stored
/// analysis of a clean root is not reused once the workspace keeps an owner
/// whose drop allocates.
#[test]
fn an_edit_that_keeps_another_owner_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("guarded-dependency");
    let fixture = crate::test_data("guarded-dependency");
    crate::lsp::copy_dir(&fixture, &root);
    // Without the oracle and its dev-dependency (`../../bounded`, whose own
    // roots a stored analysis is not kept for).
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let manifest: String =
        manifest.lines().filter(|line| !line.starts_with("bounded = ")).map(|line| format!("{line}\n")).collect();
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    std::fs::remove_dir_all(root.join("examples")).unwrap();
    let cache = tempfile::tempdir().unwrap();
    // The roots each finding is reached from.
    let flagged_roots = || {
        let args = ["--check", root.to_str().unwrap(), "--message-format", "json"];
        let (code, out, err) = crate::cli::run(crate::cli::noalloc(&args).env("NOALLOC_CACHE_DIR", cache.path()));
        assert!(code == 0 || code == 1, "{out}{err}");
        let mut roots: Vec<String> = out
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter(|line| line["kind"] == "finding")
            .flat_map(|finding| finding["roots"].as_array().cloned().unwrap_or_default())
            .filter_map(|root| root.as_str().map(str::to_owned))
            .collect();
        roots.sort();
        roots.dedup();
        roots
    };
    let before = flagged_roots();
    assert!(before.iter().any(|root| root == "guarded_dependency::release_shared"), "{before:?}");
    assert!(!before.iter().any(|root| root == "guarded_dependency::release_owned"), "{before:?}");
    let lib = root.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    // A body no root walks: only the search for the views' owners reads it.
    let quiet = "guarded::OwnedView::from_owner(Quiet(bytes))";
    assert!(text.contains(quiet));
    std::fs::write(&lib, text.replace(quiet, "guarded::OwnedView::from_owner(Noisy(bytes.to_vec()))")).unwrap();
    let after = flagged_roots();
    assert!(after.iter().any(|root| root == "guarded_dependency::release_owned"), "{after:?}");
}
