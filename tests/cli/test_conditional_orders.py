"""Conditional orders through the GM's console: a year of them (retreats, moves, builds), refusals
when filed, never a stopped phase, and withdrawing them without civil disorder."""

from __future__ import annotations

import re

ASSIGN = "a=ENGLAND,b=FRANCE,c=GERMANY,d=ITALY,e=AUSTRIA,f=RUSSIA,g=TURKEY"


def _new(gm_cli) -> None:
    code, out, err = gm_cli("new", "club", "--players", "a,b,c,d,e,f,g", "--assign", ASSIGN)
    assert code == 0, err


def _verify(gm_cli) -> None:
    code, out, err = gm_cli("verify", "club")
    assert code == 0 and "the record holds" in out, out + err


def test_the_reported_set_is_refused_when_filed_and_nothing_stops(gm_cli):
    _new(gm_cli)
    code, out, _ = gm_cli("orders", "club", "germany", stdin="A Mun-Bur\nA Ber-Kie\n")
    assert code == 0
    bad = "A Mun-Bur\nnext season:\nif A Mun - Bur succeeds: A Bur - Par\nnext season:\nA Par H\n"
    code, out, err = gm_cli("orders", "club", "germany", stdin=bad)
    assert code != 0 and "'next season:' names Fall 1901 movement a second time" in err
    code, out, err = gm_cli("orders", "club", "germany",
                            stdin="A Mun-Bur\nnext season:\nA Par H\nif A Mun - Bur succeeds: A Bur - Par\n")
    assert code != 0 and "follows orders written straight under 'next season:'" in err
    code, out, _ = gm_cli("orders", "club", "germany", "--show")
    assert "A Ber-Kie" in out  # the set on record stands
    code, out, err = gm_cli("process", "club", "--now")
    assert code == 0 and "Spring 1901 movement adjudicated" in out, err
    _verify(gm_cli)


def test_a_year_of_conditional_orders(gm_cli):
    """Germany files its builds with its spring orders; France its fall retreat with its fall orders."""
    _new(gm_cli)
    germany = ("A Mun-Ruh\nA Ber-Mun\nF Kie-Hol\n"
               "adjustments:\n"
               "if Hol changes hands and A Mun - Ruh succeeds: A Ber B\n"
               "otherwise: F Kie B\n")
    code, out, err = gm_cli("orders", "club", "germany", stdin=germany)
    assert code == 0 and "Winter 1901 adjustments, if Hol changes hands and A Mun - Ruh succeeds: A Ber B" in out, err
    gm_cli("orders", "club", "france", stdin="A Par-Bur\nA Mar H\nF Bre H\n")
    code, out, err = gm_cli("process", "club", "--now")
    assert "Next: Fall 1901 movement" in out, err
    gm_cli("orders", "club", "germany", stdin="A Ruh-Bur\nA Mun S A Ruh-Bur\nF Hol H\n")
    france = ("A Bur H\nA Mar H\nF Bre H\n"
              "retreats:\n"
              "if A Bur is dislodged: A Bur R Pic\n"
              "Winter 1901:\n"
              "if Bur is owned by Germany: waive\n")
    code, out, err = gm_cli("orders", "club", "france", stdin=france)
    assert code != 0 and "'Bur' is no supply centre" in err  # read when filed, refused when filed
    france = france.replace("if Bur is owned by Germany: waive", "if Bel does not change hands: waive")
    code, out, err = gm_cli("orders", "club", "france", stdin=france)
    assert code == 0, err
    # Every power with something to order has orders once the retreats and the builds open (the
    # conditional ones): those phases are processed at once, one after the other.
    code, out, err = gm_cli("process", "club", "--now")
    assert "A BUR H fails (dislodged" in out, out + err
    assert "Fall 1901 retreats adjudicated" in out and "FRANCE: A BUR R PIC succeeds" in out
    assert "Winter 1901 adjustments adjudicated" in out and "GERMANY: A BER B succeeds" in out
    code, out, _ = gm_cli("history", "club")
    assert "A BER B" in out
    code, out, _ = gm_cli("press", "club", "--list", "--as", "france")
    assert "Your conditional orders filed in Fall 1901 movement apply to Fall 1901 retreats" in out
    assert "France has nothing to order in Winter 1901 adjustments" in out
    _verify(gm_cli)


def test_orders_for_a_phase_that_never_comes_lapse(gm_cli):
    _new(gm_cli)
    code, out, err = gm_cli("orders", "club", "germany",
                            stdin="A Mun H\nretreats:\nif A Mun is dislodged: A Mun R Boh\nnext season:\notherwise: A Mun-Sil\n")
    assert code == 0, err
    code, out, err = gm_cli("process", "club", "--now")
    assert "Next: Fall 1901 movement" in out, err
    code, out, _ = gm_cli("orders", "club", "germany", "--show")
    assert "A Mun-Sil" in out
    code, out, _ = gm_cli("history", "club", "--ledger")
    assert "conditional-chosen" in out
    _verify(gm_cli)


def test_withdrawing_conditional_orders_is_not_civil_disorder(gm_cli):
    _new(gm_cli)
    gm_cli("orders", "club", "germany", stdin="A Mun-Bur\nnext season:\nif A Mun - Bur succeeds: A Bur - Par\n")
    gm_cli("process", "club", "--now")
    code, out, _ = gm_cli("orders", "club", "germany", "--show")
    assert "A Bur - Par" in out
    code, out, err = gm_cli("orders", "club", "germany", "--withdraw")
    assert code == 0, err
    code, out, _ = gm_cli("orders", "club", "germany", "--show")
    assert "conditional" not in out
    code, out, err = gm_cli("process", "club", "--now")
    line = next(x for x in out.splitlines() if "civil disorder:" in x)
    assert "Germany" not in line and "France" in line
    _verify(gm_cli)


def test_an_unreadable_filing_never_stops_the_phase(gm_cli, monkeypatch):
    """Conditional orders on record that no longer read (say, filed under an older reading): at the
    deadline the phase is adjudicated with the power's plain orders, and the player is told."""
    _new(gm_cli)
    import gamesmaster.gm.submissions as submissions
    from gamesmaster.rules.conditional import read_sections
    monkeypatch.setattr(submissions, "read_sections", lambda text, position, options: ())
    code, out, err = gm_cli("orders", "club", "germany",
                            stdin="A Mun-Bur\nnext season:\nA Par H\nif A Mun - Bur succeeds: A Bur - Par\n")
    assert code == 0, err
    monkeypatch.setattr(submissions, "read_sections", read_sections)
    code, out, err = gm_cli("process", "club", "--now")
    assert code == 0 and "A MUN - BUR succeeds" in out and "Next: Fall 1901 movement" in out, err
    code, out, _ = gm_cli("press", "club", "--list", "--as", "germany")
    assert re.search(r"Your conditional orders could not be used \(conditional orders: 'if A Mun - Bur succeeds: A Bur - Par' follows", out)
    _verify(gm_cli)


def test_export_public_seals_a_plan_and_verify_archive_passes_before_and_after(gm_cli, tmp_path):
    """`export --public` leaves out Germany's plan for Fall 1901 while Fall is open, shows it once Fall is
    published; `verify --archive` passes on both files."""
    _new(gm_cli)
    code, out, err = gm_cli("orders", "club", "germany",
                            stdin="A Mun-Bur\nnext season:\nif A Mun - Bur succeeds:\nA Bur - Par\notherwise:\nA Mun H\n")
    assert code == 0, err
    gm_cli("process", "club", "--now")
    for name, shown in (("before.json", False), ("after.json", True)):
        path = tmp_path / name
        code, out, err = gm_cli("export", "club", str(path), "--public")
        assert code == 0, err
        text = path.read_text()
        assert ("if A Mun - Bur succeeds" in text) is shown and ("A Bur - Par" in text) is shown
        code, out, err = gm_cli("verify", "--archive", str(path))
        assert code == 0 and "the record holds" in out, out + err
        gm_cli("process", "club", "--now")
