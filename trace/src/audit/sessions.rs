//! Sessions of a keyed log (`--key POINTER`): each line names its session
//! at the pointer, and each session is checked by its own copy of the
//! monitor, as if its lines were a trace of their own.
//!
//! One decoder reads every line; before a line is decoded, the state its
//! session carries from step to step (the values `hold` keeps, the last
//! time) is swapped into the decoder, so sparse fields and time order are
//! per session. Step lines come in input order, each carrying
//! `"session": KEY`; a session's end (or summary) line comes right after a
//! line of it that `sessions end where` holds on (its state is freed then,
//! and its key may start a new session), else when the log ends, in order
//! of the sessions' first steps. A session costs its
//! monitor's state, its audit and a few buffers; `--max-sessions` bounds
//! how many are live.

use super::Tally;
use crate::output::{Audit, VerdictWriter};
use crate::read::{KeyFound, ReadState, SessionPointer, TraceErrorKind, TraceReader};
use crate::run::{end_monitor, step_monitor, Observer, RunError};
use hindsight_runtime::{StepMonitor, Value, Verdict};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// One live session.
struct Session<M, O> {
    /// Its key, as JSON.
    key: Box<str>,
    monitor: M,
    observer: O,
    /// What its steps carry, while another session's is in the decoder.
    read: ReadState,
    /// Its audit, while another session's is in the writer.
    audit: Audit,
    /// Its next step's index.
    step: u64,
    /// When it started, among the log's sessions.
    order: u64,
}

/// Whose read state the decoder holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Loaded {
    /// Nobody's (a spare).
    Nobody,
    /// A line of no live session's.
    Scratch,
    /// This live session's.
    Session(usize),
}

/// Checks the sessions of the keyed log `reader` holds, each with copies of
/// `template` and `observer` (at most `max_sessions` live at once), writing
/// their lines through `writer` and counting them into `tally`.
pub(crate) fn run_sessions<R, W, M, O>(
    reader: &mut TraceReader<R>,
    template: &M,
    observer: &O,
    writer: &mut VerdictWriter<W>,
    pointer: &str,
    max_sessions: usize,
    tally: &mut Tally,
) -> Result<(), RunError>
where
    R: BufRead,
    W: Write,
    M: StepMonitor + Clone,
    O: Observer<M> + Clone,
{
    let Ok(pointer) = SessionPointer::parse(pointer) else {
        // Checked when the command line was parsed.
        return Ok(());
    };
    let properties = reader.schema().properties().len();
    let mut inputs: Vec<Value> = Vec::with_capacity(reader.schema().inputs().len());
    let mut verdicts = vec![Verdict::Unknown; properties];
    let mut sessions: Vec<Option<Session<M, O>>> = Vec::new();
    let mut free: Vec<usize> = Vec::new();
    let mut by_key: HashMap<Box<str>, usize> = HashMap::new();
    let mut scratch = reader.decoder().fresh_state();
    let mut loaded = Loaded::Nobody;
    let mut key = String::new();
    let mut found = KeyFound::Absent;
    let mut started: u64 = 0;
    loop {
        let read = reader
            .read_line_with(&mut inputs, |line, decoder| {
                // Put back the state of the line before, then load this one's.
                match loaded {
                    Loaded::Session(slot) => {
                        if let Some(Some(s)) = sessions.get_mut(slot) {
                            decoder.swap_state(&mut s.read);
                        }
                    }
                    Loaded::Scratch => decoder.swap_state(&mut scratch),
                    Loaded::Nobody => {}
                }
                found = pointer.find(line, &mut key);
                let live = (found == KeyFound::Key)
                    .then(|| by_key.get(key.as_str()).copied())
                    .flatten();
                loaded = match live
                    .and_then(|slot| sessions.get_mut(slot)?.as_mut().map(|s| (slot, s)))
                {
                    Some((slot, s)) => {
                        decoder.swap_state(&mut s.read);
                        Loaded::Session(slot)
                    }
                    None => {
                        scratch.clear();
                        decoder.swap_state(&mut scratch);
                        Loaded::Scratch
                    }
                };
            })
            .map_err(RunError::Trace)?;
        let Some(step) = read else {
            break;
        };
        let ends = reader.decoder().ends_session();
        'step: {
            if !step {
                break 'step;
            }
            let slot = match (loaded, &found) {
                (_, KeyFound::Absent) => {
                    return Err(RunError::Trace(reader.error_here(
                        TraceErrorKind::NoSessionKey {
                            pointer: pointer.as_str().to_string(),
                        },
                    )))
                }
                (_, KeyFound::Bad(what)) => {
                    return Err(RunError::Trace(reader.error_here(
                        TraceErrorKind::BadSessionKey {
                            pointer: pointer.as_str().to_string(),
                            found: what.clone(),
                        },
                    )))
                }
                (_, KeyFound::Repeated) => {
                    return Err(RunError::Trace(reader.error_here(
                        TraceErrorKind::DuplicateAt {
                            pointer: pointer.as_str().to_string(),
                        },
                    )))
                }
                (Loaded::Session(slot), KeyFound::Key) => slot,
                (_, KeyFound::Key) => {
                    if by_key.len() >= max_sessions {
                        return Err(RunError::Trace(reader.error_here(
                            TraceErrorKind::TooManySessions {
                                key: key.clone(),
                                limit: max_sessions,
                            },
                        )));
                    }
                    // The decoder holds the new session's state; the scratch's
                    // spare becomes the session's, and the scratch gets a new one.
                    let mut monitor = template.clone();
                    monitor.reset();
                    let session = Session {
                        key: key.clone().into_boxed_str(),
                        monitor,
                        observer: observer.clone(),
                        read: std::mem::replace(&mut scratch, reader.decoder().fresh_state()),
                        audit: Audit::new(properties),
                        step: 0,
                        order: started,
                    };
                    started += 1;
                    let slot = match free.pop() {
                        Some(slot) => {
                            if let Some(place) = sessions.get_mut(slot) {
                                *place = Some(session);
                            }
                            slot
                        }
                        None => {
                            sessions.push(Some(session));
                            sessions.len() - 1
                        }
                    };
                    by_key.insert(key.clone().into_boxed_str(), slot);
                    loaded = Loaded::Session(slot);
                    slot
                }
            };
            let Some(Some(s)) = sessions.get_mut(slot) else {
                break 'step;
            };
            writer.set_session(Some(&s.key));
            writer.set_place(reader.line(), reader.decoder().last_time());
            std::mem::swap(writer.audit_mut(), &mut s.audit);
            let stepped = step_monitor(
                &mut s.monitor,
                &mut s.observer,
                writer,
                s.step,
                &inputs,
                &mut verdicts,
            );
            std::mem::swap(writer.audit_mut(), &mut s.audit);
            stepped?;
            s.step = s.step.saturating_add(1);
        }
        // A line of a live session (a step or not) may end it.
        if let (true, Loaded::Session(slot)) = (ends, loaded) {
            loaded = Loaded::Nobody;
            close(
                slot,
                &mut sessions,
                &mut by_key,
                &mut free,
                writer,
                reader,
                tally,
            )?;
        }
    }
    let mut live: Vec<Session<M, O>> = sessions.into_iter().flatten().collect();
    live.sort_by_key(|s| s.order);
    for mut s in live {
        end_session(&mut s, writer, reader, tally)?;
    }
    writer.set_session(None);
    writer.flush()?;
    Ok(())
}

/// Ends the live session in `slot`, whose state the decoder holds: writes
/// its end line and frees it (its key may start a new session later).
fn close<R: BufRead, W: Write, M: StepMonitor, O: Observer<M>>(
    slot: usize,
    sessions: &mut [Option<Session<M, O>>],
    by_key: &mut HashMap<Box<str>, usize>,
    free: &mut Vec<usize>,
    writer: &mut VerdictWriter<W>,
    reader: &mut TraceReader<R>,
    tally: &mut Tally,
) -> Result<(), RunError> {
    let Some(mut s) = sessions.get_mut(slot).and_then(Option::take) else {
        return Ok(());
    };
    // The decoder keeps a spare state, as after any session's line.
    reader.decoder_mut().swap_state(&mut s.read);
    by_key.remove(&s.key);
    free.push(slot);
    end_session(&mut s, writer, reader, tally)
}

/// Writes the end (or summary) line of session `s` and counts it.
fn end_session<R: BufRead, W: Write, M: StepMonitor, O: Observer<M>>(
    s: &mut Session<M, O>,
    writer: &mut VerdictWriter<W>,
    reader: &TraceReader<R>,
    tally: &mut Tally,
) -> Result<(), RunError> {
    writer.set_session(Some(&s.key));
    std::mem::swap(writer.audit_mut(), &mut s.audit);
    let ended = end_monitor(
        &mut s.monitor,
        &mut s.observer,
        writer,
        reader.schema(),
        tally,
    );
    std::mem::swap(writer.audit_mut(), &mut s.audit);
    ended.map_err(RunError::Write)
}

#[cfg(test)]
mod tests {
    use crate::read::{InputSchema, InputType, TraceReader, TraceSchema};
    use hindsight_runtime::record::{FilterOp, Literal};
    use hindsight_runtime::{ResetCounts, StepMonitor, Value, Verdict};

    /// The monitor of `property seen = O p;` with `input p: bool;`: whether
    /// some step so far had `p`.
    #[derive(Clone, Default)]
    struct Seen {
        seen: bool,
    }

    impl StepMonitor for Seen {
        fn step_values(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) {
            self.seen |= inputs.first() == Some(&Value::Bool(true));
            self.finish_values(verdicts);
        }

        fn finish_values(&self, verdicts: &mut [Verdict]) {
            if let Some(v) = verdicts.first_mut() {
                *v = self.seen.into();
            }
        }

        fn finish_counts(&self, _: &mut [ResetCounts]) {}

        fn reset(&mut self) {
            self.seen = false;
        }
    }

    /// `log` checked by session (`--key /s`), sessions ending at a line
    /// with `"end": true`: the lines written.
    fn sessions(log: &str) -> String {
        let end = vec![FilterOp::Equals("/end".to_string(), Literal::Bool(true))];
        let schema = TraceSchema::new(
            vec![InputSchema::new("p", InputType::Bool)],
            vec!["seen".to_string()],
        )
        .with_session_end(end)
        .as_records();
        let mut reader = TraceReader::new(log.as_bytes(), schema);
        let mut out = Vec::new();
        let checked = crate::check_keyed_trace(&mut reader, &Seen::default(), &mut out, "/s", 10);
        assert!(checked.is_ok(), "{checked:?}");
        String::from_utf8(out).unwrap_or_default()
    }

    /// docs/language.md section 5b: step lines in the log's order; a
    /// session's end line right after the line that ends it (its key may
    /// then start a new session), else when the log ends, in the order the
    /// sessions started. Here A ends early and C and the second A start
    /// after it, so the ends at the log's end are B, C, A, whatever places
    /// their states were kept in. Each end line counts its session's
    /// `"false"` steps (section 5): B two, the second A one.
    #[test]
    fn sessions_open_at_the_end_end_in_the_order_they_started() {
        let log = r#"{"s": "A", "p": true}
{"s": "B", "p": false}
{"s": "A", "p": false, "end": true}
{"s": "C", "p": true}
{"s": "A", "p": false}
{"s": "B", "p": false}
"#;
        assert_eq!(
            sessions(log),
            r#"{"session": "A", "step": 0, "seen": "true"}
{"session": "B", "step": 0, "seen": "false"}
{"session": "A", "step": 1, "seen": "true"}
{"session": "A", "end": true, "seen": "true", "seen.false_steps": 0, "seen.first_false": null}
{"session": "C", "step": 0, "seen": "true"}
{"session": "A", "step": 0, "seen": "false"}
{"session": "B", "step": 1, "seen": "false"}
{"session": "B", "end": true, "seen": "false", "seen.false_steps": 2, "seen.first_false": 0}
{"session": "C", "end": true, "seen": "true", "seen.false_steps": 0, "seen.first_false": null}
{"session": "A", "end": true, "seen": "false", "seen.false_steps": 1, "seen.first_false": 0}
"#
        );
    }
}
