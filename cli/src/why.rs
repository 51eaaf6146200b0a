//! The explanation lines of `hindsight check --explain`, written after the
//! verdict lines by a [`hindsight_trace::Observer`] of the interpreter (see
//! [`hindsight_compiler::interp::explain`] for when a line appears and what it says):
//!
//! ```text
//! {"explain": "responds", "step": 3, "verdict": "?", "why": "still required: F grant"}
//! {"explain": "responds", "end": true, "verdict": "false", "why": "the trace ended with F grant still required"}
//! ```

use hindsight_compiler::interp::explain::{Explainer, Explanation};
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::Verdict;
use hindsight_trace::json;
use hindsight_trace::Observer;
use std::io::{self, Write};

/// Writes one JSON line per explanation of an [`Explainer`].
pub struct ExplainLines<'t> {
    explainer: Explainer<'t>,
    /// Per property: its name as a JSON string.
    names: Vec<String>,
}

impl<'t> ExplainLines<'t> {
    /// Explanation lines for an interpreter of `table`.
    pub fn new(table: &'t Table) -> Self {
        ExplainLines {
            explainer: Explainer::new(table),
            names: table
                .outputs
                .iter()
                .map(|o| json::string(&o.name))
                .collect(),
        }
    }

    /// `{"explain": NAME, WHEN, "verdict": V, "why": W}` and a newline.
    fn write(&self, out: &mut dyn Write, when: &str, e: &Explanation) -> io::Result<()> {
        let name = self.names.get(e.output).map_or("\"\"", String::as_str);
        writeln!(
            out,
            "{{\"explain\": {name}, {when}, \"verdict\": \"{}\", \"why\": {}}}",
            e.verdict.as_str(),
            json::string(&e.why)
        )
    }
}

impl<'t> Observer<Interpreter<'t>> for ExplainLines<'t> {
    fn after_step(
        &mut self,
        monitor: &Interpreter<'t>,
        step: u64,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let when = format!("\"step\": {step}");
        for e in self.explainer.step(monitor, step, verdicts) {
            self.write(out, &when, &e)?;
        }
        Ok(())
    }

    fn after_end(
        &mut self,
        monitor: &Interpreter<'t>,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for e in self.explainer.end(monitor, verdicts) {
            self.write(out, "\"end\": true", &e)?;
        }
        Ok(())
    }
}
