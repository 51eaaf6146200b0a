//! Runs the scripted Figure 2 scenarios and one randomized run (seed from the
//! first argument, default 2026) and prints their transcripts.

use code_review::review::Stamp;
use code_review::{random, scenarios, transcript};
use std::process::ExitCode;

/// The randomized run's seed when none is given.
const DEFAULT_SEED: u64 = 2026;

fn main() -> ExitCode {
    let seed = match std::env::args().nth(1).map(|s| s.parse::<u64>()) {
        None => DEFAULT_SEED,
        Some(Ok(seed)) => seed,
        Some(Err(e)) => {
            eprintln!("error: the seed must be a non-negative integer: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "system review: stamps take at most {} bytes (code_review/review.hind)\n",
        Stamp::BYTES
    );
    for scenario in scenarios::all() {
        println!("== {}: {}", scenario.name, scenario.story);
        match scenario.run() {
            Ok(log) => {
                print!("{}", transcript::render(&log));
                println!(
                    "  Committer decisions: {}\n",
                    transcript::decisions(&log).join(", ")
                );
            }
            Err(e) => {
                eprintln!("error: scenario {} failed: {e}", scenario.name);
                return ExitCode::FAILURE;
            }
        }
    }
    match random::run(seed) {
        Ok((program, log)) => {
            println!("== random run, seed {seed}: {program}");
            print!("{}", transcript::render(&log));
            println!(
                "  Committer decisions: {}",
                transcript::decisions(&log).join(", ")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: random run (seed {seed}) failed: {e}");
            ExitCode::FAILURE
        }
    }
}
