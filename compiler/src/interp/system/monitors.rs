//! The executable monitor of a whole `system` block as the runtime's
//! [`SystemMonitor`]: one [`LifelineMonitor`] per lifeline, the stamps carried
//! from send to receive by the caller (the trace driver) — in memory, or with
//! a stamp key as sealed bytes, encoded, sealed, opened and decoded as a
//! deployed system's transport carries them.
//!
//! An unknown lifeline index is refused (as a malformed stamp) rather than a
//! panic.

use super::{LayoutCodec, LifelineMonitor, MonitorError, Stamp};
use crate::interp::protocol::{GroupMonitor, ProtocolMonitor};
use crate::ir::protocol::ProtocolTable;
use crate::ir::SystemTables;
use crate::types::Value;
use crate::Verdict;
use hindsight_runtime::stamp::StampKey;
use hindsight_runtime::system::{MessageEvent, MessageKind, SystemMonitor};

/// The monitors of every lifeline of one system, before their first event.
#[derive(Clone, Debug)]
pub struct SystemInterpreter<'t> {
    system: &'t SystemTables,
    monitors: Vec<LifelineMonitor<'t>>,
    /// With a key: the codec and key stamps travel sealed with.
    sealing: Option<(LayoutCodec<'t>, StampKey)>,
    /// Per protocol: its central monitor and, with a partition, one monitor
    /// per group.
    protocols: Vec<Protocol<'t>>,
}

/// The monitors of one protocol.
#[derive(Clone, Debug)]
struct Protocol<'t> {
    table: &'t ProtocolTable,
    central: ProtocolMonitor<'t>,
    groups: Vec<GroupMonitor<'t>>,
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
            protocols: system
                .protocols
                .iter()
                .map(|table| Protocol {
                    table,
                    central: ProtocolMonitor::new(table),
                    groups: Vec::new(),
                })
                .collect(),
        }
    }

    /// The same monitors, every protocol also monitored decentralized: one
    /// monitor per group of `partition` (lifeline indices), each seeing the
    /// message events that involve its group.
    pub fn with_partition(mut self, partition: &[Vec<usize>]) -> Self {
        for p in &mut self.protocols {
            p.groups = partition
                .iter()
                .map(|group| GroupMonitor::new(p.table, group))
                .collect();
        }
        self
    }

    /// The names of the protocol verdicts a message event gives: per
    /// protocol its name and, with `partition`, `NAME[a,b]` per group (its
    /// lifelines' names).
    pub fn protocol_columns(
        system: &SystemTables,
        partition: Option<&[Vec<usize>]>,
    ) -> Vec<String> {
        let mut columns = Vec::new();
        for table in &system.protocols {
            columns.push(table.name.clone());
            for group in partition.unwrap_or_default() {
                let names: Vec<&str> = group
                    .iter()
                    .filter_map(|&l| system.lifelines.get(l).map(|t| t.name.as_str()))
                    .collect();
                columns.push(format!("{}[{}]", table.name, names.join(",")));
            }
        }
        columns
    }
}

impl<'t> SystemInterpreter<'t> {
    /// The monitor of `lifeline`, if the system has it.
    pub fn monitor(&self, lifeline: usize) -> Option<&LifelineMonitor<'t>> {
        self.monitors.get(lifeline)
    }

    /// Protocol `k`'s table and its central monitor's state.
    pub fn protocol_state(&self, k: usize) -> Option<(&'t ProtocolTable, u32)> {
        self.protocols.get(k).map(|p| (p.table, p.central.state()))
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
        for p in &mut self.protocols {
            p.central.reset();
            for g in &mut p.groups {
                g.reset();
            }
        }
    }

    fn on_message(&mut self, event: &MessageEvent<'_>, verdicts: &mut [Verdict]) -> bool {
        let send = event.kind == MessageKind::Send;
        let mut constrained = false;
        let mut column = 0;
        for p in &mut self.protocols {
            if let Some(e) = p
                .table
                .message_index(send, event.from, event.to, event.label)
            {
                constrained = true;
                p.central.step(e);
                for g in p.groups.iter_mut().filter(|g| g.sees(e)) {
                    g.step(e);
                }
            }
            let own = std::iter::once(p.central.verdict())
                .chain(p.groups.iter().map(GroupMonitor::verdict));
            for v in own {
                if let Some(out) = verdicts.get_mut(column) {
                    *out = v;
                }
                column += 1;
            }
        }
        constrained
    }

    fn protocol_ends(&self, verdicts: &mut [Verdict]) {
        let ends = self.protocols.iter().flat_map(|p| {
            std::iter::once(p.central.end_verdict())
                .chain(p.groups.iter().map(GroupMonitor::end_verdict))
        });
        for (out, v) in verdicts.iter_mut().zip(ends) {
            *out = v;
        }
    }
}

/// One monitor per lifeline of `system` before its first event.
fn fresh(system: &SystemTables) -> Vec<LifelineMonitor<'_>> {
    (0..system.lifelines.len())
        .filter_map(|l| LifelineMonitor::new(system, l))
        .collect()
}
