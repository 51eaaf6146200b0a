//! The LTL3 automata of future-time properties in generated code.
//!
//! Per automaton `K` (of output `k`): private consts `AK_NEXT` (successors,
//! indexed `state << atoms | letter`), `AK_VERDICT`, `AK_END` and `AK_RESIDUAL`
//! (per state), and a field `aK` holding the current state in the narrowest
//! unsigned type. A `with reset` property also keeps `freshK` (its run has read
//! no step since it restarted) and `countsK` (its decided verdicts). A step is
//! one table lookup: the letter is built from the atoms' locals, and every
//! lookup goes through `get` so no index can panic.

use super::names::ident;
use super::state::counter_type;
use crate::table::{Automaton, Output, Source, Table};
use crate::Verdict;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

fn name(prefix: &str, k: usize, suffix: &str) -> Ident {
    Ident::new(&format!("{prefix}{k}{suffix}"), Span::call_site())
}

/// The automaton field `aK`.
pub(super) fn state_field(k: usize) -> Ident {
    name("a", k, "")
}

fn verdict(v: Verdict) -> TokenStream {
    match v {
        Verdict::True => quote!(Verdict::True),
        Verdict::False => quote!(Verdict::False),
        Verdict::Unknown => quote!(Verdict::Unknown),
    }
}

/// The outputs fed by automata, with their automaton.
pub(super) fn future_outputs(table: &Table) -> impl Iterator<Item = (&Output, usize, &Automaton)> {
    table.outputs.iter().filter_map(|out| match out.source {
        Source::Automaton(k) => table.automata.get(k).map(|a| (out, k, a)),
        Source::Slot(_) => None,
    })
}

/// The consts of every automaton.
pub(super) fn consts(table: &Table) -> TokenStream {
    let items = table.automata.iter().enumerate().map(|(k, a)| {
        let (next, verdicts, ends, residuals) = (
            name("A", k, "_NEXT"),
            name("A", k, "_VERDICT"),
            name("A", k, "_END"),
            name("A", k, "_RESIDUAL"),
        );
        let ty = counter_type(a.states.len().saturating_sub(1) as u64);
        let succ = a.transitions.iter().map(|&t| Literal::u32_unsuffixed(t));
        let n_trans = Literal::usize_unsuffixed(a.transitions.len());
        let n_states = Literal::usize_unsuffixed(a.states.len());
        let v = a.states.iter().map(|s| verdict(s.verdict));
        let e = a.states.iter().map(|s| verdict(s.end_verdict));
        let r = a.states.iter().map(|s| s.residual.as_str());
        quote! {
            const #next: [#ty; #n_trans] = [#(#succ),*];
            const #verdicts: [Verdict; #n_states] = [#(#v),*];
            const #ends: [Verdict; #n_states] = [#(#e),*];
            const #residuals: [&str; #n_states] = [#(#r),*];
        }
    });
    quote!(#(#items)*)
}

/// `(fields, initial values)` of the automata in the `Monitor` struct.
pub(super) fn fields(table: &Table) -> (TokenStream, TokenStream) {
    let mut fields = Vec::new();
    let mut inits = Vec::new();
    for (out, k, a) in future_outputs(table) {
        let state = state_field(k);
        let ty = counter_type(a.states.len().saturating_sub(1) as u64);
        let doc = format!(" State of the automaton of `{}`.", out.name);
        fields.push(quote!(#[doc = #doc] #state: #ty,));
        inits.push(quote!(#state: 0,));
        if out.reset {
            let (fresh, counts) = (name("fresh", k, ""), name("counts", k, ""));
            fields.push(quote!(
                /// Whether the run in progress has read no step since it (re)started.
                #fresh: bool,
                /// Decided verdicts counted so far.
                #counts: ResetCounts,
            ));
            inits.push(
                quote!(#fresh: true, #counts: ResetCounts { satisfactions: 0, violations: 0 },),
            );
        }
    }
    (quote!(#(#fields)*), quote!(#(#inits)*))
}

/// The transitions of one step: defines `vK` (the verdict of automaton `K`) from
/// the atoms' values, given each atom's operand tokens.
pub(super) fn advance(table: &Table, operand: &dyn Fn(usize) -> TokenStream) -> TokenStream {
    let steps = future_outputs(table).map(|(out, k, a)| {
        let (state, v, next) = (state_field(k), name("v", k, ""), name("n", k, ""));
        let (succ, verdicts) = (name("A", k, "_NEXT"), name("A", k, "_VERDICT"));
        let bits = a.atoms.iter().enumerate().map(|(i, &slot)| {
            let value = operand(slot);
            let shift = Literal::usize_unsuffixed(i);
            if i == 0 {
                quote!(usize::from(#value))
            } else {
                quote!((usize::from(#value) << #shift))
            }
        });
        let width = Literal::usize_unsuffixed(a.atoms.len());
        // Without atoms (`X true`) the only letter is 0: no shift, no `| 0`
        // (clippy's `identity_op`).
        let index = if a.atoms.is_empty() {
            quote!(self.#state as usize)
        } else {
            quote!(((self.#state as usize) << #width) | #(#bits)|*)
        };
        let update = if out.reset {
            let (fresh, counts) = (name("fresh", k, ""), name("counts", k, ""));
            quote! {
                if #v == Verdict::Unknown {
                    self.#state = #next;
                    self.#fresh = false;
                } else {
                    self.#counts.record(#v);
                    self.#state = 0;
                    self.#fresh = true;
                }
            }
        } else {
            quote!(self.#state = #next;)
        };
        quote! {
            let #next = #succ
                .get(#index)
                .copied()
                .unwrap_or(0);
            let #v = #verdicts.get(#next as usize).copied().unwrap_or(Verdict::Unknown);
            #update
        }
    });
    quote!(#(#steps)*)
}

/// The end verdict of automaton `K` in its current state.
fn end_verdict(k: usize) -> TokenStream {
    let (state, ends) = (state_field(k), name("A", k, "_END"));
    quote!(#ends.get(self.#state as usize).copied().unwrap_or(Verdict::Unknown))
}

/// Statements of `finish` adjusting `verdicts` (the last step's) to the
/// automata's end verdicts.
pub(super) fn finish(table: &Table) -> TokenStream {
    let fixes = future_outputs(table).map(|(out, k, _)| {
        let field = ident(&out.name);
        let end = end_verdict(k);
        if out.reset {
            let fresh = name("fresh", k, "");
            quote!(if !self.#fresh { verdicts.#field = #end; })
        } else {
            quote!(verdicts.#field = #end;)
        }
    });
    quote!(#(#fixes)*)
}

/// One `ResetCounts` expression per output, in output order: a `with reset`
/// property's counts including its unfinished run's end verdict, zero otherwise.
pub(super) fn counts(table: &Table) -> Vec<TokenStream> {
    table
        .outputs
        .iter()
        .map(|out| match out.source {
            Source::Automaton(k) if out.reset => {
                let (fresh, counts) = (name("fresh", k, ""), name("counts", k, ""));
                let end = end_verdict(k);
                quote! {{
                    let mut counts = self.#counts;
                    if !self.#fresh {
                        counts.record(#end);
                    }
                    counts
                }}
            }
            _ => quote!(ResetCounts {
                satisfactions: 0,
                violations: 0
            }),
        })
        .collect()
}

/// The `Residuals` struct and `Monitor::residuals`, if the monitor has future-time
/// properties: what the rest of the trace must still satisfy, per property.
pub(super) fn residuals(table: &Table) -> (TokenStream, TokenStream) {
    let outs: Vec<_> = future_outputs(table).collect();
    if outs.is_empty() {
        return (quote!(), quote!());
    }
    let names: Vec<_> = outs.iter().map(|(o, _, _)| ident(&o.name)).collect();
    let docs = outs
        .iter()
        .map(|(o, _, _)| format!(" property `{}`", o.name));
    let values = outs.iter().map(|(_, k, _)| {
        let (state, residuals) = (state_field(*k), name("A", *k, "_RESIDUAL"));
        quote!(#residuals.get(self.#state as usize).copied().unwrap_or(""))
    });
    let item = quote! {
        /// Per future-time property, what the rest of the trace must still satisfy
        /// (its residual obligation, in the spec's syntax).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Residuals {
            #(#[doc = #docs] pub #names: &'static str,)*
        }
    };
    let method = quote! {
        /// The residual obligation of every future-time property in the current state.
        pub fn residuals(&self) -> Residuals {
            Residuals { #(#names: #values,)* }
        }
    };
    (item, method)
}
