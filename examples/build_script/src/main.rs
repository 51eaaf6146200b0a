//! Runs the build-script-generated door monitor over a short log and prints
//! one line of verdicts per step, then the end-of-trace verdicts.

use build_script_example::{door, input, TRACE};
use hindsight_runtime::Verdict;

fn main() {
    println!("step  {}", door::Verdicts::NAMES.join("  "));
    let mut monitor = door::Monitor::new();
    for (step, &row) in TRACE.iter().enumerate() {
        println!(
            "{step:>4}  {}",
            row_text(monitor.step(&input(row)).to_array())
        );
    }
    println!(" end  {}", row_text(monitor.finish().to_array()));
}

/// The verdicts, each in a column as wide as its property's name.
fn row_text(verdicts: [Verdict; 4]) -> String {
    let cells: Vec<String> = door::Verdicts::NAMES
        .iter()
        .zip(verdicts)
        .map(|(name, verdict)| format!("{:<width$}", verdict.as_str(), width = name.len()))
        .collect();
    cells.join("  ").trim_end().to_string()
}
