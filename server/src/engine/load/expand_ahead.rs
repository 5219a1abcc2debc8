//! The item-level macro calls of a crate's files, and those their expansions
//! make, expanded before the crate's def map asks for them: a def map's time is
//! mostly expanding macros, and name resolution (`parallel_names`) runs this on
//! a core that has nothing else to do once the item trees are read ahead.
//!
//! Only a head start, never an answer. A call is expanded here as the def map's
//! collector would expand it (the same `MacroCallLoc`: definition, crate, call
//! site, syntax context and depth, so salsa holds one expansion for both) when
//! its path is one name that exactly one `macro_rules!` of the crate defines, in
//! a file `module_files` found. A guess that the def map resolves otherwise (a
//! macro of another crate by that name, a definition a macro makes) leaves an
//! expansion nobody reads: time and memory lost, nothing else.

use hir::db::HirDatabase;
use hir_expand::{AstId, ExpandTo, HirFileId, InFile, MacroCallId, MacroCallKind, MacroDefId, MacroDefKind};
use ra_ap_cfg::CfgOptions;
use ra_ap_ide_db::base_db::{Crate, EditionedFileId};
use ra_ap_syntax::{ast, ast::HasAttrs, ast::HasModuleItem, ast::HasName, AstNode};
use ra_ap_vfs::FileId;
use rustc_hash::FxHashMap;

use super::module_files::enabled;

/// How deep the def map's collector is when it meets a call in a file: one
/// below the file's own items.
const FIRST_LEVEL: u32 = 1;

/// Calls deeper than this in expansions are left to the def map.
const DEEPEST: u32 = 32;

/// Expands the item-level macro calls of `files` (the crate's files, in the
/// order its def map reads them) from the last file back, each call's expansion
/// with the calls it makes, until `stop` says to (the def map is built). Returns
/// the calls it expanded.
pub fn expand_ahead(db: &dyn HirDatabase, krate: Crate, files: &[FileId], stop: &dyn Fn() -> bool) -> Vec<MacroCallId> {
    let edition = krate.data(db).edition;
    let cfg = krate.cfg_options(db);
    let mut definitions: FxHashMap<String, Vec<(HirFileId, ast::MacroRules)>> = FxHashMap::default();
    let mut calls = Vec::new();
    for &file in files {
        let file = HirFileId::from(EditionedFileId::new(db, file, edition));
        let HirFileId::FileId(real) = file else { continue };
        let tree = real.parse(db).tree();
        if !enabled(&tree, cfg) {
            continue;
        }
        collect(file, tree.items(), cfg, &mut definitions, &mut calls);
    }
    let definitions: FxHashMap<String, MacroDefId> = definitions
        .into_iter()
        .filter_map(|(name, mut found)| {
            let (file, rules) = found.pop().filter(|_| found.is_empty())?;
            Some((name, definition(db, krate, file, &rules)?))
        })
        .collect();
    // Popped from the back: the last file's last call first, then the calls its
    // expansion makes, as the def map's collector would meet them.
    let mut stack: Vec<(HirFileId, ast::MacroCall, String, u32)> =
        calls.into_iter().map(|(file, call, name)| (file, call, name, FIRST_LEVEL)).collect();
    let mut expanded = Vec::new();
    while let Some((file, call, name, depth)) = stack.pop() {
        let Some(&def) = definitions.get(&name) else { continue };
        if stop() {
            break;
        }
        let Some(path) = call.path() else { continue };
        let ast_id = file.ast_id_map(db).ast_id(&call);
        let ctxt = file.span_map(db).span_for_range(path.syntax().text_range()).ctx;
        let kind = MacroCallKind::FnLike {
            ast_id: InFile::new(file, ast_id),
            expand_to: ExpandTo::from_call_site(&call),
            eager: None,
        };
        let call_id = def.make_call(db, krate, kind, ctxt, depth);
        hir_def::item_tree::file_item_tree(db, call_id.into(), krate);
        expanded.push(call_id);
        if depth < DEEPEST {
            let expansion = HirFileId::from(call_id);
            if let Some(items) = ast::MacroItems::cast(expansion.parse_or_expand(db)) {
                let mut nested = Vec::new();
                collect(expansion, items.items(), cfg, &mut FxHashMap::default(), &mut nested);
                stack.extend(nested.into_iter().rev().map(|(file, call, name)| (file, call, name, depth + 1)));
            }
        }
    }
    expanded
}

/// The `macro_rules!` definitions and the one-name macro calls among `items`,
/// inline modules included, that `cfg` keeps.
fn collect(
    file: HirFileId,
    items: impl Iterator<Item = ast::Item>,
    cfg: &CfgOptions,
    definitions: &mut FxHashMap<String, Vec<(HirFileId, ast::MacroRules)>>,
    calls: &mut Vec<(HirFileId, ast::MacroCall, String)>,
) {
    for item in items {
        if !enabled(&item, cfg) {
            continue;
        }
        match item {
            ast::Item::MacroRules(rules) => {
                if let Some(name) = rules.name() {
                    definitions.entry(name.text().to_string()).or_default().push((file, rules));
                }
            }
            ast::Item::MacroCall(call) => {
                let name =
                    call.path().filter(|path| path.qualifier().is_none()).and_then(|path| path.segment()?.name_ref());
                if let Some(name) = name {
                    calls.push((file, call, name.text().to_string()));
                }
            }
            ast::Item::Module(module) => {
                if let Some(inline) = module.item_list() {
                    collect(file, inline.items(), cfg, definitions, calls);
                }
            }
            _ => {}
        }
    }
}

/// The macro `rules` defines, as the def map's collector makes it; none for a
/// built-in macro or attributes only the collector reads right (`cfg_attr`).
fn definition(db: &dyn HirDatabase, krate: Crate, file: HirFileId, rules: &ast::MacroRules) -> Option<MacroDefId> {
    let mut local_inner = false;
    let mut allow_internal_unsafe = false;
    for attr in rules.attrs() {
        let Some(meta) = attr.meta() else { continue };
        let tokens = match &meta {
            ast::Meta::CfgAttrMeta(_) => return None,
            ast::Meta::TokenTreeMeta(meta) => meta.token_tree(),
            _ => None,
        };
        let Some(path) = meta.path() else { continue };
        match path.syntax().text().to_string().as_str() {
            "rustc_builtin_macro" => return None,
            "macro_export" => {
                local_inner =
                    tokens.is_some_and(|tokens| tokens.syntax().text().to_string().contains("local_inner_macros"))
            }
            "allow_internal_unsafe" => allow_internal_unsafe = true,
            _ => {}
        }
    }
    let ast_id: AstId<ast::Macro> = InFile::new(file, file.ast_id_map(db).ast_id(rules).upcast());
    let styles = ast_id.decl_macro_expander(db, krate).mac.rule_styles();
    Some(MacroDefId {
        krate,
        edition: krate.data(db).edition,
        kind: MacroDefKind::Declarative(ast_id, styles),
        local_inner,
        allow_internal_unsafe,
    })
}
