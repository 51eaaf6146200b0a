"""The logs of examples/learned, sampled (seeded) from a model of a coding
agent: python3 generate.py writes runs.jsonl (400 sessions) and
anomalous.jsonl (20 sessions of another kind). Each line is one tool call:
{"session": "s17", "tool": "test", "result": {"passed": true}}.

The agent edits, then tests; a test passes with probability 0.6 after one
edit, less after several in a row; after a pass it commits and deploys
(80 %) or edits again; after a failure it edits again. Now and then (4 %) it
deploys right after an edit, untested. The anomalous sessions edit 25 times
in a row, then deploy untested.
"""

import json
import random


def session(rng, name):
    lines = []
    edits = 0
    state = "start"
    while True:
        if state in ("start", "failed"):
            tool = "edit"
        elif state == "edited":
            roll = rng.random()
            tool = "deploy" if roll < 0.04 else ("edit" if roll < 0.24 else "test")
        elif state == "passed":
            tool = "commit" if rng.random() < 0.8 else "edit"
        elif state == "committed":
            tool = "deploy"
        line = {"session": name, "tool": tool}
        if tool == "edit":
            edits += 1
            state = "edited"
        elif tool == "test":
            passed = rng.random() < 0.6 / edits ** 0.5
            line["result"] = {"passed": passed}
            state = "passed" if passed else "failed"
            edits = 0
        elif tool == "commit":
            state = "committed"
        lines.append(line)
        if tool == "deploy":
            return lines


def anomalous(name):
    lines = [{"session": name, "tool": "edit"} for _ in range(25)]
    lines.append({"session": name, "tool": "deploy"})
    return lines


def write(path, sessions):
    with open(path, "w") as out:
        for lines in sessions:
            for line in lines:
                out.write(json.dumps(line, separators=(", ", ": ")) + "\n")


if __name__ == "__main__":
    rng = random.Random(2026)
    write("runs.jsonl", [session(rng, f"s{i}") for i in range(400)])
    write("anomalous.jsonl", [anomalous(f"a{i}") for i in range(20)])
