//! The compiler's executable lifeline monitors (the interpreter on each
//! lifeline's table) running a workload, with stamps carried as bytes.

use hindsight_compiler::interp::system::LifelineMonitor;
use hindsight_compiler::ir::SystemTables;
use hindsight_compiler::{compile, Compiled, Value, Verdict};

use super::workload::{Changes, Workload};
use super::{CplRun, Cursor, RunError};
use hindsight_compiler::interp::system::LayoutCodec;

/// Compiles the workload's spec; the rendered diagnostics if it has errors.
pub fn compiled(workload: &Workload) -> Result<Compiled, String> {
    compile(workload.source)
        .map_err(|diags| hindsight_compiler::diag::render(workload.system, workload.source, &diags))
}

/// Every lifeline's interpreter-based monitor and the workload's cycles.
#[derive(Clone, Debug)]
pub struct InterpretedRun<'t> {
    workload: &'t Workload,
    monitors: Vec<LifelineMonitor<'t>>,
    codec: LayoutCodec<'t>,
    buffer: Vec<u8>,
    len: usize,
    act: Cursor,
    message: Cursor,
}

impl<'t> InterpretedRun<'t> {
    /// The monitors of the workload's system in `compiled`, after its prefix.
    pub fn new(compiled: &'t Compiled, workload: &'t Workload) -> Result<Self, RunError> {
        let system: &SystemTables = compiled
            .program
            .system(workload.system)
            .ok_or("the spec has no such system")?;
        let monitors = (0..system.lifelines.len())
            .map(|l| LifelineMonitor::new(system, l))
            .collect::<Option<Vec<_>>>()
            .ok_or("a lifeline without a table")?;
        let codec = LayoutCodec::new(&system.layout);
        let mut run = InterpretedRun {
            workload,
            monitors,
            buffer: vec![0; codec.max_bytes()],
            codec,
            len: 0,
            act: Cursor::new(workload.acts.len()),
            message: Cursor::new(workload.messages.len()),
        };
        for message in &workload.prefix {
            run.send_to_owner(message.from, &message.send, &message.recv)?;
        }
        Ok(run)
    }

    /// The owner's monitor.
    fn owner(&mut self) -> Result<&mut LifelineMonitor<'t>, RunError> {
        Ok(self
            .monitors
            .get_mut(self.workload.owner)
            .ok_or("no such owner")?)
    }

    /// A message from `from` to the owner, its stamp carried as bytes.
    fn send_to_owner(
        &mut self,
        from: usize,
        send: &[(usize, Value)],
        recv: &[(usize, Value)],
    ) -> Result<usize, RunError> {
        let sender = self.monitors.get_mut(from).ok_or("no such sender")?;
        let stamp = sender.on_send(send)?;
        self.len = self.codec.encode(&stamp, &mut self.buffer)?;
        let stamp = self.codec.decode(self.last_stamp())?;
        self.owner()?.on_recv(&stamp, recv)?;
        Ok(self.len)
    }

    /// The owner's changes at its next local event.
    fn next_act(&mut self) -> Result<&'t Changes, RunError> {
        let workload = self.workload;
        Ok(workload.acts.get(self.act.advance()).ok_or("no acts")?)
    }
}

impl CplRun for InterpretedRun<'_> {
    fn act(&mut self) -> Result<(), RunError> {
        let changes = self.next_act()?;
        Ok(self.owner()?.on_act(changes)?)
    }

    fn choice(&mut self) -> Result<Verdict, RunError> {
        let changes = self.next_act()?;
        let guards = self.owner()?.on_choice(changes)?;
        Ok(guards.first().copied().unwrap_or(Verdict::Unknown))
    }

    fn message(&mut self) -> Result<usize, RunError> {
        let workload = self.workload;
        let (send, recv) = workload
            .messages
            .get(self.message.advance())
            .ok_or("no messages")?;
        self.send_to_owner(workload.sender, send, recv)
    }

    fn guard(&self) -> Verdict {
        self.monitors
            .get(self.workload.owner)
            .and_then(|m| m.guards().first().copied())
            .unwrap_or(Verdict::Unknown)
    }

    fn last_stamp(&self) -> &[u8] {
        self.buffer.get(..self.len).unwrap_or_default()
    }
}
