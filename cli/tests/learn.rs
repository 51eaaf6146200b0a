//! Learned models against ground truth: runs sampled (seeded) from a known
//! MDP under a known agent policy, written as a keyed JSON Lines log and
//! read as `hindsight learn` reads it. The learned abstract states refine
//! the true ones, the learned probabilities converge to the true ones, the
//! learned bounds hold the exact values of the learned MDP (the oracle of
//! `hindsight_tests::mdp`) within the precision and approach the true MDP's
//! values worked out by hand; and the command does it from the command line.

use hindsight_compiler::compile::{check_source, lower_for_learning};
use hindsight_learn::bounds::Objective;
use hindsight_learn::features::collect;
use hindsight_learn::mdp::{Choice, Mdp, INITIAL};
use hindsight_learn::tree::Growth;
use hindsight_learn::{learn, Collector, Features, Model, Options, Recording};
use hindsight_tests::mdp::exact;
use hindsight_trace::RunOptions;

const SPEC: &str = "
enum Tool { read, write, check, finish }
enum Phase { start, editing, checking, done, crashed }
monitor files {
    input tool: Tool;
    input phase: Phase;
    let writes = tool == write;
    goal success = phase == done;
    goal failure = phase == crashed;
    property no_crash = phase != crashed;
    property reaches_done = F (phase == done);
}
";

/// The true environment: per (phase, tool), the next phase's distribution.
fn environment(phase: usize, tool: usize) -> &'static [(usize, f64)] {
    const EDITING: usize = 1;
    const CHECKING: usize = 2;
    const DONE: usize = 3;
    const CRASHED: usize = 4;
    match (phase, tool) {
        (0, 0) => &[(EDITING, 1.0)],
        (EDITING, 1) => &[(EDITING, 0.9), (CRASHED, 0.1)],
        (EDITING, 2) => &[(CHECKING, 0.5), (EDITING, 0.3), (CRASHED, 0.2)],
        (CHECKING, 3) => &[(DONE, 0.8), (EDITING, 0.2)],
        (CHECKING, 1) => &[(EDITING, 1.0)],
        _ => &[],
    }
}

/// The agent's policy: per phase, the tools' probabilities.
fn policy(phase: usize) -> &'static [(usize, f64)] {
    match phase {
        0 => &[(0, 1.0)],
        1 => &[(1, 0.7), (2, 0.3)],
        2 => &[(3, 0.5), (1, 0.5)],
        _ => &[],
    }
}

/// splitmix64: a seeded stream of uniform numbers in [0, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn pick(&mut self, dist: &[(usize, f64)]) -> usize {
        let mut x = self.next();
        for &(v, p) in dist {
            if x < p {
                return v;
            }
            x -= p;
        }
        dist.last().map_or(0, |&(v, _)| v)
    }
}

const TOOLS: [&str; 4] = ["read", "write", "check", "finish"];
const PHASES: [&str; 5] = ["start", "editing", "checking", "done", "crashed"];

/// `runs` runs sampled from the true MDP as one keyed log, interleaved in
/// pairs so sessions overlap.
fn sample_log(runs: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut lines: Vec<Vec<String>> = Vec::new();
    for r in 0..runs {
        let mut phase = 0;
        let mut run = Vec::new();
        while !policy(phase).is_empty() {
            let tool = rng.pick(policy(phase));
            phase = rng.pick(environment(phase, tool));
            run.push(format!(
                "{{\"run\": {r}, \"tool\": \"{}\", \"phase\": \"{}\"}}",
                TOOLS[tool], PHASES[phase]
            ));
        }
        lines.push(run);
    }
    let mut out = String::new();
    for pair in lines.chunks(2) {
        let longest = pair.iter().map(Vec::len).max().unwrap_or(0);
        for j in 0..longest {
            for run in pair {
                if let Some(line) = run.get(j) {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// Learns from `runs` sampled runs.
fn learned(runs: usize, seed: u64) -> Model {
    let options = Options {
        growth: Growth {
            min_gain: 0.001,
            max_depth: 6,
            max_leaves: 10,
        },
        precision: 1e-9,
        ..Options::default()
    };
    learned_with(runs, seed, options)
}

/// [`learned`] with these options.
fn learned_with(runs: usize, seed: u64, learning: Options) -> Model {
    let checked = check_source(SPEC).expect("the spec checks");
    let table = lower_for_learning(&checked.spec, 0).expect("the spec lowers");
    let features = Features::of(&table, "tool").expect("tool is an enum input");
    let held = crate::common::scratch("learn");
    let path = held.path().join("runs.jsonl");
    std::fs::write(&path, sample_log(runs, seed)).expect("written");
    let schema = hindsight_cli::schema::trace_schema(&table);
    let mut options = RunOptions::new(path.clone());
    options.key = Some("/run".to_string());
    options.output = hindsight_trace::Output::Summary;
    let recording = Recording::new(&table);
    let collector = Collector::new(&features);
    let (runs_read, warnings) =
        collect(&schema, &recording, &collector, &options).expect("the log reads");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(runs_read.len(), runs);
    learn("files", "tool", &features, &runs_read, learning).expect("learned")
}

/// The true MDP's exact values, worked out by hand (see the module docs of
/// the example): from the start, Pmax(◇ done) = 2/3 (check, then finish),
/// Pmin(◇ crashed) = 1/3 (the same), Pmax(◇ crashed) = 1 (write until it
/// crashes), Pmin(◇ done) = 0 (write forever). The oracle agrees on the
/// true MDP.
#[test]
fn hand_values_of_the_true_mdp() {
    // States: 0 start, 1 editing, 2 checking, 3 done, 4 crashed.
    let mut choices = Vec::new();
    for phase in 0..5 {
        for tool in 0..4 {
            let dist = environment(phase, tool);
            if !dist.is_empty() {
                choices.push(Choice {
                    from: phase,
                    action: tool,
                    count: 10,
                    to: dist
                        .iter()
                        .map(|&(t, p)| (t, (p * 10.0).round() as u64))
                        .collect(),
                });
            }
        }
    }
    for c in &mut choices {
        c.to.sort();
    }
    let mdp = Mdp {
        states: 5,
        actions: 4,
        choices,
    };
    let done = [false, false, false, true, false];
    let crashed = [false, false, false, false, true];
    let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
    assert!(close(exact(&mdp, &done, Objective::Max)[0], 2.0 / 3.0));
    assert!(close(exact(&mdp, &done, Objective::Min)[0], 0.0));
    assert!(close(exact(&mdp, &crashed, Objective::Min)[0], 1.0 / 3.0));
    assert!(close(exact(&mdp, &crashed, Objective::Max)[0], 1.0));
}

#[test]
fn learned_model_converges_to_the_true_one() {
    let model = learned(4000, 7);
    assert!(model.mdp.is_well_formed());
    assert_eq!(model.goals, ["success", "failure"]);
    assert!(
        model.features.iter().any(|f| f.name == "writes"),
        "lets are features"
    );
    // Each abstract state holds one phase: the abstraction refines the truth.
    let width = model.features.len();
    let mut phase_of = vec![None; model.states.len()];
    let sample = sample_log(400, 99);
    for line in sample.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("json");
        let p = PHASES
            .iter()
            .position(|&x| x == value["phase"])
            .expect("phase") as f64;
        let t = TOOLS
            .iter()
            .position(|&x| x == value["tool"])
            .expect("tool") as f64;
        let mut row = vec![0.0; width];
        for (i, f) in model.features.iter().enumerate() {
            row[i] = match f.name.as_str() {
                "tool" => t,
                "phase" => p,
                "writes" => f64::from(u8::from(t == 1.0)),
                "success" => f64::from(u8::from(p == 3.0)),
                "failure" => f64::from(u8::from(p == 4.0)),
                "no_crash" => f64::from(u8::from(p != 4.0)),
                other => panic!("unexpected feature {other}"),
            };
        }
        let state = model.tree.leaf(&row).expect("a leaf") + 1;
        match phase_of[state] {
            None => phase_of[state] = Some(p),
            Some(q) => assert_eq!(q, p, "state {state} mixes phases"),
        }
    }
    // Learned probabilities, summed over the states of each phase, are the
    // true ones within 0.03 (4000 runs give each choice hundreds of samples).
    for c in &model.mdp.choices {
        let Some(p) = phase_of.get(c.from).copied().flatten() else {
            continue;
        };
        if c.action >= TOOLS.len() || c.count < 200 {
            continue;
        }
        for &(q, want) in environment(p as usize, c.action) {
            let got: f64 = c
                .probabilities()
                .filter(|&(t, _)| phase_of.get(t).copied().flatten() == Some(q as f64))
                .map(|(_, x)| x)
                .sum();
            assert!(
                (got - want).abs() < 0.03,
                "P({p}, {}, {q}) = {got}, want {want}",
                c.action
            );
        }
    }
    // Bounds: within the precision of the oracle on the learned MDP, and
    // near the true values.
    // Under the agent's own policy (worked out by hand): P(◇ done) from
    // editing solves x_e = .72 x_e + .15 x_c, x_c = .4 + .6 x_e: 6/19.
    for (g, (target_name, max_want, min_want, policy_want)) in [
        ("success", 2.0 / 3.0, 0.0, 6.0 / 19.0),
        ("failure", 1.0, 1.0 / 3.0, 13.0 / 19.0),
    ]
    .iter()
    .enumerate()
    {
        let b = &model.bounds[g];
        assert_eq!(&b.goal, target_name);
        let target: Vec<bool> = model.states.iter().map(|s| s.goals[g]).collect();
        let chain = model.mdp.observed();
        for (mdp, objective, interval) in [
            (&model.mdp, Objective::Max, &b.max),
            (&model.mdp, Objective::Min, &b.min),
            (&chain, Objective::Max, &b.observed),
        ] {
            let want = exact(mdp, &target, objective);
            for (s, want) in want.iter().enumerate() {
                assert!(
                    interval.lo[s] <= want + 1e-9 && *want <= interval.hi[s] + 1e-9,
                    "{target_name} {objective:?} state {s}"
                );
                assert!(interval.hi[s] - interval.lo[s] < 1e-9);
            }
        }
        let observed = b.observed.value(INITIAL);
        assert!(
            (observed - policy_want).abs() < 0.03,
            "{target_name} P {observed}"
        );
        let at_start = (b.max.value(INITIAL), b.min.value(INITIAL));
        assert!(
            (at_start.0 - max_want).abs() < 0.05,
            "{target_name} Pmax {}",
            at_start.0
        );
        assert!(
            (at_start.1 - min_want).abs() < 0.05,
            "{target_name} Pmin {}",
            at_start.1
        );
    }
    // The model file round-trips: structure exactly, numbers to the last
    // place or so (serde_json reads 17-digit decimals to within an ulp).
    let text = model.to_json();
    let back = Model::from_json(&text).expect("reads back");
    assert_eq!(
        (&back.tree, &back.mdp, &back.states),
        (&model.tree, &model.mdp, &model.states)
    );
    assert_close(
        &serde_json::to_value(&back).expect("json"),
        &serde_json::to_value(&model).expect("json"),
    );
}

/// Runs of another kind have low likelihood: a run that writes 40 times
/// without crashing is flagged, typical runs mostly are not.
#[test]
fn unusual_runs_are_flagged() {
    let model = learned(2000, 11);
    let l = &model.likelihood;
    assert_eq!(l.runs.runs, 2000);
    assert!(l.runs.sd > 0.0);
    // The log-likelihood of a typical run (the mean) is not flagged; 40
    // writes in editing cost 40·log(0.9·0.7-ish) more than typical.
    assert!(!l.run_is_anomalous(l.runs.mean));
    assert!(l.run_is_anomalous(l.runs.mean - 10.0 * l.runs.sd));
    assert!(l.run_is_anomalous(f64::NEG_INFINITY));
}

/// Bad model files are refused with a reason, never a panic.
#[test]
fn bad_model_files_are_refused() {
    let model = learned(200, 3);
    let good = model.to_json();
    assert!(Model::from_json("{")
        .unwrap_err()
        .starts_with("not a model file"));
    let other = good.replace("\"version\": 1", "\"version\": 99");
    assert!(Model::from_json(&other).unwrap_err().contains("version 99"));
    let mut broken = model.clone();
    broken.mdp.states += 1;
    assert!(Model::from_json(&broken.to_json())
        .unwrap_err()
        .contains("states"));
    let mut broken = model;
    broken.tree.nodes.truncate(1);
    assert!(Model::from_json(&broken.to_json()).is_err());
}

/// JSON values equal but for numbers, which may differ in the last places.
fn assert_close(a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            assert!((x - y).abs() <= 1e-12 * x.abs().max(1.0), "{x} vs {y}");
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len());
            x.iter().zip(y).for_each(|(x, y)| assert_close(x, y));
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>());
            x.values()
                .zip(y.values())
                .for_each(|(x, y)| assert_close(x, y));
        }
        _ => assert_eq!(a, b),
    }
}

/// `hindsight learn` on the bundled example writes exactly the committed
/// model (learning is deterministic); `hindsight check --model` flags every
/// anomalous session (25 edits, then an untested deploy) and, among the
/// training sessions, exactly those the summary counted.
#[test]
fn the_example_learns_and_flags_from_the_command_line() {
    use crate::common::{root, run_in, Input};
    let held = crate::common::scratch("model");
    let out = held.path().join("model.json");
    let out_arg = out.display().to_string();
    let learned = run_in(
        &root(),
        &[
            "learn",
            "examples/learned/agent.hind",
            "--action",
            "tool",
            "--key",
            "/session",
            "--trace",
            "examples/learned/runs.jsonl",
            "-o",
            &out_arg,
        ],
        Input::Null,
    );
    assert_eq!(learned.code, Some(0), "{}", learned.transcript());
    let summary: serde_json::Value = serde_json::from_str(learned.stdout.trim()).expect("a line");
    assert_eq!(
        (summary["runs"].as_u64(), summary["steps"].as_u64()),
        (Some(400), Some(2576))
    );
    let written = std::fs::read_to_string(&out).expect("the model");
    let committed =
        std::fs::read_to_string(root().join("examples/learned/model.json")).expect("committed");
    assert!(
        written == committed,
        "examples/learned/model.json is stale: learn it again"
    );
    let flagged = |trace: &str| -> (usize, usize) {
        let run = run_in(
            &root(),
            &[
                "check",
                "examples/learned/agent.hind",
                "--model",
                "examples/learned/model.json",
                "--key",
                "/session",
                "--trace",
                trace,
            ],
            Input::Null,
        );
        assert_eq!(run.code, Some(0), "{}", run.transcript());
        let ends: Vec<serde_json::Value> = run
            .stdout
            .lines()
            .filter(|l| l.starts_with("{\"model\""))
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        let anomalous = ends
            .iter()
            .filter(|v| v["model"]["anomalous"] == true)
            .count();
        (anomalous, ends.len())
    };
    assert_eq!(flagged("examples/learned/anomalous.jsonl"), (20, 20));
    let training = flagged("examples/learned/runs.jsonl");
    assert_eq!(training.1, 400);
    assert_eq!(Some(training.0 as u64), summary["flagged"].as_u64());
}

/// A model learned for another spec is refused, and so is a file that is
/// no model; both with exit 2 and a reason.
#[test]
fn foreign_models_are_refused() {
    use crate::common::{root, run_in, Input};
    let check = |spec: &str, model: &str| {
        run_in(
            &root(),
            &[
                "check",
                spec,
                "--model",
                model,
                "--trace",
                "examples/learned/runs.jsonl",
            ],
            Input::Null,
        )
    };
    let other = check(
        "examples/coding_agent/rules.hind",
        "examples/learned/model.json",
    );
    assert_eq!(other.code, Some(2));
    assert!(
        other.stderr.contains("was learned for monitor `agent`"),
        "{}",
        other.stderr
    );
    let not_model = check("examples/learned/agent.hind", "examples/learned/runs.jsonl");
    assert_eq!(not_model.code, Some(2));
    assert!(
        not_model.stderr.contains("not a model file"),
        "{}",
        not_model.stderr
    );
}

/// The chance `reaches_done = F (phase == done)` ends false, predicted on
/// the product of the learned MDP with its automaton, against Monte-Carlo
/// estimates from 20,000 fresh runs of the true system (a run ends false
/// exactly when it crashes; within 0.03, learning error included) and from
/// 20,000 runs of the learned model's own chain (within 0.015, about 4.5
/// standard errors), and the hand-worked 13/19 under the agent's
/// policy; over every policy, 1/3 (always check, then finish) to 1 (write
/// until it crashes). Each bound holds the exact value of the product as
/// computed by the oracle on the learned MDP's product.
#[test]
fn predictions_match_monte_carlo() {
    let model = learned(4000, 5);
    assert!(model.unpredicted.is_empty());
    let p = model
        .predictions
        .iter()
        .find(|p| p.property == "reaches_done")
        .expect("predicted");
    let start = p.find(INITIAL, &[0]).expect("the start is in the product");
    let mut rng = Rng(2027);
    let runs = 20_000;
    let mut crashed = 0;
    for _ in 0..runs {
        let mut phase = 0;
        while !policy(phase).is_empty() {
            let tool = rng.pick(policy(phase));
            phase = rng.pick(environment(phase, tool));
        }
        crashed += usize::from(phase == 4);
    }
    let monte_carlo = crashed as f64 / runs as f64;
    let predicted = p.observed.value(start);
    assert!(
        (predicted - monte_carlo).abs() < 0.03,
        "{predicted} vs {monte_carlo}"
    );
    assert!((monte_carlo - 13.0 / 19.0).abs() < 0.02, "{monte_carlo}");
    assert!(
        (p.min.value(start) - 1.0 / 3.0).abs() < 0.05,
        "{}",
        p.min.value(start)
    );
    assert!(
        (p.max.value(start) - 1.0).abs() < 1e-6,
        "{}",
        p.max.value(start)
    );
    // Monte-Carlo on the learned model itself: 20,000 runs of its observed
    // chain (actions and successors drawn by their counts), each ending
    // false when it reaches the terminal state without passing a state
    // where `phase == done` (the automaton's one atom, which the tree
    // decides: the `success` goal).
    let mut rng = Rng(2028);
    let mut ended_false = 0;
    for _ in 0..runs {
        let mut s = INITIAL;
        let mut done = false;
        while s != model.mdp.terminal() && !done {
            let choices = model.mdp.choices_of(s);
            let total: u64 = choices.iter().map(|c| c.count).sum();
            let mut x = (rng.next() * total as f64) as u64;
            let choice = choices
                .iter()
                .find(|c| {
                    let hit = x < c.count;
                    x = x.saturating_sub(c.count);
                    hit
                })
                .unwrap_or(&choices[choices.len() - 1]);
            let mut y = (rng.next() * choice.count as f64) as u64;
            s = choice
                .to
                .iter()
                .find(|&&(_, n)| {
                    let hit = y < n;
                    y = y.saturating_sub(n);
                    hit
                })
                .map_or(choice.to[0].0, |&(t, _)| t);
            done = model.states[s].goals[0];
        }
        ended_false += usize::from(!done);
    }
    let on_the_model = ended_false as f64 / runs as f64;
    assert!(
        (predicted - on_the_model).abs() < 0.015,
        "{predicted} vs {on_the_model} on the model"
    );
    // Decided states: after a crash the property is false for good.
    let crashed_state = model
        .states
        .iter()
        .position(|s| s.goals == [false, true])
        .expect("s");
    let after = p
        .states
        .iter()
        .position(|q| q.state == crashed_state)
        .expect("reached");
    assert_eq!(p.observed.value(after), 1.0);
}

/// The file-operation agent's spec: with the agent's own counters as
/// inputs (TriCEGAR's scenario annotates them), or without.
fn files_spec(counters: bool) -> String {
    let counters = if counters {
        "    // The agent's own counters, as TriCEGAR's scenario annotates them.
    input iteration: int;
    input files_written: int;
"
    } else {
        ""
    };
    format!(
        "enum Op {{ open, read, write, close }}
monitor files {{
    input op: Op;
    input path_ok: bool;
{counters}    let writing = op == write;
    let reading = op == read;
    let wrote_last = !reading S writing;
    goal closed = op == close;
    goal bad_path = !path_ok;
}}
"
    )
}

/// One run of the file-operation agent: open, `len` reads and writes
/// (writes with probability `writes`), close; with `bad_path`, one of its
/// operations names a malformed path.
fn file_run(rng: &mut Rng, run: usize, len: usize, writes: f64, bad_path: bool) -> Vec<String> {
    let bad_at = bad_path.then(|| 1 + (rng.next() * len.max(1) as f64) as usize);
    let mut ops = vec!["open"];
    for _ in 0..len {
        ops.push(if rng.next() < writes { "write" } else { "read" });
    }
    ops.push("close");
    let mut written = 0;
    ops.iter()
        .enumerate()
        .map(|(j, op)| {
            let ok = bad_at != Some(j);
            written += usize::from(*op == "write");
            format!(
                "{{\"run\": {run}, \"op\": \"{op}\", \"path_ok\": {ok}, \"iteration\": {j}, \
                 \"files_written\": {written}}}"
            )
        })
        .collect()
}

/// Baseline runs: 5 to 30 operations, a write ratio between 0.3 and 0.7.
fn baseline(rng: &mut Rng, runs: usize) -> String {
    let mut out = String::new();
    for r in 0..runs {
        let len = 5 + (rng.next() * 26.0) as usize;
        let writes = 0.3 + 0.4 * rng.next();
        for line in file_run(rng, r, len, writes, false) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The runs of a keyed log, read for `table` as `hindsight learn` reads.
fn read_runs(
    table: &hindsight_compiler::ir::Table,
    features: &Features,
    log: &str,
) -> Vec<hindsight_learn::Run> {
    let held = crate::common::scratch("files");
    let path = held.path().join("runs.jsonl");
    std::fs::write(&path, log).expect("written");
    let schema = hindsight_cli::schema::trace_schema(table);
    let mut options = RunOptions::new(path.clone());
    options.key = Some("/run".to_string());
    options.output = hindsight_trace::Output::Summary;
    let recording = Recording::new(table);
    let collector = Collector::new(features);
    let (runs, _) = collect(&schema, &recording, &collector, &options).expect("the log reads");
    runs
}

/// What following runs with a model flags: per kind of run, (flagged, runs).
type Caught = std::collections::BTreeMap<&'static str, (usize, usize)>;

/// The file-operation scenario under one configuration: a model learned
/// from 1,000 baseline runs (with `refinements`), then 1,000 fresh baseline
/// runs and 1,000 anomalous ones (a quarter each very long, very short,
/// write-heavy, with a malformed path) followed with it, a run flagged when
/// a checkpoint or the run-level rule flags it. The anomalous runs caught
/// by kind (`baseline` for the false positives), the leaves, the
/// refinements made.
fn file_scenario(counters: bool, refinements: usize) -> (Caught, usize, usize) {
    use hindsight_learn::online::Tracker;
    let spec = files_spec(counters);
    let checked = check_source(&spec).expect("the spec checks");
    let table = lower_for_learning(&checked.spec, 0).expect("the spec lowers");
    let features = Features::of(&table, "op").expect("op is an enum input");
    let mut rng = Rng(42);
    let training = read_runs(&table, &features, &baseline(&mut rng, 1000));
    let options = Options {
        growth: Growth {
            min_gain: 0.001,
            max_depth: 8,
            max_leaves: 64,
        },
        refinements,
        ..Options::default()
    };
    let model = learn("files", "op", &features, &training, options).expect("learned");
    let fresh = read_runs(&table, &features, &baseline(&mut rng, 1000));
    let mut anomalous_log = String::new();
    let mut kinds = Vec::new();
    for r in 0..1000 {
        let (kind, lines) = match r % 4 {
            0 => ("long", file_run(&mut rng, r, 150, 0.5, false)),
            1 => ("short", file_run(&mut rng, r, 0, 0.5, false)),
            2 => (
                "write-heavy",
                file_run(&mut rng, r, 5 + r % 26, 0.97, false),
            ),
            _ => ("malformed", file_run(&mut rng, r, 5 + r % 26, 0.5, true)),
        };
        kinds.push(kind);
        for line in lines {
            anomalous_log.push_str(&line);
            anomalous_log.push('\n');
        }
    }
    let anomalous = read_runs(&table, &features, &anomalous_log);
    assert_eq!(anomalous.len(), 1000);
    let width = features.list.len();
    let flagged = |run: &hindsight_learn::Run| -> bool {
        let mut tracker = Tracker::new(&model);
        let mut on_the_way = false;
        for (j, &action) in run.actions.iter().enumerate() {
            on_the_way |= tracker.step(action, run.row(j, width)).anomalous;
        }
        on_the_way || tracker.finish().1
    };
    let mut caught = Caught::new();
    for (run, kind) in anomalous.iter().zip(&kinds) {
        let entry = caught.entry(kind).or_default();
        entry.0 += usize::from(flagged(run));
        entry.1 += 1;
    }
    caught.insert(
        "baseline",
        (fresh.iter().filter(|r| flagged(r)).count(), fresh.len()),
    );
    (caught, model.states.len() - 2, model.refinements.len())
}

/// The paper's file-operation scenario (TriCEGAR section 5) in three
/// configurations; the rates are printed (the closing note of issue 17
/// quotes them) and held to what the rule can promise: every malformed
/// path, over-long and too-short run is caught (an unseen transition, a
/// checkpoint far below, an `end` where runs never end), and few baseline
/// runs are flagged. Write-heavy runs look like the write-heavy end of the
/// baseline step by step; with the agent's counters as features the tree
/// sees more of them. Refinement finds no unsupported witness here (open,
/// read or write, close: the runs take every witness), so it changes
/// nothing: the false positives come from the likelihood rule's tail, not
/// from merged states.
#[test]
fn file_operation_scenario() {
    let mut unrefined = Caught::new();
    for (counters, refinements) in [(true, 0), (false, 0), (false, 16)] {
        let (caught, leaves, made) = file_scenario(counters, refinements);
        let detected: usize = caught
            .iter()
            .filter(|(k, _)| **k != "baseline")
            .map(|(_, c)| c.0)
            .sum();
        eprintln!(
            "file-operation scenario (counters {counters}, refinements {made} of {refinements}): \
             {leaves} leaves; detection {detected}/1000, by kind {caught:?}"
        );
        assert_eq!(caught["malformed"], (250, 250));
        assert_eq!(caught["long"], (250, 250));
        assert!(caught["baseline"].0 < 100, "{caught:?}");
        assert_eq!(caught["short"], (250, 250), "{caught:?}");
        // The refined run follows the unrefined one of the same features.
        if refinements > 0 {
            assert_eq!((made, &caught), (0, &unrefined));
        }
        unrefined = caught;
    }
}

/// Refinement on the ground-truth system, learned with no leaves beyond
/// those the goals force: editing and checking merge into one state, from
/// which `finish` reaches `done` with 0.8, so Pmax(◇ done) is 1 — through
/// a witness (read, then finish at once) no run took. Refinement splits
/// that state where the witness leaves the runs and brings the bound to
/// the true 2/3; every refinement it reports had a witness the runs take
/// only part of.
#[test]
fn refinement_removes_spurious_witnesses() {
    let tight = |refinements| Options {
        growth: Growth {
            min_gain: 0.001,
            max_depth: 6,
            max_leaves: 1,
        },
        precision: 1e-9,
        refinements,
        ..Options::default()
    };
    let coarse = learned_with(3000, 21, tight(0));
    let refined = learned_with(3000, 21, tight(8));
    let pmax = |m: &Model| m.bounds[0].max.value(INITIAL);
    assert!(
        (pmax(&coarse) - 1.0).abs() < 1e-6,
        "coarse Pmax {}",
        pmax(&coarse)
    );
    assert!(
        (pmax(&refined) - 2.0 / 3.0).abs() < 0.05,
        "refined Pmax {}",
        pmax(&refined)
    );
    assert!(!refined.refinements.is_empty());
    for r in &refined.refinements {
        assert!(r.supported_steps + 1 < r.witness.len(), "{r:?}");
    }
    let first = &refined.refinements[0];
    assert_eq!(
        (first.goal.as_str(), first.bound.as_str()),
        ("success", "max")
    );
    assert_eq!(
        first.supported_steps, 1,
        "read is taken; finish after it is not: {first:?}"
    );
    assert!(refined.states.len() > coarse.states.len());
}

#[test]
fn storm_agrees_with_the_bounds() {
    let Some(python) = std::env::var_os("HINDSIGHT_STORM_PYTHON") else {
        eprintln!("skipped: HINDSIGHT_STORM_PYTHON names no Python with stormpy");
        return;
    };
    let model = learned(2000, 13);
    let held = crate::common::scratch("storm");
    let path = held.path().join("model.json");
    std::fs::write(&path, model.to_json()).expect("written");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/storm_oracle.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(&path)
        .output()
        .expect("the Python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.contains("success: Pmax 0.6"), "{stdout}");
}
