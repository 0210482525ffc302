"""Players audit without the GM: the public record, `verify --archive` on any machine, receipts that leak nothing."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamesmaster.gm import Gamesmaster, GMError, Refused
from gamesmaster.gm.record import verify_archive
from gamesmaster.ledger import Receipt

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


def played(gm: Gamesmaster, gid: str = "pub", chatter: bool = False) -> tuple[dict[str, str], list[str]]:
    """Two seasons; with chatter, the others also write letters and change their minds (hidden activity)."""
    c = gm.setup.create_game(gid, players=NAMES, assign=dict(zip(NAMES, POWERS)))
    cred = {p: c.credentials[n] for n, p in zip(NAMES, POWERS)}
    receipts = []

    def order(power: str, text: str) -> None:
        receipts.append(str(gm.orders.submit_orders(gid, power, text, credential=cred[power]).receipt))

    if chatter:
        gm.press.post_press(gid, "secret plan", to=["GERMANY"], credential=cred["FRANCE"])
        gm.orders.submit_orders(gid, "FRANCE", "A Par-Pic", credential=cred["FRANCE"])
    order("ENGLAND", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor")
    if chatter:
        gm.press.post_press(gid, "reply", to=["FRANCE"], credential=cred["GERMANY"])
        gm.orders.submit_orders(gid, "GERMANY", "A Mun-Ruh", credential=cred["GERMANY"])
    order("ENGLAND", "F Lon-Eng\nF Edi-Nth\nA Lvp-Yor")
    order("FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
    order("GERMANY", "A Mun-Bur\nA Ber-Kie\nF Kie-Den")
    gm.deadlines.process(gid, force=True)
    order("ENGLAND", "F Nth C A Yor-Nwy\nA Yor-Nwy\nF Eng H")
    if chatter:
        gm.press.post_press(gid, "QX-LATER-LETTER", to=["ITALY"], credential=cred["TURKEY"])
    order("ENGLAND", "F Nth C A Yor-Nwy\nA Yor-Nwy\nF Eng-Pic")
    return cred, receipts


def test_receipts_number_a_power_s_own_sets_and_say_nothing_of_the_others(sqlite_store, clock):
    """England's receipts, and all England may see before the deadline, are the same whatever the others do
    in secret (letters, changes of mind), bar the commitments everyone is shown on purpose."""
    gm = Gamesmaster(sqlite_store, clock)
    _, quiet = played(gm, "quiet")
    _, busy = played(gm, "busy", chatter=True)
    def england(receipts: list[str]) -> list[tuple[str, int]]:
        return [(x.phase, x.number) for x in map(Receipt.parse, receipts) if x.power == "ENGLAND"]

    assert england(quiet) == england(busy) == [("S1901M", 1), ("S1901M", 2), ("F1901M", 1), ("F1901M", 2)]
    # the open phase's activity is not in anything published: the record stops at the last publication
    for game in ("quiet", "busy"):
        doc = gm.record.archive(game)
        assert doc["head"]["seq"] == gm.games.game(game).head.seq
        assert all(e["seq"] <= doc["head"]["seq"] for e in doc["entries"])
        shown = json.dumps(doc)
        assert "F Eng-Pic" not in shown and "QX-LATER-LETTER" not in shown
    # the letters of the finished phase are sealed: their existence is history, their text is not public
    busy_doc = json.dumps(gm.record.archive("busy"))
    assert "secret plan" not in busy_doc and "reply" not in busy_doc
    assert verify_archive(gm.record.archive("busy"), receipts=busy[:4]).ok


def test_verify_archive_on_a_clean_machine(sqlite_store, clock, tmp_path):
    """The downloaded public record verifies with nothing but the gamesmaster package: no store, no GM."""
    gm = Gamesmaster(sqlite_store, clock)
    _, receipts = played(gm)
    archive = tmp_path / "record.json"
    archive.write_text(json.dumps(gm.record.archive("pub")))
    clean = tmp_path / "elsewhere"
    clean.mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(clean), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "gamesmaster.cli", "verify", "--archive", *args],
                              cwd=clean, env=env, capture_output=True, text=True, timeout=120)

    done = run(str(archive), "--receipt", receipts[1], "--receipt", receipts[3])
    assert done.returncode == 0, done.stderr + done.stdout
    assert "pub: the record holds" in done.stdout and "2 receipts checked" in done.stdout
    assert list(clean.iterdir()) == []  # nothing written: no database, no data directory
    doc = json.loads(archive.read_text())
    entry = next(e for e in doc["entries"] if e["kind"] == "orders-submitted"
                 and json.loads(e["payload"])["orders"] == ["A Par-Bur", "A Mar-Spa", "F Bre-Mao"])
    entry["payload"] = entry["payload"].replace("A Par-Bur", "A Par-Bus", 1)  # one byte
    archive.write_text(json.dumps(doc))
    done = run(str(archive))
    assert done.returncode == 1 and f"ledger entry {entry['seq']}" in done.stdout and "NOT hold" in done.stdout
    done = run(str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "no such file" in done.stderr


def test_one_byte_changed_in_any_order_of_the_archive_fails(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    _, receipts = played(gm)
    doc = gm.record.archive("pub")
    assert verify_archive(doc).ok
    orders = [i for i, e in enumerate(doc["entries"]) if e["kind"] == "orders-submitted" and "payload" in e]
    assert len(orders) >= 4
    for i in orders:
        payload = json.loads(doc["entries"][i]["payload"])
        for k, text in enumerate(payload["orders"]):
            bad = copy.deepcopy(doc)
            changed = dict(payload, orders=[*payload["orders"][:k], text[:-1] + chr(ord(text[-1]) ^ 1),
                                            *payload["orders"][k + 1:]])
            bad["entries"][i]["payload"] = json.dumps(changed, sort_keys=True, separators=(",", ":"))
            report = verify_archive(bad)
            assert not report.ok and any(p.startswith(f"ledger entry {doc['entries'][i]['seq']}") for p in report.problems)
    with pytest.raises(GMError, match="not a gamesmaster public record"):
        verify_archive({"format": "something else"})


def test_a_receipt_is_checked_by_anyone_once_its_phase_is_published(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, receipts = played(gm)
    first, second = receipts[0], receipts[1]
    assert gm.record.check_receipt("pub", second).status == "used"
    replaced = gm.record.check_receipt("pub", first)
    assert replaced.ok and replaced.status == "replaced" and "replaced by set #2" in replaced.message
    # an open phase: only England (and the GM) can look before the results are out
    open_one = receipts[-1]
    assert gm.record.check_receipt("pub", open_one).status == "not-yet-public"
    assert gm.record.check_receipt("pub", open_one, credential=cred["ENGLAND"]).status == "pending"
    assert gm.record.check_receipt("pub", open_one, credential=cred["FRANCE"]).status == "not-yet-public"
    forged = open_one[:-1] + ("0" if open_one[-1] != "0" else "1")
    assert gm.record.check_receipt("pub", forged, credential=cred["ENGLAND"]).status == "mismatch"
    assert gm.record.check_receipt("pub", "pub/S1901M/ENGLAND/9:" + "a" * 64).status == "missing"
    assert gm.record.check_receipt("pub", "nonsense").status == "unreadable"
    # The public archive stops at the last results: a receipt of the open phase is not checked there yet,
    # which is neither a pass nor a changed record; the store's whole ledger does check it.
    report = verify_archive(gm.record.archive("pub"), receipts=[second, open_one])
    assert report.ok and report.receipts_checked == 1
    assert [n.split(": not checked: ")[0] for n in report.notes] == [f"receipt {open_one}"]
    assert gm.record.verify("pub", receipts=[second, open_one]).receipts_checked == 2
    record = gm.record.phase_record("pub", "S1901M")
    kinds = [e.kind for e in record.entries]
    assert kinds.count("orders-submitted") == 4 and "phase-adjudicated" in kinds
    assert all(e.payload is not None for e in record.entries if e.kind == "orders-submitted")
    with pytest.raises(GMError, match="has not been published"):
        gm.record.phase_record("pub", "F1901M")


def test_a_twenty_year_game_verifies_from_its_archive_quickly_enough_to_be_checked_often(sqlite_store, clock):
    """The benchmark (bench/bench_verify.py) times a long game; here a short one just has to hold."""
    gm = Gamesmaster(sqlite_store, clock)
    played(gm)
    report = verify_archive(gm.record.archive("pub"))
    assert report.ok and report.phases_replayed == 1 and report.head == gm.games.game("pub").head


def test_the_cli_exports_the_public_record(sqlite_store, clock, tmp_path, monkeypatch, capsys):
    from gamesmaster.cli import main
    gm = Gamesmaster(sqlite_store, clock)
    played(gm)
    url = str(sqlite_store.engine.url)
    out = tmp_path / "rec.json"
    assert main(["export", "pub", str(out), "--public", "--db", url]) == 0
    doc = json.loads(Path(out).read_text())
    assert doc["format"] == "gamesmaster-public-record" and verify_archive(doc).ok
    assert main(["verify", "--archive", str(out), "--db", url]) == 0
    assert main(["verify", "pub", "--archive", str(out)]) == 2
    assert "not both" in capsys.readouterr().err


def test_what_england_is_told_of_its_own_open_phase_says_nothing_of_the_others(sqlite_store, clock):
    """Checking its own pending receipts, having orders refused or withdrawing them tell England no ledger entry
    numbers or hashes: the gaps between them would count the others' hidden letters and changes of mind."""
    gm = Gamesmaster(sqlite_store, clock)
    told = {}
    for game, chatter in (("quiet", False), ("busy", True)):
        cred, receipts = played(gm, game, chatter=chatter)
        if chatter:
            gm.press.post_press(game, "more", to=["ITALY"], credential=cred["FRANCE"])
        mine = [gm.record.check_receipt(game, r, credential=cred["ENGLAND"]) for r in receipts[-2:]]
        with pytest.raises(Refused) as refused:
            gm.orders.submit_orders(game, "ENGLAND", "F Eng H", credential=cred["ENGLAND"], phase="S1901M")
        withdrawn = gm.orders.withdraw_orders(game, "ENGLAND", credential=cred["ENGLAND"])
        told[game] = ([(c.status, c.message.split(":")[0], c.seq, c.entry_hash) for c in mine],
                      str(refused.value), refused.value.seq, withdrawn)
    assert [s for s, *_ in told["busy"][0]] == ["replaced", "pending"]
    assert told["quiet"] == told["busy"]


def test_the_commitments_everyone_sees_do_not_count_the_others_changes_of_mind(sqlite_store, clock):
    """The game page, the API's game and STATUS by mail show each power's current commitment, not how many sets
    it has sent: France changing its mind three times looks, to England, like France ordering once."""
    from gamesmaster.mail.texts import status
    from gamesmaster.web.site import summary
    gm = Gamesmaster(sqlite_store, clock)
    seen = {}
    for game, times in (("quiet", 1), ("busy", 3)):
        cred, _ = played(gm, game)
        for _ in range(times):
            gm.orders.submit_orders(game, "FRANCE", "A Bur-Mun", credential=cred["FRANCE"])
        view = gm.games.game(game)
        france = next(p for p in summary(view)["powers"] if p["power"] == "FRANCE")
        text = status(view, "ENGLAND", True).replace(view.power("FRANCE").commitment, "C")
        seen[game] = ({k: v for k, v in france.items() if k != "commitment"},
                      next(line for line in text.splitlines() if "France" in line and line.endswith(" C")))
    assert seen["quiet"] == seen["busy"]


def test_press_numbers_do_not_count_the_letters_between_others(sqlite_store, clock):
    """The public press, and a power's own, are numbered in what that reader may read: gaps in the game's own
    numbering would count the letters between other powers. The GM sees the game's numbering."""
    gm = Gamesmaster(sqlite_store, clock)
    seen = {}
    for game, letters in (("quiet", 0), ("busy", 2)):
        c = gm.setup.create_game(game, players=NAMES, assign=dict(zip(NAMES, POWERS)))
        cred = {p: c.credentials[n] for n, p in zip(NAMES, POWERS)}
        gm.press.post_press(game, "hello all", credential=cred["ITALY"])
        for _ in range(letters):
            gm.press.post_press(game, "secret", to=["GERMANY"], credential=cred["FRANCE"])
        sent = gm.press.post_press(game, "to England", to=["ENGLAND"], credential=cred["ITALY"])
        gm.press.post_press(game, "hello again", credential=cred["ITALY"])
        mine = gm.press.press(game, credential=cred["ENGLAND"])
        seen[game] = ([(p.number, p.text) for p in gm.press.public_press(game)], [(p.number, p.text) for p in mine], sent)
        assert [p.number for p in gm.press.press(game)] == list(range(1, 5 + letters))
    assert seen["quiet"] == seen["busy"]
    assert seen["busy"][0][1:] == [(2, "hello all"), (3, "hello again")] and seen["busy"][2] == 3
