//! The messages of a system trace that were sent and not yet received.

use std::collections::HashMap;

/// Messages in transit: for each message id sent and not yet received, its
/// receiver and its payload (the stamp the send produced).
///
/// Only messages in transit are kept, so memory is proportional to them, not
/// to the length of the trace. A message id may not be reused while its
/// message is in transit; once received, the id is free and a later send may
/// reuse it for a new message. Hence a receive of a never-sent id and a second
/// receive of an id cannot be told apart: both are "not in transit".
#[derive(Clone, Debug)]
pub struct InFlight<T> {
    messages: HashMap<String, (usize, T)>,
    /// The most messages in transit at once.
    limit: usize,
}

/// The most messages [`InFlight::new`] keeps in transit at once: 2^18, at
/// about 450 bytes each (the id, the stamp, the table entry) about 120 MB.
pub const DEFAULT_MAX_IN_TRANSIT: usize = 1 << 18;

/// Why a send or receive does not fit the messages in transit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// A send of an id whose message is still in transit.
    AlreadyInTransit,
    /// A receive of an id with no message in transit: never sent, or already received.
    NotInTransit,
    /// A receive on another lifeline than the message was sent to.
    WrongReceiver {
        /// The lifeline the message was sent to.
        to: usize,
    },
    /// A send while the limit of messages in transit is reached.
    TooManyInTransit {
        /// The limit.
        limit: usize,
    },
}

impl<T> Default for InFlight<T> {
    fn default() -> Self {
        Self::with_limit(DEFAULT_MAX_IN_TRANSIT)
    }
}

impl<T> InFlight<T> {
    /// No message in transit; at most [`DEFAULT_MAX_IN_TRANSIT`] at once.
    pub fn new() -> Self {
        Self::default()
    }

    /// No message in transit; at most `limit` at once.
    pub fn with_limit(limit: usize) -> Self {
        InFlight {
            messages: HashMap::new(),
            limit,
        }
    }

    /// Whether a send of `msg` would be accepted ([`InFlight::send`]'s checks,
    /// without the send), so a caller can refuse it before acting on it.
    pub fn check_send(&self, msg: &str) -> Result<(), MessageError> {
        if self.messages.contains_key(msg) {
            return Err(MessageError::AlreadyInTransit);
        }
        if self.messages.len() >= self.limit {
            return Err(MessageError::TooManyInTransit { limit: self.limit });
        }
        Ok(())
    }

    /// Records message `msg`, sent to lifeline `to` with `payload`.
    pub fn send(&mut self, msg: &str, to: usize, payload: T) -> Result<(), MessageError> {
        self.check_send(msg)?;
        self.messages.insert(msg.to_string(), (to, payload));
        Ok(())
    }

    /// Takes message `msg` out of transit as received by lifeline `by`,
    /// returning its payload. On an error the messages in transit are unchanged.
    pub fn recv(&mut self, msg: &str, by: usize) -> Result<T, MessageError> {
        match self.messages.get(msg) {
            None => Err(MessageError::NotInTransit),
            Some(&(to, _)) if to != by => Err(MessageError::WrongReceiver { to }),
            Some(_) => self
                .messages
                .remove(msg)
                .map(|(_, payload)| payload)
                .ok_or(MessageError::NotInTransit),
        }
    }

    /// How many messages are in transit.
    pub fn in_transit(&self) -> usize {
        self.messages.len()
    }
}

#[cfg(test)]
mod tests {
    use super::{InFlight, MessageError};

    #[test]
    fn a_message_is_received_once_by_its_receiver() {
        let mut in_flight = InFlight::new();
        assert_eq!(in_flight.send("m1", 2, 'a'), Ok(()));
        assert_eq!(in_flight.send("m2", 1, 'b'), Ok(()));
        assert_eq!(in_flight.in_transit(), 2);
        // Out of order: m2 first.
        assert_eq!(in_flight.recv("m2", 1), Ok('b'));
        assert_eq!(in_flight.recv("m1", 2), Ok('a'));
        assert_eq!(in_flight.in_transit(), 0);
        assert_eq!(in_flight.recv("m1", 2), Err(MessageError::NotInTransit));
    }

    #[test]
    fn an_unknown_message_is_not_in_transit() {
        let mut in_flight: InFlight<u8> = InFlight::new();
        assert_eq!(in_flight.recv("m9", 0), Err(MessageError::NotInTransit));
        assert_eq!(in_flight.send("m1", 0, 1), Ok(()));
        assert_eq!(in_flight.recv("m9", 0), Err(MessageError::NotInTransit));
        assert_eq!(in_flight.in_transit(), 1);
    }

    #[test]
    fn the_wrong_receiver_leaves_the_message_in_transit() {
        let mut in_flight = InFlight::new();
        assert_eq!(in_flight.send("m1", 3, 7u8), Ok(()));
        assert_eq!(
            in_flight.recv("m1", 1),
            Err(MessageError::WrongReceiver { to: 3 })
        );
        assert_eq!(in_flight.in_transit(), 1);
        assert_eq!(in_flight.recv("m1", 3), Ok(7));
    }

    #[test]
    fn the_limit_refuses_a_send_and_a_receive_makes_room() {
        let mut in_flight = InFlight::with_limit(2);
        assert_eq!(in_flight.send("m1", 0, 1u8), Ok(()));
        assert_eq!(in_flight.send("m2", 0, 2), Ok(()));
        assert_eq!(
            in_flight.send("m3", 0, 3),
            Err(MessageError::TooManyInTransit { limit: 2 })
        );
        assert_eq!(in_flight.in_transit(), 2);
        assert_eq!(in_flight.recv("m1", 0), Ok(1));
        assert_eq!(in_flight.send("m3", 0, 3), Ok(()));
    }

    #[test]
    fn an_id_is_reusable_only_after_its_receive() {
        let mut in_flight = InFlight::new();
        assert_eq!(in_flight.send("m1", 0, 1u8), Ok(()));
        assert_eq!(
            in_flight.send("m1", 0, 2),
            Err(MessageError::AlreadyInTransit)
        );
        // The rejected send did not replace the payload.
        assert_eq!(in_flight.recv("m1", 0), Ok(1));
        assert_eq!(in_flight.send("m1", 1, 3), Ok(()));
        assert_eq!(in_flight.recv("m1", 1), Ok(3));
    }
}
