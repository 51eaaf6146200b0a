//! 100 past-time properties at once (`specs/hundred.hind`) over the standard
//! trace: the generated monitor, the interpreter and machine code, each
//! counting the verdicts that are true, for the per-event cost of a large spec.

use hindsight_runtime::{StepMonitor, Value, Verdict};

use crate::trace::{has, Event, ALARM, GRANT, P, Q, R, REQUEST, RESET, S, T};

hindsight_runtime::include_monitors!("hundred");

/// The spec's source.
pub const SPEC: &str = include_str!("../specs/hundred.hind");

/// The trace bits of the monitor's inputs, in input order.
pub const INPUTS: [Event; 9] = [REQUEST, RESET, ALARM, GRANT, P, Q, R, S, T];

/// How many of the 100 verdicts are true.
fn trues(verdicts: &[Verdict]) -> usize {
    verdicts.iter().filter(|&&v| v == Verdict::True).count()
}

/// The generated monitor over `trace`: `each` is told how many verdicts are
/// true after every step.
pub fn generated(trace: &[Event], mut each: impl FnMut(usize)) {
    let mut monitor = hundred::Monitor::new();
    for &e in trace {
        each({
            let input = hundred::Input {
                request: has(e, REQUEST),
                reset: has(e, RESET),
                alarm: has(e, ALARM),
                grant: has(e, GRANT),
                p: has(e, P),
                q: has(e, Q),
                r: has(e, R),
                s: has(e, S),
                t: has(e, T),
            };
            trues(&monitor.step(&input).to_array())
        });
    }
}

/// A monitor of the table (the interpreter, machine code) over `trace`:
/// `each` is told how many verdicts are true after every step.
pub fn driven(mut monitor: impl StepMonitor, trace: &[Event], mut each: impl FnMut(usize)) {
    let mut verdicts = [Verdict::Unknown; 100];
    for &e in trace {
        monitor.step_values(&INPUTS.map(|bit| Value::Bool(has(e, bit))), &mut verdicts);
        each(trues(&verdicts));
    }
}
