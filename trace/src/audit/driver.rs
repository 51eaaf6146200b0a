//! Checking many traces: one after another on one core, or in parallel on
//! `--jobs` worker threads, with the same bytes on stdout and stderr either
//! way.
//!
//! Traces are independent, so workers take them in order from a shared
//! counter and write each one's verdict lines into its own [`Spill`] buffer
//! (memory up to [`SPILL_BYTES`], then an unlinked temporary file) until
//! every trace before it is printed, then straight to stdout; the main
//! thread prints finished traces strictly in order, each one's stdout then
//! its messages on stderr. Workers stay at most [`WINDOW_PER_JOB`] traces per
//! job ahead of the printed ones, so memory is bounded whatever the order in
//! which traces finish.

use super::coverage::{Coverage, Findings};
use super::sources::{Sources, TraceSource};
use super::Progress;
use crate::report;
use crate::run::{worse_status, RunOptions, Stdout, EXIT_ERROR, EXIT_VACUOUS};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Seek, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// The output of one trace kept in memory before it goes to a temporary file.
const SPILL_BYTES: usize = 8 << 20;

/// How many traces per job workers may finish ahead of the printed ones.
const WINDOW_PER_JOB: usize = 4;

/// One trace being checked: where its lines and messages go.
pub struct TraceRun<'a> {
    /// The trace.
    pub source: &'a TraceSource,
    /// Whether its lines carry `"trace": NAME`.
    pub named: bool,
    /// Where its verdict lines go (buffer them: writes are small).
    pub lines: &'a mut dyn Write,
    /// Its messages for stderr, printed after its lines.
    pub messages: Vec<Message>,
    /// Progress counters to bump, if a progress bar is drawn.
    pub progress: Option<&'a Progress>,
    /// For an OpenTelemetry export: the lines it became and their origins.
    pub otlp: Option<crate::otlp::Converted>,
    /// Whether a core is free to read and decode the trace on a thread of
    /// its own, ahead of the monitor (one regular file, several cores).
    pub read_ahead: bool,
}

/// A message of one trace's check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A line printed as it is (an error, with its place).
    Line(String),
    /// What a trace checked to its end covered: its parts without a step
    /// and the places of the spec it never matched, warned about once at
    /// the end of the run (see [`Findings`]).
    Covered {
        /// The trace's name.
        trace: String,
        /// What it covered.
        coverage: Coverage,
    },
}

/// What the checks of some traces found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The exit status (the worst of the traces').
    pub status: u8,
    /// Traces checked, or sessions with `--key`.
    pub sessions: u64,
    /// Steps (events of a system) checked.
    pub steps: u64,
    /// Traces stopped by an error.
    pub errors: u64,
    /// Per property: the traces or sessions where it was false at some step
    /// or at the end.
    pub violated: Vec<u64>,
    /// Traces or sessions that gave no step (set when a run ends).
    pub vacuous: u64,
    /// Places of the spec that no line of any trace matched (set when a
    /// run ends).
    pub unmatched: u64,
}

impl Tally {
    /// The tally of a trace an error stopped.
    pub fn failed() -> Self {
        Tally {
            status: EXIT_ERROR,
            errors: 1,
            ..Tally::default()
        }
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Tally) {
        self.status = worse_status(self.status, other.status);
        self.sessions += other.sessions;
        self.steps += other.steps;
        self.errors += other.errors;
        self.vacuous += other.vacuous;
        self.unmatched += other.unmatched;
        if self.violated.len() < other.violated.len() {
            self.violated.resize(other.violated.len(), 0);
        }
        for (total, &n) in self.violated.iter_mut().zip(&other.violated) {
            *total += n;
        }
    }
}

/// Runs `check` over every trace of `sources`, on `options.jobs` threads
/// (each with a stack of `stack_bytes`), writing each trace's lines to
/// `stdout` and printing its messages, in order; returns what they found
/// together.
pub(crate) fn run_all<F>(
    sources: &Sources,
    options: &RunOptions,
    stdout: &mut Stdout,
    stack_bytes: usize,
    progress: Option<&Progress>,
    check: F,
) -> Tally
where
    F: Fn(&mut TraceRun<'_>) -> Tally + Sync,
{
    for warning in &sources.warnings {
        report::warning(warning);
    }
    let jobs = options.jobs().min(sources.traces.len()).max(1);
    let mut printer = Printer::new(sources.traces.len());
    let mut workers = 0;
    if jobs > 1 {
        let out = Mutex::new(&mut *stdout);
        workers = run_parallel(
            sources,
            jobs,
            stack_bytes,
            progress,
            &check,
            &out,
            &mut |s, m, t| {
                let mut stdout = lock(&out);
                let copied = s.copy_to(&mut **stdout).and_then(|()| stdout.flush());
                if let Err(e) = copied {
                    if e.kind() != io::ErrorKind::BrokenPipe {
                        report::error(format_args!("cannot write verdicts: {e}"));
                        printer.total.status = EXIT_ERROR;
                    }
                }
                let go_on = !stdout.is_broken();
                drop(stdout);
                printer.print(t, m, progress);
                go_on
            },
        );
    }
    // One job, or no worker thread could be started: on this thread.
    if workers == 0 {
        for source in &sources.traces {
            let mut run = TraceRun {
                source,
                named: sources.named,
                lines: &mut *stdout,
                messages: Vec::new(),
                progress,
                otlp: None,
                // A lone file and a core to spare. Not a pipe or standard
                // input: a batch filled ahead would hold back the verdicts
                // of lines that arrive slowly (`tail -f`).
                read_ahead: options.jobs() > 1
                    && sources.traces.len() == 1
                    && source.is_regular_file(),
            };
            let tally = guarded(&check, &mut run);
            let messages = run.messages;
            printer.print(&tally, &messages, progress);
            if stdout.is_broken() {
                break;
            }
        }
    }
    printer.finish(options)
}

/// `check` of `run`'s trace; a panic in it becomes that trace's error (the
/// other traces are still checked).
fn guarded<F>(check: &F, run: &mut TraceRun<'_>) -> Tally
where
    F: Fn(&mut TraceRun<'_>) -> Tally,
{
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(run)));
    checked.unwrap_or_else(|_| {
        run.messages.push(Message::Line(format!(
            "error: {}: internal error: the check of this trace panicked",
            run.source.name
        )));
        Tally::failed()
    })
}

/// Prints the messages of finished traces and adds up their tallies and
/// what they covered.
struct Printer {
    traces: usize,
    total: Tally,
    findings: Findings,
}

impl Printer {
    fn new(traces: usize) -> Self {
        Printer {
            traces,
            total: Tally::default(),
            findings: Findings::new(),
        }
    }

    /// Prints one finished trace's messages and counts its tally.
    fn print(&mut self, tally: &Tally, messages: &[Message], progress: Option<&Progress>) {
        for message in messages {
            match message {
                Message::Line(line) => match progress {
                    Some(p) => p.message(line),
                    None => report::line(line),
                },
                Message::Covered { trace, coverage } => self.findings.add(trace, coverage),
            }
        }
        self.total.add(tally);
        if let Some(p) = progress {
            p.traces_done.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The tally of every trace, after the warnings about what the run did
    /// not check (see [`Findings`]); a vacuous run exits with
    /// [`EXIT_VACUOUS`] under `--fail-on-violation` unless
    /// `--allow-vacuous`.
    fn finish(mut self, options: &RunOptions) -> Tally {
        for warning in self.findings.close(self.traces, &mut self.total) {
            report::line(warning);
        }
        if self.findings.is_vacuous() && options.fail_on_violation && !options.allow_vacuous {
            self.total.status = worse_status(self.total.status, EXIT_VACUOUS);
        }
        self.total
    }
}

/// One finished trace on its way to the printer.
type Finished<'a, 's> = (usize, Spill<'a, 's>, Vec<Message>, Tally);

/// Locks `mutex`, whether or not a thread panicked holding it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Checks the traces of `sources` on `jobs` threads, handing each trace's
/// output to `print` in order; `print` says whether to go on. The trace
/// every earlier one of which is printed writes straight to `out`. Returns
/// how many worker threads started.
fn run_parallel<F>(
    sources: &Sources,
    jobs: usize,
    stack_bytes: usize,
    progress: Option<&Progress>,
    check: &F,
    out: &Mutex<&mut Stdout>,
    print: &mut dyn FnMut(&Spill<'_, '_>, &[Message], &Tally) -> bool,
) -> usize
where
    F: Fn(&mut TraceRun<'_>) -> Tally + Sync,
{
    let mut started = 0;
    let next = AtomicUsize::new(0);
    let head = AtomicUsize::new(0);
    let printed = Mutex::new(0usize);
    let advanced = Condvar::new();
    let cancel = AtomicBool::new(false);
    let window = jobs * WINDOW_PER_JOB;
    let (sender, receiver) = mpsc::channel::<Finished<'_, '_>>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, printed, advanced, cancel) = (&next, &printed, &advanced, &cancel);
            let head = &head;
            let worker = move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(source) = sources.traces.get(index) else {
                    return;
                };
                {
                    let mut head = printed.lock().unwrap_or_else(|e| e.into_inner());
                    while index >= *head + window && !cancel.load(Ordering::Relaxed) {
                        head = advanced.wait(head).unwrap_or_else(|e| e.into_inner());
                    }
                }
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let mut spill = Spill {
                    live: Some(Live {
                        index,
                        head,
                        out,
                        on: false,
                        cancel,
                    }),
                    ..Spill::default()
                };
                let mut run = TraceRun {
                    source,
                    named: sources.named,
                    lines: &mut spill,
                    messages: Vec::new(),
                    progress,
                    otlp: None,
                    read_ahead: false,
                };
                let tally = guarded(check, &mut run);
                let messages = run.messages;
                if sender.send((index, spill, messages, tally)).is_err() {
                    return;
                }
            };
            let spawned = std::thread::Builder::new()
                .stack_size(stack_bytes)
                .spawn_scoped(scope, worker);
            match spawned {
                Ok(_) => started += 1,
                Err(e) => report::warning(format_args!("cannot start a worker thread: {e}")),
            }
        }
        drop(sender);
        let mut pending: BTreeMap<usize, Finished<'_, '_>> = BTreeMap::new();
        for finished in receiver.iter() {
            pending.insert(finished.0, finished);
            let mut first = *lock(&printed);
            while let Some((_, spill, messages, tally)) = pending.remove(&first) {
                if !cancel.load(Ordering::Relaxed) && !print(&spill, &messages, &tally) {
                    cancel.store(true, Ordering::Relaxed);
                }
                first += 1;
                // The next trace may now write straight to stdout.
                head.store(first, Ordering::Release);
            }
            *lock(&printed) = first;
            advanced.notify_all();
        }
    });
    started
}

/// One trace's output: in memory up to [`SPILL_BYTES`], then in an unlinked
/// temporary file; or, once every earlier trace is printed, straight to
/// stdout.
#[derive(Default)]
pub(crate) struct Spill<'a, 's> {
    memory: Vec<u8>,
    file: Option<File>,
    live: Option<Live<'a, 's>>,
}

/// How a trace's output goes straight to stdout once it is the first
/// unprinted trace.
struct Live<'a, 's> {
    /// The trace's index.
    index: usize,
    /// The index of the first unprinted trace.
    head: &'a AtomicUsize,
    /// Standard output.
    out: &'a Mutex<&'s mut Stdout>,
    /// Whether the output goes to stdout now.
    on: bool,
    /// Set when stdout's reader went away: every later write fails.
    cancel: &'a AtomicBool,
}

impl Spill<'_, '_> {
    /// Writes everything written so far to `out`.
    fn copy_to(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&self.memory)?;
        if let Some(file) = &self.file {
            let mut file = file;
            file.rewind()?;
            io::copy(&mut file, out)?;
        }
        Ok(())
    }

    /// Whether writes go straight to stdout: they do once the trace is the
    /// first unprinted one, what it kept until then printed first.
    fn goes_live(&mut self) -> io::Result<bool> {
        let Some(live) = &self.live else {
            return Ok(false);
        };
        if live.on {
            return Ok(true);
        }
        if live.head.load(Ordering::Acquire) != live.index {
            return Ok(false);
        }
        let out = live.out;
        let mut stdout = lock(out);
        self.copy_to(&mut **stdout)?;
        drop(stdout);
        self.memory = Vec::new();
        self.file = None;
        if let Some(live) = &mut self.live {
            live.on = true;
        }
        Ok(true)
    }
}

impl Write for Spill<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self
            .live
            .as_ref()
            .is_some_and(|l| l.cancel.load(Ordering::Relaxed))
        {
            // Nobody will read it: stop the trace as a closed pipe stops it.
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        if self.goes_live()? {
            if let Some(live) = &self.live {
                return lock(live.out).write(buf);
            }
        }
        if let Some(file) = &mut self.file {
            return file.write(buf);
        }
        if self.memory.len() + buf.len() > SPILL_BYTES {
            // Past the limit, the memory part stays as it is and the rest
            // follows in the file.
            let file = tempfile::tempfile()?;
            return self.file.insert(file).write(buf);
        }
        self.memory.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(live) = self.live.as_ref().filter(|l| l.on) {
            return lock(live.out).flush();
        }
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Spill, SPILL_BYTES};
    use std::io::Write;

    #[test]
    fn a_spill_keeps_order_across_memory_and_file() {
        let mut spill = Spill::default();
        let chunk = vec![b'a'; SPILL_BYTES - 3];
        assert!(spill.write_all(&chunk).is_ok());
        assert!(spill.write_all(b"bcdefg").is_ok());
        assert!(spill.write_all(b"h").is_ok());
        assert!(spill.file.is_some());
        let mut out = Vec::new();
        assert!(spill.copy_to(&mut out).is_ok());
        assert_eq!(out.len(), SPILL_BYTES + 4);
        assert!(out.ends_with(b"aaabcdefgh"));
    }
}
