#[hindsight_macros::monitor("
monitor m {
    input a: bool;
    property p = a S[5,2] a;
}
")]
mod rules {}

fn main() {}
