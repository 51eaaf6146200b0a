//! Future-time properties monitored by deadlines (a duration bound, or a
//! step window in a deadline's shape) in generated code: per such property
//! `T`, a const `DT` (its `time::Pattern`) and a field `dT` (its
//! `time::Deadline`); a step is one `Deadline::step` call at the step's time
//! (the `now` local, see [`super::step`]; 0 for a deadline counting steps,
//! which reads no time). A `with reset` property also keeps
//! `tfreshT` and `tcountsT`, as automata keep theirs.

use hindsight_compiler::ir::table::{Output, SlotId, Source, Table, TimedFuture, TimedId};
use hindsight_runtime::time::Kind;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::names::ident;

fn name(prefix: &str, t: TimedId) -> Ident {
    Ident::new(&format!("{prefix}{t}"), Span::call_site())
}

/// The verdict local `tT` a step defines.
pub(super) fn verdict_local(t: TimedId) -> Ident {
    name("t", t)
}

/// The timed outputs, with their index and their property.
fn timed_outputs(table: &Table) -> impl Iterator<Item = (&Output, TimedId, &TimedFuture)> {
    table.outputs.iter().filter_map(|out| match out.source {
        Source::Timed(t) => t.get(&table.timed).map(|timed| (out, t, timed)),
        _ => None,
    })
}

/// The `DT` const of every timed property.
pub(super) fn consts(table: &Table) -> TokenStream {
    let items = timed_outputs(table).map(|(_, t, timed)| {
        let p = timed.pattern;
        let kind = match p.kind {
            Kind::Eventually => quote!(time::Kind::Eventually),
            Kind::Always => quote!(time::Kind::Always),
            Kind::Until => quote!(time::Kind::Until),
        };
        let (every, lo, hi, steps) = (
            p.every,
            Literal::u64_unsuffixed(p.lo),
            Literal::u64_unsuffixed(p.hi),
            p.steps,
        );
        let d = name("D", t);
        quote! {
            const #d: time::Pattern = time::Pattern {
                kind: #kind, every: #every, lo: #lo, hi: #hi, steps: #steps
            };
        }
    });
    quote!(#(#items)*)
}

/// `(fields, initial values)` of the timed properties in the `Monitor` struct.
pub(super) fn fields(table: &Table) -> (TokenStream, TokenStream) {
    let mut fields = Vec::new();
    let mut inits = Vec::new();
    for (out, t, _) in timed_outputs(table) {
        let d = name("d", t);
        let doc = format!(" Deadline of `{}`.", out.name);
        fields.push(quote!(#[doc = #doc] #d: time::Deadline,));
        inits.push(quote!(#d: time::Deadline::NEW,));
        if out.reset {
            let (field, init) =
                super::automata::run_fields(&name("tfresh", t), &name("tcounts", t));
            fields.push(field);
            inits.push(init);
        }
    }
    (quote!(#(#fields)*), quote!(#(#inits)*))
}

/// The deadlines' steps at time `now`: defines `tT`, each operand given by
/// `operand`, and restarts a `with reset` property after a decided verdict.
pub(super) fn advance(table: &Table, operand: &dyn Fn(SlotId) -> TokenStream) -> TokenStream {
    let steps = timed_outputs(table).map(|(out, t, timed)| {
        let (d, pattern, v) = (name("d", t), name("D", t), verdict_local(t));
        let holds = |slot: Option<SlotId>| slot.map_or_else(|| quote!(true), operand);
        let (trigger, lhs, target) = (
            holds(timed.trigger),
            holds(timed.lhs),
            operand(timed.target),
        );
        let restart = out.reset.then(|| {
            let (fresh, counts) = (name("tfresh", t), name("tcounts", t));
            quote! {
                if #v == Verdict::Unknown {
                    self.#fresh = false;
                } else {
                    self.#counts.record(#v);
                    self.#d = time::Deadline::NEW;
                    self.#fresh = true;
                }
            }
        });
        // A deadline counting steps reads no time (a table may have none).
        let now = if timed.pattern.steps {
            quote!(0)
        } else {
            quote!(now)
        };
        quote! {
            let #v = self.#d.step(#pattern, #now, #trigger, #lhs, #target);
            #restart
        }
    });
    quote!(#(#steps)*)
}

/// Statements of `finish` setting `verdicts` to the deadlines' end verdicts.
pub(super) fn finish(table: &Table) -> TokenStream {
    let fixes = timed_outputs(table).map(|(out, t, _)| {
        let field = ident(&out.name);
        let (d, pattern) = (name("d", t), name("D", t));
        let end = quote!(self.#d.end_verdict(#pattern));
        if out.reset {
            let fresh = name("tfresh", t);
            quote!(if !self.#fresh { verdicts.#field = #end; })
        } else {
            quote!(verdicts.#field = #end;)
        }
    });
    quote!(#(#fixes)*)
}

/// The counts of timed output `t` `with reset`: its decided verdicts plus its
/// unfinished run's end verdict.
pub(super) fn counts(t: TimedId) -> TokenStream {
    let (fresh, counts, d, pattern) = (
        name("tfresh", t),
        name("tcounts", t),
        name("d", t),
        name("D", t),
    );
    quote! {{
        let mut counts = self.#counts;
        if !self.#fresh {
            counts.record(self.#d.end_verdict(#pattern));
        }
        counts
    }}
}

/// `restart_output` for timed output number `i` (timed property `t`).
pub(super) fn restart(i: usize, t: TimedId, reset: bool) -> TokenStream {
    let d = name("d", t);
    let i = Literal::usize_unsuffixed(i);
    let fresh = reset.then(|| {
        let fresh = name("tfresh", t);
        quote!(self.#fresh = true;)
    });
    quote!(if output == #i { self.#d = time::Deadline::NEW; #fresh })
}
