//! Behaviour of the checker, lowering, LTL3 construction, interpreter and code generator.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod analysis_warnings;
mod check_diagnostics;
mod check_fuzz;
mod check_hir;
mod check_population;
mod check_system;
mod check_system_diagnostics;
mod future_diagnostics;
mod interp_api;
mod interp_operators;
mod interp_support;
mod interp_windows;
mod lower_examples;
mod lower_tables;
mod lower_timed;
mod ltl3_cases;
mod ltl3_oracle;
mod ltl3_sizes;
mod ltl3_support;
mod population_analysis;
mod population_interp;
mod population_lower;
mod population_support;
mod protocols;
mod spec_files;
mod spec_support;
mod symbols;
mod system_lowering;
