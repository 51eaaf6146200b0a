//! The verdict lines `hindsight check` and standalone monitors write (JSON Lines, byte-exact per the
//! language design, section 6):
//!
//! ```text
//! {"step": 0, "alarm_ok": "true", "responds": "?"}
//! {"end": true, "alarm_ok": "false", "responds": "false"}
//! ```

use crate::json;
use hindsight_runtime::{ResetCounts, Verdict};
use std::io::{self, Write};

/// Writes one verdict line per step and the final `end` line, remembering
/// whether any verdict written was `"false"`.
pub struct VerdictWriter<W: Write> {
    out: W,
    /// For each property, in declaration order, the bytes `, "name": "`.
    prefixes: Vec<Vec<u8>>,
    /// For each property, its count keys as JSON strings.
    count_keys: Vec<CountKeys>,
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
            .map(|name| CountKeys {
                satisfactions: json::string(&format!("{}.satisfactions", name.as_ref())),
                violations: json::string(&format!("{}.violations", name.as_ref())),
            })
            .collect();
        VerdictWriter {
            out,
            prefixes,
            count_keys,
            saw_violation: false,
        }
    }

    /// Writes `{"step": STEP, "p": "v", ...}` and a newline.
    pub fn write_step(&mut self, step: u64, verdicts: &[Verdict]) -> io::Result<()> {
        self.out.write_all(b"{\"step\": ")?;
        let mut digits = [0u8; 20];
        self.out.write_all(decimal(step, &mut digits))?;
        self.write_verdicts_from(0, verdicts)
    }

    /// Writes the final `{"end": true, "p": "v", ...}` line; a property with
    /// `Some` counts (a `with reset` one) is followed by
    /// `"p.satisfactions": N, "p.violations": M`.
    pub fn write_end(
        &mut self,
        verdicts: &[Verdict],
        counts: &[Option<ResetCounts>],
    ) -> io::Result<()> {
        self.out.write_all(b"{\"end\": true")?;
        for (k, verdict) in verdicts.iter().enumerate() {
            self.write_verdict(k, *verdict)?;
            if let (Some(Some(c)), Some(keys)) = (counts.get(k), self.count_keys.get(k)) {
                let mut digits = [0u8; 20];
                write!(self.out, ", {}: ", keys.satisfactions)?;
                self.out.write_all(decimal(c.satisfactions, &mut digits))?;
                write!(self.out, ", {}: ", keys.violations)?;
                self.out.write_all(decimal(c.violations, &mut digits))?;
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

/// The end-line keys of one property's reset counts, quoted.
struct CountKeys {
    satisfactions: String,
    violations: String,
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
             {\"end\": true, \"alarm_ok\": \"true\", \"responds\": \"true\"}\n"
        );
        assert!(!violated);
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
            "{\"end\": true, \"alarm_ok\": \"true\", \"responds\": \"false\"}\n"
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
            "{\"end\": true, \"alarm_ok\": \"true\", \"responds\": \"?\", \
             \"responds.satisfactions\": 2, \"responds.violations\": 13}\n"
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
