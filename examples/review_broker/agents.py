"""The Python agents of the code-review workflow (the CPL paper's section 2),
each its own process: the Orchestrator, the Security scanner and the
Committer. The TestRunner is the Rust agent of src/main.rs.

An agent talks to the others only through a Redis broker. It reads its
tasks (from the driver, workflow.py) and its inbox from two streams, puts
every message it sends on the workflow's wire stream with its sealed stamp
in the message's `stamp` header field, and says what it did on the events
stream. Each agent holds its lifeline's monitor (`Spec.lifeline`); the
Committer decides merge, block or re-run by the guards `may_merge` and
`failure_seen`, over what is causally visible to it.

Usage: python agents.py ROLE REDIS_URL PREFIX, with the workflow's 32-byte
stamp key as 64 hex digits in HINDSIGHT_STAMP_KEY.
"""

import json
import os
import sys
from pathlib import Path

import redis

import hindsight

SPEC = Path(__file__).resolve().parents[1] / "code_review/review.hind"


class Agent:
    """One lifeline: its monitor, and its side of the broker's streams."""

    name = ""

    def __init__(self, bus, prefix, key):
        self.bus = bus
        self.prefix = prefix
        self.lifeline = hindsight.Spec.from_file(SPEC).lifeline(self.name, key=key)

    def stream(self, name):
        return f"{self.prefix}:{name}"

    def serve(self):
        """Takes tasks and messages one at a time, in the order they arrive,
        until the `stop` task; after each, says `done` on the events stream."""
        last = {self.stream(f"tasks:{self.name}"): "0", self.stream(f"inbox:{self.name}"): "0"}
        while True:
            for key, entries in self.bus.xread(last, count=1, block=0):
                key = key.decode()
                for entry_id, fields in entries:
                    last[key] = entry_id
                    fields = {k.decode(): v for k, v in fields.items()}
                    if key.endswith(f"tasks:{self.name}"):
                        go_on = self.task(fields["task"].decode(), fields)
                    else:
                        self.message(fields)
                        go_on = True
                    self.event("done")
                    if not go_on:
                        return

    def task(self, task, fields):
        """A task from the driver; False for `stop`."""
        if task == "stop":
            return False
        raise ValueError(f"{self.name} takes no task {task!r}")

    def message(self, fields):
        """A message from the inbox: received with `receive`, then handled."""
        self.receive(fields, {})

    def event(self, kind, **fields):
        self.bus.xadd(self.stream("events"), {"lifeline": self.name, "kind": kind, **fields})

    def act(self, store):
        self.lifeline.on_act(store)
        self.event("act", store=json.dumps(store))

    def send(self, to, body):
        """Puts a message to `to` on the wire, the stamp in its `stamp` header field."""
        stamp = self.lifeline.on_send()
        fields = {"from": self.name, "to": to, "body": json.dumps(body), "stamp": stamp}
        wire = self.bus.xadd(self.stream("wire"), fields)
        self.event("send", to=to, wire=wire)

    def receive(self, fields, store):
        """The receive event of a message; False if its stamp is refused
        (altered, forged, sealed under another key): then nothing happened."""
        msg = fields["msg"].decode()
        try:
            self.lifeline.on_recv(fields["stamp"], store)
        except hindsight.InputError as error:
            self.event("rejected", msg=msg, error=str(error))
            return False
        self.event("recv", msg=msg, store=json.dumps(store))
        return True


def body(fields):
    return json.loads(fields["body"])


class Orchestrator(Agent):
    """Assigns candidates to both reviewers, proposes the current one, and
    re-assigns it when the Committer asks for a re-run, unless it is no
    longer current or already decided."""

    name = "Orchestrator"

    def __init__(self, *args):
        super().__init__(*args)
        self.cand = None
        self.decided = set()

    def task(self, task, fields):
        if task == "assign":
            self.cand = int(fields["cand"])
            self.act({"cand": self.cand})
            self.assign_to_reviewers()
        elif task == "propose":
            if self.cand is None:
                self.event("skipped", error="no candidate to propose")
            else:
                self.send("Committer", {"kind": "proposal", "cand": self.cand})
        else:
            return super().task(task, fields)
        return True

    def assign_to_reviewers(self):
        for reviewer in ("TestRunner", "Security"):
            self.send(reviewer, {"kind": "assign", "cand": self.cand})

    def message(self, fields):
        if not self.receive(fields, {}):
            return
        verdict = body(fields)
        if verdict["decision"] != "RE-RUN":
            self.decided.add(verdict["cand"])
        elif verdict["cand"] == self.cand and self.cand not in self.decided:
            self.assign_to_reviewers()


class Security(Agent):
    """Scans the assigned candidate and reports the scripted outcome."""

    name = "Security"

    def __init__(self, *args):
        super().__init__(*args)
        self.cand = None

    def task(self, task, fields):
        if task != "check":
            return super().task(task, fields)
        if self.cand is None:
            self.event("skipped", error="no candidate assigned")
            return True
        status = fields["status"].decode()
        self.act({"status": status})
        self.send("Committer", {"kind": "report", "cand": self.cand, "status": status})
        return True

    def message(self, fields):
        assignment = body(fields)
        if assignment["kind"] == "assign" and self.receive(fields, {"cand": assignment["cand"], "status": "pending"}):
            self.cand = assignment["cand"]


class Committer(Agent):
    """A proposal opens a decision; at its receipt and at every report
    received while it is open, the Committer chooses by its guards and tells
    the Orchestrator. Merge and block close the proposal; re-run keeps it open."""

    name = "Committer"

    def __init__(self, *args):
        super().__init__(*args)
        self.open = None

    def message(self, fields):
        message = body(fields)
        proposed = message["cand"] if message["kind"] == "proposal" else None
        if not self.receive(fields, {} if proposed is None else {"cand": proposed}):
            return
        if proposed is not None:
            self.open = proposed
        if self.open is None:
            return
        guards = self.lifeline.on_choice()
        decision = decide(guards)
        self.event("choice", guards=json.dumps({g: str(v) for g, v in guards.items()}), decision=decision)
        cand = self.open
        if decision != "RE-RUN":
            self.open = None
        self.send("Orchestrator", {"kind": "verdict", "cand": cand, "decision": decision})


def decide(guards):
    """Merge if `may_merge` is true, else block if `failure_seen` is true, else re-run."""
    if guards["may_merge"] is hindsight.Verdict.TRUE:
        return "MERGE"
    if guards["failure_seen"] is hindsight.Verdict.TRUE:
        return "BLOCK"
    return "RE-RUN"


ROLES = {agent.name: agent for agent in (Orchestrator, Security, Committer)}


def main(argv):
    if len(argv) != 3 or argv[0] not in ROLES:
        print(f"usage: agents.py {{{','.join(ROLES)}}} REDIS_URL PREFIX", file=sys.stderr)
        return 2
    role, url, prefix = argv
    key = bytes.fromhex(os.environ["HINDSIGHT_STAMP_KEY"])
    ROLES[role](redis.Redis.from_url(url), prefix, key).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
