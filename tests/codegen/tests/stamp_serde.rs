//! Stamps inside serde messages through `hindsight_runtime::stamp::serde_bytes`:
//! the round trip, and a stamp of another spec or with damaged bytes rejected
//! at deserialization.

use hindsight_codegen_tests::system_review::review::{Stamp, TestRunner};
use hindsight_codegen_tests::system_review::Status;
use serde::{Deserialize, Serialize};

/// A transport message: a payload and the sender's stamp.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Report {
    cand: i64,
    #[serde(with = "hindsight_runtime::stamp::serde_bytes")]
    stamp: Stamp,
}

fn report() -> Report {
    let mut runner = TestRunner::Monitor::new();
    runner.on_act(&TestRunner::Changes {
        cand: Some(7),
        status: Some(Status::passed),
    });
    let stamp = runner
        .on_send(&TestRunner::Changes::default())
        .expect("sends");
    Report { cand: 7, stamp }
}

#[test]
fn a_stamp_round_trips_through_json() {
    let sent = report();
    let json = serde_json::to_string(&sent).unwrap();
    let received: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(received, sent);
}

#[test]
fn a_damaged_or_foreign_stamp_is_rejected_when_deserialized() {
    let json = serde_json::to_string(&report()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let bytes: Vec<u8> = value["stamp"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    // Byte 1 starts the spec fingerprint: flip it and the stamp is foreign.
    let mut foreign = bytes.clone();
    foreign[1] ^= 1;
    let message = format!(r#"{{"cand": 7, "stamp": {foreign:?}}}"#);
    let error = serde_json::from_str::<Report>(&message).unwrap_err();
    assert!(error.to_string().contains("another spec"), "{error}");
    // A truncated encoding is malformed.
    let message = format!(r#"{{"cand": 7, "stamp": {:?}}}"#, &bytes[..bytes.len() - 1]);
    let error = serde_json::from_str::<Report>(&message).unwrap_err();
    assert!(error.to_string().contains("malformed"), "{error}");
}
