//! What `hindsight check` adds to an audit of many traces for a person at
//! a terminal: a progress bar on stderr ([`indicatif`]) and the summary as
//! an aligned table ([`comfy_table`]). The checking itself, and the JSON
//! summary lines the table is made from, are `hindsight_trace`'s.

use clap::ValueEnum;
use comfy_table::{presets, ColumnConstraint, ContentArrangement, Table};
use hindsight_trace::audit::{self, Frontend, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Input this long (in bytes) gets a progress bar by default.
const LONG_INPUT_BYTES: u64 = 64 << 20;

/// This many traces get a progress bar by default.
const MANY_TRACES: usize = 100;

/// How long a run goes before its bar is drawn.
const BAR_DELAY: Duration = Duration::from_secs(1);

/// How often the bar is redrawn.
const BAR_PERIOD: Duration = Duration::from_millis(250);

/// When to draw a progress bar (`--progress`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ProgressWhen {
    /// When stderr is a terminal and the input is long.
    #[default]
    Auto,
    /// When stderr is a terminal, whatever the input.
    Always,
    /// Never.
    Never,
}

/// Runs `run` with the frontend a person at a terminal gets: a progress bar
/// as `when` says, and (with `summary` and stdout a terminal) the summary
/// as a table.
pub fn with_frontend<T>(
    when: ProgressWhen,
    summary: bool,
    traces: &[PathBuf],
    run: impl FnOnce(Frontend<'_>) -> T,
) -> T {
    let table: &(dyn Fn(&str) -> String + Sync) = &|lines: &str| {
        let width = console::Term::stdout().size().1;
        render_table(lines, width)
    };
    let table = (summary && std::io::stdout().is_terminal()).then_some(table);
    let stderr = std::io::stderr().is_terminal();
    let sources = match (when, stderr) {
        (ProgressWhen::Never, _) | (_, false) => None,
        _ => audit::expand(traces).ok(),
    };
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
    let printer = bar.clone();
    let progress = sources
        .map(|s| {
            Progress::new(
                &s,
                Box::new(move |line: &str| printer.suspend(|| eprintln!("{line}"))),
            )
        })
        .filter(|p| {
            when == ProgressWhen::Always
                || p.total_bytes > LONG_INPUT_BYTES
                || p.traces > MANY_TRACES
        });
    let Some(progress) = progress else {
        return run(Frontend {
            progress: None,
            table,
        });
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| draw(&bar, &progress, &done));
        let result = run(Frontend {
            progress: Some(&progress),
            table,
        });
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Redraws `bar` from `progress` until `done`; clears it then.
fn draw(bar: &ProgressBar, progress: &Progress, done: &AtomicBool) {
    let start = Instant::now();
    let style = ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_length(progress.total_bytes);
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(BAR_PERIOD);
        let elapsed = start.elapsed();
        if elapsed < BAR_DELAY {
            continue;
        }
        let lines = progress.lines.load(Ordering::Relaxed);
        let rate = lines as f64 / elapsed.as_secs_f64();
        bar.set_position(progress.bytes.load(Ordering::Relaxed));
        bar.set_message(format!(
            "{}/{} traces, {} events/s",
            progress.traces_done.load(Ordering::Relaxed),
            progress.traces,
            human(rate)
        ));
    }
    bar.finish_and_clear();
}

/// `rate` with a metric prefix: `812`, `41.5 k`, `3.1 M`.
fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

/// The summary lines `lines` (JSON Lines from `--summary`) as a table at
/// most `width` columns wide, then the total: one row per trace or
/// session, a column per property (`ok`, `?`, or `✗ N @S`: false at N
/// steps, first at step S; `✗ end` when only the end verdict is false),
/// and the first violation's explanation.
pub fn render_table(lines: &str, width: u16) -> String {
    let rows: Vec<Row> = lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Row>(l).ok())
        .collect();
    let (summaries, totals): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|r| r.get("summary") == Some(&Value::Bool(true)));
    let summaries: Vec<&Row> = summaries.iter().collect();
    let has = |key: &str| summaries.iter().any(|r| r.contains_key(key));
    let (trace, session, system) = (has("trace"), has("session"), has("events"));
    // Properties: keys whose value is a verdict; guards: keys NAME.true.
    let mut names: Vec<String> = Vec::new();
    for r in &summaries {
        for (k, v) in &r.0 {
            let name = if system {
                k.strip_suffix(".true").map(str::to_string)
            } else {
                // A verdict; the trace's name or session key may look like one.
                let own = matches!(k.as_str(), "trace" | "session" | "summary" | "error");
                (!own && matches!(v.as_str(), Some("true" | "false" | "?"))).then(|| k.clone())
            };
            if let Some(name) = name.filter(|n| !names.contains(n)) {
                names.push(name);
            }
        }
    }
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width);
    let mut header: Vec<String> = Vec::new();
    if trace {
        header.push("TRACE".into());
    }
    if session {
        header.push("SESSION".into());
    }
    header.push(if system { "EVENTS" } else { "STEPS" }.into());
    header.extend(names.iter().cloned());
    header.push(if system { "CHOICES" } else { "WHY" }.into());
    table.set_header(header);
    for r in &summaries {
        let text = |key: &str| match r.get(key) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        let mut row: Vec<String> = Vec::new();
        if trace {
            row.push(text("trace"));
        }
        if session {
            row.push(text("session"));
        }
        if let Some(error) = r.get("error") {
            row.push(String::new());
            row.extend(names.iter().map(|_| String::new()));
            row.push(format!("error: {}", error.as_str().unwrap_or_default()));
            table.add_row(row);
            continue;
        }
        row.push(text(if system { "events" } else { "steps" }));
        let mut why = String::new();
        for name in &names {
            let cell = if system {
                let n = |s: &str| text(&format!("{name}.{s}"));
                format!("{} ✓ {} ✗ {} ?", n("true"), n("false"), n("unknown"))
            } else {
                let verdict = text(name);
                let false_steps = text(&format!("{name}.false_steps"));
                let first = text(&format!("{name}.first_false"));
                if why.is_empty() {
                    why = text(&format!("{name}.why"));
                }
                match (verdict.as_str(), first.is_empty()) {
                    (_, false) => format!("✗ {false_steps} @{first}"),
                    ("false", true) => "✗ end".to_string(),
                    ("true", _) => "ok".to_string(),
                    (other, _) => other.to_string(),
                }
            };
            row.push(cell);
        }
        row.push(if system { text("choices") } else { why });
        table.add_row(row);
    }
    // Counts and verdicts keep their width; the trace's name and the
    // explanation share what is left.
    let columns = table.column_count();
    for (k, column) in table.column_iter_mut().enumerate() {
        let free = k + 1 == columns || (trace && k == 0);
        if !free {
            column.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    let mut out = table.to_string();
    out.push('\n');
    for total in totals {
        let n = |k: &str| total.get(k).map_or_else(String::new, Value::to_string);
        let violated: Vec<String> = names
            .iter()
            .filter_map(|p| {
                let k = total.get(&format!("{p}.violated"))?.as_u64()?;
                Some(format!("{p} {k}"))
            })
            .collect();
        let counted: Vec<String> = ["trace", "session", "step", "error"]
            .iter()
            .map(|noun| {
                let count = n(&format!("{noun}s"));
                let s = if count == "1" { "" } else { "s" };
                format!("{count} {noun}{s}")
            })
            .collect();
        out.push_str(&counted.join(", "));
        if !violated.is_empty() {
            out.push_str(&format!("; violated: {}", violated.join(", ")));
        }
        out.push('\n');
    }
    out
}

/// One JSON object line, its keys in the order written (a summary's
/// properties are in declaration order).
struct Row(Vec<(String, Value)>);

impl Row {
    /// The value of `key`.
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether it has `key`.
    fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(RowVisitor)
    }
}

/// Reads a [`Row`].
struct RowVisitor;

impl<'de> Visitor<'de> for RowVisitor {
    type Value = Row;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Row, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry::<String, Value>()? {
            entries.push(entry);
        }
        Ok(Row(entries))
    }
}
