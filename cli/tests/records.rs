//! Log records read like the traces they reshape: a random past-time spec
//! checked over a random trace prints exactly the same verdict lines as the
//! same spec with every input mapped (`from`, `default`, `hold`, a step
//! filter) checked over a log that nests the inputs, adds fields, leaves out
//! what `default` or `hold` give back, writes `null` for some absent values
//! and interleaves records that are no steps (with values of the wrong type,
//! which must not matter).
//!
//! The expected output is the plain run's, not a value taken from the
//! records reader: the two readers share no code past the line splitter.

use hindsight_cli::schema::trace_schema;
use hindsight_compiler::hir::Value;
use hindsight_compiler::interp::Interpreter;
use hindsight_tests::gen::{map_inputs, random_spec, trace, INPUTS, MODES};
use hindsight_trace::TraceReader;
use proptest::prelude::*;

/// What a record does about one input's value.
#[derive(Clone, Debug)]
enum Policy {
    /// Always given.
    Required,
    /// `default V`: left out (or `null`) when the value is the default.
    Default(Value),
    /// `hold`: left out when the value is the last step's.
    Hold,
    /// `hold initially V`: left out when the value is the last step's (or,
    /// before any, `V`).
    HoldInitially(Value),
}

/// A value of input `k`'s type (as [`trace`] draws them).
fn value_of_input(k: usize) -> BoxedStrategy<Value> {
    match INPUTS.get(k).map(|(_, ty)| *ty) {
        Some("bool") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("int") => (-3i64..4).prop_map(Value::Int).boxed(),
        Some("float") => prop::sample::select(vec![-1.0, 0.5, 2.5])
            .prop_map(Value::Float)
            .boxed(),
        _ => (0u32..3).prop_map(Value::Enum).boxed(),
    }
}

fn policy(k: usize) -> impl Strategy<Value = Policy> {
    prop_oneof![
        Just(Policy::Required),
        value_of_input(k).prop_map(Policy::Default),
        Just(Policy::Hold),
        value_of_input(k).prop_map(Policy::HoldInitially),
    ]
}

fn policies() -> impl Strategy<Value = Vec<Policy>> {
    (0..INPUTS.len()).map(policy).collect::<Vec<_>>()
}

/// A value as the spec language (`Mode::busy`) or a JSON trace (`"busy"`)
/// writes it: the two differ only in how `variant` writes a `Mode`.
fn written(v: Value, variant: fn(&str) -> String) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => format!("{x:?}"),
        Value::Enum(e) => variant(MODES.get(e as usize).unwrap_or(&"idle")),
    }
}

/// A value as the spec language writes it.
fn spec_literal(v: Value) -> String {
    written(v, |m| format!("Mode::{m}"))
}

/// A value as a JSON trace writes it.
fn json(v: Value) -> String {
    written(v, |m| format!("\"{m}\""))
}

/// The object input `k` lies in (one of them a key with a `/`).
const PARENTS: [&str; 3] = ["payload", "attributes", "a/b"];

/// Where input `k` lies in a record: its pointer.
fn pointer(k: usize) -> String {
    let name = INPUTS.get(k).map_or("", |(n, _)| n);
    let parent = PARENTS.get(k % 3).copied().unwrap_or_default();
    format!("/{}/{name}", parent.replace('/', "~1"))
}

/// The spec `plain` with every input mapped by its policy, and a filter.
fn mapped_spec(plain: &str, policies: &[Policy]) -> String {
    map_inputs(
        plain,
        "\"/type\" == \"step\" || \"/type\" == 7",
        |name, _| {
            let k = INPUTS.iter().position(|(n, _)| *n == name).unwrap_or(0);
            let absent = match policies.get(k) {
                Some(Policy::Default(v)) => format!(" default {}", spec_literal(*v)),
                Some(Policy::Hold) => " hold".to_string(),
                Some(Policy::HoldInitially(v)) => format!(" hold initially {}", spec_literal(*v)),
                _ => String::new(),
            };
            format!("from \"{}\"{absent}", pointer(k))
        },
    )
}

/// The plain trace: one object per step with every input.
fn plain_trace(trace: &[Vec<Value>]) -> String {
    trace
        .iter()
        .map(|step| {
            let fields: Vec<String> = INPUTS
                .iter()
                .zip(step)
                .map(|((name, _), v)| format!("\"{name}\": {}", json(*v)))
                .collect();
            format!("{{{}}}\n", fields.join(", "))
        })
        .collect()
}

/// The log: per step, maybe a record that is no step, then the step's record
/// with the inputs nested, noise fields, and what the policies give back left
/// out (or written `null` when `nulls` says so).
fn log(trace: &[Vec<Value>], policies: &[Policy], noise: &[(bool, bool)]) -> String {
    let mut out = String::new();
    let mut last: Vec<Option<Value>> = vec![None; INPUTS.len()];
    for (i, step) in trace.iter().enumerate() {
        let (skip_record, nulls) = noise.get(i).copied().unwrap_or_default();
        if skip_record {
            out += "{\"type\": \"log\", \"payload\": {\"p\": \"not a bool\", \"n\": [1]}, \
                    \"attributes\": {\"q\": 3}, \"text\": \"heartbeat \\\"ok\\\" \\u00e9\"}\n";
        }
        let mut groups: [Vec<String>; 3] = Default::default();
        for (k, &v) in step.iter().enumerate() {
            let omit = match policies.get(k) {
                Some(Policy::Default(d)) => *d == v,
                Some(Policy::Hold) => last.get(k).copied().flatten() == Some(v),
                Some(Policy::HoldInitially(init)) => {
                    last.get(k).copied().flatten().unwrap_or(*init) == v
                }
                _ => false,
            };
            if let Some(slot) = last.get_mut(k) {
                *slot = Some(v);
            }
            let name = INPUTS.get(k).map_or("", |(n, _)| n);
            let field = if !omit {
                format!("\"{name}\": {}", json(v))
            } else if nulls {
                format!("\"{name}\": null")
            } else {
                continue;
            };
            if let Some(group) = groups.get_mut(k % 3) {
                group.push(field);
            }
        }
        let [payload, mut attributes, slashed] = groups;
        attributes.push("\"extra\": [1, {\"n\": \"x\"}]".to_string());
        let kind = if i % 2 == 0 { "\"step\"" } else { "7.0" };
        out += &format!(
            "{{\"ts\": {i}.5, \"type\": {kind}, \"payload\": {{{}}}, \
             \"session\": {{\"id\": \"s\", \"p\": {{}}}}, \"attributes\": {{{}}}, \
             \"a/b\": {{{}}}, \"p\": \"top-level noise\"}}\n",
            payload.join(", "),
            attributes.join(", "),
            slashed.join(", ")
        );
    }
    out
}

/// What `hindsight check` prints for `source` over `text` (stdout, or the error).
fn check(source: &str, text: &str) -> Result<String, String> {
    let compiled = hindsight_compiler::compile(source).map_err(|d| {
        format!(
            "{source}\n{}",
            d.iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("\n")
        )
    })?;
    let table = compiled.program.monitors.first().ok_or("no monitor")?;
    let mut reader = TraceReader::new(text.as_bytes(), trace_schema(table));
    let mut out = Vec::new();
    hindsight_trace::check_trace(&mut reader, &mut Interpreter::new(table), &mut out)
        .map_err(|e| format!("{e:?}\n{text}"))?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn records_give_the_verdicts_of_the_reshaped_trace(
        spec in random_spec(),
        trace in trace(12),
        policies in policies(),
        noise in prop::collection::vec(any::<(bool, bool)>(), 12),
    ) {
        let plain = spec.source();
        let mapped = mapped_spec(&plain, &policies);
        let expected = check(&plain, &plain_trace(&trace));
        let log = log(&trace, &policies, &noise);
        let found = check(&mapped, &log);
        prop_assert_eq!(found, expected, "\n{}\n{}", mapped, log);
    }
}
