"""The packages import one way: doors -> gm -> store -> ledger, variants -> rules (docs: the brief's layers).

Every import statement of the source is read (ast, so that an import inside a function
counts too) and checked against what its package may import; there are no exceptions.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


SRC = Path(__file__).resolve().parents[1] / "src" / "gamesmaster"
DOORS = {"web", "mail", "cli", "daide"}

# What each part may import of gamesmaster (itself always). "machine" is the machine-readable
# adjudication document, a layer over rules used by the command line.
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    # The settings (standard library only): what reads the environment; the doors get it through gm.
    "config": set(),
    "variants": {"rules", "config"},
    "ledger": {"rules"},
    "machine": {"rules", "variants"},
    "maps": {"rules", "variants"},
    "store": {"ledger", "variants", "rules", "config"},
    "gm": {"store", "ledger", "variants", "rules", "maps", "config"},
    # Doors reach the game through gm; rules' value types and format/parse functions and the
    # maps are what they render views with.
    **{door: {"gm", "rules", "maps", "machine"} for door in DOORS},
    # serving starts the doors and the worker in processes: it alone may import the doors.
    "serving": {"gm", "rules", "web", "mail", "daide", "config"},
}
ALLOWED["cli"] = ALLOWED["cli"] | {"serving", "config"}  # the commands that start processes call serving


def _module_name(path: Path) -> str:
    parts = ("gamesmaster",) + path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module the file imports (absolute names), with the line of the import."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if node.module is None:  # from . import x: x is a module of the package
                found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
            else:
                found.append((module, node.lineno))
    return found


def _part(module: str) -> str | None:
    """The part of gamesmaster a module belongs to (None: not gamesmaster's)."""
    parts = module.split(".")
    if parts[0] != "gamesmaster":
        return None
    return parts[1] if len(parts) > 1 else "gamesmaster"


SOURCES = sorted(p for p in SRC.rglob("*.py") if "migrations" not in p.parts)


def _edges() -> list[tuple[str, str, int, Path]]:
    return [(_module_name(path), imported, line, path) for path in SOURCES for imported, line in _imports(path)]


def test_the_source_is_found():
    """The walk sees the doors, gm and the layers below (a moved tree would make the checks empty)."""
    parts = {_part(_module_name(p)) for p in SOURCES}
    assert {"rules", "variants", "ledger", "gm", "store", "maps", "serving"} | DOORS <= parts
    assert ("gamesmaster.web.site", "gamesmaster.gm.catalogue") in {(a, b) for a, b, _, _ in _edges()}


def test_every_import_points_down_the_layers():
    wrong = []
    for importer, imported, line, path in _edges():
        here, there = _part(importer), _part(imported)
        if there is None or there == here:
            continue
        if there not in ALLOWED[here]:
            wrong.append(f"{path.relative_to(SRC.parent)}:{line}: {here} imports {imported}")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_rules_use_the_standard_library_only():
    wrong = [f"{path.relative_to(SRC.parent)}:{line}: {imported}"
             for importer, imported, line, path in _edges()
             if _part(importer) == "rules" and _part(imported) is None
             and imported.split(".")[0] not in sys.stdlib_module_names and imported != "__future__"]
    assert not wrong, "rules imports outside the standard library:\n" + "\n".join(wrong)


def test_the_check_catches_a_door_importing_another(tmp_path, monkeypatch):
    """Relative imports are resolved, so a web module importing the mail door is seen as web -> mail."""
    probe = tmp_path / "probe.py"
    probe.write_text("from ..mail import intake\nfrom . import site\nfrom ..gm.catalogue import choices\n",
                     encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "_module_name", lambda path: "gamesmaster.web.probe")
    found = [m for m, _ in _imports(probe)]
    assert found == ["gamesmaster.mail", "gamesmaster.web.site", "gamesmaster.gm.catalogue"]
    assert [_part(m) in ALLOWED["web"] | {"web"} for m in found] == [False, True, True]
