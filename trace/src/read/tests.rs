//! Unit tests of trace decoding; columns and messages are worked out by hand.

use super::decode::char_column;
use super::*;
use hindsight_runtime::Value;

fn schema() -> TraceSchema {
    let input = |name: &str, ty| InputSchema::new(name, ty);
    TraceSchema::new(
        vec![
            input("request", InputType::Bool),
            input("pkg", InputType::Int),
            input("load", InputType::Float),
            input(
                "status",
                InputType::Enum {
                    name: "Status".to_string(),
                    variants: vec!["pending".into(), "passed".into(), "failed".into()],
                },
            ),
        ],
        Vec::new(),
    )
}

fn bool_schema() -> TraceSchema {
    let names = ["request", "grant", "alarm"];
    TraceSchema::new(
        names
            .iter()
            .map(|n| InputSchema::new(*n, InputType::Bool))
            .collect(),
        Vec::new(),
    )
}

fn decode(schema: TraceSchema, line: &str) -> Result<Vec<Value>, (Option<usize>, String)> {
    let mut out = Vec::new();
    LineDecoder::new(schema)
        .decode(line, &mut out)
        .map(|_| out)
        .map_err(|e| (e.column, e.kind.to_string()))
}

#[test]
fn object_form_gives_every_type() {
    let line = r#"{"status": "Status::failed", "load": 2, "pkg": -7, "request": true}"#;
    assert_eq!(
        decode(schema(), line),
        Ok(vec![
            Value::Bool(true),
            Value::Int(-7),
            Value::Float(2.0),
            Value::Enum(2)
        ])
    );
    let line =
        r#"{"request": false, "pkg": 9223372036854775807, "load": -0.5, "status": "pending"}"#;
    assert_eq!(
        decode(schema(), line),
        Ok(vec![
            Value::Bool(false),
            Value::Int(i64::MAX),
            Value::Float(-0.5),
            Value::Enum(0)
        ])
    );
}

#[test]
fn escaped_keys_and_values_are_understood() {
    let line = r#"{"req\u0075est": true, "pkg": 1, "load": 1.5, "status": "pa\u0073sed"}"#;
    assert_eq!(
        decode(schema(), line),
        Ok(vec![
            Value::Bool(true),
            Value::Int(1),
            Value::Float(1.5),
            Value::Enum(1)
        ])
    );
}

#[test]
fn array_form_sets_the_listed_bools() {
    assert_eq!(
        decode(bool_schema(), r#"["alarm", "request"]"#),
        Ok(vec![
            Value::Bool(true),
            Value::Bool(false),
            Value::Bool(true)
        ])
    );
    assert_eq!(decode(bool_schema(), "[]"), Ok(vec![Value::Bool(false); 3]));
}

#[test]
fn the_decoder_forgets_the_previous_line() {
    let mut decoder = LineDecoder::new(bool_schema());
    let mut out = Vec::new();
    assert!(decoder.decode(r#"["grant"]"#, &mut out).is_ok());
    assert!(decoder.decode(r#"["alarm"]"#, &mut out).is_ok());
    assert_eq!(
        out,
        vec![Value::Bool(false), Value::Bool(false), Value::Bool(true)]
    );
    // An object line must give every input again.
    let err = decoder.decode(r#"{"grant": true}"#, &mut out);
    assert!(matches!(
        err,
        Err(LineError {
            kind: TraceErrorKind::MissingInput { ref input },
            ..
        }) if input == "request"
    ));
}

#[test]
fn key_order_may_change_from_line_to_line() {
    let mut decoder = LineDecoder::new(bool_schema());
    let mut out = Vec::new();
    let lines = [
        (
            r#"{"alarm": true, "grant": false, "request": false}"#,
            [false, false, true],
        ),
        (
            r#"{"request": true, "alarm": false, "grant": true}"#,
            [true, true, false],
        ),
        (
            r#"{"grant": false, "request": true, "alarm": true}"#,
            [true, false, true],
        ),
        (
            r#"{"grant": false, "request": true, "alarm": true}"#,
            [true, false, true],
        ),
    ];
    for (line, expected) in lines {
        assert!(decoder.decode(line, &mut out).is_ok(), "{line}");
        let expected: Vec<Value> = expected.iter().map(|&b| Value::Bool(b)).collect();
        assert_eq!(out, expected, "{line}");
    }
    // The guess from the previous line does not hide a repeated key.
    let err = decoder.decode(
        r#"{"grant": false, "grant": true, "alarm": true}"#,
        &mut out,
    );
    assert!(matches!(
        err,
        Err(LineError {
            kind: TraceErrorKind::DuplicateInput { ref input },
            ..
        }) if input == "grant"
    ));
}

#[test]
fn value_errors_point_at_the_value() {
    // Columns are 1-based characters: `"x"` starts at column 37.
    let line = r#"{"request": true, "load": 1, "pkg": "x", "status": "passed"}"#;
    assert_eq!(
        decode(schema(), line),
        Err((
            Some(37),
            r#"input `pkg` expects int, found string "x""#.to_string()
        ))
    );
    let line = r#"{"request": 1}"#;
    assert_eq!(
        decode(schema(), line),
        Err((
            Some(13),
            "input `request` expects bool, found number 1".to_string()
        ))
    );
    let line = r#"{"pkg": 2.0}"#;
    assert_eq!(
        decode(schema(), line),
        Err((
            Some(9),
            "input `pkg` expects int, found number 2.0".to_string()
        ))
    );
    let line = r#"{"pkg": 9223372036854775808}"#;
    assert_eq!(
        decode(schema(), line).map_err(|e| e.1),
        Err(
            "input `pkg` expects int, found number 9223372036854775808, outside the int range"
                .to_string()
        )
    );
    // `null` is absent (docs/language.md 5a): without `default` or `hold`
    // the line lacks the input, placed at its closing brace.
    let line = r#"{"request": true, "pkg": 1, "load": null, "status": "passed"}"#;
    assert_eq!(
        decode(schema(), line),
        Err((Some(61), "missing input `load`".to_string()))
    );
    let line = r#"{"request": [true]}"#;
    assert_eq!(
        decode(schema(), line).map_err(|e| e.1),
        Err("input `request` expects bool, found an array".to_string())
    );
}

#[test]
fn enum_errors_list_the_variants() {
    let expected = "input `status` expects a variant of enum `Status` (one of: pending, \
                    passed, failed), found \"bogus\"";
    assert_eq!(
        decode(schema(), r#"{"status": "bogus"}"#),
        Err((Some(12), expected.to_string()))
    );
    // A prefix naming another enum is not accepted.
    assert!(decode(schema(), r#"{"status": "Other::passed"}"#)
        .is_err_and(|e| e.1.contains("found \"Other::passed\"")));
    assert!(decode(schema(), r#"{"status": 1}"#)
        .is_err_and(|e| e.1.ends_with("failed), found number 1")));
}

#[test]
fn key_errors_point_at_the_key() {
    assert_eq!(
        decode(schema(), r#"{"request": true, "pkgg": 1}"#),
        Err((
            Some(19),
            "unknown input `pkgg` (the monitor's inputs are: request, pkg, load, status)"
                .to_string()
        ))
    );
    assert_eq!(
        decode(schema(), r#"{"pkg": 1, "pkg": 2}"#),
        Err((Some(12), "input `pkg` is given twice".to_string()))
    );
    assert_eq!(
        decode(schema(), r#"{"request": true, "pkg": 1, "load": 0}"#),
        // At the closing brace.
        Err((Some(38), "missing input `status`".to_string()))
    );
}

#[test]
fn array_errors() {
    let needs_bool = "the array form lists the bool inputs that are true and needs every \
                      input to be bool, but input `pkg` is int; give an object with every input";
    assert_eq!(
        decode(schema(), r#"["request"]"#).map_err(|e| e.1),
        Err(needs_bool.to_string())
    );
    assert_eq!(
        decode(bool_schema(), r#"["grant", "alarn"]"#),
        Err((
            Some(11),
            "array form: `alarn` is not a bool input (the bool inputs are: request, grant, \
             alarm)"
                .to_string()
        ))
    );
    assert_eq!(
        decode(bool_schema(), r#"["grant", "grant"]"#),
        Err((
            Some(11),
            "array form: input `grant` is listed twice".to_string()
        ))
    );
    assert_eq!(
        decode(bool_schema(), r#"["grant", true]"#).map_err(|e| e.1),
        Err(
            "array form: elements must be names of bool inputs (strings), found bool true"
                .to_string()
        )
    );
}

#[test]
fn syntax_errors_carry_serde_json_columns() {
    // `tru` is cut short by the `}` at column 14.
    assert_eq!(
        decode(bool_schema(), r#"{"grant": tru}"#),
        Err((Some(14), "malformed JSON: expected ident".to_string()))
    );
    assert!(decode(bool_schema(), r#"["grant"] x"#)
        .is_err_and(|e| e.1 == "malformed JSON: trailing characters" && e.0 == Some(11)));
    assert_eq!(
        decode(bool_schema(), "  42"),
        Err((
            Some(3),
            "a trace line must be a JSON object giving every input, or an array of the \
             bool inputs that are true; found number 42"
                .to_string()
        ))
    );
}

#[test]
fn columns_count_characters() {
    assert_eq!(char_column("aé\"x", 4), 4);
    assert_eq!(char_column("abc", 0), 1);
    assert_eq!(char_column("abc", 99), 4);
    let accented = TraceSchema::new(vec![InputSchema::new("é", InputType::Bool)], Vec::new());
    // `"x"` is at byte 14 but character 13.
    assert_eq!(
        decode(accented, r#"{"é": true, "x": 1}"#).map_err(|e| e.0),
        Err(Some(13))
    );
}

#[test]
fn negative_zero_is_the_int_zero() {
    for zero in ["-0", "-0.0", "0"] {
        let line = format!(r#"{{"request": true, "pkg": {zero}, "load": 0, "status": "passed"}}"#);
        let mut out = Vec::new();
        LineDecoder::new(schema())
            .decode(&line, &mut out)
            .unwrap_or_else(|e| panic!("{zero}: {e:?}"));
        assert_eq!(out[1], Value::Int(0), "{zero}");
    }
    let line = r#"{"request": true, "pkg": 0.5, "load": 0, "status": "passed"}"#;
    assert!(LineDecoder::new(schema())
        .decode(line, &mut Vec::new())
        .is_err());
}

#[test]
fn reader_skips_blank_lines_and_counts_them() {
    let text = "[\"grant\"]\n\n  \t\r\n{\"request\": true, \"grant\": false, \"alarm\": 3}\n";
    let mut reader = TraceReader::new(text.as_bytes(), bool_schema());
    let mut out = Vec::new();
    assert!(matches!(reader.read_next(&mut out), Ok(true)));
    assert_eq!(out[1], Value::Bool(true));
    let err = reader.read_next(&mut out);
    assert!(matches!(
        err,
        Err(TraceError {
            line: 4,
            column: Some(44),
            ..
        })
    ));
}

#[test]
fn lines_up_to_the_limit_are_read_and_longer_ones_refused_at_their_line() {
    // `["grant"]` is 9 bytes: a limit of 9 reads it (with or without `\r\n`
    // after it, the `\r` counting as a byte of the line), 8 does not.
    let mut out = Vec::new();
    let mut exact =
        TraceReader::new(&b"[\"grant\"]\n[\"alarm\"]"[..], bool_schema()).with_max_line_bytes(9);
    assert!(matches!(exact.read_next(&mut out), Ok(true)));
    assert!(matches!(exact.read_next(&mut out), Ok(true)));
    let mut short = TraceReader::new(&b"\n[\"grant\"]\n"[..], bool_schema()).with_max_line_bytes(8);
    let err = short.read_next(&mut out).expect_err("line 2 is too long");
    assert_eq!((err.line, err.column), (2, None));
    assert!(matches!(err.kind, TraceErrorKind::LineTooLong { limit: 8 }));
    assert_eq!(
        err.render("t.jsonl"),
        "error: t.jsonl:2: line is longer than 8 bytes; raise the limit with \
         --max-line-bytes if such lines are expected"
    );
    // An endless line: at most limit + 1 bytes are read.
    let endless = std::io::BufReader::new(std::io::repeat(b'x'));
    let mut reader = TraceReader::new(endless, bool_schema()).with_max_line_bytes(1 << 10);
    let err = reader.read_next(&mut out).expect_err("no newline ever");
    assert!(matches!(
        err.kind,
        TraceErrorKind::LineTooLong { limit: 1024 }
    ));
}

#[test]
fn a_byte_order_mark_is_allowed_at_the_start_of_the_trace_only() {
    let text = "[\"grant\"]\n\u{feff}[\"alarm\"]\n";
    let mut reader = TraceReader::new(text.as_bytes(), bool_schema());
    let mut out = Vec::new();
    assert!(matches!(reader.read_next(&mut out), Ok(true)));
    let err = reader.read_next(&mut out).expect_err("a mark on line 2");
    assert_eq!((err.line, err.column), (2, Some(1)));
    assert!(matches!(err.kind, TraceErrorKind::MisplacedByteOrderMark));
}

#[test]
fn reader_handles_crlf_bom_and_missing_final_newline() {
    let text = "\u{feff}[\"grant\"]\r\n[\"alarm\"]";
    let mut reader = TraceReader::new(text.as_bytes(), bool_schema());
    let mut out = Vec::new();
    assert!(matches!(reader.read_next(&mut out), Ok(true)));
    assert!(matches!(reader.read_next(&mut out), Ok(true)));
    assert_eq!(out[2], Value::Bool(true));
    assert!(matches!(reader.read_next(&mut out), Ok(false)));
    assert_eq!(reader.line(), 2);
}

#[test]
fn reader_reports_invalid_utf8_with_its_column() {
    let text: &[u8] = b"[]\n[\"gr\xffant\"]\n";
    let mut reader = TraceReader::new(text, bool_schema());
    let mut out = Vec::new();
    assert!(matches!(reader.read_next(&mut out), Ok(true)));
    let err = reader.read_next(&mut out);
    assert!(matches!(
        err,
        Err(TraceError {
            line: 2,
            column: Some(5),
            kind: TraceErrorKind::InvalidUtf8
        })
    ));
}

#[test]
fn render_names_file_line_and_column() {
    let error = TraceError {
        line: 7,
        column: Some(12),
        kind: TraceErrorKind::MissingInput {
            input: "pkg".to_string(),
        },
    };
    assert_eq!(
        error.render("trace.jsonl"),
        "error: trace.jsonl:7:12: missing input `pkg`"
    );
    let error = TraceError {
        column: None,
        ..error
    };
    assert_eq!(error.render("t"), "error: t:7: missing input `pkg`");
}

#[test]
fn plain_lines_leave_out_inputs_with_default_or_hold_and_null_is_absent() {
    use hindsight_runtime::record::{Absent, Field, Source};
    let with = |name: &str, absent| {
        InputSchema::new(name, InputType::Int).with_field(Field {
            source: Source::Key,
            absent,
        })
    };
    let schema = TraceSchema::new(
        vec![
            with("d", Absent::Default(Value::Int(7))),
            with("h", Absent::Hold(Some(Value::Int(1)))),
        ],
        Vec::new(),
    );
    let mut decoder = LineDecoder::new(schema);
    let mut step = |line: &str| {
        let mut out = Vec::new();
        decoder
            .decode(line, &mut out)
            .map(|_| out)
            .map_err(|e| (e.column, e.kind.to_string()))
    };
    let ints = |a, b| Ok(vec![Value::Int(a), Value::Int(b)]);
    assert_eq!(step("{}"), ints(7, 1));
    assert_eq!(step(r#"{"h": 3, "d": null}"#), ints(7, 3));
    assert_eq!(step(r#"{"h": null, "d": 2}"#), ints(2, 3));
    // A null neither gives a value nor repeats one; two values do.
    assert_eq!(step(r#"{"d": 4, "d": null}"#), ints(4, 3));
    assert_eq!(
        step(r#"{"d": 4, "d": 5}"#),
        Err((Some(10), "input `d` is given twice".to_string()))
    );
    // Keys still must name inputs.
    assert_eq!(
        step(r#"{"ts": 1}"#).map_err(|e| e.1),
        Err("unknown input `ts` (the monitor's inputs are: d, h)".to_string())
    );
}

mod fast_path {
    //! The hand-written scanner of plain lines accepts only what serde
    //! decodes the same way: on random lines, well-formed or not, the
    //! decoder with the fast path gives exactly the values or the error
    //! (message and column) of the decoder without it.

    use super::{schema, LineDecoder};
    use crate::read::Decode;
    use hindsight_runtime::Value;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        "request",
        "pkg",
        "load",
        "status",
        "unknown",
        "re\\u0071uest",
        "Request",
        "",
    ];
    const VALUES: &[&str] = &[
        "true",
        "false",
        "null",
        "0",
        "-0",
        "7",
        "-7",
        "007",
        "1.5",
        "1e3",
        "-",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551616",
        "\"passed\"",
        "\"Status::failed\"",
        "\"bogus\"",
        "\"pa\\u0073sed\"",
        "[]",
        "{}",
        "{\"a\": 1}",
        "tru",
        "\"\u{1}\"",
        "\"passed",
        "\"é\"",
    ];
    const BLANKS: &[&str] = &["", " ", "\t", "  \r"];

    fn entry() -> impl Strategy<Value = String> {
        (
            prop::sample::select(KEYS),
            prop::sample::select(VALUES),
            prop::sample::select(BLANKS),
            prop::sample::select(BLANKS),
            0..20u8,
        )
            .prop_map(|(k, v, a, b, noise)| match noise {
                0 => format!("\"{k}\"{a}{v}"),
                1 => format!("{k}{a}:{b}{v}"),
                _ => format!("{a}\"{k}\"{a}:{b}{v}{b}"),
            })
    }

    fn line() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(entry(), 0..7),
            prop::sample::select(BLANKS),
            0..12u8,
        )
            .prop_map(|(entries, blank, shape)| match shape {
                0 => format!("[{}]", entries.join(",")),
                1 => format!("{{{}}} x", entries.join(",")),
                2 => format!("{{{}", entries.join(",")),
                3 => format!("{{{},}}", entries.join(",")),
                4 => format!("{{{}}}", entries.join(";")),
                _ => format!("{blank}{{{}}}{blank}", entries.join(",")),
            })
    }

    /// Lines of one layout (keys, order, blanks), their values drawn per
    /// line, some with a byte changed, inserted or removed (a byte that is
    /// not UTF-8 among them): what a log looks like to the shape scanner,
    /// and where it must notice a surprise.
    fn layout_lines() -> impl Strategy<Value = Vec<Vec<u8>>> {
        // Mostly the schema's keys and values of their types, so that most
        // lines are ones the scanners accept.
        let key =
            prop_oneof![9 => prop::sample::select(&KEYS[..4]), 1 => prop::sample::select(KEYS)];
        let layout = prop::collection::vec(
            (
                key,
                prop::sample::select(BLANKS),
                prop::sample::select(BLANKS),
            ),
            0..6,
        );
        let value = |key: &str| {
            let typed: &'static [&'static str] = match key {
                "request" => &["true", "false"],
                "pkg" => &[
                    "0",
                    "7",
                    "-7",
                    "9223372036854775807",
                    "-9223372036854775808",
                ],
                "load" => &["0", "12", "-3"],
                _ => &["\"passed\"", "\"Status::failed\"", "\"pending\""],
            };
            prop_oneof![6 => prop::sample::select(typed), 1 => prop::sample::select(VALUES)]
        };
        layout.prop_flat_map(move |layout| {
            let values: Vec<_> = layout.iter().map(|(k, _, _)| value(k)).collect();
            let line = (
                values,
                0..8u8,
                any::<prop::sample::Index>(),
                prop::sample::select(&[b'"', b' ', b',', b'}', b'1', b'e', 0xc3, 0xff][..]),
            );
            let layout = layout.clone();
            prop::collection::vec(line, 1..8).prop_map(move |lines| {
                lines
                    .into_iter()
                    .map(|(values, change, at, byte)| {
                        let entries: Vec<String> = layout
                            .iter()
                            .zip(values)
                            .map(|((k, a, b), v)| format!("{a}\"{k}\"{a}:{b}{v}{b}"))
                            .collect();
                        let mut line = format!("{{{}}}", entries.join(",")).into_bytes();
                        let at = at.index(line.len() + 1);
                        match change {
                            0 => line.insert(at, byte),
                            1 if at < line.len() => {
                                line.remove(at);
                            }
                            2 if at < line.len() => line[at] = byte,
                            _ => {}
                        }
                        line
                    })
                    .collect()
            })
        })
    }

    type Decoded = Result<Vec<Value>, (Option<usize>, String)>;

    /// Decodes each line as a reader does: the byte path first, else the
    /// UTF-8 check and the text path.
    fn decode_all<L: AsRef<[u8]>>(mut decoder: LineDecoder, lines: &[L]) -> Vec<Decoded> {
        lines
            .iter()
            .map(|l| {
                let mut out = Vec::new();
                let decoded = match decoder.decode_bytes(l.as_ref(), &mut out) {
                    Some(decoded) => decoded,
                    None => match std::str::from_utf8(l.as_ref()) {
                        Ok(text) => decoder.decode(text, &mut out),
                        Err(_) => return Err((None, "not UTF-8".to_string())),
                    },
                };
                decoded
                    .map(|_| out)
                    .map_err(|e| (e.column, e.kind.to_string()))
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_fast_path_decodes_exactly_as_serde(lines in prop::collection::vec(line(), 1..6)) {
            let fast = decode_all(LineDecoder::new(schema()), &lines);
            let serde = decode_all(LineDecoder::new(schema()).without_fast_path(), &lines);
            prop_assert_eq!(fast, serde, "{:?}", lines);
        }

        #[test]
        fn lines_of_one_layout_decode_exactly_as_serde(lines in layout_lines()) {
            let fast = decode_all(LineDecoder::new(schema()), &lines);
            let serde = decode_all(LineDecoder::new(schema()).without_fast_path(), &lines);
            let shown: Vec<_> = lines.iter().map(|l| String::from_utf8_lossy(l)).collect();
            prop_assert_eq!(fast, serde, "{:?}", shown);
        }
    }

    /// The shape scanner is what reads a log's lines after its first: a
    /// line of the learned layout with other values is read by it, and
    /// the decoder then needs no UTF-8 check.
    #[test]
    fn lines_of_a_learned_layout_are_read_by_their_shape() {
        let mut decoder = LineDecoder::new(schema());
        let mut out = Vec::new();
        let first = r#"{"request": true, "pkg": 3, "load": 2.5, "status": "passed"}"#;
        assert!(decoder.decode_bytes(first.as_bytes(), &mut out).is_none());
        let first = r#"{"request": true, "pkg": 3, "load": 2, "status": "passed"}"#;
        assert!(matches!(
            decoder.decode_bytes(first.as_bytes(), &mut out),
            Some(Ok(true))
        ));
        let next = r#"{"request": false, "pkg": -12, "load": 7, "status": "Status::failed"}"#;
        assert!(decoder
            .shape
            .read(next.as_bytes(), schema().inputs(), &mut out));
        assert!(matches!(
            decoder.decode_bytes(next.as_bytes(), &mut out),
            Some(Ok(true))
        ));
        assert_eq!(
            out,
            vec![
                Value::Bool(false),
                Value::Int(-12),
                Value::Float(7.0),
                Value::Enum(2)
            ]
        );
        let moved = r#"{"request": false,  "pkg": -12, "load": 7, "status": "failed"}"#;
        assert!(!decoder
            .shape
            .read(moved.as_bytes(), schema().inputs(), &mut out));
    }

    /// A name a key's raw bytes cannot stand for (a quote in it) turns the
    /// scanner off: its raw form would match `"say"hi"`, which is no JSON
    /// string; serde reads the escaped key.
    #[test]
    fn names_with_quotes_are_left_to_serde() {
        use crate::read::schema::{InputSchema, InputType, TraceSchema};
        let schema = TraceSchema::new(
            vec![InputSchema::new("say\"hi", InputType::Bool)],
            Vec::new(),
        );
        let mut decoder = LineDecoder::new(schema);
        let mut out = Vec::new();
        assert!(decoder.decode(r#"{"say\"hi": true}"#, &mut out).is_ok());
        assert_eq!(out, vec![Value::Bool(true)]);
        assert!(decoder.decode(r#"{"say"hi": true}"#, &mut out).is_err());
    }

    #[test]
    fn plain_lines_take_the_fast_path() {
        // Well-formed lines of every type decode (the proptest shows they
        // decode as serde does; this shows they are common enough to hit).
        let line = r#"{"request": true, "pkg": -9223372036854775808, "load": 2, "status": "Status::failed"}"#;
        let mut out = vec![Value::Bool(false); 4];
        let mut seen = vec![false; 4];
        let mut hints = vec![0, 1, 2, 3];
        assert!(super::super::fast::flat_object(
            line.as_bytes(),
            schema().inputs(),
            &mut hints,
            &mut seen,
            &mut out,
            &mut Vec::new(),
        ));
        assert_eq!(
            out,
            vec![
                Value::Bool(true),
                Value::Int(i64::MIN),
                Value::Float(2.0),
                Value::Enum(2)
            ]
        );
    }
}
