//! `--html FILE` and `--message-format html`: one self-contained page with a
//! summary by crate and module, each root's verdict, each finding with its excerpt
//! and folded chain, and the exemptions with what they let through. The page in a
//! real browser (a chain opened, no request made) is `.ci/parts/html-report.sh`.

use crate::cli::{noalloc, run};
use crate::test_data;

/// The `<tag ...>...</tag>` elements of `page` whose opening tag starts with `open`.
fn elements<'a>(page: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    page.match_indices(open)
        .map(|(at, _)| {
            let end = page[at..].find(close).map_or(page.len(), |end| at + end + close.len());
            &page[at..end]
        })
        .collect()
}

/// The numbers in a table row's cells.
fn numbers(row: &str) -> Vec<usize> {
    row.split("<td").filter_map(|cell| cell.split_once('>')?.1.split('<').next()?.parse().ok()).collect()
}

#[test]
fn the_page_holds_every_root_finding_and_exemption_and_loads_nothing() {
    let fixture = test_data("specifics");
    let dir = tempfile::tempdir().unwrap();
    let page_path = dir.path().join("reports/noalloc.html");
    std::fs::create_dir_all(page_path.parent().unwrap()).unwrap();
    let args = ["--check", fixture.to_str().unwrap(), "--no-cache", "--message-format", "short"];
    let (code, stdout, stderr) = run(noalloc(&args).args(["--html", page_path.to_str().unwrap()]));
    assert_eq!(code, 1, "{stderr}");
    // The chosen format still goes to stdout; the page to its file.
    let findings = stdout.lines().filter(|line| !line.contains(": error: ")).count();
    let errors = stdout.lines().filter(|line| line.contains(": error: ")).count();
    assert!(findings > 10 && errors > 0, "{stdout}");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(page_path.parent().unwrap()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "written atomically: no temporary file left");

    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.trim_end().ends_with("</html>"));
    // Self-contained: nothing to fetch, and a policy that forbids fetching.
    assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\""));
    for external in ["src=", "<link", "http://", "https://", "url(", "@import", "<iframe", "<img"] {
        assert!(!page.contains(external), "the page names `{external}`");
    }

    // Each finding: its excerpt with the span marked, and its chain folded.
    let articles = elements(&page, "<article class=\"finding\"", "</article>");
    assert_eq!(articles.len(), findings);
    for article in &articles {
        assert!(article.contains("<pre class=\"excerpt\">") && article.contains("<mark>"), "{article}");
        assert!(article.contains("<details class=\"chain\"><summary>call chain: "), "{article}");
        assert!(!article.contains("<details class=\"chain\" open"), "folded until clicked: {article}");
        assert!(article.contains("reached from root"), "{article}");
    }
    assert_eq!(elements(&page, "<article class=\"error\"", "</article>").len(), errors);

    // Each root with its verdict; the summary adds up to them.
    let roots = elements(&page, "<tr class=\"root\"", "</tr>");
    assert!(page.contains(&format!("{} roots checked", roots.len())), "{}", &page[..2000]);
    let verdict = |root: &str| root.split("data-verdict=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    let clean = roots.iter().filter(|root| verdict(root) == "clean").count();
    assert!(clean > 0 && clean < roots.len());
    assert!(roots
        .iter()
        .all(|root| ["clean", "allocates", "error", "baselined", "internal error"].contains(&verdict(root).as_str())));
    let summary = elements(&page, "<tr data-crate=", "</tr>");
    let totals = summary.iter().map(|row| numbers(row)).fold(vec![0; 6], |sum, row| {
        assert_eq!(row.len(), 6, "roots, clean, findings, errors, exempted, baselined: {row:?}");
        sum.iter().zip(&row).map(|(a, b)| a + b).collect()
    });
    assert_eq!(totals[..4], [roots.len(), clean, findings, errors]);
    let exemptions_row = summary
        .iter()
        .find(|row| row.contains("data-module=\"specifics::exemptions\""))
        .expect("a row for the module of the exemptions");
    assert!(exemptions_row.starts_with("<tr data-crate=\"specifics\""), "{exemptions_row}");

    // The exemptions, each with what it lets through.
    let exemptions = elements(&page, "<tr class=\"exemption\"", "</tr>");
    assert_eq!(exemptions.len(), totals[4]);
    assert!(exemptions.iter().any(|row| row.contains("<li>calls alloc::string::String::from</li>")), "{exemptions:#?}");
    assert!(exemptions.iter().any(|row| row.contains("<span class=\"none\">nothing</span>")), "{exemptions:#?}");
}

#[test]
fn message_format_html_prints_the_page() {
    let fixture = test_data("example");
    let args = ["--check", fixture.to_str().unwrap(), "--no-cache", "--message-format", "html"];
    let (code, stdout, stderr) = run(&mut noalloc(&args));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.starts_with("<!DOCTYPE html>"));
    let roots = elements(&stdout, "<tr class=\"root\"", "</tr>");
    let verdicts: Vec<(bool, bool)> = roots
        .iter()
        .map(|root| (root.contains("example::handle"), root.contains("data-verdict=\"allocates\"")))
        .collect();
    assert_eq!(verdicts.len(), 2);
    assert!(verdicts.contains(&(true, true)), "handle allocates: {roots:#?}");
    assert!(verdicts.contains(&(false, false)), "checksum is clean: {roots:#?}");
    // The chain down to the allocator, one call a line.
    let chain = elements(&stdout, "<details class=\"chain\">", "</details>");
    assert_eq!(chain.len(), 1);
    assert!(
        chain[0].contains(
            "<li><code>example::log_request</code> calls <code>alloc::fmt::format</code> at src/lib.rs:30:16</li>"
        ),
        "{}",
        chain[0]
    );
    assert!(chain[0].contains("__rust_alloc"), "{}", chain[0]);
}
