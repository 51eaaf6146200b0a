#!/usr/bin/env python3
"""Hindsight's Python package against reelay and rtamt, in one run.

Installs, into a virtual environment of its own (target/py-bench), the
package from this checkout (`pip install ./python`, a release build) and
the peers by package name from PyPI (reelay 25.0.0, rtamt 0.4.10; NumPy
for the arrays); then, in that environment, steps P1
(`alarm -> (!reset S request)`) and P2
(`Y p && (q S (r || (s S t)))`) of shared/bench over the first STEPS events
of the standard trace, already parsed into dicts (reading the file is left
out for every tool):

- hindsight, one `Monitor.step(dict)` per event;
- hindsight, `Monitor.step_columns` (the events as columns of Python
  lists, one call), and the same with NumPy arrays of bools;
- reelay, one `update(dict)` per event and property (its discrete-time
  monitors, as benches/peers.py runs it);
- rtamt, one `update(t, [(name, value), ...])` per event and property
  (`StlDiscreteTimeSpecification`, Booleans as 0.0/1.0 compared with 0.5).

It checks that every tool counts the same steps where P1 and P2 hold,
prints events per second (best of RUNS) and ratios to reelay, and exits 1
if the counts disagree. docs/benchmarks.md quotes its output.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN_TRACE = ROOT.parent / "shared" / "bench" / "gen_trace.py"
NAMES = ["request", "reset", "alarm", "grant", "p", "q", "r", "s", "t"]
SPEC = """
monitor bench {
    input request: bool; input reset: bool; input alarm: bool; input grant: bool;
    input p: bool; input q: bool; input r: bool; input s: bool; input t: bool;
    property p1 = alarm -> (!reset S request);
    property p2 = Y p && (q S (r || (s S t)));
}
"""


def measure(events, runs):
    """Runs every tool (inside the benchmark environment); a dict of
    name -> (seconds, p1 true count, p2 true count)."""
    import hindsight
    import numpy
    import reelay
    import rtamt

    def hindsight_steps():
        monitor = hindsight.Spec(SPEC).monitor()
        c1 = c2 = 0
        true = hindsight.Verdict.TRUE
        for event in events:
            v = monitor.step(event)
            c1 += v["p1"] is true
            c2 += v["p2"] is true
        return c1, c2

    columns = {n: [e[n] for e in events] for n in NAMES}

    def hindsight_columns(given=columns):
        monitor = hindsight.Spec(SPEC).monitor()
        got = monitor.step_columns(given)
        true = hindsight.Verdict.TRUE
        return sum(v is true for v in got["p1"]), sum(v is true for v in got["p2"])

    arrays = {n: numpy.array(column, dtype=bool) for n, column in columns.items()}

    def reelay_steps():
        m1 = reelay.discrete_timed_monitor(pattern=r"{alarm} -> (!{reset} since {request})", condense=False)
        m2 = reelay.discrete_timed_monitor(pattern=r"pre{p} && ({q} since ({r} || ({s} since {t})))", condense=False)
        c1 = c2 = 0
        for event in events:
            c1 += m1.update(event)["value"]
            c2 += m2.update(event)["value"]
        return c1, c2

    def rtamt_steps():
        def spec(formula, names):
            s = rtamt.StlDiscreteTimeSpecification()
            for n in names:
                s.declare_var(n, "float")
            s.declare_var("out", "float")
            s.spec = "out = " + formula
            s.parse()
            return s

        # Variables renamed `v_NAME`: `s` is a time unit in rtamt's grammar.
        b = lambda n: f"(v_{n}>=0.5)"
        s1 = spec(f"{b('alarm')} implies ((not {b('reset')}) since {b('request')})", ["v_alarm", "v_reset", "v_request"])
        s2 = spec(f"(prev {b('p')}) and ({b('q')} since ({b('r')} or ({b('s')} since {b('t')})))", [f"v_{n}" for n in "pqrst"])
        c1 = c2 = 0
        for i, e in enumerate(events):
            c1 += s1.update(i, [(f"v_{n}", float(e[n])) for n in ("alarm", "reset", "request")]) > 0
            c2 += s2.update(i, [(f"v_{n}", float(e[n])) for n in "pqrst"]) > 0
        return c1, c2

    tools = {
        "hindsight, Monitor.step per event": hindsight_steps,
        "hindsight, Monitor.step_columns (lists)": hindsight_columns,
        "hindsight, Monitor.step_columns (NumPy)": lambda: hindsight_columns(arrays),
        "reelay 25.0.0, update per event": reelay_steps,
        "rtamt 0.4.10, update per event": rtamt_steps,
    }
    results = {}
    for name, tool in tools.items():
        best = None
        for _ in range(runs):
            start = time.perf_counter()
            counts = tool()
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        results[name] = (best, *counts)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        events = [json.loads(l) for l in Path(args.inside).read_text().splitlines()[: args.steps]]
        print(json.dumps(measure(events, args.runs)))
        return 0
    venv = ROOT / "target" / "py-bench"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "reelay==25.0.0", "rtamt==0.4.10", "numpy==2.4.6"], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(ROOT / "python")], check=True)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, str(GEN_TRACE), str(args.steps), work], check=True, capture_output=True)
        trace = next(Path(work).glob("*.jsonl"))
        out = subprocess.run(
            [str(python), __file__, "--inside", str(trace), "--steps", str(args.steps), "--runs", str(args.runs)],
            check=True, capture_output=True, text=True,
        ).stdout
    results = json.loads(out)
    reelay_s = results["reelay 25.0.0, update per event"][0]
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
          f"Python {platform.python_version()}, {args.steps:,} events of the standard trace as dicts, P1 and P2, best of {args.runs}:")
    print()
    print("| tool | seconds | events/s | × reelay (speed) | P1 true | P2 true |")
    print("|---|---|---|---|---|---|")
    counts = set()
    for name, (seconds, c1, c2) in results.items():
        counts.add((c1, c2))
        print(f"| {name} | {seconds:.3f} | {args.steps / seconds / 1e6:.2f} M | {reelay_s / seconds:.1f} | {c1:,} | {c2:,} |")
    if len(counts) != 1:
        print("error: the tools count different steps where P1 and P2 hold", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
