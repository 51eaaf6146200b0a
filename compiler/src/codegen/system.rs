//! One `system`'s module: its `Stamp` ([`super::system_stamp`]) and one module
//! per lifeline ([`super::system_lifeline`]), see docs/generated-code.md,
//! "Systems".
//!
//! Inside the system module the spec enums its variables use are imported
//! (`use super::Status;`), so that the lifeline modules one level further down
//! reach them as `super::Status`, as monitor modules do; the system module's
//! own code names everything else by absolute paths, since an imported enum
//! may be called `u64` or `Option`.

use super::monitor::allowed_lints;
use super::names::ident;
use super::system_lifeline;
use super::system_stamp;
use super::Options;
use crate::hir::{EnumDef, System, Ty};
use crate::system::SystemTables;
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

/// The module of one system, generated with `options`.
pub(super) fn generate(tables: &SystemTables, enums: &[EnumDef], options: &Options) -> TokenStream {
    let runtime = &options.runtime;
    let system = &tables.system;
    let name = ident(&system.name);
    let doc = format!(" system `{}` from the spec.", system.name);
    let allow = allowed_lints();
    let imports = imported_enums(system)
        .filter_map(|e| enums.get(e))
        .map(|d| {
            let name = ident(&d.name);
            quote!(use super::#name;)
        });
    let stamp = system_stamp::generate(&tables.layout, enums, options);
    let lifelines = tables
        .lifelines
        .iter()
        .enumerate()
        .map(|(me, lifeline)| system_lifeline::generate(tables, me, lifeline, enums, runtime));
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

/// The enums (indices) some variable of `system` has as its type, ascending
/// and each once: what the system module imports.
pub(super) fn imported_enums(system: &System) -> impl Iterator<Item = usize> {
    let used: BTreeSet<usize> = system
        .lifelines
        .iter()
        .flat_map(|l| &l.vars)
        .filter_map(|v| match v.ty {
            Ty::Enum(e) => Some(e),
            _ => None,
        })
        .collect();
    used.into_iter()
}
