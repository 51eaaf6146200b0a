//! Unit tests of system trace decoding and of the system driver; columns
//! and messages are worked out by hand (columns are 1-based characters).

use super::run::check_system;
use super::*;
use crate::read::Decode;
use crate::read::{InputSchema, InputType};
use crate::run::RunError;
use hindsight_runtime::{Value, Verdict};
use std::io::{self, Write};

/// TestRunner { status: Status, cand: int }, Committer { cand: int, load:
/// float, ready: bool } owning may_merge and must_block, Security {} owning ok.
fn schema() -> SystemSchema {
    let var = |name: &str, ty| InputSchema::new(name, ty);
    let status = InputType::Enum {
        name: "Status".to_string(),
        variants: vec!["pending".into(), "passed".into(), "failed".into()],
    };
    SystemSchema::new(vec![
        LifelineSchema {
            name: "TestRunner".to_string(),
            vars: vec![var("status", status), var("cand", InputType::Int)],
            guards: Vec::new(),
        },
        LifelineSchema {
            name: "Committer".to_string(),
            vars: vec![
                var("cand", InputType::Int),
                var("load", InputType::Float),
                var("ready", InputType::Bool),
            ],
            guards: vec!["may_merge".to_string(), "must_block".to_string()],
        },
        LifelineSchema {
            name: "Security".to_string(),
            vars: Vec::new(),
            guards: vec!["ok".to_string()],
        },
    ])
}

/// An owned copy of a decoded event's kind.
#[derive(Debug, PartialEq)]
enum Kind {
    Send(usize, String),
    Recv(String),
    Act,
    Choice,
}

type Decoded = (usize, Kind, Vec<(usize, Value)>);

fn owned(event: &SystemEvent) -> Decoded {
    let kind = match event.kind() {
        EventKind::Send { to, msg } => Kind::Send(to, msg.to_string()),
        EventKind::Recv { msg } => Kind::Recv(msg.to_string()),
        EventKind::Act => Kind::Act,
        EventKind::Choice => Kind::Choice,
    };
    (event.lifeline(), kind, event.changes().to_vec())
}

fn decode_into(event: &mut SystemEvent, line: &str) -> Result<Decoded, (Option<usize>, String)> {
    SystemDecoder::new(schema())
        .decode(line, event)
        .map(|_| owned(event))
        .map_err(|e| (e.column, e.kind.to_string()))
}

fn decode(line: &str) -> Result<Decoded, (Option<usize>, String)> {
    decode_into(&mut SystemEvent::default(), line)
}

fn error(column: Option<usize>, message: &str) -> Result<Decoded, (Option<usize>, String)> {
    Err((column, message.to_string()))
}

#[test]
fn every_kind_of_line_decodes() {
    assert_eq!(
        decode(r#"{"lifeline": "TestRunner", "kind": "send", "to": "Committer", "msg": "m1"}"#),
        Ok((0, Kind::Send(1, "m1".into()), vec![]))
    );
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "recv", "msg": "m1"}"#),
        Ok((1, Kind::Recv("m1".into()), vec![]))
    );
    assert_eq!(
        decode(
            r#"{"lifeline": "TestRunner", "kind": "act", "store": {"status": "passed", "cand": 7}}"#
        ),
        Ok((0, Kind::Act, vec![(0, Value::Enum(1)), (1, Value::Int(7))]))
    );
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "choice"}"#),
        Ok((1, Kind::Choice, vec![]))
    );
}

#[test]
fn store_is_optional_on_any_kind_and_typed_by_the_lifeline() {
    // Keys in any order, an escaped message id, a qualified variant.
    let line = r#"{"msg": "m\u0031", "to": "Security", "kind": "send", "lifeline": "TestRunner", "store": {"status": "Status::failed"}}"#;
    assert_eq!(
        decode(line),
        Ok((0, Kind::Send(2, "m1".into()), vec![(0, Value::Enum(2))]))
    );
    // An int for a float; changes in declaration order (cand, load, ready),
    // whatever order the line gives them in.
    let line = r#"{"lifeline": "Committer", "kind": "recv", "msg": "x", "store": {"ready": true, "load": 2, "cand": -3}}"#;
    assert_eq!(
        decode(line),
        Ok((
            1,
            Kind::Recv("x".into()),
            vec![
                (0, Value::Int(-3)),
                (1, Value::Float(2.0)),
                (2, Value::Bool(true))
            ]
        ))
    );
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "choice", "store": {}}"#),
        Ok((2, Kind::Choice, vec![]))
    );
}

#[test]
fn a_store_before_the_lifeline_is_decoded_once_the_lifeline_is_known() {
    // `cand` is an int of TestRunner but the first variable of Committer.
    let line = r#"{"store": {"ready": false, "cand": 4}, "kind": "act", "lifeline": "Committer"}"#;
    assert_eq!(
        decode(line),
        Ok((
            1,
            Kind::Act,
            vec![(0, Value::Int(4)), (2, Value::Bool(false))]
        ))
    );
    // `true` (columns 20-23) is no int; found in the second pass.
    assert_eq!(
        decode(r#"{"store": {"cand": true}, "kind": "act", "lifeline": "Committer"}"#),
        error(
            Some(20),
            "variable `cand` of lifeline `Committer` expects int, found bool true"
        )
    );
    // Not an object: found in the first pass, before the lifeline is known.
    assert_eq!(
        decode(r#"{"store": 1, "kind": "act", "lifeline": "Committer"}"#),
        error(
            Some(11),
            "`store` expects an object giving the variables the event changes, found number 1"
        )
    );
}

#[test]
fn the_event_is_reused_without_leftovers() {
    let mut event = SystemEvent::default();
    let first = decode_into(
        &mut event,
        r#"{"lifeline": "Committer", "kind": "send", "to": "Security", "msg": "long-id", "store": {"cand": 1}}"#,
    );
    assert!(first.is_ok());
    assert_eq!(
        decode_into(
            &mut event,
            r#"{"lifeline": "Security", "kind": "recv", "msg": "m2"}"#
        ),
        Ok((2, Kind::Recv("m2".into()), vec![]))
    );
}

#[test]
fn syntax_and_shape_errors() {
    // `"TestRunner"` at column 13 where `:` was expected.
    assert_eq!(
        decode(r#"{"lifeline" "TestRunner"}"#),
        error(Some(13), "malformed JSON: expected `:`")
    );
    // Placed at the first non-blank character.
    assert_eq!(
        decode(r#"  ["TestRunner"]"#),
        error(
            Some(3),
            "a system trace line must be a JSON object, found an array"
        )
    );
    assert_eq!(
        decode(r#"{"kind": "act"}"#),
        error(Some(15), "missing key `lifeline`")
    );
    assert_eq!(
        decode(r#"{"lifeline": "Security"}"#),
        error(Some(24), "missing key `kind`")
    );
    // The second `"kind"` starts at column 17.
    assert_eq!(
        decode(r#"{"kind": "act", "kind": "act"}"#),
        error(Some(17), "key `kind` is given twice")
    );
    // `"stor"` starts at column 41.
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "act", "stor": {}}"#),
        error(
            Some(41),
            "unknown key `stor` (a system trace line has: lifeline, kind, to, msg, store)"
        )
    );
}

#[test]
fn lifeline_and_kind_errors_point_at_the_value() {
    // The value of `lifeline` starts at column 14.
    assert_eq!(
        decode(r#"{"lifeline": "Tester", "kind": "act"}"#),
        error(
            Some(14),
            "undeclared lifeline `Tester` (the lifelines are: TestRunner, Committer, Security)"
        )
    );
    assert_eq!(
        decode(r#"{"lifeline": 3}"#),
        error(Some(14), "`lifeline` expects a string, found number 3")
    );
    // `"sent"` starts at column 34.
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "sent"}"#),
        error(
            Some(34),
            r#"unknown event kind "sent" (one of: send, recv, act, choice)"#
        )
    );
    // `"Comitter"` starts at column 50.
    assert_eq!(
        decode(r#"{"lifeline": "TestRunner", "kind": "send", "to": "Comitter", "msg": "m1"}"#),
        error(
            Some(50),
            "send to an undeclared lifeline `Comitter` (the lifelines are: TestRunner, \
             Committer, Security)"
        )
    );
    // `1` is at column 50.
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "recv", "msg": 1}"#),
        error(Some(50), "`msg` expects a string, found number 1")
    );
}

#[test]
fn message_keys_must_fit_the_kind() {
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "send", "msg": "m1"}"#),
        error(Some(53), "an event of kind `send` needs `to`")
    );
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "send", "to": "Committer"}"#),
        error(Some(59), "an event of kind `send` needs `msg`")
    );
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "recv"}"#),
        error(Some(41), "an event of kind `recv` needs `msg`")
    );
    // `"to"` starts at column 43.
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "recv", "to": "Security", "msg": "m1"}"#),
        error(Some(43), "an event of kind `recv` takes no `to`")
    );
    // `"msg"` starts at column 41.
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "act", "msg": "m1"}"#),
        error(Some(41), "an event of kind `act` takes no `msg`")
    );
}

#[test]
fn store_errors() {
    // `[` is at column 50.
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "act", "store": [1]}"#),
        error(
            Some(50),
            "`store` expects an object giving the variables the event changes, found an array"
        )
    );
    // `"status"` starts at column 52.
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "act", "store": {"status": "passed"}}"#),
        error(
            Some(52),
            "lifeline `Committer` has no variable `status` (its variables are: cand, load, ready)"
        )
    );
    assert_eq!(
        decode(r#"{"lifeline": "Security", "kind": "act", "store": {"x": 1}}"#).map_err(|e| e.1),
        Err("lifeline `Security` has no variable `x` (its variables are: none)".to_string())
    );
    // The second `"cand"` starts at column 63.
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "act", "store": {"cand": 1, "cand": 2}}"#),
        error(Some(63), "variable `cand` is given twice in `store`")
    );
    // `"7"` starts at column 61.
    assert_eq!(
        decode(r#"{"lifeline": "TestRunner", "kind": "act", "store": {"cand": "7"}}"#),
        error(
            Some(61),
            r#"variable `cand` of lifeline `TestRunner` expects int, found string "7""#
        )
    );
    // `"passd"` starts at column 63.
    assert_eq!(
        decode(r#"{"lifeline": "TestRunner", "kind": "act", "store": {"status": "passd"}}"#),
        error(
            Some(63),
            "variable `status` of lifeline `TestRunner` expects a variant of enum `Status` \
             (one of: pending, passed, failed), found \"passd\""
        )
    );
    assert_eq!(
        decode(r#"{"lifeline": "Committer", "kind": "act", "store": {"ready": "yes"}}"#)
            .map_err(|e| e.1),
        Err(
            r#"variable `ready` of lifeline `Committer` expects bool, found string "yes""#
                .to_string()
        )
    );
}

#[test]
fn the_reader_skips_blank_lines_but_counts_them() {
    let text = "\u{feff}{\"lifeline\": \"Security\", \"kind\": \"act\"}\r\n\n  \t\n\
                {\"lifeline\": \"Security\", \"kind\": \"choice\"}\n\
                {\"lifeline\": \"Securit\", \"kind\": \"act\"}";
    let mut reader = SystemReader::new(text.as_bytes(), schema());
    let mut event = SystemEvent::default();
    assert!(matches!(reader.read_next(&mut event), Ok(true)));
    assert_eq!(owned(&event), (2, Kind::Act, vec![]));
    assert!(matches!(reader.read_next(&mut event), Ok(true)));
    assert_eq!(owned(&event), (2, Kind::Choice, vec![]));
    assert_eq!(reader.line(), 4);
    let rendered = reader
        .read_next(&mut event)
        .map_err(|e| e.render("t.jsonl"));
    assert_eq!(
        rendered,
        Err(
            "error: t.jsonl:5:14: undeclared lifeline `Securit` (the lifelines are: \
             TestRunner, Committer, Security)"
                .to_string()
        )
    );
}

/// A stand-in for a system's monitors: a stamp is the sending lifeline; a
/// stamp from TestRunner carrying changes is rejected; a choice reports, per
/// guard, whether the lifeline has received anything, then `?`.
#[derive(Default)]
struct FakeStepper {
    received: [usize; 3],
    log: Vec<String>,
}

impl SystemMonitor for FakeStepper {
    type Stamp = (usize, usize);

    fn on_send(
        &mut self,
        lifeline: usize,
        changes: &[(usize, Value)],
    ) -> Result<(usize, usize), MonitorError> {
        self.log.push(format!("send {lifeline}"));
        Ok((lifeline, changes.len()))
    }

    fn on_recv(
        &mut self,
        lifeline: usize,
        stamp: &(usize, usize),
        _: &[(usize, Value)],
    ) -> Result<(), MonitorError> {
        self.log.push(format!("recv {lifeline} from {}", stamp.0));
        if *stamp == (0, 1) {
            return Err(MonitorError::Unauthenticated);
        }
        self.received[lifeline] += 1;
        Ok(())
    }

    fn on_act(&mut self, lifeline: usize, changes: &[(usize, Value)]) -> Result<(), MonitorError> {
        self.log.push(format!("act {lifeline} {changes:?}"));
        // An act that sets `cand` (variable 1 of the TestRunner) to 99 stands for
        // an event the monitor refuses.
        if changes.contains(&(1, Value::Int(99))) {
            return Err(MonitorError::ClockSaturated);
        }
        Ok(())
    }

    fn on_choice(
        &mut self,
        lifeline: usize,
        _: &[(usize, Value)],
        guards: &mut [Verdict],
    ) -> Result<(), MonitorError> {
        self.log.push(format!("choice {lifeline}"));
        let got = if self.received[lifeline] > 0 {
            Verdict::True
        } else {
            Verdict::False
        };
        for (out, verdict) in guards.iter_mut().zip([got, Verdict::Unknown]) {
            *out = verdict;
        }
        Ok(())
    }

    fn reset(&mut self) {
        *self = FakeStepper::default();
    }
}

/// A writer that keeps apart what was flushed and what was not.
#[derive(Default)]
struct Recorder {
    pending: Vec<u8>,
    flushed: Vec<u8>,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushed.append(&mut self.pending);
        Ok(())
    }
}

/// Runs the fake stepper over `trace`: the outcome (an error rendered for
/// file `t`), the output flushed, and whether some output was left unflushed.
fn check(trace: &str, stepper: &mut FakeStepper) -> (Result<bool, String>, String, bool) {
    check_within(trace, stepper, crate::system::DEFAULT_MAX_IN_TRANSIT)
}

/// [`check`] with at most `limit` messages in transit.
fn check_within(
    trace: &str,
    stepper: &mut FakeStepper,
    limit: usize,
) -> (Result<bool, String>, String, bool) {
    let mut out = Recorder::default();
    let outcome = {
        let mut writer = SystemVerdictWriter::new(&mut out, &schema());
        let reader = SystemReader::new(trace.as_bytes(), schema());
        let in_flight = crate::system::InFlight::with_limit(limit);
        check_system(
            reader,
            stepper,
            &mut writer,
            in_flight,
            (&mut crate::run::Silent, &mut Default::default()),
            &mut Default::default(),
        )
        .map(|()| writer.saw_violation())
    };
    let outcome = outcome.map_err(|e| match e {
        RunError::Trace(e) => e.render("t"),
        RunError::Write(e) => e.to_string(),
    });
    let flushed = String::from_utf8(out.flushed).unwrap_or_default();
    (outcome, flushed, !out.pending.is_empty())
}

const SEND_M1: &str =
    r#"{"lifeline": "TestRunner", "kind": "send", "to": "Committer", "msg": "m1"}"#;
const RECV_M1: &str = r#"{"lifeline": "Committer", "kind": "recv", "msg": "m1"}"#;
const COMMITTER_CHOICE: &str = r#"{"lifeline": "Committer", "kind": "choice"}"#;

#[test]
fn a_send_beyond_the_limit_of_messages_in_transit_is_an_error_at_its_line() {
    let send = |m: &str| SEND_M1.replace("m1", m);
    let trace = [
        send("m1"),
        send("m2"),
        RECV_M1.to_string(),
        send("m3"),
        send("m4"),
    ]
    .join("\n");
    let mut stepper = FakeStepper::default();
    let (outcome, _, _) = check_within(&trace, &mut stepper, 2);
    assert_eq!(
        outcome,
        Err(
            "error: t:5:70: more than 2 messages in transit (sent and not yet received); \
             the check keeps at most 2 (about 450 bytes each): raise the limit with \
             --max-in-transit, or record the receives"
                .to_string()
        )
    );
}

#[test]
fn the_driver_reports_every_choice_of_a_guard_owner() {
    let trace = [
        SEND_M1,
        "",
        COMMITTER_CHOICE,
        r#"{"lifeline": "Committer", "kind": "recv", "msg": "m1", "store": {"cand": 7}}"#,
        COMMITTER_CHOICE,
        r#"{"lifeline": "TestRunner", "kind": "choice"}"#,
        r#"{"lifeline": "Security", "kind": "act", "store": {}}"#,
        r#"{"lifeline": "Security", "kind": "choice"}"#,
        // The id is free again once received.
        SEND_M1,
    ]
    .join("\n");
    let mut stepper = FakeStepper::default();
    let (outcome, out, unflushed) = check(&trace, &mut stepper);
    // False guards are decisions, not violations (no protocol here).
    assert_eq!(outcome, Ok(false));
    assert!(!unflushed);
    // Events are numbered among the non-blank lines.
    assert_eq!(
        out,
        "{\"event\": 1, \"lifeline\": \"Committer\", \"may_merge\": \"false\", \"must_block\": \"?\"}\n\
         {\"event\": 3, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \"must_block\": \"?\"}\n\
         {\"event\": 6, \"lifeline\": \"Security\", \"ok\": \"false\"}\n"
    );
    assert_eq!(
        stepper.log,
        [
            "send 0",
            "choice 1",
            "recv 1 from 0",
            "choice 1",
            "choice 0",
            "act 2 []",
            "choice 2",
            "send 0"
        ]
    );
}

#[test]
fn no_false_verdict_no_violation() {
    let trace = [SEND_M1, RECV_M1, COMMITTER_CHOICE].join("\n");
    let (outcome, out, _) = check(&trace, &mut FakeStepper::default());
    assert_eq!(outcome, Ok(false));
    assert_eq!(
        out,
        "{\"event\": 2, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \"must_block\": \"?\"}\n"
    );
}

/// Runs `trace` whose last line is bad: the lines before it are flushed, the
/// stepper saw `steps` events, and the error is `message`.
fn fails_at_the_end(trace: &[&str], steps: usize, message: &str) {
    let mut stepper = FakeStepper::default();
    let (outcome, out, unflushed) = check(&trace.join("\n"), &mut stepper);
    assert_eq!(outcome, Err(message.to_string()));
    assert!(!unflushed);
    assert_eq!(
        out,
        "{\"event\": 1, \"lifeline\": \"Committer\", \"may_merge\": \"false\", \"must_block\": \"?\"}\n"
    );
    assert_eq!(stepper.log.len(), steps);
}

#[test]
fn a_second_receive_stops_the_run_after_the_earlier_lines() {
    // `"m1"` starts at column 50 of line 5.
    fails_at_the_end(
        &[SEND_M1, COMMITTER_CHOICE, "", RECV_M1, RECV_M1],
        3,
        "error: t:5:50: no message `m1` in transit: it was never sent or was already received",
    );
}

#[test]
fn message_errors_point_at_the_message_id() {
    fails_at_the_end(
        &[
            SEND_M1,
            COMMITTER_CHOICE,
            r#"{"lifeline": "Committer", "kind": "recv", "msg": "m2"}"#,
        ],
        2,
        "error: t:3:50: no message `m2` in transit: it was never sent or was already received",
    );
    // `"m1"` starts at column 49.
    fails_at_the_end(
        &[
            SEND_M1,
            COMMITTER_CHOICE,
            r#"{"lifeline": "Security", "kind": "recv", "msg": "m1"}"#,
        ],
        2,
        "error: t:3:49: message `m1` was sent to `Committer`, received by `Security`",
    );
    // `"m1"` starts at column 68; the refused send never reaches the stepper.
    fails_at_the_end(
        &[
            SEND_M1,
            COMMITTER_CHOICE,
            r#"{"lifeline": "Security", "kind": "send", "to": "Committer", "msg": "m1"}"#,
        ],
        2,
        "error: t:3:68: message `m1` is already in transit (a message id can be reused only \
         after its receive)",
    );
}

#[test]
fn a_rejected_stamp_stops_the_run() {
    fails_at_the_end(
        &[
            r#"{"lifeline": "TestRunner", "kind": "send", "to": "Committer", "msg": "m1", "store": {"cand": 1}}"#,
            COMMITTER_CHOICE,
            RECV_M1,
        ],
        3,
        "error: t:3:50: the stamp of message `m1` was rejected: the stamp is not \
         authenticated: its tag does not match under the key",
    );
}

#[test]
fn an_event_the_monitor_refuses_stops_the_run() {
    // The fake monitor refuses an act that sets the TestRunner's `cand` to 99;
    // the refusal is about the whole event, placed at the start of its line.
    fails_at_the_end(
        &[
            SEND_M1,
            COMMITTER_CHOICE,
            r#"{"lifeline": "TestRunner", "kind": "act", "store": {"cand": 99}}"#,
        ],
        3,
        "error: t:3:1: the monitor refused this event: the clock component is saturated",
    );
}

#[test]
fn a_decoding_error_stops_the_run_before_the_stepper_sees_the_line() {
    // `"x"` starts at column 60.
    fails_at_the_end(
        &[
            SEND_M1,
            COMMITTER_CHOICE,
            r#"{"lifeline": "Committer", "kind": "act", "store": {"load": "x"}}"#,
        ],
        2,
        r#"error: t:3:60: variable `load` of lifeline `Committer` expects float, found string "x""#,
    );
}
