"""The README's Python example prints what the README shows."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_prints_what_the_readme_shows():
    text = (ROOT / "README.md").read_text()
    after = text.split("<!-- python-output -->\n", 1)[1]
    code = after.split("```python\n", 1)[1].split("```\n", 1)[0]
    shown = after.split("```python\n", 1)[1].split("```\n", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    printed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
    assert printed.stdout == shown
