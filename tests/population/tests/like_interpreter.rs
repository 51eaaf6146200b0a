//! Generated population monitors give exactly the population interpreter's
//! verdicts, end verdicts and counts on seeded random traces; refused steps
//! (over capacity, a changed number of agents) leave both unchanged. A second
//! generated monitor driven through `step_scalar` (one agent at a time; the
//! bit lanes' twin) gives the same answers at every step.

use hindsight_compiler::compile;
use hindsight_compiler::hir::Ty;
use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_compiler::ir::{Decl, PopulationTables};
use hindsight_population_tests::{Case, CASES};
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::Value;

/// xorshift64*: small, seeded, good enough for traces.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const INTS: [i64; 12] = [-1, 0, 1, 2, 3, 4, 10, 37, 60, 65, 70, 100];
const FLOATS: [f64; 7] = [0.0, 36.5, 37.0, 38.5, 38.6, 40.0, -1.5];

fn value(rng: &mut Rng, ty: Ty, bias: u64, variants: &[usize]) -> Value {
    match ty {
        Ty::Bool => Value::Bool(rng.chance(bias)),
        Ty::Int => Value::Int(INTS[rng.below(INTS.len() as u64) as usize]),
        Ty::Float => Value::Float(FLOATS[rng.below(FLOATS.len() as u64) as usize]),
        Ty::Enum(e) => Value::Enum(rng.below(variants[e] as u64) as u32),
    }
}

/// One step's attributes (row-major) and globals; the steps' time, if the
/// population has one, is `clock` plus 0 to 4 quarter seconds, or now and
/// then a quarter second less (read as the last step's time by both).
fn random_step(
    rng: &mut Rng,
    tables: &PopulationTables,
    agents: usize,
    bias: u64,
    variants: &[usize],
    clock: &mut i64,
) -> (Vec<Value>, Vec<Value>) {
    let mut attributes = Vec::new();
    for _ in 0..agents {
        for Decl { ty, .. } in &tables.attributes {
            attributes.push(value(rng, *ty, bias, variants));
        }
    }
    let globals = tables
        .globals
        .iter()
        .enumerate()
        .map(|(k, Decl { ty, .. })| {
            if tables.time == Some(k) {
                let quarters = rng.below(6) as i64 - 1;
                *clock += quarters * 250_000;
                Value::Int(*clock)
            } else {
                value(rng, *ty, bias, variants)
            }
        })
        .collect();
    (attributes, globals)
}

/// Runs `traces` random traces of `case` through the generated monitor and the
/// interpreter, comparing everything after every step; returns the number of
/// decided (non-`?`) verdicts seen, so callers can check the traces matter.
fn differential(case: &Case, traces: u64, seed: u64) -> usize {
    differential_with(case, traces, seed, None, 25)
}

/// [`differential`] with the number of agents drawn from `agent_counts` (else
/// 0..=min(capacity, 9)) and traces of up to `max_len - 1` steps.
fn differential_with(
    case: &Case,
    traces: u64,
    seed: u64,
    agent_counts: Option<&[usize]>,
    max_len: u64,
) -> usize {
    let compiled = compile(case.source).unwrap();
    let tables = compiled.program.population(case.population).unwrap();
    let variants: Vec<usize> = compiled
        .spec
        .enums
        .iter()
        .map(|e| e.variants.len())
        .collect();
    let mut generated = (case.new)();
    let mut scalar = (case.new)();
    let mut interp = PopulationInterpreter::new(tables);
    let mut decided = 0;
    for t in 0..traces {
        let mut rng = Rng::new(seed ^ (t << 32) ^ 0x5eed);
        let what = format!("{} / {} trace {t}", case.spec, case.population);
        let agents = match agent_counts {
            Some(counts) => counts[rng.below(counts.len() as u64) as usize],
            None => rng.below(tables.capacity.min(9) as u64 + 1) as usize,
        };
        let length = rng.below(max_len);
        let bias = [15, 50, 85][rng.below(3) as usize];
        let mut clock = 1_795_510_800_000_000;
        generated.reset();
        scalar.reset();
        interp.reset();
        assert_eq!(
            generated.finish(),
            interp.finish(),
            "{what}: finish before steps"
        );
        for step in 0..length {
            // Now and then a step with another number of agents: both refuse it.
            let other = agents + 1 + rng.below(2) as usize;
            if rng.chance(8) && step > 0 && other <= tables.capacity {
                let (a, g) = random_step(&mut rng, tables, other, bias, &variants, &mut clock);
                let want = Err(PopulationError::AgentCountChanged {
                    expected: agents,
                    found: other,
                });
                assert_eq!(generated.step(other, &a, &g), want, "{what} step {step}");
                assert_eq!(
                    scalar.step_scalar(other, &a, &g),
                    want,
                    "{what} step {step}"
                );
                assert_eq!(interp.step(other, &a, &g).map(<[_]>::to_vec), want);
            }
            let (a, g) = random_step(&mut rng, tables, agents, bias, &variants, &mut clock);
            let got = generated.step(agents, &a, &g);
            let want = interp.step(agents, &a, &g).map(<[_]>::to_vec);
            assert_eq!(got, want, "{what} step {step}");
            let by_agent = scalar.step_scalar(agents, &a, &g);
            assert_eq!(by_agent, want, "{what} step {step} (step_scalar)");
            decided += want
                .unwrap()
                .iter()
                .filter(|v| v.decided().is_some())
                .count();
            assert_eq!(
                generated.finish(),
                interp.finish(),
                "{what}: finish after step {step}"
            );
            assert_eq!(
                generated.counts(),
                interp.counts(),
                "{what}: counts after step {step}"
            );
            assert_eq!(scalar.finish(), interp.finish(), "{what}: scalar finish");
            assert_eq!(scalar.counts(), interp.counts(), "{what}: scalar counts");
        }
    }
    decided
}

#[test]
fn every_spec_has_populations() {
    // The hand-written specs: 10 files and the epidemic example, one
    // population each.
    let specs = CASES.iter().filter(|c| c.spec.ends_with(".hind")).count();
    assert_eq!(specs, 11);
}

#[test]
fn lanes_per_stratum() {
    // Per hand-written spec, which strata `step` runs as bit lanes: the
    // Boolean past-time strata with one-bit state. Future quantifiers have a
    // stratum of their own (automata: per-agent monitors), so the past strata
    // before them can still be lanes; bounded windows (counters) are not.
    let lanes: Vec<(&str, &[bool])> = CASES
        .iter()
        .filter(|c| c.spec.ends_with(".hind"))
        .map(|c| (c.population, (c.new)().lanes()))
        .collect();
    let expected: [(&str, &[bool]); 11] = [
        ("bare", &[]),
        ("combined", &[true, false]),
        ("future", &[false]),
        ("lanes", &[true, true]),
        ("mixed", &[true, false, true, false]),
        // Stratum 0 has `O[0,1] sick` (a counter); 1 and 2 are Boolean.
        ("nested", &[false, true, true]),
        ("past", &[false]),
        ("reset", &[true, false]),
        // Duration windows keep times, not bits.
        ("timed", &[false, false]),
        // `O[1,3]` needs a delay ring.
        ("types", &[false, false]),
        ("epidemic", &[true, false]),
    ];
    assert_eq!(lanes, expected);
    let random = CASES
        .iter()
        .filter(|c| !c.spec.ends_with(".hind") && (c.new)().any_lanes())
        .count();
    assert!(random >= 5, "only {random} random specs use lanes");
    let partly = CASES
        .iter()
        .filter(|c| {
            let l = (c.new)().lanes();
            !c.spec.ends_with(".hind") && l.contains(&true) && l.contains(&false)
        })
        .count();
    assert!(
        partly >= 5,
        "only {partly} random specs mix lanes and monitors"
    );
}

#[test]
fn lanes_run_like_the_interpreter_across_word_boundaries() {
    // 1, 63, 64, 65 and 130 agents: partial, exact and several words, and
    // the capacity's own partial block (130 = 2 * 64 + 2).
    let case = CASES.iter().find(|c| c.population == "lanes").unwrap();
    assert!((case.new)().any_lanes());
    let decided = differential_with(case, 40, 7, Some(&[1, 63, 64, 65, 130, 0, 2]), 30);
    assert!(decided > 500, "{decided} decided verdicts");
}

#[test]
fn mixed_lanes_and_monitors_run_like_the_interpreter_across_word_boundaries() {
    // Strata 0 and 2 in lanes, 1 and 3 per agent, in the same step.
    let case = CASES.iter().find(|c| c.population == "mixed").unwrap();
    assert_eq!((case.new)().lanes(), [true, false, true, false]);
    let decided = differential_with(case, 40, 11, Some(&[1, 63, 64, 65, 130, 0, 2]), 30);
    assert!(decided > 500, "{decided} decided verdicts");
}

#[test]
fn lane_random_specs_with_many_agents() {
    let lane_cases: Vec<&Case> = CASES
        .iter()
        .filter(|c| !c.spec.ends_with(".hind") && (c.new)().any_lanes())
        .collect();
    let mut decided = 0;
    for (k, case) in lane_cases.into_iter().enumerate() {
        let compiled = compile(case.source).unwrap();
        let capacity = compiled
            .program
            .population(case.population)
            .unwrap()
            .capacity;
        let counts: Vec<usize> = [1, 63, 64, 65, 130]
            .into_iter()
            .filter(|&n| n <= capacity)
            .collect();
        decided += differential_with(case, 6, 5000 + k as u64, Some(&counts), 20);
    }
    assert!(decided > 100, "{decided} decided verdicts");
}

#[test]
fn hand_written_specs_run_like_the_interpreter() {
    for case in CASES.iter().filter(|c| c.spec.ends_with(".hind")) {
        let decided = differential(case, 60, 1);
        // Every spec but `bare` decides something on these traces.
        assert!(decided > 0, "{}: no decided verdict at all", case.spec);
    }
}

#[test]
fn random_specs_run_like_the_interpreter() {
    let random: Vec<&Case> = CASES
        .iter()
        .filter(|c| !c.spec.ends_with(".hind"))
        .collect();
    assert_eq!(random.len(), 100);
    let mut decided = 0;
    for (k, case) in random.into_iter().enumerate() {
        decided += differential(case, 8, 1000 + k as u64);
    }
    assert!(decided > 1000, "the random traces decide verdicts");
}
