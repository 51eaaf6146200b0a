//! A model in words (`hindsight explain --model`): the tree, the abstract
//! states with their goals, the MDP's choices, the bounds per goal and
//! the likelihood statistics; and the model in PRISM's explicit format
//! (`.tra` transitions, `.lab` labels), to check it with PRISM or Storm.

use crate::model::Model;
use crate::tree::Node;
use std::fmt::Write;

/// The model as text.
pub fn describe(model: &Model) -> String {
    let mut out = String::new();
    let t = &model.training;
    let _ = writeln!(
        out,
        "model of monitor `{}`, action `{}`: {} runs, {} steps; {} abstract states, {} actions",
        model.block,
        model.action,
        t.runs,
        t.steps,
        model.states.len(),
        model.actions.len()
    );
    let _ = writeln!(out, "\ntree (leaf = abstract state):");
    tree_lines(model, 0, 1, &mut out);
    let _ = writeln!(out, "\nstates:");
    for (s, state) in model.states.iter().enumerate() {
        let goals: Vec<&str> = model
            .goals
            .iter()
            .zip(&state.goals)
            .filter(|(_, &holds)| holds)
            .map(|(g, _)| g.as_str())
            .collect();
        let goals = if goals.is_empty() {
            String::new()
        } else {
            format!(", goals: {}", goals.join(", "))
        };
        let _ = writeln!(out, "  {:<9} {} visits{goals}", state.name, state.visits);
        for c in model.mdp.choices_of(s) {
            let action = model.actions.get(c.action).map_or("?", String::as_str);
            let to: Vec<String> = c
                .probabilities()
                .map(|(t, p)| format!("{} {p:.3}", state_name(model, t)))
                .collect();
            let _ = writeln!(out, "    {action} ({}×) -> {}", c.count, to.join(", "));
        }
    }
    if !model.bounds.is_empty() {
        let _ = writeln!(
            out,
            "\nreachability (from each state, over every choice of actions and as the runs chose them; within ±{:e}):",
            model.training.options.precision / 2.0
        );
        for b in &model.bounds {
            let _ = writeln!(out, "  goal `{}`:", b.goal);
            for (s, state) in model.states.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "    {:<9} Pmin {:.4}  Pmax {:.4}  P as observed {:.4}",
                    state.name,
                    b.min.value(s),
                    b.max.value(s),
                    b.observed.value(s)
                );
            }
        }
    }
    if !model.predictions.is_empty() || !model.unpredicted.is_empty() {
        let _ = writeln!(out, "\nfuture properties ending false (from the start):");
        for p in &model.predictions {
            let start = vec![0; p.automata.len()];
            if let Some(i) = p.find(crate::mdp::INITIAL, &start) {
                let _ = writeln!(
                    out,
                    "  {:<12} Pmin {:.4}  Pmax {:.4}  P as observed {:.4}  ({} product states)",
                    p.property,
                    p.min.value(i),
                    p.max.value(i),
                    p.observed.value(i),
                    p.states.len()
                );
            }
        }
        for name in &model.unpredicted {
            let _ = writeln!(
                out,
                "  {name:<12} not predicted: its product with the MDP is too large"
            );
        }
    }
    if !model.refinements.is_empty() {
        let _ = writeln!(
            out,
            "\nrefinements (a witness no run took, and the split it caused):"
        );
        for r in &model.refinements {
            let _ = writeln!(
                out,
                "  P{} `{}`: {} (the runs take {} of its steps in a row): split {} on `{}`",
                r.bound,
                r.goal,
                r.witness.join(" -> "),
                r.supported_steps,
                r.state,
                r.predicate
            );
        }
    }
    let l = &model.likelihood;
    let _ = writeln!(
        out,
        "\nrun log-likelihood: mean {:.3}, sd {:.3} over {} runs; anomalous below {} (z = {})",
        l.runs.mean,
        l.runs.sd,
        l.runs.runs,
        l.runs
            .threshold(l.z)
            .map_or("(needs 2 runs)".to_string(), |t| format!("{t:.3}")),
        l.z
    );
    if !l.checkpoints.is_empty() {
        let _ = writeln!(out, "checkpoints (every {} steps):", l.every);
        for c in &l.checkpoints {
            let _ = writeln!(
                out,
                "  step {:<5} mean {:.3}, sd {:.3} over {} runs",
                c.step, c.stats.mean, c.stats.sd, c.stats.runs
            );
        }
    }
    out
}

fn state_name(model: &Model, s: usize) -> &str {
    model.states.get(s).map_or("?", |st| st.name.as_str())
}

/// Writes the subtree at `node` indented `depth` levels.
fn tree_lines(model: &Model, node: usize, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    match model.tree.nodes.get(node) {
        Some(Node::Leaf(k)) => {
            let state = model.states.get(k + 1);
            let _ = writeln!(
                out,
                "{indent}-> {} ({} visits)",
                state.map_or("?", |s| s.name.as_str()),
                state.map_or(0, |s| s.visits)
            );
        }
        Some(Node::Split {
            predicate,
            if_false,
            if_true,
        }) if *if_false > node && *if_true > node => {
            let text = predicate.text(&model.features);
            let _ = writeln!(out, "{indent}if {text}:");
            tree_lines(model, *if_true, depth + 1, out);
            let _ = writeln!(out, "{indent}else:");
            tree_lines(model, *if_false, depth + 1, out);
        }
        _ => {}
    }
}

/// The MDP in PRISM's explicit `.tra` format: a header `states choices
/// transitions`, then `source choice target probability action` lines.
/// States without a choice (terminal, leaves never visited) get a
/// self-loop `done`, as PRISM wants no deadlocks.
pub fn prism_transitions(model: &Model) -> String {
    let mdp = &model.mdp;
    let mut lines = Vec::new();
    let mut choices = 0;
    for s in 0..mdp.states {
        let cs = mdp.choices_of(s);
        if cs.is_empty() {
            lines.push(format!("{s} 0 {s} 1 done"));
            choices += 1;
            continue;
        }
        for (i, c) in cs.iter().enumerate() {
            let action = model.actions.get(c.action).map_or("?", String::as_str);
            for (t, p) in c.probabilities() {
                lines.push(format!("{s} {i} {t} {p} {action}"));
            }
            choices += 1;
        }
    }
    let mut out = format!("{} {choices} {}\n", mdp.states, lines.len());
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The labels in PRISM's explicit `.lab` format: `init`, `deadlock` (none:
/// see [`prism_transitions`]), then one label per goal; then per state the
/// labels that hold.
pub fn prism_labels(model: &Model) -> String {
    let mut out = String::from("0=\"init\" 1=\"deadlock\"");
    for (g, goal) in model.goals.iter().enumerate() {
        let _ = write!(out, " {}=\"{goal}\"", g + 2);
    }
    out.push('\n');
    for (s, state) in model.states.iter().enumerate() {
        let mut labels: Vec<String> = Vec::new();
        if s == 0 {
            labels.push("0".to_string());
        }
        for (g, &holds) in state.goals.iter().enumerate() {
            if holds {
                labels.push((g + 2).to_string());
            }
        }
        if !labels.is_empty() {
            let _ = writeln!(out, "{s}: {}", labels.join(" "));
        }
    }
    out
}
