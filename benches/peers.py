#!/usr/bin/env python3
"""Hindsight and its peers on the same trace, in one run.

Generates the standard trace of shared/bench (gen_trace.py: N steps over
request reset alarm grant p q r s t), installs the peer tools by package
name into the work directory (R2U2's and RTLola's command-line interfaces
from the Rust package registry with `cargo install --root`, reelay from the
Python package index into a virtual environment), runs every tool on P1
(`alarm -> (!reset S request)`) and P2 (`Y p && (q S (r || (s S t)))`),
checks that each tool's count of steps where P1 and P2 hold matches
Hindsight's (the published counts on 10^6 steps are 957,410 and 127,902),
and prints a Markdown table of wall times, events per second, peak memory
and ratios: each tool against `hindsight check`, and `hindsight check`,
the standalone binary and every peer against `wc -l` on the same file.

    python3 benches/peers.py [--steps N] [--runs K] [--work DIR] [--skip TOOL]... [--all]

With --all it goes on, in the same run, to the per-event benches (divan:
hand-written, generated, machine code (a step per call, and batches of
steps as `check` runs it when a thread reads ahead) and interpreted
monitors on P1, P2, PT2, 100 properties, P3 and the trucks rules), the
compile time of windows
of length 10, 10^3 and 10^6, and a cold build of a crate using the
attribute macro, printing one table each.

Every tool reads the trace from a file and writes its verdicts to /dev/null
while timed (the counts come from one more run each). Times are medians of
K runs of the whole process (start-up, reading, monitoring, writing).
docs/benchmarks.md quotes its output.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN_TRACE = ROOT.parent / "shared" / "bench" / "gen_trace.py"

HINDSIGHT_SPEC = """\
// P1 and P2 of shared/bench over its nine propositions.
monitor bench {
    input request: bool;
    input reset: bool;
    input alarm: bool;
    input grant: bool;
    input p: bool;
    input q: bool;
    input r: bool;
    input s: bool;
    input t: bool;
    property p1 = alarm -> (!reset S request);
    property p2 = Y p && (q S (r || (s S t)));
}
"""


def run(cmd, **kw):
    """Runs `cmd`, failing loudly with its output if it fails."""
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def timed(cmd, runs, stdin=None):
    """Median wall seconds of `runs` runs of `cmd` (stdout to /dev/null) and
    its peak resident memory in MiB (from GNU time, on one more run)."""
    times = []
    for _ in range(runs):
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as inp:
            start = time.perf_counter()
            subprocess.run(cmd, stdin=inp, stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - start)
    peak = None
    if Path("/usr/bin/time").exists():
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as inp:
            done = subprocess.run(
                ["/usr/bin/time", "-f", "%M", *cmd],
                stdin=inp,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                check=True,
            )
        peak = int(done.stderr.strip().splitlines()[-1]) / 1024
    return statistics.median(times), peak


class Tool:
    """One monitor: how to prepare it, the command timed, and its counts."""

    name = ""
    note = ""

    def prepare(self, work, trace):
        """Installs or builds what the tool needs (once per work directory)."""

    def command(self, work, trace):
        """The command line timed; stdin is the file `stdin` returns."""
        raise NotImplementedError

    def stdin(self, work, trace):
        return None

    def counts(self, work, trace, steps):
        """(steps where P1 holds, steps where P2 holds), or None."""
        return None


class HindsightCheck(Tool):
    name = "hindsight check"
    note = "table as machine code (`--engine auto`)"
    engine = "auto"

    def prepare(self, work, trace):
        run(["cargo", "build", "--release", "-q", "-p", "hindsight-cli"], cwd=ROOT)
        (work / "bench.hind").write_text(HINDSIGHT_SPEC)

    def command(self, work, trace):
        binary = ROOT / "target" / "release" / "hindsight"
        return [str(binary), "check", str(work / "bench.hind"), "--trace", str(trace["jsonl"]),
                "--engine", self.engine]

    def counts(self, work, trace, steps):
        return end_line_counts(run(self.command(work, trace)), steps)


class HindsightInterpreted(HindsightCheck):
    name = "hindsight check, interpreted"
    note = "`--engine interpreter`"
    engine = "interpreter"


class Standalone(Tool):
    name = "standalone binary"
    note = "`hindsight build`, generated Rust"

    def prepare(self, work, trace):
        binary = ROOT / "target" / "release" / "hindsight"
        run([str(binary), "build", str(work / "bench.hind"), "-o", str(work / "bench-monitor"),
             "--dir", str(work / "bench-monitor-project")])

    def command(self, work, trace):
        return [str(work / "bench-monitor"), "--trace", str(trace["jsonl"])]

    def counts(self, work, trace, steps):
        return end_line_counts(run(self.command(work, trace)), steps)


def end_line_counts(output, steps):
    """P1's and P2's true steps from a Hindsight end line (`false_steps`)."""
    end = json.loads(output.strip().splitlines()[-1])
    return steps - end["p1.false_steps"], steps - end["p2.false_steps"]


class WordCount(Tool):
    name = "wc -l"
    note = "reading the file, no monitoring"

    def command(self, work, trace):
        return ["wc", "-l", str(trace["jsonl"])]


def cargo_install(work, package, version, binary):
    """The path of `binary` from `package` at `version`, installed into the
    work directory by the Rust package manager if it is not there yet."""
    root = work / "cargo"
    path = root / "bin" / binary
    if not path.exists():
        run(["cargo", "install", "--locked", "--root", str(root), package, "--version", version])
    return path


class R2U2(Tool):
    name = "R2U2"
    note = "`r2u2_cli` 4.2.4 (crates.io), spec compiled beforehand"

    SPEC = """\
INPUT
    request, reset, alarm, grant, p, q, r, s, t: bool;
PTSPEC
    alarm -> ((!reset) S[0,1000000000] request);
    (O[1,1] p) && (q S[0,1000000000] (r || (s S[0,1000000000] t)));
"""

    def prepare(self, work, trace):
        self.binary = cargo_install(work, "r2u2_cli", "4.2.4", "r2u2_cli")
        # R2U2 reads a header only as a `#` comment line; no unbounded `S`
        # (a bound above the trace length is the same), `Y p` as `O[1,1] p`.
        lines = trace["csv"].read_text().splitlines(keepends=True)
        self.csv = work / f"r2u2_{len(lines) - 1}.csv"
        self.csv.write_text("# " + lines[0] + "".join(lines[1:]))
        (work / "props.c2po").write_text(self.SPEC)
        run([str(self.binary), "compile", "props.c2po", str(self.csv)], cwd=work)

    def command(self, work, trace):
        return [str(self.binary), "run", str(work / "spec.bin"), str(self.csv)]

    def counts(self, work, trace, steps):
        # `ID:TIME,V`: verdict V for formula ID at every step after the
        # previous line of that formula up to TIME (aggregated).
        true, last = [0, 0], [-1, -1]
        for line in run(self.command(work, trace), cwd=work).splitlines():
            head, _, verdict = line.partition(",")
            formula, _, at = head.partition(":")
            if not (formula.isdigit() and at.isdigit() and verdict in ("T", "F")):
                continue
            k, at = int(formula), int(at)
            if k < 2:
                if verdict == "T":
                    true[k] += at - last[k]
                last[k] = at
        return tuple(true)


class RTLola(Tool):
    name = "RTLola"
    note = "`rtlola-cli` 0.1.2 (crates.io), offline"

    SPEC = """\
input request: UInt8
input reset: UInt8
input alarm: UInt8
input p: UInt8
input q: UInt8
input r: UInt8
input s: UInt8
input t: UInt8
output s1 := request == 1 || (reset == 0 && s1[-1].defaults(to: false))
output p1 := alarm == 0 || s1
output s3 := t == 1 || (s == 1 && s3[-1].defaults(to: false))
output s2 := (r == 1 || s3) || (q == 1 && s2[-1].defaults(to: false))
output p2 := p[-1].defaults(to: 0) == 1 && s2
"""

    def prepare(self, work, trace):
        self.binary = cargo_install(work, "rtlola-cli", "0.1.2", "rtlola-cli")
        # Offline monitoring needs a time column: the step number, in seconds.
        lines = trace["csv"].read_text().splitlines()
        self.csv = work / f"rtlola_{len(lines) - 1}.csv"
        with open(self.csv, "w") as out:
            out.write("time," + lines[0] + "\n")
            for k, line in enumerate(lines[1:]):
                out.write(f"{k},{line}\n")
        (work / "props.lola").write_text(self.SPEC)

    def command(self, work, trace):
        return [str(self.binary), "monitor", str(work / "props.lola"), "--offline", "relative",
                "--csv-in", str(self.csv), "--verbosity", "outputs", "--output-format", "csv"]

    def counts(self, work, trace, steps):
        import csv
        import io
        rows = csv.DictReader(io.StringIO(run(self.command(work, trace))))
        true = [0, 0]
        for row in rows:
            true[0] += row.get("p1") == "true"
            true[1] += row.get("p2") == "true"
        return tuple(true)


class Reelay(Tool):
    name = "reelay"
    note = "reelay 25.0.0 (PyPI), a Python loop reading the JSON lines"

    SCRIPT = """\
import json, sys
import reelay
m1 = reelay.discrete_timed_monitor(pattern=r"{alarm} -> (!{reset} since {request})", condense=False)
m2 = reelay.discrete_timed_monitor(pattern=r"pre{p} && ({q} since ({r} || ({s} since {t})))", condense=False)
c1 = c2 = 0
with open(sys.argv[1]) as f:
    for line in f:
        d = json.loads(line)
        c1 += m1.update(d)["value"]
        c2 += m2.update(d)["value"]
print(json.dumps({"p1": c1, "p2": c2}))
"""

    def prepare(self, work, trace):
        venv = work / "venv"
        self.python = venv / "bin" / "python"
        if not self.python.exists():
            run([sys.executable, "-m", "venv", str(venv)])
        run([str(self.python), "-m", "pip", "install", "-q", "reelay==25.0.0"])
        (work / "reelay_run.py").write_text(self.SCRIPT)

    def command(self, work, trace):
        return [str(self.python), str(work / "reelay_run.py"), str(trace["jsonl"])]

    def counts(self, work, trace, steps):
        counts = json.loads(run(self.command(work, trace)))
        return counts["p1"], counts["p2"]


TOOLS = [HindsightCheck(), HindsightInterpreted(), Standalone(), WordCount(), R2U2(), RTLola(),
         Reelay()]

# The per-event benches (divan, `cargo bench -p hindsight-benches`) and the
# rows they give: (bench, filter, workload, group path in divan's tree).
BENCHES = [
    ("monitors", "p1", "P1", ("p1",)),
    ("monitors", "p2", "P2", ("p2",)),
    ("monitors", "pt2", "PT2", ("pt2",)),
    ("monitors", "hundred", "100 properties", ("hundred",)),
    ("future", "p3_response", "P3", ("p3_response",)),
    ("future", "trucks_rules", "trucks (10 rules)", ("trucks_rules",)),
]
ENGINES = ["hand_written", "generated", "jit", "jit_rows", "interpreter"]
UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def divan(bench, *filters):
    """Runs one divan bench; {path tuple: median seconds} for every leaf."""
    out = run(["cargo", "bench", "-q", "-p", "hindsight-benches", "--bench", bench, "--",
               *filters], cwd=ROOT)
    medians, path = {}, []
    for line in out.splitlines():
        head, _, rest = line.partition("─ ")
        if not rest:
            continue
        depth = len(head) // 3
        cells = [c.strip() for c in rest.split("│")]
        name = cells[0].split()[0] if cells[0] else ""
        path = path[:depth] + [name]
        fields = cells[0].split()
        if len(cells) >= 3 and len(fields) == 3 and fields[2] in UNITS:
            # fastest is in the first cell; the median is the third column.
            value, unit = cells[2].split()
            medians[tuple(path)] = float(value) * UNITS[unit]
    return medians


def per_event_table(steps_per_pass):
    """The per-event cost of every engine on every workload, one run of the benches."""
    print("\nPer-event cost (divan medians; ns per event, a pass is "
          f"{steps_per_pass:,} events):\n")
    print("| workload | hand-written | generated | machine code, a step per call "
          "| machine code, batches (as `check` runs it) | interpreter "
          "| batches × generated | interpreter × generated |")
    print("|---|---|---|---|---|---|---|---|")
    cache = {}
    for bench, _, workload, group in BENCHES:
        if bench not in cache:
            filters = [f for b, f, _, _ in BENCHES if b == bench]
            cache[bench] = divan(bench, *filters)
        ns = {e: cache[bench].get(group + (e,)) for e in ENGINES}
        ns = {e: v * 1e9 / steps_per_pass if v is not None else None for e, v in ns.items()}
        cell = lambda v: f"{v:.3g}" if v is not None else "—"
        ratio = lambda a, b: f"{a / b:.2f}" if a and b else "—"
        print(f"| {workload} | {cell(ns['hand_written'])} | {cell(ns['generated'])} "
              f"| {cell(ns['jit'])} | {cell(ns['jit_rows'])} | {cell(ns['interpreter'])} "
              f"| {ratio(ns['jit_rows'], ns['generated'])} "
              f"| {ratio(ns['interpreter'], ns['generated'])} |")


def windows_table():
    """Compile time of `G (request -> F[0,b] grant) with reset` for each b."""
    medians = divan("future", "windows::compile_time")
    print("\nCompile time of `G (request -> F[0,b] grant) with reset` (divan medians):\n")
    print("| b | compile |")
    print("|---|---|")
    for path, seconds in sorted(medians.items(), key=lambda kv: int(kv[0][-1])):
        print(f"| {int(path[-1]):,} | {seconds * 1e6:.0f} µs |")


def macro_build_table(work):
    """A cold debug build of examples/agent_guard (a crate using the attribute
    macro) in an empty target directory: CPU seconds, wall, peak memory."""
    target = work / "agent-guard-target"
    run(["rm", "-rf", str(target)])
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %e %M", "cargo", "build", "-q", "-p", "agent-guard"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    user, system, wall, peak = done.stderr.strip().splitlines()[-1].split()
    print("\nCold debug build of `examples/agent_guard` (the attribute macro as a "
          "user's crate has it):\n")
    print("| CPU (user + sys) | wall | peak memory |")
    print("|---|---|---|")
    print(f"| {float(user) + float(system):.1f} s | {float(wall):.1f} s "
          f"| {int(peak) / 1024:.0f} MB |")


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--steps", type=int, default=1_000_000)
    args.add_argument("--runs", type=int, default=5)
    args.add_argument("--work", type=Path, default=ROOT / "target" / "peers")
    args.add_argument("--skip", action="append", default=[], help="a tool's name to leave out")
    args.add_argument("--all", action="store_true",
                      help="also the per-event benches, window compile times and the macro build")
    opts = args.parse_args()
    work = opts.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    steps = opts.steps
    trace = {ext: work / f"trace_{steps}.{ext}" for ext in ("csv", "jsonl")}
    if not trace["jsonl"].exists():
        run([sys.executable, str(GEN_TRACE), str(steps), str(work)])
    tools = [t for t in TOOLS if t.name not in opts.skip]
    rows = []
    expected = None
    for tool in tools:
        print(f"{tool.name}: preparing", file=sys.stderr, flush=True)
        tool.prepare(work, trace)
        counts = tool.counts(work, trace, steps)
        if tool is tools[0]:
            expected = counts
        seconds, peak = timed(tool.command(work, trace), opts.runs, tool.stdin(work, trace))
        rows.append((tool, seconds, peak, counts))
        print(f"{tool.name}: {seconds:.3f} s", file=sys.stderr)
    check = next((s for t, s, _, _ in rows if isinstance(t, HindsightCheck)), None)
    alone = next((s for t, s, _, _ in rows if isinstance(t, Standalone)), None)
    wc = next((s for t, s, _, _ in rows if isinstance(t, WordCount)), None)
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print(f"{datetime.date.today()}, {os.cpu_count()} cores ({cpu}), {steps:,} steps of the "
          f"standard trace, P1 and P2, medians of {opts.runs} runs of the whole process:\n")
    print("| tool | what runs | seconds | events/s | peak MiB | × `hindsight check` "
          "| × standalone | × `wc -l` | P1 true | P2 true | agrees |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for tool, seconds, peak, counts in rows:
        rate = steps / seconds
        rate = f"{rate / 1e6:.2f} M" if rate < 1e9 else f"{rate / 1e9:.2f} G"
        peak = f"{peak:.1f}" if peak is not None else "—"
        vs_check = f"{seconds / check:.2f}" if check else "—"
        vs_alone = f"{seconds / alone:.2f}" if alone else "—"
        vs_wc = f"{seconds / wc:.1f}" if wc else "—"
        if counts is None:
            p1 = p2 = agrees = "—"
        else:
            p1, p2 = (f"{c:,}" if c is not None else "—" for c in counts)
            agrees = "yes" if counts == expected else "**no**"
        print(f"| {tool.name} | {tool.note} | {seconds:.3f} | {rate} | {peak} | {vs_check} "
              f"| {vs_alone} | {vs_wc} | {p1} | {p2} | {agrees} |")
    if opts.all:
        per_event_table(1_000_000)
        windows_table()
        macro_build_table(work)


if __name__ == "__main__":
    main()
