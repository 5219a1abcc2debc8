//! std's x86 intrinsics past the baseline its own code calls (AVX-512, AMX, Key
//! Locker and AVX-NE-CONVERT; then SSE3 to AVX2, FMA, BMI, AES, SHA and the rest),
//! left out of the database until some source names one: 180,000 of the 340,000
//! lines rust-analyzer reads to resolve `core`'s names, the longest step of a cold
//! check, and rarely called. The two sets come back on their own (`Tier`): a crate
//! that names `_mm256_add_epi32` brings back AVX2's, not AVX-512's. Owns the
//! decision, the emptied files and putting them back.
//!
//! Why leaving them out cannot change a verdict, unless a source names one of them:
//! - what the files declare is functions, constants and type aliases (all of them
//!   `pub` with names that begin with `_`), `use`s and private helpers: no impls,
//!   no exported macros, no types another file uses (the SIMD types are declared in
//!   `x86/mod.rs`, which stays). Nothing else can be reached through them: only
//!   paths that name them, which `named_in` looks for in every file of the
//!   workspace and its dependencies, tokenised as Rust (`ra_ap_rustc_lexer`);
//! - std's own code names them only in `core_simd`'s `swizzle_dyn`, under
//!   `target_feature = "ssse3"`, `"avx2"` or `"avx512…"`: with a feature past
//!   the baseline turned on for `core`, its set stays;
//! - a call the resolution could not follow is reported ("type inference did not
//!   resolve the call"), never dropped: a name made up by a macro that no file
//!   spells out is a finding, not a wrong verdict.
//!
//! `it::deferred_intrinsics` checks those facts against the installed std source
//! and against rust-analyzer's own name resolution with and without the files.

use std::path::{Path, PathBuf};

use ra_ap_ide_db::{base_db::SourceDatabase, ChangeWithProcMacros, RootDatabase};
use ra_ap_rustc_lexer::{tokenize, FrontmatterAllowed, TokenKind};
use ra_ap_vfs::{FileId, Vfs};
use rustc_hash::FxHashSet;

use crate::stdx::{is_ident_byte, whole_word_at};

/// Where the deferrable modules are, below std's `library` directory.
const INTRINSIC_DIRS: [&str; 2] = ["stdarch/crates/core_arch/src/x86", "stdarch/crates/core_arch/src/x86_64"];

/// The two sets of files left out, each on its own: one a source names comes
/// back without the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// The extensions no x86 CPU had before 2016 (AVX-512, AMX, Key Locker,
    /// AVX-NE-CONVERT): 150,000 lines.
    Recent,
    /// Every other extension past x86_64's baseline (SSE3 to AVX2, FMA, BMI, AES,
    /// SHA, ...): 30,000 lines more.
    BeyondBaseline,
}

/// Which set a file of those directories belongs to, if it is left out at all.
/// What std's own code calls stays: the baseline's `sse.rs` and `sse2.rs`
/// (`spin_loop`, `is_ascii`, `memchr` of compiler-builtins), `cpuid.rs` and
/// `xsave.rs` (feature detection), and what the others use (`mod.rs`, `macros.rs`).
fn deferrable_module(file_name: &str) -> Option<Tier> {
    if file_name.starts_with("avx512") || matches!(file_name, "amx.rs" | "kl.rs" | "avxneconvert.rs") {
        Some(Tier::Recent)
    } else if matches!(file_name, "mod.rs" | "macros.rs" | "sse.rs" | "sse2.rs" | "cpuid.rs" | "xsave.rs" | "test.rs") {
        None
    } else {
        Some(Tier::BeyondBaseline)
    }
}

/// Whether std's own code names intrinsics of `tier` with `feature` turned on
/// (`core_simd`'s `swizzle_dyn`: `ssse3`, `avx2`, `avx512vbmi`).
fn enables_deferrable_feature(tier: Tier, feature: &str) -> bool {
    match tier {
        Tier::Recent => {
            ["avx512", "amx", "avxneconvert", "kl", "widekl"].iter().any(|prefix| feature.starts_with(prefix))
        }
        // x86_64's baseline: what `rustc --print cfg` says with no `-C target-*`.
        Tier::BeyondBaseline => !matches!(feature, "fxsr" | "sse" | "sse2" | "x87"),
    }
}

/// The intrinsic files left out of a loaded workspace, and the names they declare.
#[derive(Debug, Default)]
pub struct DeferredIntrinsics {
    /// Emptied in the database; their text is on disk, in std's source.
    files: Vec<(FileId, PathBuf)>,
    names: FxHashSet<String>,
    /// std's `library` directory: its files are not looked at for names.
    library: PathBuf,
}

impl DeferredIntrinsics {
    /// How many files are left out now (0 once put back, or when none could be).
    pub fn deferred_files(&self) -> usize {
        self.files.len()
    }

    /// The files left out.
    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        self.files.iter().map(|&(id, _)| id)
    }

    /// The names the files left out declare: what a source must name for them to
    /// be needed.
    pub fn names(&self) -> &FxHashSet<String> {
        &self.names
    }

    /// Leaves the deferrable files of std's source at `library` out of `db` when no
    /// other file names what they declare and no enabled target feature makes std
    /// call them.
    pub fn defer(db: &mut RootDatabase, vfs: &Vfs, library: &Path) -> DeferredIntrinsics {
        let started = std::time::Instant::now();
        let (mut recent, mut beyond_baseline) = (Vec::new(), Vec::new());
        let mut others = Vec::new();
        let intrinsic_dirs = INTRINSIC_DIRS.map(|dir| library.join(dir));
        for (id, path) in vfs.iter() {
            let Some(path) = path.as_path() else { continue };
            let path: &Path = path.as_ref();
            let tier = path
                .parent()
                .filter(|dir| intrinsic_dirs.iter().any(|d| dir == d))
                .and_then(|_| path.file_name()?.to_str())
                .and_then(deferrable_module);
            match tier {
                Some(Tier::Recent) => recent.push((id, path.to_path_buf())),
                Some(Tier::BeyondBaseline) => beyond_baseline.push((id, path.to_path_buf())),
                None if !path.starts_with(library) => others.push(id),
                None => {}
            }
        }
        let mut deferred = DeferredIntrinsics { library: library.to_path_buf(), ..DeferredIntrinsics::default() };
        for (tier, files) in [(Tier::Recent, recent), (Tier::BeyondBaseline, beyond_baseline)] {
            // The recent extensions' intrinsics call the older ones: with them in,
            // so are those.
            let recent_in = tier == Tier::BeyondBaseline && deferred.files.is_empty();
            if files.is_empty() || recent_in || core_enables_deferrable_feature(db, tier) {
                continue;
            }
            let mut names = FxHashSet::default();
            for &(id, _) in &files {
                names.extend(declared_names(db.file_text(id).text(db)).map(str::to_owned));
            }
            let candidate = DeferredIntrinsics { files, names, library: library.to_path_buf() };
            let names_at = std::time::Instant::now();
            if let Some(&named_in) = others.iter().find(|&&id| candidate.named_in(db, id, db.file_text(id).text(db))) {
                tracing::info!("std's {tier:?} intrinsics loaded: {} names one", vfs.file_path(named_in));
                continue;
            }
            tracing::debug!(
                "{tier:?}: names of the intrinsics looked for in {} files in {} ms",
                others.len(),
                names_at.elapsed().as_millis()
            );
            deferred.files.extend(candidate.files);
            deferred.names.extend(candidate.names);
        }
        if deferred.files.is_empty() {
            return DeferredIntrinsics::default();
        }
        let mut change = ChangeWithProcMacros::default();
        for &(id, _) in &deferred.files {
            change.change_file(id, Some(String::new()));
        }
        db.apply_change(change);
        tracing::info!(
            "left {} files of std's intrinsics out ({} names; no source names one), decided in {} ms",
            deferred.files.len(),
            deferred.names.len(),
            started.elapsed().as_millis()
        );
        deferred
    }

    /// Whether `text`, the text of `file` (outside std's source), names an intrinsic
    /// left out, where its crate's `cfg` keeps the code. An identifier is looked
    /// for byte by byte; the rare file that holds one is parsed to see whether it is
    /// a token of code and whether a `#[cfg]` on an item or macro call around it is
    /// off (as `rand` names `_mm512_mulhi_epu16` under `target_feature = "avx512bw"`).
    /// A file several crates may hold (their source root is one) is read under
    /// each one's `cfg`; one that no crate holds, as code every `cfg` keeps.
    pub fn named_in(&self, db: &RootDatabase, file: FileId, text: &str) -> bool {
        let mut offsets = candidate_offsets(text, &self.names).peekable();
        if offsets.peek().is_none() {
            return false;
        }
        let crates = ra_ap_ide_db::base_db::relevant_crates(db, file);
        let edition = crates.first().map_or(ra_ap_syntax::Edition::CURRENT, |krate| krate.data(db).edition);
        let cfgs: Vec<&ra_ap_cfg::CfgOptions> = crates.iter().map(|krate| krate.cfg_options(db)).collect();
        let tree = ra_ap_syntax::SourceFile::parse(text, edition).tree();
        offsets.any(|offset| {
            if cfgs.is_empty() {
                is_live_identifier(&tree, offset, None)
            } else {
                cfgs.iter().any(|&cfg| is_live_identifier(&tree, offset, Some(cfg)))
            }
        })
    }

    /// Whether the new `text` of `file`, at `path`, makes the intrinsics needed:
    /// some are left out, the file is not std's, and it names one.
    pub fn needed_after_edit(&self, db: &RootDatabase, file: FileId, path: &Path, text: &str) -> bool {
        !self.files.is_empty() && !path.starts_with(&self.library) && self.named_in(db, file, text)
    }

    /// Puts the files back into `db` (their text from disk). Afterwards nothing is
    /// left out. A file that cannot be read stays empty, and says so.
    pub fn restore(&mut self, db: &mut RootDatabase) {
        let mut change = ChangeWithProcMacros::default();
        for (id, path) in self.files.drain(..) {
            match std::fs::read_to_string(&path) {
                Ok(text) => change.change_file(id, Some(text)),
                Err(err) => tracing::warn!("could not read {} back: {err}", path.display()),
            }
        }
        self.names.clear();
        db.apply_change(change);
        tracing::info!("std's intrinsics put back: an edit names one");
    }
}

/// Whether `core` is built with a target feature under which std calls a
/// deferrable intrinsic (`-C target-feature=+avx512f`, `-C target-cpu=native` on
/// such a CPU).
fn core_enables_deferrable_feature(db: &RootDatabase, tier: Tier) -> bool {
    ra_ap_ide_db::base_db::all_crates(db).iter().any(|krate| {
        let is_core = krate.data(db).origin.is_lang()
            && krate.extra_data(db).display_name.as_ref().is_some_and(|name| name.crate_name().as_str() == "core");
        is_core
            && krate
                .cfg_options(db)
                .get_cfg_values("target_feature")
                .any(|feature| enables_deferrable_feature(tier, feature.as_str()))
    })
}

/// The tokens of `text`, Rust source, each with its text.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = (TokenKind, &str)> {
    let mut offset = 0usize;
    tokenize(text, FrontmatterAllowed::No).map(move |token| {
        let start = offset;
        offset += token.len as usize;
        (token.kind, &text[start..offset])
    })
}

/// Whether a token is whitespace or a comment.
pub(crate) fn is_trivia(kind: TokenKind) -> bool {
    matches!(kind, TokenKind::Whitespace | TokenKind::LineComment { .. } | TokenKind::BlockComment { .. })
}

/// Where in `text` an identifier in `names` begins (all of them begin with `_`),
/// comments and literals included.
fn candidate_offsets<'a>(text: &'a str, names: &'a FxHashSet<String>) -> impl Iterator<Item = usize> + 'a {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'_', bytes).filter(move |&at| {
        if at > 0 && is_ident_byte(bytes[at - 1]) {
            return false;
        }
        let end = bytes[at..].iter().position(|&b| !is_ident_byte(b)).map_or(bytes.len(), |len| at + len);
        names.contains(&text[at..end])
    })
}

/// Whether the token at `offset` is an identifier of code that `cfg` keeps: not in
/// a comment or literal, and under no item, macro call or statement whose `#[cfg]`
/// is off. Without the crate's `cfg`, every identifier is live.
fn is_live_identifier(tree: &ra_ap_syntax::SourceFile, offset: usize, cfg: Option<&ra_ap_cfg::CfgOptions>) -> bool {
    use ra_ap_syntax::{ast, ast::HasAttrs, AstNode, SyntaxKind, TextSize};
    let Some(token) = tree.syntax().token_at_offset(TextSize::from(offset as u32)).right_biased() else {
        return true;
    };
    if token.kind() != SyntaxKind::IDENT {
        return false;
    }
    let Some(cfg) = cfg else { return true };
    !token.parent_ancestors().filter_map(ast::AnyHasAttrs::cast).any(|node| {
        node.attrs().any(|attr| match attr.meta() {
            Some(ast::Meta::CfgMeta(meta)) => meta
                .cfg_predicate()
                .is_some_and(|predicate| cfg.check(&ra_ap_cfg::CfgExpr::parse_from_ast(predicate)) == Some(false)),
            _ => false,
        })
    })
}

/// The names that `pub` items of `text` declare, and its `macro_rules!` macros: what
/// other files can name. Only the few tokens after each `pub` and `macro_rules` are
/// lexed (the files are 6 MB); one in a line comment is skipped, one in a string
/// gives a name too many, which only keeps the files in.
pub(crate) fn declared_names(text: &str) -> impl Iterator<Item = &str> {
    const DECLARES: [&str; 11] =
        ["fn", "const", "static", "type", "struct", "enum", "union", "trait", "mod", "macro", "macro_rules"];
    const QUALIFIERS: [&str; 6] = ["unsafe", "extern", "mut", "async", "safe", "default"];
    /// How far after a `pub` its name is looked for: `pub(crate) const unsafe
    /// extern "unadjusted" fn _mm512_mask_cvtepi32_storeu_epi16` is 80 bytes.
    const WINDOW: usize = 240;
    let bytes = text.as_bytes();
    let keyword_at = move |at: usize, len: usize| {
        whole_word_at(bytes, at, len) && !text[text[..at].rfind('\n').map_or(0, |nl| nl + 1)..at].contains("//")
    };
    let window = move |at: usize| {
        let mut end = (at + WINDOW).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        tokens(&text[at..end]).filter(|&(kind, _)| !is_trivia(kind))
    };
    let macros = memchr::memmem::find_iter(bytes, "macro_rules")
        .filter(move |&at| keyword_at(at, "macro_rules".len()))
        .filter_map(move |at| match window(at).nth(2) {
            // `macro_rules! name`
            Some((TokenKind::Ident, name)) => Some(name),
            _ => None,
        });
    let items = memchr::memmem::find_iter(bytes, "pub").filter(move |&at| keyword_at(at, 3)).filter_map(move |at| {
        let mut tokens = window(at).skip(1).peekable();
        // `pub(crate)`, `pub(in path)`
        if tokens.peek().is_some_and(|&(kind, _)| kind == TokenKind::OpenParen) {
            tokens.find(|&(kind, _)| kind == TokenKind::CloseParen)?;
        }
        // `const unsafe extern "C" fn name`, `const NAME`, `type Name`…: the first
        // identifier after a declaring keyword, in the run of words that follows `pub`.
        let mut previous: Option<&str> = None;
        for (kind, word) in tokens {
            match kind {
                TokenKind::Ident | TokenKind::RawIdent => {
                    if QUALIFIERS.contains(&word) {
                        continue;
                    }
                    if previous.is_some_and(|p| DECLARES.contains(&p)) && !DECLARES.contains(&word) {
                        return Some(word.trim_start_matches("r#"));
                    }
                    previous = Some(word);
                }
                TokenKind::Literal { .. } => {}
                _ => return None,
            }
        }
        None
    });
    items.chain(macros).collect::<Vec<_>>().into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_names_are_the_public_items_and_macros() {
        let text = r#"
            /// pub fn not_this() in a comment
            pub const fn _mm512_a(a: __m512i) -> __m512i { a }
            pub unsafe fn _mm512_b() {}
            pub const unsafe fn _mm512_c() {}
            pub(crate) fn _helper() {}
            pub const _MM_X: _MM_ENUM = 0;
            pub type _MM_ENUM = i32;
            pub static mut _STATIC: u8 = 0;
            pub unsafe extern "C" fn _extern() {}
            pub struct _S(u8);
            fn private_one() {}
            const PRIVATE: u8 = 0;
            pub use crate::other::*;
            macro_rules! local_macro { () => {} }
            unsafe extern "unadjusted" { fn llvm_binding(); }
            // pub fn not_this_either()
        "#;
        let mut names: Vec<&str> = declared_names(text).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "_MM_ENUM",
                "_MM_X",
                "_S",
                "_STATIC",
                "_extern",
                "_helper",
                "_mm512_a",
                "_mm512_b",
                "_mm512_c",
                "local_macro"
            ]
        );
    }

    fn live(text: &str, cfg: &ra_ap_cfg::CfgOptions) -> Vec<bool> {
        let names: FxHashSet<String> = ["_mm512_a".to_owned()].into_iter().collect();
        let tree = ra_ap_syntax::SourceFile::parse(text, ra_ap_syntax::Edition::CURRENT).tree();
        candidate_offsets(text, &names).map(|offset| is_live_identifier(&tree, offset, Some(cfg))).collect()
    }

    #[test]
    fn only_identifiers_of_code_the_cfg_keeps_are_live() {
        let mut cfg = ra_ap_cfg::CfgOptions::default();
        cfg.insert_key_value(ra_ap_intern::Symbol::intern("target_feature"), ra_ap_intern::Symbol::intern("sse2"));
        // Not candidates: part of a longer identifier.
        assert_eq!(live("fn f() { x_mm512_a(); _mm512_ab(); }", &cfg), Vec::<bool>::new());
        // In a comment and a string: candidates, not live.
        assert_eq!(live("// _mm512_a\nfn f() { let s = \"_mm512_a\"; }", &cfg), [false, false]);
        assert_eq!(live("fn f() { unsafe { _mm512_a() } }", &cfg), [true]);
        assert_eq!(live("use core::arch::x86_64::{_mm512_a as z};", &cfg), [true]);
        // Under a `cfg` that is off: on a macro call (as `rand` has it), a function, a statement.
        let off = r#"
            #[cfg(target_feature = "avx512bw")]
            wmul! { u16x32, _mm512_a }
            #[cfg(all(target_feature = "sse2", target_feature = "avx512f"))]
            fn g() { _mm512_a(); }
            fn h() { #[cfg(target_feature = "avx512f")] _mm512_a(); }
        "#;
        assert_eq!(live(off, &cfg), [false, false, false]);
        // Under a `cfg` that is on.
        let on = r#"
            #[cfg(target_feature = "sse2")]
            fn g() { _mm512_a(); }
            #[cfg(not(target_feature = "avx512f"))]
            mod m { fn h() { _mm512_a(); } }
        "#;
        assert_eq!(live(on, &cfg), [true, true]);
    }

    #[test]
    fn deferrable_modules_and_features() {
        assert_eq!(deferrable_module("avx512f.rs"), Some(Tier::Recent));
        assert_eq!(deferrable_module("avx512fp16.rs"), Some(Tier::Recent));
        assert_eq!(deferrable_module("amx.rs"), Some(Tier::Recent));
        assert_eq!(deferrable_module("avx2.rs"), Some(Tier::BeyondBaseline));
        assert_eq!(deferrable_module("ssse3.rs"), Some(Tier::BeyondBaseline));
        assert_eq!(deferrable_module("sse2.rs"), None);
        assert_eq!(deferrable_module("cpuid.rs"), None);
        assert_eq!(deferrable_module("mod.rs"), None);
        assert!(enables_deferrable_feature(Tier::Recent, "avx512vl"));
        assert!(!enables_deferrable_feature(Tier::Recent, "avx2"));
        assert!(!enables_deferrable_feature(Tier::Recent, "sse4.2"));
        assert!(enables_deferrable_feature(Tier::BeyondBaseline, "avx2"));
        assert!(enables_deferrable_feature(Tier::BeyondBaseline, "ssse3"));
        assert!(!enables_deferrable_feature(Tier::BeyondBaseline, "sse2"));
    }
}
