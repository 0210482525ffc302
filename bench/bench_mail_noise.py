"""Mails per player over a five-phase, seven-player game (issue 22: "107 mails for 7 players over 5 phases").

A benchmark, not a test: it counts what the mail door would send, by kind, and prints it. Every player
plays by mail (a mail contact) and also has a site account holding the seat, with the default notification
settings (everything by mail; warnings 24 and 2 hours before the deadline): the club of the issue. The
clock moves an hour at a time, the dispatcher making a pass each hour; four players order early, three
only in the last hours; each phase has two letters; Italy proposes a draw in the second phase and the
others vote. Answers to the players' own mails are counted apart (every mail is answered, by design).

    .venv/bin/python bench/bench_mail_noise.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from datetime import timedelta
from pathlib import Path

from gamesmaster.gm import Gamesmaster
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.notify import Dispatcher
from gamesmaster.store import Store
from gamesmaster.store.accounts import AccountRecords
from gamesmaster.store.testing import FakeClock

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
LATE = {"RUSSIA", "TURKEY", "AUSTRIA"}  # they order in the last hours, after the reminders
# France and Germany take two centres each in 1901, so that the winter is a 24-hour phase with builds to order
ORDERS = {("FRANCE", "S1901M"): "A Par-Bur\nA Mar-Spa\nF Bre-Mao", ("FRANCE", "F1901M"): "F Mao-Por\nA Spa H",
          ("FRANCE", "W1901A"): "Build A Par\nBuild F Bre",
          ("GERMANY", "S1901M"): "A Mun-Ruh\nF Kie-Den\nA Ber-Kie", ("GERMANY", "F1901M"): "A Ruh-Hol",
          ("GERMANY", "W1901A"): "Build A Mun\nBuild A Ber"}


def address(name: str) -> str:
    return f"{name.lower()}@players.test"


def run(phases: int = 5) -> dict[str, object]:
    """Play the game; the mails the outbox holds for the players, by kind."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'gm.db'}")
        clock = FakeClock()
        gm = Gamesmaster(store, clock)
        config = MailConfig(address="gm@club.test", site_url="https://club.test")
        door = Dispatcher(gm, config)
        created = gm.setup.create_game("club", title="Club game", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                                 start=False)
        cred = {p: created.credentials[n] for n, p in zip(NAMES, POWERS)}
        door.run_once()  # the mail door knows the game from here on
        for name, power in zip(NAMES, POWERS):
            gm.accounts.sign_up(address(name), name, config.site_url or "")
            with gm.desk.reading() as rec:
                account = AccountRecords(rec.conn).by_email(address(name)).id
            gm.joining.claim_seat("club", cred[power], account)
            with gm.mailroom.open() as books:
                number = gm.orders.identify("club", cred[power]).number
                books.set_contact("club", number, address(name), clock(), "mail")
        door.run_once()
        with gm.mailroom.open() as books:
            before = {m.id for m in books.outbox(None, 100000)}
        gm.setup.assign_powers("club", dict(zip(NAMES, POWERS)))
        done = 0
        hours = 0
        while done < phases and hours < 24 * 40:
            view = gm.games.game("club")
            phase = str(view.phase)
            opened = clock()
            deadline = view.deadline
            sent_press = False
            proposal = 0
            while str(gm.games.game("club").phase) == phase and gm.games.game("club").status == "active":
                clock.advance(hours=1)
                hours += 1
                now = clock()
                view = gm.games.game("club")
                for p in view.powers:
                    if not p.to_order or p.ordered:
                        continue
                    early = p.power not in LATE and now - opened >= timedelta(hours=1)
                    late = p.power in LATE and deadline - now <= timedelta(hours=1)
                    if early or late:
                        gm.orders.submit_orders("club", p.power, ORDERS.get((p.power, phase), ""), credential=cred[p.power],
                                         channel="mail")
                if not sent_press and now - opened >= timedelta(hours=3):
                    gm.press.post_press("club", "Shall we talk?", power="FRANCE", to=["GERMANY"], credential=cred["FRANCE"])
                    gm.press.post_press("club", "Peace in our time.", power="ENGLAND", credential=cred["ENGLAND"])
                    if done == 1:
                        proposal = gm.press.propose("club", kind="draw", power="ITALY", credential=cred["ITALY"])
                    sent_press = True
                if done == 1 and now - opened == timedelta(hours=12):  # the votes come in later
                    for p in POWERS:
                        if p != "ITALY":
                            gm.press.vote("club", proposal, p != "TURKEY", power=p, credential=cred[p])
                gm.deadlines.process_due()
                door.run_once()
            done += 1
        with gm.mailroom.open() as books:
            rows = [m for m in books.outbox(None, 100000) if m.id not in before]
        store.dispose()
    players = {address(n) for n in NAMES}
    by_kind: Counter[str] = Counter()
    by_player: Counter[str] = Counter()
    same_second: Counter[tuple[str, object]] = Counter()
    for m in rows:
        for r in m.recipients:
            if r in players:
                by_kind[m.kind] += 1
                by_player[r] += 1
                same_second[(r, m.created_at)] += 1
    total = sum(by_player.values())
    return {"phases": done, "players": len(NAMES), "mails": total, "per_player": round(total / len(NAMES), 1),
            "per_player_per_phase": round(total / len(NAMES) / max(done, 1), 2), "by_kind": dict(by_kind),
            "most_at_once": max(same_second.values(), default=0)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    got = run()
    if args.json:
        print(json.dumps(got))
    else:
        print(f"{got['mails']} mails to {got['players']} players over {got['phases']} phases: "
              f"{got['per_player']} each ({got['per_player_per_phase']} a phase); "
              f"at most {got['most_at_once']} to one player in one pass")
        for kind, n in sorted(got["by_kind"].items(), key=lambda kv: -kv[1]):
            print(f"  {kind:12} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
