#[hindsight_macros::monitor(
    enum Mode { on, off }
    monitor m {
        input mode: Mode;
        input level: int;
        property p = level + 1 == on || mode == off;
        property q = O[5,2] (mode == on);
    }
)]
mod rules {}

fn main() {}
