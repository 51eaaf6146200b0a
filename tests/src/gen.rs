//! Random specs for differential tests: proptest strategies that build typed
//! HIR formulas over a fixed set of inputs (past-time ones, and future-time ones
//! over the bool inputs for the LTL3 oracle), and a printer that writes them
//! back as surface syntax with the fewest parentheses the precedence table of
//! the language allows — so a parser that disagrees with that table produces a
//! different formula and the differential test catches it.

use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{
    ArithOp, BoolOp, Bound, BoundUnit, CmpOp, Expr, ExprKind, Ty, Value,
};
use proptest::prelude::*;

use crate::hir::{expr, system_construct};
use crate::reference::Step;
use crate::surface::{self, Leaves};

/// The inputs every generated monitor declares, in order, with their surface types.
pub const INPUTS: [(&str, &str); 7] = [
    ("p", "bool"),
    ("q", "bool"),
    ("r", "bool"),
    ("n", "int"),
    ("m", "int"),
    ("x", "float"),
    ("mode", "Mode"),
];

/// The variants of the one generated enum, `Mode`.
pub const MODES: [&str; 3] = ["idle", "busy", "done"];

/// A leaf standing for the spec's `let shared = ...;`: printed as `shared`,
/// replaced by the let's body by [`inline_shared`] before reference evaluation.
pub const SHARED: usize = 1000;

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn int_term() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (3usize..5).prop_map(|k| expr(ExprKind::Input(k), Ty::Int)),
        (0i64..5).prop_map(|c| expr(ExprKind::Const(Value::Int(c)), Ty::Int)),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (arith_op(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| expr(ExprKind::Arith(op, boxed(a), boxed(b)), Ty::Int)),
            inner.prop_map(|a| expr(ExprKind::Neg(boxed(a)), Ty::Int)),
        ]
    })
}

fn float_term() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        Just(expr(ExprKind::Input(5), Ty::Float)),
        prop::sample::select(vec![0.5, 1.0, 2.5])
            .prop_map(|c| expr(ExprKind::Const(Value::Float(c)), Ty::Float)),
    ];
    leaf.prop_recursive(1, 3, 2, |inner| {
        (arith_op(), inner.clone(), inner)
            .prop_map(|(op, a, b)| expr(ExprKind::Arith(op, boxed(a), boxed(b)), Ty::Float))
    })
}

fn arith_op() -> impl Strategy<Value = ArithOp> {
    prop::sample::select(vec![ArithOp::Add, ArithOp::Sub, ArithOp::Mul])
}

/// A comparison operator, each equally likely.
pub fn cmp_op() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ])
}

fn comparison() -> impl Strategy<Value = Expr> {
    let cmp = |op, a, b| expr(ExprKind::Cmp(op, boxed(a), boxed(b)), Ty::Bool);
    let mode = expr(ExprKind::Input(6), Ty::Enum(0));
    prop_oneof![
        (cmp_op(), int_term(), int_term()).prop_map(move |(op, a, b)| cmp(op, a, b)),
        (cmp_op(), float_term(), float_term()).prop_map(move |(op, a, b)| cmp(op, a, b)),
        (any::<bool>(), 0u32..3).prop_map(move |(eq, v)| {
            let op = if eq { CmpOp::Eq } else { CmpOp::Ne };
            cmp(
                op,
                mode.clone(),
                expr(ExprKind::Const(Value::Enum(v)), Ty::Enum(0)),
            )
        }),
        (0usize..3, 0usize..3).prop_map(move |(a, b)| {
            let input = |k| expr(ExprKind::Input(k), Ty::Bool);
            cmp(CmpOp::Eq, input(a), input(b))
        }),
    ]
}

fn bound() -> impl Strategy<Value = Option<Bound>> {
    optional_bound(3, 4, 5)
}

/// No bound (weight 2) or, with weight `weight`, `[lo, lo + width]` or
/// `[lo, inf]` for `lo` in `0..lo_end` and `width` in `0..width_end`.
pub(crate) fn optional_bound(
    weight: u32,
    lo_end: u64,
    width_end: u64,
) -> impl Strategy<Value = Option<Bound>> {
    prop_oneof![
        2 => Just(None),
        weight => (0..lo_end, 0..width_end, any::<bool>()).prop_map(|(lo, width, inf)| Some(Bound {
            lo,
            hi: if inf { None } else { Some(lo + width) },
            unit: BoundUnit::Steps,
        })),
    ]
}

/// A random past-time formula of type bool; `with_shared` allows the `shared` leaf.
pub fn formula(with_shared: bool) -> impl Strategy<Value = Expr> {
    let input = (0usize..3).prop_map(|k| expr(ExprKind::Input(k), Ty::Bool));
    let shared = Just(expr(ExprKind::Input(SHARED), Ty::Bool));
    let leaf = prop_oneof![
        4 => input,
        1 => any::<bool>().prop_map(|b| expr(ExprKind::Const(Value::Bool(b)), Ty::Bool)),
        2 => comparison(),
        if with_shared { 2 } else { 0 } => shared,
    ];
    leaf.prop_recursive(5, 40, 2, |inner| {
        let b = |kind| expr(kind, Ty::Bool);
        prop_oneof![
            inner.clone().prop_map(move |a| b(ExprKind::Not(boxed(a)))),
            (
                prop::sample::select(vec![BoolOp::And, BoolOp::Or, BoolOp::Implies, BoolOp::Iff]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(move |(op, x, y)| b(ExprKind::Bool(op, boxed(x), boxed(y)))),
            (
                prop::sample::select(vec![UnaryTemporal::Yesterday, UnaryTemporal::WeakYesterday]),
                inner.clone()
            )
                .prop_map(move |(op, a)| b(ExprKind::Unary(op, None, boxed(a)))),
            (
                prop::sample::select(vec![UnaryTemporal::Once, UnaryTemporal::Historically]),
                bound(),
                inner.clone()
            )
                .prop_map(move |(op, bd, a)| b(ExprKind::Unary(op, bd, boxed(a)))),
            (bound(), inner.clone(), inner).prop_map(move |(bd, x, y)| b(ExprKind::Binary(
                BinaryTemporal::Since,
                bd,
                boxed(x),
                boxed(y)
            ))),
        ]
    })
}

/// A random spec: a `let shared` body and one to four properties that may use it.
#[derive(Clone, Debug)]
pub struct RandomSpec {
    /// The body of `let shared = ...;`.
    pub shared: Expr,
    /// The properties, possibly containing the `shared` leaf.
    pub properties: Vec<Expr>,
}

impl RandomSpec {
    /// The spec as source text of one monitor block named `random`.
    pub fn source(&self) -> String {
        let mut s = monitor_header();
        s += &format!("    let shared = {};\n", print(&self.shared));
        for (k, p) in self.properties.iter().enumerate() {
            s += &format!("    property f{k} = {};\n", print(p));
        }
        s + "}\n"
    }

    /// The properties with `shared` inlined, as the reference evaluator needs them.
    pub fn inlined(&self) -> Vec<Expr> {
        self.properties
            .iter()
            .map(|p| inline_shared(p, &self.shared))
            .collect()
    }
}

/// Strategy for [`RandomSpec`].
pub fn random_spec() -> impl Strategy<Value = RandomSpec> {
    (formula(false), prop::collection::vec(formula(true), 1..5))
        .prop_map(|(shared, properties)| RandomSpec { shared, properties })
}

/// The enum `Mode` and the opening of monitor `random` with every input of [`INPUTS`].
fn monitor_header() -> String {
    let mut s = format!("enum Mode {{ {} }}\nmonitor random {{\n", MODES.join(", "));
    for (name, ty) in INPUTS {
        s += &format!("    input {name}: {ty};\n");
    }
    s
}

/// A bound of a future operator: `[lo,hi]` with `lo <= hi <= 2`.
fn future_bound() -> impl Strategy<Value = Bound> {
    (0u64..3, 0u64..3).prop_map(|(a, b)| Bound {
        lo: a.min(b),
        hi: Some(a.max(b)),
        unit: BoundUnit::Steps,
    })
}

/// A small past formula over the bool inputs: `Y`, `Z`, `O`, `H` of an input or
/// `S` of two, with bounds of at most 2 (or `inf` above).
fn past_leaf() -> impl Strategy<Value = Expr> {
    let input = || (0usize..3).prop_map(|k| expr(ExprKind::Input(k), Ty::Bool));
    let bound = prop_oneof![
        Just(None),
        (0u64..3, 0u64..3, any::<bool>()).prop_map(|(a, b, inf)| Some(Bound {
            lo: a.min(b),
            hi: if inf { None } else { Some(a.max(b)) },
            unit: BoundUnit::Steps,
        })),
    ];
    let unary = prop::sample::select(vec![
        UnaryTemporal::Yesterday,
        UnaryTemporal::WeakYesterday,
        UnaryTemporal::Once,
        UnaryTemporal::Historically,
    ]);
    prop_oneof![
        (unary, bound.clone(), input()).prop_map(|(op, bd, a)| {
            let bd = if matches!(op, UnaryTemporal::Once | UnaryTemporal::Historically) {
                bd
            } else {
                None
            };
            expr(ExprKind::Unary(op, bd, boxed(a)), Ty::Bool)
        }),
        (bound, input(), input()).prop_map(|(bd, a, b)| expr(
            ExprKind::Binary(BinaryTemporal::Since, bd, boxed(a), boxed(b)),
            Ty::Bool
        )),
    ]
}

/// A random future-time formula over the bool inputs `p q r`: Boolean
/// connectives and `X F G U W R` (`F G U` also bounded, bounds at most 2),
/// nested at most three deep, always with a future operator (a formula drawn
/// without one gets `X`, `F` or `G` on top). With `with_past`, leaves may also
/// be small past formulas (`Y p`, `q S[0,2] r`, ...).
pub fn future_formula(with_past: bool) -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        6 => (0usize..3).prop_map(|k| expr(ExprKind::Input(k), Ty::Bool)),
        1 => any::<bool>().prop_map(|b| expr(ExprKind::Const(Value::Bool(b)), Ty::Bool)),
        if with_past { 3 } else { 0 } => past_leaf(),
    ];
    let formula = leaf.prop_recursive(3, 16, 2, |inner| {
        let b = |kind| expr(kind, Ty::Bool);
        let unbounded_unary = prop::sample::select(vec![
            UnaryTemporal::Next,
            UnaryTemporal::Eventually,
            UnaryTemporal::Globally,
        ]);
        let bounded_unary =
            prop::sample::select(vec![UnaryTemporal::Eventually, UnaryTemporal::Globally]);
        let unbounded_binary = prop::sample::select(vec![
            BinaryTemporal::Until,
            BinaryTemporal::WeakUntil,
            BinaryTemporal::Release,
        ]);
        prop_oneof![
            1 => inner.clone().prop_map(move |a| b(ExprKind::Not(boxed(a)))),
            2 => (
                prop::sample::select(vec![BoolOp::And, BoolOp::Or, BoolOp::Implies, BoolOp::Iff]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(move |(op, x, y)| b(ExprKind::Bool(op, boxed(x), boxed(y)))),
            3 => (unbounded_unary, inner.clone())
                .prop_map(move |(op, a)| b(ExprKind::Unary(op, None, boxed(a)))),
            1 => (bounded_unary, future_bound(), inner.clone())
                .prop_map(move |(op, bd, a)| b(ExprKind::Unary(op, Some(bd), boxed(a)))),
            2 => (unbounded_binary, inner.clone(), inner.clone())
                .prop_map(move |(op, x, y)| b(ExprKind::Binary(op, None, boxed(x), boxed(y)))),
            1 => (future_bound(), inner.clone(), inner).prop_map(move |(bd, x, y)| b(
                ExprKind::Binary(BinaryTemporal::Until, Some(bd), boxed(x), boxed(y))
            )),
        ]
    });
    let top = prop::sample::select(vec![
        UnaryTemporal::Next,
        UnaryTemporal::Eventually,
        UnaryTemporal::Globally,
    ]);
    (formula, top).prop_map(|(f, op)| {
        if f.is_future() {
            f
        } else {
            expr(ExprKind::Unary(op, None, boxed(f)), Ty::Bool)
        }
    })
}

/// A random future-time spec: properties over `p q r` (see [`future_formula`]),
/// some of them `with reset`, in a monitor declaring every input of [`INPUTS`].
#[derive(Clone, Debug)]
pub struct FutureSpec {
    /// The properties' formulas and whether each is declared `with reset`.
    pub properties: Vec<(Expr, bool)>,
}

impl FutureSpec {
    /// The spec as source text of one monitor block named `random`.
    pub fn source(&self) -> String {
        let mut s = monitor_header();
        for (k, (p, reset)) in self.properties.iter().enumerate() {
            let reset = if *reset { " with reset" } else { "" };
            s += &format!("    property f{k} = {}{reset};\n", print(p));
        }
        s + "}\n"
    }
}

/// Strategy for [`FutureSpec`]: one to three properties, past sub-formulas allowed.
pub fn future_spec() -> impl Strategy<Value = FutureSpec> {
    prop::collection::vec((future_formula(true), any::<bool>()), 1..4)
        .prop_map(|properties| FutureSpec { properties })
}

/// A random trace over [`INPUTS`] of up to `max_len` steps.
pub fn trace(max_len: usize) -> impl Strategy<Value = Vec<Step>> {
    let step = (
        any::<[bool; 3]>(),
        -3i64..4,
        -3i64..4,
        prop::sample::select(vec![-1.0, 0.5, 2.5]),
        0u32..3,
    )
        .prop_map(|(bits, n, m, x, mode)| {
            let mut s: Step = bits.iter().map(|&b| Value::Bool(b)).collect();
            s.extend([
                Value::Int(n),
                Value::Int(m),
                Value::Float(x),
                Value::Enum(mode),
            ]);
            s
        });
    prop::collection::vec(step, 0..=max_len)
}

/// Replaces every `shared` leaf of `e` by `body`.
pub fn inline_shared(e: &Expr, body: &Expr) -> Expr {
    let go = |x: &Expr| Box::new(inline_shared(x, body));
    let kind = match &e.kind {
        ExprKind::Input(SHARED) => return body.clone(),
        ExprKind::Const(_) | ExprKind::Input(_) => e.kind.clone(),
        ExprKind::Not(a) => ExprKind::Not(go(a)),
        ExprKind::Neg(a) => ExprKind::Neg(go(a)),
        ExprKind::Bool(op, a, b) => ExprKind::Bool(*op, go(a), go(b)),
        ExprKind::Cmp(op, a, b) => ExprKind::Cmp(*op, go(a), go(b)),
        ExprKind::Arith(op, a, b) => ExprKind::Arith(*op, go(a), go(b)),
        ExprKind::Unary(op, bd, a) => ExprKind::Unary(*op, *bd, go(a)),
        ExprKind::Binary(op, bd, a, b) => ExprKind::Binary(*op, *bd, go(a), go(b)),
        system_construct!() => {
            unreachable!("monitor specs have no system constructs")
        }
    };
    Expr {
        kind,
        ty: e.ty,
        span: e.span,
    }
}

/// `e` in surface syntax with minimal parentheses.
pub fn print(e: &Expr) -> String {
    let printed = surface::printed(&MonitorLeaves, e, 0);
    printed.expect("monitor formulas have surface syntax").0
}

/// The leaves of generated monitor formulas: constants, the inputs and `shared`.
struct MonitorLeaves;

impl Leaves for MonitorLeaves {
    fn leaf(&self, e: &Expr, _here: usize) -> Option<(String, u8)> {
        let text = match &e.kind {
            ExprKind::Const(Value::Bool(b)) => b.to_string(),
            ExprKind::Const(Value::Int(c)) => c.to_string(),
            ExprKind::Const(Value::Float(c)) => format!("{c:?}"),
            // Alternate bare and qualified variants so both forms are exercised.
            ExprKind::Const(Value::Enum(v)) if v % 2 == 0 => MODES[*v as usize].to_string(),
            ExprKind::Const(Value::Enum(v)) => format!("Mode::{}", MODES[*v as usize]),
            ExprKind::Input(SHARED) => "shared".into(),
            ExprKind::Input(k) => INPUTS[*k].0.into(),
            _ => unreachable!("monitor specs have no system constructs"),
        };
        Some((text, surface::ATOM))
    }
}

/// `source` (a generated monitor) reading log records: each `input NAME: TYPE;`
/// line gets what `clause(NAME, TYPE)` says (`from "/r/x" default 0`), and
/// `steps where FILTER;` opens the monitor.
pub fn map_inputs(source: &str, filter: &str, clause: impl Fn(&str, &str) -> String) -> String {
    let mut out = String::new();
    for line in source.lines() {
        let input = line
            .trim()
            .strip_prefix("input ")
            .and_then(|rest| rest.strip_suffix(';'))
            .and_then(|decl| decl.split_once(": "));
        match input {
            Some((name, ty)) => {
                out += &format!("    input {name}: {ty} {};\n", clause(name, ty));
            }
            None => {
                out += line;
                out += "\n";
                if line.starts_with("monitor ") {
                    out += &format!("    steps where {filter};\n");
                }
            }
        }
    }
    out
}

/// The unit of generated durations: half a second, in microseconds, so that
/// windows and step times meet exactly, fractions of seconds included.
pub const TICK: u64 = 500_000;

/// A duration bound `[lo,hi]` in ticks: `lo` in `0..=lo_max`; a width of at
/// least one tick when `lo > 0` (a window of width 0 lying back in time is
/// refused); `inf` as upper end when `allow_inf`.
fn time_bound(lo_max: u64, allow_inf: bool) -> impl Strategy<Value = Bound> {
    (0..=lo_max, 0u64..6, any::<bool>()).prop_map(move |(lo, width, inf)| {
        let width = if lo > 0 { width.max(1) } else { width };
        Bound {
            lo: lo * TICK,
            hi: if inf && allow_inf && lo > 0 {
                None
            } else {
                Some((lo + width) * TICK)
            },
            unit: BoundUnit::Time,
        }
    })
}

/// A random past-time formula over `p q r` mixing duration bounds (on `O H
/// S`) with step bounds and `Y Z`, nested at most three deep.
pub fn timed_past_formula() -> impl Strategy<Value = Expr> {
    let leaf = (0usize..3).prop_map(|k| expr(ExprKind::Input(k), Ty::Bool));
    leaf.prop_recursive(3, 12, 2, |inner| {
        let b = |kind| expr(kind, Ty::Bool);
        let bound = prop_oneof![
            3 => time_bound(4, true).prop_map(Some),
            1 => optional_bound(1, 3, 3),
        ];
        let unary = prop::sample::select(vec![
            UnaryTemporal::Once,
            UnaryTemporal::Historically,
            UnaryTemporal::Yesterday,
            UnaryTemporal::WeakYesterday,
        ]);
        prop_oneof![
            1 => inner.clone().prop_map(move |a| b(ExprKind::Not(boxed(a)))),
            1 => (
                prop::sample::select(vec![BoolOp::And, BoolOp::Or, BoolOp::Implies]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(move |(op, x, y)| b(ExprKind::Bool(op, boxed(x), boxed(y)))),
            3 => (unary, bound.clone(), inner.clone()).prop_map(move |(op, bd, a)| {
                let bd = if matches!(op, UnaryTemporal::Once | UnaryTemporal::Historically) {
                    bd
                } else {
                    None
                };
                b(ExprKind::Unary(op, bd, boxed(a)))
            }),
            2 => (bound, inner.clone(), inner).prop_map(move |(bd, x, y)| b(
                ExprKind::Binary(BinaryTemporal::Since, bd, boxed(x), boxed(y))
            )),
        ]
    })
}

/// A random timed future-time formula: `M`, `α -> M`, `G M` or `G (α -> M)`
/// with `M` one of `F G U` with a duration bound (lower end 0 under `G`),
/// its operands and `α` from [`timed_past_formula`].
pub fn timed_future_formula() -> impl Strategy<Value = Expr> {
    deadline_shaped(time_bound(3, false), timed_past_formula)
}

/// A random future-time formula of a deadline's shape with a step window
/// (`G (p -> F[0,3] q)`, `F[2,4] (p && !r)`, ...): `M`, `α -> M`, `G M` or
/// `G (α -> M)` with `M` one of `F G U` with `[lo,hi]`, `hi <= 4` (lower end
/// 0 under `G`), its operands and `α` Boolean combinations of the inputs,
/// with `with_past` also of small past formulas.
pub fn counted_future_formula(with_past: bool) -> impl Strategy<Value = Expr> {
    let bound = (0u64..5, 0u64..5).prop_map(|(a, b)| Bound {
        lo: a.min(b),
        hi: Some(a.max(b)),
        unit: BoundUnit::Steps,
    });
    deadline_shaped(bound, move || proposition(with_past))
}

/// A Boolean combination (`! && || ->`, at most two deep) of the inputs
/// `p q r`, with `with_past` also of small past formulas ([`past_leaf`]).
fn proposition(with_past: bool) -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        3 => (0usize..3).prop_map(|k| expr(ExprKind::Input(k), Ty::Bool)),
        if with_past { 2 } else { 0 } => past_leaf(),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        let b = |kind| expr(kind, Ty::Bool);
        prop_oneof![
            1 => inner.clone().prop_map(move |a| b(ExprKind::Not(boxed(a)))),
            2 => (
                prop::sample::select(vec![BoolOp::And, BoolOp::Or, BoolOp::Implies]),
                inner.clone(),
                inner
            )
                .prop_map(move |(op, x, y)| b(ExprKind::Bool(op, boxed(x), boxed(y)))),
        ]
    })
}

/// `M`, `α -> M`, `G M` or `G (α -> M)` with `M` one of `F G U` over a
/// bound from `bound` (its lower end moved to 0 under `G`) and operands from
/// `operand`.
fn deadline_shaped<O: Strategy<Value = Expr>>(
    bound: impl Strategy<Value = Bound>,
    operand: impl Fn() -> O,
) -> impl Strategy<Value = Expr> {
    let b = |kind| expr(kind, Ty::Bool);
    (
        any::<bool>(),
        prop::option::of(operand()),
        0u8..3,
        bound,
        operand(),
        operand(),
    )
        .prop_map(move |(every, trigger, op, mut bound, lhs, target)| {
            if every {
                bound.hi = bound.hi.map(|hi| hi - bound.lo);
                bound.lo = 0;
            }
            let m = match op {
                0 => b(ExprKind::Unary(
                    UnaryTemporal::Eventually,
                    Some(bound),
                    boxed(target),
                )),
                1 => b(ExprKind::Unary(
                    UnaryTemporal::Globally,
                    Some(bound),
                    boxed(target),
                )),
                _ => b(ExprKind::Binary(
                    BinaryTemporal::Until,
                    Some(bound),
                    boxed(lhs),
                    boxed(target),
                )),
            };
            let body = match trigger {
                Some(t) => b(ExprKind::Bool(BoolOp::Implies, boxed(t), boxed(m))),
                None => m,
            };
            if every {
                b(ExprKind::Unary(UnaryTemporal::Globally, None, boxed(body)))
            } else {
                body
            }
        })
}

/// A random timed spec: past-time properties with duration bounds and timed
/// future-time ones (some `with reset`), in a monitor declaring every input
/// of [`INPUTS`] and then the steps' time `t` (its value last in a step).
#[derive(Clone, Debug)]
pub struct TimedSpec {
    /// The properties' formulas and whether each is declared `with reset`.
    pub properties: Vec<(Expr, bool)>,
}

impl TimedSpec {
    /// The spec as source text of one monitor block named `random`.
    pub fn source(&self) -> String {
        let mut s = monitor_header();
        s += "    time t;\n";
        for (k, (p, reset)) in self.properties.iter().enumerate() {
            let reset = if *reset { " with reset" } else { "" };
            s += &format!("    property f{k} = {}{reset};\n", print(p));
        }
        s + "}\n"
    }
}

/// Strategy for [`TimedSpec`]: one or two past-time properties, then one or
/// two timed future-time ones.
pub fn timed_spec() -> impl Strategy<Value = TimedSpec> {
    (
        prop::collection::vec(timed_past_formula(), 1..3),
        prop::collection::vec((timed_future_formula(), any::<bool>()), 1..3),
    )
        .prop_map(|(past, future)| TimedSpec {
            properties: past.into_iter().map(|p| (p, false)).chain(future).collect(),
        })
}

/// A random timed trace over [`INPUTS`] and the time `t` (microseconds, last
/// in each step) of up to `max_len` steps: times from a random start, each
/// step 0 (equal times), 1, 2, 3 or 14 ticks after the previous, and now and
/// then one tick before it (which no reader passes, and a monitor reads as
/// the last step's time).
pub fn timed_trace(max_len: usize) -> impl Strategy<Value = Vec<Step>> {
    let start = prop::sample::select(vec![0i64, 1_795_510_800_000_000, -3_000_000]);
    let gaps = prop::collection::vec(
        prop::sample::select(vec![0i64, 1, 1, 2, 3, 14, 0, 1, 2, 1, 3, -1]),
        max_len,
    );
    (trace(max_len), start, gaps).prop_map(|(steps, start, gaps)| {
        let mut time = start;
        steps
            .into_iter()
            .zip(gaps)
            .map(|(mut step, gap)| {
                time += gap * TICK as i64;
                step.push(Value::Int(time));
                step
            })
            .collect()
    })
}
