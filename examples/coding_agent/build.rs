//! Compiles `rules.hind` to `$OUT_DIR/rules.rs`.

fn main() {
    hindsight_build::compile(&["rules.hind"]).unwrap();
}
