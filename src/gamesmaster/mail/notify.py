"""Mail that goes out because something happened in a game: results, press, reminders.

The gm layer has no hooks, and needs none: the `Dispatcher` reads each game's ledger
after a per-game cursor (gm_mail_cursor). A `phase-adjudicated` or `correction` entry
mails the results to every player with an address; a `press` entry (a letter, a public
release or a GM notice) mails it to those who may read it. In one transaction the
cursor moves and the mails go into the outbox, so nothing is mailed twice or lost, even
with several dispatchers or a crash between the two. Reminders go to powers that have
not ordered `reminder_hours` before the deadline, once per power and phase.

A game the dispatcher has never seen starts at its current ledger head: a GM turning
the mail door on for an old game does not mail its players the whole history.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Mapping
from urllib.parse import quote

from ..gm import (GM, AccountRecord, Gamesmaster, GameHead, GameView, NoticeRecord, PhaseResult, PressItem, Seat,
                  show_time)
from . import headers, texts
from .config import MailConfig
from .outbox import Attachment, compose, queue

log = logging.getLogger(__name__)


class _Conflict(Exception):
    """Another dispatcher moved the cursor first."""


@dataclass
class _Mail:
    to: str
    subject: str
    body: str
    kind: str
    key: str
    attachments: tuple[Attachment, ...] = ()
    idstring: str | None = None  # for the Message-ID (mail.headers.results_idstring)


def _digests(mails: list[_Mail]) -> list[_Mail]:
    """At most one mail to each address from one pass: several together become one digest, the first (the results,
    where there are any) leading, its subject saying how many more things it holds."""
    by_address: dict[str, list[_Mail]] = {}
    for m in mails:
        by_address.setdefault(m.to.lower(), []).append(m)
    out = []
    for group in by_address.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        group.sort(key=lambda m: m.kind != "results")
        lead = group[0]
        rest = group[1:]
        body = lead.body + "".join(f"\n{'=' * 72}\n{m.subject}\n\n{m.body}" for m in rest)
        subject = f"{lead.subject} (and {len(rest)} more: {', '.join(_what(m) for m in rest)})"
        out.append(_Mail(lead.to, subject, body, "digest" if lead.kind != "results" else "results",
                         "+".join(m.key for m in group)[:250], tuple(a for m in group for a in m.attachments),
                         lead.idstring))
    return out


def _powers(seat: Seat) -> str:
    return "/".join(texts.cap(p) for p in seat.acts_for()) or "no power yet"


def _what(m: _Mail) -> str:
    return {"press": "a letter", "notice": "a notice", "reminder": "a reminder", "results": "results",
            "question": "a question"}.get(m.kind, m.kind)


class Dispatcher:
    """One pass mails whatever happened since the last: results, press, reminders."""

    def __init__(self, gm: Gamesmaster, config: MailConfig) -> None:
        self.gm = gm
        self.config = config

    def run_once(self) -> dict[str, int]:
        """One pass over every game, then the notifications of players with accounts."""
        counts = {"results": 0, "press": 0, "reminders": 0, "accounts": 0}
        for head in self.gm.games.heads():
            try:
                for k, v in self._game(head).items():
                    counts[k] += v
            except _Conflict:
                continue
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others' mail
                log.exception("mail for game %s: this pass failed; it is tried again at the next", head.id)
        try:
            self.gm.notices.notify()
            counts["accounts"] = self._accounts()
        except Exception:  # noqa: BLE001 - tried again at the next pass
            log.exception("players' notifications: this pass failed; it is tried again at the next")
        return counts

    # -- players with accounts ----------------------------------------------------------------------

    def _accounts(self) -> int:
        """Mail the notifications marked for mail (sign-in links, invitations, and what each player chose): what
        one pass finds for one account in one game goes as one mail, a digest where there are several."""
        mailroom = self.gm.mailroom
        with mailroom.open(write=False) as books:
            waiting = books.notices_to_mail()
        groups: dict[tuple[int, str | None, int], list[NoticeRecord]] = {}
        for n in waiting:
            alone = n.kind in ("sign-in", "invitation") or n.game_id is None
            groups.setdefault((n.account_id, n.game_id, n.id if alone else 0), []).append(n)
        sent = 0
        for (account_id, game, _), notices in groups.items():
            with mailroom.open(write=False) as books:
                account = books.account(account_id)
            if account is None:
                continue
            parts = []
            for n in notices:
                if n.kind in ("results", "press", "vote") and self._mailed_as_contact(n.game_id, account):
                    with mailroom.open() as books:  # the seat's mail contact is this address: mailed already (a
                        books.notice_mailed(n.id)   # vote with the GM's notice of the proposal)
                    continue
                parts.append((n, *self._notice_mail(n, account)))
            if not parts:
                continue
            parts.sort(key=lambda p: p[0].kind != "results")  # the results lead a digest
            now = self.gm.desk.now()
            with mailroom.open() as books:
                taken = [p for p in parts
                         if books.notice_mailed(p[0].id, forget_text=p[0].kind in ("sign-in", "invitation"))]
                if not taken:
                    continue  # another dispatcher has them
                lead, subject, body, attachments = taken[0]
                if len(taken) > 1:
                    rest = taken[1:]
                    subject += f" (and {len(rest)} more)"
                    bodies = [b.split("\n-- \n", 1)[0] for _, _, b, _ in taken]  # one signature, at the end
                    body = bodies[0] + "".join(f"\n{'=' * 72}\n{p[1]}\n\n{b}" for p, b in zip(rest, bodies[1:]))
                    body += "\n-- \n" + taken[-1][2].split("\n-- \n", 1)[-1]
                    attachments = tuple(a for p in taken for a in p[3])
                msg = compose(self.config, [account.email], subject, body, now=now, attachments=attachments, game=game)
                queue(books, self.config, msg, kind=lead.kind if len(taken) == 1 else "digest", now=now, game=game,
                      key=f"account:{lead.id}")
            sent += 1
        return sent

    def _mailed_as_contact(self, game: str | None, account: AccountRecord) -> bool:
        """Whether the account's seat in a game has this same address as its mail contact (mailed by _game)."""
        seat = self.gm.joining.seat_of(game, account.ref) if game else None
        if game is None or seat is None:
            return False
        with self.gm.mailroom.open(write=False) as books:
            contact = books.contacts(game).get(seat.number)
        return contact is not None and contact.address.lower() == account.email

    def _notice_mail(self, n: NoticeRecord, account: AccountRecord) -> tuple[str, str, tuple[Attachment, ...]]:
        link = f"{self.config.site_url}{n.url}" if self.config.site_url and n.url else None
        footer = ("\n-- \nThe gamesmaster. Choose what comes by mail on the site"
                  + (f": {self.config.site_url}/account" if self.config.site_url else "") + ".\n")
        if n.kind == "results" and n.game_id and n.seq is not None:
            game = n.game_id
            row = self.gm.games.changes(game, n.seq - 1).phases.get(n.seq)
            if row is not None:
                st = self.gm.games.game(game)
                seat = self.gm.joining.seat_of(game, account.ref)
                mine = seat.acts_for() if seat is not None else ()
                ended = st.result if st.result is not None and st.result.phase == str(row.phase) else None
                body = texts.results(game, st.title, row, st.settings.schedule.tz, mine,
                                     str(st.phase) if st.phase else None, st.deadline_text, ended, st.head)
                said = n.text.split("\n\nFrom the gamesmaster:\n", 1)  # the notices that came with them
                if len(said) == 2:
                    body += "\nNotices from the gamesmaster:\n\n" + said[1] + "\n"
                maps = self._maps(row) if self.config.maps else ()
                if not maps and self.config.maps:
                    body += "\n(The map could not be drawn for this mail.)\n"
                return n.subject, body + (f"\nOn the site: {link}\n" if link else "") + footer, maps
        if n.kind in ("sign-in", "invitation"):
            return n.subject, n.text, ()
        return n.subject, n.text + "\n" + (f"\n{link}\n" if link else "") + footer, ()

    def _game(self, head: GameHead) -> dict[str, int]:
        counts = {"results": 0, "press": 0, "reminders": 0}
        game = head.id
        now = self.gm.desk.now()
        with self.gm.mailroom.open(write=False) as books:
            cur = books.cursor(game)
        if cur is None:
            with self.gm.mailroom.open() as books:
                books.move_cursor(game, None, head.head_seq, {}, now)
            return counts
        old_seq, reminded = cur.ledger_seq, dict(cur.reminded)
        deadline = head.deadline
        window = (head.status == "active" and deadline is not None and self.config.reminder_hours > 0
                  and deadline - timedelta(hours=self.config.reminder_hours) <= now < deadline)
        if head.head_seq <= old_seq and not window:
            return counts  # nothing new, and no reminder due: no need to look further
        mails: list[_Mail] = []
        news = self.gm.games.changes(game, old_seq)
        st = news.game
        with self.gm.mailroom.open(write=False) as books:
            contacts = books.contacts(game)
        readers = [(p, contacts[p.number].address) for p in st.players() if p.number in contacts]
        tz = st.settings.schedule.tz
        notices: dict[int, list[tuple[int, str]]] = {}  # player number -> GM notices of this pass (seq, text)
        opened = False  # a phase opened in this pass: the results (or the game's start) say its deadline
        asked: list[PressItem] = []  # questions to the GM in this pass: one mail tells the GM of them all
        results: dict[int, _Mail] = {}  # player number -> the last results mail of this pass
        for seq, kind in news.entries:
            opened = opened or kind in ("phase-adjudicated", "game-started")
            if kind in ("phase-adjudicated", "correction") and seq in news.phases:
                for number, m in self._results(game, st, news.phases[seq], readers, tz):
                    mails.append(m)
                    results[number] = m
                counts["results"] += 1
            elif kind == "press" and seq in news.press:
                item = news.press[seq]
                if item.sender != GM and item.to == (GM,):
                    asked.append(item)
                for number, m in self._press(game, st, item, readers, tz):
                    if item.sender == GM:
                        notices.setdefault(number, []).append((seq, item.text))
                    else:
                        mails.append(m)
                counts["press"] += 1
        mails.extend(self._gm_decision(game, st, news.entries))
        addresses = {p.number: a for p, a in readers}
        seats = {p.number: p for p, _ in readers}
        started = any(kind == "game-started" for _, kind in news.entries)
        for number, items in notices.items():
            text = "\n\n".join(f"{x}" for _, x in items)
            if number in results:  # the notices of an adjudication go with its results
                results[number].body += "\nNotices from the gamesmaster:\n\n" + text + "\n"
                continue
            subject = (f"{game}: notice from the gamesmaster" if len(items) == 1
                       else f"{game}: {len(items)} notices from the gamesmaster")
            body = f"{st.title} ({game}): from the gamesmaster\n\n{text}\n"
            seat = seats.get(number)
            if started and seat is not None:  # the game begins: whose power, and where to send the orders
                subject = f"{game}: the game begins; you play {_powers(seat)}"
                body = f"{st.title} ({game}): the game begins\n\n{self._welcome(game, st, seat)}\n\n{text}\n"
            mails.append(_Mail(addresses[number], subject, body, "notice",
                               f"notice:{game}:{items[0][0]}-{items[-1][0]}:{number}"))
        if asked and self.config.gm_email:
            mails.append(self._questions_to_gm(game, st, asked))
        # A player whose site account holds the seat at this same address has the warnings chosen there instead
        held = self.gm.notices.seat_addresses(game)
        own = [(p, a) for p, a in readers if held.get(p.number, "").lower() != a.lower()]
        new_reminded, reminders = self._reminders(game, st, own, reminded, now)
        if opened:
            reminders = []  # the reminder time had passed when the phase opened: the results just gave the deadline
        mails.extend(reminders)
        mails = _digests(mails)
        counts["reminders"] = len(reminders)
        new_seq = news.entries[-1][0] if news.entries else old_seq
        if new_seq == old_seq and new_reminded == reminded:
            return counts
        with self.gm.mailroom.open() as books:
            if not books.move_cursor(game, old_seq, new_seq, new_reminded, now):
                raise _Conflict(game)
            for m in mails:
                msg = compose(self.config, [m.to], m.subject, m.body, now=now, attachments=m.attachments, game=game,
                              idstring=m.idstring)
                queue(books, self.config, msg, kind=m.kind, now=now, game=game, key=m.key)
        if mails:
            log.info("game %s: %d mails queued (ledger %d-%d)", game, len(mails), old_seq + 1, new_seq)
        return counts

    def _gm_decision(self, game: str, st: GameView, entries: tuple[tuple[int, str], ...]) -> list[_Mail]:
        """The GM told, at the GM's own address, that the game waits for a decision (once: the entry that said so)."""
        waiting = st.awaiting
        if waiting is None or not self.config.gm_email or not any(seq == waiting.seq for seq, _ in entries):
            return []
        body = f"{st.title} ({game}): for the gamesmaster\n\n{waiting.text}\n"
        return [_Mail(self.config.gm_email, f"{game}: {waiting.phase.title} waits for your decision", body,
                      "gm-decision", f"gm-decision:{game}:{waiting.seq}")]

    # -- results -------------------------------------------------------------------------------

    def _results(self, game: str, st: GameView, row: PhaseResult, readers: list[tuple[Seat, str]],
                 tz: str) -> list[tuple[int, _Mail]]:
        if not readers:
            return []
        ended = st.result if st.result is not None and st.result.phase == str(row.phase) else None
        maps = self._maps(row) if self.config.maps else ()
        out = []
        what = "corrected results" if row.revision else "results"
        for player, address in readers:
            body = texts.results(game, st.title, row, tz, player.acts_for(), str(st.phase) if st.phase else None, st.deadline_text,
                                 ended, st.head)
            if not maps and self.config.maps:
                body += "\n(The map could not be drawn for this mail.)\n"
            out.append((player.number, _Mail(address, f"{game}: {what} of {row.title}", body, "results",
                                             f"results:{game}:{row.seq}:{player.number}", maps,
                                             headers.results_idstring(game, row.seq))))
        return out

    def _maps(self, row: PhaseResult) -> tuple[Attachment, ...]:
        """The board with the orders and their results, and the position after it, as PNG (if they can be
        drawn): the gm's boards of those seasons, the same drawings as the site's maps of them."""
        try:
            phase, nxt = str(row.phase), str(row.next.phase)
            first = self.gm.boards.board(row.game, phase).png()
            second = self.gm.boards.board_after(row.game, phase).png()
            return (Attachment(f"{phase}-results.png", first), Attachment(f"{nxt}-position.png", second))
        except Exception as exc:  # noqa: BLE001 - a map that cannot be drawn must not hold up the results
            log.warning("the map of %s could not be drawn: %s", row.phase, exc)
            return ()

    # -- press ----------------------------------------------------------------------------------

    def _press(self, game: str, st: GameView, p: PressItem, readers: list[tuple[Seat, str]],
               tz: str) -> list[tuple[int, _Mail]]:
        sender = p.sender
        to = p.to
        shown = replace(p, sender="anonymous" if p.anonymous else sender)
        out = []
        for player, address in readers:
            mine = player.acts_for()
            if sender != GM and sender in mine:
                continue  # the sender had the answer to the mail that sent it
            if to is not None and not set(mine) & set(to):
                continue
            subject = (f"{game}: notice from the gamesmaster" if sender == GM else
                       f"{game}: press from {texts.cap(shown.sender)}" + (" to you" if to else " to everyone"))
            out.append((player.number, _Mail(address, subject, texts.press_letter(game, st.title, shown, tz), "press",
                                             f"press:{game}:{p.seq}:{player.number}")))
        return out

    def _welcome(self, game: str, st: GameView, seat: Seat) -> str:
        """What a player needs when the game begins: the power, the deadline, the address for orders, the war room."""
        powers = seat.acts_for()
        lines = [f"{seat.name}, you play {_powers(seat)}. {st.phase_title}: orders due {st.deadline_text}.",
                 f"Send your orders to {self.config.game_address(game)}, one a line after your sign-on:",
                 f"  SIGNON {game} {texts.cap(powers[0]) if powers else 'POWER'} YOUR-CREDENTIAL"]
        if self.config.site_url:
            lines.append(f"or give them in your war room: {self.config.site_url}/games/{quote(game)}/war-room")
        return "\n".join(lines)

    def _questions_to_gm(self, game: str, st: GameView, asked: list[PressItem]) -> _Mail:
        """One mail telling the GM of the questions asked since the last pass, with how to answer each."""
        numbers = {(q.power, q.asked_at, q.text): q.number for q in self.gm.questions.questions(game)}
        parts = []
        for item in asked:
            n = numbers.get((item.sender, item.sent_at, item.text))
            label = f"Question {n}" if n else "A question"
            parts.append(f"{label} from {texts.cap(item.sender)}, {show_time(item.sent_at, st.settings.schedule.tz)}:\n"
                         + "\n".join(f"> {line}" for line in item.text.splitlines()))
        first = numbers.get((asked[0].sender, asked[0].sent_at, asked[0].text)) or "N"
        how = ["To answer (privately; add PUBLIC, or --public, to answer everyone without naming the asker):",
               f"  at the console: gamesmaster question {game} --answer {first} 'your answer'"]
        if self.config.site_url:
            how.append(f"  on the site: {self.config.site_url}/gm/games/{game}#questions")
        if self.config.gm_credential_hash:
            how.append(f"  by mail to {self.config.game_address(game)}: SIGNON GM YOUR-GM-CREDENTIAL, then "
                       f"ANSWER {first}, the answer, END")
        subject = (f"{game}: a question for the gamesmaster from {texts.cap(asked[0].sender)}" if len(asked) == 1
                   else f"{game}: {len(asked)} questions for the gamesmaster")
        body = f"{st.title} ({game}): waiting for your answer\n\n" + "\n\n".join(parts) + "\n\n" + "\n".join(how) + "\n"
        return _Mail(self.config.gm_email or "", subject, body, "question",
                     f"question:{game}:{asked[0].seq}-{asked[-1].seq}")

    # -- reminders -------------------------------------------------------------------------------

    def _reminders(self, game: str, st: GameView, readers: list[tuple[Seat, str]], reminded: Mapping[str, tuple[str, ...]],
                   now: datetime) -> tuple[dict[str, tuple[str, ...]], list[_Mail]]:
        hours = self.config.reminder_hours
        deadline = st.deadline
        phase = str(st.phase) if st.phase else None
        if st.status != "active" or not hours or deadline is None or not phase:
            return ({phase: reminded[phase]} if phase is not None and phase in reminded else {}), []
        done = list(reminded.get(phase, ()))
        if not (deadline - timedelta(hours=hours) <= now < deadline):
            return ({phase: tuple(done)} if done else {}), []
        out = []
        missing = [p.power for p in st.powers if p.to_order and not p.ordered and not p.standby_ordered]
        for power in missing:
            if power in done:
                continue
            done.append(power)
            for player, address in readers:
                if power not in player.acts_for():
                    continue
                hours_left = (deadline - now).total_seconds() / 3600
                body = (f"{st.title} ({game}): no orders from {texts.cap(power)} yet for {st.phase_title}.\n\n"
                        f"Orders are due {st.deadline_text} ({hours_left:.0f} hours from now; "
                        f"{show_time(now, st.settings.schedule.tz)} as this is written). Send them to "
                        f"{self.config.game_address(game)}:\n\n"
                        f"SIGNON {game} {texts.cap(power)} YOUR-CREDENTIAL\nA ...\nF ...\n\n"
                        "A power that sends nothing is in civil disorder: its units hold.\n")
                out.append(_Mail(address, f"{game}: reminder: orders for {texts.cap(power)} due {st.deadline_text}",
                                 body, "reminder", f"reminder:{game}:{phase}:{power}:{player.number}"))
        return {phase: tuple(done)}, out
