"""The rows a site's backup keeps beside the ledgers: the mail door's tables and players' accounts.

gm.backup writes a whole site as one JSON document; the games go as their archives, and
these tables as their rows in JSON (a time as {"$t": ISO text}, bytes as {"$b": base64}),
read back into an empty store on restore, on SQLite or PostgreSQL alike.
"""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Mapping, cast

from sqlalchemy import DateTime, Integer, LargeBinary, Table, insert, select, text

from ..ledger import JSONObject, JSONValue
from . import accounts, mailbox, webhooks
from .db import Store


class RowsError(ValueError):
    """A backup's rows that do not fit the tables; the message names the table."""


def side_tables() -> list[Table]:
    """The tables beside the ledgers kept in a backup: the mail door's, players' accounts, and the games' webhooks."""
    return [mailbox.contacts, mailbox.inbox, mailbox.outbox, mailbox.deliveries, accounts.accounts, accounts.links,
            accounts.settings, accounts.notices, accounts.cursors, accounts.games, webhooks.hooks, webhooks.posts]


def _out(value: object) -> JSONValue:
    if isinstance(value, datetime):
        return {"$t": value.isoformat()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    return cast(JSONValue, value)  # the other columns hold text, numbers, booleans or JSON


def _in(table: Table, row: JSONValue) -> dict[str, object]:
    if not isinstance(row, dict):
        raise RowsError(f"the backup's {table.name} holds a row that is not an object")
    out: dict[str, object] = {}
    for key, given in row.items():
        value: object = given
        col = table.c[key]
        if isinstance(value, dict) and "$t" in value and isinstance(col.type, DateTime):
            value = datetime.fromisoformat(str(value["$t"]))
        elif isinstance(value, dict) and "$t" in value and getattr(col.type, "impl", None) is not None \
                and isinstance(col.type.impl, DateTime):  # type: ignore[attr-defined]
            value = datetime.fromisoformat(str(value["$t"]))
        elif isinstance(value, dict) and "$b" in value and isinstance(col.type, LargeBinary):
            value = base64.b64decode(str(value["$b"]))
        out[key] = value
    return out


def side_rows(store: Store) -> dict[str, list[JSONObject]]:
    """Every row of the side tables as JSON, by table, in key order (one read transaction)."""
    rows: dict[str, list[JSONObject]] = {}
    with store.connect(write=False) as conn:
        for table in side_tables():
            rows[table.name] = [{k: _out(v) for k, v in r._mapping.items()}
                                for r in conn.execute(select(table).order_by(*table.primary_key.columns))]
    return rows


def put_side_rows(store: Store, given: Mapping[str, JSONValue]) -> None:
    """Write a backup's rows into an empty store's side tables, all or none; RowsError names rows that do not fit."""
    tables = {t.name: t for t in side_tables()}
    with store.connect() as conn:
        for name, table in tables.items():
            rows = given.get(name) or []
            if not isinstance(rows, list):
                raise RowsError(f"the backup's {name} is not a list of rows")
            if rows:
                conn.execute(insert(table), [_in(table, r) for r in rows])
        if store.is_postgresql:  # serial counters past the restored ids
            for table in tables.values():
                if "id" in table.c and isinstance(table.c.id.type, Integer) and given.get(table.name):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                      f"(SELECT max(id) FROM {table.name}))"))
