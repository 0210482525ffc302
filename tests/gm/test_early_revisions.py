"""Brobdingnag procedure 3 (seed 004): "Revisions received after such publication will not be considered."
Orders for a phase published early are refused the same way at every door, however they name their phase."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import httpx
import pytest

from gamesmaster.cli import main
from gamesmaster.gm import Gamesmaster, Refused
from gamesmaster.rules import Position
from gamesmaster.store import Store
from gamesmaster.variants import load_variant
from gamesmaster.web.app import create_app
from gamesmaster.web.security import SiteSecrets
from sitetools import serving

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
# Winter 1901: France alone has builds to make (two), so its orders publish the builds at once.
BUILDS = {"phase": "W1901A", "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"]},
          "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "ENGLAND": ["LON"]}}
PROCEDURE_3 = re.compile(
    r"refused: these orders are for Winter 1901 adjustments, published early \(\w{3} \d\d \w{3} \d{4} "
    r"\d\d:\d\d UTC\), as soon as every power concerned had ordered; revisions received after that publication "
    r"are not considered \(Brobdingnag procedure 3\)\. Spring 1902 movement is open now")


def builds_published_early(gm: Gamesmaster):
    c = gm.setup.create_game("g", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                       position=Position.from_dict(load_variant("standard"), BUILDS))
    cred = {power: c.credentials[n] for n, power in zip(NAMES, POWERS)}
    sub = gm.orders.submit_orders("g", "FRANCE", "Build A Mar", credential=cred["FRANCE"])
    assert sub.processed == ("W1901A",) and str(gm.games.game("g").phase) == "S1902M"
    return cred


def refusals(gm: Gamesmaster) -> list[str]:
    return [e.payload["reason"] for e in gm.games.history("g").ledger if e.kind == "orders-refused"]


def test_revisions_after_builds_are_published_early_are_refused_by_the_console(sqlite_url, clock, monkeypatch, capsys):
    store = Store(sqlite_url)
    gm = Gamesmaster(store)  # the console's clock: the time now
    builds_published_early(gm)
    monkeypatch.setattr("sys.stdin", io.StringIO("Build A Mar\nBuild F Bre\n"))
    code = main(["orders", "g", "France", "--db", sqlite_url])
    out, err = capsys.readouterr()
    assert code == 2 and PROCEDURE_3.search(err), (out, err)
    assert gm.orders.orders_on_record("g", "FRANCE", by_gm=True) == ()  # nothing taken as Spring 1902's orders
    # The phase named, or orders written before the spring opened (a mail's Date): the same refusal.
    with pytest.raises(Refused) as named:
        gm.orders.submit_orders("g", "FRANCE", "Build F Bre", by_gm=True, phase="W1901A")
    with pytest.raises(Refused) as written:
        gm.orders.submit_orders("g", "FRANCE", "Build F Bre", by_gm=True, written_at=gm.desk.now() - timedelta(minutes=5))
    assert PROCEDURE_3.search(str(named.value)) and PROCEDURE_3.search(str(written.value))
    # Orders for the spring are taken as usual; a line that reads for the spring is never taken for a revision
    taken = gm.orders.submit_orders("g", "FRANCE", "A Par-Bur\nA Mar-Spa", by_gm=True)
    assert [a.status for a in taken.answers] == ["accepted", "accepted"]
    assert len(refusals(gm)) == 3 and gm.record.verify("g").ok
    store.dispose()


def test_revisions_after_builds_are_published_early_are_refused_by_the_api(sqlite_url, clock):
    store = Store(sqlite_url)
    gm = Gamesmaster(store, clock)
    cred = builds_published_early(gm)
    with serving(create_app(gm, SiteSecrets.for_testing("gm.test-credential-0123456789"))) as base:
        r = httpx.post(f"{base}/api/games/g/powers/france/orders", json={"orders": "Build F Bre"},
                       headers={"Authorization": f"Bearer {cred['FRANCE']}"})
    assert r.status_code == 409 and PROCEDURE_3.search(r.json()["detail"]), r.text
    assert "receipt" not in r.text.lower()
    assert gm.record.verify("g").ok
    store.dispose()
