//! `--root` patterns with concrete generic arguments (`krate::parse::<u32>`,
//! `krate::Ring::<u8>::push`): splitting the arguments from the path the pattern
//! matches, and reading each argument as a type in the scope of the function it
//! names. A generic root the workspace never instantiates is checked this way.

use hir::{ModuleDef, PathResolution, Semantics};
use hir_def::{FunctionId, GenericDefId, GenericParamId};
use hir_ty::next_solver::{DbInterner, GenericArg, GenericArgs, Region, Ty};
use ra_ap_ide_db::RootDatabase;
use ra_ap_syntax::{
    ast::{self, HasGenericArgs},
    AstNode,
};
use rustc_type_ir::{inherent::Ty as _, Mutability};

/// A pattern split into the path it matches and the generic arguments written
/// after `::<` in any of its segments, in order (`a::Ring::<u8>::push::<i32>` is
/// `a::Ring::push` with `u8, i32`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RootPattern {
    pub path: String,
    pub args: Vec<String>,
}

impl RootPattern {
    pub(crate) fn parse(pattern: &str) -> Result<RootPattern, String> {
        let mut path = String::new();
        let mut args = Vec::new();
        let mut rest = pattern;
        while let Some(start) = rest.find("::<") {
            path.push_str(&rest[..start]);
            let inner = &rest[start + 3..];
            let end = closing_angle(inner).ok_or_else(|| format!("--root `{pattern}`: `::<` is never closed"))?;
            args.extend(split_top_level(&inner[..end]).into_iter().map(str::to_owned));
            rest = &inner[end + 1..];
        }
        path.push_str(rest);
        if args.iter().any(|arg| arg.is_empty()) {
            return Err(format!("--root `{pattern}`: an empty generic argument"));
        }
        Ok(RootPattern { path, args })
    }
}

/// The index of the `>` that closes the list `text` opens (nested `<>`, `()`, `[]`).
fn closing_angle(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' if depth == 0 => return (c == '>').then_some(i),
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `u8, Vec<(u8, i32)>` into `u8` and `Vec<(u8, i32)>`.
fn split_top_level(list: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = list[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out
}

/// The generic arguments of `func` (its impl's parameters first, then its own,
/// as `GenericArgs::identity_for_item` lists them) from the texts a pattern gave,
/// read in the function's scope. Lifetimes are erased; a parameter left out takes
/// its default when it has one.
pub(crate) fn lower_root_args<'db>(
    db: &'db RootDatabase,
    func: FunctionId,
    texts: &[String],
) -> Result<GenericArgs<'db>, String> {
    let sema = Semantics::new(db);
    let function = hir::Function::from(func);
    let source = sema.source(function).ok_or("the function has no source")?;
    let scope = sema.scope(source.value.syntax()).ok_or("the function's scope cannot be read")?;
    let interner = DbInterner::new_no_crate(db);
    let mut types = Vec::with_capacity(texts.len());
    for text in texts {
        types.push(lower_text(&scope, interner, text)?);
    }
    apply(interner, GenericDefId::FunctionId(func), types).map_err(|wrong| format!("the function {wrong}"))
}

/// The generic arguments of `def` from `given` in order (type and const
/// parameters; lifetimes erased; defaults for what is left out), or what is wrong
/// with their number ("takes 1 generic argument, 2 given").
fn apply<'db>(interner: DbInterner<'db>, def: GenericDefId, given: Vec<Ty<'db>>) -> Result<GenericArgs<'db>, String> {
    let defaults = hir_ty::db::HirDatabase::generic_defaults(interner.db(), def);
    let count = given.len();
    let mut given = given.into_iter();
    let (mut expected, mut missing) = (0, false);
    let args = GenericArgs::for_item(interner, def.into(), |idx, id, _, prev| match id {
        GenericParamId::LifetimeParamId(_) => Region::new_erased(interner).into(),
        _ => {
            expected += 1;
            match given.next() {
                Some(ty) => ty.into(),
                None => match defaults.get(idx as usize) {
                    Some(default) => default.instantiate(interner, prev).skip_norm_wip(),
                    None => {
                        missing = true;
                        GenericArg::error_from_id(interner, id)
                    }
                },
            }
        }
    });
    if missing || given.next().is_some() {
        return Err(format!(
            "takes {expected} generic argument{}, {count} given",
            if expected == 1 { "" } else { "s" }
        ));
    }
    Ok(args)
}

/// A path as written in the function's scope, or crate-qualified as `--root`
/// patterns are (`specifics::generics::Plain` inside crate `specifics`).
fn resolve_path<'db>(scope: &hir::SemanticsScope<'db>, path: &ast::Path) -> Option<PathResolution<'db>> {
    scope.speculative_resolve(path).or_else(|| {
        let own = scope.krate().display_name(scope.db)?.crate_name().to_string();
        let text = path.syntax().text().to_string();
        let rest = text.strip_prefix(own.as_str())?.strip_prefix("::")?;
        match parse_type(&format!("crate::{rest}"))? {
            ast::Type::PathType(path_type) => scope.speculative_resolve(&path_type.path()?),
            _ => None,
        }
    })
}

/// `text` as a type, when it parses as one and nothing else.
fn parse_type(text: &str) -> Option<ast::Type> {
    let parsed = ast::SourceFile::parse(&format!("type T = {text};"), ra_ap_syntax::Edition::CURRENT);
    if !parsed.errors().is_empty() {
        return None;
    }
    parsed.tree().syntax().descendants().find_map(ast::TypeAlias::cast).and_then(|alias| alias.ty())
}

fn lower_text<'db>(scope: &hir::SemanticsScope<'db>, interner: DbInterner<'db>, text: &str) -> Result<Ty<'db>, String> {
    match parse_type(text) {
        Some(ty) => lower_type(scope, interner, &ty),
        None => Err(format!("`{text}` is not a type")),
    }
}

fn lower_type<'db>(
    scope: &hir::SemanticsScope<'db>,
    interner: DbInterner<'db>,
    ty: &ast::Type,
) -> Result<Ty<'db>, String> {
    let unreadable =
        || format!("`{ty}` cannot be read here (write a concrete type: a path, `&T`, `[T]`, `[T; N]` or a tuple)");
    let lowered = match ty {
        ast::Type::ParenType(inner) => lower_type(scope, interner, &inner.ty().ok_or_else(unreadable)?)?,
        ast::Type::RefType(reference) => {
            let inner = lower_type(scope, interner, &reference.ty().ok_or_else(unreadable)?)?;
            let mutability = if reference.mut_token().is_some() { Mutability::Mut } else { Mutability::Not };
            Ty::new_ref(interner, Region::new_erased(interner), inner, mutability)
        }
        ast::Type::SliceType(slice) => {
            Ty::new_slice(interner, lower_type(scope, interner, &slice.ty().ok_or_else(unreadable)?)?)
        }
        ast::Type::ArrayType(array) => {
            let element = lower_type(scope, interner, &array.ty().ok_or_else(unreadable)?)?;
            let len = array.const_arg().map(|c| c.syntax().text().to_string()).ok_or_else(unreadable)?;
            let len: u64 = len.trim().replace('_', "").trim_end_matches("usize").parse().map_err(|_| unreadable())?;
            Ty::new_array(interner, element, len)
        }
        ast::Type::TupleType(tuple) => {
            let fields =
                tuple.fields().map(|field| lower_type(scope, interner, &field)).collect::<Result<Vec<_>, _>>()?;
            Ty::new_tup(interner, &fields)
        }
        ast::Type::NeverType(_) => Ty::new(interner, rustc_type_ir::TyKind::Never),
        ast::Type::PathType(path_type) => {
            let path = path_type.path().ok_or_else(unreadable)?;
            let segment = path.segment().ok_or_else(unreadable)?;
            let args = match segment.generic_arg_list() {
                Some(list) => list
                    .generic_args()
                    .filter_map(|arg| match arg {
                        ast::GenericArg::TypeArg(arg) => {
                            Some(arg.ty().ok_or_else(unreadable).and_then(|ty| lower_type(scope, interner, &ty)))
                        }
                        ast::GenericArg::LifetimeArg(_) => None,
                        _ => Some(Err(unreadable())),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                None => Vec::new(),
            };
            match resolve_path(scope, &path) {
                Some(PathResolution::Def(ModuleDef::BuiltinType(builtin))) if args.is_empty() => {
                    Ty::from_builtin_type(interner, builtin.into())
                }
                Some(PathResolution::Def(ModuleDef::Adt(adt))) => adt_ty(interner, adt, args, &path)?,
                Some(_) => return Err(format!("`{path}` is not a type with a body the analysis can build (a type alias or a trait?): name the type itself")),
                None => return Err(format!("`{path}` names no type in scope of the function (write its crate-qualified path)")),
            }
        }
        _ => return Err(unreadable()),
    };
    Ok(lowered)
}

/// `adt` applied to `args` (lifetimes erased, defaults for what is left out).
fn adt_ty<'db>(
    interner: DbInterner<'db>,
    adt: hir::Adt,
    args: Vec<Ty<'db>>,
    path: &ast::Path,
) -> Result<Ty<'db>, String> {
    let id = super::roots::adt_id(adt);
    let args = apply(interner, GenericDefId::AdtId(id), args).map_err(|wrong| format!("`{path}`: the type {wrong}"))?;
    Ok(Ty::new_adt(interner, id, args))
}

#[cfg(test)]
mod tests {
    use super::RootPattern;

    #[test]
    fn arguments_split_from_the_path() {
        let parse = |p: &str| RootPattern::parse(p).unwrap();
        assert_eq!(parse("a::f"), RootPattern { path: "a::f".into(), args: vec![] });
        assert_eq!(parse("a::f::<u32>"), RootPattern { path: "a::f".into(), args: vec!["u32".into()] });
        assert_eq!(
            parse("a::Ring::<u8>::push::<Vec<(u8, i32)>, [u8; 4]>"),
            RootPattern {
                path: "a::Ring::push".into(),
                args: vec!["u8".into(), "Vec<(u8, i32)>".into(), "[u8; 4]".into()]
            }
        );
        assert_eq!(parse("a::*::<&str>"), RootPattern { path: "a::*".into(), args: vec!["&str".into()] });
        assert!(RootPattern::parse("a::f::<u32").is_err());
        assert!(RootPattern::parse("a::f::<u32,,u8>").is_err());
    }
}
