"""The documents stand on their own: every relative link in README.md and docs/ names a file kept
in the repository (not one outside it, and not one the tests make, such as test-artifacts/)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")  # [text](target) and ![alt](target)
HTML = re.compile(r"""(?:src|href)=["']([^"']+)["']""")
# a path in a code span that climbs out of the folder it is in: `../shared/x.md`
CLIMBING = re.compile(r"`(\.\./[^`\s]+)`")


def _kept() -> set[Path] | None:
    """The files git keeps or would keep (ignored ones, such as test-artifacts/, left out); None without git."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {(ROOT / line).resolve() for line in out.splitlines() if line}


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _relative(target: str) -> bool:
    return not re.match(r"^([a-z][a-z0-9+.-]*:|#|/)", target, re.I)


def _broken(doc: Path, text: str, kept: set[Path] | None) -> list[str]:
    where = doc.relative_to(ROOT)
    found = []
    spans = [m for m in [*LINK.finditer(text), *HTML.finditer(text)] if _relative(m.group(1).split("#")[0] or "#")]
    for m in [*spans, *CLIMBING.finditer(text)]:
        target = m.group(1).split("#")[0]
        path = (doc.parent / target).resolve()
        line = text.count("\n", 0, m.start()) + 1
        if not path.is_relative_to(ROOT):
            found.append(f"{where}:{line}: {target} is outside the repository")
        elif not path.exists() or (kept is not None and path.is_file() and path not in kept):
            found.append(f"{where}:{line}: {target} is not a file of the repository")
    return found


def test_every_relative_link_names_a_file_of_the_repository() -> None:
    kept = _kept()
    broken = [problem for doc in _documents() for problem in _broken(doc, doc.read_text(encoding="utf-8"), kept)]
    assert not broken, "\n".join(broken)


def test_the_check_sees_links_out_of_the_repository_and_to_made_files() -> None:
    text = ("![a](../test-artifacts/x.png), ![b](screenshots/phone-front.png), [c](../../elsewhere.md), "
            "[d](nothing.md) and `../shared/interfaces/adjudicate.md`\n")
    broken = _broken(ROOT / "docs" / "probe.md", text, _kept())
    assert len(broken) == 4, broken
    assert not any("phone-front" in b for b in broken)
