//! The monitors of `specs/bench.hind` run from their tables — by the
//! compiler's interpreter or as machine code (`hindsight-jit`), the two
//! engines of `hindsight check` — fed the standard trace's events.

use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::Compiled;
use hindsight_jit::JitMonitor;
use hindsight_runtime::{StepMonitor, Value, Verdict};

use crate::trace::{has, Event};
use crate::{compile_spec, EventMonitor};

/// The benchmark spec's source.
pub const SPEC: &str = include_str!("../specs/bench.hind");

/// The benchmark spec compiled to tables ([`compile_spec`]).
pub fn compiled() -> Compiled {
    compile_spec("bench.hind", SPEC)
}

/// A table's monitor on values, reading its inputs from the event bits
/// `inputs` (input `k` of the monitor is `has(event, inputs[k])`).
pub struct Interpreted<M> {
    monitor: M,
    inputs: &'static [Event],
    /// One value per input.
    values: Vec<Value>,
    /// One verdict per property.
    verdicts: Vec<Verdict>,
}

impl<'t> Interpreted<Interpreter<'t>> {
    /// The interpreter on `table` in its initial state (at most 8 properties).
    pub fn new(table: &'t Table, inputs: &'static [Event]) -> Self {
        Interpreted::of(Interpreter::new(table), inputs, table.outputs.len())
    }
}

impl Interpreted<JitMonitor> {
    /// `table` as machine code in its initial state (at most 8 properties).
    pub fn jit(table: &Table, inputs: &'static [Event]) -> Self {
        Interpreted::of(machine_code(table), inputs, table.outputs.len())
    }
}

/// `table` as machine code (every benchmark table compiles).
pub fn machine_code(table: &Table) -> JitMonitor {
    JitMonitor::new(table).expect("the table compiles to machine code")
}

impl<M: StepMonitor> Interpreted<M> {
    /// `monitor` of `properties` properties, reading `inputs`.
    pub fn of(monitor: M, inputs: &'static [Event], properties: usize) -> Self {
        Interpreted {
            monitor,
            inputs,
            values: vec![Value::Bool(false); inputs.len()],
            verdicts: vec![Verdict::Unknown; properties],
        }
    }
}

impl<M: StepMonitor> EventMonitor for Interpreted<M> {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        for (value, &input) in self.values.iter_mut().zip(self.inputs) {
            *value = Value::Bool(has(e, input));
        }
        self.monitor.step_values(&self.values, &mut self.verdicts);
        self.verdicts
            .iter()
            .enumerate()
            .fold(0, |bits, (k, &v)| bits | u8::from(v == Verdict::True) << k)
    }
}
