//! Compiles `review.hind` to `$OUT_DIR/review.rs`: the generated stamp and
//! lifeline monitors the actors use. A spec error fails the build.

fn main() {
    hindsight_build::compile(&["review.hind"]).unwrap();
}
