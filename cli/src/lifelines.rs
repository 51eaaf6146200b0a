//! The executable monitor of a `system` block as the trace crate's
//! [`SystemStepper`]: one [`LifelineMonitor`] per lifeline, the stamps carried
//! from send to receive by the trace driver — in memory, or with a stamp key
//! as sealed bytes, encoded, sealed, opened and decoded as a deployed system's
//! transport carries them.
//!
//! Lifeline indices come from the trace decoder, which resolves names against
//! the schema of the same system ([`crate::schema::system_schema`]), so they
//! always name a monitor; an unknown one is refused (as a malformed stamp)
//! rather than a panic.

use hindsight_compiler::hir::Value;
use hindsight_compiler::interp::system::{LayoutCodec, LifelineMonitor, MonitorError, Stamp};
use hindsight_compiler::ir::SystemTables;
use hindsight_compiler::Verdict;
use hindsight_runtime::stamp::StampKey;
use hindsight_trace::system::SystemStepper;

/// The monitors of every lifeline of one system, before their first event.
pub struct LifelineMonitors<'t> {
    monitors: Vec<LifelineMonitor<'t>>,
    /// With a key: the codec and key stamps travel sealed with.
    sealing: Option<(LayoutCodec<'t>, StampKey)>,
}

/// A stamp on its way from a send to its receive.
#[derive(Clone, Debug)]
pub enum Carried {
    /// The interpreter's stamp itself.
    Memory(Stamp),
    /// Its sealed bytes.
    Sealed(Vec<u8>),
}

impl<'t> LifelineMonitors<'t> {
    /// One fresh monitor per lifeline of `system`, in declaration order;
    /// with `key`, stamps travel as bytes sealed under it.
    pub fn new(system: &'t SystemTables, key: Option<StampKey>) -> Self {
        LifelineMonitors {
            monitors: (0..system.lifelines.len())
                .filter_map(|l| LifelineMonitor::new(system, l))
                .collect(),
            sealing: key.map(|key| (LayoutCodec::new(&system.layout), key)),
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
    type Stamp = Carried;
    type Error = MonitorError;

    fn on_send(
        &mut self,
        lifeline: usize,
        changes: &[(usize, Value)],
    ) -> Result<Carried, MonitorError> {
        let stamp = self.lifeline(lifeline)?.on_send(changes)?;
        Ok(match &self.sealing {
            Some((codec, key)) => Carried::Sealed(codec.seal(&stamp, key)?),
            None => Carried::Memory(stamp),
        })
    }

    fn on_recv(
        &mut self,
        lifeline: usize,
        stamp: &Carried,
        changes: &[(usize, Value)],
    ) -> Result<(), MonitorError> {
        let opened;
        let stamp = match (stamp, &self.sealing) {
            (Carried::Memory(stamp), None) => stamp,
            (Carried::Sealed(bytes), Some((codec, key))) => {
                opened = codec.open(bytes, key)?;
                &opened
            }
            _ => return Err(MonitorError::Unauthenticated),
        };
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
