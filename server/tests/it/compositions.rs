//! A property: random compositions of small helpers, each allocating or clean,
//! joined by the ways an engine can lose track of a call — a direct call, a `dyn`
//! in a struct field, a fn-pointer table in a static, `.await`, a temporary's drop —
//! are generated as a crate; the engine must never call a root clean when one of
//! its helpers allocates.

use std::fmt::Write as _;

use noalloc_ls::engine::{analyze, CheckConfig, LoadOptions, Workspace};
use proptest::prelude::*;

/// How a root reaches its helper.
#[derive(Clone, Copy, Debug)]
enum Link {
    Direct,
    DynField,
    FnTable,
    Await,
    TemporaryDrop,
}

/// One root: a chain of links down to a helper that allocates or not.
#[derive(Clone, Debug)]
struct Case {
    links: Vec<Link>,
    allocates: bool,
}

fn link() -> impl Strategy<Value = Link> {
    prop_oneof![
        Just(Link::Direct),
        Just(Link::DynField),
        Just(Link::FnTable),
        Just(Link::Await),
        Just(Link::TemporaryDrop),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (proptest::collection::vec(link(), 1..4), any::<bool>()).prop_map(|(links, allocates)| Case { links, allocates })
}

/// The source of one case: `root_N` calls `step_N_0`, which reaches `step_N_1` by
/// the first link, and so on down to the leaf.
fn case_source(n: usize, case: &Case) -> String {
    let mut src = String::new();
    let depth = case.links.len();
    let leaf = if case.allocates { "vec![x as u8; 3].len() as u32" } else { "x.wrapping_mul(3)" };
    writeln!(src, "fn step_{n}_{depth}(x: u32) -> u32 {{ {leaf} }}").unwrap();
    for (i, link) in case.links.iter().enumerate().rev() {
        let next = format!("step_{n}_{}", i + 1);
        let body = match link {
            Link::Direct => format!("{next}(x)"),
            Link::DynField => {
                writeln!(src, "pub trait Hop{n}_{i} {{ fn hop(&self, x: u32) -> u32; }}").unwrap();
                writeln!(src, "pub struct Via{n}_{i};").unwrap();
                writeln!(src, "impl Hop{n}_{i} for Via{n}_{i} {{ fn hop(&self, x: u32) -> u32 {{ {next}(x) }} }}")
                    .unwrap();
                writeln!(src, "pub struct Holder{n}_{i} {{ pub hop: Box<dyn Hop{n}_{i}> }}").unwrap();
                writeln!(
                    src,
                    "pub fn holder_{n}_{i}() -> Holder{n}_{i} {{ Holder{n}_{i} {{ hop: Box::new(Via{n}_{i}) }} }}"
                )
                .unwrap();
                writeln!(src, "fn through_{n}_{i}(h: &Holder{n}_{i}, x: u32) -> u32 {{ h.hop.hop(x) }}").unwrap();
                format!("{{ static H: std::sync::OnceLock<Holder{n}_{i}> = std::sync::OnceLock::new(); through_{n}_{i}(H.get_or_init(holder_{n}_{i}), x) }}")
            }
            Link::FnTable => {
                writeln!(src, "static TABLE_{n}_{i}: [fn(u32) -> u32; 1] = [{next}];").unwrap();
                format!("TABLE_{n}_{i}[0](x)")
            }
            Link::Await => {
                writeln!(src, "async fn later_{n}_{i}(x: u32) -> u32 {{ {next}(x) }}").unwrap();
                writeln!(src, "async fn awaits_{n}_{i}(x: u32) -> u32 {{ later_{n}_{i}(x).await }}").unwrap();
                format!("poll_once(awaits_{n}_{i}(x))")
            }
            Link::TemporaryDrop => {
                writeln!(src, "pub struct Guard{n}_{i}(u32);").unwrap();
                writeln!(
                    src,
                    "impl Drop for Guard{n}_{i} {{ fn drop(&mut self) {{ std::hint::black_box({next}(self.0)); }} }}"
                )
                .unwrap();
                writeln!(src, "impl Guard{n}_{i} {{ fn get(&self) -> u32 {{ self.0 }} }}").unwrap();
                format!("Guard{n}_{i}(x).get()")
            }
        };
        writeln!(src, "fn step_{n}_{i}(x: u32) -> u32 {{ {body} }}").unwrap();
    }
    writeln!(src, "// noalloc:root\npub fn root_{n}(x: u32) -> u32 {{ step_{n}_0(x) }}").unwrap();
    src
}

const PRELUDE: &str = r#"
pub fn poll_once<F: std::future::Future<Output = u32>>(f: F) -> u32 {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match f.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(x) => x,
        std::task::Poll::Pending => 0,
    }
}
"#;

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn an_allocating_composition_is_never_called_clean(cases in proptest::collection::vec(case(), 12..16)) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"composed\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
        ).unwrap();
        let mut lib = String::from(PRELUDE);
        for (n, case) in cases.iter().enumerate() {
            lib.push_str(&case_source(n, case));
        }
        std::fs::write(dir.path().join("src/lib.rs"), &lib).unwrap();
        let ws = Workspace::load(dir.path(), &LoadOptions::default(), &|_| {}).expect("loads");
        let analysis = analyze(&ws, &CheckConfig::default());
        for (n, case) in cases.iter().enumerate() {
            let name = format!("composed::root_{n}");
            let root = analysis.roots.iter().find(|r| r.function == name).expect("every root is checked");
            if case.allocates {
                prop_assert!(root.findings > 0, "{name} ({:?}) allocates but was judged clean\n{lib}", case.links);
            }
        }
    }
}
