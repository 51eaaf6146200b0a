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
pub(crate) mod protocol;
pub(crate) mod reject;
mod stamp;

use crate::monitor::{allowed_lints, input_decls};
use crate::names::ident;
use crate::Options;
use hindsight_compiler::ir::system::SystemTables;
use hindsight_compiler::types::EnumDef;
use proc_macro2::{Ident, Literal, TokenStream};
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
    let monitors = monitors(tables, runtime);
    let protocols = protocol::generate(&tables.protocols, runtime);
    let schema = schema(tables, enums, runtime);
    quote! {
        #[doc = #doc]
        #allow
        pub mod #name {
            #(#imports)*

            #stamp
            #(#lifelines)*
            #protocols
            #monitors
            #schema
        }
    }
}

/// `Monitors`: every lifeline's monitor in one struct, and the runtime's
/// `SystemMonitor` over them (how standalone binaries and other generic
/// drivers run a generated system).
fn monitors(tables: &SystemTables, runtime: &TokenStream) -> TokenStream {
    let names: Vec<Ident> = tables.lifelines.iter().map(|l| ident(&l.name)).collect();
    let docs = tables
        .lifelines
        .iter()
        .map(|l| format!(" The monitor of lifeline `{}`.", l.name));
    let has_protocols = !tables.protocols.is_empty();
    let system_monitor = system_monitor_impl(&names, has_protocols, runtime);
    let (protocols_field, protocols_new) = if has_protocols {
        (
            quote!(
                /// Every protocol's central monitor, moved by message events.
                pub protocols: protocols::Monitors,
            ),
            quote!(protocols: protocols::Monitors::new(),),
        )
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    quote! {
        /// Every lifeline's monitor, driven together through the runtime's
        /// `SystemMonitor` (lifelines by index in declaration order, store
        /// changes as untyped values); the stamp is carried by the caller.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Monitors {
            #(#[doc = #docs] pub #names: #names::Monitor,)*
            #protocols_field
        }

        impl Monitors {
            /// Every monitor before its lifeline's first event.
            pub const fn new() -> Self {
                Self {
                    #(#names: #names::Monitor::new(),)*
                    #protocols_new
                }
            }
        }

        impl Default for Monitors {
            fn default() -> Self {
                Self::new()
            }
        }

        #system_monitor
    }
}

/// `impl SystemMonitor for Monitors`: each event dispatched on the lifeline's
/// index to its monitor, the changes converted by `Changes::from_values`; an
/// unknown lifeline is refused as a malformed stamp, as the interpreter does.
fn system_monitor_impl(names: &[Ident], has_protocols: bool, runtime: &TokenStream) -> TokenStream {
    let dispatch = |body: &dyn Fn(Literal, &Ident) -> TokenStream| {
        let arms = names.iter().enumerate().map(|(k, name)| {
            let k = Literal::usize_unsuffixed(k);
            let body = body(k.clone(), name);
            quote!(#k => { let changes = #name::Changes::from_values(changes)?; #body })
        });
        quote! {
            use #runtime::system::MonitorError;
            match lifeline {
                #(#arms)*
                _ => Err(MonitorError::MalformedStamp),
            }
        }
    };
    let send = dispatch(&|_, name| quote!(Ok(self.#name.on_send(&changes)?)));
    let recv = dispatch(&|k, name| {
        quote! {
            let own = self.#name.clock()[#k];
            let seen = stamp.clock()[#k];
            self.#name.on_recv(stamp, &changes).map_err(|e| match e {
                #runtime::stamp::StampError::Inconsistent => MonitorError::StampAhead { own, stamp: seen },
                e => MonitorError::from(e),
            })
        }
    });
    let act = dispatch(&|_, name| quote!(self.#name.on_act(&changes); Ok(())));
    let choice = dispatch(&|_, name| {
        quote! {
            let verdicts = self.#name.on_choice(&changes).to_array();
            for (out, verdict) in guards.iter_mut().zip(verdicts) {
                *out = verdict;
            }
            Ok(())
        }
    });
    let protocol_methods = if has_protocols {
        quote! {
            fn on_message(
                &mut self,
                event: &#runtime::system::MessageEvent<'_>,
                verdicts: &mut [#runtime::Verdict],
            ) -> bool {
                let send = event.kind == #runtime::system::MessageKind::Send;
                self.protocols.on_message(send, event.from, event.to, event.label, verdicts)
            }

            fn protocol_ends(&self, verdicts: &mut [#runtime::Verdict]) {
                self.protocols.finish(verdicts);
            }
        }
    } else {
        TokenStream::new()
    };
    let value = quote!(#runtime::Value);
    let result = |ok: TokenStream| quote!(Result<#ok, #runtime::system::MonitorError>);
    let (stamp_result, unit_result) = (result(quote!(Stamp)), result(quote!(())));
    quote! {
        impl #runtime::system::SystemMonitor for Monitors {
            type Stamp = Stamp;

            fn on_send(&mut self, lifeline: usize, changes: &[(usize, #value)]) -> #stamp_result {
                #send
            }

            fn on_recv(
                &mut self,
                lifeline: usize,
                stamp: &Stamp,
                changes: &[(usize, #value)],
            ) -> #unit_result {
                #recv
            }

            fn on_act(&mut self, lifeline: usize, changes: &[(usize, #value)]) -> #unit_result {
                #act
            }

            fn on_choice(
                &mut self,
                lifeline: usize,
                changes: &[(usize, #value)],
                guards: &mut [#runtime::Verdict],
            ) -> #unit_result {
                #choice
            }

            fn reset(&mut self) {
                *self = Self::new();
            }

            #protocol_methods
        }
    }
}

/// `SCHEMA`: the lifelines with their variables and guards, for trace readers.
fn schema(tables: &SystemTables, enums: &[EnumDef], runtime: &TokenStream) -> TokenStream {
    let system = &tables.name;
    let lifelines = tables.lifelines.iter().map(|l| {
        let name = &l.name;
        let variables = input_decls(&l.vars, enums, runtime);
        let guards = l
            .guards
            .iter()
            .filter_map(|&g| g.get(&tables.guards))
            .map(|g| g.name.as_str());
        quote! {
            #runtime::system::LifelineDecl {
                name: #name,
                variables: &[#(#variables),*],
                guards: &[#(#guards),*],
            }
        }
    });
    let time = match &tables.time {
        Some(name) => quote!(Some(#name)),
        None => quote!(None),
    };
    let protocols = tables.protocols.iter().map(|p| &p.name);
    quote! {
        /// The trace schema: the lifelines, their store variables with their
        /// types and enum variants, and the guards each owns.
        pub const SCHEMA: #runtime::system::SystemSchema = #runtime::system::SystemSchema {
            system: #system,
            lifelines: &[#(#lifelines),*],
            time: #time,
            protocols: &[#(#protocols),*],
        };
    }
}
