//! Input generators: specs (valid ones from the test generators, adversarial
//! families aimed at the construction's costs, token soups and byte-level
//! mutations of them), and trace lines shaped by a compiled block's schema
//! with the mutations a real log has (missing, extra and repeated keys, wrong
//! types, huge values, control characters, byte order marks, truncation).

use crate::rng::Rng;
use hindsight_tests::cpl::gen::system_spec;
use hindsight_tests::cpl::print::system_source;
use hindsight_tests::gen::{future_spec, map_inputs, random_spec, timed_spec};
use hindsight_tests::population::gen::random_population;
use hindsight_trace::population::PopulationSchema;
use hindsight_trace::system::SystemSchema;
use hindsight_trace::{InputSchema, InputType, TraceSchema};
use proptest::prelude::*;

/// Valid specs: past and future monitors, systems, populations.
pub fn valid_spec() -> BoxedStrategy<String> {
    prop_oneof![
        3 => random_spec().prop_map(|s| s.source()),
        3 => future_spec().prop_map(|s| s.source()),
        2 => timed_spec().prop_map(|s| s.source()),
        2 => system_spec().prop_filter_map("printable", |spec| {
            spec.systems
                .first()
                .and_then(|system| system_source(&spec.enums, system))
        }),
        2 => random_population().prop_map(|p| p.source()),
    ]
    .boxed()
}

/// A valid monitor spec (past or future), in a third of the cases reading
/// log records (see [`mapped`]).
pub fn monitor_spec() -> BoxedStrategy<String> {
    let plain = prop_oneof![
        random_spec().prop_map(|s| s.source()),
        future_spec().prop_map(|s| s.source()),
        timed_spec().prop_map(|s| s.source()),
    ];
    (plain, 0u8..3)
        .prop_map(|(source, k)| if k == 0 { mapped(&source) } else { source })
        .boxed()
}

/// `source` with every input read from a record: bool inputs at
/// `/r/NAME` with `default false`, the others held; and a step filter on
/// `/t` (the lines [`monitor_trace`] writes for such a spec).
fn mapped(source: &str) -> String {
    map_inputs(source, "\"/t\" != 1 || present(\"/r/s\")", |name, ty| {
        let absent = if ty == "bool" {
            "default false"
        } else {
            "hold"
        };
        format!("from \"/r/{name}\" {absent}")
    })
}

/// A valid system spec.
pub fn system_spec_source() -> BoxedStrategy<String> {
    system_spec()
        .prop_filter_map("printable", |spec| {
            spec.systems
                .first()
                .and_then(|system| system_source(&spec.enums, system))
        })
        .boxed()
}

/// A valid population spec.
pub fn population_spec() -> BoxedStrategy<String> {
    random_population().prop_map(|p| p.source()).boxed()
}

/// Any spec text: valid, adversarial, token soup, or one of those mutated.
pub fn spec_text() -> BoxedStrategy<String> {
    let base = prop_oneof![
        5 => valid_spec(),
        3 => (0..ADVERSARIAL, any::<u64>()).prop_map(|(k, seed)| adversarial(k, &mut Rng::new(seed))),
        1 => any::<u64>().prop_map(|seed| token_soup(&mut Rng::new(seed))),
    ];
    (base, any::<u64>(), 0..4u8)
        .prop_map(|(text, seed, mutations)| {
            let mut rng = Rng::new(seed);
            (0..mutations).fold(text, |t, _| mutate_text(&t, &mut rng))
        })
        .boxed()
}

/// How many adversarial families [`adversarial`] has.
const ADVERSARIAL: usize = 14;

/// A spec aimed at a cost of the construction or a size limit, with random
/// sizes around the limits.
pub fn adversarial(family: usize, rng: &mut Rng) -> String {
    let n = 1 + rng.below(40);
    let bools = |count: usize| -> String {
        (0..count)
            .map(|i| format!("    input a{i}: bool;\n"))
            .collect()
    };
    let monitor =
        |inputs: String, properties: String| format!("monitor m {{\n{inputs}{properties}}}\n");
    let big: u64 = [1, 2, 10, 100, 1000, 5000, 20_000, 100_000, 1 << 20, 1 << 40][rng.below(10)];
    match family {
        // Deadlines: pending windows that imply each other.
        0 => monitor(
            bools(2),
            format!("    property r = G (a0 -> F[0,{big}] a1);\n"),
        ),
        // Conjunctions of G F over many atoms, independent or chained.
        1 => {
            let chain = rng.chance(50);
            let parts: Vec<String> = (0..n)
                .map(|i| {
                    if chain {
                        format!("G F (a{i} && a{})", (i + 1) % n)
                    } else {
                        format!("G F a{i}")
                    }
                })
                .collect();
            monitor(
                bools(n),
                format!("    property p = {};\n", parts.join(" && ")),
            )
        }
        // A wide antecedent and a wide bounded consequent.
        2 => {
            let half = 1 + n / 2;
            let ante: Vec<String> = (0..half).map(|i| format!("a{i}")).collect();
            let cons: Vec<String> = (half..2 * half).map(|i| format!("a{i}")).collect();
            monitor(
                bools(2 * half),
                format!(
                    "    property p = G (({}) -> F[0,{}] ({}));\n",
                    ante.join(" && "),
                    rng.below(64),
                    cons.join(" || ")
                ),
            )
        }
        // Many properties.
        3 => {
            let count = [10, 100, 1000, 5000][rng.below(4)];
            let props: String = (0..count)
                .map(|i| format!("    property p{i} = G (a0 -> F[0,{}] a1);\n", i % 7))
                .collect();
            monitor(bools(2), props)
        }
        // Deep nesting.
        4 => {
            let depth = [10, 200, 511, 513, 5000][rng.below(5)];
            let op = ["!", "X ", "Y ", "F ", "O "][rng.below(5)];
            monitor(
                bools(1),
                format!("    property p = {}a0;\n", op.repeat(depth)),
            )
        }
        // Lets that double.
        5 => {
            let count = 1 + rng.below(30);
            let mut lets = String::from("    let l0 = a0 && a1;\n");
            for i in 1..count {
                lets += &format!("    let l{i} = l{} && (l{} || a0);\n", i - 1, i - 1);
            }
            monitor(
                bools(2),
                format!("{lets}    property p = F l{};\n", count - 1),
            )
        }
        // Past windows with large bounds.
        6 => monitor(
            bools(2),
            format!(
                "    property p = a0 -> O[{},{}] a1;\n    property q = a1 S[{big},{}] a0;\n",
                rng.below(1 << 17),
                (1u64 << 33).min(big * 2),
                big * 3
            ),
        ),
        // Many atoms in one connected future formula.
        7 => {
            let count = 10 + rng.below(8);
            let disj: Vec<String> = (0..count).map(|i| format!("a{i}")).collect();
            monitor(
                bools(count),
                format!("    property p = G F ({});\n", disj.join(" || ")),
            )
        }
        // Populations, systems and enums at their limits.
        8..=10 => other_blocks(family, n, rng),
        // Duration windows around the ring limit (width near 1/1024 of the
        // lower end, or 0), the largest durations, and many nested timed
        // operators, with a deadline.
        13 => {
            let lo = 1 + rng.below(1 << 20) as u64;
            let width = [0, lo / 1024, lo / 1023, lo / 1025, 1, lo][rng.below(6)];
            let huge = ["106751991d", "9223372036854ms", "1d", "0ms"][rng.below(4)];
            let mut past = String::from("a1");
            for i in 0..n {
                past = format!("(a{} S[{lo}ms,{}ms] O[0,{huge}] {past})", i % 3, lo + width);
            }
            monitor(
                format!(
                    "    time t;
{}",
                    bools(3)
                ),
                format!(
                    "    property p = a0 -> {past};
    property d = G (a0 -> F[0,{huge}] a1);
"
                ),
            )
        }
        // A step filter near its limits: very wide, or nested on the right
        // around the 64 pending operands it allows.
        12 => {
            let wide = rng.chance(50);
            let count = if wide {
                1 + rng.below(40_000)
            } else {
                60 + rng.below(8)
            };
            let mut filter = String::from("\"/k\" == 0");
            for i in 1..count {
                if wide {
                    filter.push_str(&format!(" || \"/k{i}\" != \"v\""));
                } else {
                    filter = format!("present(\"/a/{i}\") && ({filter})");
                }
            }
            monitor(
                "    input a0: bool from \"/a/0\" default false;\n".to_string(),
                format!("    steps where {filter};\n    property p = a0;\n"),
            )
        }
        // Nested and overlapping bounded future operators.
        _ => {
            let b = |rng: &mut Rng| rng.below(12);
            monitor(
                bools(3),
                format!(
                    "    property p = G (a0 -> (F[0,{}] (a1 && G[{},{}] a2) || a1 U[0,{}] a2));\n",
                    b(rng),
                    b(rng) / 2,
                    b(rng),
                    b(rng)
                ),
            )
        }
    }
}

/// The adversarial specs that are not monitors: a population near its
/// capacity limits (family 8), a system whose guard reads every lifeline (9),
/// enums with many variants and long names (10).
fn other_blocks(family: usize, n: usize, rng: &mut Rng) -> String {
    match family {
        // A population near its capacity limits.
        8 => format!(
            "population p {{\n    capacity {};\n    agent {{ x: bool }}\n    property q = forall a in agents: F[0,{}] a.x;\n}}\n",
            [1, 1000, 1_000_000, 1_000_001, 0][rng.below(5)],
            rng.below(50)
        ),
        // A system with many lifelines and a guard reading all of them.
        9 => {
            let lifelines: String = (0..n).map(|i| format!("    lifeline L{i} {{ x: int }}\n")).collect();
            let reads: Vec<String> = (1..n).map(|i| format!("@L{i} (O x == {i})")).collect();
            let reads = if reads.is_empty() { "true".to_string() } else { reads.join(" && ") };
            format!("system s {{\n{lifelines}    guard g at L0 = {reads};\n}}\n")
        }
        // Enums with many variants, and long names.
        _ => {
            let variants: Vec<String> = (0..[0, 1, 300, 70_000][rng.below(4)])
                .map(|i| format!("v{i}"))
                .collect();
            let name = "n".repeat([1, 100, 100_000][rng.below(3)]);
            format!(
                "enum E {{ {} }}\nmonitor m {{\n    input {name}: E;\n    property p = {name} == {name};\n}}\n",
                variants.join(", ")
            )
        }
    }
}

/// Tokens of the language, for token soups.
const TOKENS: &[&str] = &[
    "monitor",
    "system",
    "population",
    "enum",
    "input",
    "property",
    "let",
    "goal",
    "guard",
    "lifeline",
    "group",
    "agent",
    "global",
    "capacity",
    "with",
    "reset",
    "at",
    "where",
    "forall",
    "exists",
    "atleast",
    "atmost",
    "count",
    "in",
    "agents",
    "bool",
    "int",
    "float",
    "true",
    "false",
    "inf",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ":",
    ",",
    ".",
    "@",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "!",
    "&&",
    "||",
    "->",
    "<->",
    "::",
    "X",
    "F",
    "G",
    "U",
    "W",
    "R",
    "Y",
    "Z",
    "O",
    "H",
    "S",
    "a",
    "b",
    "p",
    "m",
    "0",
    "1",
    "3",
    "1000000",
    "99999999999999999999",
    "1.5",
    "/*",
    "*/",
    "//",
    "\n",
    "from",
    "default",
    "hold",
    "initially",
    "present",
    "steps",
    "\"/a\"",
    "\"/a/0/~1b\"",
    "\"\\u00e9\\q\"",
    "\"",
];

/// A random sequence of tokens (often, but not always, in a plausible order).
pub fn token_soup(rng: &mut Rng) -> String {
    let len = rng.below(200);
    let mut out = String::new();
    for _ in 0..len {
        out.push_str(rng.pick(TOKENS).unwrap_or(&" "));
        out.push(' ');
    }
    out
}

/// `text` with one random edit: a byte range deleted, duplicated or replaced
/// by a token, a random byte, or a control or non-ASCII character.
pub fn mutate_text(text: &str, rng: &mut Rng) -> String {
    let bytes = text.as_bytes();
    let at = rng.below(bytes.len() + 1);
    let len = rng.below(16).min(bytes.len() - at);
    let mut out: Vec<u8> = bytes[..at].to_vec();
    match rng.below(6) {
        0 => {}
        1 => out.extend_from_slice(&bytes[at..at + len].repeat(1 + rng.below(3))),
        2 => out.extend_from_slice(rng.pick(TOKENS).unwrap_or(&"").as_bytes()),
        3 => out.push(rng.next_u64() as u8),
        4 => out.extend_from_slice(
            [
                "\u{0}", "\u{1b}", "\u{feff}", "é", "\u{202e}", "\r", "\t", "𝕏",
            ][rng.below(8)]
            .as_bytes(),
        ),
        _ => out.extend_from_slice(&bytes[at..at + len]),
    }
    out.extend_from_slice(&bytes[at + len..]);
    String::from_utf8_lossy(&out).into_owned()
}

/// A JSON value for an input of type `ty`: mostly right, sometimes not.
fn value(ty: &InputType, rng: &mut Rng) -> String {
    if rng.chance(8) {
        return odd_value(rng);
    }
    match ty {
        InputType::Bool => ["true", "false"][rng.below(2)].to_string(),
        InputType::Int => match rng.below(6) {
            0 => "-0".to_string(),
            1 => i64::MAX.to_string(),
            2 => "9223372036854775808".to_string(),
            _ => (rng.below(7) as i64 - 3).to_string(),
        },
        InputType::Float => match rng.below(4) {
            0 => "1e308".to_string(),
            1 => "-0.0".to_string(),
            _ => format!("{}.5", rng.below(10)),
        },
        InputType::Time => match rng.below(6) {
            0 => "\"2026-11-24T09:30:00.250+01:00\"".to_string(),
            1 => "\"2026-13-01T00:00:00Z\"".to_string(),
            2 => "1e13".to_string(),
            3 => format!("{}.25", 1_700_000_000 + rng.below(5)),
            _ => (1_700_000_000 + rng.below(10)).to_string(),
        },
        InputType::Enum { name, variants } => {
            let variant = rng.pick(variants).cloned().unwrap_or_default();
            if rng.chance(30) {
                format!("\"{name}::{variant}\"")
            } else {
                format!("\"{variant}\"")
            }
        }
    }
}

/// A value no input takes, or takes only at a limit.
fn odd_value(rng: &mut Rng) -> String {
    match rng.below(9) {
        0 => "null".to_string(),
        1 => "\"x\"".to_string(),
        2 => "[1, 2]".to_string(),
        3 => "{\"a\": 1}".to_string(),
        4 => format!("\"{}\"", "long".repeat(rng.below(5000))),
        5 => "1e999".to_string(),
        6 => format!("{}{}", "[".repeat(200), "]".repeat(200)),
        7 => "\"\\u001b[31m\\u0000\"".to_string(),
        _ => "123456789012345678901234567890".to_string(),
    }
}

/// An object line for `fields` (name, type), with keys dropped, added,
/// repeated or misspelt now and then.
fn object(fields: &[(&str, &InputType)], rng: &mut Rng) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (name, ty) in fields {
        if rng.chance(4) {
            continue;
        }
        let key = if rng.chance(3) {
            format!("{name}x")
        } else {
            (*name).to_string()
        };
        parts.push(format!("\"{key}\": {}", value(ty, rng)));
        if rng.chance(2) {
            parts.push(format!("\"{key}\": {}", value(ty, rng)));
        }
    }
    if rng.chance(5) {
        parts.push(format!("\"extra\": {}", odd_value(rng)));
    }
    if rng.chance(20) {
        let len = parts.len();
        parts.rotate_left(rng.below(len + 1).min(len));
    }
    format!("{{{}}}", parts.join(", "))
}

/// `line` with a mutation of whole-line shape now and then.
fn line_shape(line: String, rng: &mut Rng) -> String {
    match rng.below(40) {
        0 => String::from_utf8_lossy(&line.as_bytes()[..rng.below(line.len() + 1)]).into_owned(),
        1 => format!("\u{feff}{line}"),
        2 => format!("{line}\r"),
        3 => String::new(),
        4 => mutate_text(&line, rng),
        5 => format!("{line} {line}"),
        _ => line,
    }
    .chars()
    .filter(|&c| c != '\n')
    .collect()
}

/// Lines for a monitor with `schema`.
pub fn monitor_trace(schema: &TraceSchema, rng: &mut Rng) -> String {
    let fields: Vec<(&str, &InputType)> = schema
        .inputs()
        .iter()
        .map(|InputSchema { name, ty, .. }| (name.as_str(), ty))
        .collect();
    let bools: Vec<&str> = fields
        .iter()
        .filter(|(_, ty)| matches!(ty, InputType::Bool))
        .map(|(n, _)| *n)
        .collect();
    let lines = rng.below(30);
    let records = schema.reads_records();
    (0..lines)
        .map(|_| {
            let line = if records {
                let t = rng.below(3);
                format!("{{\"t\": {t}, \"r\": {}}}", object(&fields, rng))
            } else if rng.chance(15) {
                let named: Vec<String> = bools
                    .iter()
                    .filter(|_| rng.chance(50))
                    .map(|b| format!("\"{b}\""))
                    .collect();
                format!("[{}]", named.join(", "))
            } else {
                object(&fields, rng)
            };
            line_shape(line, rng) + "\n"
        })
        .collect()
}

/// Events for a system with `schema`: sends, receives (mostly of messages in
/// transit), acts and choices with store changes.
pub fn system_trace(schema: &SystemSchema, rng: &mut Rng) -> String {
    let names: Vec<&str> = schema.lifelines().iter().map(|l| l.name.as_str()).collect();
    let mut in_transit: Vec<(String, usize)> = Vec::new();
    let mut next_msg = 0;
    let lines = rng.below(40);
    let mut out = String::new();
    for _ in 0..lines {
        let l = rng.below(names.len());
        let lifeline = names.get(l).copied().unwrap_or("Nobody");
        let kind = ["send", "recv", "act", "choice"][rng.below(4)];
        let mut parts = vec![
            format!("\"lifeline\": \"{lifeline}\""),
            format!("\"kind\": \"{kind}\""),
        ];
        match kind {
            "send" => {
                let to = rng.below(names.len());
                let msg = format!("m{next_msg}");
                next_msg += 1;
                parts.push(format!(
                    "\"to\": \"{}\"",
                    names.get(to).copied().unwrap_or("Nobody")
                ));
                parts.push(format!("\"msg\": \"{msg}\""));
                in_transit.push((msg, to));
            }
            "recv" => {
                let msg = if !in_transit.is_empty() && rng.chance(85) {
                    let k = rng.below(in_transit.len());
                    in_transit.swap_remove(k).0
                } else {
                    format!("m{}", rng.below(next_msg + 2))
                };
                parts.push(format!("\"msg\": \"{msg}\""));
            }
            _ => {}
        }
        if rng.chance(60) {
            let vars: Vec<(&str, &InputType)> = schema
                .lifelines()
                .get(l)
                .map(|ls| ls.vars.iter().map(|v| (v.name.as_str(), &v.ty)).collect())
                .unwrap_or_default();
            parts.push(format!("\"store\": {}", object(&vars, rng)));
        }
        if rng.chance(3) {
            parts.push(format!("\"extra\": {}", odd_value(rng)));
        }
        let line = format!("{{{}}}", parts.join(", "));
        out.push_str(&line_shape(line, rng));
        out.push('\n');
    }
    out
}

/// Steps for a population with `schema`: a number of agents (sometimes
/// changing, sometimes beyond the capacity) with their attributes, and the
/// globals.
pub fn population_trace(schema: &PopulationSchema, rng: &mut Rng) -> String {
    let attrs: Vec<(&str, &InputType)> = schema
        .attributes()
        .iter()
        .map(|i| (i.name.as_str(), &i.ty))
        .collect();
    let globals: Vec<(&str, &InputType)> = schema
        .globals()
        .iter()
        .map(|i| (i.name.as_str(), &i.ty))
        .collect();
    let mut agents = rng.below(8);
    if rng.chance(5) {
        agents = schema.capacity().saturating_add(1).min(5000);
    }
    let lines = rng.below(12);
    let mut out = String::new();
    for _ in 0..lines {
        if rng.chance(5) {
            agents = rng.below(8);
        }
        let rows: Vec<String> = (0..agents).map(|_| object(&attrs, rng)).collect();
        let mut parts = vec![format!("\"agents\": [{}]", rows.join(", "))];
        if !rng.chance(5) {
            parts.push(format!("\"globals\": {}", object(&globals, rng)));
        }
        let line = format!("{{{}}}", parts.join(", "));
        out.push_str(&line_shape(line, rng));
        out.push('\n');
    }
    out
}

/// An OpenTelemetry export (OTLP/JSON lines) of spans of the services of
/// `schema` (and a stranger), with ids from small pools (so parents link,
/// sometimes to themselves or in a cycle), attributes named like the
/// lifelines' variables, events, and mutations of every field.
pub fn otlp_export(schema: &SystemSchema, rng: &mut Rng) -> String {
    let services: Vec<&str> = schema.lifelines().iter().map(|l| l.name.as_str()).collect();
    let vars: Vec<(&str, &InputType)> = schema
        .lifelines()
        .iter()
        .flat_map(|l| l.vars.iter().map(|v| (v.name.as_str(), &v.ty)))
        .collect();
    let id = |rng: &mut Rng, digits: usize| -> String {
        match rng.below(30) {
            0 => "\"xyz\"".to_string(),
            1 => "\"\"".to_string(),
            2 => "7".to_string(),
            _ => format!("\"{:0width$x}\"", rng.below(4), width = digits),
        }
    };
    let any = |rng: &mut Rng, value: String| -> String {
        match rng.below(12) {
            0 => format!("{{\"arrayValue\": {{\"values\": [{{\"stringValue\": {value}}}]}}}}"),
            1 => "{\"kvlistValue\": {\"values\": [{\"key\": \"k\", \"value\": {\"intValue\": \"3\"}}]}}"
                .to_string(),
            2 => "{}".to_string(),
            3 => format!("{{\"oddValue\": {value}}}"),
            _ if value.starts_with('"') => format!("{{\"stringValue\": {value}}}"),
            _ if value == "true" || value == "false" => format!("{{\"boolValue\": {value}}}"),
            _ if value.contains('.') => format!("{{\"doubleValue\": {value}}}"),
            _ => format!("{{\"intValue\": \"{value}\"}}"),
        }
    };
    let lines = rng.below(6);
    let mut out = String::new();
    for _ in 0..lines {
        let mut resources = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let service = if rng.chance(15) {
                "Stranger"
            } else {
                services
                    .get(rng.below(services.len()))
                    .copied()
                    .unwrap_or("Nobody")
            };
            let mut spans = Vec::new();
            for _ in 0..rng.below(6) {
                let mut attributes = Vec::new();
                for (name, ty) in &vars {
                    if rng.chance(50) {
                        let v = value(ty, rng);
                        let v = any(rng, v);
                        attributes.push(format!("{{\"key\": \"{name}\", \"value\": {v}}}"));
                    }
                }
                let start = rng.below(50);
                let end = start + rng.below(50);
                let mut fields = vec![
                    format!("\"traceId\": {}", id(rng, 32)),
                    format!("\"spanId\": {}", id(rng, 16)),
                    format!("\"name\": \"s{}\"", rng.below(5)),
                    format!(
                        "\"kind\": {}",
                        ["1", "2", "\"SPAN_KIND_CLIENT\"", "9", "\"x\""][rng.below(5)]
                    ),
                    format!("\"startTimeUnixNano\": \"{start}\""),
                    format!("\"endTimeUnixNano\": {end}"),
                    format!("\"attributes\": [{}]", attributes.join(", ")),
                ];
                if rng.chance(70) {
                    fields.push(format!("\"parentSpanId\": {}", id(rng, 16)));
                }
                if rng.chance(30) {
                    fields.push(format!(
                        "\"events\": [{{\"name\": \"e\", \"timeUnixNano\": \"{}\"}}]",
                        start + rng.below(10)
                    ));
                }
                if rng.chance(30) {
                    fields.push(format!("\"status\": {{\"code\": {}}}", rng.below(4)));
                }
                spans.push(format!("{{{}}}", fields.join(", ")));
            }
            resources.push(format!(
                "{{\"resource\": {{\"attributes\": [{{\"key\": \"service.name\", \"value\": {{\"stringValue\": \"{service}\"}}}}]}}, \
                 \"scopeSpans\": [{{\"scope\": {{\"name\": \"f\"}}, \"spans\": [{}]}}]}}",
                spans.join(", ")
            ));
        }
        let line = format!("{{\"resourceSpans\": [{}]}}", resources.join(", "));
        out.push_str(&line_shape(line, rng));
        out.push('\n');
    }
    out
}
