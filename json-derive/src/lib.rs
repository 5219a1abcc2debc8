//! `#[derive(WriteJson, ReadJson)]` for the `json` crate. Reads `#[json(...)]` and
//! the matching `#[serde(...)]` attributes: on containers `rename_all`,
//! `rename_all_fields`, `transparent`, `default`, `deny_unknown_fields`, and
//! `#[json(crate = "path")]` (`#[serde(crate)]` names serde and is ignored); on
//! fields, named or unnamed,
//! `rename`, `alias`, `skip`, `skip_serializing`, `skip_deserializing`,
//! `skip_serializing_if`, `default`; on variants `rename`, `alias`, `rename_all`,
//! `skip`, `skip_serializing`, `skip_deserializing`, `other`. Any other key that
//! changes the JSON is a compile error naming it. Refuses at compile time the field
//! types that cannot be encoded or decoded without allocating.

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
