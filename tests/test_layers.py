"""The packages import one way: doors -> gm -> store -> ledger, variants -> rules (docs: the brief's layers).

The doors that serve games (web, mail, daide) import gm's package names only; only the store speaks SQL.

Every import statement of the source is read (ast, so that an import inside a function
counts too) and checked against what its package may import; there are no exceptions.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path


SRC = Path(__file__).resolve().parents[1] / "src" / "gamesmaster"
GAME_DOORS = {"web", "mail", "daide"}  # the doors that serve games: they only render what gm answers
DOORS = GAME_DOORS | {"cli"}
# The command line's engine commands have no game: they run the rules on a document or a variant file.
ENGINE_COMMANDS = {"gamesmaster.cli.adjudicate", "gamesmaster.cli.variants"}

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
    # The doors reach the game through gm alone: not the rules, the maps, the store, nor each other.
    **{door: {"gm"} for door in GAME_DOORS},
    # The command line is where the program starts: its commands that start processes call serving.
    "cli": {"gm", "serving", "config"},
    # serving starts the doors and the worker in processes: it alone may import the doors.
    "serving": {"gm", "web", "mail", "daide", "config"},
}
ENGINE_ALLOWED = ALLOWED["cli"] | {"rules", "variants", "machine"}
# Only the store speaks SQL: these are its libraries.
SQL_LIBRARIES = {"sqlalchemy", "alembic"}


def _allowed(module: str) -> set[str]:
    """What a module may import of gamesmaster's other parts."""
    return ENGINE_ALLOWED if module in ENGINE_COMMANDS else ALLOWED[_part(module) or ""]


def _module_name(path: Path) -> str:
    parts = ("gamesmaster",) + path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _from_module(node: ast.ImportFrom, path: Path) -> str:
    """The module a from-import names, relative imports resolved against the file's package."""
    if not node.level:
        return node.module or ""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    base = package.split(".")
    return ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))


@cache
def _tree(path: Path) -> ast.Module:
    """The file's syntax tree, read once a session: every check walks the same source."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module the file imports (absolute names), with the line of the import."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _from_module(node, path)
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
    assert ("gamesmaster.web.site", "gamesmaster.gm") in {(a, b) for a, b, _, _ in _edges()}


def test_every_import_points_down_the_layers():
    wrong = []
    for importer, imported, line, path in _edges():
        here, there = _part(importer), _part(imported)
        if there is None or there == here:
            continue
        if there not in _allowed(importer):
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


def _from_gm(path: Path) -> list[tuple[str, str, int]]:
    """Every (module, name, line) the file imports from gm's package or an inner module of gm."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [(alias.name, "*", node.lineno) for alias in node.names if _part(alias.name) == "gm"]
        elif isinstance(node, ast.ImportFrom):
            module = _from_module(node, path)
            if _part(module) == "gm":
                found += [(module, alias.name, node.lineno) for alias in node.names]
    return found


def _gm_public() -> set[str]:
    import gamesmaster.gm
    return set(gamesmaster.gm.__all__)


def test_doors_import_gm_by_its_package_names():
    """A door imports `from ..gm import X`, X one of gm's public names: never an inner module of gm
    (`..gm.views`, `from ..gm import report`), so gm's inside can change without the doors."""
    public = _gm_public()
    wrong = [f"{path.relative_to(SRC.parent)}:{line}: {module}{'' if name == '*' else ' ' + name}"
             for path in SOURCES if _part(_module_name(path)) in DOORS
             for module, name, line in _from_gm(path)
             if module != "gamesmaster.gm" or name not in public]
    assert not wrong, "doors reaching inside gm:\n" + "\n".join(wrong)


def test_gm_exports_names_not_modules():
    """gm's public names are its values, views and functions: a module in __all__ would open gm's inside again."""
    import types
    import gamesmaster.gm
    modules = [name for name in gamesmaster.gm.__all__ if isinstance(getattr(gamesmaster.gm, name), types.ModuleType)]
    assert not modules
    assert len(gamesmaster.gm.__all__) == len(set(gamesmaster.gm.__all__))


def test_only_the_store_speaks_sql():
    wrong = [f"{path.relative_to(SRC.parent)}:{line}: {imported}"
             for importer, imported, line, path in _edges()
             if imported.split(".")[0] in SQL_LIBRARIES and _part(importer) != "store"]
    assert not wrong, "SQL outside the store:\n" + "\n".join(wrong)


def test_the_checks_catch_a_door_reaching_past_gm(tmp_path, monkeypatch):
    """An inner module of gm, a module named through gm's package, the rules and SQL are each caught."""
    probe = tmp_path / "probe.py"
    probe.write_text("from ..gm.views import plain\nfrom ..gm import report, Gamesmaster\nimport gamesmaster.gm.fold\n"
                     "from ..rules import Position\nfrom sqlalchemy import select\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "_module_name", lambda path: "gamesmaster.mail.probe")
    public = _gm_public()
    found = [(m, n) for m, n, _ in _from_gm(probe) if m != "gamesmaster.gm" or n not in public]
    assert found == [("gamesmaster.gm.views", "plain"), ("gamesmaster.gm", "report"), ("gamesmaster.gm.fold", "*")]
    parts = [_part(m) for m, _ in _imports(probe)]
    assert "rules" in parts and "rules" not in _allowed("gamesmaster.mail.probe")
    assert [m for m, _ in _imports(probe) if m.split(".")[0] in SQL_LIBRARIES] == ["sqlalchemy"]
    assert "rules" in _allowed("gamesmaster.cli.adjudicate") and "rules" not in _allowed("gamesmaster.cli.games")
