//! Generates the Rust code of `examples/trucks/trucks.hind` into `OUT_DIR/trucks.rs`
//! of the population `herd.hind` into `OUT_DIR/herd.rs` and of the
//! alternating-bit protocol into `OUT_DIR/abp.rs` through the build API users
//! call, and the code-review system with sealed stamps into
//! `OUT_DIR/review.rs`.

fn main() {
    if let Err(error) = hindsight_build::compile(&[
        "../../examples/trucks/trucks.hind",
        "herd.hind",
        "../../examples/protocols/abp.hind",
    ]) {
        panic!("{error}");
    }
    if let Err(error) = hindsight_build::Config::new()
        .sealed_stamps(true)
        .compile(&["../codegen/specs/system_review.hind"])
    {
        panic!("{error}");
    }
}
