//! The engine on the fixture workspaces: exact findings and per-root status.

use expect_test::expect_file;
use noalloc_ls::cli::{render, MessageFormat, RenderOptions};

use crate::{fixture, roots_table};

#[test]
fn specifics_findings_match_golden() {
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let short = render(
        &fixture.ws,
        &fixture.analysis,
        &RenderOptions { format: MessageFormat::Short, ..Default::default() },
        0,
    );
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
    // The golden findings hold with std's AVX-512 intrinsics left out: `rand` names
    // one only under `target_feature = "avx512bw"`, which is off.
    assert!(fixture.ws.deferred_intrinsics.deferred_files() > 0);
    // And with what `serde_derive` depends on from the registry (`syn`, `quote`)
    // left out of name resolution: `#[derive(Serialize)]` still expands
    // (`serialize_point`, `serialize_tagged`).
    let db = &fixture.ws.db;
    let named = |name: &str| {
        ra_ap_ide_db::base_db::all_crates(db).iter().copied().find(|krate| {
            krate.extra_data(db).display_name.as_ref().is_some_and(|display| display.crate_name().as_str() == name)
        })
    };
    assert!(named("syn").is_some(), "syn is in the crate graph");
    let serde_derive = named("serde_derive").expect("serde_derive is in the crate graph");
    let origins: Vec<_> =
        serde_derive.data(db).dependencies.iter().map(|dep| dep.crate_id.data(db).origin.clone()).collect();
    assert!(!origins.is_empty() && origins.iter().all(|origin| origin.is_lang() || origin.is_local()), "{origins:?}");
}

/// A trait's impls are read in the crates a build links (`engine::impls`): the
/// crate graph also holds what only procedural macros depend on (`syn`, `quote`),
/// whose impls never run in the program, and reading theirs built their def maps
/// in the middle of the first analysis (0.15 s of `specifics`').
#[test]
fn a_trait_s_impls_are_read_in_the_linked_crates_only() {
    use noalloc_ls::engine::impls::{all_for_trait, linked_crates};
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let db = &fixture.ws.db;
    hir::attach_db(db, || {
        let linked: Vec<hir::Crate> = linked_crates(db).iter().map(|&krate| hir::Crate::from(krate)).collect();
        let name = |krate: hir::Crate| krate.display_name(db).map_or_else(String::new, |name| name.to_string());
        let linked_names: Vec<String> = linked.iter().map(|&krate| name(krate)).collect();
        for expected in ["core", "alloc", "std", "serde", "specifics"] {
            assert!(linked_names.iter().any(|n| n == expected), "{expected} is linked: {linked_names:?}");
        }
        let core = ra_ap_ide_db::base_db::all_crates(db)
            .iter()
            .copied()
            .find(|&krate| name(krate.into()) == "core")
            .expect("core");
        let clone = hir_def::lang_item::lang_items(db, core).Clone.expect("Clone is a lang item");
        let everywhere = hir::Impl::all_for_trait(db, hir::Trait::from(clone));
        let ours = all_for_trait(db, clone);
        let unlinked: std::collections::BTreeSet<String> = everywhere
            .iter()
            .map(|impl_| impl_.module(db).krate(db))
            .filter(|krate| !linked.contains(krate))
            .map(name)
            .collect();
        assert!(unlinked.contains("syn"), "the graph holds unlinked crates implementing Clone: {unlinked:?}");
        let in_linked: Vec<hir::Impl> =
            everywhere.into_iter().filter(|impl_| linked.contains(&impl_.module(db).krate(db))).collect();
        assert!(in_linked.len() > 100, "{} impls of Clone in the linked crates", in_linked.len());
        assert_eq!(
            ours, in_linked,
            "the impls of the linked crates, in rust-analyzer's order (unlinked: {unlinked:?})"
        );
    });
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
    use noalloc_ls::engine::{analyze_watched, CheckConfig};
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let config = CheckConfig::default().with_manifest(&fixture.ws.root).unwrap();
    let whole = &fixture.analysis;
    let mut files: Vec<_> =
        std::fs::read_dir(fixture.ws.root.join("src")).unwrap().map(|e| e.unwrap().path()).collect();
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
            let errors: Vec<_> = a
                .errors
                .iter()
                .filter(|e| e.location.file == file)
                .map(|e| (e.location.clone(), e.message.clone()))
                .collect();
            let exemptions: Vec<_> = a.exemptions.iter().filter(|e| e.location.file == file).cloned().collect();
            (findings, errors, exemptions)
        };
        assert_eq!(in_file(partial), in_file(whole), "{}", file.display());
        assert_eq!(analysis.findings, whole.findings, "{}", file.display());
        assert_eq!(analysis.errors, whole.errors, "{}", file.display());
        assert_eq!(
            analysis.roots.iter().map(|r| &r.function).collect::<Vec<_>>(),
            whole.roots.iter().map(|r| &r.function).collect::<Vec<_>>()
        );
        judged_early.push(partial.roots.len());
    }
    // Most files are complete well before the last root.
    assert!(judged_early.iter().filter(|&&n| n < whole.roots.len() / 2).count() > 10, "{judged_early:?}");
}

/// std's AVX-512 intrinsics stay out of the database while no source names one
/// (engine/deferred_intrinsics.rs), and come back with the edit that names one.
/// What leaving them out removes is checked against rust-analyzer itself on the
/// installed std: only the names the files declare (no impl, no macro, nothing of
/// `core`'s root), and no file of std's crates names one where its `cfg` keeps it.
#[test]
fn std_intrinsics_stay_out_until_a_source_names_one() {
    use std::collections::BTreeSet;

    use noalloc_ls::engine::edit::LiveWorkspace;
    use noalloc_ls::engine::{CheckConfig, LoadOptions, Workspace};
    use ra_ap_ide_db::{base_db::SourceDatabase, RootDatabase};

    /// What `core` declares that a left-out file could have touched: the names in
    /// `core::arch::x86_64` and in `core`'s root (macros land there), and its impls.
    fn core_surface(db: &RootDatabase) -> (BTreeSet<String>, BTreeSet<String>, usize) {
        hir::attach_db(db, || {
            let core = hir::Crate::all(db)
                .into_iter()
                .find(|k| k.origin(db).is_lang() && k.display_name(db).is_some_and(|n| n.to_string() == "core"))
                .expect("core is loaded");
            let names = |module: hir::Module| -> BTreeSet<String> {
                module.scope(db, None).into_iter().map(|(name, _)| name.as_str().to_owned()).collect()
            };
            // `core::arch` re-exports the modules of `core_arch`: look names up in scopes.
            let child = |module: hir::Module, name: &str| {
                module
                    .scope(db, None)
                    .into_iter()
                    .find_map(|(n, def)| match def {
                        hir::ScopeDef::ModuleDef(hir::ModuleDef::Module(m)) if n.as_str() == name => Some(m),
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("core has a module {name}"))
            };
            let root = core.root_module(db);
            let x86_64 = child(child(root, "arch"), "x86_64");
            (names(x86_64), names(root), hir::Impl::all_in_crate(db, core).len())
        })
    }

    // `_mm512_setzero_si512` in a comment and a string names nothing.
    let plain = "// noalloc:root\npub fn sum(xs: &[u64]) -> u64 {\n    let _ = \"_mm512_setzero_si512\"; // _mm512_setzero_si512\n    xs.iter().copied().sum()\n}\n";
    let (_dir, root) = crate::temp_package("simd", &[("src/lib.rs", plain)]);
    let lib = root.join("src/lib.rs");
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let ws = Workspace::load(&root, &options, &|_| {}).expect("workspace loads");
    let deferred = &ws.deferred_intrinsics;
    assert!(deferred.deferred_files() >= 10, "{} files left out", deferred.deferred_files());
    let declared = deferred.names().clone();
    assert!(
        declared.contains("_mm512_setzero_si512") && declared.contains("_MM_CMPINT_LT"),
        "{} names",
        declared.len()
    );

    // No file of std's crates (their modules as rust-analyzer resolved them) names
    // one in code its crate's cfg keeps.
    let left_out: BTreeSet<_> = deferred.files().collect();
    let naming: Vec<String> = hir::attach_db(&ws.db, || {
        let db = &ws.db;
        let mut files = BTreeSet::new();
        for krate in hir::Crate::all(db).into_iter().filter(|k| k.origin(db).is_lang()) {
            for module in krate.modules(db) {
                if let Some(file) = module.definition_source_file_id(db).file_id() {
                    files.insert(file.file_id(db));
                }
            }
        }
        files
            .into_iter()
            .filter(|file| !left_out.contains(file) && deferred.named_in(db, *file, db.file_text(*file).text(db)))
            .filter_map(|file| {
                let path = ws.file_path(file).expect("std's files are on disk");
                // `core_simd`'s `avx2_pshufb` names AVX2's shuffles in code every
                // x86 cfg keeps, but its one caller is under `target_feature =
                // "avx2"`, which keeps AVX2's intrinsics in (`Tier`).
                if path.ends_with("core_simd/src/swizzle_dyn.rs") {
                    let text = db.file_text(file).text(db);
                    let call = "#[cfg(all(target_feature = \"avx2\", not(target_feature = \"avx512vbmi\")))]\n                32 => transize(avx2_pshufb, self, idxs),";
                    if text.matches("avx2_pshufb").count() == 2 && text.contains(call) {
                        return None;
                    }
                }
                Some(format!("{path:?}"))
            })
            .collect()
    });
    assert!(naming.is_empty(), "std code names a left-out intrinsic: {naming:?}");
    let (arch_out, root_out, impls_out) = core_surface(&ws.db);
    assert!(arch_out.contains("_mm_setzero_si128") && !arch_out.contains("_mm512_setzero_si512"));

    let mut live = LiveWorkspace::new(ws);
    let config = CheckConfig::default();
    let first = live.analyze_here(&config).unwrap().unwrap();
    assert_eq!((first.roots.len(), first.findings.len()), (1, 0));
    assert!(live.deferred_intrinsic_files() >= 10);

    let naming_one = format!(
        "{plain}\n// noalloc:root\npub fn wide(run: bool) -> i64 {{\n    #[cfg(target_arch = \"x86_64\")]\n    if run {{\n        return unsafe {{ zero() }};\n    }}\n    0\n}}\n\n#[cfg(target_arch = \"x86_64\")]\n#[target_feature(enable = \"avx512f\")]\nunsafe fn zero() -> i64 {{\n    use core::arch::x86_64::{{_mm512_setzero_si512, _mm512_storeu_si512}};\n    let mut out = [0i64; 8];\n    _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_setzero_si512());\n    out[0]\n}}\n"
    );
    assert!(live.set_file_text(&lib, &naming_one).unwrap());
    assert_eq!(live.deferred_intrinsic_files(), 0, "the edit names one: all are back");
    let second = live.analyze_here(&config).unwrap().unwrap();
    assert_eq!(second.roots.len(), 2);
    assert!(second.findings.is_empty(), "{:#?}", second.findings);

    // Putting the files back added to `core` only names they declare.
    let (arch_in, root_in, impls_in) = core_surface(live.database());
    let added: BTreeSet<_> = arch_in.difference(&arch_out).cloned().collect();
    assert!(added.contains("_mm512_setzero_si512") && added.len() > 2000, "{} names added", added.len());
    let undeclared: Vec<_> = added.iter().filter(|name| !declared.contains(*name)).collect();
    assert!(undeclared.is_empty(), "names the scan of the left-out files missed: {undeclared:?}");
    assert!(arch_out.is_subset(&arch_in));
    assert_eq!(root_in, root_out, "core's root (macros included) is the same");
    assert_eq!(impls_in, impls_out, "core's impls are the same");
}

/// Calls `check` with each crate of the shared `specifics` workspace that `names`
/// names (its name, its crate, the loaded workspace), attached to the database;
/// what `check` returns, in the order of the crate graph.
fn each_named_crate<T>(
    names: &[&str],
    mut check: impl FnMut(&str, ra_ap_ide_db::base_db::Crate, &noalloc_ls::engine::Workspace) -> T,
) -> Vec<T> {
    let shared = fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let ws = &fixture.ws;
    hir::attach_db(&ws.db, || {
        let crates = ra_ap_ide_db::base_db::all_crates(&ws.db);
        let named = crates.iter().filter_map(|&krate| {
            let name = krate.extra_data(&ws.db).display_name.as_ref()?.to_string();
            names.contains(&name.as_str()).then_some((name, krate))
        });
        named.map(|(name, krate)| check(&name, krate, ws)).collect()
    })
}

/// The files name resolution reads ahead (`engine::module_files`) are files of the
/// crates' module trees as their def maps have them: none that a def map does not
/// read (item trees built for nothing), and most of those the def maps do read
/// (a module declared inside a macro such as `cfg_if!` is left to the def map).
#[test]
fn files_read_ahead_are_the_def_maps_files() {
    use noalloc_ls::engine::module_files::files_of_crate;
    let names = ["core", "alloc", "std", "libc", "compiler_builtins", "hashbrown", "serde_core", "specifics"];
    let checked = each_named_crate(&names, |name, krate, ws| {
        let db = &ws.db;
        let def_map = hir_def::nameres::crate_def_map(db, krate);
        let read: std::collections::HashSet<_> =
            def_map.modules().filter_map(|(_, module)| module.origin.file_id()).map(|file| file.file_id(db)).collect();
        let found = files_of_crate(db, krate);
        let extra: Vec<_> =
            found.iter().filter(|file| !read.contains(file)).map(|file| ws.vfs.file_path(*file).to_string()).collect();
        assert!(extra.is_empty(), "{name}: read ahead but not by the def map: {extra:?}");
        // No macro declares a module of these (std's `cfg_if!` declares a quarter).
        if ["core", "alloc", "specifics"].contains(&name) {
            assert_eq!(found.len(), read.len(), "{name}");
        }
        (name.to_owned(), found.len(), read.len())
    });
    assert_eq!(checked.len(), names.len(), "{checked:?}");
    let (found, read) = checked.iter().fold((0, 0), |(found, read), (_, f, r)| (found + f, read + r));
    assert!(found * 10 >= read * 8, "{found} of {read} files found: {checked:?}");
}

/// The macro calls name resolution expands ahead (`engine::expand_ahead`) are the
/// calls the def maps expand, to the same `MacroCallId` (definition, call site,
/// syntax context, depth): an expansion built ahead under another id would be
/// built twice. And they are most of them: in `core`, whose def map nothing can
/// be built beside, nine in ten.
#[test]
fn macro_calls_expanded_ahead_are_the_def_maps_calls() {
    use noalloc_ls::engine::{expand_ahead::expand_ahead, module_files::files_of_crate};
    let names = ["core", "alloc", "compiler_builtins", "libc", "std"];
    let checked = each_named_crate(&names, |name, krate, ws| {
        let db = &ws.db;
        let expanded = expand_ahead(db, krate, &files_of_crate(db, krate), &|| false);
        let def_map = hir_def::nameres::crate_def_map(db, krate);
        let by_def_map: std::collections::HashSet<_> =
            def_map.modules().flat_map(|(_, module)| module.scope.iter_macro_invoc().map(|(_, call)| *call)).collect();
        let strays = expanded.iter().filter(|call| !by_def_map.contains(call)).count();
        assert_eq!(strays, 0, "{name}: {strays} of {} calls expanded ahead are not the def map's", expanded.len());
        if name == "core" {
            assert!(
                expanded.len() * 10 >= by_def_map.len() * 9,
                "core: {} of {} calls expanded ahead",
                expanded.len(),
                by_def_map.len()
            );
        }
        (name.to_owned(), expanded.len(), by_def_map.len())
    });
    assert_eq!(checked.len(), names.len(), "{checked:?}");
}

/// Each way a `mod` item names its file, found as rust-analyzer's def map finds it:
/// `name.rs` and `name/mod.rs`, the children of `name.rs` under `name/`, `#[path]`
/// relative to a `mod.rs` or to a `name.rs` file's own directory, inline modules
/// with and without `#[path]`, raw names. A module `#[cfg]` turns off is read by
/// neither; one under `#[cfg_attr]` is left to the def map.
#[test]
fn module_files_are_found_where_the_def_map_finds_them() {
    use noalloc_ls::engine::{module_files::files_of_crate, LoadOptions, Workspace};
    let files = [
        (
            "src/lib.rs",
            "mod flat;\nmod dir;\n#[path = \"elsewhere/renamed.rs\"]\nmod renamed;\nmod inline {\n    mod inner;\n}\n#[path = \"custom\"]\nmod inline_with_path {\n    mod x;\n}\n#[cfg(any())]\nmod off;\n#[cfg_attr(all(), path = \"attr_path.rs\")]\nmod by_cfg_attr;\nmod r#type;\n",
        ),
        ("src/flat.rs", "mod child;\n#[path = \"sibling.rs\"]\nmod sib;\n"),
        ("src/flat/child.rs", ""),
        ("src/sibling.rs", ""),
        ("src/dir/mod.rs", "pub mod leaf;\n"),
        ("src/dir/leaf.rs", ""),
        ("src/elsewhere/renamed.rs", "mod deeper;\n"),
        ("src/elsewhere/deeper.rs", ""),
        ("src/inline/inner.rs", ""),
        ("src/custom/x.rs", ""),
        ("src/off.rs", ""),
        ("src/attr_path.rs", ""),
        ("src/type.rs", ""),
    ];
    let (_dir, root) = crate::temp_package("shapes", &files);
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let ws = Workspace::load(&root, &options, &|_| {}).expect("workspace loads");
    let db = &ws.db;
    let krate = *ra_ap_ide_db::base_db::all_crates(db)
        .iter()
        .find(|krate| krate.extra_data(db).display_name.as_ref().is_some_and(|name| name.to_string() == "shapes"))
        .expect("the workspace's crate");
    let src = format!("{}/src/", root.display());
    let path_of = |file| ws.vfs.file_path(file).to_string().trim_start_matches(src.as_str()).to_owned();
    let (mut found, mut read): (Vec<String>, Vec<String>) = hir::attach_db(db, || {
        let found = files_of_crate(db, krate).into_iter().map(path_of).collect();
        let def_map = hir_def::nameres::crate_def_map(db, krate);
        let read = def_map
            .modules()
            .filter_map(|(_, module)| module.origin.file_id())
            .map(|file| path_of(file.file_id(db)))
            .collect();
        (found, read)
    });
    found.sort();
    read.sort();
    let all_but = |left_out: &[&str]| {
        let mut paths: Vec<String> = files
            .iter()
            .map(|(path, _)| path.trim_start_matches("src/").to_owned())
            .filter(|path| !left_out.contains(&path.as_str()))
            .collect();
        paths.sort();
        paths
    };
    assert_eq!(read, all_but(&["off.rs"]));
    assert_eq!(found, all_but(&["off.rs", "attr_path.rs"]));
}
