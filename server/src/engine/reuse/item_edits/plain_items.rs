//! The plain-item diff: what changed between two texts of a file when only its
//! plain items did (functions, types, consts, statics, inherent and trait impls'
//! members, imports' bindings), by name, with whether each is private, and the
//! rest of the file without them. Reads syntax only; knows nothing of where a
//! name is spelled.

use super::*;

/// The tokens of `text` outside its top-level trait impls under no attribute a
/// macro may read (`only_trait_impls_changed`), whitespace aside.
pub(super) fn outside_trait_impls(text: &str, edition: Edition) -> Vec<String> {
    let file = SourceFile::parse(text, edition).tree();
    let plain_impl = |item: &ast::Item| matches!(item, ast::Item::Impl(imp) if imp.trait_().is_some() && !imp.attrs().any(|attr| read_by_a_macro(&attr)));
    let impls: Vec<TextRange> = file.items().filter(plain_impl).map(|item| item.syntax().text_range()).collect();
    let tokens = file.syntax().descendants_with_tokens().filter_map(NodeOrToken::into_token);
    tokens
        .filter(|token| {
            token.kind() != SyntaxKind::WHITESPACE
                && !impls.iter().any(|range| range.contains_range(token.text_range()))
        })
        .map(|token| token.text().to_owned())
        .collect()
}

/// What changed between two texts of a file, when only its plain items did
/// (`plain_items`).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ItemsChanged {
    /// The names of the items added, removed or changed.
    pub(super) names: FxHashSet<String>,
    /// Whether one of them is a member of an impl or a trait (a method: a call
    /// names it after a `.`).
    pub(super) members: bool,
    /// Whether one of them is a trait's impl.
    pub(super) impls: bool,
    /// Whether one of them is an import's binding.
    pub(super) imports: bool,
    /// The names whose every touched item, before and after, is private to the
    /// file's module (`private`).
    pub(super) private: FxHashSet<String>,
    /// Whether every touched import binding (and glob) is private.
    pub(super) imports_private: bool,
    /// The touched glob imports (`PlainKind::Glob`), not among `names`: each
    /// one's path and whether it is private.
    pub(super) globs: Vec<(String, bool)>,
    /// The touched types with derives (`derive_names`), before and after.
    pub(super) derives: Vec<Derived>,
    /// The file after the edit without those items: its tokens, spaced, where
    /// the names are looked for.
    pub(super) rest: String,
}

pub(super) fn items_changed(before: &str, after: &str, edition: Edition) -> Option<ItemsChanged> {
    let parse = |text: &str| SourceFile::parse(text, edition).tree();
    let (before, after) = (parse(before), parse(after));
    let (items_before, items_after) = (plain_items(&before)?, plain_items(&after)?);
    fn by_name(items: &[PlainItem]) -> FxHashMap<&str, Vec<(&str, PlainKind)>> {
        let mut by_name: FxHashMap<&str, Vec<(&str, PlainKind)>> = FxHashMap::default();
        for item in items {
            by_name.entry(&item.name).or_default().push((&item.text, item.kind));
        }
        by_name.values_mut().for_each(|texts| texts.sort_unstable());
        by_name
    }
    let (then, now) = (by_name(&items_before), by_name(&items_after));
    let mut names: FxHashSet<String> = then
        .keys()
        .chain(now.keys())
        .filter(|name| then.get(*name) != now.get(*name))
        .map(|name| name.to_string())
        .collect();
    let touched = || items_before.iter().chain(&items_after).filter(|item| names.contains(&item.name));
    let any_of = |kind: PlainKind| touched().any(|item| item.kind == kind);
    // A trait's impl read under its trait's name is reached by a method call
    // that spells one of the trait's members too, from wherever the trait is in
    // scope.
    let methods: Vec<String> = touched().flat_map(|item| item.methods.iter().cloned()).collect();
    let (members, impls) = (any_of(PlainKind::Member) || !methods.is_empty(), any_of(PlainKind::TraitImpl));
    let imports = any_of(PlainKind::Import) || any_of(PlainKind::Glob);
    let mut private: FxHashSet<String> = names
        .iter()
        .filter(|&name| touched().filter(|item| item.name == *name).all(|item| item.private))
        .cloned()
        .collect();
    let imports_private =
        touched().filter(|item| matches!(item.kind, PlainKind::Import | PlainKind::Glob)).all(|item| item.private);
    let derived = |items: &[PlainItem], now: bool| {
        let types = items.iter().filter(|item| names.contains(&item.name) && ast::Adt::can_cast(item.node.kind()));
        types
            .filter_map(move |item| {
                let (name, text, range) = (item.name.clone(), item.node.text().to_string(), item.node.text_range());
                Some(Derived { name, derives: derive_names(&item.node)?, text, now: now.then_some(range) })
            })
            .collect::<Vec<_>>()
    };
    // The types there now first: one taken out may have the text of one there.
    let derives: Vec<Derived> = derived(&items_after, true).into_iter().chain(derived(&items_before, false)).collect();
    let touched_globs: FxHashSet<String> =
        touched().filter(|item| item.kind == PlainKind::Glob).map(|item| item.name.clone()).collect();
    let (kept, read) = outside_items(&after, &items_after, &names)?;
    // One token a line: a line comment ends where it did.
    if outside_items(&before, &items_before, &names)?.0 != kept {
        return None;
    }
    for method in methods {
        private.remove(&method);
        names.insert(method);
    }
    // A glob is named by its path and `::*`, which no code spells: it is read
    // as the names it brings (`touched_names_unspelled`).
    names.retain(|name| !touched_globs.contains(name));
    let globs = touched_globs
        .into_iter()
        .map(|name| {
            let glob_private = private.remove(&name);
            (name.strip_suffix("::*").unwrap_or(&name).to_owned(), glob_private)
        })
        .collect();
    Some(ItemsChanged {
        names,
        members,
        impls,
        imports,
        private,
        imports_private,
        globs,
        derives,
        rest: read.join("\n"),
    })
}

/// An item other code sees only by its name: a free function, a struct, an
/// enum, a union, a type alias, a const or a static at the top level of a file,
/// a function or a const in a plain inherent impl (`plain_impl`), or a name a
/// plain import binds (`import_bindings`), a plain trait's header and each of
/// its members (`plain_trait`), or a trait's impl for a type the file defines,
/// under that type's name, or of a trait the file defines, under that trait's
/// name and its members' (`plain_trait_impl`), or an inline module of plain
/// items (`held_by_a_module`). Another trait impl (a blanket
/// one of another module's trait, or one for a reference, a tuple or an alias,
/// which answers goals about types other code holds under other names), a
/// module of its own file, a macro's definition or call, and the rest are not.
pub(super) struct PlainItem {
    pub(super) name: String,
    /// Its text; a member's with its impl's header before it (`impl Foo` moved
    /// to `impl Bar` changes what its methods are called on).
    pub(super) text: String,
    pub(super) node: SyntaxNode,
    pub(super) kind: PlainKind,
    /// Whether only its module and the modules under it can name it (`private`).
    pub(super) private: bool,
    /// Names a method call may spell to reach it: a trait's impl read under
    /// its trait's name, that trait's members (`plain_trait_impl`).
    pub(super) methods: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum PlainKind {
    /// A free item.
    Free,
    /// A name an import binds.
    Import,
    /// A function or a const of an inherent impl, or a member of a trait.
    Member,
    /// A trait's impl, named by its self type.
    TraitImpl,
    /// A trait's header: its name, generics, supertraits and bounds.
    Trait,
    /// A glob import (`use a::b::*;`), named by its path and `::*`.
    Glob,
}

/// The plain items of `file`; `None` when one has no name (`const _`), which
/// makes its edits unread.
pub(super) fn plain_items(file: &SourceFile) -> Option<Vec<PlainItem>> {
    let mut items = Vec::new();
    for item in file.items() {
        if let Some(members) = plain_impl(&item) {
            push_members(&mut items, &item, &members)?;
            continue;
        }
        if let Some((name, members)) = plain_trait(&item) {
            // The header and each member apart: a member added to a trait whose
            // impls other code holds values of takes over method calls that
            // spell it (`Member`), wherever the trait is in scope.
            let header = push_members(&mut items, &item, &members)?;
            let (node, private) = (item.syntax().clone(), private(&item));
            items.push(PlainItem {
                name: unraw(&name?),
                text: header,
                node,
                kind: PlainKind::Trait,
                private,
                methods: Vec::new(),
            });
            continue;
        }
        if let Some(ImplReading { name, methods }) = plain_trait_impl(&item, file) {
            let (text, node) = (item.syntax().text().to_string(), item.syntax().clone());
            items.push(PlainItem { name, text, node, kind: PlainKind::TraitImpl, private: false, methods });
            continue;
        }
        if let ast::Item::Use(import) = &item {
            if let Some(path) = glob_import(import) {
                let (name, node) = (format!("{path}::*"), item.syntax().clone());
                items.push(PlainItem {
                    text: format!("{} {name}", visibility_text(import)),
                    name,
                    node,
                    kind: PlainKind::Glob,
                    private: private(&item),
                    methods: Vec::new(),
                });
                continue;
            }
            for (name, text, leaf) in import_bindings(import).into_iter().flatten() {
                items.push(PlainItem {
                    name,
                    text,
                    node: leaf,
                    kind: PlainKind::Import,
                    private: private(&item),
                    methods: Vec::new(),
                });
            }
            continue;
        }
        let name = match &item {
            // What an inline module holds is named through the module's name
            // (`outside_items` has it hold plain items only).
            ast::Item::Module(it) if it.item_list().is_some() => it.name(),
            ast::Item::Fn(it) => it.name(),
            ast::Item::Struct(it) => it.name(),
            ast::Item::Enum(it) => it.name(),
            ast::Item::Union(it) => it.name(),
            ast::Item::TypeAlias(it) => it.name(),
            ast::Item::Const(it) => it.name(),
            ast::Item::Static(it) => it.name(),
            _ => continue,
        };
        let (text, node) = (item.syntax().text().to_string(), item.syntax().clone());
        items.push(PlainItem {
            name: unraw(&name?),
            text,
            node,
            kind: PlainKind::Free,
            private: private(&item),
            methods: Vec::new(),
        });
    }
    Some(items)
}

/// Whether `item` (at the top level of a file) is private to its module: no
/// visibility, or `pub(self)`. Then only that module and the modules under it
/// can name it: rust-analyzer resolves a path, an import and a glob import only
/// to what is visible from the module it is resolved in, which is the caller's
/// for what a macro makes.
pub(super) fn private(item: &ast::Item) -> bool {
    ast::AnyHasVisibility::cast(item.syntax().clone())
        .is_some_and(|item| matches!(visibility_text(&item).as_str(), "" | "pub(self)"))
}

/// The visibility `item` is written with, as its tokens (`pub(crate)`); empty
/// when it has none.
pub(super) fn visibility_text(item: &impl HasVisibility) -> String {
    item.visibility().map(|visibility| tokens_outside(visibility.syntax(), &[]).concat()).unwrap_or_default()
}

/// Pushes each member of `item` (an impl or a trait whose `members` they are)
/// as a plain item, its text with the header's before it; gives the header.
/// `None` when a member has no name.
pub(super) fn push_members(
    items: &mut Vec<PlainItem>,
    item: &ast::Item,
    members: &ast::AssocItemList,
) -> Option<String> {
    let header = tokens_outside(item.syntax(), &[members.syntax().text_range()]).join(" ");
    for member in members.assoc_items() {
        let text = format!("{header}\n{}", member.syntax().text());
        // Never private: rust-analyzer resolves a method call to a private
        // method of another module too (and says so).
        let (name, node) = (unraw(&member_name(&member)?), member.syntax().clone());
        items.push(PlainItem { name, text, node, kind: PlainKind::Member, private: false, methods: Vec::new() });
    }
    Some(header)
}

/// The names a plain import binds: each with what it binds it to (its
/// visibility and full path, `use a::{b as c}` binding `c` to `a::b`) and its
/// leaf. `None` when it is not plain: under an attribute, or holding a glob, an
/// `_` (which brings a trait into scope unnamed) or a leaf whose name cannot be
/// told. Two imports binding the same names to the same paths are the same, in
/// any order or grouping.
pub(super) fn import_bindings(import: &ast::Use) -> Option<Vec<(String, String, SyntaxNode)>> {
    if import.attrs().next().is_some() {
        return None;
    }
    let visibility = visibility_text(import);
    let mut bindings = Vec::new();
    let mut trees = vec![(import.use_tree()?, String::new())];
    while let Some((tree, prefix)) = trees.pop() {
        if tree.star_token().is_some() || (tree.path().is_none() && tree.coloncolon_token().is_some()) {
            return None;
        }
        let path = match (tree.path(), prefix.is_empty()) {
            (Some(path), true) => tokens_outside(path.syntax(), &[]).concat(),
            (Some(path), false) => format!("{prefix}::{}", tokens_outside(path.syntax(), &[]).concat()),
            (None, _) => prefix,
        };
        if let Some(list) = tree.use_tree_list() {
            trees.extend(list.use_trees().map(|tree| (tree, path.clone())));
            continue;
        }
        // `a::b::{self}` binds `b` to `a::b`.
        let path = path.strip_suffix("::self").map_or(path.clone(), str::to_owned);
        let name = match tree.rename() {
            Some(rename) => unraw(&rename.name()?),
            None => {
                let name = path.rsplit("::").next()?;
                if matches!(name, "" | "self" | "super" | "crate") {
                    return None;
                }
                unraw_text(name)
            }
        };
        bindings.push((name.clone(), format!("{visibility} {path} as {name}"), tree.syntax().clone()));
    }
    Some(bindings)
}

/// The path of a plain glob import, `use a::b::*;`: no attribute, one path, no
/// group; as its tokens.
pub(super) fn glob_import(import: &ast::Use) -> Option<String> {
    let tree = import.use_tree()?;
    let plain = import.attrs().next().is_none()
        && tree.star_token().is_some()
        && tree.use_tree_list().is_none()
        && tree.rename().is_none();
    plain.then(|| tree.path().map(|path| tokens_outside(path.syntax(), &[]).concat())).flatten()
}

/// The tokens of `node` outside `ranges`, but whitespace.
pub(super) fn tokens_outside(node: &SyntaxNode, ranges: &[TextRange]) -> Vec<String> {
    node.descendants_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .filter(|token| {
            token.kind() != SyntaxKind::WHITESPACE
                && !ranges.iter().any(|range| range.contains_range(token.text_range()))
        })
        .map(|token| token.text().to_owned())
        .collect()
}

/// `name` as other code may spell it too: `r#fn` is `fn`, `r#len` is `len`.
pub(super) fn unraw(name: &ast::Name) -> String {
    unraw_text(name.text())
}

/// `unraw` of a name's text (a `NameRef`'s, a path's last segment).
pub(super) fn unraw_text(text: &str) -> String {
    text.strip_prefix("r#").unwrap_or(text).to_owned()
}

/// The name of a function, a const or an associated type of an impl or a trait.
pub(super) fn member_name(member: &ast::AssocItem) -> Option<ast::Name> {
    match member {
        ast::AssocItem::Fn(it) => it.name(),
        ast::AssocItem::Const(it) => it.name(),
        ast::AssocItem::TypeAlias(it) => it.name(),
        ast::AssocItem::MacroCall(_) => None,
    }
}

/// The members of `item` when it is a plain inherent impl: no trait, no
/// attribute, no macro call in its header, and nothing in it but functions and
/// consts.
pub(super) fn plain_impl(item: &ast::Item) -> Option<ast::AssocItemList> {
    let ast::Item::Impl(imp) = item else { return None };
    let members = imp.assoc_item_list()?;
    let header_plain = header_plain(imp.syntax(), &members);
    let only_fns_and_consts =
        members.assoc_items().all(|member| matches!(member, ast::AssocItem::Fn(_) | ast::AssocItem::Const(_)));
    (imp.trait_().is_none() && header_plain && only_fns_and_consts).then_some(members)
}

/// Whether `item` (an impl or a trait) has no attribute and no macro call outside
/// its `members`.
pub(super) fn header_plain(item: &SyntaxNode, members: &ast::AssocItemList) -> bool {
    item.descendants().all(|node| {
        members.syntax().text_range().contains_range(node.text_range())
            || !matches!(node.kind(), SyntaxKind::ATTR | SyntaxKind::MACRO_CALL)
    })
}

/// The name and the members of `item` when it is a plain trait: no attribute,
/// no macro call in its header, not `auto` (which holds for types with no impl),
/// and nothing in it but functions, consts and associated types.
pub(super) fn plain_trait(item: &ast::Item) -> Option<(Option<ast::Name>, ast::AssocItemList)> {
    let ast::Item::Trait(trait_) = item else { return None };
    let members = trait_.assoc_item_list()?;
    let header_plain = header_plain(trait_.syntax(), &members);
    let only_members = members.assoc_items().all(|member| !matches!(member, ast::AssocItem::MacroCall(_)));
    (trait_.auto_token().is_none() && header_plain && only_members).then(|| (trait_.name(), members))
}

/// What a trait's impl is read under (`plain_trait_impl`): a name, and the
/// names of the members of its trait when that is the name (a method call may
/// spell only a member).
pub(super) struct ImplReading {
    pub(super) name: String,
    pub(super) methods: Vec<String>,
}

/// What `item`, a trait's impl holding nothing but functions, consts and
/// associated types, is read under. Under its self type's name, when that is a
/// struct, an enum or a union `file` defines at its top level under a name
/// nothing else there binds (no alias, no import), written as that name alone
/// (generic arguments aside), not one of the impl's own parameters: the impl
/// answers only goals about that type, which code holds only where the type's
/// name is spelled or a function returning it is walked. Else under its trait's
/// name, when that trait is a plain one (`plain_trait`) `file` defines so,
/// written so, with the names of its members: the impl (a blanket one, one for
/// an alias or a std type) answers only goals of that trait, which arise only
/// where its name is spelled (a bound, a path, a `dyn`, a supertrait, an impl
/// a bound of which names it) or a member's is, as a method call (a method
/// it brings to a type may take over such a call); no desugaring calls a
/// trait std does not define. `None` otherwise.
pub(super) fn plain_trait_impl(item: &ast::Item, file: &SourceFile) -> Option<ImplReading> {
    let ast::Item::Impl(imp) = item else { return None };
    let members_plain = imp.assoc_item_list()?.assoc_items().all(|member| {
        matches!(member, ast::AssocItem::Fn(_) | ast::AssocItem::Const(_) | ast::AssocItem::TypeAlias(_))
    });
    if !members_plain {
        return None;
    }
    // The name of a path type written as a name alone.
    let name_alone = |ty: ast::Type| {
        let ast::Type::PathType(ty) = ty else { return None };
        let path = ty.path()?;
        if path.qualifier().is_some() || path.segment()?.coloncolon_token().is_some() {
            return None;
        }
        Some(unraw_text(path.segment()?.name_ref()?.text()))
    };
    let own_param = |name: &str| {
        imp.generic_param_list().is_some_and(|params| {
            params.type_or_const_params().any(|param| param.name().is_some_and(|param| unraw(&param) == name))
        })
    };
    if let Some(name) = imp.self_ty().and_then(name_alone).filter(|name| !own_param(name)) {
        if let Some(TypeBinding::Adt) = only_type_binding(file, &name) {
            return Some(ImplReading { name, methods: Vec::new() });
        }
    }
    let name = name_alone(imp.trait_()?)?;
    let Some(TypeBinding::Trait(trait_)) = only_type_binding(file, &name) else { return None };
    let (_, members) = plain_trait(&ast::Item::Trait(trait_))?;
    let methods =
        members.assoc_items().map(|member| member_name(&member).map(|name| unraw(&name))).collect::<Option<_>>()?;
    Some(ImplReading { name, methods })
}

/// What binds a name in the type namespace at the top level of a file.
pub(super) enum TypeBinding {
    Adt,
    Trait(ast::Trait),
    /// An alias, a module, or what an import, a macro or an extern crate may bind.
    Other,
}

/// What binds `name` in the type namespace at the top level of `file`, when one
/// item alone does: none may be an import that binds it (or one whose bindings
/// cannot be told), a macro or an extern crate.
pub(super) fn only_type_binding(file: &SourceFile, name: &str) -> Option<TypeBinding> {
    let mut binding = file.items().filter_map(|other| {
        let (binding, other_name) = match &other {
            ast::Item::Struct(it) => (TypeBinding::Adt, it.name()),
            ast::Item::Enum(it) => (TypeBinding::Adt, it.name()),
            ast::Item::Union(it) => (TypeBinding::Adt, it.name()),
            ast::Item::Trait(it) => (TypeBinding::Trait(it.clone()), it.name()),
            ast::Item::TypeAlias(it) => (TypeBinding::Other, it.name()),
            ast::Item::Module(it) => (TypeBinding::Other, it.name()),
            ast::Item::ExternCrate(_) | ast::Item::MacroCall(_) | ast::Item::MacroRules(_) | ast::Item::MacroDef(_) => {
                return Some(TypeBinding::Other);
            }
            ast::Item::Use(import) => {
                let binds =
                    import_bindings(import).is_none_or(|bindings| bindings.iter().any(|(bound, ..)| bound == name));
                return binds.then_some(TypeBinding::Other);
            }
            _ => return None,
        };
        other_name.is_some_and(|other| unraw(&other) == name).then_some(binding)
    });
    let first = binding.next()?;
    binding.next().is_none().then_some(first)
}

/// The tokens of `file`, but whitespace, as they are compared (`.0`) and as they
/// are read (`.1`); `None` when one of its plain items (`items`) named in `names` has an
/// attribute, or an item or a macro call in it. Read: outside those items, and
/// outside an impl whose every member is among them (or that has none).
/// Compared: outside every plain import too (whose bindings are its items); a
/// binding the edits did not touch is read where it names one (`pub use
/// self::f as g` with `f` added).
pub(super) fn outside_items(
    file: &SourceFile,
    items: &[PlainItem],
    names: &FxHashSet<String>,
) -> Option<(Vec<String>, Vec<String>)> {
    let mut touched: Vec<TextRange> = Vec::new();
    for item in items {
        if !names.contains(&item.name) {
            continue;
        }
        // A trait impl's own members are part of it.
        let own_member = |node: &SyntaxNode| {
            matches!(item.kind, PlainKind::TraitImpl | PlainKind::Trait)
                && node.parent().and_then(|list| list.parent()).as_ref() == Some(&item.node)
        };
        // A derive of the item's own, by names alone (`derive_names`), makes
        // impls for it only.
        let own_derive = |node: &SyntaxNode| {
            ast::Adt::can_cast(item.node.kind())
                && node.parent().as_ref() == Some(&item.node)
                && ast::Attr::cast(node.clone()).is_some_and(|attr| plain_derive(&attr).is_some())
        };
        let reaches_out = item.node.descendants().any(|node| {
            (node.kind() == SyntaxKind::ATTR && !own_derive(&node))
                || node.kind() == SyntaxKind::MACRO_CALL
                || (node != item.node
                    && ast::Item::can_cast(node.kind())
                    && !own_member(&node)
                    && !held_by_a_module(&item.node, &node))
        });
        if reaches_out {
            return None;
        }
        touched.push(item.node.text_range());
    }
    // An impl made of touched members only, or of none, changes nothing but
    // through them.
    for item in file.items() {
        let all_touched = |members: ast::AssocItemList| {
            members.assoc_items().all(|member| member_name(&member).is_some_and(|name| names.contains(&unraw(&name))))
        };
        if plain_impl(&item).is_some_and(all_touched) {
            touched.push(item.syntax().text_range());
        }
    }
    let mut compared_apart = touched.clone();
    for item in file.items() {
        if let ast::Item::Use(import) = &item {
            if import_bindings(import).is_some() {
                compared_apart.push(item.syntax().text_range());
            }
        }
    }
    Some((tokens_outside(file.syntax(), &compared_apart), tokens_outside(file.syntax(), &touched)))
}

/// Whether `node`, an item under `item`, is one an inline module `item` may hold
/// with nothing but the module's name reaching it: a free function, a type, a
/// const, a static, an import or an inline module of such items. Not an impl (a
/// trait's answers goals anywhere; an inherent one's methods are called by
/// their names alone), a trait, a macro's definition (`#[macro_export]`, or
/// textual scope running on past the module) nor an out-of-line module (a file
/// of its own).
pub(super) fn held_by_a_module(item: &SyntaxNode, node: &SyntaxNode) -> bool {
    item.kind() == SyntaxKind::MODULE
        && match ast::Item::cast(node.clone()) {
            Some(ast::Item::Fn(_) | ast::Item::Struct(_) | ast::Item::Enum(_) | ast::Item::Union(_)) => true,
            Some(ast::Item::TypeAlias(_) | ast::Item::Const(_) | ast::Item::Static(_) | ast::Item::Use(_)) => true,
            Some(ast::Item::Module(module)) => module.item_list().is_some(),
            _ => false,
        }
}
