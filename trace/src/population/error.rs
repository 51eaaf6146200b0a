//! What can be wrong with a population trace line, and where.

use crate::json::Excerpt;
use crate::read::{TraceError, TraceErrorKind};
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
    /// The monitor refused the step: more agents than its capacity, or a
    /// number of agents other than the first step's.
    Refused(PopulationError),
}

impl PopulationErrorKind {
    /// The key the error is about, if any: the error is placed at its last
    /// occurrence before the point where decoding stopped.
    fn field(&self) -> Option<&str> {
        match self {
            PopulationErrorKind::UnknownKey { key } => Some(key),
            PopulationErrorKind::DuplicateKey { key } => Some(key),
            PopulationErrorKind::AgentsNotArray { .. } => Some("agents"),
            PopulationErrorKind::GlobalsNotObject { .. } => Some("globals"),
            PopulationErrorKind::UnknownAttribute { name, .. }
            | PopulationErrorKind::UnknownGlobal { name, .. } => Some(name),
            PopulationErrorKind::DuplicateAttribute { attribute, .. }
            | PopulationErrorKind::AttributeValue { attribute, .. } => Some(attribute),
            PopulationErrorKind::DuplicateGlobal { global }
            | PopulationErrorKind::GlobalValue { global, .. } => Some(global),
            _ => None,
        }
    }

    /// Whether the error is about the value after its key (rather than the key).
    fn is_about_value(&self) -> bool {
        matches!(
            self,
            PopulationErrorKind::AgentsNotArray { .. }
                | PopulationErrorKind::GlobalsNotObject { .. }
                | PopulationErrorKind::AttributeValue { .. }
                | PopulationErrorKind::GlobalValue { .. }
        )
    }

    /// Whether the error is about the line as a whole (placed at its start).
    fn is_about_line(&self) -> bool {
        matches!(
            self,
            PopulationErrorKind::NotObject { .. } | PopulationErrorKind::Refused(_)
        )
    }

    /// Whether the error is about something the line lacks (it has no column).
    pub(super) fn is_missing(&self) -> bool {
        matches!(
            self,
            PopulationErrorKind::MissingAgents | PopulationErrorKind::MissingGlobals { .. }
        )
    }

    /// The error about an attribute (`Some(agent)`) or a global (`None`)
    /// called `name` that the monitor trace decoder reported as `kind`
    /// (a wrong type or an unknown variant); other kinds are kept as they are.
    pub(super) fn from_value(kind: TraceErrorKind, agent: Option<usize>, name: &str) -> Self {
        let (expected, found) = match kind {
            TraceErrorKind::WrongType {
                expected, found, ..
            } => (expected, found),
            TraceErrorKind::UnknownVariant {
                enum_name,
                found,
                variants,
                ..
            } => (
                format!("a variant of enum `{enum_name}` (one of: {variants})"),
                format!("\"{}\"", Excerpt(&found)),
            ),
            other => return PopulationErrorKind::Line(other),
        };
        match agent {
            Some(agent) => PopulationErrorKind::AttributeValue {
                agent,
                attribute: name.to_string(),
                expected,
                found,
            },
            None => PopulationErrorKind::GlobalValue {
                global: name.to_string(),
                expected,
                found,
            },
        }
    }

    /// The byte offset of `line` an error of this kind points at, given that
    /// decoding stopped after `consumed` bytes: the key it is about (or that
    /// key's value), else the line's first non-blank byte for an error about
    /// the whole line, else the last byte consumed (for a missing attribute or
    /// global: the brace closing the object, which serde_json consumes before
    /// reporting the error).
    pub(super) fn locate(&self, line: &str, consumed: usize) -> usize {
        if let Some(field) = self.field() {
            let quoted = crate::json::string(field);
            let before = line.get(..consumed.min(line.len())).unwrap_or(line);
            if let Some(key_start) = before.rfind(&quoted) {
                if !self.is_about_value() {
                    return key_start;
                }
                let after_key = key_start + quoted.len();
                let rest = line.get(after_key..).unwrap_or("");
                let skipped = rest.len() - rest.trim_start_matches([' ', '\t', '\r', ':']).len();
                return after_key + skipped;
            }
        }
        if self.is_about_line() {
            return line.len() - line.trim_start().len();
        }
        consumed.saturating_sub(1)
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
            PopulationErrorKind::Refused(e @ PopulationError::OverCapacity { .. }) => write!(
                f,
                "{e}; raise it with `capacity N;` in the population block"
            ),
            PopulationErrorKind::Refused(e) => e.fmt(f),
        }
    }
}

/// A rejected population trace line: where, and why.
#[derive(Debug)]
pub struct PopulationTraceError {
    /// 1-based line number in the trace (blank lines count).
    pub line: usize,
    /// 1-based column in characters, when the error has a place within the line.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: PopulationErrorKind,
}

impl PopulationTraceError {
    /// The error as one rustc-style line: `error: FILE:LINE:COL: message`.
    pub fn render(&self, file: &str) -> String {
        format!("error: {file}:{self}")
    }
}

impl fmt::Display for PopulationTraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(col) => write!(f, "{}:{col}: {}", self.line, self.kind),
            None => write!(f, "{}: {}", self.line, self.kind),
        }
    }
}

impl std::error::Error for PopulationTraceError {}

impl From<TraceError> for PopulationTraceError {
    fn from(e: TraceError) -> Self {
        PopulationTraceError {
            line: e.line,
            column: e.column,
            kind: PopulationErrorKind::Line(e.kind),
        }
    }
}

/// A rejected line before its line number is known.
#[derive(Debug)]
pub struct PopulationLineError {
    /// 1-based column in characters, if the error has a place within the line.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: PopulationErrorKind,
}

impl PopulationLineError {
    /// The error, placed on 1-based line `line`.
    pub fn at_line(self, line: usize) -> PopulationTraceError {
        PopulationTraceError {
            line,
            column: self.column,
            kind: self.kind,
        }
    }
}
