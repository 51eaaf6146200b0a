#[hindsight_macros::monitor(
    monitor door {
        input request: bool;
        input grant: bool;
        property answered = grant -> O requets;
    }
)]
mod rules {}

fn main() {}
