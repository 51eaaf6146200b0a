//! ns/event of each benchmark property's monitor over the first 10^6 steps of
//! the standard trace: hand-written (the limit), generated, interpreted, and
//! the table as machine code (`hindsight-jit`, what `hindsight check` runs).
//! Run with `cargo bench -p hindsight-benches`; divan prints time per pass over
//! the trace (divide by 10^6 for ns/event) and events/s.

use std::sync::LazyLock;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hindsight_benches::trace::{has, standard_trace, Event};
use hindsight_benches::{count_true, EventMonitor};
use hindsight_runtime::{Value, Verdict};

#[path = "shared/rows.rs"]
mod rows;

/// Steps in one pass.
const STEPS: usize = 1_000_000;

static TRACE: LazyLock<Vec<Event>> = LazyLock::new(|| standard_trace(STEPS));

fn main() {
    divan::main();
}

/// Times passes of a fresh `monitor()` over the whole trace.
fn pass<M: EventMonitor>(bencher: Bencher, monitor: impl Fn() -> M + Sync) {
    let trace = TRACE.as_slice();
    bencher
        .counter(ItemsCount::new(trace.len()))
        .bench(|| count_true(&mut monitor(), black_box(trace)));
}

/// Passes over the trace of the bench spec's table `$module` reading
/// `$inputs`, run by `Interpreted::$engine` (`new`: the interpreter, `jit`:
/// machine code).
macro_rules! table_pass {
    ($bencher:ident, $module:ident, $inputs:ident, $engine:ident) => {{
        let compiled = hindsight_benches::interpreted::compiled();
        let table = compiled
            .program
            .monitor(stringify!($module))
            .expect("the spec declares this monitor");
        pass($bencher, || {
            hindsight_benches::interpreted::Interpreted::$engine(table, hindsight_benches::$inputs)
        });
    }};
}

/// Benches of property `$module`: the generated monitor of that name and the
/// hand-written `Default` monitor `hand::$hand`; the interpreter runs the
/// spec's table of that name reading `$inputs`.
macro_rules! property {
    ($module:ident, $hand:ident, $inputs:ident) => {
        mod $module {
            use super::*;

            #[divan::bench(sample_count = 40, sample_size = 1)]
            fn hand_written(bencher: Bencher) {
                pass(bencher, hindsight_benches::hand::$hand::default);
            }

            #[divan::bench(sample_count = 40, sample_size = 1)]
            fn generated(bencher: Bencher) {
                pass(bencher, hindsight_benches::generated::$module::Monitor::new);
            }

            #[divan::bench(sample_count = 10, sample_size = 1)]
            fn interpreter(bencher: Bencher) {
                table_pass!(bencher, $module, $inputs, new);
            }

            #[divan::bench(sample_count = 40, sample_size = 1)]
            fn jit(bencher: Bencher) {
                table_pass!(bencher, $module, $inputs, jit);
            }

            /// Machine code as `check` runs it reading ahead
            /// (`shared/rows.rs`): per batch of steps.
            #[divan::bench(sample_count = 40, sample_size = 1)]
            fn jit_rows(bencher: Bencher) {
                let compiled = hindsight_benches::interpreted::compiled();
                let table = compiled
                    .program
                    .monitor(stringify!($module))
                    .expect("the spec declares this monitor");
                let inputs = hindsight_benches::$inputs;
                let batches = rows::batches(&TRACE, inputs.len(), |e, row| {
                    for (value, &bit) in row.iter_mut().zip(inputs) {
                        *value = Value::Bool(has(e, bit));
                    }
                });
                let monitor = hindsight_benches::interpreted::machine_code(table);
                rows::bench_rows(bencher, monitor, &batches, table.outputs.len(), |v| {
                    usize::from(v[0] == Verdict::True)
                });
            }
        }
    };
}

property!(p1, P1, P1_INPUTS);
property!(p2, P2, P2_INPUTS);
property!(pt2, Pt2, PT2_INPUTS);

/// 100 past-time properties at once (`specs/hundred.hind`): ns/event of the
/// generated monitor and of the interpreter, each counting true verdicts.
mod hundred {
    use super::*;
    use hindsight_benches::hundred;

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn generated(bencher: Bencher) {
        let trace = TRACE.as_slice();
        bencher.counter(ItemsCount::new(trace.len())).bench(|| {
            let mut total = 0;
            hundred::generated(black_box(trace), |n| total += n);
            total
        });
    }

    #[divan::bench(sample_count = 5, sample_size = 1)]
    fn interpreter(bencher: Bencher) {
        let compiled = hindsight_benches::compile_spec("hundred.hind", hundred::SPEC);
        let table = &compiled.program.monitors[0];
        let trace = TRACE.as_slice();
        bencher.counter(ItemsCount::new(trace.len())).bench(|| {
            let mut total = 0;
            let interp = hindsight_compiler::interp::Interpreter::new(table);
            hundred::driven(interp, black_box(trace), |n| total += n);
            total
        });
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn jit(bencher: Bencher) {
        let compiled = hindsight_benches::compile_spec("hundred.hind", hundred::SPEC);
        let jit = hindsight_benches::interpreted::machine_code(&compiled.program.monitors[0]);
        let trace = TRACE.as_slice();
        bencher.counter(ItemsCount::new(trace.len())).bench(|| {
            let mut total = 0;
            hundred::driven(jit.clone(), black_box(trace), |n| total += n);
            total
        });
    }

    /// Machine code as `check` runs it reading ahead (`shared/rows.rs`).
    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn jit_rows(bencher: Bencher) {
        let compiled = hindsight_benches::compile_spec("hundred.hind", hundred::SPEC);
        let jit = hindsight_benches::interpreted::machine_code(&compiled.program.monitors[0]);
        let batches = rows::batches(&TRACE, hundred::INPUTS.len(), |e, row| {
            for (value, bit) in row.iter_mut().zip(hundred::INPUTS) {
                *value = Value::Bool(has(e, bit));
            }
        });
        rows::bench_rows(bencher, jit, &batches, 100, |v| {
            v.iter().filter(|&&v| v == Verdict::True).count()
        });
    }
}
