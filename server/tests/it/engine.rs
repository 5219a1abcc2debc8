//! The engine on the fixture workspaces: exact findings and per-root status.

use expect_test::expect_file;
use noalloc_ls::cli::{MessageFormat, RenderOptions, render};

use crate::{fixture, roots_table};


#[test]
fn specifics_findings_match_golden() {
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let short = render(&fixture.ws, &fixture.analysis, &RenderOptions { format: MessageFormat::Short, ..Default::default() }, 0);
    expect_file!["../../../test-data/specifics/expected.short"].assert_eq(&short);
}

#[test]
fn specifics_roots_match_golden() {
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    expect_file!["../../../test-data/specifics/expected.roots"].assert_eq(&roots_table(&fixture.analysis));
    let roots = &fixture.analysis.roots;
    assert!(roots.len() >= 60, "the fixture has {} roots", roots.len());
    assert!(roots.iter().any(|r| r.findings == 0) && roots.iter().any(|r| r.findings > 0));
}

#[test]
fn every_finding_names_roots_and_a_chain_to_the_allocation() {
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    for finding in &fixture.analysis.findings {
        assert!(!finding.roots.is_empty(), "{finding:?}");
        assert!(!finding.reasons.is_empty(), "{finding:?}");
        if finding.reasons[0].starts_with("calls alloc::") {
            let last = finding.chain.last().expect("a chain");
            assert!(
                last.function.contains("__rust_alloc") || last.function.contains("__rust_realloc"),
                "chain of {} ends at {}",
                finding.function,
                last.function
            );
        }
    }
}
