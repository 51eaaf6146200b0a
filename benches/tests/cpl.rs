//! The CPL benchmarks' monitors compute what they claim: along the
//! benchmark's event sequences the generated and the interpreter-based
//! lifeline monitors give the same guard at every event and the same stamp
//! bytes on every message, and both give the hand-worked verdicts; stamp sizes
//! follow the layout's formula.

use hindsight_benches::cpl::generated::deploy_spec::deploy::Stamp as DeployStamp;
use hindsight_benches::cpl::generated::review_spec::review::Stamp as ReviewStamp;
use hindsight_benches::cpl::generated::{DeployRun, ReviewRun, SYNTHETIC_STAMPS};
use hindsight_benches::cpl::interpreted::{compiled, InterpretedRun};
use hindsight_benches::cpl::synthetic;
use hindsight_benches::cpl::workload::{deploy, review, Workload};
use hindsight_benches::cpl::{CplRun, RunError};
use hindsight_compiler::compile;
use hindsight_runtime::Verdict::{self, False, True};

/// Runs `rounds` rounds of (act, choice, message) on both runs, asserting the
/// same guard after every event and the same stamp bytes on every message;
/// returns how often the guard was true and false.
fn agree(generated: &mut dyn CplRun, interpreted: &mut dyn CplRun, rounds: usize) -> [usize; 2] {
    let mut counts = [0; 2];
    assert_eq!(generated.guard(), interpreted.guard(), "after the prefix");
    for round in 0..rounds {
        generated.act().expect("generated act");
        interpreted.act().expect("interpreted act");
        assert_eq!(
            generated.guard(),
            interpreted.guard(),
            "act of round {round}"
        );
        let choices = [generated.choice(), interpreted.choice()];
        assert_eq!(
            choices[0].as_ref().ok(),
            choices[1].as_ref().ok(),
            "choice of round {round}"
        );
        let lengths = [generated.message(), interpreted.message()];
        assert_eq!(
            lengths[0].as_ref().ok(),
            lengths[1].as_ref().ok(),
            "message of round {round}"
        );
        assert_eq!(
            generated.last_stamp(),
            interpreted.last_stamp(),
            "stamp of round {round}"
        );
        assert_eq!(
            generated.guard(),
            interpreted.guard(),
            "receive of round {round}"
        );
        counts[usize::from(generated.guard() != True)] += 1;
    }
    counts
}

/// How a generated run starts on a workload (`ReviewRun::new`, `DeployRun::new`).
type Start<R> = fn(&Workload) -> Result<R, RunError>;

/// Checks that a generated run (started by `start`) and the interpreted one
/// agree on `workload`, with the guard both true and false often enough.
fn check_agreement<R: CplRun>(workload: Workload, start: Start<R>) {
    let mut generated = start(&workload).expect("the prefix runs");
    let compiled = compiled(&workload).expect("the spec compiles");
    let mut interpreted = InterpretedRun::new(&compiled, &workload).expect("the prefix runs");
    let [trues, falses] = agree(&mut generated, &mut interpreted, 500);
    assert!(trues > 50 && falses > 50, "{trues} true, {falses} false");
}

#[test]
fn review_generated_and_interpreted_agree() {
    check_agreement(review(), ReviewRun::new);
}

#[test]
fn deploy_generated_and_interpreted_agree() {
    check_agreement(deploy(), DeployRun::new);
}

/// The guard after each of `count` calls of `event` on a generated run
/// (started by `start`) and the interpreted one on `workload`, which must agree.
fn verdicts<R: CplRun>(
    workload: Workload,
    start: Start<R>,
    count: usize,
    event: fn(&mut dyn CplRun) -> Verdict,
) -> Vec<Verdict> {
    let mut generated = start(&workload).expect("the prefix runs");
    let compiled = compiled(&workload).expect("the spec compiles");
    let mut interpreted = InterpretedRun::new(&compiled, &workload).expect("the prefix runs");
    assert_eq!(
        [generated.guard(), interpreted.guard()],
        [True, True],
        "after the prefix"
    );
    (0..count)
        .map(|_| {
            let verdict = event(&mut generated);
            assert_eq!(event(&mut interpreted), verdict);
            verdict
        })
        .collect()
}

fn choice(run: &mut dyn CplRun) -> Verdict {
    run.choice().expect("a choice")
}

fn message(run: &mut dyn CplRun) -> Verdict {
    run.message().expect("a message");
    run.guard()
}

/// The Committer's candidate goes 7, 7, 8, 7: the reviewers reported on 7.
#[test]
fn review_choices_follow_the_candidate() {
    let expected = [True, True, False, True, True, True, False, True];
    assert_eq!(verdicts(review(), ReviewRun::new, 8, choice), expected);
}

/// TestRunner reports passed, pending (no failure since the pass), failed,
/// passed for candidate 8, candidate 7 (the Committer's too).
#[test]
fn review_messages_follow_the_reports() {
    let cycle = [True, True, False, False, True];
    assert_eq!(
        verdicts(review(), ReviewRun::new, 10, message),
        [cycle, cycle].concat()
    );
}

/// Builder events: 1 the prefix (warnings 2), then per message: ok lost (no
/// failure since it held: true), a failure, a recovery, 11 warnings at event
/// 5 (`H[0,4]` false through event 9), back to 2, revision 4 for both
/// Builder and Deployer (the Tester is still on 3), both back on 3; then the
/// cycle again: at event 11 (the recovery) the window no longer holds event 5.
#[test]
fn deploy_messages_follow_the_reports() {
    let first = [True, False, True, False, False, False, False];
    let second = [False, False, True, False, False, False, False];
    assert_eq!(
        verdicts(deploy(), DeployRun::new, 14, message),
        [first, second].concat()
    );
}

#[test]
fn deploy_choices_follow_the_revision() {
    assert_eq!(
        verdicts(deploy(), DeployRun::new, 4, choice),
        [True, True, False, True]
    );
}

/// A stamp's encoded length: header 9, one byte per clock component (fewer
/// than 128 events), the bit set, 8 bytes per defined int entry. The sender
/// knows only its own entries: TestRunner's `cand`; Builder's `rev` and
/// `warnings`.
#[test]
fn message_stamps_have_the_hand_computed_length() {
    let workload = review();
    let mut run = ReviewRun::new(&workload).expect("the prefix runs");
    assert_eq!(run.message().expect("a message"), 9 + 4 + 1 + 8);
    let workload = deploy();
    let mut run = DeployRun::new(&workload).expect("the prefix runs");
    assert_eq!(run.message().expect("a message"), 9 + 3 + 1 + 8 + 8);
}

/// `StampLayout::max_bytes`: header 9, at most 9 bytes per varint clock
/// component, one bit per entry, 8 bytes per int entry: what the generated
/// `Stamp::BYTES` allows.
#[test]
fn stamp_sizes_follow_the_layout() {
    let layout_bytes = |source: &str, system: &str| {
        let compiled = compile(source).expect("the spec compiles");
        compiled
            .program
            .system(system)
            .expect("the system")
            .layout
            .max_bytes()
    };
    // Review: two formula and two int entries over 4 lifelines.
    assert_eq!(layout_bytes(review().source, "review"), 9 + 36 + 1 + 16);
    // Deploy: four formula and four int entries over 3 lifelines.
    assert_eq!(layout_bytes(deploy().source, "deploy"), 9 + 27 + 1 + 32);
    // In memory: the clock, an Option<i64> per int entry, a bool per formula entry.
    assert_eq!(size_of::<ReviewStamp>(), 32 + 2 * 16 + 8);
    assert_eq!(size_of::<DeployStamp>(), 24 + 4 * 16 + 8);
    assert_eq!([ReviewStamp::BYTES, DeployStamp::BYTES], [62, 69]);
    let mut seen = Vec::new();
    for &(n, g, bytes, size) in SYNTHETIC_STAMPS {
        let layout = layout_bytes(&synthetic::source(n, g), "s");
        // One formula and one int entry per guard.
        assert_eq!(
            layout,
            9 + 9 * n + (2 * g).div_ceil(8) + 8 * g,
            "n={n} g={g}"
        );
        assert_eq!(bytes, layout, "n={n} g={g}");
        // In memory: a u64 per clock component, an Option<i64> and a bool per guard.
        assert_eq!(size, (8 * n + 17 * g).next_multiple_of(8), "n={n} g={g}");
        println!("{n} lifelines, {g} guards: layout {layout} bytes, BYTES {bytes}, size_of {size}");
        seen.push((n, g));
    }
    let all: Vec<_> = synthetic::LIFELINES
        .iter()
        .flat_map(|&n| synthetic::GUARDS.iter().map(move |&g| (n, g)))
        .collect();
    assert_eq!(seen, all);
}
