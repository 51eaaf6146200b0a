"""Runs the code-review workflow of the CPL paper (section 2, Figure 2) as
separate processes around a real Redis broker: the Python agents of
agents.py (Orchestrator, Security, Committer), the Rust TestRunner
(`review-test-runner`, with the monitor generated from the same spec), and
this driver. The driver plays a scenario's script: it gives the agents their
tasks and plays the network, moving each message from the wire stream to
its recipient's inbox when the script delivers it, so a message can stay in
transit or overtake another, as in the paper. Every stamp is sealed under a
fresh key.

    cargo build --release -p review-broker
    python examples/review_broker/workflow.py

starts a redis-server of its own (or uses --url), runs the paper's
scenarios, and prints what each agent did and the Committer's decisions.
With --traces DIR it also writes each execution as a system trace, for
`hindsight check examples/code_review/review.hind --trace DIR/NAME.jsonl`.
"""

import argparse
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis

HERE = Path(__file__).resolve().parent
AGENTS = HERE / "agents.py"
RUST_AGENT = HERE.parents[1] / "target/release/review-test-runner"
LIFELINES = ("Orchestrator", "TestRunner", "Security", "Committer")


@dataclass
class Scenario:
    """A scripted run: steps `("assign", cand)`, `("propose",)`,
    `("check", reviewer, status)`, `("deliver", k)` (message k, numbered in
    the order they are sent) and `("damage", k)` (message k's stamp is
    altered in transit)."""

    name: str
    story: str
    steps: list


def figure2_prefix():
    return [
        ("assign", 7),  # m0 → TestRunner, m1 → Security
        ("deliver", 0),
        ("deliver", 1),
        ("check", "TestRunner", "passed"),  # m2
        ("check", "Security", "cleared"),  # m3
        ("deliver", 2),
        ("deliver", 3),
        ("check", "TestRunner", "failed"),  # m4
    ]


SCENARIOS = [
    Scenario(
        "figure2",
        "the pass and the clearance reached the Committer; the regression report is still in transit when the proposal arrives",
        figure2_prefix() + [("propose",), ("deliver", 5)],
    ),
    Scenario(
        "failure-first",
        "Figure 2, but the regression report reaches the Committer before the proposal",
        figure2_prefix() + [("deliver", 4), ("propose",), ("deliver", 5)],
    ),
    Scenario(
        "stale-report",
        "the pass report for candidate 6, sent before the one for 7, reaches the Committer last",
        [
            ("assign", 6),  # m0 → TestRunner, m1 → Security (never delivered)
            ("deliver", 0),
            ("check", "TestRunner", "passed"),  # m2: 6 passed
            ("assign", 7),  # m3 → TestRunner, m4 → Security
            ("deliver", 3),
            ("check", "TestRunner", "passed"),  # m5: 7 passed
            ("deliver", 4),
            ("check", "Security", "cleared"),  # m6
            ("deliver", 5),
            ("deliver", 6),
            ("deliver", 2),  # the stale report arrives last
            ("propose",),  # m7
            ("deliver", 7),
        ],
    ),
    Scenario(
        "wrong-candidate",
        "the visible test pass concerns candidate 6 while 7 is proposed; the Committer asks for a re-run",
        [
            ("assign", 6),  # m0 → TestRunner, m1 → Security (never delivered)
            ("deliver", 0),
            ("check", "TestRunner", "passed"),  # m2: 6 passed
            ("assign", 7),  # m3 → TestRunner (never delivered), m4 → Security
            ("deliver", 4),
            ("check", "Security", "cleared"),  # m5
            ("deliver", 2),
            ("deliver", 5),
            ("propose",),  # m6
            ("deliver", 6),  # choice: RE-RUN, m7 → Orchestrator
            ("deliver", 7),  # re-assigns 7: m8 → TestRunner, m9 → Security
            ("deliver", 8),
            ("check", "TestRunner", "passed"),  # m10
            ("deliver", 10),  # choice: MERGE, m11
        ],
    ),
    Scenario(
        "damaged-stamp",
        "the pass report's stamp is altered in transit; the Committer rejects the message",
        [
            ("assign", 7),  # m0, m1
            ("deliver", 0),
            ("deliver", 1),
            ("check", "TestRunner", "passed"),  # m2
            ("check", "Security", "cleared"),  # m3
            ("damage", 2),
            ("deliver", 2),  # rejected
            ("deliver", 3),
            ("propose",),  # m4
            ("deliver", 4),
        ],
    ),
]


class AgentFailed(RuntimeError):
    """An agent process exited or stopped answering; carries what it printed."""


class Broker:
    """A redis-server of its own, on a free loopback port, storing nothing on
    disk; stopped on exit."""

    def __enter__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.dir = tempfile.TemporaryDirectory()
        command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", self.dir.name]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.url = f"redis://127.0.0.1:{port}"
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.__exit__(None, None, None)
                    raise RuntimeError(f"redis-server did not start: {self.process.stdout.read().decode()}")
                time.sleep(0.02)

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait()
        self.dir.cleanup()


class Workflow:
    """One run: the four agents as processes on the broker at `url`, under a
    fresh stream prefix and a fresh stamp key."""

    def __init__(self, url, rust_agent=RUST_AGENT, timeout=20.0):
        self.bus = redis.Redis.from_url(url)
        self.prefix = f"review:{secrets.token_hex(6)}"
        self.timeout = timeout
        self.events = []  # what the agents did, in order, as dicts of str
        self.messages = []  # the messages put on the wire, numbered in order
        self.damaged = set()
        self.seen = "0"  # the last entry read from the events stream
        env = {**os.environ, "HINDSIGHT_STAMP_KEY": secrets.token_bytes(32).hex()}
        commands = {name: [sys.executable, str(AGENTS), name] for name in LIFELINES}
        commands["TestRunner"] = [str(rust_agent)]
        self.agents = {
            name: subprocess.Popen(command + [url, self.prefix], env=env, stderr=subprocess.PIPE)
            for name, command in commands.items()
        }

    def __enter__(self):
        return self

    def __exit__(self, *_):
        for name, agent in self.agents.items():
            if agent.poll() is None:
                self.bus.xadd(f"{self.prefix}:tasks:{name}", {"task": "stop"})
        for agent in self.agents.values():
            try:
                agent.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                agent.kill()
                agent.wait()
            agent.stderr.close()
        self.bus.delete(*self.bus.keys(f"{self.prefix}:*"))

    def play(self, step):
        """One step of a script; returns when the agent it concerns is done."""
        kind, *args = step
        if kind == "assign":
            self.tell("Orchestrator", task="assign", cand=args[0])
        elif kind == "propose":
            self.tell("Orchestrator", task="propose")
        elif kind == "check":
            self.tell(args[0], task="check", status=args[1])
        elif kind == "damage":
            self.damaged.add(args[0])
        elif kind == "deliver":
            message = dict(self.messages[args[0]])
            if args[0] in self.damaged:
                stamp = bytearray(message["stamp"])
                stamp[1] ^= 0xFF
                message["stamp"] = bytes(stamp)
            to = message["to"].decode()
            self.bus.xadd(f"{self.prefix}:inbox:{to}", {"msg": f"m{args[0]}", **message})
            self.wait_for(to)
        else:
            raise ValueError(f"unknown step {step!r}")

    def tell(self, agent, **task):
        self.bus.xadd(f"{self.prefix}:tasks:{agent}", task)
        self.wait_for(agent)

    def wait_for(self, agent):
        """Reads the events stream until `agent` says it is done; numbers the
        messages sent on the way."""
        deadline = time.monotonic() + self.timeout
        events = f"{self.prefix}:events"
        while True:
            reply = self.bus.xread({events: self.seen}, block=200)
            if not reply:
                self.check_alive(agent, deadline)
                continue
            for entry_id, fields in reply[0][1]:
                self.seen = entry_id
                event = {k.decode(): v.decode() for k, v in fields.items()}
                if event["kind"] == "done":
                    if event["lifeline"] == agent:
                        return
                    continue
                if event["kind"] == "send":
                    ((_, message),) = self.bus.xrange(f"{self.prefix}:wire", event["wire"], event["wire"])
                    event["msg"] = f"m{len(self.messages)}"
                    event["stamp_bytes"] = len(message[b"stamp"])
                    self.messages.append({k.decode(): v for k, v in message.items()})
                self.events.append(event)

    def check_alive(self, agent, deadline):
        for name, process in self.agents.items():
            if process.poll() is not None:
                raise AgentFailed(f"{name} exited with {process.returncode}: {process.stderr.read().decode()}")
        if time.monotonic() > deadline:
            raise AgentFailed(f"{agent} did not answer within {self.timeout} s")

    def trace(self):
        """The execution as a system trace (the input of `hindsight check`):
        the agents' events; a rejected message or a skipped task did not happen."""
        lines = []
        for event in self.events:
            line = {"lifeline": event["lifeline"], "kind": event["kind"]}
            if event["kind"] == "send":
                line.update(to=event["to"], msg=event["msg"])
            elif event["kind"] == "recv":
                line["msg"] = event["msg"]
            elif event["kind"] not in ("act", "choice"):
                continue
            store = json.loads(event.get("store", "{}"))
            if store:
                line["store"] = store
            lines.append(line)
        return lines

    def choices(self):
        """The Committer's choices: the guards it saw and what it decided."""
        return [(json.loads(e["guards"]), e["decision"]) for e in self.events if e["kind"] == "choice"]


def run(url, scenario, rust_agent=RUST_AGENT):
    """Plays `scenario` on fresh agents; returns the finished workflow."""
    with Workflow(url, rust_agent) as workflow:
        for step in scenario.steps:
            workflow.play(step)
    return workflow


def describe(event):
    who = f"{event['lifeline']:<12}"
    kind = event["kind"]
    if kind == "send":
        return f"{who} send {event['msg']} to {event['to']} ({event['stamp_bytes']}-byte stamp)"
    if kind in ("act", "recv"):
        store = json.loads(event["store"])
        facts = " ".join(f"{k}={v}" for k, v in store.items())
        return " ".join(part for part in (who, kind, event.get("msg"), facts) if part)
    if kind == "choice":
        guards = " ".join(f"{g}={v}" for g, v in json.loads(event["guards"]).items())
        return f"{who} choice {guards}: {event['decision']}"
    if kind == "rejected":
        return f"{who} rejects {event['msg']}: {event['error']}"
    return f"{who} {kind}: {event['error']}"


def transcript(scenario, workflow):
    """What `main` prints for a finished run of `scenario`."""
    lines = [f"== {scenario.name}: {scenario.story}"]
    lines += [f"  {describe(event)}" for event in workflow.events]
    lines.append(f"  Committer decisions: {', '.join(d for _, d in workflow.choices())}")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running Redis (default: start a redis-server of its own)")
    parser.add_argument("--rust-agent", default=RUST_AGENT, help="the review-test-runner binary")
    parser.add_argument("--traces", type=Path, help="write each execution as a system trace here")
    args = parser.parse_args(argv)
    if not Path(args.rust_agent).exists():
        parser.error(f"{args.rust_agent} does not exist: build it with `cargo build --release -p review-broker`")
    with Broker() if args.url is None else Given(args.url) as broker:
        for scenario in SCENARIOS:
            workflow = run(broker.url, scenario, args.rust_agent)
            print(transcript(scenario, workflow))
            if args.traces:
                args.traces.mkdir(parents=True, exist_ok=True)
                lines = "".join(json.dumps(line) + "\n" for line in workflow.trace())
                (args.traces / f"{scenario.name}.jsonl").write_text(lines)
    return 0


class Given:
    """A broker someone else runs."""

    def __init__(self, url):
        self.url = url

    def __enter__(self):
        return self

    def __exit__(self, *_):
        pass


if __name__ == "__main__":
    sys.exit(main())
