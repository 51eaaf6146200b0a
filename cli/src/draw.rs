//! `hindsight draw`: a system trace as a message sequence chart (SVG or an
//! interactive HTML page), with the causal past of each guard evaluation
//! shaded and the guards' values explained ([`hindsight_draw::msc`]).
//!
//! The trace is read by the same reader as `hindsight check` (same errors at
//! the same lines) and replayed through the lifelines' interpreters, whose
//! vector clocks give each event's causal past.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use hindsight_compiler::interp::explain::parts_values;
use hindsight_compiler::interp::system::{EventKind as Replayed, Replay};
use hindsight_compiler::ir::SystemTables;
use hindsight_compiler::types::value_text;
use hindsight_draw::msc::{Chart, Event, EventKind, Focus, Guard};
use hindsight_trace::system::{
    message_error, EventKind as Read, InFlight, SystemEvent, SystemReader,
};
use hindsight_trace::EXIT_ERROR;

use crate::compile::compile_block;
use crate::report;
use crate::schema::system_schema;

/// The most events a chart draws: a picture of more is unreadable, and the
/// page would be megabytes.
pub const MAX_EVENTS: usize = 2000;

/// The most choices charted without `--at` (each is a copy of the run).
pub const MAX_CHARTS: usize = 50;

/// What `hindsight draw` was asked.
#[derive(Clone, Debug)]
pub struct DrawOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The system block (optional when the spec has one block).
    pub block: Option<String>,
    /// The system trace.
    pub trace: PathBuf,
    /// The choice event to explain (default: every choice).
    pub at: Option<usize>,
    /// Where to write: `.svg` or `.html`.
    pub output: PathBuf,
}

/// Runs `hindsight draw`; the exit status.
pub fn run(options: &DrawOptions) -> u8 {
    let format = match options.output.extension().and_then(|e| e.to_str()) {
        Some("svg") => Format::Svg,
        Some("html" | "htm") => Format::Html,
        _ => {
            report::error(format_args!(
                "-o {}: the picture's file name must end in .svg or .html",
                options.output.display()
            ));
            return EXIT_ERROR;
        }
    };
    let spec_name = options.spec.display().to_string();
    let Ok(selected) = compile_block(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let Some(system) = selected.system() else {
        report::error(format_args!(
            "{spec_name}: `hindsight draw` draws system traces, and this block is not a system"
        ));
        return EXIT_ERROR;
    };
    let chart = match chart(system, &selected.compiled.program.enums, options) {
        Ok(chart) => chart,
        Err(why) => {
            report::error(format_args!("{why}"));
            return EXIT_ERROR;
        }
    };
    let text = match format {
        Format::Svg => chart.svg(),
        Format::Html => chart.html(),
    };
    let text = match text {
        Ok(text) => text,
        Err(why) => {
            report::error(format_args!("internal error: {why}; please report this"));
            return EXIT_ERROR;
        }
    };
    if let Err(e) = std::fs::write(&options.output, text) {
        report::error(format_args!(
            "cannot write {}: {e}",
            options.output.display()
        ));
        return EXIT_ERROR;
    }
    0
}

enum Format {
    Svg,
    Html,
}

/// Reads the trace and replays it: every event with its clock, and the
/// guards at the chosen choices.
fn chart(
    system: &SystemTables,
    enums: &[hindsight_compiler::types::EnumDef],
    options: &DrawOptions,
) -> Result<Chart, String> {
    let trace_name = options.trace.display().to_string();
    let file = File::open(&options.trace).map_err(|e| format!("cannot read {trace_name}: {e}"))?;
    let mut reader = SystemReader::new(BufReader::new(file), system_schema(system, enums));
    let mut replay: Replay<'_, usize> = Replay::new(system);
    let mut chart = Chart {
        title: format!(
            "{} — system {} — {}",
            options.spec.display(),
            system.name,
            trace_name
        ),
        lifelines: system.lifelines.iter().map(|l| l.name.clone()).collect(),
        ..Chart::default()
    };
    // Each send is numbered by its event, so a message id reused once
    // received is a new message for the replay.
    let mut in_flight: InFlight<usize> = InFlight::new();
    let mut event = SystemEvent::default();
    while reader
        .read_next(&mut event)
        .map_err(|e| format!("{trace_name}:{e}"))?
    {
        let e = chart.events.len();
        if e == MAX_EVENTS {
            return Err(format!(
                "{trace_name}: more than {MAX_EVENTS} events; a chart of more is unreadable (draw a slice of the trace)"
            ));
        }
        let l = event.lifeline();
        let refused =
            |error, msg: &str| format!("{trace_name}:{}", message_error(&reader, error, msg, l));
        let message = |msg: &str| match event.label() {
            "" => msg.to_string(),
            label => format!("{msg} {label}"),
        };
        let (kind, replayed) = match event.kind() {
            Read::Send { to, msg } => {
                in_flight
                    .send(msg, to, e)
                    .map_err(|error| refused(error, msg))?;
                let kind = EventKind::Send {
                    to,
                    message: message(msg),
                    received_at: None,
                };
                (kind, Replayed::Send { to, msg: e })
            }
            Read::Recv { msg } => {
                let sent_at = in_flight
                    .recv(msg, l)
                    .map_err(|error| refused(error, msg))?;
                if let Some(Event {
                    kind: EventKind::Send { received_at, .. },
                    ..
                }) = chart.events.get_mut(sent_at)
                {
                    *received_at = Some(e);
                }
                let kind = EventKind::Recv {
                    sent_at,
                    message: message(msg),
                };
                (kind, Replayed::Recv { msg: sent_at })
            }
            Read::Act => (EventKind::Act, Replayed::Act),
            Read::Choice => (EventKind::Choice, Replayed::Choice),
        };
        let choice = matches!(kind, EventKind::Choice);
        let verdicts = replay
            .event(l, replayed, event.changes())
            .map_err(|why| format!("{trace_name}:{}: {why}", reader.line()))?;
        // The guards' verdicts matter at the choices charted only.
        let focused = choice && options.at.is_none_or(|at| at == e);
        let verdicts = if focused {
            verdicts.to_vec()
        } else {
            Vec::new()
        };
        let lifeline = &system.lifelines[l];
        let text: Vec<String> = event
            .changes()
            .iter()
            .filter_map(|&(var, value)| {
                let decl = lifeline.vars.get(var)?;
                Some(format!(
                    "{} = {}",
                    decl.name,
                    value_text(enums, value, decl.ty)
                ))
            })
            .collect();
        let monitor = replay.lifeline(l).ok_or("a lifeline without a monitor")?;
        chart.events.push(Event {
            lifeline: l,
            kind,
            text: text.join(", "),
            clock: monitor.clock().to_vec(),
        });
        if focused {
            let guards = lifeline
                .guards
                .iter()
                .zip(&verdicts)
                .enumerate()
                .filter_map(|(k, (&g, verdict))| {
                    Some(Guard {
                        name: g.get(&system.guards)?.name.clone(),
                        verdict: verdict.as_str().to_string(),
                        parts: parts_values(monitor.table(), monitor.interpreter(), k),
                    })
                })
                .collect();
            chart.focus.push(Focus { event: e, guards });
        }
    }
    if options.at.is_none() && chart.focus.len() > MAX_CHARTS {
        return Err(format!(
            "{trace_name}: {} choices; a chart each is more than {MAX_CHARTS} copies of the run: pick one with --at (the .html page shades any event's past on a click)",
            chart.focus.len()
        ));
    }
    if let Some(at) = options.at {
        if !chart.focus.iter().any(|f| f.event == at) {
            return Err(format!(
                "--at {at}: event {at} of {trace_name} is not a choice (choices are where guards are evaluated)"
            ));
        }
    }
    Ok(chart)
}
