//! The future-time benchmark monitors compute what they claim: P3 is `?` at
//! every step of the standard trace and its finite-trace verdict on the prefixes
//! matches the published count; on the IPC-Trucks rules the hand-written,
//! generated and progression monitors (and the interpreter) agree at every step.

use hindsight_benches::progression::{Formula, Progression};
use hindsight_benches::response::{self, count_unknown, p3, Pending, ResponseMonitor};
use hindsight_benches::trace::standard_trace;
use hindsight_benches::trucks::{self, synthetic_plan, Hand, Progressed, RuleMonitor};
use hindsight_compiler::compile;
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Source;
use hindsight_runtime::{Value, Verdict};

const STEPS: usize = 1_000_000;

/// shared/bench/README.md: P3 is `?` at every step; the finite-trace verdict of
/// `G (request -> F grant)` is true on 556,311 of the 10^6 prefixes.
#[test]
fn p3_is_unknown_throughout_and_true_at_the_end_of_556311_prefixes() {
    let trace = standard_trace(STEPS);
    let (unknown, _) = count_unknown(&mut p3::Monitor::new(), &trace);
    assert_eq!(unknown, STEPS);

    let mut generated = p3::Monitor::new();
    let mut others: [Box<dyn ResponseMonitor>; 2] = [
        Box::new(Pending::default()),
        Box::new(response::progression()),
    ];
    let mut true_prefixes = 0;
    for &e in &trace {
        ResponseMonitor::step(&mut generated, e);
        let end = ResponseMonitor::finish(&generated);
        for other in &mut others {
            assert_eq!(other.step(e), Verdict::Unknown);
            assert_eq!(other.finish(), end);
        }
        true_prefixes += usize::from(end == Verdict::True);
    }
    assert_eq!(true_prefixes, 556_311);
}

/// Progression of P3 never holds more than one pending `F grant`.
#[test]
fn p3_progression_keeps_one_obligation() {
    let idle = response::formula();
    let pending = Formula::And(vec![Formula::eventually(Formula::Atom(1)), idle.clone()]);
    let mut m: Progression = response::progression();
    for e in standard_trace(100_000) {
        ResponseMonitor::step(&mut m, e);
        assert!(
            m.residual() == &idle || m.residual() == &pending,
            "{:?}",
            m.residual()
        );
    }
}

#[test]
fn trucks_monitors_agree_at_every_step() {
    let plan = synthetic_plan(200_000, 7);
    let source = include_str!("../../examples/trac/ipc_trucks/trucks.hind");
    let compiled = compile(source).expect("the trucks spec compiles");
    let mut interp = Interpreter::new(&compiled.program.monitors[0]);
    let mut jit = hindsight_benches::interpreted::machine_code(&compiled.program.monitors[0]);
    let mut jitted = [Verdict::Unknown; trucks::RULES];
    let (mut generated, mut hand, mut progressed) = (
        trucks::trucks::Monitor::new(),
        Hand::default(),
        Progressed::default(),
    );
    let mut decided = [0usize; trucks::RULES];
    for (i, e) in plan.iter().enumerate() {
        let g = RuleMonitor::step(&mut generated, e);
        let values = [
            Value::Enum(u32::from(e.action)),
            Value::Int(e.pkg),
            Value::Enum(u32::from(e.area)),
            Value::Enum(u32::from(e.loc)),
        ];
        assert_eq!(interp.step(&values), g, "interpreter, step {i}: {e:?}");
        jit.step(&values, &mut jitted);
        assert_eq!(jitted, g, "machine code, step {i}: {e:?}");
        assert_eq!(hand.step(e), g, "hand-written, step {i}: {e:?}");
        assert_eq!(progressed.step(e), g, "progression, step {i}: {e:?}");
        for (d, v) in decided.iter_mut().zip(g) {
            *d += usize::from(v != Verdict::Unknown);
        }
    }
    // Every rule is decided somewhere, so every rule's verdicts were compared.
    assert!(decided.iter().all(|&d| d > 0), "{decided:?}");
    println!(
        "decided verdicts per rule over {} steps: {decided:?}",
        plan.len()
    );
}

/// The automaton of every future-time property of the TRAC example specs:
/// atoms, states and transitions (printed with `--nocapture` for
/// docs/benchmarks.md), each within the table's limits.
#[test]
fn trac_automaton_sizes() {
    let specs = [
        include_str!("../../examples/trac/ipc_trucks/trucks.hind"),
        include_str!("../../examples/trac/textworld/textworld.hind"),
        include_str!("../../examples/trac/scienceworld/scienceworld.hind"),
        include_str!("../../examples/trac/patterns/patterns.hind"),
        include_str!("../../examples/trac/patterns/tree.hind"),
    ];
    for source in specs {
        let start = std::time::Instant::now();
        let compiled = compile(source).expect("the TRAC specs compile");
        let elapsed = start.elapsed();
        for table in &compiled.program.monitors {
            let (mut states, mut transitions) = (0, 0);
            for out in &table.outputs {
                let Source::Future(f) = out.source else {
                    continue;
                };
                for &a in &table.futures[f].automata {
                    let automaton = &table.automata[a];
                    assert_eq!(
                        automaton.transitions.len(),
                        automaton.states.len() << automaton.atoms.len()
                    );
                    println!(
                        "{}.{}: {} atoms, {} states, {} transitions",
                        table.name,
                        out.name,
                        automaton.atoms.len(),
                        automaton.states.len(),
                        automaton.transitions.len()
                    );
                    states += automaton.states.len();
                    transitions += automaton.transitions.len();
                }
            }
            println!("{}: {} properties, {states} states, {transitions} transitions in all, compiled in {elapsed:?} (debug build)", table.name, table.outputs.len());
        }
    }
}

/// `G (request -> F[0,b] grant) with reset`: the generated deadline and the
/// hand-written monitor decide the same violations at the same steps, for
/// every window length; short windows are violated often, the longest never
/// within the trace (a request is always granted sooner).
#[test]
fn window_monitors_agree_at_every_step() {
    use hindsight_benches::windows::{self, Oldest, WindowMonitor, LENGTHS};
    let trace = standard_trace(200_000);
    let mut generated: [Box<dyn WindowMonitor>; 3] = [
        Box::new(windows::w10::Monitor::new()),
        Box::new(windows::w1000::Monitor::new()),
        Box::new(windows::w1000000::Monitor::new()),
    ];
    for (monitor, length) in generated.iter_mut().zip(LENGTHS) {
        let mut hand = Oldest::new(length);
        let mut violations = 0;
        for (k, &e) in trace.iter().enumerate() {
            let expected = hand.violated(e);
            assert_eq!(monitor.violated(e), expected, "b = {length}, step {k}");
            violations += usize::from(expected);
        }
        match length {
            10 => assert!(violations > 1_000, "{violations}"),
            _ => assert_eq!(violations, 0, "b = {length}"),
        }
    }
}
