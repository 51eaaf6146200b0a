//! Lowering of future-time properties: the formula's skeleton of Boolean
//! connectives and future operators becomes an LTL3 automaton whose atoms are the
//! remaining sub-formulas (inputs, comparisons, past-time operators), each
//! computed by one slot of the past table.
//!
//! Verdicts are exact with respect to the atoms as independent letters: two
//! atoms the automaton cannot see are related (`x > 3` and `x > 5`, or `p` and
//! `Y p`) are treated as free to take any values, as in every LTL3 monitor over
//! propositions.

use super::Builder;
use crate::diag::{Code, Diag, Label};
use crate::hir::{BoolOp, Bound, BoundUnit, CmpOp, Expr, ExprKind, Ty, Value};
use crate::ir::table::{Automaton, AutomatonState, Part, SlotId};
use crate::ltl3::{self, Budget, Combination, Formula, Ltl3Error};
use crate::surface::{is_compound, Printer};
use hindsight_grammar::ast::{BinaryTemporal, UnaryTemporal};
use std::collections::{BTreeMap, HashMap};

/// A future property lowered: one automaton per independent part, how their
/// verdicts combine (parts index `automata`), and its atoms as explanation parts.
pub(super) struct Lowered {
    pub automata: Vec<Automaton>,
    pub combination: Combination,
    pub parts: Vec<Part>,
}

/// Lowers the future-time `formula`: its atoms into slots of `builder`, its
/// skeleton into minimal LTL3 automata (one per independent part), spending
/// `budget`.
///
/// When a part would read more than [`ltl3::MAX_ATOMS`] atoms, the property
/// is built again with Boolean parts over inputs folded into single atoms
/// (see [`Fold`]): first the folds that keep its verdicts exact, then, if
/// that is not enough, every one. A fold's slot reads the atoms lowered
/// before, so an attempt that failed leaves no slot unused.
pub(super) fn lower(
    builder: &mut Builder<'_>,
    printer: &Printer<'_>,
    formula: &Expr,
    budget: &mut Budget,
) -> Result<Lowered, Diag> {
    let mut fold = Fold::Nothing;
    let mut folded = Folds::new();
    let (built, parts) = loop {
        let mut atoms = Atoms {
            builder: &mut *builder,
            printer,
            parts: Vec::new(),
            folded: &folded,
        };
        let skeleton = atoms.skeleton(formula)?;
        let result = ltl3::Monitor::build_spending(&skeleton, &ltl3::Limits::default(), budget);
        if let (Err(Ltl3Error::TooManyAtoms { .. }), Some(next)) = (&result, fold.next()) {
            let more = atoms.folds(formula, &skeleton, next, budget)?;
            fold = next;
            folded = more;
            continue;
        }
        let built = result
            .map_err(|e| construction_error(e, formula, &atoms.parts, !folded.is_empty()))
            .map_err(|d| {
                if super::timed::has_future_window(formula, BoundUnit::Steps) {
                    unrolled_windows(d)
                } else {
                    d
                }
            })?;
        break (built, atoms.parts);
    };
    let automata = built
        .parts
        .iter()
        .map(|part| {
            // The part's atom `i` is the property's atom `part.atoms[i]`.
            let name = |atom: u32| {
                let whole = part.atoms.get(atom as usize).copied().unwrap_or(atom);
                atom_text(&parts, whole)
            };
            let states = part
                .automaton
                .states
                .iter()
                .map(|s| AutomatonState {
                    verdict: s.verdict,
                    end_verdict: s.end_verdict,
                    residual: s.residual.render(&name),
                })
                .collect();
            let transitions = part
                .automaton
                .transitions
                .iter()
                .flat_map(|row| row.iter().map(|&t| t as u32))
                .collect();
            let atoms = part
                .atoms
                .iter()
                .filter_map(|&a| parts.get(a as usize).map(|p| p.slot))
                .collect();
            Automaton {
                atoms,
                states,
                transitions,
            }
        })
        .collect();
    Ok(Lowered {
        automata,
        combination: built.combination,
        parts,
    })
}

/// The propositional formulas of the past-time `exprs` over shared atoms,
/// as [`lower`] would read them (`None` if one cannot be built). `builder`
/// is left as it was: the atoms are lowered into a copy of it.
pub(super) fn propositions(
    builder: &Builder<'_>,
    printer: &Printer<'_>,
    exprs: &[&Expr],
) -> Option<Vec<Formula>> {
    let mut scratch = builder.clone();
    let nothing = Folds::new();
    let mut atoms = Atoms {
        builder: &mut scratch,
        printer,
        parts: Vec::new(),
        folded: &nothing,
    };
    exprs.iter().map(|e| atoms.skeleton(e).ok()).collect()
}

/// An atom's text, parenthesized when it is not a single token.
fn atom_text(parts: &[Part], atom: u32) -> String {
    match parts.get(atom as usize) {
        Some(p) if is_compound(&p.text) => format!("({})", p.text),
        Some(p) => p.text.clone(),
        None => format!("p{atom}"),
    }
}

/// How much of a future property's Boolean structure over past-time parts
/// is folded. A fold is a past-time connective (`&& || -> <->`, `==`/`!=`
/// between formulas) under the property's future structure read as one atom
/// (one slot of the past table, computed exactly at every step, and one
/// letter of the automaton) or, when it is valid or unsatisfiable, as the
/// constant it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fold {
    /// The skeleton keeps every connective (the default: nothing is lost).
    Nothing,
    /// Folds that keep the verdicts exact: connectives that are valid or
    /// unsatisfiable, as constants; connectives reading at least two atoms,
    /// all of whose occurrences in the property are inside copies of the
    /// same connective, and that are neither, as atoms. Such an atom takes
    /// both values independently of every other letter, as its atoms do.
    Exact,
    /// Besides, every maximal connective (a leading `!` left outside, so
    /// `β` and `!β` stay one atom) reading at least two atoms. Atoms of
    /// folds that share inputs are read as independent, so a verdict may be
    /// decided later than exact LTL3 would decide it, never wrongly (as for
    /// two comparisons of one input, section 4 of docs/language.md).
    Every,
}

impl Fold {
    /// The next, larger, set of folds to try.
    fn next(self) -> Option<Fold> {
        match self {
            Fold::Nothing => Some(Fold::Exact),
            Fold::Exact => Some(Fold::Every),
            Fold::Every => None,
        }
    }
}

/// How a folded connective is read: as an atom, or as the constant it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Folded {
    Atom,
    Constant(bool),
}

/// The folded connectives of one formula, by their node's address (the
/// formula is the same borrowed tree through every attempt).
type Folds = HashMap<*const Expr, Folded>;

/// Whether `e` is a Boolean connective of two formulas.
fn is_binary_connective(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Bool(..) => true,
        ExprKind::Cmp(CmpOp::Eq | CmpOp::Ne, a, _) => a.ty == Ty::Bool,
        _ => false,
    }
}

/// The past-time binary connectives of the future formula `e`, in order:
/// every one (`maximal` false) or only those no other contains, a leading
/// `!` stripped (`maximal` true).
fn connectives<'e>(e: &'e Expr, maximal: bool, out: &mut Vec<&'e Expr>) {
    let past = !e.is_future();
    if past && is_binary_connective(e) {
        out.push(e);
        if maximal {
            return;
        }
    }
    match &e.kind {
        ExprKind::Not(a) | ExprKind::Unary(_, _, a) => connectives(a, maximal, out),
        ExprKind::Bool(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Binary(_, _, a, b) => {
            connectives(a, maximal, out);
            connectives(b, maximal, out);
        }
        _ => {}
    }
}

/// The nodes of `e`, for charging work to the budget.
fn nodes(e: &Expr) -> usize {
    match &e.kind {
        ExprKind::Not(a) | ExprKind::Neg(a) | ExprKind::Unary(_, _, a) => 1 + nodes(a),
        ExprKind::Bool(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::Arith(_, a, b)
        | ExprKind::Binary(_, _, a, b) => 1 + nodes(a) + nodes(b),
        _ => 1,
    }
}

/// How many times each atom occurs in `f`.
fn atom_occurrences(f: &Formula, counts: &mut BTreeMap<u32, usize>) {
    f.visit(&mut |g| {
        if let Formula::Atom(a) = g {
            *counts.entry(*a).or_default() += 1;
        }
    });
}

/// A connective and the copies of it in a formula: its skeleton, how often
/// the copies read each atom, and their nodes.
struct Copies<'e> {
    read: Formula,
    inside: BTreeMap<u32, usize>,
    nodes: Vec<&'e Expr>,
}

struct Atoms<'b, 'm, 'p> {
    builder: &'b mut Builder<'m>,
    printer: &'p Printer<'p>,
    parts: Vec<Part>,
    /// The connectives read as atoms or constants.
    folded: &'b Folds,
}

impl Atoms<'_, '_, '_> {
    /// The folds of `formula` that `fold` makes, given `skeleton`, the
    /// formula as this attempt read it with its folds (none when `fold` is
    /// [`Fold::Exact`]); the work is charged to `budget`.
    fn folds(
        &mut self,
        formula: &Expr,
        skeleton: &Formula,
        fold: Fold,
        budget: &mut Budget,
    ) -> Result<Folds, Diag> {
        let mut candidates = Vec::new();
        connectives(formula, fold == Fold::Every, &mut candidates);
        let failed = |e, parts: &[Part]| construction_error(e, formula, parts, false);
        let out_of_budget = |limit| Ltl3Error::TooMuchWork {
            limit,
            culprit: None,
        };
        // Copies are told apart by their text (the same text is the same
        // sub-formula, lowered to the same slot).
        let mut groups: BTreeMap<String, Copies<'_>> = BTreeMap::new();
        for candidate in candidates {
            if self.folded.contains_key(&std::ptr::from_ref(candidate)) {
                continue;
            }
            if budget.spend(nodes(candidate).saturating_mul(4)).is_err() {
                return Err(failed(out_of_budget(budget.limit()), &self.parts));
            }
            let read = self.skeleton(candidate)?;
            let copies = groups
                .entry(self.printer.text(candidate))
                .or_insert_with(|| Copies {
                    read,
                    inside: BTreeMap::new(),
                    nodes: Vec::new(),
                });
            atom_occurrences(&copies.read, &mut copies.inside);
            copies.nodes.push(candidate);
        }
        let mut everywhere = BTreeMap::new();
        atom_occurrences(skeleton, &mut everywhere);
        let mut folds = self.folded.clone();
        for copies in groups.values() {
            let folded = if fold == Fold::Every {
                (copies.inside.len() >= 2).then_some(Folded::Atom)
            } else {
                let truth = ltl3::truth_spending(&copies.read, budget)
                    .map_err(|e| failed(e, &self.parts))?;
                match truth {
                    Some(ltl3::Truth::Valid) => Some(Folded::Constant(true)),
                    Some(ltl3::Truth::Unsatisfiable) => Some(Folded::Constant(false)),
                    Some(ltl3::Truth::Contingent) => {
                        let alone = copies
                            .inside
                            .iter()
                            .all(|(atom, n)| everywhere.get(atom) == Some(n));
                        (alone && copies.inside.len() >= 2).then_some(Folded::Atom)
                    }
                    None => None,
                }
            };
            if let Some(folded) = folded {
                folds.extend(
                    copies
                        .nodes
                        .iter()
                        .map(|&n| (std::ptr::from_ref(n), folded)),
                );
            }
        }
        Ok(folds)
    }

    /// The atom index of the past sub-formula `e`, lowering it on first use.
    fn atom(&mut self, e: &Expr) -> Result<u32, Diag> {
        let slot: SlotId = self.builder.expr(e)?;
        let index = match self.parts.iter().position(|p| p.slot == slot) {
            Some(i) => i,
            None => {
                self.parts.push(Part {
                    text: self.printer.text(e),
                    slot,
                });
                self.parts.len() - 1
            }
        };
        Ok(index as u32)
    }

    /// The LTL formula of `e`: Boolean connectives and future operators stay
    /// structure (so `p` and `!p` are one atom, and correlations between them are
    /// not lost); every other sub-formula (an input, a comparison, a past-time
    /// operator) is an atom.
    fn skeleton(&mut self, e: &Expr) -> Result<Formula, Diag> {
        match self.folded.get(&std::ptr::from_ref(e)) {
            Some(Folded::Atom) => return Ok(Formula::Atom(self.atom(e)?)),
            Some(Folded::Constant(true)) => return Ok(Formula::True),
            Some(Folded::Constant(false)) => return Ok(Formula::False),
            None => {}
        }
        let mut go = |x: &Expr| self.skeleton(x).map(Box::new);
        Ok(match &e.kind {
            ExprKind::Const(Value::Bool(true)) => Formula::True,
            ExprKind::Const(Value::Bool(false)) => Formula::False,
            ExprKind::Not(a) => Formula::Not(go(a)?),
            ExprKind::Bool(op, a, b) => {
                let (a, b) = (go(a)?, go(b)?);
                match op {
                    BoolOp::And => Formula::And(a, b),
                    BoolOp::Or => Formula::Or(a, b),
                    BoolOp::Implies => Formula::Implies(a, b),
                    BoolOp::Iff => Formula::Iff(a, b),
                }
            }
            // `==` / `!=` between two formulas is `<->` / its negation.
            ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) if a.ty == Ty::Bool => {
                let iff = Formula::Iff(go(a)?, go(b)?);
                match op {
                    CmpOp::Eq => iff,
                    _ => Formula::Not(Box::new(iff)),
                }
            }
            // `a != b` is `!(a == b)` for every type (IEEE included), and on
            // totally ordered types `>=`/`>` are `!(<)`/`!(<=)`: one atom for both
            // forms keeps their correlation visible to the automaton.
            ExprKind::Cmp(op, a, b) if !e.is_future() => {
                let complement = match (op, a.ty) {
                    (CmpOp::Ne, _) => Some(CmpOp::Eq),
                    (CmpOp::Ge, ty) if ty != Ty::Float => Some(CmpOp::Lt),
                    (CmpOp::Gt, ty) if ty != Ty::Float => Some(CmpOp::Le),
                    _ => None,
                };
                match complement {
                    Some(op) => {
                        let positive = Expr {
                            kind: ExprKind::Cmp(op, a.clone(), b.clone()),
                            ty: e.ty,
                            span: e.span,
                        };
                        Formula::Not(Box::new(Formula::Atom(self.atom(&positive)?)))
                    }
                    None => Formula::Atom(self.atom(e)?),
                }
            }
            _ if !e.is_future() => Formula::Atom(self.atom(e)?),
            ExprKind::Unary(op, bound, a) => {
                let body = go(a)?;
                match (op, window(*bound, e)?) {
                    (UnaryTemporal::Next, _) => Formula::Next(body),
                    (UnaryTemporal::Eventually, None) => Formula::Eventually(body),
                    (UnaryTemporal::Eventually, Some((lo, hi))) => {
                        Formula::EventuallyIn { lo, hi, body }
                    }
                    (UnaryTemporal::Globally, None) => Formula::Always(body),
                    (UnaryTemporal::Globally, Some((lo, hi))) => Formula::AlwaysIn { lo, hi, body },
                    _ => return Err(past_over_future(e)),
                }
            }
            ExprKind::Binary(op, bound, a, b) => {
                let (left, right) = (go(a)?, go(b)?);
                match (op, window(*bound, e)?) {
                    (BinaryTemporal::Until, None) => Formula::Until(left, right),
                    (BinaryTemporal::Until, Some((lo, hi))) => Formula::UntilIn {
                        lo,
                        hi,
                        left,
                        right,
                    },
                    (BinaryTemporal::WeakUntil, _) => Formula::WeakUntil(left, right),
                    (BinaryTemporal::Release, _) => Formula::Release(left, right),
                    _ => return Err(past_over_future(e)),
                }
            }
            _ => return Err(past_over_future(e)),
        })
    }
}

/// A future operator's finite window as u32 steps (`None` without a bound).
fn window(bound: Option<Bound>, e: &Expr) -> Result<Option<(u32, u32)>, Diag> {
    let Some(b) = bound else {
        return Ok(None);
    };
    let lo = u32::try_from(b.lo).ok();
    let hi = b.hi.and_then(|h| u32::try_from(h).ok());
    match (lo, hi) {
        (Some(lo), Some(hi)) => Ok(Some((lo, hi))),
        _ => Err(Diag::error()
            .with_code(Code::BoundTooLarge)
            .with_message("bound too large for a future-time monitor")
            .with_labels(vec![Label::primary((), e.span.range())])),
    }
}

/// `d` (a construction error of a property with step windows, unrolled into
/// automaton states) with a note on the shapes whose windows cost nothing.
fn unrolled_windows(mut d: Diag) -> Diag {
    if d.code.as_deref() != Some(Code::AutomatonTooLarge.as_str()) {
        return d;
    }
    let note =
        "note: here each step of a bounded window is a state of the automaton; a window of any \
                length costs one counter when the property is `M`, `α -> M`, `G M` or `G (α -> M)` \
                where `M` is `F[lo,hi] β`, `G[lo,hi] β` or `γ U[lo,hi] β`, `α β γ` are past-time \
                and `lo` is 0 under `G`";
    // Before the closing help.
    let at = d.notes.len().saturating_sub(1);
    d.notes.insert(at, note.to_string());
    d
}

/// A past operator over a future formula: the checker rejects it (E0401), so
/// reaching it here is reported rather than trusted.
pub(super) fn past_over_future(e: &Expr) -> Diag {
    Diag::error()
        .with_code(Code::FutureInPast)
        .with_message("a future-time operator inside a past-time operator cannot be monitored")
        .with_labels(vec![Label::primary((), e.span.range())])
}

/// The diagnostic of `error`, building `formula` with `parts` as atoms
/// (`folded`: some of them are folds).
fn construction_error(error: Ltl3Error, formula: &Expr, parts: &[Part], folded: bool) -> Diag {
    let here = Label::primary((), formula.span.range());
    let name = |atom: u32| atom_text(parts, atom);
    // The sub-formula that cost the most (`most_of` what), if the construction
    // named one, as the first of `notes`.
    let culprit_first = |culprit: Option<Formula>, most_of: &str, notes: Vec<String>| {
        let culprit = culprit.map(|c| {
            format!(
                "note: the sub-formula responsible for {most_of} is `{}`",
                c.render(&name)
            )
        });
        culprit.into_iter().chain(notes).collect::<Vec<_>>()
    };
    match error {
        Ltl3Error::TooManyAtoms { atoms, max } => {
            let folded = if folded {
                ", after its Boolean parts over inputs were each read as one"
            } else {
                ""
            };
            Diag::error()
                .with_code(Code::TooManyAtoms)
                .with_message(format!(
                    "this property reads {atoms} distinct sub-formulas under its future operators{folded}; \
                     a future-time monitor reads at most {max}"
                ))
                .with_labels(vec![here.with_message("too many atoms for one automaton")])
                .with_notes(vec![
                    "note: each sub-formula a future operator reaches (an input, a comparison, a \
                     past-time operator) is a letter of the automaton, which reads all their \
                     combinations at every step"
                        .to_string(),
                    "help: split the property into several properties, each reading fewer of them \
                     (parts joined by `&&` or `||` that share no sub-formula are separate \
                     automata, each with its own limit)"
                        .to_string(),
                ])
        }
        Ltl3Error::TooManyStates { limit, culprit } => Diag::error()
            .with_code(Code::AutomatonTooLarge)
            .with_message(format!(
                "the monitor automaton of this property needs more than {limit} states"
            ))
            .with_labels(vec![here.with_message("automaton too large")])
            .with_notes(culprit_first(
                culprit,
                "most states",
                vec![
                    "help: shorten bounded windows or split the property into several properties"
                        .to_string(),
                ],
            )),
        Ltl3Error::TableTooLarge {
            states,
            atoms,
            limit,
        } => Diag::error()
            .with_code(Code::AutomatonTooLarge)
            .with_message(format!(
                "the monitor automaton of this property has {states} states over {atoms} atoms: its transition table would exceed {limit} entries"
            ))
            .with_labels(vec![here.with_message("automaton too large")])
            .with_notes(vec![
                "help: split the property into several properties, or make its parts read fewer distinct sub-formulas"
                    .to_string(),
            ]),
        Ltl3Error::TooMuchWork { limit, culprit } => Diag::error()
            .with_code(Code::AutomatonTooLarge)
            .with_message("building the monitor automaton of this property takes too much work")
            .with_labels(vec![here.with_message("automaton too expensive to build")])
            .with_notes(culprit_first(
                culprit,
                "most of the work",
                vec![
                    format!(
                        "note: compilation stops after {limit} work units so that every spec compiles in bounded time and memory"
                    ),
                    "help: split the property into several properties, or shorten its bounded windows"
                        .to_string(),
                ],
            )),
        Ltl3Error::InvalidBounds { formula: f, max } => Diag::error()
            .with_code(Code::BoundTooLarge)
            .with_message(format!(
                "bound too large in `{}`: future-time windows are limited to {max} steps",
                f.render(&name)
            ))
            .with_labels(vec![here]),
    }
}
