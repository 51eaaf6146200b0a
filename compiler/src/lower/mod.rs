//! Lowering of a checked monitor's past-time properties into a [`Table`].
//!
//! Every HIR node becomes at most one slot; structurally equal sub-expressions share
//! a slot (hash-consing on the op and its operand slot ids, floats by bit pattern).
//! Bounded operators are rewritten into the table's primitive temporal ops:
//!
//! | formula | table |
//! |---|---|
//! | `O φ`, `O[0,inf] φ` | `Once(φ)` |
//! | `O[0,b] φ` | `OnceWithin(φ, b)` (`φ` itself when `b = 0`) |
//! | `O[a,b] φ`, `a > 0` | `O[0,b-a] (Y^a φ)` |
//! | `H[a,b] φ` | as `O`, with `Hist`/`HistWithin` and `Z^a` (true before the start) |
//! | `φ S[0,b] ψ` | `SinceWithin(φ, ψ, b)` (`ψ` when `b = 0`), `Since` when `b = inf` |
//! | `φ S[a,b] ψ`, `a > 0` | `H[0,a-1] φ ∧ Y^a (φ S[0,b-a] ψ)` |
//!
//! `Y^a` is `Prev` for `a = 1` and a `Delay` ring of `a` bits for `a >= 2`. The delay
//! always sits on a Boolean, never on a counter: for `O`/`H` on the operand (so windows
//! with the same lower end over the same operand share one ring), for `S` on the
//! result (one ring instead of one per operand).
//!
//! Why `O[a,b] φ = O[0,b-a] (Y^a φ)`: at step `i` the right side asks for a step
//! `j ∈ [max(0, i-(b-a)), i]` with `j >= a` and `φ(j-a)`, i.e. a `k = j-a` in
//! `[max(0, i-b), i-a]` with `φ(k)` — exactly the clipped window of `O[a,b]`.
//! Why `φ S[a,b] ψ = H[0,a-1] φ ∧ Y^a (φ S[0,b-a] ψ)`: for `i >= a` the delayed part
//! gives a `j ∈ [max(0,i-b), i-a]` with `ψ(j)` and `φ` on `(j, i-a]`, and the `H` part
//! supplies `φ` on `[i-a+1, i]`; for `i < a` both sides are false.
//!
//! Future-time properties are lowered by [`future`]: their maximal sub-formulas
//! without future operators become slots as above, read by an LTL3 automaton.

use crate::diag::{Code, Diag};
use crate::hir::{self, ArithOp, BoolOp, BoundUnit, CmpOp, Expr, ExprKind, Ty, Value};
use crate::ir::table::{
    AutomatonId, CellId, Future, FutureId, NamedSlot, Op, Output, Part, Slot, SlotId, Source,
    StateCell, Table, Temporal, TimedId, Window,
};
use crate::ir::Decl;
use crate::ltl3::Budget;
use crate::surface::Printer;
use hindsight_grammar::ast::{BinaryTemporal, UnaryTemporal};
use std::collections::HashMap;

mod future;
pub mod population;
pub mod protocol;
pub mod system;
mod timed;

/// Lowers every property of `monitor` into one table; `spec` supplies the enums.
///
/// Past-time properties become slots; future-time ones become LTL3 automata over
/// slots, built spending `budget` (shared by every automaton of the spec, so
/// that compiling any spec is bounded). Fails when an automaton would be too
/// large or too costly to build (E0407, E0408) or a bound does not fit (E0404),
/// reporting every property that fails.
pub fn lower(
    spec: &hir::Spec,
    monitor: &hir::Monitor,
    budget: &mut Budget,
) -> Result<Table, Vec<Diag>> {
    lower_table(spec, monitor, budget, false)
}

/// [`lower`], with the monitor's past-time `let`s as slots too
/// ([`Table::lets`]): the features a learned model may split on. (Plain
/// [`lower`] leaves out `let`s no property uses, which would cost a slot
/// per step for nothing.)
pub fn lower_with_lets(
    spec: &hir::Spec,
    monitor: &hir::Monitor,
    budget: &mut Budget,
) -> Result<Table, Vec<Diag>> {
    lower_table(spec, monitor, budget, true)
}

fn lower_table(
    spec: &hir::Spec,
    monitor: &hir::Monitor,
    budget: &mut Budget,
    with_lets: bool,
) -> Result<Table, Vec<Diag>> {
    let printer = Printer::new(monitor, &spec.enums);
    let mut b = Builder::new(monitor);
    let mut diags = Vec::new();
    let mut outputs = Vec::new();
    let mut automata = Vec::new();
    let mut futures = Vec::new();
    let mut timed = Vec::new();
    for prop in &monitor.properties {
        let deadline = if timed::is_timed(&prop.formula) {
            Some(timed::lower(&mut b, &printer, &prop.formula))
        } else if prop.formula.is_future() {
            timed::lower_counted(&mut b, &printer, &prop.formula)
        } else {
            None
        };
        let lowered = if let Some(deadline) = deadline {
            deadline.map(|(t, parts)| {
                timed.push(t);
                (Source::Timed(TimedId::new(timed.len() - 1)), parts)
            })
        } else if prop.formula.is_future() {
            future::lower(&mut b, &printer, &prop.formula, budget).map(|f| {
                let first = automata.len();
                automata.extend(f.automata);
                let combination = f.combination.map_parts(&|i| first + i);
                let used = combination.parts().into_iter().map(AutomatonId::new);
                futures.push(Future {
                    combination,
                    automata: used.collect(),
                });
                (Source::Future(FutureId::new(futures.len() - 1)), f.parts)
            })
        } else {
            past_output(&mut b, &printer, &prop.formula)
        };
        match lowered {
            Ok((source, parts)) => outputs.push(Output {
                name: prop.name.clone(),
                span: prop.span,
                source,
                // A past-time verdict is recomputed at every step: nothing to restart.
                reset: prop.reset && !matches!(source, Source::Slot(_)),
                parts,
            }),
            Err(d) => diags.push(d),
        }
    }
    let mut named = |definitions: &[hir::Definition]| -> Vec<NamedSlot> {
        definitions
            .iter()
            .filter_map(|d| match b.expr(&d.expr) {
                Ok(slot) => Some(NamedSlot {
                    name: d.name.clone(),
                    span: d.span,
                    slot,
                    ty: d.expr.ty,
                }),
                Err(e) => {
                    diags.push(e);
                    None
                }
            })
            .collect()
    };
    let goals = named(&monitor.goals);
    let lets = if with_lets {
        named(&monitor.lets)
    } else {
        Vec::new()
    };
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(Table {
        name: monitor.name.clone(),
        span: monitor.span,
        inputs: monitor.inputs.iter().map(decl).collect(),
        slots: b.slots,
        state: b.state,
        outputs,
        enums: spec.enums.clone(),
        automata,
        futures,
        reading: monitor.reading.clone(),
        timed,
        goals,
        lets,
    })
}

/// A declared input as the IR records it.
pub(crate) fn decl(input: &hir::Input) -> Decl {
    Decl {
        name: input.name.clone(),
        ty: input.ty,
        span: input.span,
    }
}

/// A past-time property's slot and the parts that explain its value.
fn past_output(
    b: &mut Builder<'_>,
    printer: &Printer<'_>,
    formula: &Expr,
) -> Result<(Source, Vec<Part>), Diag> {
    let slot = b.expr(formula)?;
    let mut parts = Vec::new();
    for e in explaining_parts(formula, printer) {
        let part = Part {
            text: printer.text(e),
            slot: b.expr(e)?,
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    Ok((Source::Slot(slot), parts))
}

/// The sub-formulas whose values explain `e`: the operands under its top-level
/// Boolean connectives (a `let` named there is one operand), or, when `e` is
/// not a connective, its own operands.
fn explaining_parts<'e>(e: &'e Expr, printer: &Printer<'_>) -> Vec<&'e Expr> {
    fn leaves<'e>(e: &'e Expr, printer: &Printer<'_>, root: bool, out: &mut Vec<&'e Expr>) {
        if !root && printer.is_named(e) {
            out.push(e);
            return;
        }
        match &e.kind {
            ExprKind::Not(a) => leaves(a, printer, false, out),
            ExprKind::Bool(_, a, b) => {
                leaves(a, printer, false, out);
                leaves(b, printer, false, out);
            }
            _ => out.push(e),
        }
    }
    let mut out = Vec::new();
    leaves(e, printer, true, &mut out);
    if out.len() == 1 && std::ptr::eq(out[0], e) {
        return match &e.kind {
            ExprKind::Unary(_, _, a) => vec![a.as_ref()],
            ExprKind::Binary(_, _, a, b) | ExprKind::Cmp(_, a, b) => vec![a.as_ref(), b.as_ref()],
            _ => out,
        };
    }
    out
}

/// The hash-consing key of an op: the op itself with floats by bit pattern and
/// temporal ops without their (freshly allocated) cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Bool(bool),
    Int(i64),
    Float(u64),
    Enum(u32),
    Input(usize),
    Not(SlotId),
    Neg(SlotId),
    BoolToInt(SlotId),
    BoolOp(BoolOp, SlotId, SlotId),
    Cmp(CmpOp, SlotId, SlotId),
    Arith(ArithOp, SlotId, SlotId),
    Temporal(Temporal),
}

/// An op before it is given a slot (and, if temporal, a cell).
enum Node {
    Plain(Op),
    Temporal(Temporal),
}

impl Node {
    fn key(&self) -> Key {
        match self {
            Node::Temporal(t) => Key::Temporal(*t),
            Node::Plain(op) => match *op {
                Op::Const(Value::Bool(v)) => Key::Bool(v),
                Op::Const(Value::Int(v)) => Key::Int(v),
                Op::Const(Value::Float(v)) => Key::Float(v.to_bits()),
                Op::Const(Value::Enum(v)) => Key::Enum(v),
                Op::Input(i) => Key::Input(i),
                Op::Not(a) => Key::Not(a),
                Op::Neg(a) => Key::Neg(a),
                Op::BoolToInt(a) => Key::BoolToInt(a),
                Op::Bool(o, a, b) => Key::BoolOp(o, a, b),
                Op::Cmp(o, a, b) => Key::Cmp(o, a, b),
                Op::Arith(o, a, b) => Key::Arith(o, a, b),
                Op::Temporal(t, _) => Key::Temporal(t),
            },
        }
    }
}

#[derive(Clone)]
struct Builder<'m> {
    monitor: &'m hir::Monitor,
    slots: Vec<Slot>,
    state: Vec<StateCell>,
    memo: HashMap<(Key, Ty), SlotId>,
}

impl<'m> Builder<'m> {
    fn new(monitor: &'m hir::Monitor) -> Self {
        Builder {
            monitor,
            slots: Vec::new(),
            state: Vec::new(),
            memo: HashMap::new(),
        }
    }

    /// The slot computing `node`, reusing an equal one if it exists.
    fn intern(&mut self, node: Node, ty: Ty) -> SlotId {
        let key = (node.key(), ty);
        if let Some(&slot) = self.memo.get(&key) {
            return slot;
        }
        let id = SlotId::new(self.slots.len());
        let op = match node {
            Node::Plain(op) => op,
            Node::Temporal(t) => {
                let cell = CellId::new(self.state.len());
                self.state.push(StateCell {
                    kind: t.cell_kind(),
                    owner: id,
                });
                Op::Temporal(t, cell)
            }
        };
        self.slots.push(Slot { op, ty });
        self.memo.insert(key, id);
        id
    }

    fn plain(&mut self, op: Op, ty: Ty) -> SlotId {
        self.intern(Node::Plain(op), ty)
    }

    fn temporal(&mut self, t: Temporal) -> SlotId {
        self.intern(Node::Temporal(t), Ty::Bool)
    }

    fn expr(&mut self, e: &Expr) -> Result<SlotId, Diag> {
        Ok(match &e.kind {
            ExprKind::Const(v) => self.plain(Op::Const(*v), e.ty),
            ExprKind::Input(i) => {
                let ty = self.monitor.inputs.get(*i).map_or(e.ty, |input| input.ty);
                self.plain(Op::Input(*i), ty)
            }
            ExprKind::Not(a) => {
                let a = self.expr(a)?;
                self.plain(Op::Not(a), Ty::Bool)
            }
            ExprKind::Neg(a) => {
                let a = self.expr(a)?;
                self.plain(Op::Neg(a), e.ty)
            }
            ExprKind::Bool(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                self.plain(Op::Bool(*op, a, b), Ty::Bool)
            }
            ExprKind::Cmp(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                self.plain(Op::Cmp(*op, a, b), Ty::Bool)
            }
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                self.plain(Op::Arith(*op, a, b), e.ty)
            }
            ExprKind::Unary(
                op @ (UnaryTemporal::Once | UnaryTemporal::Historically),
                Some(b),
                a,
            ) if b.unit == BoundUnit::Time => {
                let a = self.expr(a)?;
                let window = timed::window(*b);
                if *op == UnaryTemporal::Once {
                    self.timed_once(a, window, e)?
                } else {
                    // `H[lo,hi] a = !O[lo,hi] !a`.
                    let not_a = self.plain(Op::Not(a), Ty::Bool);
                    let once = self.timed_once(not_a, window, e)?;
                    self.plain(Op::Not(once), Ty::Bool)
                }
            }
            ExprKind::Binary(BinaryTemporal::Since, Some(b), l, r) if b.unit == BoundUnit::Time => {
                let (l, r) = (self.expr(l)?, self.expr(r)?);
                let window = timed::window(*b);
                if window == timed::ALWAYS {
                    self.temporal(Temporal::Since(l, r))
                } else {
                    timed::past_window(window, e)?;
                    self.temporal(Temporal::TimedSince {
                        lhs: l,
                        rhs: r,
                        window,
                    })
                }
            }
            ExprKind::Unary(op, bound, a) => {
                let (lo, hi) = bounds(*bound);
                match op {
                    UnaryTemporal::Yesterday => {
                        let a = self.expr(a)?;
                        self.temporal(Temporal::Prev {
                            arg: a,
                            init: false,
                        })
                    }
                    UnaryTemporal::WeakYesterday => {
                        let a = self.expr(a)?;
                        self.temporal(Temporal::Prev { arg: a, init: true })
                    }
                    UnaryTemporal::Once => {
                        let a = self.expr(a)?;
                        let delayed = self.delay(a, lo, false);
                        self.once(delayed, hi.map(|h| h - lo))
                    }
                    UnaryTemporal::Historically => {
                        let a = self.expr(a)?;
                        let delayed = self.delay(a, lo, true);
                        self.hist(delayed, hi.map(|h| h - lo))
                    }
                    UnaryTemporal::Next | UnaryTemporal::Eventually | UnaryTemporal::Globally => {
                        return Err(future::past_over_future(e))
                    }
                }
            }
            ExprKind::Binary(BinaryTemporal::Since, bound, l, r) => {
                let (lo, hi) = bounds(*bound);
                let (l, r) = (self.expr(l)?, self.expr(r)?);
                let since = self.since(l, r, hi.map(|h| h - lo));
                if lo == 0 {
                    since
                } else {
                    let delayed = self.delay(since, lo, false);
                    let recent = self.hist(l, Some(lo - 1));
                    self.plain(Op::Bool(BoolOp::And, recent, delayed), Ty::Bool)
                }
            }
            ExprKind::Binary(_, _, _, _) => return Err(future::past_over_future(e)),
            ExprKind::Count(items) => self.count(items)?,
            ExprKind::Remote { .. } | ExprKind::At { .. } => return Err(system_only(e)),
            ExprKind::Attribute(_) | ExprKind::Quant { .. } => return Err(population_only(e)),
        })
    }

    /// The number of `items` that hold: `int(item0) + int(item1) + …`, `0` for none.
    fn count(&mut self, items: &[Expr]) -> Result<SlotId, Diag> {
        let mut sum = None;
        for item in items {
            let item = self.expr(item)?;
            let one = self.plain(Op::BoolToInt(item), Ty::Int);
            sum = Some(match sum {
                None => one,
                Some(sum) => self.plain(Op::Arith(ArithOp::Add, sum, one), Ty::Int),
            });
        }
        Ok(match sum {
            Some(sum) => sum,
            None => self.plain(Op::Const(Value::Int(0)), Ty::Int),
        })
    }

    /// `O[lo,hi] arg` over time, for the formula `e` (E0415 if its state
    /// cannot be bounded).
    fn timed_once(&mut self, arg: SlotId, window: Window, e: &Expr) -> Result<SlotId, Diag> {
        if window == timed::ALWAYS {
            return Ok(self.temporal(Temporal::Once(arg)));
        }
        timed::past_window(window, e)?;
        Ok(self.temporal(Temporal::TimedOnce { arg, window }))
    }

    /// `Y^steps arg` (`init == false`) or `Z^steps arg` (`init == true`).
    fn delay(&mut self, arg: SlotId, steps: u64, init: bool) -> SlotId {
        match steps {
            0 => arg,
            1 => self.temporal(Temporal::Prev { arg, init }),
            _ => self.temporal(Temporal::Delay { arg, steps, init }),
        }
    }

    /// `O[0,hi] arg`, `hi == None` for `inf`.
    fn once(&mut self, arg: SlotId, hi: Option<u64>) -> SlotId {
        match hi {
            None => self.temporal(Temporal::Once(arg)),
            Some(0) => arg,
            Some(bound) => self.temporal(Temporal::OnceWithin { arg, bound }),
        }
    }

    /// `H[0,hi] arg`, `hi == None` for `inf`.
    fn hist(&mut self, arg: SlotId, hi: Option<u64>) -> SlotId {
        match hi {
            None => self.temporal(Temporal::Hist(arg)),
            Some(0) => arg,
            Some(bound) => self.temporal(Temporal::HistWithin { arg, bound }),
        }
    }

    /// `lhs S[0,hi] rhs`, `hi == None` for `inf`.
    fn since(&mut self, lhs: SlotId, rhs: SlotId, hi: Option<u64>) -> SlotId {
        match hi {
            None => self.temporal(Temporal::Since(lhs, rhs)),
            Some(0) => rhs,
            Some(bound) => self.temporal(Temporal::SinceWithin { lhs, rhs, bound }),
        }
    }
}

/// `(lo, hi)` of an optional bound, normalised so that `hi >= lo` (the checker
/// guarantees it; a violating bound is clamped rather than underflowing).
fn bounds(bound: Option<hir::Bound>) -> (u64, Option<u64>) {
    match bound {
        None => (0, None),
        Some(b) => (b.lo, b.hi.map(|h| h.max(b.lo))),
    }
}

/// `L.x` and `@L` belong to system blocks, whose lowering replaces them by
/// inputs before calling [`lower`]; the checker rejects them in monitors
/// (E0403), so reaching one here is reported rather than trusted.
fn system_only(e: &Expr) -> Diag {
    Diag::error()
        .with_code(Code::WrongBlock)
        .with_message("this construct is only meaningful in a `system` or `population` block")
        .with_labels(vec![crate::diag::Label::primary((), e.span.range())])
}

/// Agent attributes and quantifiers belong to population blocks, whose
/// lowering replaces them by inputs before calling [`lower`].
fn population_only(e: &Expr) -> Diag {
    Diag::error()
        .with_code(Code::WrongBlock)
        .with_message("this construct is only meaningful in a `population` block")
        .with_labels(vec![crate::diag::Label::primary((), e.span.range())])
}
