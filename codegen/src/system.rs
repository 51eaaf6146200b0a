//! One `system`'s module: its `Stamp` ([`stamp`]) and one module per
//! lifeline ([`lifeline`]), see docs/generated-code.md,
//! "Systems".
//!
//! Inside the system module the spec enums its variables use are imported
//! (`use super::Status;`), so that the lifeline modules one level further down
//! reach them as `super::Status`, as monitor modules do; the system module's
//! own code names everything else by absolute paths, since an imported enum
//! may be called `u64` or `Option`.

mod lifeline;
pub(crate) mod reject;
mod stamp;

use crate::monitor::allowed_lints;
use crate::names::ident;
use crate::Options;
use hindsight_compiler::ir::system::SystemTables;
use hindsight_compiler::types::EnumDef;
use proc_macro2::TokenStream;
use quote::quote;

/// The module of one system, generated with `options`.
pub(crate) fn generate(tables: &SystemTables, enums: &[EnumDef], options: &Options) -> TokenStream {
    let runtime = &options.runtime;
    let name = ident(&tables.name);
    let doc = format!(" system `{}` from the spec.", tables.name);
    let allow = allowed_lints();
    let imports = tables
        .enums_used()
        .into_iter()
        .filter_map(|e| enums.get(e))
        .map(|d| {
            let name = ident(&d.name);
            quote!(use super::#name;)
        });
    let stamp = stamp::generate(&tables.layout, enums, options);
    let lifelines = tables
        .lifelines
        .iter()
        .enumerate()
        .map(|(me, lifeline)| lifeline::generate(tables, me, lifeline, enums, runtime));
    quote! {
        #[doc = #doc]
        #allow
        pub mod #name {
            #(#imports)*

            #stamp
            #(#lifelines)*
        }
    }
}
