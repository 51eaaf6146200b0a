//! The independent test oracle for Causal Past Logic (`system` blocks): the
//! execution model (message sequence charts with a causal order computed by
//! reachability), the denotational evaluator, random systems and executions,
//! printers to source and JSON Lines traces, and the paper's scenarios.

pub mod gen;
pub mod msc;
pub mod print;
pub mod reference;
pub mod scenarios;
