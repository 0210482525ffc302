"""The README's library example runs and prints what the README says it prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_library_example_prints_what_the_readme_says() -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert block, "the README has no python example"
    code = block.group(1)
    expected = []
    for line in code.splitlines():
        # The comments on print lines, and the comment lines under a loop, are its output.
        if line.startswith("# "):
            expected.append(line[2:])
        elif line.startswith("print(") and "  # " in line:
            expected.append(line.split("  # ", 1)[1])
    assert len(expected) >= 6
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().splitlines() == expected
