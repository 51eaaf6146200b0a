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

use crate::diag::{Diag, Label, Severity};
use crate::hir;
use crate::population::PopulationTables;
use crate::surface::is_compound;
use crate::table::{Automaton, Part, Source, Table};
use crate::Verdict;
use std::collections::VecDeque;

mod population;

pub use population::{future_quantifier_texts, signal_texts};

/// Code of a future-time property that can never be satisfied.
pub const UNSATISFIABLE: &str = "W0101";
/// Code of a future-time property that holds on every trace.
pub const VALID: &str = "W0102";
/// Code of a future-time property with a reachable state no continuation decides.
pub const NOT_MONITORABLE: &str = "W0103";
/// Code of a future-time property that no finite prefix decides.
pub const DECIDED_AT_END: &str = "W0104";

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
            let Source::Automaton(k) = output.source else {
                continue;
            };
            let finding = table.automata.get(k).and_then(examine);
            if let Some(finding) = finding {
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

/// The finding about `automaton`, or `None` when every reachable undecided state
/// can still be decided.
pub fn examine(automaton: &Automaton) -> Option<Finding> {
    match automaton.states.first()?.verdict {
        Verdict::False => return Some(Finding::Unsatisfiable),
        Verdict::True => return Some(Finding::Valid),
        Verdict::Unknown => {}
    }
    let decidable = can_reach_decided(automaton);
    if !decidable.first().copied().unwrap_or(false) {
        return Some(Finding::DecidedAtEnd);
    }
    shortest_prefix_to(automaton, |s| !decidable.get(s).copied().unwrap_or(true))
        .map(|prefix| Finding::NotMonitorable { prefix })
}

/// Per state: whether some path from it reaches a decided state (backward
/// search from the decided states).
fn can_reach_decided(a: &Automaton) -> Vec<bool> {
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
    let mut reached: Vec<bool> = a
        .states
        .iter()
        .map(|s| s.verdict != Verdict::Unknown)
        .collect();
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
fn shortest_prefix_to(a: &Automaton, target: impl Fn(usize) -> bool) -> Option<Vec<u32>> {
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
            UNSATISFIABLE,
            format!("property `{name}` can never be satisfied"),
            "this property can never be satisfied".to_string(),
            "note: no trace satisfies it: its verdict is \"false\" from the first step, whatever the inputs"
                .to_string(),
        ),
        Finding::Valid => (
            Severity::Warning,
            VALID,
            format!("property `{name}` holds on every trace"),
            "this property holds on every trace; it checks nothing".to_string(),
            "note: its verdict is \"true\" from the first step, whatever the inputs".to_string(),
        ),
        Finding::NotMonitorable { prefix } => (
            Severity::Warning,
            NOT_MONITORABLE,
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
            DECIDED_AT_END,
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
