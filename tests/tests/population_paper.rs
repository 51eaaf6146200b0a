//! The source paper's qLTL examples (sections 4-6: hierarchical traces,
//! `ForAll`, `ForAgent`, k-of-n satisfaction `kSat`, group attributes) and the
//! issue's examples, on the paper's Figure 1 trace, with verdicts computed by
//! hand and checked against both the reference evaluator and the interpreter.
//!
//! Figure 1: four agents, agents 1 and 2 male, 3 and 4 female, each healthy or
//! infected; "Agent 2 is initially healthy but becomes infected at time 3". The
//! figure's other boxes are not in the text, so this trace invents them
//! (times 0-5; agent k has id k and trace index k-1):
//!
//! ```text
//! time          0 1 2 3 4 5
//! agent 1 (m)   I I I . . .   infected until 2, recovers at 3
//! agent 2 (m)   . . . I I I   infected at 3 (the paper)
//! agent 3 (f)   I I . . . .   infected, recovers at 2
//! agent 4 (f)   . . . . I .   infected at 4 only
//! infected      2 2 1 1 2 1
//! inf. females  1 1 0 0 1 0
//! ```

use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_compiler::{Value, Verdict};
use hindsight_tests::population::{verdicts_with_counts, PopStep, PopTrace, Verdicts};

const SPEC: &str = "
population epidemic {
    agent { id: int, infected: bool, female: bool }
    group males = agents where !female;
    group females = agents where female;
    group agent2 = agents where id == 2;
    group sick_females = females where infected;
    let sick_females_now = count a in females: a.infected;

    // qLTL ForAll(Until(!infected, infected)): every agent stays healthy until infected.
    property forall_until = forall a in agents: !a.infected U a.infected;
    // ForAgent on Agent 2: healthy until infected, and never infected.
    property agent2_until = forall a in agent2: !a.infected U a.infected;
    property agent2_healthy = forall a in agent2: G !a.infected;
    // kSat: at least k agents satisfy the agent formula.
    property ksat2 = atleast 2 a in agents: !a.infected U a.infected;
    property ksat3 = atleast 3 a in agents: !a.infected U a.infected;
    // The number of infected female agents, a group attribute.
    property some_sick_female = sick_females_now >= 1;
    property sick_females_once_two = O (sick_females_now >= 2);
    // Every infected female agent recovers eventually.
    property females_recover = forall a in females: G (a.infected -> F !a.infected);
    property sick_females_recover = forall a in sick_females: F !a.infected;
    // At least three agents of each group stay healthy (each group has two).
    property three_stay_healthy = (atleast 3 a in males: G !a.infected)
                               && (atleast 3 a in females: G !a.infected);
    property one_stays_healthy = (atleast 1 a in males: G !a.infected)
                              && (atleast 1 a in females: G !a.infected);
    // Never more than 10 (or 1, or 2) infected at once.
    property at_most_10 = G ((count a in agents: a.infected) <= 10);
    property at_most_1 = G ((count a in agents: a.infected) <= 1);
    property at_most_2 = G ((count a in agents: a.infected) <= 2);
    // Every female gets infected, checked again after each decision.
    property females_infected = forall a in females: F a.infected with reset;
}
";

/// Per agent (ids 1-4), whether it is infected at times 0-5.
const INFECTED: [&str; 4] = ["111000", "000111", "110000", "000010"];
const FEMALE: [bool; 4] = [false, false, true, true];

fn figure1() -> PopTrace {
    let steps = (0..6)
        .map(|t| PopStep {
            attributes: (0..4)
                .flat_map(|a| {
                    [
                        Value::Int(a as i64 + 1),
                        Value::Bool(INFECTED[a].as_bytes()[t] == b'1'),
                        Value::Bool(FEMALE[a]),
                    ]
                })
                .collect(),
            globals: vec![],
        })
        .collect();
    PopTrace { agents: 4, steps }
}

/// The verdicts of the reference and of the interpreter.
fn both() -> (Vec<String>, Verdicts, Verdicts) {
    let compiled = hindsight_compiler::compile(SPEC)
        .unwrap_or_else(|d| panic!("{}", hindsight_compiler::diag::render("e.hind", SPEC, &d)));
    let trace = figure1();
    let population = &compiled.spec.populations[0];
    let reference = verdicts_with_counts(&compiled.spec, population, &trace);
    let tables = &compiled.program.populations[0];
    let mut interp = PopulationInterpreter::new(tables);
    let steps = trace
        .steps
        .iter()
        .map(|s| interp.step(4, &s.attributes, &s.globals).unwrap().to_vec())
        .collect();
    let tool = Verdicts {
        steps,
        end: interp.finish(),
        counts: interp.counts(),
    };
    let names = population
        .properties
        .iter()
        .map(|p| p.name.clone())
        .collect();
    (names, reference, tool)
}

fn letter(v: Verdict) -> char {
    match v {
        Verdict::True => 'T',
        Verdict::False => 'F',
        Verdict::Unknown => '?',
    }
}

/// Property `name`'s verdicts as `"<steps>/<end>"`, e.g. `"??TTTT/T"`, from
/// the reference and from the interpreter.
fn column(name: &str) -> (String, String) {
    let (names, reference, tool) = both();
    let k = names.iter().position(|n| n == name).unwrap();
    let text = |v: &Verdicts| {
        let steps: String = v.steps.iter().map(|row| letter(row[k])).collect();
        format!("{steps}/{}", letter(v.end[k]))
    };
    (text(&reference), text(&tool))
}

fn expect(name: &str, expected: &str) {
    let (reference, tool) = column(name);
    assert_eq!(reference, expected, "{name}: reference");
    assert_eq!(tool, expected, "{name}: interpreter");
}

/// Agents 1 and 3 are infected at time 0 (true at once), agent 2 at 3, agent 4
/// at 4: the conjunction over all agents is decided at step 4.
#[test]
fn forall_until() {
    expect("forall_until", "????TT/T");
}

/// ForAgent(Agent 2): healthy until infected at time 3.
#[test]
fn for_agent_2() {
    expect("agent2_until", "???TTT/T");
    expect("agent2_healthy", "???FFF/F");
}

/// kSat with k = 2 is met at time 0 (agents 1 and 3); with k = 3 at time 3
/// (agent 2).
#[test]
fn k_of_n_satisfaction() {
    expect("ksat2", "TTTTTT/T");
    expect("ksat3", "???TTT/T");
}

/// The number of infected females per step is 1 1 0 0 1 0: never 2.
#[test]
fn infected_female_count_is_a_group_attribute() {
    expect("some_sick_female", "TTFFTF/F");
    expect("sick_females_once_two", "FFFFFF/F");
}

/// `G (infected -> F !infected)` is never decided by a prefix; at the end both
/// females have recovered (agent 3 at 2, agent 4 at 5). Over the females sick
/// at time 0 (agent 3 only), `F !infected` is met at time 2.
#[test]
fn every_infected_female_recovers() {
    expect("females_recover", "??????/T");
    expect("sick_females_recover", "??TTTT/T");
}

/// Each group has two agents, so "at least three stay healthy" is false at
/// once; "at least one" fails for the males when agent 2 is infected at 3
/// (agent 1 was infected from the start).
#[test]
fn at_least_k_of_each_group_stay_healthy() {
    expect("three_stay_healthy", "FFFFFF/F");
    expect("one_stays_healthy", "???FFF/F");
}

/// At most 2 agents are ever infected at once; 2 are at time 0.
#[test]
fn never_more_than_k_infected() {
    expect("at_most_10", "??????/T");
    expect("at_most_2", "??????/T");
    expect("at_most_1", "FFFFFF/F");
}

/// Run 1 (from 0): agent 3 infected at 0, agent 4 at 4: true at 4, counted.
/// Run 2 (from 5, members recaptured: both females): neither is infected at 5,
/// so the end verdict of the unfinished run is false, counted too.
#[test]
fn reset_recaptures_and_counts() {
    expect("females_infected", "????T?/F");
    let (names, reference, tool) = both();
    let k = names.iter().position(|n| n == "females_infected").unwrap();
    for counts in [reference.counts[k], tool.counts[k]] {
        assert_eq!((counts.satisfactions, counts.violations), (1, 1));
    }
}
