//! Which strata are "lane-able": evaluable as bit lanes, 64 agents per `u64`
//! word (the generated code's `codegen/src/population/lanes.rs`
//! documents the evaluation and the state layout).
//!
//! A stratum table is lane-able when it has no automaton and every state cell
//! is one bit (`Y Z O H S`), and each slot falls in one of the
//! [`LaneKind`]s. Signal strata often are; the future-quantifier stratum
//! (automata) never is.

use super::PopulationTables;
use crate::ir::table::{CellKind, Op, SlotId, Source, Table};
use crate::types::Ty;

/// How a slot of a lane-able stratum is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneKind {
    /// Reads only constants, globals and lower strata's signals: once per step.
    Uniform,
    /// A non-bool value of one agent (`a.age`, `a.age + day`): per agent.
    Agent,
    /// A bool attribute, or a comparison of agent/uniform values: one bit per agent.
    Packed,
    /// A Boolean op, a bool comparison or a 1-bit temporal op: word by word.
    Lane,
}

impl PopulationTables {
    /// Per stratum, whether it is lane-able (the generated `step` then
    /// evaluates it as bit lanes, 64 agents per word; the others one agent at
    /// a time).
    pub fn lane_strata(&self) -> Vec<bool> {
        self.strata
            .iter()
            .map(|s| lane_kinds(&s.table, self.attributes.len()).is_some())
            .collect()
    }
}

/// Whether a slot of kind `k` is a bool usable bitwise (a word, or broadcast).
fn bitwise(k: LaneKind) -> bool {
    matches!(k, LaneKind::Uniform | LaneKind::Packed | LaneKind::Lane)
}

fn scalar(k: LaneKind) -> bool {
    matches!(k, LaneKind::Uniform | LaneKind::Agent)
}

/// The kind of each slot of `table` (a stratum table whose first
/// `attributes` inputs are the agent's attributes) when it is lane-able, else
/// `None`.
pub fn lane_kinds(table: &Table, attributes: usize) -> Option<Vec<LaneKind>> {
    if !table.automata.is_empty()
        || table
            .state
            .iter()
            .any(|c| !matches!(c.kind, CellKind::Bool { .. }))
    {
        return None;
    }
    let mut kinds: Vec<LaneKind> = Vec::with_capacity(table.slots.len());
    for (k, slot) in table.enumerate_slots() {
        // Operands name earlier slots (post-order); anything else is refused.
        let of = |a: SlotId| {
            if a < k {
                kinds.get(a.index()).copied()
            } else {
                None
            }
        };
        let ty_of = |a: SlotId| a.get(&table.slots).map(|s| s.ty);
        let both = |a: SlotId, b: SlotId| Some((of(a)?, of(b)?));
        let boolean = |a: LaneKind, b: LaneKind| {
            if a == LaneKind::Uniform && b == LaneKind::Uniform {
                Some(LaneKind::Uniform)
            } else if bitwise(a) && bitwise(b) {
                Some(LaneKind::Lane)
            } else {
                None
            }
        };
        let kind = match slot.op {
            Op::Const(_) => Some(LaneKind::Uniform),
            Op::Input(i) if i < attributes => Some(if slot.ty == Ty::Bool {
                LaneKind::Packed
            } else {
                LaneKind::Agent
            }),
            Op::Input(i) if i < table.inputs.len() => Some(LaneKind::Uniform),
            Op::Input(_) => None,
            Op::Not(a) => match of(a)? {
                LaneKind::Uniform => Some(LaneKind::Uniform),
                LaneKind::Packed | LaneKind::Lane => Some(LaneKind::Lane),
                LaneKind::Agent => None,
            },
            Op::Bool(_, a, b) => both(a, b).and_then(|(a, b)| boolean(a, b)),
            Op::Cmp(_, a, b) if ty_of(a) == Some(Ty::Bool) => {
                both(a, b).and_then(|(a, b)| boolean(a, b))
            }
            Op::Cmp(_, a, b) => match both(a, b)? {
                (LaneKind::Uniform, LaneKind::Uniform) => Some(LaneKind::Uniform),
                (a, b) if scalar(a) && scalar(b) => Some(LaneKind::Packed),
                _ => None,
            },
            Op::Arith(_, a, b) => match both(a, b)? {
                (LaneKind::Uniform, LaneKind::Uniform) => Some(LaneKind::Uniform),
                (a, b) if scalar(a) && scalar(b) => Some(LaneKind::Agent),
                _ => None,
            },
            Op::Neg(a) => match of(a)? {
                LaneKind::Uniform => Some(LaneKind::Uniform),
                LaneKind::Agent => Some(LaneKind::Agent),
                _ => None,
            },
            Op::BoolToInt(a) => (of(a)? == LaneKind::Uniform).then_some(LaneKind::Uniform),
            Op::Temporal(t, c) => {
                let one_bit = c.get(&table.state).is_some_and(|cell| {
                    cell.owner == k && matches!(cell.kind, CellKind::Bool { .. })
                });
                // Every operator with a one-bit cell (`Y Z O H S`) works on
                // bit lanes when its operands do.
                let (a, b) = t.operands();
                let operands_ok = [Some(a), b]
                    .into_iter()
                    .flatten()
                    .all(|k| of(k).is_some_and(bitwise));
                (one_bit && operands_ok).then_some(LaneKind::Lane)
            }
        }?;
        if matches!(kind, LaneKind::Packed | LaneKind::Lane) && slot.ty != Ty::Bool {
            return None;
        }
        kinds.push(kind);
    }
    let outputs_ok = table.outputs.iter().all(|o| match o.source {
        Source::Slot(s) => kinds.get(s.index()).is_some_and(|k| bitwise(*k)),
        Source::Future(_) | Source::Timed(_) => false,
    });
    outputs_ok.then_some(kinds)
}
