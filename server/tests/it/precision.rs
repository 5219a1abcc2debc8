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
