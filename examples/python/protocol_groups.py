"""Decentralized protocol monitoring from Python (docs/python.md, "Protocols").

AIP1 of the DecAMon paper: Alice asks Dave to meet, or Carol asks Bob, never
both. No lifeline takes part in both meetings, so monitors of lifelines
alone cannot see both happen; `Spec.partitions` says which lifelines must
share a monitor. Each group below runs its own monitor and sees only the
messages involving it, as agents in separate processes would.
"""

from pathlib import Path

import hindsight

ROOT = Path(__file__).resolve().parents[2]
spec = hindsight.Spec.from_file(ROOT / "examples/protocols/aip1.hind")

partitions = spec.partitions("aip1")
print("minimal monitoring-safe partitions:")
for partition in partitions:
    print("  ", partition)


def run(partition, messages):
    """The central verdict and each group's after every message."""
    central = spec.protocol("aip1")
    groups = [spec.protocol("aip1", group=group) for group in partition]
    for sender, receiver, label in messages:
        verdict = central.on_message(sender, receiver, label)
        seen = {"+".join(g.group): str(g.on_message(sender, receiver, label)) for g in groups}
        print(f"  {sender} -> {receiver}: {label}  central {verdict}  groups {seen}")
    print("  why:", central.why())


both = [("alice", "dave", "meet"), ("carol", "bob", "meet")]
print("every lifeline alone (not safe):")
run([["alice"], ["bob"], ["carol"], ["dave"]], both)
print(f"the first safe partition, {partitions[0]}:")
run(partitions[0], both)
