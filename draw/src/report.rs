//! An audit of many runs as one self-contained HTML page: a summary table
//! (runs × properties; sortable by clicking a heading when scripts run),
//! the violation counts, and per violation the explanation and a timeline
//! of the run's lines around it.
//!
//! The model is what `hindsight check --summary` prints, read by the CLI
//! (which also fills the timelines from the traces).

use std::fmt::Write as _;

use crate::svg::{escape, page, verdict_class};

/// An audit: every run's row and the totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Audit {
    /// A heading (the spec and the traces).
    pub title: String,
    /// The columns naming a run (`trace`, `session`).
    pub keys: Vec<String>,
    /// `steps` for monitors and populations, `events` for systems.
    pub count: String,
    /// Whether the runs are system runs (cells count guard values).
    pub system: bool,
    /// The properties (or guards), in declaration order.
    pub columns: Vec<String>,
    /// One per run, in the order checked.
    pub runs: Vec<Run>,
    /// The totals, as sentences (`3 traces, 28 steps, 0 errors; violated: ...`).
    pub totals: Vec<String>,
}

/// One run's row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Run {
    /// Its key columns' values.
    pub keys: Vec<String>,
    /// Its steps (or events).
    pub count: String,
    /// One per column (empty when the run failed).
    pub cells: Vec<Cell>,
    /// Why the run could not be checked, if it could not.
    pub error: Option<String>,
    /// A system run's choices.
    pub choices: String,
}

/// One property's result on one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    /// `true`, `false` or `?` (empty for guard counts).
    pub verdict: String,
    /// As the terminal table shows it: `ok`, `✗ 2 @8`, `✗ end`, `1 ✓ 0 ✗ 0 ?`.
    pub text: String,
    /// What the column sorts by: steps false (guards: times true).
    pub weight: u64,
    /// The first violation, if any.
    pub violation: Option<Violation>,
}

/// Where and why a property first failed on a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Violation {
    /// The step (0-based), if a step failed (`None`: only the end verdict).
    pub step: Option<u64>,
    /// The trace line of that step.
    pub line: Option<u64>,
    /// The step's time, for timed specs.
    pub time: Option<String>,
    /// The parts' values at that step (`--explain`'s words).
    pub why: String,
    /// The run's lines around it.
    pub timeline: Vec<TimelineLine>,
}

/// One line of a run around a violation.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineLine {
    /// Its line number in the trace file.
    pub number: u64,
    /// The line as written.
    pub text: String,
    /// Whether it is the violating step.
    pub here: bool,
}

impl Audit {
    /// The anchor of run `r`'s violation of column `c`.
    fn anchor(r: usize, c: usize) -> String {
        format!("v-{r}-{c}")
    }

    /// The report as one HTML page: no request leaves it, and it reads the
    /// same without scripts (the script only sorts the table).
    pub fn html(&self) -> String {
        let mut body = String::new();
        let _ = writeln!(body, "<h1>{}</h1>", escape(&self.title));
        for total in &self.totals {
            let _ = writeln!(body, "<p class=\"totals\">{}</p>", escape(total));
        }
        let violations: usize = self
            .runs
            .iter()
            .flat_map(|r| &r.cells)
            .filter(|c| c.violation.is_some())
            .count();
        let violated = self
            .runs
            .iter()
            .filter(|r| r.cells.iter().any(|c| c.violation.is_some()))
            .count();
        let unread = self.runs.iter().filter(|r| r.error.is_some()).count();
        let mut counts = format!(
            "{}, {violated} with a violation ({} below)",
            plural(self.runs.len(), "run"),
            plural(violations, "violation")
        );
        if unread > 0 {
            counts.push_str(&format!("; {} could not be checked", plural(unread, "run")));
        }
        let _ = writeln!(body, "<p class=\"counts\">{counts}.</p>");
        self.table(&mut body);
        if violations > 0 {
            body.push_str("<h2>Violations</h2>\n");
        }
        for (r, run) in self.runs.iter().enumerate() {
            for (c, cell) in run.cells.iter().enumerate() {
                if let Some(v) = &cell.violation {
                    self.violation(&mut body, r, c, v);
                }
            }
        }
        page(&self.title, STYLE, &body, Some(SCRIPT))
    }

    fn table(&self, body: &mut String) {
        body.push_str("<table id=\"summary\" class=\"sortable\">\n<thead><tr>");
        let mut headings: Vec<(String, &str)> =
            self.keys.iter().map(|k| (k.clone(), "text")).collect();
        headings.push((self.count.clone(), "number"));
        headings.extend(self.columns.iter().map(|c| (c.clone(), "number")));
        headings.push((
            if self.system { "choices" } else { "error" }.to_string(),
            "text",
        ));
        for (k, (heading, kind)) in headings.iter().enumerate() {
            let _ = write!(
                body,
                "<th scope=\"col\" data-column=\"{k}\" data-kind=\"{kind}\" aria-sort=\"none\"><button type=\"button\">{}</button></th>",
                escape(heading)
            );
        }
        body.push_str("</tr></thead>\n<tbody>\n");
        for (r, run) in self.runs.iter().enumerate() {
            let failed = run.cells.iter().any(|c| c.violation.is_some()) || run.error.is_some();
            let _ = write!(
                body,
                "<tr{}>",
                if failed { " class=\"failed\"" } else { "" }
            );
            for key in &run.keys {
                let _ = write!(body, "<td data-sort=\"{0}\">{0}</td>", escape(key));
            }
            let _ = write!(body, "<td data-sort=\"{0}\">{0}</td>", escape(&run.count));
            for (c, cell) in run.cells.iter().enumerate() {
                let text = match &cell.violation {
                    Some(_) => format!(
                        "<a href=\"#{}\">{}</a>",
                        Self::anchor(r, c),
                        escape(&cell.text)
                    ),
                    None => escape(&cell.text),
                };
                let _ = write!(
                    body,
                    "<td class=\"verdict {}\" data-sort=\"{}\">{text}</td>",
                    if self.system {
                        "count"
                    } else {
                        verdict_class(&cell.verdict)
                    },
                    cell.weight
                );
            }
            if run.cells.is_empty() {
                for _ in &self.columns {
                    body.push_str("<td data-sort=\"0\"></td>");
                }
            }
            let last = match (&run.error, self.system) {
                (Some(e), _) => format!("error: {e}"),
                (None, true) => run.choices.clone(),
                (None, false) => String::new(),
            };
            let _ = writeln!(body, "<td data-sort=\"{0}\">{0}</td></tr>", escape(&last));
        }
        body.push_str("</tbody>\n</table>\n");
    }

    fn violation(&self, body: &mut String, r: usize, c: usize, v: &Violation) {
        let run = &self.runs[r];
        let name = run.keys.join(" · ");
        let place = match (v.step, v.line) {
            (Some(step), Some(line)) => format!("false at step {step} (line {line})"),
            (Some(step), None) => format!("false at step {step}"),
            (None, _) => "false at the end of the run".to_string(),
        };
        let time = v.time.as_ref().map_or(String::new(), |t| format!(", {t}"));
        let _ = writeln!(
            body,
            "<article class=\"violation\" id=\"{}\">\n<h3><code>{}</code> in {}: {}{}</h3>",
            Self::anchor(r, c),
            escape(&self.columns[c]),
            escape(&name),
            escape(&place),
            escape(&time)
        );
        if !v.why.is_empty() {
            let _ = writeln!(
                body,
                "<p class=\"why\">Why: <code>{}</code></p>",
                escape(&v.why)
            );
        }
        if !v.timeline.is_empty() {
            body.push_str("<table class=\"timeline\"><thead><tr><th scope=\"col\">line</th><th scope=\"col\">the run</th></tr></thead><tbody>\n");
            for line in &v.timeline {
                let _ = writeln!(
                    body,
                    "<tr{}><td class=\"number\">{}</td><td><code>{}</code></td></tr>",
                    if line.here { " class=\"here\"" } else { "" },
                    line.number,
                    escape(&line.text)
                );
            }
            body.push_str("</tbody></table>\n");
        }
        body.push_str("</article>\n");
    }
}

/// `1 run`, `3 runs`.
fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

const STYLE: &str = "body { font: 14px ui-sans-serif, system-ui, sans-serif; margin: 1.5em; color: #0f172a; }\n\
h1 { font-size: 1.3em; } h2 { font-size: 1.15em; margin-top: 1.5em; } h3 { font-size: 1em; }\n\
table { border-collapse: collapse; margin: 0.5em 0; }\n\
th, td { border: 1px solid #cbd5e1; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }\n\
th button { font: inherit; font-weight: 600; background: none; border: none; padding: 0; cursor: pointer; }\n\
th[aria-sort=ascending] button::after { content: ' ▲'; } th[aria-sort=descending] button::after { content: ' ▼'; }\n\
td.verdict.true { color: #15803d; } td.verdict.false { color: #b91c1c; font-weight: 600; } td.verdict.unknown { color: #b45309; }\n\
tr.failed td:first-child { border-left: 4px solid #b91c1c; }\n\
.violation { border-left: 4px solid #b91c1c; padding: 0.2em 1em; margin: 1em 0; background: #fef2f2; }\n\
.timeline tr.here { background: #fee2e2; font-weight: 600; }\n\
.timeline td.number { text-align: right; color: #475569; }\n\
code { font: 12px ui-monospace, monospace; }\n";

/// Sorts the summary table by the heading clicked: numbers by value, text
/// alphabetically; a second click reverses.
const SCRIPT: &str = r#"document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = Array.prototype.slice.call(table.querySelectorAll('thead th'));
  heads.forEach(function (th) {
    th.querySelector('button').addEventListener('click', function () {
      var column = Number(th.getAttribute('data-column'));
      var numeric = th.getAttribute('data-kind') === 'number';
      var order = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      heads.forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
      th.setAttribute('aria-sort', order);
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].getAttribute('data-sort'), y = b.cells[column].getAttribute('data-sort');
        var c = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return order === 'ascending' ? c : -c;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"#;
