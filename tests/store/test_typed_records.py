"""The store speaks in typed records, gm reads them as such, and the mail door reaches its books only through gm."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import gamesmaster
from gamesmaster.store.accounts import AccountRecords
from gamesmaster.store.mailbox import MailRecords
from gamesmaster.store.repo import Records
from gamesmaster.store.sessions import SessionRecords

SRC = Path(gamesmaster.__file__).parent


def _imported(path: Path) -> set[str]:
    """The modules a source file imports, as absolute names."""
    package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(x for x in (base, node.module or "") if x)
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names)
    return out


def _mentions_any(hint: object) -> bool:
    return hint is typing.Any or any(_mentions_any(a) for a in typing.get_args(hint))


def test_the_mail_door_reaches_its_books_only_through_gm() -> None:
    for path in [*(SRC / "mail").glob("*.py"), SRC / "cli" / "mail.py"]:
        reached = {m for m in _imported(path) if m.startswith(("gamesmaster.store.mailbox", "gamesmaster.store.accounts"))}
        assert not reached, f"{path.name} imports {sorted(reached)}: go through gamesmaster.gm.mailroom"
    for path in (SRC / "mail").glob("*.py"):
        assert not any(m.startswith("gamesmaster.store") for m in _imported(path)), path.name


def test_the_store_takes_and_gives_no_untyped_rows() -> None:
    for cls in (AccountRecords, MailRecords, SessionRecords, Records):
        for name, method in inspect.getmembers(cls, inspect.isfunction):
            if name.startswith("_"):
                continue
            hints = typing.get_type_hints(method)
            loose = {k: v for k, v in hints.items() if _mentions_any(v)}
            assert not loose, f"{cls.__name__}.{name} takes or gives Any: {loose}"
            assert not any(p.kind is p.VAR_KEYWORD for p in inspect.signature(method).parameters.values()), \
                f"{cls.__name__}.{name} takes **values"


def test_gm_accounts_and_notices_read_no_row_dicts() -> None:
    for name in ("accounts.py", "notices.py", "mailroom.py"):
        tree = ast.parse((SRC / "gm" / name).read_text())
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert "Any" not in used, f"gm/{name} uses Any"
