//! Generates the Rust code of the benchmark specs into `OUT_DIR`: `bench.rs`
//! (past time), `response.rs` (P3) and `trucks.rs` (the IPC-Trucks rules of
//! `examples/trac/ipc_trucks`).

fn main() {
    let specs = [
        "specs/bench.hind",
        "specs/response.hind",
        "../examples/trac/ipc_trucks/trucks.hind",
    ];
    if let Err(error) = hindsight_build::compile(&specs) {
        panic!("{error}");
    }
}
