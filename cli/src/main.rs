//! The `hindsight` command: argument parsing and dispatch.

use clap::{Args, Parser, Subcommand};
use hindsight_cli::check::{self, CheckOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check temporal-logic specs (.hind files) against event logs.
#[derive(Parser, Debug)]
#[command(name = "hindsight", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a monitor block of a spec over a JSON Lines trace, printing verdicts.
    #[command(
        long_about = CHECK_LONG_ABOUT,
        after_help = "See `--help` for the trace and output formats and the exit codes.",
        after_long_help = CHECK_AFTER_HELP
    )]
    Check(CheckArgs),
}

/// Arguments of `hindsight check`.
#[derive(Args, Debug)]
struct CheckArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,

    /// The trace: a JSON Lines file, or `-` for standard input.
    #[arg(long, value_name = "FILE")]
    trace: PathBuf,

    /// The monitor block to run (needed when the spec has several).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,

    /// Exit with status 1 if any verdict (the end line included) is "false".
    #[arg(long)]
    fail_on_violation: bool,
}

const CHECK_LONG_ABOUT: &str = "\
Run a monitor block of a spec over a trace, printing one verdict line per step
and a final line with the finite-trace verdicts.

The spec is parsed and checked first; diagnostics (errors and warnings) go to
stderr in rustc style, coloured only when stderr is a terminal. Any error stops
the command with status 2; warnings do not.";

const CHECK_AFTER_HELP: &str = "\
TRACE FORMAT (JSON Lines, read line by line in constant memory)
  One JSON value per line, one step per line. Blank lines are ignored (but
  counted in line numbers). Each step is either
    an object giving every input of the monitor:
      {\"request\": true, \"pkg\": 3, \"status\": \"passed\"}
      bool  <- true / false
      int   <- a JSON integer that fits in i64
      float <- any JSON number
      enum  <- a string naming a variant: \"passed\" or \"Status::passed\"
    or an array of the bool inputs that are true (all others are false),
    allowed only when every input of the monitor is bool:
      [\"request\", \"alarm\"]
  A missing input, an unknown key (e.g. a typo'd input name), an input given
  twice, a value of the wrong type, an unknown enum variant, malformed JSON or
  a line that is not UTF-8 is an error. Errors go to stderr as
    error: trace.jsonl:7:12: input `pkg` expects int, found string \"x\"
  (file:line:column). Verdict lines of the steps before the bad line have
  already been printed; nothing is printed for the bad line or after it.

OUTPUT FORMAT (stdout, JSON Lines)
  One line per step, properties in declaration order, then one end line with
  the finite-trace verdicts (the trace is taken as complete):
    {\"step\": 0, \"alarm_ok\": \"true\", \"responds\": \"?\"}
    {\"step\": 1, \"alarm_ok\": \"false\", \"responds\": \"?\"}
    {\"end\": true, \"alarm_ok\": \"false\", \"responds\": \"false\"}
  A verdict is \"true\", \"false\" or \"?\" (not decided yet). If stdout is
  closed early (e.g. `| head`), the command stops quietly.

EXIT STATUS
  0  the trace was read to the end (or stdout was closed early)
  1  --fail-on-violation was given and some verdict was \"false\"
  2  usage error, spec error, unreadable or malformed trace, or write error

EXAMPLES
  hindsight check door.hind --trace log.jsonl
  hindsight check door.hind --block door --trace - --fail-on-violation < log.jsonl";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check(args) => check::run(&CheckOptions {
            spec: args.spec,
            trace: args.trace,
            block: args.block,
            fail_on_violation: args.fail_on_violation,
        }),
    };
    ExitCode::from(status)
}
