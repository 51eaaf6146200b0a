//! The generated monitors of `specs/population.hind` (module `herd`) and of its
//! quantifier-free counterpart for 64 agents (module `herd64`, spec written by
//! the build script from [`super::expanded`]), with the conversion of a step's
//! agents to `herd64`'s input ([`expanded_input`], also written by the build script).

hindsight_runtime::include_monitors!("population");
hindsight_runtime::include_monitors!("herd64");
include!(concat!(env!("OUT_DIR"), "/herd64_input.rs"));
