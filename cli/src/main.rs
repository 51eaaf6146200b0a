//! The `hindsight` command.

fn main() {}
