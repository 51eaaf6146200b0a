//! Synthetic systems for the stamp-size table: `n` lifelines `L0 … L(n-1)`,
//! each with a `bool` `ok` and one `int` per guard, and `g` guards; guard `k`
//! is owned by `L(k mod n)` and reads, about the next lifeline `R`, a formula
//! `@R (O[0,k+1] ok)` and a variable `R.xk`. Every guard's formula and variable
//! differ, so each guard adds one formula entry and one `int` entry to the
//! stamp. Also included by `build.rs`, which generates their code.

/// The lifeline counts of the synthetic systems.
pub const LIFELINES: [usize; 3] = [2, 4, 8];

/// The guard counts of the synthetic systems.
pub const GUARDS: [usize; 3] = [1, 4, 16];

/// The name of the synthetic system with `lifelines` lifelines and `guards`
/// guards: its spec's file stem and generated module.
pub fn name(lifelines: usize, guards: usize) -> String {
    format!("synthetic_n{lifelines}_g{guards}")
}

/// The spec source of that system (system `s`).
pub fn source(lifelines: usize, guards: usize) -> String {
    let vars: Vec<String> = (0..guards).map(|k| format!(", x{k}: int")).collect();
    let vars = vars.concat();
    let mut spec = String::from("system s {\n");
    for l in 0..lifelines {
        spec += &format!("    lifeline L{l} {{ ok: bool{vars} }}\n");
    }
    for k in 0..guards {
        let (owner, remote) = (k % lifelines, (k + 1) % lifelines);
        spec += &format!(
            "    guard g{k} at L{owner} = @L{remote} (O[0,{}] ok) && L{remote}.x{k} > 0;\n",
            k + 1
        );
    }
    spec + "}\n"
}
