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
}

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
}

impl<T> Default for InFlight<T> {
    fn default() -> Self {
        InFlight {
            messages: HashMap::new(),
        }
    }
}

impl<T> InFlight<T> {
    /// No message in transit.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records message `msg`, sent to lifeline `to` with `payload`.
    pub fn send(&mut self, msg: &str, to: usize, payload: T) -> Result<(), MessageError> {
        if self.messages.contains_key(msg) {
            return Err(MessageError::AlreadyInTransit);
        }
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
