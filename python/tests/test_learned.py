"""Learned models from Python (docs/learning.md): the model Spec.learn learns
from the example's logs is the one `hindsight learn` wrote (the committed
model file); a run followed with it gives what `hindsight check --model`
prints; every anomalous session of the example is flagged; bad input is
refused with the reason."""

import json
from pathlib import Path

import pytest

from hindsight import InputError, Model, Spec

ROOT = Path(__file__).resolve().parents[2]
LEARNED = ROOT / "examples/learned"


@pytest.fixture(scope="module")
def spec():
    return Spec.from_file(LEARNED / "agent.hind")


@pytest.fixture(scope="module")
def model(spec):
    return spec.learn(LEARNED / "runs.jsonl", action="tool", key="/session")


def sessions(path):
    """The sessions of a keyed log, in order of their first lines."""
    runs = {}
    for line in path.read_text().splitlines():
        event = json.loads(line)
        runs.setdefault(event["session"], []).append(event)
    return list(runs.values())


def test_the_model_is_the_one_the_cli_learned(model):
    committed = json.loads((LEARNED / "model.json").read_text())
    learned = json.loads(model.to_json())
    assert learned["tree"] == committed["tree"]
    assert learned["mdp"] == committed["mdp"]
    assert learned["states"] == committed["states"]
    assert (model.runs, model.steps, model.flagged) == (400, 2576, 18)
    assert model.goals == ["shipped", "bad_deploy"]
    assert model.predicted == ["always_gated"]
    assert model.states[0] == "initial" and model.states[-1] == "terminal"
    assert "tree (leaf = abstract state):" in model.explain()


def test_a_followed_run_stands_as_the_cli_says(spec):
    """The first session of the anomalous log, step by step, against the
    lines `hindsight check --model` prints in docs/learning.md."""
    model = Model.load(LEARNED / "model.json")
    run = spec.follow(model)
    first = sessions(LEARNED / "anomalous.jsonl")[0]
    standings = [run.step(event) for event in first]
    assert all(s is not None for s in standings)
    # Step 0: an edit, certain from the start; 8.75 % of runs deploy untested.
    s0 = standings[0]
    assert (s0.state, s0.log_likelihood, s0.anomalous) == ("s7", 0.0, False)
    p, pmin, pmax = s0.goals["bad_deploy"]
    assert (round(p, 4), pmin, pmax) == (0.0875, 0.0, 1.0)
    assert round(s0.ends_false["always_gated"][0], 4) == 0.0875
    # The tenth step is the first checkpoint: flagged from there on.
    assert [s.anomalous for s in standings].index(True) == 9
    assert round(standings[9].log_likelihood, 6) == -14.294366
    # The untested deploy: bad_deploy reached, always_gated false for sure.
    last = standings[-1]
    assert last.state == "s3" and last.goals["bad_deploy"][0] == 1.0
    ll, anomalous = run.finish()
    assert anomalous and round(ll, 6) == -41.498332
    run.reset()
    assert run.step(first[0]) == s0


def test_every_anomalous_session_and_few_training_sessions_are_flagged(spec, model):
    run = spec.follow(model)

    def flagged(events):
        run.reset()
        on_the_way = any(run.step(e).anomalous for e in events)
        return on_the_way or run.finish()[1]

    assert sum(flagged(s) for s in sessions(LEARNED / "anomalous.jsonl")) == 20
    assert sum(flagged(s) for s in sessions(LEARNED / "runs.jsonl")) == model.flagged == 18


def test_bad_input_is_refused(spec, model, tmp_path):
    with pytest.raises(ValueError, match="no input `nope`"):
        spec.learn(LEARNED / "runs.jsonl", action="nope", key="/session")
    with pytest.raises(ValueError, match="precision"):
        spec.learn(LEARNED / "runs.jsonl", action="tool", precision=2.0)
    with pytest.raises(ValueError, match="not a model file"):
        Model.from_json("{}")
    other = Spec("enum Tool { edit }\nmonitor agent { input tool: Tool; property p = tool == edit; }")
    with pytest.raises(ValueError, match="other features"):
        other.follow(model)
    run = spec.follow(model)
    with pytest.raises(InputError):
        run.step({"tool": "fly"})
    path = tmp_path / "model.json"
    model.save(path)
    assert Model.load(path).states == model.states


def test_the_example_prints_what_it_shows():
    """examples/python/learned_agent.py prints learned_agent.out."""
    import subprocess
    import sys

    script = ROOT / "examples/python/learned_agent.py"
    printed = subprocess.run([sys.executable, str(script)], check=True, capture_output=True, text=True)
    assert printed.stdout == script.with_suffix(".out").read_text()
