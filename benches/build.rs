//! Generates the Rust code of the benchmark specs into `OUT_DIR`: `bench.rs`
//! (past time), `response.rs` (P3), `trucks.rs` (the IPC-Trucks rules of
//! `examples/trac/ipc_trucks`), `review.rs` and `deploy.rs` (the CPL systems),
//! and `synthetic_nN_gG.rs` for the synthetic systems of
//! `src/cpl/synthetic.rs`, whose specs it first writes to `OUT_DIR`.

use std::path::PathBuf;

#[path = "src/cpl/synthetic.rs"]
mod synthetic;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/cpl/synthetic.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let mut specs: Vec<PathBuf> = [
        "specs/bench.hind",
        "specs/response.hind",
        "../examples/trac/ipc_trucks/trucks.hind",
        "specs/review.hind",
        "specs/deploy.hind",
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
    if let Err(error) = hindsight_build::compile(&specs) {
        panic!("{error}");
    }
}
