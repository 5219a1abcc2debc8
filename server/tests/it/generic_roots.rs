//! A generic root is checked at every instantiation the workspace makes of it,
//! those that arise only through generic code included: a generic caller, a
//! blanket impl, an `impl Trait` argument, a generic method, a closure inside a
//! generic function, a method of a generic impl, a trait's default method. When
//! the chain cannot be followed to concrete types (too deep, a caller code
//! outside the workspace instantiates, a `dyn` receiver), the root is still
//! reported, never checked at fewer instantiations and called clean.

use noalloc_ls::engine::{analyze, Analysis, CheckConfig, LoadOptions, Workspace};

const SHAPES: &str = r#"
pub trait Shape {
    fn area(&self) -> usize;
}

pub struct Blob;

impl Shape for Blob {
    fn area(&self) -> usize {
        std::hint::black_box(vec![1u8; 3]).len()
    }
}

pub struct Sq;

impl Shape for Sq {
    fn area(&self) -> usize {
        1
    }
}
"#;

/// Roots instantiated with `Sq` directly and with `Blob` only through generic
/// code, and one instantiated with `Sq` only, both ways.
const THROUGH_GENERIC_CODE: &str = r#"
// noalloc:root
pub fn c1_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub fn c1_outer<T: Shape>(t: &T) -> usize {
    c1_root(t)
}

// noalloc:root
pub fn c2_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub trait Run {
    fn run(&self) -> usize;
}

impl<T: Shape> Run for T {
    fn run(&self) -> usize {
        c2_root(self)
    }
}

// noalloc:root
pub fn c3_root(s: &impl Shape) -> usize {
    s.area()
}

pub fn c3_outer(s: &impl Shape) -> usize {
    c3_root(s)
}

pub struct Svc;

impl Svc {
    // noalloc:root
    pub fn c4_root<T: Shape>(&self, t: &T) -> usize {
        t.area()
    }
}

pub fn c4_outer<T: Shape>(t: &T) -> usize {
    Svc.c4_root(t)
}

// noalloc:root
pub fn c5_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub fn c5_outer<T: Shape>(t: &T) -> usize {
    let f = |x: &T| c5_root(x);
    f(t)
}

pub struct W<T>(pub T);

impl<T: Shape> W<T> {
    // noalloc:root
    pub fn c6_root(&self) -> usize {
        self.0.area()
    }
}

pub fn c6_outer<T: Shape>(t: T) -> usize {
    W(t).c6_root()
}

// noalloc:root
pub fn c7_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub trait Deep: Shape + Sized {
    fn deep(&self) -> usize {
        c7_root(self)
    }
}

impl Deep for Blob {}
impl Deep for Sq {}

pub fn c7_mid<T: Deep>(t: &T, n: u32) -> usize {
    if n == 0 { t.deep() } else { c7_mid(t, n - 1) }
}

pub fn c7_top<T: Deep>(t: &T) -> usize {
    c7_mid(t, 2)
}

// noalloc:root
pub fn sq_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub fn sq_outer<T: Shape>(t: &T) -> usize {
    let f = |x: &T| sq_root(x);
    f(t) + sq_rec(t, 3)
}

pub fn sq_rec<T: Shape>(t: &T, n: u32) -> usize {
    if n == 0 { sq_root(t) } else { sq_rec(t, n - 1) }
}

pub fn use_them() -> usize {
    c1_root(&Sq) + c1_outer(&Blob)
        + c2_root(&Sq) + Blob.run()
        + c3_root(&Sq) + c3_outer(&Blob)
        + Svc.c4_root(&Sq) + c4_outer(&Blob)
        + c5_root(&Sq) + c5_outer(&Blob)
        + W(Sq).c6_root() + c6_outer(Blob)
        + c7_root(&Sq) + c7_top(&Blob)
        + sq_root(&Sq) + sq_outer(&Sq)
}
"#;

/// Chains the search cannot follow to concrete types, beside one it can, and a
/// root nothing instantiates.
const NOT_FOLLOWED: &str = r#"
// noalloc:root
pub fn far_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub fn l1<T: Shape>(t: &T) -> usize { far_root(t) }
pub fn l2<T: Shape>(t: &T) -> usize { l1(t) }
pub fn l3<T: Shape>(t: &T) -> usize { l2(t) }
pub fn l4<T: Shape>(t: &T) -> usize { l3(t) }
pub fn l5<T: Shape>(t: &T) -> usize { l4(t) }
pub fn l6<T: Shape>(t: &T) -> usize { l5(t) }
pub fn l7<T: Shape>(t: &T) -> usize { l6(t) }
pub fn l8<T: Shape>(t: &T) -> usize { l7(t) }
pub fn l9<T: Shape>(t: &T) -> usize { l8(t) }
pub fn l10<T: Shape>(t: &T) -> usize { l9(t) }

// noalloc:root
pub fn near_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub fn n1<T: Shape>(t: &T) -> usize { near_root(t) }
pub fn n2<T: Shape>(t: &T) -> usize { n1(t) }
pub fn n3<T: Shape>(t: &T) -> usize { n2(t) }

// noalloc:root
pub fn iter_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub struct Areas<T>(pub T);

impl<T: Shape> Iterator for Areas<T> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        Some(iter_root(&self.0))
    }
}

// noalloc:root
pub fn dyn_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub trait Go {
    fn go(&self) -> usize;
}

pub struct G<T>(pub T);

impl<T: Shape> Go for G<T> {
    fn go(&self) -> usize {
        dyn_root(&self.0)
    }
}

// noalloc:root
pub fn lonely_root<T: Shape>(t: &T) -> usize {
    t.area()
}

pub fn lonely_outer<T: Shape>(t: &T) -> usize {
    lonely_root(t)
}

pub fn use_them() -> usize {
    let g: &dyn Go = &G(Blob);
    l10(&Sq) + n3(&Sq)
        + iter_root(&Sq) + Areas(Blob).take(1).sum::<usize>()
        + dyn_root(&Sq) + g.go()
}
"#;

fn analyze_package(name: &str, body: &str) -> Analysis {
    let (_dir, root) = crate::temp_package(name, &[("src/lib.rs", format!("{SHAPES}{body}"))]);
    let ws = Workspace::load(&root, &LoadOptions::default(), &|_| {}).expect("workspace loads");
    analyze(&ws, &CheckConfig::default().with_manifest(&ws.root).unwrap())
}

/// The number of findings of the root `krate::path`.
fn findings_of(analysis: &Analysis, root: &str) -> usize {
    let report = analysis.roots.iter().find(|report| report.function == root);
    report.unwrap_or_else(|| panic!("{root} is a root: {:#?}", analysis.roots)).findings
}

/// The reasons of the findings that `root` reaches in `function`.
fn reasons_in(analysis: &Analysis, root: &str, function: &str) -> Vec<String> {
    let reached = analysis.findings.iter().filter(|f| f.function == function && f.roots.iter().any(|r| r == root));
    reached.flat_map(|f| f.reasons.clone()).collect()
}

#[test]
fn instantiations_through_generic_code_are_checked() {
    let analysis = analyze_package("shapes", THROUGH_GENERIC_CODE);
    for root in [
        "shapes::c1_root",
        "shapes::c2_root",
        "shapes::c3_root",
        "shapes::Svc::c4_root",
        "shapes::c5_root",
        "shapes::W::c6_root",
        "shapes::c7_root",
    ] {
        assert!(
            findings_of(&analysis, root) > 0,
            "{root}: its instantiation at `Blob` allocates: {:#?}",
            analysis.findings
        );
        assert!(
            !reasons_in(&analysis, root, "shapes::Blob::area").is_empty(),
            "{root} reaches `Blob::area`'s allocation: {:#?}",
            analysis.findings
        );
    }
    assert_eq!(
        findings_of(&analysis, "shapes::sq_root"),
        0,
        "only `Sq`, directly and through generic callers: {:#?}",
        analysis.findings
    );
}

#[test]
fn a_chain_not_followed_to_concrete_types_is_reported() {
    let analysis = analyze_package("chains", NOT_FOLLOWED);
    // Within the bounds, with `Sq` only: clean.
    assert_eq!(findings_of(&analysis, "chains::near_root"), 0, "{:#?}", analysis.findings);
    // Ten generic callers deep; a method of a trait impl that std's `Take` calls;
    // a method called through `dyn`: checked at its own parameters too, and its
    // call on `T` is a finding.
    for root in ["chains::far_root", "chains::iter_root", "chains::dyn_root"] {
        assert!(findings_of(&analysis, root) > 0, "{root}: {:#?}", analysis.findings);
        let reasons = reasons_in(&analysis, root, root);
        assert!(reasons.iter().any(|reason| reason.contains("no known callee")), "{root}: {reasons:?}");
    }
    // A generic caller nothing instantiates makes no instantiation.
    let reasons = reasons_in(&analysis, "chains::lonely_root", "chains::lonely_root");
    assert!(reasons.iter().any(|reason| reason.starts_with("generic root never instantiated here")), "{reasons:?}");
}

/// A stored analysis is not reused after an edit that instantiates the root
/// through a generic caller, in a body that names only the caller.
#[test]
fn an_edit_that_calls_a_generic_caller_is_read() {
    let body = "\n// noalloc:root\npub fn root<T: Shape>(t: &T) -> usize {\n    t.area()\n}\n\npub fn outer<T: Shape>(t: &T) -> usize {\n    root(t)\n}\n\npub fn direct() -> usize {\n    root(&Sq)\n}\n\npub fn later() -> usize {\n    0\n}\n";
    let (_dir, root) = crate::temp_package("edited", &[("src/lib.rs", format!("{SHAPES}{body}"))]);
    let cache = tempfile::tempdir().unwrap();
    let check = || {
        let args = ["--check", root.to_str().unwrap(), "--message-format", "short", "--timings"];
        crate::cli::run(crate::cli::noalloc(&args).env("NOALLOC_CACHE_DIR", cache.path()))
    };
    let (code, out, err) = check();
    assert_eq!(code, 0, "{out}{err}");
    let lib = root.join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(
        &lib,
        text.replace("pub fn later() -> usize {\n    0\n}", "pub fn later() -> usize {\n    outer(&Blob)\n}"),
    )
    .unwrap();
    let (code, out, err) = check();
    assert!(!err.contains("changed nothing the stored analysis read"), "{err}");
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("edited::Blob::area"), "{out}");
}
