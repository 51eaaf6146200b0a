//! One lifeline's module inside its system's module: `Store`, `Changes`,
//! `Guards` and `Monitor`, the CPL paper's Algorithm 1 exactly as the
//! executable [`LifelineMonitor`](hindsight_compiler::interp::system::LifelineMonitor) runs it.
//!
//! An event merges the received stamp (receive only), ticks the own clock
//! component (saturating), applies the changes, runs the lifeline's table with
//! the step code of monitors ([`crate::step::statements`], inputs read from
//! the store and the views), and writes the own view entries. Undefined values
//! need no special code: the lowering gives every variable a defined flag and
//! guards every atom with its flags, so an undefined variable's value (read as
//! its type's default) is never observed.

use super::stamp::entry_field;
use crate::monitor::{named_verdicts, rust_type, serde_derives, type_name, VerdictsDocs};
use crate::names::ident;
use crate::state;
use crate::step;
use hindsight_compiler::ir::system::{
    EntryKind, InputSource, LifelineId, LifelineTable, SystemTables,
};
use hindsight_compiler::ir::table::Source;
use hindsight_compiler::ir::Decl;
use hindsight_compiler::types::{EnumDef, Ty};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

/// The module of lifeline `me`; `runtime` is the path of the runtime crate.
pub(super) fn generate(
    tables: &SystemTables,
    me: usize,
    lifeline: &LifelineTable,
    enums: &[EnumDef],
    runtime: &TokenStream,
) -> TokenStream {
    let Some(decl) = tables.lifelines.get(me) else {
        return quote!();
    };
    let name = ident(&decl.name);
    let doc = format!(" lifeline `{}` of system `{}`.", decl.name, tables.name);
    let vars: Vec<Ident> = decl.vars.iter().map(|v| ident(&v.name)).collect();
    let var_docs: Vec<String> = decl
        .vars
        .iter()
        .map(|v| format!(" variable `{}: {}`", v.name, type_name(v.ty, enums)))
        .collect();
    let var_types: Vec<TokenStream> = decl.vars.iter().map(|v| rust_type(v.ty, enums)).collect();
    let guard_names: Vec<&str> = lifeline
        .guards
        .iter()
        .filter_map(|&g| g.get(&tables.guards))
        .map(|g| g.name.as_str())
        .collect();
    let guards = guards_struct(&guard_names, runtime);
    let serde = serde_derives(runtime);
    let from_values = changes_from_values(&decl.vars, enums, runtime);
    let monitor = monitor_struct(tables, me, lifeline);
    quote! {
        #[doc = #doc]
        pub mod #name {
            use #runtime::{rules, stamp::{StampError, CLOCK_LIMIT}, time, Verdict};

            /// The lifeline's variables; `None` until an event assigns one.
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            #serde
            pub struct Store {
                #(#[doc = #var_docs] pub #vars: Option<#var_types>,)*
            }

            /// What one event assigns; `None` leaves a variable as it is
            /// (`Changes::default()` assigns nothing).
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            #serde
            pub struct Changes {
                #(#[doc = #var_docs] pub #vars: Option<#var_types>,)*
            }

            #from_values
            #guards
            #monitor
        }
    }
}

/// `Changes::from_values`: store changes given as `(variable index, value)`
/// pairs, as trace drivers read them, refused as the interpreter refuses them.
fn changes_from_values(vars: &[Decl], enums: &[EnumDef], runtime: &TokenStream) -> TokenStream {
    if vars.is_empty() {
        return quote! {
            impl Changes {
                /// The changes of an untyped event: none, since the lifeline
                /// has no variables; refuses any.
                pub fn from_values(
                    values: &[(usize, #runtime::Value)],
                ) -> Result<Self, #runtime::system::MonitorError> {
                    match values.first() {
                        Some(&(var, _)) => Err(#runtime::system::MonitorError::UnknownVar(var)),
                        None => Ok(Self {}),
                    }
                }
            }
        };
    }
    let arms = vars.iter().enumerate().map(|(i, var)| {
        let field = ident(&var.name);
        let i = Literal::usize_unsuffixed(i);
        let value = match var.ty {
            Ty::Bool => quote!(#runtime::Value::Bool(v) => v),
            Ty::Int => quote!(#runtime::Value::Int(v) => v),
            Ty::Float => quote!(#runtime::Value::Float(v) => v),
            Ty::Enum(_) => {
                let path = rust_type(var.ty, enums);
                quote!(#runtime::Value::Enum(v) => #path::from_index(v).ok_or(WrongType(#i))?)
            }
        };
        quote! {
            #i => changes.#field = Some(match value {
                #value,
                _ => return Err(WrongType(#i)),
            }),
        }
    });
    quote! {
        impl Changes {
            /// The changes `(variable index, value)` (variables in declaration
            /// order) of an untyped event; refuses an unknown variable or a
            /// value of another type.
            pub fn from_values(
                values: &[(usize, #runtime::Value)],
            ) -> Result<Self, #runtime::system::MonitorError> {
                use #runtime::system::MonitorError::{UnknownVar, WrongType};
                let mut changes = Self::default();
                for &(var, value) in values {
                    match var {
                        #(#arms)*
                        _ => return Err(UnknownVar(var)),
                    }
                }
                Ok(changes)
            }
        }
    }
}

/// The docs of a lifeline's `Guards`.
const GUARD_VERDICTS: VerdictsDocs = VerdictsDocs {
    item: "One verdict per guard the lifeline owns, in declaration order.",
    field: "guard",
    names: "Guard names in declaration order.",
    unknown: "Every verdict `Unknown` (what `guards` reports before the first event).",
};

/// `Guards`: one verdict per guard the lifeline owns.
fn guards_struct(names: &[&str], runtime: &TokenStream) -> TokenStream {
    named_verdicts("Guards", names, &GUARD_VERDICTS, runtime)
}

fn monitor_struct(tables: &SystemTables, me: usize, lifeline: &LifelineTable) -> TokenStream {
    let table = &lifeline.table;
    let (state_fields, state_inits) = state::declarations(table, "Events");
    let me_lit = Literal::usize_unsuffixed(me);
    let lifelines = Literal::usize_unsuffixed(tables.layout.lifelines.len());
    let vars: Vec<Ident> = tables.lifelines.get(me).map_or_else(Vec::new, |l| {
        l.vars.iter().map(|v| ident(&v.name)).collect()
    });
    let evaluate = evaluate(tables, me, lifeline);
    quote! {
        /// The monitor of this lifeline: its clock and view of the other
        /// lifelines (as a stamp), its store, the state of its past operators and
        /// the last event's guard verdicts.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Monitor {
            /// The clock and the view entries (the own ones as of the last event).
            stamp: super::Stamp,
            store: Store,
            #state_fields
            /// The guards at the last event; `UNKNOWN` before the first.
            last: Guards,
        }

        impl Monitor {
            /// This lifeline's component in the clock.
            pub const LIFELINE: usize = #me_lit;

            /// The monitor before the lifeline's first event.
            pub const fn new() -> Self {
                Self {
                    stamp: super::Stamp::EMPTY,
                    store: Store { #(#vars: None),* },
                    #state_inits
                    last: Guards::UNKNOWN,
                }
            }

            /// A send event; returns the stamp the message carries. Fails (and
            /// changes nothing) only when the own clock component would reach
            /// 2^63, which no genuine stamp carries.
            pub fn on_send(&mut self, changes: &Changes) -> Result<super::Stamp, StampError> {
                if self.stamp.clock[#me_lit] >= CLOCK_LIMIT - 1 {
                    return Err(StampError::ClockSaturated);
                }
                self.event(changes);
                Ok(self.stamp)
            }

            /// The receive event of a message carrying `stamp`. Fails (and changes
            /// nothing) if the stamp is ahead of this lifeline on its own component.
            pub fn on_recv(&mut self, stamp: &super::Stamp, changes: &Changes) -> Result<(), StampError> {
                if stamp.clock[#me_lit] > self.stamp.clock[#me_lit] {
                    return Err(StampError::Inconsistent);
                }
                self.stamp.merge(stamp);
                self.event(changes);
                Ok(())
            }

            /// A local action.
            pub fn on_act(&mut self, changes: &Changes) {
                self.event(changes);
            }

            /// A choice: returns the guards' verdicts at it.
            pub fn on_choice(&mut self, changes: &Changes) -> Guards {
                self.event(changes);
                self.last
            }

            /// The guards' verdicts at the last event (`UNKNOWN` before the first).
            pub fn guards(&self) -> Guards {
                self.last
            }

            /// The store after the last event.
            pub fn store(&self) -> &Store {
                &self.store
            }

            /// The vector clock: per lifeline, how many of its events are visible here.
            pub fn clock(&self) -> &[u64; #lifelines] {
                self.stamp.clock()
            }

            /// Back to the state before the first event.
            pub fn reset(&mut self) {
                *self = Self::new();
            }

            /// One event after the merge: tick, changes, the table, own entries.
            fn event(&mut self, changes: &Changes) {
                self.stamp.clock[#me_lit] = self.stamp.clock[#me_lit].saturating_add(1);
                #(if let Some(v) = changes.#vars { self.store.#vars = Some(v); })*
                #evaluate
            }
        }

        impl Default for Monitor {
            fn default() -> Self {
                Self::new()
            }
        }
    }
}

/// The table's step on the store and the views, then the guards and the own
/// view entries.
fn evaluate(tables: &SystemTables, me: usize, lifeline: &LifelineTable) -> TokenStream {
    let table = &lifeline.table;
    let vars = tables.lifelines.get(me).map_or(&[][..], |l| &l.vars);
    let var = |x: usize| vars.get(x).map(|v| (ident(&v.name), v.ty));
    let read = |i: usize| match lifeline.inputs.get(i) {
        Some(&InputSource::Var(x)) => var(x).map_or_else(
            TokenStream::new,
            |(name, _)| quote!(self.store.#name.unwrap_or_default()),
        ),
        Some(&InputSource::Defined(x)) => var(x).map_or_else(
            TokenStream::new,
            |(name, _)| quote!(self.store.#name.is_some()),
        ),
        Some(&InputSource::Entry(id)) => {
            let field = entry_field(id);
            match id.get(&tables.layout.entries).map(|e| e.kind) {
                Some(EntryKind::Var { ty: Ty::Float, .. }) => {
                    quote!(f64::from_bits(self.stamp.#field.unwrap_or_default()))
                }
                Some(EntryKind::Var { .. }) => quote!(self.stamp.#field.unwrap_or_default()),
                _ => quote!(self.stamp.#field),
            }
        }
        Some(&InputSource::EntryDefined(id)) => {
            let field = entry_field(id);
            quote!(self.stamp.#field.is_some())
        }
        None => TokenStream::new(),
    };
    let statements = step::statements(table, &read);
    let value = |k: usize| match table.outputs.get(k).map(|o| o.source) {
        Some(Source::Slot(slot)) => step::operand(table, slot),
        // Guards are past-time: their tables have no automata.
        _ => quote!(false),
    };
    let guards = lifeline.guards.iter().enumerate().filter_map(|(k, &g)| {
        let name = ident(&g.get(&tables.guards)?.name);
        let value = value(k);
        Some(quote!(#name: Verdict::from(#value)))
    });
    let formulas = lifeline.exports.iter().enumerate().map(|(j, &id)| {
        let field = entry_field(id);
        let value = value(lifeline.guards.len() + j);
        quote!(self.stamp.#field = #value;)
    });
    let layout = &tables.layout;
    let variables = layout.owned_by(LifelineId::new(me)).filter_map(|id| {
        let EntryKind::Var { var: x, .. } = id.get(&layout.entries)?.kind else {
            return None;
        };
        let (name, ty) = var(x)?;
        let field = entry_field(id);
        Some(if ty == Ty::Float {
            quote!(self.stamp.#field = self.store.#name.map(f64::to_bits);)
        } else {
            quote!(self.stamp.#field = self.store.#name;)
        })
    });
    quote! {
        #statements
        self.last = Guards { #(#guards),* };
        #(#formulas)*
        #(#variables)*
    }
}
