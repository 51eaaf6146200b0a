"""The rows the Spark job makes of a session, from the pandas frame
`applyInPandas` hands an executor (no Spark needed): records as pandas
gives them (an int column with nulls as floats, NaN for nulls, NumPy
arrays), and rows no filter can take for a pass."""

import math
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

from hindsight import Spec  # noqa: E402
from hindsight import spark as hspark  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = Spec.from_file(ROOT / "examples/coding_agent/rules.hind")
PROPERTIES = ["deploy_gated", "calls_answered", "no_third_retry"]
RETRY = 'input `retry` reads "/attributes/retry_of", which no line had a value at'
EXIT_CODE = 'input `exit_code` reads "/attributes/result/exit_code", which no line had a value at'
TOOL = 'input `tool` reads "/attributes/gen_ai.tool.name", which no line had a value at'


def row(records):
    """The result row of one session of `records` (dicts as Spark's pandas
    frames hold them), ordered by their `n`."""
    frame = pd.DataFrame(records)
    return hspark._session_row(RULES.text, None, frame, "session", "n", None, PROPERTIES)


def call(n, tool, **attributes):
    return {"session": "s", "n": n, "type": "tool_call", "attributes": {"gen_ai.tool.name": tool, **attributes}}


def result(n, tool, exit_code):
    # As Spark hands a nested long with nulls to pandas: a float, or NaN.
    return {
        "session": "s", "n": n, "type": "tool_result", "content": math.nan,
        "attributes": {"gen_ai.tool.name": tool, "result": {"exit_code": exit_code, "bytes": math.nan}},
    }


def test_floats_of_an_int_column_and_nulls_read_as_the_log_had_them():
    # Tests fail (101), pass (0), then a deploy: gated. Records out of order.
    records = [
        result(3, "run_tests", 101.0), call(0, "run_tests"), call(4, "run_tests"), call(2, "run_tests"),
        result(1, "run_tests", 101.0), result(5, "run_tests", 0.0), call(6, "deploy"), result(7, "deploy", math.nan),
    ]
    records[0]["attributes"]["tags"] = np.array(["ci", "retry-free"], dtype=object)
    got = row(records)
    assert got["error"] is None and got["steps"] == 8
    assert got["passed"] is True and got["vacuous"] is False
    assert got["deploy_gated"] == "true" and got["deploy_gated_false_steps"] == 0
    assert got["unmatched"] == [RETRY]  # no call here retries another
    # A deploy after a failed run only breaks the rule: at its step, 2.
    failed = row([call(0, "run_tests"), result(1, "run_tests", 101.0), call(2, "deploy")])
    assert (failed["deploy_gated"], failed["deploy_gated_first_false"], failed["passed"]) == ("false", 2, False)


def test_an_error_row_has_no_verdict_that_looks_like_a_pass():
    got = row([call(0, "run_tests"), result(1, "run_tests", 0.5)])
    assert got["error"].startswith("2:") and "expects int, found number 0.5" in got["error"]
    assert got["passed"] is False
    assert (got["steps"], got["vacuous"], got["unmatched"]) == (None, None, None)
    for p in PROPERTIES:
        assert got[p] == "error"
        assert got[f"{p}_false_steps"] is None and got[f"{p}_first_false"] is None


def test_a_session_without_a_step_is_vacuous_and_not_passed():
    got = row([{"session": "s", "n": 0, "type": "user.message", "content": "hi"}])
    assert (got["steps"], got["vacuous"], got["passed"]) == (0, True, False)
    # Past-time properties hold at every step of none.
    assert got["deploy_gated"] == "true"
    assert got["unmatched"] == [TOOL, EXIT_CODE, RETRY]


def test_a_violation_a_reset_property_ended_after_is_not_a_pass():
    # A call with no result, then another call: calls_answered is false at
    # step 1, and its next run (the second call, answered) ends true.
    got = row([call(0, "read_file"), call(1, "read_file"), result(2, "read_file", math.nan)])
    assert got["calls_answered"] == "true" and got["calls_answered_false_steps"] == 1
    assert got["passed"] is False


def test_a_property_named_as_a_result_column_is_refused():
    spec = Spec("monitor m { input a: bool; property passed = a; property p = a; property p_why = a; }")
    with pytest.raises(ValueError, match="two columns named `p_why`, `passed`"):
        hspark.audit(spec, None, session="s")  # type: ignore[arg-type]
