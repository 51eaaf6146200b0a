//! The executable monitor of a `system` block as the trace crate's
//! [`SystemStepper`]: one [`LifelineMonitor`] per lifeline, the stamps carried
//! from send to receive by the trace driver.
//!
//! Lifeline indices come from the trace decoder, which resolves names against
//! the schema of the same system ([`crate::schema::system_schema`]), so they
//! always name a monitor; an unknown one is refused (as a malformed stamp)
//! rather than a panic.

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

impl<'t> LifelineMonitors<'t> {
    fn lifeline(&mut self, lifeline: usize) -> Result<&mut LifelineMonitor<'t>, MonitorError> {
        self.monitors
            .get_mut(lifeline)
            .ok_or(MonitorError::MalformedStamp)
    }
}

impl SystemStepper for LifelineMonitors<'_> {
    type Stamp = Stamp;
    type Error = MonitorError;

    fn on_send(
        &mut self,
        lifeline: usize,
        changes: &[(usize, Value)],
    ) -> Result<Stamp, MonitorError> {
        self.lifeline(lifeline)?.on_send(changes)
    }

    fn on_recv(
        &mut self,
        lifeline: usize,
        stamp: &Stamp,
        changes: &[(usize, Value)],
    ) -> Result<(), MonitorError> {
        self.lifeline(lifeline)?.on_recv(stamp, changes)
    }

    fn on_act(&mut self, lifeline: usize, changes: &[(usize, Value)]) -> Result<(), MonitorError> {
        self.lifeline(lifeline)?.on_act(changes)
    }

    fn on_choice(
        &mut self,
        lifeline: usize,
        changes: &[(usize, Value)],
    ) -> Result<&[Verdict], MonitorError> {
        self.lifeline(lifeline)?.on_choice(changes)
    }
}
