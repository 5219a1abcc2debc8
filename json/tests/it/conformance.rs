//! JSONTestSuite (`tests/data/JSONTestSuite/test_parsing`, vendored with its MIT
//! licence and `SOURCE.txt`): every `y_` file is accepted, every `n_` file
//! rejected, and every `i_` file handled without panic and decoded (accepted or
//! refused) as serde_json decodes it. The treatment is also
//! the golden list `jsontestsuite_i.txt`, rewritten with `UPDATE_EXPECT=1`.

use std::fmt::Write as _;
use std::path::Path;

/// A path under the package, as `cargo test` names the package now: a target
/// directory shared between checkouts may hand this one a binary another built.
fn in_package(path: &str) -> std::path::PathBuf {
    let package = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
    Path::new(&package).join(path)
}

fn suite_dir() -> std::path::PathBuf {
    in_package("tests/data/JSONTestSuite/test_parsing")
}

fn golden_path() -> std::path::PathBuf {
    in_package("tests/it/jsontestsuite_i.txt")
}

fn files(prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(suite_dir())
        .expect("JSONTestSuite, vendored under json/tests/data")
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

/// Our verdict when decoding (through the serde bridge into `serde_json::Value`,
/// which must then equal serde_json's), and the validator's. The validator checks
/// syntax only, so it may accept a number too large for `f64` that decoding
/// refuses; otherwise they agree.
fn ours(input: &[u8]) -> (Result<(), json::Error>, Result<(), json::Error>) {
    let validated = json::validate(input);
    let mut arena = vec![0u8; input.len()];
    let decoded = json::from_slice_serde::<serde_json::Value>(input, json::Arena::new(&mut arena));
    if let Ok(v) = &decoded {
        assert_eq!(
            Some(v),
            serde_json::from_slice::<serde_json::Value>(input).ok().as_ref(),
            "value differs from serde_json's"
        );
    }
    let decoded = decoded.map(drop);
    match (&decoded, &validated) {
        (Ok(()), Ok(())) | (Err(_), Err(_)) => {}
        (Err(e), Ok(())) => assert_eq!(e.kind(), json::ErrorKind::NumberOutOfRange),
        (Ok(()), Err(e)) => panic!("validator refuses what decodes: {e}"),
    }
    (decoded, validated)
}

#[test]
fn accepts_every_y_file() {
    let y = files("y_");
    assert!(y.len() > 90, "found {} y_ files", y.len());
    let refused: Vec<String> =
        y.iter().filter_map(|(name, input)| ours(input).0.err().map(|e| format!("{name}: {e}"))).collect();
    assert_eq!(refused, Vec::<String>::new());
}

#[test]
fn rejects_every_n_file() {
    let n = files("n_");
    assert!(n.len() > 180, "found {} n_ files", n.len());
    let accepted: Vec<&String> = n.iter().filter(|(_, input)| ours(input).1.is_ok()).map(|(name, _)| name).collect();
    assert_eq!(accepted, Vec::<&String>::new());
}

#[test]
fn i_files_are_treated_as_listed() {
    let verdict = |r: Result<(), json::Error>| match r {
        Ok(()) => "accepted".to_owned(),
        Err(e) => format!("rejected ({:?})", e.kind()),
    };
    let mut list = String::from(
        "# How each JSONTestSuite i_ file is treated: decoding (into serde_json::Value through the\n\
         # serde bridge), validation (json::validate, syntax only), serde_json's decoding.\n",
    );
    let mut disagree = Vec::new();
    for (name, input) in files("i_") {
        let (decoded, validated) = ours(&input);
        let theirs_ok = serde_json::from_slice::<serde_json::Value>(&input).is_ok();
        if decoded.is_ok() != theirs_ok {
            disagree.push(name.clone());
        }
        let theirs = if theirs_ok { "accepted" } else { "rejected" };
        writeln!(list, "{name}\tdecode {}\tvalidate {}\tserde_json {theirs}", verdict(decoded), verdict(validated))
            .unwrap();
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(golden_path(), &list).unwrap();
    }
    let golden = std::fs::read_to_string(golden_path()).unwrap_or_default();
    assert_eq!(list, golden, "i_ treatment changed: rerun with UPDATE_EXPECT=1 and review the diff");
    // Whatever the list records, decoding accepts exactly what serde_json accepts.
    assert_eq!(disagree, Vec::<String>::new(), "i_ files decoded differently from serde_json");
}
