//! The LTL3 automata of future-time properties in generated code.
//!
//! Per automaton `K`: private consts `AK_NEXT` (successors, indexed
//! `state << atoms | letter`) or, for an automaton of at most 8 states,
//! `AK_STEP` (per letter, 8 times each state's successor, one byte each: see
//! [`is_small`]), `AK_VERDICT`, `AK_END` and `AK_RESIDUAL` (per state), and a
//! field `aK` holding the current state (8 times it when small) in the
//! narrowest unsigned type. A future-time property (future `F`) has one automaton, or one per
//! independent part whose verdicts combine with the runtime's Kleene
//! `Verdict::and`/`or`/`negate` into `wF`. A `with reset` property also keeps
//! `freshF` (its run has read no step since it restarted) and `countsF` (its
//! decided verdicts). A step is one table lookup per automaton (a shift of
//! the letter's word when small): the letter is built from the atoms' locals,
//! and every lookup goes through `get` so no index can panic.

use super::names::ident;
use super::state::counter_type;
use hindsight_compiler::ir::table::{Combination, Future, FutureId, Output, SlotId, Source, Table};
use hindsight_compiler::Verdict;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

fn name(prefix: &str, k: impl std::fmt::Display, suffix: &str) -> Ident {
    Ident::new(&format!("{prefix}{k}{suffix}"), Span::call_site())
}

/// The automaton field `aK`.
pub(super) fn state_field(k: impl std::fmt::Display) -> Ident {
    name("a", k, "")
}

fn verdict(v: Verdict) -> TokenStream {
    match v {
        Verdict::True => quote!(Verdict::True),
        Verdict::False => quote!(Verdict::False),
        Verdict::Unknown => quote!(Verdict::Unknown),
    }
}

/// The future-time outputs, with their future's index and the future.
pub(super) fn future_outputs(table: &Table) -> impl Iterator<Item = (&Output, FutureId, &Future)> {
    table.outputs.iter().filter_map(|out| match out.source {
        Source::Future(f) => f.get(&table.futures).map(|future| (out, f, future)),
        Source::Slot(_) | Source::Timed(_) => None,
    })
}

/// The Rust expression of a combination of verdicts, part `K` being `leaf(K)`.
fn combined(c: &Combination, leaf: &dyn Fn(usize) -> TokenStream) -> TokenStream {
    match c {
        Combination::Part(k) => leaf(*k),
        Combination::Not(inner) => {
            let inner = combined(inner, leaf);
            quote!((#inner).negate())
        }
        Combination::And(cs) | Combination::Or(cs) => {
            let mut operands = cs.iter().map(|c| combined(c, leaf));
            let first = operands.next().unwrap_or_else(|| quote!(Verdict::Unknown));
            let conjunction = matches!(c, Combination::And(_));
            operands.fold(first, |acc, next| {
                if conjunction {
                    quote!(#acc.and(#next))
                } else {
                    quote!(#acc.or(#next))
                }
            })
        }
    }
}

/// The local holding future `f`'s verdict after the transitions: the single
/// automaton's `vK`, or the combination's `wF`.
pub(super) fn verdict_local(future: &Future, f: FutureId) -> Ident {
    match future.combination {
        Combination::Part(k) => name("v", k, ""),
        _ => name("w", f, ""),
    }
}

/// Whether automaton `a` has at most 8 states: its field then holds 8 times
/// the state, and its successors are one `u64` per letter (`AK_STEP`, 8
/// times the successor of state `s` in byte `s`) rather than a table
/// indexed by state and letter, so that a step's dependency on the previous
/// one is one shift rather than a load.
fn is_small(a: &hindsight_compiler::ir::table::Automaton) -> bool {
    a.states.len() <= 8
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
        let n_states = Literal::usize_unsuffixed(a.states.len());
        let successors = if is_small(a) {
            // Per letter, 8 times the successor of state `s` in byte `s`.
            let letters = 1usize << a.atoms.len();
            let words = (0..letters).map(|letter| {
                let word = (0..a.states.len()).fold(0u64, |word, s| {
                    let t = a.transitions.get(s << a.atoms.len() | letter).copied();
                    word | u64::from(8 * t.unwrap_or(0)) << (8 * s)
                });
                Literal::u64_unsuffixed(word)
            });
            let n_letters = Literal::usize_unsuffixed(letters);
            let step = name("A", k, "_STEP");
            quote!(const #step: [u64; #n_letters] = [#(#words),*];)
        } else {
            let succ = a.transitions.iter().map(|&t| Literal::u32_unsuffixed(t));
            let n_trans = Literal::usize_unsuffixed(a.transitions.len());
            quote!(const #next: [#ty; #n_trans] = [#(#succ),*];)
        };
        let v = a.states.iter().map(|s| verdict(s.verdict));
        let e = a.states.iter().map(|s| verdict(s.end_verdict));
        let r = a.states.iter().map(|s| s.residual.as_str());
        quote! {
            #successors
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
    for (out, f, future) in future_outputs(table) {
        for (j, &k) in future.automata.iter().enumerate() {
            let Some(a) = k.get(&table.automata) else {
                continue;
            };
            let state = state_field(k);
            let ty = counter_type(a.states.len().saturating_sub(1) as u64);
            let doc = match future.automata.len() {
                1 => format!(" State of the automaton of `{}`.", out.name),
                n => format!(
                    " State of automaton {} of {n} of `{}` (its independent parts).",
                    j + 1,
                    out.name
                ),
            };
            fields.push(quote!(#[doc = #doc] #state: #ty,));
            inits.push(quote!(#state: 0,));
        }
        if out.reset {
            let (field, init) = run_fields(&name("fresh", f, ""), &name("counts", f, ""));
            fields.push(field);
            inits.push(init);
        }
    }
    (quote!(#(#fields)*), quote!(#(#inits)*))
}

/// `(field declarations, initial values)` of a `with reset` property's run:
/// `fresh` (no step read since it restarted) and `counts` (its decided verdicts).
pub(super) fn run_fields(fresh: &Ident, counts: &Ident) -> (TokenStream, TokenStream) {
    (
        quote!(
            /// Whether the run in progress has read no step since it (re)started.
            #fresh: bool,
            /// Decided verdicts counted so far.
            #counts: ResetCounts,
        ),
        quote!(#fresh: true, #counts: ResetCounts { satisfactions: 0, violations: 0 },),
    )
}

/// The transitions of one step: defines `vK` (the verdict of automaton `K`) from
/// the atoms' values, given each atom's operand tokens, and `wF` for futures
/// of several automata ([`verdict_local`]).
pub(super) fn advance(table: &Table, operand: &dyn Fn(SlotId) -> TokenStream) -> TokenStream {
    let steps = future_outputs(table).map(|(out, f, future)| {
        let transitions = future.automata.iter().filter_map(|&k| {
            let a = k.get(&table.automata)?;
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
            let successor = if is_small(a) {
                // The letter's word, shifted to the state's byte (the field
                // holds 8 times the state): the only work that waits for the
                // previous step is a shift.
                let step = name("A", k, "_STEP");
                let letter = if a.atoms.is_empty() {
                    quote!(0)
                } else {
                    quote!(#(#bits)|*)
                };
                quote! {
                    let #next = #step
                        .get(#letter)
                        .copied()
                        .unwrap_or(0)
                        .wrapping_shr(u32::from(self.#state)) as u8;
                    let #v = #verdicts
                        .get((#next >> 3) as usize)
                        .copied()
                        .unwrap_or(Verdict::Unknown);
                }
            } else {
                // Without atoms (`X true`) the only letter is 0: no shift, no `| 0`
                // (clippy's `identity_op`).
                let index = if a.atoms.is_empty() {
                    quote!(self.#state as usize)
                } else {
                    quote!(((self.#state as usize) << #width) | #(#bits)|*)
                };
                quote! {
                    let #next = #succ
                        .get(#index)
                        .copied()
                        .unwrap_or(0);
                    let #v = #verdicts.get(#next as usize).copied().unwrap_or(Verdict::Unknown);
                }
            };
            Some(successor)
        });
        let verdict = verdict_local(future, f);
        let combine = match future.combination {
            Combination::Part(_) => quote!(),
            _ => {
                let expr = combined(&future.combination, &|k| {
                    let v = name("v", k, "");
                    quote!(#v)
                });
                quote!(let #verdict = #expr;)
            }
        };
        let advance: Vec<_> = future
            .automata
            .iter()
            .map(|&k| {
                let (state, next) = (state_field(k), name("n", k, ""));
                quote!(self.#state = #next;)
            })
            .collect();
        let restart: Vec<_> = future
            .automata
            .iter()
            .map(|&k| {
                let state = state_field(k);
                quote!(self.#state = 0;)
            })
            .collect();
        let update = if out.reset {
            let (fresh, counts) = (name("fresh", f, ""), name("counts", f, ""));
            quote! {
                if #verdict == Verdict::Unknown {
                    #(#advance)*
                    self.#fresh = false;
                } else {
                    self.#counts.record(#verdict);
                    #(#restart)*
                    self.#fresh = true;
                }
            }
        } else {
            quote!(#(#advance)*)
        };
        quote! {
            #(#transitions)*
            #combine
            #update
        }
    });
    quote!(#(#steps)*)
}

/// The end verdict of future `future` in its automata's current states.
fn end_verdict(table: &Table, future: &Future) -> TokenStream {
    combined(&future.combination, &|k| {
        let (index, ends) = (state_index(table, k), name("A", k, "_END"));
        quote!(#ends.get(#index).copied().unwrap_or(Verdict::Unknown))
    })
}

/// The index of automaton `k`'s current state in its per-state consts: its
/// field, divided by 8 for a small automaton ([`is_small`]).
fn state_index(table: &Table, k: usize) -> TokenStream {
    let state = state_field(k);
    if table.automata.get(k).is_some_and(is_small) {
        quote!((self.#state >> 3) as usize)
    } else {
        quote!(self.#state as usize)
    }
}

/// Statements of `finish` adjusting `verdicts` (the last step's) to the
/// automata's end verdicts.
pub(super) fn finish(table: &Table) -> TokenStream {
    let fixes = future_outputs(table).map(|(out, f, future)| {
        let field = ident(&out.name);
        let end = end_verdict(table, future);
        if out.reset {
            let fresh = name("fresh", f, "");
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
            Source::Future(f) if out.reset => {
                let (fresh, counts) = (name("fresh", f, ""), name("counts", f, ""));
                let end = f
                    .get(&table.futures)
                    .map_or_else(|| quote!(Verdict::Unknown), |f| end_verdict(table, f));
                quote! {{
                    let mut counts = self.#counts;
                    if !self.#fresh {
                        counts.record(#end);
                    }
                    counts
                }}
            }
            Source::Timed(t) if out.reset => super::timed::counts(t),
            _ => quote!(ResetCounts {
                satisfactions: 0,
                violations: 0
            }),
        })
        .collect()
}

/// The `Residuals` struct and `Monitor::residuals`, if the monitor has future-time
/// properties: what the rest of the trace must still satisfy, per property (per
/// independent part, for a property split into several automata).
pub(super) fn residuals(table: &Table) -> (TokenStream, TokenStream) {
    let outs: Vec<_> = future_outputs(table).collect();
    if outs.is_empty() {
        return (quote!(), quote!());
    }
    let names: Vec<_> = outs.iter().map(|(o, _, _)| ident(&o.name)).collect();
    let docs = outs.iter().map(|(o, f, future)| match future.combination {
        Combination::Part(_) => format!(" property `{}`", o.name),
        _ => format!(
            " property `{}`, one residual per independent part; the property's is their combination `{}`",
            o.name,
            table.future_text(*f).trim_start_matches("automata ")
        ),
    });
    let types = outs.iter().map(|(_, _, future)| match future.combination {
        Combination::Part(_) => quote!(&'static str),
        _ => {
            let n = Literal::usize_unsuffixed(future.automata.len());
            quote!([&'static str; #n])
        }
    });
    let values = outs.iter().map(|(_, _, future)| {
        let each = future.automata.iter().map(|&k| {
            let (index, residuals) = (state_index(table, k.index()), name("A", k, "_RESIDUAL"));
            quote!(#residuals.get(#index).copied().unwrap_or(""))
        });
        match future.combination {
            Combination::Part(_) => quote!(#(#each)*),
            _ => quote!([#(#each),*]),
        }
    });
    let item = quote! {
        /// Per future-time property, what the rest of the trace must still satisfy
        /// (its residual obligation, in the spec's syntax).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Residuals {
            #(#[doc = #docs] pub #names: #types,)*
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
