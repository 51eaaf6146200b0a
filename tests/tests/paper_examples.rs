//! Hand-computed examples from the source papers, written as past-time
//! properties, run through the whole pipeline. Expected values are worked out
//! in the comments, independently of the implementation.

use hindsight_compiler::hir::Value;
use hindsight_tests::pipeline::{bool_trace, column, run};

/// CPL paper, section 2: the TestRunner's status history satisfies
/// `status != failed S status == passed` iff some report said `passed` and no
/// `failed` came after it.
#[test]
fn cpl_since_pattern_over_a_status_history() {
    let spec = "enum Status { pending, passed, failed }
        monitor runner {
            input status: Status;
            property ok = status != failed S status == passed;
        }";
    // status: pending passed pending failed passed passed failed
    // step 0: no passed yet                          -> 0
    // step 1: passed now                             -> 1
    // step 2: pending != failed, passed at 1         -> 1
    // step 3: failed breaks the chain                -> 0
    // step 4: passed again                           -> 1
    // step 5: passed                                 -> 1
    // step 6: failed                                 -> 0
    let statuses = [0, 1, 0, 2, 1, 1, 2];
    let trace: Vec<_> = statuses.iter().map(|&s| vec![Value::Enum(s)]).collect();
    let (rows, end) = run(spec, &trace);
    assert_eq!(column(&rows, 0), "0110110");
    assert_eq!(end, vec![hindsight_compiler::Verdict::False]);
}

/// TRAC, TextWorld rule 1: "If you take an item, you have to examine it in the
/// next step", checked one step late as the past property `Y take -> examine`.
#[test]
fn textworld_examine_after_take() {
    let spec = "monitor textworld {
            input take: bool;
            input examine: bool;
            property examined = Y take -> examine;
        }";
    // take:    1 0 1 1 0 0
    // examine: 0 1 0 1 0 1
    // step 0: Y take false                  -> 1
    // step 1: took at 0, examine now        -> 1
    // step 2: Y take false (0 at step 1)    -> 1
    // step 3: took at 2, examine now        -> 1
    // step 4: took at 3, no examine         -> 0
    // step 5: Y take false                  -> 1
    let trace = bool_trace(&["101100", "010101"]);
    let (rows, _) = run(spec, &trace);
    assert_eq!(column(&rows, 0), "111101");
}

/// TRAC, ScienceWorld rule 3: "You must not look around twice in a row".
#[test]
fn scienceworld_no_double_look() {
    let spec = "monitor scienceworld {
            input look: bool;
            property no_double_look = !(look && Y look);
        }";
    // look: 1 1 0 1 0 1 1 1
    // step 0: Y look false at the first step -> 1
    // step 1: look twice                     -> 0
    // step 2: no look                        -> 1
    // step 3: look after no look             -> 1
    // step 4:                                -> 1
    // step 5:                                -> 1
    // step 6: twice                          -> 0
    // step 7: twice                          -> 0
    let (rows, _) = run(spec, &bool_trace(&["11010111"]));
    assert_eq!(column(&rows, 0), "10111100");
}

/// language.md's door monitor: an alarm is fine only while a request is pending
/// (`!grant S request`), with the `let` shared by two properties.
#[test]
fn door_alarm_needs_a_pending_request() {
    let spec = "monitor door {
            input request: bool;
            input grant: bool;
            input alarm: bool;
            let pending = !grant S request;
            property alarm_ok = alarm -> pending;
            property quiet_when_idle = !pending -> !alarm;
        }";
    // request: 0 1 0 0 0 0
    // grant:   0 0 0 1 0 0
    // alarm:   1 0 1 0 1 0
    // pending: 0 1 1 0 0 0   (request at 1, grant at 3 ends it)
    // alarm_ok = alarm -> pending: 0 1 1 1 0 1
    let trace = bool_trace(&["010000", "000100", "101010"]);
    let (rows, end) = run(spec, &trace);
    assert_eq!(column(&rows, 0), "011101");
    assert_eq!(column(&rows, 1), "011101");
    assert_eq!(end, vec![hindsight_compiler::Verdict::True; 2]);
}

/// Bounded once with a delay: `O[2,3] p` holds at i iff p held at i-3 or i-2.
#[test]
fn bounded_once_with_a_lower_bound() {
    let spec = "monitor w { input p: bool; property recent = O[2,3] p; }";
    // p:      1 0 0 0 0 1 0 0 0 0
    // i=0,1: window empty or before p... i=0: j in [-3,-2] none -> 0; i=1: none -> 0
    // i=2: j in {0}       p(0)=1 -> 1
    // i=3: j in {0,1}            -> 1
    // i=4: j in {1,2}            -> 0
    // i=5: j in {2,3}            -> 0
    // i=6: j in {3,4}            -> 0
    // i=7: j in {4,5}  p(5)=1    -> 1
    // i=8: j in {5,6}            -> 1
    // i=9: j in {6,7}            -> 0
    let (rows, _) = run(spec, &bool_trace(&["1000010000"]));
    assert_eq!(column(&rows, 0), "0011000110");
}
