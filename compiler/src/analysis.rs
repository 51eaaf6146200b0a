//! Compile-time analysis of future-time properties, run on their automata after
//! lowering. Each finding becomes a diagnostic on the property's declaration:
//!
//! | code | severity | finding |
//! |---|---|---|
//! | W0101 | warning | the property can never be satisfied (initial verdict `false`) |
//! | W0102 | warning | the property holds on every trace (initial verdict `true`): it checks nothing |
//! | W0103 | warning | some prefix (the shortest is shown) reaches a state that no continuation can decide, while other prefixes do decide |
//! | W0104 | note | no prefix ever decides the property: its verdict is `?` at every step and only the end of the trace decides it |
//!
//! Why W0104 is only a note: a property such as `G (request -> F grant)` (the
//! Response pattern) can neither be violated nor satisfied by a finite prefix,
//! yet it is a legitimate, common rule whose value is its end-of-trace verdict.
//! The note tells the author that the step verdicts will all be `?`; W0103 stays
//! a warning because a monitor that decides on some prefixes and silently stops
//! deciding after others is usually a surprise.
//!
//! Population properties get the same findings ([`analyze_populations`]): a
//! property of the population's top table exactly as a monitor property, and
//! a quantifier over a future-time body whose body is unsatisfiable or valid
//! W0101/W0102 saying what that makes of the quantifier.
//!
//! The analysis is two breadth-first searches over the automaton (linear in its
//! transitions) and never panics, even on a malformed automaton.

use crate::diag::{Code, Diag, Label, Severity};
use crate::hir;
use crate::ir::population::PopulationTables;
use crate::ir::table::{Automaton, AutomatonId, Combination, FutureId, Part, Source, Table};
use crate::surface::is_compound;
use crate::Verdict;
use std::collections::VecDeque;

pub mod partitions;
mod population;

pub use population::{future_quantifier_texts, signal_texts};

/// What the analysis finds out about one automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The initial state's verdict is `False`.
    Unsatisfiable,
    /// The initial state's verdict is `True`.
    Valid,
    /// A decided state is reachable, but so is a state from which none is.
    NotMonitorable {
        /// The letters of a shortest prefix reaching such a state.
        prefix: Vec<u32>,
    },
    /// No decided state is reachable at all.
    DecidedAtEnd,
}

/// The diagnostics for every future-time property of `spec`, whose monitors
/// were lowered into `tables` (one per monitor, in order).
pub fn analyze(spec: &hir::Spec, tables: &[Table]) -> Vec<Diag> {
    let mut diags = Vec::new();
    for (monitor, table) in spec.monitors.iter().zip(tables) {
        for (property, output) in monitor.properties.iter().zip(&table.outputs) {
            let Source::Future(f) = output.source else {
                continue;
            };
            if let Some(finding) = examine(table, f, &output.parts) {
                diags.push(diagnostic(property, &output.parts, &finding));
            }
        }
    }
    diags
}

/// The diagnostics for the population properties of `spec`, whose
/// populations were lowered into `populations` (one per population, in
/// order); `source` is the spec's text, which the messages quote.
pub fn analyze_populations(
    spec: &hir::Spec,
    populations: &[PopulationTables],
    source: &str,
) -> Vec<Diag> {
    spec.populations
        .iter()
        .zip(populations)
        .flat_map(|(population, tables)| population::analyze(population, tables, source))
        .collect()
}

/// The finding about future `f` of `table` (a property whose atoms are
/// `parts`), or `None` when every reachable undecided state can still be
/// decided. A prefix is given as letters over `parts` (bit `i` = part `i`).
///
/// A property split into automata over disjoint atoms is examined without
/// building their product: each automaton's regions (decided true, decided
/// false, can no longer become true, can no longer become false) are closed
/// under successors, and letters can be chosen for each automaton
/// independently, so a combination reaches a region iff its operands reach the
/// right regions, each by its own shortest prefix, padded to the longest.
pub fn examine(table: &Table, f: FutureId, parts: &[Part]) -> Option<Finding> {
    let future = f.get(&table.futures)?;
    let malformed = |a: &AutomatonId| a.get(&table.automata).is_none_or(|a| a.states.is_empty());
    if future.automata.iter().any(malformed) {
        return None;
    }
    let initial = future.verdict(&|a| {
        a.get(&table.automata)
            .and_then(|automaton| automaton.states.first())
            .map_or(Verdict::Unknown, |s| s.verdict)
    });
    match initial {
        Verdict::False => return Some(Finding::Unsatisfiable),
        Verdict::True => return Some(Finding::Valid),
        Verdict::Unknown => {}
    }
    let reach = regions(table, &future.combination, parts)?;
    if reach.decided_true.is_none() && reach.decided_false.is_none() {
        return Some(Finding::DecidedAtEnd);
    }
    reach
        .undecidable
        .map(|prefix| Finding::NotMonitorable { prefix })
}

/// Shortest prefixes (letters over the property's parts) from the initial
/// states into each region of a combination; `None` where unreachable.
struct Regions {
    decided_true: Option<Vec<u32>>,
    decided_false: Option<Vec<u32>>,
    never_true: Option<Vec<u32>>,
    never_false: Option<Vec<u32>>,
    /// Never true and never false: no continuation decides it.
    undecidable: Option<Vec<u32>>,
}

fn regions(table: &Table, c: &Combination, parts: &[Part]) -> Option<Regions> {
    Some(match c {
        Combination::Part(a) => automaton_regions(table.automata.get(*a)?, parts),
        Combination::Not(inner) => {
            let r = regions(table, inner, parts)?;
            Regions {
                decided_true: r.decided_false,
                decided_false: r.decided_true,
                never_true: r.never_false,
                never_false: r.never_true,
                undecidable: r.undecidable,
            }
        }
        Combination::And(cs) | Combination::Or(cs) => {
            let rs = cs
                .iter()
                .map(|c| regions(table, c, parts))
                .collect::<Option<Vec<_>>>()?;
            let conjunction = matches!(c, Combination::And(_));
            // `∧` is true when all are, false when one is, never true when one
            // is, never false when all are; `∨` the other way round.
            let all = |get: fn(&Regions) -> &Option<Vec<u32>>| both(rs.iter().map(get));
            let any =
                |get: fn(&Regions) -> &Option<Vec<u32>>| shortest(rs.iter().map(get).cloned());
            let (t, f, nt, nf) = if conjunction {
                (
                    all(|r| &r.decided_true),
                    any(|r| &r.decided_false),
                    any(|r| &r.never_true),
                    all(|r| &r.never_false),
                )
            } else {
                (
                    any(|r| &r.decided_true),
                    all(|r| &r.decided_false),
                    all(|r| &r.never_true),
                    any(|r| &r.never_false),
                )
            };
            // Undecidable: one operand undecidable, every other unable to
            // decide the whole (never false under `∧`, never true under `∨`).
            let undecidable = shortest((0..rs.len()).map(|j| {
                both(
                    rs.iter()
                        .enumerate()
                        .map(|(i, r)| match (i == j, conjunction) {
                            (true, _) => &r.undecidable,
                            (false, true) => &r.never_false,
                            (false, false) => &r.never_true,
                        }),
                )
            }));
            Regions {
                decided_true: t,
                decided_false: f,
                never_true: nt,
                never_false: nf,
                undecidable,
            }
        }
    })
}

/// The prefix reaching every region at once (operands read disjoint atoms and
/// regions are closed: the letters are merged, shorter prefixes padded).
fn both<'a>(prefixes: impl Iterator<Item = &'a Option<Vec<u32>>>) -> Option<Vec<u32>> {
    let mut merged: Vec<u32> = Vec::new();
    for p in prefixes {
        let p = p.as_ref()?;
        if p.len() > merged.len() {
            merged.resize(p.len(), 0);
        }
        for (m, l) in merged.iter_mut().zip(p) {
            *m |= l;
        }
    }
    Some(merged)
}

/// The shortest of the prefixes (the first of equal length).
fn shortest(prefixes: impl Iterator<Item = Option<Vec<u32>>>) -> Option<Vec<u32>> {
    prefixes.flatten().min_by_key(Vec::len)
}

/// The regions of one automaton, prefixes translated to letters over `parts`.
fn automaton_regions(a: &Automaton, parts: &[Part]) -> Regions {
    let verdict = |s: usize, v: Verdict| a.states.get(s).is_some_and(|st| st.verdict == v);
    let can_true = can_reach(a, |s| verdict(s, Verdict::True));
    let can_false = can_reach(a, |s| verdict(s, Verdict::False));
    let never = |can: &[bool], s: usize| !can.get(s).copied().unwrap_or(true);
    let to_parts = |prefix: Vec<u32>| {
        prefix
            .into_iter()
            .map(|letter| {
                a.atoms.iter().enumerate().fold(0u32, |l, (i, slot)| {
                    let bit = (letter >> i) & 1;
                    match parts.iter().position(|p| p.slot == *slot) {
                        Some(j) if j < 32 => l | (bit << j),
                        _ => l,
                    }
                })
            })
            .collect()
    };
    let to = |target: &dyn Fn(usize) -> bool| shortest_prefix_to(a, target).map(to_parts);
    Regions {
        decided_true: to(&|s| verdict(s, Verdict::True)),
        decided_false: to(&|s| verdict(s, Verdict::False)),
        never_true: to(&|s| never(&can_true, s)),
        never_false: to(&|s| never(&can_false, s)),
        undecidable: to(&|s| never(&can_true, s) && never(&can_false, s)),
    }
}

/// Per state: whether some path from it reaches a state satisfying `target`
/// (backward search from those states).
fn can_reach(a: &Automaton, target: impl Fn(usize) -> bool) -> Vec<bool> {
    let n = a.states.len();
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for s in 0..n {
        let mut successors = row(a, s).to_vec();
        successors.sort_unstable();
        successors.dedup();
        for t in successors {
            if let Some(p) = predecessors.get_mut(t as usize) {
                p.push(s);
            }
        }
    }
    let mut reached: Vec<bool> = (0..n).map(&target).collect();
    let mut queue: VecDeque<usize> = (0..n).filter(|&s| reached[s]).collect();
    while let Some(t) = queue.pop_front() {
        for &s in predecessors.get(t).map_or(&[][..], Vec::as_slice) {
            if let Some(r) = reached.get_mut(s) {
                if !*r {
                    *r = true;
                    queue.push_back(s);
                }
            }
        }
    }
    reached
}

/// The letters of a shortest path from state 0 to a state satisfying `target`
/// (forward breadth-first search), or `None` if no such state is reachable.
fn shortest_prefix_to(a: &Automaton, target: &dyn Fn(usize) -> bool) -> Option<Vec<u32>> {
    let n = a.states.len();
    let mut parent: Vec<Option<(usize, u32)>> = vec![None; n];
    let mut seen = vec![false; n];
    *seen.first_mut()? = true;
    let mut queue = VecDeque::from([0usize]);
    while let Some(s) = queue.pop_front() {
        if target(s) {
            let mut prefix = Vec::new();
            let mut at = s;
            while let Some(Some((from, letter))) = parent.get(at) {
                prefix.push(*letter);
                at = *from;
            }
            prefix.reverse();
            return Some(prefix);
        }
        for (letter, &t) in row(a, s).iter().enumerate() {
            let t = t as usize;
            if seen.get(t) == Some(&false) {
                seen[t] = true;
                parent[t] = Some((s, letter as u32));
                queue.push_back(t);
            }
        }
    }
    None
}

/// The successors of state `s`, one per letter (empty if out of range).
fn row(a: &Automaton, s: usize) -> &[u32] {
    let letters = a.letters();
    s.checked_mul(letters)
        .and_then(|start| a.transitions.get(start..start.checked_add(letters)?))
        .unwrap_or(&[])
}

/// `after [a, !b] then [!a, b]`: each letter as the values of the atoms, whose
/// texts are `parts`.
pub fn prefix_text(prefix: &[u32], parts: &[Part]) -> String {
    let letters: Vec<String> = prefix.iter().map(|&l| letter_text(l, parts)).collect();
    format!("after {}", letters.join(" then "))
}

/// `[a, !b]`: atom `i` (text `parts[i]`) negated when bit `i` of `letter` is clear.
fn letter_text(letter: u32, parts: &[Part]) -> String {
    let literals: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let set = i < 32 && letter & (1 << i) != 0;
            match (set, is_compound(&part.text)) {
                (true, _) => part.text.clone(),
                (false, true) => format!("!({})", part.text),
                (false, false) => format!("!{}", part.text),
            }
        })
        .collect();
    format!("[{}]", literals.join(", "))
}

/// The diagnostic of `finding` on `property`, whose automaton's atoms are `parts`.
fn diagnostic(property: &hir::Property, parts: &[Part], finding: &Finding) -> Diag {
    let name = &property.name;
    let (severity, code, message, label, note) = match finding {
        Finding::Unsatisfiable => (
            Severity::Warning,
            Code::Unsatisfiable,
            format!("property `{name}` can never be satisfied"),
            "this property can never be satisfied".to_string(),
            "note: no trace satisfies it: its verdict is \"false\" from the first step, whatever the inputs"
                .to_string(),
        ),
        Finding::Valid => (
            Severity::Warning,
            Code::Valid,
            format!("property `{name}` holds on every trace"),
            "this property holds on every trace; it checks nothing".to_string(),
            "note: its verdict is \"true\" from the first step, whatever the inputs".to_string(),
        ),
        Finding::NotMonitorable { prefix } => (
            Severity::Warning,
            Code::NotMonitorable,
            format!("property `{name}` can reach a state that no continuation decides"),
            format!(
                "{}, no continuation can decide it",
                prefix_text(prefix, parts)
            ),
            "note: from there its verdict stays \"?\" at every step; it is only decided at the end \
             of the trace (the `end` line)"
                .to_string(),
        ),
        Finding::DecidedAtEnd => (
            Severity::Note,
            Code::DecidedAtEnd,
            format!("property `{name}` is decided only at the end of the trace"),
            "no finite prefix can decide this property".to_string(),
            "note: its verdict is \"?\" at every step and only decided at the end of the \
             trace (the `end` line), because every prefix can still be continued both to \
             satisfy and to violate it; this is expected of response rules such as \
             `G (request -> F grant)`"
                .to_string(),
        ),
    };
    Diag::new(severity)
        .with_code(code)
        .with_message(message)
        .with_labels(vec![
            Label::primary((), property.span.range()).with_message(label)
        ])
        .with_notes(vec![note])
}
