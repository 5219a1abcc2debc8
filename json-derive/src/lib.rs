//! `#[derive(WriteJson, ReadJson)]` for the `json` crate. Reads `#[json(...)]` and
//! the matching `#[serde(...)]` attributes (rename, rename_all, skip, default,
//! skip_serializing_if, alias, deny_unknown_fields), and refuses at compile time the
//! field types that cannot be encoded or decoded without allocating.

mod attrs;
mod check;
mod expand;

use proc_macro::TokenStream;

/// Derives `json::WriteJson`.
#[proc_macro_derive(WriteJson, attributes(json, serde))]
pub fn derive_write_json(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::write_json(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Derives `json::ReadJson`.
#[proc_macro_derive(ReadJson, attributes(json, serde))]
pub fn derive_read_json(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::read_json(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}
