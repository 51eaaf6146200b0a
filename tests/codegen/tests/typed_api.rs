//! The typed API of generated monitors, with hand-worked expectations: raw
//! identifiers for Rust keywords, enum helpers, `peek`, `finish`, `reset`, the
//! schema and the size of the state.

use hindsight_codegen_tests::keywords::{r#gen, r#impl, r#type};
use hindsight_codegen_tests::trucks_trucks::{trucks, Action, Area};
use hindsight_runtime::Verdict::{False, True, Unknown};
use hindsight_runtime::{InputType, StepMonitor, Value, Verdict};
use std::mem::size_of;

fn keywords_input(r#loop: bool, r#struct: r#type, r#async: i64) -> r#impl::Input {
    r#impl::Input {
        r#struct,
        r#loop,
        r#async,
    }
}

#[test]
fn raw_identifiers_and_hand_worked_verdicts() {
    // fn = loop -> struct == move;  yield = O[2,3] loop && async < 3
    let mut m = r#impl::Monitor::new();
    let steps = [
        (keywords_input(true, r#type::r#fn, 0), [False, False]),
        (keywords_input(false, r#type::r#fn, 0), [True, False]),
        (keywords_input(false, r#type::r#fn, 0), [True, True]), // loop at step 0
        (keywords_input(true, r#type::r#move, 5), [True, False]), // async >= 3
        (keywords_input(false, r#type::r#match, 0), [True, False]), // steps 1..2: no loop
        (keywords_input(false, r#type::r#fn, 0), [True, True]), // loop at step 3
    ];
    for (k, (input, want)) in steps.iter().enumerate() {
        assert_eq!(m.step(input).to_array(), *want, "step {k}");
    }
    assert_eq!(r#impl::Verdicts::NAMES, ["fn", "yield"]);
    assert_eq!(m.finish().r#yield, True);
}

#[test]
fn enum_helpers() {
    assert_eq!(r#type::NAMES, ["fn", "match", "move"]);
    assert_eq!(r#type::r#move.index(), 2);
    assert_eq!(r#type::from_index(1), Some(r#type::r#match));
    assert_eq!(r#type::from_index(3), None);
    assert_eq!(r#type::default(), r#type::r#fn);
    assert_eq!(
        Action::NAMES,
        ["drive", "load", "unload", "deliver", "refuel", "look"]
    );
}

#[test]
fn peek_finish_and_reset() {
    let mut m = trucks::Monitor::new();
    assert_eq!(m.finish(), trucks::Verdicts::UNKNOWN);
    assert_eq!(m.finish().to_array(), [Unknown; 6]);
    let load_in_depot = trucks::Input {
        action: Action::load,
        area: Area::depot,
        pkg: 1,
    };
    let before = m.clone();
    let peeked = m.peek(&load_in_depot);
    assert_eq!(m, before, "peek changes nothing");
    assert_eq!(peeked.load_only_in_a1, False);
    assert_eq!(m.step(&load_in_depot), peeked);
    assert_eq!(m.finish(), peeked);
    // A second load: load_at_most_once fails now (Y O loading).
    assert_eq!(m.step(&load_in_depot).load_at_most_once, False);
    m.reset();
    assert_eq!(m, trucks::Monitor::default());
    assert_eq!(m.step(&load_in_depot).load_at_most_once, True);
}

#[test]
fn step_values_reads_defaults_for_missing_and_mistyped_values() {
    // as = Y dyn: the verdict at step 1 is the `dyn` read at step 0.
    let mut m = r#gen::Monitor::new();
    let mut v = [Unknown];
    m.step_values(&[Value::Bool(true)], &mut v);
    assert_eq!(v, [False]);
    m.step_values(&[Value::Int(1)], &mut v); // mistyped: reads false
    assert_eq!(v, [True]);
    m.step_values(&[], &mut v); // missing: reads false
    assert_eq!(v, [False]);
    let mut none: [Verdict; 0] = [];
    m.step_values(&[], &mut none); // surplus verdict slots are fine either way
    m.finish_values(&mut v);
    assert_eq!(v, [False]);
}

#[test]
fn schema() {
    assert_eq!(r#impl::SCHEMA.monitor, "impl");
    let names: Vec<&str> = r#impl::SCHEMA.properties.iter().map(|p| p.name).collect();
    assert_eq!(names, ["fn", "yield"]);
    let names: Vec<&str> = r#impl::SCHEMA.inputs.iter().map(|i| i.name).collect();
    assert_eq!(names, ["struct", "loop", "async"]);
    assert_eq!(
        r#impl::SCHEMA.inputs[0].ty,
        InputType::Enum {
            name: "type",
            variants: &["fn", "match", "move"]
        }
    );
    assert_eq!(r#impl::SCHEMA.inputs[2].ty, InputType::Int);
}

#[test]
fn state_size() {
    // trucks: 7 bool cells + a u8 counter (O[1,4] -> Y then O[0,3]) + 6 verdicts.
    assert_eq!(size_of::<trucks::Monitor>(), 7 + 1 + 6);
    // gen: one bool (Y) + one verdict.
    assert_eq!(size_of::<r#gen::Monitor>(), 2);
    // impl: O[2,3] = O[0,1] over a 2-step delay: a u64 ring + a u8 counter + the
    // u64 step counter + 2 verdicts = 19 bytes, padded to u64 alignment.
    assert_eq!(size_of::<r#impl::Monitor>(), 24);
}
