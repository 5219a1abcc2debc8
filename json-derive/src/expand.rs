//! Code generation for both derives: the model of a container (named struct,
//! newtype, tuple struct, unit struct, externally tagged enum) built from the
//! syntax tree and its attributes, and the impls written from it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Generics, Ident, Lifetime, LitByteStr, LitStr, Member, Type};

use crate::attrs::{self, ContainerAttrs, FieldAttrs};
use crate::check;

struct Field<'a> {
    member: Member,
    ty: &'a Type,
    name_ser: String,
    name_de: String,
    attrs: FieldAttrs,
}

struct Variant<'a> {
    ident: Ident,
    name_ser: String,
    name_de: String,
    aliases: Vec<String>,
    /// Encoding it is an error (serde's `skip`/`skip_serializing`).
    skip_ser: bool,
    /// Decoding never yields it.
    skip_de: bool,
    /// The unit variant for any tag no other variant has.
    other: bool,
    data: VariantData<'a>,
}

/// What an enum variant carries: encoded as serde does, externally tagged
/// (`"Unit"`, `{"Newtype":v}`, `{"Tuple":[a,b]}`, `{"Struct":{"a":..}}`).
enum VariantData<'a> {
    Unit,
    Newtype(Box<Field<'a>>),
    Tuple(Vec<Field<'a>>),
    Named(Vec<Field<'a>>),
}

impl<'a> VariantData<'a> {
    fn fields(&self) -> &[Field<'a>] {
        match self {
            VariantData::Unit => &[],
            VariantData::Newtype(f) => std::slice::from_ref(f),
            VariantData::Tuple(f) | VariantData::Named(f) => f,
        }
    }
}

/// Names bound to a variant's fields in a `match`: `__v0`, `__v1`, ...
fn binding(i: usize) -> Ident {
    format_ident!("__v{}", i)
}

enum Shape<'a> {
    Named(Vec<Field<'a>>),
    Newtype(Box<Field<'a>>),
    Tuple(Vec<Field<'a>>),
    Unit,
    Enum(Vec<Variant<'a>>),
    /// `transparent`: the struct reads and writes as its one live field; the others
    /// are skipped and take their defaults.
    Transparent {
        fields: Vec<Field<'a>>,
        live: usize,
    },
}

struct Container<'a> {
    input: &'a DeriveInput,
    attrs: ContainerAttrs,
    shape: Shape<'a>,
}

/// The fields of a struct or variant; `rename_all` renames those without a
/// `rename`.
fn fields<'a>(fields: &'a Fields, rename_all: &attrs::Pair<attrs::Case>) -> syn::Result<Vec<Field<'a>>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let attrs = attrs::field(&f.attrs)?;
            let (member, base) = match &f.ident {
                Some(id) => {
                    let name = id.to_string();
                    let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
                    (Member::Named(id.clone()), name)
                }
                None => (Member::Unnamed(i.into()), i.to_string()),
            };
            let name_ser = attrs
                .rename
                .ser
                .clone()
                .unwrap_or_else(|| rename_all.ser.map_or(base.clone(), |case| case.field(&base)));
            let name_de =
                attrs.rename.de.clone().unwrap_or_else(|| rename_all.de.map_or(base.clone(), |case| case.field(&base)));
            Ok(Field { member, ty: &f.ty, name_ser, name_de, attrs })
        })
        .collect()
}

impl<'a> Container<'a> {
    fn new(input: &'a DeriveInput) -> syn::Result<Container<'a>> {
        let attrs = attrs::container(&input.attrs)?;
        if attrs.transparent {
            return Container::transparent(input, attrs);
        }
        let shape = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(_) => Shape::Named(fields(&s.fields, &attrs.rename_all)?),
                Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                    Shape::Newtype(Box::new(fields(&s.fields, &attrs.rename_all)?.pop().expect("one field")))
                }
                Fields::Unnamed(_) => Shape::Tuple(fields(&s.fields, &attrs.rename_all)?),
                Fields::Unit => Shape::Unit,
            },
            Data::Enum(e) => {
                let mut variants = Vec::new();
                for v in &e.variants {
                    let va = attrs::variant(&v.attrs)?;
                    let rename_fields = attrs::Pair {
                        ser: va.rename_all.ser.or(attrs.rename_all_fields.ser),
                        de: va.rename_all.de.or(attrs.rename_all_fields.de),
                    };
                    let data = match &v.fields {
                        Fields::Unit => VariantData::Unit,
                        Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                            VariantData::Newtype(Box::new(fields(&v.fields, &rename_fields)?.pop().expect("one field")))
                        }
                        Fields::Unnamed(_) => VariantData::Tuple(fields(&v.fields, &rename_fields)?),
                        Fields::Named(_) => VariantData::Named(fields(&v.fields, &rename_fields)?),
                    };
                    if va.other && !matches!(data, VariantData::Unit) {
                        return Err(syn::Error::new_spanned(&v.ident, "`other` must be on a unit variant"));
                    }
                    if va.other && variants.iter().any(|v: &Variant| v.other) {
                        return Err(syn::Error::new_spanned(&v.ident, "only one variant can be `other`"));
                    }
                    let base = v.ident.to_string();
                    let name_ser = va
                        .rename
                        .ser
                        .clone()
                        .unwrap_or_else(|| attrs.rename_all.ser.map_or(base.clone(), |c| c.variant(&base)));
                    let name_de = va
                        .rename
                        .de
                        .clone()
                        .unwrap_or_else(|| attrs.rename_all.de.map_or(base.clone(), |c| c.variant(&base)));
                    variants.push(Variant {
                        ident: v.ident.clone(),
                        name_ser,
                        name_de,
                        aliases: va.aliases,
                        skip_ser: va.skip_ser,
                        skip_de: va.skip_de,
                        other: va.other,
                        data,
                    });
                }
                Shape::Enum(variants)
            }
            Data::Union(u) => {
                return Err(syn::Error::new_spanned(u.union_token, "json-derive does not support unions"));
            }
        };
        let newtype = match &shape {
            Shape::Newtype(f) => Some(&**f),
            Shape::Enum(variants) => variants.iter().find_map(|v| match &v.data {
                VariantData::Newtype(f) => Some(&**f),
                _ => None,
            }),
            _ => None,
        };
        if let Some(f) = newtype.filter(|f| f.attrs.skip_ser || f.attrs.skip_de) {
            return Err(syn::Error::new_spanned(
                f.ty,
                "json-derive does not implement skipping the one field of a newtype: \
                 skip the whole variant, or give the struct a second field",
            ));
        }
        Ok(Container { input, attrs, shape })
    }

    /// A `transparent` struct: exactly one field that is not skipped.
    fn transparent(input: &'a DeriveInput, attrs: ContainerAttrs) -> syn::Result<Container<'a>> {
        let Data::Struct(s) = &input.data else {
            return Err(syn::Error::new_spanned(&input.ident, "`transparent` is for structs"));
        };
        let fields = fields(&s.fields, &attrs.rename_all)?;
        let live: Vec<usize> =
            (0..fields.len()).filter(|&i| !(fields[i].attrs.skip_ser && fields[i].attrs.skip_de)).collect();
        let [live] = live[..] else {
            return Err(syn::Error::new_spanned(
                &input.ident,
                "`transparent` needs exactly one field that is not skipped",
            ));
        };
        Ok(Container { input, attrs, shape: Shape::Transparent { fields, live } })
    }

    fn all_fields(&self) -> &[Field<'a>] {
        match &self.shape {
            Shape::Named(f) | Shape::Tuple(f) => f,
            Shape::Newtype(f) => std::slice::from_ref(f),
            Shape::Transparent { fields, live } => std::slice::from_ref(&fields[*live]),
            Shape::Unit | Shape::Enum(_) => &[],
        }
    }

    /// Refuses allocating field types among the fields this direction uses.
    fn check(&self, encode: bool) -> syn::Result<()> {
        let verb = if encode { "encoded" } else { "decoded" };
        let variant_fields = match &self.shape {
            Shape::Enum(variants) => variants
                .iter()
                .filter(|v| if encode { !v.skip_ser } else { !v.skip_de })
                .flat_map(|v| v.data.fields())
                .collect(),
            _ => Vec::new(),
        };
        for f in self.all_fields().iter().chain(variant_fields) {
            let skipped = if encode { f.attrs.skip_ser } else { f.attrs.skip_de };
            if skipped {
                continue;
            }
            if let Some(why) = check::allocating(f.ty) {
                let field = match &f.member {
                    Member::Named(id) => format!("field `{id}`"),
                    Member::Unnamed(i) => format!("field {}", i.index),
                };
                return Err(syn::Error::new_spanned(
                    f.ty,
                    format!(
                        "{field} of `{}` cannot be {verb} without allocating: {why}; \
                         use a type of fixed shape (a struct, `Vec`, `&str`) or skip it with `#[json(skip)]`",
                        self.input.ident
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A JSON string literal of `name`, quotes included, as bytes.
fn quoted(name: &str) -> String {
    let mut out = String::from("\"");
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn bytes(s: &str) -> LitByteStr {
    LitByteStr::new(s.as_bytes(), Span::call_site())
}

fn add_bounds(generics: &Generics, bound: TokenStream) -> Generics {
    let mut g = generics.clone();
    let params: Vec<Ident> = g.type_params().map(|t| t.ident.clone()).collect();
    let wc = g.make_where_clause();
    for p in params {
        wc.predicates.push(syn::parse_quote!(#p: #bound));
    }
    g
}

pub fn write_json(input: &DeriveInput) -> syn::Result<TokenStream> {
    let c = Container::new(input)?;
    c.check(true)?;
    let name = &input.ident;
    let generics = add_bounds(&input.generics, quote!(__json::WriteJson));
    let (impl_g, ty_g, where_c) = generics.split_for_impl();
    let body = match &c.shape {
        Shape::Unit => quote!(w.null();),
        Shape::Newtype(f) => {
            let m = &f.member;
            quote!(__json::WriteJson::write_json(&self.#m, w);)
        }
        Shape::Transparent { fields, live } => {
            let m = &fields[*live].member;
            quote!(__json::WriteJson::write_json(&self.#m, w);)
        }
        Shape::Tuple(fields) => write_fields(fields, false, |f| {
            let m = &f.member;
            quote!(&self.#m)
        }),
        Shape::Named(fields) => write_fields(fields, true, |f| {
            let m = &f.member;
            quote!(&self.#m)
        }),
        Shape::Enum(variants) => {
            let arms = variants.iter().map(|v| {
                let id = &v.ident;
                let tag = quoted(&v.name_ser);
                if v.skip_ser {
                    // serde's Serialize fails here too.
                    return quote!(#name::#id { .. } => w.fail(__json::ErrorKind::Custom),);
                }
                match &v.data {
                    VariantData::Unit => {
                        let lit = bytes(&tag);
                        quote!(#name::#id => w.raw(#lit),)
                    }
                    VariantData::Newtype(_) => {
                        let open = bytes(&format!("{{{tag}:"));
                        let b = binding(0);
                        quote!(#name::#id(#b) => {
                            w.raw(#open);
                            __json::WriteJson::write_json(#b, w);
                            w.byte(b'}');
                        })
                    }
                    VariantData::Tuple(fields) => {
                        let open = bytes(&format!("{{{tag}:"));
                        let binds: Vec<Ident> = (0..fields.len()).map(binding).collect();
                        let body = write_fields(fields, false, |f| {
                            let Member::Unnamed(i) = &f.member else { unreachable!("a tuple's fields are unnamed") };
                            let b = binding(i.index as usize);
                            quote!(#b)
                        });
                        quote!(#name::#id(#(#binds),*) => {
                            w.raw(#open);
                            #body
                            w.byte(b'}');
                        })
                    }
                    VariantData::Named(fields) => {
                        let open = bytes(&format!("{{{tag}:"));
                        let pats = fields.iter().enumerate().map(|(i, f)| {
                            let m = &f.member;
                            let b = binding(i);
                            quote!(#m: #b)
                        });
                        let body = write_fields(fields, true, |f| {
                            let i = fields.iter().position(|g| g.member == f.member).expect("own field");
                            let b = binding(i);
                            quote!(#b)
                        });
                        quote!(#name::#id { #(#pats),* } => {
                            w.raw(#open);
                            #body
                            w.byte(b'}');
                        })
                    }
                }
            });
            quote!(match self { #(#arms)* })
        }
    };
    Ok(in_scope(
        &c,
        quote! {
            #[automatically_derived]
            impl #impl_g __json::WriteJson for #name #ty_g #where_c {
                #[inline]
                fn write_json<__S: __json::Sink>(&self, w: &mut __json::Writer<'_, __S>) {
                    #body
                }
            }
        },
    ))
}

/// The impl inside a block that names the crate `__json`: `::json`, or the path of
/// `#[json(crate = "..")]`.
fn in_scope(c: &Container, item: TokenStream) -> TokenStream {
    let krate = c.attrs.krate.clone().unwrap_or_else(|| syn::parse_quote!(::json));
    quote! {
        const _: () = {
            use #krate as __json;
            #item
        };
    }
}

/// The fields of a tuple struct or variant read from an array in `array` (declared
/// by the caller): each one decoding does not skip, in order; the skipped ones
/// take their defaults.
fn read_seq(c: &Container, fields: &[Field]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            if f.attrs.skip_de {
                return default_expr(f, &c.attrs).unwrap_or(quote!(::core::default::Default::default()));
            }
            quote!({
                if !r.next_element(&mut array)? {
                    return Err(r.error(__json::ErrorKind::InvalidType));
                }
                __json::ReadJson::read_json(r)?
            })
        })
        .collect()
}

/// Writes the fields encoding does not skip, in order: as an object of their names
/// (`named`) or as an array. `access(field)` is an expression of type `&T`.
fn write_fields(fields: &[Field], named: bool, access: impl Fn(&Field) -> TokenStream) -> TokenStream {
    let fields: Vec<&Field> = fields.iter().filter(|f| !f.attrs.skip_ser).collect();
    let (open, close) = if named { ('{', '}') } else { ('[', ']') };
    let key = |f: &Field| if named { format!("{}:", quoted(&f.name_ser)) } else { String::new() };
    if fields.iter().any(|f| f.attrs.skip_ser_if.is_some()) {
        let parts = fields.iter().map(|f| {
            let a = access(f);
            let key = key(f);
            let key = (!key.is_empty()).then(|| {
                let key = bytes(&key);
                quote!(w.raw(#key);)
            });
            let write = quote! {
                if !first { w.byte(b','); }
                first = false;
                #key
                __json::WriteJson::write_json(#a, w);
            };
            match &f.attrs.skip_ser_if {
                Some(pred) => quote!(if !#pred(#a) { #write }),
                None => write,
            }
        });
        let (open, close) = (open as u8, close as u8);
        quote! {
            w.byte(#open);
            let mut first = true;
            #(#parts)*
            let _ = first;
            w.byte(#close);
        }
    } else if fields.is_empty() {
        let both = bytes(&format!("{open}{close}"));
        quote!(w.raw(#both);)
    } else {
        // The opening bracket or comma and the key go out as one piece.
        let parts = fields.iter().enumerate().map(|(i, f)| {
            let a = access(f);
            let lead = bytes(&format!("{}{}", if i == 0 { open } else { ',' }, key(f)));
            quote! {
                w.raw(#lead);
                __json::WriteJson::write_json(#a, w);
            }
        });
        let close = close as u8;
        quote!(#(#parts)* w.byte(#close);)
    }
}

/// Generics for `impl ReadJson<'__de>`: `'__de` outlives every lifetime of the type
/// and every type parameter reads from it.
fn read_generics(generics: &Generics) -> (Generics, Lifetime) {
    let de = Lifetime::new("'__de", Span::call_site());
    let mut g = add_bounds(generics, quote!(__json::ReadJson<'__de>));
    let lifetimes: Vec<Lifetime> = g.lifetimes().map(|l| l.lifetime.clone()).collect();
    let mut param: syn::LifetimeParam = syn::LifetimeParam::new(de.clone());
    for l in lifetimes {
        param.bounds.push(l);
    }
    g.params.insert(0, syn::GenericParam::Lifetime(param));
    (g, de)
}

/// The dispatch on an object key: for each decoded field, `on_match(index, field)`;
/// unknown keys are skipped or refused. Fields usually come in declaration order,
/// so the field after the last one matched is tried first, with one comparison;
/// `__next` (declared by the caller, starting at 0) keeps that position.
fn key_dispatch(
    fields: &[(usize, &Field)],
    deny_unknown: bool,
    on_match: impl Fn(usize, &Field) -> TokenStream,
) -> TokenStream {
    let expected = fields.iter().enumerate().map(|(k, (_, f))| {
        let name = bytes(&f.name_de);
        quote!(#k => raw == #name,)
    });
    let raw_arms = fields.iter().enumerate().map(|(k, (_, f))| {
        let names = std::iter::once(&f.name_de).chain(&f.attrs.aliases).map(|n| bytes(n));
        quote!(#(#names)|* => #k,)
    });
    let escaped_arms = fields.iter().enumerate().map(|(k, (_, f))| {
        let names = std::iter::once(&f.name_de).chain(&f.attrs.aliases).map(|n| LitStr::new(n, Span::call_site()));
        quote!(if #(key.is(#names))||* { #k } else)
    });
    let acts = fields.iter().enumerate().map(|(k, (i, f))| {
        let act = on_match(*i, f);
        quote!(#k => { #act })
    });
    let unknown =
        if deny_unknown { quote!(return Err(r.error(__json::ErrorKind::UnknownField));) } else { quote!(r.skip()?;) };
    quote! {
        let __index: usize = if !key.is_escaped() {
            let raw = key.raw();
            let __expected = match __next {
                #(#expected)*
                _ => false,
            };
            if __expected {
                __next
            } else {
                match raw {
                    #(#raw_arms)*
                    _ => usize::MAX,
                }
            }
        } else #(#escaped_arms)* {
            usize::MAX
        };
        match __index {
            #(#acts)*
            _ => { #unknown }
        }
        __next = __index.wrapping_add(1);
    }
}

fn default_expr(f: &Field, c: &ContainerAttrs) -> Option<TokenStream> {
    match &f.attrs.default {
        Some(Some(path)) => Some(quote!(#path())),
        Some(None) => Some(quote!(::core::default::Default::default())),
        None if c.default => Some(quote!(::core::default::Default::default())),
        None => None,
    }
}

pub fn read_json(input: &DeriveInput) -> syn::Result<TokenStream> {
    let c = Container::new(input)?;
    c.check(false)?;
    let name = &input.ident;
    let (_, ty_g, _) = input.generics.split_for_impl();
    let (generics, de) = read_generics(&input.generics);
    let (impl_g, _, where_c) = generics.split_for_impl();
    let body = match &c.shape {
        Shape::Unit => quote! {
            fn read_json(r: &mut __json::Reader<#de>) -> __json::Result<Self> {
                if r.null()? { Ok(#name) } else { Err(r.unexpected()) }
            }
        },
        Shape::Newtype(f) => {
            let m = &f.member;
            let build = match m {
                Member::Named(id) => quote!(#name { #id: __json::ReadJson::read_json(r)? }),
                Member::Unnamed(_) => quote!(#name(__json::ReadJson::read_json(r)?)),
            };
            quote! {
                #[inline]
                fn read_json(r: &mut __json::Reader<#de>) -> __json::Result<Self> {
                    Ok(#build)
                }
                #[inline]
                fn read_json_into(&mut self, r: &mut __json::Reader<#de>) -> __json::Result<()> {
                    __json::ReadJson::read_json_into(&mut self.#m, r)
                }
            }
        }
        Shape::Transparent { fields, live } => {
            let m = &fields[*live].member;
            let inits = fields.iter().enumerate().map(|(i, f)| {
                let fm = &f.member;
                if i == *live {
                    quote!(#fm: __json::ReadJson::read_json(r)?)
                } else {
                    let d = default_expr(f, &c.attrs).unwrap_or(quote!(::core::default::Default::default()));
                    quote!(#fm: #d)
                }
            });
            quote! {
                #[inline]
                fn read_json(r: &mut __json::Reader<#de>) -> __json::Result<Self> {
                    Ok(#name { #(#inits),* })
                }
                #[inline]
                fn read_json_into(&mut self, r: &mut __json::Reader<#de>) -> __json::Result<()> {
                    __json::ReadJson::read_json_into(&mut self.#m, r)
                }
            }
        }
        Shape::Tuple(fields) => {
            let next = quote! {
                if !r.next_element(&mut array)? {
                    return Err(r.error(__json::ErrorKind::InvalidType));
                }
            };
            let reads = read_seq(&c, fields);
            // Into: the fields decoding skips are left as they are.
            let into = fields.iter().filter(|f| !f.attrs.skip_de).map(|f| {
                let m = &f.member;
                quote!(#next __json::ReadJson::read_json_into(&mut self.#m, r)?;)
            });
            let end = quote! {
                if r.next_element(&mut array)? {
                    return Err(r.error(__json::ErrorKind::InvalidType));
                }
            };
            quote! {
                fn read_json(r: &mut __json::Reader<#de>) -> __json::Result<Self> {
                    let mut array = r.array()?;
                    let value = #name(#(#reads),*);
                    #end
                    Ok(value)
                }
                fn read_json_into(&mut self, r: &mut __json::Reader<#de>) -> __json::Result<()> {
                    let mut array = r.array()?;
                    #(#into)*
                    #end
                    Ok(())
                }
            }
        }
        Shape::Named(fields) => read_named(&c, name, fields, &de),
        Shape::Enum(variants) => {
            let live: Vec<&Variant> = variants.iter().filter(|v| !v.skip_de && !v.other).collect();
            // An unknown tag: the `other` variant (for an object, its value must be
            // `null`, as serde_json reads a unit variant), or an error.
            let (unknown_str, unknown_object) = match variants.iter().find(|v| v.other) {
                Some(v) => {
                    let id = &v.ident;
                    (
                        quote!(return Ok(#name::#id);),
                        quote!({
                            <() as __json::ReadJson<#de>>::read_json(r)?;
                            #name::#id
                        }),
                    )
                }
                None => (
                    quote!(return Err(__json::Error::new(__json::ErrorKind::UnknownVariant, at));),
                    quote!({
                        return Err(__json::Error::new(__json::ErrorKind::UnknownVariant, at));
                    }),
                ),
            };
            let unit: Vec<&&Variant> = live.iter().filter(|v| matches!(v.data, VariantData::Unit)).collect();
            let names =
                |v: &Variant| -> Vec<String> { std::iter::once(v.name_de.clone()).chain(v.aliases.clone()).collect() };
            let raw_arms = unit.iter().map(|v| {
                let id = &v.ident;
                let names = names(v).into_iter().map(|n| bytes(&n));
                quote!(#(#names)|* => return Ok(#name::#id),)
            });
            let escaped = unit.iter().map(|v| {
                let id = &v.ident;
                let names = names(v).into_iter().map(|n| LitStr::new(&n, Span::call_site()));
                quote!(if #(key.is(#names))||* { return Ok(#name::#id); })
            });
            let object_arms = live.iter().map(|v| {
                let id = &v.ident;
                let names = names(v).into_iter().map(|n| LitStr::new(&n, Span::call_site()));
                let build = match &v.data {
                    VariantData::Unit => quote!({
                        <() as __json::ReadJson<#de>>::read_json(r)?;
                        #name::#id
                    }),
                    VariantData::Newtype(_) => quote!(#name::#id(__json::ReadJson::read_json(r)?)),
                    VariantData::Tuple(fields) => {
                        let reads = read_seq(&c, fields);
                        quote!({
                            let mut array = r.array()?;
                            let value = #name::#id(#(#reads),*);
                            if r.next_element(&mut array)? {
                                return Err(r.error(__json::ErrorKind::InvalidType));
                            }
                            value
                        })
                    }
                    VariantData::Named(fields) => named_new(&c, quote!(#name::#id), fields, &de),
                };
                quote!(if #(key.is(#names))||* { #build } else)
            });
            quote! {
                #[allow(unused_comparisons, unused_assignments)]
                fn read_json(r: &mut __json::Reader<#de>) -> __json::Result<Self> {
                    r.peek()?;
                    let at = r.offset();
                    if r.peek()? == b'"' {
                        let key = r.raw_str()?;
                        if !key.is_escaped() {
                            match key.raw() {
                                #(#raw_arms)*
                                _ => {}
                            }
                        } else {
                            #(#escaped)*
                        }
                        #unknown_str
                    }
                    let mut object = r.object()?;
                    let key = match r.next_key(&mut object)? {
                        ::core::option::Option::Some(key) => key,
                        ::core::option::Option::None => {
                            return Err(__json::Error::new(__json::ErrorKind::InvalidType, at));
                        }
                    };
                    let value = #(#object_arms)* #unknown_object;
                    if r.next_key(&mut object)?.is_some() {
                        return Err(r.error(__json::ErrorKind::Syntax));
                    }
                    Ok(value)
                }
            }
        }
    };
    Ok(in_scope(
        &c,
        quote! {
            #[automatically_derived]
            impl #impl_g __json::ReadJson<#de> for #name #ty_g #where_c {
                #body
            }
        },
    ))
}

/// A block that reads an object of named fields into a new value `path { .. }`
/// (each field into an `Option` first, then defaults and missing fields).
fn named_new(c: &Container, path: TokenStream, fields: &[Field], de: &Lifetime) -> TokenStream {
    let live: Vec<(usize, &Field)> = fields.iter().enumerate().filter(|(_, f)| !f.attrs.skip_de).collect();
    let slot = |i: usize| format_ident!("__field{}", i);
    let deny = c.attrs.deny_unknown_fields;
    // read_json: each field into an Option, then the struct from them.
    let decls = live.iter().map(|(i, f)| {
        let s = slot(*i);
        let ty = f.ty;
        quote!(let mut #s: ::core::option::Option<#ty> = ::core::option::Option::None;)
    });
    let dispatch_new = key_dispatch(&live, deny, |i, f| {
        let s = slot(i);
        let lit = LitStr::new(&f.name_de, Span::call_site());
        quote! {
            if #s.is_some() {
                return Err(r.error(__json::ErrorKind::DuplicateField(#lit)));
            }
            #s = ::core::option::Option::Some(__json::ReadJson::read_json(r)?);
        }
    });
    let inits = fields.iter().enumerate().map(|(i, f)| {
        let m = &f.member;
        if f.attrs.skip_de {
            let d = default_expr(f, &c.attrs).unwrap_or(quote!(::core::default::Default::default()));
            return quote!(#m: #d);
        }
        let s = slot(i);
        let ty = f.ty;
        let lit = LitStr::new(&f.name_de, Span::call_site());
        let missing = match default_expr(f, &c.attrs) {
            Some(d) => quote!(#d),
            None => quote! {
                match <#ty as __json::ReadJson<#de>>::absent() {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => {
                        return Err(r.error(__json::ErrorKind::MissingField(#lit)));
                    }
                }
            },
        };
        quote!(#m: match #s { ::core::option::Option::Some(v) => v, ::core::option::Option::None => #missing })
    });

    quote! {{
        #(#decls)*
        let mut object = r.object()?;
        let mut __next = 0usize;
        while let ::core::option::Option::Some(key) = r.next_key(&mut object)? {
            #dispatch_new
        }
        #path { #(#inits),* }
    }}
}

fn read_named(c: &Container, name: &Ident, fields: &[Field], de: &Lifetime) -> TokenStream {
    let live: Vec<(usize, &Field)> = fields.iter().enumerate().filter(|(_, f)| !f.attrs.skip_de).collect();
    let deny = c.attrs.deny_unknown_fields;
    let new = named_new(c, quote!(#name), fields, de);

    // read_json_into: each field into its place, then the missing ones reset.
    let n = live.len();
    let dispatch_into = key_dispatch(&live, deny, |i, f| {
        let k = live.iter().position(|(j, _)| *j == i).expect("live field");
        let m = &f.member;
        let lit = LitStr::new(&f.name_de, Span::call_site());
        quote! {
            if seen[#k] {
                return Err(r.error(__json::ErrorKind::DuplicateField(#lit)));
            }
            seen[#k] = true;
            __json::ReadJson::read_json_into(&mut self.#m, r)?;
        }
    });
    let resets = live.iter().enumerate().map(|(k, (_, f))| {
        let m = &f.member;
        let ty = f.ty;
        let lit = LitStr::new(&f.name_de, Span::call_site());
        let reset = match default_expr(f, &c.attrs) {
            Some(d) => quote!(self.#m = #d;),
            None => quote! {
                match <#ty as __json::ReadJson<#de>>::absent() {
                    ::core::option::Option::Some(v) => self.#m = v,
                    ::core::option::Option::None => {
                        return Err(r.error(__json::ErrorKind::MissingField(#lit)));
                    }
                }
            },
        };
        quote!(if !seen[#k] { #reset })
    });

    quote! {
        #[allow(unused_comparisons, unused_assignments)]
        fn read_json(r: &mut __json::Reader<#de>) -> __json::Result<Self> {
            Ok(#new)
        }

        #[allow(unused_comparisons, unused_assignments)]
        fn read_json_into(&mut self, r: &mut __json::Reader<#de>) -> __json::Result<()> {
            let mut seen = [false; #n];
            let mut object = r.object()?;
            let mut __next = 0usize;
            while let ::core::option::Option::Some(key) = r.next_key(&mut object)? {
                #dispatch_into
            }
            #(#resets)*
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    fn refusal(src: &str) -> String {
        let input: syn::DeriveInput = syn::parse_str(src).unwrap();
        let read = super::read_json(&input).err().map(|e| e.to_string());
        let write = super::write_json(&input).err().map(|e| e.to_string());
        assert_eq!(read.is_some(), write.is_some(), "both derives refuse");
        read.unwrap_or_default()
    }

    #[test]
    fn refusals_name_the_field_and_why() {
        let msg = refusal("struct Post { id: u32, tags: std::collections::HashMap<String, u32> }");
        assert_eq!(
            msg,
            "field `tags` of `Post` cannot be decoded without allocating: `HashMap` allocates for its entries; \
             use a type of fixed shape (a struct, `Vec`, `&str`) or skip it with `#[json(skip)]`"
        );
        assert!(refusal("struct S { e: Box<dyn std::error::Error> }").starts_with("field `e` of `S` cannot be decoded"));
        assert!(refusal("struct S(std::rc::Rc<u8>);").contains("field 0 of `S`"));
        assert!(refusal("struct S { v: serde_json::Value }").contains("`serde_json::Value` allocates"));
        assert!(refusal("struct S { m: Vec<Arc<str>> }").contains("`Arc` allocates"));
        assert!(refusal("enum E { A, B { tags: HashSet<u8> } }").starts_with("field `tags` of `E` cannot be decoded"));
    }

    #[test]
    fn skipped_fields_are_not_checked() {
        let input: syn::DeriveInput =
            syn::parse_str("struct S { id: u32, #[json(skip)] cache: std::collections::HashMap<u32, u32> }").unwrap();
        assert!(super::read_json(&input).is_ok());
        assert!(super::write_json(&input).is_ok());
    }

    #[test]
    fn unsupported_serde_attributes_are_errors() {
        let input: syn::DeriveInput = syn::parse_str("struct S { #[serde(flatten)] rest: Inner }").unwrap();
        assert!(super::read_json(&input).unwrap_err().to_string().contains("flatten"));
        let input: syn::DeriveInput = syn::parse_str("#[json(renam = \"x\")] struct S { a: u8 }").unwrap();
        assert_eq!(
            super::read_json(&input).unwrap_err().to_string(),
            "json-derive does not implement the container attribute `#[json(renam)]`"
        );
    }

    /// Keys of serde that would change the shape are refused by name, never ignored.
    #[test]
    fn serde_keys_it_does_not_implement_are_named() {
        let cases = [
            ("#[serde(variant_identifier)] enum E { A }", "the container attribute `#[serde(variant_identifier)]`"),
            ("struct S { #[serde(getter = \"S::a\")] a: u8 }", "the field attribute `#[serde(getter)]`"),
            ("enum E { #[serde(untagged)] A(u8) }", "the variant attribute `#[serde(untagged)]`"),
        ];
        for (src, want) in cases {
            let input: syn::DeriveInput = syn::parse_str(src).unwrap();
            let msg = super::write_json(&input).unwrap_err().to_string();
            assert_eq!(msg, format!("json-derive does not implement {want}"), "{src}");
        }
        let harmless =
            "#[serde(bound = \"\", crate = \"serde\", expecting = \"x\")] struct S<'a> { #[serde(borrow)] a: &'a str }";
        assert!(super::read_json(&syn::parse_str(harmless).unwrap()).is_ok());
    }

    #[test]
    fn transparent_needs_one_live_field() {
        let input: syn::DeriveInput = syn::parse_str("#[serde(transparent)] struct S { a: u8, b: u8 }").unwrap();
        let msg = super::read_json(&input).unwrap_err().to_string();
        assert_eq!(msg, "`transparent` needs exactly one field that is not skipped");
        let input: syn::DeriveInput = syn::parse_str("enum E { #[serde(other)] A(u8) }").unwrap();
        assert_eq!(super::read_json(&input).unwrap_err().to_string(), "`other` must be on a unit variant");
    }
}
