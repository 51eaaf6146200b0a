//! Pictures of Hindsight runs and specs, as self-contained SVG and HTML (no
//! scripts or styles from the network; every page readable without
//! JavaScript):
//!
//! - [`msc`]: a system run as a message sequence chart, with the causal past
//!   of a guard evaluation shaded (the CPL paper's Figure 2);
//! - [`automaton`]: a property's LTL3 automaton and a block's past table as
//!   Graphviz DOT and as SVG;
//! - [`report`]: an audit of many runs as one HTML page.
//!
//! The crate draws what it is given: the CLI (`hindsight draw`, `hindsight explain
//! --format`, `hindsight check --report`) fills the models from the compiler and the trace reader.

pub mod automaton;
pub mod msc;
pub mod report;
mod svg;
