//! The verdict lines of a system (JSON Lines, byte-exact per the language
//! design, section 6): one per `choice` event of a lifeline that owns guards,
//! giving its guards in declaration order. There is no end line; a summary
//! (`--summary`) gives, per guard, how many choices found it true, false and
//! undecided.
//!
//! ```text
//! {"event": 7, "lifeline": "Committer", "may_merge": "true"}
//! {"summary": true, "events": 16, "choices": 2, "may_merge.true": 1, "may_merge.false": 1, "may_merge.unknown": 0}
//! ```

use super::schema::SystemSchema;
use crate::json;
use crate::output::{decimal, slot, Output, VerdictWriter};
use hindsight_runtime::Verdict;
use std::io::{self, Write};

/// Writes one verdict line per `choice` event, remembering whether any
/// verdict written was `"false"`.
pub struct SystemVerdictWriter<W: Write> {
    /// Writes the verdicts, naming every guard of the system, lifeline by lifeline.
    verdicts: VerdictWriter<W>,
    /// Per lifeline: the bytes `, "lifeline": "NAME"` and its guards in the writer.
    lifelines: Vec<LineHead>,
    /// Every guard's name, lifeline by lifeline.
    guard_names: Vec<String>,
    /// Per guard: the choices that found it true, false and undecided.
    counts: Vec<[u64; 3]>,
    /// Choices so far.
    choices: u64,
}

/// What a lifeline's lines start with, and which guards they give.
struct LineHead {
    /// `, "lifeline": "NAME"`
    lifeline: Vec<u8>,
    /// The index of the lifeline's first guard among all guards.
    first_guard: usize,
    /// How many guards it owns.
    guards: usize,
    /// Its last choice's verdicts (for [`Output::Changes`]).
    last: Vec<Verdict>,
}

impl<W: Write> SystemVerdictWriter<W> {
    /// A writer for the guards of `schema` onto `out`.
    ///
    /// `out` should be buffered: every line is written in several small pieces.
    pub fn new(out: W, schema: &SystemSchema) -> Self {
        let mut guard_names = Vec::new();
        let lifelines = schema
            .lifelines()
            .iter()
            .map(|l| {
                let mut lifeline = String::from(", \"lifeline\": ");
                json::push_string(&mut lifeline, &l.name);
                let head = LineHead {
                    lifeline: lifeline.into_bytes(),
                    first_guard: guard_names.len(),
                    guards: l.guards.len(),
                    last: vec![Verdict::Unknown; l.guards.len()],
                };
                guard_names.extend(l.guards.iter().map(String::as_str));
                head
            })
            .collect();
        SystemVerdictWriter {
            verdicts: VerdictWriter::new(out, &guard_names),
            counts: vec![[0; 3]; guard_names.len()],
            guard_names: guard_names.iter().map(|g| g.to_string()).collect(),
            lifelines,
            choices: 0,
        }
    }

    /// The same writer, every line naming trace `name`, writing the lines
    /// `output` asks for.
    pub fn naming_trace(mut self, name: Option<&str>, output: Output) -> Self {
        self.verdicts = self.verdicts.naming_trace(name).writing(output, false);
        self
    }

    /// Writes `{"event": EVENT, "lifeline": "L", "g": "v", ...}` and a newline
    /// for a `choice` event of `lifeline`, with one verdict per guard it owns;
    /// writes nothing for a lifeline that owns no guards. With
    /// [`Output::Changes`], only if some verdict differs from the lifeline's
    /// previous choice; with [`Output::Summary`], nothing (the verdicts are
    /// counted).
    pub fn write_choice(
        &mut self,
        event: u64,
        lifeline: usize,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        let Some(head) = self.lifelines.get_mut(lifeline).filter(|h| h.guards > 0) else {
            return Ok(());
        };
        self.choices = self.choices.saturating_add(1);
        let own = verdicts.get(..head.guards).unwrap_or(verdicts);
        for (k, v) in own.iter().enumerate() {
            if let Some(n) = self
                .counts
                .get_mut(head.first_guard + k)
                .and_then(|c| c.get_mut(slot(*v)))
            {
                *n += 1;
            }
        }
        match self.verdicts.output() {
            Output::Steps => {}
            Output::Summary => return Ok(()),
            Output::Changes => {
                if head.last.as_slice() == own {
                    return Ok(());
                }
                head.last.clear();
                head.last.extend_from_slice(own);
            }
        }
        let Some(head) = self.lifelines.get(lifeline) else {
            return Ok(());
        };
        self.verdicts.open_line()?;
        self.verdicts.put(b"\"event\": ");
        let mut digits = [0u8; 20];
        self.verdicts.put(decimal(event, &mut digits));
        self.verdicts.put(&head.lifeline);
        self.verdicts.write_verdicts_from(head.first_guard, own)
    }

    /// With [`Output::Summary`], writes the summary line of a trace of
    /// `events` events (see the module documentation).
    pub fn write_summary(&mut self, events: u64) -> io::Result<()> {
        if self.verdicts.output() != Output::Summary {
            return Ok(());
        }
        self.verdicts.open_line()?;
        let mut line = format!(
            "\"summary\": true, \"events\": {events}, \"choices\": {}",
            self.choices
        );
        for (name, [t, f, u]) in self.guard_names.iter().zip(&self.counts) {
            for (suffix, n) in [("true", t), ("false", f), ("unknown", u)] {
                line.push_str(", ");
                json::push_string(&mut line, &format!("{name}.{suffix}"));
                line.push_str(&format!(": {n}"));
            }
        }
        self.verdicts.put(line.as_bytes());
        self.verdicts.end_line()
    }

    /// Starts a session: its lines carry `"session": KEY` (`key` as JSON;
    /// `None`: no session), its summary counts from zero.
    pub fn start_session(&mut self, key: Option<&str>) {
        self.verdicts.set_session(key);
        self.counts.fill([0; 3]);
        self.choices = 0;
        for head in &mut self.lifelines {
            head.last.fill(Verdict::Unknown);
        }
    }

    /// Which lines it writes.
    pub fn output(&self) -> Output {
        self.verdicts.output()
    }

    /// Where an observer's lines go: the output, or nowhere with summaries.
    pub fn observer_out(&mut self) -> &mut dyn Write {
        self.verdicts.observer_out()
    }

    /// The underlying writer, for extra lines between verdict lines.
    pub fn get_mut(&mut self) -> &mut W {
        self.verdicts.get_mut()
    }

    /// Whether any guard verdict written so far was `"false"` (a decision,
    /// not a violation: the exit status of a system run ignores it).
    pub fn saw_violation(&self) -> bool {
        self.verdicts.saw_violation()
    }

    /// Flushes the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.verdicts.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::SystemVerdictWriter;
    use crate::system::{LifelineSchema, SystemSchema};
    use hindsight_runtime::Verdict;

    fn schema() -> SystemSchema {
        let lifeline = |name: &str, guards: &[&str]| LifelineSchema {
            name: name.to_string(),
            vars: Vec::new(),
            guards: guards.iter().map(|g| g.to_string()).collect(),
        };
        SystemSchema::new(vec![
            lifeline("TestRunner", &[]),
            lifeline("Committer", &["may_merge", "must_block"]),
            lifeline("Sec\"urity", &["ok"]),
        ])
    }

    #[test]
    fn choice_lines_are_byte_exact() {
        let mut buf = Vec::new();
        let mut w = SystemVerdictWriter::new(&mut buf, &schema());
        assert!(w
            .write_choice(7, 1, &[Verdict::True, Verdict::False])
            .is_ok());
        assert!(w.write_choice(12, 2, &[Verdict::Unknown]).is_ok());
        assert!(w.saw_violation());
        assert_eq!(
            String::from_utf8(buf).unwrap_or_default(),
            "{\"event\": 7, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \
             \"must_block\": \"false\"}\n\
             {\"event\": 12, \"lifeline\": \"Sec\\\"urity\", \"ok\": \"?\"}\n"
        );
    }

    #[test]
    fn a_lifeline_without_guards_writes_nothing() {
        let mut buf = Vec::new();
        let mut w = SystemVerdictWriter::new(&mut buf, &schema());
        assert!(w.write_choice(0, 0, &[]).is_ok());
        assert!(w.write_choice(1, 9, &[Verdict::False]).is_ok());
        assert!(!w.saw_violation());
        assert!(buf.is_empty());
    }

    #[test]
    fn extra_verdicts_are_not_written() {
        let mut buf = Vec::new();
        let mut w = SystemVerdictWriter::new(&mut buf, &schema());
        assert!(w
            .write_choice(3, 2, &[Verdict::True, Verdict::False])
            .is_ok());
        assert!(!w.saw_violation());
        assert_eq!(
            buf,
            b"{\"event\": 3, \"lifeline\": \"Sec\\\"urity\", \"ok\": \"true\"}\n"
        );
    }
}
