//! Independent parts: a formula whose top-level Boolean connectives join
//! sub-formulas over disjoint sets of atoms is monitored as one automaton per
//! part, and the parts' verdicts are combined three-valued at every step.
//!
//! # Why the combined verdict stays exact
//!
//! Let `φ` and `ψ` read disjoint atoms and `u` be a prefix. Continuations of `u`
//! can be chosen for `φ` and for `ψ` independently (each letter is a valuation
//! of the atoms, and the two formulas read different bits of it), so:
//!
//! - `φ ∧ ψ` is violated by every continuation iff `φ` is or `ψ` is, and
//!   satisfied by every continuation iff both are: the LTL3 verdict of `φ ∧ ψ`
//!   is the Kleene conjunction of the parts' verdicts;
//! - dually the verdict of `φ ∨ ψ` is the Kleene disjunction, and of `!φ` the
//!   Kleene negation.
//!
//! The end-of-trace verdicts are two-valued (or unknown for the empty trace, in
//! every part at once) and combine the same way. So a split monitor gives, at
//! every step, exactly the verdicts of the single automaton of the whole
//! formula, while its size is the sum of the parts' sizes instead of (up to)
//! their product: `G F a0 && … && G F a11` is twelve 3-state automata.
//! `<->` is not split (each side would occur twice).

use super::formula::Formula;
use crate::Verdict;
use rustc_hash::FxHashMap as HashMap;

/// How the verdicts of independent parts combine into a formula's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Combination {
    /// The verdict of part `i`.
    Part(usize),
    /// Kleene negation.
    Not(Box<Combination>),
    /// Kleene conjunction (at least two operands).
    And(Vec<Combination>),
    /// Kleene disjunction (at least two operands).
    Or(Vec<Combination>),
}

impl Combination {
    /// The combined verdict, given each part's.
    pub fn verdict(&self, part: &dyn Fn(usize) -> Verdict) -> Verdict {
        match self {
            Combination::Part(i) => part(*i),
            Combination::Not(c) => c.verdict(part).negate(),
            Combination::And(cs) => cs.iter().fold(Verdict::True, |v, c| v.and(c.verdict(part))),
            Combination::Or(cs) => cs.iter().fold(Verdict::False, |v, c| v.or(c.verdict(part))),
        }
    }

    /// The parts it reads, in order of first use.
    pub fn parts(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.visit_parts(&mut |i| out.push(i));
        out
    }

    /// Calls `f` on every part it reads.
    pub fn visit_parts(&self, f: &mut dyn FnMut(usize)) {
        match self {
            Combination::Part(i) => f(*i),
            Combination::Not(c) => c.visit_parts(f),
            Combination::And(cs) | Combination::Or(cs) => {
                cs.iter().for_each(|c| c.visit_parts(f));
            }
        }
    }

    /// The same combination with every part index `i` replaced by `map(i)`.
    pub fn map_parts(&self, map: &dyn Fn(usize) -> usize) -> Combination {
        match self {
            Combination::Part(i) => Combination::Part(map(*i)),
            Combination::Not(c) => Combination::Not(Box::new(c.map_parts(map))),
            Combination::And(cs) => Combination::And(cs.iter().map(|c| c.map_parts(map)).collect()),
            Combination::Or(cs) => Combination::Or(cs.iter().map(|c| c.map_parts(map)).collect()),
        }
    }

    /// The combination in surface syntax, part `i` written `name(i)`.
    pub fn render(&self, name: &dyn Fn(usize) -> String) -> String {
        let join = |cs: &[Combination], op: &str| {
            cs.iter()
                .map(|c| match c {
                    Combination::And(_) | Combination::Or(_) => format!("({})", c.render(name)),
                    _ => c.render(name),
                })
                .collect::<Vec<_>>()
                .join(op)
        };
        match self {
            Combination::Part(i) => name(*i),
            Combination::Not(c) => match **c {
                Combination::Part(_) | Combination::Not(_) => format!("!{}", c.render(name)),
                _ => format!("!({})", c.render(name)),
            },
            Combination::And(cs) => join(cs, " && "),
            Combination::Or(cs) => join(cs, " || "),
        }
    }
}

/// One independent part: a formula over atoms `0..atoms.len()`, where its atom
/// `i` is atom `atoms[i]` of the whole formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The part, over its own atoms.
    pub formula: Formula,
    /// The whole formula's atom for each of the part's atoms.
    pub atoms: Vec<u32>,
}

/// The independent parts of `formula` and how their verdicts combine; a formula
/// without independent parts is one part, combined as `Part(0)`.
pub fn split(formula: &Formula) -> (Vec<Part>, Combination) {
    let mut parts = Vec::new();
    let combination = split_into(formula, &mut parts);
    (parts, combination)
}

fn split_into(f: &Formula, parts: &mut Vec<Part>) -> Combination {
    let whole = |parts: &mut Vec<Part>| {
        parts.push(part(f));
        Combination::Part(parts.len() - 1)
    };
    let conjunction = match f {
        Formula::And(..) => true,
        Formula::Or(..) | Formula::Implies(..) => false,
        Formula::Not(inner) => {
            let mark = parts.len();
            return match split_into(inner, parts) {
                Combination::Part(_) => {
                    parts.truncate(mark);
                    whole(parts)
                }
                c => Combination::Not(Box::new(c)),
            };
        }
        _ => return whole(parts),
    };
    let mut operands = Vec::new();
    flatten(f, conjunction, &mut operands);
    let groups = connected(&operands);
    if groups.len() < 2 {
        return whole(parts);
    }
    let combined = groups
        .iter()
        .map(|group| match group.as_slice() {
            [single] => split_into(single, parts),
            several => {
                let joined = join(several, conjunction);
                parts.push(part(&joined));
                Combination::Part(parts.len() - 1)
            }
        })
        .collect();
    if conjunction {
        Combination::And(combined)
    } else {
        Combination::Or(combined)
    }
}

/// The operands of a chain of `&&` (or of `||` and `->`, `a -> b` read as
/// `!a || b`), left to right.
fn flatten(f: &Formula, conjunction: bool, out: &mut Vec<Formula>) {
    match (f, conjunction) {
        (Formula::And(a, b), true) | (Formula::Or(a, b), false) => {
            flatten(a, conjunction, out);
            flatten(b, conjunction, out);
        }
        (Formula::Implies(a, b), false) => {
            out.push(Formula::Not(a.clone()));
            flatten(b, conjunction, out);
        }
        _ => out.push(f.clone()),
    }
}

/// The operands grouped so that operands sharing an atom are in one group
/// (transitively); operands without atoms, and operands without temporal
/// operators (splitting those off saves nothing and would only make
/// explanations read `!p || (F q)` for `p -> F q`), join the first temporal
/// operand's group. Groups are ordered by their first operand, operands keep
/// their order.
fn connected(operands: &[Formula]) -> Vec<Vec<Formula>> {
    let atoms: Vec<Vec<u32>> = operands.iter().map(atoms_of).collect();
    let temporal: Vec<bool> = operands.iter().map(is_temporal).collect();
    let mut parent: Vec<usize> = (0..operands.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner: HashMap<u32, usize> = HashMap::default();
    let first_temporal = temporal.iter().position(|&t| t);
    for (i, of_i) in atoms.iter().enumerate() {
        let anchor = (of_i.is_empty() || !temporal[i]).then(|| first_temporal.unwrap_or(0));
        for j in of_i
            .iter()
            .filter_map(|a| owner.get(a).copied())
            .chain(anchor)
        {
            let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
            parent[ri.max(rj)] = ri.min(rj);
        }
        for &a in of_i {
            owner.entry(a).or_insert(i);
        }
    }
    let mut groups: Vec<(usize, Vec<Formula>)> = Vec::new();
    for (i, f) in operands.iter().enumerate() {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(f.clone()),
            None => groups.push((r, vec![f.clone()])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

/// Whether `f` has a temporal operator.
fn is_temporal(f: &Formula) -> bool {
    let mut found = false;
    f.visit(&mut |g| {
        found |= !matches!(
            g,
            Formula::True
                | Formula::False
                | Formula::Atom(_)
                | Formula::Not(_)
                | Formula::And(..)
                | Formula::Or(..)
                | Formula::Implies(..)
                | Formula::Iff(..)
        );
    });
    found
}

/// The atoms of `f`, sorted, distinct.
fn atoms_of(f: &Formula) -> Vec<u32> {
    let mut atoms = Vec::new();
    f.visit(&mut |g| {
        if let Formula::Atom(a) = g {
            atoms.push(*a);
        }
    });
    atoms.sort_unstable();
    atoms.dedup();
    atoms
}

/// `a && b && …` (or `||`), left-nested.
fn join(operands: &[Formula], conjunction: bool) -> Formula {
    let mut iter = operands.iter().cloned();
    let first = iter.next().unwrap_or(Formula::True);
    iter.fold(first, |acc, f| {
        if conjunction {
            Formula::And(Box::new(acc), Box::new(f))
        } else {
            Formula::Or(Box::new(acc), Box::new(f))
        }
    })
}

/// `f` as a part: atoms renumbered in order of first appearance.
fn part(f: &Formula) -> Part {
    let mut atoms: Vec<u32> = Vec::new();
    let formula = f.map_atoms(&mut |a| match atoms.iter().position(|&x| x == a) {
        Some(i) => i as u32,
        None => {
            atoms.push(a);
            (atoms.len() - 1) as u32
        }
    });
    Part { formula, atoms }
}
