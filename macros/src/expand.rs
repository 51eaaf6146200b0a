//! The attribute's expansion: spec source → compiler → generated items in the module.

use crate::args::{Flags, SpecSource};
use crate::report::{spec_errors, Origin};
use crate::token_text::TokenText;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;
use std::path::PathBuf;
use syn::LitStr;

/// Expands `#[monitor(args)] item`. On any error the module is kept as written
/// with the compile errors inside it: rustc then reports no path into the
/// module as unresolved (`use rules::Monitor` adds no E0432), so the spec's
/// errors are the only ones the user sees.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(args, item.clone()) {
        Ok(tokens) => tokens,
        Err(error) => {
            let errors = error.to_compile_error();
            match inline_module(item.clone()) {
                Ok((head, body)) => {
                    let items = body.stream();
                    let mut content = Group::new(Delimiter::Brace, quote!(#items #errors));
                    content.set_span(body.span());
                    quote!(#(#head)* #content)
                }
                Err(_) => quote!(#errors #item),
            }
        }
    }
}

fn try_expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let (head, body) = inline_module(item)?;
    let (flags, args) = Flags::split(args);
    let source = SpecSource::parse(args)?;
    let generate = |text: &str, origin: &Origin<'_>| generate(text, origin, flags);
    let (generated, tracked_file) = match &source {
        SpecSource::Tokens(tokens) => {
            let text = TokenText::new(tokens.clone());
            (generate(&text.text, &Origin::Tokens(&text))?, None)
        }
        SpecSource::Literal(lit) => {
            let text = lit.value();
            let origin = Origin::Text {
                name: "the spec string",
                text: &text,
                span: lit.span(),
            };
            (generate(&text, &origin)?, None)
        }
        SpecSource::File(lit) => {
            let (path, text) = read_spec_file(lit)?;
            let name = lit.value();
            let origin = Origin::Text {
                name: &name,
                text: &text,
                span: lit.span(),
            };
            (generate(&text, &origin)?, Some(path))
        }
    };
    let shorthand = one_monitor_shorthand(&generated);
    // Makes rustc (and so cargo) rebuild the crate when the spec file changes.
    let tracked = tracked_file.map(|path| {
        let path = path.to_string_lossy().into_owned();
        quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        )
    });
    let items = body.stream();
    let mut content = Group::new(
        Delimiter::Brace,
        quote!(#items #shorthand #generated #tracked),
    );
    content.set_span(body.span());
    Ok(quote!(#(#head)* #content))
}

/// The inline module `item` as written: its tokens up to its name (outer
/// attributes, visibility, `mod NAME`) and its braced content. Its items
/// are passed on untouched (rustc reports what is wrong in them).
fn inline_module(item: TokenStream) -> syn::Result<(Vec<TokenTree>, Group)> {
    let mut trees: Vec<TokenTree> = item.into_iter().collect();
    let body = match trees.pop() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => g,
        Some(other) => return Err(not_a_module(other.span())),
        None => return Err(not_a_module(Span::call_site())),
    };
    match trees.as_slice() {
        [.., TokenTree::Ident(keyword), TokenTree::Ident(_)] if keyword == "mod" => {
            Ok((trees, body))
        }
        _ => Err(not_a_module(body.span())),
    }
}

/// Compiles the spec text and generates its items with `flags`; errors become
/// compile errors placed according to `origin`.
fn generate(text: &str, origin: &Origin<'_>, flags: Flags) -> syn::Result<TokenStream> {
    let compiled = hindsight_compiler::compile(text).map_err(|d| spec_errors(&d, origin))?;
    let options = hindsight_codegen::Options {
        sealed_stamps: flags.sealed_stamps,
        ..Default::default()
    };
    hindsight_codegen::generate_with(&compiled.program, &options)
        .map_err(|d| spec_errors(&d, origin))
}

/// For a spec with exactly one block, `pub use self::name::*;`, so that
/// `rules::Monitor` works as well as `rules::name::Monitor`. Items declared in
/// the module itself (the spec's enums) take precedence over the glob. The
/// blocks are the generated code's top-level modules (`mod NAME { ... }`;
/// a `mod` keyword followed by a name at the top level is nothing else).
fn one_monitor_shorthand(generated: &TokenStream) -> Option<TokenStream> {
    let trees: Vec<TokenTree> = generated.clone().into_iter().collect();
    let mut modules = trees.windows(2).filter_map(|pair| match pair {
        [TokenTree::Ident(keyword), TokenTree::Ident(name)] if keyword == "mod" => Some(name),
        _ => None,
    });
    let name = modules.next()?;
    if modules.next().is_some() {
        return None;
    }
    Some(quote!(pub use self::#name::*;))
}

/// Reads the spec file `lit` names, relative to the crate being compiled.
fn read_spec_file(lit: &LitStr) -> syn::Result<(PathBuf, String)> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let path = PathBuf::from(dir).join(lit.value());
    hindsight_compiler::source::read_spec(&path)
        .map(|text| (path.clone(), text))
        .map_err(|e| syn::Error::new(lit.span(), format!("cannot read {}: {e}", path.display())))
}

fn not_a_module(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        "`#[monitor(...)]` goes on an inline module, e.g. `pub mod rules {}`; \
         the module receives the generated monitor code",
    )
}
