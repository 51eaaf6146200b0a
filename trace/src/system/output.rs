//! The verdict lines of a system (JSON Lines, byte-exact per the language
//! design, section 6): one per `choice` event of a lifeline that owns guards,
//! giving its guards in declaration order. A system with protocols also
//! gets a line per message event a protocol constrains, giving every
//! protocol's verdict, and an end line with whether each may end there. A
//! summary (`--summary`) gives, per guard, how many choices found it true,
//! false and undecided, and per protocol its end verdict and first
//! violation.
//!
//! ```text
//! {"event": 7, "lifeline": "Committer", "may_merge": "true"}
//! {"event": 8, "lifeline": "Committer", "review": "?"}
//! {"end": true, "review": "true"}
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
    /// Where the protocol verdicts start among the writer's names (after
    /// every guard), and how many there are.
    first_protocol: usize,
    protocols: usize,
    /// The protocol verdicts' names.
    protocol_names: Vec<String>,
    /// The last protocol verdicts written (for [`Output::Changes`]).
    last_protocols: Vec<Verdict>,
    /// Per protocol: the first event it was false at.
    first_false: Vec<Option<u64>>,
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
        let first_protocol = guard_names.len();
        let protocols = schema.protocols().len();
        let mut names: Vec<&str> = guard_names.clone();
        names.extend(schema.protocols().iter().map(String::as_str));
        SystemVerdictWriter {
            verdicts: VerdictWriter::new(out, &names),
            counts: vec![[0; 3]; guard_names.len()],
            guard_names: guard_names.iter().map(|g| g.to_string()).collect(),
            lifelines,
            choices: 0,
            first_protocol,
            protocols,
            protocol_names: schema.protocols().to_vec(),
            last_protocols: vec![Verdict::Unknown; protocols],
            first_false: vec![None; protocols],
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

    /// Writes `{"event": EVENT, "lifeline": "L", "p": "v", ...}` and a
    /// newline for a message event of `lifeline` a protocol constrains,
    /// with every protocol verdict; with [`Output::Changes`] only if one
    /// differs from the last line's; with [`Output::Summary`], nothing (the
    /// first violations are kept).
    pub fn write_protocols(
        &mut self,
        event: u64,
        lifeline: usize,
        verdicts: &[Verdict],
    ) -> io::Result<()> {
        let own = verdicts.get(..self.protocols).unwrap_or(verdicts);
        for (first, v) in self.first_false.iter_mut().zip(own) {
            if *v == Verdict::False && first.is_none() {
                *first = Some(event);
            }
        }
        match self.verdicts.output() {
            Output::Steps => {}
            Output::Summary => return Ok(()),
            Output::Changes => {
                if self.last_protocols.as_slice() == own {
                    return Ok(());
                }
            }
        }
        self.last_protocols.clear();
        self.last_protocols.extend_from_slice(own);
        let Some(head) = self.lifelines.get(lifeline) else {
            return Ok(());
        };
        self.verdicts.open_line()?;
        self.verdicts.put(b"\"event\": ");
        let mut digits = [0u8; 20];
        self.verdicts.put(decimal(event, &mut digits));
        self.verdicts.put(&head.lifeline);
        self.verdicts.write_verdicts_from(self.first_protocol, own)
    }

    /// The end line of a system with protocols: `{"end": true, "p": "v",
    /// ...}`, whether each may end here (nothing without protocols, and
    /// with [`Output::Summary`]: the summary says it).
    pub fn write_protocol_end(&mut self, ends: &[Verdict]) -> io::Result<()> {
        if self.protocols == 0 || self.verdicts.output() == Output::Summary {
            return Ok(());
        }
        self.verdicts.open_line()?;
        self.verdicts.put(b"\"end\": true");
        let own = ends.get(..self.protocols).unwrap_or(ends);
        self.verdicts.write_verdicts_from(self.first_protocol, own)
    }

    /// With [`Output::Summary`], writes the summary line of a trace of
    /// `events` events (see the module documentation), the protocols ending
    /// with `ends`.
    pub fn write_summary(&mut self, events: u64, ends: &[Verdict]) -> io::Result<()> {
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
        let protocols = self.protocol_names.iter().zip(ends).zip(&self.first_false);
        for ((name, end), first) in protocols {
            line.push_str(", ");
            json::push_string(&mut line, name);
            line.push_str(&format!(": \"{}\", ", end.as_str()));
            json::push_string(&mut line, &format!("{name}.first_false"));
            match first {
                Some(event) => line.push_str(&format!(": {event}")),
                None => line.push_str(": null"),
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
        self.last_protocols.fill(Verdict::Unknown);
        self.first_false.fill(None);
        for head in &mut self.lifelines {
            head.last.fill(Verdict::Unknown);
        }
    }

    /// Which lines it writes.
    pub fn output(&self) -> Output {
        self.verdicts.output()
    }

    /// With [`Output::Summary`], writes the line of session `key` (as
    /// JSON), which an error stopped (see
    /// [`VerdictWriter::write_failure`]).
    pub fn write_failure(&mut self, key: Option<&str>, message: &str) -> io::Result<()> {
        self.verdicts.write_failure(key, message)
    }

    /// Where an observer's lines go: the output, or nowhere with summaries.
    pub fn observer_out(&mut self) -> &mut dyn Write {
        self.verdicts.observer_out()
    }

    /// The underlying writer, for extra lines between verdict lines.
    pub fn get_mut(&mut self) -> &mut W {
        self.verdicts.get_mut()
    }

    /// Whether a protocol was violated in the trace: unlike a false guard
    /// (a decision), a violation `--fail-on-violation` exits 1 for.
    pub fn saw_violation(&self) -> bool {
        self.first_false.iter().any(Option::is_some)
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
        // A false guard is a decision, not a violation.
        assert!(!w.saw_violation());
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
