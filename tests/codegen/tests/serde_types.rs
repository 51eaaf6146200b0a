//! With the runtime's `serde` feature (this crate turns it on), generated
//! data types implement serde's traits, named as the spec names them: a
//! monitor's `Input` reads a trace line, `Verdicts` writes what the CLI
//! prints, enums are variant names, a population's `Agent` reads a line's
//! agent, a lifeline's `Changes` its store, and an unsealed `Stamp` travels
//! as its checked bytes. Expected JSON is written by hand.

use hindsight_codegen_tests::epidemic_epidemic::epidemic::{Agent, Globals};
use hindsight_codegen_tests::epidemic_epidemic::Health;
use hindsight_codegen_tests::keywords::{r#impl, r#type};
use hindsight_codegen_tests::system_review::review::{Stamp, TestRunner};
use hindsight_codegen_tests::system_review::Status;
use hindsight_codegen_tests::trucks_trucks::{trucks, Action, Area};
use hindsight_runtime::Verdict;

#[test]
fn a_monitor_input_reads_a_trace_line_and_verdicts_write_cli_values() {
    let input: trucks::Input =
        serde_json::from_str(r#"{"action": "load", "area": "a1", "pkg": 2}"#).unwrap();
    assert_eq!(
        input,
        trucks::Input {
            action: Action::load,
            area: Area::a1,
            pkg: 2
        }
    );
    assert!(
        serde_json::from_str::<trucks::Input>(r#"{"action": "fly", "area": "a1", "pkg": 2}"#)
            .is_err()
    );
    let mut verdicts = r#impl::Verdicts {
        r#fn: Verdict::True,
        r#yield: Verdict::Unknown,
    };
    assert_eq!(
        serde_json::to_string(&verdicts).unwrap(),
        r#"{"fn":"true","yield":"?"}"#
    );
    verdicts = serde_json::from_str(r#"{"fn": "false", "yield": "true"}"#).unwrap();
    assert_eq!(verdicts.r#fn, Verdict::False);
    assert_eq!(serde_json::to_string(&r#type::r#move).unwrap(), r#""move""#);
}

#[test]
fn population_and_lifeline_types_use_spec_names() {
    let agent: Agent =
        serde_json::from_str(r#"{"health": "infected", "female": true, "age": 61}"#).unwrap();
    assert_eq!(agent.health, Health::infected);
    assert_eq!((agent.female, agent.age), (true, 61));
    let globals: Globals = serde_json::from_str(r#"{"day": 3, "lockdown": false}"#).unwrap();
    assert_eq!(globals.day, 3);
    let changes: TestRunner::Changes =
        serde_json::from_str(r#"{"cand": 7, "status": "passed"}"#).unwrap();
    assert_eq!(
        changes,
        TestRunner::Changes {
            cand: Some(7),
            status: Some(Status::passed)
        }
    );
}

#[test]
fn an_unsealed_stamp_serializes_as_its_checked_bytes() {
    let mut runner = TestRunner::Monitor::new();
    let stamp = runner
        .on_send(&TestRunner::Changes {
            cand: Some(7),
            status: Some(Status::passed),
        })
        .expect("sends");
    let json = serde_json::to_string(&stamp).unwrap();
    let mut bytes = [0u8; Stamp::BYTES];
    let len = stamp.to_bytes(&mut bytes).unwrap();
    assert_eq!(json, serde_json::to_string(&bytes[..len]).unwrap());
    assert_eq!(serde_json::from_str::<Stamp>(&json).unwrap(), stamp);
    // A damaged version byte is refused when deserialized.
    let mut damaged = bytes[..len].to_vec();
    damaged[0] ^= 1;
    let damaged = serde_json::to_string(&damaged).unwrap();
    assert!(serde_json::from_str::<Stamp>(&damaged).is_err());
}
