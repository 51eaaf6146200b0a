//! A slow, obviously-correct evaluator of population properties over a concrete
//! population trace, straight from the semantics of language.md section 4
//! (population) and the lead's decisions. It shares nothing with
//! `hindsight_compiler::population`: it reads the checked HIR directly.
//!
//! - **Past-time formulas** are evaluated by definition at each position:
//!   a quantifier at step `i` takes the members of its group at step `i` (the
//!   group's `member` predicate evaluated on each candidate's own trace at `i`),
//!   evaluates its body on each member's own trace at `i`, and counts; past
//!   operators walk the positions (windows from [`crate::reference::window`]).
//! - **Future-time formulas** get their LTL3 verdict from the brute-force oracle
//!   [`crate::ltl::ltl3`] over lasso continuations, after their *atoms* are
//!   replaced by fresh Boolean inputs whose per-step values are computed here by
//!   direct evaluation. The atoms are what language.md calls them: the
//!   sub-formulas that are neither Boolean connectives nor future operators
//!   (attributes, globals, comparisons, past operators, past-body quantifiers).
//!   In the continuations every atom is a free letter: this is the abstraction
//!   the implementation's automata make (verdicts exact with respect to the
//!   atoms as independent letters), including for past quantifier values, which
//!   are free per-step inputs there too. Atoms are identified up to the
//!   equalities language.md's semantics make obvious (`x != y` is `!(x == y)`,
//!   `x >= y` is `!(x < y)` on ints, `p == q` on formulas is `p <-> q`,
//!   `O[0,0] p` is `p`, `O[1,1] p` is `Y p`, `H[1,1] p` is `Z p`, a window
//!   `[lo,hi]` is the window `[0,hi-lo]` `lo` steps back).
//! - **Future quantifiers** (a quantifier whose body has a future operator, only
//!   under Boolean connectives at the top of a property): members captured at
//!   the run's first step; each member's body gets its LTL3 verdict on that
//!   agent's own word (atoms evaluated on that agent); the quantifier's verdict
//!   is decided when every way of deciding the undecided members gives the same
//!   answer (brute force over the undecided members, [`k_of_n`]). Leaves without
//!   future quantifiers are LTL3 verdicts (future operators) or values latched
//!   at the run's first step (past); everything combines in Kleene logic.
//! - **End of trace**: LTLf ([`crate::ltl::holds_finite`]) per member and per
//!   future leaf, two-valued combination; a past property's value at the last
//!   step; `Unknown` for an empty trace.
//! - **`with reset`**: a decided verdict at step `i` is reported, counted, and
//!   the whole property restarts at `i + 1` (membership recaptured, past leaves
//!   re-latched); the end line counts the unfinished run's end verdict.

use std::collections::HashMap;

use hindsight_compiler::ast::{BinaryTemporal, Span, UnaryTemporal};
use hindsight_compiler::hir::{
    BoolOp, CmpOp, Expr, ExprKind, Population, Quantifier, Spec, Ty, Value,
};
use hindsight_compiler::Verdict;
use hindsight_runtime::ResetCounts;

use crate::ltl::{holds_finite, ltl3, Continuations};
use crate::reference::{arith, bool_op, compare, negate, past, since, Step};

/// A population trace: a fixed number of agents and one [`PopStep`] per step.
#[derive(Clone, Debug, PartialEq)]
pub struct PopTrace {
    /// The number of agents (ids `0..agents`).
    pub agents: usize,
    /// The steps.
    pub steps: Vec<PopStep>,
}

/// One step of a population trace.
#[derive(Clone, Debug, PartialEq)]
pub struct PopStep {
    /// Every agent's attributes, `agents × attributes` values, row-major
    /// (agent 0's attributes first).
    pub attributes: Vec<Value>,
    /// The globals in declaration order.
    pub globals: Vec<Value>,
}

/// Everything the reference says about a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdicts {
    /// Per step, per property.
    pub steps: Vec<Vec<Verdict>>,
    /// The end-of-trace verdict per property.
    pub end: Vec<Verdict>,
    /// Per property: the decided verdicts a `with reset` run counted, including
    /// the end verdict of the unfinished run (zero for other properties).
    pub counts: Vec<ResetCounts>,
}

/// The verdicts of every property of `population` over `trace`: per step, per
/// property, and the end-of-trace verdicts.
pub fn verdicts(
    spec: &Spec,
    population: &Population,
    trace: &PopTrace,
) -> (Vec<Vec<Verdict>>, Vec<Verdict>) {
    let v = verdicts_with_counts(spec, population, trace);
    (v.steps, v.end)
}

/// [`verdicts`] plus the `with reset` counts.
pub fn verdicts_with_counts(_spec: &Spec, population: &Population, trace: &PopTrace) -> Verdicts {
    let eval = Eval {
        pop: population,
        trace,
    };
    let mut oracle = Oracle::default();
    let len = trace.steps.len();
    let mut steps = vec![Vec::new(); len];
    let mut end = Vec::new();
    let mut counts = Vec::new();
    for property in &population.properties {
        let (rows, last, count) = if is_past(&property.formula) {
            let rows: Vec<Verdict> = (0..len)
                .map(|i| Verdict::from(eval.value(&property.formula, None, i).as_bool()))
                .collect();
            let last = rows.last().copied().unwrap_or(Verdict::Unknown);
            (rows, last, ResetCounts::default())
        } else {
            let skeleton = Skeleton::of(&property.formula);
            run_property(&eval, &mut oracle, &skeleton, property.reset)
        };
        for (row, v) in steps.iter_mut().zip(rows) {
            row.push(v);
        }
        end.push(last);
        counts.push(count);
    }
    Verdicts { steps, end, counts }
}

/// Whether `e` is past-time (no future operator anywhere, quantifier bodies included).
fn is_past(e: &Expr) -> bool {
    !e.is_future()
}

/// Whether `e` is a quantifier over a future-time body.
fn is_future_quantifier(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Quant { body, .. } if body.is_future())
}

/// Whether `e` contains a quantifier over a future-time body.
fn has_future_quantifier(e: &Expr) -> bool {
    if is_future_quantifier(e) {
        return true;
    }
    match &e.kind {
        ExprKind::Not(a) | ExprKind::Neg(a) | ExprKind::Unary(_, _, a) => has_future_quantifier(a),
        ExprKind::Bool(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::Arith(_, a, b)
        | ExprKind::Binary(_, _, a, b) => has_future_quantifier(a) || has_future_quantifier(b),
        ExprKind::Quant { body, .. } => has_future_quantifier(body),
        _ => false,
    }
}

/// Direct evaluation of past-time population formulas on the concrete trace.
struct Eval<'a> {
    pop: &'a Population,
    trace: &'a PopTrace,
}

impl Eval<'_> {
    /// The value of the past-time `e` at step `i`, `agent` being the agent the
    /// innermost enclosing quantifier ranges over (`None` at population level).
    fn value(&self, e: &Expr, agent: Option<usize>, i: usize) -> Value {
        let at = |x: &Expr, j: usize| self.value(x, agent, j).as_bool();
        let step = &self.trace.steps[i];
        match &e.kind {
            ExprKind::Const(v) => *v,
            ExprKind::Input(g) => step.globals[*g],
            ExprKind::Attribute(k) => {
                let a = agent.expect("an attribute outside any quantifier");
                step.attributes[a * self.pop.attributes.len() + k]
            }
            ExprKind::Quant {
                quantifier,
                group,
                body,
            } => {
                let members: Vec<usize> = (0..self.trace.agents)
                    .filter(|&a| self.member(*group, a, i))
                    .collect();
                let count = members
                    .iter()
                    .filter(|&&a| self.value(body, Some(a), i).as_bool())
                    .count();
                match quantifier {
                    Quantifier::Count => Value::Int(count as i64),
                    q => Value::Bool(holds(*q, members.len(), count)),
                }
            }
            ExprKind::Not(a) => Value::Bool(!at(a, i)),
            ExprKind::Neg(a) => negate(self.value(a, agent, i)),
            ExprKind::Bool(op, a, b) => Value::Bool(bool_op(*op, at(a, i), at(b, i))),
            ExprKind::Cmp(op, a, b) => Value::Bool(compare(
                *op,
                self.value(a, agent, i),
                self.value(b, agent, i),
            )),
            ExprKind::Arith(op, a, b) => {
                arith(*op, self.value(a, agent, i), self.value(b, agent, i))
            }
            ExprKind::Unary(op, bound, a) => Value::Bool(past(*op, *bound, i, |j| at(a, j))),
            ExprKind::Binary(BinaryTemporal::Since, bound, a, b) => {
                Value::Bool(since(*bound, i, |j| at(a, j), |j| at(b, j)))
            }
            other => panic!("not a past-time population formula: {other:?}"),
        }
    }

    /// Whether agent `a` is a member of `group` (`None`: all agents) at step `i`.
    fn member(&self, group: Option<usize>, a: usize, i: usize) -> bool {
        match group {
            None => true,
            Some(g) => self.value(&self.pop.groups[g].member, Some(a), i).as_bool(),
        }
    }
}

/// Whether `count` true members out of `members` satisfy the quantifier.
/// Empty group: forall true, exists false, atleast k iff k == 0, atmost k true.
pub fn holds(q: Quantifier, members: usize, count: usize) -> bool {
    match q {
        Quantifier::Forall => count == members,
        Quantifier::Exists => count >= 1,
        Quantifier::AtLeast(k) => count as u64 >= k,
        Quantifier::AtMost(k) => count as u64 <= k,
        Quantifier::Count => panic!("count is not a Boolean quantifier"),
    }
}

/// The three-valued verdict of quantifier `q` over its members' three-valued
/// verdicts: decided iff every way of deciding the undecided members (every
/// subset of them turning true, the rest false) gives the same answer.
pub fn k_of_n(q: Quantifier, verdicts: &[Verdict]) -> Verdict {
    let trues = verdicts.iter().filter(|&&v| v == Verdict::True).count();
    let open = verdicts.iter().filter(|&&v| v == Verdict::Unknown).count();
    let (mut some_true, mut some_false) = (false, false);
    for subset in 0u64..1 << open {
        if holds(q, verdicts.len(), trues + subset.count_ones() as usize) {
            some_true = true;
        } else {
            some_false = true;
        }
    }
    match (some_true, some_false) {
        (true, false) => Verdict::True,
        (false, true) => Verdict::False,
        _ => Verdict::Unknown,
    }
}

/// The Boolean structure above a property's future quantifiers.
enum Skeleton<'a> {
    /// A quantifier over a future-time body.
    Quantifier(&'a Expr),
    /// A maximal sub-formula without future quantifiers but with future operators.
    Future(&'a Expr),
    /// A maximal past-time sub-formula, latched at the run's first step.
    Past(&'a Expr),
    Not(Box<Skeleton<'a>>),
    Bool(BoolOp, Box<Skeleton<'a>>, Box<Skeleton<'a>>),
}

impl<'a> Skeleton<'a> {
    /// The skeleton of a property formula that is not past-time.
    fn of(e: &'a Expr) -> Self {
        if is_future_quantifier(e) {
            return Skeleton::Quantifier(e);
        }
        if !has_future_quantifier(e) {
            return if e.is_future() {
                Skeleton::Future(e)
            } else {
                Skeleton::Past(e)
            };
        }
        match &e.kind {
            ExprKind::Not(a) => Skeleton::Not(Box::new(Skeleton::of(a))),
            ExprKind::Bool(op, a, b) => {
                Skeleton::Bool(*op, Box::new(Skeleton::of(a)), Box::new(Skeleton::of(b)))
            }
            _ => panic!("a future quantifier outside the monitorable fragment: {e:?}"),
        }
    }
}

/// Three-valued negation.
fn not(v: Verdict) -> Verdict {
    match v {
        Verdict::True => Verdict::False,
        Verdict::False => Verdict::True,
        Verdict::Unknown => Verdict::Unknown,
    }
}

/// Kleene (three-valued) connectives.
fn kleene(op: BoolOp, x: Verdict, y: Verdict) -> Verdict {
    use Verdict::*;
    let and = |a: Verdict, b: Verdict| match (a, b) {
        (False, _) | (_, False) => False,
        (True, True) => True,
        _ => Unknown,
    };
    let or = |a: Verdict, b: Verdict| not(and(not(a), not(b)));
    match op {
        BoolOp::And => and(x, y),
        BoolOp::Or => or(x, y),
        BoolOp::Implies => or(not(x), y),
        BoolOp::Iff => or(and(x, y), and(not(x), not(y))),
    }
}

/// A future-time formula with its atoms replaced by `Input(k)`.
struct Abstracted<'a> {
    /// The pure future-time formula over Boolean inputs `0..atoms.len()`.
    formula: Expr,
    /// Its text (structure only), for the verdict cache.
    key: String,
    /// Per input: the atom, and whether the letter is the atom's negation (for
    /// `!=`, `>=`, `>` read through their complement).
    atoms: Vec<(&'a Expr, bool)>,
}

/// Builds an [`Abstracted`].
#[derive(Default)]
struct Abstraction<'a> {
    keys: Vec<String>,
    atoms: Vec<(&'a Expr, bool)>,
}

fn node(kind: ExprKind) -> Expr {
    Expr {
        kind,
        ty: Ty::Bool,
        span: Span::default(),
    }
}

impl<'a> Abstraction<'a> {
    fn of(e: &'a Expr) -> Abstracted<'a> {
        let mut me = Abstraction::default();
        let formula = me.rewrite(e);
        Abstracted {
            key: format!("{formula:?}"),
            formula,
            atoms: me.atoms,
        }
    }

    /// The input standing for the atom `e` (whose canonical text is `key`;
    /// `negated`: the letter is `!e`).
    fn atom(&mut self, e: &'a Expr, key: String, negated: bool) -> Expr {
        let k = match self.keys.iter().position(|x| *x == key) {
            Some(k) => k,
            None => {
                self.keys.push(key);
                self.atoms.push((e, negated));
                self.atoms.len() - 1
            }
        };
        node(ExprKind::Input(k))
    }

    fn rewrite(&mut self, e: &'a Expr) -> Expr {
        let mut go = |x: &'a Expr| Box::new(self.rewrite(x));
        match &e.kind {
            ExprKind::Const(Value::Bool(b)) => node(ExprKind::Const(Value::Bool(*b))),
            ExprKind::Not(a) => node(ExprKind::Not(go(a))),
            ExprKind::Bool(op, a, b) => {
                let a = go(a);
                node(ExprKind::Bool(*op, a, go(b)))
            }
            ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) if a.ty == Ty::Bool => {
                let a = go(a);
                let iff = node(ExprKind::Bool(BoolOp::Iff, a, go(b)));
                if *op == CmpOp::Eq {
                    iff
                } else {
                    node(ExprKind::Not(Box::new(iff)))
                }
            }
            _ if !e.is_future() => {
                // `!=`, and `>=` / `>` on totally ordered types, are the negations
                // of `==`, `<`, `<=`: one atom for both forms.
                if let ExprKind::Cmp(op, a, b) = &e.kind {
                    let complement = match (op, a.ty) {
                        (CmpOp::Ne, _) => Some(CmpOp::Eq),
                        (CmpOp::Ge, ty) if ty != Ty::Float => Some(CmpOp::Lt),
                        (CmpOp::Gt, ty) if ty != Ty::Float => Some(CmpOp::Le),
                        _ => None,
                    };
                    if let Some(positive) = complement {
                        let key = format!("cmp{positive:?}({},{})", canon(a), canon(b));
                        let atom = self.atom(e, key, true);
                        // The letter is the positive comparison's value, so the
                        // atom `e` is its negation.
                        return node(ExprKind::Not(Box::new(atom)));
                    }
                }
                self.atom(e, canon(e), false)
            }
            ExprKind::Unary(op, bound, a) => node(ExprKind::Unary(*op, *bound, go(a))),
            ExprKind::Binary(op, bound, a, b) => {
                let a = go(a);
                node(ExprKind::Binary(*op, *bound, a, go(b)))
            }
            other => panic!("not a future-time formula of the fragment: {other:?}"),
        }
    }
}

/// A canonical text of a past-time expression: equal for expressions the
/// semantics makes equal by the identities listed in the module doc.
fn canon(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Const(v) => format!("{v:?}"),
        ExprKind::Input(g) => format!("g{g}"),
        ExprKind::Attribute(k) => format!("a{k}"),
        ExprKind::Quant {
            quantifier,
            group,
            body,
        } => format!("Q{quantifier:?}{group:?}({})", canon(body)),
        ExprKind::Not(a) => format!("!({})", canon(a)),
        ExprKind::Neg(a) => format!("-({})", canon(a)),
        ExprKind::Bool(op, a, b) => format!("{op:?}({},{})", canon(a), canon(b)),
        ExprKind::Cmp(op, a, b) => format!("cmp{op:?}({},{})", canon(a), canon(b)),
        ExprKind::Arith(op, a, b) => format!("{op:?}({},{})", canon(a), canon(b)),
        ExprKind::Unary(op, bound, a) => {
            let a = canon(a);
            let (lo, hi) = lo_hi(*bound);
            match op {
                UnaryTemporal::Yesterday => delayed(a, 1, false),
                UnaryTemporal::WeakYesterday => delayed(a, 1, true),
                UnaryTemporal::Once => windowed("O", delayed(a, lo, false), hi.map(|h| h - lo)),
                UnaryTemporal::Historically => {
                    windowed("H", delayed(a, lo, true), hi.map(|h| h - lo))
                }
                future => panic!("{future:?} in an atom"),
            }
        }
        ExprKind::Binary(BinaryTemporal::Since, bound, l, r) => {
            let (lo, hi) = lo_hi(*bound);
            let (l, r) = (canon(l), canon(r));
            let since = match hi.map(|h| h - lo) {
                None => format!("S({l},{r})"),
                Some(0) => r,
                Some(w) => format!("S{w}({l},{r})"),
            };
            if lo == 0 {
                since
            } else {
                let recent = windowed("H", l, Some(lo - 1));
                format!("And({recent},{})", delayed(since, lo, false))
            }
        }
        other => panic!("not a past-time expression: {other:?}"),
    }
}

fn lo_hi(bound: Option<hindsight_compiler::hir::Bound>) -> (u64, Option<u64>) {
    match bound {
        None => (0, None),
        Some(b) => (b.lo, b.hi),
    }
}

/// `x` exactly `steps` steps ago (`init`: its value before the trace start).
fn delayed(x: String, steps: u64, init: bool) -> String {
    match steps {
        0 => x,
        _ => format!("D{steps},{init}({x})"),
    }
}

/// `O[0,w] x` / `H[0,w] x` (`w == None`: unbounded); a zero-width window is `x`.
fn windowed(op: &str, x: String, width: Option<u64>) -> String {
    match width {
        None => format!("{op}({x})"),
        Some(0) => x,
        Some(w) => format!("{op}{w}({x})"),
    }
}

/// The LTL3 verdicts, memoized by formula and the letters read since the position.
#[derive(Default)]
struct Oracle {
    continuations: HashMap<usize, Continuations>,
    known: HashMap<(String, Vec<u32>), Verdict>,
}

impl Oracle {
    /// The LTL3 verdict at position 0 of `f` after `word` (one Boolean per atom per step).
    fn ltl3(&mut self, f: &Abstracted, word: &[Vec<bool>]) -> Verdict {
        let letters: Vec<u32> = word
            .iter()
            .map(|s| {
                s.iter()
                    .enumerate()
                    .fold(0, |l, (k, &b)| l | u32::from(b) << k)
            })
            .collect();
        let key = (f.key.clone(), letters);
        if let Some(&v) = self.known.get(&key) {
            return v;
        }
        let atoms = f.atoms.len();
        let continuations = self.continuations.entry(atoms).or_insert_with(|| {
            let letters: Vec<Step> = (0..1usize << atoms)
                .map(|l| (0..atoms).map(|k| Value::Bool(l >> k & 1 == 1)).collect())
                .collect();
            let size = if atoms <= 2 { 3 } else { 2 };
            Continuations::new(&letters, size, size)
        });
        let steps = steps_of(word);
        let v = ltl3(&f.formula, &steps, 0, continuations);
        self.known.insert(key, v);
        v
    }
}

fn steps_of(word: &[Vec<bool>]) -> Vec<Step> {
    word.iter()
        .map(|s| s.iter().map(|&b| Value::Bool(b)).collect())
        .collect()
}

/// The letters of `f` from step `from` to `to` (inclusive), atoms evaluated on `agent`.
fn word(
    eval: &Eval,
    f: &Abstracted,
    agent: Option<usize>,
    from: usize,
    to: usize,
) -> Vec<Vec<bool>> {
    (from..=to)
        .map(|j| {
            f.atoms
                .iter()
                .map(|&(atom, negated)| eval.value(atom, agent, j).as_bool() != negated)
                .collect()
        })
        .collect()
}

/// A skeleton with its leaves prepared for one run.
enum Run<'a> {
    Quantifier {
        quantifier: Quantifier,
        body: Abstracted<'a>,
        members: Vec<usize>,
    },
    Future(Abstracted<'a>),
    Latched(bool),
    Not(Box<Run<'a>>),
    Bool(BoolOp, Box<Run<'a>>, Box<Run<'a>>),
}

impl<'a> Run<'a> {
    /// The leaves of `s` for a run starting at step `start`.
    fn start(eval: &Eval, s: &Skeleton<'a>, start: usize) -> Self {
        match s {
            Skeleton::Quantifier(e) => {
                let ExprKind::Quant {
                    quantifier,
                    group,
                    body,
                } = &e.kind
                else {
                    unreachable!()
                };
                Run::Quantifier {
                    quantifier: *quantifier,
                    body: Abstraction::of(body),
                    members: (0..eval.trace.agents)
                        .filter(|&a| eval.member(*group, a, start))
                        .collect(),
                }
            }
            Skeleton::Future(e) => Run::Future(Abstraction::of(e)),
            Skeleton::Past(e) => Run::Latched(eval.value(e, None, start).as_bool()),
            Skeleton::Not(a) => Run::Not(Box::new(Run::start(eval, a, start))),
            Skeleton::Bool(op, a, b) => Run::Bool(
                *op,
                Box::new(Run::start(eval, a, start)),
                Box::new(Run::start(eval, b, start)),
            ),
        }
    }

    /// The LTL3 verdict after the steps `start..=now`.
    fn verdict(&self, eval: &Eval, oracle: &mut Oracle, start: usize, now: usize) -> Verdict {
        match self {
            Run::Quantifier {
                quantifier,
                body,
                members,
            } => {
                let each: Vec<Verdict> = members
                    .iter()
                    .map(|&a| oracle.ltl3(body, &word(eval, body, Some(a), start, now)))
                    .collect();
                k_of_n(*quantifier, &each)
            }
            Run::Future(f) => oracle.ltl3(f, &word(eval, f, None, start, now)),
            Run::Latched(b) => Verdict::from(*b),
            Run::Not(a) => not(a.verdict(eval, oracle, start, now)),
            Run::Bool(op, a, b) => kleene(
                *op,
                a.verdict(eval, oracle, start, now),
                b.verdict(eval, oracle, start, now),
            ),
        }
    }

    /// The end-of-trace (LTLf) value when the trace ends after `last`.
    fn end(&self, eval: &Eval, start: usize, last: usize) -> bool {
        let finite = |f: &Abstracted, agent| {
            holds_finite(&f.formula, &steps_of(&word(eval, f, agent, start, last)), 0)
        };
        match self {
            Run::Quantifier {
                quantifier,
                body,
                members,
            } => {
                let count = members.iter().filter(|&&a| finite(body, Some(a))).count();
                holds(*quantifier, members.len(), count)
            }
            Run::Future(f) => finite(f, None),
            Run::Latched(b) => *b,
            Run::Not(a) => !a.end(eval, start, last),
            Run::Bool(op, a, b) => bool_op(*op, a.end(eval, start, last), b.end(eval, start, last)),
        }
    }
}

/// Per-step verdicts, end verdict and counts of a property that is not past-time.
fn run_property(
    eval: &Eval,
    oracle: &mut Oracle,
    skeleton: &Skeleton,
    reset: bool,
) -> (Vec<Verdict>, Verdict, ResetCounts) {
    let len = eval.trace.steps.len();
    let mut counts = ResetCounts::default();
    let mut rows = Vec::with_capacity(len);
    let mut start = 0;
    let mut run = (len > 0).then(|| Run::start(eval, skeleton, 0));
    for i in 0..len {
        let current = run.get_or_insert_with(|| Run::start(eval, skeleton, start));
        let v = current.verdict(eval, oracle, start, i);
        rows.push(v);
        if reset && v != Verdict::Unknown {
            counts.record(v);
            start = i + 1;
            run = None;
        }
    }
    let end = if len == 0 {
        Verdict::Unknown
    } else if start == len {
        // The run restarted at the very last step: the verdict that ended it.
        rows[len - 1]
    } else {
        let current = run.get_or_insert_with(|| Run::start(eval, skeleton, start));
        let v = Verdict::from(current.end(eval, start, len - 1));
        if reset {
            counts.record(v);
        }
        v
    };
    (rows, end, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_of_n_by_hand() {
        use Verdict::*;
        let forall = Quantifier::Forall;
        assert_eq!(k_of_n(forall, &[]), True);
        assert_eq!(k_of_n(Quantifier::Exists, &[]), False);
        assert_eq!(k_of_n(Quantifier::AtLeast(0), &[]), True);
        assert_eq!(k_of_n(Quantifier::AtLeast(1), &[]), False);
        assert_eq!(k_of_n(Quantifier::AtMost(0), &[]), True);
        assert_eq!(k_of_n(forall, &[True, Unknown]), Unknown);
        assert_eq!(k_of_n(forall, &[False, Unknown]), False);
        assert_eq!(k_of_n(Quantifier::Exists, &[False, Unknown, True]), True);
        // atleast 2 of {T, ?, F}: the open one decides it.
        assert_eq!(
            k_of_n(Quantifier::AtLeast(2), &[True, Unknown, False]),
            Unknown
        );
        // atleast 2 of {T, F, F}: impossible.
        assert_eq!(k_of_n(Quantifier::AtLeast(2), &[True, False, False]), False);
        // atmost 1 of {T, ?, ?}: false as soon as one more is true, so open.
        assert_eq!(
            k_of_n(Quantifier::AtMost(1), &[True, Unknown, Unknown]),
            Unknown
        );
        assert_eq!(k_of_n(Quantifier::AtMost(1), &[True, True, Unknown]), False);
        assert_eq!(k_of_n(Quantifier::AtMost(2), &[True, Unknown, False]), True);
        // More than the members: atleast 4 of 3 is false at once.
        assert_eq!(
            k_of_n(Quantifier::AtLeast(4), &[Unknown, Unknown, Unknown]),
            False
        );
    }

    #[test]
    fn kleene_by_hand() {
        use Verdict::*;
        assert_eq!(kleene(BoolOp::And, False, Unknown), False);
        assert_eq!(kleene(BoolOp::And, True, Unknown), Unknown);
        assert_eq!(kleene(BoolOp::Or, True, Unknown), True);
        assert_eq!(kleene(BoolOp::Implies, False, Unknown), True);
        assert_eq!(kleene(BoolOp::Implies, Unknown, True), True);
        assert_eq!(kleene(BoolOp::Iff, Unknown, True), Unknown);
        assert_eq!(kleene(BoolOp::Iff, False, False), True);
        assert_eq!(kleene(BoolOp::Iff, True, False), False);
    }
}
