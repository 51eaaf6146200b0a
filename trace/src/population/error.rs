//! What can be wrong with a population trace line, and where.

use crate::json::Excerpt;
use crate::read::{LineError, Placement, TraceError, TraceErrorKind};
use hindsight_runtime::population::PopulationError;
use std::fmt;

/// Why a population trace line was rejected.
#[derive(Debug)]
pub enum PopulationErrorKind {
    /// A problem population lines share with monitor traces: reading failed,
    /// invalid UTF-8, malformed JSON.
    Line(TraceErrorKind),
    /// The line is valid JSON but not an object.
    NotObject {
        /// A description of the value found.
        found: String,
    },
    /// A key other than `agents` and `globals`.
    UnknownKey {
        /// The key.
        key: String,
    },
    /// `agents` or `globals` given twice.
    DuplicateKey {
        /// The key.
        key: &'static str,
    },
    /// A line without `agents`.
    MissingAgents,
    /// `agents` is not an array.
    AgentsNotArray {
        /// A description of the value found.
        found: String,
    },
    /// An element of `agents` is not an object.
    AgentNotObject {
        /// The agent's 0-based index in `agents`.
        agent: usize,
        /// A description of the value found.
        found: String,
    },
    /// An agent lacks an attribute.
    MissingAttribute {
        /// The agent's index.
        agent: usize,
        /// The attribute.
        attribute: String,
    },
    /// An agent has a key that is no attribute of the population.
    UnknownAttribute {
        /// The agent's index.
        agent: usize,
        /// The key.
        name: String,
        /// The attributes, comma-separated.
        known: String,
    },
    /// An agent gives an attribute twice.
    DuplicateAttribute {
        /// The agent's index.
        agent: usize,
        /// The attribute.
        attribute: String,
    },
    /// An attribute's value has the wrong type or names no variant of its enum.
    AttributeValue {
        /// The agent's index.
        agent: usize,
        /// The attribute.
        attribute: String,
        /// What it expects, e.g. `int`.
        expected: String,
        /// The value found, e.g. `string "x"`.
        found: String,
    },
    /// A line without `globals`, but the population declares globals.
    MissingGlobals {
        /// The globals, comma-separated.
        known: String,
    },
    /// `globals` is not an object.
    GlobalsNotObject {
        /// A description of the value found.
        found: String,
    },
    /// `globals` lacks a global.
    MissingGlobal {
        /// The global.
        global: String,
    },
    /// `globals` has a key that is no global of the population.
    UnknownGlobal {
        /// The key.
        name: String,
        /// The globals, comma-separated.
        known: String,
    },
    /// `globals` gives a global twice.
    DuplicateGlobal {
        /// The global.
        global: String,
    },
    /// A global's value has the wrong type or names no variant of its enum.
    GlobalValue {
        /// The global.
        global: String,
        /// What it expects.
        expected: String,
        /// The value found.
        found: String,
    },
    /// The steps' time (a global) is before the previous step's.
    TimeGoesBack {
        /// The global.
        global: String,
        /// This step's time, microseconds, and whether written as a string.
        time: (i64, bool),
        /// The previous step's time, likewise.
        previous: (i64, bool),
    },
    /// The monitor refused the step: more agents than its capacity, or a
    /// number of agents other than the first step's.
    Refused(PopulationError),
}

impl From<TraceErrorKind> for PopulationErrorKind {
    fn from(kind: TraceErrorKind) -> Self {
        PopulationErrorKind::Line(kind)
    }
}

impl Placement for PopulationErrorKind {
    fn field(&self) -> Option<&str> {
        match self {
            PopulationErrorKind::Line(kind) => kind.field(),
            PopulationErrorKind::UnknownKey { key } => Some(key),
            PopulationErrorKind::DuplicateKey { key } => Some(key),
            PopulationErrorKind::AgentsNotArray { .. } => Some("agents"),
            PopulationErrorKind::GlobalsNotObject { .. } => Some("globals"),
            PopulationErrorKind::UnknownAttribute { name, .. }
            | PopulationErrorKind::UnknownGlobal { name, .. } => Some(name),
            PopulationErrorKind::DuplicateAttribute { attribute, .. }
            | PopulationErrorKind::AttributeValue { attribute, .. } => Some(attribute),
            PopulationErrorKind::DuplicateGlobal { global }
            | PopulationErrorKind::GlobalValue { global, .. }
            | PopulationErrorKind::TimeGoesBack { global, .. } => Some(global),
            _ => None,
        }
    }

    fn is_about_value(&self) -> bool {
        match self {
            PopulationErrorKind::Line(kind) => kind.is_about_value(),
            kind => matches!(
                kind,
                PopulationErrorKind::AgentsNotArray { .. }
                    | PopulationErrorKind::GlobalsNotObject { .. }
                    | PopulationErrorKind::AttributeValue { .. }
                    | PopulationErrorKind::GlobalValue { .. }
                    | PopulationErrorKind::TimeGoesBack { .. }
            ),
        }
    }

    fn is_about_line(&self) -> bool {
        match self {
            PopulationErrorKind::Line(kind) => kind.is_about_line(),
            kind => matches!(
                kind,
                PopulationErrorKind::NotObject { .. } | PopulationErrorKind::Refused(_)
            ),
        }
    }

    fn is_missing(&self) -> bool {
        matches!(
            self,
            PopulationErrorKind::MissingAgents | PopulationErrorKind::MissingGlobals { .. }
        )
    }
}

impl fmt::Display for PopulationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PopulationErrorKind::Line(kind) => kind.fmt(f),
            PopulationErrorKind::NotObject { found } => write!(
                f,
                "a population trace line must be a JSON object \
                 {{\"agents\": [...], \"globals\": {{...}}}}, found {found}"
            ),
            PopulationErrorKind::UnknownKey { key } => write!(
                f,
                "unknown key `{}` (a population trace line has: agents, globals)",
                Excerpt(key)
            ),
            PopulationErrorKind::DuplicateKey { key } => {
                write!(f, "key `{}` is given twice", Excerpt(key))
            }
            PopulationErrorKind::MissingAgents => f.write_str(
                "missing key `agents` (an array with one object per agent giving its attributes)",
            ),
            PopulationErrorKind::AgentsNotArray { found } => write!(
                f,
                "`agents` expects an array with one object per agent, found {found}"
            ),
            PopulationErrorKind::AgentNotObject { agent, found } => write!(
                f,
                "agent {agent}: expects an object giving every attribute, found {found}"
            ),
            PopulationErrorKind::MissingAttribute { agent, attribute } => {
                write!(f, "agent {agent}: missing attribute `{attribute}`")
            }
            PopulationErrorKind::UnknownAttribute { agent, name, known } => write!(
                f,
                "agent {agent}: unknown attribute `{}` (the attributes are: {known})",
                Excerpt(name)
            ),
            PopulationErrorKind::DuplicateAttribute { agent, attribute } => {
                write!(f, "agent {agent}: attribute `{attribute}` is given twice")
            }
            PopulationErrorKind::AttributeValue {
                agent,
                attribute,
                expected,
                found,
            } => write!(
                f,
                "agent {agent}: attribute `{attribute}` expects {expected}, found {found}"
            ),
            PopulationErrorKind::MissingGlobals { known } => write!(
                f,
                "missing key `globals` (an object giving the globals: {known})"
            ),
            PopulationErrorKind::GlobalsNotObject { found } => write!(
                f,
                "`globals` expects an object giving every global, found {found}"
            ),
            PopulationErrorKind::MissingGlobal { global } => {
                write!(f, "missing global `{global}`")
            }
            PopulationErrorKind::UnknownGlobal { name, known } => {
                write!(
                    f,
                    "unknown global `{}` (the globals are: {known})",
                    Excerpt(name)
                )
            }
            PopulationErrorKind::DuplicateGlobal { global } => {
                write!(f, "global `{global}` is given twice")
            }
            PopulationErrorKind::GlobalValue {
                global,
                expected,
                found,
            } => write!(f, "global `{global}` expects {expected}, found {found}"),
            PopulationErrorKind::TimeGoesBack {
                global,
                time,
                previous,
            } => write!(
                f,
                "time `{global}` goes back: {} is before the previous step's {}",
                crate::read::time_text(*time, previous.1),
                crate::read::time_text(*previous, time.1),
            ),
            PopulationErrorKind::Refused(e @ PopulationError::OverCapacity { .. }) => write!(
                f,
                "{e}; raise it with `capacity N;` in the population block"
            ),
            PopulationErrorKind::Refused(e) => e.fmt(f),
        }
    }
}

/// A rejected population trace line: where, and why.
pub type PopulationTraceError = TraceError<PopulationErrorKind>;

/// A rejected population trace line before its line number is known.
pub type PopulationLineError = LineError<PopulationErrorKind>;
