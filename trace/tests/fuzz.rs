//! Fuzzing the three trace readers: random lines built from JSON fragments
//! near the accepted shapes, and random bytes, never panic; every refused
//! line is reported at its line number (and a column when there is one).

use hindsight_runtime::record::{Absent, Field, FilterOp, Literal, Source};
use hindsight_trace::population::{PopulationReader, PopulationSchema, PopulationStep, Value};
use hindsight_trace::system::{LifelineSchema, SystemEvent, SystemReader, SystemSchema};
use hindsight_trace::{InputSchema, InputType, TraceReader, TraceSchema};
use proptest::prelude::*;

fn input(name: &str, ty: InputType) -> InputSchema {
    InputSchema::new(name, ty)
}

fn kind() -> InputType {
    InputType::Enum {
        name: "Kind".to_string(),
        variants: vec!["a".to_string(), "b".to_string()],
    }
}

/// Pieces of JSON, mostly the keys and values the schemas below accept.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    " ",
    "\"",
    "\"agents\"",
    "\"globals\"",
    "\"sick\"",
    "\"age\"",
    "\"kind\"",
    "\"day\"",
    "\"lifeline\"",
    "\"kind\"",
    "\"send\"",
    "\"recv\"",
    "\"act\"",
    "\"choice\"",
    "\"to\"",
    "\"msg\"",
    "\"m1\"",
    "\"store\"",
    "\"A\"",
    "\"B\"",
    "\"x\"",
    "\"a\"",
    "\"Kind::b\"",
    "\"Kind::\"",
    "true",
    "false",
    "null",
    "0",
    "-1",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "1.5",
    "1e400",
    "-0.0",
    "\"\\u00e9\"",
    "\"\\ud800\"",
    "é",
    "\u{0}",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..24)
            .prop_map(|parts| parts.concat()),
        1 => proptest::collection::vec(any::<u8>(), 0..40)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).replace('\n', " ")),
    ]
}

fn trace() -> impl Strategy<Value = String> {
    proptest::collection::vec(line(), 1..6).prop_map(|lines| lines.join("\n"))
}

/// The rendered error names the trace and a line number.
fn assert_placed(rendered: &str) {
    assert!(rendered.contains("trace.jsonl:"), "{rendered}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn monitor_reader_never_panics(text in trace()) {
        let schema = TraceSchema::new(
            vec![input("sick", InputType::Bool), input("age", InputType::Int), input("kind", kind())],
            vec!["p".to_string()],
        );
        let mut reader = TraceReader::new(text.as_bytes(), schema);
        let mut values: Vec<Value> = Vec::new();
        loop {
            match reader.read_next(&mut values) {
                Ok(true) => prop_assert_eq!(values.len(), 3),
                Ok(false) => break,
                Err(e) => {
                    assert_placed(&e.render("trace.jsonl"));
                    break;
                }
            }
        }
    }

    #[test]
    fn records_reader_never_panics(text in trace()) {
        let at = |name: &str, ty, pointer: &str, absent| {
            input(name, ty).with_field(Field { source: Source::Pointer(pointer.to_string()), absent })
        };
        let schema = TraceSchema::new(
            vec![
                at("sick", InputType::Bool, "/agents/0/sick", Absent::Hold(None)),
                at("age", InputType::Int, "/globals/age", Absent::Default(Value::Int(1))),
                at("kind", kind(), "/kind", Absent::Error),
                input("x", InputType::Bool).with_field(Field {
                    source: Source::Present("/store/x".to_string()),
                    absent: Absent::Error,
                }),
            ],
            vec!["p".to_string()],
        )
        .with_steps(vec![
            FilterOp::Equals("/lifeline".to_string(), Literal::Str("A".to_string())),
            FilterOp::Present("/msg".to_string()),
            FilterOp::Not,
            FilterOp::Or,
        ]);
        let mut reader = TraceReader::new(text.as_bytes(), schema);
        let mut values: Vec<Value> = Vec::new();
        loop {
            match reader.read_next(&mut values) {
                Ok(true) => prop_assert_eq!(values.len(), 4),
                Ok(false) => break,
                Err(e) => {
                    assert_placed(&e.render("trace.jsonl"));
                    break;
                }
            }
        }
        let _ = reader.decoder().unmatched();
    }

    #[test]
    fn system_reader_never_panics(text in trace()) {
        let lifeline = |name: &str| LifelineSchema {
            name: name.to_string(),
            vars: vec![input("x", InputType::Int), input("kind", kind())],
            guards: vec!["g".to_string()],
        };
        let schema = SystemSchema::new(vec![lifeline("A"), lifeline("B")]);
        let mut reader = SystemReader::new(text.as_bytes(), schema);
        let mut event = SystemEvent::default();
        loop {
            match reader.read_next(&mut event) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    assert_placed(&e.render("trace.jsonl"));
                    break;
                }
            }
        }
    }

    #[test]
    fn population_reader_never_panics(text in trace()) {
        let schema = PopulationSchema::new(
            vec![input("sick", InputType::Bool), input("age", InputType::Int), input("kind", kind())],
            vec![input("day", InputType::Int)],
            4,
            vec!["p".to_string()],
        );
        let mut reader = PopulationReader::new(text.as_bytes(), schema);
        let mut step = PopulationStep::default();
        loop {
            match reader.read_next(&mut step) {
                Ok(true) => {
                    prop_assert!(step.agents() <= 4);
                    prop_assert_eq!(step.attributes().len(), step.agents() * 3);
                    prop_assert_eq!(step.globals().len(), 1);
                }
                Ok(false) => break,
                Err(e) => {
                    assert_placed(&e.render("trace.jsonl"));
                    break;
                }
            }
        }
    }
}

/// A valid line of each kind is accepted, so the fuzzing above is not
/// trivially refusing everything.
#[test]
fn the_fragments_can_form_accepted_lines() {
    let schema = PopulationSchema::new(
        vec![
            input("sick", InputType::Bool),
            input("age", InputType::Int),
            input("kind", kind()),
        ],
        vec![input("day", InputType::Int)],
        4,
        vec!["p".to_string()],
    );
    let text = r#"{"agents":[{"sick":true,"age":0,"kind":"Kind::b"}],"globals":{"day":-1}}"#;
    let mut reader = PopulationReader::new(text.as_bytes(), schema);
    let mut step = PopulationStep::default();
    assert!(reader.read_next(&mut step).expect("accepted"));
    assert_eq!(
        step.attributes(),
        [Value::Bool(true), Value::Int(0), Value::Enum(1)]
    );
}
