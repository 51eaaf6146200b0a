//! Compiles `epidemic.hind` to `$OUT_DIR/epidemic.rs`: the population monitor
//! the simulation drives. A spec error fails the build.

fn main() {
    hindsight_build::compile(&["epidemic.hind"]).unwrap();
}
