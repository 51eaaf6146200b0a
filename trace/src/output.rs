//! The verdict lines `hindsight check` and standalone monitors write (JSON Lines, byte-exact per the
//! language design, section 6):
//!
//! ```text
//! {"step": 0, "alarm_ok": "true", "responds": "?"}
//! {"step": 1, "alarm_ok": "false", "responds": "?"}
//! {"end": true, "alarm_ok": "false", "alarm_ok.false_steps": 1, "alarm_ok.first_false": 1, "responds": "false", "responds.false_steps": 0, "responds.first_false": null}
//! ```
//!
//! The end line audits the run: per property, how many step lines said
//! `"false"` and the first of them; a past-time property's end verdict is
//! whether it held at every step.

use crate::json;
use hindsight_runtime::{PropertyDecl, ResetCounts, Verdict};
use std::io::{self, Write};

/// The properties verdict lines name, in declaration order, with what the end
/// line needs of each: whether it is `with reset` (its counts are reported)
/// and whether it is past-time (its end verdict is whether it held at every
/// step).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Properties {
    names: Vec<String>,
    resets: Vec<bool>,
    past: Vec<bool>,
}

impl Properties {
    /// Properties named `names`, none `with reset` and none past-time.
    pub fn new(names: Vec<String>) -> Self {
        let flags = vec![false; names.len()];
        Properties {
            resets: flags.clone(),
            past: flags,
            names,
        }
    }

    /// The properties a generated monitor declares.
    pub fn from_decls(decls: &[PropertyDecl]) -> Self {
        Properties {
            names: decls.iter().map(|p| p.name.to_string()).collect(),
            resets: decls.iter().map(|p| p.reset).collect(),
            past: decls.iter().map(|p| p.past).collect(),
        }
    }

    /// The same properties, flagged `with reset` per property (missing flags
    /// are `false`).
    pub fn with_resets(mut self, resets: Vec<bool>) -> Self {
        self.resets = flags(resets, self.names.len());
        self
    }

    /// The same properties, flagged past-time per property (missing flags are
    /// `false`).
    pub fn with_past(mut self, past: Vec<bool>) -> Self {
        self.past = flags(past, self.names.len());
        self
    }

    /// The names, in declaration order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Per property: whether it is `with reset`.
    pub fn resets(&self) -> &[bool] {
        &self.resets
    }

    /// Per property: whether it is past-time.
    pub fn past(&self) -> &[bool] {
        &self.past
    }

    /// How many properties there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl From<Vec<String>> for Properties {
    fn from(names: Vec<String>) -> Self {
        Properties::new(names)
    }
}

/// `flags` cut or padded with `false` to `len`.
fn flags(mut flags: Vec<bool>, len: usize) -> Vec<bool> {
    flags.resize(len, false);
    flags
}

/// Which lines a run writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// A line per step and the end line.
    #[default]
    Steps,
    /// A step line only where some verdict differs from the step before
    /// (before step 0, every verdict is `"?"`), and the end line.
    Changes,
    /// One summary line per trace or session, when it ends.
    Summary,
}

/// What a writer has seen of one trace (or session): swapped in and out per
/// step when sessions share a writer.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    /// Steps written.
    steps: u64,
    /// Per property: the steps that said `"false"`, and the first of them.
    false_steps: Vec<FalseSteps>,
    /// The verdicts of the last step (for [`Output::Changes`]).
    last: Vec<Verdict>,
}

impl Audit {
    /// A fresh audit of `properties` properties.
    pub fn new(properties: usize) -> Self {
        Audit {
            steps: 0,
            false_steps: vec![FalseSteps::default(); properties],
            last: vec![Verdict::Unknown; properties],
        }
    }

    /// Steps written so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// One property's false steps.
#[derive(Clone, Copy, Debug, Default)]
struct FalseSteps {
    count: u64,
    first: Option<Place>,
}

/// Where a step lies in its trace: what a summary says of a first violation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The step's 0-based index.
    pub step: u64,
    /// Its 1-based line.
    pub line: usize,
    /// Its time (microseconds since 1970, and whether the log wrote it as a
    /// string), if the monitor declares one.
    pub time: Option<(i64, bool)>,
}

/// Writes one verdict line per step and the final `end` line, remembering
/// whether any verdict written was `"false"`.
pub struct VerdictWriter<W: Write> {
    out: W,
    /// What every line carries after its `{`: `"trace": NAME, ` or nothing.
    head: Vec<u8>,
    /// What a session's lines carry after the head: `"session": KEY, `.
    session: Vec<u8>,
    /// Which lines to write.
    output: Output,
    /// Whether summaries give the time of a first violation.
    timed: bool,
    /// For each property, in declaration order, its three verdicts as a
    /// line writes them: `, "name": "true"`, `"false"`, `"?"`.
    fragments: Vec<[Fragment; 3]>,
    /// The line being written, put out whole when it ends.
    line: Vec<u8>,
    /// Where an observer's lines go with summaries.
    sink: io::Sink,
    /// Per property: whether it is `with reset` (its counts are reported).
    resets: Vec<bool>,
    /// For each property, its count keys as JSON strings.
    count_keys: Vec<CountKeys>,
    /// Per property: whether it is past-time.
    past: Vec<bool>,
    /// The current trace's (or session's) audit.
    audit: Audit,
    /// Where the next step lies (its line and time).
    place: Place,
    saw_violation: bool,
    /// The last step number written, in decimal.
    step_digits: Counter,
}

impl<W: Write> VerdictWriter<W> {
    /// A writer for properties named `names` (in declaration order) onto `out`.
    ///
    /// Each line is written to `out` in one piece.
    pub fn new<S: AsRef<str>>(out: W, names: &[S]) -> Self {
        let fragments = names
            .iter()
            .map(|name| {
                let mut prefix = String::from(", ");
                json::push_string(&mut prefix, name.as_ref());
                prefix.push_str(": \"");
                // In `slot` order.
                [Verdict::True, Verdict::False, Verdict::Unknown]
                    .map(|v| Fragment::new(format!("{prefix}{}\"", v.as_str()).into_bytes()))
            })
            .collect();
        let count_keys = names
            .iter()
            .map(|name| {
                let key = |suffix: &str| json::string(&format!("{}.{suffix}", name.as_ref()));
                CountKeys {
                    satisfactions: key("satisfactions"),
                    violations: key("violations"),
                    false_steps: key("false_steps"),
                    first_false: key("first_false"),
                    first_false_line: key("first_false_line"),
                    first_false_time: key("first_false_time"),
                    why: key("why"),
                }
            })
            .collect();
        VerdictWriter {
            out,
            head: Vec::new(),
            session: Vec::new(),
            output: Output::Steps,
            timed: false,
            fragments,
            line: Vec::new(),
            step_digits: Counter::default(),
            sink: io::sink(),
            resets: vec![false; names.len()],
            count_keys,
            past: vec![false; names.len()],
            audit: Audit::new(names.len()),
            place: Place::default(),
            saw_violation: false,
        }
    }

    /// The same writer, every line naming trace `name` (`"trace": NAME` first).
    pub fn naming_trace(mut self, name: Option<&str>) -> Self {
        self.head.clear();
        if let Some(name) = name {
            self.head.extend_from_slice(b"\"trace\": ");
            self.head.extend_from_slice(json::string(name).as_bytes());
            self.head.extend_from_slice(b", ");
        }
        self
    }

    /// The same writer, writing the lines `output` asks for; `timed`: the
    /// steps have a time (summaries give the first violation's).
    pub fn writing(mut self, output: Output, timed: bool) -> Self {
        self.output = output;
        self.timed = timed;
        self
    }

    /// Names the session of the lines that follow: `key` is its key as JSON
    /// (`None`: no session).
    pub fn set_session(&mut self, key: Option<&str>) {
        self.session.clear();
        if let Some(key) = key {
            self.session.extend_from_slice(b"\"session\": ");
            self.session.extend_from_slice(key.as_bytes());
            self.session.extend_from_slice(b", ");
        }
    }

    /// The audit of the current trace or session.
    pub fn audit(&self) -> &Audit {
        &self.audit
    }

    /// Which lines it writes.
    pub fn output(&self) -> Output {
        self.output
    }

    /// The audit of the current trace or session, to swap another in.
    pub fn audit_mut(&mut self) -> &mut Audit {
        &mut self.audit
    }

    /// Where the next step lies: its line and time (for summaries).
    pub fn set_place(&mut self, line: usize, time: Option<(i64, bool)>) {
        self.place.line = line;
        self.place.time = time;
    }

    /// Writes `{` and what every line carries after it.
    pub(crate) fn open_line(&mut self) -> io::Result<()> {
        self.line.extend_from_slice(b"{");
        self.line.extend_from_slice(&self.head);
        self.line.extend_from_slice(&self.session);
        Ok(())
    }

    /// Appends `bytes` to the line being written.
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        self.line.extend_from_slice(bytes);
    }

    /// Ends the line being written (`}` and a newline) and writes it out
    /// in one piece.
    pub(crate) fn end_line(&mut self) -> io::Result<()> {
        self.line.extend_from_slice(b"}\n");
        let written = self.out.write_all(&self.line);
        self.line.clear();
        written
    }

    /// A writer of the verdict lines of `properties` onto `out`, auditing
    /// their past-time ones.
    pub fn for_properties(out: W, properties: &Properties) -> Self {
        let mut writer = VerdictWriter::new(out, properties.names()).auditing(properties.past());
        writer.resets = flags(properties.resets().to_vec(), writer.resets.len());
        writer
    }

    /// The same writer, with the past-time properties flagged (per property,
    /// in declaration order): their end verdict is whether they held at
    /// every step.
    pub fn auditing(mut self, past: &[bool]) -> Self {
        for (flag, &p) in self.past.iter_mut().zip(past) {
            *flag = p;
        }
        self
    }

    /// Puts the end verdict of every past-time property in `verdicts`:
    /// `true` if no step line said `"false"`, else `false`. Future-time
    /// properties keep their finite-trace verdict.
    pub fn audit_end(&self, verdicts: &mut [Verdict]) {
        let past = self.past.iter().zip(&self.audit.false_steps);
        for (verdict, (_, f)) in verdicts.iter_mut().zip(past).filter(|(_, (&p, _))| p) {
            *verdict = if f.count == 0 {
                Verdict::True
            } else {
                Verdict::False
            };
        }
    }

    /// Writes `{"step": STEP, "p": "v", ...}` and a newline (with
    /// [`Output::Changes`], only if some verdict changed; with
    /// [`Output::Summary`], nothing), auditing the verdicts.
    pub fn write_step(&mut self, step: u64, verdicts: &[Verdict]) -> io::Result<()> {
        self.audit.steps = self.audit.steps.saturating_add(1);
        self.place.step = step;
        for (audit, _) in self
            .audit
            .false_steps
            .iter_mut()
            .zip(verdicts)
            .filter(|(_, v)| v.is_violation())
        {
            audit.count = audit.count.saturating_add(1);
            audit.first.get_or_insert(self.place);
            self.saw_violation = true;
        }
        match self.output {
            Output::Steps => {}
            Output::Summary => return Ok(()),
            Output::Changes => {
                if self.audit.last.as_slice() == verdicts {
                    return Ok(());
                }
                self.audit.last.clear();
                self.audit.last.extend_from_slice(verdicts);
            }
        }
        self.open_line()?;
        self.line.extend_from_slice(b"\"step\": ");
        self.line.extend_from_slice(self.step_digits.render(step));
        self.write_verdicts_from(0, verdicts)
    }

    /// Writes the line that ends a trace or session: the end line (see
    /// [`Self::write_end`]), or with [`Output::Summary`] the summary line,
    /// which adds the steps and, per property, the line and time of its
    /// first false step and `why(k)`, the explanation of property `k`'s
    /// first violation, if any.
    pub fn write_ending(
        &mut self,
        verdicts: &[Verdict],
        counts: &[Option<ResetCounts>],
        why: &dyn Fn(usize) -> Option<String>,
    ) -> io::Result<()> {
        if self.output == Output::Summary {
            self.write_summary(verdicts, counts, why)
        } else {
            self.write_end(verdicts, counts)
        }
    }

    /// Writes a summary line (see [`Self::write_ending`]).
    fn write_summary(
        &mut self,
        verdicts: &[Verdict],
        counts: &[Option<ResetCounts>],
        why: &dyn Fn(usize) -> Option<String>,
    ) -> io::Result<()> {
        self.open_line()?;
        let mut digits = [0u8; 20];
        self.line
            .extend_from_slice(b"\"summary\": true, \"steps\": ");
        self.line
            .extend_from_slice(decimal(self.audit.steps, &mut digits));
        for (k, verdict) in verdicts.iter().enumerate() {
            self.write_verdict(k, *verdict)?;
            self.write_counts(k, counts)?;
            let (Some(keys), Some(f)) = (self.count_keys.get(k), self.audit.false_steps.get(k))
            else {
                continue;
            };
            let first = f.first;
            write!(self.line, ", {}: ", keys.first_false_line)?;
            match first {
                Some(place) => self
                    .line
                    .extend_from_slice(decimal(place.line as u64, &mut digits)),
                None => self.line.extend_from_slice(b"null"),
            }
            if self.timed {
                write!(self.line, ", {}: ", keys.first_false_time)?;
                match first.and_then(|p| p.time) {
                    Some(time) => self.line.extend_from_slice(time_json(time).as_bytes()),
                    None => self.line.extend_from_slice(b"null"),
                }
            }
            if first.is_some() || verdict.is_violation() {
                if let Some(text) = why(k) {
                    write!(self.line, ", {}: {}", keys.why, json::string(&text))?;
                }
            }
        }
        self.end_line()
    }

    /// With summaries, writes the line of the session (or record, without
    /// a session: `key` `None`) an error stopped, `{"trace": NAME,
    /// "session": KEY, "summary": true, "error": MESSAGE}`, in the place of
    /// its summary line; other outputs report errors on stderr only.
    pub fn write_failure(&mut self, key: Option<&str>, message: &str) -> io::Result<()> {
        if self.output != Output::Summary {
            return Ok(());
        }
        self.set_session(key);
        self.open_line()?;
        self.line
            .extend_from_slice(b"\"summary\": true, \"error\": ");
        self.line
            .extend_from_slice(json::string(message).as_bytes());
        self.end_line()
    }

    /// Writes the final `{"end": true, "p": "v", ...}` line: each property's
    /// verdict (see [`Self::audit_end`]), then, with `Some` counts (a `with
    /// reset` property), `"p.satisfactions": N, "p.violations": M`, then
    /// `"p.false_steps": N, "p.first_false": S` (`null` when no step was false).
    pub fn write_end(
        &mut self,
        verdicts: &[Verdict],
        counts: &[Option<ResetCounts>],
    ) -> io::Result<()> {
        self.open_line()?;
        self.line.extend_from_slice(b"\"end\": true");
        for (k, verdict) in verdicts.iter().enumerate() {
            self.write_verdict(k, *verdict)?;
            self.write_counts(k, counts)?;
        }
        self.end_line()
    }

    /// Writes property `k`'s reset counts (if `Some`), false steps and first
    /// false step.
    fn write_counts(&mut self, k: usize, counts: &[Option<ResetCounts>]) -> io::Result<()> {
        let Some(keys) = self.count_keys.get(k) else {
            return Ok(());
        };
        let mut digits = [0u8; 20];
        if let Some(Some(c)) = counts.get(k) {
            write!(self.line, ", {}: ", keys.satisfactions)?;
            self.line
                .extend_from_slice(decimal(c.satisfactions, &mut digits));
            write!(self.line, ", {}: ", keys.violations)?;
            self.line
                .extend_from_slice(decimal(c.violations, &mut digits));
        }
        let f = self.audit.false_steps.get(k).copied().unwrap_or_default();
        write!(self.line, ", {}: ", keys.false_steps)?;
        self.line.extend_from_slice(decimal(f.count, &mut digits));
        write!(self.line, ", {}: ", keys.first_false)?;
        match f.first {
            Some(place) => self
                .line
                .extend_from_slice(decimal(place.step, &mut digits)),
            None => self.line.extend_from_slice(b"null"),
        }
        Ok(())
    }

    /// Per property, whether some step or `end` (the end verdicts) was
    /// `"false"`.
    pub fn violated(&self, end: &[Verdict]) -> Vec<bool> {
        self.audit
            .false_steps
            .iter()
            .zip(end)
            .map(|(f, v)| f.count > 0 || v.is_violation())
            .collect()
    }

    /// Whether any verdict written so far was `"false"`.
    pub fn saw_violation(&self) -> bool {
        self.saw_violation
    }

    /// The underlying writer, for extra lines between verdict lines.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Where an observer's lines go (`--explain`): the output, or nowhere
    /// when it writes summaries.
    pub fn observer_out(&mut self) -> &mut dyn Write {
        if self.output == Output::Summary {
            &mut self.sink
        } else {
            &mut self.out
        }
    }

    /// `counts` of the `with reset` properties (`None` for the others), as
    /// the end line reports them.
    pub(crate) fn reset_counts(&self, counts: &[ResetCounts]) -> Vec<Option<ResetCounts>> {
        counts
            .iter()
            .zip(&self.resets)
            .map(|(&c, &reset)| reset.then_some(c))
            .collect()
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Writes `, "p": "v"` for each verdict, naming the properties from index
    /// `first` on, then `}` and a newline.
    pub(crate) fn write_verdicts_from(
        &mut self,
        first: usize,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        for (k, verdict) in verdicts.iter().enumerate() {
            self.write_verdict(first + k, *verdict)?;
        }
        self.end_line()
    }

    /// Writes `, "p": "v"` for property `k` (nothing for a property beyond the names).
    fn write_verdict(&mut self, k: usize, verdict: Verdict) -> io::Result<()> {
        let Some(fragment) = self.fragments.get(k).and_then(|f| f.get(slot(verdict))) else {
            return Ok(());
        };
        self.saw_violation |= verdict.is_violation();
        fragment.push_onto(&mut self.line);
        Ok(())
    }
}

/// A pre-rendered piece of a verdict line. Most fit a 32-byte block, which
/// is appended whole and cut back to its length: a fixed-size copy (two
/// vector moves) instead of a call to `memmove` per property, which was a
/// quarter of `check`'s time at 100 properties.
#[derive(Clone, Debug)]
enum Fragment {
    /// The bytes in a block (the rest zero) and their length.
    Short([u8; 32], usize),
    /// Longer bytes.
    Long(Box<[u8]>),
}

impl Fragment {
    fn new(bytes: Vec<u8>) -> Fragment {
        let mut block = [0u8; 32];
        match block.get_mut(..bytes.len()) {
            Some(head) => {
                head.copy_from_slice(&bytes);
                Fragment::Short(block, bytes.len())
            }
            None => Fragment::Long(bytes.into_boxed_slice()),
        }
    }

    /// Appends the fragment to `line`.
    #[inline(always)]
    fn push_onto(&self, line: &mut Vec<u8>) {
        match self {
            Fragment::Short(block, len) => {
                let end = line.len() + len;
                line.extend_from_slice(block);
                line.truncate(end);
            }
            Fragment::Long(bytes) => line.extend_from_slice(bytes),
        }
    }
}

/// The summary line of a trace that an error stopped:
/// `{"trace": NAME, "summary": true, "error": MESSAGE}` (`"trace"` only when
/// lines name their trace).
pub fn error_summary_line(trace: Option<&str>, message: &str) -> String {
    let mut line = String::from("{");
    if let Some(name) = trace {
        line.push_str("\"trace\": ");
        json::push_string(&mut line, name);
        line.push_str(", ");
    }
    line.push_str("\"summary\": true, \"error\": ");
    json::push_string(&mut line, message);
    line.push_str("}\n");
    line
}

/// The last line of a summary run: `{"summary": "total", "traces": N,
/// "sessions": S, "steps": T, "errors": E, "vacuous": V, "unmatched": U,
/// "p.violated": K, ...}`, where `errors` counts the traces, sessions and
/// lines an error stopped, `vacuous` the traces or sessions that gave no
/// step, `unmatched` the places of the spec no line matched (see
/// [`crate::audit::coverage`]), and `p.violated` the traces or sessions in
/// which property `p` was false at some step or at the end.
pub fn total_line(tally: &crate::audit::Tally, traces: usize, properties: &[String]) -> String {
    let mut line = format!(
        "{{\"summary\": \"total\", \"traces\": {traces}, \"sessions\": {}, \"steps\": {}, \"errors\": {}, \"vacuous\": {}, \"unmatched\": {}",
        tally.sessions, tally.steps, tally.errors, tally.vacuous, tally.unmatched
    );
    for (k, name) in properties.iter().enumerate() {
        line.push_str(", ");
        json::push_string(&mut line, &format!("{name}.violated"));
        line.push_str(&format!(
            ": {}",
            tally.violated.get(k).copied().unwrap_or(0)
        ));
    }
    line.push_str("}\n");
    line
}

/// The end-line keys of one property's counts, quoted.
struct CountKeys {
    satisfactions: String,
    violations: String,
    false_steps: String,
    first_false: String,
    first_false_line: String,
    first_false_time: String,
    why: String,
}

/// A time as a summary writes it: an RFC 3339 string if the log wrote a
/// string, else a number of seconds.
fn time_json((micros, as_string): (i64, bool)) -> String {
    match jiff::Timestamp::from_microsecond(micros) {
        Ok(t) if as_string => json::string(&t.to_string()),
        _ => crate::read::seconds_text(micros),
    }
}

/// Where `verdict` lies in per-verdict arrays: true, false, undecided.
pub(crate) fn slot(verdict: Verdict) -> usize {
    match verdict {
        Verdict::True => 0,
        Verdict::False => 1,
        Verdict::Unknown => 2,
    }
}

/// The decimal digits of `n`, written into the end of `buf`.
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut start = buf.len();
    loop {
        start -= 1;
        // `n % 10 < 10`, so the cast cannot truncate.
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[start..]
}

/// A number kept in decimal: rendering the number after the last one
/// increments its digits in place (steps are numbered one after another)
/// instead of dividing by ten per digit.
#[derive(Clone, Debug, Default)]
struct Counter {
    digits: [u8; 20],
    /// Where the digits start in `digits`; `None` before the first number.
    start: Option<usize>,
    value: u64,
}

impl Counter {
    /// `n` in decimal.
    fn render(&mut self, n: u64) -> &[u8] {
        match self.start {
            // A successor has at most 20 digits, so a carry out of the
            // first digit always finds room before it.
            Some(start) if start > 0 && Some(n) == self.value.checked_add(1) => {
                let mut at = self.digits.len();
                while at > start {
                    at -= 1;
                    let Some(d) = self.digits.get_mut(at) else {
                        break;
                    };
                    if *d != b'9' {
                        *d += 1;
                        break;
                    }
                    *d = b'0';
                    if at == start {
                        self.start = Some(start - 1);
                        if let Some(lead) = self.digits.get_mut(start - 1) {
                            *lead = b'1';
                        }
                    }
                }
            }
            _ => {
                let written = decimal(n, &mut self.digits).len();
                self.start = Some(self.digits.len() - written);
            }
        }
        self.value = n;
        let start = self.start.unwrap_or(0);
        self.digits.get(start..).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::{decimal, Counter, VerdictWriter};
    use hindsight_runtime::{ResetCounts, Verdict};

    fn lines(f: impl FnOnce(&mut VerdictWriter<&mut Vec<u8>>)) -> (String, bool) {
        let mut buf = Vec::new();
        let mut w = VerdictWriter::new(&mut buf, &["alarm_ok", "responds"]);
        f(&mut w);
        let violated = w.saw_violation();
        (String::from_utf8(buf).unwrap_or_default(), violated)
    }

    #[test]
    fn step_and_end_lines_are_byte_exact() {
        let (text, violated) = lines(|w| {
            assert!(w.write_step(0, &[Verdict::True, Verdict::Unknown]).is_ok());
            assert!(w.write_step(1, &[Verdict::True, Verdict::True]).is_ok());
            assert!(w.write_end(&[Verdict::True, Verdict::True], &[]).is_ok());
        });
        assert_eq!(
            text,
            "{\"step\": 0, \"alarm_ok\": \"true\", \"responds\": \"?\"}\n\
             {\"step\": 1, \"alarm_ok\": \"true\", \"responds\": \"true\"}\n\
             {\"end\": true, \"alarm_ok\": \"true\", \"alarm_ok.false_steps\": 0, \"alarm_ok.first_false\": null, \
             \"responds\": \"true\", \"responds.false_steps\": 0, \"responds.first_false\": null}\n"
        );
        assert!(!violated);
    }

    #[test]
    fn the_end_line_audits_the_steps() {
        // alarm_ok is past-time: false at steps 1 and 3, so its end verdict is
        // false though its last value (and the verdict handed in) is true.
        // responds is future-time: it keeps the verdict handed in.
        let mut w =
            VerdictWriter::new(Vec::new(), &["alarm_ok", "responds"]).auditing(&[true, false]);
        let steps = [
            [Verdict::True, Verdict::Unknown],
            [Verdict::False, Verdict::Unknown],
            [Verdict::True, Verdict::False],
            [Verdict::False, Verdict::False],
            [Verdict::True, Verdict::False],
        ];
        for (step, verdicts) in (0..).zip(&steps) {
            assert!(w.write_step(step, verdicts).is_ok());
        }
        let mut end = [Verdict::True, Verdict::False];
        w.audit_end(&mut end);
        assert_eq!(end, [Verdict::False, Verdict::False]);
        assert!(w.write_end(&end, &[]).is_ok());
        let text = String::from_utf8(w.out).unwrap_or_default();
        assert_eq!(
            text.lines().last(),
            Some(
                "{\"end\": true, \"alarm_ok\": \"false\", \"alarm_ok.false_steps\": 2, \"alarm_ok.first_false\": 1, \
                 \"responds\": \"false\", \"responds.false_steps\": 3, \"responds.first_false\": 2}"
            )
        );
        // With no step, a past-time property held at every step.
        let writer = VerdictWriter::new(Vec::new(), &["p"]).auditing(&[true]);
        let mut end = [Verdict::Unknown];
        writer.audit_end(&mut end);
        assert_eq!(end, [Verdict::True]);
    }

    #[test]
    fn a_false_verdict_is_remembered() {
        let (_, in_step) = lines(|w| {
            assert!(w.write_step(0, &[Verdict::False, Verdict::True]).is_ok());
        });
        assert!(in_step);
        let (text, in_end) = lines(|w| {
            assert!(w.write_end(&[Verdict::True, Verdict::False], &[]).is_ok());
        });
        assert!(in_end);
        assert_eq!(
            text,
            "{\"end\": true, \"alarm_ok\": \"true\", \"alarm_ok.false_steps\": 0, \"alarm_ok.first_false\": null, \
             \"responds\": \"false\", \"responds.false_steps\": 0, \"responds.first_false\": null}\n"
        );
    }

    #[test]
    fn reset_counts_follow_their_property_on_the_end_line() {
        let (text, violated) = lines(|w| {
            let counts = [
                None,
                Some(ResetCounts {
                    satisfactions: 2,
                    violations: 13,
                }),
            ];
            assert!(w
                .write_end(&[Verdict::True, Verdict::Unknown], &counts)
                .is_ok());
        });
        assert_eq!(
            text,
            "{\"end\": true, \"alarm_ok\": \"true\", \"alarm_ok.false_steps\": 0, \"alarm_ok.first_false\": null, \
             \"responds\": \"?\", \"responds.satisfactions\": 2, \"responds.violations\": 13, \
             \"responds.false_steps\": 0, \"responds.first_false\": null}\n"
        );
        assert!(!violated);
    }

    #[test]
    fn no_properties_gives_bare_lines() {
        let mut buf = Vec::new();
        let mut w = VerdictWriter::new(&mut buf, &[] as &[&str]);
        assert!(w.write_step(3, &[]).is_ok());
        assert!(w.write_end(&[], &[]).is_ok());
        assert_eq!(buf, b"{\"step\": 3}\n{\"end\": true}\n");
    }

    #[test]
    fn counter_digits_are_decimal() {
        // Against `decimal` (and `to_string`): runs across every carry, a
        // jump back, and the last number (no successor to carry into).
        let mut counter = Counter::default();
        for n in (0..2_000).chain(99_990..100_010).chain(5..7) {
            assert_eq!(counter.render(n), n.to_string().as_bytes());
        }
        assert_eq!(counter.render(u64::MAX - 1), b"18446744073709551614");
        assert_eq!(counter.render(u64::MAX), b"18446744073709551615");
    }

    #[test]
    fn decimal_digits() {
        let mut buf = [0u8; 20];
        assert_eq!(decimal(0, &mut buf), b"0");
        assert_eq!(decimal(907, &mut buf), b"907");
        assert_eq!(decimal(u64::MAX, &mut buf), b"18446744073709551615");
    }
}
