//! Random past-time specs and traces: parser + checker + lowering + interpreter
//! against the reference evaluator of the textbook semantics, at every step.

use hindsight_compiler::Verdict;
use hindsight_tests::gen::{random_spec, trace};
use hindsight_tests::pipeline::run;
use hindsight_tests::reference::eval;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, ..ProptestConfig::default() })]

    #[test]
    fn interpreter_matches_reference(spec in random_spec(), trace in trace(24)) {
        let source = spec.source();
        let (rows, end) = run(&source, &trace);
        let properties = spec.inlined();
        for (i, row) in rows.iter().enumerate() {
            for (k, p) in properties.iter().enumerate() {
                let expected = Verdict::from(eval(p, &trace, i).as_bool());
                prop_assert_eq!(row[k], expected, "property f{} at step {}\n{}", k, i, source);
            }
        }
        // Finite-trace verdict of a past property: its value at the last step.
        let last = rows.last().cloned().unwrap_or_else(|| vec![Verdict::Unknown; properties.len()]);
        prop_assert_eq!(end, last);
    }
}
