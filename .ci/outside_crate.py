#!/usr/bin/env python3
"""Builds and runs the crate docs/usage.md shows, as a user would: a crate
outside this workspace depending on the checkout by path.

Every code block of docs/usage.md under a `<!-- outside-crate: PATH -->`
line is a file of the crate (`Cargo.toml`, `build.rs`, `src/main.rs`, ...),
written as shown into a scratch directory beside a link named `hindsight`
to this checkout (the docs' `../hindsight`); `<!-- outside-crate: PATH from
FILE -->` (no block) makes PATH a copy of this checkout's FILE, as the page
says; `<!-- outside-crate: output -->` is what `cargo run` must print. Every
`rust` block of the page must be a file of the crate. Exits 1, saying where,
if the crate does not build or prints something else.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "usage.md"
BLOCK = re.compile(r"<!-- outside-crate: (\S+) -->\n```[a-z]*\n(.*?)```", re.S)
COPY = re.compile(r"<!-- outside-crate: (\S+) from (\S+) -->")
RUST = re.compile(r"(<!-- outside-crate: \S+ -->\n)?```rust\n")


def main():
    text = DOC.read_text()
    files = dict(BLOCK.findall(text))
    files.update((path, (ROOT / source).read_text()) for path, source in COPY.findall(text))
    expected = files.pop("output", None)
    if "Cargo.toml" not in files or expected is None:
        print(f"error: {DOC} shows no outside crate (Cargo.toml and output blocks)", file=sys.stderr)
        return 1
    loose = [m.start() for m in RUST.finditer(text) if m.group(1) is None]
    if loose:
        lines = ", ".join(str(text.count("\n", 0, at) + 1) for at in loose)
        print(f"error: {DOC}: a rust block that is no file of the crate, at line {lines}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as scratch:
        os.symlink(ROOT, Path(scratch) / "hindsight")
        crate = Path(scratch) / "my-agent"
        for path, text in files.items():
            (crate / path).parent.mkdir(parents=True, exist_ok=True)
            (crate / path).write_text(text)
        env = {**os.environ, "CARGO_TARGET_DIR": str(ROOT / "target" / "outside-crate")}
        run = subprocess.run(["cargo", "run", "-q", "--offline"], cwd=crate, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"error: the crate of {DOC} does not build or run:\n{run.stderr}", file=sys.stderr)
        return 1
    if run.stdout != expected:
        print(f"error: the crate of {DOC} printed\n{run.stdout}instead of\n{expected}", file=sys.stderr)
        return 1
    print(f"the crate of {DOC.relative_to(ROOT)} builds outside the workspace and prints what the page shows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
