//! The population interpreter on hand-checked traces: the epidemic example,
//! empty groups, early k-of-n decisions, nested past quantifiers, `with reset`
//! on combined properties, refused steps and empty traces.
//! Every expected verdict is worked out by hand in the comments.

use crate::population_support::*;

use hindsight_compiler::hir::{CmpOp, Quantifier, Ty, Value};
use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_compiler::ir::PopulationTables;
use hindsight_compiler::Verdict;
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::ResetCounts;

/// Runs `steps` (agents' attribute rows, globals) and returns the verdicts per step.
fn run(
    it: &mut PopulationInterpreter<'_>,
    steps: &[(Vec<Vec<Value>>, Vec<Value>)],
) -> Vec<Vec<Verdict>> {
    steps
        .iter()
        .map(|(agents, globals)| {
            let flat: Vec<Value> = agents.iter().flatten().copied().collect();
            it.step(agents.len(), &flat, globals).unwrap().to_vec()
        })
        .collect()
}

/// Column `p` of the per-step verdicts.
fn column(verdicts: &[Vec<Verdict>], p: usize) -> Vec<Verdict> {
    verdicts.iter().map(|v| v[p]).collect()
}

fn counts(satisfactions: u64, violations: u64) -> ResetCounts {
    ResetCounts {
        satisfactions,
        violations,
    }
}

/// The example (3 properties) plus groups `males` (2) and six more properties.
fn epidemic_extended() -> hindsight_compiler::hir::Population {
    let mut p = epidemic_example();
    let more = population(
        "x",
        &[],
        &[],
        vec![("males", not(attr(1)))],
        vec![
            // 3
            ("sick_now", quant(Quantifier::Exists, None, attr(0)), false),
            // 4
            (
                "old_female_healthy",
                quant(Quantifier::Forall, Some(1), not(attr(0))),
                false,
            ),
            // 5
            (
                "outbreak_tiny",
                g(cmp(
                    CmpOp::Le,
                    quant(Quantifier::Count, None, attr(0)),
                    int(1),
                )),
                false,
            ),
            // 6
            (
                "males_or_day",
                or(
                    quant(Quantifier::Forall, Some(2), g(not(attr(0)))),
                    f(cmp(CmpOp::Ge, glob(0, Ty::Int), int(5))),
                ),
                false,
            ),
            // 7
            (
                "males_healthy",
                quant(Quantifier::Forall, Some(2), g(not(attr(0)))),
                false,
            ),
            // 8
            (
                "few_sick_females",
                cmp(
                    CmpOp::Le,
                    quant(Quantifier::Count, Some(0), attr(0)),
                    int(1),
                ),
                false,
            ),
        ],
        0,
    );
    p.groups.extend(more.groups);
    p.properties.extend(more.properties);
    p
}

/// The source paper's Figure 1 setting: 4 agents, 2 male 2 female, 6 steps,
/// `day` = step + 1. Agent 0: male, 30, never infected. Agent 1: female, 70,
/// infected from step 1. Agent 2: female, 40, healthy at first, infected from
/// step 3. Agent 3: male, 65, infected at step 5 only.
fn figure1() -> Vec<(Vec<Vec<Value>>, Vec<Value>)> {
    (0..6)
        .map(|s: i64| {
            let agent = |infected: bool, female: bool, age: i64| {
                vec![b(infected), b(female), Value::Int(age)]
            };
            let agents = vec![
                agent(false, false, 30),
                agent(s >= 1, true, 70),
                agent(s >= 3, true, 40),
                agent(s == 5, false, 65),
            ];
            (agents, vec![Value::Int(s + 1)])
        })
        .collect()
}

#[test]
fn the_epidemic_example_on_figure_1() {
    let tables = lowered(&epidemic_extended());
    let mut it = PopulationInterpreter::new(&tables);
    let v = run(&mut it, &figure1());
    // all_females_infected: females {1, 2} fixed at step 0; agent 1's F infected
    // is true from step 1, agent 2's from step 3: forall true at step 3.
    assert_eq!(column(&v, 0), [U, U, U, T, T, T]);
    // outbreak_small: at most 4 infected, never above 10; G never decided.
    assert_eq!(column(&v, 1), [U, U, U, U, U, U]);
    // three_stay_healthy: atleast 3 of 2 females is false at once.
    assert_eq!(column(&v, 2), [F, F, F, F, F, F]);
    // sick_now: nobody infected at step 0, agent 1 from step 1.
    assert_eq!(column(&v, 3), [F, T, T, T, T, T]);
    // old_female_healthy: old females = {1} (agent 3 is old but male).
    assert_eq!(column(&v, 4), [T, F, F, F, F, F]);
    // outbreak_tiny: infected counts 0,1,1,2,2,3: violated at step 3.
    assert_eq!(column(&v, 5), [U, U, U, F, F, F]);
    // males_or_day: F (day >= 5) holds at step 4 (day 5), before the males'
    // G !infected fails (agent 3 at step 5).
    assert_eq!(column(&v, 6), [U, U, U, U, T, T]);
    // males_healthy: males {0, 3}; agent 3 infected at step 5.
    assert_eq!(column(&v, 7), [U, U, U, U, U, F]);
    // few_sick_females: infected females 0,1,1,2,2,2.
    assert_eq!(column(&v, 8), [T, T, T, F, F, F]);
    // End: every female infected; G (count <= 10) held; 2 females < 3; agent
    // 1 sick at the end; agent 1 infected; the count reached 2; day 5 came;
    // agent 3's G !infected failed; 2 sick females at the end.
    assert_eq!(it.finish(), [T, T, F, T, F, F, T, F, F]);
    assert_eq!(it.counts(), vec![ResetCounts::default(); 9]);
    assert_eq!(it.steps(), 6);
    // The count signal after the last step: agents 1, 2, 3 infected.
    assert_eq!(it.signal_values()[0], Value::Int(3));
}

#[test]
fn finish_on_a_truncated_run_counts_undecided_members_by_their_end_verdicts() {
    let tables = lowered(&epidemic_extended());
    let mut it = PopulationInterpreter::new(&tables);
    let trace = figure1();
    run(&mut it, &trace[..2]);
    // After steps 0-1: agent 2 has not been infected, so its F infected ends
    // false and all_females_infected is false; the males' G !infected held
    // (males_healthy true, and so males_or_day though day 2 < 5); the count
    // was 0 then 1, so outbreak_tiny held.
    let end = it.finish();
    assert_eq!(end[0], F);
    assert_eq!(end[7], T);
    assert_eq!(end[6], T);
    assert_eq!(end[5], T);
}

fn reset_population(capacity: usize) -> PopulationTables {
    // attributes flag (0), infected (1); global go; group flagged = flag.
    let body = || f(attr(1));
    lowered(&population(
        "r",
        &[("flag", Ty::Bool), ("infected", Ty::Bool)],
        &[("go", Ty::Bool)],
        vec![("flagged", attr(0))],
        vec![
            (
                "flagged_infected",
                quant(Quantifier::Forall, Some(0), body()),
                true,
            ),
            (
                "gated",
                implies(
                    glob(0, Ty::Bool),
                    quant(Quantifier::Forall, Some(0), body()),
                ),
                true,
            ),
        ],
        capacity,
    ))
}

/// Two agents (flag, infected) and `go`.
fn reset_trace() -> Vec<(Vec<Vec<Value>>, Vec<Value>)> {
    let rows = [
        ((true, false), (false, false), true),
        ((true, true), (true, false), true),
        ((false, true), (true, false), false),
        ((false, false), (false, true), true),
        ((true, false), (false, false), true),
        ((true, false), (false, false), false),
    ];
    rows.iter()
        .map(|&((f0, i0), (f1, i1), go)| {
            (vec![vec![b(f0), b(i0)], vec![b(f1), b(i1)]], vec![b(go)])
        })
        .collect()
}

#[test]
fn with_reset_a_combined_property_recaptures_members_restarts_and_relatches() {
    let tables = reset_population(8);
    let mut it = PopulationInterpreter::new(&tables);
    let v = run(&mut it, &reset_trace());
    // flagged_infected: s0 members {0}, ?; s1 agent 0 infected: true (1st).
    // s2 restart: members {1}, ?; s3 agent 1 infected: true (2nd). s4 restart:
    // members {0} whose automaton restarted (it was true since s2): ?; s5 ?.
    assert_eq!(column(&v, 0), [U, T, U, T, U, U]);
    // gated = !latched(go) || forall: s0 go latched true, forall ?: ?;
    // s1 forall true: true. s2 re-latch go = false: true at once. s3 go true,
    // members {} (nobody flagged): forall over none is true. s4 go true,
    // members {0}: ?; s5 go false is not re-latched: still ?.
    assert_eq!(column(&v, 1), [U, T, T, T, U, U]);
    // End of the unfinished runs (from s4): agent 0 never infected in s4-s5.
    assert_eq!(it.finish(), [F, F]);
    assert_eq!(it.counts(), [counts(2, 1), counts(3, 1)]);
}

#[test]
fn with_reset_a_run_decided_at_the_last_step_ends_with_that_verdict() {
    let tables = reset_population(8);
    let mut it = PopulationInterpreter::new(&tables);
    let v = run(&mut it, &reset_trace()[..4]);
    assert_eq!(column(&v, 0), [U, T, U, T]);
    assert_eq!(it.finish(), [T, T]);
    assert_eq!(it.counts(), [counts(2, 0), counts(3, 0)]);
}

#[test]
fn refused_steps_leave_the_state_unchanged() {
    let tables = reset_population(2);
    let trace = reset_trace();
    let mut it = PopulationInterpreter::new(&tables);
    let three: Vec<Value> = (0..6).map(|_| b(true)).collect();
    assert_eq!(
        it.step(3, &three, &[b(true)]),
        Err(PopulationError::OverCapacity {
            agents: 3,
            capacity: 2
        })
    );
    assert_eq!(it.steps(), 0);
    assert_eq!(it.agents(), None);
    assert_eq!(it.finish(), [U, U]);
    let mut verdicts = run(&mut it, &trace[..1]);
    assert_eq!(
        it.step(1, &[b(true), b(true)], &[b(false)]),
        Err(PopulationError::AgentCountChanged {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        it.step(3, &three, &[b(true)]),
        Err(PopulationError::OverCapacity {
            agents: 3,
            capacity: 2
        })
    );
    assert_eq!(it.steps(), 1);
    verdicts.extend(run(&mut it, &trace[1..]));
    // Exactly the verdicts of the run without refused steps.
    assert_eq!(column(&verdicts, 0), [U, T, U, T, U, U]);
    assert_eq!(column(&verdicts, 1), [U, T, T, T, U, U]);
    assert_eq!(it.counts(), [counts(2, 1), counts(3, 1)]);
}

#[test]
fn reset_starts_a_new_trace_with_any_number_of_agents() {
    let tables = reset_population(8);
    let mut it = PopulationInterpreter::new(&tables);
    run(&mut it, &reset_trace());
    it.reset();
    assert_eq!(it.steps(), 0);
    assert_eq!(it.finish(), [U, U]);
    assert_eq!(it.counts(), [counts(0, 0), counts(0, 0)]);
    // One agent, flagged and infected at once: both properties true.
    assert_eq!(it.step(1, &[b(true), b(true)], &[b(true)]).unwrap(), [T, T]);
    it.reset();
    let v = run(&mut it, &reset_trace());
    assert_eq!(column(&v, 0), [U, T, U, T, U, U]);
}

#[test]
fn finish_on_an_empty_trace_is_unknown() {
    let tables = lowered(&epidemic_extended());
    let it = PopulationInterpreter::new(&tables);
    assert_eq!(it.finish(), vec![U; 9]);
    assert_eq!(it.counts(), vec![ResetCounts::default(); 9]);
    let tables = reset_population(8);
    let it = PopulationInterpreter::new(&tables);
    assert_eq!(it.finish(), [U, U]);
    assert_eq!(it.counts(), [counts(0, 0), counts(0, 0)]);
}

#[test]
fn empty_groups_follow_the_documented_values() {
    // group nobody = agents where x && !x.
    let x = || attr(0);
    let props = vec![
        ("forall", quant(Quantifier::Forall, Some(0), x()), false),
        ("exists", quant(Quantifier::Exists, Some(0), x()), false),
        (
            "count0",
            cmp(CmpOp::Eq, quant(Quantifier::Count, Some(0), tt()), int(0)),
            false,
        ),
        (
            "atleast0",
            quant(Quantifier::AtLeast(0), Some(0), x()),
            false,
        ),
        (
            "atleast1",
            quant(Quantifier::AtLeast(1), Some(0), x()),
            false,
        ),
        ("atmost0", quant(Quantifier::AtMost(0), Some(0), x()), false),
        ("fforall", quant(Quantifier::Forall, Some(0), f(x())), false),
        ("fexists", quant(Quantifier::Exists, Some(0), f(x())), false),
        (
            "fatleast1",
            quant(Quantifier::AtLeast(1), Some(0), g(x())),
            false,
        ),
        (
            "fatmost0",
            quant(Quantifier::AtMost(0), Some(0), f(x())),
            false,
        ),
        ("all_agents", quant(Quantifier::Forall, None, x()), false),
        ("any_agent", quant(Quantifier::Exists, None, f(x())), false),
    ];
    let tables = lowered(&population(
        "e",
        &[("x", Ty::Bool)],
        &[],
        vec![("nobody", and(x(), not(x())))],
        props,
        4,
    ));
    let mut it = PopulationInterpreter::new(&tables);
    // Two agents, x true for both: nobody is in the group anyway.
    let v = it.step(2, &[b(true), b(true)], &[]).unwrap().to_vec();
    // forall T, exists F, count 0, atleast 0 T, atleast 1 F, atmost 0 T (past
    // and future alike); over all agents (both x): forall T, exists F x: T.
    assert_eq!(v, [T, F, T, T, F, T, T, F, F, T, T, T]);
    // Zero agents: every group is empty, `agents` too.
    let mut it = PopulationInterpreter::new(&tables);
    let v = it.step(0, &[], &[]).unwrap().to_vec();
    assert_eq!(v, [T, F, T, T, F, T, T, F, F, T, T, F]);
    assert_eq!(it.finish(), [T, F, T, T, F, T, T, F, F, T, T, F]);
}

#[test]
fn atleast_and_atmost_decide_as_soon_as_the_counts_allow() {
    let tables = lowered(&population(
        "k",
        &[("x", Ty::Bool)],
        &[],
        vec![],
        vec![
            (
                "atleast2",
                quant(Quantifier::AtLeast(2), None, f(attr(0))),
                false,
            ),
            (
                "atmost1",
                quant(Quantifier::AtMost(1), None, f(attr(0))),
                false,
            ),
            (
                "atmost3",
                quant(Quantifier::AtMost(3), None, g(attr(0))),
                false,
            ),
        ],
        4,
    ));
    let mut it = PopulationInterpreter::new(&tables);
    let step = |xs: [bool; 4]| (xs.iter().map(|&x| vec![b(x)]).collect(), vec![]);
    let v = run(
        &mut it,
        &[
            step([false, false, true, true]),
            step([true, true, false, false]),
            step([false, false, false, false]),
        ],
    );
    // s0: agents 2 and 3 have x, so two members' F x are true: atleast 2 true.
    assert_eq!(column(&v, 0), [T, T, T]);
    // atmost 1: two members' F x true at s0: more than 1, false.
    assert_eq!(column(&v, 1), [F, F, F]);
    // atmost 3 of G x: agents 0, 1 fail G x at s0 (x false): 2 falses >= 4 - 3: true.
    assert_eq!(column(&v, 2), [T, T, T]);
    // Now the brief's trace: nobody at s0, agents 0 and 1 at s1, while agents 2
    // and 3 are still undecided.
    let mut it = PopulationInterpreter::new(&tables);
    let v = run(
        &mut it,
        &[
            step([false, false, false, false]),
            step([true, true, false, false]),
            step([false, false, false, false]),
        ],
    );
    assert_eq!(column(&v, 0), [U, T, T]);
    assert_eq!(column(&v, 1), [U, F, F]);
    // atmost 3 of G x: all four fail G x at s0: 4 falses: true.
    assert_eq!(column(&v, 2), [T, T, T]);
    assert_eq!(it.finish(), [T, F, T]);
}

#[test]
fn nested_past_quantifiers_use_per_step_membership_and_agent_history() {
    // attributes infected (0), female (1); group females.
    let inner = quant(Quantifier::Exists, Some(0), attr(0));
    let tables = lowered(&population(
        "n",
        &[("infected", Ty::Bool), ("female", Ty::Bool)],
        &[],
        vec![("females", attr(1))],
        vec![
            ("p", quant(Quantifier::Forall, None, o(inner)), false),
            ("q", quant(Quantifier::Exists, Some(0), o(attr(0))), false),
        ],
        3,
    ));
    let step = |rows: [(bool, bool); 3]| {
        (
            rows.iter().map(|&(i, f)| vec![b(i), b(f)]).collect(),
            vec![],
        )
    };
    let mut it = PopulationInterpreter::new(&tables);
    let v = run(
        &mut it,
        &[
            step([(false, true), (false, false), (false, false)]),
            step([(false, true), (true, false), (false, false)]),
            step([(false, false), (true, true), (false, false)]),
            step([(false, false), (false, false), (false, false)]),
        ],
    );
    // p: inner exists over females: s0 {0} not infected F; s1 {0} F (agent 1
    // is infected but not female); s2 {1} infected T; s3 {} F. O of it: F F T T,
    // the same for every agent, so forall: F F T T.
    assert_eq!(column(&v, 0), [F, F, T, T]);
    // q: females' own O infected: s0 {0} F; s1 {0} F; s2 {1}: agent 1 was
    // infected at s1 and s2: T; s3 nobody is female: F.
    assert_eq!(column(&v, 1), [F, F, T, F]);
    assert_eq!(it.finish(), [T, F]);
}
