"""Protocols from Python (docs/language.md, section 4e): the partitions the
DecAMon paper lists, central verdicts worked out by hand from the example
traces, and group monitors that catch a violation exactly when the central
monitor does under every safe partition."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hindsight import InputError, Spec, SpecError, Verdict

ROOT = Path(__file__).resolve().parents[2]
PROTOCOLS = ROOT / "examples/protocols"


def messages(trace):
    """The labelled messages of a system trace: (sender, receiver, label,
    receipt) per send and receipt, in order."""
    sent = {}
    out = []
    for line in (PROTOCOLS / trace).read_text().splitlines():
        event = json.loads(line)
        if event["kind"] == "send" and "label" in event:
            sent[event["msg"]] = (event["lifeline"], event["to"], event["label"])
            out.append((*sent[event["msg"]], False))
        elif event["kind"] == "recv" and event["msg"] in sent:
            out.append((*sent.pop(event["msg"]), True))
    return out


def test_aip1_and_aip2_partitions_are_the_papers():
    # AIP1: one of alice, dave with one of bob, carol; AIP2: the one who
    # submits or the conference with one side of the announcement.
    assert Spec.from_file(PROTOCOLS / "aip1.hind").partitions() == [
        [["alice"], ["bob"], ["carol", "dave"]],
        [["alice"], ["bob", "dave"], ["carol"]],
        [["alice", "bob"], ["carol"], ["dave"]],
        [["alice", "carol"], ["bob"], ["dave"]],
    ]
    assert Spec.from_file(PROTOCOLS / "aip2.hind").partitions() == [
        [["aamas"], ["alice", "carol"], ["dave"]],
        [["aamas"], ["alice", "dave"], ["carol"]],
        [["aamas", "carol"], ["alice"], ["dave"]],
        [["aamas", "dave"], ["alice"], ["carol"]],
    ]
    # The alternating-bit protocol: 16, the count of the paper's Table 1.
    assert len(Spec.from_file(PROTOCOLS / "abp.hind").partitions("abp")) == 16


def test_central_verdicts_of_the_example_traces():
    spec = Spec.from_file(PROTOCOLS / "aip1.hind")
    central = spec.protocol()
    assert central.synchronous and central.group is None
    # One meeting: complete; the receipt is no event of a synchronous protocol.
    assert central.on_message("alice", "dave", "meet") is Verdict.TRUE
    assert central.on_message("alice", "dave", "meet", receipt=True) is Verdict.TRUE
    assert central.why() == "may end here; still allowed: skip"
    # The second meeting violates it, for good.
    assert central.on_message("carol", "bob", "meet") is Verdict.FALSE
    assert central.why() == "the protocol was complete: it allowed no further event"
    assert central.on_message("alice", "dave", "meet") is Verdict.FALSE
    assert central.finish() is Verdict.FALSE
    central.reset()
    assert central.verdict() is Verdict.UNKNOWN and central.finish() is Verdict.FALSE

    aip2 = Spec.from_file(PROTOCOLS / "aip2.hind").protocol("aip2")
    assert aip2.on_message("carol", "dave", "submitted") is Verdict.FALSE
    assert aip2.why() == "expected `alice -> aamas: submit`"


def test_group_monitors_under_every_safe_partition_report_the_central_violations():
    for name, protocol, trace in [
        ("aip1.hind", "aip1", "aip1_both.jsonl"),
        ("aip2.hind", "aip2", "aip2_early.jsonl"),
        ("abp.hind", "abp", "abp.jsonl"),
    ]:
        spec = Spec.from_file(PROTOCOLS / name)
        run = messages(trace)
        for partition in spec.partitions(protocol):
            central = spec.protocol(protocol)
            groups = [spec.protocol(protocol, group=g) for g in partition]
            violated = False
            for sender, receiver, label, receipt in run:
                before = violated
                violated = central.on_message(sender, receiver, label, receipt=receipt) is Verdict.FALSE
                caught = [g.on_message(sender, receiver, label, receipt=receipt) is Verdict.FALSE for g in groups]
                # A group never reports a violation the central monitor does
                # not, and some group reports each one at the same message.
                assert any(caught) == violated or before, (name, partition, sender, receiver, label)
            assert violated, (name, trace)


def test_lifelines_alone_miss_what_a_safe_partition_sees():
    spec = Spec.from_file(PROTOCOLS / "aip1.hind")
    alone = [spec.protocol(group=[l]) for l in ["alice", "bob", "carol", "dave"]]
    for g in alone:
        g.on_message("alice", "dave", "meet")
        g.on_message("carol", "bob", "meet")
    assert all(g.verdict() is Verdict.TRUE for g in alone)
    together = spec.protocol(group=["alice", "carol"])
    together.on_message("alice", "dave", "meet")
    assert together.on_message("carol", "bob", "meet") is Verdict.FALSE
    assert together.why() is None and together.group == ["alice", "carol"]


def test_bad_requests_are_refused():
    spec = Spec.from_file(PROTOCOLS / "abp.hind")
    with pytest.raises(ValueError, match="name the protocol .*`rounds`, `ack1`"):
        spec.protocol()
    with pytest.raises(ValueError, match="no protocol `abc`"):
        spec.protocol("abc")
    with pytest.raises(ValueError, match="no lifeline `zoe`"):
        spec.protocol("abp", group=["zoe"])
    with pytest.raises(ValueError, match="named twice"):
        spec.protocol("abp", group=["alice", "alice"])
    with pytest.raises(ValueError, match="at least one lifeline"):
        spec.protocol("abp", group=[])
    central = spec.protocol("abp")
    with pytest.raises(InputError, match="no lifeline `zoe`"):
        central.on_message("zoe", "bob", "m1")
    # A label the protocol does not know is no event of it.
    assert central.on_message("alice", "bob", "hello") is Verdict.TRUE
    review = Spec.from_file(ROOT / "examples/code_review/review.hind")
    with pytest.raises(ValueError, match="declares no protocol"):
        review.protocol()
    unbounded = Spec(
        "system s { lifeline a {} lifeline b {} protocol p = a -> b: m . (p ||| b -> a: n) + skip; }"
    )
    with pytest.raises(SpecError, match="E0416"):
        unbounded.protocol()


def test_the_example_prints_what_its_out_file_shows():
    printed = subprocess.run(
        [sys.executable, str(ROOT / "examples/python/protocol_groups.py")], check=True, capture_output=True, text=True
    )
    assert printed.stdout == (ROOT / "examples/python/protocol_groups.out").read_text()
