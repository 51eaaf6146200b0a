//! Unit tests of population trace decoding and of the population driver;
//! values, messages and columns are worked out by hand (columns are 1-based
//! characters; `col(line, text)` is where `text` first occurs in `line`).

use super::run::check_population;
use super::*;
use crate::output::{Properties, VerdictWriter};
use crate::read::Decode;
use crate::read::{InputSchema, InputType};
use crate::run::RunError;
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::{ResetCounts, Value, Verdict};

/// Agents { sick: bool, age: int, kind: Kind { a, b }, w: float },
/// globals { day: int }, capacity 3, properties all_sick and late (with reset).
fn schema() -> PopulationSchema {
    let input = |name: &str, ty| InputSchema::new(name, ty);
    let kind = InputType::Enum {
        name: "Kind".to_string(),
        variants: vec!["a".into(), "b".into()],
    };
    PopulationSchema::new(
        vec![
            input("sick", InputType::Bool),
            input("age", InputType::Int),
            input("kind", kind),
            input("w", InputType::Float),
        ],
        vec![input("day", InputType::Int)],
        3,
        Properties::new(vec!["all_sick".to_string(), "late".to_string()])
            .with_resets(vec![false, true]),
    )
}

/// The same agents, no globals.
fn schema_without_globals() -> PopulationSchema {
    let s = schema();
    PopulationSchema::new(
        s.attributes().to_vec(),
        Vec::new(),
        s.capacity(),
        s.properties().clone(),
    )
}

fn decode(schema: PopulationSchema, line: &str) -> Result<PopulationStep, PopulationLineError> {
    let mut step = PopulationStep::default();
    PopulationDecoder::new(schema).decode(line, &mut step)?;
    Ok(step)
}

/// The column and message of the error decoding `line` gives.
fn error(line: &str) -> (Option<usize>, String) {
    match decode(schema(), line) {
        Ok(step) => panic!("{line} decoded to {step:?}"),
        Err(e) => (e.column, e.kind.to_string()),
    }
}

/// The 1-based column of the first occurrence of `text` in the ASCII `line`.
fn col(line: &str, text: &str) -> Option<usize> {
    line.find(text).map(|at| at + 1)
}

const AGENT: &str = r#"{"sick": true, "age": 30, "kind": "a", "w": 1.5}"#;

#[test]
fn agents_and_globals_decode_in_declaration_order() {
    // Agent 1 lists its attributes out of order, qualifies its enum value
    // and gives its float as an integer; globals come first.
    let line = r#"{"globals": {"day": 4}, "agents": [{"sick": true, "age": 30, "kind": "a", "w": 1.5}, {"w": 2, "kind": "Kind::b", "age": -7, "sick": false}]}"#;
    let step = decode(schema(), line).unwrap();
    assert_eq!(step.agents(), 2);
    assert_eq!(
        step.attributes(),
        &[
            Value::Bool(true),
            Value::Int(30),
            Value::Enum(0),
            Value::Float(1.5),
            Value::Bool(false),
            Value::Int(-7),
            Value::Enum(1),
            Value::Float(2.0),
        ]
    );
    assert_eq!(step.globals(), &[Value::Int(4)]);
}

#[test]
fn no_agents_is_a_step() {
    let step = decode(schema(), r#"{"agents": [], "globals": {"day": 0}}"#).unwrap();
    assert_eq!(step.agents(), 0);
    assert!(step.attributes().is_empty());
}

#[test]
fn globals_may_be_left_out_only_without_globals() {
    let line = format!(r#"{{"agents": [{AGENT}]}}"#);
    let step = decode(schema_without_globals(), &line).unwrap();
    assert_eq!(step.agents(), 1);
    assert!(step.globals().is_empty());
    // An empty `globals` object is fine too.
    let line = format!(r#"{{"agents": [{AGENT}], "globals": {{}}}}"#);
    assert!(decode(schema_without_globals(), &line).is_ok());
    // With a global declared, leaving `globals` out is an error placed at
    // the brace closing the line.
    let line = format!(r#"{{"agents": [{AGENT}]}}"#);
    assert_eq!(
        error(&line),
        (
            Some(line.chars().count()),
            "missing key `globals` (an object giving the globals: day)".to_string()
        )
    );
}

#[test]
fn line_shape_errors() {
    assert_eq!(
        error("  [1, 2]"),
        (
            Some(3),
            "a population trace line must be a JSON object {\"agents\": [...], \
             \"globals\": {...}}, found an array"
                .to_string()
        )
    );
    assert_eq!(
        error(r#"{"globals": {"day": 1}}"#),
        (
            Some(23),
            "missing key `agents` (an array with one object per agent giving its attributes)"
                .to_string()
        )
    );
    let line = r#"{"agents": [], "globals": {"day": 1}, "extra": 1}"#;
    assert_eq!(
        error(line),
        (
            col(line, r#""extra""#),
            "unknown key `extra` (a population trace line has: agents, globals)".to_string()
        )
    );
    let line = r#"{"agents": [], "globals": {"day": 1}, "agents": []}"#;
    assert_eq!(
        error(line),
        (Some(39), "key `agents` is given twice".to_string())
    );
    let line = r#"{"agents": {}, "globals": {"day": 1}}"#;
    assert_eq!(
        error(line),
        (
            Some(12),
            "`agents` expects an array with one object per agent, found an object".to_string()
        )
    );
    let line = r#"{"agents": [{}, 3], "globals": {"day": 1}}"#;
    // Agent 0 (`{}`) is missing its first attribute before agent 1 is read.
    assert_eq!(
        error(line),
        (Some(14), "agent 0: missing attribute `sick`".to_string())
    );
    let line = format!(r#"{{"agents": [{AGENT}, 3], "globals": {{"day": 1}}}}"#);
    assert_eq!(
        error(&line),
        (
            col(&line, "3]"),
            "agent 1: expects an object giving every attribute, found number 3".to_string()
        )
    );
}

#[test]
fn attribute_errors_name_the_agent_and_the_attribute() {
    // Agent 1 lacks `w`: the error points at the brace closing agent 1.
    let line = format!(
        r#"{{"agents": [{AGENT}, {{"sick": true, "age": 3, "kind": "b"}}], "globals": {{"day": 1}}}}"#
    );
    assert_eq!(
        error(&line),
        (
            col(&line, r#""b"}"#).map(|c| c + 3),
            "agent 1: missing attribute `w`".to_string()
        )
    );
    let line =
        format!(r#"{{"agents": [{AGENT}, {AGENT}, {{"agee": 3}}], "globals": {{"day": 1}}}}"#);
    assert_eq!(
        error(&line),
        (
            col(&line, "\"agee\""),
            "agent 2: unknown attribute `agee` (the attributes are: sick, age, kind, w)"
                .to_string()
        )
    );
    let line = r#"{"agents": [{"sick": true, "sick": false}], "globals": {"day": 1}}"#;
    assert_eq!(
        error(line),
        (
            Some(28),
            "agent 0: attribute `sick` is given twice".to_string()
        )
    );
    let line = format!(
        r#"{{"agents": [{AGENT}, {{"sick": true, "age": "x"}}], "globals": {{"day": 1}}}}"#
    );
    assert_eq!(
        error(&line),
        (
            col(&line, r#""x""#),
            "agent 1: attribute `age` expects int, found string \"x\"".to_string()
        )
    );
    let line = r#"{"agents": [{"sick": 1}], "globals": {"day": 1}}"#;
    assert_eq!(
        error(line),
        (
            Some(22),
            "agent 0: attribute `sick` expects bool, found number 1".to_string()
        )
    );
    let line = r#"{"agents": [{"age": 9223372036854775808}], "globals": {"day": 1}}"#;
    assert_eq!(
        error(line),
        (
            Some(21),
            "agent 0: attribute `age` expects int, found number 9223372036854775808, \
             outside the int range"
                .to_string()
        )
    );
    for bad in ["c", "Other::a"] {
        let line = format!(
            r#"{{"agents": [{{"sick": true, "age": 1, "kind": "{bad}"}}], "globals": {{"day": 1}}}}"#
        );
        assert_eq!(
            error(&line),
            (
                Some(46),
                format!(
                    "agent 0: attribute `kind` expects a variant of enum `Kind` (one of: a, b), \
                     found \"{bad}\""
                )
            )
        );
    }
}

#[test]
fn global_errors() {
    let line = format!(r#"{{"agents": [{AGENT}], "globals": 3}}"#);
    assert_eq!(
        error(&line),
        (
            col(&line, "3}"),
            "`globals` expects an object giving every global, found number 3".to_string()
        )
    );
    let line = format!(r#"{{"agents": [{AGENT}], "globals": {{ }}}}"#);
    assert_eq!(
        error(&line),
        (
            col(&line, "{ }").map(|c| c + 2),
            "missing global `day`".to_string()
        )
    );
    let line = r#"{"agents": [], "globals": {"day": 1, "night": 2}}"#;
    assert_eq!(
        error(line),
        (
            Some(38),
            "unknown global `night` (the globals are: day)".to_string()
        )
    );
    let line = r#"{"agents": [], "globals": {"day": true}}"#;
    assert_eq!(
        error(line),
        (
            Some(35),
            "global `day` expects int, found bool true".to_string()
        )
    );
    let line = r#"{"agents": [], "globals": {"day": 1, "day": 2}}"#;
    assert_eq!(
        error(line),
        (Some(38), "global `day` is given twice".to_string())
    );
    // No globals declared: any key in `globals` is unknown.
    let line = r#"{"agents": [], "globals": {"day": 1}}"#;
    let e = decode(schema_without_globals(), line).unwrap_err();
    assert_eq!(
        (e.column, e.kind.to_string()),
        (
            Some(28),
            "unknown global `day` (the globals are: none)".to_string()
        )
    );
}

#[test]
fn malformed_json_is_reported_as_such() {
    let (column, message) = error(r#"{"agents": [}"#);
    assert!(message.starts_with("malformed JSON: "), "{message}");
    assert_eq!(column, Some(13));
    let (column, message) = error(r#"{"agents": [], "globals": {"day": 1}} x"#);
    assert!(message.starts_with("malformed JSON: trailing"), "{message}");
    assert_eq!(column, Some(39));
}

#[test]
fn more_agents_than_the_capacity_are_counted_not_stored() {
    let line = format!(
        r#"{{"agents": [{AGENT}, {AGENT}, {AGENT}, {AGENT}, {AGENT}], "globals": {{"day": 1}}}}"#
    );
    let mut step = PopulationStep::default();
    let e = PopulationDecoder::new(schema())
        .decode(&line, &mut step)
        .unwrap_err();
    assert_eq!(
        (e.column, e.kind.to_string()),
        (
            Some(1),
            "5 agents, but the monitor holds at most 3 (its capacity); raise it with \
             `capacity N;` in the population block"
                .to_string()
        )
    );
    // Only the first 3 agents' 4 attributes were kept.
    assert_eq!(step.attributes().len(), 12);
    // Agents beyond the capacity are still checked: a bad one is reported as such.
    let line = format!(
        r#"{{"agents": [{AGENT}, {AGENT}, {AGENT}, {{"sick": 0}}], "globals": {{"day": 1}}}}"#
    );
    assert_eq!(
        error(&line).1,
        "agent 3: attribute `sick` expects bool, found number 0"
    );
}

#[test]
fn decoding_reuses_its_buffers() {
    let mut decoder = PopulationDecoder::new(schema());
    let mut step = PopulationStep::default();
    let three = format!(r#"{{"agents": [{AGENT}, {AGENT}, {AGENT}], "globals": {{"day": 1}}}}"#);
    let one =
        r#"{"agents": [{"sick": false, "age": 1, "kind": "b", "w": 0.5}], "globals": {"day": 2}}"#;
    decoder.decode(&three, &mut step).unwrap();
    let capacity = (step.attributes.capacity(), step.globals.capacity());
    let pointer = step.attributes.as_ptr();
    for _ in 0..50 {
        decoder.decode(one, &mut step).unwrap();
        assert_eq!(step.agents(), 1);
        assert_eq!(
            step.attributes(),
            &[
                Value::Bool(false),
                Value::Int(1),
                Value::Enum(1),
                Value::Float(0.5)
            ]
        );
        decoder.decode(&three, &mut step).unwrap();
        assert_eq!(step.attributes().len(), 12);
    }
    assert_eq!(
        (step.attributes.capacity(), step.globals.capacity()),
        capacity
    );
    assert_eq!(step.attributes.as_ptr(), pointer);
}

#[test]
fn the_reader_skips_blank_lines_and_numbers_every_line() {
    let text = format!(
        "{{\"agents\": [], \"globals\": {{\"day\": 1}}}}\n\n  \r\n{{\"agents\": [{AGENT}], \"globals\": {{\"day\": 2}}}}\n{{\"agents\": 1}}\n"
    );
    let mut reader = PopulationReader::new(text.as_bytes(), schema());
    let mut step = PopulationStep::default();
    assert!(reader.read_next(&mut step).unwrap());
    assert_eq!(reader.line(), 1);
    assert!(reader.read_next(&mut step).unwrap());
    assert_eq!((reader.line(), step.agents()), (4, 1));
    let e = reader.read_next(&mut step).unwrap_err();
    assert_eq!(
        e.render("t.jsonl"),
        "error: t.jsonl:5:12: `agents` expects an array with one object per agent, found number 1"
    );
}

/// A hand-written monitor of `schema()`: `all_sick` is true iff every agent
/// is sick at this step (forall over a past body), `late` (with reset) is
/// true once day >= 2 and `?` before; agents are fixed by the first step.
struct Fake {
    first: Option<usize>,
    verdicts: [Verdict; 2],
    steps: u64,
    lates: u64,
    resets: u32,
}

impl Default for Fake {
    fn default() -> Self {
        Fake {
            first: None,
            verdicts: [Verdict::Unknown; 2],
            steps: 0,
            lates: 0,
            resets: 0,
        }
    }
}

impl PopulationStepper for Fake {
    fn reset(&mut self) {
        *self = Fake {
            resets: self.resets + 1,
            ..Fake::default()
        };
    }

    fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<&[Verdict], PopulationError> {
        let expected = *self.first.get_or_insert(agents);
        if expected != agents {
            return Err(PopulationError::AgentCountChanged {
                expected,
                found: agents,
            });
        }
        let all_sick = attributes
            .chunks(4)
            .all(|agent| agent.first() == Some(&Value::Bool(true)));
        let late = matches!(globals.first(), Some(Value::Int(d)) if *d >= 2);
        self.lates += u64::from(late);
        self.steps += 1;
        self.verdicts = [
            if all_sick {
                Verdict::True
            } else {
                Verdict::False
            },
            if late {
                Verdict::True
            } else {
                Verdict::Unknown
            },
        ];
        Ok(&self.verdicts)
    }

    fn finish(&self, out: &mut [Verdict]) {
        if self.steps > 0 {
            out.copy_from_slice(&self.verdicts);
        }
    }

    fn counts(&self, out: &mut [ResetCounts]) {
        out[1].satisfactions = self.lates;
    }
}

fn run_fake(text: &str) -> (Result<(), RunError<PopulationErrorKind>>, String, Fake) {
    let mut out = Vec::new();
    let mut fake = Fake::default();
    let outcome = {
        let mut writer = VerdictWriter::for_properties(&mut out, schema().properties());
        let reader = PopulationReader::new(text.as_bytes(), schema());
        check_population(
            reader,
            &mut fake,
            &mut writer,
            (&mut crate::run::Silent, &mut Default::default()),
            &mut Default::default(),
        )
    };
    (outcome, String::from_utf8(out).unwrap(), fake)
}

#[test]
fn the_driver_writes_monitor_verdict_lines() {
    let sick = r#"{"sick": true, "age": 1, "kind": "a", "w": 0}"#;
    let well = r#"{"sick": false, "age": 1, "kind": "a", "w": 0}"#;
    let text = format!(
        "{{\"agents\": [{sick}, {well}], \"globals\": {{\"day\": 1}}}}\n\
         \n\
         {{\"agents\": [{sick}, {sick}], \"globals\": {{\"day\": 2}}}}\n\
         {{\"agents\": [{well}, {sick}], \"globals\": {{\"day\": 3}}}}\n"
    );
    let (outcome, out, fake) = run_fake(&text);
    assert!(outcome.is_ok());
    assert_eq!(fake.resets, 1);
    // Step 0: agent 1 is well, day 1 → false, ?; step 1 (line 3): both sick,
    // day 2 → true, true; step 2: agent 0 well, day 3 → false, true. The end
    // line has the fake's finish verdicts (the schema flags no property
    // past-time); late was decided true twice; all_sick was false at 0 and 2.
    assert_eq!(
        out,
        "{\"step\": 0, \"all_sick\": \"false\", \"late\": \"?\"}\n\
         {\"step\": 1, \"all_sick\": \"true\", \"late\": \"true\"}\n\
         {\"step\": 2, \"all_sick\": \"false\", \"late\": \"true\"}\n\
         {\"end\": true, \"all_sick\": \"false\", \"all_sick.false_steps\": 2, \"all_sick.first_false\": 0, \
         \"late\": \"true\", \"late.satisfactions\": 2, \"late.violations\": 0, \
         \"late.false_steps\": 0, \"late.first_false\": null}\n"
    );
}

#[test]
fn an_empty_trace_gives_only_the_end_line() {
    let (outcome, out, _) = run_fake("\n\n");
    assert!(outcome.is_ok());
    assert_eq!(
        out,
        "{\"end\": true, \"all_sick\": \"?\", \"all_sick.false_steps\": 0, \"all_sick.first_false\": null, \
         \"late\": \"?\", \"late.satisfactions\": 0, \"late.violations\": 0, \
         \"late.false_steps\": 0, \"late.first_false\": null}\n"
    );
}

#[test]
fn a_refused_step_stops_the_run_before_its_line() {
    let text = format!(
        "{{\"agents\": [{AGENT}, {AGENT}], \"globals\": {{\"day\": 1}}}}\n\
         \n\
         \x20 {{\"agents\": [{AGENT}], \"globals\": {{\"day\": 1}}}}\n\
         {{\"agents\": [{AGENT}], \"globals\": {{\"day\": 1}}}}\n"
    );
    let (outcome, out, fake) = run_fake(&text);
    assert_eq!(
        out,
        "{\"step\": 0, \"all_sick\": \"true\", \"late\": \"?\"}\n"
    );
    assert_eq!(fake.steps, 1);
    match outcome {
        Err(RunError::Trace(e)) => assert_eq!(
            e.render("p.jsonl"),
            "error: p.jsonl:3:3: 1 agents, but the trace started with 2 (the number of \
             agents is fixed for a trace)"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bad_line_stops_the_run_before_its_line() {
    let text = format!(
        "{{\"agents\": [{AGENT}], \"globals\": {{\"day\": 1}}}}\n\
         {{\"agents\": [{AGENT}], \"globals\": {{\"day\": 2.5}}}}\n"
    );
    let (outcome, out, _) = run_fake(&text);
    assert_eq!(
        out,
        "{\"step\": 0, \"all_sick\": \"true\", \"late\": \"?\"}\n"
    );
    match outcome {
        Err(RunError::Trace(e)) => assert_eq!(
            e.to_string(),
            format!(
                "2:{}: global `day` expects int, found number 2.5",
                AGENT.len() + 35
            )
        ),
        other => panic!("{other:?}"),
    }
}
