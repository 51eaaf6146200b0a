// Code that uses the module of a spec with an error: rustc reports the spec's
// error and nothing about the paths into the module (no E0432, E0433).
#[hindsight_macros::monitor(
    monitor door {
        input request: bool;
        input grant: bool;
        property answered = grant -> O requets;
    }
)]
mod rules {}

use rules::{Input, Monitor};

fn main() {
    let mut guard = Monitor::new();
    let verdicts = guard.step(&Input { request: true, grant: false });
    let _ = rules::door::Verdicts::NAMES;
    let _ = verdicts.answered;
}
