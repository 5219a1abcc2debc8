//! The files of a crate's module tree as its syntax declares them (`mod` items,
//! their `#[path]` and `#[cfg]`), found without name resolution, so that their
//! item trees can be built before the crate's def map asks for them. Name
//! resolution (`parallel_names`) does it on a core that would otherwise wait:
//! while `core`'s def map, which every other crate needs, is built on the other.
//!
//! Only a head start, never an answer: a module declared in a macro's input
//! (`cfg_if!`) or under a `#[cfg_attr]` is not found here, and the def map reads
//! it itself. The files are resolved as rust-analyzer's `ModDir` resolves them,
//! so the item trees built here are the ones the def map reads.

use hir::db::HirDatabase;
use ra_ap_cfg::{CfgExpr, CfgOptions};
use ra_ap_ide_db::base_db::{Crate, EditionedFileId};
use ra_ap_syntax::{ast, ast::HasAttrs, ast::HasModuleItem, ast::HasName, AstNode};
use ra_ap_vfs::{AnchoredPath, FileId};

/// A file of a crate's module tree, with what its `mod foo;` items resolve
/// against.
#[derive(Clone, Debug)]
pub(crate) struct ModuleFile {
    pub krate: Crate,
    pub file: FileId,
    /// Where the file's child modules are, relative to the file's directory: empty
    /// for a crate root, a `mod.rs` or a `#[path]` file, `name/` for `name.rs`.
    dir: String,
    /// The file is `name.rs` (its children are under `name/`): a `#[path]` in it
    /// is relative to its own directory.
    non_dir_owner: bool,
}

impl ModuleFile {
    pub(crate) fn crate_root(db: &dyn HirDatabase, krate: Crate) -> ModuleFile {
        ModuleFile { krate, file: krate.data(db).root_file_id, dir: String::new(), non_dir_owner: false }
    }
}

/// Every file of `krate`'s module tree that `read_ahead` finds from its root,
/// their item trees built, in the order the def map reads them (a module's file,
/// then its children's, in source order).
pub fn files_of_crate(db: &dyn HirDatabase, krate: Crate) -> Vec<FileId> {
    let mut files = Vec::new();
    let mut stack = vec![ModuleFile::crate_root(db, krate)];
    while let Some(module) = stack.pop() {
        files.push(module.file);
        stack.extend(read_ahead(db, &module).into_iter().rev());
    }
    files
}

/// Builds the item tree of `module` as the crate's def map reads it, and returns
/// the files of the modules it declares that `cfg` keeps, in source order (none
/// when a `#![cfg]` turns the file off).
pub(crate) fn read_ahead(db: &dyn HirDatabase, module: &ModuleFile) -> Vec<ModuleFile> {
    let file = EditionedFileId::new(db, module.file, module.krate.data(db).edition);
    hir_def::item_tree::file_item_tree(db, file.into(), module.krate);
    let tree = file.parse(db).tree();
    let cfg = module.krate.cfg_options(db);
    let mut found = Vec::new();
    if enabled(&tree, cfg) {
        declared(db, module, tree.items(), &module.dir, module.non_dir_owner, cfg, &mut found);
    }
    found
}

/// The files of the modules `items` declare (descending into inline modules),
/// `dir` being where `mod foo;` looks for `foo.rs`.
fn declared(
    db: &dyn HirDatabase,
    module: &ModuleFile,
    items: impl Iterator<Item = ast::Item>,
    dir: &str,
    non_dir_owner: bool,
    cfg: &CfgOptions,
    found: &mut Vec<ModuleFile>,
) {
    for item in items {
        let ast::Item::Module(declaration) = item else { continue };
        if !enabled(&declaration, cfg) || has_cfg_attr(&declaration) {
            continue;
        }
        let Some(name) = declaration.name() else { continue };
        let name = name.text();
        let name = name.trim_start_matches("r#");
        let path_attr = path_attr(&declaration);
        if let Some(inline) = declaration.item_list() {
            let inner = match &path_attr {
                None => format!("{dir}{name}/"),
                Some(path) => {
                    let mut inner = join_path_attr(dir, path, non_dir_owner);
                    if !(inner.is_empty() || inner.ends_with('/')) {
                        inner.push('/');
                    }
                    inner
                }
            };
            declared(db, module, inline.items(), &inner, false, cfg, found);
            continue;
        }
        let candidates = match &path_attr {
            Some(path) => vec![join_path_attr(dir, path, non_dir_owner)],
            None => vec![format!("{dir}{name}.rs"), format!("{dir}{name}/mod.rs")],
        };
        for candidate in candidates {
            let Some(file) = db.resolve_path(AnchoredPath { anchor: module.file, path: &candidate }) else { continue };
            let dir_owner = path_attr.is_some() || candidate.ends_with("/mod.rs");
            found.push(ModuleFile {
                krate: module.krate,
                file,
                dir: if dir_owner { String::new() } else { format!("{name}/") },
                non_dir_owner: !dir_owner,
            });
            break;
        }
    }
}

/// Whether no `#[cfg]` on `node` is off.
pub(crate) fn enabled(node: &impl HasAttrs, cfg: &CfgOptions) -> bool {
    node.attrs().all(|attr| match attr.meta() {
        Some(ast::Meta::CfgMeta(meta)) => {
            meta.cfg_predicate().is_none_or(|predicate| cfg.check(&CfgExpr::parse_from_ast(predicate)) != Some(false))
        }
        _ => true,
    })
}

/// A `#[cfg_attr]` may give the module a `#[path]` or a `#[cfg]`: left to the def map.
fn has_cfg_attr(node: &impl HasAttrs) -> bool {
    node.attrs().any(|attr| matches!(attr.meta(), Some(ast::Meta::CfgAttrMeta(_))))
}

/// The string of a `#[path = "…"]`.
fn path_attr(node: &impl HasAttrs) -> Option<String> {
    node.attrs().find_map(|attr| match attr.meta()? {
        ast::Meta::KeyValueMeta(meta) if meta.path()?.syntax().text() == "path" => {
            let ast::Expr::Literal(literal) = meta.expr()? else { return None };
            let ast::LiteralKind::String(string) = literal.kind() else { return None };
            Some(string.value().ok()?.into_owned())
        }
        _ => None,
    })
}

/// A `#[path]` joined to the directory it is relative to: `dir`, or for a
/// `name.rs` file its own directory (`dir` without `name/`).
fn join_path_attr(dir: &str, path: &str, non_dir_owner: bool) -> String {
    let base = if non_dir_owner {
        let dir = dir.strip_suffix('/').unwrap_or(dir);
        &dir[..dir.rfind('/').map_or(0, |slash| slash + 1)]
    } else {
        dir
    };
    let path = path.strip_prefix("./").unwrap_or(path).replace('\\', "/");
    format!("{base}{path}")
}
