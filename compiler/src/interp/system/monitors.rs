//! The executable monitor of a whole `system` block as the runtime's
//! [`SystemMonitor`]: one [`LifelineMonitor`] per lifeline, the stamps carried
//! from send to receive by the caller (the trace driver) — in memory, or with
//! a stamp key as sealed bytes, encoded, sealed, opened and decoded as a
//! deployed system's transport carries them.
//!
//! An unknown lifeline index is refused (as a malformed stamp) rather than a
//! panic.

use super::{LayoutCodec, LifelineMonitor, MonitorError, Stamp};
use crate::ir::SystemTables;
use crate::types::Value;
use crate::Verdict;
use hindsight_runtime::stamp::StampKey;
use hindsight_runtime::system::SystemMonitor;

/// The monitors of every lifeline of one system, before their first event.
#[derive(Clone, Debug)]
pub struct SystemInterpreter<'t> {
    system: &'t SystemTables,
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

impl<'t> SystemInterpreter<'t> {
    /// One fresh monitor per lifeline of `system`, in declaration order;
    /// with `key`, stamps travel as bytes sealed under it.
    pub fn new(system: &'t SystemTables, key: Option<StampKey>) -> Self {
        SystemInterpreter {
            system,
            monitors: fresh(system),
            sealing: key.map(|key| (LayoutCodec::new(&system.layout), key)),
        }
    }
}

impl<'t> SystemInterpreter<'t> {
    /// The monitor of `lifeline`, if the system has it.
    pub fn monitor(&self, lifeline: usize) -> Option<&LifelineMonitor<'t>> {
        self.monitors.get(lifeline)
    }

    fn lifeline(&mut self, lifeline: usize) -> Result<&mut LifelineMonitor<'t>, MonitorError> {
        self.monitors
            .get_mut(lifeline)
            .ok_or(MonitorError::MalformedStamp)
    }
}

impl SystemMonitor for SystemInterpreter<'_> {
    type Stamp = Carried;

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
        guards: &mut [Verdict],
    ) -> Result<(), MonitorError> {
        let verdicts = self.lifeline(lifeline)?.on_choice(changes)?;
        for (out, &verdict) in guards.iter_mut().zip(verdicts) {
            *out = verdict;
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.monitors = fresh(self.system);
    }
}

/// One monitor per lifeline of `system` before its first event.
fn fresh(system: &SystemTables) -> Vec<LifelineMonitor<'_>> {
    (0..system.lifelines.len())
        .filter_map(|l| LifelineMonitor::new(system, l))
        .collect()
}
