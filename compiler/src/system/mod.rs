//! Causal Past Logic monitors for `system` blocks (docs/cpl.md): lowering of
//! a checked system into one table per lifeline plus the stamp layout, and
//! the executable per-lifeline monitor (the CPL paper's Algorithms 1-2) that
//! the CLI and the tests run.

mod codec;
mod display;
mod execution;
mod homes;
mod layout;
mod lower;
mod monitor;

pub use codec::LayoutCodec;
pub use execution::{EventKind, SystemError, SystemMonitor};
pub use layout::{EntryId, EntryKind, StampLayout, ViewEntry, CLOCK_BYTES, HEADER_BYTES};
pub use lower::{lower, InputSource, LifelineTable, SystemTables};
pub use monitor::{LifelineMonitor, MonitorError, Stamp};
