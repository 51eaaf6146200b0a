"""Audits on Apache Spark: a partitioned log checked one session at a time,
where the log already lives.

``hindsight.spark.audit(spec, df, session="session", order="line")`` groups
the records of ``df`` by session (``groupBy(...).applyInPandas``), runs one
monitor per session on the executors — the same audit as
``hindsight check --summary --key`` — and returns a DataFrame with a row per
session: its key, its steps, an error if its records could not be read to
the end, and per property ``P`` its end verdict (``"true"``, ``"false"``,
``"?"``), ``P_false_steps``, ``P_first_false`` (the 0-based step) and
``P_why`` (the explanation of the first violation).

A record is either a JSON text column (``record="record"``: a log line as
it is) or the row's other columns (nested structs become nested objects; a
null is an absent field, so ``default`` and ``hold`` apply). Records are
taken in ``order`` (a column: a line number or a timestamp); without it, in
the order Spark hands them over, which a shuffle does not keep.

Executors need the ``hindsight`` package installed (``pip install ./python``
on each node, or ``--py-files`` with the wheel), and ``pandas`` and
``pyarrow`` as every ``applyInPandas`` job does.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

from . import Spec, Verdict

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas
    from pyspark.sql import DataFrame

__all__ = ["audit", "result_schema"]


def result_schema(properties: List[str]) -> str:
    """The DDL schema of :func:`audit`'s result for a block of ``properties``."""
    columns = ["`session` string", "`steps` bigint", "`error` string"]
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
    (run,) = _spec(text)._audit_records(records, block=block, name=f"session {key}").runs
    row: Dict[str, Any] = {"session": str(key), "steps": run.get("steps"), "error": run.get("error")}
    for name in properties:
        verdict = run.get(name)
        row[name] = str(verdict) if isinstance(verdict, Verdict) else None
        row[f"{name}_false_steps"] = run.get(f"{name}.false_steps")
        row[f"{name}_first_false"] = run.get(f"{name}.first_false")
        row[f"{name}_why"] = run.get(f"{name}.why")
    return row


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
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, float) and math.isnan(value)
