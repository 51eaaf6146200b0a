//! Random systems, guards and executions for CPL property tests.
//!
//! Guards are generated as context-free shapes and then resolved against the
//! system and the lifeline each sub-formula is evaluated on (which `@M`
//! changes), so every generated guard is well typed and shrinks well.

use hindsight_compiler::ast::{BinaryTemporal, Span, UnaryTemporal};
use hindsight_compiler::hir::{
    ArithOp, BoolOp, Bound, BoundUnit, CmpOp, Expr, ExprKind, Guard, Lifeline, Spec, System, Ty,
    Value,
};
use proptest::prelude::*;

use super::msc::{Event, EventKind, Execution, MsgId};
use crate::gen::{cmp_op, optional_bound, TICK};
use crate::hir::{enum_def, expr, input, lifeline};

/// The lifeline names of generated systems, in order.
pub const LIFELINES: [&str; 4] = ["Ada", "Bob", "Cyd", "Dot"];

/// The variable names of each generated lifeline, in order.
pub const VARS: [&str; 3] = ["x", "y", "k"];

/// The variants of the one generated enum, `Status`.
pub const STATUS: [&str; 3] = ["pending", "passed", "failed"];

/// Ints are drawn from `0..INT_RANGE`, so that equalities often hold.
const INT_RANGE: u8 = 3;

fn formula(kind: ExprKind) -> Expr {
    expr(kind, Ty::Bool)
}

/// A guard before it is placed on a lifeline: atoms are still seeds.
#[derive(Clone, Debug)]
enum Shape {
    Atom(AtomSeed),
    Not(Box<Shape>),
    Bool(BoolOp, Box<Shape>, Box<Shape>),
    Unary(UnaryTemporal, Option<Bound>, Box<Shape>),
    Since(Option<Bound>, Box<Shape>, Box<Shape>),
    /// `@M`, M chosen modulo the number of lifelines.
    At(u8, Box<Shape>),
}

/// The random choices of one atom, read modulo what the context offers.
#[derive(Clone, Copy, Debug)]
struct AtomSeed {
    form: u8,
    lifeline: u8,
    var: u8,
    other: u8,
    op: CmpOp,
    constant: u8,
}

fn atom_seed() -> impl Strategy<Value = AtomSeed> {
    (any::<[u8; 5]>(), cmp_op()).prop_map(|([form, lifeline, var, other, constant], op)| AtomSeed {
        form,
        lifeline,
        var,
        other,
        op,
        constant,
    })
}

fn bound() -> impl Strategy<Value = Option<Bound>> {
    optional_bound(1, 3, 3)
}

/// Shapes of depth at most 4.
fn shape() -> impl Strategy<Value = Shape> {
    atom_seed().prop_map(Shape::Atom).prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(|a| Shape::Not(Box::new(a))),
            2 => (
                prop::sample::select(vec![BoolOp::And, BoolOp::Or, BoolOp::Implies, BoolOp::Iff]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| Shape::Bool(op, Box::new(a), Box::new(b))),
            2 => (
                prop::sample::select(vec![
                    UnaryTemporal::Yesterday,
                    UnaryTemporal::WeakYesterday,
                    UnaryTemporal::Once,
                    UnaryTemporal::Historically,
                ]),
                bound(),
                inner.clone()
            )
                .prop_map(|(op, bd, a)| {
                    // Y and Z take no bound.
                    let bd = bd.filter(|_| matches!(op, UnaryTemporal::Once | UnaryTemporal::Historically));
                    Shape::Unary(op, bd, Box::new(a))
                }),
            1 => (bound(), inner.clone(), inner.clone())
                .prop_map(|(bd, a, b)| Shape::Since(bd, Box::new(a), Box::new(b))),
            2 => (any::<u8>(), inner).prop_map(|(m, a)| Shape::At(m, Box::new(a))),
        ]
    })
}

fn ty() -> impl Strategy<Value = Ty> {
    prop::sample::select(vec![Ty::Int, Ty::Bool, Ty::Enum(0)])
}

/// A random spec holding one enum (`Status`) and one system `random` of 2-4
/// lifelines ([`LIFELINES`]) with 1-3 variables each ([`VARS`]) of type int,
/// bool or `Status`, and 1-3 past-time guards `g0, g1, ...` of depth at most 4
/// using `@M`, `M.x`, unqualified variables, `Y Z O H S` (small bounds),
/// comparisons and Boolean connectives.
pub fn system_spec() -> impl Strategy<Value = Spec> {
    let lifelines = prop::collection::vec(prop::collection::vec(ty(), 1..=3), 2..=4);
    let guards = prop::collection::vec((any::<u8>(), shape()), 1..=3);
    // A third of the systems have a time (every lifeline's last variable,
    // `ts`), and then every bound of their guards is a duration.
    let timed = prop::bool::weighted(1.0 / 3.0);
    (lifelines, guards, timed).prop_map(|(types, guards, timed)| {
        let lifelines: Vec<Lifeline> = types
            .iter()
            .zip(LIFELINES)
            .map(|(tys, name)| {
                let vars = tys.iter().zip(VARS).map(|(&ty, var)| input(var, ty));
                let time = timed.then(|| input(TIME, Ty::Int));
                lifeline(name, vars.chain(time).collect())
            })
            .collect();
        let guards = guards
            .iter()
            .enumerate()
            .map(|(g, (owner, shape))| {
                let owner = usize::from(*owner) % types.len();
                let formula = resolve(shape, &types, owner);
                Guard {
                    name: format!("g{g}"),
                    owner,
                    formula: if timed { in_time(&formula) } else { formula },
                    span: Span::default(),
                }
            })
            .collect();
        Spec {
            enums: vec![enum_def("Status", &STATUS)],
            populations: Vec::new(),
            monitors: Vec::new(),
            systems: vec![System {
                name: "random".into(),
                lifelines,
                guards,
                time: timed.then(|| TIME.to_string()),
                let_names: Default::default(),
                protocols: Vec::new(),
                span: Span::default(),
            }],
        }
    })
}

/// The name of the events' time in timed random systems.
pub const TIME: &str = "ts";

/// `formula` with every step bound `[a,b]` read as durations of `a` and `b`
/// ticks (a width of at least one tick when `a > 0`: a window of width 0
/// lying back in time is refused).
fn in_time(formula: &Expr) -> Expr {
    let timed = |b: &Option<Bound>| {
        b.map(|b| Bound {
            lo: b.lo * TICK,
            hi: b.hi.map(|hi| hi.max(b.lo + u64::from(b.lo > 0)) * TICK),
            unit: BoundUnit::Time,
        })
    };
    let go = |e: &Expr| Box::new(in_time(e));
    let kind = match &formula.kind {
        ExprKind::Unary(op, b, a) => ExprKind::Unary(*op, timed(b), go(a)),
        ExprKind::Binary(op, b, l, r) => ExprKind::Binary(*op, timed(b), go(l), go(r)),
        ExprKind::Not(a) => ExprKind::Not(go(a)),
        ExprKind::Bool(op, a, b) => ExprKind::Bool(*op, go(a), go(b)),
        ExprKind::At { lifeline, arg } => ExprKind::At {
            lifeline: *lifeline,
            arg: go(arg),
        },
        other => other.clone(),
    };
    Expr {
        kind,
        ty: formula.ty,
        span: formula.span,
    }
}

/// Places `shape` on lifeline `here` of a system whose lifelines have the variable types `types`.
fn resolve(shape: &Shape, types: &[Vec<Ty>], here: usize) -> Expr {
    let go = |s: &Shape| Box::new(resolve(s, types, here));
    match shape {
        Shape::Atom(seed) => atom(*seed, types, here),
        Shape::Not(a) => formula(ExprKind::Not(go(a))),
        Shape::Bool(op, a, b) => formula(ExprKind::Bool(*op, go(a), go(b))),
        Shape::Unary(op, bd, a) => formula(ExprKind::Unary(*op, *bd, go(a))),
        Shape::Since(bd, a, b) => {
            formula(ExprKind::Binary(BinaryTemporal::Since, *bd, go(a), go(b)))
        }
        Shape::At(m, a) => {
            let lifeline = usize::from(*m) % types.len();
            formula(ExprKind::At {
                lifeline,
                arg: Box::new(resolve(a, types, lifeline)),
            })
        }
    }
}

/// A constant of type `ty` chosen by `seed`.
fn constant(ty: Ty, seed: u8) -> Value {
    match ty {
        Ty::Bool => Value::Bool(seed % 2 == 1),
        Ty::Enum(_) => Value::Enum(u32::from(seed) % STATUS.len() as u32),
        _ => Value::Int(i64::from(seed % INT_RANGE)),
    }
}

/// A comparison operator valid for `ty`: orderings only on ints.
fn cmp_op_for(ty: Ty, op: CmpOp) -> CmpOp {
    match (ty, op) {
        (Ty::Int, op) | (_, op @ (CmpOp::Eq | CmpOp::Ne)) => op,
        (_, CmpOp::Lt | CmpOp::Gt) => CmpOp::Ne,
        _ => CmpOp::Eq,
    }
}

/// One atom on lifeline `here`, by `seed.form`:
/// 0 a bool constant; 1 a bool variable (local or `M.x`) as a formula;
/// 2 a local variable against a constant; 3 `M.x` against a constant;
/// 4 `M.x` against a local variable of the same type (`TestRunner.cand == cand`);
/// 5 `t + c` or `t * c` against a constant, t an int variable.
/// A form the lifelines cannot offer falls back to the previous one.
fn atom(seed: AtomSeed, types: &[Vec<Ty>], here: usize) -> Expr {
    let remote = usize::from(seed.lifeline) % types.len();
    let local_var = |pick: u8| {
        let var = usize::from(pick) % types[here].len();
        expr(ExprKind::Input(var), types[here][var])
    };
    let remote_var = |pick: u8| {
        let var = usize::from(pick) % types[remote].len();
        expr(
            ExprKind::Remote {
                lifeline: remote,
                var,
            },
            types[remote][var],
        )
    };
    let against_constant = |term: Expr| {
        let c = expr(ExprKind::Const(constant(term.ty, seed.constant)), term.ty);
        formula(ExprKind::Cmp(
            cmp_op_for(term.ty, seed.op),
            Box::new(term),
            Box::new(c),
        ))
    };
    let variable = |local: bool| {
        if local {
            local_var(seed.var)
        } else {
            remote_var(seed.var)
        }
    };
    match seed.form % 6 {
        5 => {
            let term = variable(seed.other.is_multiple_of(2));
            if term.ty != Ty::Int {
                return against_constant(term);
            }
            let op = if seed.other % 4 < 2 {
                ArithOp::Add
            } else {
                ArithOp::Mul
            };
            let c = expr(
                ExprKind::Const(Value::Int(i64::from(seed.constant % 2 + 1))),
                Ty::Int,
            );
            let sum = expr(ExprKind::Arith(op, Box::new(term), Box::new(c)), Ty::Int);
            against_constant(sum)
        }
        4 => {
            let theirs = remote_var(seed.var);
            let same_type: Vec<usize> = (0..types[here].len())
                .filter(|&v| types[here][v] == theirs.ty)
                .collect();
            match same_type.get(usize::from(seed.other) % same_type.len().max(1)) {
                Some(&var) => {
                    let mine = expr(ExprKind::Input(var), theirs.ty);
                    let op = cmp_op_for(theirs.ty, seed.op);
                    formula(ExprKind::Cmp(op, Box::new(theirs), Box::new(mine)))
                }
                None => against_constant(theirs),
            }
        }
        3 => against_constant(remote_var(seed.var)),
        2 => against_constant(local_var(seed.var)),
        1 => {
            let term = variable(seed.other.is_multiple_of(2));
            if term.ty == Ty::Bool {
                term
            } else {
                against_constant(term)
            }
        }
        _ => formula(ExprKind::Const(Value::Bool(seed.constant % 2 == 1))),
    }
}

/// The random choices of one execution step, read modulo what the state offers.
type StepSeed = (u8, u8, u8, [Option<u8>; 3]);

/// A random execution of `system` of up to `max_len` events: each step picks a
/// lifeline and does an act (random store changes), a send to a random other
/// lifeline, a receive (with random store changes) of a random in-flight
/// message addressed to it — any of them, so delivery is not FIFO — or a
/// choice. A receive with nothing in flight becomes an act. Sends never
/// received are left in transit.
pub fn execution(system: &System, max_len: usize) -> impl Strategy<Value = Execution> {
    let step = (any::<u8>(), 0u8..10, any::<u8>(), any::<[Option<u8>; 3]>());
    let system = system.clone();
    prop::collection::vec(step, 0..=max_len).prop_map(move |steps| build_execution(&system, &steps))
}

fn build_execution(system: &System, steps: &[StepSeed]) -> Execution {
    let n = system.lifelines.len();
    // (message, receiver) of the messages sent and not yet received.
    let mut in_flight: Vec<(MsgId, usize)> = Vec::new();
    let mut next_msg: MsgId = 0;
    let mut events = Vec::with_capacity(steps.len());
    let mut clocks = vec![1_795_510_800_000_000i64; n];
    let mut seen = vec![false; n];
    for &(who, kind, pick, changes) in steps {
        let lifeline = usize::from(who) % n;
        let mine: Vec<usize> = (0..in_flight.len())
            .filter(|&k| in_flight[k].1 == lifeline)
            .collect();
        let kind = match kind {
            0..=2 if n > 1 => {
                let to = (lifeline + 1 + usize::from(pick) % (n - 1)) % n;
                next_msg += 1;
                in_flight.push((next_msg - 1, to));
                EventKind::Send {
                    to,
                    msg: next_msg - 1,
                }
            }
            3..=5 if !mine.is_empty() => {
                let (msg, _) = in_flight.remove(mine[usize::from(pick) % mine.len()]);
                EventKind::Recv { msg }
            }
            6 | 7 => EventKind::Choice,
            _ => EventKind::Act,
        };
        let vars = &system.lifelines[lifeline].vars;
        let timed = system.time.is_some();
        let declared = vars.len() - usize::from(timed);
        let mut changes: Vec<(usize, Value)> = match kind {
            EventKind::Act | EventKind::Recv { .. } => vars[..declared]
                .iter()
                .zip(changes)
                .enumerate()
                .filter_map(|(var, (decl, seed))| Some((var, constant(decl.ty, seed?))))
                .collect(),
            _ => Vec::new(),
        };
        // Times: 0 to 3 ticks after the lifeline's last (never before: the
        // readers refuse that), given on every event but now and then a
        // later one of a lifeline (which then happens at its last time).
        let first = !seen[lifeline];
        seen[lifeline] = true;
        if timed && (first || who % 8 != 0) {
            clocks[lifeline] += i64::from(pick % 4) * TICK as i64;
            changes.push((declared, Value::Int(clocks[lifeline])));
        }
        events.push(Event {
            lifeline,
            kind,
            changes,
        });
    }
    Execution::new(system, events).expect("generated events form a valid MSC")
}

/// A random linear extension of `execution`'s causal order: `order[k]` is the
/// index of the event taken `k`-th (see [`Execution::reordered`]).
pub fn linearization(execution: &Execution) -> impl Strategy<Value = Vec<usize>> {
    let execution = execution.clone();
    prop::collection::vec(any::<usize>(), execution.events().len())
        .prop_map(move |seeds| execution.linear_extension(|k, _| seeds[k]))
}
