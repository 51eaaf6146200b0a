//! Runs the epidemic and prints the population verdicts after every day.
//!
//! ```text
//! cargo run -p epidemic -- [--agents N] [--days D] [--seed S] [--log FILE]
//! ```
//! `--log FILE` also writes the run as a JSON Lines trace for `hindsight check`.

use epidemic::epidemic::{Monitor, Verdicts};
use epidemic::sim::{Config, Simulation};
use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let (config, log_path) = parse_args()?;
    let mut log = match &log_path {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?,
        )),
        None => None,
    };
    // 10,000 agents of monitor state: on the heap, not the stack.
    let mut monitor: Box<Monitor> = Box::default();
    let mut sim = Simulation::new(config);
    println!(
        "{} agents, {} days, seed {}; verdicts after each day (? = not decided yet)",
        config.agents, config.days, config.seed
    );
    println!("day infected lockdown | {}", Verdicts::NAMES.join(" "));
    loop {
        let verdicts = monitor
            .step(sim.agents(), sim.globals())
            .map_err(|e| e.to_string())?;
        println!(
            "{:>3} {:>8} {:>8} | {}",
            sim.globals().day,
            sim.infected(),
            sim.globals().lockdown,
            row(&verdicts)
        );
        if let Some(log) = &mut log {
            writeln!(log, "{}", epidemic::log::line(sim.agents(), sim.globals()))
                .map_err(|e| e.to_string())?;
        }
        if !sim.advance() {
            break;
        }
    }
    println!("end (the run is complete)  | {}", row(&monitor.finish()));
    if let (Some(mut log), Some(path)) = (log, log_path) {
        log.flush().map_err(|e| format!("{path}: {e}"))?;
        println!("trace written to {path}");
    }
    Ok(())
}

/// The verdicts of `v` under their property names ([`Verdicts::NAMES`]).
fn row(v: &Verdicts) -> String {
    Verdicts::NAMES
        .iter()
        .zip(v.to_array())
        .map(|(name, verdict)| format!("{:>width$}", verdict.as_str(), width = name.len()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_args() -> Result<(Config, Option<String>), String> {
    let mut config = Config::default();
    let mut log = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--agents" => config.agents = number(&flag, &value()?)?,
            "--days" => config.days = number(&flag, &value()?)?,
            "--seed" => config.seed = number(&flag, &value()?)?,
            "--log" => log = Some(value()?),
            other => {
                return Err(format!(
                    "unknown argument `{other}` (expected --agents, --days, --seed or --log)"
                ))
            }
        }
    }
    if config.agents == 0 || config.agents > epidemic::epidemic::CAPACITY {
        return Err(format!(
            "--agents must be between 1 and {} (the population's capacity)",
            epidemic::epidemic::CAPACITY
        ));
    }
    Ok((config, log))
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag} expects a non-negative number, not `{text}`"))
}
