"""Hindsight from Python: temporal rules over agent logs and running agents.

A :class:`Spec` is a Hindsight spec (the language of ``docs/language.md``),
checked when it is created; :meth:`Spec.monitor` gives one of its monitor
blocks as a :class:`Monitor`, which takes one event at a time — a ``dict``
shaped like a line of the block's log, read with the same field mapping,
defaults and errors as ``hindsight check`` — and answers with a
:class:`Verdict` per property. :meth:`Monitor.guard` and
:meth:`Monitor.guarding` refuse a tool call that would break a rule, before
it runs.

The engine is the one ``hindsight check`` runs: the block's table compiled
to machine code (or interpreted, for what machine code does not cover).
"""

from __future__ import annotations

import enum
import functools
import inspect
import json
import os
from contextlib import contextmanager
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

from . import _native
from ._native import NativeLifeline, NativeModel, NativeModelRun, NativeMonitor, NativePopulation, NativeProtocol

__all__ = [
    "Audit",
    "AuditFailed",
    "Counts",
    "Diagnostic",
    "GuardRefused",
    "InputError",
    "Lifeline",
    "Model",
    "ModelRun",
    "Monitor",
    "Population",
    "Protocol",
    "Spec",
    "SpecError",
    "Standing",
    "Verdict",
    "audit",
]

InputError = _native.InputError
"""Raised when an event cannot be read: a missing input, a value of the
wrong type, an unknown key (a ``ValueError``)."""


class Verdict(enum.Enum):
    """A property's answer at a step, spelled as the CLI prints it.

    Past-time properties are always ``TRUE`` or ``FALSE``; future-time ones
    are ``UNKNOWN`` while the events so far do not decide them.

    ``bool(verdict)`` is defined only where it is unambiguous: ``TRUE`` is
    true, ``FALSE`` is false, and ``UNKNOWN`` raises ``TypeError`` — so that
    ``if verdict:`` cannot silently read "not decided yet" as either. Compare
    with the members, or ask :attr:`is_violation`.
    """

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "?"

    def __bool__(self) -> bool:
        if self is Verdict.UNKNOWN:
            raise TypeError(
                "an unknown verdict (`?`) is neither true nor false: compare it "
                "with Verdict.TRUE or Verdict.FALSE, or use .is_violation"
            )
        return self is Verdict.TRUE

    def __str__(self) -> str:
        return self.value

    @property
    def is_violation(self) -> bool:
        """Whether the property is violated (``FALSE``)."""
        return self is Verdict.FALSE


class Diagnostic(NamedTuple):
    """One diagnostic about a spec: ``severity`` is ``"error"`` or
    ``"warning"``, ``code`` the registry code (``E0200``, ...); ``line`` and
    ``column`` are 1-based (0 when it points nowhere)."""

    severity: str
    code: str
    message: str
    line: int
    column: int


class SpecError(ValueError):
    """A spec, or the block asked for, has errors.

    ``str(error)`` is the rustc-style rendering the CLI prints;
    :attr:`diagnostics` lists them one by one.
    """

    def __init__(self, rendered: str, diagnostics: List[Diagnostic]) -> None:
        super().__init__(rendered)
        self.rendered = rendered
        self.diagnostics = diagnostics

    def __str__(self) -> str:
        return self.rendered


class Audit(NamedTuple):
    """What :meth:`Spec.audit` found: per trace (or session), the summary
    ``hindsight check --summary`` prints as a dict (``"trace"``,
    ``"session"``, ``"steps"``, each property's end :class:`Verdict` under
    its name, and ``"NAME.false_steps"``, ``"NAME.first_false"``,
    ``"NAME.first_false_line"``, ``"NAME.why"``, ...; for a system, per
    guard, ``"NAME.true"``, ``"NAME.false"``, ``"NAME.unknown"`` counts of
    its choices — or ``"error"`` for a trace that could not be read to its
    end); the total line; the messages the CLI would print on stderr
    (errors with their places, warnings); the places of the spec no line
    matched; and whether anything was violated.

    An audit is not a verdict: ``bool(audit)`` raises ``TypeError`` (a
    tuple would always be true). :meth:`check` fails a pipeline as
    ``hindsight check --fail-on-violation`` does — on an error, a
    violation, or a vacuous run (:attr:`is_vacuous`: the verdicts say
    nothing about what was not checked) unless ``allow_vacuous``."""

    runs: List[Dict[str, Any]]
    total: Dict[str, Any]
    messages: List[str]
    unmatched_places: List[str]
    """The places of the spec (an input's or a filter's pointer, a
    lifeline's variable, ...) that no line of any trace matched, as the
    warnings word them (without their hints): what :attr:`unmatched`
    counts."""
    violation: bool
    """Whether some property (or a system's protocol) was false at some
    step or at the end of some trace or session."""

    def __bool__(self) -> bool:
        raise TypeError(
            "an audit is neither true nor false: call .check() to fail on an error, a "
            "violation or a vacuous run, or read .errors, .violation and .is_vacuous"
        )

    @property
    def errors(self) -> int:
        """Traces that could not be read to their end (the total's ``"errors"``)."""
        return int(self.total["errors"])

    @property
    def vacuous(self) -> int:
        """Traces or sessions that gave no step: nothing was checked there
        (the total's ``"vacuous"``)."""
        return int(self.total["vacuous"])

    @property
    def unmatched(self) -> int:
        """Places of the spec that no line of any trace matched (the
        total's ``"unmatched"``; named in :attr:`unmatched_places`)."""
        return int(self.total["unmatched"])

    @property
    def is_vacuous(self) -> bool:
        """Whether the run checked nothing somewhere: a trace or session
        gave no step, or a place of the spec matched no line of any trace."""
        return self.vacuous > 0 or self.unmatched > 0

    def exit_status(self, *, allow_vacuous: bool = False) -> int:
        """The exit status ``hindsight check --summary --fail-on-violation``
        gives for this run (with ``--allow-vacuous`` if ``allow_vacuous``):
        2 for an error, else 1 for a violation, else 3 for a vacuous run,
        else 0."""
        return _status(self.errors, self.violation, self.is_vacuous, allow_vacuous)

    def check(self, *, allow_vacuous: bool = False) -> None:
        """Raises :class:`AuditFailed` where :meth:`exit_status` is not 0:
        a trace that could not be read, a violation, or (unless
        ``allow_vacuous``) a vacuous run; returns otherwise."""
        failed = _failure(self.total, self.unmatched_places, self.violation, allow_vacuous)
        if failed is not None:
            raise failed


class AuditFailed(Exception):
    """An audit did not pass (:meth:`Audit.check`,
    :func:`hindsight.spark.check`): :attr:`status` is the exit status
    ``hindsight check --fail-on-violation`` gives (2 an error, 1 a
    violation, 3 a vacuous run), :attr:`reasons` says what failed (the
    message joins them with ``;``): traces that could not be read, each
    property violated and in how many runs, the runs that gave no step,
    and each place of the spec no line matched."""

    def __init__(self, status: int, reasons: List[str]) -> None:
        super().__init__("the audit failed: " + "; ".join(reasons))
        self.status = status
        self.reasons = reasons


def _status(errors: int, violation: bool, vacuous: bool, allow_vacuous: bool) -> int:
    """The exit status of a run, as ``hindsight check --fail-on-violation``
    ranks its parts: an error over a violation over a vacuous run."""
    if errors:
        return 2
    if violation:
        return 1
    return 3 if vacuous and not allow_vacuous else 0


def _failure(
    total: Mapping[str, Any], places: Sequence[str], violation: bool, allow_vacuous: bool
) -> Optional[AuditFailed]:
    """What failed in a run of ``total`` (the total line's counts), as an
    :class:`AuditFailed`; ``None`` if it passed."""
    errors, vacuous, unmatched = int(total["errors"]), int(total["vacuous"]), int(total["unmatched"])
    status = _status(errors, violation, vacuous > 0 or unmatched > 0, allow_vacuous)
    if status == 0:
        return None
    reasons = []
    if errors:
        reasons.append(f"{_count(errors, 'trace or session', 'traces or sessions')} could not be read to the end")
    violated = [(k[: -len(".violated")], n) for k, n in total.items() if k.endswith(".violated") and n]
    for name, n in violated:
        reasons.append(f"`{name}` was false in {_count(n, 'trace or session', 'traces or sessions')}")
    if violation and not violated:
        reasons.append("a protocol was false")
    if not allow_vacuous:
        if vacuous:
            reasons.append(f"{_count(vacuous, 'trace or session', 'traces or sessions')} gave no step")
        # Each place says itself that no line matched it.
        reasons += places
        if unmatched and not places:
            reasons.append(f"{_count(unmatched, 'place of the spec', 'places of the spec')} matched no line")
    return AuditFailed(status, reasons)


def _count(n: int, one: str, many: str) -> str:
    """``n`` and the noun that goes with it."""
    return f"1 {one}" if n == 1 else f"{n} {many}"


class Counts(NamedTuple):
    """The decided verdicts a ``with reset`` property counted."""

    satisfactions: int
    violations: int


class GuardRefused(Exception):
    """A guarded call was refused: running it would make :attr:`properties`
    false. :attr:`event` is the event it would have been, :attr:`verdicts`
    what every property would have said, :attr:`explanations` why each
    broken property would be false (for a monitor made with
    ``explain=True``; the message shows them)."""

    def __init__(
        self,
        monitor: str,
        properties: List[str],
        event: Mapping[str, Any],
        verdicts: Dict[str, Verdict],
        explanations: Optional[Dict[str, str]] = None,
    ) -> None:
        self.monitor = monitor
        self.properties = properties
        self.event = dict(event)
        self.verdicts = verdicts
        self.explanations = explanations or {}
        broken = ", ".join(
            f"`{p}` ({self.explanations[p]})" if p in self.explanations else f"`{p}`"
            for p in properties
        )
        super().__init__(f"refused by monitor `{monitor}`: it would break {broken}")


def _diagnostics(raw: List[Tuple[str, str, str, int, int]]) -> List[Diagnostic]:
    return [Diagnostic(*d) for d in raw]


@contextmanager
def _spec_errors() -> Iterator[None]:
    """The native side's rejection of a spec, raised as :class:`SpecError`."""
    try:
        yield
    except _native.SpecRejected as error:
        rendered, raw = error.args
        raise SpecError(rendered, _diagnostics(raw)) from None


class Spec:
    """A Hindsight spec, checked.

    ``Spec(text)`` checks ``text`` and raises :class:`SpecError` if it has
    errors (warnings are kept in :attr:`warnings`); ``name`` is the file
    name diagnostics show.
    """

    def __init__(self, text: str, *, name: str = "<spec>") -> None:
        with _spec_errors():
            self._native = _native.NativeSpec(text, name)
        self.name = name
        self.text = text

    @classmethod
    def from_file(cls, path: "os.PathLike[str] | str") -> "Spec":
        """The spec in the file at ``path`` (diagnostics name the path)."""
        with open(path, encoding="utf-8") as file:
            text = file.read()
        return cls(text, name=os.fspath(path))

    @property
    def warnings(self) -> List[Diagnostic]:
        """The checker's warnings."""
        return _diagnostics(self._native.warnings()[1])

    @property
    def rendered_warnings(self) -> str:
        """The warnings, rendered as the CLI prints them."""
        return self._native.warnings()[0]

    @property
    def blocks(self) -> List[Tuple[str, str]]:
        """The runnable blocks as ``(kind, name)``: monitors, then systems,
        then populations, each in declaration order."""
        return self._native.blocks()

    def monitor(self, name: Optional[str] = None, *, explain: bool = False) -> "Monitor":
        """The monitor block ``name`` (or the spec's only block), in its
        initial state. With ``explain``, it runs on the interpreter and
        explains every verdict a step changes (:meth:`Monitor.explanations`,
        and the refusals of its guards), as ``hindsight check --explain``
        does. Raises ``ValueError`` naming the blocks there are, or
        :class:`SpecError` if lowering the block fails."""
        with _spec_errors():
            return Monitor(self._native.monitor(name, explain))

    def audit(
        self,
        traces: "Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]], Iterable[Mapping[str, Any]]]",
        *,
        block: Optional[str] = None,
        key: Optional[str] = None,
        max_sessions: int = 100_000,
        name: str = "<records>",
        format: str = "jsonl",
    ) -> "Audit":
        """Audits block ``block`` (or the only block; of any kind) over
        ``traces`` — a file, a directory (its ``.jsonl`` files), a glob
        pattern, or several; or the records of one log as mappings (its
        lines, in order; ``name`` is what messages call it) — as
        ``hindsight check --summary`` does; with ``key`` (a JSON Pointer)
        each log is split into sessions. ``format="otlp"`` reads the files
        as OpenTelemetry exports (OTLP/JSON lines, as ``--format otlp``:
        each span a record, each trace a session). A system's runs count
        its guards' values at the choices; ``key`` splits monitor logs
        only. See :class:`Audit`."""
        if format not in ("jsonl", "otlp"):
            raise ValueError(f"format is \"jsonl\" or \"otlp\", not {format!r}")
        items = [traces] if isinstance(traces, (str, os.PathLike)) else list(traces)
        with _spec_errors():
            if items and all(isinstance(i, Mapping) for i in items):
                if format == "otlp":
                    raise TypeError("format=\"otlp\" reads export files, not records")
                return self._audit_records(items, name=name, block=block, key=key, max_sessions=max_sessions)
            if not all(isinstance(i, (str, os.PathLike)) for i in items):
                raise TypeError("audit takes paths, or records as mappings, not a mix")
            paths = [os.fspath(i) for i in items]  # type: ignore[arg-type]
            return _audit(self._native.audit(paths, block, key, max_sessions, format == "otlp"))

    def _audit_records(
        self,
        records: Sequence[Any],
        *,
        name: str,
        block: Optional[str] = None,
        key: Optional[str] = None,
        max_sessions: int = 100_000,
    ) -> "Audit":
        """The audit of one log given as its records: mappings, or lines of
        JSON text taken as they are (what hindsight.spark hands over)."""
        with _spec_errors():
            return _audit(self._native.audit_records(list(records), _json_default, name, block, key, max_sessions))

    def lifeline(
        self, lifeline: str, *, system: Optional[str] = None, key: Optional[bytes] = None
    ) -> "Lifeline":
        """The monitor of ``lifeline`` of the system block ``system`` (or the
        spec's only block), in its initial state. With ``key`` (32 bytes,
        the secret of ``--stamp-key-file``) its stamps are sealed and
        opened as authenticated stamps."""
        with _spec_errors():
            return Lifeline(self._native.lifeline(lifeline, system, key))

    def population(self, name: Optional[str] = None) -> "Population":
        """The population block ``name`` (or the spec's only block), in its
        initial state; errors as for :meth:`monitor`."""
        with _spec_errors():
            return Population(self._native.population(name))

    def protocol(
        self,
        protocol: Optional[str] = None,
        *,
        system: Optional[str] = None,
        group: Optional[Iterable[str]] = None,
    ) -> "Protocol":
        """The monitor of ``protocol`` (or the system's only protocol) of the
        system block ``system`` (or the spec's only block): the central
        monitor, or with ``group`` (lifeline names) the monitor of that
        group, which sees only the messages involving it
        (``docs/language.md``, section 4e)."""
        with _spec_errors():
            return Protocol(self._native.protocol(protocol, system, None if group is None else list(group)))

    def partitions(self, protocol: Optional[str] = None, *, system: Optional[str] = None) -> List[List[List[str]]]:
        """The minimal monitoring-safe partitions of the system's lifelines
        for ``protocol``, as ``hindsight partitions`` prints them: lists of
        groups of lifeline names, sorted. One :meth:`protocol` monitor per
        group of any of them reports a violation at the very message the
        central monitor does."""
        with _spec_errors():
            return self._native.partitions(protocol, system)


    def learn(
        self,
        traces: "Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]]]",
        *,
        action: str,
        block: Optional[str] = None,
        key: Optional[str] = None,
        max_sessions: int = 100_000,
        format: str = "jsonl",
        min_gain: float = 0.01,
        max_depth: int = 8,
        max_leaves: int = 32,
        z: float = 2.326,
        checkpoint_every: int = 10,
        precision: float = 1e-6,
        refinements: int = 0,
    ) -> "Model":
        """Learns a behaviour model of the runs in ``traces`` (files,
        directories, glob patterns; each trace a run, or each session with
        ``key``) of the monitor block ``block`` (or the only block), the
        input ``action`` naming each step's action, as ``hindsight learn``
        does (``docs/learning.md``; the options are its flags). Raises
        ``ValueError`` with the reasons if a trace cannot be read."""
        if format not in ("jsonl", "otlp"):
            raise ValueError(f"format is \"jsonl\" or \"otlp\", not {format!r}")
        items = [traces] if isinstance(traces, (str, os.PathLike)) else list(traces)
        paths = [os.fspath(i) for i in items]
        with _spec_errors():
            native = self._native.learn(
                paths, action, block, key, max_sessions, format == "otlp",
                min_gain, max_depth, max_leaves, z, checkpoint_every, precision, refinements,
            )
        return Model(native)

    def follow(self, model: "Model", *, block: Optional[str] = None) -> "ModelRun":
        """A run of the monitor block ``block`` (or the only block) followed
        with ``model``, which must have been learned for it (else
        ``ValueError``): see :class:`ModelRun`."""
        with _spec_errors():
            return ModelRun(self._native.follow(model._native, block))


class Model:
    """A learned behaviour model (``docs/learning.md``): the predicate tree,
    the MDP over its leaves, per goal the probabilities of reaching it, per
    future-time property the chance it ends false, and the likelihood
    statistics. From :meth:`Spec.learn`, :meth:`load` or :meth:`from_json`;
    the file is the one ``hindsight learn`` writes."""

    def __init__(self, native: NativeModel) -> None:
        self._native = native
        (self.block, self.action, self.goals, self.predicted, self.states,
         self.runs, self.steps, self.flagged) = native.summary()

    def __repr__(self) -> str:
        return f"<hindsight.Model of {self.block!r}: {len(self.states)} states, {self.runs} runs>"

    @classmethod
    def from_json(cls, text: str) -> "Model":
        """Reads a model file's text; ``ValueError`` with the reason for one
        of another format or version, or inconsistent."""
        return cls(NativeModel.from_json(text))

    @classmethod
    def load(cls, path: "Union[str, os.PathLike[str]]") -> "Model":
        """Reads the model file at ``path``."""
        with open(path, encoding="utf-8") as f:
            return cls.from_json(f.read())

    def to_json(self) -> str:
        """The model file's text."""
        return self._native.to_json()

    def save(self, path: "Union[str, os.PathLike[str]]") -> None:
        """Writes the model file to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    def explain(self) -> str:
        """The model in words, as ``hindsight explain --model`` prints it."""
        return self._native.explain()


class Standing(NamedTuple):
    """Where a run stands after a step, under a model."""

    state: str
    """The abstract state (``s1``, ``s2``, ...)."""
    log_likelihood: float
    """The run's log-likelihood so far (``-inf`` after a step no training run took)."""
    anomalous: bool
    """Whether the run is anomalous: a step no training run took, or below a
    checkpoint's threshold so far."""
    goals: Dict[str, Tuple[float, float, float]]
    """Per goal, the chance of reaching it from here: ``(p, pmin, pmax)``, as
    the training runs chose their actions and over every choice."""
    ends_false: Dict[str, Optional[Tuple[float, float, float]]]
    """Per predicted future-time property, the chance it ends false from
    here, ``(p, pmin, pmax)``; ``None`` where the run left what the training
    runs reached."""


class ModelRun:
    """A run followed with a model (from :meth:`Spec.follow`): feed it the
    run's events with :meth:`step`, as a :class:`Monitor`'s (the same field
    mapping); :meth:`finish` when it ends."""

    def __init__(self, native: NativeModelRun) -> None:
        self._native = native

    def step(self, event: Mapping[str, Any]) -> Optional[Standing]:
        """Takes ``event`` as the next step; where the run stands, or
        ``None`` if the block's step filter skips it. Raises
        :class:`InputError` for an event the block cannot read."""
        found = self._native.step(_event(event), _json_default)
        if found is None:
            return None
        state, ll, anomalous, goals, ends_false = found
        return Standing(
            state,
            ll,
            anomalous,
            {g: (p, lo, hi) for g, p, lo, hi in goals},
            {name: at for name, at in ends_false},
        )

    def finish(self) -> Tuple[float, bool]:
        """The run ended: its log-likelihood (the end included) and whether
        it is anomalous (on the way, or by the run-level rule)."""
        return self._native.finish()

    def reset(self) -> None:
        """Back to before the first step."""
        self._native.reset()


F = TypeVar("F", bound=Callable[..., Any])


class _Block:
    """What every block object has: its native half, its name, and (for
    monitors and populations) its properties' verdicts and counts."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def __repr__(self) -> str:
        return f"<hindsight.{type(self).__name__} {self.name!r}>"

    @property
    def name(self) -> str:
        """The block's (or lifeline's) name."""
        return str(self._native.name)


class _Verdicts(_Block):
    """A block that answers with a verdict per property."""

    @property
    def properties(self) -> List[str]:
        """The properties, in declaration order."""
        return list(self._native.properties)

    def _verdicts(self, spelled: List[str]) -> Dict[str, Verdict]:
        return {name: Verdict(v) for name, v in zip(self.properties, spelled)}

    def finish(self) -> Dict[str, Verdict]:
        """The verdicts if the trace ended after the last step."""
        return self._verdicts(self._native.finish())

    def counts(self) -> Dict[str, Counts]:
        """Per property, the decided verdicts a ``with reset`` property
        counted, its unfinished run's end verdict included (zero for the
        others)."""
        return {
            name: Counts(*c) for name, c in zip(self.properties, self._native.counts())
        }

    def reset(self) -> None:
        """Back to the initial state."""
        self._native.reset()


class Monitor(_Verdicts):
    """A monitor block in its current state (from :meth:`Spec.monitor`).

    Events are mappings shaped like a line of the block's log: a flat
    ``{"request": True, "pkg": 3}``, or a nested record the block's ``from``
    pointers read. Every method that takes one raises :class:`InputError`
    for an event the block cannot read.
    """

    _native: NativeMonitor

    def __init__(self, native: NativeMonitor) -> None:
        super().__init__(native)
        native.answer_with(Verdict.TRUE, Verdict.FALSE, Verdict.UNKNOWN)

    def __repr__(self) -> str:
        return f"<hindsight.Monitor {self.name!r} ({self.engine})>"

    @property
    def inputs(self) -> List[Tuple[str, str]]:
        """The inputs as ``(name, type)``, in declaration order."""
        return self._native.inputs

    @property
    def engine(self) -> str:
        """``"machine code"`` or ``"interpreter"``."""
        return self._native.engine

    def step(self, event: Mapping[str, Any]) -> Optional[Dict[str, Verdict]]:
        """Takes ``event`` as the next step; every property's verdict, or
        ``None`` if the block's step filter (``steps where``) skips it."""
        return self._native.step(_event(event), _json_default)

    def step_line(self, line: str) -> Optional[Dict[str, Verdict]]:
        """:meth:`step` on a line of the block's log as text (the JSON
        object it is, unparsed)."""
        return self._native.step_line(line)

    def step_columns(self, columns: Mapping[str, Sequence[Any]]) -> Dict[str, List[Verdict]]:
        """Takes one step per row of a table given as columns — a sequence
        per input, named as the input (a list, a NumPy array, a pandas
        Series; bools, ints, floats, or variant names), all of one length —
        in one call; per property, its verdict at every step. Much faster
        than :meth:`step` per row (NumPy arrays of bools and numbers are
        read in place of Python objects), for monitors of plain inputs: the
        columns give every input at every step (no field mapping, no
        ``default`` or ``hold``, no time input). Raises :class:`InputError`,
        taking no step, for a missing or unknown column, a column of
        another length, or a value of the wrong type."""
        names = [name for name, _ in self.inputs]
        unknown = sorted(set(columns) - set(names))
        missing = [name for name in names if name not in columns]
        if unknown or missing:
            raise InputError(
                "step_columns needs one column per input"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; unknown: {', '.join(unknown)}" if unknown else "")
            )
        answers = (Verdict.TRUE, Verdict.FALSE, Verdict.UNKNOWN)
        verdicts = self._native.step_columns([_column(columns[name]) for name in names], answers)
        return dict(zip(self.properties, verdicts))

    def peek(self, event: Mapping[str, Any]) -> Optional[Dict[str, Verdict]]:
        """What :meth:`step` would return for ``event``, without taking it."""
        peeked = self._native.peek(_event(event), _json_default)
        return None if peeked is None else peeked[0]

    def finish(self) -> Dict[str, Verdict]:
        """The verdicts if the trace ended after the last step."""
        return self._native.finish()

    def explanations(self) -> Dict[str, str]:
        """Why each verdict the last step changed is what it is — the
        values of a past-time property's parts, a future-time one's
        obligation — as ``hindsight check --explain`` words it; empty
        unless the monitor was made with ``explain=True``."""
        return dict(self._native.explanations())

    def run(self, events: Iterable[Mapping[str, Any]]) -> Iterator[Dict[str, Verdict]]:
        """Steps on each event in turn, yielding the verdicts of those that
        are steps."""
        for event in events:
            verdicts = self.step(event)
            if verdicts is not None:
                yield verdicts

    def _admit(self, event: Mapping[str, Any]) -> None:
        peeked = self._native.peek(_event(event), _json_default)
        if peeked is None:
            return
        verdicts, explained = peeked
        broken = [name for name, v in verdicts.items() if v.is_violation]
        if broken:
            why = {name: text for name, text in explained if name in broken}
            raise GuardRefused(self.name, broken, event, verdicts, why)

    @contextmanager
    def guarding(self, event: Mapping[str, Any]) -> Iterator[None]:
        """Runs the ``with`` body only if ``event`` would break no property:
        raises :class:`GuardRefused` before the body otherwise. The event is
        stepped when the body finishes without an exception (an action that
        failed did not happen). In a coroutine the body may ``await``: the
        event is stepped after it, and not if it raised or was cancelled."""
        self._admit(event)
        yield
        self.step(event)

    def guard(self, event: Optional[Callable[..., Mapping[str, Any]]] = None) -> Callable[[F], F]:
        """A decorator for a tool: before each call, the event
        ``event(*args, **kwargs)`` (by default the call's keyword arguments)
        is peeked, and the call refused with :class:`GuardRefused` if a
        property would be false; a call that returns is stepped.

        A tool defined with ``async def`` (a function, or an object whose
        ``__call__`` is one) stays a coroutine function: the event is
        peeked when its coroutine starts (a refusal is raised by the
        ``await``) and stepped when the tool's body has returned; a tool
        that raised, or whose task was cancelled
        (``asyncio.CancelledError``), is not stepped. Calls that overlap
        are each peeked against the steps taken when it starts (see
        docs/python.md). Generator functions are refused (``TypeError``):
        creating one runs nothing, so there is no call to step."""

        def decorate(function: F) -> F:
            if inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function):
                raise TypeError(
                    f"a guard wraps a tool that returns, not the generator function "
                    f"{getattr(function, '__name__', function)!r}: creating a generator runs nothing to step"
                )
            if inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(
                getattr(function, "__call__", None)
            ):

                @functools.wraps(function)
                async def guarded_async(*args: Any, **kwargs: Any) -> Any:
                    happened = event(*args, **kwargs) if event is not None else kwargs
                    with self.guarding(happened):
                        return await function(*args, **kwargs)

                return guarded_async  # type: ignore[return-value]

            @functools.wraps(function)
            def guarded(*args: Any, **kwargs: Any) -> Any:
                happened = event(*args, **kwargs) if event is not None else kwargs
                with self.guarding(happened):
                    return function(*args, **kwargs)

            return guarded  # type: ignore[return-value]

        return decorate


class Lifeline(_Block):
    """One lifeline of a system block (Causal Past Logic, docs/cpl.md): a
    monitor per agent, which learns what the others did only from the
    stamps their messages carry.

    Every event may change the lifeline's store variables (``changes``, a
    mapping of variable name to value). :meth:`on_send` returns the stamp
    to put on the message (bytes, exactly those a generated Rust lifeline
    of the same spec writes); :meth:`on_recv` takes the stamp of a message
    received. :meth:`on_choice` is where the lifeline decides: its guards'
    verdicts there. An event the lifeline refuses (an unknown variable, a
    value of the wrong type, a stamp of another system or one whose seal
    does not verify) raises :class:`InputError` and changes nothing.
    """

    _native: NativeLifeline

    @property
    def guard_names(self) -> List[str]:
        """The guards this lifeline owns, in declaration order."""
        return self._native.guard_names

    def _guards(self, spelled: List[str]) -> Dict[str, Verdict]:
        return {name: Verdict(v) for name, v in zip(self.guard_names, spelled)}

    def on_act(self, changes: Optional[Mapping[str, Any]] = None) -> None:
        """A local action."""
        self._native.on_act(_store(changes))

    def on_send(self, changes: Optional[Mapping[str, Any]] = None) -> bytes:
        """A send event; the stamp the message carries."""
        return self._native.on_send(_store(changes))

    def on_recv(self, stamp: bytes, changes: Optional[Mapping[str, Any]] = None) -> None:
        """A receive event of a message carrying ``stamp``."""
        self._native.on_recv(bytes(stamp), _store(changes))

    def on_choice(self, changes: Optional[Mapping[str, Any]] = None) -> Dict[str, Verdict]:
        """A choice: the owned guards' verdicts at it."""
        return self._guards(self._native.on_choice(_store(changes)))

    def guards(self) -> Dict[str, Verdict]:
        """The owned guards' verdicts after the last event (``UNKNOWN``
        before the first)."""
        return self._guards(self._native.guards())


class Protocol(_Block):
    """The monitor of one protocol of a system block (from
    :meth:`Spec.protocol`): central, or of one group of lifelines.

    Feed it the messages the lifelines exchange with :meth:`on_message`
    (lifeline names and the message's label); a message the protocol does
    not mention, or (for a group) one not involving the group, is ignored.
    A synchronous protocol takes a message at its send; an asynchronous one
    takes its send and its receipt (``receipt=True``) as two events.
    """

    _native: NativeProtocol

    @property
    def group(self) -> Optional[List[str]]:
        """The group's lifelines, or ``None`` for the central monitor."""
        return self._native.group

    @property
    def synchronous(self) -> bool:
        """Whether a message is one event (``sync``, the default) rather than
        a send and a receipt (``async``)."""
        return self._native.synchronous

    def on_message(self, sender: str, receiver: str, label: str, *, receipt: bool = False) -> Verdict:
        """A message from ``sender`` to ``receiver`` labelled ``label`` (its
        send, or its receipt with ``receipt``); the verdict after it:
        ``FALSE`` from a violation on, ``TRUE`` where the protocol may end,
        ``UNKNOWN`` while it needs more messages. Raises :class:`InputError`
        for a lifeline the system does not have."""
        self._native.on_message(sender, receiver, label, receipt)
        return Verdict(self._native.verdict())

    def verdict(self) -> Verdict:
        """The verdict after the messages taken."""
        return Verdict(self._native.verdict())

    def finish(self) -> Verdict:
        """The verdict if no more messages come: ``UNKNOWN`` becomes
        ``FALSE`` (the protocol did not finish)."""
        return Verdict(self._native.finish())

    def why(self) -> Optional[str]:
        """Why the central monitor's verdict is what it is, as ``hindsight
        check --explain`` says it (``None`` for a group's monitor)."""
        return self._native.why()

    def reset(self) -> None:
        """Back to the state before any message."""
        self._native.reset()


def _store(changes: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if changes is None:
        return None
    if not isinstance(changes, Mapping):
        raise TypeError(f"changes are a mapping of variables, not {type(changes).__name__}")
    return {k: (v.value if isinstance(v, enum.Enum) else v) for k, v in changes.items()}


class Population(_Verdicts):
    """A population block in its current state (from :meth:`Spec.population`).

    Each step gives every agent's attributes and the globals, as a line of a
    population trace does (``docs/language.md``, section 6): the number of
    agents is fixed by the first step and at most the block's capacity;
    agent ids are the positions in the list.
    """

    _native: NativePopulation

    @property
    def capacity(self) -> int:
        """The most agents a step may have."""
        return self._native.capacity

    def step(
        self,
        agents: Iterable[Mapping[str, Any]],
        globals: Optional[Mapping[str, Any]] = None,
    ) -> Dict[str, Verdict]:
        """Takes the agents' attributes (one mapping per agent) and the
        globals as the next step; every property's verdict. Raises
        :class:`InputError` (the population as before) for a step it cannot
        take."""
        return self._verdicts(self._native.step(_population_step(agents, globals), _json_default))

    def peek(
        self,
        agents: Iterable[Mapping[str, Any]],
        globals: Optional[Mapping[str, Any]] = None,
    ) -> Dict[str, Verdict]:
        """What :meth:`step` would return, without taking the step."""
        return self._verdicts(self._native.peek(_population_step(agents, globals), _json_default))


def audit(
    spec: Spec,
    traces: "Union[str, os.PathLike[str], Iterable[Union[str, os.PathLike[str]]], Iterable[Mapping[str, Any]]]",
    *,
    block: Optional[str] = None,
    key: Optional[str] = None,
    max_sessions: int = 100_000,
    name: str = "<records>",
    format: str = "jsonl",
) -> Audit:
    """:meth:`Spec.audit` as a function: ``hindsight.audit(spec, "logs/", key="/session")``."""
    return spec.audit(traces, block=block, key=key, max_sessions=max_sessions, name=name, format=format)


def _audit(found: Tuple[List[str], List[str], str, List[str], bool, List[str]]) -> Audit:
    """The native audit's lines, messages, total, properties, violation (a
    trace's exit status 1) and unmatched places as an :class:`Audit`."""
    lines, messages, text, properties, violation, places = found
    names = set(properties)
    total = json.loads(text)
    # A trace whose error stopped it after a violation has the error's
    # status; the total still counts the violation.
    violated = any(n for k, n in total.items() if k.endswith(".violated"))
    return Audit([_summary(json.loads(line), names) for line in lines], total, messages, places, violation or violated)


def _summary(line: Dict[str, Any], properties: "set[str]") -> Dict[str, Any]:
    """A summary line with each property's verdict as a :class:`Verdict`."""
    return {k: Verdict(v) if k in properties else v for k, v in line.items()}


def _column(column: Any) -> Any:
    """A column for the native ``step_columns``: a NumPy array of bools or
    numbers (a pandas, Polars or Arrow column turned into one) as its dtype's
    kind, item size and raw bytes in native order, read without a Python
    object per value; anything else as a list."""
    if not callable(getattr(column, "tobytes", None)) and callable(getattr(column, "to_numpy", None)):
        try:
            column = column.to_numpy()
        except (TypeError, ValueError):  # no NumPy form (e.g. missing values)
            pass
    dtype: Any = getattr(column, "dtype", None)
    if (
        getattr(dtype, "kind", None) in ("b", "i", "u", "f")
        and getattr(dtype, "isnative", False)
        and callable(getattr(column, "tobytes", None))
    ):
        if getattr(column, "ndim", 1) != 1:
            raise InputError(f"a column is one-dimensional, not of shape {getattr(column, 'shape', '?')}")
        return (dtype.kind, int(dtype.itemsize), column.tobytes())
    return _as_list(column)


def _as_list(column: Sequence[Any]) -> List[Any]:
    """A column as a list (NumPy arrays and pandas Series turned into
    Python values)."""
    tolist = getattr(column, "tolist", None)
    return tolist() if callable(tolist) else list(column)


def _population_step(agents: Iterable[Mapping[str, Any]], globals: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """A population trace line of ``agents`` and ``globals``."""
    rows = list(agents)
    for row in rows:
        if not isinstance(row, Mapping):
            raise TypeError(f"an agent is a mapping of attributes, not {type(row).__name__}")
    step: Dict[str, Any] = {"agents": rows}
    if globals is not None:
        step["globals"] = globals
    return step


def _event(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """``event``, checked to be a mapping (the native side writes it as the
    JSON object a log line would be)."""
    if type(event) is not dict and not isinstance(event, Mapping):
        raise TypeError(f"an event is a mapping of inputs, not {type(event).__name__}")
    return event


def _json_default(value: Any) -> Any:
    """A value JSON has no form for, as a value it has (the native writer
    calls it as `json.dumps` calls its `default`): pandas' missing values
    (``NA``, ``NaT``) are ``None``, no value, as pandas writes them."""
    if _missing(value):
        return None
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, enum.Enum):
        return value.value if isinstance(value.value, (str, int, float, bool)) else value.name
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "item"):  # a NumPy scalar
        return value.item()
    raise TypeError(f"an event value must be JSON-like (bool, int, float, str, list, dict), not {type(value).__name__}")


def _missing(value: Any) -> bool:
    """Whether ``value`` is pandas' mark of a missing value, ``NA`` or
    ``NaT`` (told by their types' names: pandas need not be installed)."""
    return type(value).__name__ in ("NAType", "NaTType")
