"""Guards: a refused call neither runs nor is stepped; a call that fails is
not stepped, nor an async one cancelled, and an async one that returns is
stepped after its await; the Python agent prints the Rust agent's
transcript."""

import asyncio
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from hindsight import GuardRefused, Spec, Verdict

ROOT = Path(__file__).resolve().parents[2]

RULES = """
monitor tools {
    input tool: bool;       // a call of the dangerous tool
    input approved: bool;   // the user approved it at this step
    property approved_first = tool -> O approved;
}
"""


def test_a_refused_call_neither_runs_nor_is_stepped():
    monitor = Spec(RULES).monitor()
    calls = []

    @monitor.guard(lambda tool, approved: {"tool": tool, "approved": approved})
    def act(tool, approved):
        calls.append((tool, approved))
        return "done"

    with pytest.raises(GuardRefused) as caught:
        act(True, False)
    refused = caught.value
    assert refused.properties == ["approved_first"]
    assert refused.monitor == "tools"
    assert refused.event == {"tool": True, "approved": False}
    assert refused.verdicts == {"approved_first": Verdict.FALSE}
    assert str(refused) == "refused by monitor `tools`: it would break `approved_first`"
    assert calls == []
    # Nothing was stepped: the approval is the first step, then the tool runs.
    assert act(False, True) == "done"
    assert act(True, False) == "done"
    assert calls == [(False, True), (True, False)]


def test_a_refusal_explains_itself():
    # The explanation is the one `hindsight check --explain` gives for the
    # same step: the values of the property's parts.
    monitor = Spec(RULES).monitor(explain=True)
    assert monitor.engine == "interpreter"
    with pytest.raises(GuardRefused) as caught:
        with monitor.guarding({"tool": True, "approved": False}):
            pass
    why = "tool = true, O approved = false"
    assert caught.value.explanations == {"approved_first": why}
    assert str(caught.value) == f"refused by monitor `tools`: it would break `approved_first` ({why})"
    monitor.step({"tool": True, "approved": False})
    assert monitor.explanations() == {"approved_first": why}


def test_a_call_that_fails_did_not_happen():
    monitor = Spec(RULES).monitor()

    @monitor.guard()
    def approve(tool, approved):
        raise RuntimeError("the approval service is down")

    with pytest.raises(RuntimeError):
        approve(tool=False, approved=True)
    # The failed approval was not stepped: the tool is still refused.
    with pytest.raises(GuardRefused):
        with monitor.guarding({"tool": True, "approved": False}):
            pass
    with monitor.guarding({"tool": False, "approved": True}):
        pass
    with monitor.guarding({"tool": True, "approved": False}):
        pass


def test_the_python_agent_prints_the_rust_agents_transcript():
    # agent_guard.out is what `cargo run -p agent-guard` prints
    # (examples/agent_guard/tests/transcript.rs checks that side).
    example = ROOT / "examples/python/agent_guard.py"
    printed = subprocess.run([sys.executable, str(example)], check=True, capture_output=True, text=True)
    assert printed.stdout == (ROOT / "examples/python/agent_guard.out").read_text()


def refuses_the_tool(monitor):
    """Whether the dangerous tool would be refused now: no approval stepped."""
    return monitor.peek({"tool": True, "approved": False})["approved_first"] is Verdict.FALSE


def test_an_async_tool_is_stepped_after_its_await_returns():
    monitor = Spec(RULES).monitor()
    seen = []

    @monitor.guard()
    async def approve(tool, approved):
        # While the approval runs it has not happened yet.
        seen.append(monitor.peek({"tool": True, "approved": False})["approved_first"])
        await asyncio.sleep(0)
        seen.append(monitor.peek({"tool": True, "approved": False})["approved_first"])
        return "approved"

    assert inspect.iscoroutinefunction(approve)
    # Calling it runs nothing: neither a peek nor a step.
    pending = approve(tool=False, approved=True)
    assert seen == [] and monitor.peek({"tool": True, "approved": False})["approved_first"] is Verdict.FALSE
    pending.close()
    assert asyncio.run(approve(tool=False, approved=True)) == "approved"
    assert seen == [Verdict.FALSE, Verdict.FALSE]
    assert not refuses_the_tool(monitor)


def test_an_async_tool_that_raises_is_not_stepped():
    monitor = Spec(RULES).monitor()

    @monitor.guard()
    async def approve(tool, approved):
        await asyncio.sleep(0)
        raise RuntimeError("the approval service is down")

    with pytest.raises(RuntimeError):
        asyncio.run(approve(tool=False, approved=True))
    assert refuses_the_tool(monitor)


def test_a_cancelled_async_tool_is_not_stepped():
    monitor = Spec(RULES).monitor()
    started = []

    @monitor.guard(lambda approved: {"tool": False, "approved": approved})
    async def approve(approved):
        started.append(approved)
        await asyncio.sleep(3600)

    async def guarding_body():
        with monitor.guarding({"tool": False, "approved": True}):
            started.append("body")
            await asyncio.sleep(3600)

    async def cancel(coroutine):
        task = asyncio.ensure_future(coroutine)
        while len(started) < 1:
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel(approve(True)))
    assert started == [True] and refuses_the_tool(monitor)
    started.clear()
    asyncio.run(cancel(guarding_body()))
    assert started == ["body"] and refuses_the_tool(monitor)


def test_an_async_tool_is_refused_at_its_await_and_does_not_run():
    monitor = Spec(RULES).monitor()
    ran = []

    @monitor.guard(lambda: {"tool": True, "approved": False})
    async def run_tool():
        ran.append(True)

    call = run_tool()  # no refusal yet: nothing runs until it is awaited
    with pytest.raises(GuardRefused, match="approved_first"):
        asyncio.run(call)
    assert ran == []


def test_a_generator_cannot_be_guarded():
    monitor = Spec(RULES).monitor()

    def steps(tool, approved):
        yield tool

    async def async_steps(tool, approved):
        yield tool

    for function in (steps, async_steps):
        with pytest.raises(TypeError, match="creating a generator runs nothing"):
            monitor.guard()(function)
