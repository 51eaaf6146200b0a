//! Causal Past Logic: ns per event of the guard owner's `on_act` and
//! `on_choice`, and ns per message (`on_send` on the sender, the stamp encoded
//! to bytes and decoded, `on_recv` on the owner), for `may_merge`
//! (`specs/review.hind`) and the 25-sub-formula `may_deploy`
//! (`specs/deploy.hind`), on the generated lifeline monitors and on the
//! compiler's interpreter-based `LifelineMonitor`. Each iteration is one
//! event or one message of the workload's cycles (`codec_*`: the stamp's
//! decoding and encoding alone) (`hindsight_benches::cpl::workload`),
//! so divan's time per iteration is the figure. Run with
//! `cargo bench -p hindsight-benches --bench cpl`.

use divan::{black_box, Bencher};
use hindsight_benches::cpl::interpreted::{compiled, InterpretedRun};
use hindsight_benches::cpl::CplRun;
use hindsight_compiler::interp::system::LayoutCodec;

fn main() {
    divan::main();
}

/// Times `event` on `run`, one call per iteration, the run's state carried over.
fn each<R: CplRun, T>(bencher: Bencher, mut run: R, event: fn(&mut R) -> T) {
    bencher.bench_local(move || event(black_box(&mut run)));
}

/// The benches of one system: `$workload()` gives its workload, `$generated`
/// is its generated run and `$stamp` its generated stamp.
macro_rules! system {
    ($module:ident, $workload:path, $generated:ty, $stamp:ty) => {
        mod $module {
            use super::*;

            /// The generated run after the prefix.
            fn generated() -> $generated {
                <$generated>::new(&$workload()).expect("the workload fits the system")
            }

            #[divan::bench]
            fn act_generated(bencher: Bencher) {
                each(bencher, generated(), |run| run.act());
            }

            #[divan::bench]
            fn choice_generated(bencher: Bencher) {
                each(bencher, generated(), |run| run.choice());
            }

            #[divan::bench]
            fn message_generated(bencher: Bencher) {
                each(bencher, generated(), |run| run.message());
            }

            /// The stamp part of a message alone: the first message's stamp
            /// decoded from bytes and encoded again.
            #[divan::bench]
            fn codec_generated(bencher: Bencher) {
                let mut run = generated();
                run.message().expect("a message");
                let bytes = run.last_stamp().to_vec();
                let mut out = [0; <$stamp>::BYTES];
                bencher.bench_local(|| {
                    <$stamp>::from_bytes(black_box(&bytes)).and_then(|s| s.to_bytes(&mut out))
                });
            }

            /// As `codec_generated`, with the interpreter's stamps.
            #[divan::bench]
            fn codec_interpreter(bencher: Bencher) {
                let workload = $workload();
                let compiled = compiled(&workload).expect("the spec compiles");
                let system = compiled
                    .program
                    .system(workload.system)
                    .expect("the system");
                let codec = LayoutCodec::new(&system.layout);
                let mut run = generated();
                run.message().expect("a message");
                let bytes = run.last_stamp().to_vec();
                let mut out = vec![0; codec.max_bytes()];
                bencher.bench_local(|| {
                    codec
                        .decode(black_box(&bytes))
                        .and_then(|s| codec.encode(&s, &mut out))
                });
            }

            /// Runs `bench` on the interpreted run after the prefix.
            fn interpreted(bencher: Bencher, bench: fn(Bencher, InterpretedRun<'_>)) {
                let workload = $workload();
                let compiled = compiled(&workload).expect("the spec compiles");
                let run = InterpretedRun::new(&compiled, &workload).expect("the prefix runs");
                bench(bencher, run);
            }

            #[divan::bench]
            fn act_interpreter(bencher: Bencher) {
                interpreted(bencher, |b, run| each(b, run, |run| run.act()));
            }

            #[divan::bench]
            fn choice_interpreter(bencher: Bencher) {
                interpreted(bencher, |b, run| each(b, run, |run| run.choice()));
            }

            #[divan::bench]
            fn message_interpreter(bencher: Bencher) {
                interpreted(bencher, |b, run| each(b, run, |run| run.message()));
            }
        }
    };
}

system!(
    review,
    hindsight_benches::cpl::workload::review,
    hindsight_benches::cpl::generated::ReviewRun,
    hindsight_benches::cpl::generated::review_spec::review::Stamp
);
system!(
    deploy,
    hindsight_benches::cpl::workload::deploy,
    hindsight_benches::cpl::generated::DeployRun,
    hindsight_benches::cpl::generated::deploy_spec::deploy::Stamp
);
