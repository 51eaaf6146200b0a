"""The Python examples run, and the epidemic's verdicts agree with the
simulation's own numbers (computed here from its day-by-day records)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from hindsight import Verdict

ROOT = Path(__file__).resolve().parents[2]


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples/python" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verdict(b):
    return Verdict.TRUE if b else Verdict.FALSE


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_epidemic_verdicts_are_the_simulations_numbers(seed):
    history, last, end = load("epidemic").simulate(seed)
    days = [agents for agents, _ in history]
    infected = [sum(a["health"] == "infected" for a in agents) for agents in days]
    n = len(days[0])
    ever = lambda i, health: any(d[i]["health"] == health for d in days)
    always = lambda i, health: all(d[i]["health"] == health for d in days)
    females = [i for i in range(n) if days[0][i]["female"]]
    males = [i for i in range(n) if not days[0][i]["female"]]
    elderly = [i for i in range(n) if days[0][i]["age"] >= 65]
    # Future-time properties: their end verdicts over the whole run.
    assert end["outbreak_bounded"] == verdict(max(infected) <= 60)
    assert end["all_females_infected"] == verdict(all(ever(i, "infected") for i in females))
    assert end["ten_elderly_infected"] == verdict(sum(ever(i, "infected") for i in elderly) >= 10)
    assert end["three_healthy_per_group"] == verdict(
        sum(always(i, "susceptible") for i in females) >= 3 and sum(always(i, "susceptible") for i in males) >= 3
    )
    # Every infection is followed by a recovery: no female still infected
    # at the end (agents never fall ill twice).
    assert end["females_recover"] == verdict(all(days[-1][i]["health"] != "infected" for i in females))
    # Past-time properties: their values at the last day.
    assert last["no_reinfection"] is Verdict.TRUE
    assert last["elderly_shielded"] == verdict(2 * sum(ever(i, "infected") for i in elderly) <= len(elderly))
    lockdown = history[-1][1]["lockdown"]
    assert last["lockdown_justified"] == verdict((not lockdown) or any(c >= 20 for c in infected[-4:]))


def test_the_examples_run():
    for script in ["epidemic.py", "agent_guard.py"]:
        printed = subprocess.run([sys.executable, str(ROOT / "examples/python" / script)], check=True, capture_output=True, text=True)
        assert printed.stdout
