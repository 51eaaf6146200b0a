"""Typed use of the package: `mypy --strict` must accept it (CI runs it),
so the shipped types say what the package does."""

from typing import Dict, List, Optional

import hindsight
from hindsight import Counts, Diagnostic, Monitor, Spec, Verdict


def first_violations(spec: Spec, events: List[Dict[str, object]]) -> List[str]:
    monitor: Monitor = spec.monitor()
    broken: List[str] = []
    for event in events:
        verdicts: Optional[Dict[str, Verdict]] = monitor.step(event)
        if verdicts is not None:
            broken += [name for name, v in verdicts.items() if v.is_violation]
    counts: Dict[str, Counts] = monitor.counts()
    assert all(c.satisfactions >= 0 for c in counts.values())
    return broken


def warnings_of(text: str) -> List[Diagnostic]:
    try:
        return Spec(text).warnings
    except hindsight.SpecError as error:
        return error.diagnostics


def test_typed_use() -> None:
    spec = Spec("monitor m { input a: bool; property p = a; }")
    assert first_violations(spec, [{"a": True}, {"a": False}]) == ["p"]
    assert warnings_of("monitor m { input a: boolean; }")[0].code == "E0203"


def protocol_groups() -> List[List[List[str]]]:
    """A protocol's central and group monitors, and its partitions."""
    spec = hindsight.Spec.from_file("examples/protocols/aip1.hind")
    central: hindsight.Protocol = spec.protocol("aip1")
    group = spec.protocol("aip1", group=["alice", "carol"])
    verdict: hindsight.Verdict = central.on_message("alice", "dave", "meet")
    group.on_message("alice", "dave", "meet", receipt=False)
    why: Optional[str] = central.why()
    members: Optional[List[str]] = group.group
    synchronous: bool = group.synchronous
    finished: hindsight.Verdict = central.finish()
    assert verdict is finished is hindsight.Verdict.TRUE and synchronous
    assert why is not None and members == ["alice", "carol"]
    return spec.partitions("aip1")


def anomalous_sessions(spec: Spec, model: hindsight.Model, runs: List[List[Dict[str, object]]]) -> int:
    follower: hindsight.ModelRun = spec.follow(model)
    flagged = 0
    for events in runs:
        follower.reset()
        standing: Optional[hindsight.Standing] = None
        for event in events:
            standing = follower.step(event)
        log_likelihood, anomalous = follower.finish()
        assert log_likelihood <= 0.0
        if anomalous or (standing is not None and standing.anomalous):
            flagged += 1
    return flagged


def audit_gate(spec: Spec, path: str) -> int:
    """A pipeline's gate on an audit: its vacuity and exit status."""
    audit: hindsight.Audit = spec.audit(path, key="/session")
    vacuous: int = audit.vacuous
    unmatched: int = audit.unmatched
    places: List[str] = audit.unmatched_places
    assert audit.is_vacuous == (vacuous + unmatched > 0) and len(places) == unmatched
    try:
        audit.check(allow_vacuous=False)
    except hindsight.AuditFailed as failed:
        reasons: List[str] = failed.reasons
        assert reasons
        return failed.status
    return audit.exit_status(allow_vacuous=True)


async def guarded_tool(monitor: Monitor) -> str:
    """An async tool under a guard stays awaitable."""

    @monitor.guard(lambda n: {"n": n})
    async def fetch(n: int) -> str:
        return str(n)

    answer: str = await fetch(3)
    return answer
