//! Generates the Rust code of the benchmark specs into `OUT_DIR`: `bench.rs`
//! (past time), `response.rs` (P3), `trucks.rs` (the IPC-Trucks rules of
//! `examples/trac/ipc_trucks`), `review.rs` and `deploy.rs` (the CPL systems),
//! `synthetic_nN_gG.rs` for the synthetic systems of `src/cpl/synthetic.rs`,
//! `population.rs` (the population benchmark) and `herd64.rs` (its
//! quantifier-free counterpart, `src/population/expanded.rs`, with
//! `herd64_input.rs`, the conversion of 64 agents to its input) and
//! `timed.rs` (duration bounds), `windows.rs` (step windows of any
//! length), `hundred.rs` (100 properties at once) and `abp.rs` (the
//! alternating-bit protocol of `examples/protocols`); it first writes the generated specs to
//! `OUT_DIR`.

use std::path::PathBuf;

// Public in the library, which shares these files with the build script.
#[allow(unreachable_pub)]
#[path = "src/cpl/synthetic.rs"]
mod synthetic;

#[allow(unreachable_pub)]
#[path = "src/population/expanded.rs"]
mod expanded;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/cpl/synthetic.rs");
    println!("cargo:rerun-if-changed=src/population/expanded.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let mut specs: Vec<PathBuf> = [
        "specs/bench.hind",
        "specs/response.hind",
        "../examples/trac/ipc_trucks/trucks.hind",
        "specs/review.hind",
        "specs/deploy.hind",
        "specs/population.hind",
        "specs/timed.hind",
        "specs/windows.hind",
        "specs/hundred.hind",
        "../examples/protocols/abp.hind",
    ]
    .map(PathBuf::from)
    .to_vec();
    for n in synthetic::LIFELINES {
        for g in synthetic::GUARDS {
            let path = out_dir.join(format!("{}.hind", synthetic::name(n, g)));
            let source = synthetic::source(n, g);
            // Rewriting an unchanged spec would make cargo rerun this script.
            if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
                std::fs::write(&path, source).expect("writable OUT_DIR");
            }
            specs.push(path);
        }
    }
    let path = out_dir.join(format!("{}.hind", expanded::NAME));
    let source = expanded::source(expanded::AGENTS);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
        std::fs::write(&path, source).expect("writable OUT_DIR");
    }
    specs.push(path);
    let input = out_dir.join("herd64_input.rs");
    let code = expanded::input_fn(expanded::AGENTS);
    if std::fs::read_to_string(&input).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&input, code).expect("writable OUT_DIR");
    }
    if let Err(error) = hindsight_build::compile(&specs) {
        panic!("{error}");
    }
}
