//! One monitor's module: `Input`, `Verdicts`, `Monitor` (with its
//! `StepMonitor` impl) and `SCHEMA`.
//!
//! Inside the module only the generator's own names and the runtime's `Value`
//! and `Verdict` are in scope; the spec's enums are reached as `super::Enum`, so
//! no spec name can shadow a type the code uses.

use super::automata;
use super::literal;
use super::names::ident;
use super::state;
use super::step::{self, default_value};
use super::timed;
use hindsight_compiler::ir::table::{Source, Table};
use hindsight_compiler::ir::Decl;
use hindsight_compiler::types::{EnumDef, Ty};
use hindsight_runtime::record::{
    Absent, FilterOp, Literal as FilterLiteral, Source as FieldSource,
};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// The serde derives of a generated data type: the runtime's `derive`
/// re-exports, serde's own with its `serde` feature and derives that
/// implement nothing without it, so the type implements serde's traits
/// exactly when the user turned the feature on.
pub(super) fn serde_derives(runtime: &TokenStream) -> TokenStream {
    let krate = format!("{}::__serde", runtime.to_string().replace(' ', ""));
    quote! {
        #[derive(#runtime::derive::Serialize, #runtime::derive::Deserialize)]
        #[serde(crate = #krate)]
    }
}

/// Lints the generated code may trip in the user's crate, by design: spec names
/// keep their case, formulas over constants or repeated operands (`x == x` is
/// false for NaN) are kept as written rather than "simplified", and the items
/// are `pub` for the user to re-export from wherever the code is included.
pub(super) fn allowed_lints() -> TokenStream {
    quote! {
        #[allow(
            dead_code,
            non_camel_case_types,
            non_snake_case,
            unused_comparisons,
            unused_imports,
            unused_variables,
            unreachable_pub,
            clippy::absurd_extreme_comparisons,
            clippy::bool_comparison,
            clippy::eq_op,
            clippy::float_cmp,
            clippy::get_first,
            clippy::ifs_same_cond,
            clippy::module_inception,
            clippy::nonminimal_bool,
            clippy::overly_complex_bool_expr
        )]
    }
}

/// How a generated monitor is stepped, which decides how its `step` is
/// inlined.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Caller {
    /// A `monitor` block, stepped by the user's code (from another crate as
    /// often as not): inlined into its caller, the verdicts never take a
    /// round trip through memory (measured on the IPC-Trucks rules: 1.6x the
    /// hand-written monitor without, 1.1x with).
    User,
    /// A population's per-agent stratum, stepped in the population's own
    /// loop over the agents (one loop for the strata that can share it):
    /// always inlined there, so the agent's attributes stay in registers
    /// (measured on `herd`: 1.4x the hand-written loop, 2.0x with calls).
    Population,
}

/// The module of one monitor; `runtime` is the path of the runtime crate.
pub(super) fn generate(table: &Table, runtime: &TokenStream, caller: Caller) -> TokenStream {
    let name = ident(&table.name);
    let doc = format!(" monitor `{}` from the spec.", table.name);
    let allow = allowed_lints();
    let input = input_struct(table, runtime);
    let properties: Vec<&str> = table.outputs.iter().map(|o| o.name.as_str()).collect();
    let verdicts = verdicts_struct(&properties, runtime);
    let monitor = monitor_struct(table, caller);
    let step_monitor = step_monitor_impl(table, runtime);
    let schema = schema(table, runtime);
    let consts = automata::consts(table);
    let timed_consts = timed::consts(table);
    quote! {
        #[doc = #doc]
        #allow
        pub mod #name {
            use #runtime::{rules, time, ResetCounts, Value, Verdict};

            #input
            #verdicts
            #monitor
            #consts
            #timed_consts
            #step_monitor
            #schema
        }
    }
}

/// The Rust type of an input of type `ty`.
pub(super) fn rust_type(ty: Ty, enums: &[EnumDef]) -> TokenStream {
    match ty {
        Ty::Bool => quote!(bool),
        Ty::Int => quote!(i64),
        Ty::Float => quote!(f64),
        Ty::Enum(e) => match enums.get(e) {
            Some(def) => {
                let name = ident(&def.name);
                quote!(super::#name)
            }
            // Checked code never holds an unknown enum; its values are indices.
            None => quote!(u32),
        },
    }
}

/// The spec's name of a type, for documentation.
pub(super) fn type_name(ty: Ty, enums: &[EnumDef]) -> String {
    match ty {
        Ty::Enum(e) => enums
            .get(e)
            .map_or_else(|| ty.to_string(), |d| d.name.clone()),
        _ => ty.to_string(),
    }
}

fn input_struct(table: &Table, runtime: &TokenStream) -> TokenStream {
    let serde = serde_derives(runtime);
    let fields = table.inputs.iter().map(|Decl { name, ty, .. }| {
        let doc = format!(" input `{name}: {}`", type_name(*ty, &table.enums));
        let (name, ty) = (ident(name), rust_type(*ty, &table.enums));
        quote!(#[doc = #doc] pub #name: #ty)
    });
    quote! {
        /// One step's inputs, one field per `input`, in declaration order.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        #serde
        pub struct Input {
            #(#fields,)*
        }
    }
}

/// The docs of `Verdicts`.
const PROPERTY_VERDICTS: VerdictsDocs = VerdictsDocs {
    item: "One verdict per property, in declaration order.",
    field: "property",
    names: "Property names in declaration order.",
    unknown: "Every verdict `Unknown` (what `finish` reports before any step).",
};

/// `Verdicts`: one field per property (named `properties`, in declaration
/// order), with `NAMES`, `UNKNOWN` and `to_array`; monitors and populations
/// share it.
pub(super) fn verdicts_struct(properties: &[&str], runtime: &TokenStream) -> TokenStream {
    named_verdicts("Verdicts", properties, &PROPERTY_VERDICTS, runtime)
}

/// The docs that tell apart the structs of one verdict per named formula
/// (a monitor's `Verdicts`, a lifeline's `Guards`).
pub(crate) struct VerdictsDocs {
    /// The struct's doc.
    pub(crate) item: &'static str,
    /// What each field is the verdict of (`property`, `guard`).
    pub(crate) field: &'static str,
    /// The doc of `NAMES`.
    pub(crate) names: &'static str,
    /// The doc of `UNKNOWN`.
    pub(crate) unknown: &'static str,
}

/// The struct `name`: one `Verdict` field per name in `names` (in order),
/// with `NAMES`, `UNKNOWN` and `to_array`, documented by `docs`.
pub(crate) fn named_verdicts(
    name: &str,
    names: &[&str],
    docs: &VerdictsDocs,
    runtime: &TokenStream,
) -> TokenStream {
    let serde = serde_derives(runtime);
    let name = ident(name);
    let fields: Vec<Ident> = names.iter().map(|n| ident(n)).collect();
    let field_docs = names.iter().map(|n| format!(" {} `{n}`", docs.field));
    let [item_doc, names_doc, unknown_doc] =
        [docs.item, docs.names, docs.unknown].map(|doc| format!(" {doc}"));
    let count = Literal::usize_unsuffixed(names.len());
    quote! {
        #[doc = #item_doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #serde
        pub struct #name {
            #(#[doc = #field_docs] pub #fields: Verdict,)*
        }

        impl #name {
            #[doc = #names_doc]
            pub const NAMES: [&str; #count] = [#(#names),*];

            #[doc = #unknown_doc]
            pub const UNKNOWN: Self = Self { #(#fields: Verdict::Unknown),* };

            /// The verdicts in declaration order.
            pub const fn to_array(self) -> [Verdict; #count] {
                [#(self.#fields),*]
            }
        }
    }
}

fn monitor_struct(table: &Table, caller: Caller) -> TokenStream {
    let inline = match caller {
        Caller::User => quote!(#[inline]),
        Caller::Population => quote!(#[inline(always)]),
    };
    let (state_fields, state_inits) = state::declarations(table, "Steps");
    let body = step::body(table);
    let (automata_fields, automata_inits) = automata::fields(table);
    let (timed_fields, timed_inits) = timed::fields(table);
    let finish = if table.automata.is_empty() && table.timed.is_empty() {
        quote!(self.last)
    } else {
        let fixes = automata::finish(table);
        let timed = timed::finish(table);
        quote!(let mut verdicts = self.last; #fixes #timed verdicts)
    };
    let (residuals_item, residuals_method) = automata::residuals(table);
    let restart = restart_body(table);
    let counts = automata::counts(table);
    let count = Literal::usize_unsuffixed(counts.len());
    quote! {
        #residuals_item

        /// The monitor: the state that survives from one step to the next, plus the
        /// last verdicts (for `finish`).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Monitor {
            #state_fields
            #automata_fields
            #timed_fields
            /// The verdicts of the last step; `UNKNOWN` before the first.
            last: Verdicts,
        }

        impl Monitor {
            /// The initial state (before the first step).
            pub const fn new() -> Self {
                Self {
                    #state_inits
                    #automata_inits
                    #timed_inits
                    last: Verdicts::UNKNOWN,
                }
            }

            /// Consumes one step; returns the verdicts at that step.
            #inline
            pub fn step(&mut self, input: &Input) -> Verdicts {
                #body
            }

            /// What `step(input)` would return, without changing the state.
            pub fn peek(&self, input: &Input) -> Verdicts {
                self.clone().step(input)
            }

            /// Finite-trace verdicts (the trace ended after the last step): a
            /// past-time property's value at the last step, a future-time property's
            /// end-of-trace verdict; every one `Unknown` before the first step.
            pub fn finish(&self) -> Verdicts {
                #finish
            }

            /// Per property in declaration order, the decided verdicts a `with reset`
            /// property counted, including its unfinished run's end verdict (zero for
            /// other properties).
            pub fn counts(&self) -> [ResetCounts; #count] {
                [#(#counts),*]
            }

            #residuals_method

            /// Restarts the run of future-time property number `output` (in
            /// declaration order): its automaton goes back to the initial state, so
            /// the formula is next evaluated from the coming step; past-time state
            /// is kept. Other outputs (and out-of-range numbers) are not affected.
            pub fn restart_output(&mut self, output: usize) {
                #restart
            }

            /// Back to the initial state.
            pub fn reset(&mut self) {
                *self = Self::new();
            }
        }

        impl Default for Monitor {
            fn default() -> Self {
                Self::new()
            }
        }
    }
}

/// `StepMonitor`: untyped values in, verdicts out, with the interpreter's
/// reading of missing or mistyped values as the type's default.
fn step_monitor_impl(table: &Table, runtime: &TokenStream) -> TokenStream {
    let fields = table
        .inputs
        .iter()
        .enumerate()
        .map(|(i, Decl { name, ty, .. })| {
            let name = ident(name);
            let value = read_value(i, *ty, &table.enums);
            quote!(#name: #value)
        });
    quote! {
        impl #runtime::StepMonitor for Monitor {
            fn step_values(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) {
                let input = Input { #(#fields,)* };
                let now = self.step(&input);
                for (out, verdict) in verdicts.iter_mut().zip(now.to_array()) {
                    *out = verdict;
                }
            }

            fn finish_values(&self, verdicts: &mut [Verdict]) {
                for (out, verdict) in verdicts.iter_mut().zip(self.finish().to_array()) {
                    *out = verdict;
                }
            }

            fn finish_counts(&self, counts: &mut [ResetCounts]) {
                for (out, c) in counts.iter_mut().zip(self.counts()) {
                    *out = c;
                }
            }

            fn reset(&mut self) {
                Monitor::reset(self);
            }
        }
    }
}

/// One `InputDecl` per declaration, as schemas list inputs, attributes,
/// globals and store variables.
pub(super) fn input_decls(
    decls: &[Decl],
    enums: &[EnumDef],
    runtime: &TokenStream,
) -> Vec<TokenStream> {
    decls
        .iter()
        .map(|Decl { name, ty, .. }| {
            let ty = match ty {
                Ty::Bool => quote!(#runtime::InputType::Bool),
                Ty::Int => quote!(#runtime::InputType::Int),
                Ty::Float => quote!(#runtime::InputType::Float),
                Ty::Enum(_) => {
                    let enum_name = type_name(*ty, enums);
                    let path = rust_type(*ty, enums);
                    quote!(#runtime::InputType::Enum { name: #enum_name, variants: &#path::NAMES })
                }
            };
            quote!(#runtime::InputDecl { name: #name, ty: #ty })
        })
        .collect()
}

/// Input `i` of type `ty` from `inputs: &[Value]`, or the type's default.
pub(super) fn read_value(i: usize, ty: Ty, enums: &[EnumDef]) -> TokenStream {
    let default = literal::value(default_value(ty), ty, enums);
    let i = Literal::usize_unsuffixed(i);
    match ty {
        Ty::Bool => quote!(matches!(inputs.get(#i), Some(Value::Bool(true)))),
        Ty::Int => quote!(match inputs.get(#i) { Some(&Value::Int(v)) => v, _ => #default }),
        Ty::Float => quote!(match inputs.get(#i) { Some(&Value::Float(v)) => v, _ => #default }),
        Ty::Enum(_) => {
            let from = rust_type(ty, enums);
            quote! {
                match inputs.get(#i) {
                    Some(&Value::Enum(v)) => #from::from_index(v).unwrap_or(#default),
                    _ => #default,
                }
            }
        }
    }
}

fn schema(table: &Table, runtime: &TokenStream) -> TokenStream {
    let monitor = &table.name;
    let inputs = input_decls(&table.inputs, &table.enums, runtime);
    let reading = reading(table, runtime);
    let properties = table.outputs.iter().map(|o| {
        let (name, reset, past) = (&o.name, o.reset, o.is_past());
        quote!(#runtime::PropertyDecl { name: #name, reset: #reset, past: #past })
    });
    quote! {
        /// The trace schema: the inputs with their types and enum variants, and the
        /// properties.
        pub const SCHEMA: #runtime::Schema = #runtime::Schema {
            monitor: #monitor,
            inputs: &[#(#inputs),*],
            properties: &[#(#properties),*],
            reading: #reading,
        };
    }
}

/// The `Reading` of `table` as a constant expression: where the trace
/// readers find each input and which lines are steps.
fn reading(table: &Table, runtime: &TokenStream) -> TokenStream {
    let reading = &table.reading;
    if reading.is_plain() {
        return quote!(#runtime::record::Reading::PLAIN);
    }
    let record = quote!(#runtime::record);
    let fields = reading.fields.iter().map(|field| {
        let source = match &field.source {
            FieldSource::Key => quote!(#record::Source::Key),
            FieldSource::Pointer(p) => quote!(#record::Source::Pointer(#p)),
            FieldSource::Present(p) => quote!(#record::Source::Present(#p)),
        };
        let absent = match field.absent {
            Absent::Error => quote!(#record::Absent::Error),
            Absent::Default(v) => {
                let v = literal::runtime_value(v, runtime);
                quote!(#record::Absent::Default(#v))
            }
            Absent::Hold(None) => quote!(#record::Absent::Hold(None)),
            Absent::Hold(Some(v)) => {
                let v = literal::runtime_value(v, runtime);
                quote!(#record::Absent::Hold(Some(#v)))
            }
        };
        quote!(#record::Field { source: #source, absent: #absent })
    });
    let filter = |ops: &[FilterOp<String>]| -> Vec<TokenStream> {
        ops.iter().map(|op| filter_op(op, &record)).collect()
    };
    let steps = filter(&reading.steps);
    let session_end = filter(&reading.session_end);
    let time = match reading.time {
        Some(t) => {
            let t = Literal::usize_unsuffixed(t);
            quote!(Some(#t))
        }
        None => quote!(None),
    };
    quote! {
        #record::Reading {
            fields: &[#(#fields),*],
            steps: &[#(#steps),*],
            session_end: &[#(#session_end),*],
            time: #time,
        }
    }
}

/// One filter item as the runtime's `FilterOp` (`record` is the path of
/// the runtime's `record` module).
fn filter_op(op: &FilterOp<String>, record: &TokenStream) -> TokenStream {
    match op {
        FilterOp::Equals(p, value) => {
            let value = match value {
                FilterLiteral::Bool(b) => quote!(#record::Literal::Bool(#b)),
                FilterLiteral::Int(i) => {
                    let i = literal::int_arg(*i);
                    quote!(#record::Literal::Int(#i))
                }
                FilterLiteral::Float(x) => {
                    let x = literal::float_arg(*x);
                    quote!(#record::Literal::Float(#x))
                }
                FilterLiteral::Str(s) => quote!(#record::Literal::Str(#s)),
            };
            quote!(#record::FilterOp::Equals(#p, #value))
        }
        FilterOp::Present(p) => quote!(#record::FilterOp::Present(#p)),
        FilterOp::Not => quote!(#record::FilterOp::Not),
        FilterOp::And => quote!(#record::FilterOp::And),
        FilterOp::Or => quote!(#record::FilterOp::Or),
    }
}

/// The body of `Monitor::restart_output(output)`: one test per future-time
/// output, putting its automata back to state 0 (and a `with reset` output's
/// run back to fresh, its counts kept; the field names are
/// [`automata`]'s).
fn restart_body(table: &Table) -> TokenStream {
    let arms = table
        .outputs
        .iter()
        .enumerate()
        .filter_map(|(i, out)| match out.source {
            Source::Future(f) => {
                let future = f.get(&table.futures)?;
                let states = future.automata.iter().map(|&k| automata::state_field(k));
                let i = Literal::usize_unsuffixed(i);
                let fresh = out.reset.then(|| {
                    let fresh = Ident::new(&format!("fresh{f}"), Span::call_site());
                    quote!(self.#fresh = true;)
                });
                Some(quote!(if output == #i { #(self.#states = 0;)* #fresh }))
            }
            Source::Timed(t) => Some(timed::restart(i, t, out.reset)),
            Source::Slot(_) => None,
        });
    quote!(#(#arms)*)
}
