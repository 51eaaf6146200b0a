//! The benchmark's monitors compute what they claim: the standard trace is the
//! one of `gen_trace.py`, the true counts on it match the published figures,
//! and hand-written, generated and interpreted monitors agree at every step.

use hindsight_benches::generated::{p1, p2, pt2};
use hindsight_benches::hand::{Pt2, P1, P2};
use hindsight_benches::interpreted::{compiled, machine_code, Interpreted};
use hindsight_benches::trace::{standard_trace, Event, SplitMix64, PROPOSITIONS};
use hindsight_benches::{count_true, EventMonitor, P1_INPUTS, P2_INPUTS, PT2_INPUTS};
use hindsight_compiler::interp::Interpreter;

const STEPS: usize = 1_000_000;

#[test]
fn splitmix64_matches_the_python_generator() {
    // First outputs of gen_trace.py's splitmix64(0x5EED), printed by Python.
    let mut rng = SplitMix64::new(0x5EED);
    assert_eq!(rng.next_u64(), 0x09f1_fd9d_03f0_a9b4);
    assert_eq!(rng.next_u64(), 0x5532_7416_1bbf_8475);
    assert_eq!(rng.next_u64(), 0x5d5b_ca46_96b3_43b3);
}

#[test]
fn the_trace_has_the_documented_densities() {
    let trace = standard_trace(100_000);
    for (k, (name, p)) in PROPOSITIONS.iter().enumerate() {
        let share = trace.iter().filter(|&&e| e >> k & 1 == 1).count() as f64 / 1e5;
        assert!((share - p).abs() < 0.01, "{name}: {share} vs {p}");
    }
}

/// Published true counts on 10^6 steps (shared/bench/README.md): P1 957,410, P2 127,902.
#[test]
fn true_counts_match_the_published_figures() {
    let trace = standard_trace(STEPS);
    assert_eq!(count_true(&mut P1::default(), &trace)[0], 957_410);
    assert_eq!(count_true(&mut p1::Monitor::new(), &trace)[0], 957_410);
    assert_eq!(count_true(&mut P2::default(), &trace)[0], 127_902);
    assert_eq!(count_true(&mut p2::Monitor::new(), &trace)[0], 127_902);
}

/// Asserts that the verdict bits of `monitors` on `trace` are equal at every
/// step; returns at how many steps properties 0 and 1 were false.
fn agree(trace: &[Event], monitors: &mut [&mut dyn EventMonitor]) -> [usize; 2] {
    let mut falses = [0; 2];
    for (i, &event) in trace.iter().enumerate() {
        let bits: Vec<u8> = monitors.iter_mut().map(|m| m.step(event)).collect();
        assert!(bits.windows(2).all(|w| w[0] == w[1]), "step {i}: {bits:?}");
        falses[0] += usize::from(bits[0] & 1 == 0);
        falses[1] += usize::from(bits[0] & 2 == 0);
    }
    falses
}

#[test]
fn hand_written_generated_and_interpreted_agree() {
    let trace = standard_trace(STEPS);
    let compiled = compiled();
    let table = |name| {
        compiled
            .program
            .monitor(name)
            .expect("the spec declares this monitor")
    };
    // The hand-written and generated monitors against the interpreted `name`.
    let agree_on = |hand: &mut dyn EventMonitor, generated: &mut dyn EventMonitor, name, inputs| {
        agree(
            &trace,
            &mut [
                hand,
                generated,
                &mut Interpreted::new(table(name), inputs),
                &mut Interpreted::jit(table(name), inputs),
            ],
        )
    };
    let p1_falses = agree_on(&mut P1::default(), &mut p1::Monitor::new(), "p1", P1_INPUTS);
    assert_eq!(p1_falses[0], STEPS - 957_410);
    let p2_falses = agree_on(&mut P2::default(), &mut p2::Monitor::new(), "p2", P2_INPUTS);
    assert_eq!(p2_falses[0], STEPS - 127_902);
    agree_on(
        &mut Pt2::default(),
        &mut pt2::Monitor::new(),
        "pt2",
        PT2_INPUTS,
    );
}

/// On the whole trace `H (c || !d)` fails within a few steps, after which pt2a
/// is true for good; fresh monitors every 16 steps exercise both properties.
#[test]
fn pt2_agrees_on_fresh_runs() {
    let trace = standard_trace(100_000);
    let compiled = compiled();
    let table = compiled
        .program
        .monitor("pt2")
        .expect("the spec declares pt2");
    let mut falses = [0; 2];
    for run in trace.chunks(16) {
        let [a, b] = agree(
            run,
            &mut [
                &mut Pt2::default(),
                &mut pt2::Monitor::new(),
                &mut Interpreted::new(table, PT2_INPUTS),
                &mut Interpreted::jit(table, PT2_INPUTS),
            ],
        );
        falses = [falses[0] + a, falses[1] + b];
    }
    assert!(falses.iter().all(|&f| f > 1000 && f < 90_000), "{falses:?}");
}

/// The 100-property monitor: generated code and the interpreter give the
/// same number of true verdicts at every step, and the properties are not
/// all stuck (between 10 and 90 true on average).
#[test]
fn hundred_properties_agree_at_every_step() {
    use hindsight_benches::hundred;
    let trace = standard_trace(100_000);
    let compiled = hindsight_benches::compile_spec("hundred.hind", hundred::SPEC);
    let (mut generated, mut interpreted) = (Vec::new(), Vec::new());
    hundred::generated(&trace, |n| generated.push(n));
    let table = &compiled.program.monitors[0];
    hundred::driven(Interpreter::new(table), &trace, |n| interpreted.push(n));
    assert_eq!(generated, interpreted);
    let mut jit = Vec::new();
    hundred::driven(machine_code(table), &trace, |n| jit.push(n));
    assert_eq!(generated, jit);
    let mean = generated.iter().sum::<usize>() / generated.len();
    assert!((10..=90).contains(&mean), "{mean}");
}
