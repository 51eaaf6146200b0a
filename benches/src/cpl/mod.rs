//! Causal Past Logic benchmarks (docs/benchmarks.md, "Causal Past Logic"):
//! the guard owner's local events and a message from another lifeline to it,
//! for the code-review guard `may_merge` (`specs/review.hind`) and a
//! 25-sub-formula guard over 3 lifelines (`specs/deploy.hind`), run by the
//! generated lifeline monitors and by the compiler's interpreter-based
//! [`LifelineMonitor`](hindsight_compiler::interp::system::LifelineMonitor); and the
//! stamp sizes of synthetic systems.

pub mod generated;
pub mod interpreted;
pub mod synthetic;
pub mod workload;

use hindsight_runtime::Verdict;

/// Why a benchmark run stopped: a refused event or stamp, or a workload that
/// does not fit its system.
pub type RunError = Box<dyn std::error::Error + Send + Sync>;

/// One system's monitors running a [`workload::Workload`]: each call is the
/// next event of one of its cycles.
pub trait CplRun {
    /// The owner's next local action (`on_act`).
    fn act(&mut self) -> Result<(), RunError>;
    /// The owner's next choice (`on_choice`); the guard's verdict at it.
    fn choice(&mut self) -> Result<Verdict, RunError>;
    /// The next message from the sender to the owner: `on_send`, the stamp
    /// encoded to bytes and decoded, `on_recv`; the encoded length.
    fn message(&mut self) -> Result<usize, RunError>;
    /// The owner's (first) guard after its last event.
    fn guard(&self) -> Verdict;
    /// The encoding of the last message's stamp.
    fn last_stamp(&self) -> &[u8];
}

/// A position cycling through `0..len`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    next: usize,
    len: usize,
}

impl Cursor {
    /// At 0, cycling through `0..len`.
    pub fn new(len: usize) -> Self {
        Cursor { next: 0, len }
    }

    /// The current position; moves to the next one.
    #[inline]
    pub fn advance(&mut self) -> usize {
        let current = self.next;
        self.next = if current + 1 >= self.len {
            0
        } else {
            current + 1
        };
        current
    }
}
