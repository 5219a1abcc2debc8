//! Derives and glob imports, read for the plain-item diff: whether a touched
//! type's derives make only impls for it (the compiler's own, or a procedural
//! macro's expansion read), which names a glob import brings, and which files
//! may take in another module's public import by a glob.

use super::*;

/// Whether `attr` derives only the compiler's own derives (`Clone`, `Debug`, …,
/// as rust-analyzer resolves them: an import may shadow one), whose impls call
/// no macro and make no path of the item's tokens.
pub(super) fn builtin_derives_only(sema: &Semantics<'_, RootDatabase>, attr: &ast::Attr) -> bool {
    let derive = attr.path().and_then(|path| path.as_single_name_ref()).is_some_and(|name| name.text() == "derive");
    let derived = || attr.meta().and_then(|meta| sema.resolve_derive_macro(&meta));
    derive
        && derived().is_some_and(|derived| {
            derived
                .iter()
                .all(|derived| derived.is_some_and(|derived| derived.kind(sema.db) == hir::MacroKind::DeriveBuiltIn))
        })
}

/// A touched type with derives (`ItemsChanged::derives`).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Derived {
    /// The type's name.
    pub(super) name: String,
    /// The paths its derives name (`derive_names`).
    pub(super) derives: Vec<String>,
    /// Its text, attributes and all.
    pub(super) text: String,
    /// Where it is in the file's text now; `None` for one as it was before.
    pub(super) now: Option<TextRange>,
}

/// The names a glob import of `path` in `file` brings in, when `path` resolves
/// to a module there: those of its scope visible from the file's module.
/// `None` when it resolves to anything else (an enum's variants).
pub(super) fn glob_names(sema: &Semantics<'_, RootDatabase>, file: FileId, path: &str) -> Option<Vec<String>> {
    let mut segments: Vec<&str> = path.split("::").collect();
    let kind = match segments.first().copied()? {
        "" => {
            segments.remove(0);
            hir::PathKind::Abs
        }
        "crate" => {
            segments.remove(0);
            hir::PathKind::Crate
        }
        "self" | "super" => {
            let leading = segments.iter().take_while(|segment| matches!(**segment, "self" | "super")).count();
            let supers = segments[..leading].iter().filter(|segment| **segment == "super").count();
            segments.drain(..leading);
            hir::PathKind::Super(u8::try_from(supers).ok()?)
        }
        _ => hir::PathKind::Plain,
    };
    let segments: Vec<String> = segments.iter().map(|segment| unraw_text(segment)).collect();
    let module = resolved_in_file(sema, file, kind, &segments).into_iter().find_map(|item| match item {
        hir::ItemInNs::Types(hir::ModuleDef::Module(module)) => Some(module),
        _ => None,
    })?;
    let from = sema.file_to_module_def(file)?;
    Some(module.scope(sema.db, Some(from)).into_iter().map(|(name, _)| unraw_text(name.as_str())).collect())
}

/// The paths an attribute `#[derive(A, b::B)]` derives, when that is all it
/// is: each a name or a path of names (no leading `::`, no generic arguments).
pub(super) fn plain_derive(attr: &ast::Attr) -> Option<Vec<String>> {
    let derive = attr.path()?.as_single_name_ref()?;
    if derive.text() != "derive" || attr.excl_token().is_some() {
        return None;
    }
    let ast::Meta::TokenTreeMeta(meta) = attr.meta()? else { return None };
    let tokens = meta.token_tree()?;
    let mut paths = vec![String::new()];
    let inner = tokens.syntax().children_with_tokens().filter_map(NodeOrToken::into_token);
    for token in inner
        .filter(|token| !matches!(token.kind(), SyntaxKind::WHITESPACE | SyntaxKind::L_PAREN | SyntaxKind::R_PAREN))
    {
        match token.kind() {
            SyntaxKind::IDENT | SyntaxKind::COLON | SyntaxKind::COLON2 => paths.last_mut()?.push_str(token.text()),
            SyntaxKind::COMMA => paths.push(String::new()),
            _ => return None,
        }
    }
    paths.retain(|path| !path.is_empty());
    paths
        .iter()
        .all(|path| path.split("::").all(|segment| !segment.is_empty() && !segment.contains(':')))
        .then_some(paths)
}

/// The names `item`'s attributes derive, when every attribute it has is a plain
/// derive (`plain_derive`) and it has one; `None` when it has none or another.
pub(super) fn derive_names(item: &SyntaxNode) -> Option<Vec<String>> {
    let attrs: Vec<ast::Attr> = item.children().filter_map(ast::Attr::cast).collect();
    if attrs.is_empty() {
        return None;
    }
    attrs.iter().map(plain_derive).collect::<Option<Vec<_>>>().map(|names| names.concat())
}

/// The macro each of `paths` names as a derive at the top level of `file`;
/// `None` when one names none, or more than one.
pub(super) fn derive_macros(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    paths: &[String],
) -> Option<Vec<hir::Macro>> {
    paths
        .iter()
        .map(|path| {
            let segments: Vec<String> = path.split("::").map(str::to_owned).collect();
            let mut macros = resolved_in_file(sema, file, hir::PathKind::Plain, &segments).into_iter().filter_map(
                |item| match item {
                    hir::ItemInNs::Macros(it) => Some(it),
                    _ => None,
                },
            );
            let first = macros.next()?;
            macros.next().is_none().then_some(first)
        })
        .collect()
}

/// Whether the derives of each type of `derived` (touched in `file`) make impls
/// for that type only, which answer goals about it alone: each is the
/// compiler's own (`Clone`, `Debug`, ...), or a procedural macro's that
/// expanded to such impls (`impls_for_only`). A type the edits took out or
/// changed is read as it expanded while it was there (`known`, by its file and
/// text, with the macros its derives named then: the same now; not known: not
/// read). Its derives' paths resolve now as they did before the edits while
/// none starts with a name the edits touched (`qualifiers`, which the caller
/// looks for among them).
pub(super) fn derives_make_impls_for_their_types(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    derived: &[Derived],
    known: &mut FxHashMap<(FileId, String), (bool, Vec<hir::Macro>)>,
    qualifiers: &mut FxHashSet<String>,
) -> bool {
    derived.iter().all(|derived| {
        let qualified =
            derived.derives.iter().filter_map(|path| path.split_once("::").map(|(first, _)| first.to_owned()));
        qualifiers.extend(qualified);
        let Some(macros) = derive_macros(sema, file, &derived.derives) else { return false };
        if macros.iter().all(|it| it.kind(sema.db) == hir::MacroKind::DeriveBuiltIn) {
            return true;
        }
        let key = (file, derived.text.clone());
        match derived.now {
            Some(range) => {
                let impls_only = expands_to_impls_for_it_only(sema, file, range, &derived.name);
                // Every text a type took while typed stays until then: a type
                // taken out after is only not read.
                if known.len() >= MAX_DERIVED_KNOWN {
                    known.clear();
                }
                known.insert(key, (impls_only, macros));
                impls_only
            }
            None => known.get(&key).is_some_and(|(impls_only, then)| *impls_only && *then == macros),
        }
    })
}

/// How many readings of types' derives are kept (`UntouchedFiles::derived`).
pub(super) const MAX_DERIVED_KNOWN: usize = 4096;

/// Whether each derive of the type at `range` of `file` (named `name`) is the
/// compiler's own or expanded to impls for it only (`impls_for_only`). What a
/// procedural macro that failed (or was not built: no build scripts) left is
/// read as it is: it is all the analysis sees, now and from a fresh load.
pub(super) fn expands_to_impls_for_it_only(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    range: TextRange,
    name: &str,
) -> bool {
    let source = sema.parse(sema.attach_first_edition(file));
    let adt = source
        .syntax()
        .covering_element(range)
        .ancestors()
        .filter(|node| node.text_range() == range)
        .find_map(ast::Adt::cast);
    let Some(adt) = adt else { return false };
    adt.attrs().all(|attr| {
        let Some(meta) = attr.meta() else { return false };
        let (Some(macros), Some(expansions)) = (sema.resolve_derive_macro(&meta), sema.expand_derive_macro(&meta))
        else {
            return false;
        };
        macros.len() == expansions.len()
            && macros.into_iter().zip(expansions).all(|(derived, expansion)| match (derived, expansion) {
                (Some(derived), _) if derived.kind(sema.db) == hir::MacroKind::DeriveBuiltIn => true,
                (Some(_), Some(expansion)) => impls_for_only(&expansion.value, name),
                _ => false,
            })
    })
}

/// Whether `expansion`, what a derive of the type `name` expanded to, is trait
/// impls for that type only: each of its items such an impl, or a `const _`
/// whose block holds only such impls, extern crates, imports binding no name
/// of those types, and types, functions, consts and statics of its own, which
/// no code outside the block can name, with impls of traits for them; and
/// nowhere a macro call, a macro's definition, or an attribute a macro may read.
/// The impls' self types are written as the type's name alone (generic
/// arguments aside), resolved in the type's module, where nothing but the type
/// binds it (`plain_trait_impl`).
pub(super) fn impls_for_only(expansion: &SyntaxNode, name: &str) -> bool {
    if !matches!(expansion.kind(), SyntaxKind::MACRO_ITEMS | SyntaxKind::SOURCE_FILE) {
        return false;
    }
    let mut own = vec![name.to_owned()];
    let mut blocks = Vec::new();
    for item in expansion.children().filter_map(ast::Item::cast) {
        match item {
            ast::Item::Impl(_) => {}
            ast::Item::Const(konst) if konst.underscore_token().is_some() => match konst.body() {
                Some(ast::Expr::BlockExpr(block)) if block.modifier().is_none() => blocks.push(block),
                _ => return false,
            },
            _ => return false,
        }
    }
    for block in &blocks {
        let Some(statements) = block.stmt_list() else { return false };
        if statements
            .tail_expr()
            .is_some_and(|tail| !matches!(&tail, ast::Expr::TupleExpr(unit) if unit.fields().next().is_none()))
        {
            return false;
        }
        for statement in statements.statements() {
            let ast::Stmt::Item(item) = statement else { return false };
            match &item {
                ast::Item::Struct(_) | ast::Item::Enum(_) | ast::Item::Union(_) => {
                    own.extend(
                        ast::AnyHasName::cast(item.syntax().clone())
                            .and_then(|it| it.name())
                            .map(|it| it.text().to_string()),
                    );
                }
                ast::Item::Use(import) => {
                    let binds = import.syntax().descendants().filter_map(ast::UseTree::cast).any(|tree| {
                        let bound = tree.rename().and_then(|rename| rename.name()).map(|it| it.text().to_string());
                        let last = || {
                            tree.path()
                                .and_then(|path| path.segment())
                                .and_then(|it| it.name_ref())
                                .map(|it| it.text().to_string())
                        };
                        tree.star_token().is_some() || bound.or_else(last).is_some_and(|bound| bound == name)
                    });
                    if binds {
                        return false;
                    }
                }
                ast::Item::Impl(_)
                | ast::Item::ExternCrate(_)
                | ast::Item::Fn(_)
                | ast::Item::Const(_)
                | ast::Item::Static(_)
                | ast::Item::TypeAlias(_) => {}
                _ => return false,
            }
        }
    }
    let for_own_type = |imp: &ast::Impl| {
        let self_type = match imp.self_ty() {
            Some(ast::Type::PathType(path)) => path.path(),
            _ => None,
        };
        let single = self_type.filter(|path| path.qualifier().is_none() && path.coloncolon_token().is_none());
        let named = single.and_then(|path| path.segment()).and_then(|segment| segment.name_ref());
        let generic_params: Vec<String> = imp
            .generic_param_list()
            .into_iter()
            .flat_map(|params| params.generic_params())
            .filter_map(|param| match param {
                ast::GenericParam::TypeParam(it) => it.name().map(|name| name.text().to_string()),
                _ => None,
            })
            .collect();
        imp.trait_().is_some()
            && named.is_some_and(|named| {
                own.iter().any(|own| named.text() == own.as_str())
                    && !generic_params.iter().any(|param| named.text() == param.as_str())
            })
    };
    expansion.descendants().all(|node| match node.kind() {
        SyntaxKind::MACRO_CALL | SyntaxKind::MACRO_RULES | SyntaxKind::MACRO_DEF => false,
        SyntaxKind::ATTR => ast::Attr::cast(node).is_some_and(|attr| !read_by_a_macro(&attr)),
        SyntaxKind::IMPL => ast::Impl::cast(node).is_some_and(|imp| for_own_type(&imp)),
        _ => true,
    })
}

/// What a path of `kind` and `segments` resolves to at the top level of `file`.
pub(super) fn resolved_in_file(
    sema: &Semantics<'_, RootDatabase>,
    file: FileId,
    kind: hir::PathKind,
    segments: &[String],
) -> Vec<hir::ItemInNs> {
    let names = segments.iter().map(|segment| hir::Name::new_symbol_root(ra_ap_intern::Symbol::intern(segment)));
    let source = sema.parse(sema.attach_first_edition(file));
    sema.resolve_mod_path(source.syntax(), &hir::ModPath::from_segments(kind, names)).into_iter().flatten().collect()
}

/// Those of the workspace `files` a scope of which may take in another module's
/// public import unseen (`may_glob_import`): read again for a touched file, and
/// for another once a macro's definition was edited since it was read (`known`,
/// with how many edits the log had taken then).
pub(super) fn files_that_may_glob(
    sema: &Semantics<'_, RootDatabase>,
    log: &EditLog,
    files: &[FileId],
    macros_edited_since: &dyn Fn(u64) -> bool,
    known: &mut FxHashMap<FileId, (bool, u64)>,
) -> Vec<FileId> {
    let read = |file: FileId| may_glob_import(sema, sema.parse(sema.attach_first_edition(file)).syntax());
    let globbing = |&file: &FileId| {
        if log.touched.contains(&file) {
            return read(file);
        }
        match known.get(&file).filter(|&&(_, found_at)| !macros_edited_since(found_at)) {
            Some(&(globs, _)) => globs,
            None => known.entry(file).insert_entry((read(file), log.taken())).get().0,
        }
    };
    files.iter().copied().filter(globbing).collect()
}

/// Whether a scope of `file` (a workspace file's syntax) may take in what another
/// module's public import binds with no path of it naming the import: `file` may
/// import unseen (`may_import_unseen`), or a macro call anywhere in it (a
/// statement, an expression: a block may hold items) expands to an import that
/// may (`expansion_may_hold`).
pub(super) fn may_glob_import(sema: &Semantics<'_, RootDatabase>, file: &SyntaxNode) -> bool {
    // A glob import, or an item under an attribute a macro may read.
    let importing = |node: &SyntaxNode| match node.kind() {
        SyntaxKind::USE_TREE => ast::UseTree::cast(node.clone()).is_some_and(|tree| tree.star_token().is_some()),
        SyntaxKind::ATTR => ast::Attr::cast(node.clone()).is_some_and(|attr| read_by_a_macro(&attr)),
        _ => false,
    };
    may_import_unseen(file, &|attr| read_by_a_macro_resolved(sema, attr))
        || file
            .descendants()
            .filter_map(ast::MacroCall::cast)
            .any(|call| expansion_may_hold(sema, &call, 0, &importing))
}
