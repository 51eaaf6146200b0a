"""Audits on Apache Spark: a partitioned log checked one session at a time,
where the log already lives.

``hindsight.spark.audit(spec, df, session="session", order="line")`` groups
the records of ``df`` by session (``groupBy(...).applyInPandas``), runs one
monitor per session on the executors — the same audit as
``hindsight check --summary --key`` — and returns a DataFrame with a row per
session: its key; ``passed``, true only for a session read to its end
that gave a step and where every property held at every step and at the
end (false for every other row: filter on ``NOT passed`` for the sessions
to look at); its steps; an error if its records could not be read to the
end; whether it was vacuous (gave no step); the places of the spec none of
its records matched; and per property ``P`` its end verdict (``"true"``,
``"false"``, ``"?"``; ``"error"`` on an error's row, which has no verdict),
``P_false_steps``, ``P_first_false`` (the 0-based step) and ``P_why`` (the
explanation of the first violation). :func:`total` adds the rows up as the
CLI's total line does; :func:`check` fails as ``--fail-on-violation``.

A record is either a JSON text column (``record="record"``: a log line as
it is) or the row's other columns (nested structs become nested objects; a
null — pandas' NaN or NA — is an absent field, so ``default`` and ``hold``
apply; a float with no fraction is an integer, as pandas turns an integer
column with a null into floats). Records are taken in ``order`` (a column:
a line number or a timestamp); without it, in the order Spark hands them
over, which a shuffle does not keep.

Executors need the ``hindsight`` package installed (``pip install ./python``
on each node, or ``--py-files`` with the wheel), and ``pandas`` and
``pyarrow`` as every ``applyInPandas`` job does.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from . import Spec, Verdict, _failure, _missing

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas
    from pyspark.sql import DataFrame

__all__ = ["audit", "check", "result_schema", "total"]

# The columns before the properties', and each property's.
_FIXED = ["session", "passed", "steps", "error", "vacuous", "unmatched"]
_PER_PROPERTY = ["", "_false_steps", "_first_false", "_why"]


def result_schema(properties: List[str]) -> str:
    """The DDL schema of :func:`audit`'s result for a block of ``properties``."""
    columns = [
        "`session` string",
        "`passed` boolean",
        "`steps` bigint",
        "`error` string",
        "`vacuous` boolean",
        "`unmatched` array<string>",
    ]
    for name in properties:
        columns += [
            f"`{name}` string",
            f"`{name}_false_steps` bigint",
            f"`{name}_first_false` bigint",
            f"`{name}_why` string",
        ]
    return ", ".join(columns)


def audit(
    spec: Union[Spec, str],
    df: "DataFrame",
    *,
    session: str,
    order: Optional[str] = None,
    record: Optional[str] = None,
    block: Optional[str] = None,
) -> "DataFrame":
    """Audits the monitor block ``block`` (or the only block) of ``spec``
    (a :class:`Spec` or its text) over the records of ``df``, one session
    (the value of column ``session``) at a time; see the module's doc."""
    text = spec.text if isinstance(spec, Spec) else spec
    properties = Spec(text).monitor(block).properties
    columns = _FIXED + [p + suffix for p in properties for suffix in _PER_PROPERTY]
    clashes = sorted({c for c in columns if columns.count(c) > 1})
    if clashes:
        raise ValueError(
            "the result would have two columns named " + ", ".join(f"`{c}`" for c in clashes)
            + " (a property's name clashes with a result column); rename the property"
        )
    schema = result_schema(properties)

    def per_session(rows: "pandas.DataFrame") -> "pandas.DataFrame":
        import pandas

        return pandas.DataFrame([_session_row(text, block, rows, session, order, record, properties)])

    return df.groupBy(session).applyInPandas(per_session, schema=schema)


def _session_row(
    text: str,
    block: Optional[str],
    rows: "pandas.DataFrame",
    session: str,
    order: Optional[str],
    record: Optional[str],
    properties: List[str],
) -> Dict[str, Any]:
    """One session's result row."""
    if order is not None:
        rows = rows.sort_values(order, kind="stable")
    key = rows[session].iloc[0]
    records: List[Any]
    if record is not None:
        # Log lines as they are: no parsing here, the decoder reads them.
        records = list(rows[record])
    else:
        dropped = [c for c in (session, order) if c is not None]
        records = [_present(r) for r in rows.drop(columns=dropped).to_dict("records")]
    found = _spec(text)._audit_records(records, block=block, name=f"session {key}")
    (run,) = found.runs
    error = run.get("error")
    # `passed` is set last, from the rest.
    row: Dict[str, Any] = {"session": str(key), "passed": None, "steps": run.get("steps"), "error": error}
    row["vacuous"] = None if error is not None else found.vacuous > 0
    row["unmatched"] = None if error is not None else found.unmatched_places
    for name in properties:
        verdict = run.get(name)
        # An error's row has no verdict: "error", not a null, which filters
        # such as `P != 'false'` would pass over.
        row[name] = "error" if error is not None else str(verdict) if isinstance(verdict, Verdict) else None
        row[f"{name}_false_steps"] = run.get(f"{name}.false_steps")
        row[f"{name}_first_false"] = run.get(f"{name}.first_false")
        row[f"{name}_why"] = run.get(f"{name}.why")
    # Read to its end, checked, and every property held at every step and
    # at the end (a `with reset` property may end true after a violation).
    row["passed"] = error is None and row["vacuous"] is False and all(
        run.get(name) is Verdict.TRUE and not run.get(f"{name}.false_steps") for name in properties
    )
    return row


def _properties(result: "DataFrame") -> List[str]:
    """The properties of an :func:`audit` result, from its columns."""
    columns = result.columns
    properties = columns[len(_FIXED) :: len(_PER_PROPERTY)]
    expected = _FIXED + [p + suffix for p in properties for suffix in _PER_PROPERTY]
    if columns != expected:
        raise ValueError("not the result of hindsight.spark.audit: its columns are " + ", ".join(columns))
    return properties


def _totals(result: "DataFrame") -> Tuple[Dict[str, Any], List[str]]:
    """:func:`total`, and the places no session matched (two Spark jobs)."""
    from pyspark.sql import functions as f

    properties = _properties(result)
    counts = result.agg(
        f.count(f.lit(1)).alias("sessions"),
        f.coalesce(f.sum("steps"), f.lit(0)).alias("steps"),
        f.count("error").alias("errors"),
        f.count(f.when(f.col("vacuous"), 1)).alias("vacuous"),
        # As the CLI counts: false at some step or at the end.
        *[
            f.count(f.when((f.col(p) == "false") | (f.col(f"{p}_false_steps") > 0), 1)).alias(f"{p}.violated")
            for p in properties
        ],
    ).first()
    assert counts is not None  # an aggregate without grouping has one row
    read = counts["sessions"] - counts["errors"]
    # A place is unmatched when no session read to its end matched it.
    missed = (
        result.where(f.col("error").isNull())
        .select(f.explode("unmatched").alias("place"))
        .groupBy("place")
        .count()
        .where(f.col("count") == read)
        .orderBy("place")
        .collect()
    )
    places = [str(r["place"]) for r in missed]
    total: Dict[str, Any] = {"summary": "total"}
    for name in ("sessions", "steps", "errors", "vacuous"):
        total[name] = int(counts[name])
    total["unmatched"] = len(places)
    for p in properties:
        total[f"{p}.violated"] = int(counts[f"{p}.violated"])
    return total, places


def total(result: "DataFrame") -> Dict[str, Any]:
    """The total line of an :func:`audit` result, as ``hindsight check
    --summary --key`` prints it for the same sessions: ``sessions``,
    ``steps``, ``errors`` (sessions that could not be read to the end),
    ``vacuous`` (sessions that gave no step), ``unmatched`` (places of the
    spec that no record of any session read to its end matched) and per
    property ``P.violated`` (sessions where it was false). Runs two Spark
    jobs over ``result``: cache it if you also look at its rows."""
    return _totals(result)[0]


def check(result: "DataFrame", *, allow_vacuous: bool = False) -> None:
    """Raises :class:`hindsight.AuditFailed` as :meth:`hindsight.Audit.check`
    does, from the :func:`total` of an :func:`audit` result: a session
    that could not be read, a violation, or (unless ``allow_vacuous``) a
    session that gave no step or a place of the spec no session matched."""
    counts, places = _totals(result)
    violation = any(n for k, n in counts.items() if k.endswith(".violated"))
    failed = _failure(counts, places, violation, allow_vacuous)
    if failed is not None:
        raise failed


_SPECS: Dict[str, Spec] = {}


def _spec(text: str) -> Spec:
    """The spec of ``text``, checked once per executor process (its blocks
    are lowered once too, on first use)."""
    spec = _SPECS.get(text)
    if spec is None:
        spec = _SPECS[text] = Spec(text)
    return spec


def _present(value: Any) -> Any:
    """``value`` with nulls (None, NaN) dropped from objects and NumPy
    scalars made Python ones: a null column is an absent field."""
    if isinstance(value, dict):
        return {k: _present(v) for k, v in value.items() if not _null(v)}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        return [_present(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value


def _null(value: Any) -> bool:
    """Whether a cell is a null: None, NaN, or pandas' NA and NaT."""
    if value is None or _missing(value):
        return True
    return isinstance(value, float) and math.isnan(value)
