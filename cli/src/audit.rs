//! What `hindsight check` adds to an audit of many traces for a person at
//! a terminal: a progress bar on stderr ([`indicatif`]) and the summary as
//! an aligned table ([`comfy_table`]). The checking itself, and the JSON
//! summary lines the table is made from, are `hindsight_trace`'s.

use clap::ValueEnum;
use comfy_table::{presets, ColumnConstraint, ContentArrangement, Table};
use hindsight_draw::report::{Audit, Cell, Run, Violation};
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
/// as a table; `report` also receives the summary lines (`--report`).
pub fn with_frontend<T>(
    when: ProgressWhen,
    summary: bool,
    traces: &[PathBuf],
    report: Option<&(dyn Fn(&str) + Sync)>,
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
            report,
        });
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| draw(&bar, &progress, &done));
        let result = run(Frontend {
            progress: Some(&progress),
            table,
            report,
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
    let audit = summary(lines);
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width);
    let mut header: Vec<String> = audit.keys.iter().map(|k| k.to_uppercase()).collect();
    header.push(audit.count.to_uppercase());
    header.extend(audit.columns.iter().cloned());
    header.push(if audit.system { "CHOICES" } else { "WHY" }.into());
    table.set_header(header);
    for run in &audit.runs {
        let mut row = run.keys.clone();
        if let Some(error) = &run.error {
            row.push(String::new());
            row.extend(audit.columns.iter().map(|_| String::new()));
            row.push(format!("error: {error}"));
            table.add_row(row);
            continue;
        }
        row.push(run.count.clone());
        row.extend(run.cells.iter().map(|c| c.text.clone()));
        let why = run
            .cells
            .iter()
            .filter_map(|c| c.violation.as_ref())
            .map(|v| v.why.clone())
            .find(|why| !why.is_empty())
            .unwrap_or_default();
        row.push(if audit.system {
            run.choices.clone()
        } else {
            why
        });
        table.add_row(row);
    }
    // Counts and verdicts keep their width; the trace's name and the
    // explanation share what is left.
    let trace = audit.keys.first().is_some_and(|k| k == "trace");
    let columns = table.column_count();
    for (k, column) in table.column_iter_mut().enumerate() {
        let free = k + 1 == columns || (trace && k == 0);
        if !free {
            column.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    let mut out = table.to_string();
    out.push('\n');
    for total in &audit.totals {
        out.push_str(total);
        out.push('\n');
    }
    out
}

/// The summary lines `lines` (JSON Lines from `--summary`) read into the
/// model the terminal table and the HTML report both show: runs named by
/// trace and/or session, a column per property (or guard), the totals.
pub fn summary(lines: &str) -> Audit {
    let rows: Vec<Row> = lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Row>(l).ok())
        .collect();
    let (summaries, totals): (Vec<_>, Vec<_>) = rows
        .into_iter()
        .partition(|r| r.get("summary") == Some(&Value::Bool(true)));
    let has = |key: &str| summaries.iter().any(|r| r.contains_key(key));
    let system = has("events");
    let keys: Vec<String> = ["trace", "session"]
        .into_iter()
        .filter(|k| has(k))
        .map(String::from)
        .collect();
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
    let runs = summaries
        .iter()
        .map(|r| {
            let text = |key: &str| match r.get(key) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            let number = |key: &str| r.get(key).and_then(Value::as_u64);
            let mut run = Run {
                keys: keys.iter().map(|k| text(k)).collect(),
                count: text(if system { "events" } else { "steps" }),
                error: r
                    .get("error")
                    .map(|e| e.as_str().unwrap_or_default().to_string()),
                choices: text("choices"),
                cells: Vec::new(),
            };
            if run.error.is_some() {
                run.count = String::new();
                return run;
            }
            run.cells = names
                .iter()
                .map(|name| {
                    let key = |suffix: &str| format!("{name}.{suffix}");
                    if system {
                        let n = |s: &str| text(&key(s));
                        return Cell {
                            text: format!("{} ✓ {} ✗ {} ?", n("true"), n("false"), n("unknown")),
                            weight: number(&key("true")).unwrap_or(0),
                            ..Cell::default()
                        };
                    }
                    let verdict = text(name);
                    let false_steps = number(&key("false_steps")).unwrap_or(0);
                    let first = number(&key("first_false"));
                    let text = match (verdict.as_str(), first) {
                        (_, Some(first)) => format!("✗ {false_steps} @{first}"),
                        ("false", None) => "✗ end".to_string(),
                        ("true", _) => "ok".to_string(),
                        (other, _) => other.to_string(),
                    };
                    let violated = first.is_some() || verdict == "false";
                    Cell {
                        weight: false_steps + u64::from(violated),
                        violation: violated.then(|| Violation {
                            step: first,
                            line: number(&key("first_false_line")),
                            time: r
                                .get(&key("first_false_time"))
                                .and_then(Value::as_str)
                                .map(String::from),
                            why: text_of(r, &key("why")),
                            timeline: Vec::new(),
                        }),
                        verdict,
                        text,
                    }
                })
                .collect();
            run
        })
        .collect();
    let totals = totals
        .iter()
        .map(|total| {
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
            let mut line = counted.join(", ");
            if !violated.is_empty() {
                line.push_str(&format!("; violated: {}", violated.join(", ")));
            }
            line
        })
        .collect();
    Audit {
        title: String::new(),
        keys,
        count: if system { "events" } else { "steps" }.into(),
        system,
        columns: names,
        runs,
        totals,
    }
}

/// The string at `key` of `row`, or empty.
fn text_of(row: &Row, key: &str) -> String {
    row.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
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

/// Lines of a run shown before its violating line in a report.
const BEFORE: usize = 4;

/// Writes the HTML report of an audit (`--report`) from its summary lines:
/// the table, the totals, and per violation its explanation and the run's
/// lines around it (read again from the trace; a keyed log's lines are
/// those of the violating session).
pub fn write_report(
    path: &std::path::Path,
    title: String,
    lines: &str,
    run: &hindsight_trace::RunOptions,
) -> Result<(), String> {
    let mut audit = summary(lines);
    audit.title = title;
    let key = audit.keys.iter().position(|k| k == "trace");
    let session = audit.keys.iter().position(|k| k == "session");
    let only = match run.traces.as_slice() {
        [one] if one.is_file() => Some(one.clone()),
        _ => None,
    };
    let otlp = run.format == hindsight_trace::run::Format::Otlp;
    // Per trace file, the violations whose lines to show: read once each.
    let mut wanted: Vec<(PathBuf, Vec<Wanted>)> = Vec::new();
    for (r, row) in audit.runs.iter().enumerate() {
        let file = key
            .map(|k| PathBuf::from(&row.keys[k]))
            .or_else(|| only.clone());
        let (Some(file), false) = (file, otlp) else {
            continue;
        };
        let session = session.map(|k| row.keys[k].clone());
        for (c, cell) in row.cells.iter().enumerate() {
            let Some(at) = cell.violation.as_ref().and_then(|v| v.line) else {
                continue;
            };
            let want = Wanted {
                run: r,
                cell: c,
                at,
                session: session.clone(),
                lines: Vec::new(),
                done: false,
            };
            match wanted.iter_mut().find(|(f, _)| *f == file) {
                Some((_, list)) => list.push(want),
                None => wanted.push((file.clone(), vec![want])),
            }
        }
    }
    for (file, mut wants) in wanted {
        timelines(&file, run.key.as_deref(), run.max_line_bytes, &mut wants);
        for want in wants {
            if let Some(v) = &mut audit.runs[want.run].cells[want.cell].violation {
                v.timeline = want.lines;
            }
        }
    }
    std::fs::write(path, audit.html()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A violation whose timeline is being read.
struct Wanted {
    run: usize,
    cell: usize,
    /// The violating line (1-based).
    at: u64,
    /// Its session, in a keyed log.
    session: Option<String>,
    lines: Vec<hindsight_draw::report::TimelineLine>,
    /// Whether the line after it was read.
    done: bool,
}

/// Fills each of `wants` with the lines of `file` around its line: up to
/// [`BEFORE`] before it and one after, only those of its session (by the
/// JSON Pointer `key`) in a keyed log; lines cut to 400 characters. One
/// pass over the file (to its end if a violation is a session's last line),
/// keeping a few lines per session wanted; lines over `max_line_bytes`, which
/// `check` refuses, are skipped without being held.
fn timelines(
    file: &std::path::Path,
    key: Option<&str>,
    max_line_bytes: usize,
    wants: &mut [Wanted],
) {
    use hindsight_draw::report::TimelineLine;
    use std::collections::{HashMap, VecDeque};
    use std::io::{BufRead, Read};
    let Ok(opened) = std::fs::File::open(file) else {
        return;
    };
    let mut recent: HashMap<Option<String>, VecDeque<TimelineLine>> = wants
        .iter()
        .map(|w| (w.session.clone(), VecDeque::new()))
        .collect();
    let session_of = |text: &str| -> Option<String> {
        let value = serde_json::from_str::<Value>(text).ok()?;
        let value = value.pointer(key?)?;
        Some(
            value
                .as_str()
                .map_or_else(|| value.to_string(), String::from),
        )
    };
    let mut reader = std::io::BufReader::new(opened);
    let mut bytes = Vec::new();
    let mut number = 0u64;
    loop {
        bytes.clear();
        let limit = max_line_bytes as u64 + 1;
        match (&mut reader).take(limit).read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        number += 1;
        if bytes.last() != Some(&b'\n') && bytes.len() > max_line_bytes {
            // The rest of an over-long line, read in pieces and dropped.
            loop {
                bytes.clear();
                match (&mut reader).take(1 << 16).read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if bytes.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end_matches(['\n', '\r']);
        let targeted = wants.iter().any(|w| w.at == number);
        if text.trim().is_empty() {
            continue;
        }
        let session = key.and_then(|_| session_of(text));
        let Some(ring) = recent.get_mut(&session) else {
            if !targeted {
                continue;
            }
            // The violating line itself, whatever session it names.
            for w in wants.iter_mut().filter(|w| w.at == number) {
                w.lines.push(line(number, text, true));
            }
            continue;
        };
        for w in wants.iter_mut() {
            if w.at == number {
                w.lines = ring.iter().cloned().collect();
                w.lines.push(line(number, text, true));
            } else if !w.done && w.at < number && w.session == session && !w.lines.is_empty() {
                w.lines.push(line(number, text, false));
                w.done = true;
            }
        }
        ring.push_back(line(number, text, false));
        if ring.len() > BEFORE {
            ring.pop_front();
        }
        if wants.iter().all(|w| w.done) {
            break;
        }
    }
}

/// A timeline line: its number, its text cut to 400 characters.
fn line(number: u64, text: &str, here: bool) -> hindsight_draw::report::TimelineLine {
    hindsight_draw::report::TimelineLine {
        number,
        text: text.chars().take(400).collect(),
        here,
    }
}
