//! The compiler's interpreter running the monitors of `specs/bench.hind`, fed
//! the standard trace's events.

use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::Compiled;
use hindsight_runtime::{Value, Verdict};

use crate::trace::{has, Event};
use crate::{compile_spec, EventMonitor};

/// The benchmark spec's source.
pub const SPEC: &str = include_str!("../specs/bench.hind");

/// The benchmark spec compiled to tables ([`compile_spec`]).
pub fn compiled() -> Compiled {
    compile_spec("bench.hind", SPEC)
}

/// The interpreter on one monitor, reading its inputs from the event bits `inputs`
/// (input `k` of the monitor is `has(event, inputs[k])`).
pub struct Interpreted<'t> {
    interp: Interpreter<'t>,
    inputs: &'static [Event],
}

impl<'t> Interpreted<'t> {
    /// The interpreter on `table` in its initial state (at most 9 inputs).
    pub fn new(table: &'t Table, inputs: &'static [Event]) -> Self {
        Interpreted {
            interp: Interpreter::new(table),
            inputs,
        }
    }
}

impl EventMonitor for Interpreted<'_> {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        let mut values = [Value::Bool(false); 9];
        for (value, &input) in values.iter_mut().zip(self.inputs) {
            *value = Value::Bool(has(e, input));
        }
        let inputs = values.get(..self.inputs.len()).unwrap_or(&values);
        let verdicts = self.interp.step(inputs);
        verdicts
            .iter()
            .enumerate()
            .fold(0, |bits, (k, &v)| bits | u8::from(v == Verdict::True) << k)
    }
}
