//! The `hindsight` command: argument parsing and dispatch.

use clap::{Args, Parser, Subcommand};
use hindsight_cli::audit::ProgressWhen;
use hindsight_cli::check::{self, CheckOptions, Engine};
use hindsight_cli::draw::{self, DrawOptions};
use hindsight_cli::explain::{self, ExplainFormat, ExplainOptions};
use hindsight_cli::fmt::{self, FmtOptions};
use hindsight_cli::learn::{self, LearnOptions};
use hindsight_cli::partitions::{self, PartitionsOptions};
use hindsight_cli::sample::{self, SampleOptions};
use hindsight_cli::standalone::{self, BuildOptions};
use hindsight_trace::otlp::{DEFAULT_MAX_EXPORT_BYTES, DEFAULT_MAX_SPANS};
use hindsight_trace::read::SessionPointer;
use hindsight_trace::run::{Format, DEFAULT_MAX_SESSIONS};
use hindsight_trace::system::DEFAULT_MAX_IN_TRANSIT;
use hindsight_trace::{help, Output, RunOptions, DEFAULT_MAX_LINE_BYTES};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check temporal-logic specs (.hind files) against event logs, or build standalone monitors.
#[derive(Parser, Debug)]
#[command(name = "hindsight", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a monitor, system or population block of a spec over a JSON Lines trace, printing verdicts.
    #[command(
        long_about = CHECK_LONG_ABOUT,
        after_help = "See `--help` for the trace and output formats and the exit codes.",
        after_long_help = check_after_help()
    )]
    Check(CheckArgs),
    /// Build a standalone binary that checks traces against one monitor block.
    #[command(long_about = BUILD_LONG_ABOUT, after_help = BUILD_AFTER_HELP)]
    Build(BuildArgs),
    /// Report what a spec compiles to: tables, automata and their sizes.
    #[command(long_about = EXPLAIN_LONG_ABOUT, after_help = EXPLAIN_AFTER_HELP)]
    Explain(ExplainArgs),
    /// Print lines a trace of a block could hold, with placeholder values: a log skeleton.
    #[command(long_about = SAMPLE_LONG_ABOUT)]
    Sample(SampleArgs),
    /// Print the minimal monitoring-safe partitions of a system's lifelines for its protocols.
    #[command(long_about = PARTITIONS_LONG_ABOUT)]
    Partitions(PartitionsArgs),
    /// Learn a behaviour model (predicate tree, MDP, goal probabilities, likelihoods) from the logs a monitor block reads.
    #[command(long_about = LEARN_LONG_ABOUT)]
    Learn(LearnArgs),
    /// Draw a system trace as a message sequence chart (SVG or HTML) with each guard evaluation's causal past shaded.
    #[command(long_about = DRAW_LONG_ABOUT)]
    Draw(DrawArgs),
    /// Lay specs out canonically (in place), or with --check list those that are not.
    #[command(long_about = FMT_LONG_ABOUT)]
    Fmt(FmtArgs),
    /// Run the language server on stdin and stdout (for editors: diagnostics, hover, definitions, references, symbols, completion).
    #[command(long_about = LSP_LONG_ABOUT)]
    Lsp,
}

const DRAW_LONG_ABOUT: &str = "Draw a system trace as a message sequence chart.

Lifelines are vertical lines, events sit in causal order (below their lifeline's \
previous event and below the send of the message they receive), messages are \
arrows, dashed and open while in transit. For each choice (or the one --at \
names) the chart shades the choosing lifeline's causal past, rings the latest \
visible event of each lifeline, and lists the guards' values with the parts \
that decided them. `-o run.svg` writes one SVG (one chart per choice, \
stacked); `-o run.html` a self-contained page where clicking any event shades \
its causal past. The trace is read as `hindsight check` reads it.";

/// Arguments of `hindsight draw`.
#[derive(Args, Debug)]
struct DrawArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,
    /// The system trace (JSON Lines).
    #[arg(long, value_name = "FILE")]
    trace: PathBuf,
    /// The system block to use (needed when the spec has several blocks).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,
    /// The choice to explain, by event number (0-based, as `check` prints it); default: every choice.
    #[arg(long, value_name = "EVENT")]
    at: Option<usize>,
    /// Where to write the picture: a .svg or .html file.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

const FMT_LONG_ABOUT: &str = "Lay specs out canonically, in place.

One member per line, four spaces per block, spaces around binary operators, \
none inside bounds (`F[0,5]`); line breaks inside a member and comments are \
kept, as is at most one blank line where the author left one. Only specs that \
parse are formatted, and the result always reads as the same tokens. With \
--check nothing is written: the files that would change are printed and the \
exit status is 1. Exit status 2: a spec could not be read, parsed or written.";

/// Arguments of `hindsight fmt`.
#[derive(Args, Debug)]
struct FmtArgs {
    /// Spec files, or directories searched for *.hind files.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Print the files that are not formatted (exit status 1 if any); write nothing.
    #[arg(long)]
    check: bool,
}

const LSP_LONG_ABOUT: &str = "Run the language server on stdin and stdout.

Editors start it (editors/vscode does); it speaks the Language Server Protocol: \
diagnostics as you type, with the same codes and messages as `hindsight check`; \
hover (an operator's meaning, a declaration, a property's kind and automaton \
size); go to definition and find references for enums, variants, inputs, lets, \
lifelines, their variables, groups and protocols; document symbols; completion \
of names, keywords and operators; formatting (`hindsight fmt`'s layout). See \
docs/usage.md, \"Editors\".";

/// Arguments of `hindsight check`.
#[derive(Args, Debug)]
struct CheckArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,

    /// The traces: a JSON Lines file, a directory (its *.jsonl files, recursively), a
    /// glob pattern, or `-` for standard input; repeat --trace for more. With several
    /// arguments, a directory or a pattern, every output line names its trace first
    /// ("trace": NAME).
    #[arg(long, value_name = "FILE", required = true)]
    trace: Vec<PathBuf>,

    /// Monitor blocks: split each trace into sessions by the value at this JSON Pointer
    /// (a string or an integer, e.g. /session_id or /trace_id); each session is checked
    /// by its own monitor, and its lines carry "session": KEY.
    #[arg(long, value_name = "POINTER", value_parser = parse_pointer)]
    key: Option<String>,

    /// With --key: the most sessions of one trace live at once; a step opening one more
    /// is an error at its line (exit 2).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SESSIONS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_sessions: u64,

    /// How many traces to check at once (default: one per core); with more than one, a
    /// lone monitor trace file is read on a second thread, ahead of the monitor. Output
    /// is the same, byte for byte, whatever the number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,

    /// Print one summary line per trace (or session) instead of its step and end
    /// lines, then a total line; an aligned table when stdout is a terminal.
    #[arg(long, conflicts_with_all = ["changes", "explain"])]
    summary: bool,

    /// Also write the audit as one HTML page: the summary table (sortable), the
    /// violation counts, and per violation its explanation and the run's lines
    /// around it. Implies --summary.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["changes", "explain"])]
    report: Option<PathBuf>,

    /// Print only the step lines where some verdict changed (before step 0 every
    /// verdict is "?"), and the end lines.
    #[arg(long, conflicts_with = "explain")]
    changes: bool,

    /// How the traces are written: jsonl (JSON Lines: steps, events or population steps),
    /// or otlp (OpenTelemetry: OTLP/JSON lines of ExportTraceServiceRequest, as the
    /// Collector's file exporter writes them; monitor and system blocks).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = TraceFormat::Jsonl)]
    format: TraceFormat,

    /// With --format otlp: the most spans one file may hold (a file's spans are read
    /// before any is checked).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SPANS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_spans: u64,

    /// With --format otlp: the most bytes one file may hold (its spans are held in
    /// memory until they are checked, about three times their size).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_EXPORT_BYTES as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_export_bytes: u64,

    /// With --format otlp: print the JSON lines each export becomes (the records a
    /// monitor reads, the events a system reads) instead of checking them.
    #[arg(long)]
    dump_input: bool,

    /// Draw a progress bar on stderr: auto draws it when stderr is a terminal and the
    /// input is long (over 64 MiB or 100 traces).
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ProgressWhen::Auto)]
    progress: ProgressWhen,

    /// The monitor, system or population block to run (needed when the spec has several
    /// blocks). Every block is checked, but only this one is lowered: other blocks'
    /// automata are not built, nor their lowering errors and analysis warnings reported.
    #[arg(long, value_name = "NAME")]
    block: Option<String>,

    /// How a monitor block is run: auto compiles it to machine code when it can
    /// (not with --explain or --summary, nor for past operators with a
    /// duration bound) and interprets it otherwise; jit insists (exit 2 saying
    /// why not); interpreter always interprets. Verdicts are the same.
    #[arg(long, value_name = "ENGINE", value_enum, default_value_t = Engine::Auto)]
    engine: Engine,

    /// Exit with status 1 if any verdict (the end line included) is "false", and with
    /// status 3 if the run was vacuous: a trace or session gave no step, or an input,
    /// lifeline variable, filter or guard owner matched no line of any trace (the
    /// warnings at the end say which).
    #[arg(long)]
    fail_on_violation: bool,

    /// With --fail-on-violation: exit 0 on a vacuous run (its warnings are still
    /// printed).
    #[arg(long)]
    allow_vacuous: bool,

    /// The longest trace line accepted, in bytes (the newline excluded); a longer
    /// line is an error at its line number (exit 2), read no further.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_line_bytes: u64,

    /// System blocks: the most messages in transit (sent, not yet received) at
    /// once; one more send is an error at its line (each costs about 450 bytes).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_IN_TRANSIT as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_in_transit: u64,

    /// System blocks: carry every stamp as bytes sealed with the key in FILE (32
    /// bytes, raw or as 64 hexadecimal digits), as a deployment with sealed stamps
    /// does: each send encodes and seals, each receive checks the tag and decodes.
    #[arg(long, value_name = "FILE")]
    stamp_key_file: Option<PathBuf>,

    /// System blocks with protocols: also monitor every protocol decentralized, one monitor
    /// per group of this partition of the lifelines (JSON: '[["alice","carol"],["bob"],["dave"]]',
    /// as `hindsight partitions` prints them); each group's verdict is reported beside the
    /// central one, as `PROTOCOL[a,b]`.
    #[arg(long, value_name = "JSON")]
    partition: Option<String>,

    /// Monitor blocks: follow each run with the model `hindsight learn` wrote to FILE;
    /// after each verdict line, a line with the run's abstract state, log-likelihood,
    /// anomaly flag and per goal the probabilities of reaching it from there; after the
    /// end line, the whole run's log-likelihood and anomaly flag.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["summary", "report", "explain", "changes", "engine"])]
    model: Option<PathBuf>,

    /// After each verdict line, explain every verdict that changed (one JSON
    /// line per property; per guard at a system's choices); after the end
    /// line, every end verdict that differs from the last step or is "false".
    #[arg(long)]
    explain: bool,
}

/// Arguments of `hindsight explain`.
#[derive(Args, Debug)]
struct ExplainArgs {
    /// The spec file (.hind), or a diagnostic code (E0200) to explain.
    #[arg(value_name = "SPEC|CODE", required_unless_present = "model")]
    spec: Option<PathBuf>,

    /// Print the model `hindsight learn` wrote to FILE instead: its tree, states, MDP,
    /// goal probabilities and likelihood statistics.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["spec", "block"])]
    model: Option<PathBuf>,

    /// The monitor, system or population block to report on (default: every block).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,

    /// text: the report; dot: each past table and LTL3 automaton as a Graphviz
    /// digraph (states coloured by verdict, edges labelled with the letters that
    /// take them); svg: the same graphs laid out in one SVG document.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = ExplainFormat::Text, conflicts_with = "model")]
    format: ExplainFormat,
}

/// Arguments of `hindsight learn`.
#[derive(Args, Debug)]
struct LearnArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,

    /// The monitor block whose logs are learned from (needed when the spec has several blocks).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,

    /// The input that names the action of each step (a tool's name: an enum input).
    #[arg(long, value_name = "INPUT")]
    action: String,

    /// The training logs: JSON Lines files, directories, glob patterns or `-`, as for
    /// `hindsight check`; repeat --trace for more. Every run must be readable.
    #[arg(long, value_name = "FILE", required = true)]
    trace: Vec<PathBuf>,

    /// Split each log into runs (sessions) by the value at this JSON Pointer.
    #[arg(long, value_name = "POINTER", value_parser = parse_pointer)]
    key: Option<String>,

    /// With --key: the most sessions of one log live at once.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SESSIONS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_sessions: u64,

    /// How the logs are written: jsonl, or otlp (OpenTelemetry exports; each trace a run).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = TraceFormat::Jsonl)]
    format: TraceFormat,

    /// The longest log line accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_line_bytes: u64,

    /// The most steps read from the traces (all runs together); more is an error.
    #[arg(long, value_name = "N", default_value_t = hindsight_learn::features::DEFAULT_MAX_STEPS,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: u64,

    /// Where the model goes (versioned JSON).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: PathBuf,

    /// Also write the MDP in PRISM's explicit format: PREFIX.tra and PREFIX.lab.
    #[arg(long, value_name = "PREFIX")]
    prism: Option<PathBuf>,

    /// The least information gain (bits) a split of the tree must bring.
    #[arg(long, value_name = "BITS", default_value_t = 0.01, value_parser = parse_nonnegative)]
    min_gain: f64,

    /// The most splits on a path of the tree below the goals.
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u64).range(0..=64))]
    max_depth: u64,

    /// The most leaves (abstract states) of the tree, beyond the extra ones the
    /// splits on goals and atoms make.
    #[arg(long, value_name = "N", default_value_t = 32,
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    max_leaves: u64,

    /// z of the low-likelihood rule: a run is anomalous below mean - z·sd (2.326: α = 0.01).
    #[arg(long, value_name = "Z", default_value_t = 2.326, value_parser = parse_nonnegative)]
    z: f64,

    /// Likelihood checkpoints every N steps (online anomaly checks).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: u64,

    /// The widest interval a probability bound may have.
    #[arg(long, value_name = "EPSILON", default_value_t = 1e-6, value_parser = parse_precision)]
    precision: f64,

    /// Counterexample-guided refinement: at most N times, split the abstract state where a
    /// goal's witness (the most probable path a bound's scheduler takes to the goal) leaves
    /// every training run, and learn again (docs/learning.md).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=1000))]
    refine: u64,
}

/// A finite number at least 0.
fn parse_nonnegative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("`{text}` is not a finite number at least 0")),
    }
}

/// A precision: a number strictly between 0 and 1.
fn parse_precision(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!("`{text}` is not a number strictly between 0 and 1")),
    }
}

const LEARN_LONG_ABOUT: &str = "\
Learn a behaviour model of the runs a monitor block reads (TriCEGAR): the concrete state
after each step is the block's inputs (but its time), its past-time properties, its
past-time `let`s and its goals (`goal NAME = COND;`); the action is the input --action
names. A predicate tree over the concrete state, grown by information gain on the next
action (goals split first, so every leaf decides every goal), gives the abstract states;
an MDP over them counts the observed transitions (P = C(s,a,s')/C(s,a), unobserved ones
absent); per goal, Pmin and Pmax of eventually reaching it from every state are computed by
interval iteration to --precision; the runs' log-likelihoods give the mean and deviation
an anomalous run falls below (overall, and per checkpoint for use while a run goes on).

The model is written to --output as versioned JSON; a summary line goes to stdout.
`hindsight explain --model FILE` prints it in words.";

/// Arguments of `hindsight sample`.
#[derive(Args, Debug)]
struct SampleArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,

    /// The monitor, system or population block to sample (needed when the spec has several blocks).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,
}

const SAMPLE_LONG_ABOUT: &str = "\
Print lines a trace of a block could hold, with placeholder values (false, 0, 0.0, an enum's first \
variant, the time 2026-01-01T00:00:00Z): a log skeleton to shape a log to the spec.

A monitor gives one step line, each input where its mapping reads it and the `steps where` filter \
satisfied; a system one line per kind of event (act, send, recv, choice), each lifeline's first \
event with its whole store; a population one step with two agents. Every line is one \
`hindsight check` accepts.";

/// Arguments of `hindsight partitions`.
#[derive(Args, Debug)]
struct PartitionsArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,

    /// The system block (needed when the spec has several blocks).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,

    /// The protocol (default: every protocol of the system).
    #[arg(long, value_name = "NAME")]
    protocol: Option<String>,

    /// Say why lifelines share a group: the critical points each group satisfies (with where
    /// the choice or concatenation is written) and the joins verification forced (with the
    /// trace the finer partition misses).
    #[arg(long)]
    why: bool,
}

const PARTITIONS_LONG_ABOUT: &str = "\
Print, one JSON line each, the minimal monitoring-safe partitions of a system's lifelines for \
each of its protocols (DecAMon): groups of lifelines such that one monitor per group, checking \
the events that involve its group, reports a violation exactly when a central monitor of the \
protocol would.

  {\"protocol\": \"aip1\", \"partition\": [[\"alice\", \"carol\"], [\"bob\"], [\"dave\"]]}

Groups and names are sorted. `hindsight check --partition` runs the group monitors of a \
partition side by side over a system trace.";

/// Arguments of `hindsight build`.
#[derive(Args, Debug)]
struct BuildArgs {
    /// The spec file (.hind).
    #[arg(value_name = "SPEC")]
    spec: PathBuf,

    /// Where to write the binary.
    #[arg(short, long, value_name = "PATH")]
    output: PathBuf,

    /// The block to build: a monitor, system or population (needed when the spec
    /// has several blocks).
    #[arg(long, value_name = "NAME")]
    block: Option<String>,

    /// Generate the Cargo project in DIR and keep it (default: a temporary directory).
    /// DIR must be new, empty, or a project `hindsight build` generated before (it
    /// holds a .hindsight-build file); any other directory is refused untouched.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

const CHECK_LONG_ABOUT: &str = "\
Run a monitor block of a spec over a trace, printing one verdict line per step
and a final line with the finite-trace verdicts; or run a system block over a
system trace (events of its lifelines), printing the guards of a lifeline at
each of its choice events, as that lifeline's monitor evaluates them over its
causal past, and its protocols' verdicts at each message event they constrain;
or run a population block over a population trace (every
agent's attributes and the globals per line), printing one verdict line per
step and an end line, as for a monitor.

The spec is parsed and checked first; diagnostics (errors and warnings) go to
stderr in rustc style, coloured only when stderr is a terminal. Any error stops
the command with status 2; warnings do not.

With --explain, each verdict line is followed by one line per property whose
verdict changed (at step 0: from \"?\"; for a `with reset` property, every
decided verdict), and the end line by one line per property whose end verdict
differs from its last step verdict or is \"false\":

  {\"explain\": \"each_request\", \"step\": 4, \"verdict\": \"?\", \"why\": \"still required: F grant\"}
  {\"explain\": \"light\", \"step\": 3, \"verdict\": \"false\", \"why\": \"required G (load < 10); at this step load < 10 = false\"}
  {\"explain\": \"responds\", \"end\": true, \"verdict\": \"false\", \"why\": \"the trace ended with F grant still required\"}

A past-time property is explained by the values of its parts at that step, a
future-time one by its residual obligation and the atoms that decided it.
On a system block, each choice line is followed by one line per guard of the
choosing lifeline: its parts' values and, for every other lifeline, the last
of its events the chooser sees (a trace event index):

  {\"explain\": \"knows\", \"event\": 5, \"lifeline\": \"B\", \"verdict\": \"true\", \"why\": \"A.x == 1 = true; sees A up to event 2\"}

A protocol whose verdict changed is explained by the events it expected (at a
violation) or still requires:

  {\"explain\": \"aip2\", \"event\": 0, \"lifeline\": \"carol\", \"verdict\": \"false\", \"why\": \"expected `alice -> aamas: submit`\"}

On a population block, a property is explained by the quantifiers it reads:
per quantifier, how many members hold (or decided true / false, for a future
body) and which agents they are (the first 8 on each side). Standalone binaries
(`hindsight build`) do not explain; generated monitors expose the residual
obligations through `residuals()`.";

/// `hindsight check --help` after the options: the formats, exit codes and examples.
fn check_after_help() -> String {
    format!(
        "{}\n\nEXAMPLES\n  \
         hindsight check door.hind --trace log.jsonl\n  \
         hindsight check door.hind --block door --trace - --fail-on-violation < log.jsonl\n  \
         hindsight check review.hind --block review --trace events.jsonl\n  \
         hindsight check epidemic.hind --block epidemic --trace days.jsonl",
        help::CHECK_FORMATS
    )
}

const EXPLAIN_LONG_ABOUT: &str = "\
Compile a spec and report what it compiles to, for auditors: the compile time,
then per monitor its evaluation table (slots in evaluation order, the state
cells kept between steps, the outputs) and the LTL3 automaton of every
future-time property (per state: its verdict, its end-of-trace verdict, its
successors per letter and its residual obligation), and one line per property:
past- or future-time, and for future-time ones the automaton's states,
transitions (states × 2^atoms) and atoms. Per system: its stamp layout (clock
components and view entries, with the stamp's size in bytes), then per
lifeline the guards it owns, the view entries it exports and reads, and its
evaluation table. Per population: its strata (the agent-level tables each
agent steps), the quantifiers as written, the future quantifiers' member
sets, the population-level table, one line per property, and the state per
agent and at capacity. Diagnostics (analysis warnings included) go to stderr.

`hindsight explain CODE` (E0200, W0101, ...) prints the long explanation of a
diagnostic code instead: what it means, an example of the mistake and its fix.";

const EXPLAIN_AFTER_HELP: &str = "\
EXIT STATUS
  0  the report was printed
  2  usage error or spec error

EXAMPLES
  hindsight explain examples/trucks/trucks.hind
  hindsight explain spec.hind --block door
  hindsight explain E0203";

const BUILD_LONG_ABOUT: &str = "\
Build a standalone binary for a monitor, system or population block of a
spec. The binary takes `--trace FILE` (or `-` for standard input),
`--fail-on-violation` and `--max-line-bytes` (a system's also
`--max-in-transit`) and prints exactly what `hindsight check` prints for the
same spec and trace (stdout, stderr and exit status), using generated Rust
code instead of the interpreter. (Sealed stamps and --explain are
`hindsight check` options only.)

The command generates a small Cargo project (the block's generated code, a
short main.rs, and vendored copies of the hindsight-runtime and
hindsight-trace crates) and runs `cargo build --release --offline` on it, so
it needs a Rust toolchain but no network: the crates serde, serde_json, strsim, jiff,
walkdir, glob, tempfile, memchr, hmac and sha2 must be in the local cargo cache (building hindsight itself puts them
there; otherwise run `cargo fetch` in the generated project with network
access, once). The project is generated in --dir
(kept, and rebuilt incrementally next time; a directory that is neither new,
empty nor an earlier `hindsight build` project is refused, untouched) or in a
fresh temporary directory that is removed after a successful build and kept,
with a note saying where, after a failed one. The generated manifests are
TOML documents with no build script and only the listed targets, whatever the
spec's file name: `hindsight build` runs nothing but cargo on code it wrote.";

const BUILD_AFTER_HELP: &str = "\
EXIT STATUS
  0  the binary was built and copied to PATH
  2  usage error, spec error, or the project could not be written or built

EXAMPLES
  hindsight build examples/trucks/trucks.hind -o trucks-monitor
  ./trucks-monitor --trace examples/trucks/trucks.jsonl --fail-on-violation";

/// How traces are written (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum TraceFormat {
    /// JSON Lines.
    Jsonl,
    /// OpenTelemetry OTLP/JSON.
    Otlp,
}

/// A `--key` value: a JSON Pointer.
fn parse_pointer(text: &str) -> Result<String, String> {
    SessionPointer::parse(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Check(args) => check::run(&CheckOptions {
            spec: args.spec,
            block: args.block,
            run: RunOptions {
                traces: args.trace,
                fail_on_violation: args.fail_on_violation,
                allow_vacuous: args.allow_vacuous,
                max_line_bytes: usize::try_from(args.max_line_bytes).unwrap_or(usize::MAX),
                max_in_transit: usize::try_from(args.max_in_transit).unwrap_or(usize::MAX),
                jobs: args
                    .jobs
                    .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                key: args.key,
                max_sessions: usize::try_from(args.max_sessions).unwrap_or(usize::MAX),
                output: if args.summary || args.report.is_some() {
                    Output::Summary
                } else if args.changes {
                    Output::Changes
                } else {
                    Output::Steps
                },
                format: match args.format {
                    TraceFormat::Jsonl => Format::Jsonl,
                    TraceFormat::Otlp => Format::Otlp,
                },
                max_spans: usize::try_from(args.max_spans).unwrap_or(usize::MAX),
                max_export_bytes: usize::try_from(args.max_export_bytes).unwrap_or(usize::MAX),
                dump_input: args.dump_input,
            },
            explain: args.explain,
            stamp_key_file: args.stamp_key_file,
            partition: args.partition,
            model: args.model,
            report: args.report,
            progress: args.progress,
            engine: args.engine,
        }),
        Command::Explain(args) => match (args.model, args.spec) {
            (Some(model), _) => learn::explain_model(&model),
            (None, Some(spec)) => explain::run(&ExplainOptions {
                spec,
                block: args.block,
                format: args.format,
            }),
            (None, None) => hindsight_trace::EXIT_ERROR,
        },
        Command::Learn(args) => learn::run(&LearnOptions {
            spec: args.spec,
            block: args.block,
            action: args.action,
            run: RunOptions {
                traces: args.trace,
                key: args.key,
                max_sessions: usize::try_from(args.max_sessions).unwrap_or(usize::MAX),
                format: match args.format {
                    TraceFormat::Jsonl => Format::Jsonl,
                    TraceFormat::Otlp => Format::Otlp,
                },
                max_line_bytes: usize::try_from(args.max_line_bytes).unwrap_or(usize::MAX),
                output: Output::Summary,
                ..RunOptions::new(PathBuf::new())
            },
            output: args.output,
            prism: args.prism,
            max_steps: args.max_steps,
            learning: hindsight_learn::Options {
                growth: hindsight_learn::tree::Growth {
                    min_gain: args.min_gain,
                    max_depth: usize::try_from(args.max_depth).unwrap_or(64),
                    max_leaves: usize::try_from(args.max_leaves).unwrap_or(4096),
                },
                z: args.z,
                every: args.checkpoint_every,
                precision: args.precision,
                refinements: usize::try_from(args.refine).unwrap_or(1000),
                ..hindsight_learn::Options::default()
            },
        }),
        Command::Draw(args) => draw::run(&DrawOptions {
            spec: args.spec,
            block: args.block,
            trace: args.trace,
            at: args.at,
            output: args.output,
        }),
        Command::Fmt(args) => fmt::run(&FmtOptions {
            paths: args.paths,
            check: args.check,
        }),
        Command::Lsp => match hindsight_lsp::run_stdio() {
            Ok(()) => 0,
            Err(error) => {
                eprintln!("error: the language server stopped: {error}");
                1
            }
        },
        Command::Partitions(args) => partitions::run(&PartitionsOptions {
            spec: args.spec,
            block: args.block,
            protocol: args.protocol,
            why: args.why,
        }),
        Command::Sample(args) => sample::run(&SampleOptions {
            spec: args.spec,
            block: args.block,
        }),
        Command::Build(args) => standalone::run(&BuildOptions {
            spec: args.spec,
            output: args.output,
            block: args.block,
            dir: args.dir,
        }),
    };
    ExitCode::from(status)
}
