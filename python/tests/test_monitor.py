"""Monitors from Python against independent oracles: a textbook evaluator of
the past-time properties written here, hand-worked futures and windows, the
verdicts the CLI's documentation commits (examples/coding_agent/timing.out),
and the errors a user must get."""

import json
import random
from pathlib import Path

import pytest

import hindsight
from hindsight import InputError, Spec, SpecError, Verdict

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["request", "reset", "alarm", "grant", "p", "q", "r", "s", "t"]

BENCH = """
monitor bench {
    input request: bool; input reset: bool; input alarm: bool; input grant: bool;
    input p: bool; input q: bool; input r: bool; input s: bool; input t: bool;
    property p1 = alarm -> (!reset S request);
    property p2 = Y p && (q S (r || (s S t)));
    property p3 = G (request -> F grant);
    property p4 = G (request -> F[0,3] grant);
}
"""


def random_trace(seed, steps):
    rng = random.Random(seed)
    return [{n: rng.random() < 0.4 for n in NAMES} for _ in range(steps)]


def since(a, b):
    """The textbook `a S b` at every step: b now, or a now and `a S b` before."""
    out, last = [], False
    for x, y in zip(a, b):
        last = y or (x and last)
        out.append(last)
    return out


def reference(trace):
    """P1 and P2 at every step, P3's and P4's end verdicts (finite-trace
    semantics: every request answered by the end, within 3 steps for P4),
    and P4's verdict at every step (false from the step its window closes
    unanswered; never true: a G)."""
    col = {n: [e[n] for e in trace] for n in NAMES}
    held = since([not x for x in col["reset"]], col["request"])
    p1 = [(not al) or h for al, h in zip(col["alarm"], held)]
    inner = since(col["s"], col["t"])
    outer = since(col["q"], [r or i for r, i in zip(col["r"], inner)])
    p2 = [i > 0 and col["p"][i - 1] and outer[i] for i in range(len(trace))]
    n = len(trace)
    answered = lambda j, bound: any(col["grant"][j : min(bound, n - 1) + 1])
    p3_end = all(answered(j, n) for j in range(n) if col["request"][j])
    p4_end = all(answered(j, j + 3) for j in range(n) if col["request"][j])
    late = [j + 3 for j in range(n) if col["request"][j] and not answered(j, j + 3) and j + 3 < n]
    first_late = min(late) if late else None
    p4 = [Verdict.FALSE if first_late is not None and i >= first_late else Verdict.UNKNOWN for i in range(n)]
    return p1, p2, p3_end, p4_end, p4


def verdict(b):
    return Verdict.TRUE if b else Verdict.FALSE


@pytest.mark.parametrize("seed", range(12))
def test_verdicts_match_the_textbook_semantics(seed):
    trace = random_trace(seed, 300 if seed else 1)
    monitor = Spec(BENCH).monitor("bench")
    assert monitor.engine == "machine code"
    p1, p2, p3_end, p4_end, p4 = reference(trace)
    for i, event in enumerate(trace):
        got = monitor.step(event)
        assert got == {"p1": verdict(p1[i]), "p2": verdict(p2[i]), "p3": Verdict.UNKNOWN, "p4": p4[i]}, i
    end = monitor.finish()
    assert end["p3"] == verdict(p3_end)
    assert end["p4"] == verdict(p4_end)


# Columns are stepped 4,096 rows at a time: 9,000 steps are three batches.
@pytest.mark.parametrize(
    "seed, steps, explain", [(0, 250, False), (1, 250, False), (2, 9000, False), (3, 9000, True), (4, 1, True)]
)
def test_columns_step_as_rows_do(seed, steps, explain):
    trace = random_trace(100 + seed, steps)
    by_rows = Spec(BENCH).monitor(explain=explain)
    rows = [by_rows.step(e) for e in trace]
    by_columns = Spec(BENCH).monitor(explain=explain)
    assert by_columns.engine == ("interpreter" if explain else "machine code")
    columns = by_columns.step_columns({n: [e[n] for e in trace] for n in NAMES})
    assert [{p: columns[p][i] for p in columns} for i in range(len(trace))] == rows
    assert by_columns.explanations() == by_rows.explanations()
    assert by_columns.finish() == by_rows.finish()
    # Steps after the columns go on from the last row's state.
    more = random_trace(200 + seed, 50)
    assert [by_columns.step(e) for e in more] == [by_rows.step(e) for e in more]
    # No columns of rows: no step taken.
    assert by_columns.step_columns({n: [] for n in NAMES}) == {p: [] for p in columns}
    assert by_columns.finish() == by_rows.finish()


def test_columns_of_every_type_and_their_errors():
    monitor = Spec(
        "enum Mode { idle, busy } monitor m { input n: int; input x: float; input mode: Mode;"
        " property p = n > 2 && x < 1.5 && mode == busy; }"
    ).monitor()
    got = monitor.step_columns({"n": [3, 1, 5], "x": [1.0, 1.0, 2], "mode": ["busy", "Mode::busy", "idle"]})
    assert got == {"p": [Verdict.TRUE, Verdict.FALSE, Verdict.FALSE]}
    with pytest.raises(InputError, match="missing: x"):
        monitor.step_columns({"n": [1], "mode": ["idle"]})
    with pytest.raises(InputError, match="column `mode`: `lazy` is no variant of Mode"):
        monitor.step_columns({"n": [1], "x": [1.0], "mode": ["lazy"]})
    with pytest.raises(InputError, match="column `x` has 2 values, the first has 1"):
        monitor.step_columns({"n": [1], "x": [1.0, 2.0], "mode": ["idle"]})
    with pytest.raises(InputError, match="column `n`"):
        monitor.step_columns({"n": ["one"], "x": [1.0], "mode": ["idle"]})
    # The refused calls took no step.
    assert monitor.step({"n": 3, "x": 1.0, "mode": "busy"}) == {"p": Verdict.TRUE}


# NumPy columns are read a batch of 4,096 rows at a time: 9,000 rows are three batches.
@pytest.mark.parametrize("seed, steps", [(0, 300), (1, 9000)])
def test_numpy_and_pandas_columns_step_as_lists_do(seed, steps):
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    trace = random_trace(200 + seed, steps)
    lists = {n: [e[n] for e in trace] for n in NAMES}
    expected = Spec(BENCH).monitor().step_columns(lists)
    arrays = {n: np.array(v, dtype=bool) for n, v in lists.items()}
    assert Spec(BENCH).monitor().step_columns(arrays) == expected
    assert Spec(BENCH).monitor().step_columns(pd.DataFrame(lists)) == expected
    # Every integer and float width, signed and unsigned, and byte orders.
    monitor = lambda: Spec("monitor m { input n: int; input x: float; property p = n > 2 && x < 1.5; }").monitor()
    n, x = [3, 1, 5, 100, 0], [1.0, 1.0, 0.5, 1.25, 2.0]
    want = {"p": [Verdict.TRUE, Verdict.FALSE, Verdict.TRUE, Verdict.TRUE, Verdict.FALSE]}
    assert monitor().step_columns({"n": n, "x": x}) == want
    for int_type in ("i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", ">i8", "<i4"):
        for float_type in ("f4", "f8", ">f8", "i8", "u2"):
            values = x if float_type.lstrip("<>")[0] == "f" else [1, 1, 0, 1, 2]  # the same verdicts
            got = monitor().step_columns({"n": np.array(n, dtype=int_type), "x": np.array(values, dtype=float_type)})
            assert got == want, (int_type, float_type)
    # A strided view is read as its values, not its buffer.
    strided = np.array([3, -9, 1, -9, 5, -9, 100, -9, 0, -9])[::2]
    assert monitor().step_columns({"n": strided, "x": np.array(x)}) == want


def test_numpy_columns_refused_with_a_reason():
    np = pytest.importorskip("numpy")
    # `h` stays true only while no step has had `b` false.
    monitor = Spec("monitor m { input b: bool; input n: int; property p = b && n > 0; property h = H b; }").monitor()
    with pytest.raises(InputError, match="column `b`: a NumPy array of dtype kind 'i' with 8-byte items cannot give a bool input"):
        monitor.step_columns({"b": np.array([1, 0]), "n": np.array([1, 2])})
    with pytest.raises(InputError, match="column `n`: a NumPy array of dtype kind 'f' with 8-byte items cannot give an int input"):
        monitor.step_columns({"b": np.array([True, False]), "n": np.array([1.0, 2.0])})
    with pytest.raises(InputError, match=f"column `n`: {2**63} does not fit an int input"):
        monitor.step_columns({"b": np.array([True]), "n": np.array([2**63], dtype="u8")})
    # An item past the first batch is checked before any step.
    with pytest.raises(InputError, match=f"column `n`: {2**64 - 1} does not fit an int input"):
        monitor.step_columns({"b": np.zeros(9000, dtype=bool), "n": np.array([1] * 8999 + [2**64 - 1], dtype="u8")})
    with pytest.raises(InputError, match="column `n`: a NumPy array of dtype kind 'i' with 16-byte items cannot give an int input"):
        answers = (Verdict.TRUE, Verdict.FALSE, Verdict.UNKNOWN)
        monitor._native.step_columns([("b", 1, b""), ("i", 16, b"")], answers)
    with pytest.raises(InputError, match="one-dimensional"):
        monitor.step_columns({"b": np.array([[True]]), "n": np.array([[1]])})
    # The refused calls took no step.
    assert monitor.step({"b": True, "n": 1}) == {"p": Verdict.TRUE, "h": Verdict.TRUE}


def test_peek_leaves_the_monitor_alone_and_reset_starts_over():
    trace = random_trace(99, 50)
    monitor = Spec(BENCH).monitor()
    steps = []
    for event in trace:
        peeked = monitor.peek(event)
        assert monitor.peek(event) == peeked
        steps.append(monitor.step(event))
        assert steps[-1] == peeked
    monitor.reset()
    assert [monitor.step(e) for e in trace] == steps


def test_the_documented_log_gives_the_documented_verdicts():
    # timing.hind's metric past operators are interpreted; the verdicts are
    # the ones examples/coding_agent/timing.out commits.
    spec = Spec.from_file(ROOT / "examples/coding_agent/timing.hind")
    monitor = spec.monitor()
    assert monitor.engine == "interpreter"
    expected = [json.loads(l) for l in (ROOT / "examples/coding_agent/timing.out").read_text().splitlines()]
    steps = [e for e in expected if "step" in e]
    end = expected[-1]
    got = []
    for line in (ROOT / "examples/coding_agent/session.jsonl").read_text().splitlines():
        verdicts = monitor.step(json.loads(line))
        if verdicts is not None:
            got.append(verdicts)
    assert len(got) == len(steps) > 0
    for step, verdicts in zip(steps, got):
        assert {k: str(v) for k, v in verdicts.items()} == {k: step[k] for k in monitor.properties}
    # The end line gives a future property's end verdict (what finish()
    # says) and, for a past one, whether it held at every step (an audit;
    # finish() gives its value at the last step).
    finish = monitor.finish()
    for name in ["answered", "deploy_answered"]:
        assert str(finish[name]) == end[name]
    for name in ["tested_recently", "tested_last_minute"]:
        assert finish[name] == got[-1][name]
        assert end[name] == ("true" if all(s[name] == "true" for s in steps) else "false")


MAPPED = """
enum Mode { idle, busy }
monitor mapped {
    steps where "/type" == "tool_call";
    input exit_code: int from "/result/exit_code" default -1;
    input mode: Mode from "/state/mode" hold initially idle;
    input retry: bool from present("/retry_of");
    property clean = exit_code != 1;
    property calm = mode == idle || retry;
}
"""


def test_events_are_read_with_the_cli_field_mapping():
    monitor = Spec(MAPPED).monitor()
    assert monitor.inputs == [("exit_code", "int"), ("mode", "Mode"), ("retry", "bool")]
    # Not a step: the filter skips it.
    assert monitor.step({"type": "heartbeat"}) is None
    # Defaults, `hold initially`, presence.
    assert monitor.step({"type": "tool_call"}) == {"clean": Verdict.TRUE, "calm": Verdict.TRUE}
    assert monitor.step({"type": "tool_call", "state": {"mode": "busy"}, "result": {"exit_code": 1}}) == {
        "clean": Verdict.FALSE,
        "calm": Verdict.FALSE,
    }
    # `mode` holds `busy`; a retry makes `calm` true.
    assert monitor.step({"type": "tool_call", "retry_of": "c1"}) == {"clean": Verdict.TRUE, "calm": Verdict.TRUE}
    assert monitor.step({"type": "tool_call"}) == {"clean": Verdict.TRUE, "calm": Verdict.FALSE}
    # Reset forgets the held mode.
    monitor.reset()
    assert monitor.step({"type": "tool_call"})["calm"] is Verdict.TRUE


def test_bad_events_raise_input_errors_naming_the_input():
    monitor = Spec(BENCH).monitor()
    event = {n: False for n in NAMES}
    with pytest.raises(InputError, match="input `request` expects bool"):
        monitor.step({**event, "request": 1})
    with pytest.raises(InputError, match="missing input `grant`"):
        monitor.step({n: False for n in NAMES if n != "grant"})
    with pytest.raises(InputError, match="unknown"):
        monitor.step({**event, "requets": True})
    with pytest.raises(TypeError, match="mapping"):
        monitor.step([True])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="JSON-like"):
        monitor.step({**event, "request": object()})
    # A refused event is no step.
    assert monitor.step(event) == monitor.peek(event)


def test_spec_errors_carry_the_rendered_diagnostics_and_their_places():
    text = "monitor m {\n    input a: boolean;\n    property p = a;\n}\n"
    with pytest.raises(SpecError) as caught:
        Spec(text, name="m.hind")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.diagnostics == [
        hindsight.Diagnostic("error", "E0203", "unknown type `boolean`", 2, 14)
    ]
    assert str(error).startswith("error[E0203]: unknown type `boolean`\n  ┌─ m.hind:2:14")


def test_warnings_are_kept_and_blocks_chosen_by_name():
    spec = Spec("monitor a { input x: bool; property p = x with reset; }\nmonitor b { input y: bool; property q = y; }")
    assert [(w.severity, w.code, w.line) for w in spec.warnings] == [("warning", "W0100", 1)]
    assert "warning[W0100]" in spec.rendered_warnings
    assert spec.blocks == [("monitor", "a"), ("monitor", "b")]
    with pytest.raises(ValueError, match="several monitor blocks"):
        spec.monitor()
    with pytest.raises(ValueError, match="no monitor block named `c`"):
        spec.monitor("c")
    assert spec.monitor("b").properties == ["q"]


def test_counts_of_a_reset_property():
    spec = Spec("monitor m { input r: bool; input g: bool; property answered = r -> F[0,1] g with reset; }")
    monitor = spec.monitor()
    for r, g in [(1, 0), (0, 1), (1, 0), (0, 0), (0, 0)]:
        monitor.step({"r": bool(r), "g": bool(g)})
    # Runs: steps 0-1 satisfied; steps 2-3 violated; step 4's `r` is false:
    # satisfied at once.
    assert monitor.counts()["answered"] == hindsight.Counts(2, 1)


def test_verdict_truthiness_is_defined_only_where_it_is_unambiguous():
    assert bool(Verdict.TRUE) and not bool(Verdict.FALSE)
    with pytest.raises(TypeError, match="neither true nor false"):
        bool(Verdict.UNKNOWN)
    assert Verdict.FALSE.is_violation and not Verdict.UNKNOWN.is_violation
    assert str(Verdict.UNKNOWN) == "?"


def test_events_written_natively_read_as_json_dumps_writes_them():
    # `step` writes plain values as JSON in Rust; the same events through
    # `json.dumps` must give the same verdicts, for awkward floats and ints.
    spec = Spec("monitor m { input x: float; input n: int; property p = x > 0.3 && n < 7; property q = x == 0.30000000000000004; }")
    native, dumped = spec.monitor(), spec.monitor()
    rng = random.Random(5)
    floats = [0.1 + 0.2, 0.3, -0.0, 1e-7, 1e20, 1e300, 2.5e-308, 5.0, 123456789.125, -1e-300]
    for _ in range(300):
        event = {"x": rng.choice(floats + [rng.uniform(-1, 1)]), "n": rng.choice([0, 6, 7, -(2**63), 2**63 - 1])}
        assert native.step(event) == dumped.step_line(json.dumps(event))


def test_values_json_has_no_form_for():
    import datetime
    import enum

    class Mode(enum.Enum):
        busy = "busy"

    spec = Spec("enum Mode { idle, busy } monitor m { time ts from \"/ts\"; input mode: Mode; property p = mode == busy; }")
    monitor = spec.monitor()
    moment = datetime.datetime(2026, 3, 2, 14, 5, tzinfo=datetime.timezone.utc)
    # A Python enum reads as its value, a datetime as RFC 3339 — in peek
    # and in step alike.
    event = {"ts": moment, "mode": Mode.busy}
    assert monitor.peek(event) == {"p": Verdict.TRUE}
    assert monitor.step(event) == {"p": Verdict.TRUE}
    with pytest.raises(TypeError, match="JSON-like"):
        monitor.peek({"ts": moment, "mode": object()})
    with pytest.raises(ValueError, match="inf is not a JSON number"):
        Spec(BENCH).monitor().step({**{n: False for n in NAMES}, "request": float("inf")})
    # NaN is a missing value, as pandas writes it: here a missing input.
    with pytest.raises(InputError, match="missing input `request`"):
        Spec(BENCH).monitor().step({**{n: False for n in NAMES}, "request": float("nan")})
    with pytest.raises(InputError, match="expects int"):
        spec2 = Spec("monitor m { input n: int; property p = n > 0; }").monitor()
        spec2.step({"n": 10**30})


def test_steps_and_peeks_allocate_nothing_on_the_rust_side():
    """After a few steps have sized the buffers, stepping and peeking a
    monitor run as machine code allocate nothing in Rust (the Python dicts
    of the answers are Python's), and neither do the rows of step_columns
    (once the monitor's buffer for a batch of rows has its size: 9,000 rows
    are three batches); the native module's allocator counts every Rust
    allocation."""
    from hindsight import _native

    monitor = Spec(BENCH).monitor("bench")
    assert monitor.engine == "machine code"
    trace = random_trace(7, 9000)
    for event in trace[:20]:
        monitor.peek(event)
        monitor.step(event)
    before = _native.rust_allocations()
    for event in trace[20:2000]:
        monitor.peek(event)
        monitor.step(event)
    assert _native.rust_allocations() == before
    # The counter does count: compiling a spec allocates.
    Spec(BENCH)
    assert _native.rust_allocations() > before

    def columns(steps):
        return {n: [event[n] for event in trace[:steps]] for n in NAMES}

    monitor.step_columns(columns(9000))
    start = _native.rust_allocations()
    monitor.step_columns(columns(10))
    ten = _native.rust_allocations() - start
    start = _native.rust_allocations()
    monitor.step_columns(columns(9000))
    assert _native.rust_allocations() - start == ten


def test_an_int_input_takes_a_float_with_no_fraction_and_nothing_else_changes():
    # pandas turns an int column with a missing value into floats: 101.0.
    spec = Spec(
        "monitor m { input n: int from \"/n\" default -1; input x: float from \"/x\" default 0.5;"
        " property big = n > 100; property exact = n == 9007199254740992;"
        " property whole = x == 2.0; property half = x > 1.5 && x < 2.5; }"
    )
    m = spec.monitor()
    v = m.step({"n": 101.0, "x": 2.0})
    assert (v["big"], v["whole"], v["half"]) == (Verdict.TRUE, Verdict.TRUE, Verdict.TRUE)
    # 2^53, the last float below which every integer is one, is read as an int.
    assert m.step({"n": 2.0**53})["exact"] is Verdict.TRUE
    assert m.step({"n": -0.0})["big"] is Verdict.FALSE  # -0.0 is 0, as in log lines
    # A fraction, or a float past 2^53 (it may be a rounded long), is no int.
    for refused, shown in [(101.5, "101.5"), (2.0**53 + 2, "9007199254740994"), (-(2.0**60), "-1.15")]:
        with pytest.raises(InputError, match=f"input `n` .*expects int, found number {shown}"):
            m.step({"n": refused})
    # A float input reads the same number as a float: 2.0 == 2.0 and 1e300.
    assert m.step({"x": 1e300})["half"] is Verdict.FALSE
    # Nulls are no value: the defaults (-1, 0.5) apply.
    for null in (None, float("nan")):
        v = m.step({"n": null, "x": null})
        assert (v["big"], v["whole"], v["half"]) == (Verdict.FALSE, Verdict.FALSE, Verdict.FALSE)


def test_pandas_rows_read_as_the_log_lines_they_came_from(tmp_path):
    pd = pytest.importorskip("pandas")
    # A flat log where only results have an exit code: pandas reads that
    # column as floats (NaN where absent), or as Int64 (NA) when asked.
    lines = [
        {"kind": "call", "code": None, "tool": "tests"},
        {"kind": "result", "code": 101, "tool": "tests"},
        {"kind": "call", "code": None, "tool": "deploy"},
        {"kind": "result", "code": 0, "tool": "deploy"},
        {"kind": "call", "tool": "tests"},
        {"kind": "result", "code": 0, "tool": "tests"},
    ]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps({k: v for k, v in l.items() if v is not None}) + "\n" for l in lines))
    spec = Spec(
        "enum Kind { call, result } enum Tool { tests, deploy }"
        " monitor m { input kind: Kind from \"/kind\"; input tool: Tool from \"/tool\";"
        " input code: int from \"/code\" default -1;"
        " let passed = kind == result && tool == tests && code == 0;"
        " property gated = (kind == call && tool == deploy) -> O passed; }"
    )
    expected = spec.audit(log)
    # Hand-worked: the deploy at step 2 comes after a failed run only.
    assert expected.runs[0]["gated.first_false"] == 2 and expected.runs[0]["gated.false_steps"] == 1
    floats = pd.read_json(log, lines=True)
    assert str(floats["code"].dtype) == "float64"
    nullable = floats.astype({"code": "Int64"})
    for frame in (floats, nullable):
        records = frame.to_dict("records")
        got = spec.audit(records, name=str(log))
        assert got.runs == expected.runs and got.total == expected.total
        # Row by row, as a Series each (pandas' own scalars: NA, numpy ints).
        monitor = spec.monitor()
        stepped = [monitor.step(dict(row)) for _, row in frame.iterrows()]
        assert [s["gated"] for s in stepped] == [Verdict.TRUE, Verdict.TRUE, Verdict.FALSE] + [Verdict.TRUE] * 3
    assert nullable["code"].iloc[0] is pd.NA
    assert spec.monitor().step({"kind": "call", "tool": "deploy", "code": pd.NA})["gated"] is Verdict.FALSE
