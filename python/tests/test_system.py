"""System blocks from Python: lifelines exchanging stamps as bytes reach the
guard values `hindsight check` prints for the same execution (the README's
Figure 2 run), decide as the CPL paper's scenarios say, and refuse stamps
they must not take."""

import json
from pathlib import Path

import pytest

from hindsight import InputError, Spec, Verdict

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "examples/code_review/review.hind"


def replay(events, key=None):
    """Runs the system trace `events` with one Python lifeline per agent,
    messages carrying the stamps as bytes; the guard lines of the choices,
    as `hindsight check` prints them."""
    spec = Spec.from_file(SPEC)
    lifelines = {}
    stamps = {}
    lines = []
    for number, event in enumerate(events):
        name = event["lifeline"]
        lifeline = lifelines.setdefault(name, spec.lifeline(name, key=key))
        store = event.get("store")
        kind = event["kind"]
        if kind == "act":
            lifeline.on_act(store)
        elif kind == "send":
            stamps[event["msg"]] = lifeline.on_send(store)
        elif kind == "recv":
            lifeline.on_recv(stamps.pop(event["msg"]), store)
        else:
            guards = lifeline.on_choice(store)
            lines.append({"event": number, "lifeline": name, **{g: str(v) for g, v in guards.items()}})
    return lines


def figure2():
    return [json.loads(l) for l in (ROOT / "examples/code_review/figure2.jsonl").read_text().splitlines()]


def readme_guard_line():
    text = (ROOT / "README.md").read_text()
    block = text.split("<!-- output: check examples/code_review/review.hind --trace examples/code_review/figure2.jsonl -->\n```\n", 1)[1]
    return [json.loads(l) for l in block.split("```", 1)[0].splitlines()]


def test_lifelines_reach_the_guard_values_hindsight_check_prints():
    assert replay(figure2()) == readme_guard_line()


def test_sealed_stamps_give_the_same_guards_and_refuse_tampering():
    key = bytes(range(32))
    assert replay(figure2(), key=key) == readme_guard_line()
    spec = Spec.from_file(SPEC)
    runner = spec.lifeline("TestRunner", key=key)
    committer = spec.lifeline("Committer", key=key)
    runner.on_act({"cand": 7, "status": "passed"})
    stamp = bytearray(runner.on_send())
    stamp[-1] ^= 1
    with pytest.raises(InputError):
        committer.on_recv(bytes(stamp))
    # Unsealed bytes are refused by a lifeline that expects a seal.
    plain = Spec.from_file(SPEC).lifeline("TestRunner").on_send()
    with pytest.raises(InputError):
        committer.on_recv(plain)


def test_a_failure_delivered_before_the_choice_blocks_the_merge():
    # The paper's other scenario: the failure report (m4) reaches the
    # Committer before it decides.
    events = figure2()
    choice = next(i for i, e in enumerate(events) if e["kind"] == "choice")
    events.insert(choice, {"lifeline": "Committer", "kind": "recv", "msg": "m4"})
    (line,) = replay(events)
    assert line["may_merge"] == "false" and line["failure_seen"] == "true"


def test_bad_events_and_names():
    spec = Spec.from_file(SPEC)
    committer = spec.lifeline("Committer")
    assert committer.guard_names == ["may_merge", "failure_seen"]
    assert committer.guards() == {"may_merge": Verdict.UNKNOWN, "failure_seen": Verdict.UNKNOWN}
    with pytest.raises(InputError, match="no variable `status`"):
        committer.on_act({"status": "passed"})
    with pytest.raises(InputError, match="variable `cand`"):
        committer.on_act({"cand": "seven"})
    with pytest.raises(InputError):
        committer.on_recv(b"not a stamp")
    with pytest.raises(ValueError, match="no lifeline `Reviewer`"):
        spec.lifeline("Reviewer")
    with pytest.raises(ValueError, match="32 bytes"):
        spec.lifeline("Committer", key=b"short")
    with pytest.raises(ValueError, match="`review` is a system block: use Spec.lifeline"):
        spec.monitor("review")


def test_a_stamp_is_the_bytes_the_generated_rust_lifeline_writes():
    # The pass report of tests/codegen/tests/system_stamp.rs, worked out by
    # hand there for the generated monitor: version 1, the layout's
    # fingerprint (the generated FINGERPRINT, from the committed snapshot of
    # the Rust generated for this spec), the clock [0, 2, 0, 0] as varints,
    # the bits (TestRunner's passed-since entry true, its `cand` defined),
    # then `cand` = 7.
    # That test's spec (tests/codegen/specs/system_review.hind: the review
    # without the failure_seen guard) has its own layout.
    snapshot = (ROOT / "codegen/tests/snapshots/all__examples__tests__codegen__specs__system_review.snap").read_text()
    fingerprint = int(snapshot.split("pub const FINGERPRINT: ::core::primitive::u64 = ", 1)[1].split("u64", 1)[0])
    runner = Spec.from_file(ROOT / "tests/codegen/specs/system_review.hind").lifeline("TestRunner")
    runner.on_act({"cand": 7, "status": "passed"})
    stamp = runner.on_send()
    expected = bytes([1]) + fingerprint.to_bytes(8, "little") + bytes([0, 2, 0, 0, 0b0011]) + (7).to_bytes(8, "little")
    assert stamp == expected
    assert len(stamp) == 22
