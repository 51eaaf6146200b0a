//! What a system trace may say and what its verdict lines report: the
//! lifelines, their store variables and the guards each one owns.

use crate::read::{comma_list, InputSchema};

/// One lifeline of a system.
#[derive(Clone, Debug, PartialEq)]
pub struct LifelineSchema {
    /// Its name, as trace lines give it in `lifeline` and `to`.
    pub name: String,
    /// Its store variables in declaration order; a change `(var, value)`
    /// indexes this list.
    pub vars: Vec<InputSchema>,
    /// The names of the guards it owns, in declaration order: the verdicts of
    /// its `choice` events.
    pub guards: Vec<String>,
}

/// The lifelines of a system, in declaration order; lifeline indices in
/// decoded events index this list.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemSchema {
    lifelines: Vec<LifelineSchema>,
    /// The names of the protocol verdicts message events give.
    protocols: Vec<String>,
}

impl SystemSchema {
    /// A schema of `lifelines`, in declaration order (and no protocols).
    pub fn new(lifelines: Vec<LifelineSchema>) -> Self {
        SystemSchema {
            lifelines,
            protocols: Vec::new(),
        }
    }

    /// The same schema, message events giving the protocol verdicts named
    /// `protocols` (see `SystemMonitor::on_message`).
    pub fn with_protocols(mut self, protocols: Vec<String>) -> Self {
        self.protocols = protocols;
        self
    }

    /// The names of the protocol verdicts, in the order the monitor writes
    /// them.
    pub fn protocols(&self) -> &[String] {
        &self.protocols
    }

    /// The schema a generated system describes itself by (its `SCHEMA`).
    pub fn from_static(schema: &hindsight_runtime::system::SystemSchema) -> Self {
        let lifelines = schema
            .lifelines
            .iter()
            .map(|l| LifelineSchema {
                name: l.name.to_string(),
                vars: l
                    .variables
                    .iter()
                    .map(|v| {
                        let mut var = InputSchema::from_decl(v);
                        if schema.time == Some(v.name) {
                            var.ty = crate::InputType::Time;
                        }
                        var
                    })
                    .collect(),
                guards: l.guards.iter().map(|g| g.to_string()).collect(),
            })
            .collect();
        SystemSchema::new(lifelines)
            .with_protocols(schema.protocols.iter().map(|p| p.to_string()).collect())
    }

    /// The lifelines in declaration order.
    pub fn lifelines(&self) -> &[LifelineSchema] {
        &self.lifelines
    }

    /// The index of the lifeline called `name`.
    pub(super) fn lookup(&self, name: &str) -> Option<usize> {
        self.lifelines.iter().position(|l| l.name == name)
    }

    /// The lifeline names, comma-separated, for error messages.
    pub(super) fn names(&self) -> String {
        comma_list(self.lifelines.iter().map(|l| l.name.as_str()))
    }

    /// The name of lifeline `index` (empty for an index out of range).
    pub(super) fn name(&self, index: usize) -> &str {
        self.lifelines.get(index).map_or("", |l| l.name.as_str())
    }
}
