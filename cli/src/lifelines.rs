//! The executable monitor of a `system` block as the trace crate's
//! [`SystemStepper`]: one [`LifelineMonitor`] per lifeline, the stamps carried
//! from send to receive by the trace driver.
//!
//! Lifeline indices come from the trace decoder, which resolves names against
//! the schema of the same system ([`crate::schema::system_schema`]), so they
//! always name a monitor; an unknown one is treated as a malformed stamp or a
//! lifeline without guards rather than a panic.

use hindsight_compiler::hir::Value;
use hindsight_compiler::system::{LifelineMonitor, MonitorError, Stamp, SystemTables};
use hindsight_compiler::Verdict;
use hindsight_trace::system::SystemStepper;

/// The monitors of every lifeline of one system, before their first event.
pub struct LifelineMonitors<'t> {
    monitors: Vec<LifelineMonitor<'t>>,
}

impl<'t> LifelineMonitors<'t> {
    /// One fresh monitor per lifeline of `system`, in declaration order.
    pub fn new(system: &'t SystemTables) -> Self {
        LifelineMonitors {
            monitors: (0..system.lifelines.len())
                .filter_map(|l| LifelineMonitor::new(system, l))
                .collect(),
        }
    }
}

/// The verdicts of a lifeline the system does not have: none.
const NO_VERDICTS: &[Verdict] = &[];

impl SystemStepper for LifelineMonitors<'_> {
    /// A send the monitor refused (its own clock component is saturated)
    /// travels as its error, reported where the message is received.
    type Stamp = Result<Stamp, MonitorError>;
    type StampError = MonitorError;

    fn on_send(&mut self, lifeline: usize, changes: &[(usize, Value)]) -> Self::Stamp {
        self.monitors
            .get_mut(lifeline)
            .ok_or(MonitorError::MalformedStamp)?
            .on_send(changes)
    }

    fn on_recv(
        &mut self,
        lifeline: usize,
        stamp: &Self::Stamp,
        changes: &[(usize, Value)],
    ) -> Result<(), MonitorError> {
        let stamp = stamp.as_ref().map_err(|e| *e)?;
        match self.monitors.get_mut(lifeline) {
            Some(monitor) => monitor.on_recv(stamp, changes),
            None => Err(MonitorError::MalformedStamp),
        }
    }

    // Acts and choices are never refused: the trace decoder has checked their
    // store changes against the schema of the same system (variables and
    // types), and the monitor's only other refusal, a saturated own clock
    // component, refuses sends alone.
    fn on_act(&mut self, lifeline: usize, changes: &[(usize, Value)]) {
        if let Some(monitor) = self.monitors.get_mut(lifeline) {
            let _ = monitor.on_act(changes);
        }
    }

    fn on_choice(&mut self, lifeline: usize, changes: &[(usize, Value)]) -> &[Verdict] {
        match self.monitors.get_mut(lifeline) {
            Some(monitor) => {
                let _ = monitor.on_choice(changes);
                monitor.guards()
            }
            None => NO_VERDICTS,
        }
    }
}
