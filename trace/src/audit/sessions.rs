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
//! how many are live. A bad line ends only its own session (or, without a
//! session key, is its own error); the rest of the log is checked.

use super::Tally;
use crate::output::{Audit, VerdictWriter};
use crate::read::{KeyFound, ReadState, SessionPointer, TraceError, TraceErrorKind, TraceReader};
use crate::run::{end_monitor, step_monitor, worse_status, Observer, RunError, EXIT_ERROR};
use hindsight_runtime::{StepMonitor, Value, Verdict};
use std::collections::{HashMap, HashSet};
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
    /// Whether an error ended it: its later lines are skipped, and it has
    /// no end line.
    failed: bool,
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

/// How a keyed log is split into sessions, and where the errors of single
/// sessions and records go while the others are checked.
pub(crate) struct Keying<'a> {
    /// The session key's pointer, as written.
    pub pointer: &'a str,
    /// The most sessions live at once; one more stops the log.
    pub max_sessions: usize,
    /// Where an error lies, as messages say it: `LINE:COL: message`, or
    /// an export's span.
    pub describe: &'a dyn Fn(&TraceError) -> String,
    /// Each error that ended one session (its key) or stopped one record
    /// (no key), in the order met.
    pub failures: Vec<(Option<String>, TraceError)>,
    /// The keys of the sessions that started, when kept (an export's
    /// traces, to tell which gave no step).
    pub started: Option<HashSet<Box<str>>>,
}

impl Keying<'_> {
    /// Notes `error`, which ended session `key` (or, without one, stopped
    /// its record alone), writing the session's summary line when the
    /// writer writes summaries.
    fn fail<W: Write>(
        &mut self,
        error: TraceError,
        key: Option<&str>,
        writer: &mut VerdictWriter<W>,
        tally: &mut Tally,
    ) -> std::io::Result<()> {
        tally.errors += 1;
        tally.status = worse_status(tally.status, EXIT_ERROR);
        writer.write_failure(key, &(self.describe)(&error))?;
        self.failures.push((key.map(str::to_string), error));
        Ok(())
    }
}

/// Checks the sessions of the keyed log `reader` holds, each with copies of
/// `template` and `observer` (at most `keying.max_sessions` live at once),
/// writing their lines through `writer` and counting them into `tally`.
///
/// A bad line ends only its own session (the session its key names, whose
/// later lines are then skipped until `sessions end where` frees the key),
/// or, without a key, is that line's error alone: each is described into
/// `keying.failures` and counted, and the rest of the log is checked. Only
/// what stops the log itself is returned as an error: a write that failed,
/// a line over the length limit is not (it is skipped), but one session
/// more than `max_sessions` is.
pub(crate) fn run_sessions<R, W, M, O>(
    reader: &mut TraceReader<R>,
    template: &M,
    observer: &O,
    writer: &mut VerdictWriter<W>,
    keying: &mut Keying<'_>,
    tally: &mut Tally,
) -> Result<(), RunError>
where
    R: BufRead,
    W: Write,
    M: StepMonitor + Clone,
    O: Observer<M> + Clone,
{
    let Ok(pointer) = SessionPointer::parse(keying.pointer) else {
        // Checked when the command line was parsed.
        return Ok(());
    };
    let properties = reader.schema().properties().len();
    let mut inputs: Vec<Value> = Vec::with_capacity(reader.schema().inputs().len());
    let mut verdicts = vec![Verdict::Unknown; properties];
    let mut live: Live<M, O> = Live::new();
    let mut scratch = reader.decoder().fresh_state();
    let mut loaded = Loaded::Nobody;
    let mut key = String::new();
    let mut found = KeyFound::Absent;
    loop {
        // Whether the line got as far as its key (a line too long or not
        // UTF-8 does not).
        let mut keyed_line = false;
        let read = reader.read_line_with(&mut inputs, |line, decoder| {
            keyed_line = true;
            // Put back the state of the line before, then load this one's.
            match loaded {
                Loaded::Session(slot) => {
                    if let Some(Some(s)) = live.slots.get_mut(slot) {
                        decoder.swap_state(&mut s.read);
                    }
                }
                Loaded::Scratch => decoder.swap_state(&mut scratch),
                Loaded::Nobody => {}
            }
            found = pointer.find(line, &mut key);
            let slot = (found == KeyFound::Key)
                .then(|| live.by_key.get(key.as_str()).copied())
                .flatten();
            let session = slot.and_then(|k| live.slots.get_mut(k)?.as_mut().map(|s| (k, s)));
            loaded = match session {
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
        });
        let step = match read {
            Ok(None) => break,
            Ok(Some(step)) => step,
            Err(error) => {
                let session = (keyed_line && found == KeyFound::Key).then_some(key.as_str());
                match (loaded, session) {
                    // A live session's line: it ends that session.
                    (Loaded::Session(slot), Some(_)) => {
                        if let Some(Some(s)) = live.slots.get_mut(slot) {
                            if !s.failed {
                                s.failed = true;
                                writer.set_session(Some(&s.key));
                                keying.fail(error, Some(&s.key), writer, tally)?;
                            }
                        }
                    }
                    // The first line of a session: the session is born
                    // failed, so that its later lines are skipped.
                    (_, Some(new)) => {
                        let new = new.to_string();
                        let monitors = (template, observer);
                        let slot =
                            live.open(&new, reader, monitors, keying.max_sessions, &mut scratch)?;
                        loaded = Loaded::Session(slot);
                        if let Some(Some(s)) = live.slots.get_mut(slot) {
                            s.failed = true;
                        }
                        writer.set_session(Some(&new));
                        keying.fail(error, Some(&new), writer, tally)?;
                    }
                    (_, None) => {
                        writer.set_session(None);
                        keying.fail(error, None, writer, tally)?;
                    }
                }
                continue;
            }
        };
        let ends = reader.decoder().ends_session();
        'step: {
            if !step {
                break 'step;
            }
            let problem = match &found {
                KeyFound::Absent => Some(TraceErrorKind::NoSessionKey {
                    pointer: pointer.as_str().to_string(),
                }),
                KeyFound::Bad(what) => Some(TraceErrorKind::BadSessionKey {
                    pointer: pointer.as_str().to_string(),
                    found: what.clone(),
                }),
                KeyFound::Repeated => Some(TraceErrorKind::DuplicateAt {
                    pointer: pointer.as_str().to_string(),
                }),
                KeyFound::Key => None,
            };
            if let Some(problem) = problem {
                // A step of no session: that record's error alone.
                writer.set_session(None);
                keying.fail(reader.error_here(problem), None, writer, tally)?;
                break 'step;
            }
            let slot = match loaded {
                Loaded::Session(slot) => slot,
                _ => {
                    let monitors = (template, observer);
                    let slot =
                        live.open(&key, reader, monitors, keying.max_sessions, &mut scratch)?;
                    if let Some(keys) = &mut keying.started {
                        keys.insert(key.clone().into_boxed_str());
                    }
                    loaded = Loaded::Session(slot);
                    slot
                }
            };
            let Some(Some(s)) = live.slots.get_mut(slot) else {
                break 'step;
            };
            if s.failed {
                break 'step;
            }
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
            close(slot, &mut live, writer, reader, tally)?;
        }
    }
    let mut open: Vec<Session<M, O>> = live.slots.into_iter().flatten().collect();
    open.sort_by_key(|s| s.order);
    for mut s in open {
        end_session(&mut s, writer, reader, tally)?;
    }
    writer.set_session(None);
    writer.flush()?;
    Ok(())
}

/// The live sessions of a log: their slots (freed ones reused), the free
/// slots, and each live key's slot.
struct Live<M, O> {
    slots: Vec<Option<Session<M, O>>>,
    free: Vec<usize>,
    by_key: HashMap<Box<str>, usize>,
    /// Sessions started so far.
    started: u64,
}

impl<M: StepMonitor + Clone, O: Clone> Live<M, O> {
    /// No session yet.
    fn new() -> Self {
        Live {
            slots: Vec::new(),
            free: Vec::new(),
            by_key: HashMap::new(),
            started: 0,
        }
    }

    /// Opens a session for `key`, whose line's state the decoder holds
    /// (the scratch's): a fresh monitor in a free slot; an error when
    /// `max_sessions` are live already.
    fn open<R: BufRead>(
        &mut self,
        key: &str,
        reader: &TraceReader<R>,
        (template, observer): (&M, &O),
        max_sessions: usize,
        scratch: &mut ReadState,
    ) -> Result<usize, RunError> {
        if self.by_key.len() >= max_sessions {
            return Err(RunError::Trace(reader.error_here(
                TraceErrorKind::TooManySessions {
                    key: key.to_string(),
                    limit: max_sessions,
                },
            )));
        }
        // The decoder holds the new session's state; the scratch's spare
        // becomes the session's, and the scratch gets a new one.
        let mut monitor = template.clone();
        monitor.reset();
        let session = Session {
            key: key.into(),
            monitor,
            observer: observer.clone(),
            read: std::mem::replace(scratch, reader.decoder().fresh_state()),
            audit: Audit::new(reader.schema().properties().len()),
            step: 0,
            order: self.started,
            failed: false,
        };
        self.started += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                if let Some(place) = self.slots.get_mut(slot) {
                    *place = Some(session);
                }
                slot
            }
            None => {
                self.slots.push(Some(session));
                self.slots.len() - 1
            }
        };
        self.by_key.insert(key.into(), slot);
        Ok(slot)
    }
}

/// Ends the live session in `slot`, whose state the decoder holds: writes
/// its end line and frees it (its key may start a new session later).
fn close<R: BufRead, W: Write, M: StepMonitor, O: Observer<M>>(
    slot: usize,
    live: &mut Live<M, O>,
    writer: &mut VerdictWriter<W>,
    reader: &mut TraceReader<R>,
    tally: &mut Tally,
) -> Result<(), RunError> {
    let Some(mut s) = live.slots.get_mut(slot).and_then(Option::take) else {
        return Ok(());
    };
    // The decoder keeps a spare state, as after any session's line.
    reader.decoder_mut().swap_state(&mut s.read);
    live.by_key.remove(&s.key);
    live.free.push(slot);
    end_session(&mut s, writer, reader, tally)
}

/// Writes the end (or summary) line of session `s` and counts it (a
/// session an error ended has none: its error was reported instead).
fn end_session<R: BufRead, W: Write, M: StepMonitor, O: Observer<M>>(
    s: &mut Session<M, O>,
    writer: &mut VerdictWriter<W>,
    reader: &TraceReader<R>,
    tally: &mut Tally,
) -> Result<(), RunError> {
    if s.failed {
        return Ok(());
    }
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
