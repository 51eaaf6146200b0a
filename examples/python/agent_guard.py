"""A tool-using agent whose every tool call passes a Hindsight guard first:
examples/agent_guard (Rust, the attribute macro) in Python.

The "model" is a fixed script standing in for an LLM, so runs are
deterministic. Each tool is decorated with ``Monitor.guard``: before a call
runs, the guard peeks at what the rules would say if it ran and refuses it
(``GuardRefused``, naming the rules) when one would turn false; the model is
told why and proposes the next call. A call that runs is stepped, so the
monitor has seen exactly the executed trace. It prints the same transcript
as ``cargo run -p agent-guard`` (agent_guard.out; the tests check both).

Run: ``python examples/python/agent_guard.py`` (after ``pip install ./python``).
"""

from pathlib import Path

import hindsight

RULES = hindsight.Spec.from_file(Path(__file__).with_name("trucks.hind")).monitor("trucks")


class World:
    """The truck and two packages; a package is "depot", "on truck", an
    area, or "delivered"."""

    def __init__(self):
        self.truck = "depot"
        self.packages = {1: "depot", 2: "depot"}

    def event(self, action, pkg=0):
        """The guard's event for ``action`` on ``pkg`` where the truck is now."""
        return {"action": action, "area": self.truck, "pkg": pkg}

    # The tools. Each is guarded: the event is the call as the rules see it.
    @RULES.guard(lambda self, to: self.event("drive"))
    def drive(self, to):
        self.truck = to

    @RULES.guard(lambda self, pkg: self.event("load", pkg))
    def load(self, pkg):
        self.packages[pkg] = "on truck"

    @RULES.guard(lambda self, pkg: self.event("unload", pkg))
    def unload(self, pkg):
        self.packages[pkg] = self.truck

    @RULES.guard(lambda self, pkg: self.event("deliver", pkg))
    def deliver(self, pkg):
        self.packages[pkg] = "delivered"


SCRIPT = [
    ("load", 1),  # still at the depot: loading happens only in a1
    ("drive", "a1"),
    ("load", 1),
    ("load", 2),
    ("load", 1),  # package 1 is already loaded
    ("drive", "a2"),
    ("deliver", 1),  # not unloaded yet, and package 2 goes first
    ("unload", 1),
    ("deliver", 1),  # package 2 goes first
    ("deliver", 2),  # package 2 is not unloaded yet
    ("unload", 2),
    ("deliver", 2),
    ("deliver", 1),
]


def describe(tool, argument):
    if tool == "drive":
        return f"drive to {argument}"
    return f"{tool} package {argument}"


def main():
    world = World()
    for tool, argument in SCRIPT:
        print(f"model proposes: {describe(tool, argument)} (truck in {world.truck})")
        try:
            getattr(world, tool)(argument)
            print("  guard: ok -> executed")
        except hindsight.GuardRefused as refused:
            print(f"  guard: REFUSED, it would break {', '.join(refused.properties)}")
            print("  model is told why and replans")
    packages = ", ".join(world.packages[p].title() for p in sorted(world.packages))
    print(f"done: truck in {world.truck}, packages [{packages}]")


if __name__ == "__main__":
    main()
