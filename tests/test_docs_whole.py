"""The documents and sources hold no half-finished merge."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A merge that stopped half-way leaves these lines; Markdown and Python never start a line so.
MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.M)


def test_no_file_keeps_merge_conflict_markers() -> None:
    places = []
    for folder in ("docs", "src", "tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".md", ".py", ".html", ".css", ".js", ".toml", ".json"} or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            places += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
                       for m in MARKER.finditer(text)]
    readme = (ROOT / "README.md").read_text()
    places += [f"README.md:{readme.count(chr(10), 0, m.start()) + 1}" for m in MARKER.finditer(readme)]
    assert not places, "merge conflict markers left at " + ", ".join(places)
