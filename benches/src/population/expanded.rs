//! The quantifier-free counterpart of `specs/population.hind` for a fixed
//! number of agents: a `monitor` with inputs `infected_k` and `exposed_k` per
//! agent `k`, the past-time property expanded into one conjunction, and the
//! per-agent future body as one property per agent (their conjunction as one
//! formula would need an automaton over `2 × agents` atoms). Also included by
//! `build.rs`, which writes the spec for [`AGENTS`] agents and generates its code.

/// The number of agents of the expanded monitor.
pub const AGENTS: usize = 64;

/// The name of the expanded monitor: its spec's file stem and generated module.
pub const NAME: &str = "herd64";

/// The spec source of the expanded monitor for `agents` agents: property
/// `infected_after_exposure` (the conjunction over every agent of
/// `infected_k -> O[0,9] exposed_k`) and properties `answered_k` =
/// `G (exposed_k -> F infected_k)`.
pub fn source(agents: usize) -> String {
    let mut spec = format!("monitor {NAME} {{\n");
    for k in 0..agents {
        spec += &format!("    input infected_{k}: bool;\n    input exposed_{k}: bool;\n");
    }
    let conjuncts: Vec<String> = (0..agents)
        .map(|k| format!("(infected_{k} -> O[0,9] exposed_{k})"))
        .collect();
    spec += &format!(
        "    property infected_after_exposure =\n        {};\n",
        conjuncts.join("\n        && ")
    );
    for k in 0..agents {
        spec += &format!("    property answered_{k} = G (exposed_{k} -> F infected_{k});\n");
    }
    spec + "}\n"
}

/// Rust source of `fn expanded_input(agents: &[Agent]) -> herd64::Input`
/// (written by `build.rs` next to the generated code): agent `k`'s attributes
/// as inputs `infected_k` and `exposed_k`, `false` for missing agents.
pub fn input_fn(agents: usize) -> String {
    let mut code = String::from(
        "/// The expanded monitor's input for one step: agent `k`'s attributes as\n\
         /// inputs `infected_k` and `exposed_k` (`false` for missing agents).\n\
         #[allow(clippy::get_first)]\n\
         pub fn expanded_input(agents: &[herd::Agent]) -> herd64::Input {\n    herd64::Input {\n",
    );
    for k in 0..agents {
        code += &format!(
            "        infected_{k}: agents.get({k}).is_some_and(|a| a.infected),\n        \
             exposed_{k}: agents.get({k}).is_some_and(|a| a.exposed),\n"
        );
    }
    code + "    }\n}\n"
}
