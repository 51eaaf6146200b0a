//! `hindsight-fuzz [SURFACE ...] [--for DURATION] [--inputs N] [--seed N]
//! [--out DIR] [--time-limit SECONDS] [--memory-limit MB]`: fuzzes the named
//! surfaces (all by default: spec, codegen, monitor-trace, system-trace,
//! population-trace, otlp-trace, stamp, model), dividing the time between them, and prints per
//! surface the inputs run, refusals, panics, broken promises, the slowest
//! input and the peak memory of one input. Failures and each surface's
//! slowest input are written to DIR (default `target/fuzz`). Exit status 1 if
//! any promise broke.
//!
//! Run it in release: `cargo run --release -p hindsight-fuzz -- --for 1h`.

use hindsight_fuzz::{run, Budget, Limits, Measure, Surface};
use hindsight_tests::alloc_count::{peak_bytes, reset_peak, Counting};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: Counting = Counting;

const USAGE: &str = "usage: hindsight-fuzz [SURFACE ...] [--for DURATION] [--inputs N] \
                     [--seed N] [--out DIR] [--time-limit SECONDS] [--memory-limit MB]\n\
                     surfaces: spec, codegen, monitor-trace, system-trace, population-trace, otlp-trace, stamp, model \
                     (default: all); DURATION like 90s, 30m, 2h";

struct Args {
    surfaces: Vec<Surface>,
    total: Option<Duration>,
    inputs: Option<u64>,
    seed: u64,
    out: PathBuf,
    limits: Limits,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        surfaces: Vec::new(),
        total: None,
        inputs: None,
        seed: 1,
        out: PathBuf::from("target/fuzz"),
        limits: Limits {
            time: Duration::from_secs(2),
            memory: 256 << 20,
        },
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--for" => args.total = Some(duration(&value()?)?),
            "--inputs" => args.inputs = Some(number(&value()?)?),
            "--seed" => args.seed = number(&value()?)?,
            "--out" => args.out = PathBuf::from(value()?),
            "--time-limit" => args.limits.time = Duration::from_secs(number(&value()?)?),
            "--memory-limit" => args.limits.memory = number::<usize>(&value()?)? << 20,
            "-h" | "--help" => return Err(String::new()),
            "all" => args.surfaces.extend(Surface::ALL),
            name => args
                .surfaces
                .push(Surface::parse(name).ok_or(format!("unknown surface `{name}`"))?),
        }
    }
    if args.surfaces.is_empty() {
        args.surfaces.extend(Surface::ALL);
    }
    if args.total.is_none() && args.inputs.is_none() {
        args.inputs = Some(1000);
    }
    Ok(args)
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a number"))
}

fn duration(text: &str) -> Result<Duration, String> {
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = number(digits)?;
    let seconds = match unit {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("`{text}`: a duration is like 90s, 30m or 2h")),
    };
    Ok(Duration::from_secs(seconds))
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Panics are counted and reported; their default messages would drown
    // the report.
    std::panic::set_hook(Box::new(|_| {}));
    let _ = std::fs::create_dir_all(&args.out);
    let share = args.total.map(|t| t / args.surfaces.len() as u32);
    let mut broken = 0;
    for &surface in &args.surfaces {
        let budget = Budget {
            inputs: args.inputs,
            until: share.map(|s| Instant::now() + s),
        };
        let measure = Measure {
            reset: reset_peak,
            peak: peak_bytes,
        };
        let report = run(surface, args.seed, budget, args.limits, measure);
        let (slowest, slowest_input) = report
            .slowest
            .clone()
            .unwrap_or((Duration::ZERO, String::new()));
        println!(
            "{:<17} {:>9} inputs {:>9} refused {:>4} panics {:>4} failures   slowest {:>10.3?}   peak {:>7.1} MB",
            surface.name(),
            report.inputs,
            report.refused,
            report.panics,
            report.failures.len(),
            slowest,
            report.peak_bytes as f64 / (1 << 20) as f64,
        );
        let _ = std::fs::write(
            args.out.join(format!("{}-slowest.txt", surface.name())),
            format!("// {slowest:?}\n{slowest_input}"),
        );
        for (k, failure) in report.failures.iter().enumerate() {
            let file = args.out.join(format!("{}-failure-{k}.txt", surface.name()));
            let _ = std::fs::write(&file, format!("// {}\n{}", failure.what, failure.input));
            println!("  {}: {}", file.display(), failure.what);
        }
        broken += report.failures.len();
    }
    if broken > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
