//! The three ways the attribute's argument can give the spec.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::LitStr;

/// Where the spec comes from.
pub(crate) enum SpecSource {
    /// Written as Rust tokens: `#[monitor(monitor m { ... })]`.
    Tokens(TokenStream),
    /// A string literal holding the spec text: `#[monitor("monitor m { ... }")]`.
    Literal(LitStr),
    /// A file next to the crate: `#[monitor(file = "specs/m.hind")]`, the path
    /// relative to the crate's `CARGO_MANIFEST_DIR`.
    File(LitStr),
}

/// Options written before the spec, each followed by a comma:
/// `#[monitor(sealed_stamps, file = "specs/review.hind")]`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    /// Systems' stamps travel sealed (`Stamp::to_bytes(key, out)`,
    /// `Stamp::from_bytes(bytes, key)`).
    pub sealed_stamps: bool,
}

impl Flags {
    /// Splits the leading `flag,` options off `args`. A spec starts with a
    /// keyword (`enum`, `monitor`, `system`, `population`), a string or `file`,
    /// never with a flag followed by a comma, so the forms cannot be confused.
    pub(crate) fn split(args: TokenStream) -> (Flags, TokenStream) {
        let mut flags = Flags::default();
        let trees: Vec<TokenTree> = args.into_iter().collect();
        let mut rest = trees.as_slice();
        while let [TokenTree::Ident(flag), TokenTree::Punct(comma), tail @ ..] = rest {
            if flag != "sealed_stamps" || comma.as_char() != ',' {
                break;
            }
            flags.sealed_stamps = true;
            rest = tail;
        }
        (flags, rest.iter().cloned().collect())
    }
}

impl SpecSource {
    /// Classifies the attribute's argument. A spec never starts with `file =`
    /// nor is a lone string, so the three forms cannot be confused.
    pub(crate) fn parse(args: TokenStream) -> syn::Result<Self> {
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
