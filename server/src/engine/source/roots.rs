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
use hir_def::{FunctionId, HasModule, ItemContainerId, ModuleDefId};
use hir_ty::{next_solver::GenericArgs, ParamEnvAndCrate};
use ra_ap_ide_db::{
    base_db::{Crate, SourceDatabase as _},
    RootDatabase,
};
use ra_ap_syntax::{ast::HasName, AstNode};
use ra_ap_vfs::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

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

/// Whether `func` is a free function or an inherent method: every call of it
/// names it, none goes through a trait.
pub(crate) fn is_free_or_inherent(db: &dyn HirDatabase, func: FunctionId) -> bool {
    match func.loc(db).container {
        ItemContainerId::ModuleId(_) => true,
        ItemContainerId::ImplId(_) => implemented_trait(db, func).is_none(),
        _ => false,
    }
}

/// The trait whose method `func` is, when it is a method of a trait impl.
pub(crate) fn implemented_trait(db: &dyn HirDatabase, func: FunctionId) -> Option<hir_def::TraitId> {
    let ItemContainerId::ImplId(impl_) = func.loc(db).container else { return None };
    Some(db.impl_trait(impl_)?.skip_binder().def_id.0)
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

/// Whether `file`, parsed as its first crate's edition, has syntax errors.
fn has_syntax_errors(sema: &Semantics<'_, RootDatabase>, file: FileId) -> bool {
    sema.attach_first_edition(file).parse_errors(sema.db).is_some()
}

/// Where exemptions stand: (file, 1-based line) -> index into the analysis's list.
pub(crate) type ExemptLines = FxHashMap<(std::path::PathBuf, u32), usize>;
