//! The TestRunner of the code-review workflow (the CPL paper's section 2) as
//! its own process, written in Rust beside the Python agents of
//! `agents.py`. It talks to them only through a Redis broker: it reads its
//! tasks and its inbox from two streams, puts every message it sends on the
//! workflow's wire stream with its sealed stamp in the message's `stamp`
//! header field, and says what it did on the events stream. Its lifeline
//! monitor is the one generated from `review.hind` by build.rs. README.md
//! lists the streams and their fields.
//!
//! Usage: `review-test-runner REDIS_URL PREFIX`, with the workflow's 32-byte
//! stamp key as 64 hex digits in `HINDSIGHT_STAMP_KEY`.

use hindsight_runtime::stamp::StampKey;
use monitors::review::{Stamp, TestRunner as lifeline};
use monitors::Status;
use redis::streams::{StreamId, StreamReadOptions, StreamReadReply};
use redis::{Commands, Connection, FromRedisValue};
use serde_json::{json, Map, Value};
use std::process::ExitCode;

/// The monitors generated from `review.hind` (sealed stamps). Their items
/// are `pub` for library crates; in this binary nothing is reached from outside.
#[allow(unreachable_pub)]
mod monitors {
    hindsight_runtime::include_monitors!("review");
}

/// This agent's lifeline.
const ME: &str = "TestRunner";

/// Any failure: the broker's, a malformed entry, or a stamp the monitor cannot send.
type Error = Box<dyn std::error::Error>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, prefix] = args.as_slice() else {
        eprintln!(
            "usage: review-test-runner REDIS_URL PREFIX (the stamp key in HINDSIGHT_STAMP_KEY)"
        );
        return ExitCode::from(2);
    };
    match Agent::connect(url, prefix).and_then(|mut agent| agent.serve()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("review-test-runner: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The TestRunner: its connection, the workflow's stamp key and streams, and its monitor.
struct Agent {
    con: Connection,
    key: StampKey,
    prefix: String,
    monitor: lifeline::Monitor,
}

impl Agent {
    /// Connects to the broker at `url`, for the workflow whose streams start with `prefix`.
    fn connect(url: &str, prefix: &str) -> Result<Agent, Error> {
        let hex = std::env::var("HINDSIGHT_STAMP_KEY")
            .map_err(|_| "HINDSIGHT_STAMP_KEY is not set (64 hex digits)")?;
        Ok(Agent {
            con: redis::Client::open(url)?.get_connection()?,
            key: StampKey::new(&parse_key(&hex)?),
            prefix: prefix.to_string(),
            monitor: lifeline::Monitor::new(),
        })
    }

    /// The name of the workflow's stream `name`.
    fn stream(&self, name: &str) -> String {
        format!("{}:{name}", self.prefix)
    }

    /// Takes tasks and messages one at a time, in the order they arrive,
    /// until the `stop` task; after each, says `done` on the events stream.
    fn serve(&mut self) -> Result<(), Error> {
        let keys = [
            self.stream(&format!("tasks:{ME}")),
            self.stream(&format!("inbox:{ME}")),
        ];
        let mut last = ["0".to_string(), "0".to_string()];
        let options = StreamReadOptions::default().block(0).count(1);
        loop {
            let reply: StreamReadReply = self.con.xread_options(&keys, &last, &options)?;
            for stream in reply.keys {
                let is_task = stream.key == keys[0];
                for entry in &stream.ids {
                    last[usize::from(!is_task)].clone_from(&entry.id);
                    let go_on = if is_task {
                        self.task(entry)?
                    } else {
                        self.message(entry)?;
                        true
                    };
                    self.event("done", Vec::new())?;
                    if !go_on {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// A task from the driver: `check` with its outcome, or `stop` (false).
    fn task(&mut self, entry: &StreamId) -> Result<bool, Error> {
        let task: String = field(entry, "task")?;
        match task.as_str() {
            "check" => {
                let outcome: String = field(entry, "status")?;
                let status = Status::NAMES
                    .iter()
                    .position(|name| *name == outcome)
                    .and_then(|i| Status::from_index(u32::try_from(i).ok()?))
                    .ok_or_else(|| format!("unknown status {outcome:?}"))?;
                self.check(status, &outcome)?;
                Ok(true)
            }
            "stop" => Ok(false),
            other => Err(format!("unknown task {other:?}").into()),
        }
    }

    /// Records the outcome of checking the assigned candidate and reports it to the Committer.
    fn check(&mut self, status: Status, name: &str) -> Result<(), Error> {
        let Some(cand) = self.monitor.store().cand else {
            return self.event("skipped", vec![("error", "no candidate assigned".into())]);
        };
        self.monitor.on_act(&lifeline::Changes {
            cand: None,
            status: Some(status),
        });
        self.event(
            "act",
            vec![("store", json!({ "status": name }).to_string().into())],
        )?;
        let stamp = self.monitor.on_send(&lifeline::Changes::default())?;
        let report = json!({ "kind": "report", "cand": cand, "status": name });
        self.send("Committer", &report, stamp)
    }

    /// A message from the inbox: its sealed stamp is opened and merged; an
    /// assignment makes its candidate the current one, pending. A stamp that
    /// does not open (altered, forged, another key) is rejected and nothing happens.
    fn message(&mut self, entry: &StreamId) -> Result<(), Error> {
        let msg: String = field(entry, "msg")?;
        let body: Value = serde_json::from_slice(&field::<Vec<u8>>(entry, "body")?)?;
        let stamp: Vec<u8> = field(entry, "stamp")?;
        let mut changes = lifeline::Changes::default();
        let mut store = Map::new();
        if body["kind"] == "assign" {
            let cand = body["cand"]
                .as_i64()
                .ok_or("an assignment without a candidate")?;
            changes.cand = Some(cand);
            changes.status = Some(Status::pending);
            store.insert("cand".into(), cand.into());
            store.insert("status".into(), "pending".into());
        }
        let received = Stamp::from_bytes(&stamp, &self.key)
            .and_then(|stamp| self.monitor.on_recv(&stamp, &changes));
        match received {
            Ok(()) => {
                let store = Value::Object(store).to_string();
                self.event("recv", vec![("msg", msg.into()), ("store", store.into())])
            }
            Err(error) => self.event(
                "rejected",
                vec![("msg", msg.into()), ("error", error.to_string().into())],
            ),
        }
    }

    /// Puts a message to `to` on the wire, its sealed stamp in the `stamp` header field.
    fn send(&mut self, to: &str, body: &Value, stamp: Stamp) -> Result<(), Error> {
        let mut bytes = [0; Stamp::BYTES];
        let len = stamp.to_bytes(&self.key, &mut bytes)?;
        let body = body.to_string();
        let fields: [(&str, &[u8]); 4] = [
            ("from", ME.as_bytes()),
            ("to", to.as_bytes()),
            ("body", body.as_bytes()),
            ("stamp", &bytes[..len]),
        ];
        let wire: String = self.con.xadd(self.stream("wire"), "*", &fields)?;
        self.event("send", vec![("to", to.into()), ("wire", wire.into())])
    }

    /// Says on the events stream that this lifeline did `kind`, with `fields`.
    fn event(&mut self, kind: &str, fields: Vec<(&str, Vec<u8>)>) -> Result<(), Error> {
        let mut all = vec![("lifeline", ME.into()), ("kind", kind.into())];
        all.extend(fields);
        let _: String = self.con.xadd(self.stream("events"), "*", &all)?;
        Ok(())
    }
}

/// The field `name` of a stream entry, or an error naming it.
fn field<T: FromRedisValue>(entry: &StreamId, name: &str) -> Result<T, Error> {
    entry
        .get(name)
        .ok_or_else(|| format!("entry {} has no field {name:?}", entry.id).into())
}

/// A 32-byte key from 64 hex digits.
fn parse_key(hex: &str) -> Result<[u8; 32], Error> {
    let mut key = [0; 32];
    if hex.len() != 64 {
        return Err("HINDSIGHT_STAMP_KEY must be 64 hex digits (32 bytes)".into());
    }
    for (byte, pair) in key.iter_mut().zip(hex.as_bytes().chunks(2)) {
        let pair = std::str::from_utf8(pair)?;
        *byte = u8::from_str_radix(pair, 16)
            .map_err(|_| format!("HINDSIGHT_STAMP_KEY: {pair:?} is not a hex byte"))?;
    }
    Ok(key)
}
