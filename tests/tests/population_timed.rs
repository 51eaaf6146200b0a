//! A population with duration bounds (tests/population/specs/timed.hind)
//! against its expansion over three agents written as a monitor, whose
//! verdicts the timed differential tests check against the textbook
//! semantics: the same verdicts, finite-trace verdicts and reset counts after
//! every step of random timestamped traces (times rising by quarter seconds,
//! equal now and then, going back a quarter now and then).

use hindsight_compiler::interp::{Interpreter, PopulationInterpreter};
use hindsight_compiler::Verdict;
use hindsight_runtime::Value;
use proptest::prelude::*;

const POPULATION: &str = include_str!("../population/specs/timed.hind");

/// The population expanded over agents 0, 1 and 2 by hand: `forall` is a
/// conjunction, `exists` a disjunction, `atleast 2` a disjunction of pairs,
/// the group's predicate a `let` per agent.
const EXPANDED: &str = "
monitor timed {
    input sick0: bool; input treated0: bool;
    input sick1: bool; input treated1: bool;
    input sick2: bool; input treated2: bool;
    time ts;
    input alarm: bool;
    let lately0 = O[0, 1s] sick0;
    let lately1 = O[0, 1s] sick1;
    let lately2 = O[0, 1s] sick2;
    let held0 = lately0 && (H[0, 1s] !treated0 || sick0);
    let held1 = lately1 && (H[0, 1s] !treated1 || sick1);
    let held2 = lately2 && (H[0, 1s] !treated2 || sick2);
    property treated_after_sick = (treated0 -> O[0, 2s] sick0)
        && (treated1 -> O[0, 2s] sick1) && (treated2 -> O[0, 2s] sick2);
    property settled = O[500ms, 1500ms] sick0 || O[500ms, 1500ms] sick1
        || O[500ms, 1500ms] sick2;
    property held = (held0 && held1) || (held0 && held2) || (held1 && held2);
    property alarm_clears = G (alarm -> F[0, 1s] !alarm) with reset;
    property quiet = alarm -> H[0, 750ms] !(sick0 || sick1 || sick2);
    // `forall a in agents: G (a.sick -> F[0, 1s] a.treated)`, one property
    // per agent (one timed pattern per property), combined below.
    property recovers0 = G (sick0 -> F[0, 1s] treated0);
    property recovers1 = G (sick1 -> F[0, 1s] treated1);
    property recovers2 = G (sick2 -> F[0, 1s] treated2);
}
";

/// The population's verdicts from the expansion's: the first five as they
/// are, `recovers` the Kleene conjunction of the three agents' (a `forall`
/// decides false as soon as one agent does, true when all do).
fn combined<T: Copy>(expanded: &[T], and: impl Fn(T, T) -> T) -> Vec<T> {
    let mut out = expanded[..5].to_vec();
    out.push(and(and(expanded[5], expanded[6]), expanded[7]));
    out
}

/// One step: three agents' `(sick, treated)`, a time step in quarter seconds
/// (-1 to 4) and the alarm.
type Step = ([(bool, bool); 3], i64, bool);

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec((any::<[(bool, bool); 3]>(), -1i64..5, any::<bool>()), 0..20)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn a_timed_population_is_its_expansion(steps in steps()) {
        let population = hindsight_compiler::compile(POPULATION).expect("compiles");
        let tables = population.program.population("timed").expect("the population");
        let expanded = hindsight_compiler::compile(EXPANDED).expect("compiles");
        let mut by_agents = PopulationInterpreter::new(tables);
        let mut expansion = Interpreter::new(&expanded.program.monitors[0]);
        let mut time = 1_795_510_800_000_000i64;
        for (i, (agents, quarters, alarm)) in steps.iter().enumerate() {
            time += quarters * 250_000;
            let attributes: Vec<Value> = agents
                .iter()
                .flat_map(|&(sick, treated)| [Value::Bool(sick), Value::Bool(treated)])
                .collect();
            let globals = [Value::Int(time), Value::Bool(*alarm)];
            let got = by_agents.step(3, &attributes, &globals).expect("3 agents").to_vec();
            let mut inputs = attributes.clone();
            inputs.extend(globals);
            let want = combined(expansion.step(&inputs), Verdict::and);
            prop_assert_eq!(&got, &want, "step {}", i);
            let finish = combined(&expansion.finish(), Verdict::and);
            prop_assert_eq!(by_agents.finish(), finish, "finish after step {}", i);
            // No reset on `recovers`: its counts are zero on both sides.
            let counts = expansion.counts();
            prop_assert_eq!(&by_agents.counts()[..5], &counts[..5], "counts after step {}", i);
            prop_assert_eq!(by_agents.counts()[5], counts[5], "counts after step {}", i);
        }
    }
}
