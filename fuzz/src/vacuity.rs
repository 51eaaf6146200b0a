//! The `vacuity` surface: random log-record monitors over random logs, the
//! coverage the trace reader reports (places no line matched, a trace that
//! gave no step) held to an oracle that reads the same lines with
//! serde_json's own JSON Pointers and evaluates the filter itself.
//!
//! Pointers are generated with distinct first keys, so no pointer is a
//! prefix of another and every value written at one is of its input's type
//! (or `null`): no line is refused, and the only question is what matched.

use crate::rng::Rng;
use hindsight_cli::schema::trace_schema;
use hindsight_compiler::interp::Interpreter;
use hindsight_trace::audit::{Coverage, Findings, Message, Tally, TraceRun, TraceSource};
use hindsight_trace::{RunOptions, Silent};
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// First keys of pointers, and keys of noise.
const KEYS: [&str; 10] = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
/// Keys below the first.
const INNER: [&str; 3] = ["x", "y", "0"];

/// What an input reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    Enum,
    Present,
}

/// One generated input: its name, kind and pointer.
struct InputGen {
    name: String,
    kind: Kind,
    pointer: String,
}

/// One atom of the generated filter.
enum Atom {
    /// `"POINTER" == "LITERAL"` (or `!=`).
    Compare(String, &'static str, bool),
    /// `present("POINTER")`.
    Present(String),
}

impl Atom {
    fn pointer(&self) -> &str {
        match self {
            Atom::Compare(p, _, _) | Atom::Present(p) => p,
        }
    }

    /// The atom on `line`, as docs/language.md section 5a defines it: `==`
    /// holds on an equal string, `!=` on anything else (absent included);
    /// `present` on a value other than `null`.
    fn holds(&self, line: &Value) -> bool {
        match self {
            Atom::Compare(p, literal, equal) => {
                let same = line.pointer(p).and_then(Value::as_str) == Some(literal);
                same == *equal
            }
            Atom::Present(p) => line.pointer(p).is_some_and(|v| !v.is_null()),
        }
    }

    fn text(&self) -> String {
        match self {
            Atom::Compare(p, literal, equal) => {
                let op = if *equal { "==" } else { "!=" };
                format!("\"{p}\" {op} \"{literal}\"")
            }
            Atom::Present(p) => format!("present(\"{p}\")"),
        }
    }
}

/// A generated case: the spec, the log and what the oracle expects.
pub(crate) struct Case {
    /// The spec text.
    pub(crate) spec: String,
    /// The log, one record per line.
    pub(crate) log: String,
    /// Whether sessions are keyed by `/s`.
    keyed: bool,
    /// The places the oracle finds unmatched, as (owner, pointer), sorted.
    unmatched: Vec<(String, String)>,
    /// Steps the oracle counts.
    steps: usize,
}

/// The case of `seed`.
pub(crate) fn case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let mut first_keys: Vec<&str> = KEYS.to_vec();
    let mut fresh_pointer = |rng: &mut Rng| {
        let k = rng.below(first_keys.len());
        let first = first_keys.swap_remove(k);
        let mut pointer = format!("/{first}");
        for _ in 0..rng.below(3) {
            pointer.push('/');
            pointer.push_str(INNER[rng.below(INNER.len())]);
        }
        pointer
    };
    let records = rng.chance(75);
    let inputs: Vec<InputGen> = (0..1 + rng.below(3))
        .map(|i| {
            let kind = [Kind::Bool, Kind::Int, Kind::Enum, Kind::Present][rng.below(4)];
            let kind = if !records && kind == Kind::Present {
                Kind::Bool
            } else {
                kind
            };
            let pointer = if records {
                fresh_pointer(&mut rng)
            } else {
                format!("/x{i}")
            };
            InputGen {
                name: format!("x{i}"),
                kind,
                pointer,
            }
        })
        .collect();
    let atoms: Vec<Atom> = if records && rng.chance(60) {
        (0..1 + rng.below(3))
            .map(|_| {
                let pointer = fresh_pointer(&mut rng);
                if rng.chance(30) {
                    Atom::Present(pointer)
                } else {
                    let literal = ["s1", "s2"][rng.below(2)];
                    Atom::Compare(pointer, literal, rng.chance(75))
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let any = rng.chance(50);
    let keyed = records && rng.chance(25);
    let mut spec = String::from("enum E { p, q }\nmonitor m {\n");
    if !atoms.is_empty() {
        let joined: Vec<String> = atoms.iter().map(Atom::text).collect();
        let op = if any { " || " } else { " && " };
        spec.push_str(&format!("    steps where {};\n", joined.join(op)));
    }
    for input in &inputs {
        let (ty, default) = match input.kind {
            Kind::Bool | Kind::Present => ("bool", " default false"),
            Kind::Int => ("int", " default 0"),
            Kind::Enum => ("E", " default p"),
        };
        let line = match (records, input.kind) {
            (true, Kind::Present) => {
                format!(
                    "    input {}: bool from present(\"{}\");\n",
                    input.name, input.pointer
                )
            }
            (true, _) => format!(
                "    input {}: {ty} from \"{}\"{default};\n",
                input.name, input.pointer
            ),
            (false, _) => format!("    input {}: {ty}{default};\n", input.name),
        };
        spec.push_str(&line);
    }
    spec.push_str("    property ok = true;\n}\n");
    // The log: each line sets some places, of the right type or null.
    let mut lines: Vec<Value> = Vec::new();
    for _ in 0..rng.below(7) {
        let mut line = Value::Object(Map::new());
        if keyed {
            set(&mut line, "/s", json!(["k1", "k2"][rng.below(2)]));
        }
        for input in &inputs {
            if rng.chance(40) {
                continue;
            }
            let value = match (rng.chance(20), input.kind) {
                (true, _) => Value::Null,
                (_, Kind::Bool) => json!(rng.chance(50)),
                (_, Kind::Int) => json!(rng.below(5)),
                (_, Kind::Enum) => json!(["p", "q"][rng.below(2)]),
                (_, Kind::Present) => json!({"any": [1]}),
            };
            set(&mut line, &input.pointer, value);
        }
        for atom in &atoms {
            if rng.chance(35) {
                continue;
            }
            let value = match rng.below(5) {
                0 => Value::Null,
                1 => json!(3),
                _ => json!(["s1", "s2"][rng.below(2)]),
            };
            set(&mut line, atom.pointer(), value);
        }
        if records && rng.chance(30) {
            // Noise: a key no pointer names (the first keys left over).
            set(&mut line, "/zz/noise", json!(rng.below(9)));
        }
        lines.push(line);
    }
    let steps = lines
        .iter()
        .filter(|line| {
            atoms.is_empty() || {
                let mut truths = atoms.iter().map(|a| a.holds(line));
                if any {
                    truths.any(|t| t)
                } else {
                    truths.all(|t| t)
                }
            }
        })
        .count();
    let valued = |pointer: &str| {
        lines
            .iter()
            .any(|l| l.pointer(pointer).is_some_and(|v| !v.is_null()))
    };
    let mut unmatched: Vec<(String, String)> = Vec::new();
    if records {
        for input in &inputs {
            if !valued(&input.pointer) {
                unmatched.push((format!("input `{}`", input.name), input.pointer.clone()));
            }
        }
        for atom in &atoms {
            if !valued(atom.pointer()) {
                let place = ("the step filter".to_string(), atom.pointer().to_string());
                if !unmatched.contains(&place) {
                    unmatched.push(place);
                }
            }
        }
    } else if steps > 0 {
        for input in &inputs {
            if !valued(&input.pointer) {
                unmatched.push((format!("input `{}`", input.name), String::new()));
            }
        }
    }
    unmatched.sort();
    let log: String = lines.iter().map(|l| format!("{l}\n")).collect();
    Case {
        spec,
        log,
        keyed,
        unmatched,
        steps,
    }
}

/// Sets `value` at `pointer` in `line`, making objects on the way (a
/// scalar in the way is replaced).
fn set(line: &mut Value, pointer: &str, value: Value) {
    let mut at = line;
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    for (k, key) in keys.iter().enumerate() {
        if !at.is_object() {
            *at = Value::Object(Map::new());
        }
        let Value::Object(map) = at else { return };
        if k + 1 == keys.len() {
            map.insert((*key).to_string(), value);
            return;
        }
        at = map.entry(*key).or_insert_with(|| Value::Object(Map::new()));
    }
}

/// The owner and pointer of a place the reader reported: `input `x` reads
/// "/p", which ...` or `input `x` was absent from every step ...`.
fn place_of(text: &str) -> (String, String) {
    if let Some((owner, rest)) = text.split_once(" reads \"") {
        let pointer = rest.split('"').next().unwrap_or_default();
        return (owner.to_string(), pointer.to_string());
    }
    let owner = text.split(" was absent").next().unwrap_or_default();
    (owner.to_string(), String::new())
}

/// Checks the case of `seed`: the coverage the trace reader reports, and
/// whether the run is vacuous, are the oracle's. `Ok(true)` for a vacuous
/// run.
pub(crate) fn check(seed: u64) -> Result<bool, String> {
    let case = case(seed);
    let compiled = hindsight_compiler::compile(&case.spec).map_err(|d| {
        format!(
            "the generated spec does not compile: {}\n{}",
            d.first().map_or("", |d| d.message.as_str()),
            case.spec
        )
    })?;
    let table = compiled
        .program
        .monitors
        .first()
        .ok_or("the generated spec has no monitor")?;
    let schema = trace_schema(table);
    let mut options = RunOptions::new(PathBuf::from("log.jsonl"));
    options.key = case.keyed.then(|| "/s".to_string());
    let source = TraceSource {
        path: PathBuf::from("log.jsonl"),
        name: "log.jsonl".to_string(),
    };
    let mut out = Vec::new();
    let mut run = TraceRun {
        source: &source,
        named: false,
        lines: &mut out,
        messages: Vec::new(),
        progress: None,
        otlp: None,
        read_ahead: false,
    };
    let monitor = Interpreter::new(table);
    let tally = hindsight_trace::check_monitor_source(
        &schema,
        &monitor,
        &Silent,
        &options,
        &mut run,
        Some(case.log.clone().into_bytes()),
    );
    let shown = || format!("{}\n{}", case.spec, case.log);
    if tally.errors > 0 {
        return Err(format!(
            "a generated log was refused: {:?}\n{}",
            run.messages,
            shown()
        ));
    }
    let coverage: Vec<&Coverage> = run
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Covered { coverage, .. } => Some(coverage),
            Message::Line(_) => None,
        })
        .collect();
    let [coverage] = coverage.as_slice() else {
        return Err(format!("{} coverage reports\n{}", coverage.len(), shown()));
    };
    let mut found: Vec<(String, String)> = coverage
        .unmatched
        .iter()
        .map(|u| place_of(&u.place))
        .collect();
    found.sort();
    if found != case.unmatched {
        return Err(format!(
            "unmatched places {found:?}, the oracle's {:?}\n{}",
            case.unmatched,
            shown()
        ));
    }
    if (coverage.idle_parts > 0) != (case.steps == 0) {
        return Err(format!(
            "{} idle parts, the oracle counts {} steps\n{}",
            coverage.idle_parts,
            case.steps,
            shown()
        ));
    }
    if tally.steps != case.steps as u64 {
        return Err(format!(
            "{} steps checked, the oracle counts {}\n{}",
            tally.steps,
            case.steps,
            shown()
        ));
    }
    let mut findings = Findings::new();
    findings.add("log.jsonl", coverage);
    let mut total = Tally::default();
    let warnings = findings.close(1, &mut total);
    let vacuous = case.steps == 0 || !case.unmatched.is_empty();
    if findings.is_vacuous() != vacuous || warnings.is_empty() == vacuous {
        return Err(format!(
            "vacuous {}, the oracle says {vacuous}; warnings {warnings:?}\n{}",
            findings.is_vacuous(),
            shown()
        ));
    }
    Ok(vacuous)
}
