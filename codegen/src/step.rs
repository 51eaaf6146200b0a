//! The body of the generated `Monitor::step`: straight-line code mirroring the
//! interpreter's two phases (see [`hindsight_compiler::ir::table`]).
//!
//! 1. Compute: `let sK = …;` for every slot `K` in table order, reading the
//!    input, earlier locals and the state fields as the previous step left them.
//!    Constant slots get no local; their literal is written where they are used.
//! 2. Update: every state field from this step's locals, in cell order; then the
//!    shared ring step counter, then one transition per automaton (see
//!    [`super::automata`]), then the verdicts.
//!
//! Delay rings are read and written at bit `steps % n`; the word index of a
//! multi-word ring is below its length by construction and still goes through
//! `get`/`get_mut`, so no index can panic.

use super::automata;
use super::literal;
use super::names::ident;
use super::state::{cell_field, has_rings, single_word_ring};
use super::timed;
use hindsight_compiler::ir::table::{CellId, Op, SlotId, Source, Table, Temporal, Window};
use hindsight_compiler::ir::Decl;
use hindsight_compiler::types::{ArithOp, BoolOp, CmpOp, Ty, Value};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, ToTokens};

/// The statements of `step`, ending in the `Verdicts` it returns.
pub(super) fn body(table: &Table) -> TokenStream {
    let statements = statements(table, &|i| {
        table
            .inputs
            .get(i)
            .map_or_else(TokenStream::new, |Decl { name, .. }| {
                let name = ident(name);
                quote!(input.#name)
            })
    });
    let verdicts = table.outputs.iter().map(|out| {
        let name = ident(&out.name);
        match out.source {
            Source::Slot(slot) => {
                let value = operand(table, slot);
                quote!(#name: Verdict::from(#value))
            }
            Source::Future(f) => match f.get(&table.futures) {
                Some(future) => {
                    let v = automata::verdict_local(future, f);
                    quote!(#name: #v)
                }
                None => quote!(#name: Verdict::Unknown),
            },
            Source::Timed(t) => {
                let v = timed::verdict_local(t);
                quote!(#name: #v)
            }
        }
    });
    quote! {
        #statements
        let verdicts = Verdicts { #(#verdicts),* };
        self.last = verdicts;
        verdicts
    }
}

/// How the step reads table input `i` (below the table's input count).
pub(super) type ReadInput<'a> = &'a dyn Fn(usize) -> TokenStream;

/// The compute and update phases of one step (including the automata's
/// transitions), reading inputs through `read`; afterwards every slot's value
/// is [`operand`].
pub(super) fn statements(table: &Table, read: ReadInput<'_>) -> TokenStream {
    let code = Code { table, read };
    // The step's time: its time input, but never below the last step's.
    let clock = table.has_clock().then(|| {
        let time = table.reading.time.map_or_else(|| quote!(0), read);
        quote! {
            let now = if #time > self.clock { #time } else { self.clock };
            self.clock = now;
        }
    });
    let compute = table
        .enumerate_slots()
        .map(|(k, slot)| code.compute(k, slot.op, slot.ty));
    let update =
        table.enumerate_cells().map(
            |(c, cell)| match cell.owner.get(&table.slots).map(|s| s.op) {
                Some(Op::Temporal(t, _)) => code.update(t, c, cell.owner),
                _ => quote!(),
            },
        );
    let advance = has_rings(table).then(|| quote!(self.steps = self.steps.saturating_add(1);));
    let automata = automata::advance(table, &|slot| operand(table, slot));
    let deadlines = timed::advance(table, &|slot| operand(table, slot));
    quote! {
        #clock
        #(#compute)*
        #(#update)*
        #advance
        #automata
        #deadlines
    }
}

/// A slot's value where it is used: its local, or its literal for a constant.
pub(super) fn operand(table: &Table, k: SlotId) -> TokenStream {
    match k.get(&table.slots).map(|s| (s.op, s.ty)) {
        Some((Op::Const(v), ty)) => literal::value(v, ty, &table.enums),
        Some(_) => {
            let s = local("s", k);
            quote!(#s)
        }
        // Operands always name earlier slots; `false` keeps this total.
        None => quote!(false),
    }
}

/// The value of an operation that reads only its operands (each rendered by
/// `operand`); `None` for `Const`, `Input` and temporal operators, which each
/// back end reads its own way.
pub(super) fn pure(op: Op, ty: Ty, operand: &dyn Fn(SlotId) -> TokenStream) -> Option<TokenStream> {
    Some(match op {
        Op::Not(a) => {
            let a = operand(a);
            quote!(!#a)
        }
        Op::Bool(op, a, b) => bool_op(op, &operand(a), &operand(b)),
        Op::Cmp(op, a, b) => {
            let (a, b) = (operand(a), operand(b));
            match op {
                CmpOp::Eq => quote!(#a == #b),
                CmpOp::Ne => quote!(#a != #b),
                CmpOp::Lt => quote!(#a < #b),
                CmpOp::Le => quote!(#a <= #b),
                CmpOp::Gt => quote!(#a > #b),
                CmpOp::Ge => quote!(#a >= #b),
            }
        }
        Op::Arith(op, a, b) => {
            let (a, b) = (operand(a), operand(b));
            match (ty, op) {
                (Ty::Int, ArithOp::Add) => quote!(#a.wrapping_add(#b)),
                (Ty::Int, ArithOp::Sub) => quote!(#a.wrapping_sub(#b)),
                (Ty::Int, ArithOp::Mul) => quote!(#a.wrapping_mul(#b)),
                (_, ArithOp::Add) => quote!(#a + #b),
                (_, ArithOp::Sub) => quote!(#a - #b),
                (_, ArithOp::Mul) => quote!(#a * #b),
            }
        }
        Op::Neg(a) => {
            let a = operand(a);
            match ty {
                Ty::Int => quote!(#a.wrapping_neg()),
                _ => quote!(-#a),
            }
        }
        Op::BoolToInt(a) => {
            let a = operand(a);
            quote!(i64::from(#a))
        }
        Op::Const(_) | Op::Input(_) | Op::Temporal(..) => return None,
    })
}

/// A Boolean connective, branch-free: valid on `bool`s and on bit-lane words.
pub(super) fn bool_op(op: BoolOp, a: &impl ToTokens, b: &impl ToTokens) -> TokenStream {
    match op {
        BoolOp::And => quote!(#a & #b),
        BoolOp::Or => quote!(#a | #b),
        BoolOp::Implies => quote!(!#a | #b),
        BoolOp::Iff => quote!(!(#a ^ #b)),
    }
}

/// The type's default, as the interpreter reads a missing or mistyped input.
pub(super) fn default_value(ty: Ty) -> Value {
    match ty {
        Ty::Bool => Value::Bool(false),
        Ty::Int => Value::Int(0),
        Ty::Float => Value::Float(0.0),
        Ty::Enum(_) => Value::Enum(0),
    }
}

struct Code<'t> {
    table: &'t Table,
    read: ReadInput<'t>,
}

/// The local or field name `{prefix}{k}` (`s3`, `c1`, `pos0`).
pub(crate) fn local(prefix: &str, k: impl std::fmt::Display) -> Ident {
    Ident::new(&format!("{prefix}{k}"), Span::call_site())
}

impl Code<'_> {
    fn operand(&self, k: SlotId) -> TokenStream {
        operand(self.table, k)
    }

    fn compute(&self, k: SlotId, op: Op, ty: Ty) -> TokenStream {
        let s = local("s", k);
        let value = match op {
            Op::Const(_) => return quote!(),
            Op::Input(i) if i < self.table.inputs.len() => (self.read)(i),
            Op::Input(_) => literal::value(default_value(ty), ty, &self.table.enums),
            Op::Temporal(t, c) => return self.temporal_now(&s, t, c),
            _ => match pure(op, ty, &|k| self.operand(k)) {
                Some(value) => value,
                None => return quote!(),
            },
        };
        quote!(let #s = #value;)
    }

    /// `let sK = …;` for a temporal slot, reading its cell's previous content.
    fn temporal_now(&self, s: &Ident, t: Temporal, c: CellId) -> TokenStream {
        let cell = cell_field(c);
        let value = match (t, t.rule()) {
            (Temporal::Delay { steps, .. }, _) => return ring_read(s, &cell, c, steps),
            (Temporal::TimedOnce { .. } | Temporal::TimedSince { .. }, _) => {
                self.timed_now(t, &cell)
            }
            (_, Some(rule)) => self.rule(rule, t, &cell),
            // `Y Z`: the cell holds the value.
            (_, None) => quote!(self.#cell),
        };
        quote!(let #s = #value;)
    }

    /// The new content of cell `c`, owned by slot `owner`.
    fn update(&self, t: Temporal, c: CellId, owner: SlotId) -> TokenStream {
        let cell = cell_field(c);
        let value = match (t, t.rule()) {
            (Temporal::Prev { arg, .. }, _) => self.operand(arg),
            (Temporal::Delay { arg, steps, .. }, _) => {
                return ring_write(&self.operand(arg), &cell, c, steps);
            }
            (Temporal::TimedOnce { .. } | Temporal::TimedSince { .. }, _) => {
                return self.timed_next(t, &cell);
            }
            // A counter's next content has its own rule; a Boolean cell keeps
            // the value now.
            (_, Some(rule)) if t.bound().is_some() => self.rule(&format!("{rule}_next"), t, &cell),
            _ => self.operand(owner),
        };
        quote!(self.#cell = #value;)
    }

    /// The chain (`true` for `O`, the left operand of `S`), the witness and
    /// the window of a duration-bounded operator.
    fn timed_operands(&self, t: Temporal) -> (TokenStream, TokenStream, Window) {
        match t.timed() {
            Some((lhs, witness, window)) => (
                lhs.map_or_else(|| quote!(true), |l| self.operand(l)),
                self.operand(witness),
                window,
            ),
            None => (quote!(true), quote!(false), Window { lo: 0, hi: None }),
        }
    }

    /// The value now of a duration-bounded operator (`time::since_*`,
    /// `time::witnessed`; `O` is `S` with a chain of `true`).
    fn timed_now(&self, t: Temporal, cell: &Ident) -> TokenStream {
        let (chain, witness, window) = self.timed_operands(t);
        let lo = Literal::u64_unsuffixed(window.lo);
        match window.hi {
            Some(hi) if window.lo > 0 => {
                let hi = Literal::u64_unsuffixed(hi);
                quote!(#chain && time::witnessed(&self.#cell, now, #lo, #hi))
            }
            Some(hi) => {
                let hi = Literal::u64_unsuffixed(hi);
                quote!(time::since_recent(#chain, #witness, self.#cell, now, #hi))
            }
            None => quote!(time::since_aged(#chain, self.#cell, now, #lo)),
        }
    }

    /// The update of a duration-bounded operator's cell.
    fn timed_next(&self, t: Temporal, cell: &Ident) -> TokenStream {
        let (chain, witness, window) = self.timed_operands(t);
        let lo = Literal::u64_unsuffixed(window.lo);
        match window.hi {
            Some(hi) if window.lo > 0 => {
                let hi = Literal::u64_unsuffixed(hi);
                quote!(time::witness_next(&mut self.#cell, #chain, #witness, now, #lo, #hi);)
            }
            Some(_) => {
                quote!(self.#cell = time::since_recent_next(#chain, #witness, self.#cell, now);)
            }
            None => quote!(self.#cell = time::since_aged_next(#chain, #witness, self.#cell, now);),
        }
    }

    /// A call of runtime rule `rule` on `t`'s operands, its cell and its bound.
    fn rule(&self, rule: &str, t: Temporal, cell: &Ident) -> TokenStream {
        let (a, b) = t.operands();
        let operands = [Some(a), b].into_iter().flatten().map(|k| self.operand(k));
        rule_call(rule, t, operands, quote!(self.#cell))
    }
}

/// `rules::RULE(operands…, cell[, bound])`: a rule of `hindsight_runtime::rules`
/// (see [`Temporal::rule`]) applied for temporal operator `t`; the generated
/// module imports `rules` from the runtime.
pub(super) fn rule_call(
    rule: &str,
    t: Temporal,
    operands: impl Iterator<Item = impl ToTokens>,
    cell: impl ToTokens,
) -> TokenStream {
    let name = format_ident!("{rule}");
    let bound = t.bound().map(Literal::u64_unsuffixed).into_iter();
    quote!(rules::#name(#(#operands,)* #cell #(, #bound)*))
}

/// Reads this step's bit of ring `c` into `s` (defining the `bitC`/`wordC` locals
/// the write reuses).
fn ring_read(s: &Ident, cell: &Ident, c: CellId, steps: u64) -> TokenStream {
    let n = Literal::u64_unsuffixed(steps);
    let bit = local("bit", c);
    if single_word_ring(steps) {
        quote! {
            let #bit = 1u64 << (self.steps % #n);
            let #s = (self.#cell & #bit) != 0;
        }
    } else {
        let (pos, word) = (local("pos", c), local("word", c));
        quote! {
            let #pos = self.steps % #n;
            let #bit = 1u64 << (#pos % 64);
            let #word = (#pos / 64) as usize;
            let #s = self.#cell.get(#word).is_some_and(|w| (w & #bit) != 0);
        }
    }
}

/// Overwrites this step's bit of ring `c` with `arg`.
fn ring_write(arg: &TokenStream, cell: &Ident, c: CellId, steps: u64) -> TokenStream {
    let bit = local("bit", c);
    if single_word_ring(steps) {
        quote! {
            if #arg { self.#cell |= #bit; } else { self.#cell &= !#bit; }
        }
    } else {
        let word = local("word", c);
        quote! {
            if let Some(w) = self.#cell.get_mut(#word) {
                if #arg { *w |= #bit; } else { *w &= !#bit; }
            }
        }
    }
}
