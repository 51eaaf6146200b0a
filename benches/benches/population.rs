//! Populations: time per pass of the `herd` monitors (`specs/population.hind`)
//! over 4 × 10^6 agent-steps of the population workload
//! (`hindsight_benches::population::workload`) for 64, 1,000 and 10,000
//! agents: generated, hand-written, interpreted and, for 64 agents, the
//! generated monitor of the quantifier-free expansion. divan's items/s is
//! agent-steps/s; ns per agent-step is the time per pass / (4 × 10^6). Run with
//! `cargo bench -p hindsight-benches --bench population`. Run without
//! `--bench` (as a test), it uses 8-step workloads so that it ends quickly.

use std::sync::LazyLock;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hindsight_benches::population::workload::Workload;
use hindsight_benches::population::{
    compiled, tally, Expanded, Generated, Hand, Interpreted, PopulationMonitor,
};
use hindsight_compiler::Compiled;

/// The workload of `agents` agents: 4 × 10^6 agent-steps under
/// `cargo bench`, 8 steps otherwise.
fn workload(agents: usize) -> Workload {
    if std::env::args().any(|a| a == "--bench") {
        Workload::bench(agents)
    } else {
        Workload::new(agents, 8)
    }
}

static W64: LazyLock<Workload> = LazyLock::new(|| workload(64));
static W1000: LazyLock<Workload> = LazyLock::new(|| workload(1_000));
static W10000: LazyLock<Workload> = LazyLock::new(|| workload(10_000));
static COMPILED: LazyLock<Compiled> = LazyLock::new(compiled);

/// The precomputed workload of `agents` agents (one of the benchmarked sizes).
fn get(agents: usize) -> &'static Workload {
    match agents {
        64 => &W64,
        1_000 => &W1000,
        _ => &W10000,
    }
}

fn main() {
    divan::main();
}

/// Times passes of a fresh `monitor()` over the whole of `w`.
fn pass<M: PopulationMonitor>(bencher: Bencher, w: &Workload, monitor: impl Fn() -> M + Sync) {
    bencher
        .counter(ItemsCount::new(w.agents * w.steps))
        .bench(|| tally(&mut monitor(), black_box(w.steps)));
}

#[divan::bench(consts = [64, 1_000, 10_000], sample_count = 20, sample_size = 1)]
fn generated<const N: usize>(bencher: Bencher) {
    let w = get(N);
    pass(bencher, w, || Generated::<N>::new(w));
}

#[divan::bench(args = [64, 1_000, 10_000], sample_count = 20, sample_size = 1)]
fn hand_written(bencher: Bencher, agents: usize) {
    let w = get(agents);
    pass(bencher, w, || Hand::new(w));
}

#[divan::bench(args = [64, 1_000, 10_000], sample_count = 5, sample_size = 1)]
fn interpreter(bencher: Bencher, agents: usize) {
    interpret(bencher, agents, "herd");
}

/// Times the interpreter on population `name` of the spec over the workload of
/// `agents` agents.
fn interpret(bencher: Bencher, agents: usize, name: &str) {
    let w = get(agents);
    let tables = COMPILED.program.population(name);
    let tables = tables.unwrap_or_else(|| panic!("the spec declares population {name}"));
    let values = w.values();
    pass(bencher, w, || Interpreted::new(tables, w, &values));
}

/// The quantifier-free monitor of 64 agents (two of the four properties).
#[divan::bench(sample_count = 20, sample_size = 1)]
fn expanded_64(bencher: Bencher) {
    let w = get(64);
    let inputs = Expanded::inputs(w);
    pass(bencher, w, || Expanded::new(&inputs));
}

/// `herd_past` (one-bit state): generated, bit lanes and one agent at a time,
/// hand-written with a `bool` per agent and bit-parallel.
mod past {
    use super::*;
    use hindsight_benches::population::past;

    #[divan::bench(consts = [64, 1_000, 10_000], sample_count = 20, sample_size = 1)]
    fn generated_lanes<const N: usize>(bencher: Bencher) {
        let w = get(N);
        let rows = past::rows(w);
        pass(bencher, w, || past::Generated::<N>::new(w, &rows, false));
    }

    #[divan::bench(consts = [64, 1_000, 10_000], sample_count = 20, sample_size = 1)]
    fn generated_scalar<const N: usize>(bencher: Bencher) {
        let w = get(N);
        let rows = past::rows(w);
        pass(bencher, w, || past::Generated::<N>::new(w, &rows, true));
    }

    #[divan::bench(args = [64, 1_000, 10_000], sample_count = 20, sample_size = 1)]
    fn hand_written(bencher: Bencher, agents: usize) {
        let w = get(agents);
        pass(bencher, w, || past::Hand::new(w));
    }

    #[divan::bench(args = [64, 1_000, 10_000], sample_count = 20, sample_size = 1)]
    fn hand_written_lanes(bencher: Bencher, agents: usize) {
        let w = get(agents);
        pass(bencher, w, || past::HandLanes::new(w));
    }

    #[divan::bench(args = [64, 1_000, 10_000], sample_count = 5, sample_size = 1)]
    fn interpreter(bencher: Bencher, agents: usize) {
        interpret(bencher, agents, "herd_past");
    }
}
