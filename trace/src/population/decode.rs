//! Decoding one population trace line into a reused [`PopulationStep`].

use super::error::{PopulationErrorKind, PopulationLineError};
use super::schema::PopulationSchema;
use super::visit::{Given, LineSeed, Scratch};
use super::PopulationStep;
use crate::read::{char_column, closing_column, line_error};
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::Value;
use serde::de::DeserializeSeed;

/// Decodes single population trace lines against a [`PopulationSchema`].
#[derive(Clone, Debug)]
pub struct PopulationDecoder {
    schema: PopulationSchema,
    scratch: Scratch,
}

impl PopulationDecoder {
    /// A decoder for lines giving the agents and globals of `schema`.
    pub fn new(schema: PopulationSchema) -> Self {
        PopulationDecoder {
            schema,
            scratch: Scratch::default(),
        }
    }

    /// The schema lines are decoded against.
    pub fn schema(&self) -> &PopulationSchema {
        &self.schema
    }

    /// Decodes one non-blank line (without its newline) into `step`, reusing
    /// its buffers: after the first lines, decoding allocates nothing (but
    /// error messages).
    ///
    /// A line listing more agents than the schema's capacity is rejected (after
    /// every agent was checked, so the message can say how many there are)
    /// without storing the agents beyond the capacity.
    pub fn decode(
        &mut self,
        line: &str,
        step: &mut PopulationStep,
    ) -> Result<(), PopulationLineError> {
        step.agents = 0;
        step.attributes.clear();
        step.globals.clear();
        step.globals
            .resize(self.schema.globals().len(), Value::Bool(false));
        let mut given = Given::default();
        let mut problem = None;
        let mut de = serde_json::Deserializer::from_str(line);
        let seed = LineSeed {
            schema: &self.schema,
            step,
            scratch: &mut self.scratch,
            given: &mut given,
            problem: &mut problem,
        };
        let decoded = seed.deserialize(&mut de).and_then(|()| de.end());
        if let Err(err) = decoded {
            return Err(match problem {
                Some(kind) => placed(line, kind, err.column()),
                None => {
                    let e = line_error(line, &err, None);
                    PopulationLineError {
                        column: e.column,
                        kind: PopulationErrorKind::Line(e.kind),
                    }
                }
            });
        }
        if !given.agents {
            return Err(missing(line, PopulationErrorKind::MissingAgents));
        }
        if !given.globals && !self.schema.globals().is_empty() {
            return Err(missing(
                line,
                PopulationErrorKind::MissingGlobals {
                    known: self.schema.global_names(),
                },
            ));
        }
        if step.agents > self.schema.capacity() {
            let kind = PopulationErrorKind::Refused(PopulationError::OverCapacity {
                agents: step.agents,
                capacity: self.schema.capacity(),
            });
            return Err(placed(line, kind, line.len()));
        }
        Ok(())
    }
}

/// `kind`, placed in `line` given that decoding stopped after `consumed` bytes.
pub(super) fn placed(
    line: &str,
    kind: PopulationErrorKind,
    consumed: usize,
) -> PopulationLineError {
    if kind.is_missing() {
        return missing(line, kind);
    }
    PopulationLineError {
        column: Some(char_column(line, kind.locate(line, consumed))),
        kind,
    }
}

/// An error about something the line lacks, placed at the brace closing it.
fn missing(line: &str, kind: PopulationErrorKind) -> PopulationLineError {
    PopulationLineError {
        column: Some(closing_column(line)),
        kind,
    }
}
