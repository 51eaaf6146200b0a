//! The simulated world: one truck, two packages, three areas.

use crate::rules::{Action, Area, Input};
use std::fmt;

/// A tool call the model can propose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolCall {
    /// Drive the truck to an area.
    Drive(Area),
    /// Load a package (1 or 2) onto the truck.
    Load(i64),
    /// Unload a package where the truck is.
    Unload(i64),
    /// Hand a package over to its recipient.
    Deliver(i64),
}

impl ToolCall {
    /// The monitor input for running this call with the truck in `area`.
    pub fn input(self, area: Area) -> Input {
        let (action, pkg) = match self {
            ToolCall::Drive(_) => (Action::drive, 0),
            ToolCall::Load(p) => (Action::load, p),
            ToolCall::Unload(p) => (Action::unload, p),
            ToolCall::Deliver(p) => (Action::deliver, p),
        };
        Input { action, area, pkg }
    }
}

impl fmt::Display for ToolCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolCall::Drive(to) => write!(f, "drive to {to:?}"),
            ToolCall::Load(p) => write!(f, "load package {p}"),
            ToolCall::Unload(p) => write!(f, "unload package {p}"),
            ToolCall::Deliver(p) => write!(f, "deliver package {p}"),
        }
    }
}

/// Where a package is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Lying in an area.
    In(Area),
    /// On the truck.
    OnTruck,
    /// Handed over.
    Delivered,
}

/// The state of the world. It runs whatever it is told: keeping to the rules
/// is the guard's job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    /// Where the truck is.
    pub truck: Area,
    /// Where packages 1 and 2 are.
    pub packages: [Place; 2],
}

impl Default for World {
    /// The truck at the depot, both packages waiting in a1.
    fn default() -> Self {
        World {
            truck: Area::depot,
            packages: [Place::In(Area::a1); 2],
        }
    }
}

impl World {
    /// Runs a tool call; a package number other than 1 or 2 changes nothing.
    pub fn run(&mut self, call: ToolCall) {
        let truck = self.truck;
        let index = |p: i64| p.checked_sub(1).and_then(|i| usize::try_from(i).ok());
        let (pkg, to) = match call {
            ToolCall::Drive(to) => {
                self.truck = to;
                return;
            }
            ToolCall::Load(p) => (index(p), Place::OnTruck),
            ToolCall::Unload(p) => (index(p), Place::In(truck)),
            ToolCall::Deliver(p) => (index(p), Place::Delivered),
        };
        if let Some(slot) = pkg.and_then(|i| self.packages.get_mut(i)) {
            *slot = to;
        }
    }
}
