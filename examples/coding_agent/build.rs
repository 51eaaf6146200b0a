//! Compiles `rules.hind` and `timing.hind` to `$OUT_DIR/rules.rs` and
//! `$OUT_DIR/timing.rs`.

fn main() {
    hindsight_build::compile(&["rules.hind", "timing.hind"]).unwrap();
}
