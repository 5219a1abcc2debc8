//! The engine's live workspace without the protocol: each test loads a workspace
//! into a `LiveWorkspace` (or analyzes one with a `Watch`), edits it as an editor
//! would, and checks what the next analysis walks again, reuses and answers, most
//! against a fresh load of the same files. The protocol's tests are in `lsp.rs`.

use std::path::{Path, PathBuf};

/// How many roots an analysis reused, and how many of those it did not ask to walk again.
fn reused(analysis: &noalloc_ls::engine::Analysis) -> (usize, usize) {
    (analysis.timings.roots_reused, analysis.timings.roots_reused_unasked)
}

/// The walks of instances are salsa queries (engine/incremental.rs): after an edit
/// in one body, only that body's walks run again; an edit that changes no body (a
/// comment) re-runs none, and the answer is the same.
#[test]
fn an_edit_re_walks_only_the_edited_body() {
    use noalloc_ls::engine::edit::LiveWorkspace;
    use noalloc_ls::engine::incremental::walks_executed;
    use noalloc_ls::engine::{CheckConfig, LoadOptions, Workspace};

    let root = crate::test_data("example");
    let lib = root.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let ws = Workspace::load(&root, &options, &|_| {}).expect("fixture loads");
    let mut live = LiveWorkspace::new(ws);
    // One thread: the walks counted are this thread's, and a second core walking
    // ahead of the first analysis (engine/walk_ahead.rs) would run some of them.
    let config = CheckConfig { jobs: std::num::NonZeroUsize::new(1), ..CheckConfig::default() };
    let analyze = |live: &mut LiveWorkspace| {
        let before = walks_executed();
        let analysis = live.analyze_here(&config).unwrap().unwrap();
        (analysis, walks_executed() - before)
    };

    let (first, walked) = analyze(&mut live);
    assert_eq!(walked, first.timings.bodies_walked);
    assert!(walked > 20, "{walked}");

    let edited = text.replace(r#"format!("GET {path}")"#, r#"format!("GET {path}?")"#);
    assert_ne!(edited, text);
    assert!(live.set_file_text(&lib, &edited).unwrap());
    let (second, rewalked) = analyze(&mut live);
    assert_eq!(rewalked, 1, "only `log_request` is walked again");
    assert_eq!(second.findings.len(), first.findings.len());

    let commented = edited.replace("response.status = 200;", "response.status = 200; /* typing */");
    assert!(live.set_file_text(&lib, &commented).unwrap());
    let (third, rewalked) = analyze(&mut live);
    assert_eq!(rewalked, 0, "a comment changes no body");
    assert_eq!(third.findings, second.findings);
    assert_eq!(third.timings.bodies_walked, second.timings.bodies_walked);

    // A trait impl added to the workspace changes what the solver answers at its
    // crate. No walk runs again: each reads where its calls go through a query
    // whose answer salsa keeps when it is the same (`incremental::resolved_call`),
    // and std's instances at std's types are walked in std's crates
    // (`walk_env`), whose solver the workspace's impls do not reach.
    let implemented =
        format!("{commented}\nmod inner {{\n    pub trait Tr {{}}\n}}\n\nimpl<T> inner::Tr for [T; 7] {{}}\n");
    assert!(live.set_file_text(&lib, &implemented).unwrap());
    let (fourth, rewalked) = analyze(&mut live);
    assert_eq!(fourth.findings, third.findings);
    assert_eq!(rewalked, 0, "{rewalked} of {} walks ran again", fourth.timings.bodies_walked);
}

/// After an edit, a root whose outcome nothing the edit touched could change is not
/// judged again (engine/root_reuse.rs); one whose reach reads the edited body, whose
/// workspace code sits in the edited file (lines move), whose walks read a macro
/// the edit changed in another file, or any root once a directive or an impl
/// (its methods: where a `dyn` call goes) changes, is. A free function added
/// elsewhere changes no other root's outcome; a type alias that only plain bodies
/// name asks only the walks of the roots with code in their files.
/// Each answer is checked against the lines it must have, and the last against a
/// fresh load of the same files.
#[test]
fn an_edit_reuses_the_outcome_of_every_root_it_cannot_change() {
    use noalloc_ls::engine::edit::LiveWorkspace;
    use noalloc_ls::engine::{Analysis, CheckConfig, LoadOptions, Workspace};

    let (_dir, root) =
        crate::temp_package("reuse", &[("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\n")]);
    let a = root.join("src/a.rs");
    let b = root.join("src/b.rs");
    let a_text =
        "// noalloc:root\npub fn a_root() -> usize {\n    helper()\n}\n\npub fn helper() -> usize {\n    1\n}\n";
    let b_text = "// noalloc:root\npub fn b_root(v: &mut Vec<u8>) {\n    v.push(1);\n}\n\n// noalloc:root\npub fn b_through_a() -> usize {\n    crate::a::helper()\n}\n\n// noalloc:root\npub fn b_alias() -> usize {\n    crate::c::Store::from([1u8]).len()\n}\n\n// noalloc:root\npub fn b_dyn() -> usize {\n    let shape: &dyn crate::c::Shape = &crate::c::Square;\n    shape.area()\n}\n\n// noalloc:root\npub fn b_macro() -> usize {\n    crate::make!()\n}\n";
    let c = root.join("src/c.rs");
    std::fs::write(&a, a_text).unwrap();
    std::fs::write(&b, b_text).unwrap();
    let c_tail = "pub trait Shape {\n    fn area(&self) -> usize {\n        1\n    }\n}\n\npub struct Square;\n";
    std::fs::write(&c, format!("pub type Store = [u8; 1];\n{c_tail}")).unwrap();
    let d = root.join("src/d.rs");
    std::fs::write(&d, "impl crate::c::Shape for crate::c::Square {}\n").unwrap();
    let e = root.join("src/e.rs");
    let e_text = "#[macro_export]\nmacro_rules! make {\n    () => {\n        1usize\n    };\n}\n";
    std::fs::write(&e, e_text).unwrap();
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let mut live = LiveWorkspace::new(Workspace::load(&root, &options, &|_| {}).expect("workspace loads"));
    // (file, line, roots) of each finding.
    let rows = |analysis: &Analysis| -> Vec<(String, u32, Vec<String>)> {
        let mut rows: Vec<_> = analysis
            .findings
            .iter()
            .map(|f| {
                let mut roots = f.roots.clone();
                roots.sort();
                (f.location.file.file_name().unwrap().to_string_lossy().into_owned(), f.location.line, roots)
            })
            .collect();
        rows.sort();
        rows
    };
    let edit = |live: &mut LiveWorkspace, path: &Path, text: &str| {
        std::fs::write(path, text).unwrap();
        assert!(live.set_file_text(path, text).unwrap());
        live.analyze_here(&config).unwrap().unwrap()
    };
    let row = |file: &str, line: u32, roots: &[&str]| {
        (file.to_owned(), line, roots.iter().map(|r| format!("reuse::{r}")).collect::<Vec<_>>())
    };

    let first = live.analyze_here(&config).unwrap().unwrap();
    assert_eq!(first.timings.roots_reused, 0);
    assert_eq!(first.roots.len(), 6);
    assert_eq!(rows(&first), vec![row("b.rs", 3, &["b::b_root"])]);

    // `helper`'s body: the two roots that reach it are judged again, the others not.
    let a_text = a_text.replace("    1\n", "    2\n");
    let second = edit(&mut live, &a, &a_text);
    assert_eq!(second.timings.roots_reused, 4);
    assert_eq!(rows(&second), rows(&first));

    // Now it allocates: found through both roots that reach it.
    let helper_row = row("a.rs", 7, &["a::a_root", "b::b_through_a"]);
    let a_text = a_text.replace("    2\n", "    vec![1u8].len()\n");
    let third = edit(&mut live, &a, &a_text);
    assert_eq!(third.timings.roots_reused, 4);
    assert_eq!(rows(&third), vec![helper_row.clone(), row("b.rs", 3, &["b::b_root"])]);

    // A line above `b_root` moves its finding: the roots of b.rs are judged again
    // (bodies unchanged), `a_root` is reused, and keeps its part of a.rs's finding.
    let b_text = format!("\n{b_text}");
    let fourth = edit(&mut live, &b, &b_text);
    assert_eq!(fourth.timings.roots_reused, 1);
    assert_eq!(rows(&fourth), vec![helper_row.clone(), row("b.rs", 4, &["b::b_root"])]);

    // A directive changes what every root may be told: none is reused.
    let b_text = b_text.replace("    v.push(1);\n", "    v.push(1); // noalloc:exempt measured: the test's\n");
    let fifth = edit(&mut live, &b, &b_text);
    assert_eq!(fifth.timings.roots_reused, 0);
    assert_eq!(rows(&fifth), vec![helper_row.clone()]);
    assert_eq!(fifth.exemptions.len(), 1);
    assert_eq!(fifth.exemptions[0].lets_through.len(), 1, "{:?}", fifth.exemptions);

    // The macro in e.rs, which holds no code: `b_macro` now builds a `Vec`. Only its
    // walk read the macro; the other five are reused.
    let made = edit(&mut live, &e, &e_text.replace("1usize", "vec![1u8].len()"));
    assert_eq!(made.timings.roots_reused, 5);
    assert_eq!(rows(&made), vec![helper_row.clone(), row("b.rs", 25, &["b::b_macro"])]);

    // A function added to e.rs (after the macro): no root's walks or items change,
    // and every outcome is reused.
    let e_text = format!("{}pub fn unused() -> usize {{\n    2\n}}\n", e_text.replace("1usize", "vec![1u8].len()"));
    let added = edit(&mut live, &e, &e_text);
    assert_eq!(added.timings.roots_reused, 6);
    assert_eq!(rows(&added), rows(&made));

    // One added to a.rs, beside `helper`: the two roots whose code is in a.rs are
    // judged again, the four others reused.
    let a_text = format!("{a_text}\npub fn also_unused() -> usize {{\n    3\n}}\n");
    let beside = edit(&mut live, &a, &a_text);
    assert_eq!(beside.timings.roots_reused, 4);
    assert_eq!(rows(&beside), rows(&made));

    // A type alias in c.rs: `b_alias` now builds a `Vec`. Only b.rs's plain
    // bodies name it: the roots with code there are asked (`b_alias` is judged
    // again), `a_root` is not. `b_dyn` walks the trait's method in c.rs.
    let alias = edit(&mut live, &c, &format!("pub type Store = Vec<u8>;\n{c_tail}"));
    assert_eq!(reused(&alias), (4, 1));
    let mut expected = vec![helper_row.clone(), row("b.rs", 14, &["b::b_alias"]), row("b.rs", 25, &["b::b_macro"])];
    assert_eq!(rows(&alias), expected);

    // d.rs, which holds no code the roots reach, gives the impl its own `area`: the
    // `dyn` call in `b_dyn` now goes there. Its walks are all as they were.
    let d_text = "impl crate::c::Shape for crate::c::Square {\n    fn area(&self) -> usize {\n        vec![1u8].len()\n    }\n}\n";
    let method = edit(&mut live, &d, d_text);
    // Every root but `b_dyn`, whose reach finds the `dyn` call's targets among
    // impls, outside its walks, keeps its outcome once its walks are confirmed.
    assert_eq!(reused(&method), (5, 0));
    expected.extend([row("b.rs", 20, &["b::b_dyn"]), row("d.rs", 3, &["b::b_dyn"])]);
    expected.sort();
    assert_eq!(rows(&method), expected);

    // Unchanged: every outcome reused, the same answer as a fresh load of the files.
    let sixth = live.analyze_here(&config).unwrap().unwrap();
    assert_eq!(sixth.timings.roots_reused, 6);
    let fresh = noalloc_ls::engine::analyze(&Workspace::load(&root, &options, &|_| {}).unwrap(), &config);
    assert_eq!(rows(&sixth), rows(&fresh));
    assert_eq!(sixth.exemptions, fresh.exemptions);
    assert_eq!(sixth.roots, fresh.roots);
    assert_eq!(sixth.errors, fresh.errors);
    assert_eq!(sixth.functions_checked, fresh.functions_checked);
}

/// The first analysis of an empty summary cache keeps the outcomes of the roots
/// whose reach it summarised (std's `sum` here), without the walks of what it
/// summarised: the first edit after a load reuses them, and an edit that has their
/// walks asked (a function named in a macro call of theirs) finds the rest
/// the same. The answers are a fresh load's.
#[test]
fn the_first_analysis_keeps_what_roots_summarised() {
    use noalloc_ls::engine::edit::LiveWorkspace;
    use noalloc_ls::engine::{CheckConfig, LoadOptions, Workspace};

    let (_dir, root) = crate::temp_package(
        "summarised",
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(values: &[u32]) -> u32 {\n    let _label = stringify!(noalloc_total);\n    values.iter().copied().sum()\n}\n"),
            ("src/c.rs", "pub fn kept() -> usize {\n    0\n}\n"),
        ],
    );
    let b = root.join("src/b.rs");
    let b_text = "// noalloc:root\npub fn b_root() -> usize {\n    helper()\n}\n\nfn helper() -> usize {\n    1\n}\n";
    std::fs::write(&b, b_text).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig { cache_dir: Some(cache.path().to_owned()), ..CheckConfig::default() };
    let mut live = LiveWorkspace::new(Workspace::load(&root, &options, &|_| {}).expect("workspace loads"));
    let first = live.analyze_here(&config).unwrap().unwrap();
    assert!(first.timings.cache_entries > 0, "std's code summarised: {:?}", first.timings);
    assert!(first.findings.is_empty(), "{:#?}", first.findings);
    let mut edit = |path: &Path, text: &str| {
        std::fs::write(path, text).unwrap();
        assert!(live.set_file_text(path, text).unwrap());
        live.analyze_here(&config).unwrap().unwrap()
    };

    // `helper`'s body: `a_root`, which summarised `sum`, is reused.
    let second = edit(&b, &b_text.replace("    1\n", "    2\n"));
    assert_eq!(second.timings.roots_reused, 1);
    // A function named in `a_root`'s macro call: its walks are asked, and
    // hold (`b_root`'s, which read no body naming it, are not asked).
    let c_text = "pub fn kept() -> usize {\n    0\n}\n\npub fn noalloc_total() -> usize {\n    Vec::<u8>::with_capacity(1).len()\n}\n";
    let third = edit(&root.join("src/c.rs"), c_text);
    assert_eq!(reused(&third), (2, 1));
    assert!(third.findings.is_empty(), "{:#?}", third.findings);

    // The outcome kept counts the functions the first analysis walked, more than
    // one answered from summaries checks: compared but for that count.
    let fresh = noalloc_ls::engine::analyze(&Workspace::load(&root, &options, &|_| {}).unwrap(), &config);
    let roots = |analysis: &noalloc_ls::engine::Analysis| -> Vec<(String, u32, usize)> {
        analysis.roots.iter().map(|r| (r.function.clone(), r.location.line, r.findings)).collect()
    };
    assert_eq!(roots(&third), roots(&fresh));
    assert_eq!(third.findings.len(), fresh.findings.len());
}

/// A function added or removed under a name no other code spells leaves every root
/// whose code is elsewhere as it was, without its walks asked again (their bodies'
/// inference re-run, since the crate's def map changed): engine/item_edits.rs. A
/// name spelled anywhere else, here in a `macro_rules!` body that a root's code
/// expands, asks them all; so does a function holding a macro call. (A function
/// another module imports with a glob changes the item level: no outcome is
/// reused without asking its walks.)
/// The last answer is checked against a fresh load of the same files.
#[test]
fn an_item_edit_under_a_name_nothing_else_spells_asks_no_walk() {
    use noalloc_ls::engine::{Analysis, CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "names",
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n\n#[macro_export]\nmacro_rules! call_later {\n    () => {\n        $crate::c::later()\n    };\n}\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root() -> usize {\n    helper()\n}\n\nfn helper() -> usize {\n    1\n}\n"),
            ("src/b.rs", "// noalloc:root\npub fn b_root() -> usize {\n    crate::call_later!()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = |analysis: &Analysis| -> Vec<(String, u32, String)> {
        let mut rows: Vec<_> = analysis
            .findings
            .iter()
            .map(|f| {
                (
                    f.location.file.file_name().unwrap().to_string_lossy().into_owned(),
                    f.location.line,
                    f.reasons.join("; "),
                )
            })
            .collect();
        rows.sort();
        rows
    };
    let first = c.analyze();
    let mut edit = |text: &str| c.edit(text);

    // `later` names nothing yet: the call has no known callee.
    let unresolved = rows(&first);
    assert!(unresolved.iter().any(|(file, _, _)| file == "b.rs"), "{unresolved:?}");
    assert!(unresolved.iter().all(|(file, _, _)| file == "b.rs"), "{unresolved:?}");

    // A name no file spells: both roots reused, neither's walks asked.
    let unique = format!("{c_text}\npub fn noalloc_name_nothing_spells() -> usize {{\n    2\n}}\n");
    let added = edit(&unique);
    assert_eq!(reused(&added), (2, 2));
    assert_eq!(rows(&added), unresolved);
    // Removed again (the file as it was two edits ago): the same.
    let removed = edit(c_text);
    assert_eq!(reused(&removed), (2, 2));

    // `later`, which the macro body spells: `b_root`'s call now resolves to it and
    // allocates. Every root is asked; `a_root`'s walks are unchanged, so it is reused.
    let later = format!("{c_text}\npub fn later() -> usize {{\n    Vec::<u8>::with_capacity(1).len()\n}}\n");
    let resolved = edit(&later);
    assert_eq!(reused(&resolved), (1, 0));
    let found = rows(&resolved);
    assert!(found.iter().any(|(file, line, _)| file == "c.rs" && *line == 6), "{found:?}");

    // A function holding a macro call may expand to an impl: every root is asked
    // (and `b_root`, whose code is now in c.rs too, judged again).
    let with_macro = format!("{later}\npub fn noalloc_with_a_macro() {{\n    assert!(true);\n}}\n");
    let macro_added = edit(&with_macro);
    assert_eq!(reused(&macro_added), (1, 0));
    assert_eq!(rows(&macro_added), found);

    let fresh = c.fresh();
    assert_eq!(rows(&macro_added), rows(&fresh));
    assert_eq!(macro_added.roots, fresh.roots);
}

/// A function's name that other code spells only after a lone `.` (a method
/// call) or right after `fn` (a definition), or only outside the workspace but in
/// no exported macro a workspace file calls, or in one whose expansions there
/// spell it nowhere a path can be, names no free function: adding one under it
/// asks no walk; spelled only in the bodies of plain functions, it asks only the
/// walks of the roots that walk a body in their files. Spelled inside a macro
/// call in `b_root`'s body, where the macro may strip the dot
/// (`strip_dot!(. noalloc_stripped)` expands to `crate::c::noalloc_stripped()`),
/// it asks `b_root`'s: the call now resolves and allocates. Checked against a
/// fresh load.
#[test]
fn a_name_spelled_only_as_a_method_asks_no_walk() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "dotted",
        &[
            ("src/lib.rs", "macro_rules! strip_dot {\n    (. $f:ident) => {\n        crate::c::$f()\n    };\n}\n\nmacro_rules! implementing {\n    ($f:ident) => {{\n        struct Local;\n        impl Local {\n            fn get() -> usize {\n                crate::c::$f()\n            }\n        }\n        Local::get()\n    }};\n}\n\nmacro_rules! wrapping {\n    ($f:ident) => {\n        crate::c::$f()\n    };\n}\n\npub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\n"),
            ("src/a.rs", "pub struct Counter(pub usize);\n\nimpl Counter {\n    pub fn noalloc_tally(&self) -> usize {\n        self.0\n    }\n}\n\n// noalloc:root\npub fn a_root(counter: &Counter) -> usize {\n    counter.noalloc_tally()\n}\n\npub struct Span {\n    pub noalloc_width: usize,\n}\n\n/// A field, not `noalloc_width()`.\npub fn span() -> Span {\n    Span { noalloc_width: 0 }\n}\n\npub fn width(span: &Span) -> usize {\n    let noalloc_count = span.noalloc_width;\n    noalloc_count\n}\n"),
            ("src/b.rs", "// noalloc:root\npub fn b_root() -> usize {\n    strip_dot!(. noalloc_stripped)\n}\n\npub fn unreached() -> usize {\n    crate::c::noalloc_beside()\n}\n\npub fn filled() -> Vec<u8> {\n    vec![0; 4]\n}\n"),
            ("src/e.rs", "pub fn unreached() -> usize {\n    crate::c::noalloc_apart()\n}\n\npub fn shown() -> String {\n    format!(\"{}\", crate::c::noalloc_formatted())\n}\n\npub fn implemented() -> usize {\n    implementing!(noalloc_implemented)\n}\n\npub fn wrapped() -> usize {\n    wrapping!(noalloc_wrapped)\n}\n\n#[allow(unused_imports)]\nuse std::assert_eq as noalloc_checked;\n"),
            ("src/d.rs", "thread_local! {\n    static SLOT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let first = c.analyze();
    // `noalloc_stripped` names nothing yet: the call has no known callee.
    assert_eq!(rows(&first), vec![("b.rs".to_owned(), 3)], "{:#?}", first.findings);
    let mut edit = |text: &str| c.edit(text);

    let method_named = edit(&format!("{c_text}\npub fn noalloc_tally() -> usize {{\n    2\n}}\n"));
    assert_eq!(reused(&method_named), (2, 2));
    assert_eq!(rows(&method_named), rows(&first));
    // std's source spells `checksum` (in docs of `core::arch`), but no macro of it
    // that a workspace can call does: std's bodies cannot name a workspace function.
    let std_spelled = edit(&format!("{c_text}\npub fn checksum() -> usize {{\n    3\n}}\n"));
    assert_eq!(reused(&std_spelled), (2, 2));
    // A field's name, in its definition, a struct literal and a doc comment no
    // macro reads.
    let field_named = edit(&format!("{c_text}\npub fn noalloc_width() -> usize {{\n    4\n}}\n"));
    assert_eq!(reused(&field_named), (2, 2));
    // A binding in another module: it could resolve to the function only if it came
    // in by an import, which changes the item level.
    let bound = edit(&format!("{c_text}\npub fn noalloc_count() -> usize {{\n    5\n}}\n"));
    assert_eq!(reused(&bound), (2, 2));
    // How many roots an edit adding `fn name` to c.rs as loaded reuses, and how
    // many of them unasked (compared with that text alone); another file set.
    let adding =
        |c: &mut EditsOfC, name: &str| reused(&c.adding(c_text, &format!("pub fn {name}() -> usize {{\n    1\n}}")));
    let set = |c: &mut EditsOfC, path: &Path, text: &str| {
        assert!(c.live.set_file_text(path, text).unwrap());
        c.analyze();
    };
    // Named only in plain bodies: asked only of the roots that walk a body in
    // their files. No root walks e.rs; `b_root` walks b.rs.
    assert_eq!(adding(&mut c, "noalloc_apart"), (2, 2));
    assert_eq!(adding(&mut c, "noalloc_beside"), (2, 1));
    // In a macro call's input in a plain body, which expands to code of that
    // body only: as there. One that expands to an `impl` (here of a type local
    // to the block; one of another type counts for the whole program): every
    // root's walks are asked.
    assert_eq!(adding(&mut c, "noalloc_formatted"), (2, 2));
    assert_eq!(adding(&mut c, "noalloc_implemented"), (2, 0));
    // What a call expands to is read again after its macro's definition changes.
    assert_eq!(adding(&mut c, "noalloc_wrapped"), (2, 2));
    let lib = root.join("src/lib.rs");
    let lib_text = std::fs::read_to_string(&lib).unwrap();
    let implementing_now = lib_text.replace("        crate::c::$f()\n    };\n}\n\npub mod a;", "        {\n            struct Wrapped;\n            impl Wrapped {\n                fn get() -> usize {\n                    crate::c::$f()\n                }\n            }\n            Wrapped::get()\n        }\n    };\n}\n\npub mod a;");
    assert_ne!(implementing_now, lib_text);
    set(&mut c, &lib, &implementing_now);
    assert_eq!(adding(&mut c, "noalloc_wrapped"), (2, 0));
    set(&mut c, &lib, &lib_text);
    // std's `thread_local!` may bring `value` (one of its platforms' expansions
    // spells it), but d.rs's call expands to no `value` here.
    assert_eq!(adding(&mut c, "value"), (2, 2));
    // Renamed by an import, a macro bringing it may be called under a name no
    // library spells: e.rs renames `assert_eq!`, which spells `left_val`; and so
    // may one a file is edited to rename.
    assert_eq!(adding(&mut c, "left_val"), (2, 0));
    let d = root.join("src/d.rs");
    let d_text = std::fs::read_to_string(&d).unwrap();
    set(&mut c, &d, &format!("{d_text}\npub use std::thread_local as noalloc_renamed;\n"));
    assert_eq!(adding(&mut c, "value"), (2, 0));
    set(&mut c, &d, &d_text);
    c.edit(c_text);
    let mut edit = |text: &str| c.edit(text);
    // std's `dbg!` spells `tmp`, but no workspace file calls it, so it expands in
    // no workspace crate.
    let uncalled = edit(&format!("{c_text}\npub fn tmp() -> usize {{\n    6\n}}\n"));
    assert_eq!(reused(&uncalled), (2, 2));
    // Once one does, `tmp` may be brought into a body: every root is asked.
    let calling = format!("{c_text}\npub fn noalloc_debugged() -> usize {{\n    dbg!(7)\n}}\n");
    edit(&calling);
    let called = edit(&format!("{calling}\npub fn tmp() -> usize {{\n    6\n}}\n"));
    assert_eq!(reused(&called), (2, 0));
    // `vec![0; 4]` in b.rs expands to `$crate::vec::from_elem(0, 4)`, a path in
    // a plain body: `b_root`'s walks are asked (compared with the text before it
    // alone).
    edit(c_text);
    let expanded_with = edit(&format!("{c_text}\npub fn from_elem() -> usize {{\n    9\n}}\n"));
    assert_eq!(reused(&expanded_with), (2, 1));

    let stripped =
        edit(&format!("{c_text}\npub fn noalloc_stripped() -> usize {{\n    Vec::<u8>::with_capacity(1).len()\n}}\n"));
    assert_eq!(reused(&stripped), (1, 1));
    assert_eq!(rows(&stripped), vec![("c.rs".to_owned(), 6)], "{:#?}", stripped.findings);

    let fresh = c.fresh();
    assert_eq!(rows(&stripped), rows(&fresh));
    assert_eq!(stripped.roots, fresh.roots);
}

/// std's macro-defining macros take the words of their calls' input, `u32` and
/// `usize` among them, as the names of the macros they may define, so many a
/// name is brought by a macro called `u32!`. Spelled as a type, in the edited
/// file or under the compiler's own derives in another, such a word calls no
/// macro: adding `fn msg` asks no walk. Under a derive of the workspace's own,
/// which may make anything of the item, it asks the root's.
#[test]
fn a_type_named_like_a_library_macro_asks_no_walk() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let a_text = "#[derive(Clone, Copy, Debug, PartialEq)]\npub struct Pair(pub u32, pub u32);\n\n// noalloc:root\npub fn a_root(pair: Pair) -> u32 {\n    pair.0 + pair.1\n}\n";
    let (_dir, root) =
        crate::temp_package("typed", &[("src/lib.rs", "pub mod a;\npub mod c;\n"), ("src/a.rs", a_text)]);
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    assert!(c.analyze().findings.is_empty());
    let msg_added = format!("{c_text}\npub fn msg() -> usize {{\n    1\n}}\n");
    assert_eq!(reused(&c.edit(&msg_added)), (1, 1));
    c.edit(c_text);
    // A derive rust-analyzer cannot resolve may be anyone's.
    let a = root.join("src/a.rs");
    assert!(c.live.set_file_text(&a, &a_text.replace("PartialEq", "PartialEq, Unknown")).unwrap());
    c.analyze();
    assert_eq!(reused(&c.edit(&msg_added)), (1, 0));
}

/// A type, a const, a method or an import added or removed changes the item
/// level, which every kept outcome was made under (`dyn` targets and methods picked resolve
/// outside the walks), but under a name no other code spells it leaves every
/// root as it was: none is asked. Spelled only in plain bodies (a call of the
/// tuple struct, a lone pattern that a const of its name makes a constant,
/// through a glob import; a method call that an inherent method now takes from
/// a trait's; a path an import now binds), it asks only the roots with code in
/// their files, whose walks tell. Spelled in a signature or an import, added
/// under a derive (which makes an impl), or bringing a trait into scope (by a
/// public import, into the files that glob its module), the item level changed
/// where no walk reads it: those roots are asked. Checked
/// against the lines each answer must have, and against a fresh load.
#[test]
fn a_type_added_under_a_name_nothing_else_spells_asks_no_walk() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "types",
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\n"),
            ("src/a.rs", "use crate::c::*;\n\n// noalloc:root\npub fn a_root() -> usize {\n    core::mem::size_of_val(&NoallocThing(1))\n}\n"),
            ("src/b.rs", "use crate::c::*;\n\n// noalloc:root\npub fn b_root(x: u8) -> u8 {\n    match x {\n        NOALLOC_LIMIT => 1,\n        _ => 0,\n    }\n}\n"),
            ("src/d.rs", "pub fn signed(_: &crate::c::NoallocSigned) {}\n\npub struct Holder;\n\npub trait Grow {\n    fn noalloc_grow(&self) -> usize {\n        0\n    }\n}\n\nimpl Grow for Holder {}\n\npub fn made(n: u8) -> Vec<u8> {\n    vec![n]\n}\n"),
            ("src/e.rs", "use crate::d::{Grow, Holder};\n\n// noalloc:root\npub fn e_root() -> usize {\n    Holder.noalloc_grow()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    // `NoallocThing` names nothing yet: a call with no known callee.
    let first = c.analyze();
    assert_eq!(rows(&first), vec![("a.rs".to_owned(), 5)], "{:#?}", first.findings);
    let mut adding = |item: &str| {
        let added = c.adding(c_text, item);
        (reused(&added), rows(&added))
    };
    assert_eq!(adding("pub struct NoallocUnspelled(pub u32);"), ((3, 3), rows(&first)));
    assert_eq!(adding("pub enum NoallocUnspelled {\n    One,\n}"), ((3, 3), rows(&first)));
    let with_method =
        "pub struct NoallocUnspelled;\n\nimpl NoallocUnspelled {\n    pub fn noalloc_unspelled(&self) {}\n}";
    assert_eq!(adding(with_method), ((3, 3), rows(&first)));
    // The call now builds the struct: `a_root` is judged again and allocates
    // nothing; the others are not asked.
    assert_eq!(adding("pub struct NoallocThing(pub u8);"), ((2, 2), vec![]));
    // The pattern in `b_root` is now the const: it is judged again.
    assert_eq!(adding("pub const NOALLOC_LIMIT: u8 = 3;"), ((2, 2), rows(&first)));
    // `Holder.noalloc_grow()` now calls the inherent method, which allocates.
    let inherent = "impl crate::d::Holder {\n    pub fn noalloc_grow(&self) -> usize {\n        Vec::<u8>::with_capacity(1).capacity()\n    }\n}";
    let grown = vec![("a.rs".to_owned(), 5), ("c.rs".to_owned(), 7)];
    assert_eq!(adding(inherent), ((2, 2), grown));
    // Unread: asked of their walks (no root resolves anything outside them),
    // which all stand: `a_root`'s call still names nothing.
    assert_eq!(adding("pub struct NoallocSigned;"), ((3, 0), rows(&first)));
    // The compiler's own derive makes impls for the struct only.
    assert_eq!(adding("#[derive(Clone)]\npub struct NoallocUnspelled;"), ((3, 3), rows(&first)));
    // An import binds a name: `signed` is spelled nowhere else but in its
    // definition. `NoallocThing` now calls `made`, which allocates. `Holder` is
    // imported by e.rs too: by a public import, e.rs may be reading it; a
    // private one only c.rs's module sees. A trait brought into scope may
    // change any method call (its name need not be spelled): by a public
    // import, in c.rs's module and in the files that glob it, whose roots
    // (`a_root`, `b_root`) are asked of their walks (none resolves anything
    // outside them), `e_root` not; by a private import, only in c.rs's
    // module, where no root has code: none is.
    assert_eq!(adding("pub use crate::d::signed;"), ((3, 3), rows(&first)));
    assert_eq!(adding("pub use crate::d::made as NoallocThing;"), ((2, 2), vec![("d.rs".to_owned(), 14)]));
    assert_eq!(adding("pub use crate::d::Holder;"), ((3, 0), rows(&first)));
    assert_eq!(adding("use crate::d::Holder;"), ((3, 3), rows(&first)));
    assert_eq!(adding("pub use std::fmt::Write;"), ((3, 1), rows(&first)));
    assert_eq!(adding("use std::fmt::Write;"), ((3, 3), rows(&first)));
    // Removed again: `a_root`'s call has no callee.
    let with_thing = format!("{c_text}\npub struct NoallocThing(pub u8);\n");
    c.edit(&with_thing);
    let removed = c.edit(c_text);
    assert_eq!((reused(&removed), rows(&removed)), ((2, 2), rows(&first)));
    let added = c.edit(&format!("{with_thing}\n{inherent}\n"));
    let fresh = c.fresh();
    assert_eq!(rows(&added), rows(&fresh));
    assert_eq!(added.roots, fresh.roots);
}

/// A trait's impl for a type of the edited file, under a name no other code
/// spells, changes only the outcomes of roots that hold a value of the type
/// (whose code is in that file, or spells the name) and of roots that look
/// through every impl of the trait: `d_root` takes a `dyn Shown` from its
/// caller, `f_root` coerces a `NoallocLoud` it makes to `dyn Shown`. Both are
/// judged again and find the impl. `a_root`, and `g_root`, which calls a
/// provided method of the trait through a generic function at a type of its
/// own, are reused without asking their walks.
#[test]
fn a_trait_impl_for_a_type_nothing_else_spells_asks_no_walk() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let shown = "pub trait Shown {\n    fn shown(&self) -> usize;\n    fn twice(&self) -> usize {\n        self.shown() * 2\n    }\n}\n\npub struct Quiet;\n\nimpl Shown for Quiet {\n    fn shown(&self) -> usize {\n        0\n    }\n}\n";
    let (_dir, root) = crate::temp_package(
        "impls",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod d;\npub mod e;\npub mod f;\npub mod g;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(x: usize) -> usize {\n    x + 1\n}\n"),
            ("src/d.rs", "// noalloc:root\npub fn d_root(shown: &dyn crate::e::Shown) -> usize {\n    shown.shown()\n}\n"),
            ("src/e.rs", shown),
            ("src/f.rs", "use crate::e::Shown;\n\n// noalloc:root\npub fn f_root() -> usize {\n    let shown: &dyn Shown = &crate::c::NoallocLoud;\n    shown.shown()\n}\n"),
            ("src/g.rs", "use crate::e::{Quiet, Shown};\n\npub fn twice_of<T: Shown>(t: &T) -> usize {\n    t.twice()\n}\n\n// noalloc:root\npub fn g_root() -> usize {\n    twice_of(&Quiet)\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let base = format!("{c_text}\npub struct NoallocLoud;\n");
    let before = c.edit(&base);
    let impl_ = "impl crate::e::Shown for NoallocLoud {\n    fn shown(&self) -> usize {\n        Vec::<u8>::with_capacity(1).capacity()\n    }\n}";
    let added = c.edit(&format!("{base}\n{impl_}\n"));
    assert_eq!(reused(&added), (2, 2));
    let fresh = c.fresh();
    assert_eq!(rows(&added), rows(&fresh));
    assert_eq!(added.roots, fresh.roots);
    let finding: Vec<_> = added.findings.iter().flat_map(|f| f.roots.iter().cloned()).collect();
    for root in ["impls::d::d_root", "impls::f::f_root"] {
        assert!(finding.iter().any(|it| it == root), "{root}: {:#?}", added.findings);
    }
    assert!(rows(&added).contains(&("c.rs".to_owned(), 9)), "{:#?}", added.findings);
    // Removed again: as before.
    let removed = c.edit(&base);
    assert_eq!((reused(&removed), rows(&removed)), ((2, 2), rows(&before)));
    // The compiler's own derives are impls for the type: only `d_root`, which
    // looks through every impl, is judged again. A derive that resolves to no
    // derive of the compiler's may be a procedural macro's, which may make
    // anything.
    let derived = c.edit(&format!("{base}\n#[derive(Clone, Copy, Debug)]\npub struct NoallocDerived;\n"));
    assert_eq!((reused(&derived), rows(&derived)), ((3, 3), rows(&before)));
    let unknown = c.edit(&format!("{base}\n#[derive(Clone, NoallocUnknown)]\npub struct NoallocDerived;\n"));
    // Unread: only the roots with no `dyn` call are reused, asked of their walks.
    assert_eq!((reused(&unknown), rows(&unknown)), ((2, 0), rows(&before)));
}

/// A call whose `Self` inference leaves unknown (two impls may answer it) is a
/// call with no known callee, not every impl of its trait: a trait impl added
/// elsewhere, with no name spelled where the call is, changes nothing there, and
/// the outcome is reused, as a fresh analysis agrees.
#[test]
fn a_call_whose_self_inference_leaves_unknown_names_no_callee() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "unknown_self",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod e;\n"),
            ("src/e.rs", "pub trait Make {\n    fn make() -> Self;\n}\n\nimpl Make for u8 {\n    fn make() -> u8 {\n        0\n    }\n}\n\nimpl Make for u16 {\n    fn make() -> u16 {\n        0\n    }\n}\n"),
            ("src/a.rs", "use crate::e::Make;\n\n// noalloc:root\npub fn a_root() {\n    let _made = Make::make();\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let first = c.analyze();
    let made = "pub struct NoallocMade;\n\nimpl crate::e::Make for NoallocMade {\n    fn make() -> Self {\n        let _ = Vec::<u8>::with_capacity(1);\n        NoallocMade\n    }\n}";
    let added = c.adding(c_text, made);
    let fresh = c.fresh();
    assert_eq!(rows(&added), rows(&fresh), "first: {:#?}", first.findings);
    assert_eq!(added.roots, fresh.roots);
    let reasons: Vec<_> = added.findings.iter().flat_map(|f| f.reasons.iter().cloned()).collect();
    assert_eq!(reasons, vec!["call with no known callee: <{unknown} as unknown_self::e::Make>::make".to_owned()]);
    assert_eq!(reused(&added), (1, 1));
}

/// Item edits one after another, each read by the names it touches where it
/// can be, give after each the findings a fresh analysis gives: the outcomes
/// kept across them, at the item levels and traits in scope each saw, hold.
/// `a_root` takes a `dyn Shown` from its caller, whose impls c.rs gains and
/// loses; `d_root` calls a method on a value of e.rs's type, with c.rs's items
/// in scope through a glob.
#[test]
fn item_edits_in_a_row_give_what_a_fresh_analysis_gives() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "in_a_row",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod d;\npub mod e;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(shown: &dyn crate::e::Shown) -> usize {\n    shown.shown()\n}\n"),
            ("src/d.rs", "use crate::c::*;\n\n// noalloc:root\npub fn d_root() -> usize {\n    let made = crate::e::make();\n    made.counted()\n}\n"),
            ("src/e.rs", "pub trait Shown {\n    fn shown(&self) -> usize;\n}\n\npub struct Counter(pub usize);\n\nimpl Shown for Counter {\n    fn shown(&self) -> usize {\n        self.0\n    }\n}\n\npub struct Made;\n\npub fn make() -> Made {\n    Made\n}\n\nimpl core::ops::Deref for Made {\n    type Target = Counter;\n    fn deref(&self) -> &Counter {\n        &Counter(0)\n    }\n}\n\nimpl Counter {\n    pub fn counted(&self) -> usize {\n        self.0\n    }\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let loud = "pub struct NoallocLoud;\n\nimpl crate::e::Shown for NoallocLoud {\n    fn shown(&self) -> usize {\n        Vec::<u8>::with_capacity(1).capacity()\n    }\n}\n";
    let counted = "pub trait NoallocCounted {\n    fn counted(&self) -> usize {\n        Vec::<u8>::with_capacity(1).capacity()\n    }\n}\n\nimpl NoallocCounted for crate::e::Made {}\n";
    let derived = "#[derive(Clone, Debug)]\npub struct NoallocDerived(pub u8);\n";
    let edits = [
        format!("{c_text}\n{loud}"),
        format!("{c_text}\n{loud}\n{derived}"),
        format!("{c_text}\n{derived}"),
        format!("{c_text}\n{counted}"),
        format!("{c_text}\n{counted}\n{loud}"),
        format!("{c_text}\n{loud}\nuse core::fmt::Write;\n"),
        c_text.to_owned(),
    ];
    c.analyze();
    for text in edits {
        let live = c.edit(&text);
        let fresh = c.fresh();
        assert_eq!((rows(&live), &live.roots), (rows(&fresh), &fresh.roots), "{text}");
    }
}

/// A derive named `Clone` that an import brings from a procedural macro crate
/// is not the compiler's: it may make any item. Here it makes a function
/// `a_root` calls, which does not resolve until the derive is added: `a_root`
/// is judged again, and finds what the function allocates. It also makes an
/// exported macro that `b_root` calls, whose expansion is in `b_root`'s own
/// file: the import and the type taken out in one edit leave a derive that is
/// the compiler's under the macros of after, but was the procedural macro's
/// before, so the edit is not read and `b_root` is judged again too.
#[test]
fn a_derive_an_import_shadows_is_not_read_as_the_compiler_s() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    // Named apart from the other tests' `pm`: a path dependency inside the
    // package is a workspace member, whose artifact is named without its path,
    // so two `pm`s built at once in one target directory overwrite each other.
    let pm = "use proc_macro::TokenStream;\n\n#[proc_macro_derive(Clone)]\npub fn clone(_: TokenStream) -> TokenStream {\n    \"pub fn made_by_a_derive() -> usize { Vec::<u8>::with_capacity(1).capacity() } #[macro_export] macro_rules! noalloc_made { () => { Vec::<u8>::with_capacity(2).capacity() }; }\".parse().unwrap()\n}\n";
    let (_dir, root) = package_with_proc_macro_crate(
        "shadowed",
        "shadowing_pm",
        pm,
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root() -> usize {\n    crate::c::made_by_a_derive()\n}\n"),
            ("src/b.rs", "// noalloc:root\npub fn b_root() -> usize {\n    crate::noalloc_made!()\n}\n"),
        ],
    );
    let options = LoadOptions::default();
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let base = format!("use shadowing_pm::Clone;\n\n{c_text}");
    let first = c.edit(&base);
    let derived = c.edit(&format!("{base}\n#[derive(Clone)]\npub struct NoallocDerived;\n"));
    let fresh = c.fresh();
    assert_eq!((reused(&derived), rows(&derived)), ((0, 0), rows(&fresh)));
    assert_ne!(rows(&derived), rows(&first), "{:#?}", derived.findings);
    assert!(rows(&derived).contains(&("b.rs".to_owned(), 3)), "{:#?}", derived.findings);
    let removed = c.edit(c_text);
    let fresh = c.fresh();
    assert_eq!((rows(&removed), &removed.roots), (rows(&fresh), &fresh.roots));
    assert!(!rows(&removed).contains(&("b.rs".to_owned(), 3)), "{:#?}", removed.findings);
}

/// A trait the edits define has impls only where the edits put them, so adding
/// one under a name nothing else spells changes no method call elsewhere, though
/// it changes the traits in scope. A member added to a trait that other code
/// holds values of may take over a method call that spells only the member:
/// `Existing.len()` in h.rs, which went through `Deref` to the slice's `len`,
/// now runs `Lengthy::len`, in scope through the glob. An import may bring in a
/// trait of std's: a public one into c.rs's module and h.rs, which globs it; a
/// private one, only into c.rs's module. Either way the root whose code is there
/// (`h_root`, through `Lengthy::len`) is judged again, and `a_root`'s outcome is
/// reused without asking its walks.
#[test]
fn a_trait_defined_under_a_name_nothing_else_spells_asks_no_walk() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "traits",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod e;\npub mod h;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(x: usize) -> usize {\n    x + 1\n}\n"),
            ("src/e.rs", "pub struct Existing;\n\nimpl core::ops::Deref for Existing {\n    type Target = [u8];\n    fn deref(&self) -> &[u8] {\n        &[]\n    }\n}\n\nimpl crate::c::Lengthy for Existing {}\n"),
            ("src/h.rs", "use crate::c::*;\nuse crate::e::Existing;\n\n// noalloc:root\npub fn h_root() -> usize {\n    Existing.len()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let base = format!("{c_text}\npub trait Lengthy {{}}\n");
    let first = c.edit(&base);
    assert_eq!(rows(&first), vec![]);
    let added = c.edit(&format!("{base}\npub trait NoallocTrait {{\n    fn noalloc_method(&self) -> usize;\n}}\n"));
    assert_eq!((reused(&added), rows(&added)), ((2, 2), vec![]));
    let removed = c.edit(&base);
    assert_eq!((reused(&removed), rows(&removed)), ((2, 2), vec![]));
    let lengthy = base.replace(
        "pub trait Lengthy {}",
        "pub trait Lengthy {\n    fn len(&self) -> usize {\n        Vec::<u8>::with_capacity(1).capacity()\n    }\n}",
    );
    let taken_over = c.edit(&lengthy);
    assert_eq!((reused(&taken_over), rows(&taken_over)), ((1, 1), vec![("c.rs".to_owned(), 7)]));
    let fresh = c.fresh();
    assert_eq!(rows(&taken_over), rows(&fresh));
    assert_eq!(taken_over.roots, fresh.roots);
    let imported = c.edit(&format!("{lengthy}\npub use std::io::Read;\n"));
    assert_eq!((reused(&imported), rows(&imported)), ((1, 1), rows(&taken_over)));
    c.edit(&lengthy);
    let private = c.edit(&format!("{lengthy}\nuse std::io::Read;\n"));
    assert_eq!((reused(&private), rows(&private)), ((1, 1), rows(&taken_over)));
}

/// A root whose reach resolves nothing outside its walks (no `dyn` call, no fn
/// pointer) keeps its outcome across an item edit no proof reads (an impl of
/// another module's trait) once its walks are confirmed; so does `d_root`,
/// whose `dyn` call's targets the reach finds among impls, since only trait
/// impls changed and its target is the same. A type
/// renamed in a file the reach walks no body of (re-exported under its old
/// name) renames the methods of its impls: `a_root` is judged again. So is it
/// when a module is renamed (`#[path]`, its file unchanged), which also takes
/// the identities of its functions along. Each answer is a fresh load's.
#[test]
fn a_root_that_resolves_nothing_outside_its_walks_is_reused_after_any_item_edit() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let lib = "pub mod a;\nmod b;\npub mod c;\npub mod d;\npub mod e;\n\npub use b::helper;\n";
    let measure = "pub trait Measure {\n    fn measure(&self) -> usize;\n}\n\npub struct Square;\n";
    let (_dir, root) = crate::temp_package(
        "closed",
        &[
            ("src/lib.rs", lib),
            ("src/a.rs", "use crate::e::{Measure, Square};\n\nimpl Measure for Square {\n    fn measure(&self) -> usize {\n        Vec::<u8>::with_capacity(2).capacity()\n    }\n}\n\n// noalloc:root\npub fn a_root(x: usize) -> usize {\n    x + crate::helper() + Square.measure()\n}\n"),
            ("src/b.rs", "pub fn helper() -> usize {\n    Vec::<u8>::with_capacity(1).capacity()\n}\n"),
            ("src/d.rs", "pub trait Shape {\n    fn area(&self) -> usize;\n}\n\npub struct Square;\n\nimpl Shape for Square {\n    fn area(&self) -> usize {\n        1\n    }\n}\n\n// noalloc:root\npub fn d_root() -> usize {\n    let shape: &dyn Shape = &Square;\n    shape.area()\n}\n"),
            ("src/e.rs", measure),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let functions = |analysis: &noalloc_ls::engine::Analysis| {
        let mut functions: Vec<String> = analysis.findings.iter().map(|f| f.function.clone()).collect();
        functions.sort();
        functions
    };
    let first = c.analyze();
    assert_eq!(
        (first.roots.len(), functions(&first)),
        (2, vec!["closed::b::helper".to_owned(), "closed::e::Square::measure".to_owned()])
    );
    let added =
        c.adding(c_text, "impl<T> crate::d::Shape for [T; 7] {\n    fn area(&self) -> usize {\n        0\n    }\n}");
    // `d_root`'s `dyn` call still goes where it went (`a_dyn_root_keeps_…`).
    assert_eq!(reused(&added), (2, 0));
    let fresh = c.fresh();
    assert_eq!((&added.roots, functions(&added)), (&fresh.roots, functions(&fresh)));
    let mut edit_file = |file: &str, text: &str| {
        let path = root.join(file);
        std::fs::write(&path, text).unwrap();
        assert!(c.live.set_file_text(&path, text).unwrap());
        let analysis = c.analyze();
        let fresh = c.fresh();
        assert_eq!((&analysis.roots, functions(&analysis)), (&fresh.roots, functions(&fresh)));
        analysis
    };
    let type_renamed = edit_file(
        "src/e.rs",
        &format!("{}\npub use Squared as Square;\n", measure.replace("struct Square", "struct Squared")),
    );
    assert_eq!(functions(&type_renamed)[1], "closed::e::Squared::measure");
    // A module added (one an impl in it keeps from being read by its name)
    // drops no function: `a_root`'s walks are asked, and tell.
    let module = "pub mod added {\n    pub struct Added;\n\n    impl Added {\n        pub fn new() -> Added {\n            Added\n        }\n    }\n}\n";
    let module_added = edit_file("src/lib.rs", &format!("{lib}\n{module}"));
    assert_eq!(reused(&module_added), (1, 0));
    let module_renamed = edit_file(
        "src/lib.rs",
        &lib.replace("mod b;", "#[path = \"b.rs\"]\nmod renamed;").replace("b::helper", "renamed::helper"),
    );
    assert_eq!(functions(&module_renamed)[1], "closed::renamed::helper");
}

/// After edits of trait impls only, a root whose reach resolved `dyn` calls
/// keeps its outcome once its walks are confirmed and each answer it resolved
/// them with is the same (`Shape::area` at `Square`, `Named::named` at `N`).
/// An impl of `Shape` for `Square` that overrides the trait's provided method
/// changes `a_root`'s answer (its file unchanged): it is judged again and no
/// longer allocates. Other edits no proof reads have it and `b_root` judged
/// again. Each answer is a fresh load's.
#[test]
fn a_dyn_root_keeps_its_outcome_across_trait_impl_edits_while_its_answers_stand() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "answers",
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod e;\n"),
            ("src/a.rs", "pub trait Shape {\n    fn area(&self) -> usize {\n        Vec::<u8>::with_capacity(9).capacity()\n    }\n}\n\npub struct Square;\n\n// noalloc:root\npub fn a_root() -> usize {\n    let shape: &dyn Shape = &Square;\n    shape.area()\n}\n"),
            ("src/b.rs", "pub trait Named {\n    fn named(&self) -> usize;\n}\n\npub struct N;\n\nimpl Named for N {\n    fn named(&self) -> usize {\n        1\n    }\n}\n\n// noalloc:root\npub fn b_root() -> usize {\n    let named: &dyn Named = &N;\n    named.named()\n}\n"),
            ("src/e.rs", "// noalloc:root\npub fn e_root(x: usize) -> usize {\n    x + 1\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let provided = "impl crate::a::Shape for crate::a::Square {}";
    let first = c.adding(c_text, provided);
    // The provided method allocates, and so does the `dyn` call that reaches it.
    assert_eq!(finding_lines(&first), vec![("a.rs".to_owned(), 3), ("a.rs".to_owned(), 12)], "{:#?}", first.findings);
    let mut checked = |text: String, expected: (usize, usize)| {
        let analysis = c.edit(&text);
        let fresh = c.fresh();
        assert_eq!(
            (reused(&analysis), finding_lines(&analysis), &analysis.roots),
            (expected, finding_lines(&fresh), &fresh.roots)
        );
        analysis
    };
    let named = "impl<T> crate::b::Named for [T; 7] {\n    fn named(&self) -> usize {\n        7\n    }\n}";
    let other_impl = checked(format!("{c_text}\n{provided}\n\n{named}\n"), (3, 0));
    assert_eq!(finding_lines(&other_impl), finding_lines(&first));
    let overriding = "impl crate::a::Shape for crate::a::Square {\n    fn area(&self) -> usize {\n        4\n    }\n}";
    let overridden = checked(format!("{c_text}\n{overriding}\n\n{named}\n"), (2, 0));
    assert_eq!(finding_lines(&overridden), vec![]);
    // A module holding an inherent impl is no trait impl, nor read by names:
    // only the root that resolves nothing outside its walks keeps its outcome.
    let held = "mod held {\n    pub struct H;\n\n    impl H {\n        pub fn h() {}\n    }\n}";
    checked(format!("{c_text}\n{overriding}\n\n{named}\n\n{held}\n"), (1, 0));
}

/// A trait's impl whose trait the file defines (a blanket one, one for an
/// alias) answers only goals of that trait: it is read under the trait's name
/// and its members', as method calls too. A new trait's blanket impl asks no
/// walk; an impl of a trait whose method a call elsewhere spells (`h_root`'s
/// `Existing.len()`, which it takes over from the slice's) has that root judged
/// again, as a fresh analysis agrees.
#[test]
fn a_trait_impl_of_a_trait_the_file_defines_is_read_under_the_trait_s_names() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "blankets",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod e;\npub mod h;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(x: usize) -> usize {\n    x + 1\n}\n"),
            ("src/e.rs", "pub struct Existing;\n\nimpl core::ops::Deref for Existing {\n    type Target = [u8];\n    fn deref(&self) -> &[u8] {\n        &[]\n    }\n}\n"),
            ("src/h.rs", "use crate::c::*;\nuse crate::e::Existing;\n\n// noalloc:root\npub fn h_root() -> usize {\n    Existing.len()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let base = format!("{c_text}\npub trait Lengthy {{\n    fn len(&self) -> usize {{\n        Vec::<u8>::with_capacity(1).capacity()\n    }}\n}}\n");
    assert_eq!(rows(&c.edit(&base)), vec![]);
    let blanket = "pub trait NoallocBlanket {\n    fn noalloc_blanket(&self) -> usize {\n        0\n    }\n}\n\nimpl<T> NoallocBlanket for T {}";
    let added = c.adding(&base, blanket);
    assert_eq!((reused(&added), rows(&added)), ((2, 2), vec![]));
    let removed = c.edit(&base);
    assert_eq!((reused(&removed), rows(&removed)), ((2, 2), vec![]));
    let aliased = c.adding(
        &base,
        "pub type NoallocAlias = Vec<u8>;\n\npub trait NoallocTrait {}\n\nimpl NoallocTrait for NoallocAlias {}",
    );
    assert_eq!((reused(&aliased), rows(&aliased)), ((2, 2), vec![]));
    // Written as a path, the trait may be another module's.
    let qualified = c.adding(&base, "pub trait NoallocBlanket {}\n\nimpl<T> self::NoallocBlanket for T {}");
    assert_eq!((reused(&qualified), rows(&qualified)), ((2, 0), vec![]));
    for taking_over in ["impl Lengthy for crate::e::Existing {}", "impl<T> Lengthy for T {}"] {
        let taken_over = c.adding(&base, taking_over);
        assert_eq!((reused(&taken_over), rows(&taken_over)), ((1, 1), vec![("c.rs".to_owned(), 7)]), "{taking_over}");
        let fresh = c.fresh();
        assert_eq!(rows(&taken_over), rows(&fresh));
        assert_eq!(taken_over.roots, fresh.roots);
    }
}

/// A name standing alone (a path's first segment) resolves in its own module's
/// scope, which holds an item of another module only by an import: in a file
/// with no glob import, no macro call where an item can be and no attribute a
/// macro reads (the compiler's own derives make an impl that names the item by
/// its own name), it names none of the items an edit touches elsewhere. Here
/// d.rs has a struct of its own, derived, under the name a struct added to c.rs
/// takes, in a root's signature: no root is asked. f.rs imports c.rs's items
/// through a macro's expansion, so a function added there is found called by
/// `f_root`; a.rs spells a type in a signature under a glob import, g.rs under
/// a derive no one can resolve: no outcome is reused without asking its walks.
#[test]
fn a_name_standing_alone_in_a_closed_file_asks_no_walk() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "scopes",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod d;\npub mod f;\npub mod g;\n\n#[macro_export]\nmacro_rules! import_c {\n    () => {\n        use crate::c::*;\n    };\n}\n"),
            ("src/a.rs", "use crate::c::*;\n\npub fn globbed(_: NoallocGlobbed) {}\n"),
            ("src/d.rs", "#[derive(Clone, Copy, Debug, PartialEq)]\npub struct NoallocShared;\n\n// noalloc:root\npub fn d_root(_: &NoallocShared) -> usize {\n    0\n}\n"),
            ("src/g.rs", "#[derive(NoallocUnknown)]\npub struct NoallocDerived;\n"),
            ("src/f.rs", "crate::import_c!();\n\n// noalloc:root\npub fn f_root() -> usize {\n    core::mem::size_of_val(&NoallocMacroed(1))\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let first = c.analyze();
    assert_eq!(rows(&first), vec![("f.rs".to_owned(), 5)], "{:#?}", first.findings);
    let mut adding = |item: &str| {
        let added = c.adding(c_text, item);
        (reused(&added), rows(&added))
    };
    assert_eq!(adding("pub struct NoallocShared(pub u8);"), ((2, 2), rows(&first)));
    let macroed = "pub fn NoallocMacroed(n: u8) -> Vec<u8> { Vec::with_capacity(n as usize) }";
    assert_eq!(adding(macroed), ((1, 1), vec![("c.rs".to_owned(), 5)]));
    assert_eq!(adding("pub struct NoallocGlobbed;"), ((2, 0), rows(&first)));
    // A derive rust-analyzer cannot resolve may read the item and make anything.
    assert_eq!(adding("pub struct NoallocDerived;"), ((2, 0), rows(&first)));
    let added = c.edit(&format!("{c_text}\n{macroed}\n"));
    let fresh = c.fresh();
    assert_eq!(rows(&added), rows(&fresh));
    assert_eq!(added.roots, fresh.roots);
}

/// An item private to its module (no visibility, or `pub(self)`) is seen only
/// by that module and the modules under it: rust-analyzer resolves a path, an
/// import and a glob to what is visible from the module it is in. So a private
/// import of `std::io::Write` added to c.rs changes which traits are in scope in
/// c.rs and in c/child.rs, whose glob takes it in (`out.write_all` then resolves,
/// and allocates), and nowhere else: a.rs's root is reused without asking its
/// walks, though a.rs globs c's items too. A private function a.rs spells asks
/// no walk; a public one has a.rs's root asked. A private glob import is read
/// as the names the module it imports from has, looked for under c.rs's module
/// only; a public one's, as public names. Each answer is a fresh load's.
#[test]
fn an_item_private_to_its_module_is_looked_for_under_that_module_only() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "private",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\n"),
            ("src/a.rs", "use crate::c::*;\n\n// noalloc:root\npub fn a_root(out: &mut Vec<u8>) -> usize {\n    out.len()\n}\n\npub fn unreached() -> usize {\n    noalloc_private()\n}\n"),
            ("src/c/child.rs", "use super::*;\n\n// noalloc:root\npub fn child_root(out: &mut Vec<u8>) {\n    let _ = out.write_all(b\"x\");\n}\n\n// noalloc:root\npub fn child_map() -> usize {\n    BTreeMap::<u8, u8>::new().len()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let base = format!("{c_text}\npub mod child;\n");
    let reasons = finding_reasons;
    let unresolved = "call with no known callee: method `write_all` (type inference did not resolve it)";
    let unmapped = "call with no known callee: `{unknown}` (type inference did not resolve the call); call with no known callee: method `len` (type inference did not resolve it)";
    let first = c.edit(&base);
    let at_first = vec![("child.rs".to_owned(), 5), ("child.rs".to_owned(), 10)];
    assert_eq!((rows(&first), reasons(&first)), (at_first, vec![unresolved.to_owned(), unmapped.to_owned()]));
    let imported = c.edit(&format!("use std::io::Write;\n{base}"));
    assert_eq!(reused(&imported), (2, 1));
    assert!(!reasons(&imported)[0].contains("no known callee"), "{:?}", reasons(&imported));
    let again = c.fresh();
    assert_eq!((rows(&imported), reasons(&imported)), (rows(&again), reasons(&again)));
    assert_eq!(imported.roots, again.roots);
    let back = c.edit(&base);
    assert_eq!((reused(&back), reasons(&back)), ((2, 1), reasons(&first)));
    let private = c.edit(&format!("{base}\nfn noalloc_private() -> usize {{\n    0\n}}\n"));
    assert_eq!((reused(&private), reasons(&private)), ((3, 3), reasons(&first)));
    let public = c.edit(&format!("{base}\npub fn noalloc_private() -> usize {{\n    0\n}}\n"));
    assert_eq!((reused(&public), reasons(&public)), ((3, 2), reasons(&first)));
    // A private glob brings `BTreeMap` into c.rs's module and, through its own
    // glob, child.rs's, where `child_map` spells it: that root is judged again
    // (its call now resolves), `child_root` only asked, a.rs's not asked.
    c.edit(&base);
    let globbed = c.edit(&format!("use std::collections::*;\n{base}"));
    assert_eq!((reused(&globbed), reasons(&globbed)), ((2, 1), vec![unresolved.to_owned()]));
    let again = c.fresh();
    assert_eq!((rows(&globbed), reasons(&globbed)), (rows(&again), reasons(&again)));
    assert_eq!(globbed.roots, again.roots);
    c.edit(&base);
    let public_glob = c.edit(&format!("pub use std::collections::*;\n{base}"));
    // A public one's names are public: `child_map` spells `BTreeMap`, so
    // `child_root` (same file) is asked; a.rs spells none of them.
    assert_eq!((reused(&public_glob), reasons(&public_glob)), ((2, 1), reasons(&globbed)));
}

/// A public import binds in its module's scope, which other modules take in only
/// by a path that spells its name or by a glob: of their own text, or one a macro
/// call makes, in a block too. So `pub use std::io::Write;` added to c.rs
/// changes which traits are in scope in g.rs (`use crate::c::*;`) and in m.rs
/// (whose `bring!();` statement expands to that glob): their roots are judged
/// again, and `out.write_all` now resolves (and allocates); a.rs's root is
/// reused without asking its walks. So with a public glob import. Each answer
/// is a fresh load's.
#[test]
fn a_public_import_reaches_the_files_that_may_glob_its_module() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let write_all =
        "// noalloc:root\npub fn {name}(out: &mut Vec<u8>) {\n    {bring}let _ = out.write_all(b\"x\");\n}\n";
    let g = format!("use crate::c::*;\n\n{}", write_all.replace("{name}", "g_root").replace("{bring}", ""));
    let m = format!(
        "macro_rules! bring {{\n    () => {{\n        use crate::c::*;\n    }};\n}}\n\n{}",
        write_all.replace("{name}", "m_root").replace("{bring}", "bring!();\n    ")
    );
    let (_dir, root) = crate::temp_package(
        "public_import",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod g;\npub mod m;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(out: &mut Vec<u8>) -> usize {\n    out.len()\n}\n"),
            ("src/g.rs", &g),
            ("src/m.rs", &m),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let reasons = finding_reasons;
    let unresolved = "call with no known callee: method `write_all` (type inference did not resolve it)";
    let first = c.analyze();
    assert_eq!(reasons(&first), vec![unresolved.to_owned(); 2]);
    let imported = c.adding(c_text, "pub use std::io::Write;");
    assert_eq!(reused(&imported), (1, 1));
    assert!(reasons(&imported).iter().all(|reason| !reason.contains("no known callee")), "{:?}", reasons(&imported));
    let fresh = c.fresh();
    assert_eq!(
        (finding_lines(&imported), reasons(&imported), &imported.roots),
        (finding_lines(&fresh), reasons(&fresh), &fresh.roots)
    );
    let removed = c.edit(c_text);
    assert_eq!((reused(&removed), reasons(&removed)), ((1, 1), reasons(&first)));
    // A public glob is read as the names it brings, public, and its traits as a
    // public import's: `std::io::prelude::*` brings `Write` into g.rs's and
    // m.rs's scopes, where `out.write_all` resolves again.
    let globbed = c.adding(c_text, "pub use std::io::prelude::*;");
    assert_eq!((reused(&globbed), reasons(&globbed)), ((1, 1), reasons(&imported)));
    let fresh = c.fresh();
    assert_eq!(
        (finding_lines(&globbed), reasons(&globbed), &globbed.roots),
        (finding_lines(&fresh), reasons(&fresh), &fresh.roots)
    );
    let removed = c.edit(c_text);
    assert_eq!((reused(&removed), reasons(&removed)), ((1, 1), reasons(&first)));
}

/// A private glob import that brings a macro changes only what macro calls
/// spelling its name resolve to: `a_root`'s outcome is reused without asking
/// its walks, while `child_root`, whose call of the macro now resolves through
/// `use super::*;`, is judged again (the outcomes were all dropped when a
/// macro came or went). An inline module of plain items is read
/// under its name, added or removed.
#[test]
fn a_glob_bringing_a_macro_and_an_inline_module_are_read_by_their_names() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "macro_glob",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod m;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(x: usize) -> usize {\n    x + 1\n}\n"),
            ("src/m.rs", "macro_rules! noalloc_glob_mac {\n    () => {\n        Vec::<u8>::with_capacity(3).capacity()\n    };\n}\n\npub(crate) use noalloc_glob_mac;\n"),
            ("src/c/child.rs", "use super::*;\n\n// noalloc:root\npub fn child_root() -> usize {\n    noalloc_glob_mac!()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let base = format!("{c_text}\npub mod child;\n");
    let first = c.edit(&base);
    assert_eq!(rows(&first), vec![]);
    let globbed = c.edit(&format!("use crate::m::*;\n{base}"));
    assert_eq!((reused(&globbed), rows(&globbed)), ((1, 1), vec![("child.rs".to_owned(), 5)]));
    let fresh = c.fresh();
    assert_eq!((rows(&globbed), &globbed.roots), (rows(&fresh), &fresh.roots));
    // Taken out, the call resolves to nothing, which may be any macro: its
    // file counts in full, and `a_root` is reused once its walks are asked.
    let back = c.edit(&base);
    assert_eq!((reused(&back), rows(&back)), ((1, 0), vec![]));
    let module = "mod noalloc_inline {\n    pub fn inside() -> usize {\n        Vec::<u8>::with_capacity(4).capacity()\n    }\n}";
    let added = c.adding(&base, module);
    assert_eq!((reused(&added), rows(&added)), ((2, 2), vec![]));
    let removed = c.edit(&base);
    assert_eq!((reused(&removed), rows(&removed)), ((2, 2), vec![]));
}

/// A library's macro a workspace file re-exports under another name (`pub use
/// std::write as w;`) brings what it brings under that name too: `u_root`'s
/// `w!(buf, "x")` is `buf.write_fmt(…)`, which an inherent method added under
/// that name (`write_fmt`) takes over. No file spells `write_fmt`, nor `write`
/// where the call is: the re-export spells `write` outside a body, which makes
/// its file count in full (without that reading, `u_root`'s outcome was kept
/// unasked, its finding stale).
#[test]
fn a_library_macro_renamed_in_the_workspace_brings_what_it_brings() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "renamed_macro",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod r;\npub mod t;\npub mod u;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root(x: usize) -> usize {\n    x + 1\n}\n"),
            ("src/r.rs", "pub use std::write as w;\n"),
            (
                "src/t.rs",
                "pub struct Buf(pub usize);\n\nimpl std::fmt::Write for Buf {\n    fn write_str(&mut self, s: &str) -> std::fmt::Result {\n        self.0 += s.len();\n        Ok(())\n    }\n}\n",
            ),
            (
                "src/u.rs",
                "use std::fmt::Write as _;\n\nuse crate::r::w;\n\n// noalloc:root\npub fn u_root(buf: &mut crate::t::Buf) -> bool {\n    w!(buf, \"x\").is_ok()\n}\n",
            ),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    let first = c.analyze();
    assert!(!rows(&first).iter().any(|(file, _)| file == "c.rs"), "{:?}", rows(&first));
    let method = "impl crate::t::Buf {\n    pub fn write_fmt(&mut self, _: std::fmt::Arguments<'_>) -> std::fmt::Result {\n        self.0 += Vec::<u8>::with_capacity(8).capacity();\n        Ok(())\n    }\n}";
    let added = c.adding(c_text, method);
    let fresh = c.fresh();
    assert!(rows(&fresh).iter().any(|(file, _)| file == "c.rs"), "the inherent method is called: {:?}", rows(&fresh));
    assert_eq!((rows(&added), &added.roots), (rows(&fresh), &fresh.roots), "reused: {:?}", reused(&added));
    let removed = c.edit(c_text);
    assert_eq!((rows(&removed), &removed.roots), (rows(&first), &first.roots));
}

/// A name spelled after a library crate's module (`use std::io::Write;`,
/// `&mut dyn std::io::Write`, `use std::fmt::{self, Write}`) names that
/// module's item, none of the workspace's: a type added under the name has no
/// outcome judged again but `d_root`'s, which spells it after the workspace's
/// module (`crate::c::Write`), and whose walk it changes.
#[test]
fn a_name_after_a_library_module_names_no_workspace_item() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "library_paths",
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n"),
            ("src/a.rs", "use std::io::Write;\n\n// noalloc:root\npub fn a_root(out: &mut [u8]) -> usize {\n    let mut out: &mut [u8] = out;\n    out.write(b\"x\").unwrap_or(0)\n}\n"),
            ("src/b.rs", "use std::fmt::{self, Write};\n\n// noalloc:root\npub fn b_root(w: &mut dyn std::io::Write) -> usize {\n    let _ = w.flush();\n    core::mem::size_of::<fmt::Error>()\n}\n\npub fn unused<W: Write>(w: &mut W) -> fmt::Result {\n    w.write_str(\"\")\n}\n"),
            ("src/d.rs", "// noalloc:root\npub fn d_root() -> usize {\n    core::mem::size_of::<crate::c::Write>()\n}\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let rows = finding_lines;
    c.analyze();
    let added = c.adding(c_text, "pub struct Write([u8; 4]);");
    let fresh = c.fresh();
    assert_eq!((reused(&added), rows(&added), &added.roots), ((2, 2), rows(&fresh), &fresh.roots));
    let removed = c.edit(c_text);
    let fresh = c.fresh();
    assert_eq!((reused(&removed), rows(&removed), &removed.roots), ((2, 2), rows(&fresh), &fresh.roots));
}

/// Library files count in full once a workspace file `include!`s (it may take one
/// of theirs in): a name found unspelled before is looked for again, now in std's
/// bodies too.
#[test]
fn an_include_added_later_has_library_files_read_in_full() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = crate::temp_package(
        "including",
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("src/a.rs", "// noalloc:root\npub fn a_root() -> usize {\n    1\n}\n"),
            ("src/b.rs", "pub fn b() -> u8 {\n    0\n}\n"),
            ("src/zero.rs", "0\n"),
        ],
    );
    let options = LoadOptions { build_scripts: false, ..LoadOptions::default() };
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    c.analyze();
    // std spells `checksum` only in `core::arch`'s docs, which no macro holds.
    let with_checksum = format!("{c_text}\npub fn checksum() -> usize {{\n    3\n}}\n");
    let reused = |analysis: &noalloc_ls::engine::Analysis| reused(analysis);
    assert_eq!(reused(&c.edit(&with_checksum)), (1, 1));
    assert_eq!(reused(&c.edit(c_text)), (1, 1));

    let b = root.join("src/b.rs");
    let including = "pub fn b() -> u8 {\n    include!(\"zero.rs\")\n}\n";
    std::fs::write(&b, including).unwrap();
    assert!(c.live.set_file_text(&b, including).unwrap());
    // A macro call in the function edited: the walks are asked.
    assert_eq!(reused(&c.analyze()), (1, 0));
    assert_eq!(reused(&c.edit(&with_checksum)), (1, 0));
}

/// A procedural derive whose expansion is impls of traits for the derived type
/// only (serde's shape: inside a `const _` block with an `extern crate`) makes
/// impls that answer goals about that type alone: a type added or taken out
/// with it asks no walk (taken out, it is read as it expanded while it was
/// there), unless the edits touched what its path starts with. One whose
/// expansion implements a trait for another type is not read: `Grow for u8`
/// takes over `1u8.grow()` in a.rs, whose root is judged again and now
/// allocates. Each answer is a fresh load's.
#[test]
fn a_derive_that_expands_to_impls_for_its_type_only_is_read() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let pm = "use proc_macro::{TokenStream, TokenTree};\n\n\
              fn name_of(input: TokenStream) -> String {\n    let mut tokens = input.into_iter().skip_while(|token| !matches!(token, TokenTree::Ident(it) if it.to_string() == \"struct\"));\n    tokens.nth(1).unwrap().to_string()\n}\n\n\
              #[proc_macro_derive(Impls)]\npub fn impls(input: TokenStream) -> TokenStream {\n    let name = name_of(input);\n    format!(\"const _: () = {{ extern crate core as _core; #[automatically_derived] impl _core::clone::Clone for {name} {{ fn clone(&self) -> Self {{ {name}(self.0) }} }} }};\").parse().unwrap()\n}\n\n\
              #[proc_macro_derive(Elsewhere)]\npub fn elsewhere(_: TokenStream) -> TokenStream {\n    \"impl crate::a::Grow for u8 { fn grow(&self) -> usize { ::std::vec::Vec::<u8>::with_capacity(8).capacity() } }\".parse().unwrap()\n}\n";
    let (_dir, root) = package_with_proc_macro_crate(
        "derived",
        "pm",
        pm,
        &[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("src/a.rs", "pub trait Grow {\n    fn grow(&self) -> usize;\n}\n\n// noalloc:root\npub fn a_root() -> usize {\n    1u8.grow()\n}\n"),
            ("src/b.rs", "// noalloc:root\npub fn b_root(x: usize) -> usize {\n    x + 1\n}\n"),
        ],
    );
    let options = LoadOptions::default();
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    let reasons = finding_reasons;
    let first = c.analyze();
    assert_eq!(
        reasons(&first),
        vec!["call with no known callee: method `grow` (type inference did not resolve it)".to_owned()]
    );
    let impls = c.adding(c_text, "#[derive(pm::Impls)]\npub struct Derived(pub u32);");
    assert_eq!((reused(&impls), reasons(&impls)), ((2, 2), reasons(&first)));
    let fresh = c.fresh();
    assert_eq!((reasons(&impls), &impls.roots), (reasons(&fresh), &fresh.roots));
    let taken_out = c.edit(c_text);
    assert_eq!((reused(&taken_out), reasons(&taken_out)), ((2, 2), reasons(&first)));
    // An import binding the name the derive's path starts with: the path may
    // name another macro now.
    let shadowed = c.adding(c_text, "use ::pm as pm;\n\n#[derive(pm::Impls)]\npub struct Derived(pub u32);");
    assert_eq!((reused(&shadowed), reasons(&shadowed)), ((2, 0), reasons(&first)));
    let elsewhere = c.adding(c_text, "#[derive(pm::Elsewhere)]\npub struct Other;");
    assert_eq!(reused(&elsewhere), (1, 0));
    assert_eq!(reasons(&elsewhere), vec!["calls alloc::vec::Vec::<u8>::with_capacity".to_owned()]);
    let fresh = c.fresh();
    assert_eq!(
        (finding_lines(&elsewhere), reasons(&elsewhere), &elsewhere.roots),
        (finding_lines(&fresh), reasons(&fresh), &fresh.roots)
    );
}

/// A live workspace whose `src/c.rs` holds one function, `kept`, until an edit
/// rewrites it (on disk too).
struct EditsOfC<'a> {
    live: noalloc_ls::engine::edit::LiveWorkspace,
    root: PathBuf,
    path: PathBuf,
    options: noalloc_ls::engine::LoadOptions,
    config: &'a noalloc_ls::engine::CheckConfig,
}

impl<'a> EditsOfC<'a> {
    /// Writes `src/c.rs` under `root`, loads the workspace; gives the text written.
    fn load(
        root: &Path,
        options: &noalloc_ls::engine::LoadOptions,
        config: &'a noalloc_ls::engine::CheckConfig,
    ) -> (&'static str, EditsOfC<'a>) {
        let text = "pub fn kept() -> usize {\n    0\n}\n";
        let path = root.join("src/c.rs");
        std::fs::write(&path, text).unwrap();
        let ws = noalloc_ls::engine::Workspace::load(root, options, &|_| {}).expect("workspace loads");
        let (root, options) = (root.to_path_buf(), options.clone());
        (text, EditsOfC { live: noalloc_ls::engine::edit::LiveWorkspace::new(ws), root, path, options, config })
    }

    /// What a fresh load of the workspace as it is on disk now analyses to: what
    /// each answer of the live one must be.
    fn fresh(&self) -> noalloc_ls::engine::Analysis {
        noalloc_ls::engine::analyze(
            &noalloc_ls::engine::Workspace::load(&self.root, &self.options, &|_| {}).unwrap(),
            self.config,
        )
    }

    fn analyze(&mut self) -> noalloc_ls::engine::Analysis {
        self.live.analyze_here(self.config).unwrap().unwrap()
    }

    /// `src/c.rs` as loaded (`loaded`), then with `item` added at its end; the
    /// analysis after that.
    fn adding(&mut self, loaded: &str, item: &str) -> noalloc_ls::engine::Analysis {
        if self.live.file_text(&self.path).as_deref() != Some(loaded) {
            self.edit(loaded);
        }
        self.edit(&format!("{loaded}\n{item}\n"))
    }

    /// `src/c.rs` becomes `text`; the analysis after it.
    fn edit(&mut self, text: &str) -> noalloc_ls::engine::Analysis {
        std::fs::write(&self.path, text).unwrap();
        assert!(self.live.set_file_text(&self.path, text).unwrap());
        self.analyze()
    }
}

/// The reasons of each finding, joined, in the analysis's order.
fn finding_reasons(analysis: &noalloc_ls::engine::Analysis) -> Vec<String> {
    analysis.findings.iter().map(|f| f.reasons.join("; ")).collect()
}

/// The file name and line of each finding, sorted.
fn finding_lines(analysis: &noalloc_ls::engine::Analysis) -> Vec<(String, u32)> {
    let mut lines: Vec<_> = analysis
        .findings
        .iter()
        .map(|f| (f.location.file.file_name().unwrap().to_string_lossy().into_owned(), f.location.line))
        .collect();
    lines.sort();
    lines
}

/// A package `name` depending on a local procedural macro `pm::call_built!()`,
/// which builds the call `crate::c::built_name()` from two halves: a name no file
/// spells; and `pm::call_debugged!()`, which builds a call of std's `dbg!` so.
/// `files`: the package's own.
fn package_with_built_name_macro(name: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let pm = "use proc_macro::TokenStream;\n\n#[proc_macro]\npub fn call_built(_: TokenStream) -> TokenStream {\n    [\"crate::c::built\", \"_name()\"].concat().parse().unwrap()\n}\n\n\
              #[proc_macro]\npub fn call_debugged(_: TokenStream) -> TokenStream {\n    [\"::std::db\", \"g!(0usize)\"].concat().parse().unwrap()\n}\n";
    package_with_proc_macro_crate(name, "pm", pm, files)
}

/// A package `name` depending on a local procedural-macro crate named
/// `pm_name`, under `pm/`, whose `src/lib.rs` is `pm_lib`. `files`: the
/// package's own.
fn package_with_proc_macro_crate(
    name: &str,
    pm_name: &str,
    pm_lib: &str,
    files: &[(&str, &str)],
) -> (tempfile::TempDir, PathBuf) {
    let manifest = format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{pm_name} = {{ path = \"pm\" }}\n");
    let pm_manifest = format!(
        "[package]\nname = \"{pm_name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nproc-macro = true\n"
    );
    let mut all =
        vec![("Cargo.toml", manifest.as_str()), ("pm/Cargo.toml", pm_manifest.as_str()), ("pm/src/lib.rs", pm_lib)];
    all.extend_from_slice(files);
    crate::temp_package(name, &all)
}

/// A procedural macro may build a name no file spells: here `call_built!()` calls
/// `crate::c::built_name()`, whose name its source holds only in halves. A function
/// added under another name leaves the root reused without asking its walks; one
/// named as the expansion spells it is looked for there too, so the root is asked,
/// and its call now resolves and allocates. So is a root whose expansion calls a
/// library's macro that spells the name (`dbg!`, `tmp`). The answer is then a
/// fresh load's.
#[test]
fn a_name_a_procedural_macro_builds_is_looked_for_in_its_expansion() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions};

    let (_dir, root) = package_with_built_name_macro(
        "built",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod d;\n"),
            ("src/a.rs", "// noalloc:root\npub fn pm_root() -> usize {\n    pm::call_built!()\n}\n"),
            ("src/d.rs", "// noalloc:root\npub fn debugged_root() -> usize {\n    pm::call_debugged!()\n}\n"),
        ],
    );
    let options = LoadOptions::default();
    let config = CheckConfig::default();
    let (c_text, mut c) = EditsOfC::load(&root, &options, &config);
    // The findings outside d.rs, whose `dbg!` prints.
    let lines = |analysis: &noalloc_ls::engine::Analysis| {
        let mut lines = finding_lines(analysis);
        lines.retain(|(file, _)| file != "d.rs");
        lines
    };
    let first = c.analyze();
    // The expansion's call names nothing yet: no known callee, at the root's line.
    assert_eq!(lines(&first), vec![("a.rs".to_owned(), 3)], "{:#?}", first.findings);
    assert!(finding_lines(&first).iter().any(|(file, _)| file == "d.rs"), "{:#?}", first.findings);
    let mut edit = |text: &str| c.edit(text);
    let reused = |analysis: &noalloc_ls::engine::Analysis| reused(analysis);

    let other = edit(&format!("{c_text}\npub fn noalloc_other_name() -> usize {{\n    2\n}}\n"));
    assert_eq!(reused(&other), (2, 2));
    assert_eq!(lines(&other), lines(&first));
    // `dbg!`, called only in the expansion, spells `tmp`.
    let brought = edit(&format!("{c_text}\npub fn tmp() -> usize {{\n    3\n}}\n"));
    assert_eq!(reused(&brought), (2, 1));

    let built =
        edit(&format!("{c_text}\npub fn built_name() -> usize {{\n    Vec::<u8>::with_capacity(1).len()\n}}\n"));
    // `debugged_root`'s walks are unchanged.
    assert_eq!(reused(&built), (1, 0));
    assert_eq!(lines(&built), vec![("c.rs".to_owned(), 6)], "{:#?}", built.findings);

    let fresh = c.fresh();
    assert_eq!(finding_lines(&built), finding_lines(&fresh));
}

/// What an analysis tells a watch of its files: each time files are complete,
/// which, after how many roots, and the answer so far.
struct FirstFilesWatch {
    files: Vec<PathBuf>,
    judged: usize,
    told: Vec<(Vec<PathBuf>, usize, noalloc_ls::engine::Analysis)>,
}

impl FirstFilesWatch {
    fn of(files: Vec<PathBuf>) -> FirstFilesWatch {
        FirstFilesWatch { files, judged: 0, told: Vec::new() }
    }
}

impl noalloc_ls::engine::Watch for FirstFilesWatch {
    fn first_files(&self) -> &[PathBuf] {
        &self.files
    }

    fn root_judged(&mut self, judged: usize, _: usize) {
        self.judged = judged;
    }

    fn files_complete(&mut self, files: &[PathBuf], partial: &noalloc_ls::engine::Analysis) {
        self.told.push((files.to_vec(), self.judged, partial.clone()));
    }
}

/// A file no code outside it can reach into is complete once its own roots are
/// judged (its diagnostics go out then); a file whose functions a procedural macro
/// elsewhere names by a name it builds (or by a library's macro it calls), or which
/// has a trait impl, waits for every root's reach, and then holds what the roots
/// elsewhere find in it. Each watched file is sealed or not on its own.
#[test]
fn a_file_nothing_else_reaches_is_complete_after_its_own_roots() {
    use noalloc_ls::engine::{CheckConfig, LoadOptions, Workspace};

    let (_dir, root) = package_with_built_name_macro(
        "sealed",
        &[
            ("src/lib.rs", "pub mod a;\npub mod c;\npub mod d;\npub mod e;\npub mod f;\npub mod h;\n"),
            (
                "src/a.rs",
                "// noalloc:root\npub fn pm_root() -> usize {\n    pm::call_built!()\n}\n\n// noalloc:root\npub fn shift_root() {\n    let mut guard = crate::d::Guard;\n    guard <<= 1u8;\n}\n",
            ),
            (
                "src/c.rs",
                "// noalloc:root\npub fn c_root() -> usize {\n    built_name()\n}\n\npub fn built_name() -> usize {\n    Vec::<u8>::with_capacity(1).len()\n}\n",
            ),
            (
                "src/d.rs",
                "pub struct Guard;\n\nimpl core::ops::ShlAssign<u8> for Guard {\n    fn shl_assign(&mut self, _: u8) {\n        let _ = Vec::<u8>::with_capacity(1);\n    }\n}\n",
            ),
            (
                "src/e.rs",
                "// noalloc:root\n#[inline]\npub fn e_root() -> usize {\n    e_helper()\n}\n\nfn e_helper() -> usize {\n    format!(\"{}\", 1).len()\n}\n",
            ),
            ("src/f.rs", "// noalloc:root\npub fn f_root() -> usize {\n    tmp()\n}\n\npub fn tmp() -> usize {\n    1\n}\n"),
            ("src/h.rs", "// noalloc:root\npub fn h_root() -> usize {\n    pm::call_debugged!()\n}\n"),
        ],
    );
    let ws = Workspace::load(&root, &LoadOptions::default(), &|_| {}).expect("workspace loads");
    let config = CheckConfig::default();
    // Each time files are told complete: which, after how many roots, whether
    // before the other roots were reached, and their findings.
    let tells = |files: &[&str]| {
        let mut watch = FirstFilesWatch::of(files.iter().map(|file| root.join(file)).collect());
        let whole = noalloc_ls::engine::analyze_watched(&ws, &config, None, None, &mut watch);
        let told = watch.told.into_iter().map(|(files, judged, partial)| {
            let names: Vec<String> =
                files.iter().map(|file| file.strip_prefix(&root).unwrap().display().to_string()).collect();
            let mut findings: Vec<_> = partial
                .findings
                .iter()
                .filter(|finding| files.contains(&finding.location.file))
                .map(|finding| (finding.function.clone(), finding.location.line, finding.roots.clone()))
                .collect();
            findings.sort();
            (names, judged, partial.timings.bodies_walked < whole.timings.bodies_walked, findings)
        });
        told.collect::<Vec<_>>()
    };
    let first_told = |file: &str| {
        let mut told = tells(&[file]);
        assert_eq!(told.len(), 1);
        let (_, judged, before_the_rest, findings) = told.remove(0);
        (judged, before_the_rest, findings)
    };
    let roots = |names: &[&str]| names.iter().map(|name| format!("sealed::{name}")).collect::<Vec<_>>();
    // Sealed: told after its one root, before the other roots are reached, with
    // what that root finds.
    let (judged, before_the_rest, findings) = first_told("src/e.rs");
    assert_eq!((judged, before_the_rest), (1, true));
    assert_eq!(findings, vec![("sealed::e::e_helper".to_owned(), 8, roots(&["e::e_root"]))]);
    // The procedural macro in `a.rs` builds `built_name`: told after every root is
    // reached, with both roots at `built_name`'s line.
    let (_, before_the_rest, findings) = first_told("src/c.rs");
    assert!(!before_the_rest);
    assert_eq!(findings, vec![("sealed::c::built_name".to_owned(), 7, roots(&["a::pm_root", "c::c_root"]))]);
    // An operator runs the impl in `d.rs`, and no file spells `shl_assign`: the
    // same.
    let (_, before_the_rest, findings) = first_told("src/d.rs");
    assert!(!before_the_rest);
    assert_eq!(findings, vec![("sealed::d::Guard::shl_assign".to_owned(), 5, roots(&["a::shift_root"]))]);
    // std's `dbg!` spells `tmp`, and the procedural macro in `h.rs` calls it: the
    // same.
    let (_, before_the_rest, _) = first_told("src/f.rs");
    assert!(!before_the_rest);
    // Each watched file on its own: `e.rs` is told after its root, before the
    // rest is reached, though `c.rs` beside it is not sealed.
    let told = tells(&["src/c.rs", "src/e.rs"]);
    let heads: Vec<_> =
        told.iter().map(|(files, judged, before_the_rest, _)| (files.clone(), *judged, *before_the_rest)).collect();
    assert_eq!(heads[0], (vec!["src/e.rs".to_owned()], 1, true), "{told:?}");
    assert_eq!((&heads[1].0, heads[1].2), (&vec!["src/c.rs".to_owned()], false), "{told:?}");
    assert_eq!(told.len(), 2);
}

/// Every file of `specifics`, watched alone: what the analysis tells complete
/// about it (findings with their roots and chains, errors, exemptions) is what the
/// whole analysis says about it, whether the file is sealed and told after its own
/// roots, or told after every root's reach.
#[test]
fn each_file_told_complete_holds_what_the_whole_analysis_says_of_it() {
    let shared = crate::fixture("specifics");
    let fixture = shared.lock().unwrap_or_else(|e| e.into_inner());
    let config = noalloc_ls::engine::CheckConfig::default().with_manifest(&fixture.ws.root).expect("fixture manifest");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(fixture.ws.root.join("src")).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.sort();
    let mut sealed = Vec::new();
    for file in files {
        let mut watch = FirstFilesWatch::of(vec![file.clone()]);
        let whole = noalloc_ls::engine::analyze_watched(&fixture.ws, &config, None, None, &mut watch);
        assert_eq!(watch.told.len(), 1, "told once");
        let (told_files, _, partial) = watch.told.remove(0);
        assert_eq!(told_files, std::slice::from_ref(&file), "for the one file");
        let walked = partial.timings.bodies_walked;
        let findings = |analysis: &noalloc_ls::engine::Analysis| -> Vec<noalloc_ls::engine::Finding> {
            analysis.findings.iter().filter(|finding| finding.location.file == file).cloned().collect()
        };
        let errors = |analysis: &noalloc_ls::engine::Analysis| -> Vec<noalloc_ls::engine::ErrorFinding> {
            analysis.errors.iter().filter(|error| error.location.file == file).cloned().collect()
        };
        let exemptions = |analysis: &noalloc_ls::engine::Analysis| -> Vec<noalloc_ls::engine::ExemptionReport> {
            analysis.exemptions.iter().filter(|exemption| exemption.location.file == file).cloned().collect()
        };
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(findings(&partial), findings(&whole), "{name}");
        assert_eq!(errors(&partial), errors(&whole), "{name}");
        assert_eq!(exemptions(&partial), exemptions(&whole), "{name}");
        if walked < whole.timings.bodies_walked {
            sealed.push(name);
        }
    }
    // Told before the other roots were reached (with `soundness` and `precision`
    // too, every file holds; there only `soundness`'s `lib.rs` is sealed).
    // `foreign.rs` defines names that only macros of std `specifics` never calls
    // spell.
    assert_eq!(
        sealed,
        ["closures.rs", "containers.rs", "exemptions.rs", "foreign.rs", "lib.rs", "recursion.rs", "reused.rs"]
    );
}
