//! The agent loop: propose, ask the guard, then act or refuse.

use crate::model::ScriptedModel;
use crate::rules::{Area, Monitor, Verdicts};
use crate::world::{ToolCall, World};

/// What the agent did with one proposed call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The guard allowed it and the world ran it.
    Executed,
    /// Running it would have broken these rules, so the agent refused.
    Refused(Vec<&'static str>),
}

/// One proposal and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The proposed call.
    pub call: ToolCall,
    /// Where the truck was when it was proposed.
    pub truck: Area,
    /// What the agent did.
    pub outcome: Outcome,
}

/// The world and the guard that has watched every executed call.
#[derive(Debug, Default)]
pub struct Agent {
    /// The simulated world.
    pub world: World,
    guard: Monitor,
}

impl Agent {
    /// Runs `call` unless the guard says it would break a rule.
    pub fn act(&mut self, call: ToolCall) -> Turn {
        let truck = self.world.truck;
        let input = call.input(truck);
        let broken = broken_rules(&self.guard.peek(&input));
        let outcome = if broken.is_empty() {
            self.world.run(call);
            self.guard.step(&input);
            Outcome::Executed
        } else {
            Outcome::Refused(broken)
        };
        Turn {
            call,
            truck,
            outcome,
        }
    }

    /// Asks `model` for calls until it has none left; returns every turn.
    pub fn run(&mut self, model: &mut ScriptedModel) -> Vec<Turn> {
        std::iter::from_fn(|| model.propose())
            .map(|call| self.act(call))
            .collect()
    }
}

/// The names of the properties that are violated in `verdicts`.
pub fn broken_rules(verdicts: &Verdicts) -> Vec<&'static str> {
    Verdicts::NAMES
        .into_iter()
        .zip(verdicts.to_array())
        .filter(|(_, verdict)| verdict.is_violation())
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{broken_rules, Agent, Outcome};
    use crate::model::{ScriptedModel, SCRIPT};
    use crate::rules::{Area, Monitor};
    use crate::world::{Place, ToolCall};

    /// Worked by hand from the rules and the script (see the comments in `SCRIPT`).
    const REFUSED: [(usize, &[&str]); 5] = [
        (0, &["load_only_in_a1"]),
        (4, &["load_at_most_once"]),
        (6, &["deliver_after_unload", "pkg2_before_pkg1"]),
        (8, &["pkg2_before_pkg1"]),
        (9, &["deliver_after_unload"]),
    ];

    #[test]
    fn the_guard_refuses_exactly_the_rule_breaking_calls() {
        let turns = Agent::default().run(&mut ScriptedModel::default());
        assert_eq!(turns.len(), SCRIPT.len());
        let refused: Vec<(usize, Vec<&str>)> = turns
            .iter()
            .enumerate()
            .filter_map(|(i, turn)| match &turn.outcome {
                Outcome::Refused(rules) => Some((i, rules.clone())),
                Outcome::Executed => None,
            })
            .collect();
        let expected: Vec<(usize, Vec<&str>)> = REFUSED
            .iter()
            .map(|(i, rules)| (*i, rules.to_vec()))
            .collect();
        assert_eq!(refused, expected);
    }

    #[test]
    fn the_executed_trace_never_breaks_a_rule_and_finishes_the_job() {
        let mut agent = Agent::default();
        let turns = agent.run(&mut ScriptedModel::default());
        let mut replay = Monitor::new();
        for turn in turns.iter().filter(|t| t.outcome == Outcome::Executed) {
            let verdicts = replay.step(&turn.call.input(turn.truck));
            assert_eq!(broken_rules(&verdicts), Vec::<&str>::new(), "{}", turn.call);
        }
        assert_eq!(
            replay, agent.guard,
            "the guard saw exactly the executed calls"
        );
        assert_eq!(agent.world.truck, Area::a2);
        assert_eq!(agent.world.packages, [Place::Delivered; 2]);
    }

    #[test]
    fn a_refused_call_leaves_the_guard_and_the_world_alone() {
        let mut agent = Agent::default();
        let (guard, world) = (agent.guard.clone(), agent.world.clone());
        let turn = agent.act(ToolCall::Load(1));
        assert_eq!(turn.outcome, Outcome::Refused(vec!["load_only_in_a1"]));
        assert_eq!((agent.guard, agent.world), (guard, world));
    }
}
