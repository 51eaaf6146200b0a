"""Population blocks from Python against a textbook evaluator of their
quantifiers written here, and the errors a user must get."""

import random

import pytest

from hindsight import InputError, Spec, Verdict

HERD = """
population herd {
    capacity 8;
    agent  { infected: bool, exposed: bool }
    global { limit: int }
    property infected_after_exposure = forall a in agents: a.infected -> O[0,3] a.exposed;
    property few_infected = (count a in agents: a.infected) <= limit;
    property exposure_answered = forall a in agents: G (a.exposed -> F a.infected);
}
"""


def reference(steps):
    """Per step: the two past-time properties, and the future one's end
    verdict over the whole trace (finite-trace semantics)."""
    out = []
    for t, (agents, limit) in enumerate(steps):
        def recently_exposed(i):
            return any(steps[u][0][i]["exposed"] for u in range(max(0, t - 3), t + 1))

        after = all((not a["infected"]) or recently_exposed(i) for i, a in enumerate(agents))
        few = sum(a["infected"] for a in agents) <= limit
        out.append((after, few))
    n_agents = len(steps[0][0])
    answered = all(
        any(steps[u][0][i]["infected"] for u in range(t, len(steps)))
        for i in range(n_agents)
        for t in range(len(steps))
        if steps[t][0][i]["exposed"]
    )
    return out, answered


def verdict(b):
    return Verdict.TRUE if b else Verdict.FALSE


@pytest.mark.parametrize("seed", range(8))
def test_population_verdicts_match_the_textbook_semantics(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 8)
    steps = [
        ([{"infected": rng.random() < 0.3, "exposed": rng.random() < 0.3} for _ in range(n)], rng.randint(0, n))
        for _ in range(120)
    ]
    herd = Spec(HERD).population()
    assert herd.properties == ["infected_after_exposure", "few_infected", "exposure_answered"]
    expected, answered = reference(steps)
    for t, (agents, limit) in enumerate(steps):
        got = herd.step(agents, {"limit": limit})
        after, few = expected[t]
        assert got["infected_after_exposure"] == verdict(after), t
        assert got["few_infected"] == verdict(few), t
        assert got["exposure_answered"] in (Verdict.UNKNOWN, Verdict.FALSE), t
    assert herd.finish()["exposure_answered"] == verdict(answered)


def test_peek_and_reset():
    herd = Spec(HERD).population("herd")
    agents = [{"infected": True, "exposed": False}]
    assert herd.peek(agents, {"limit": 0})["infected_after_exposure"] is Verdict.FALSE
    herd.step([{"infected": False, "exposed": True}], {"limit": 0})
    # The exposure one step ago is within O[0,3]: peek sees it, and twice.
    assert herd.peek(agents, {"limit": 1})["infected_after_exposure"] is Verdict.TRUE
    assert herd.peek(agents, {"limit": 1})["infected_after_exposure"] is Verdict.TRUE
    herd.reset()
    assert herd.step(agents, {"limit": 1})["infected_after_exposure"] is Verdict.FALSE


def test_population_steps_that_cannot_be_taken():
    herd = Spec(HERD).population()
    assert herd.capacity == 8
    herd.step([{"infected": False, "exposed": False}] * 2, {"limit": 1})
    with pytest.raises(InputError, match="agents"):
        herd.step([{"infected": False, "exposed": False}] * 3, {"limit": 1})
    with pytest.raises(InputError, match="exposed"):
        herd.step([{"infected": False}] * 2, {"limit": 1})
    with pytest.raises(InputError, match="limit"):
        herd.step([{"infected": False, "exposed": False}] * 2)
    with pytest.raises(TypeError, match="mapping"):
        herd.step([True, False], {"limit": 1})  # type: ignore[list-item]
    fresh = Spec(HERD).population()
    with pytest.raises(InputError, match="capacity"):
        fresh.step([{"infected": False, "exposed": False}] * 9, {"limit": 1})


def test_blocks_of_another_kind_are_named():
    spec = Spec(HERD + "monitor m { input a: bool; property p = a; }")
    with pytest.raises(ValueError, match="`herd` is a population block: use Spec.population"):
        spec.monitor("herd")
    with pytest.raises(ValueError, match="`m` is a monitor block: use Spec.monitor"):
        spec.population("m")
