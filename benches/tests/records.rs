//! The two renderings of the standard trace the reader benchmark times give
//! the same steps, and the records are as large as docs/benchmarks.md says.

use hindsight_benches::records::{plain_lines, plain_schema, record_lines, records_schema};
use hindsight_benches::trace::{standard_trace, PROPOSITIONS};
use hindsight_runtime::Value;
use hindsight_trace::{TraceReader, TraceSchema};

/// Every step `text` gives against `schema`, as the bits of the true inputs.
fn steps(text: &str, schema: TraceSchema) -> Vec<u16> {
    let mut reader = TraceReader::new(text.as_bytes(), schema);
    let mut values = Vec::new();
    let mut steps = Vec::new();
    loop {
        match reader.read_next(&mut values) {
            Ok(true) => steps.push(
                values
                    .iter()
                    .enumerate()
                    .map(|(k, v)| u16::from(*v == Value::Bool(true)) << k)
                    .sum(),
            ),
            Ok(false) => return steps,
            Err(e) => panic!("{}", e.render("trace")),
        }
    }
}

#[test]
fn plain_lines_and_records_give_the_trace() {
    let trace = standard_trace(2000);
    let records = record_lines(&trace);
    assert_eq!(steps(&plain_lines(&trace), plain_schema()), trace);
    assert_eq!(steps(&records, records_schema()), trace);
    // 20 fields besides `type` and `attributes` on each record, about 700 bytes.
    let first = records.lines().next().unwrap_or_default();
    let top_level: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(first).unwrap_or_default();
    assert_eq!(top_level.len(), 22);
    assert_eq!(
        PROPOSITIONS.len() + 1,
        top_level["attributes"].as_object().map_or(0, |a| a.len())
    );
    let mean = records.len() / trace.len();
    assert!((690..=730).contains(&mean), "{mean} bytes per record");
}
