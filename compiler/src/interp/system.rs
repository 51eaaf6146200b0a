//! The executable monitor of one lifeline: the CPL paper's Algorithm 1 over a
//! lowered [`LifelineTable`], run by the [`Interpreter`] (docs/cpl.md,
//! "Algorithm").
//!
//! Every call is one event of the lifeline. A receive first merges the stamp
//! (for every lifeline `M` whose clock component in the stamp is ahead, take
//! the component and `M`'s view entries); then every event ticks the own
//! clock component, applies the store changes, evaluates the table once and
//! writes the lifeline's own view entries. A refused call (a bad stamp or store
//! change) changes nothing.

mod codec;
mod execution;
mod monitors;

pub use codec::LayoutCodec;
pub use execution::{EventKind, Replay, SystemError};
pub use hindsight_runtime::system::MonitorError;
pub use monitors::{Carried, SystemInterpreter};

use crate::interp::Interpreter;
use crate::ir::system::{EntryKind, GuardId, InputSource, LifelineId, LifelineTable, SystemTables};
use crate::types::{Ty, Value};
use crate::Verdict;
use hindsight_runtime::stamp::CLOCK_LIMIT;

/// What one message carries: the sender's vector clock and its view of every
/// entry of the layout, after the send event.
#[derive(Clone, Debug, PartialEq)]
pub struct Stamp {
    /// The [`StampLayout::fingerprint`](crate::ir::system::StampLayout::fingerprint) of the sender's system.
    pub fingerprint: u64,
    /// One component per lifeline: how many of its events the sender has seen.
    pub clock: Vec<u64>,
    /// One value per view entry, in layout order; `None` while undefined (no
    /// owner event seen, or the variable never assigned there).
    pub entries: Vec<Option<Value>>,
}

/// The value input of an undefined variable, and of a formula entry with no
/// owner event visible. The latter reads as false, as the semantics wants; the
/// former is never observed (its defined flag is false) and the interpreter
/// reads it as its type's default.
const UNSET: Value = Value::Bool(false);

/// The monitor of one lifeline of a system.
#[derive(Clone, Debug)]
pub struct LifelineMonitor<'t> {
    system: &'t SystemTables,
    lifeline: &'t LifelineTable,
    me: usize,
    fingerprint: u64,
    interp: Interpreter<'t>,
    clock: Vec<u64>,
    store: Vec<Option<Value>>,
    /// The latest visible value of every view entry (the own entries as of the
    /// last own event).
    views: Vec<Option<Value>>,
    /// The table's inputs at the current event.
    inputs: Vec<Value>,
    /// The owned guards' verdicts after the last event.
    guards: Vec<Verdict>,
}

impl<'t> LifelineMonitor<'t> {
    /// The monitor of lifeline `me` before its first event; `None` if there is no such lifeline.
    pub fn new(system: &'t SystemTables, me: usize) -> Option<Self> {
        let lifeline = system.lifelines.get(me)?;
        Some(LifelineMonitor {
            system,
            lifeline,
            me,
            fingerprint: system.layout.fingerprint(),
            interp: Interpreter::new(&lifeline.table),
            clock: vec![0; system.layout.lifelines.len()],
            store: vec![None; lifeline.vars.len()],
            views: vec![None; system.layout.entries.len()],
            inputs: vec![UNSET; lifeline.inputs.len()],
            guards: vec![Verdict::Unknown; lifeline.guards.len()],
        })
    }

    /// The lifeline's index.
    pub fn lifeline(&self) -> usize {
        self.me
    }

    /// The vector clock: per lifeline, how many of its events are visible here.
    pub fn clock(&self) -> &[u64] {
        &self.clock
    }

    /// The interpreter of the lifeline's table, as of the last event.
    pub fn interpreter(&self) -> &Interpreter<'t> {
        &self.interp
    }

    /// The lifeline's table (its outputs are the owned guards, in order).
    pub fn table(&self) -> &'t crate::ir::table::Table {
        &self.lifeline.table
    }

    /// The guards this lifeline owns.
    pub fn owned_guards(&self) -> &[GuardId] {
        &self.lifeline.guards
    }

    /// The owned guards' verdicts after the last event (`Unknown` before the first).
    pub fn guards(&self) -> &[Verdict] {
        &self.guards
    }

    /// A send event; returns the stamp the message carries.
    pub fn on_send(&mut self, changes: &[(usize, Value)]) -> Result<Stamp, MonitorError> {
        if self
            .clock
            .get(self.me)
            .is_some_and(|&c| c >= CLOCK_LIMIT - 1)
        {
            return Err(MonitorError::ClockSaturated);
        }
        self.event(None, changes)?;
        Ok(Stamp {
            fingerprint: self.fingerprint,
            clock: self.clock.clone(),
            entries: self.views.clone(),
        })
    }

    /// A receive event of a message carrying `stamp`.
    pub fn on_recv(
        &mut self,
        stamp: &Stamp,
        changes: &[(usize, Value)],
    ) -> Result<(), MonitorError> {
        self.event(Some(stamp), changes)
    }

    /// A local action.
    pub fn on_act(&mut self, changes: &[(usize, Value)]) -> Result<(), MonitorError> {
        self.event(None, changes)
    }

    /// A choice: returns the owned guards' verdicts at it.
    pub fn on_choice(&mut self, changes: &[(usize, Value)]) -> Result<&[Verdict], MonitorError> {
        self.event(None, changes)?;
        Ok(&self.guards)
    }

    /// Whether `stamp` may be merged here.
    pub fn check_stamp(&self, stamp: &Stamp) -> Result<(), MonitorError> {
        if stamp.fingerprint != self.fingerprint {
            return Err(MonitorError::ForeignStamp);
        }
        let layout = &self.system.layout;
        let well_typed = stamp
            .entries
            .iter()
            .zip(&layout.entries)
            .all(|(value, entry)| match (value, entry.kind) {
                (None, _) | (Some(Value::Bool(_)), EntryKind::Formula) => true,
                (Some(v), EntryKind::Var { ty, .. }) => self.has_type(*v, ty),
                _ => false,
            });
        if stamp.clock.len() != self.clock.len()
            || stamp.entries.len() != layout.entries.len()
            || stamp.clock.iter().any(|&c| c >= CLOCK_LIMIT)
            || !well_typed
        {
            return Err(MonitorError::MalformedStamp);
        }
        let own = self.clock.get(self.me).copied().unwrap_or(0);
        match stamp.clock.get(self.me) {
            Some(&ahead) if ahead > own => Err(MonitorError::StampAhead { own, stamp: ahead }),
            _ => Ok(()),
        }
    }

    /// One event: merge (receive only), tick, store changes, evaluation, own entries.
    fn event(
        &mut self,
        stamp: Option<&Stamp>,
        changes: &[(usize, Value)],
    ) -> Result<(), MonitorError> {
        self.check_changes(changes)?;
        if let Some(stamp) = stamp {
            self.check_stamp(stamp)?;
            self.merge(stamp);
        }
        if let Some(own) = self.clock.get_mut(self.me) {
            *own = own.saturating_add(1);
        }
        for &(var, value) in changes {
            if let Some(slot) = self.store.get_mut(var) {
                *slot = Some(value);
            }
        }
        self.evaluate();
        Ok(())
    }

    /// Takes the stamp's view of every lifeline it has seen more events of.
    fn merge(&mut self, stamp: &Stamp) {
        let layout = &self.system.layout;
        for (owner, (own, &theirs)) in self.clock.iter_mut().zip(&stamp.clock).enumerate() {
            if theirs > *own {
                *own = theirs;
                let range = layout.owned_positions(LifelineId::new(owner));
                if let (Some(to), Some(from)) =
                    (self.views.get_mut(range.clone()), stamp.entries.get(range))
                {
                    to.copy_from_slice(from);
                }
            }
        }
    }

    /// Evaluates the table on the current store and views; records the guards
    /// and the own view entries.
    fn evaluate(&mut self) {
        for (input, source) in self.inputs.iter_mut().zip(&self.lifeline.inputs) {
            let read = |v: Option<&Option<Value>>| v.copied().flatten();
            *input = match *source {
                InputSource::Var(x) => read(self.store.get(x)).unwrap_or(UNSET),
                InputSource::Defined(x) => Value::Bool(read(self.store.get(x)).is_some()),
                InputSource::Entry(id) => read(self.views.get(id.index())).unwrap_or(UNSET),
                InputSource::EntryDefined(id) => {
                    Value::Bool(read(self.views.get(id.index())).is_some())
                }
            };
        }
        let verdicts = self.interp.step(&self.inputs);
        for (guard, verdict) in self.guards.iter_mut().zip(verdicts) {
            *guard = *verdict;
        }
        let exports = verdicts.iter().skip(self.guards.len());
        for (&id, verdict) in self.lifeline.exports.iter().zip(exports) {
            if let Some(view) = self.views.get_mut(id.index()) {
                *view = Some(Value::Bool(*verdict == Verdict::True));
            }
        }
        let layout = &self.system.layout;
        for id in layout.owned_by(LifelineId::new(self.me)) {
            if let EntryKind::Var { var, .. } = layout.entries[id].kind {
                self.views[id.index()] = self.store.get(var).copied().flatten();
            }
        }
    }

    /// Every change names a variable of this lifeline and has its type.
    fn check_changes(&self, changes: &[(usize, Value)]) -> Result<(), MonitorError> {
        let vars = self
            .system
            .lifelines
            .get(self.me)
            .map_or(&[][..], |l| &l.vars);
        for &(var, value) in changes {
            let decl = vars.get(var).ok_or(MonitorError::UnknownVar(var))?;
            if !self.has_type(value, decl.ty) {
                return Err(MonitorError::WrongType(var));
            }
        }
        Ok(())
    }

    /// Whether `value` is a value of `ty` (an enum index within its variants).
    fn has_type(&self, value: Value, ty: Ty) -> bool {
        match (value, ty) {
            (Value::Bool(_), Ty::Bool)
            | (Value::Int(_), Ty::Int)
            | (Value::Float(_), Ty::Float) => true,
            (Value::Enum(k), Ty::Enum(e)) => self
                .lifeline
                .table
                .enums
                .get(e)
                .is_some_and(|d| (k as usize) < d.variants.len()),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hindsight_runtime::stamp::CLOCK_LIMIT;

    /// 2^63 events cannot be run: start the clock near the limit instead.
    #[test]
    fn a_clock_at_the_limit_refuses_to_send() {
        let compiled = crate::compile("system s { lifeline A { x: int } }").expect("compiles");
        let mut a = LifelineMonitor::new(&compiled.program.systems[0], 0).expect("A");
        a.clock[0] = CLOCK_LIMIT - 2;
        let last = a.on_send(&[]).expect("the last stamp");
        assert_eq!(last.clock, [CLOCK_LIMIT - 1]);
        a.on_act(&[]).expect("events go on");
        assert_eq!(a.on_send(&[]), Err(MonitorError::ClockSaturated));
    }

    /// A forged stamp claiming 2^63 or more events of a lifeline is refused
    /// where it arrives (nothing merged), instead of freezing that component.
    #[test]
    fn a_clock_beyond_the_limit_is_malformed() {
        let compiled = crate::compile("system s { lifeline A { x: int } lifeline B { y: int } }")
            .expect("compiles");
        let mut a = LifelineMonitor::new(&compiled.program.systems[0], 0).expect("A");
        let mut b = LifelineMonitor::new(&compiled.program.systems[0], 1).expect("B");
        let mut forged = a.on_send(&[]).expect("a stamp");
        forged.clock[0] = u64::MAX;
        assert_eq!(b.on_recv(&forged, &[]), Err(MonitorError::MalformedStamp));
        assert_eq!(b.clock(), [0, 0]);
        let genuine = a.on_send(&[]).expect("a stamp");
        b.on_recv(&genuine, &[]).expect("merged");
        assert_eq!(b.clock(), [2, 1]);
    }
}
