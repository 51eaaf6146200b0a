//! The three ways the attribute's argument can give the spec.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::LitStr;

/// Where the spec comes from.
pub enum SpecSource {
    /// Written as Rust tokens: `#[monitor(monitor m { ... })]`.
    Tokens(TokenStream),
    /// A string literal holding the spec text: `#[monitor("monitor m { ... }")]`.
    Literal(LitStr),
    /// A file next to the crate: `#[monitor(file = "specs/m.hind")]`, the path
    /// relative to the crate's `CARGO_MANIFEST_DIR`.
    File(LitStr),
}

impl SpecSource {
    /// Classifies the attribute's argument. A spec never starts with `file =`
    /// nor is a lone string, so the three forms cannot be confused.
    pub fn parse(args: TokenStream) -> syn::Result<Self> {
        let trees: Vec<TokenTree> = args.clone().into_iter().collect();
        match trees.as_slice() {
            [] => Err(syn::Error::new(
                Span::call_site(),
                "expected a spec: `#[monitor(monitor name { ... })]`, \
                 `#[monitor(\"...\")]` or `#[monitor(file = \"specs/name.hind\")]`",
            )),
            [TokenTree::Literal(_)] => syn::parse2(args).map(SpecSource::Literal),
            [TokenTree::Ident(key), TokenTree::Punct(eq), value]
                if key == "file" && eq.as_char() == '=' =>
            {
                syn::parse2(value.clone().into()).map(SpecSource::File)
            }
            _ => Ok(SpecSource::Tokens(args)),
        }
    }
}
