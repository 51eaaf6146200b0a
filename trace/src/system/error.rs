//! What can be wrong with a system trace line: what all trace forms share
//! (JSON syntax, UTF-8, reading) wrapped, and what only system lines can get
//! wrong; placed and rendered like any trace error.

use crate::json::Excerpt;
use crate::read::{Placement, TraceErrorKind};
use std::fmt;

/// Why a system trace line was rejected.
#[derive(Debug)]
pub enum SystemErrorKind {
    /// A problem system lines share with monitor traces: reading failed,
    /// invalid UTF-8, malformed JSON.
    Line(TraceErrorKind),
    /// The line is valid JSON but not an object.
    NotObject {
        /// A description of the value found.
        found: String,
    },
    /// A key other than `lifeline`, `kind`, `to`, `msg` and `store`.
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A key given twice.
    DuplicateKey {
        /// The key.
        key: &'static str,
    },
    /// A line without `lifeline` or `kind`.
    MissingKey {
        /// The key.
        key: &'static str,
    },
    /// A key whose value must be a string has another value.
    NotString {
        /// The key.
        key: &'static str,
        /// A description of the value found.
        found: String,
    },
    /// `lifeline` names no lifeline of the system.
    UnknownLifeline {
        /// The name.
        name: String,
        /// The system's lifelines, comma-separated.
        known: String,
    },
    /// `to` names no lifeline of the system.
    SendToUnknown {
        /// The name.
        name: String,
        /// The system's lifelines, comma-separated.
        known: String,
    },
    /// `kind` is not one of the four event kinds.
    UnknownKind {
        /// The string found.
        found: String,
    },
    /// A send or receive lacks a key it needs (`to`, `msg`).
    KindNeeds {
        /// The event kind.
        kind: &'static str,
        /// The missing key.
        key: &'static str,
    },
    /// A key that the line's event kind does not take (`to` on a receive, ...).
    KeyNotForKind {
        /// The key.
        key: &'static str,
        /// The event kind.
        kind: &'static str,
    },
    /// `store` is not an object.
    StoreNotObject {
        /// A description of the value found.
        found: String,
    },
    /// `store` names a variable the lifeline does not have.
    UnknownVariable {
        /// The lifeline.
        lifeline: String,
        /// The name.
        name: String,
        /// The lifeline's variables, comma-separated.
        known: String,
    },
    /// `store` gives a variable twice.
    DuplicateVariable {
        /// The variable.
        var: String,
    },
    /// A store value has the wrong type, or names no variant of the variable's enum.
    VariableValue {
        /// The lifeline.
        lifeline: String,
        /// The variable.
        var: String,
        /// What it expects, e.g. `int`.
        expected: String,
        /// The value found, e.g. `string "x"`.
        found: String,
    },
    /// An event's time is before its lifeline's previous event's.
    TimeGoesBack {
        /// The lifeline.
        lifeline: String,
        /// The time variable.
        var: String,
        /// This event's time, microseconds, and whether written as a string.
        time: (i64, bool),
        /// The lifeline's previous time, likewise.
        previous: (i64, bool),
    },
    /// A lifeline's first event gives no time.
    NoTimeYet {
        /// The lifeline.
        lifeline: String,
        /// The time variable.
        var: String,
    },
    /// A send of a message id that is still in transit.
    MessageInTransit {
        /// The message id.
        msg: String,
    },
    /// A send while as many messages as the limit are in transit.
    TooManyInTransit {
        /// The limit (`--max-in-transit`).
        limit: usize,
    },
    /// A receive of a message that is not in transit.
    MessageNotInTransit {
        /// The message id.
        msg: String,
    },
    /// A receive on another lifeline than the message was sent to.
    WrongReceiver {
        /// The message id.
        msg: String,
        /// The lifeline it was sent to.
        to: String,
        /// The lifeline that received it.
        by: String,
    },
    /// The monitor rejected the stamp a received message carries.
    StampRejected {
        /// The message id.
        msg: String,
        /// The monitor's reason.
        reason: String,
    },
    /// A receipt's label differs from its send's.
    LabelMismatch {
        /// The message id.
        msg: String,
        /// The send's label.
        sent: String,
        /// The receipt's.
        received: String,
    },
    /// The monitor refused the event (e.g. its own clock component is saturated).
    EventRefused {
        /// The monitor's reason.
        reason: String,
    },
}

impl From<TraceErrorKind> for SystemErrorKind {
    fn from(kind: TraceErrorKind) -> Self {
        SystemErrorKind::Line(kind)
    }
}

impl Placement for SystemErrorKind {
    fn field(&self) -> Option<&str> {
        match self {
            SystemErrorKind::Line(kind) => kind.field(),
            SystemErrorKind::UnknownKey { key } => Some(key),
            SystemErrorKind::DuplicateKey { key }
            | SystemErrorKind::NotString { key, .. }
            | SystemErrorKind::KeyNotForKind { key, .. } => Some(key),
            SystemErrorKind::UnknownLifeline { .. } => Some("lifeline"),
            SystemErrorKind::SendToUnknown { .. } => Some("to"),
            SystemErrorKind::UnknownKind { .. } => Some("kind"),
            SystemErrorKind::StoreNotObject { .. } => Some("store"),
            SystemErrorKind::UnknownVariable { name, .. } => Some(name),
            SystemErrorKind::DuplicateVariable { var }
            | SystemErrorKind::VariableValue { var, .. }
            | SystemErrorKind::TimeGoesBack { var, .. } => Some(var),
            SystemErrorKind::MessageInTransit { .. }
            | SystemErrorKind::TooManyInTransit { .. }
            | SystemErrorKind::MessageNotInTransit { .. }
            | SystemErrorKind::WrongReceiver { .. }
            | SystemErrorKind::StampRejected { .. } => Some("msg"),
            SystemErrorKind::LabelMismatch { .. } => Some("label"),
            SystemErrorKind::EventRefused { .. } | SystemErrorKind::NoTimeYet { .. } => None,
            SystemErrorKind::NotObject { .. }
            | SystemErrorKind::MissingKey { .. }
            | SystemErrorKind::KindNeeds { .. } => None,
        }
    }

    fn is_about_line(&self) -> bool {
        match self {
            SystemErrorKind::Line(kind) => kind.is_about_line(),
            kind => matches!(
                kind,
                SystemErrorKind::NotObject { .. } | SystemErrorKind::EventRefused { .. }
            ),
        }
    }

    fn is_about_value(&self) -> bool {
        match self {
            SystemErrorKind::Line(kind) => kind.is_about_value(),
            kind => !matches!(
                kind,
                SystemErrorKind::UnknownKey { .. }
                    | SystemErrorKind::DuplicateKey { .. }
                    | SystemErrorKind::KeyNotForKind { .. }
                    | SystemErrorKind::UnknownVariable { .. }
                    | SystemErrorKind::DuplicateVariable { .. }
            ),
        }
    }

    fn is_missing(&self) -> bool {
        matches!(
            self,
            SystemErrorKind::MissingKey { .. }
                | SystemErrorKind::KindNeeds { .. }
                | SystemErrorKind::NoTimeYet { .. }
        )
    }
}

impl fmt::Display for SystemErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SystemErrorKind::Line(kind) => kind.fmt(f),
            SystemErrorKind::NotObject { found } => {
                write!(
                    f,
                    "a system trace line must be a JSON object, found {found}"
                )
            }
            SystemErrorKind::UnknownKey { key } => write!(
                f,
                "unknown key `{}` (a system trace line has: lifeline, kind, to, msg, store)",
                Excerpt(key)
            ),
            SystemErrorKind::DuplicateKey { key } => {
                write!(f, "key `{}` is given twice", Excerpt(key))
            }
            SystemErrorKind::MissingKey { key } => write!(f, "missing key `{key}`"),
            SystemErrorKind::NotString { key, found } => {
                write!(f, "`{key}` expects a string, found {found}")
            }
            SystemErrorKind::UnknownLifeline { name, known } => write!(
                f,
                "undeclared lifeline `{}` (the lifelines are: {known})",
                Excerpt(name)
            ),
            SystemErrorKind::SendToUnknown { name, known } => write!(
                f,
                "send to an undeclared lifeline `{}` (the lifelines are: {known})",
                Excerpt(name)
            ),
            SystemErrorKind::UnknownKind { found } => write!(
                f,
                "unknown event kind \"{}\" (one of: send, recv, act, choice)",
                Excerpt(found)
            ),
            SystemErrorKind::KindNeeds { kind, key } => {
                write!(f, "an event of kind `{kind}` needs `{key}`")
            }
            SystemErrorKind::KeyNotForKind { key, kind } => {
                write!(f, "an event of kind `{kind}` takes no `{key}`")
            }
            SystemErrorKind::StoreNotObject { found } => write!(
                f,
                "`store` expects an object giving the variables the event changes, found {found}"
            ),
            SystemErrorKind::UnknownVariable {
                lifeline,
                name,
                known,
            } => write!(
                f,
                "lifeline `{lifeline}` has no variable `{}` (its variables are: {known})",
                Excerpt(name)
            ),
            SystemErrorKind::DuplicateVariable { var } => {
                write!(f, "variable `{}` is given twice in `store`", Excerpt(var))
            }
            SystemErrorKind::VariableValue {
                lifeline,
                var,
                expected,
                found,
            } => write!(
                f,
                "variable `{var}` of lifeline `{lifeline}` expects {expected}, found {found}"
            ),
            SystemErrorKind::NoTimeYet { lifeline, var } => write!(
                f,
                "the first event of lifeline `{lifeline}` gives no time: set `{var}` in its \"store\" \
                 (a later event without one happens at its lifeline's last time)"
            ),
            SystemErrorKind::TimeGoesBack {
                lifeline,
                var,
                time,
                previous,
            } => write!(
                f,
                "time `{var}` of lifeline `{lifeline}` goes back: {} is before its previous event's {}",
                crate::read::time_text(*time, previous.1),
                crate::read::time_text(*previous, time.1),
            ),
            SystemErrorKind::MessageInTransit { msg } => write!(
                f,
                "message `{}` is already in transit (a message id can be reused only \
                 after its receive)",
                Excerpt(msg)
            ),
            SystemErrorKind::TooManyInTransit { limit } => write!(
                f,
                "more than {limit} messages in transit (sent and not yet received); \
                 the check keeps at most {limit} (about 450 bytes each): raise the limit with \
                 --max-in-transit, or record the receives"
            ),
            SystemErrorKind::MessageNotInTransit { msg } => write!(
                f,
                "no message `{}` in transit: it was never sent or was already received",
                Excerpt(msg)
            ),
            SystemErrorKind::WrongReceiver { msg, to, by } => {
                write!(
                    f,
                    "message `{}` was sent to `{to}`, received by `{by}`",
                    Excerpt(msg)
                )
            }
            SystemErrorKind::StampRejected { msg, reason } => {
                write!(
                    f,
                    "the stamp of message `{}` was rejected: {reason}",
                    Excerpt(msg)
                )
            }
            SystemErrorKind::LabelMismatch {
                msg,
                sent,
                received,
            } => write!(
                f,
                "message `{}` was sent with label `{}` and received with label `{}`",
                Excerpt(msg),
                Excerpt(sent),
                Excerpt(received)
            ),
            SystemErrorKind::EventRefused { reason } => {
                write!(f, "the monitor refused this event: {reason}")
            }
        }
    }
}
