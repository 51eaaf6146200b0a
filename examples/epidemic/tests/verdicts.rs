//! The example's verdicts against independent oracles: facts computed
//! directly from the simulation's states (no monitor involved), and the
//! interpreter `hindsight check` uses, on the same runs.

use epidemic::epidemic::{Agent, Globals, Monitor};
use epidemic::sim::{Config, Simulation};
use epidemic::Health;
use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_compiler::{Value, Verdict};

const SPEC: &str = include_str!("../epidemic.hind");

/// Every day's agents and globals of a run.
fn run(config: Config) -> Vec<(Vec<Agent>, Globals)> {
    let mut sim = Simulation::new(config);
    let mut days = Vec::new();
    loop {
        days.push((sim.agents().to_vec(), *sim.globals()));
        if !sim.advance() {
            return days;
        }
    }
}

fn configs() -> Vec<Config> {
    let mut configs = Vec::new();
    for (agents, days) in [(60, 40), (200, 60), (7, 20), (1000, 30)] {
        for seed in [1, 7, 42] {
            configs.push(Config {
                agents,
                days,
                seed,
                ..Config::default()
            });
        }
    }
    configs
}

#[test]
fn generated_monitor_equals_the_interpreter() {
    let compiled = hindsight_compiler::compile(SPEC).expect("the example spec compiles");
    let tables = compiled.program.population("epidemic").expect("declared");
    for config in configs() {
        let mut generated: Box<Monitor> = Box::default();
        let mut interp = PopulationInterpreter::new(tables);
        let mut attributes = Vec::new();
        for (step, (agents, globals)) in run(config).iter().enumerate() {
            attributes.clear();
            for a in agents {
                attributes.extend([
                    Value::Enum(a.health.index()),
                    Value::Bool(a.female),
                    Value::Int(a.age),
                ]);
            }
            let values = [Value::Int(globals.day), Value::Bool(globals.lockdown)];
            let expected = interp
                .step(agents.len(), &attributes, &values)
                .expect("within capacity")
                .to_vec();
            let got = generated.step(agents, globals).expect("within capacity");
            assert_eq!(got.to_array().to_vec(), expected, "{config:?}, step {step}");
        }
        assert_eq!(
            generated.finish().to_array().to_vec(),
            interp.finish(),
            "{config:?}, end"
        );
    }
}

/// What each property must say, computed from the states alone.
#[test]
fn verdicts_match_facts_of_the_run() {
    for config in configs() {
        let days = run(config);
        let mut monitor: Box<Monitor> = Box::default();
        let n = config.agents;
        let mut ever_infected = vec![false; n];
        let mut infected_per_day = Vec::new();
        let mut first_over_60 = None;
        let mut first_ten_elderly = None;
        for (step, (agents, globals)) in days.iter().enumerate() {
            let v = monitor.step(agents, globals).expect("within capacity");
            let infected = agents
                .iter()
                .filter(|a| a.health == Health::infected)
                .count();
            infected_per_day.push(infected);
            for (seen, a) in ever_infected.iter_mut().zip(agents) {
                *seen |= a.health == Health::infected;
            }
            let elderly = |i: usize| agents[i].age >= 65;
            let elderly_total = (0..n).filter(|&i| elderly(i)).count();
            let elderly_ever = (0..n).filter(|&i| elderly(i) && ever_infected[i]).count();
            if infected > 60 && first_over_60.is_none() {
                first_over_60 = Some(step);
            }
            if elderly_ever >= 10 && first_ten_elderly.is_none() {
                first_ten_elderly = Some(step);
            }
            let at = format!("{config:?}, step {step}");

            // SIR never reinfects a recovered agent.
            assert_eq!(v.no_reinfection, Verdict::True, "{at}");
            // G (infected <= 60): false from the first day over 60, undecided before.
            let bounded = if first_over_60.is_some() {
                Verdict::False
            } else {
                Verdict::Unknown
            };
            assert_eq!(v.outbreak_bounded, bounded, "{at}");
            // atleast 10 elderly eventually infected: true once 10 have been;
            // false from the start if there are fewer than 10 elderly.
            let ten = if first_ten_elderly.is_some() {
                Verdict::True
            } else if elderly_total < 10 {
                Verdict::False
            } else {
                Verdict::Unknown
            };
            assert_eq!(v.ten_elderly_infected, ten, "{at}");
            // Past-time: at most half of the elderly ever infected.
            let shielded = 2 * elderly_ever <= elderly_total;
            assert_eq!(v.elderly_shielded, Verdict::from(shielded), "{at}");
            // Past-time: lockdown only within 3 days of 20 or more infected.
            let recent = &infected_per_day[step.saturating_sub(3)..=step];
            let justified = !globals.lockdown || recent.iter().any(|&i| i >= 20);
            assert_eq!(v.lockdown_justified, Verdict::from(justified), "{at}");
            // atleast 3 of each group stay susceptible: false once fewer than
            // 3 of a group were never infected (members fixed at day 0, and
            // the sex of an agent never changes), else undecided.
            let healthy = |female: bool| {
                (0..n)
                    .filter(|&i| agents[i].female == female && !ever_infected[i])
                    .count()
            };
            let three = if healthy(true) < 3 || healthy(false) < 3 {
                Verdict::False
            } else {
                Verdict::Unknown
            };
            assert_eq!(v.three_healthy_per_group, three, "{at}");
            // forall females: F infected — false only if ... never decided
            // before the end unless every female has been infected.
            let females = (0..n).filter(|&i| agents[i].female);
            let all = females.clone().all(|i| ever_infected[i]);
            let expected = if all { Verdict::True } else { Verdict::Unknown };
            assert_eq!(v.all_females_infected, expected, "{at}");
        }
        // End of the run: the finite-trace verdicts.
        let end = monitor.finish();
        let last = &days.last().expect("at least day 0").0;
        let healthy = |female: bool| {
            (0..n)
                .filter(|&i| last[i].female == female && !ever_infected[i])
                .count()
        };
        assert_eq!(
            end.three_healthy_per_group,
            Verdict::from(healthy(true) >= 3 && healthy(false) >= 3),
            "{config:?}"
        );
        assert_eq!(
            end.outbreak_bounded,
            Verdict::from(first_over_60.is_none()),
            "{config:?}"
        );
        // Every infected female recovered by the end iff none is still infected.
        let still_sick = last
            .iter()
            .any(|a| a.female && a.health == Health::infected);
        assert_eq!(
            end.females_recover,
            Verdict::from(!still_sick),
            "{config:?}"
        );
        let all = (0..n).filter(|&i| last[i].female).all(|i| ever_infected[i]);
        assert_eq!(end.all_females_infected, Verdict::from(all), "{config:?}");
    }
}

/// `run.jsonl` is exactly the run `cargo run -p epidemic -- --agents 60
/// --days 40 --log run.jsonl` writes, so the bundled log never goes stale.
#[test]
fn bundled_log_is_the_documented_run() {
    let config = Config {
        agents: 60,
        days: 40,
        ..Config::default()
    };
    let mut expected = String::new();
    for (agents, globals) in run(config) {
        expected.push_str(&epidemic::log::line(&agents, &globals));
        expected.push('\n');
    }
    let bundled = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/run.jsonl"))
        .expect("run.jsonl is bundled");
    assert!(
        bundled == expected,
        "run.jsonl differs from the documented run: regenerate it"
    );
}
