//! Future-time properties: ns/event of P3 `G (request -> F grant)` over the
//! first 10^6 steps of the standard trace, and of the ten IPC-Trucks rules over
//! a 10^6-step synthetic plan — hand-written, generated, formula progression
//! (the TRAC paper's baseline) and the interpreter; and the compile time of the
//! TRAC example specs. Run with `cargo bench -p hindsight-benches --bench future`.

use std::sync::LazyLock;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hindsight_benches::interpreted::machine_code;
use hindsight_benches::response::{self, count_unknown, p3, Pending};
use hindsight_benches::trace::{has, standard_trace, Event, GRANT, REQUEST};
use hindsight_benches::trucks::{
    self, count_violations, synthetic_plan, Hand, Progressed, TruckEvent,
};
use hindsight_compiler::compile;
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Table;
use hindsight_runtime::{StepMonitor, Value, Verdict};

#[path = "shared/rows.rs"]
mod rows;

/// Steps in one pass.
const STEPS: usize = 1_000_000;

static TRACE: LazyLock<Vec<Event>> = LazyLock::new(|| standard_trace(STEPS));
static PLAN: LazyLock<Vec<TruckEvent>> = LazyLock::new(|| synthetic_plan(STEPS, 7));

fn main() {
    divan::main();
}

mod p3_response {
    use super::*;

    fn pass<M: response::ResponseMonitor>(bencher: Bencher, monitor: impl Fn() -> M + Sync) {
        let trace = TRACE.as_slice();
        bencher
            .counter(ItemsCount::new(trace.len()))
            .bench(|| count_unknown(&mut monitor(), black_box(trace)));
    }

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn hand_written(bencher: Bencher) {
        pass(bencher, Pending::default);
    }

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn generated(bencher: Bencher) {
        pass(bencher, p3::Monitor::new);
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn progression(bencher: Bencher) {
        pass(bencher, response::progression);
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn interpreter(bencher: Bencher) {
        let table = table(include_str!("../specs/response.hind"));
        run_requests(bencher, &table, Verdict::Unknown, Interpreter::new);
    }

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn jit(bencher: Bencher) {
        let table = table(include_str!("../specs/response.hind"));
        run_requests(bencher, &table, Verdict::Unknown, machine_code);
    }

    /// Machine code as `check` runs it reading ahead (`shared/rows.rs`).
    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn jit_rows(bencher: Bencher) {
        let table = table(include_str!("../specs/response.hind"));
        let batches = rows::batches(&TRACE, 2, |e, row| {
            row[0] = Value::Bool(has(e, REQUEST));
            row[1] = Value::Bool(has(e, GRANT));
        });
        rows::bench_rows(bencher, machine_code(&table), &batches, 1, |v| {
            usize::from(v[0] == Verdict::Unknown)
        });
    }
}

/// The table of `source`'s first monitor.
fn table(source: &str) -> Table {
    compile(source)
        .expect("the spec compiles")
        .program
        .monitors
        .swap_remove(0)
}

/// The monitor `engine` makes of `table` (inputs `request`, `grant`) over
/// the standard trace, counting the steps its first property is `verdict`.
fn run_requests<'t, M: StepMonitor>(
    bencher: Bencher,
    table: &'t Table,
    verdict: Verdict,
    engine: impl Fn(&'t Table) -> M + Sync,
) {
    let trace = TRACE.as_slice();
    bencher.counter(ItemsCount::new(trace.len())).bench(|| {
        let mut monitor = engine(table);
        let mut verdicts = [Verdict::Unknown];
        black_box(trace)
            .iter()
            .filter(|&&e| {
                let inputs = [Value::Bool(has(e, REQUEST)), Value::Bool(has(e, GRANT))];
                monitor.step_values(&inputs, &mut verdicts);
                verdicts[0] == verdict
            })
            .count()
    });
}

mod trucks_rules {
    use super::*;

    fn pass<M: trucks::RuleMonitor>(bencher: Bencher, monitor: impl Fn() -> M + Sync) {
        let plan = PLAN.as_slice();
        bencher
            .counter(ItemsCount::new(plan.len()))
            .bench(|| count_violations(&mut monitor(), black_box(plan)));
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn hand_written(bencher: Bencher) {
        pass(bencher, Hand::default);
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn generated(bencher: Bencher) {
        pass(bencher, trucks::trucks::Monitor::new);
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn progression(bencher: Bencher) {
        pass(bencher, Progressed::default);
    }

    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn interpreter(bencher: Bencher) {
        run_plan(bencher, &trucks_table(), Interpreter::new);
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn jit(bencher: Bencher) {
        run_plan(bencher, &trucks_table(), machine_code);
    }

    /// Machine code as `check` runs it reading ahead (`shared/rows.rs`).
    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn jit_rows(bencher: Bencher) {
        let batches = rows::batches(&PLAN, 4, |e: trucks::TruckEvent, row| {
            row.copy_from_slice(&[
                Value::Enum(u32::from(e.action)),
                Value::Int(e.pkg),
                Value::Enum(u32::from(e.area)),
                Value::Enum(u32::from(e.loc)),
            ]);
        });
        let monitor = machine_code(&trucks_table());
        rows::bench_rows(bencher, monitor, &batches, trucks::RULES, |v| {
            v.iter().filter(|v| v.is_violation()).count()
        });
    }

    /// The trucks spec's table.
    fn trucks_table() -> Table {
        table(include_str!("../../examples/trac/ipc_trucks/trucks.hind"))
    }

    /// The monitor `engine` makes of the trucks `table` over the plan,
    /// counting violations.
    fn run_plan<'t, M: StepMonitor>(
        bencher: Bencher,
        table: &'t Table,
        engine: impl Fn(&'t Table) -> M + Sync,
    ) {
        let plan = PLAN.as_slice();
        bencher.counter(ItemsCount::new(plan.len())).bench(|| {
            let mut monitor = engine(table);
            let mut verdicts = [Verdict::Unknown; trucks::RULES];
            black_box(plan)
                .iter()
                .map(|e| {
                    let inputs = [
                        Value::Enum(u32::from(e.action)),
                        Value::Int(e.pkg),
                        Value::Enum(u32::from(e.area)),
                        Value::Enum(u32::from(e.loc)),
                    ];
                    monitor.step_values(&inputs, &mut verdicts);
                    verdicts.iter().filter(|v| v.is_violation()).count()
                })
                .sum::<usize>()
        });
    }
}

/// `compile()` (parse, check, lower, LTL3 automata) of each TRAC example spec.
mod compile_time {
    use super::*;

    const SPECS: [(&str, &str); 5] = [
        (
            "ipc_trucks",
            include_str!("../../examples/trac/ipc_trucks/trucks.hind"),
        ),
        (
            "textworld",
            include_str!("../../examples/trac/textworld/textworld.hind"),
        ),
        (
            "scienceworld",
            include_str!("../../examples/trac/scienceworld/scienceworld.hind"),
        ),
        (
            "patterns",
            include_str!("../../examples/trac/patterns/patterns.hind"),
        ),
        (
            "tree",
            include_str!("../../examples/trac/patterns/tree.hind"),
        ),
    ];

    #[divan::bench(args = [0, 1, 2, 3, 4], sample_count = 10, sample_size = 1)]
    fn spec(bencher: Bencher, k: usize) {
        let (_, source) = SPECS[k];
        bencher.bench(|| compile(black_box(source)).map(|c| c.program.monitors.len()));
    }
}

/// `G (request -> F[0,b] grant) with reset` for b = 10, 10^3, 10^6 over the
/// standard trace (see `hindsight_benches::windows`): hand-written,
/// generated and interpreted ns/event, and the compile time of the property,
/// which must not grow with b.
mod windows {
    use super::*;
    use hindsight_benches::windows::{count_violations, w10, w1000, w1000000, Oldest, LENGTHS};

    /// The property with window length `b`, in a monitor of its own.
    fn source(b: u64) -> String {
        format!(
            "monitor w {{\n    input request: bool;\n    input grant: bool;\n    \
             property r = G (request -> F[0,{b}] grant) with reset;\n}}\n"
        )
    }

    #[divan::bench(args = LENGTHS, sample_count = 40, sample_size = 1)]
    fn hand_written(bencher: Bencher, b: u64) {
        let trace = TRACE.as_slice();
        bencher
            .counter(ItemsCount::new(trace.len()))
            .bench(|| count_violations(&mut Oldest::new(b), black_box(trace)));
    }

    #[divan::bench(args = LENGTHS, sample_count = 40, sample_size = 1)]
    fn generated(bencher: Bencher, b: u64) {
        let trace = TRACE.as_slice();
        let bencher = bencher.counter(ItemsCount::new(trace.len()));
        match b {
            10 => bencher.bench(|| count_violations(&mut w10::Monitor::new(), black_box(trace))),
            1_000 => {
                bencher.bench(|| count_violations(&mut w1000::Monitor::new(), black_box(trace)))
            }
            _ => {
                bencher.bench(|| count_violations(&mut w1000000::Monitor::new(), black_box(trace)))
            }
        }
    }

    #[divan::bench(args = LENGTHS, sample_count = 10, sample_size = 1)]
    fn interpreter(bencher: Bencher, b: u64) {
        run_requests(
            bencher,
            &table(&source(b)),
            Verdict::False,
            Interpreter::new,
        );
    }

    #[divan::bench(args = LENGTHS, sample_count = 20, sample_size = 1)]
    fn compile_time(bencher: Bencher, b: u64) {
        let source = source(b);
        bencher.bench(|| compile(black_box(&source)).map(|c| c.program.monitors.len()));
    }
}
