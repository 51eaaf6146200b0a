//! Generates the Rust code of `examples/trucks/trucks.hind` into `OUT_DIR/trucks.rs`
//! and of the population `herd.hind` into `OUT_DIR/herd.rs` through the build
//! API users call.

fn main() {
    if let Err(error) =
        hindsight_build::compile(&["../../examples/trucks/trucks.hind", "herd.hind"])
    {
        panic!("{error}");
    }
}
