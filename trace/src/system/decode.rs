//! Decoding one system trace line into a reused [`SystemEvent`].

use super::error::SystemErrorKind;
use super::event::{Kind, SystemEvent};
use super::schema::SystemSchema;
use super::visit::{Given, Key, LineSeed, Store, StoreOnlySeed};
use crate::read::{
    line_error, placed, written_as_string, Decode, KeyedSeed, KeysGiven, LineError, LineKey,
};
use crate::InputType;
use hindsight_runtime::Value;
use serde::de::DeserializeSeed;

/// Decodes single system trace lines against a [`SystemSchema`].
#[derive(Clone, Debug)]
pub struct SystemDecoder {
    schema: SystemSchema,
    /// Where `store` is decoded, reused from line to line.
    store: Store,
    /// Per lifeline, its time variable, if the system has one.
    time: Vec<Option<usize>>,
    /// Per lifeline, its last event's time, if given, and whether it was
    /// written as a string.
    last_time: Vec<Option<(i64, bool)>>,
}

impl Decode for SystemDecoder {
    type Schema = SystemSchema;
    type Out = SystemEvent;
    type Kind = SystemErrorKind;

    /// A decoder for lines about the lifelines of `schema`.
    fn new(schema: SystemSchema) -> Self {
        let last_time = vec![None; schema.lifelines().len()];
        let time = schema
            .lifelines()
            .iter()
            .map(|l| l.vars.iter().position(|v| v.ty == InputType::Time))
            .collect();
        SystemDecoder {
            schema,
            store: Store::default(),
            time,
            last_time,
        }
    }

    fn schema(&self) -> &SystemSchema {
        &self.schema
    }

    /// Decodes one non-blank line (without its newline) into `event`.
    ///
    /// Keys may come in any order. Usually one pass suffices; a line whose
    /// `store` comes before its `lifeline` is parsed a second time for the
    /// store, once the lifeline (and so the variables' types) is known.
    fn decode(
        &mut self,
        line: &str,
        event: &mut SystemEvent,
    ) -> Result<bool, LineError<SystemErrorKind>> {
        event.msg.clear();
        event.label.clear();
        event.changes.clear();
        self.store.seen.clear();
        let mut given = Given::default();
        let mut problem = None;
        let mut de = serde_json::Deserializer::from_str(line);
        let seed = KeyedSeed(LineSeed {
            schema: &self.schema,
            event,
            store: &mut self.store,
            given: &mut given,
            problem: &mut problem,
        });
        let keys = seed
            .deserialize(&mut de)
            .and_then(|keys| de.end().map(|()| keys))
            .map_err(|err| line_error(line, &err, problem.take()))?;
        let lifeline = given
            .lifeline
            .ok_or_else(|| missing(line, SystemErrorKind::MissingKey { key: "lifeline" }))?;
        if given.store_deferred {
            self.decode_store(line, lifeline)?;
        }
        let kind = given
            .kind
            .ok_or_else(|| missing(line, SystemErrorKind::MissingKey { key: "kind" }))?;
        check_keys(line, kind, keys)?;
        event.lifeline = lifeline;
        event.kind = kind;
        event.to = given.to.unwrap_or_default();
        self.store.changes_into(&mut event.changes);
        self.check_time(line, event)?;
        Ok(true)
    }
}

impl SystemDecoder {
    /// Refuses an event whose time (its lifeline's time variable, if it
    /// gives one) is below its lifeline's previous event's, at the value;
    /// else remembers it.
    fn check_time(
        &mut self,
        line: &str,
        event: &SystemEvent,
    ) -> Result<(), LineError<SystemErrorKind>> {
        let Some(lifeline) = self.schema.lifelines().get(event.lifeline) else {
            return Ok(());
        };
        let Some(var) = self.time.get(event.lifeline).copied().flatten() else {
            return Ok(());
        };
        let name = lifeline.vars.get(var).map_or("", |v| v.name.as_str());
        let given = event.changes.iter().find(|(x, _)| *x == var);
        let Some(&(_, Value::Int(time))) = given else {
            if self
                .last_time
                .get(event.lifeline)
                .is_some_and(Option::is_none)
            {
                let kind = SystemErrorKind::NoTimeYet {
                    lifeline: lifeline.name.clone(),
                    var: name.to_string(),
                };
                return Err(placed(line, kind, line.len()));
            }
            return Ok(());
        };
        let as_string = written_as_string(line, name);
        let last = self.last_time.get_mut(event.lifeline);
        if let Some(previous) = last.as_ref().and_then(|l| **l).filter(|&(p, _)| p > time) {
            let kind = SystemErrorKind::TimeGoesBack {
                lifeline: lifeline.name.clone(),
                var: name.to_string(),
                time: (time, as_string),
                previous,
            };
            return Err(placed(line, kind, line.len()));
        }
        if let Some(last) = last {
            *last = Some((time, as_string));
        }
        Ok(())
    }

    /// Decodes the `store` of `line` as changes of the variables of `lifeline`.
    fn decode_store(
        &mut self,
        line: &str,
        lifeline: usize,
    ) -> Result<(), LineError<SystemErrorKind>> {
        let Some(lifeline) = self.schema.lifelines().get(lifeline) else {
            return Ok(());
        };
        let mut problem = None;
        let mut de = serde_json::Deserializer::from_str(line);
        let seed = KeyedSeed(StoreOnlySeed {
            lifeline,
            store: &mut self.store,
            problem: &mut problem,
        });
        seed.deserialize(&mut de)
            .map(drop)
            .map_err(|err| line_error(line, &err, problem.take()))
    }
}

/// Which of `to` and `msg` an event of `kind` needs (it takes no other).
fn message_keys(kind: Kind) -> &'static [Key] {
    match kind {
        Kind::Send => &[Key::To, Key::Msg],
        Kind::Recv => &[Key::Msg],
        Kind::Act | Kind::Choice => &[],
    }
}

/// Checks that the line has the `to` and `msg` its event `kind` needs, and
/// none it does not take.
fn check_keys(line: &str, kind: Kind, given: KeysGiven) -> Result<(), LineError<SystemErrorKind>> {
    let needs = message_keys(kind);
    if let Some(key) = needs.iter().find(|&&key| !given.has(key)) {
        return Err(missing(
            line,
            SystemErrorKind::KindNeeds {
                kind: kind.name(),
                key: key.name(),
            },
        ));
    }
    // A label goes with a message: a send's or a receipt's.
    let message = matches!(kind, Kind::Send | Kind::Recv);
    match [Key::To, Key::Msg, Key::Label]
        .into_iter()
        .find(|&key| given.has(key) && !needs.contains(&key) && !(key == Key::Label && message))
    {
        Some(key) => Err(placed(
            line,
            SystemErrorKind::KeyNotForKind {
                key: key.name(),
                kind: kind.name(),
            },
            line.len(),
        )),
        None => Ok(()),
    }
}

/// An error about a key the line lacks, placed at the brace closing it.
fn missing(line: &str, kind: SystemErrorKind) -> LineError<SystemErrorKind> {
    placed(line, kind, 0)
}
