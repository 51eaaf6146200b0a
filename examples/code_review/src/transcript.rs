//! Readable transcripts of a recorded run: the steps of each round, the
//! events they caused, and for every Committer choice the guards, the
//! decision, and which reports the Committer had received and which were
//! still in transit to it.

use crate::actors::OrchestratorTask;
use crate::event::{Changes, Event, EventKind, MsgId, Note, Refusal};
use crate::lifeline::Lifeline;
use crate::message::Payload;
use crate::network::{Log, Step};
use std::fmt::Write;

/// The whole transcript of `log`.
pub fn render(log: &Log) -> String {
    let mut out = String::new();
    for (k, round) in log.rounds.iter().enumerate() {
        let steps: Vec<String> = round.steps.iter().map(step_text).collect();
        let _ = writeln!(out, "  [{k}] {}", steps.join("; "));
        let end = log
            .rounds
            .get(k + 1)
            .map_or(log.events.len(), |r| r.first_event);
        for e in round.first_event..=end {
            notes_before(&mut out, log, k, e);
            if let Some(event) = log.events.get(e).filter(|_| e < end) {
                event_lines(&mut out, log, e, event);
            }
        }
    }
    let transit: Vec<String> = log
        .in_transit_after(log.events.len())
        .into_iter()
        .map(|m| message_text(log, m))
        .collect();
    let _ = writeln!(out, "  still in transit: {}", list(&transit));
    let sizes = log.messages.iter().map(|m| m.stamp.as_bytes().len());
    if let (Some(min), Some(max)) = (sizes.clone().min(), sizes.max()) {
        let n = log.messages.len();
        let _ = writeln!(
            out,
            "  stamps on the wire: {n} messages, {min} to {max} bytes each"
        );
    }
    out
}

/// The Committer's decisions in `log`, in order, as `MERGE 7`.
pub fn decisions(log: &Log) -> Vec<String> {
    log.events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Choice { decision, .. } => Some(decision.name().to_string()),
            _ => None,
        })
        .collect()
}

fn step_text(step: &Step) -> String {
    match step {
        Step::Orchestrate(OrchestratorTask::Assign(cand)) => format!("Orchestrator assigns {cand}"),
        Step::Orchestrate(OrchestratorTask::Propose) => "Orchestrator proposes".into(),
        Step::Check(reviewer, outcome) => format!("{} checks: {outcome:?}", reviewer.lifeline()),
        Step::Deliver(msg) => format!("release m{msg}"),
        Step::Damage(msg) => format!("damage m{msg}'s stamp"),
    }
}

/// The notes of round `round` recorded just before event `e`.
fn notes_before(out: &mut String, log: &Log, round: usize, e: usize) {
    for note in log
        .notes
        .iter()
        .filter(|n| n.round == round && n.after == e)
    {
        let _ = writeln!(out, "{:>8}  {}", "", note_text(note));
    }
}

fn note_text(note: &Note) -> String {
    match note.refusal {
        Refusal::Rejected { msg, error } => format!("{} REJECTS m{msg}: {error}", note.lifeline),
        Refusal::Skipped(why) => format!("{} skips the task: {why}", note.lifeline),
        Refusal::SendFailed(error) => format!("{} cannot send: {error}", note.lifeline),
    }
}

fn event_lines(out: &mut String, log: &Log, e: usize, event: &Event) {
    let (word, detail) = match event.kind {
        EventKind::Send { to, msg } => {
            let payload = log
                .message(msg)
                .map(|m| m.payload.to_string())
                .unwrap_or_default();
            ("send", format!("m{msg} → {to}: {payload}"))
        }
        EventKind::Recv { msg } => {
            let from = log.message(msg).map(|m| m.from.name()).unwrap_or("?");
            ("recv", format!("m{msg} from {from}"))
        }
        EventKind::Act => ("act", String::new()),
        EventKind::Choice { guards, decision } => (
            "choice",
            format!(
                "may_merge = {}, failure_seen = {}  ⇒  {decision}",
                guards.may_merge, guards.failure_seen
            ),
        ),
    };
    let changes = changes_text(event.changes);
    let what = [detail, changes]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>();
    let name = event.lifeline.name();
    let _ = writeln!(
        out,
        "{:>8}  {name:<12} {word:<7} {}",
        format!("e{e}"),
        what.join("   ")
    );
    if matches!(event.kind, EventKind::Choice { .. }) {
        let (seen, transit) = committer_reports(log, e);
        let indent = " ".repeat(31);
        let _ = writeln!(out, "{indent}reports received: {}", list(&seen));
        let _ = writeln!(out, "{indent}reports in transit: {}", list(&transit));
    }
}

/// `[cand := 7, status := passed]`, or nothing when no variable changes.
fn changes_text(changes: Changes) -> String {
    let mut parts = Vec::new();
    if let Some(cand) = changes.cand {
        parts.push(format!("cand := {cand}"));
    }
    if let Some(status) = changes.status {
        parts.push(format!("status := {status:?}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("[{}]", parts.join(", "))
    }
}

/// The reports the Committer received before event `e`, and those sent to
/// it before `e` and not received.
fn committer_reports(log: &Log, e: usize) -> (Vec<String>, Vec<String>) {
    let is_report = |m: MsgId| {
        matches!(
            log.message(m).map(|m| m.payload),
            Some(Payload::Report { .. })
        )
    };
    let seen = log.events[..e]
        .iter()
        .filter_map(|ev| match ev.kind {
            EventKind::Recv { msg } if ev.lifeline == Lifeline::Committer && is_report(msg) => {
                Some(msg)
            }
            _ => None,
        })
        .map(|m| message_text(log, m))
        .collect();
    let transit = log
        .in_transit_after(e)
        .into_iter()
        .filter(|&m| is_report(m) && log.message(m).is_some_and(|m| m.to == Lifeline::Committer))
        .map(|m| message_text(log, m))
        .collect();
    (seen, transit)
}

fn message_text(log: &Log, msg: MsgId) -> String {
    match log.message(msg) {
        Some(m) => format!("m{msg} ({} → {}: {})", m.from, m.to, m.payload),
        None => format!("m{msg}"),
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}
