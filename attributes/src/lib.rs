//! The attribute form of noalloc's directives: `#[noalloc::root]`, `#[noalloc::fixed]`,
//! `#[noalloc::append]` and `#[noalloc::exempt(kind, "reason")]`. Each one leaves
//! the item exactly as written (it is read by the checker, `noalloc-ls`, not by the
//! compiler), and only checks that its arguments have the right shape, so a typo
//! fails the build where it is written. No dependencies, stable Rust.
//!
//! ```
//! #[noalloc::root]
//! fn handle(buf: &mut [u8]) -> usize { buf.len() }
//!
//! #[noalloc::exempt(measured, "runs once per process")]
//! static TABLE: [u8; 4] = [0; 4];
//! # fn main() { handle(&mut []); }
//! ```
//!
//! ```compile_fail
//! #[noalloc::exempt(measured)] // an exemption needs its reason
//! fn warm_up() {}
//! ```

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Checks this function and everything it calls; on an `impl` or `mod`, every
/// function in it. Same as `// noalloc:root` on the line above.
#[proc_macro_attribute]
pub fn root(args: TokenStream, item: TokenStream) -> TokenStream {
    without_arguments("root", args, item)
}

/// The type's methods never grow its buffers: their pushes on `self` count as pushes
/// with room. Same as `// noalloc:fixed`.
#[proc_macro_attribute]
pub fn fixed(args: TokenStream, item: TokenStream) -> TokenStream {
    without_arguments("fixed", args, item)
}

/// The function works like `Vec::push` on its receiver or first argument: a call to
/// it is judged as a push. Same as `// noalloc:append`.
#[proc_macro_attribute]
pub fn append(args: TokenStream, item: TokenStream) -> TokenStream {
    without_arguments("append", args, item)
}

/// Exempts the whole item (every line of it, as `#[allow(..)]` covers its item)
/// and everything those lines call: `#[noalloc::exempt(measured, "runs once per
/// process")]`. The comment form, `// noalloc:exempt measured: runs once per
/// process`, covers the one line below it. Statements keep the comment form
/// (attributes on statements are not stable Rust).
#[proc_macro_attribute]
pub fn exempt(args: TokenStream, item: TokenStream) -> TokenStream {
    let args: Vec<TokenTree> = args.into_iter().collect();
    let usage = "write `#[noalloc::exempt(<kind>, \"<why this is fine>\")]`";
    match args.as_slice() {
        [TokenTree::Ident(_), TokenTree::Punct(comma), TokenTree::Literal(reason)]
        | [TokenTree::Ident(_), TokenTree::Punct(comma), TokenTree::Literal(reason), TokenTree::Punct(_)]
            if comma.as_char() == ',' && is_nonempty_string(reason) =>
        {
            item
        }
        [] => with_error(Span::call_site(), &format!("noalloc::exempt needs a kind and a reason: {usage}"), item),
        [first, ..] => with_error(first.span(), &format!("noalloc::exempt takes a kind and a reason: {usage}"), item),
    }
}

fn without_arguments(name: &str, args: TokenStream, item: TokenStream) -> TokenStream {
    match args.into_iter().next() {
        None => item,
        Some(first) => with_error(first.span(), &format!("noalloc::{name} takes no arguments"), item),
    }
}

fn is_nonempty_string(literal: &Literal) -> bool {
    let text = literal.to_string();
    text.starts_with('"') && !text.trim_matches('"').trim().is_empty()
}

/// `compile_error!("message");` at `span`, followed by the item unchanged (so the
/// rest of the crate still type-checks).
fn with_error(span: Span, message: &str, item: TokenStream) -> TokenStream {
    let mut message = Literal::string(message);
    message.set_span(span);
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let mut semi = Punct::new(';', Spacing::Alone);
    semi.set_span(span);
    let mut args = Group::new(Delimiter::Parenthesis, TokenTree::from(message).into());
    args.set_span(span);
    let error: TokenStream = [
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(bang),
        TokenTree::Group(args),
        TokenTree::Punct(semi),
    ]
    .into_iter()
    .collect();
    error.into_iter().chain(item).collect()
}
