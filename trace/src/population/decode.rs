//! Decoding one population trace line into a reused [`PopulationStep`].

use super::error::{PopulationErrorKind, PopulationLineError};
use super::schema::PopulationSchema;
use super::visit::{Key, LineSeed, Scratch};
use super::PopulationStep;
use crate::read::{line_error, placed, Decode, KeyedSeed};
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::Value;
use serde::de::DeserializeSeed;

/// Decodes single population trace lines against a [`PopulationSchema`].
#[derive(Clone, Debug)]
pub struct PopulationDecoder {
    schema: PopulationSchema,
    scratch: Scratch,
}

impl Decode for PopulationDecoder {
    type Schema = PopulationSchema;
    type Out = PopulationStep;
    type Kind = PopulationErrorKind;

    /// A decoder for lines giving the agents and globals of `schema`.
    fn new(schema: PopulationSchema) -> Self {
        PopulationDecoder {
            schema,
            scratch: Scratch::default(),
        }
    }

    fn schema(&self) -> &PopulationSchema {
        &self.schema
    }

    /// Decodes one non-blank line (without its newline) into `step`, reusing
    /// its buffers: after the first lines, decoding allocates nothing (but
    /// error messages).
    ///
    /// A line listing more agents than the schema's capacity is rejected (after
    /// every agent was checked, so the message can say how many there are)
    /// without storing the agents beyond the capacity.
    fn decode(
        &mut self,
        line: &str,
        step: &mut PopulationStep,
    ) -> Result<bool, PopulationLineError> {
        step.agents = 0;
        step.attributes.clear();
        step.globals.clear();
        step.globals
            .resize(self.schema.globals().len(), Value::Bool(false));
        let mut problem = None;
        let mut de = serde_json::Deserializer::from_str(line);
        let seed = KeyedSeed(LineSeed {
            schema: &self.schema,
            step,
            scratch: &mut self.scratch,
            problem: &mut problem,
        });
        let given = seed
            .deserialize(&mut de)
            .and_then(|given| de.end().map(|()| given))
            .map_err(|err| line_error(line, &err, problem))?;
        if !given.has(Key::Agents) {
            return Err(placed(line, PopulationErrorKind::MissingAgents, 0));
        }
        if !given.has(Key::Globals) && !self.schema.globals().is_empty() {
            let known = self.schema.global_names();
            let kind = PopulationErrorKind::MissingGlobals { known };
            return Err(placed(line, kind, 0));
        }
        if step.agents > self.schema.capacity() {
            let kind = PopulationErrorKind::Refused(PopulationError::OverCapacity {
                agents: step.agents,
                capacity: self.schema.capacity(),
            });
            return Err(placed(line, kind, line.len()));
        }
        Ok(true)
    }
}
