//! Compiles `specs/door.hind` to `$OUT_DIR/door.rs`; a spec error fails the
//! build with the full diagnostic.

fn main() {
    hindsight_build::compile(&["specs/door.hind"]).unwrap();
}
