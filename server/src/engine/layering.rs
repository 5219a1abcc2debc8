//! The engine's layers, checked: the proof (`proof/`) never names the reuse
//! machinery (`reuse/`), so that a diff's paths tell whether it touches what the
//! verdicts are or only how fast they come. What the proof needs of reuse it
//! defines itself and reuse implements (`proof::summary::Summaries`).

use std::path::Path;

/// Each code line of `text` (comments left out) that names `reuse` or one of
/// `modules`, with its 1-based number.
fn lines_naming(text: &str, modules: &[String]) -> Vec<(usize, String)> {
    let names: Vec<String> = std::iter::once("reuse".to_owned()).chain(modules.iter().cloned()).collect();
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let code = line.split("//").next().unwrap_or_default();
            let named = names.iter().any(|name| {
                code.match_indices(&format!("{name}::"))
                    .any(|(at, _)| !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
            });
            named.then(|| (i + 1, line.trim().to_owned()))
        })
        .collect()
}

/// The modules `reuse/mod.rs` declares.
fn reuse_modules(engine: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(engine.join("reuse/mod.rs")).expect("reuse/mod.rs");
    text.lines()
        .filter_map(|line| line.trim().strip_suffix(';')?.rsplit_once("mod ").map(|(_, name)| name.to_owned()))
        .collect()
}

#[test]
fn the_proof_never_names_the_reuse_machinery() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let modules = reuse_modules(&engine);
    assert!(modules.contains(&"summary_cache".to_owned()), "{modules:?}");
    let mut offending = Vec::new();
    for entry in std::fs::read_dir(engine.join("proof")).expect("proof/") {
        let path = entry.expect("a proof file").path();
        let text = std::fs::read_to_string(&path).expect("a proof file");
        for (line, code) in lines_naming(&text, &modules) {
            offending.push(format!("{}:{line}: {code}", path.display()));
        }
    }
    assert!(
        offending.is_empty(),
        "the proof names the reuse machinery (ARCHITECTURE.md, \"Layers\"):\n{}",
        offending.join("\n")
    );
}

#[test]
fn a_line_that_names_reuse_is_seen() {
    let modules = vec!["summary_cache".to_owned(), "edit".to_owned()];
    let text = "use crate::engine::reuse::edit::LiveWorkspace;\nlet c = summary_cache::open();\n// reuse::edit in a comment\nlet x = my_edit::f();\n";
    let lines: Vec<usize> = lines_naming(text, &modules).into_iter().map(|(line, _)| line).collect();
    assert_eq!(lines, [1, 2]);
}
