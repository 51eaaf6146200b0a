//! Protocol monitors: ns per message of the alternating-bit protocol
//! (`examples/protocols/abp.hind`) over 10^4 rounds of 6 conforming
//! messages, the central monitor hand-written (the limit), generated and
//! interpreted, and the monitor of the group alice + carol generated and
//! interpreted. Run with `cargo bench -p hindsight-benches --bench
//! protocol`; divan prints time per pass (divide by 6 × 10^4 for ns per
//! message) and messages/s.

use std::sync::LazyLock;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hindsight_benches::protocol::generated::abp::protocols::abp::{Group, Monitor};
use hindsight_benches::protocol::{
    table, violations, workload, HandAbp, InterpretedCentral, InterpretedGroup, Message,
    ProtocolRun, GROUP,
};
use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};

/// Rounds in one pass.
const ROUNDS: usize = 10_000;

static MESSAGES: LazyLock<Vec<Message>> = LazyLock::new(|| workload(ROUNDS, None));

fn main() {
    divan::main();
}

/// Times passes of a fresh `run()` over the messages.
fn pass<R: ProtocolRun>(bencher: Bencher, run: impl Fn() -> R + Sync) {
    let messages = MESSAGES.as_slice();
    bencher
        .counter(ItemsCount::new(messages.len()))
        .bench(|| violations(&mut run(), black_box(messages)));
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn central_hand_written(bencher: Bencher) {
    pass(bencher, HandAbp::default);
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn central_generated(bencher: Bencher) {
    pass(bencher, Monitor::new);
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn central_interpreter(bencher: Bencher) {
    let table = table();
    pass(bencher, || {
        InterpretedCentral(ProtocolMonitor::new(&table), &table)
    });
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn group_generated(bencher: Bencher) {
    pass(bencher, || Group::new(&GROUP));
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn group_interpreter(bencher: Bencher) {
    let table = table();
    pass(bencher, || {
        InterpretedGroup(GroupMonitor::new(&table, &GROUP), &table)
    });
}
