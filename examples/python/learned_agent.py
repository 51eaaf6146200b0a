"""A learned behaviour model from Python (docs/python.md, "Learned models").

Learns how the coding agent of examples/learned behaves from its 400
logged sessions, then follows new sessions with the model: where each
stands after every tool call, how likely it still is to ship or to deploy
untested, and whether it looks like the sessions before it.
"""

import json
from pathlib import Path

import hindsight

ROOT = Path(__file__).resolve().parents[2]
LEARNED = ROOT / "examples/learned"
spec = hindsight.Spec.from_file(LEARNED / "agent.hind")

model = spec.learn(LEARNED / "runs.jsonl", action="tool", key="/session")
print(f"learned from {model.runs} sessions ({model.steps} steps): {len(model.states)} states")
print(f"goals {model.goals}; predicted {model.predicted}")

run = spec.follow(model)
session = [
    {"tool": "edit"},
    {"tool": "test", "result": {"passed": False}},
    {"tool": "edit"},
    {"tool": "test", "result": {"passed": True}},
    {"tool": "commit"},
    {"tool": "deploy"},
]
for event in session:
    s = run.step(event)
    assert s is not None
    ship = s.goals["shipped"][0]
    gated = s.ends_false["always_gated"]
    risk = "?" if gated is None else f"{gated[0]:.3f}"
    print(f"{event['tool']:<7} {s.state:<3} ship {ship:.3f}  ends untested {risk}  anomalous {s.anomalous}")
print("end: log-likelihood %.3f, anomalous %s" % run.finish())

# 20 sessions of another kind: 25 edits in a row, then an untested deploy.
sessions = {}
for line in (LEARNED / "anomalous.jsonl").read_text().splitlines():
    event = json.loads(line)
    sessions.setdefault(event["session"], []).append(event)
flagged = 0
for events in sessions.values():
    run.reset()
    on_the_way = any(run.step(e).anomalous for e in events)
    flagged += on_the_way or run.finish()[1]
print(f"anomalous sessions flagged: {flagged} of {len(sessions)}")
