//! Checks `session.jsonl` (or the log named on the command line) with the
//! generated coding-agent monitor and prints the verdict lines.

use std::fs::File;
use std::io::{self, BufReader};
use std::process::ExitCode;

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/session.jsonl").to_string());
    let log = match File::open(&path) {
        Ok(file) => BufReader::new(file),
        Err(e) => {
            eprintln!("error: cannot open `{path}`: {e}");
            return ExitCode::from(2);
        }
    };
    match coding_agent_example::check_log(log, io::stdout().lock()) {
        Ok(checked) => {
            for warning in &checked.warnings {
                eprintln!("warning: {path}: {warning}");
            }
            ExitCode::from(u8::from(checked.violated))
        }
        Err(e) => {
            eprintln!("error: {path}: {e:?}");
            ExitCode::from(2)
        }
    }
}
