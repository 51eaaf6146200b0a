//! The steps of a monitor trace, read and decoded on a thread of their own
//! while this thread steps the monitor and writes the verdict lines: the two
//! halves of a check overlap on two cores. Used when a core is free (one
//! regular file, several cores: not a pipe, whose slow lines a batch would
//! hold back). The steps, their places and the error that ends them are
//! exactly those of reading on one thread ([`Here`]), and so is the
//! decoder's state after the last line; when stepping fails, the reader
//! may have read up to a few batches further.

use crate::read::{TraceError, TraceReader};
use crate::run::RunError;
use hindsight_runtime::Value;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;

/// Where a step lies: its line and time, as the verdict writer places it.
pub(crate) type Place = (usize, Option<(i64, bool)>);

/// At most this many values per batch (16 bytes each), so that a batch
/// stays in the cache between the two threads.
const BATCH_VALUES: usize = 1 << 16;

/// At most this many steps per batch.
const BATCH_STEPS: usize = 8192;

/// Full batches waiting for the monitor's thread, at most.
const QUEUED_BATCHES: usize = 2;

/// Decoded steps handed from the reading thread to the monitor's.
struct Batch {
    /// The steps' inputs, `width` values per step.
    values: Vec<Value>,
    /// Each step's place.
    places: Vec<Place>,
    /// What ended the reading after these steps (`None`: more to come).
    end: Option<Result<(), TraceError>>,
}

/// How a check reads a trace's steps: [`Here`] or [`Ahead`].
pub(crate) trait Reading<R> {
    /// Calls `steps` with every step of `reader` in order, some steps at a
    /// time: their inputs (one row of values per step, one after the
    /// other) and their places, on this thread; stops at the first bad line
    /// or failed `steps`.
    fn each_steps<F>(self, reader: &mut TraceReader<R>, steps: F) -> Result<(), RunError>
    where
        F: FnMut(&[Value], &[Place]) -> io::Result<()>;
}

/// Reading and decoding on this thread, between the steps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Here;

/// Reading and decoding on a second thread, ahead of the steps; if no
/// thread can be started, [`Here`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ahead;

impl<R: BufRead> Reading<R> for Here {
    /// One step at a time.
    fn each_steps<F>(self, reader: &mut TraceReader<R>, mut steps: F) -> Result<(), RunError>
    where
        F: FnMut(&[Value], &[Place]) -> io::Result<()>,
    {
        let mut inputs = Vec::with_capacity(reader.schema().inputs().len());
        while reader.read_next(&mut inputs).map_err(RunError::Trace)? {
            steps(&inputs, &[(reader.line(), reader.decoder().last_time())])?;
        }
        Ok(())
    }
}

impl<R: BufRead + Send> Reading<R> for Ahead {
    /// A batch at a time.
    fn each_steps<F>(self, reader: &mut TraceReader<R>, mut steps: F) -> Result<(), RunError>
    where
        F: FnMut(&[Value], &[Place]) -> io::Result<()>,
    {
        let width = reader.schema().inputs().len();
        let batch = (BATCH_VALUES / width.max(1)).clamp(1, BATCH_STEPS);
        let (full_tx, full_rx) = mpsc::sync_channel::<Batch>(QUEUED_BATCHES);
        let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
        let stepped = thread::scope(|scope| {
            let ahead = &mut *reader;
            let reading = thread::Builder::new()
                .name("trace reader".into())
                .spawn_scoped(scope, move || {
                    read_batches(ahead, batch, &full_tx, &empty_rx)
                });
            // The receiver goes when the steps stop, before the scope joins
            // the reading thread: if `steps` failed, its next send fails
            // and it stops.
            reading
                .ok()
                .map(|_| step_batches(full_rx, &empty_tx, &mut steps))
        });
        match stepped {
            Some(stepped) => stepped,
            None => Here.each_steps(reader, steps),
        }
    }
}

/// The reading thread: fills batches of `steps` steps (reusing those
/// `empty` returns) and sends them on `full` until the trace ends, a line
/// is bad, or the monitor's thread has gone.
fn read_batches<R: BufRead>(
    reader: &mut TraceReader<R>,
    steps: usize,
    full: &SyncSender<Batch>,
    empty: &Receiver<Batch>,
) {
    let width = reader.schema().inputs().len();
    let mut inputs = Vec::with_capacity(width);
    loop {
        let mut batch = empty.try_recv().unwrap_or_else(|_| Batch {
            values: Vec::with_capacity(steps * width),
            places: Vec::with_capacity(steps),
            end: None,
        });
        batch.values.clear();
        batch.places.clear();
        batch.end = None;
        while batch.places.len() < steps {
            match reader.read_next(&mut inputs) {
                Ok(true) => {
                    batch.values.extend_from_slice(&inputs);
                    batch
                        .places
                        .push((reader.line(), reader.decoder().last_time()));
                }
                Ok(false) => {
                    batch.end = Some(Ok(()));
                    break;
                }
                Err(e) => {
                    batch.end = Some(Err(e));
                    break;
                }
            }
        }
        let ended = batch.end.is_some();
        if full.send(batch).is_err() || ended {
            return;
        }
    }
}

/// The monitor's thread: calls `steps` with the steps of each batch
/// received on `full`, returning each batch on `empty`, until a batch ends
/// the trace.
fn step_batches(
    full: Receiver<Batch>,
    empty: &mpsc::Sender<Batch>,
    steps: &mut impl FnMut(&[Value], &[Place]) -> io::Result<()>,
) -> Result<(), RunError> {
    // The reading thread always ends with a batch that says why; a closed
    // channel without one means it panicked, and leaving the scope
    // re-raises that panic.
    while let Ok(mut batch) = full.recv() {
        if !batch.places.is_empty() {
            steps(&batch.values, &batch.places)?;
        }
        if let Some(end) = batch.end.take() {
            return end.map_err(RunError::Trace);
        }
        let _ = empty.send(batch);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{InputSchema, InputType, TraceSchema};
    use proptest::prelude::*;

    /// Two inputs, so that batches hold `BATCH_STEPS` steps and a trace of
    /// a few thousand lines crosses several of them.
    fn schema() -> TraceSchema {
        TraceSchema::new(
            vec![
                InputSchema::new("request", InputType::Bool),
                InputSchema::new("pkg", InputType::Int),
            ],
            Vec::new(),
        )
    }

    /// `lines` steps, blank lines every 7th, and at line `bad` (if any) a
    /// line that is no JSON.
    fn trace(lines: usize, bad: Option<usize>) -> Vec<u8> {
        let mut text = String::new();
        for k in 1..=lines {
            if Some(k) == bad {
                text.push_str("{\"request\": tru\n");
            } else if k % 7 == 0 {
                text.push('\n');
            } else {
                text.push_str(&format!("{{\"request\": {}, \"pkg\": {k}}}\n", k % 3 == 0));
            }
        }
        text.into_bytes()
    }

    /// What stepping `text` with `reading` saw: each step's inputs and
    /// place, and how it ended (an error as text). `stop_at`: the step
    /// whose `steps` call fails.
    fn stepped<D: Reading<&'static [u8]>>(
        reading: D,
        text: &'static [u8],
        stop_at: Option<usize>,
    ) -> (Vec<(Vec<Value>, Place)>, String) {
        let mut reader = TraceReader::new(text, schema());
        let mut seen = Vec::new();
        let width = reader.schema().inputs().len();
        let ended = reading.each_steps(&mut reader, |inputs, places| {
            for (k, &place) in places.iter().enumerate() {
                if Some(seen.len()) == stop_at {
                    return Err(io::Error::other("stop"));
                }
                seen.push((inputs[k * width..(k + 1) * width].to_vec(), place));
            }
            Ok(())
        });
        let ended = match ended {
            Ok(()) => "end".to_owned(),
            Err(RunError::Trace(e)) => e.to_string(),
            Err(RunError::Write(e)) => format!("write: {e}"),
        };
        (seen, ended)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Read ahead, a trace gives the steps, places and ending of reading
        /// it here: across batch boundaries, with a bad line anywhere, and
        /// when stepping fails.
        #[test]
        fn ahead_reads_what_here_reads(
            lines in 0usize..20_000,
            bad in proptest::option::of(1usize..20_000),
            stop_at in proptest::option::of(0usize..20_000),
        ) {
            let text: &'static [u8] = trace(lines, bad).leak();
            let (here, here_end) = stepped(Here, text, stop_at);
            let (ahead, ahead_end) = stepped(Ahead, text, stop_at);
            prop_assert_eq!(here.len(), ahead.len());
            prop_assert!(here == ahead);
            prop_assert_eq!(here_end, ahead_end);
        }
    }

    /// The places are the lines the steps were read from, blank lines
    /// skipped, and an error ends the steps at its line.
    #[test]
    fn places_and_errors_are_the_lines_read() {
        let text: &'static [u8] = trace(30, Some(20)).leak();
        let (steps, ended) = stepped(Ahead, text, None);
        let lines: Vec<usize> = steps.iter().map(|(_, (line, _))| *line).collect();
        let expected: Vec<usize> = (1..20).filter(|k| k % 7 != 0).collect();
        assert_eq!(lines, expected);
        assert_eq!(steps[2].0, [Value::Bool(true), Value::Int(3)]);
        assert!(ended.starts_with("20:"), "{ended}");
    }
}
