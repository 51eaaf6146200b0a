//! A spec enum as a Rust enum with `NAMES`, `index` and `from_index`.
//!
//! These items live in the user's scope, where spec names (enums, monitor
//! modules) may shadow `u32`, `str` or `Option`; so every such path is absolute.

use super::names::ident;
use hindsight_compiler::types::EnumDef;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The enum's definition and inherent impl (checked enums have variants: E0207).
pub(super) fn generate(def: &EnumDef, runtime: &TokenStream) -> TokenStream {
    let serde = crate::monitor::serde_derives(runtime);
    let name = ident(&def.name);
    let doc = format!(" enum `{}` from the spec.", def.name);
    let count = def.variants.len();
    let count_lit = Literal::usize_unsuffixed(count);
    let names = &def.variants;
    let variants: Vec<_> = def.variants.iter().map(|v| ident(v)).collect();
    let declarations = variants
        .iter()
        .zip(&def.variants)
        .enumerate()
        .map(|(k, (v, text))| {
            let doc = format!(" `{}::{text}`", def.name);
            let default = (k == 0).then(|| quote!(#[default]));
            quote!(#[doc = #doc] #default #v)
        });
    let indices = (0..count).map(Literal::usize_unsuffixed);
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, dead_code, clippy::upper_case_acronyms, clippy::enum_variant_names)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #serde
        pub enum #name {
            #(#declarations,)*
        }

        #[allow(dead_code, clippy::match_single_binding)]
        impl #name {
            /// The variants' names, in declaration order.
            pub const NAMES: [&::core::primitive::str; #count_lit] = [#(#names),*];

            /// This variant's index in declaration order.
            pub const fn index(self) -> ::core::primitive::u32 {
                self as ::core::primitive::u32
            }

            /// The variant with this index in declaration order, if there is one.
            pub const fn from_index(index: ::core::primitive::u32) -> ::core::option::Option<Self> {
                match index {
                    #(#indices => ::core::option::Option::Some(Self::#variants),)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}
