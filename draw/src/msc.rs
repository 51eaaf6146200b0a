//! A system run as a message sequence chart: lifelines as vertical lines,
//! events laid out causally (an event sits below its lifeline's previous
//! event and below the send of the message it receives), messages as arrows
//! (open and dashed while in transit), and for a guard evaluation its causal
//! past shaded, the latest visible event of each lifeline ringed, and the
//! guards' values with the parts that decided them.
//!
//! The causal past of an event is read off its vector clock: for each
//! lifeline, the first `clock[l]` of its events. Every event is drawn with
//! `data-event` (its index in the trace) and the classes `in-past` and
//! `latest` per chart, so a test can compare the picture with a reference
//! semantics; the shading covers exactly the events in the past.

use std::fmt::Write as _;

use crate::svg::{escape, page, text_width, verdict_class, verdict_colour};

/// A run to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    /// A heading (the spec, block and trace).
    pub title: String,
    /// The lifelines' names, left to right.
    pub lifelines: Vec<String>,
    /// The events in trace order.
    pub events: Vec<Event>,
    /// The evaluations to show, one chart each (none: the run alone).
    pub focus: Vec<Focus>,
}

/// One event of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Its lifeline (index into [`Chart::lifelines`]).
    pub lifeline: usize,
    /// What it does.
    pub kind: EventKind,
    /// What it changes, as written in the trace (`status = failed`).
    pub text: String,
    /// Its vector clock: per lifeline, how many of that lifeline's events
    /// are in its causal past (itself included).
    pub clock: Vec<u64>,
}

/// What an event does.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A local action.
    Act,
    /// A decision: the lifeline's guards are evaluated.
    Choice,
    /// Sends a message to lifeline `to`.
    Send {
        /// The receiver.
        to: usize,
        /// The message's id (and label, if any) as the trace gives it.
        message: String,
        /// The event receiving it, if the trace has one.
        received_at: Option<usize>,
    },
    /// Receives the message sent at `sent_at`.
    Recv {
        /// The sending event.
        sent_at: usize,
        /// The message's id (and label, if any).
        message: String,
    },
}

/// A guard evaluation to explain.
#[derive(Clone, Debug, PartialEq)]
pub struct Focus {
    /// The choice event.
    pub event: usize,
    /// The guards its lifeline owns, with their values there.
    pub guards: Vec<Guard>,
}

/// A guard's value at a choice and the parts that decided it.
#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    /// The guard's name.
    pub name: String,
    /// `true`, `false` or `?`.
    pub verdict: String,
    /// Each part's text and value (`TestRunner.cand == cand`, `true`).
    pub parts: Vec<(String, String)>,
}

const MARGIN: f64 = 16.0;
const COLUMN: f64 = 190.0;
const ROW: f64 = 30.0;
const HEAD: f64 = 56.0;
const FONT: f64 = 11.0;
const LINE: f64 = 16.0;

/// Where everything sits: rows per event, each lifeline's events in order.
struct Layout {
    row: Vec<usize>,
    rows: usize,
    /// Per lifeline: its events, in order.
    on: Vec<Vec<usize>>,
    /// Per event: its position on its lifeline.
    local: Vec<usize>,
}

impl Layout {
    fn of(chart: &Chart) -> Layout {
        let mut row = vec![0; chart.events.len()];
        let mut next = vec![0usize; chart.lifelines.len()];
        let mut on = vec![Vec::new(); chart.lifelines.len()];
        let mut local = vec![0; chart.events.len()];
        for (e, event) in chart.events.iter().enumerate() {
            let l = event.lifeline;
            let mut r = next.get(l).copied().unwrap_or(0);
            if let EventKind::Recv { sent_at, .. } = event.kind {
                r = r.max(row.get(sent_at).map_or(0, |&s| s + 1));
            }
            row[e] = r;
            if let Some(n) = next.get_mut(l) {
                *n = r + 1;
            }
            if let Some(list) = on.get_mut(l) {
                local[e] = list.len();
                list.push(e);
            }
        }
        let rows = next.iter().copied().max().unwrap_or(0);
        Layout {
            row,
            rows,
            on,
            local,
        }
    }

    fn x(&self, lifeline: usize) -> f64 {
        MARGIN + COLUMN / 2.0 + lifeline as f64 * COLUMN
    }

    fn y(&self, event: usize) -> f64 {
        HEAD + self.row[event] as f64 * ROW + ROW / 2.0
    }

    /// Where open (in-transit) arrows end: below the last row.
    fn bottom(&self) -> f64 {
        HEAD + self.rows as f64 * ROW + ROW / 2.0
    }

    fn height(&self) -> f64 {
        self.bottom() + ROW / 2.0
    }
}

impl Chart {
    /// Whether event `e` is in the causal past of event `of` (itself included).
    fn in_past(&self, layout: &Layout, e: usize, of: usize) -> bool {
        let (Some(event), Some(focus)) = (self.events.get(e), self.events.get(of)) else {
            return false;
        };
        let seen = focus.clock.get(event.lifeline).copied().unwrap_or(0);
        (layout.local[e] as u64) < seen
    }

    /// The latest event of each lifeline in the causal past of `of`.
    fn latest(&self, layout: &Layout, of: usize) -> Vec<usize> {
        let Some(focus) = self.events.get(of) else {
            return Vec::new();
        };
        layout
            .on
            .iter()
            .zip(&focus.clock)
            .filter_map(|(events, &count)| {
                let k = usize::try_from(count.checked_sub(1)?).ok()?;
                events.get(k).copied()
            })
            .collect()
    }

    /// What each chart explains: one per focus, or the run alone (`None`).
    fn charts(&self) -> Vec<Option<&Focus>> {
        if self.focus.is_empty() {
            return vec![None];
        }
        self.focus.iter().map(Some).collect()
    }

    /// Why the chart cannot be drawn: an index out of range (a lifeline, an
    /// event, a clock of the wrong length).
    fn invalid(&self) -> Option<String> {
        let (n, events) = (self.lifelines.len(), self.events.len());
        for (e, event) in self.events.iter().enumerate() {
            let bad = event.lifeline >= n
                || event.clock.len() != n
                || match event.kind {
                    EventKind::Send {
                        to, received_at, ..
                    } => to >= n || received_at.is_some_and(|r| r >= events),
                    EventKind::Recv { sent_at, .. } => sent_at >= events,
                    EventKind::Act | EventKind::Choice => false,
                };
            if bad {
                return Some(format!(
                    "event {e} refers to a lifeline or event the chart does not have"
                ));
            }
        }
        self.focus
            .iter()
            .find(|f| f.event >= events)
            .map(|f| format!("the chart has no event {}", f.event))
    }

    /// The chart as one SVG document: the run once per focus, stacked (the
    /// run alone when there is none); an error if an index is out of range.
    pub fn svg(&self) -> Result<String, String> {
        if let Some(why) = self.invalid() {
            return Err(why);
        }
        let layout = Layout::of(self);
        let width = self.width();
        let mut body = String::new();
        let mut top = 0.0;
        for f in self.charts() {
            let (chart, height) = self.one(&layout, f, top);
            body.push_str(&chart);
            top += height;
        }
        Ok(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"msc\" width=\"{width}\" height=\"{top}\" \
             viewBox=\"0 0 {width} {top}\" font-family=\"ui-sans-serif, system-ui, sans-serif\" font-size=\"{FONT}\">\n\
             <title>{}</title>\n{}<style>\n{CHART_STYLE}</style>\n{body}</svg>\n",
            escape(&self.title),
            DEFS,
        ))
    }

    fn width(&self) -> f64 {
        let panel = self
            .focus
            .iter()
            .flat_map(|f| &f.guards)
            .flat_map(|g| {
                g.parts
                    .iter()
                    .map(|(t, v)| text_width(&format!("{t} = {v}"), FONT) + 40.0)
            })
            .fold(0.0, f64::max);
        (MARGIN * 2.0 + COLUMN * self.lifelines.len() as f64).max(panel + MARGIN * 2.0)
    }

    /// One chart (for `focus`, if any) at vertical offset `top`; its height.
    fn one(&self, layout: &Layout, focus: Option<&Focus>, top: f64) -> (String, f64) {
        let mut out = String::new();
        let at = focus.map(|f| f.event);
        let _ = writeln!(
            out,
            "<g class=\"chart\"{} transform=\"translate(0,{top})\">",
            at.map_or(String::new(), |e| format!(" data-at=\"{e}\""))
        );
        // The causal past: per lifeline, a band down to its latest visible event.
        if let Some(of) = at {
            for (l, events) in layout.on.iter().enumerate() {
                let count = self.events[of].clock.get(l).copied().unwrap_or(0) as usize;
                let Some(&last) = count.checked_sub(1).and_then(|k| events.get(k)) else {
                    continue;
                };
                let y0 = HEAD - 8.0;
                let _ = writeln!(
                    out,
                    "<rect class=\"past\" data-lifeline=\"{}\" x=\"{}\" y=\"{y0}\" width=\"{}\" height=\"{}\" rx=\"6\"/>",
                    escape(&self.lifelines[l]),
                    layout.x(l) - COLUMN / 2.0 + 8.0,
                    COLUMN - 16.0,
                    layout.y(last) + ROW / 2.0 - 2.0 - y0
                );
            }
        }
        for (l, name) in self.lifelines.iter().enumerate() {
            let x = layout.x(l);
            let w = text_width(name, 12.0) + 20.0;
            let _ = writeln!(
                out,
                "<g class=\"lifeline\" data-lifeline=\"{n}\"><rect class=\"head\" x=\"{}\" y=\"12\" width=\"{w}\" height=\"24\" rx=\"4\"/>\
                 <text class=\"name\" x=\"{x}\" y=\"28\" text-anchor=\"middle\">{n}</text>\
                 <line class=\"life\" x1=\"{x}\" y1=\"36\" x2=\"{x}\" y2=\"{}\"/></g>",
                x - w / 2.0,
                layout.height(),
                n = escape(name),
            );
        }
        for (e, event) in self.events.iter().enumerate() {
            if let EventKind::Send {
                to,
                message,
                received_at,
            } = &event.kind
            {
                let (x1, y1) = (layout.x(event.lifeline), layout.y(e));
                let (x2, y2, class, marker) = match received_at {
                    Some(r) => (layout.x(*to), layout.y(*r), "message", "arrow"),
                    None => (
                        layout.x(*to),
                        layout.bottom(),
                        "message in-transit",
                        "arrow-open",
                    ),
                };
                // Stop short of the dot so the arrow head shows.
                let (dx, dy) = (x2 - x1, y2 - y1);
                let len = (dx * dx + dy * dy).sqrt().max(1.0);
                let (x2, y2) = (x2 - dx / len * 7.0, y2 - dy / len * 7.0);
                let _ = writeln!(
                    out,
                    "<line class=\"{class}\" data-send=\"{e}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" marker-end=\"url(#{marker})\"><title>{}</title></line>",
                    escape(&format!(
                        "{message}: {} to {}{}",
                        self.lifelines[event.lifeline],
                        self.lifelines.get(*to).map_or("?", String::as_str),
                        if received_at.is_none() { " (in transit)" } else { "" }
                    ))
                );
            }
        }
        let latest = at.map(|of| self.latest(layout, of)).unwrap_or_default();
        for (e, event) in self.events.iter().enumerate() {
            let (x, y) = (layout.x(event.lifeline), layout.y(e));
            let kind = match event.kind {
                EventKind::Act => "act",
                EventKind::Choice => "choice",
                EventKind::Send { .. } => "send",
                EventKind::Recv { .. } => "recv",
            };
            let mut class = format!("event {kind}");
            if let Some(of) = at {
                if self.in_past(layout, e, of) {
                    class.push_str(" in-past");
                }
                if latest.contains(&e) {
                    class.push_str(" latest");
                }
                if of == e {
                    class.push_str(" focus");
                }
            }
            let clock: Vec<String> = event.clock.iter().map(u64::to_string).collect();
            let label = self.label(e);
            let shape = match event.kind {
                EventKind::Choice => format!(
                    "<rect class=\"dot\" x=\"{}\" y=\"{}\" width=\"11\" height=\"11\" transform=\"rotate(45 {x} {y})\"/>",
                    x - 5.5,
                    y - 5.5
                ),
                _ => format!("<circle class=\"dot\" cx=\"{x}\" cy=\"{y}\" r=\"5\"/>"),
            };
            let _ = writeln!(
                out,
                "<g class=\"{class}\" data-event=\"{e}\" data-lifeline=\"{}\" data-local=\"{}\" data-clock=\"{}\" data-x=\"{x}\" data-y=\"{y}\">\
                 <title>{}</title>{shape}<text class=\"label\" x=\"{}\" y=\"{}\">{}</text></g>",
                event.lifeline,
                layout.local[e],
                clock.join(","),
                escape(&label),
                x + 9.0,
                y + 4.0,
                escape(&shorten(&label, 26)),
            );
        }
        let mut height = layout.height();
        if let Some(focus) = focus {
            height += self.panel(&mut out, focus, &latest, height);
        }
        out.push_str("</g>\n");
        (out, height + 8.0)
    }

    /// `#15 choice`, `#6 send m2`, `#11 status = failed`.
    fn label(&self, e: usize) -> String {
        let event = &self.events[e];
        let what = match &event.kind {
            EventKind::Act => String::new(),
            EventKind::Choice => "choice".into(),
            EventKind::Send { message, .. } => format!("send {message}"),
            EventKind::Recv { message, .. } => format!("recv {message}"),
        };
        let parts: Vec<&str> = [what.as_str(), event.text.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        format!("#{e} {}", parts.join(" "))
    }

    /// The guards' values at `focus` below the chart; the height used.
    fn panel(&self, out: &mut String, focus: &Focus, latest: &[usize], top: f64) -> f64 {
        let event = &self.events[focus.event];
        let lifeline = &self.lifelines[event.lifeline];
        let seen: Vec<String> = latest
            .iter()
            .filter(|&&e| self.events[e].lifeline != event.lifeline)
            .map(|&e| {
                format!(
                    "{} up to event {e}",
                    self.lifelines[self.events[e].lifeline]
                )
            })
            .collect();
        let mut y = top + LINE;
        let _ = writeln!(
            out,
            "<g class=\"panel\"><text class=\"heading\" x=\"{MARGIN}\" y=\"{y}\">{}</text>",
            escape(&format!(
                "{lifeline}'s choice at event {}: sees {}",
                focus.event,
                if seen.is_empty() {
                    "no other lifeline".into()
                } else {
                    seen.join(", ")
                }
            ))
        );
        for guard in &focus.guards {
            y += LINE * 1.25;
            let _ = writeln!(
                out,
                "<text class=\"guard {}\" data-guard=\"{}\" x=\"{MARGIN}\" y=\"{y}\" fill=\"{}\">{} = {}</text>",
                verdict_class(&guard.verdict),
                escape(&guard.name),
                verdict_colour(&guard.verdict),
                escape(&guard.name),
                escape(&guard.verdict),
            );
            for (text, value) in &guard.parts {
                y += LINE;
                let _ = writeln!(
                    out,
                    "<text class=\"part\" x=\"{}\" y=\"{y}\"><tspan>{}</tspan> = <tspan fill=\"{}\">{}</tspan></text>",
                    MARGIN + 16.0,
                    escape(text),
                    verdict_colour(value),
                    escape(value),
                );
            }
        }
        out.push_str("</g>\n");
        y - top + LINE / 2.0
    }

    /// The chart as an HTML page: a legend, one figure per focus, and a
    /// script that shades the causal past of any event clicked (the page
    /// reads the same without it); an error if an index is out of range.
    pub fn html(&self) -> Result<String, String> {
        if let Some(why) = self.invalid() {
            return Err(why);
        }
        let mut body = String::new();
        let _ = writeln!(body, "<h1>{}</h1>", escape(&self.title));
        body.push_str(
            "<p class=\"legend\"><span class=\"swatch past\"></span> causal past of the selected event \
             &nbsp; <span class=\"swatch latest\"></span> latest visible event of each lifeline \
             &nbsp; dashed open arrow: a message still in transit &nbsp; ◆ a choice</p>\n",
        );
        if self.focus.len() > 1 {
            body.push_str("<nav><ul>");
            for f in &self.focus {
                let _ = write!(
                    body,
                    "<li><a href=\"#at-{0}\">event {0} ({1})</a></li>",
                    f.event,
                    escape(&self.lifelines[self.events[f.event].lifeline])
                );
            }
            body.push_str("</ul></nav>\n");
        }
        let layout = Layout::of(self);
        let width = self.width();
        for f in self.charts() {
            let (chart, height) = self.one(&layout, f, 0.0);
            let id = f.map_or("run".to_string(), |f| format!("at-{}", f.event));
            let _ = writeln!(
                body,
                "<figure id=\"{id}\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"msc\" data-band=\"{},{},{}\" width=\"{width}\" height=\"{height}\" \
                 viewBox=\"0 0 {width} {height}\" font-size=\"{FONT}\">{DEFS}{chart}</svg>\
                 <figcaption>Click an event to shade its causal past.</figcaption></figure>",
                COLUMN / 2.0 - 8.0,
                HEAD - 8.0,
                ROW / 2.0 - 2.0,
            );
        }
        let style = format!("{PAGE_STYLE}{CHART_STYLE}.msc .event {{ cursor: pointer; }}\n");
        Ok(page(&self.title, &style, &body, Some(SCRIPT)))
    }
}

/// `text` cut to `max` characters with an ellipsis.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

const DEFS: &str = "<defs>\
<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#334155\"/></marker>\
<marker id=\"arrow-open\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10\" fill=\"none\" stroke=\"#334155\" stroke-width=\"1.5\"/></marker>\
</defs>\n";

/// How a chart looks, in the SVG document and in the page alike.
const CHART_STYLE: &str = ".msc .past { fill: #dbeafe; stroke: #93c5fd; }\n\
.msc .head { fill: #f8fafc; stroke: #334155; }\n\
.msc .name { font-weight: 600; font-size: 12px; }\n\
.msc .life { stroke: #94a3b8; stroke-width: 1.5; }\n\
.msc .message { stroke: #334155; stroke-width: 1.3; }\n\
.msc .message.in-transit { stroke-dasharray: 5 4; }\n\
.msc .event .dot { fill: #fff; stroke: #64748b; stroke-width: 1.5; }\n\
.msc .event.in-past .dot { fill: #1d4ed8; stroke: #1d4ed8; }\n\
.msc .event.latest .dot { stroke: #f59e0b; stroke-width: 3; }\n\
.msc .event.focus .dot { fill: #7c3aed; stroke: #7c3aed; }\n\
.msc .label { fill: #334155; }\n\
.msc .heading, .msc .guard { font-weight: 600; }\n";

/// The page around the charts.
const PAGE_STYLE: &str = "body { font: 14px ui-sans-serif, system-ui, sans-serif; margin: 1.5em; color: #0f172a; }\n\
h1 { font-size: 1.3em; }\n\
figure { margin: 1em 0; }\n\
figcaption { color: #475569; font-size: 0.9em; }\n\
.swatch { display: inline-block; width: 1em; height: 1em; vertical-align: middle; border-radius: 3px; }\n\
.swatch.past { background: #dbeafe; border: 1px solid #93c5fd; }\n\
.swatch.latest { border: 3px solid #f59e0b; border-radius: 50%; }\n";

/// Clicking an event shades its causal past in that figure: the bands end at
/// each lifeline's latest event with a local index below the clicked event's
/// clock entry.
const SCRIPT: &str = r#"document.querySelectorAll('svg.msc').forEach(function (svg) {
  var events = Array.prototype.slice.call(svg.querySelectorAll('g.event'));
  var band = svg.getAttribute('data-band').split(',').map(Number);
  var names = Array.prototype.slice.call(svg.querySelectorAll('g.lifeline')).map(function (g) {
    return g.getAttribute('data-lifeline');
  });
  function shade(target) {
    var clock = target.getAttribute('data-clock').split(',').map(Number);
    svg.querySelectorAll('rect.past').forEach(function (r) { r.remove(); });
    var chart = svg.querySelector('g.chart');
    var last = [];
    events.forEach(function (g) {
      var l = Number(g.getAttribute('data-lifeline'));
      var inPast = Number(g.getAttribute('data-local')) < clock[l];
      g.classList.toggle('in-past', inPast);
      g.classList.toggle('focus', g === target);
      g.classList.remove('latest');
      if (inPast) { last[l] = g; }
    });
    last.forEach(function (g, l) {
      if (!g) { return; }
      g.classList.add('latest');
      var x = Number(g.getAttribute('data-x')), y = Number(g.getAttribute('data-y'));
      var rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      rect.setAttribute('class', 'past');
      rect.setAttribute('data-lifeline', names[l]);
      rect.setAttribute('x', x - band[0]); rect.setAttribute('y', band[1]);
      rect.setAttribute('width', 2 * band[0]); rect.setAttribute('height', y + band[2] - band[1]);
      rect.setAttribute('rx', 6);
      chart.insertBefore(rect, chart.firstChild);
    });
  }
  events.forEach(function (g) { g.addEventListener('click', function () { shade(g); }); });
});
"#;
