//! Decoding one population trace line into a reused [`PopulationStep`].

use super::error::{PopulationErrorKind, PopulationLineError};
use super::schema::PopulationSchema;
use super::visit::{Key, LineSeed, Scratch};
use super::PopulationStep;
use crate::read::{line_error, placed, written_as_string, Decode, KeyedSeed};
use crate::InputType;
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::Value;
use serde::de::DeserializeSeed;

/// Decodes single population trace lines against a [`PopulationSchema`].
#[derive(Clone, Debug)]
pub struct PopulationDecoder {
    schema: PopulationSchema,
    scratch: Scratch,
    /// The global that is the steps' time, if any.
    time: Option<usize>,
    /// The last step's time, if the steps have one, and whether the line
    /// wrote it as a string.
    last_time: Option<(i64, bool)>,
}

impl Decode for PopulationDecoder {
    type Schema = PopulationSchema;
    type Out = PopulationStep;
    type Kind = PopulationErrorKind;

    /// A decoder for lines giving the agents and globals of `schema`.
    fn new(schema: PopulationSchema) -> Self {
        let time = schema
            .globals()
            .iter()
            .position(|g| g.ty == InputType::Time);
        PopulationDecoder {
            schema,
            scratch: Scratch::default(),
            time,
            last_time: None,
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
        self.check_time(line, step)?;
        Ok(true)
    }
}

impl PopulationDecoder {
    /// The last step's time, if the steps have one (microseconds since
    /// 1970, and whether the line wrote it as a string).
    pub fn last_time(&self) -> Option<(i64, bool)> {
        self.last_time
    }

    /// Refuses a step whose time (the schema's time global) is below the
    /// previous step's, at the value; else remembers it.
    fn check_time(&mut self, line: &str, step: &PopulationStep) -> Result<(), PopulationLineError> {
        let globals = self.schema.globals();
        let Some(t) = self.time else {
            return Ok(());
        };
        let Some(&Value::Int(time)) = step.globals.get(t) else {
            return Ok(());
        };
        let name = globals.get(t).map_or("", |g| g.name.as_str());
        let as_string = written_as_string(line, name);
        if let Some(previous) = self.last_time.filter(|&(last, _)| last > time) {
            let kind = PopulationErrorKind::TimeGoesBack {
                global: name.to_string(),
                time: (time, as_string),
                previous,
            };
            return Err(placed(line, kind, line.len()));
        }
        self.last_time = Some((time, as_string));
        Ok(())
    }
}
