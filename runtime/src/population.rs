//! Support for population monitors: the errors a step can refuse with, the
//! k-of-n decision shared by generated code and the interpreter, and the
//! interface a trace driver steps generated populations through.

use crate::{InputDecl, PropertyDecl, ResetCounts, Value, Verdict};
use core::fmt;

/// Why a population monitor refused a step (its state is unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopulationError {
    /// The step lists more agents than the monitor holds.
    OverCapacity {
        /// Agents in the step.
        agents: usize,
        /// The monitor's capacity.
        capacity: usize,
    },
    /// The number of agents differs from the first step's (agents are fixed for a trace).
    AgentCountChanged {
        /// Agents at the first step.
        expected: usize,
        /// Agents in this step.
        found: usize,
    },
}

impl fmt::Display for PopulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PopulationError::OverCapacity { agents, capacity } => write!(
                f,
                "{agents} agents, but the monitor holds at most {capacity} (its capacity)"
            ),
            PopulationError::AgentCountChanged { expected, found } => write!(
                f,
                "{found} agents, but the trace started with {expected} (the number of agents is fixed for a trace)"
            ),
        }
    }
}

/// A quantifier over members whose bodies have three-valued verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Threshold {
    /// `forall`: every member.
    All,
    /// `exists`: at least one member.
    Any,
    /// `atleast k`: `k` or more members.
    AtLeast(u64),
    /// `atmost k`: `k` or fewer members.
    AtMost(u64),
}

impl Threshold {
    /// Whether [`Threshold::holds`] reads its `members` argument (only
    /// `forall` does, so other quantifiers need not count their members).
    #[inline]
    pub const fn reads_members(self) -> bool {
        matches!(self, Threshold::All)
    }

    /// Whether the quantifier holds when `count` of `members` members satisfy
    /// its body.
    #[inline]
    pub const fn holds(self, count: u64, members: u64) -> bool {
        match self {
            Threshold::All => count == members,
            Threshold::Any => count >= 1,
            Threshold::AtLeast(k) => count >= k,
            Threshold::AtMost(k) => count <= k,
        }
    }

    /// The verdict over `members` members of which `trues` are decided true and
    /// `falses` decided false (the rest undecided), decided as early as the
    /// counts allow: `atleast k` is true once `k` members are true and false once
    /// more than `members - k` are false; `atmost k` is false once more than `k`
    /// are true and true once at least `members - k` are false.
    pub const fn verdict(self, members: u64, trues: u64, falses: u64) -> Verdict {
        match self {
            Threshold::All => Threshold::AtLeast(members).verdict(members, trues, falses),
            Threshold::Any => Threshold::AtLeast(1).verdict(members, trues, falses),
            Threshold::AtLeast(k) => {
                if trues >= k {
                    Verdict::True
                } else if falses > members.saturating_sub(k) || k > members {
                    Verdict::False
                } else {
                    Verdict::Unknown
                }
            }
            Threshold::AtMost(k) => {
                if trues > k {
                    Verdict::False
                } else if falses >= members.saturating_sub(k) {
                    Verdict::True
                } else {
                    Verdict::Unknown
                }
            }
        }
    }
}

/// A population monitor as trace drivers step it, one line at a time, with
/// untyped row-major values: what the interpreter implements, and generated
/// monitors through `hindsight_trace::population::Generated`.
pub trait PopulationStepper {
    /// Back to the state before the first step.
    fn reset(&mut self);

    /// One step: `agents` agents whose attributes are `attributes`
    /// (`agents × attributes` values, row-major, agent 0's first) and the
    /// `globals`; returns the verdicts per property in declaration order.
    /// Refuses (state unchanged) more agents than the capacity or a number
    /// of agents other than the first step's.
    fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<&[Verdict], PopulationError>;

    /// Writes the finite-trace verdicts, per property, into `out`.
    fn finish(&self, out: &mut [Verdict]);

    /// Writes the decided verdicts counted per property (`with reset`) into `out`.
    fn counts(&self, out: &mut [ResetCounts]);
}

/// A generated population monitor as a trace driver steps it: agents and
/// globals built from untyped values, verdicts written into slices.
pub trait PopulationMonitor {
    /// One agent's attributes at one step.
    type Agent: Copy;
    /// One step's globals.
    type Globals;

    /// An agent from its attribute values in declaration order. A missing or
    /// mistyped value reads as its type's default (`false`, `0`, `0.0`, first
    /// variant), as in [`crate::StepMonitor::step_values`].
    fn agent(attributes: &[Value]) -> Self::Agent;

    /// The globals from their values in declaration order (defaults as for
    /// [`PopulationMonitor::agent`]).
    fn globals(values: &[Value]) -> Self::Globals;

    /// Consumes one step and writes one verdict per property into `verdicts`.
    /// Refuses (state unchanged) more agents than the capacity or a number of
    /// agents other than the first step's.
    fn step_values(
        &mut self,
        agents: &[Self::Agent],
        globals: &Self::Globals,
        verdicts: &mut [Verdict],
    ) -> Result<(), PopulationError>;

    /// Writes the finite-trace verdicts (the trace ended after the last step).
    fn finish_values(&self, verdicts: &mut [Verdict]);

    /// Writes, per property, the decided verdicts counted by a `with reset`
    /// property, including its unfinished run's end verdict (zero for others).
    fn finish_counts(&self, counts: &mut [ResetCounts]);

    /// Back to the state before the first step.
    fn reset(&mut self);
}

/// What a generated population reads and reports: enough for a generic trace
/// runner to decode steps and name verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PopulationSchema {
    /// The population block's name.
    pub population: &'static str,
    /// The agents' attributes in declaration order.
    pub attributes: &'static [InputDecl],
    /// The globals in declaration order.
    pub globals: &'static [InputDecl],
    /// The global that is the steps' time (an `int` of microseconds, read
    /// from a number of seconds or an RFC 3339 string), if any.
    pub time: Option<usize>,
    /// The spec's capacity: the most agents a step may list.
    pub capacity: usize,
    /// The properties in declaration order.
    pub properties: &'static [PropertyDecl],
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: the verdict is decided exactly when every way of
    /// deciding the undecided members gives the same answer.
    fn brute(t: Threshold, members: u64, trues: u64, falses: u64) -> Verdict {
        let holds = |count: u64| match t {
            Threshold::All => count == members,
            Threshold::Any => count >= 1,
            Threshold::AtLeast(k) => count >= k,
            Threshold::AtMost(k) => count <= k,
        };
        let open = members - trues - falses;
        if (0..=open).all(|extra| holds(trues + extra)) {
            Verdict::True
        } else if (0..=open).all(|extra| !holds(trues + extra)) {
            Verdict::False
        } else {
            Verdict::Unknown
        }
    }

    #[test]
    fn early_decision_equals_the_definition() {
        for members in 0..7u64 {
            for trues in 0..=members {
                for falses in 0..=members - trues {
                    let ks = (0..9).flat_map(|k| [Threshold::AtLeast(k), Threshold::AtMost(k)]);
                    for t in [Threshold::All, Threshold::Any].into_iter().chain(ks) {
                        assert_eq!(
                            t.verdict(members, trues, falses),
                            brute(t, members, trues, falses),
                            "{t:?} over {members} members, {trues} true, {falses} false"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn messages_state_the_capacity() {
        use core::fmt::Write;
        struct Buf([u8; 160], usize);
        impl Write for Buf {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                let end = self.1 + s.len();
                self.0
                    .get_mut(self.1..end)
                    .ok_or(fmt::Error)?
                    .copy_from_slice(s.as_bytes());
                self.1 = end;
                Ok(())
            }
        }
        let mut buf = Buf([0; 160], 0);
        let e = PopulationError::OverCapacity {
            agents: 70,
            capacity: 64,
        };
        write!(buf, "{e}").unwrap();
        assert_eq!(
            core::str::from_utf8(&buf.0[..buf.1]).unwrap(),
            "70 agents, but the monitor holds at most 64 (its capacity)"
        );
    }
}
