//! Generates the Rust code of `specs/bench.hind` into `OUT_DIR/bench.rs`.

fn main() {
    if let Err(error) = hindsight_build::compile(&["specs/bench.hind"]) {
        panic!("{error}");
    }
}
