//! The command line of a standalone monitor built by `hindsight build`:
//! `PROGRAM --trace FILE [--fail-on-violation] [--max-line-bytes N]`, parsed by hand (no argument
//! parser dependency), then the same run as `hindsight check`.

use crate::help;
use crate::read::{InputType, TraceSchema, DEFAULT_MAX_LINE_BYTES};
use crate::report;
use crate::run::{run_check, RunOptions, EXIT_ERROR, EXIT_OK};
use hindsight_runtime::{Schema, StepMonitor};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The usage line's arguments.
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

/// The whole program: parses `args` (the program name first), prints help or
/// a usage error, or runs `monitor` over the trace. Returns the exit status.
pub fn main<M: StepMonitor>(
    schema: &Schema,
    monitor: &mut M,
    args: impl IntoIterator<Item = OsString>,
) -> u8 {
    let mut args = args.into_iter();
    let program = program_name(args.next());
    let schema = TraceSchema::from_static(schema);
    match parse(args) {
        Ok(Command::Run(options)) => run_check(&schema, monitor, &options),
        Ok(Command::Help) => {
            let _ = io::stdout().write_all(help(&program, &schema).as_bytes());
            EXIT_OK
        }
        Err(UsageError(message)) => {
            report::error(format_args!(
                "{message}\n\nUsage: {program} {USAGE_ARGS}\n\nFor more information, try '--help'."
            ));
            EXIT_ERROR
        }
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut trace: Option<PathBuf> = None;
    let mut max_line_bytes: Option<usize> = None;
    let mut fail_on_violation = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "-h" || text == "--help" {
            return Ok(Command::Help);
        }
        if text == "--fail-on-violation" {
            if fail_on_violation {
                return Err(repeated("--fail-on-violation"));
            }
            fail_on_violation = true;
            continue;
        }
        // `--name VALUE` or `--name=VALUE`.
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) => (name, Some(OsString::from(value))),
            None => (text.as_str(), None),
        };
        let display = match name {
            "--trace" => "--trace <FILE>",
            "--max-line-bytes" => "--max-line-bytes <BYTES>",
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
            if trace.replace(PathBuf::from(value)).is_some() {
                return Err(repeated(display));
            }
        } else {
            let bytes = value
                .to_str()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    UsageError(format!(
                        "invalid value '{}' for '{display}': a positive number of bytes is needed",
                        value.to_string_lossy()
                    ))
                })?;
            if max_line_bytes.replace(bytes).is_some() {
                return Err(repeated(display));
            }
        }
    }
    match trace {
        Some(trace) => Ok(Command::Run(RunOptions {
            fail_on_violation,
            max_line_bytes: max_line_bytes.unwrap_or(DEFAULT_MAX_LINE_BYTES),
            ..RunOptions::new(trace)
        })),
        None => Err(UsageError(
            "the following required arguments were not provided:\n  --trace <FILE>".into(),
        )),
    }
}

/// The error for an argument given twice.
fn repeated(argument: &str) -> UsageError {
    UsageError(format!(
        "the argument '{argument}' cannot be used multiple times"
    ))
}

/// The help text of the monitor described by `schema`, run as `program`.
pub fn help(program: &str, schema: &TraceSchema) -> String {
    let mut inputs = String::new();
    for input in schema.inputs() {
        inputs.push_str(&format!("\n  {}: {}", input.name, input.ty.name()));
        if let InputType::Enum { variants, .. } = &input.ty {
            inputs.push_str(&format!(" (one of: {})", variants.join(", ")));
        }
    }
    format!(
        "Run a Hindsight monitor over a JSON Lines trace, printing one verdict line per
step and a final line with the finite-trace verdicts, exactly as
`hindsight check` does with the spec this program was built from.

Usage: {program} {USAGE_ARGS}

Options:
      --trace <FILE>       The trace: a JSON Lines file, or `-` for standard input
      --fail-on-violation  Exit with status 1 if any verdict (the end line included) is \"false\"
      --max-line-bytes <BYTES>
                           The longest trace line accepted; a longer one is an error
                           (default 16777216, 16 MiB)
  -h, --help               Print help

INPUTS{inputs}

PROPERTIES
  {properties}

{formats}
",
        properties = schema.properties().join(", "),
        formats = help::FORMATS,
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
    use super::{help, parse, program_name, Command, UsageError};
    use crate::read::{InputSchema, InputType, TraceSchema};
    use crate::run::RunOptions;
    use std::ffi::OsString;
    use std::path::PathBuf;

    fn parsed(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().map(OsString::from))
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
            message(&["--trace", "a", "--trace=b"]),
            "the argument '--trace <FILE>' cannot be used multiple times"
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
    fn program_name_is_the_file_name() {
        assert_eq!(program_name(Some("/usr/bin/trucks".into())), "trucks");
        assert_eq!(program_name(None), "monitor");
    }

    #[test]
    fn help_lists_inputs_properties_and_formats() {
        let schema = TraceSchema::new(
            vec![
                InputSchema {
                    name: "pkg".into(),
                    ty: InputType::Int,
                },
                InputSchema {
                    name: "area".into(),
                    ty: InputType::Enum {
                        name: "Area".into(),
                        variants: vec!["depot".into(), "a1".into()],
                    },
                },
            ],
            vec!["safe".into(), "fuelled".into()],
        );
        let text = help("trucks", &schema);
        assert!(text.contains(
            "Usage: trucks --trace <FILE> [--fail-on-violation] [--max-line-bytes <BYTES>]\n"
        ));
        assert!(text.contains("INPUTS\n  pkg: int\n  area: Area (one of: depot, a1)\n"));
        assert!(text.contains("PROPERTIES\n  safe, fuelled\n"));
        assert!(text.contains("EXIT STATUS"));
    }
}
