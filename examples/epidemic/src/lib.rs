//! A small SIR epidemic (susceptible → infected → recovered) among agents
//! split into female and male groups, monitored online: after every simulated
//! day the population monitor generated from `epidemic.hind` gives the verdict
//! of each population property. The same run can be written as a JSON Lines
//! log that `hindsight check` audits with the same verdicts.

pub mod log;
pub mod sim;

/// The monitor generated from `epidemic.hind` by build.rs.
pub mod monitors {
    hindsight_runtime::include_monitors!("epidemic");
}

pub use monitors::{epidemic, Health};
