//! `cargo noalloc --message-format json`: cargo's JSON stream, read line by line as
//! rust-analyzer's flycheck reads the output of `check.overrideCommand`
//! (`crates/rust-analyzer/src/flycheck.rs`: a line is a `cargo_metadata::Message`,
//! else a bare rustc `Diagnostic`), with the very `cargo_metadata` release
//! rust-analyzer 0.0.348 builds with. The real rust-analyzer reading it over LSP is
//! `.ci/parts/rust-analyzer-check.sh`.

use std::path::Path;
use std::process::Command;

use cargo_metadata::diagnostic::{Diagnostic, DiagnosticLevel, DiagnosticSpan};
use cargo_metadata::Message;

use crate::cli::run;
use crate::{temp_package, test_data};

/// A line of the stream as rust-analyzer's `JsonMessage` takes it.
#[derive(Debug, serde::Deserialize)]
#[serde(untagged)]
enum JsonMessage {
    Cargo(Message),
    Rustc(Diagnostic),
}

/// `cargo noalloc --message-format json` run in `dir`, as rust-analyzer runs its
/// override command in the workspace root: the exit status, each stdout line
/// parsed, and the raw lines.
fn cargo_noalloc_json(dir: &Path) -> (i32, Vec<JsonMessage>, Vec<String>) {
    cargo_noalloc_json_cached(dir, None)
}

/// As `cargo_noalloc_json`, storing its analyses and summaries in `cache` when
/// given (else with `--no-cache`).
fn cargo_noalloc_json_cached(dir: &Path, cache: Option<&Path>) -> (i32, Vec<JsonMessage>, Vec<String>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-noalloc"));
    cmd.args(["noalloc", "--message-format", "json"]).current_dir(dir).env_remove("NOALLOC_LOG");
    match cache {
        Some(cache) => cmd.env("NOALLOC_CACHE_DIR", cache),
        None => cmd.arg("--no-cache"),
    };
    let (code, stdout, stderr) = run(&mut cmd);
    let messages = stdout
        .lines()
        .map(|line| serde_json::from_str::<JsonMessage>(line).unwrap_or_else(|err| panic!("{err}: {line}\n{stderr}")))
        .collect();
    (code, messages, stdout.lines().map(str::to_owned).collect())
}

fn compiler_messages(messages: &[JsonMessage]) -> Vec<&cargo_metadata::CompilerMessage> {
    messages
        .iter()
        .filter_map(|message| match message {
            JsonMessage::Cargo(Message::CompilerMessage(message)) => Some(message),
            JsonMessage::Rustc(diagnostic) => panic!("a bare diagnostic, in no package: {}", diagnostic.message),
            _ => None,
        })
        .collect()
}

fn primary_span(diagnostic: &Diagnostic) -> &DiagnosticSpan {
    let primary: Vec<_> = diagnostic.spans.iter().filter(|span| span.is_primary).collect();
    assert_eq!(primary.len(), 1, "{diagnostic:#?}");
    primary[0]
}

/// rust-analyzer's source and code of a diagnostic: an RFC 2103 scoped code
/// (`clippy::x`) gives its tool as the source, as for clippy's lints.
fn source_and_code(diagnostic: &Diagnostic) -> (&str, &str) {
    let code = &diagnostic.code.as_ref().expect("a code").code;
    code.split_once("::").unwrap_or(("rustc", code))
}

#[test]
fn a_finding_is_a_compiler_message_of_its_package_then_the_build_finishes() {
    let root = test_data("example");
    let (code, messages, lines) = cargo_noalloc_json(&root);
    assert_eq!(code, 1);
    // As cargo prints them: `reason` first.
    assert!(lines.iter().all(|line| line.starts_with("{\"reason\":\"")), "{lines:#?}");
    assert!(
        matches!(messages.last(), Some(JsonMessage::Cargo(Message::BuildFinished(finished))) if !finished.success),
        "{messages:#?}"
    );
    let findings = compiler_messages(&messages);
    assert_eq!(findings.len(), 1, "{messages:#?}");
    let finding = findings[0];

    let metadata = offline_metadata(&root);
    let package = &metadata.packages[0];
    assert_eq!(finding.package_id, package.id);
    assert_eq!(finding.target.name, "example");
    assert_eq!(finding.target.src_path, package.targets[0].src_path);

    let diagnostic = &finding.message;
    assert_eq!(diagnostic.level, DiagnosticLevel::Error);
    assert_eq!(source_and_code(diagnostic), ("noalloc", "allocation"));
    assert!(diagnostic.code.as_ref().unwrap().explanation.as_deref().is_some_and(|text| text.contains("allocates")));
    assert_eq!(diagnostic.message, "`example::log_request` can allocate: calls alloc::fmt::format");

    let span = primary_span(diagnostic);
    assert_eq!(span.file_name, "src/lib.rs", "relative to the workspace root, as cargo's");
    assert_eq!((span.line_start, span.line_end, span.column_start, span.column_end), (30, 30, 16, 23));
    let source = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    assert_eq!(&source[span.byte_start as usize..span.byte_end as usize], "format!");
    assert_eq!(span.text[0].text, "    let line = format!(\"GET {path}\");");
    assert_eq!((span.text[0].highlight_start, span.text[0].highlight_end), (16, 23));
    assert_eq!(span.label.as_deref(), Some("calls alloc::fmt::format"));

    // The root that reaches it: a secondary span, rust-analyzer's related information.
    let secondary: Vec<_> = diagnostic.spans.iter().filter(|span| !span.is_primary).collect();
    assert_eq!(secondary.len(), 1);
    assert_eq!(
        (secondary[0].line_start, secondary[0].label.as_deref()),
        (23, Some("root `example::handle` reaches it"))
    );

    let children: Vec<(DiagnosticLevel, &str)> =
        diagnostic.children.iter().map(|child| (child.level, child.message.as_str())).collect();
    assert_eq!(
        children[..2],
        [
            (DiagnosticLevel::Note, "reached from root `example::handle`"),
            (DiagnosticLevel::Note, "first allocates in alloc::vec::Vec::<u8>::with_capacity"),
        ]
    );
    assert_eq!(children.last().map(|(level, _)| level), Some(&DiagnosticLevel::Help));
    let rendered = diagnostic.rendered.as_deref().unwrap();
    assert!(rendered.starts_with("error[noalloc]: `example::log_request` can allocate"), "{rendered}");
    assert!(rendered.contains("  --> src/lib.rs:30:16\n"), "{rendered}");
}

/// rustc's columns count characters; the engine's count bytes.
#[test]
fn columns_count_characters_and_byte_offsets_count_bytes() {
    let lib = r#"// noalloc:root
pub fn greet(name: &str) -> usize {
    let s = "héllo—"; let owned = String::from(name);
    s.len() + owned.len()
}
"#;
    let (_dir, root) = temp_package("greeting", &[("src/lib.rs", lib)]);
    let (code, messages, _) = cargo_noalloc_json(&root);
    assert_eq!(code, 1);
    let findings = compiler_messages(&messages);
    assert_eq!(findings.len(), 1, "{messages:#?}");
    let span = primary_span(&findings[0].message);
    let line = lib.lines().nth(2).unwrap();
    let byte_column = line.find("String::from").unwrap();
    let char_column = line[..byte_column].chars().count();
    assert_eq!(span.column_start, char_column + 1);
    assert_eq!(span.text[0].highlight_start, char_column + 1);
    assert!(lib[span.byte_start as usize..span.byte_end as usize].starts_with("String::from"), "{span:#?}");
}

#[test]
fn a_clean_workspace_is_a_successful_build() {
    let (code, messages, lines) = cargo_noalloc_json(&test_data("clean"));
    assert_eq!(code, 0);
    assert_eq!(lines.last().map(String::as_str), Some("{\"reason\":\"build-finished\",\"success\":true}"));
    assert!(
        matches!(&messages[..], [JsonMessage::Cargo(Message::CompilerArtifact(artifact)), JsonMessage::Cargo(Message::BuildFinished(finished))]
            if finished.success && artifact.target.name == "clean"),
        "{messages:#?}"
    );
}

/// As `cargo check` prints them: each checked package's messages, then its
/// `compiler-artifact` (what tells rust-analyzer's flycheck that the package was
/// checked, so that with `check.workspace = false` its stale diagnostics go),
/// under `cargo metadata`'s package ids. A package without roots is not checked.
/// A second run that reads the stored analysis back is `fresh`, as cargo's
/// replayed units are, and prints the same messages.
#[test]
fn each_checked_package_s_messages_are_followed_by_its_artifact() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let members = [
        ("alpha", "// noalloc:root\npub fn label(n: u32) -> String {\n    n.to_string()\n}\n"),
        ("beta", "// noalloc:root\npub fn twice(n: u32) -> u32 {\n    n * 2\n}\n"),
        ("gamma", "pub fn unchecked() -> Vec<u8> {\n    Vec::new()\n}\n"),
    ];
    let manifest = "[workspace]\nmembers = [\"alpha\", \"beta\", \"gamma\"]\nresolver = \"2\"\n";
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    for (name, lib) in members {
        std::fs::create_dir_all(root.join(name).join("src")).unwrap();
        let features = if name == "alpha" { "[features]\ndefault = [\"fast\"]\nfast = []\n" } else { "" };
        let package = format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n{features}");
        std::fs::write(root.join(name).join("Cargo.toml"), package).unwrap();
        std::fs::write(root.join(name).join("src/lib.rs"), lib).unwrap();
    }
    let metadata = offline_metadata(&root);
    let id_of = |name: &str| metadata.packages.iter().find(|p| p.name.as_str() == name).unwrap().id.clone();

    let cache = tempfile::tempdir().unwrap();
    let (code, messages, first_lines) = cargo_noalloc_json_cached(&root, Some(cache.path()));
    assert_eq!(code, 1);
    // (reason, package id, target name, fresh) of each line.
    let outline = |messages: &[JsonMessage]| -> Vec<(&'static str, String, String, Option<bool>)> {
        messages
            .iter()
            .map(|message| match message {
                JsonMessage::Cargo(Message::CompilerMessage(m)) => {
                    ("message", m.package_id.repr.clone(), m.target.name.clone(), None)
                }
                JsonMessage::Cargo(Message::CompilerArtifact(a)) => {
                    ("artifact", a.package_id.repr.clone(), a.target.name.clone(), Some(a.fresh))
                }
                JsonMessage::Cargo(Message::BuildFinished(_)) => ("finished", String::new(), String::new(), None),
                other => panic!("not in noalloc's stream: {other:?}"),
            })
            .collect()
    };
    let (alpha, beta) = (id_of("alpha").repr, id_of("beta").repr);
    let expected = |fresh: bool| {
        vec![
            ("message", alpha.clone(), "alpha".to_owned(), None),
            ("artifact", alpha.clone(), "alpha".to_owned(), Some(fresh)),
            ("artifact", beta.clone(), "beta".to_owned(), Some(fresh)),
            ("finished", String::new(), String::new(), None),
        ]
    };
    assert_eq!(outline(&messages), expected(false));
    let JsonMessage::Cargo(Message::CompilerArtifact(artifact)) = &messages[1] else { unreachable!() };
    let package = metadata.packages.iter().find(|p| p.id == artifact.package_id).unwrap();
    assert_eq!(artifact.manifest_path, package.manifest_path);
    assert_eq!(artifact.target.src_path, package.targets[0].src_path);
    assert_eq!(artifact.target.kind, package.targets[0].kind);
    assert!(artifact.filenames.is_empty() && artifact.executable.is_none(), "{artifact:#?}");
    assert!(artifact.profile.debug_assertions, "{artifact:#?}");
    assert_eq!(artifact.features, ["default", "fast"], "as cargo resolves them");

    let (code, messages, lines) = cargo_noalloc_json_cached(&root, Some(cache.path()));
    assert_eq!(code, 1);
    assert_eq!(outline(&messages), expected(true));
    assert_eq!(lines[0], first_lines[0], "the same message, replayed");
}

/// `cargo metadata` of the workspace at `root`, its own packages, offline.
fn offline_metadata(root: &std::path::Path) -> cargo_metadata::Metadata {
    cargo_metadata::MetadataCommand::new()
        .manifest_path(root.join("Cargo.toml"))
        .no_deps()
        .other_options(vec!["--offline".to_owned()])
        .exec()
        .unwrap()
}
