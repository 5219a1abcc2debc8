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

/// What a watch hears: the answer for its files once, then the rest.
#[derive(Default)]
struct Heard {
    files: Vec<std::path::PathBuf>,
    judged: Vec<(usize, usize)>,
    complete: Vec<(Vec<std::path::PathBuf>, noalloc_ls::engine::Analysis)>,
}

impl noalloc_ls::engine::Watch for Heard {
    fn first_files(&self) -> &[std::path::PathBuf] {
        &self.files
    }
    fn root_judged(&mut self, judged: usize, total: usize) {
        self.judged.push((judged, total));
    }
    fn files_complete(&mut self, files: &[std::path::PathBuf], partial: &noalloc_ls::engine::Analysis) {
        self.complete.push((files.to_vec(), partial.clone()));
    }
}

/// Watching one file of `specifics` at a time: what the engine calls that file's
/// complete answer, before the other roots are judged, is what the whole analysis
/// says about it (findings with their roots and chains, errors, exemptions); the
/// whole analysis is the unwatched one, and every root is counted once.
#[test]
fn a_watched_files_early_answer_is_the_whole_analysis_answer_for_it() {
    use noalloc_ls::engine::{CheckConfig, analyze_watched};
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let config = CheckConfig::default().with_manifest(&fixture.ws.root).unwrap();
    let whole = &fixture.analysis;
    let mut files: Vec<_> = std::fs::read_dir(fixture.ws.root.join("src")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut judged_early = Vec::new();
    for file in files {
        let mut heard = Heard { files: vec![file.clone()], ..Heard::default() };
        let analysis = analyze_watched(&fixture.ws, &config, None, None, &mut heard);
        let total = whole.roots.len();
        assert_eq!(heard.judged, (1..=total).map(|n| (n, total)).collect::<Vec<_>>());
        assert_eq!(heard.complete.len(), 1, "{}", file.display());
        let (told, partial) = &heard.complete[0];
        assert_eq!(told, &vec![file.clone()]);
        let in_file = |a: &noalloc_ls::engine::Analysis| {
            let findings: Vec<_> = a.findings.iter().filter(|f| f.location.file == file).cloned().collect();
            let errors: Vec<_> = a.errors.iter().filter(|e| e.location.file == file).map(|e| (e.location.clone(), e.message.clone())).collect();
            let exemptions: Vec<_> = a.exemptions.iter().filter(|e| e.location.file == file).cloned().collect();
            (findings, errors, exemptions)
        };
        assert_eq!(in_file(partial), in_file(whole), "{}", file.display());
        assert_eq!(analysis.findings, whole.findings, "{}", file.display());
        assert_eq!(analysis.errors, whole.errors, "{}", file.display());
        assert_eq!(analysis.roots.iter().map(|r| &r.function).collect::<Vec<_>>(), whole.roots.iter().map(|r| &r.function).collect::<Vec<_>>());
        judged_early.push(partial.roots.len());
    }
    // Most files are complete well before the last root.
    assert!(judged_early.iter().filter(|&&n| n < whole.roots.len() / 2).count() > 10, "{judged_early:?}");
}
