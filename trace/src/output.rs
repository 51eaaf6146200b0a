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

/// Writes one verdict line per step and the final `end` line, remembering
/// whether any verdict written was `"false"`.
pub struct VerdictWriter<W: Write> {
    out: W,
    /// For each property, in declaration order, the bytes `, "name": "`.
    prefixes: Vec<Vec<u8>>,
    /// For each property, its count keys as JSON strings.
    count_keys: Vec<CountKeys>,
    /// Per property: whether it is past-time.
    past: Vec<bool>,
    /// Per property: the step lines that said `"false"`, and the first of them.
    false_steps: Vec<(u64, Option<u64>)>,
    saw_violation: bool,
}

impl<W: Write> VerdictWriter<W> {
    /// A writer for properties named `names` (in declaration order) onto `out`.
    ///
    /// `out` should be buffered: every line is written in several small pieces.
    pub fn new<S: AsRef<str>>(out: W, names: &[S]) -> Self {
        let prefixes = names
            .iter()
            .map(|name| {
                let mut prefix = String::from(", ");
                json::push_string(&mut prefix, name.as_ref());
                prefix.push_str(": \"");
                prefix.into_bytes()
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
                }
            })
            .collect();
        VerdictWriter {
            out,
            prefixes,
            count_keys,
            past: vec![false; names.len()],
            false_steps: vec![(0, None); names.len()],
            saw_violation: false,
        }
    }

    /// A writer of the verdict lines of `properties` onto `out`, auditing
    /// their past-time ones.
    pub fn for_properties(out: W, properties: &Properties) -> Self {
        VerdictWriter::new(out, properties.names()).auditing(properties.past())
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
        let past = self.past.iter().zip(&self.false_steps);
        for (verdict, (_, &(count, _))) in verdicts.iter_mut().zip(past).filter(|(_, (&p, _))| p) {
            *verdict = if count == 0 {
                Verdict::True
            } else {
                Verdict::False
            };
        }
    }

    /// Writes `{"step": STEP, "p": "v", ...}` and a newline.
    pub fn write_step(&mut self, step: u64, verdicts: &[Verdict]) -> io::Result<()> {
        self.out.write_all(b"{\"step\": ")?;
        let mut digits = [0u8; 20];
        self.out.write_all(decimal(step, &mut digits))?;
        for (audit, _) in self
            .false_steps
            .iter_mut()
            .zip(verdicts)
            .filter(|(_, v)| v.is_violation())
        {
            audit.0 = audit.0.saturating_add(1);
            audit.1.get_or_insert(step);
        }
        self.write_verdicts_from(0, verdicts)
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
        self.out.write_all(b"{\"end\": true")?;
        for (k, verdict) in verdicts.iter().enumerate() {
            self.write_verdict(k, *verdict)?;
            let Some(keys) = self.count_keys.get(k) else {
                continue;
            };
            let mut digits = [0u8; 20];
            if let Some(Some(c)) = counts.get(k) {
                write!(self.out, ", {}: ", keys.satisfactions)?;
                self.out.write_all(decimal(c.satisfactions, &mut digits))?;
                write!(self.out, ", {}: ", keys.violations)?;
                self.out.write_all(decimal(c.violations, &mut digits))?;
            }
            let (count, first) = self.false_steps.get(k).copied().unwrap_or_default();
            write!(self.out, ", {}: ", keys.false_steps)?;
            self.out.write_all(decimal(count, &mut digits))?;
            write!(self.out, ", {}: ", keys.first_false)?;
            match first {
                Some(step) => self.out.write_all(decimal(step, &mut digits))?,
                None => self.out.write_all(b"null")?,
            }
        }
        self.out.write_all(b"}\n")
    }

    /// Whether any verdict written so far was `"false"`.
    pub fn saw_violation(&self) -> bool {
        self.saw_violation
    }

    /// The underlying writer, for extra lines between verdict lines.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
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
        self.out.write_all(b"}\n")
    }

    /// Writes `, "p": "v"` for property `k` (nothing for a property beyond the names).
    fn write_verdict(&mut self, k: usize, verdict: Verdict) -> io::Result<()> {
        let Some(prefix) = self.prefixes.get(k) else {
            return Ok(());
        };
        self.saw_violation |= verdict.is_violation();
        self.out.write_all(prefix)?;
        self.out.write_all(verdict.as_str().as_bytes())?;
        self.out.write_all(b"\"")
    }
}

/// The end-line keys of one property's counts, quoted.
struct CountKeys {
    satisfactions: String,
    violations: String,
    false_steps: String,
    first_false: String,
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

#[cfg(test)]
mod tests {
    use super::{decimal, VerdictWriter};
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
    fn decimal_digits() {
        let mut buf = [0u8; 20];
        assert_eq!(decimal(0, &mut buf), b"0");
        assert_eq!(decimal(907, &mut buf), b"907");
        assert_eq!(decimal(u64::MAX, &mut buf), b"18446744073709551615");
    }
}
