//! std releases older than the one rust-analyzer 0.0.348 reads natively (1.94 for
//! macros, 1.93 for `format_args!`), made readable by adding to their source in the
//! database what that library expects and they lack. Owns the detection
//! of a std's layout, the text added, and the warning for a layout it does not know.
//!
//! What changed in std, and what rust-analyzer 0.0.348 expects:
//! - macros: up to 1.93 user code got `format!`, `write!`, `vec!`, `matches!`, ...
//!   from the compiler's implicit `#[macro_use] extern crate std` (or `core`, in a
//!   `#![no_std]` crate). Since 1.94 std exports them from its prelude
//!   (rust-lang/rust#139493), and rust-analyzer stopped the implicit `#[macro_use]`
//!   (rust-lang/rust-analyzer#22784). On an older std every such macro call stays
//!   unexpanded (`Expr::Missing`). [`adapt`] re-exports, from each edition's prelude
//!   module, the macros `#[macro_use]` brought in: every macro of the crate's root
//!   scope (`#[macro_export]` ones and the root's `pub use`s), and nothing in the
//!   other namespaces (the `ambiguous_macros_only` pattern 1.94 itself uses).
//! - `format_args!`: rust-analyzer lowers it to `<fmt::Arguments>::new(template,
//!   &args)` (or `from_str` for a plain string), with one `rt::Argument::new_display`
//!   (`new_debug`, `new_lower_hex`, ...) per argument, as std 1.93 and later have
//!   them. 1.85 to 1.92 have the same `rt::Argument` constructors but build the
//!   `Arguments` with `new_const`/`new_v1_formatted`. [`adapt`] adds `new` and
//!   `from_str` to those releases' `Arguments`, each a call of the release's own
//!   constructor, walked from its source like any other std function. What the
//!   proof reads of a `format_args!` is unchanged by the template's shape: the
//!   constructor's own calls (none: it stores two references) and the `fmt` each
//!   `rt::Argument::new_*` takes the address of, which `core::fmt::write` calls.
//! - the sized hierarchy: since 1.89 `core::marker` declares `MetaSized` and
//!   `PointeeSized` (rust-lang/rust#137944). rust-analyzer 0.0.348 finds a method
//!   taking `&self` or `&mut self` dispatchable on a `dyn` only where `MetaSized` is
//!   a lang item, so on 1.85 to 1.88 no such trait is dyn-compatible and no value
//!   coerces to `dyn Write` (`write!` into a buffer handed `core::fmt::write` a
//!   value of no known type). [`adapt`] declares both lang items at the end of
//!   `marker.rs`, as private traits.
//! - `#[rustc_box]`: up to 1.86, `Box::new`'s own body is `#[rustc_box] Box::new(x)`
//!   (and `vec!` of elements `#[rustc_box] Box::new([..])`), which the compiler
//!   turns into its built-in allocation. rust-analyzer ignores the attribute, so
//!   `Box::new` read as a call of itself and never allocated. [`adapt`] writes the
//!   body as 1.87 and later have it (a `new_uninit` box written to), and drops the
//!   attribute from `vec!`.
//!
//! Text is only ever appended at the end of a file or on the line of a closing
//! brace, so no line of std's source moves. A std whose layout is neither native
//! nor one of those is left as it is: its `format!` and `write!` calls stay
//! findings ("call with no known callee"), and [`StdLayout::warning`] says once
//! which construct was not understood and which releases are supported.

use std::path::{Path, PathBuf};

use ra_ap_ide_db::{base_db::SourceDatabase, ChangeWithProcMacros, RootDatabase};
use ra_ap_syntax::{
    ast::{self, HasModuleItem, HasName, HasVisibility},
    AstNode, Edition, SourceFile,
};
use ra_ap_vfs::{FileId, Vfs};

/// The std releases whose layout is read, natively or through [`adapt`].
pub const SUPPORTED_RELEASES: &str = "1.85 to 1.95";

/// Marker of the text added, so a reader of the database sees where it comes from.
const MARK: &str = "noalloc: added to this std release's source in the checker's database only";

/// What [`adapt`] found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StdLayout {
    /// The crates whose prelude now re-exports their root macros (`core`, `std`).
    pub macros_added: Vec<&'static str>,
    /// How `Arguments` is built in this release, when `new`/`from_str` were added.
    pub format_args_adapter: Option<ConstructorLayout>,
    /// `Box::new`'s allocation written out where the compiler makes it (`#[rustc_box]`,
    /// the `box_new` intrinsic).
    pub box_allocation_written: bool,
    /// The `MetaSized` and `PointeeSized` lang items added to `core::marker`.
    pub sized_hierarchy_added: bool,
    /// The constructs not understood, each with why: the std is outside the range.
    pub not_understood: Vec<String>,
}

impl StdLayout {
    /// One line for the user when part of the std's layout was not understood.
    pub fn warning(&self, library: &Path) -> Option<String> {
        if self.not_understood.is_empty() {
            return None;
        }
        Some(format!(
            "the std source at {} has a layout noalloc does not read ({}); supported std releases are {SUPPORTED_RELEASES}: pin one of them in rust-toolchain.toml. Calls through what was not understood are reported as calls with no known callee",
            library.display(),
            self.not_understood.join("; ")
        ))
    }
}

/// The shape of `Arguments::new_v1_formatted` in a std older than 1.93.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstructorLayout {
    /// 1.85 to 1.88: a safe fn taking `rt::UnsafeArg` as its proof of safety.
    WithUnsafeArg,
    /// 1.89 to 1.92: an `unsafe fn` of three arguments.
    UnsafeFn,
}

/// Reads the layout of the std at `library` from the database's text of it and
/// adds what [`StdLayout`] says. A std that needs nothing is left untouched.
pub fn adapt(db: &mut RootDatabase, vfs: &Vfs, library: &Path) -> StdLayout {
    let files = StdFiles::find(vfs, library);
    let text = |id: Option<FileId>| id.map(|id| db.file_text(id).text(db).to_string());
    let mut layout = StdLayout::default();
    let mut change = ChangeWithProcMacros::default();
    let mut changed = false;

    for krate in [Krate::Core, Krate::Std] {
        let Some(prelude_mod) = files.get(krate, "src/prelude/mod.rs") else { continue };
        let prelude_v1 = text(files.get(krate, "src/prelude/v1.rs")).unwrap_or_default();
        let (Some(mod_text), Some(lib_text)) = (text(Some(prelude_mod)), text(files.get(krate, "src/lib.rs"))) else {
            continue;
        };
        let exported = use_leaves(&prelude_v1);
        if exported.iter().any(|name| name == krate.native_marker()) {
            continue;
        }
        let mut names: Vec<String> = use_leaves_public(&lib_text);
        for (id, _) in files.sources(krate) {
            let source = db.file_text(id).text(db);
            if source.contains("macro_export") {
                names.extend(exported_macro_rules(source));
            }
        }
        names.retain(|name| !exported.contains(name) && is_plain_identifier(name));
        names.sort();
        names.dedup();
        match prelude_with_root_macros(&mod_text, &names) {
            Some(new_text) => {
                change.change_file(prelude_mod, Some(new_text));
                changed = true;
                layout.macros_added.push(krate.name());
            }
            None => layout.not_understood.push(format!(
                "`{}::prelude` has no edition modules (`rust_2021`) to export its macros from",
                krate.name()
            )),
        }
    }

    if let Some(fmt_mod) = files.get(Krate::Core, "src/fmt/mod.rs") {
        let mod_text = text(Some(fmt_mod)).unwrap_or_default();
        let rt_text = text(files.get(Krate::Core, "src/fmt/rt.rs")).unwrap_or_default();
        match format_args_layout(&mod_text, &rt_text) {
            FormatArgsLayout::Native => {}
            FormatArgsLayout::Old(constructor) => {
                change.change_file(fmt_mod, Some(format!("{mod_text}{}", adapter_text(constructor))));
                changed = true;
                layout.format_args_adapter = Some(constructor);
            }
            FormatArgsLayout::Unknown => layout.not_understood.push(
                "`core::fmt::Arguments` has neither `new` (std 1.93 and later) nor `new_v1_formatted` (1.85 to 1.92), which `format_args!` is lowered to".to_owned(),
            ),
        }
    }

    if let Some(marker) = files.get(Krate::Core, "src/marker.rs") {
        let marker_text = text(Some(marker)).unwrap_or_default();
        match sizedness_layout(&marker_text) {
            SizednessLayout::Native => {}
            SizednessLayout::SizedOnly => {
                change.change_file(marker, Some(format!("{marker_text}{SIZED_HIERARCHY}")));
                changed = true;
                layout.sized_hierarchy_added = true;
            }
            SizednessLayout::Unknown => layout.not_understood.push(
                "`core::marker` declares no `Sized` (`#[lang = \"sized\"]`), which every `dyn` coercion is checked against".to_owned(),
            ),
        }
    }

    if let Some(boxed) = files.get(Krate::Alloc, "src/boxed.rs") {
        let original = text(Some(boxed)).unwrap_or_default();
        let with_body = box_new_intrinsic_with_body(&original);
        let without_rustc_box = box_new_without_rustc_box(with_body.as_deref().unwrap_or(&original));
        if let Some(new_text) = without_rustc_box.or(with_body) {
            change.change_file(boxed, Some(new_text));
            changed = true;
            layout.box_allocation_written = true;
        }
        if let Some(macros) = files.get(Krate::Alloc, "src/macros.rs") {
            let macros_text = text(Some(macros)).unwrap_or_default();
            if macros_text.contains("#[rustc_box]") {
                change.change_file(macros, Some(macros_text.replace("#[rustc_box]", "/* rustc_box */")));
                changed = true;
            }
        }
    }

    if changed {
        db.apply_change(change);
        tracing::info!(
            "std at {}: macros exported from the prelude of {:?}; format_args! adapter {:?}; sized hierarchy added {}; box allocation written {}",
            library.display(),
            layout.macros_added,
            layout.format_args_adapter,
            layout.sized_hierarchy_added,
            layout.box_allocation_written
        );
    }
    layout
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Krate {
    Core,
    Alloc,
    Std,
}

impl Krate {
    fn name(self) -> &'static str {
        match self {
            Krate::Core => "core",
            Krate::Alloc => "alloc",
            Krate::Std => "std",
        }
    }

    /// A macro the crate's prelude exports once it exports its macros itself.
    fn native_marker(self) -> &'static str {
        match self {
            Krate::Core | Krate::Alloc => "write",
            Krate::Std => "format",
        }
    }
}

/// The files of `core` and `std` the database holds, by path below `library`.
struct StdFiles {
    core: Vec<(FileId, PathBuf)>,
    alloc: Vec<(FileId, PathBuf)>,
    std: Vec<(FileId, PathBuf)>,
}

impl StdFiles {
    fn find(vfs: &Vfs, library: &Path) -> StdFiles {
        let (core_dir, alloc_dir, std_dir) = (library.join("core"), library.join("alloc"), library.join("std"));
        let mut files = StdFiles { core: Vec::new(), alloc: Vec::new(), std: Vec::new() };
        for (id, path) in vfs.iter() {
            let Some(path) = path.as_path() else { continue };
            let path: &Path = path.as_ref();
            if let Ok(rest) = path.strip_prefix(&core_dir) {
                files.core.push((id, rest.to_path_buf()));
            } else if let Ok(rest) = path.strip_prefix(&alloc_dir) {
                files.alloc.push((id, rest.to_path_buf()));
            } else if let Ok(rest) = path.strip_prefix(&std_dir) {
                files.std.push((id, rest.to_path_buf()));
            }
        }
        files
    }

    fn sources(&self, krate: Krate) -> impl Iterator<Item = (FileId, &Path)> {
        let files = match krate {
            Krate::Core => &self.core,
            Krate::Alloc => &self.alloc,
            Krate::Std => &self.std,
        };
        files.iter().filter(|(_, p)| p.starts_with("src")).map(|(id, p)| (*id, p.as_path()))
    }

    fn get(&self, krate: Krate, relative: &str) -> Option<FileId> {
        self.sources(krate).find(|(_, p)| *p == Path::new(relative)).map(|(id, _)| id)
    }
}

fn parse(text: &str) -> SourceFile {
    SourceFile::parse(text, Edition::CURRENT).tree()
}

/// The names every `use` item of the file's top level brings in (the last segment,
/// or the alias), whatever its visibility.
fn use_leaves(text: &str) -> Vec<String> {
    leaves_of(parse(text).items().filter_map(|item| match item {
        ast::Item::Use(u) => Some(u),
        _ => None,
    }))
}

/// The names the top level's `pub use` items bring in: with the crate root's
/// `#[macro_export]` macros, the root scope's macros `#[macro_use]` imported.
fn use_leaves_public(text: &str) -> Vec<String> {
    leaves_of(parse(text).items().filter_map(|item| match item {
        ast::Item::Use(u) if u.visibility().is_some() => Some(u),
        _ => None,
    }))
}

fn leaves_of(uses: impl Iterator<Item = ast::Use>) -> Vec<String> {
    let mut names = Vec::new();
    for u in uses {
        for tree in u.syntax().descendants().filter_map(ast::UseTree::cast) {
            if tree.use_tree_list().is_some() || tree.star_token().is_some() {
                continue;
            }
            let name = match tree.rename() {
                Some(rename) => rename.name().map(|n| n.text().to_string()),
                None => tree.path().and_then(|p| p.segment()).and_then(|s| s.name_ref()).map(|n| n.text().to_string()),
            };
            if let Some(name) = name {
                names.push(name.trim_start_matches("r#").to_owned());
            }
        }
    }
    names
}

/// The names of the `macro_rules!` marked `#[macro_export]` anywhere in the file:
/// the compiler puts them in the crate's root scope.
fn exported_macro_rules(text: &str) -> Vec<String> {
    parse(text)
        .syntax()
        .descendants()
        .filter_map(ast::MacroRules::cast)
        .filter(|m| {
            ast::HasAttrs::attrs(m).any(|attr| attr.path().is_some_and(|p| p.syntax().text() == "macro_export"))
        })
        .filter_map(|m| m.name().map(|n| n.text().trim_start_matches("r#").to_owned()))
        .collect()
}

fn is_plain_identifier(name: &str) -> bool {
    !name.is_empty()
        && !matches!(name, "self" | "super" | "crate" | "Self" | "_")
        && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// `prelude/mod.rs` with the root's macros re-exported from each edition module
/// (`rust_2015` .. `rust_2024`), in the macro namespace only: a private module
/// glob-imports the crate root, and private items of the other namespaces shadow
/// the glob's under each name, so importing the name from it brings the macro
/// alone (a module or function of the same name, `std::vec` or `core::panic`, stays
/// out of the prelude). `None` when the file has no edition module.
fn prelude_with_root_macros(text: &str, names: &[String]) -> Option<String> {
    let file = parse(text);
    let mut closing_braces: Vec<usize> = file
        .items()
        .filter_map(|item| match item {
            ast::Item::Module(m) if m.name().is_some_and(|n| n.text().starts_with("rust_20")) => m.item_list(),
            _ => None,
        })
        .filter_map(|list| list.r_curly_token())
        .map(|brace| usize::from(brace.text_range().start()))
        .collect();
    if closing_braces.is_empty() {
        return None;
    }
    let list = names.iter().map(|n| format!("r#{n}")).collect::<Vec<_>>().join(", ");
    let import = format!("pub use super::__noalloc_root_macros::{{{list}}}; ");
    let mut out = text.to_owned();
    closing_braces.sort_unstable();
    for at in closing_braces.into_iter().rev() {
        out.insert_str(at, &import);
    }
    let shadows: String = names.iter().map(|n| format!("    mod r#{n} {{}}\n    fn r#{n}() {{}}\n")).collect();
    out.push_str(&format!(
        "\n// {MARK}: the macros the implicit `#[macro_use]` of older compilers brought in.\n#[doc(hidden)]\n#[allow(unused)]\nmod __noalloc_root_macros {{\n{shadows}    pub use crate::*;\n}}\n"
    ));
    Some(out)
}

/// The allocation `Box::new` and `vec!` make, where the compiler makes it.
const BOX_ALLOCATION: &str =
    "unsafe { let mut boxed = Box::<T>::new_uninit(); boxed.as_mut_ptr().write(x); boxed.assume_init() }";

/// `boxed.rs` with the `box_new` intrinsic (`vec!` calls it; 1.86 to 1.94, and
/// `Box::new` itself in 1.86) given the body the compiler's version has, on the
/// declaration's line: 1.86's fallback body is `unreachable!()`, for a compiler
/// that always overrides it, and 1.87's has none ("intrinsic without a body").
fn box_new_intrinsic_with_body(text: &str) -> Option<String> {
    let declared = [
        ("pub fn box_new<T>(x: T) -> Box<T>;", format!("pub fn box_new<T>(x: T) -> Box<T> {{ {BOX_ALLOCATION} }}")),
        (
            "pub fn box_new<T>(_x: T) -> Box<T> {\n    unreachable!()\n}",
            format!("pub fn box_new<T>(x: T) -> Box<T> {{\n    {BOX_ALLOCATION}\n}}"),
        ),
    ];
    let (from, to) = declared.iter().find(|(from, _)| text.contains(*from))?;
    let at = text.find(*from)?;
    // The attributes that make it an intrinsic go too, each on its own line: the
    // body is what runs.
    let attrs_start = text[..at].rfind("\n\n").map_or(0, |blank| blank + 2);
    let attrs = text[attrs_start..at]
        .replace("#[rustc_intrinsic_must_be_overridden]", "/* rustc_intrinsic_must_be_overridden */")
        .replace("#[rustc_intrinsic]", "/* rustc_intrinsic */");
    Some(format!("{}{attrs}{to}{}", &text[..attrs_start], &text[at + from.len()..]))
}

/// `boxed.rs` with every `#[rustc_box] Box::new(x)` (`Box::new`'s own body in
/// 1.85, `box_new`'s under `cfg(bootstrap)` in 1.86) written as 1.87 has it (a
/// `new_uninit` box, written to), each on the lines it replaces; `None` when there
/// is none.
fn box_new_without_rustc_box(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 256);
    let mut rest = text;
    let mut replaced = false;
    while let Some(attr) = rest.find("#[rustc_box]") {
        let after = &rest[attr + "#[rustc_box]".len()..];
        let gap = after.len() - after.trim_start().len();
        out.push_str(&rest[..attr]);
        out.push_str("/* rustc_box */");
        if after.trim_start().starts_with("Box::new(x)") {
            out.push_str(&after[..gap]);
            out.push_str(BOX_ALLOCATION);
            rest = &after[gap + "Box::new(x)".len()..];
            replaced = true;
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    replaced.then_some(out)
}

/// The traits of the sized hierarchy (rust-lang/rust#137944, std 1.89) as lang
/// items, appended to an older `core::marker`. rust-analyzer 0.0.348 needs
/// `MetaSized` to find a `&self` or `&mut self` method dispatchable on a `dyn`;
/// without it no trait with such a method is dyn-compatible, and no value coerces
/// to `dyn Write` (the coercion is a type mismatch). Its lowering drops a
/// `MetaSized` bound and reads `PointeeSized` as `?Sized`, so nothing else changes;
/// private, they add no name to `core::marker`.
const SIZED_HIERARCHY: &str = "
// noalloc: added to this std release's source in the checker's database only: the
// sized hierarchy of std 1.89, which rust-analyzer's dyn-compatibility check reads.
#[lang = \"meta_sized\"]
#[allow(dead_code)]
trait MetaSized: PointeeSized {}

#[lang = \"pointee_sized\"]
#[allow(dead_code)]
trait PointeeSized {}
";

enum SizednessLayout {
    /// `MetaSized` is a lang item (std 1.89 and later).
    Native,
    /// `Sized` alone (std 1.88 and older).
    SizedOnly,
    Unknown,
}

fn sizedness_layout(marker: &str) -> SizednessLayout {
    if marker.contains("#[lang = \"meta_sized\"]") {
        SizednessLayout::Native
    } else if marker.contains("#[lang = \"sized\"]") {
        SizednessLayout::SizedOnly
    } else {
        SizednessLayout::Unknown
    }
}

enum FormatArgsLayout {
    /// `Arguments::new(template, args)` and `from_str`: what rust-analyzer lowers to.
    Native,
    Old(ConstructorLayout),
    Unknown,
}

fn format_args_layout(fmt_mod: &str, fmt_rt: &str) -> FormatArgsLayout {
    let has_new = |text: &str| text.contains("pub unsafe fn new<const N: usize, const M: usize>(");
    if (has_new(fmt_mod) || has_new(fmt_rt)) && (fmt_mod.contains("fn from_str(") || fmt_rt.contains("fn from_str(")) {
        return FormatArgsLayout::Native;
    }
    if !(fmt_mod.contains("fn new_const<const N: usize>(") || fmt_rt.contains("fn new_const<const N: usize>(")) {
        return FormatArgsLayout::Unknown;
    }
    for text in [fmt_mod, fmt_rt] {
        let Some(at) = text.find("fn new_v1_formatted(") else { continue };
        let signature = &text[at..text[at..].find('{').map_or(text.len(), |end| at + end)];
        let is_unsafe = text[..at].trim_end().ends_with("unsafe");
        return match (signature.contains("rt::UnsafeArg"), is_unsafe) {
            (true, false) => FormatArgsLayout::Old(ConstructorLayout::WithUnsafeArg),
            (false, true) => FormatArgsLayout::Old(ConstructorLayout::UnsafeFn),
            _ => FormatArgsLayout::Unknown,
        };
    }
    FormatArgsLayout::Unknown
}

/// `Arguments::new` and `from_str` as rust-analyzer's lowering calls them, each
/// building the `Arguments` with the release's own constructor.
fn adapter_text(layout: ConstructorLayout) -> String {
    let build = match layout {
        ConstructorLayout::WithUnsafeArg => {
            "Arguments::new_v1_formatted(&[], args, &[], unsafe { rt::UnsafeArg::new() })"
        }
        ConstructorLayout::UnsafeFn => "unsafe { Arguments::new_v1_formatted(&[], args, &[]) }",
    };
    format!(
        "
// {MARK}: the constructors rust-analyzer lowers `format_args!` to (std 1.93's),
// over this release's own.
#[doc(hidden)]
impl<'a> Arguments<'a> {{
    #[inline]
    pub unsafe fn new<const N: usize, const M: usize>(
        template: &'a [u8; N],
        args: &'a [rt::Argument<'a>; M],
    ) -> Arguments<'a> {{
        let _ = template;
        {build}
    }}

    #[inline]
    pub const fn from_str(s: &'static str) -> Arguments<'a> {{
        Arguments::new_const(&[s])
    }}
}}
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prelude_exports_root_macros_without_moving_a_line() {
        let text = "//! prelude\npub mod v1;\npub mod rust_2021 {\n    pub use super::v1::*;\n}\npub mod rust_2024 {\n    pub use super::v1::*;\n}\n";
        let out = prelude_with_root_macros(text, &["vec".to_owned(), "write".to_owned()]).unwrap();
        let old_lines: Vec<&str> = text.lines().collect();
        let new_lines: Vec<&str> = out.lines().collect();
        assert_eq!(new_lines[4], "pub use super::__noalloc_root_macros::{r#vec, r#write}; }");
        assert_eq!(new_lines[7], "pub use super::__noalloc_root_macros::{r#vec, r#write}; }");
        assert_eq!(old_lines.len(), 8);
        for (i, line) in old_lines.iter().enumerate().filter(|(i, _)| ![4, 7].contains(i)) {
            assert_eq!(new_lines[i], *line);
        }
        assert!(out.contains("    mod r#vec {}\n    fn r#vec() {}\n"));
        assert!(parse(&out).syntax().descendants().all(|n| n.kind() != ra_ap_syntax::SyntaxKind::ERROR));
        assert_eq!(prelude_with_root_macros("pub mod v1;\n", &["vec".to_owned()]), None);
    }

    #[test]
    fn root_macros_are_read_from_pub_uses_and_macro_export() {
        let lib = "pub use core::{assert_eq, r#try, write as w};\npub use alloc_crate::vec;\nuse core::hidden;\n";
        assert_eq!(use_leaves_public(lib), ["assert_eq", "try", "w", "vec"]);
        let macros = "#[macro_export]\n#[allow_internal_unstable(x)]\nmacro_rules! println { () => {} }\nmacro_rules! private { () => {} }\nmod m {\n    #[macro_export]\n    macro_rules! dbg { () => {} }\n}\n";
        assert_eq!(exported_macro_rules(macros), ["println", "dbg"]);
    }

    #[test]
    fn box_new_allocates_where_rustc_box_did() {
        let text = "    pub fn new(x: T) -> Self {\n        #[rustc_box]\n        Box::new(x)\n    }\n";
        let out = box_new_without_rustc_box(text).unwrap();
        assert_eq!(out.lines().count(), text.lines().count());
        assert!(out.contains("        /* rustc_box */\n        unsafe { let mut boxed = Box::<T>::new_uninit();"));
        assert_eq!(
            box_new_without_rustc_box("    pub fn new(x: T) -> Self {\n        return box_new(x);\n    }\n"),
            None
        );
        let v186 = "pub fn box_new<T>(x: T) -> Box<T> {\n    #[rustc_box]\n    Box::new(x)\n}\n";
        assert!(box_new_without_rustc_box(v186).unwrap().contains("    /* rustc_box */\n    unsafe { let mut boxed"));
        let v187 = "#[rustc_intrinsic]\npub fn box_new<T>(x: T) -> Box<T>;\n";
        let out = box_new_intrinsic_with_body(v187).unwrap();
        assert_eq!(out.lines().count(), 2);
        assert!(out.contains("/* rustc_intrinsic */\npub fn box_new<T>(x: T) -> Box<T> { unsafe { let mut boxed"));
        let v186 =
            "#[rustc_intrinsic_must_be_overridden]\npub fn box_new<T>(_x: T) -> Box<T> {\n    unreachable!()\n}\n";
        let out = box_new_intrinsic_with_body(v186).unwrap();
        assert_eq!(out.lines().count(), v186.lines().count());
        assert!(!out.contains("unreachable"));
    }

    #[test]
    fn sized_hierarchy_added_where_meta_sized_is_missing() {
        let v188 = "#[lang = \"sized\"]\n#[rustc_coinductive]\npub trait Sized {\n    // Empty.\n}\n";
        assert!(matches!(sizedness_layout(v188), SizednessLayout::SizedOnly));
        let v189 = "#[lang = \"sized\"]\npub trait Sized: MetaSized {}\n#[lang = \"meta_sized\"]\npub trait MetaSized: PointeeSized {}\n";
        assert!(matches!(sizedness_layout(v189), SizednessLayout::Native));
        assert!(matches!(sizedness_layout("pub trait Sized {}\n"), SizednessLayout::Unknown));
        let file = parse(&format!("{v188}{SIZED_HIERARCHY}"));
        assert!(file.syntax().descendants().all(|n| n.kind() != ra_ap_syntax::SyntaxKind::ERROR));
        assert_eq!(file.items().count(), 3);
    }

    #[test]
    fn format_args_layouts() {
        let new = "impl<'a> Arguments<'a> {\n    pub unsafe fn new<const N: usize, const M: usize>(\n    pub const fn from_str(s: &'static str)";
        assert!(matches!(format_args_layout(new, ""), FormatArgsLayout::Native));
        let v185 = "    pub const fn new_const<const N: usize>(pieces: &'a [&'static str; N]) -> Self {\n    pub fn new_v1_formatted(\n        pieces: &'a [&'static str],\n        args: &'a [rt::Argument<'a>],\n        fmt: &'a [rt::Placeholder],\n        _unsafe_arg: rt::UnsafeArg,\n    ) -> Arguments<'a> {";
        assert!(matches!(format_args_layout(v185, ""), FormatArgsLayout::Old(ConstructorLayout::WithUnsafeArg)));
        let v189 = "    pub const fn new_const<const N: usize>(pieces: &'a [&'static str; N]) -> Self {\n    pub unsafe fn new_v1_formatted(\n        pieces: &'a [&'static str],\n        args: &'a [rt::Argument<'a>],\n        fmt: &'a [rt::Placeholder],\n    ) -> Arguments<'a> {";
        assert!(matches!(format_args_layout("", v189), FormatArgsLayout::Old(ConstructorLayout::UnsafeFn)));
        assert!(matches!(format_args_layout("pub fn new_v1(", ""), FormatArgsLayout::Unknown));
        for layout in [ConstructorLayout::WithUnsafeArg, ConstructorLayout::UnsafeFn] {
            let text = adapter_text(layout);
            assert!(parse(&text).syntax().descendants().all(|n| n.kind() != ra_ap_syntax::SyntaxKind::ERROR));
        }
    }
}
