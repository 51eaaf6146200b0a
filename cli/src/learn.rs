//! `hindsight learn SPEC --block NAME --action INPUT --trace LOGS... -o
//! model.json`: learns a behaviour model of the runs a monitor block reads
//! ([`hindsight_learn`]) and writes it as JSON (and, with `--prism
//! PREFIX`, as PRISM's explicit `PREFIX.tra` and `PREFIX.lab`); prints one
//! summary line. `hindsight explain --model model.json` prints a model in
//! words.

use crate::check::CheckOptions;
use crate::compile::learnable_table;
use crate::report;
use crate::schema::trace_schema;
use hindsight_learn::features::collect;
use hindsight_learn::online::ModelLines;
use hindsight_learn::text::{describe, prism_labels, prism_transitions};
use hindsight_learn::{learn, Collector, Features, Model, Options, Recording};
use hindsight_trace::{run_check_observed, RunOptions, EXIT_ERROR, EXIT_OK};
use std::path::{Path, PathBuf};

/// What `hindsight learn` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor block; the only block when `None`.
    pub block: Option<String>,
    /// The input taken as the action.
    pub action: String,
    /// The traces and how to read them (the output fields are unused).
    pub run: RunOptions,
    /// Where the model goes.
    pub output: PathBuf,
    /// Where PRISM's explicit files go (`PREFIX.tra`, `PREFIX.lab`), if asked.
    pub prism: Option<PathBuf>,
    /// How the model is learned.
    pub learning: Options,
    /// The most steps read from the traces.
    pub max_steps: u64,
}

/// The largest model file `hindsight explain --model` reads: 256 MiB.
pub const MAX_MODEL_BYTES: u64 = 256 << 20;

/// Runs the command; returns the process exit status.
pub fn run(options: &LearnOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(table) = learnable_table(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let features = match Features::of(&table, &options.action) {
        Ok(features) => features,
        Err(message) => {
            report::error(format_args!("{spec_name}: {message}"));
            return EXIT_ERROR;
        }
    };
    let schema = trace_schema(&table);
    let recording = Recording::new(&table);
    let collector = Collector::new(&features).with_max_steps(options.max_steps);
    let mut run = options.run.clone();
    run.jobs = 1;
    let runs = match collect(&schema, &recording, &collector, &run) {
        Ok((runs, warnings)) => {
            for warning in warnings {
                eprintln!("{warning}");
            }
            runs
        }
        Err(errors) => {
            for error in errors {
                eprintln!("{error}");
            }
            report::error("no model was written: every trace must be read to learn from it");
            return EXIT_ERROR;
        }
    };
    if runs.len() == 1 && options.run.key.is_none() {
        eprintln!(
            "warning: the traces are one run of {} steps: to learn from the sessions of a log, \
             split it with --key POINTER",
            runs.first().map_or(0, hindsight_learn::Run::len)
        );
    }
    let model = match learn(
        &table.name,
        &options.action,
        &features,
        &runs,
        options.learning,
    ) {
        Ok(model) => model,
        Err(message) => {
            report::error(message);
            return EXIT_ERROR;
        }
    };
    if let Err(e) = write(&options.output, &model.to_json()) {
        report::error(e);
        return EXIT_ERROR;
    }
    if let Some(prefix) = &options.prism {
        let tra = prefix.with_extension("tra");
        let lab = prefix.with_extension("lab");
        let written = write(&tra, &prism_transitions(&model))
            .and_then(|()| write(&lab, &prism_labels(&model)));
        if let Err(e) = written {
            report::error(e);
            return EXIT_ERROR;
        }
    }
    println!("{}", summary_line(&options.output, &model));
    EXIT_OK
}

/// `{"model": PATH, "runs": …, "steps": …, "states": …, "actions": …, "trie_nodes": …}`.
fn summary_line(path: &Path, model: &Model) -> String {
    serde_json::json!({
        "model": path.display().to_string(),
        "runs": model.training.runs,
        "steps": model.training.steps,
        "states": model.states.len(),
        "actions": model.actions.len(),
        "goals": model.goals,
        "trie_nodes": model.training.trie_nodes,
        "flagged": model.training.flagged,
        "refinements": model.refinements.len(),
    })
    .to_string()
}

/// Writes `text` to `path` whole or not at all: into a temporary file
/// beside it, then renamed over it (a reader never sees half a model).
fn write(path: &Path, text: &str) -> Result<(), String> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            format!("cannot write `{}`: {e}", path.display())
        })
}

/// The text of the model file at `path`, at most [`MAX_MODEL_BYTES`].
fn read_model(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_MODEL_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_MODEL_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, the most a model file may be",
            MAX_MODEL_BYTES >> 20
        )));
    }
    Ok(text)
}

/// `hindsight explain --model FILE`: the model in words; the exit status.
pub fn explain_model(path: &Path) -> u8 {
    let text = match read_model(path) {
        Ok(text) => text,
        Err(e) => {
            report::error(format_args!("cannot read model `{}`: {e}", path.display()));
            return EXIT_ERROR;
        }
    };
    match Model::from_json(&text) {
        Ok(model) => {
            print!("{}", describe(&model));
            EXIT_OK
        }
        Err(message) => {
            report::error(format_args!("{}: {message}", path.display()));
            EXIT_ERROR
        }
    }
}

/// `hindsight check SPEC --model FILE`: checks the monitor block as usual
/// (on the interpreter), and after each verdict line and each end line
/// writes where the run stands under the model
/// ([`hindsight_learn::online::ModelLines`]). The model must have been
/// learned for this block: the same features, by name, kind and type.
pub fn check_with_model(options: &CheckOptions, model_path: &Path) -> u8 {
    let spec_name = options.spec.display().to_string();
    let model = match read_model(model_path)
        .map_err(|e| e.to_string())
        .and_then(|t| Model::from_json(&t))
    {
        Ok(model) => model,
        Err(message) => {
            report::error(format_args!("model `{}`: {message}", model_path.display()));
            return EXIT_ERROR;
        }
    };
    let Ok(table) = learnable_table(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let features = match Features::for_model(&table, &model) {
        Ok(features) => features,
        Err(message) => {
            report::error(format_args!("model `{}`: {message}", model_path.display()));
            return EXIT_ERROR;
        }
    };
    let schema = trace_schema(&table);
    let recording = Recording::new(&table);
    let lines = ModelLines::new(&model, &features);
    crate::check::frontend(options, |frontend| {
        run_check_observed(&schema, &recording, &options.run, &lines, frontend)
    })
}
