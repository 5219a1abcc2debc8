//! What the attributes on a type, its fields and its variants ask for, read from
//! `#[json(...)]` and `#[serde(...)]` alike. Every key is either implemented, known
//! to leave the JSON unchanged (`bound`, `borrow`, `crate`, `expecting`), or a
//! compile error that names it: a derive that silently ignored `transparent` or
//! `flatten` would read and write another shape than serde's.

use syn::{Attribute, LitStr};

/// Case conversion of `rename_all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl Case {
    fn parse(s: &LitStr) -> syn::Result<Case> {
        Ok(match s.value().as_str() {
            "lowercase" => Case::Lower,
            "UPPERCASE" => Case::Upper,
            "PascalCase" => Case::Pascal,
            "camelCase" => Case::Camel,
            "snake_case" => Case::Snake,
            "SCREAMING_SNAKE_CASE" => Case::ScreamingSnake,
            "kebab-case" => Case::Kebab,
            "SCREAMING-KEBAB-CASE" => Case::ScreamingKebab,
            other => return Err(syn::Error::new(s.span(), format!("unknown rename_all case `{other}`"))),
        })
    }

    /// Renames a field (written in snake_case), as serde does.
    pub fn field(self, name: &str) -> String {
        match self {
            Case::Lower | Case::Snake => name.to_owned(),
            Case::Upper | Case::ScreamingSnake => name.to_ascii_uppercase(),
            // serde's rules: each `_` capitalises the next letter, ASCII only, and
            // camelCase lowers the first (`_id` is `Id`, then `id`).
            Case::Pascal | Case::Camel => {
                let mut out = String::new();
                let mut upper = true;
                for c in name.chars() {
                    if c == '_' {
                        upper = true;
                    } else if upper {
                        out.push(c.to_ascii_uppercase());
                        upper = false;
                    } else {
                        out.push(c);
                    }
                }
                if self == Case::Camel {
                    lower_first(&out)
                } else {
                    out
                }
            }
            Case::Kebab => name.replace('_', "-"),
            Case::ScreamingKebab => name.replace('_', "-").to_ascii_uppercase(),
        }
    }

    /// Renames a variant (written in PascalCase), as serde does.
    pub fn variant(self, name: &str) -> String {
        match self {
            Case::Pascal => name.to_owned(),
            Case::Lower => name.to_ascii_lowercase(),
            Case::Upper => name.to_ascii_uppercase(),
            Case::Camel => lower_first(name),
            Case::Snake | Case::ScreamingSnake | Case::Kebab | Case::ScreamingKebab => {
                let mut snake = String::new();
                for (i, c) in name.char_indices() {
                    if c.is_uppercase() && i > 0 {
                        snake.push('_');
                    }
                    snake.push(c.to_ascii_lowercase());
                }
                match self {
                    Case::Snake => snake,
                    Case::ScreamingSnake => snake.to_ascii_uppercase(),
                    Case::Kebab => snake.replace('_', "-"),
                    _ => snake.replace('_', "-").to_ascii_uppercase(),
                }
            }
        }
    }
}

/// `s` with its first character in ASCII lower case, as serde's camelCase.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_ascii_lowercase()).into_iter().chain(chars).collect()
}

/// A setting that may differ between encoding and decoding
/// (`rename(serialize = "..", deserialize = "..")`).
#[derive(Clone, Debug)]
pub struct Pair<T> {
    pub ser: Option<T>,
    pub de: Option<T>,
}

impl<T> Default for Pair<T> {
    fn default() -> Self {
        Pair { ser: None, de: None }
    }
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub rename_all: Pair<Case>,
    /// The `rename_all` of every struct variant's fields (enums).
    pub rename_all_fields: Pair<Case>,
    pub deny_unknown_fields: bool,
    pub default: bool,
    /// The struct reads and writes as its one field.
    pub transparent: bool,
    /// `#[json(crate = "path")]`: the path the derived code reaches `json` by.
    pub krate: Option<syn::Path>,
}

#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Pair<String>,
    pub aliases: Vec<String>,
    pub skip_ser: bool,
    pub skip_de: bool,
    /// `default` (None inside: `Default::default()`) or `default = "path"`.
    pub default: Option<Option<syn::ExprPath>>,
    pub skip_ser_if: Option<syn::ExprPath>,
}

#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Pair<String>,
    pub aliases: Vec<String>,
    /// Encoding the variant is an error, as in serde.
    pub skip_ser: bool,
    /// Decoding never yields the variant.
    pub skip_de: bool,
    /// The `rename_all` of this struct variant's fields.
    pub rename_all: Pair<Case>,
    /// The unit variant decoded for any tag no other variant has.
    pub other: bool,
}

/// Which attribute a key came from (`Some(true)` for `json`), for the messages.
fn is_ours(attr: &Attribute) -> Option<bool> {
    if attr.path().is_ident("json") {
        Some(true)
    } else if attr.path().is_ident("serde") {
        Some(false)
    } else {
        None
    }
}

fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

fn pair<T>(
    meta: &syn::meta::ParseNestedMeta<'_>,
    out: &mut Pair<T>,
    parse: impl Fn(&LitStr) -> syn::Result<T>,
) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let s: LitStr = meta.value()?.parse()?;
        out.ser = Some(parse(&s)?);
        out.de = Some(parse(&s)?);
        return Ok(());
    }
    meta.parse_nested_meta(|inner| {
        let s: LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("serialize") {
            out.ser = Some(parse(&s)?);
        } else if inner.path.is_ident("deserialize") {
            out.de = Some(parse(&s)?);
        } else {
            return Err(inner.error("expected `serialize` or `deserialize`"));
        }
        Ok(())
    })
}

const NO_WITH: &str =
    "json-derive does not support serde's `with` functions; implement WriteJson/ReadJson for a newtype instead";

/// Keys that change nothing in the JSON: trait bounds and paths for serde's own
/// impls (`#[serde(crate)]`; `#[json(crate)]` is read above), its error texts, and
/// `borrow` (a `&str` field borrows the input anyway).
const NO_SHAPE: &[&str] = &["bound", "borrow", "crate", "expecting"];

/// A key no arm took: accepted if it changes no shape, else an error naming it.
fn unknown(meta: &syn::meta::ParseNestedMeta<'_>, ours: bool, place: &str) -> syn::Result<()> {
    let key = meta.path.get_ident().map_or_else(|| "?".to_owned(), ToString::to_string);
    if NO_SHAPE.contains(&key.as_str()) {
        return skip_value(meta);
    }
    let attr = if ours { "json" } else { "serde" };
    Err(meta.error(format!("json-derive does not implement the {place} attribute `#[{attr}({key})]`")))
}

pub fn container(attrs: &[Attribute]) -> syn::Result<ContainerAttrs> {
    let mut out = ContainerAttrs::default();
    for attr in attrs {
        let Some(ours) = is_ours(attr) else { continue };
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                pair(&meta, &mut out.rename_all, Case::parse)
            } else if meta.path.is_ident("deny_unknown_fields") {
                out.deny_unknown_fields = true;
                Ok(())
            } else if meta.path.is_ident("rename_all_fields") {
                pair(&meta, &mut out.rename_all_fields, Case::parse)
            } else if meta.path.is_ident("transparent") {
                out.transparent = true;
                Ok(())
            } else if meta.path.is_ident("rename") {
                // The container's own name: serde uses it in messages and tags that
                // externally tagged JSON does not have.
                skip_value(&meta)
            } else if meta.path.is_ident("default") {
                out.default = true;
                skip_value(&meta)
            } else if meta.path.is_ident("crate") && ours {
                // `#[serde(crate = ..)]` names serde, not json: ignored below.
                let s: LitStr = meta.value()?.parse()?;
                out.krate = Some(s.parse()?);
                Ok(())
            } else if ["tag", "content", "untagged", "from", "try_from", "into", "remote"]
                .iter()
                .any(|k| meta.path.is_ident(k))
            {
                Err(meta.error(
                    "json-derive does not support this serde container attribute \
                     (it changes the JSON shape in a way that needs buffering)",
                ))
            } else {
                unknown(&meta, ours, "container")
            }
        })?;
    }
    Ok(out)
}

pub fn field(attrs: &[Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for attr in attrs {
        let Some(ours) = is_ours(attr) else { continue };
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                pair(&meta, &mut out.rename, |s| Ok(s.value()))
            } else if meta.path.is_ident("alias") {
                let s: LitStr = meta.value()?.parse()?;
                out.aliases.push(s.value());
                Ok(())
            } else if meta.path.is_ident("skip") {
                out.skip_ser = true;
                out.skip_de = true;
                Ok(())
            } else if meta.path.is_ident("skip_serializing") {
                out.skip_ser = true;
                Ok(())
            } else if meta.path.is_ident("skip_deserializing") {
                out.skip_de = true;
                Ok(())
            } else if meta.path.is_ident("skip_serializing_if") {
                let s: LitStr = meta.value()?.parse()?;
                out.skip_ser_if = Some(s.parse()?);
                Ok(())
            } else if meta.path.is_ident("default") {
                if meta.input.peek(syn::Token![=]) {
                    let s: LitStr = meta.value()?.parse()?;
                    out.default = Some(Some(s.parse()?));
                } else {
                    out.default = Some(None);
                }
                Ok(())
            } else if meta.path.is_ident("flatten") {
                Err(meta.error("json-derive does not support `flatten`: it needs a buffered map"))
            } else if ["with", "serialize_with", "deserialize_with"].iter().any(|k| meta.path.is_ident(k)) {
                Err(meta.error(NO_WITH))
            } else {
                unknown(&meta, ours, "field")
            }
        })?;
    }
    Ok(out)
}

pub fn variant(attrs: &[Attribute]) -> syn::Result<VariantAttrs> {
    let mut out = VariantAttrs::default();
    for attr in attrs {
        let Some(ours) = is_ours(attr) else { continue };
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                pair(&meta, &mut out.rename, |s| Ok(s.value()))
            } else if meta.path.is_ident("alias") {
                let s: LitStr = meta.value()?.parse()?;
                out.aliases.push(s.value());
                Ok(())
            } else if meta.path.is_ident("skip") {
                out.skip_ser = true;
                out.skip_de = true;
                Ok(())
            } else if meta.path.is_ident("skip_serializing") {
                out.skip_ser = true;
                Ok(())
            } else if meta.path.is_ident("skip_deserializing") {
                out.skip_de = true;
                Ok(())
            } else if meta.path.is_ident("rename_all") {
                pair(&meta, &mut out.rename_all, Case::parse)
            } else if meta.path.is_ident("other") {
                out.other = true;
                Ok(())
            } else if ["with", "serialize_with", "deserialize_with"].iter().any(|k| meta.path.is_ident(k)) {
                Err(meta.error(NO_WITH))
            } else {
                unknown(&meta, ours, "variant")
            }
        })?;
    }
    Ok(out)
}
