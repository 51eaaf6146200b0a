//! The attribute's expansion: spec source → compiler → generated items in the module.

use crate::args::{Flags, SpecSource};
use crate::report::{spec_errors, Origin};
use crate::token_text::TokenText;
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use std::path::PathBuf;
use syn::{Item, ItemMod, LitStr};

/// Expands `#[monitor(args)] item`. On any error the module is kept as written
/// (so code using it reports no extra errors about a missing module) next to
/// the compile errors.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    match try_expand(args, item.clone()) {
        Ok(tokens) => tokens,
        Err(error) => {
            let errors = error.to_compile_error();
            quote!(#errors #item)
        }
    }
}

fn try_expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let mut module: ItemMod = syn::parse2(item).map_err(|e| not_a_module(e.span()))?;
    let Some((_, items)) = module.content.as_mut() else {
        return Err(not_a_module(module.ident.span()));
    };
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
    items.extend(one_monitor_shorthand(&generated));
    items.extend(generated);
    if let Some(path) = tracked_file {
        // Makes rustc (and so cargo) rebuild the crate when the spec file changes.
        let path = path.to_string_lossy().into_owned();
        items.push(syn::parse_quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        ));
    }
    Ok(module.into_token_stream())
}

/// Compiles the spec text and generates its items with `flags`; errors become
/// compile errors placed according to `origin`.
fn generate(text: &str, origin: &Origin<'_>, flags: Flags) -> syn::Result<Vec<Item>> {
    let compiled = hindsight_compiler::compile(text).map_err(|d| spec_errors(&d, origin))?;
    let options = hindsight_codegen::Options {
        sealed_stamps: flags.sealed_stamps,
        ..Default::default()
    };
    let tokens = hindsight_codegen::generate_with(&compiled.program, &options)
        .map_err(|d| spec_errors(&d, origin))?;
    let file: syn::File = syn::parse2(tokens)?;
    Ok(file.items)
}

/// For a spec with exactly one monitor, `pub use self::name::*;`, so that
/// `rules::Monitor` works as well as `rules::name::Monitor`. Items declared in
/// the module itself (the spec's enums) take precedence over the glob.
fn one_monitor_shorthand(items: &[Item]) -> Option<Item> {
    let mut modules = items.iter().filter_map(|item| match item {
        Item::Mod(m) => Some(&m.ident),
        _ => None,
    });
    let name = modules.next()?;
    if modules.next().is_some() {
        return None;
    }
    Some(syn::parse_quote!(pub use self::#name::*;))
}

/// Reads the spec file `lit` names, relative to the crate being compiled.
fn read_spec_file(lit: &LitStr) -> syn::Result<(PathBuf, String)> {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let path = PathBuf::from(dir).join(lit.value());
    hindsight_compiler::source::read_spec(&path)
        .map(|text| (path.clone(), text))
        .map_err(|e| syn::Error::new(lit.span(), format!("cannot read {}: {e}", path.display())))
}

fn not_a_module(span: proc_macro2::Span) -> syn::Error {
    syn::Error::new(
        span,
        "`#[monitor(...)]` goes on an inline module, e.g. `pub mod rules {}`; \
         the module receives the generated monitor code",
    )
}
