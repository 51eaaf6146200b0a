//! A system's protocols from Python (docs/language.md, section 4e): the
//! central monitor of a protocol or the monitor of one group of lifelines,
//! fed message events by lifeline names, run by the compiler's interpreter
//! over the lowered automaton (`hindsight_compiler::interp::protocol`).

use crate::InputError;
use hindsight_cli::why::protocol_why;
use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};
use hindsight_compiler::ir::protocol::{ProtocolTable, VIOLATION};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// What a protocol monitor runs over: the protocol's automaton and the
/// system's lifelines, in declaration order.
pub(crate) struct ProtocolOwner {
    table: ProtocolTable,
    lifelines: Vec<String>,
}

/// The central monitor, or a group's.
enum Running<'t> {
    /// Sees every event of the protocol.
    Central(ProtocolMonitor<'t>),
    /// Sees the events involving its group; the lifeline indices with it.
    Group(GroupMonitor<'t>, Vec<usize>),
}

self_cell::self_cell!(
    /// A protocol's automaton and a monitor running it.
    struct ProtocolCell {
        owner: ProtocolOwner,
        #[covariant]
        dependent: Running,
    }
);

/// One protocol's monitor: central, or of a group of lifelines.
#[pyclass(module = "hindsight._native")]
pub(crate) struct NativeProtocol {
    cell: ProtocolCell,
    /// The central monitor's state before the last event it took, for
    /// `why` (a violation names what that state expected).
    before: u32,
}

impl NativeProtocol {
    /// The monitor of `table` over the lifelines `lifelines`: central, or
    /// of the group of lifelines named `group`.
    pub(crate) fn new(
        table: ProtocolTable,
        lifelines: Vec<String>,
        group: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let indices = match group {
            None => None,
            Some(names) => Some(lifeline_indices(&lifelines, &names)?),
        };
        let before = table.initial;
        let cell = ProtocolCell::new(ProtocolOwner { table, lifelines }, |owner| match indices {
            None => Running::Central(ProtocolMonitor::new(&owner.table)),
            Some(group) => Running::Group(GroupMonitor::new(&owner.table, &group), group),
        });
        Ok(NativeProtocol { cell, before })
    }

    /// The index of lifeline `name`, or `InputError` naming the lifelines.
    fn lifeline(&self, name: &str) -> PyResult<usize> {
        lifeline_index(
            &self.cell.borrow_owner().lifelines,
            name,
            InputError::new_err,
        )
    }
}

/// The index of lifeline `name` among `lifelines`, or the error `error`
/// makes of a message naming them.
fn lifeline_index(
    lifelines: &[String],
    name: &str,
    error: impl Fn(String) -> PyErr,
) -> PyResult<usize> {
    lifelines.iter().position(|l| l == name).ok_or_else(|| {
        error(format!(
            "no lifeline `{name}` (the lifelines: {})",
            lifelines.join(", ")
        ))
    })
}

/// The indices of the lifelines `names` (each at most once).
fn lifeline_indices(lifelines: &[String], names: &[String]) -> PyResult<Vec<usize>> {
    let mut group = Vec::with_capacity(names.len());
    for name in names {
        let l = lifeline_index(lifelines, name, PyValueError::new_err)?;
        if group.contains(&l) {
            return Err(PyValueError::new_err(format!(
                "lifeline `{name}` is named twice in the group"
            )));
        }
        group.push(l);
    }
    if group.is_empty() {
        return Err(PyValueError::new_err("a group names at least one lifeline"));
    }
    Ok(group)
}

#[pymethods]
impl NativeProtocol {
    /// The protocol's name.
    #[getter]
    fn name(&self) -> String {
        self.cell.borrow_owner().table.name.clone()
    }

    /// The lifelines of the group (in the order given), or `None` for the
    /// central monitor.
    #[getter]
    fn group(&self) -> Option<Vec<String>> {
        let lifelines = &self.cell.borrow_owner().lifelines;
        match self.cell.borrow_dependent() {
            Running::Central(_) => None,
            Running::Group(_, group) => Some(group.iter().map(|&l| lifelines[l].clone()).collect()),
        }
    }

    /// Whether each message is one event (`sync`) rather than a send and
    /// a receipt (`async`).
    #[getter]
    fn synchronous(&self) -> bool {
        self.cell.borrow_owner().table.model
            == hindsight_compiler::ir::protocol::Communication::Synchronous
    }

    /// A message's send (or its receipt, `receipt`) from `sender` to
    /// `receiver` labelled `label`; whether the monitor took it (an event
    /// of the protocol, and for a group one involving it). Unknown
    /// lifelines raise `InputError`; a label the protocol does not know is
    /// an event it does not constrain.
    #[pyo3(signature = (sender, receiver, label, receipt=false))]
    fn on_message(
        &mut self,
        sender: &str,
        receiver: &str,
        label: &str,
        receipt: bool,
    ) -> PyResult<bool> {
        let (from, to) = (self.lifeline(sender)?, self.lifeline(receiver)?);
        let event = self
            .cell
            .borrow_owner()
            .table
            .message_index(!receipt, from, to, label);
        let Some(event) = event else {
            return Ok(false);
        };
        let mut before = self.before;
        let took = self.cell.with_dependent_mut(|_, running| match running {
            Running::Central(monitor) => {
                // After a violation, the state before it stays the one to
                // explain.
                if monitor.state() != VIOLATION {
                    before = monitor.state();
                }
                monitor.step(event);
                true
            }
            Running::Group(monitor, _) => {
                let sees = monitor.sees(event);
                if sees {
                    monitor.step(event);
                }
                sees
            }
        });
        self.before = before;
        Ok(took)
    }

    /// The verdict after the events taken: `false` after a violation,
    /// `true` where the protocol may end, `?` where it needs more events.
    fn verdict(&self) -> &'static str {
        match self.cell.borrow_dependent() {
            Running::Central(monitor) => monitor.verdict().as_str(),
            Running::Group(monitor, _) => monitor.verdict().as_str(),
        }
    }

    /// The verdict if the trace ended now (`?` becomes `false`).
    fn finish(&self) -> &'static str {
        match self.cell.borrow_dependent() {
            Running::Central(monitor) => monitor.end_verdict().as_str(),
            Running::Group(monitor, _) => monitor.end_verdict().as_str(),
        }
    }

    /// Why the central monitor is where it is, as `hindsight check
    /// --explain` says it: the event types it expected at a violation,
    /// otherwise what it still requires. `None` for a group's monitor.
    fn why(&self) -> Option<String> {
        let owner = self.cell.borrow_owner();
        match self.cell.borrow_dependent() {
            Running::Central(monitor) => Some(protocol_why(
                &owner.table,
                self.before,
                monitor.state(),
                &owner.lifelines,
            )),
            Running::Group(..) => None,
        }
    }

    /// Back to the state before any event.
    fn reset(&mut self) {
        self.before = self.cell.borrow_owner().table.initial;
        self.cell.with_dependent_mut(|_, running| match running {
            Running::Central(monitor) => monitor.reset(),
            Running::Group(monitor, _) => monitor.reset(),
        });
    }
}
