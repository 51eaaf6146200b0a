//! Random timed specs and timestamped traces (equal times, half seconds,
//! long gaps): parser + checker + lowering + interpreter against the
//! reference evaluators of the textbook semantics of duration bounds, past
//! ([`eval_timed`]) and future ([`reports`]: LTL3 verdicts, finite-trace
//! verdicts and reset counts), after every step.

use hindsight_compiler::interp::Interpreter;
use hindsight_tests::gen::{timed_spec, timed_trace};
use hindsight_tests::timed::expected;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn interpreter_matches_timed_reference(spec in timed_spec(), trace in timed_trace(14)) {
        let source = spec.source();
        let compiled = hindsight_compiler::compile(&source)
            .unwrap_or_else(|d| panic!("{}", hindsight_compiler::diag::render("spec.hind", &source, &d)));
        let table = &compiled.program.monitors[0];
        let expected = expected(&spec.properties, &trace);
        let mut interp = Interpreter::new(table);
        for (i, step) in trace.iter().enumerate() {
            let verdicts = interp.step(step).to_vec();
            let (finish, counts) = (interp.finish(), interp.counts());
            for (k, column) in expected.iter().enumerate() {
                let (verdict, end, count) = column[i];
                prop_assert_eq!(verdicts[k], verdict, "f{} at step {}\n{}", k, i, source);
                prop_assert_eq!(finish[k], end, "finish of f{} after step {}\n{}", k, i, source);
                prop_assert_eq!(counts[k], count, "counts of f{} after step {}\n{}", k, i, source);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// The witness ring of `l S[lo,hi] r` (`0 < lo`) over long random runs,
    /// against the definition over the whole history, and within the capacity
    /// the compiler gives it: what it keeps answers every query exactly.
    #[test]
    fn witness_ring_answers_like_the_whole_history(
        lo in 1u64..12,
        width in 1u64..12,
        steps in prop::collection::vec((0u64..4, any::<bool>(), prop::bool::weighted(0.9)), 1..300),
    ) {
        use hindsight_runtime::time::{ring_capacity, witness_next, witnessed};
        let hi = lo + width;
        let capacity = ring_capacity(lo, hi).expect("a window of width > 0 has a ring");
        let mut words = [0i64; 64];
        prop_assert!(capacity < 64);
        let ring = &mut words[..=capacity as usize];
        let (mut now, mut history) = (0i64, Vec::<(i64, bool, bool)>::new());
        for (gap, witness, chain) in steps {
            now += gap as i64;
            // `chain S[lo,hi] witness` now, by the definition: a witness at some
            // step j with lo <= now - t_j <= hi, and the chain at every step after j.
            history.push((now, witness, chain));
            let n = history.len() - 1;
            let expected = (0..=n).any(|j| {
                let age = (now - history[j].0) as u64;
                history[j].1 && age >= lo && age <= hi && (j + 1..=n).all(|k| history[k].2)
            });
            prop_assert_eq!(chain && witnessed(&*ring, now, lo, hi), expected, "at time {} of {:?}", now, history);
            witness_next(&mut *ring, chain, witness, now, lo, hi);
            let len = (ring[0] as u64 >> 32) as u64;
            prop_assert!(len <= capacity, "{} times kept, capacity {}", len, capacity);
        }
    }
}
