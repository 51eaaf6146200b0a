#[hindsight_macros::monitor(
    monitor m {
        input a: bool;
        property p = a && -> a;
    }
)]
mod rules {}

fn main() {}
