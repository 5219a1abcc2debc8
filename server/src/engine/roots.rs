//! Which functions are roots: the items under `// noalloc:root` (a fn, or every fn
//! of an impl or mod) and the functions `--root` patterns name, by any path a user
//! would write — the definition's path or a re-export's (`regex::Regex::is_match`
//! where `Regex` is defined in a private module). A directive on an item that maps
//! to no function, and a pattern that matches none, are errors, never ignored. Also
//! reads the other directives (exemptions, `noalloc:fixed`, `noalloc:append`).

use hir::{Semantics, db::HirDatabase};
use hir_def::{CallableDefId, DefWithBodyId, FunctionId, HasModule, ItemContainerId, ModuleDefId};
use hir_ty::{
    InferenceResult, ParamEnvAndCrate,
    next_solver::{GenericArgs, TyKind},
};
use rustc_type_ir::{TypeVisitableExt, inherent::IntoKind};
use ra_ap_ide_db::{RootDatabase, base_db::SourceDatabase as _};
use ra_ap_syntax::{AstNode, ast::HasName};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

use super::{
    CheckConfig, ErrorFinding, ErrorKind, ExemptionReport, Location,
    analysis::{Analyzer, Exemption},
    directives::{self, RootItem},
    root_args::RootPattern,
    naming,
};

pub(crate) struct RootFn {
    pub func: FunctionId,
    pub location: Location,
    /// Concrete generic arguments a `--root` pattern gave (`krate::f::<u32>`),
    /// read already once; empty for every other root.
    pub args: Vec<String>,
}

/// The roots, the directive errors, the files that do not parse, and the `--root`
/// patterns that matched no function or whose generic arguments cannot be read.
pub(crate) struct Roots {
    pub roots: Vec<RootFn>,
    /// Each error with the function it stands in, whose roots it gets once known.
    pub errors: Vec<(ErrorFinding, Option<FunctionId>)>,
    pub broken: Vec<std::path::PathBuf>,
    pub unmatched_patterns: Vec<String>,
    /// Whole messages, one per pattern and function whose arguments fail.
    pub bad_root_arguments: Vec<String>,
}

impl Analyzer<'_> {
    /// Roots from directives and `--root` patterns; malformed directives as errors.
    pub(crate) fn collect_roots(&mut self, config: &CheckConfig) -> Roots {
        let db = self.db;
        let sema = Semantics::new(db);
        let mut roots: Vec<RootFn> = Vec::new();
        let mut errors = Vec::new();
        let mut seen = FxHashSet::default();
        let mut broken = Vec::new();
        // A file that never spells `noalloc` holds no directive (every form does):
        // only its syntax errors are read, on every core.
        let files = self.local_files();
        let spells_noalloc: Vec<bool> = files.iter().map(|&file| db.file_text(file).text(db).contains("noalloc")).collect();
        let plain: Vec<FileId> = files.iter().zip(&spells_noalloc).filter(|(_, spells)| !**spells).map(|(&file, _)| file).collect();
        let threads = super::parallel_names::threads(config.jobs);
        let plain_broken: FxHashSet<FileId> = super::on_every_core::map(db, &plain, threads, 50, |db, &file| {
            has_syntax_errors(&Semantics::new(db), file).then_some(file)
        })
        .into_iter()
        .flatten()
        .collect();
        for (file, spells_noalloc) in files.into_iter().zip(spells_noalloc) {
            if !spells_noalloc {
                if plain_broken.contains(&file) {
                    broken.extend(self.ws.file_path(file));
                }
                continue;
            }
            let source = sema.parse_guess_edition(file);
            if has_syntax_errors(&sema, file) {
                broken.extend(self.ws.file_path(file));
            }
            let found = directives::collect(&source);
            let function_at = |offset: ra_ap_syntax::TextSize| {
                source
                    .syntax()
                    .token_at_offset(offset)
                    .right_biased()
                    .and_then(|token| token.parent_ancestors().find_map(ra_ap_syntax::ast::Fn::cast))
                    .and_then(|f| sema.to_def(&f))
                    .and_then(function_id)
            };
            for error in found.errors {
                if let Some(location) = self.location(file, error.range) {
                    let func = function_at(error.range.start());
                    errors.push((self.error(ErrorKind::MalformedDirective, location, error.message, func), func));
                }
            }
            for site in found.exemptions {
                let Some(location) = self.location(file, site.comment) else { continue };
                let func = function_at(site.comment.start());
                let covered_line = site.covered_line + 1;
                let line_only = config.line_only.contains(&site.kind);
                for line in site.covered_lines() {
                    self.exempt_lines.insert((location.file.clone(), line + 1), self.exemptions.len());
                }
                self.exemptions.push(Exemption {
                    report: ExemptionReport {
                        location,
                        covered_line,
                        kind: site.kind,
                        reason: site.reason,
                        line_only,
                        lets_through: Vec::new(),
                    },
                    func,
                });
            }
            for adt in &found.fixed_types {
                if let Some(adt) = sema.to_def(adt) {
                    self.fixed_types.insert(adt_id(adt));
                }
            }
            for f in &found.append_fns {
                if let Some(id) = sema.to_def(f).and_then(function_id) {
                    self.append_fns.insert(id);
                }
            }
            for (range, item) in found.roots {
                let mut funcs = Vec::new();
                let node = match &item {
                    RootItem::Fn(f) => f.syntax().clone(),
                    RootItem::Impl(i) => i.syntax().clone(),
                    RootItem::Module(m) => m.syntax().clone(),
                };
                let mapped = match item {
                    RootItem::Fn(f) => sema.to_def(&f).map(|f| funcs.push(f)).is_some(),
                    RootItem::Impl(i) => sema.to_def(&i).map(|imp| funcs.extend(impl_functions(db, imp))).is_some(),
                    RootItem::Module(m) => sema.to_def(&m).map(|module| module_functions(db, module, &mut funcs)).is_some(),
                };
                if !mapped {
                    // An item compiled out by a `cfg` is not part of this build (a
                    // feature-gated root with the feature off). Anything else that
                    // maps to no function (a file outside the module tree, an item
                    // the analysis cannot see) must not pass by silence.
                    if compiled_out(&node) {
                        continue;
                    }
                    if let Some(location) = self.location(file, range) {
                        let message = "noalloc:root on an item the analysis cannot see (is its file part of the crate's module tree?): nothing is checked here";
                        errors.push((self.error(ErrorKind::MalformedDirective, location, message.to_owned(), None), None));
                    }
                    continue;
                }
                for f in funcs {
                    let Some(id) = function_id(f) else { continue };
                    if seen.insert((id, Vec::new())) {
                        let location = self.fn_location(id).or_else(|| self.location(file, range));
                        if let Some(location) = location {
                            roots.push(RootFn { func: id, location, args: Vec::new() });
                        }
                    }
                }
            }
        }
        let mut unmatched_patterns = Vec::new();
        let mut bad_root_arguments = Vec::new();
        if !config.roots.is_empty() {
            let mut patterns = Vec::new();
            for pattern in &config.roots {
                match RootPattern::parse(pattern) {
                    Ok(parsed) => patterns.push((pattern, parsed)),
                    Err(message) => bad_root_arguments.push(message),
                }
            }
            let paths = self.user_paths();
            let mut matched = vec![false; patterns.len()];
            for func in self.all_local_functions() {
                let names = paths.of(db, func);
                for (i, (written, pattern)) in patterns.iter().enumerate() {
                    if !names.iter().any(|name| wildcard_match(&pattern.path, name)) {
                        continue;
                    }
                    matched[i] = true;
                    if !pattern.args.is_empty() {
                        if let Err(why) = super::root_args::lower_root_args(db, func, &pattern.args) {
                            bad_root_arguments.push(format!("--root `{written}` on `{}`: {why}", naming::fn_path(db, func, None)));
                            continue;
                        }
                    }
                    if seen.insert((func, pattern.args.clone())) {
                        if let Some(location) = self.fn_location(func) {
                            roots.push(RootFn { func, location, args: pattern.args.clone() });
                        }
                    }
                }
            }
            unmatched_patterns =
                patterns.iter().zip(matched).filter(|(_, matched)| !matched).map(|((written, _), _)| (*written).clone()).collect();
        }
        roots.sort_by(|a, b| a.location.cmp(&b.location));
        Roots { roots, errors, broken, unmatched_patterns, bad_root_arguments }
    }

    pub(crate) fn fn_location(&mut self, func: FunctionId) -> Option<Location> {
        let db: &dyn HirDatabase = self.db;
        let sema = Semantics::new(self.db);
        let src = sema.source(hir::Function::from(func))?;
        let node = src.value.name().map(|n| n.syntax().clone()).unwrap_or_else(|| src.value.syntax().clone());
        let range = src.with_value(&node).original_file_range_rooted(db);
        self.location(range.file_id.file_id(db), range.range)
    }

    /// Where the whole item of `func` is (its attributes, signature and body).
    pub(crate) fn item_location(&mut self, func: FunctionId) -> Option<Location> {
        let db: &dyn HirDatabase = self.db;
        let src = Semantics::new(self.db).source(hir::Function::from(func))?;
        let range = src.as_ref().map(|node| node.syntax()).original_file_range_rooted(db);
        self.location(range.file_id.file_id(db), range.range)
    }

    fn local_files(&self) -> Vec<FileId> {
        let mut files: Vec<FileId> = self
            .ws
            .vfs
            .iter()
            .map(|(file, _)| file)
            .filter(|&file| self.ws.local_rust_file_path(file).is_some())
            .collect();
        files.sort();
        files
    }

    pub(crate) fn all_local_functions(&self) -> Vec<FunctionId> {
        let db = self.db;
        let mut out = Vec::new();
        for krate in hir::Crate::all(db) {
            if !krate.origin(db).is_local() {
                continue;
            }
            let mut funcs = Vec::new();
            module_functions(db, krate.root_module(db), &mut funcs);
            out.extend(funcs.into_iter().filter_map(function_id));
        }
        out.sort();
        out.dedup();
        out
    }

    /// The re-exports of the workspace's crates: for every module, type and function
    /// that a `use` makes reachable under another path, (definition path, path).
    fn user_paths(&self) -> UserPaths {
        let db = self.db;
        let mut aliases = Vec::new();
        for krate in hir::Crate::all(db) {
            if !krate.origin(db).is_local() {
                continue;
            }
            let root = krate.root_module(db);
            let mut seen = FxHashSet::default();
            collect_aliases(db, root, &naming::module_path(db, root.into()), &mut aliases, &mut seen, 0);
        }
        UserPaths { aliases }
    }
}

/// (definition path, the path a re-export gives it).
struct UserPaths {
    aliases: Vec<(String, String)>,
}

impl UserPaths {
    /// Every path a user may write for `func`.
    fn of(&self, db: &dyn HirDatabase, func: FunctionId) -> Vec<String> {
        let defined = naming::fn_path(db, func, None);
        let mut out = vec![defined.clone()];
        for (def, alias) in &self.aliases {
            if let Some(rest) = defined.strip_prefix(def.as_str()) {
                if rest.is_empty() || rest.starts_with("::") {
                    let path = format!("{alias}{rest}");
                    if !out.contains(&path) {
                        out.push(path);
                    }
                }
            }
        }
        out
    }
}

fn collect_aliases(
    db: &RootDatabase,
    module: hir::Module,
    prefix: &str,
    out: &mut Vec<(String, String)>,
    seen: &mut FxHashSet<hir::Module>,
    depth: usize,
) {
    // Each module once, under the first path found to it.
    if depth > 16 || !seen.insert(module) {
        return;
    }
    for (name, def) in module.scope(db, None) {
        let hir::ScopeDef::ModuleDef(def) = def else { continue };
        let path = format!("{prefix}::{}", name.as_str());
        // Only the workspace's own items: its functions are the candidates.
        if def.module(db).is_none_or(|m| m.krate(db) != module.krate(db)) && !matches!(def, hir::ModuleDef::Module(_)) {
            continue;
        }
        let defined = match def {
            hir::ModuleDef::Module(child) if child.krate(db) != module.krate(db) => continue,
            hir::ModuleDef::Module(child) => {
                collect_aliases(db, child, &path, out, seen, depth + 1);
                naming::module_path(db, child.into())
            }
            hir::ModuleDef::Adt(adt) => naming::adt_path(db, adt_id(adt)),
            hir::ModuleDef::Function(f) => match function_id(f) {
                Some(id) => naming::fn_path(db, id, None),
                None => continue,
            },
            _ => continue,
        };
        if defined != path && !out.contains(&(defined.clone(), path.clone())) {
            out.push((defined, path));
        }
    }
}

/// Whether an item (or a module around it) carries a `#[cfg(..)]`: when it maps to
/// nothing, the configuration compiled it out.
fn compiled_out(item: &ra_ap_syntax::SyntaxNode) -> bool {
    use ra_ap_syntax::ast::HasAttrs;
    item.ancestors().filter_map(ra_ap_syntax::ast::AnyHasAttrs::cast).any(|node| {
        node.attrs().any(|attr| {
            let text: String = attr.syntax().text().to_string().chars().filter(|c| !c.is_whitespace()).collect();
            text.starts_with("#[cfg(") || text.starts_with("#![cfg(")
        })
    })
}

pub(crate) fn function_id(f: hir::Function) -> Option<FunctionId> {
    match ModuleDefId::try_from(hir::ModuleDef::Function(f)) {
        Ok(ModuleDefId::FunctionId(id)) => Some(id),
        _ => None,
    }
}

pub(crate) fn adt_id(adt: hir::Adt) -> hir_def::AdtId {
    match adt {
        hir::Adt::Struct(s) => hir_def::AdtId::StructId(s.into()),
        hir::Adt::Enum(e) => hir_def::AdtId::EnumId(e.into()),
        hir::Adt::Union(u) => hir_def::AdtId::UnionId(u.into()),
    }
}

fn impl_functions(db: &RootDatabase, imp: hir::Impl) -> Vec<hir::Function> {
    imp.items(db)
        .into_iter()
        .filter_map(|item| match item {
            hir::AssocItem::Function(f) => Some(f),
            _ => None,
        })
        .collect()
}

/// Every function declared in `module` and its submodules, impls included.
fn module_functions(db: &RootDatabase, module: hir::Module, out: &mut Vec<hir::Function>) {
    for decl in module.declarations(db) {
        match decl {
            hir::ModuleDef::Function(f) => out.push(f),
            hir::ModuleDef::Module(child) => module_functions(db, child, out),
            _ => {}
        }
    }
    for imp in module.impl_defs(db) {
        out.extend(impl_functions(db, imp));
    }
}

/// The concrete generic arguments the workspace's code instantiates `func` with:
/// calls and function items naming it (a trait impl's method also through the
/// trait's method, at the types that select it), with no parameter left open.
///
/// Only the bodies that can name `func` are inferred: those whose paths or method
/// calls use one of its names (the names it is imported under included), or that
/// hold items of their own (a `use` there may rename it). A function an operator,
/// a `for` loop, `?` or `.await` may call without naming it is looked for in every
/// body. So a generic root costs the bodies that mention it, not the workspace.
pub(crate) fn instantiations<'db>(db: &'db dyn HirDatabase, func: FunctionId, local: &[FunctionId]) -> Vec<GenericArgs<'db>> {
    let name = &hir_def::signatures::FunctionSignature::of(db, func).name;
    let called_unnamed = called_without_its_name(db, func);
    let names = if called_unnamed { Vec::new() } else { names_of(db, func) };
    let mut out: Vec<GenericArgs<'db>> = Vec::new();
    for &caller in local {
        if !called_unnamed {
            let named = super::incremental::names_in_body(db, caller);
            if !named.holds_items && !names.iter().any(|name| named.names.contains(name)) {
                continue;
            }
        }
        let owner = DefWithBodyId::FunctionId(caller);
        let infer = InferenceResult::of(db, owner);
        let mut env = None;
        for (expr, ty) in infer.expression_types() {
            let named = match ty.kind() {
                TyKind::FnDef(def, args) => Some((def.0, args)).filter(|&(def, _)| def == CallableDefId::FunctionId(func)).map(|(_, args)| args),
                _ => None,
            };
            let resolved = infer.method_resolution(expr).and_then(|(callee, args)| {
                if callee == func {
                    return Some(args);
                }
                let ItemContainerId::TraitId(_) = callee.loc(db).container else { return None };
                if hir_def::signatures::FunctionSignature::of(db, callee).name != *name || args.has_param() {
                    return None;
                }
                let env = *env.get_or_insert_with(|| ParamEnvAndCrate { param_env: db.trait_environment(caller.into()), krate: caller.krate(db) });
                match db.lookup_impl_method(env, callee, args) {
                    (either::Either::Left(impl_fn), impl_args) if impl_fn == func => Some(impl_args),
                    _ => None,
                }
            });
            for args in named.into_iter().chain(resolved) {
                if !args.has_param() && !args.has_non_region_infer() && !out.contains(&args) {
                    out.push(args);
                }
            }
        }
    }
    out
}

/// Methods of the traits that operators, `for` loops, `?`, `.await`, calls of
/// closures, drops and formatting call without naming them.
const CALLED_WITHOUT_ITS_NAME: &[&str] = &[
    "add", "sub", "mul", "div", "rem", "neg", "not", "bitand", "bitor", "bitxor", "shl", "shr",
    "add_assign", "sub_assign", "mul_assign", "div_assign", "rem_assign", "bitand_assign",
    "bitor_assign", "bitxor_assign", "shl_assign", "shr_assign", "index", "index_mut", "deref",
    "deref_mut", "eq", "ne", "lt", "le", "gt", "ge", "partial_cmp", "cmp", "into_iter", "next",
    "branch", "from_residual", "from_output", "from", "poll", "into_future", "call", "call_mut",
    "call_once", "drop", "fmt", "clone",
];

/// The names `func` goes by in the workspace: its own and those imports give it.
/// The names a body must use to instantiate `func` (`instantiations`); `None` when
/// it may without naming it.
pub(crate) fn instantiating_names(db: &dyn HirDatabase, func: FunctionId) -> Option<Vec<String>> {
    if called_without_its_name(db, func) {
        return None;
    }
    Some(names_of(db, func).iter().map(|name| name.as_str().to_owned()).collect())
}

/// Whether `file`, parsed as its first crate's edition, has syntax errors.
fn has_syntax_errors(sema: &Semantics<'_, RootDatabase>, file: FileId) -> bool {
    sema.attach_first_edition(file).parse_errors(sema.db).is_some()
}

/// Whether code may call `func` without spelling its name: an operator's or a
/// desugaring's trait method, or a lang item (a `no_std` crate may define one).
fn called_without_its_name(db: &dyn HirDatabase, func: FunctionId) -> bool {
    let name = &hir_def::signatures::FunctionSignature::of(db, func).name;
    CALLED_WITHOUT_ITS_NAME.contains(&name.as_str())
        || hir_def::attrs::AttrFlags::lang_item(db, hir_def::AttrDefId::FunctionId(func)).is_some()
}

fn names_of(db: &dyn HirDatabase, func: FunctionId) -> Vec<hir::Name> {
    let mut names = vec![hir_def::signatures::FunctionSignature::of(db, func).name.clone()];
    for krate in super::load::workspace_crates(db) {
        for (_, module) in hir_def::nameres::crate_def_map(db, krate).modules() {
            for (name, item) in module.scope.values() {
                if item.def == ModuleDefId::FunctionId(func) && !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    }
    names
}

/// `*` matches any run of characters; everything else matches itself. How
/// `--root` patterns and allowlist lines match paths.
pub fn wildcard_match(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Where exemptions stand: (file, 1-based line) -> index into the analysis's list.
pub(crate) type ExemptLines = FxHashMap<(std::path::PathBuf, u32), usize>;

#[cfg(test)]
mod tests {
    use super::wildcard_match;

    #[test]
    fn wildcards() {
        assert!(wildcard_match("krate::m::f", "krate::m::f"));
        assert!(!wildcard_match("krate::m::f", "krate::m::g"));
        assert!(wildcard_match("krate::*", "krate::m::f"));
        assert!(wildcard_match("*::handle", "krate::Server::handle"));
        assert!(wildcard_match("krate::*::new*", "krate::a::b::new_with"));
        assert!(!wildcard_match("krate::*::new", "other::a::new"));
    }
}
