//! The command line of a standalone monitor built by `hindsight build`:
//! `PROGRAM --trace FILE [--fail-on-violation] [--max-line-bytes N]` (and
//! `[--max-in-transit N]` for a system), parsed by hand (no argument parser
//! dependency), then the same run as `hindsight check` on the same block.

use crate::help;
use crate::output::Output;
use crate::population::{run_population, Generated, PopulationSchema};
use crate::read::{InputSchema, InputType, TraceSchema, DEFAULT_MAX_LINE_BYTES};
use crate::report;
use crate::run::{run_check, Format, RunOptions, EXIT_ERROR, EXIT_OK};
use crate::system::{run_system, SystemSchema};
use hindsight_runtime::population::PopulationMonitor;
use hindsight_runtime::record::{Absent, JsonString, Source};
use hindsight_runtime::system::SystemMonitor;
use hindsight_runtime::{Schema, StepMonitor, Value};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The usage line's arguments (a system's add `--max-in-transit`).
const USAGE_ARGS: &str = "--trace <FILE> [--fail-on-violation] [--max-line-bytes <BYTES>]";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run the monitor over a trace.
    Run(RunOptions),
    /// Print the help text.
    Help,
}

/// A command line that cannot be run; the message is the first line of the
/// report, without `error: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

/// The whole program of a monitor block: parses `args` (the program name
/// first), prints help or a usage error, or runs `monitor` over the trace.
/// Returns the exit status.
pub fn main<M: StepMonitor + Clone + Send + Sync>(
    schema: &Schema,
    monitor: &mut M,
    args: impl IntoIterator<Item = OsString>,
) -> u8 {
    let schema = TraceSchema::from_static(schema);
    run_main(
        Block::Monitor,
        args,
        |program| help(program, &schema),
        |options| run_check(&schema, &*monitor, options),
    )
}

/// The whole program of a system block, as [`main`]: runs the lifelines'
/// `monitors` over a system trace.
pub fn main_system<M: SystemMonitor + Clone + Send + Sync>(
    schema: &hindsight_runtime::system::SystemSchema,
    monitors: &mut M,
    args: impl IntoIterator<Item = OsString>,
) -> u8 {
    let schema = SystemSchema::from_static(schema);
    run_main(
        Block::System,
        args,
        |program| system_help(program, &schema),
        |options| {
            monitors.reset();
            run_system(&schema, &*monitors, options)
        },
    )
}

/// The whole program of a population block, as [`main`]: runs `monitor`
/// over a population trace.
pub fn main_population<M>(
    schema: &hindsight_runtime::population::PopulationSchema,
    monitor: &mut M,
    args: impl IntoIterator<Item = OsString>,
) -> u8
where
    M: PopulationMonitor + Clone + Send + Sync,
    M::Agent: Send + Sync,
{
    let properties = schema.properties.len();
    let schema = PopulationSchema::from_static(schema);
    run_main(
        Block::Population,
        args,
        |program| population_help(program, &schema),
        |options| {
            let generated = Generated::new(monitor.clone(), properties);
            run_population(&schema, &generated, options)
        },
    )
}

/// The kind of block a standalone program runs: what its command line takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// A `monitor` block.
    Monitor,
    /// A `system` block (takes `--max-in-transit`).
    System,
    /// A `population` block.
    Population,
}

/// Parses `args`, then prints `help` or a usage error, or calls `run`.
fn run_main(
    block: Block,
    args: impl IntoIterator<Item = OsString>,
    help: impl FnOnce(&str) -> String,
    run: impl FnOnce(&RunOptions) -> u8,
) -> u8 {
    let mut args = args.into_iter();
    let program = program_name(args.next());
    match parse(block, args) {
        Ok(Command::Run(options)) => run(&options),
        Ok(Command::Help) => {
            let _ = io::stdout().write_all(help(&program).as_bytes());
            EXIT_OK
        }
        Err(UsageError(message)) => {
            report::error(format_args!(
                "{message}\n\nUsage: {program} {}\n\nFor more information, try '--help'.",
                usage_args(block)
            ));
            EXIT_ERROR
        }
    }
}

/// The usage line's arguments for `block`.
fn usage_args(block: Block) -> String {
    match block {
        Block::System => format!("{USAGE_ARGS} [--max-in-transit <MESSAGES>]"),
        Block::Monitor | Block::Population => USAGE_ARGS.to_string(),
    }
}

/// Parses the arguments after the program name of a program running `block`.
pub fn parse(
    block: Block,
    args: impl IntoIterator<Item = OsString>,
) -> Result<Command, UsageError> {
    let mut traces: Vec<PathBuf> = Vec::new();
    let mut numbers: [Option<usize>; NUMBERS.len()] = [None; NUMBERS.len()];
    let mut key: Option<String> = None;
    let mut format: Option<Format> = None;
    let mut flags = [false; FLAGS.len()];
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "-h" || text == "--help" {
            return Ok(Command::Help);
        }
        if let Some(k) = FLAGS.iter().position(|&f| f == text) {
            if std::mem::replace(&mut flags[k], true) {
                return Err(repeated(&text));
            }
            continue;
        }
        // `--name VALUE` or `--name=VALUE`.
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) => (name, Some(OsString::from(value))),
            None => (text.as_str(), None),
        };
        // A numeric option: its place in `numbers`, its usage text, its unit.
        let numeric = NUMBERS
            .iter()
            .enumerate()
            .find(|(_, n)| n.0 == name && (n.0 != "--max-in-transit" || block == Block::System))
            .map(|(slot, &(_, display, unit))| (slot, display, unit));
        let display = match (name, numeric) {
            ("--trace", _) => "--trace <FILE>",
            ("--key", _) if block == Block::Monitor => "--key <POINTER>",
            ("--format", _) => "--format <FORMAT>",
            (_, Some((_, display, _))) => display,
            _ => return Err(UsageError(format!("unexpected argument '{text}' found"))),
        };
        let value = match inline {
            Some(value) => value,
            None => args.next().ok_or_else(|| {
                UsageError(format!(
                    "a value is required for '{display}' but none was supplied"
                ))
            })?,
        };
        if name == "--trace" {
            traces.push(PathBuf::from(value));
            continue;
        }
        if name == "--format" {
            let chosen = match value.to_str() {
                Some("jsonl") => Format::Jsonl,
                Some("otlp") => Format::Otlp,
                _ => {
                    return Err(UsageError(format!(
                        "invalid value '{}' for '{display}': one of jsonl, otlp is needed",
                        value.to_string_lossy()
                    )))
                }
            };
            if format.replace(chosen).is_some() {
                return Err(repeated(display));
            }
            continue;
        }
        if name == "--key" {
            let pointer = value.to_string_lossy().into_owned();
            if let Err(e) = crate::read::SessionPointer::parse(&pointer) {
                return Err(UsageError(format!(
                    "invalid value '{pointer}' for '{display}': {e}"
                )));
            }
            if key.replace(pointer).is_some() {
                return Err(repeated(display));
            }
            continue;
        }
        let Some((slot, _, unit)) = numeric else {
            continue;
        };
        let number = value
            .to_str()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                UsageError(format!(
                    "invalid value '{}' for '{display}': a positive number of {unit} is needed",
                    value.to_string_lossy()
                ))
            })?;
        if numbers[slot].replace(number).is_some() {
            return Err(repeated(display));
        }
    }
    if traces.is_empty() {
        return Err(UsageError(
            "the following required arguments were not provided:\n  --trace <FILE>".into(),
        ));
    }
    let [fail_on_violation, summary, changes, dump_input, allow_vacuous] = flags;
    if summary && changes {
        return Err(UsageError(
            "the argument '--summary' cannot be used with '--changes'".into(),
        ));
    }
    let defaults = RunOptions::new(PathBuf::new());
    let [max_line_bytes, max_in_transit, jobs, max_sessions, max_spans, max_export_bytes] = numbers;
    Ok(Command::Run(RunOptions {
        traces,
        fail_on_violation,
        allow_vacuous,
        max_line_bytes: max_line_bytes.unwrap_or(DEFAULT_MAX_LINE_BYTES),
        max_in_transit: max_in_transit.unwrap_or(defaults.max_in_transit),
        jobs: jobs.unwrap_or(0),
        key,
        max_sessions: max_sessions.unwrap_or(defaults.max_sessions),
        output: if summary {
            Output::Summary
        } else if changes {
            Output::Changes
        } else {
            Output::Steps
        },
        format: format.unwrap_or_default(),
        max_spans: max_spans.unwrap_or(defaults.max_spans),
        max_export_bytes: max_export_bytes.unwrap_or(defaults.max_export_bytes),
        dump_input,
    }))
}

/// The flags a standalone program takes.
const FLAGS: [&str; 5] = [
    "--fail-on-violation",
    "--summary",
    "--changes",
    "--dump-input",
    "--allow-vacuous",
];

/// The numeric options: name, as usage shows it, unit.
const NUMBERS: [(&str, &str, &str); 6] = [
    ("--max-line-bytes", "--max-line-bytes <BYTES>", "bytes"),
    (
        "--max-in-transit",
        "--max-in-transit <MESSAGES>",
        "messages",
    ),
    ("--jobs", "--jobs <N>", "threads"),
    ("--max-sessions", "--max-sessions <N>", "sessions"),
    ("--max-spans", "--max-spans <N>", "spans"),
    ("--max-export-bytes", "--max-export-bytes <BYTES>", "bytes"),
];

/// The error for an argument given twice.
fn repeated(argument: &str) -> UsageError {
    UsageError(format!(
        "the argument '{argument}' cannot be used multiple times"
    ))
}

/// The help text of the monitor described by `schema`, run as `program`.
pub fn help(program: &str, schema: &TraceSchema) -> String {
    let declarations = format!(
        "INPUTS{}\n\nPROPERTIES\n  {}",
        input_lines(schema.inputs(), "\n  "),
        schema.properties().names().join(", ")
    );
    help_text(
        program,
        Block::Monitor,
        "Run a Hindsight monitor over a JSON Lines trace, printing one verdict line per
step and a final line with the finite-trace verdicts, exactly as
`hindsight check` does with the spec this program was built from.",
        &declarations,
        help::FORMATS,
    )
}

/// The help text of the system described by `schema`, run as `program`.
pub fn system_help(program: &str, schema: &SystemSchema) -> String {
    let mut lifelines = String::new();
    for lifeline in schema.lifelines() {
        lifelines.push_str(&format!("\n  {}", lifeline.name));
        lifelines.push_str(&input_lines(&lifeline.vars, "\n    "));
        if !lifeline.guards.is_empty() {
            lifelines.push_str(&format!("\n    guards: {}", lifeline.guards.join(", ")));
        }
    }
    help_text(
        program,
        Block::System,
        "Run a Hindsight system monitor over a JSON Lines system trace (events of its
lifelines), printing the guards of a lifeline at each of its choice events,
exactly as `hindsight check` does with the spec this program was built from.",
        &format!("LIFELINES (store variables and guards){lifelines}"),
        help::SYSTEM_FORMATS,
    )
}

/// The help text of the population described by `schema`, run as `program`.
pub fn population_help(program: &str, schema: &PopulationSchema) -> String {
    let declarations = format!(
        "ATTRIBUTES (of each agent){}\n\nGLOBALS{}\n\nCAPACITY\n  {} agents\n\nPROPERTIES\n  {}",
        input_lines(schema.attributes(), "\n  "),
        input_lines(schema.globals(), "\n  "),
        schema.capacity(),
        schema.properties().names().join(", ")
    );
    help_text(
        program,
        Block::Population,
        "Run a Hindsight population monitor over a JSON Lines population trace (every
agent's attributes and the globals per line), printing one verdict line per
step and a final line with the finite-trace verdicts, exactly as
`hindsight check` does with the spec this program was built from.",
        &declarations,
        help::POPULATION_FORMATS,
    )
}

/// One `name: type` line per input, each after `indent`; the variants of enums listed.
fn input_lines(inputs: &[InputSchema], indent: &str) -> String {
    let mut lines = String::new();
    for input in inputs {
        lines.push_str(&format!("{indent}{}: {}", input.name, input.ty.name()));
        if let InputType::Enum { variants, .. } = &input.ty {
            lines.push_str(&format!(" (one of: {})", variants.join(", ")));
        }
        lines.push_str(&field_text(input));
    }
    lines
}

/// Where a line gives `input` and what its absence means, as the spec says
/// it (` from "/a/b" default 0`), or nothing for a required top-level key.
fn field_text(input: &InputSchema) -> String {
    let value = |v: Value| match (v, &input.ty) {
        (Value::Enum(i), InputType::Enum { variants, .. }) => variants
            .get(i as usize)
            .cloned()
            .unwrap_or_else(|| format!("#{i}")),
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(i), _) => i.to_string(),
        (Value::Float(x), _) => format!("{x:?}"),
        (Value::Enum(i), _) => format!("#{i}"),
    };
    let source = match &input.field.source {
        Source::Key => String::new(),
        Source::Pointer(p) => format!(" from {}", JsonString(p)),
        Source::Present(p) => format!(" from present({})", JsonString(p)),
    };
    let absent = match input.field.absent {
        Absent::Error => String::new(),
        Absent::Default(v) => format!(" default {}", value(v)),
        Absent::Hold(None) => " hold".to_string(),
        Absent::Hold(Some(v)) => format!(" hold initially {}", value(v)),
    };
    source + &absent
}

/// A standalone program's help: what it does, usage, options, what the block
/// declares, then the trace and output formats.
fn help_text(program: &str, block: Block, what: &str, declarations: &str, formats: &str) -> String {
    let in_transit = match block {
        Block::System => {
            "
      --max-in-transit <MESSAGES>
                           The most messages in transit at once; one more send is an
                           error (default 262144)"
        }
        Block::Monitor | Block::Population => "",
    };
    let key = match block {
        Block::Monitor => {
            "
      --key <POINTER>      Split each trace into sessions by the value at this JSON
                           Pointer (e.g. /session_id); lines carry \"session\": KEY
      --max-sessions <N>   With --key: the most sessions live at once (default 100000)"
        }
        Block::System | Block::Population => "",
    };
    format!(
        "{what}

Usage: {program} {usage}

Options:
      --trace <FILE>       A trace: a JSON Lines file, a directory (its *.jsonl files),
                           a glob pattern, or `-` for standard input; repeatable. With
                           several, lines start with \"trace\": NAME
      --fail-on-violation  Exit with status 1 if any verdict (the end line included) is \"false\",
                           and with status 3 if the run was vacuous (see VACUOUS RUNS)
      --allow-vacuous      With --fail-on-violation: exit 0 on a vacuous run
      --max-line-bytes <BYTES>
                           The longest trace line accepted; a longer one is an error
                           (default 16777216, 16 MiB){in_transit}{key}
      --jobs <N>           Traces checked at once (default: one per core; with more
                           than one, a lone file is read on a second thread); the
                           output is the same whatever N
      --summary            One summary line per trace (or session), then a total
      --changes            Only the step lines where some verdict changed, and the ends
      --format <FORMAT>    jsonl (default) or otlp: OpenTelemetry OTLP/JSON exports
      --max-spans <N>      With --format otlp: the most spans in one file (default 1000000)
      --max-export-bytes <BYTES>
                           With --format otlp: the most bytes in one file (default
                           536870912, 512 MiB; its spans are held until checked)
      --dump-input         With --format otlp: print the lines an export becomes
  -h, --help               Print help

{declarations}

{formats}
",
        usage = usage_args(block),
    )
}

/// The program's name for messages: the file name it was run as.
fn program_name(arg0: Option<OsString>) -> String {
    arg0.as_deref()
        .and_then(|a| Path::new(a).file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "monitor".to_string())
}

#[cfg(test)]
mod tests {
    use super::{help, parse, program_name, Block, Command, UsageError};
    use crate::read::{InputSchema, InputType, TraceSchema};
    use crate::run::RunOptions;
    use hindsight_runtime::record::{Absent, Field, Source};
    use hindsight_runtime::Value;
    use std::ffi::OsString;
    use std::path::PathBuf;

    fn parsed(args: &[&str]) -> Result<Command, UsageError> {
        parse(Block::Monitor, args.iter().map(OsString::from))
    }

    fn run(trace: &str, fail_on_violation: bool) -> Result<Command, UsageError> {
        Ok(Command::Run(RunOptions {
            fail_on_violation,
            ..RunOptions::new(PathBuf::from(trace))
        }))
    }

    #[test]
    fn trace_and_flag_in_any_order_and_form() {
        assert_eq!(parsed(&["--trace", "log.jsonl"]), run("log.jsonl", false));
        assert_eq!(
            parsed(&["--fail-on-violation", "--trace=-"]),
            run("-", true)
        );
        assert_eq!(
            parsed(&["--trace", "--fail-on-violation"]),
            run("--fail-on-violation", false)
        );
    }

    #[test]
    fn help_stops_parsing_but_earlier_errors_win() {
        assert_eq!(parsed(&["--trace", "x", "-h"]), Ok(Command::Help));
        assert_eq!(
            parsed(&["--bogus", "--help"]),
            Err(UsageError("unexpected argument '--bogus' found".into()))
        );
        assert_eq!(parsed(&["--help", "--bogus"]), Ok(Command::Help));
    }

    #[test]
    fn bad_command_lines_are_usage_errors() {
        let message = |args: &[&str]| match parsed(args) {
            Err(UsageError(m)) => m,
            other => panic!("{args:?} parsed as {other:?}"),
        };
        assert_eq!(
            message(&[]),
            "the following required arguments were not provided:\n  --trace <FILE>"
        );
        assert_eq!(
            message(&["--trace"]),
            "a value is required for '--trace <FILE>' but none was supplied"
        );
        assert_eq!(
            message(&["--trace", "a", "--summary", "--changes"]),
            "the argument '--summary' cannot be used with '--changes'"
        );
        assert_eq!(
            message(&["--trace", "a", "--jobs", "0"]),
            "invalid value '0' for '--jobs <N>': a positive number of threads is needed"
        );
        assert_eq!(
            message(&["--trace", "a", "--key", "session"]),
            "invalid value 'session' for '--key <POINTER>': a JSON Pointer starts with `/`, \
             e.g. \"/attributes/name\""
        );
        assert_eq!(
            message(&["--trace", "a", "--fail-on-violation", "--fail-on-violation"]),
            "the argument '--fail-on-violation' cannot be used multiple times"
        );
        assert_eq!(
            message(&["spec.hind", "--trace", "a"]),
            "unexpected argument 'spec.hind' found"
        );
    }

    #[test]
    fn traces_repeat_and_audits_take_their_options() {
        let run = parsed(&[
            "--trace",
            "a",
            "--trace=b",
            "--jobs",
            "2",
            "--key",
            "/session_id",
            "--max-sessions",
            "9",
            "--summary",
        ]);
        assert_eq!(
            run,
            Ok(Command::Run(RunOptions {
                traces: vec![PathBuf::from("a"), PathBuf::from("b")],
                jobs: 2,
                key: Some("/session_id".to_string()),
                max_sessions: 9,
                output: crate::Output::Summary,
                ..RunOptions::new(PathBuf::from("a"))
            }))
        );
    }

    #[test]
    fn max_line_bytes_takes_a_positive_number() {
        let limited = |n| {
            Ok(Command::Run(RunOptions {
                max_line_bytes: n,
                ..RunOptions::new(PathBuf::from("t"))
            }))
        };
        assert_eq!(
            parsed(&["--trace", "t", "--max-line-bytes", "100"]),
            limited(100)
        );
        assert_eq!(parsed(&["--max-line-bytes=7", "--trace=t"]), limited(7));
        for bad in ["0", "-1", "ten", ""] {
            assert_eq!(
                parsed(&["--trace", "t", "--max-line-bytes", bad]),
                Err(UsageError(format!(
                    "invalid value '{bad}' for '--max-line-bytes <BYTES>': a positive number of bytes is needed"
                )))
            );
        }
        assert_eq!(
            parsed(&["--trace", "t", "--max-line-bytes"]),
            Err(UsageError(
                "a value is required for '--max-line-bytes <BYTES>' but none was supplied".into()
            ))
        );
    }

    #[test]
    fn only_systems_take_max_in_transit() {
        let args = ["--trace", "t", "--max-in-transit=5"].map(OsString::from);
        assert_eq!(
            parse(Block::System, args.clone()),
            Ok(Command::Run(RunOptions {
                max_in_transit: 5,
                ..RunOptions::new(PathBuf::from("t"))
            }))
        );
        for block in [Block::Monitor, Block::Population] {
            assert_eq!(
                parse(block, args.clone()),
                Err(UsageError(
                    "unexpected argument '--max-in-transit=5' found".into()
                ))
            );
        }
        assert_eq!(
            parse(
                Block::System,
                ["--trace", "t", "--max-in-transit", "0"].map(OsString::from)
            ),
            Err(UsageError(
                "invalid value '0' for '--max-in-transit <MESSAGES>': a positive number of \
                 messages is needed"
                    .into()
            ))
        );
    }

    #[test]
    fn program_name_is_the_file_name() {
        assert_eq!(program_name(Some("/usr/bin/trucks".into())), "trucks");
        assert_eq!(program_name(None), "monitor");
    }

    #[test]
    fn help_lists_inputs_properties_and_formats() {
        let schema = TraceSchema::new(
            vec![
                InputSchema::new("pkg", InputType::Int),
                InputSchema::new(
                    "area",
                    InputType::Enum {
                        name: "Area".into(),
                        variants: vec!["depot".into(), "a1".into()],
                    },
                ),
            ],
            vec!["safe".into(), "fuelled".into()],
        );
        let text = help("trucks", &schema);
        assert!(text.contains(
            "Usage: trucks --trace <FILE> [--fail-on-violation] [--max-line-bytes <BYTES>]\n"
        ));
        assert!(text.contains("INPUTS\n  pkg: int\n  area: Area (one of: depot, a1)\n"));
        let mapped = TraceSchema::new(
            vec![
                InputSchema::new("tool", InputType::Int).with_field(Field {
                    source: Source::Pointer("/a/b~1c".into()),
                    absent: Absent::Hold(Some(Value::Int(-2))),
                }),
                InputSchema::new("seen", InputType::Bool).with_field(Field {
                    source: Source::Present("/r".into()),
                    absent: Absent::Error,
                }),
                InputSchema::new(
                    "area",
                    InputType::Enum {
                        name: "Area".into(),
                        variants: vec!["depot".into(), "a1".into()],
                    },
                )
                .with_field(Field {
                    source: Source::Key,
                    absent: Absent::Default(Value::Enum(1)),
                }),
            ],
            vec!["safe".into()],
        );
        assert!(help("m", &mapped).contains(
            "INPUTS\n  tool: int from \"/a/b~1c\" hold initially -2\n  seen: bool from \
             present(\"/r\")\n  area: Area (one of: depot, a1) default a1\n"
        ));
        assert!(text.contains("PROPERTIES\n  safe, fuelled\n"));
        assert!(text.contains("EXIT STATUS"));
    }
}
