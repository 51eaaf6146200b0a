"""A plain-Python agent simulation checked by a population block, step by
step: a small SIR epidemic (susceptible, infected, recovered) whose agents
are dicts, monitored by examples/epidemic/epidemic.hind while it runs.

Each day every infected agent meets a few others and may infect them, and
may recover; a lockdown starts when many are infected at once. After each
day the population block takes the agents' attributes and the globals; the
script prints the properties' verdicts at the end of the run, and returns
the day-by-day records so that tests can check the verdicts against the
simulation's own numbers.

Run: ``python examples/python/epidemic.py [SEED]`` (after ``pip install ./python``).
"""

import random
import sys
from pathlib import Path

import hindsight

SPEC = Path(__file__).resolve().parents[1] / "epidemic" / "epidemic.hind"


def simulate(seed=1, agents=200, days=60):
    """Runs the epidemic; (the days' agent lists and globals, the block's
    verdicts after the last day, its end verdicts)."""
    rng = random.Random(seed)
    people = [
        {"health": "susceptible", "female": rng.random() < 0.5, "age": rng.randint(1, 90)}
        for _ in range(agents)
    ]
    for patient in rng.sample(people, 3):
        patient["health"] = "infected"
    population = hindsight.Spec.from_file(SPEC).population("epidemic")
    history = []
    lockdown = False
    verdicts = {}
    for day in range(days):
        infected = [p for p in people if p["health"] == "infected"]
        contacts = 1 if lockdown else 4
        newly = set()
        for person in infected:
            for other in rng.sample(range(agents), contacts):
                if people[other]["health"] == "susceptible" and rng.random() < 0.25:
                    newly.add(other)
            if rng.random() < 0.12:
                person["health"] = "recovered"
        for other in newly:
            people[other]["health"] = "infected"
        infected_now = sum(p["health"] == "infected" for p in people)
        lockdown = lockdown or infected_now >= 25
        step = ([dict(p) for p in people], {"day": day, "lockdown": lockdown})
        history.append(step)
        verdicts = population.step(*step)
    return history, verdicts, population.finish()


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    history, _, end = simulate(seed)
    peak = max(sum(a["health"] == "infected" for a in agents) for agents, _ in history)
    print(f"{len(history)} days, {len(history[0][0])} agents, at most {peak} infected at once")
    for name, verdict in end.items():
        print(f"  {name}: {verdict}")


if __name__ == "__main__":
    main()
