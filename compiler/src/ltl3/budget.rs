//! The work budget: the last line of defence that keeps every construction
//! bounded in time and memory, whatever the formula.
//!
//! Every step of the construction that can repeat (an implication goal, a
//! product of two successor tables, a tableau edge, a minimization pass) spends
//! units in proportion to the work it does and to the memory it keeps; when the
//! budget runs out the construction stops with [`OutOfBudget`], which the caller
//! reports as a diagnostic. The count is deterministic, so a spec that compiles
//! compiles on every machine.

/// Work units left.
#[derive(Clone, Debug)]
pub struct Budget {
    left: u64,
    limit: u64,
}

/// The budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutOfBudget;

impl Budget {
    /// A budget of `units` work units.
    pub fn new(units: u64) -> Budget {
        Budget {
            left: units,
            limit: units,
        }
    }

    /// Spends `units` units, or fails if fewer are left.
    pub(crate) fn spend(&mut self, units: usize) -> Result<(), OutOfBudget> {
        let units = units as u64;
        if units > self.left {
            self.left = 0;
            return Err(OutOfBudget);
        }
        self.left -= units;
        Ok(())
    }

    /// Units spent so far.
    pub fn spent(&self) -> u64 {
        self.limit - self.left
    }

    /// The units the budget started with.
    pub fn limit(&self) -> u64 {
        self.limit
    }
}
