"""The Spark job on a real local Spark session (small): its per-session
results equal the audit `hindsight check --summary --key` gives of the same
records, for a JSON record column and for plain columns."""

import json
import os
import random
import sys
from pathlib import Path

import pytest

from hindsight import Spec

# CI sets HINDSIGHT_REQUIRE_SPARK: there a missing pyspark fails instead of
# skipping.
if os.environ.get("HINDSIGHT_REQUIRE_SPARK"):
    import pyspark  # noqa: F401
else:
    pytest.importorskip("pyspark", reason="the Spark test needs pyspark (CI installs it)")
from pyspark.sql import SparkSession  # noqa: E402

from hindsight import spark as hspark  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def session():
    # The executors' Python is this one, where the package is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("hindsight-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    yield spark
    spark.stop()


def expected_rows(audit, properties):
    """The CLI's summaries as the Spark job's rows (session order)."""
    rows = {}
    for run in audit.runs:
        row = {"session": run["session"].strip('"'), "steps": run["steps"], "error": run.get("error")}
        for p in properties:
            row[p] = str(run[p])
            row[f"{p}_false_steps"] = run[f"{p}.false_steps"]
            row[f"{p}_first_false"] = run[f"{p}.first_false"]
            row[f"{p}_why"] = run.get(f"{p}.why")
        rows[row["session"]] = row
    return rows


def test_log_lines_by_session_equal_the_cli_audit(session):
    path = ROOT / "cli/tests/otel/review.records.jsonl"
    spec = Spec.from_file(ROOT / "examples/otel/audit.hind")
    lines = path.read_text().splitlines()
    data = [(json.loads(l)["trace_id"], i, l) for i, l in enumerate(lines)]
    random.Random(7).shuffle(data)  # the order column, not the input order, counts
    df = session.createDataFrame(data, "session string, line bigint, record string").repartition(3)
    result = hspark.audit(spec, df, session="session", order="line", record="record")
    got = {r["session"]: r.asDict() for r in result.collect()}
    properties = spec.monitor().properties
    assert got == expected_rows(spec.audit(path, key="/trace_id"), properties)
    assert got["d0e414d968edc8519ae0a30dfef64997"]["merge_after_tests"] == "false"


def test_plain_columns_by_session_equal_the_cli_audit(session, tmp_path):
    spec = Spec(
        "monitor bench { input request: bool; input reset: bool; input alarm: bool;"
        " property p1 = alarm -> (!reset S request); property p3 = G (request -> F[0,2] alarm); }"
    )
    rng = random.Random(3)
    rows = [
        (f"s{rng.randint(0, 4)}", i, rng.random() < 0.3, rng.random() < 0.2, rng.random() < 0.3)
        for i in range(400)
    ]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(
        json.dumps({"s": s, "request": a, "reset": b, "alarm": c}) + "\n" for s, _, a, b, c in rows
    ))
    df = session.createDataFrame(rows, "s string, i bigint, request boolean, reset boolean, alarm boolean")
    result = hspark.audit(spec, df, session="s", order="i")
    got = {r["session"]: r.asDict() for r in result.collect()}
    # The CLI reads the same records as a keyed log (a key no input names).
    cli = spec.audit(log, key="/s")
    assert got == expected_rows(cli, ["p1", "p3"])
    assert len(got) == 5
