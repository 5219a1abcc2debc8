//! Which functions are roots: the items under `// noalloc:root` (a fn, or every fn
//! of an impl or mod) and the functions `--root` patterns name, by any path a user
//! would write — the definition's path or a re-export's (`regex::Regex::is_match`
//! where `Regex` is defined in a private module), in the workspace or in a crate of
//! its graph the pattern's first segment names (`memchr::memchr`). A directive on
//! an item that maps to no function, and a pattern that matches none, are errors,
//! never ignored. Also reads the other directives (exemptions, `noalloc:fixed`,
//! `noalloc:append`), from the workspace's files only: a dependency's `noalloc:`
//! comments are its author's.

use std::collections::VecDeque;

use hir::{db::HirDatabase, Semantics};
use hir_def::{CallableDefId, DefWithBodyId, FunctionId, HasModule, ItemContainerId, ModuleDefId};
use hir_ty::{
    next_solver::{DbInterner, GenericArgs, Region, RegionKind, SolverDefId, Ty, TyKind},
    InferenceResult, ParamEnvAndCrate,
};
use ra_ap_ide_db::{
    base_db::{Crate, SourceDatabase as _},
    RootDatabase,
};
use ra_ap_syntax::{ast::HasName, AstNode};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};
use rustc_type_ir::{
    inherent::{GenericArgs as _, IntoKind},
    TypeFlags, TypeFoldable, TypeFolder, TypeSuperFoldable, TypeVisitableExt,
};

use super::{
    directives::{self, RootItem},
    naming,
    root_args::RootPattern,
};
use crate::engine::{
    analysis::{Analyzer, Exemption},
    CheckConfig, ErrorFinding, ErrorKind, ExemptionReport, Location,
};

pub(crate) struct RootFn {
    pub func: FunctionId,
    pub location: Location,
    /// Concrete generic arguments a `--root` pattern gave (`krate::f::<u32>`),
    /// read already once; empty for every other root.
    pub args: Vec<String>,
}

/// The roots, the directives beside them, the directive errors, the files that do
/// not parse, and the `--root` patterns that matched no function or whose generic
/// arguments cannot be read.
#[derive(Default)]
pub(crate) struct Roots {
    pub roots: Vec<RootFn>,
    pub directives: Directives,
    /// Each error with the function it stands in, whose roots it gets once known.
    pub errors: Vec<(ErrorFinding, Option<FunctionId>)>,
    pub broken: Vec<std::path::PathBuf>,
    pub unmatched_patterns: Vec<String>,
    /// Whole messages, one per pattern and function whose arguments fail.
    pub bad_root_arguments: Vec<String>,
    /// The crates outside the workspace that hold a root (`--root memchr::memchr`):
    /// their code is examined as the workspace's is.
    pub dependency_crates: Vec<Crate>,
}

/// The directives other than roots: exemptions, `noalloc:fixed` types and
/// `noalloc:append` functions.
#[derive(Default)]
pub(crate) struct Directives {
    pub exemptions: Vec<Exemption>,
    /// (file, 1-based line) -> index into `exemptions`.
    pub exempt_lines: ExemptLines,
    pub fixed_types: FxHashSet<hir_def::AdtId>,
    pub append_fns: FxHashSet<FunctionId>,
}

/// Roots already found, by function and pattern arguments.
type SeenRoots = FxHashSet<(FunctionId, Vec<String>)>;

impl Analyzer<'_> {
    /// Roots from directives and `--root` patterns, the other directives, and
    /// malformed directives as errors.
    pub(crate) fn collect_roots(&mut self, config: &CheckConfig) -> Roots {
        let db = self.db;
        let sema = Semantics::new(db);
        let mut found = Roots::default();
        let mut seen = SeenRoots::default();
        // A file that never spells `noalloc` holds no directive (every form does):
        // only its syntax errors are read, on every core.
        let files = self.local_files();
        let spells_noalloc: Vec<bool> =
            files.iter().map(|&file| db.file_text(file).text(db).contains("noalloc")).collect();
        let plain: Vec<FileId> =
            files.iter().zip(&spells_noalloc).filter(|(_, spells)| !**spells).map(|(&file, _)| file).collect();
        let threads = crate::engine::load::parallel_names::threads(config.jobs);
        let plain_broken: FxHashSet<FileId> =
            crate::engine::load::on_every_core::map(db, &plain, threads, 50, |db, &file| {
                has_syntax_errors(&Semantics::new(db), file).then_some(file)
            })
            .into_iter()
            .flatten()
            .collect();
        for (file, spells_noalloc) in files.into_iter().zip(spells_noalloc) {
            if !spells_noalloc {
                if plain_broken.contains(&file) {
                    found.broken.extend(self.ws.file_path(file));
                }
                continue;
            }
            self.read_file_directives(&sema, file, config, &mut seen, &mut found);
        }
        if !config.roots.is_empty() {
            self.roots_of_patterns(config, &mut seen, &mut found);
        }
        found.roots.sort_by(|a, b| a.location.cmp(&b.location));
        found
    }

    /// The directives of one file that spells `noalloc`, added to `found`.
    fn read_file_directives(
        &mut self,
        sema: &Semantics<'_, RootDatabase>,
        file: FileId,
        config: &CheckConfig,
        seen: &mut SeenRoots,
        found: &mut Roots,
    ) {
        let source = sema.parse_guess_edition(file);
        if has_syntax_errors(sema, file) {
            found.broken.extend(self.ws.file_path(file));
        }
        let read = directives::collect(&source);
        let function_at = |offset: ra_ap_syntax::TextSize| {
            source
                .syntax()
                .token_at_offset(offset)
                .right_biased()
                .and_then(|token| token.parent_ancestors().find_map(ra_ap_syntax::ast::Fn::cast))
                .and_then(|f| sema.to_def(&f))
                .and_then(function_id)
        };
        for error in read.errors {
            if let Some(location) = self.location(file, error.range) {
                let func = function_at(error.range.start());
                found.errors.push((self.error(ErrorKind::MalformedDirective, location, error.message, func), func));
            }
        }
        let directives = &mut found.directives;
        for site in read.exemptions {
            let Some(location) = self.location(file, site.comment) else { continue };
            let func = function_at(site.comment.start());
            let covered_line = site.covered_line + 1;
            let line_only = config.line_only.contains(&site.kind);
            for line in site.covered_lines() {
                directives.exempt_lines.insert((location.file.clone(), line + 1), directives.exemptions.len());
            }
            directives.exemptions.push(Exemption {
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
        for adt in &read.fixed_types {
            if let Some(adt) = sema.to_def(adt) {
                directives.fixed_types.insert(adt_id(adt));
            }
        }
        for f in &read.append_fns {
            if let Some(id) = sema.to_def(f).and_then(function_id) {
                directives.append_fns.insert(id);
            }
        }
        for (range, item) in read.roots {
            self.roots_of_directive(sema, file, range, item, seen, found);
        }
    }

    /// The functions a `noalloc:root` directive at `range` stands on, added to
    /// `found`; an item it cannot map to a function is an error.
    fn roots_of_directive(
        &mut self,
        sema: &Semantics<'_, RootDatabase>,
        file: FileId,
        range: ra_ap_syntax::TextRange,
        item: RootItem,
        seen: &mut SeenRoots,
        found: &mut Roots,
    ) {
        let db = self.db;
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
            if compiled_out(&node) || self.in_another_project(file) {
                return;
            }
            if let Some(location) = self.location(file, range) {
                let message = "noalloc:root on an item the analysis cannot see (is its file part of the crate's module tree?): nothing is checked here";
                found
                    .errors
                    .push((self.error(ErrorKind::MalformedDirective, location, message.to_owned(), None), None));
            }
            return;
        }
        for f in funcs {
            let Some(id) = function_id(f) else { continue };
            if seen.insert((id, Vec::new())) {
                let location = self.fn_location(id).or_else(|| self.location(file, range));
                if let Some(location) = location {
                    found.roots.push(RootFn { func: id, location, args: Vec::new() });
                }
            }
        }
    }

    /// The functions the `--root` patterns match, by any path a user may write,
    /// added to `found`, with the patterns that match none and those whose
    /// arguments cannot be read. A pattern's first segment names a crate as code
    /// writes it: `hex::*` is the library `hex` (what `use hex::…` names from each
    /// target of its package), not a bench, test, example or binary beside it that
    /// cargo names `hex` too (`beside_library`); those are looked in only for the
    /// patterns the library leaves unmatched (`hex::main`).
    fn roots_of_patterns(&mut self, config: &CheckConfig, seen: &mut SeenRoots, found: &mut Roots) {
        let db = self.db;
        let mut patterns = Vec::new();
        for pattern in &config.roots {
            match RootPattern::parse(pattern) {
                Ok(parsed) => patterns.push((pattern, parsed)),
                Err(message) => found.bad_root_arguments.push(message),
            }
        }
        let paths = self.user_paths();
        let beside = beside_library(db);
        let (first, second): (Vec<FunctionId>, Vec<FunctionId>) =
            self.all_local_functions().into_iter().partition(|func| !beside.contains(&func.krate(db)));
        let pattern_paths: Vec<&str> = patterns.iter().map(|(_, pattern)| pattern.path.as_str()).collect();
        let dependencies = dependency_functions(db, &pattern_paths);
        let mut matched = vec![false; patterns.len()];
        let first = first.into_iter().map(|func| (func, paths.of(db, func))).chain(dependencies);
        let all = vec![true; patterns.len()];
        self.match_patterns(&patterns, &all, first, &mut matched, seen, found);
        if !second.is_empty() && matched.contains(&false) {
            let unmatched: Vec<bool> = matched.iter().map(|m| !m).collect();
            let second = second.into_iter().map(|func| (func, paths.of(db, func)));
            self.match_patterns(&patterns, &unmatched, second, &mut matched, seen, found);
        }
        found.unmatched_patterns = patterns
            .iter()
            .zip(matched)
            .filter(|(_, matched)| !matched)
            .map(|((written, _), _)| (*written).clone())
            .collect();
    }

    /// Adds to `found` the functions of `candidates` (each with the paths a user
    /// may write for it) that the patterns `asked` match, marking them `matched`.
    fn match_patterns(
        &mut self,
        patterns: &[(&String, RootPattern)],
        asked: &[bool],
        candidates: impl Iterator<Item = (FunctionId, Vec<String>)>,
        matched: &mut [bool],
        seen: &mut SeenRoots,
        found: &mut Roots,
    ) {
        let db = self.db;
        for (func, names) in candidates {
            for (i, (written, pattern)) in patterns.iter().enumerate() {
                if !asked[i] || !names.iter().any(|name| crate::stdx::wildcard_match(&pattern.path, name)) {
                    continue;
                }
                matched[i] = true;
                if !pattern.args.is_empty() {
                    if let Err(why) = super::root_args::lower_root_args(db, func, &pattern.args) {
                        found
                            .bad_root_arguments
                            .push(format!("--root `{written}` on `{}`: {why}", naming::fn_path(db, func, None)));
                        continue;
                    }
                }
                if seen.insert((func, pattern.args.clone())) {
                    if let Some(location) = self.fn_location(func) {
                        found.roots.push(RootFn { func, location, args: pattern.args.clone() });
                    }
                    let krate = func.krate(db);
                    if !krate.data(db).origin.is_local() && !found.dependency_crates.contains(&krate) {
                        found.dependency_crates.push(krate);
                    }
                }
            }
        }
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

    /// Whether `file` belongs to another cargo project nested in a package's
    /// folder (a `fuzz/` or benchmark workspace with its own `Cargo.toml`): the
    /// nearest folder above it that holds a `Cargo.toml` is no loaded package's.
    /// Such a file is not this workspace's code, and its roots are that project's.
    fn in_another_project(&self, file: FileId) -> bool {
        // The folder of the manifest that holds a file: the nearest above it with a `Cargo.toml`.
        let manifest_dir = |file: FileId| {
            self.ws
                .file_path(file)?
                .ancestors()
                .skip(1)
                .find(|dir| dir.join("Cargo.toml").is_file())
                .map(std::path::Path::to_path_buf)
        };
        let Some(own) = manifest_dir(file) else { return false };
        let db = self.db;
        !hir::Crate::all(db)
            .into_iter()
            .filter(|krate| krate.origin(db).is_local())
            .any(|krate| manifest_dir(krate.root_file(db)).is_some_and(|dir| dir == own))
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

/// The functions of the crates outside the workspace that a pattern's first
/// segment names (no wildcard there: `*::f` means the workspace's), each with
/// every path a user may write for it (`naming::exported_fn_paths`) under each name
/// the crate goes by: its own (`memchr`) and those the crates depending on it give
/// it (`fast` for `fast = { package = "memchr" }`). Only crates the workspace
/// links, so a crate built twice (for a build script too) counts once.
fn dependency_functions(db: &RootDatabase, patterns: &[&str]) -> Vec<(FunctionId, Vec<String>)> {
    let first_segments: Vec<&str> = patterns
        .iter()
        .filter_map(|pattern| pattern.split("::").next())
        .filter(|first| !first.is_empty() && !first.contains('*'))
        .collect();
    if first_segments.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (krate, names) in linked_dependencies(db) {
        let canonical = naming::crate_name(db, krate);
        let spelled: Vec<&String> = names.iter().filter(|name| first_segments.contains(&name.as_str())).collect();
        if spelled.is_empty() {
            continue;
        }
        let mut funcs = Vec::new();
        module_functions(db, hir::Crate::from(krate).root_module(db), &mut funcs);
        for func in funcs.into_iter().filter_map(function_id) {
            let exported = naming::exported_fn_paths(db, func);
            let mut paths = Vec::new();
            for name in &spelled {
                for path in &exported {
                    let rest = path.strip_prefix(canonical.as_str()).unwrap_or(path);
                    let path = format!("{name}{rest}");
                    if !paths.contains(&path) {
                        paths.push(path);
                    }
                }
            }
            out.push((func, paths));
        }
    }
    out
}

/// The workspace's crates that depend on a workspace crate of their own name: the
/// targets cargo builds beside a package's library under its name (a `[[bench]]`
/// named like the package, `src/main.rs`), whose code names the library by it.
fn beside_library(db: &RootDatabase) -> FxHashSet<Crate> {
    let mut out = FxHashSet::default();
    for krate in crate::engine::load::workspace_crates(db) {
        let name = naming::crate_name(db, krate);
        let depends_on_namesake = krate
            .data(db)
            .dependencies
            .iter()
            .any(|dep| dep.crate_id.data(db).origin.is_local() && naming::crate_name(db, dep.crate_id) == name);
        if depends_on_namesake {
            out.insert(krate);
        }
    }
    out
}

/// The crates outside the workspace that its crates depend on, directly or not,
/// each with the names it goes by (its own first, then those its dependents give it).
fn linked_dependencies(db: &RootDatabase) -> Vec<(Crate, Vec<String>)> {
    let mut out: Vec<(Crate, Vec<String>)> = Vec::new();
    let mut queue: VecDeque<Crate> = crate::engine::load::workspace_crates(db).into();
    let mut seen: FxHashSet<Crate> = queue.iter().copied().collect();
    while let Some(krate) = queue.pop_front() {
        for dep in &krate.data(db).dependencies {
            let target = dep.crate_id;
            if target.data(db).origin.is_local() {
                if seen.insert(target) {
                    queue.push_back(target);
                }
                continue;
            }
            let at = match out.iter().position(|(known, _)| *known == target) {
                Some(at) => at,
                None => {
                    out.push((target, vec![naming::crate_name(db, target)]));
                    out.len() - 1
                }
            };
            let name = dep.name.to_string();
            if !out[at].1.contains(&name) {
                out[at].1.push(name);
            }
            if seen.insert(target) {
                queue.push_back(target);
            }
        }
    }
    out
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

/// How far the search for a generic root's instantiations follows generic code:
/// generic callers one above another, generic functions followed in all, and
/// instantiations found through them. Past any bound some instantiation may go
/// unseen, and the root is checked at its own parameters too (`instantiations`).
const FOLLOWED_DEPTH: usize = 8;
const FOLLOWED_FUNCTIONS: usize = 64;
const FOLLOWED_INSTANCES: usize = 1024;

/// The concrete generic arguments the workspace's code instantiates `func` with:
/// calls and function items naming it (a trait impl's method also through the
/// trait's method, at the types that select it), with no parameter left open.
/// A call whose arguments are in its caller's own parameters (`outer<T>` calling
/// `func::<T>`, a method of `impl<T> W<T>`, a blanket impl, an `impl Trait`
/// argument, a closure inside a generic function) instantiates `func` at each
/// instantiation of that caller, found the same way (`generic_callers`); a
/// caller generic over lifetimes only instantiates it at its arguments with the
/// lifetimes erased.
///
/// When some instantiation may go unseen (a bound of the search reached, a call
/// that may be `func`'s through a `dyn` or opaque receiver or an inference gap, a
/// caller that code outside the workspace may instantiate), the identity
/// arguments come too: the root is also checked at its own parameters, and its
/// calls on them are findings, never passed.
///
/// Only the bodies that can name a function followed are inferred: those whose
/// paths or method calls use one of its names (the names it is imported under
/// included), or that hold items of their own (a `use` there may rename it). A
/// function an operator, a `for` loop, `?` or `.await` may call without naming it
/// is looked for in every body. So a generic root costs the bodies that mention
/// it and its generic callers, not the workspace. `local` is the workspace's
/// functions (the trait methods with bodies are added).
pub(crate) fn instantiations<'db>(
    db: &'db dyn HirDatabase,
    func: FunctionId,
    local: &[FunctionId],
) -> Vec<GenericArgs<'db>> {
    let callers = generic_callers(db, func);
    let followed = &callers.followed;
    let targets = Targets::new(db, followed);
    let interner = DbInterner::new_no_crate(db);
    let mut found = Found {
        args: vec![Vec::new(); followed.len()],
        queue: VecDeque::new(),
        propagated: 0,
        incomplete: callers.incomplete,
    };
    // The calls in the parameters of a function followed, by that function.
    let mut dependent: Vec<Vec<(usize, Site<'db>)>> = vec![Vec::new(); followed.len()];
    let generic = generic_bodies_of_workspace(db);
    let mut seen = FxHashSet::default();
    let mut sites = Vec::new();
    for &caller in local.iter().chain(&generic) {
        if !seen.insert(caller) || !targets.may_be_named_in(db, caller) {
            continue;
        }
        targets.sites_in(db, caller, &mut sites);
        for (target, site) in sites.drain(..) {
            match site {
                Site::Args(args) | Site::Trait { args, .. } if args.has_non_region_param() => {
                    match followed.iter().position(|&f| f == caller) {
                        Some(c) => dependent[c].push((target, site)),
                        None => found.incomplete = true,
                    }
                }
                Site::Args(args) => found.add(target, erase_early_regions(interner, args), false),
                Site::Trait { .. } | Site::Unknown => found.incomplete = true,
            }
        }
    }
    // Each instantiation of a caller followed, into its calls in its parameters.
    while let Some((c, caller_args)) = found.queue.pop_front() {
        if dependent[c].is_empty() {
            continue;
        }
        let env = env_of(db, followed[c]);
        let mut instantiate =
            crate::engine::proof::subst::Instantiate::new(DbInterner::new_with(db, env.krate), env, caller_args);
        for &(target, site) in &dependent[c] {
            let args = match site {
                Site::Args(args) | Site::Trait { args, .. } => erase_early_regions(interner, instantiate.args(args)),
                Site::Unknown => continue,
            };
            let resolved = match site {
                _ if args.has_non_region_param() || args.has_non_region_infer() => Some(Site::Unknown),
                Site::Trait { callee, .. } => trait_site(db, env, callee, args, followed[target]),
                _ => Some(Site::Args(args)),
            };
            match resolved {
                Some(Site::Args(args)) => found.add(target, args, true),
                Some(_) => found.incomplete = true,
                None => {}
            }
        }
        if found.propagated > FOLLOWED_INSTANCES {
            found.incomplete = true;
            break;
        }
    }
    let mut out = std::mem::take(&mut found.args[0]);
    if found.incomplete {
        let identity = GenericArgs::identity_for_item(interner, SolverDefId::FunctionId(func));
        if !out.contains(&identity) {
            out.push(identity);
        }
    }
    out
}

/// The instantiations found of each function followed (`instantiations`), and
/// those whose calls are still to be followed.
struct Found<'db> {
    args: Vec<Vec<GenericArgs<'db>>>,
    queue: VecDeque<(usize, GenericArgs<'db>)>,
    /// How many were found through a caller's instantiations.
    propagated: usize,
    incomplete: bool,
}

impl<'db> Found<'db> {
    fn add(&mut self, target: usize, args: GenericArgs<'db>, propagated: bool) {
        if !self.args[target].contains(&args) {
            self.propagated += usize::from(propagated);
            self.args[target].push(args);
            self.queue.push_back((target, args));
        }
    }
}

/// One use in a body of a function whose instantiations are looked for.
#[derive(Clone, Copy)]
enum Site<'db> {
    /// A call or function item at these arguments (an impl's, when the call is
    /// through its trait's method), in the parameters of the caller when it is
    /// generic.
    Args(GenericArgs<'db>),
    /// A call of trait method `callee` at `args`, in the caller's parameters:
    /// whether it is the function's depends on what they are.
    Trait { callee: FunctionId, args: GenericArgs<'db> },
    /// A call that may be the function's, at arguments no instantiation tells: a
    /// `dyn` or opaque receiver, an impl no source shows, an inference gap.
    Unknown,
}

/// The functions whose instantiations are looked for, with what a body must name
/// to use one of them.
struct Targets<'a> {
    funcs: &'a [FunctionId],
    /// Each one's name, and the trait whose method it implements.
    names: Vec<hir::Name>,
    traits: Vec<Option<hir_def::TraitId>>,
    /// Every name they go by (imports included).
    all_names: Vec<hir::Name>,
    /// Some may be called without being named: every body may use it.
    unnamed: bool,
}

impl<'a> Targets<'a> {
    fn new(db: &dyn HirDatabase, funcs: &'a [FunctionId]) -> Targets<'a> {
        let names = funcs.iter().map(|&f| hir_def::signatures::FunctionSignature::of(db, f).name.clone()).collect();
        let traits = funcs.iter().map(|&f| implemented_trait(db, f)).collect();
        let unnamed = funcs.iter().any(|&f| called_without_its_name(db, f));
        let mut all_names: Vec<hir::Name> = Vec::new();
        if !unnamed {
            for &f in funcs {
                for name in names_of(db, f) {
                    if !all_names.contains(&name) {
                        all_names.push(name);
                    }
                }
            }
        }
        Targets { funcs, names, traits, all_names, unnamed }
    }

    fn may_be_named_in(&self, db: &dyn HirDatabase, body: FunctionId) -> bool {
        if self.unnamed {
            return true;
        }
        let named = crate::engine::proof::incremental::names_in_body(db, body);
        named.holds_items || self.all_names.iter().any(|name| named.names.contains(name))
    }

    /// The uses of the targets in `caller`'s body (its closures' included), by target.
    fn sites_in<'db>(&self, db: &'db dyn HirDatabase, caller: FunctionId, out: &mut Vec<(usize, Site<'db>)>) {
        let infer = InferenceResult::of(db, DefWithBodyId::FunctionId(caller));
        let mut env = None;
        for (expr, ty) in infer.expression_types() {
            if let TyKind::FnDef(def, args) = ty.kind() {
                if let CallableDefId::FunctionId(callee) = def.0 {
                    self.use_of(db, caller, &mut env, callee, args, out);
                }
            }
            if let Some((callee, args)) = infer.method_resolution(expr) {
                self.use_of(db, caller, &mut env, callee, args, out);
            }
        }
    }

    /// What a call or function item of `callee` at `args` in `caller` is to the targets.
    fn use_of<'db>(
        &self,
        db: &'db dyn HirDatabase,
        caller: FunctionId,
        env: &mut Option<ParamEnvAndCrate<'db>>,
        callee: FunctionId,
        args: GenericArgs<'db>,
        out: &mut Vec<(usize, Site<'db>)>,
    ) {
        if let Some(target) = self.funcs.iter().position(|&f| f == callee) {
            out.push((target, if args.has_non_region_infer() { Site::Unknown } else { Site::Args(args) }));
        }
        let ItemContainerId::TraitId(trait_) = callee.loc(db).container else { return };
        let mut name = None;
        for (target, &func) in self.funcs.iter().enumerate() {
            if self.traits[target] != Some(trait_) || func == callee {
                continue;
            }
            if *name.get_or_insert_with(|| &hir_def::signatures::FunctionSignature::of(db, callee).name)
                != &self.names[target]
            {
                continue;
            }
            let env = *env.get_or_insert_with(|| env_of(db, caller));
            if let Some(site) = trait_site(db, env, callee, args, func) {
                out.push((target, site));
            }
        }
    }
}

/// A call of trait method `callee` at `args` as a use of `target`, a method of an
/// impl of that trait: `target`'s arguments when the trait solver selects its
/// impl; `None` when it selects another; when it selects none, `Trait` while the
/// caller's parameters may decide, else `Unknown`.
fn trait_site<'db>(
    db: &'db dyn HirDatabase,
    env: ParamEnvAndCrate<'db>,
    callee: FunctionId,
    args: GenericArgs<'db>,
    target: FunctionId,
) -> Option<Site<'db>> {
    if args.has_non_region_infer() {
        return Some(Site::Unknown);
    }
    let interner = DbInterner::new_with(db, env.krate);
    let args = crate::engine::proof::subst::settled(interner, args);
    match db.lookup_impl_method(env, callee, args) {
        (either::Either::Left(impl_fn), impl_args) if impl_fn == target => Some(if impl_args.has_non_region_infer() {
            Site::Unknown
        } else {
            Site::Args(crate::engine::proof::subst::settled(interner, impl_args))
        }),
        (either::Either::Left(same), _) if same == callee => {
            Some(if args.has_non_region_param() { Site::Trait { callee, args } } else { Site::Unknown })
        }
        _ => None,
    }
}

/// The trait whose method `func` is, when it is a method of a trait impl.
pub(crate) fn implemented_trait(db: &dyn HirDatabase, func: FunctionId) -> Option<hir_def::TraitId> {
    let ItemContainerId::ImplId(impl_) = func.loc(db).container else { return None };
    Some(db.impl_trait(impl_)?.skip_binder().def_id.0)
}

/// Whether code outside the workspace may instantiate `func` where no body of the
/// workspace shows it: a method of an impl of a trait from outside it (std's
/// generic code calls `Clone::clone`, `Iterator::next`, `Drop::drop`, `fmt` on
/// what it is handed, at types only it knows).
fn instantiated_out_of_sight(db: &dyn HirDatabase, func: FunctionId) -> bool {
    implemented_trait(db, func)
        .is_some_and(|trait_| !hir_def::GenericDefId::TraitId(trait_).krate(db).data(db).origin.is_local())
}

/// Whether `identity` (a function's own parameters) has type or const
/// parameters: a generic root, checked at its instantiations, not at itself.
pub(crate) fn is_generic(identity: GenericArgs<'_>) -> bool {
    identity.iter().any(|arg| arg.ty().is_some() || arg.konst().is_some())
}

/// The param env `func`'s body is checked in.
pub(crate) fn env_of<'db>(db: &'db dyn HirDatabase, func: FunctionId) -> ParamEnvAndCrate<'db> {
    ParamEnvAndCrate { param_env: db.trait_environment(func.into()), krate: func.krate(db) }
}

/// `args` with the early-bound lifetimes of a caller generic over them erased,
/// as a caller instantiates them.
fn erase_early_regions<'db>(interner: DbInterner<'db>, args: GenericArgs<'db>) -> GenericArgs<'db> {
    struct Erase<'db>(DbInterner<'db>);
    impl<'db> TypeFolder<DbInterner<'db>> for Erase<'db> {
        fn cx(&self) -> DbInterner<'db> {
            self.0
        }
        fn fold_ty(&mut self, ty: Ty<'db>) -> Ty<'db> {
            if ty.has_type_flags(TypeFlags::HAS_RE_PARAM) {
                ty.super_fold_with(self)
            } else {
                ty
            }
        }
        fn fold_region(&mut self, region: Region<'db>) -> Region<'db> {
            if let RegionKind::ReEarlyParam(_) = region.kind() {
                Region::new_erased(self.0)
            } else {
                region
            }
        }
    }
    if args.has_type_flags(TypeFlags::HAS_RE_PARAM) {
        args.fold_with(&mut Erase(interner))
    } else {
        args
    }
}

/// The generic functions whose instantiations make a generic root's.
#[derive(Debug, PartialEq, Eq, salsa::SalsaValue)]
struct GenericCallers {
    /// The root first, then the generic functions that call one before them at
    /// arguments in their own parameters, nearest first.
    followed: Vec<FunctionId>,
    /// Some instantiation may go unseen: a bound reached, or a function followed
    /// that code outside the workspace may instantiate.
    incomplete: bool,
}

/// `GenericCallers` of `root`: from the root up, each level the generic bodies
/// that call a function of the level below at arguments in their own parameters,
/// up to `FOLLOWED_DEPTH` levels and `FOLLOWED_FUNCTIONS` functions; each function
/// once (recursion and cycles stop there). A query of its own: both what the
/// bodies must name (`instantiating_names`) and the instantiations read it.
#[salsa::tracked(returns(ref))]
fn generic_callers(db: &dyn HirDatabase, root: FunctionId) -> GenericCallers {
    let candidates = generic_bodies_of_workspace(db);
    let mut followed = vec![root];
    // The root is checked at the instantiations the workspace's bodies make, as
    // README's "generic root" says, a method of a trait from outside included. A
    // generic function on the way to it must have all of its instantiations there
    // to be followed: one that code outside may instantiate leaves the search
    // incomplete (`instantiated_out_of_sight`).
    let mut incomplete = false;
    let mut level = 0..1;
    let mut sites = Vec::new();
    for depth in 1.. {
        if level.is_empty() {
            break;
        }
        let below: Vec<FunctionId> = followed[level.clone()].to_vec();
        let targets = Targets::new(db, &below);
        let start = followed.len();
        for &caller in &candidates {
            if followed.contains(&caller) || !targets.may_be_named_in(db, caller) {
                continue;
            }
            targets.sites_in(db, caller, &mut sites);
            let in_parameters = sites.drain(..).any(|(_, site)| match site {
                Site::Args(args) | Site::Trait { args, .. } => args.has_non_region_param(),
                Site::Unknown => false,
            });
            if !in_parameters {
                continue;
            }
            if depth > FOLLOWED_DEPTH || followed.len() >= FOLLOWED_FUNCTIONS {
                incomplete = true;
                continue;
            }
            incomplete |= instantiated_out_of_sight(db, caller);
            followed.push(caller);
        }
        level = start..followed.len();
    }
    GenericCallers { followed, incomplete }
}

/// The functions of the workspace with a body and type or const parameters (their
/// own, their impl's or their trait's, `Self` included): those whose calls may be
/// in parameters an instantiation of them decides. Trait methods with a default
/// body included.
fn generic_bodies_of_workspace(db: &dyn HirDatabase) -> Vec<FunctionId> {
    crate::engine::load::workspace_crates(db)
        .into_iter()
        .flat_map(|krate| generic_bodies(db, krate).iter().copied())
        .collect()
}

/// `generic_bodies_of_workspace` of one crate, read from the syntax of its
/// functions and impls: lowering the signature of every function of a large
/// workspace to learn which are generic would cost more than the rest of the
/// search.
#[salsa::tracked(returns(ref))]
fn generic_bodies(db: &dyn HirDatabase, krate: ra_ap_ide_db::base_db::Crate) -> Vec<FunctionId> {
    use ra_ap_syntax::ast::{self, HasGenericParams};
    // Type or const parameters declared.
    let declares = |list: Option<ast::GenericParamList>| {
        list.is_some_and(|list| {
            list.generic_params().any(|param| !matches!(param, ast::GenericParam::LifetimeParam(_)))
        })
    };
    // A function with a body and parameters of its own, `impl Trait` arguments included.
    let generic_fn = |func: FunctionId, container_generic: bool| {
        let node = func.loc(db).id.to_node(db);
        node.body().is_some()
            && (container_generic
                || declares(node.generic_param_list())
                || node.param_list().is_some_and(|params| {
                    params.syntax().descendants().any(|n| ast::ImplTraitType::can_cast(n.kind()))
                }))
    };
    let mut out = Vec::new();
    let mut add = |func: FunctionId, container_generic: bool| {
        if generic_fn(func, container_generic) {
            out.push(func);
        }
    };
    let functions = |items: &[(hir::Name, hir_def::AssocItemId)]| -> Vec<FunctionId> {
        items
            .iter()
            .filter_map(|&(_, item)| if let hir_def::AssocItemId::FunctionId(func) = item { Some(func) } else { None })
            .collect()
    };
    for (_, module) in hir_def::nameres::crate_def_map(db, krate).modules() {
        for def in module.scope.declarations() {
            match def {
                ModuleDefId::FunctionId(func) => add(func, false),
                // `Self` is a parameter of every trait method.
                ModuleDefId::TraitId(trait_) => {
                    functions(&trait_.trait_items(db).items).into_iter().for_each(|func| add(func, true))
                }
                _ => {}
            }
        }
        for impl_ in module.scope.impls() {
            let generic_impl = declares(impl_.loc(db).id.to_node(db).generic_param_list());
            functions(&impl_.impl_items(db).items).into_iter().for_each(|func| add(func, generic_impl));
        }
    }
    out
}

/// Methods of the traits that operators, `for` loops, `?`, `.await`, calls of
/// closures, drops and formatting call without naming them.
const CALLED_WITHOUT_ITS_NAME: &[&str] = &[
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "neg",
    "not",
    "bitand",
    "bitor",
    "bitxor",
    "shl",
    "shr",
    "add_assign",
    "sub_assign",
    "mul_assign",
    "div_assign",
    "rem_assign",
    "bitand_assign",
    "bitor_assign",
    "bitxor_assign",
    "shl_assign",
    "shr_assign",
    "index",
    "index_mut",
    "deref",
    "deref_mut",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "partial_cmp",
    "cmp",
    "into_iter",
    "next",
    "branch",
    "from_residual",
    "from_output",
    "from",
    "poll",
    "into_future",
    "call",
    "call_mut",
    "call_once",
    "drop",
    "fmt",
    "clone",
];

/// The names a body must use to instantiate `func` (`instantiations`): those of
/// `func` and of the generic functions whose instantiations make its
/// (`generic_callers`), their own and those imports give them; `None` when it may
/// without naming one.
pub(crate) fn instantiating_names(db: &dyn HirDatabase, func: FunctionId) -> Option<Vec<String>> {
    let followed = &generic_callers(db, func).followed;
    if followed.iter().any(|&f| called_without_its_name(db, f)) {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    for &f in followed {
        for name in names_of(db, f) {
            if !out.iter().any(|known| known == name.as_str()) {
                out.push(name.as_str().to_owned());
            }
        }
    }
    Some(out)
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
    for krate in crate::engine::load::workspace_crates(db) {
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

/// Where exemptions stand: (file, 1-based line) -> index into the analysis's list.
pub(crate) type ExemptLines = FxHashMap<(std::path::PathBuf, u32), usize>;
