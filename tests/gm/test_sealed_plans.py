"""Conditional orders filed for a later phase stay sealed on the public record until every phase they name is
published; the public record verifies before and after, and receipts check throughout."""

from __future__ import annotations

import json

from gamesmaster.gm import Gamesmaster
from gamesmaster.gm.record import verify_archive
from gamesmaster.ledger import Entry

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
PLAN = "A Mun-Bur\nnext season:\nif A Mun - Bur succeeds:\nA Bur - Par\notherwise:\nA Mun H\n"
SECRET = ("A Bur - Par", "A BUR - PAR", "Mun - Bur succeeds", "MUN - BUR succeeds")


def game(gm: Gamesmaster, gid: str, plan: str = PLAN) -> tuple[dict[str, str], str]:
    """Germany files conditional orders for Fall 1901 with its Spring 1901 orders; its receipt."""
    c = gm.setup.create_game(gid, players=NAMES, assign=dict(zip(NAMES, POWERS)))
    cred = {p: c.credentials[n] for n, p in zip(NAMES, POWERS)}
    receipt = str(gm.orders.submit_orders(gid, "GERMANY", plan, credential=cred["GERMANY"]).receipt)
    return cred, receipt


def leaks(doc: object) -> list[str]:
    text = json.dumps(doc)
    return [s for s in SECRET if s in text]


def test_a_plan_is_sealed_until_the_phase_it_names_is_published(sqlite_store, clock):
    """Spring 1901 published: Germany's spring orders are public, its plan for Fall 1901 is not (record,
    record page lines, phase record); Fall 1901 published: the plan and its choice are on the record.
    The public record verifies, with Germany's receipt, at each step."""
    gm = Gamesmaster(sqlite_store, clock)
    _, receipt = game(gm, "plan")
    gm.deadlines.process("plan", force=True)
    assert str(gm.games.game("plan").phase) == "F1901M"
    doc = gm.record.archive("plan")
    assert leaks(doc) == [] and leaks([e.summary for e in gm.record.public_record("plan")]) == []
    assert leaks([e.summary for e in gm.record.phase_record("plan", "S1901M").entries]) == []
    assert "A MUN - BUR" in json.dumps(doc)  # the spring's own orders are public
    report = verify_archive(doc, receipts=[receipt])
    assert report.ok and report.receipts_checked == 1, report.problems
    assert gm.record.check_receipt("plan", receipt).status == "used"
    gm.deadlines.process("plan", force=True)  # Fall 1901: the plan's only phase
    doc = gm.record.archive("plan")
    assert "if A Mun - Bur succeeds" in json.dumps(doc)
    chosen = [json.loads(e["payload"]) for e in doc["entries"] if e["kind"] == "conditional-chosen"]
    assert chosen and chosen[0]["condition"] == "if A Mun - Bur succeeds"
    report = verify_archive(doc, receipts=[receipt])
    assert report.ok and not report.notes, (report.problems, report.notes)
    assert gm.record.verify("plan").ok


def test_a_plan_naming_several_phases_waits_for_the_last(sqlite_store, clock):
    """A plan for Fall 1901 and the Winter 1901 adjustments stays sealed while Fall is published (its choice
    for Fall is public then, and the record verifies, noting what waits) and is shown with the Winter results."""
    gm = Gamesmaster(sqlite_store, clock)
    plan = ("A Mun-Bur\nF Kie-Den\nA Ber-Kie\nnext season:\nif A Mun - Bur succeeds:\nA Bur H\nF Den H\n"
            "otherwise:\nA Mun H\nadjustments:\nif Den changes hands: A Ber B\n")
    cred, _ = game(gm, "two", plan)
    gm.orders.submit_orders("two", "FRANCE", "A Mar-Spa", credential=cred["FRANCE"])  # France builds too: Winter waits
    gm.deadlines.process("two", force=True)
    gm.deadlines.process("two", force=True)
    assert str(gm.games.game("two").phase) == "W1901A"
    doc = gm.record.archive("two")
    assert "if Den changes hands" not in json.dumps(doc)
    assert any(e["kind"] == "conditional-chosen" and "payload" in e for e in doc["entries"])  # Fall's choice
    report = verify_archive(doc)
    assert report.ok and report.notes, report.problems
    gm.deadlines.process("two", force=True)
    doc = gm.record.archive("two")
    assert "if Den changes hands" in json.dumps(doc)
    report = verify_archive(doc)
    assert report.ok and not report.notes, (report.problems, report.notes)
    assert gm.record.verify("two").ok


def test_a_corrected_phase_keeps_its_plans_sealed(sqlite_store, clock):
    """Correcting the phase a plan was filed with reads the plan again, sealed too; the plan still applies."""
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = game(gm, "fix")
    gm.orders.submit_orders("fix", "ENGLAND", "F Lon-Nth", credential=cred["ENGLAND"])
    gm.deadlines.process("fix", force=True)
    gm.corrections.correct("fix", reason="England's order was misread", orders={"ENGLAND": "F Lon-Eng"})
    assert leaks(gm.record.archive("fix")) == []
    assert verify_archive(gm.record.archive("fix")).ok
    gm.deadlines.process("fix", force=True)
    doc = gm.record.archive("fix")
    assert "if A Mun - Bur succeeds" in json.dumps(doc)
    assert verify_archive(doc).ok and gm.record.verify("fix").ok


def test_plans_are_shown_when_the_game_ends_and_a_record_still_sealing_one_does_not_verify(sqlite_store, clock):
    """A game conceded while a plan waits for Fall: the plan is history, shown; a copy that keeps it sealed
    does not verify."""
    gm = Gamesmaster(sqlite_store, clock)
    game(gm, "over")
    gm.deadlines.process("over", force=True)
    gm.press.declare_draw("over", reason="the players agreed")
    doc = gm.record.archive("over")
    assert "if A Mun - Bur succeeds" in json.dumps(doc)
    assert verify_archive(doc).ok
    plan = next(e for e in doc["entries"] if e["kind"] == "plan-filed")
    doc["entries"] = [Entry.from_dict(e).seal().as_dict() if e is plan else e for e in doc["entries"]]
    report = verify_archive(doc)
    assert any("(game-ended): the game is over, but 1 entries of conditional orders are still sealed" in p
               for p in report.problems), report.problems
