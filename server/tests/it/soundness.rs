//! Soundness: silence means "proved clean". The `soundness` fixture's roots are
//! checked against their goldens, and also *run* under bounded's counting allocator
//! (`test-data/soundness/examples/oracle.rs`): every root seen allocating must be
//! flagged, and every root the engine calls clean must count 0. The summary cache
//! never changes a verdict: cold, warm and `--no-cache` runs agree.

use std::collections::BTreeMap;
use std::process::Command;

use expect_test::expect_file;
use noalloc_ls::cli::{render, MessageFormat, RenderOptions};
use noalloc_ls::engine::{analyze, Analysis, CheckConfig, LoadOptions, Workspace};

use crate::{fixture, roots_table, test_data};

fn short(fixture: &crate::Fixture, analysis: &Analysis) -> String {
    render(&fixture.ws, analysis, &RenderOptions { format: MessageFormat::Short, ..Default::default() }, 0)
}

/// The fixture's own roots and findings: its dev-dependency `bounded` is a path
/// dependency, so rust-analyzer counts it as the workspace's and its roots run too.
pub fn own(analysis: &Analysis, krate: &str) -> Analysis {
    let prefix = format!("{krate}::");
    let mut own = analysis.clone();
    own.roots.retain(|root| root.function.starts_with(&prefix));
    own.findings.retain(|finding| finding.function.starts_with(&prefix));
    own
}

#[test]
fn soundness_findings_match_golden() {
    let shared = fixture("soundness");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let own = own(&fixture.analysis, "soundness");
    expect_file!["../../../test-data/soundness/expected.short"].assert_eq(&short(&fixture, &own));
    expect_file!["../../../test-data/soundness/expected.roots"].assert_eq(&roots_table(&own));
}

/// Allocations per call of every root of fixture `name`, counted by running its
/// `oracle` example.
pub fn oracle_counts(name: &str) -> BTreeMap<String, u64> {
    let dir = test_data(name);
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| crate::package_dir().join("../target"))
        .join("noalloc-fixtures");
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["run", "--quiet", "--example", "oracle"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "the oracle failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let (root, count) = line.split_once('\t').expect("root<TAB>count");
            (root.to_owned(), count.parse().expect("a count"))
        })
        .collect()
}

#[test]
fn verdicts_agree_with_the_counting_allocator() {
    let counts = oracle_counts("soundness");
    let shared = fixture("soundness");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let own = own(&fixture.analysis, "soundness");
    let verdicts: BTreeMap<&str, usize> =
        own.roots.iter().map(|root| (root.function.as_str(), root.findings)).collect();
    assert!(counts.len() >= 50, "the oracle runs {} roots", counts.len());
    let mut wrong = Vec::new();
    for (root, &count) in &counts {
        match verdicts.get(root.as_str()) {
            None => wrong.push(format!("{root}: run by the oracle, but not a root the engine checked")),
            Some(0) if count > 0 => wrong.push(format!("{root}: judged clean, but allocates {count} time(s) a call")),
            Some(_) => {}
        }
    }
    for root in verdicts.keys() {
        if !counts.contains_key(*root) {
            wrong.push(format!("{root}: a root the oracle does not run"));
        }
    }
    assert!(wrong.is_empty(), "the engine disagrees with the allocator:\n{}", wrong.join("\n"));
    // Both sides are exercised: roots that allocate, and clean roots counted at 0.
    assert!(counts.values().filter(|&&n| n > 0).count() >= 20);
    assert!(verdicts.values().filter(|&&n| n == 0).count() >= 15);
}

#[test]
fn strict_panics_checks_what_a_panic_path_computes() {
    let shared = fixture("soundness");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let config = CheckConfig { strict_panics: true, ..CheckConfig::default() }.with_manifest(&fixture.ws.root).unwrap();
    let strict = analyze(&fixture.ws, &config);
    let flagged = |analysis: &Analysis, name: &str| {
        analysis.roots.iter().find(|r| r.function == name).map(|r| r.findings > 0).expect("a root")
    };
    let root = "soundness::diverging::panics_with_description";
    assert!(!flagged(&fixture.analysis, root), "a panic message is allowed by default");
    assert!(flagged(&strict, root), "--strict-panics checks what the panic message computes");
    // The panic itself stays cut: a root that only panics stays clean.
    assert!(!flagged(&strict, "soundness::diverging::check_or_fail"));
}

#[test]
fn root_patterns_accept_reexported_paths_and_report_the_unmatched() {
    let shared = fixture("soundness");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let config = CheckConfig {
        roots: vec!["soundness::Matcher::is_match".to_owned(), "soundness::nothing::here*".to_owned()],
        ..CheckConfig::default()
    };
    let analysis = analyze(&fixture.ws, &config);
    assert!(
        analysis.roots.iter().any(|r| r.function == "soundness::unresolved::private::Matcher::is_match"),
        "{:?}",
        analysis.roots.iter().map(|r| &r.function).collect::<Vec<_>>()
    );
    assert_eq!(analysis.unmatched_root_patterns, ["soundness::nothing::here*"]);
}

/// `namesake::*` is the library `namesake`, as `use namesake::…` names it, not an
/// example (a bench, a test, a binary) cargo builds beside it under the same name;
/// a pattern the library leaves unmatched is looked for in those.
#[test]
fn a_crate_pattern_names_the_library_before_the_targets_beside_it() {
    let lib = "pub fn clean(x: u32) -> u32 { x + 1 }\n";
    let example =
        "fn main() { let v = vec![namesake::clean(1)]; drop(v); }\npub fn helper() -> Vec<u8> { Vec::new() }\n";
    let (_dir, root) = crate::temp_package("namesake", &[("src/lib.rs", lib), ("examples/namesake.rs", example)]);
    let ws = Workspace::load(&root, &LoadOptions::default(), &|_| {}).expect("workspace loads");
    let roots_of = |pattern: &str| {
        let analysis = analyze(&ws, &CheckConfig { roots: vec![pattern.to_owned()], ..CheckConfig::default() });
        let mut roots: Vec<String> = analysis.roots.iter().map(|r| r.function.clone()).collect();
        roots.sort();
        (roots, analysis.unmatched_root_patterns)
    };
    assert_eq!(roots_of("namesake::*"), (vec!["namesake::clean".to_owned()], vec![]));
    assert_eq!(roots_of("namesake::main"), (vec!["namesake::main".to_owned()], vec![]));
    assert_eq!(roots_of("namesake::nothing"), (vec![], vec!["namesake::nothing".to_owned()]));
}

#[test]
fn a_root_pattern_gives_a_generic_root_its_concrete_arguments() {
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let generic = "specifics::generics::never_instantiated";
    // Never instantiated by the workspace: one finding at the root says so.
    let unargued =
        fixture.analysis.findings.iter().find(|f| f.function == generic).expect("the never-instantiated finding");
    assert!(unargued.reasons[0].starts_with("generic root never instantiated here"), "{:?}", unargued.reasons);
    // `Plain`'s `name` does not allocate, `Loud`'s does; each pattern checks its own
    // instance, by the crate-qualified path or the name in the function's scope.
    let (plain, loud) = (format!("{generic}::<specifics::generics::Plain>"), format!("{generic}::<Loud>"));
    let config = CheckConfig { roots: vec![plain.clone(), loud.clone()], ..CheckConfig::default() };
    assert_eq!(noalloc_ls::engine::root_pattern_problems(&fixture.ws, &config), Default::default());
    let analysis = analyze(&fixture.ws, &config);
    let findings_of = |root: &str| {
        let report = analysis.roots.iter().find(|r| r.function == root).unwrap_or_else(|| panic!("{root} is checked"));
        let lines: Vec<(String, u32)> = analysis
            .findings
            .iter()
            .filter(|f| f.roots.iter().any(|r| r == root))
            .map(|f| (f.location.file.file_name().unwrap().to_string_lossy().into_owned(), f.location.line))
            .collect();
        (report.findings, lines)
    };
    assert_eq!(findings_of(&plain), (0, vec![]));
    // The calls on `T` reach `Loud::name`, whose line allocates.
    assert_eq!(findings_of(&loud), (1, vec![("generics.rs".to_owned(), 75)]));
}

/// Cold (empty cache), warm (the cache the cold run wrote) and `--no-cache` runs
/// give the same findings, with the same chains to the allocator, place for place
/// (a summary keeps where each call of its chain starts and ends).
fn cache_never_changes_findings(name: &'static str) {
    let shared = fixture(name);
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let base = CheckConfig::default().with_manifest(&fixture.ws.root).unwrap();
    let cached = CheckConfig { cache_dir: Some(dir.path().to_owned()), ..base.clone() };
    let cold = analyze(&fixture.ws, &cached);
    let warm = analyze(&fixture.ws, &cached);
    assert!(cold.timings.cache_entries == 0 || warm.timings.cache_hits > 0, "{name}: the warm run used the cache");
    let uncached = short(&fixture, &fixture.analysis);
    assert_eq!(short(&fixture, &cold), uncached, "{name}: cold run with the cache on");
    assert_eq!(short(&fixture, &warm), uncached, "{name}: warm run");
    let chains = |analysis: &Analysis| {
        let mut chains: Vec<String> =
            analysis.findings.iter().map(|f| format!("{:?} {:?}", f.location, f.chain)).collect();
        chains.sort();
        chains
    };
    assert_eq!(chains(&warm), chains(&fixture.analysis), "{name}: warm run's chains");
}

#[test]
fn cache_never_changes_findings_on_soundness() {
    cache_never_changes_findings("soundness");
}

#[test]
fn cache_never_changes_findings_on_specifics() {
    cache_never_changes_findings("specifics");
}

/// Precision's containers are judged by `growth:` entries, and its summaries hold
/// room proofs made in dependencies' bodies.
#[test]
fn cache_never_changes_findings_on_precision() {
    cache_never_changes_findings("precision");
}

#[test]
fn cache_never_changes_findings_on_example() {
    cache_never_changes_findings("example");
}

#[test]
fn cache_never_changes_findings_on_the_small_fixtures() {
    for name in ["adoption", "clean", "broken", "features", "guarded-dependency"] {
        cache_never_changes_findings(name);
    }
}

/// A summary whose reach adds to the program (`guarded::blob` puts a `Blob` behind
/// `dyn Shape`, `guarded::grower` takes `grow`'s address) stands in for its
/// instance only while no call left open could be resolved against what it adds:
/// `total_area`'s `dyn Shape` calls and `apply_pointer`'s call through a fn pointer
/// walk them instead, and find what allocates. Cold (the roots before them stored
/// the summaries) and warm.
#[test]
fn a_summary_that_adds_to_the_program_stands_in_only_while_no_open_call_could_use_it() {
    let shared = fixture("guarded-dependency");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let base = CheckConfig::default().with_manifest(&fixture.ws.root).unwrap();
    let cached = CheckConfig { cache_dir: Some(dir.path().to_owned()), ..base };
    let cold = analyze(&fixture.ws, &cached);
    let warm = analyze(&fixture.ws, &cached);
    assert!(warm.timings.cache_hits > 0);
    // What the summaries say the two functions add.
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.file_name().unwrap().to_string_lossy().starts_with("summaries-"))
        .expect("a summary file");
    let stored: serde_json::Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let adds_of = |name: &str| {
        let entry = stored["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry[0]["func"]["krate"]["name"] == "guarded" && entry[0]["func"]["name"] == name);
        entry.unwrap_or_else(|| panic!("guarded::{name} is summarised"))[1]["adds"].clone()
    };
    assert_eq!(adds_of("blob")["dyn_traits"].as_array().map(Vec::len), Some(1), "blob adds `dyn Shape`");
    assert_eq!(adds_of("grower")["fn_pointers"], true, "grower adds a fn pointer target");
    for (run, analysis) in [("cold", &cold), ("warm", &warm)] {
        let findings = |root: &str| {
            let name = format!("guarded_dependency::{root}");
            analysis.roots.iter().find(|r| r.function == name).unwrap_or_else(|| panic!("{name} is a root")).findings
        };
        assert_eq!(findings("shape_handed_out"), 0, "{run}");
        assert_eq!(findings("pointer_handed_out"), 0, "{run}");
        assert_eq!(findings("total_area"), 1, "{run}: `Blob::area` reached through `dyn Shape`");
        assert_eq!(findings("apply_pointer"), 1, "{run}: `grow` reached through the fn pointer");
    }
}

/// Below a call an allowance lets through (growth with room), a summary stands in
/// for an instance only when its reach holds nothing the call runs back: `push`
/// on `u32`s is answered from the summaries on the second run, while
/// `extend_from_slice` of `Named`s (derived `Clone`) and of `String`s (`String`'s
/// `Clone` impl) is walked again, so the clones that allocate are still found.
#[test]
fn a_summary_stands_in_below_an_allowed_call_only_when_it_runs_nothing_back() {
    let lib = r#"
// noalloc:root
pub fn push_with_room(v: &mut Vec<u32>, x: u32) {
    if v.len() < v.capacity() {
        v.push(x);
    }
}

#[derive(Clone)]
pub struct Named(pub String);

// noalloc:root
pub fn extend_named_with_room(v: &mut Vec<Named>, xs: &[Named]) {
    if v.capacity() - v.len() >= xs.len() {
        v.extend_from_slice(xs);
    }
}

// noalloc:root
pub fn extend_strings_with_room(v: &mut Vec<String>, xs: &[String]) {
    if v.capacity() - v.len() >= xs.len() {
        v.extend_from_slice(xs);
    }
}
"#;
    let (_dir, root) = crate::temp_package("roomy", &[("src/lib.rs", lib)]);
    let ws = Workspace::load(&root, &LoadOptions::default(), &|_| {}).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let config = CheckConfig { cache_dir: Some(cache.path().to_owned()), ..CheckConfig::default() }
        .with_manifest(&ws.root)
        .unwrap();
    let cold = analyze(&ws, &config);
    let warm = analyze(&ws, &config);
    let uncached = analyze(&ws, &CheckConfig::default().with_manifest(&ws.root).unwrap());
    let report = |analysis: &Analysis, name: &str| {
        let name = format!("roomy::{name}");
        analysis.roots.iter().find(|r| r.function == name).unwrap_or_else(|| panic!("{name} is a root")).clone()
    };
    for (run, analysis) in [("no cache", &uncached), ("cold", &cold), ("warm", &warm)] {
        assert_eq!(report(analysis, "push_with_room").findings, 0, "{run}");
        assert_eq!(
            report(analysis, "extend_named_with_room").findings,
            1,
            "{run}: `Named`'s derived `Clone` allocates"
        );
        assert_eq!(report(analysis, "extend_strings_with_room").findings, 1, "{run}: `String::clone` allocates");
    }
    let checked = |analysis: &Analysis, name: &str| report(analysis, name).functions_checked;
    assert!(
        checked(&warm, "push_with_room") < checked(&uncached, "push_with_room"),
        "`Vec::<u32>::push` is answered from its summary: warm {} vs {}",
        checked(&warm, "push_with_room"),
        checked(&uncached, "push_with_room")
    );
}

/// An allowlist line is used when what it lets through is reached inside an
/// instance a summary answers for: `std::thread::sleep` calls `nanosleep`.
#[test]
fn allowlist_lines_used_below_a_summary_are_used() {
    let (_dir, root) = crate::temp_package(
        "sleepy",
        &[
            (
                "src/lib.rs",
                "// noalloc:root\npub fn nap() {\n    std::thread::sleep(std::time::Duration::from_millis(1));\n}\n",
            ),
            ("allow.txt", "measured: libc::*nanosleep\nmeasured: libc::*no_such_function\n"),
        ],
    );
    let ws = Workspace::load(&root, &LoadOptions::default(), &|_| {}).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let allow = noalloc_ls::adoption::allowlist::with_file(Some(&root.join("allow.txt"))).unwrap();
    let (nanosleep, missing) = (allow.len() - 2, allow.len() - 1);
    let config = CheckConfig { allow, cache_dir: Some(cache.path().to_owned()), ..CheckConfig::default() };
    let cold = analyze(&ws, &config);
    let warm = analyze(&ws, &config);
    assert!(warm.timings.cache_hits > 0, "the warm run reads the summaries");
    for (run, analysis) in [("cold", &cold), ("warm", &warm)] {
        assert_eq!(analysis.findings.len(), 0, "{run}");
        assert_eq!(analysis.unused_allow.iter().filter(|&&i| i >= nanosleep).collect::<Vec<_>>(), [&missing], "{run}");
    }
}

/// Without proc macros (`--no-build-scripts`) `#[derive(Serialize)]` expands to
/// nothing: the call of the derived method is "no known callee", never clean.
#[test]
fn a_derived_call_without_its_derive_is_no_known_callee() {
    let options = noalloc_ls::engine::LoadOptions { build_scripts: false, ..Default::default() };
    let ws = noalloc_ls::engine::Workspace::load(&test_data("specifics"), &options, &|_| {}).expect("loads");
    let analysis = analyze(&ws, &CheckConfig::default().with_manifest(&ws.root).unwrap());
    let root = "specifics::deps::serialize_point";
    let unknown: Vec<&str> = analysis
        .findings
        .iter()
        .filter(|f| f.roots.iter().any(|r| r == root))
        .flat_map(|f| &f.reasons)
        .map(String::as_str)
        .filter(|reason| reason.starts_with("call with no known callee"))
        .collect();
    assert!(!unknown.is_empty(), "{:#?}", analysis.findings);
}

/// `fixture` loaded afresh (nothing in salsa's memos) and checked on `jobs`
/// threads: the findings, short, and the analysis.
fn check_freshly_loaded(fixture: &str, jobs: usize) -> (String, Analysis) {
    let ws = Workspace::load(&test_data(fixture), &LoadOptions::default(), &|_| {}).expect("fixture loads");
    let config = CheckConfig { jobs: std::num::NonZeroUsize::new(jobs), ..CheckConfig::default() }
        .with_manifest(&ws.root)
        .unwrap();
    let analysis = analyze(&ws, &config);
    (render(&ws, &analysis, &RenderOptions { format: MessageFormat::Short, ..Default::default() }, 0), analysis)
}

/// Name resolution on one thread and on several (`--jobs`) gives the same findings,
/// each on a freshly loaded workspace so that neither reads the other's def maps.
#[test]
fn names_resolved_on_one_thread_or_several_give_the_same_findings() {
    let (one_thread, analysis) = check_freshly_loaded("example", 1);
    assert!(!analysis.findings.is_empty(), "the example has findings");
    assert_eq!(check_freshly_loaded("example", 3).0, one_thread);
}

/// The first analysis of a load with a second core walking ahead of it
/// (`engine/walk_ahead.rs`) gives the findings of one thread, run after run. On
/// `precision` it had left `SmallVec::extend_from_slice` unresolved in 6 runs of
/// 10 while a normalization of ours that failed stayed in a thread's
/// trait-solver cache (`engine/subst.rs`, `forget_failed_solve`).
#[test]
fn the_analysis_walked_ahead_on_a_second_core_gives_the_findings_of_one_thread() {
    let (one_thread, analysis) = check_freshly_loaded("precision", 1);
    assert_eq!(analysis.timings.roots_walked_ahead, 0);
    assert!(one_thread.contains("smallvec_extend_room_for_one_allocates: may grow"), "{one_thread}");
    for _ in 0..3 {
        let (two_threads, analysis) = check_freshly_loaded("precision", 2);
        assert!(analysis.timings.roots_walked_ahead > 0, "the second core reached no root");
        assert_eq!(two_threads, one_thread);
    }
}

/// A generic root is checked at every instantiation the workspace makes, however
/// the call is written (plainly, under a rename, by a macro of another module),
/// when the search reads the bodies of more functions than one thread does
/// (`engine/on_every_core.rs`) as when one thread reads them all: each
/// instantiation here has an allocating `From` impl of its own, so a missed one
/// is a missing finding.
#[test]
fn a_generic_roots_instantiations_are_found_among_many_functions_on_any_number_of_threads() {
    let modules = 12;
    let mut files = Vec::new();
    let mut lib = String::from(
        "// noalloc:root\npub fn halve<T: Into<u64>>(x: T) -> u64 {\n    x.into() / 2\n}\n\n#[macro_export]\nmacro_rules! halved {\n    ($x:expr) => {\n        $crate::halve($x)\n    };\n}\n\n",
    );
    for ty in ["Plain", "Renamed", "ByMacro"] {
        lib.push_str(&format!(
            "pub struct {ty}(pub u32);\n\nimpl From<{ty}> for u64 {{\n    fn from(x: {ty}) -> u64 {{\n        let v = vec![x.0];\n        v[0] as u64\n    }}\n}}\n\n"
        ));
    }
    for m in 0..modules {
        lib.push_str(&format!("pub mod m{m};\n"));
        let mut text = String::from("use crate::halve as h;\n\n");
        for f in 0..100 {
            text.push_str(&format!("pub fn f{f}(x: u32) -> u32 {{\n    x + {f}\n}}\n\n"));
        }
        match m {
            3 => text.push_str("pub fn plain(x: u32) -> u64 {\n    crate::halve(crate::Plain(x))\n}\n"),
            7 => text.push_str("pub fn renamed(x: u32) -> u64 {\n    h(crate::Renamed(x))\n}\n"),
            11 => text.push_str("pub fn by_macro(x: u32) -> u64 {\n    crate::halved!(crate::ByMacro(x))\n}\n"),
            _ => {}
        }
        files.push((format!("src/m{m}.rs"), text));
    }
    files.push(("src/lib.rs".to_owned(), lib));
    let (_dir, root) = crate::temp_package("many", &files);
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let ws = Workspace::load(&root, &options, &|_| {}).expect("workspace loads");
    let check = |jobs: usize| {
        let config = CheckConfig { jobs: std::num::NonZeroUsize::new(jobs), cache_dir: None, ..CheckConfig::default() };
        let analysis = analyze(&ws, &config);
        let mut lines: Vec<u32> = analysis.findings.iter().map(|finding| finding.location.line).collect();
        lines.sort();
        (lines, render(&ws, &analysis, &RenderOptions { format: MessageFormat::Short, ..Default::default() }, 0))
    };
    let (one_thread, rendered_one) = check(1);
    // `let v = vec![x.0];` of each of the three impls.
    assert_eq!(one_thread, vec![17, 26, 35], "{rendered_one}");
    let (two_threads, rendered_two) = check(2);
    assert_eq!((two_threads, rendered_two), (one_thread, rendered_one));
}
