"""Mail that goes out because something happened in a game: results, press, reminders.

What to mail, and to whom, is decided by gm's mail channel (gamesmaster.gm.mailing) in the
one pass over each game's news (`gm.notices.notify`), after the game's one cursor: each
decision is kept in the transaction that moves the cursor, so nothing is mailed twice or
lost, even with several dispatchers or a crash between the two. The `Dispatcher` runs that
pass, then renders what was decided (texts, maps, the addresses to write back to) and
queues it in the outbox, in one transaction with marking it rendered; what one pass decided
for one address goes as one mail (a digest). It mails the notifications players with
accounts chose to have by mail in the same way.

A game the pass has never seen starts at its current ledger head: a GM turning the mail
door on for an old game does not mail its players the whole history.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, replace
from typing import Mapping
from urllib.parse import quote

from ..gm import (MAIL_KEY_CHARS, AccountRecord, Gamesmaster, GameView, MailDeliveryRecord, MailKind, NoticeRecord, PhaseResult,
                  PressItem, Seat, show_time)
from . import headers, texts
from .config import MailConfig
from .outbox import Attachment, compose, queue

log = logging.getLogger(__name__)

DUE_LIMIT = 2000  # decided mails rendered in one pass at most (the rest at the next)


class _Conflict(Exception):
    """Another dispatcher rendered the mail first."""


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
                         _digest_key([m.key for m in group]), tuple(a for m in group for a in m.attachments),
                         lead.idstring))
    return out


def _digest_key(keys: list[str]) -> str:
    """A digest's outbox key: its mails' keys joined, or, past what the outbox keeps, the start of them and a hash of
    them all (cut short instead, it was too long for PostgreSQL's column, and two long digests alike at the start
    would have shared a key: the second, taken for queued already, was never sent)."""
    joined = "+".join(keys)
    if len(joined) <= MAIL_KEY_CHARS:
        return joined
    tag = "#" + hashlib.sha256(joined.encode()).hexdigest()
    return joined[:MAIL_KEY_CHARS - len(tag)] + tag


def _powers(seat: Seat) -> str:
    return "/".join(texts.cap(p) for p in seat.acts_for()) or "no power yet"


def _what(m: _Mail) -> str:
    return {"press": "a letter", "notice": "a notice", "reminder": "a reminder", "results": "results",
            "question": "a question"}.get(m.kind, m.kind)


@dataclass(frozen=True)
class _Pass:
    """What the mail of one pass over one game is rendered from: the game now, and what the pass's entries published."""

    game: GameView
    phases: Mapping[int, PhaseResult]
    press: Mapping[int, PressItem]
    seats: Mapping[int, Seat]


class Dispatcher:
    """One pass mails whatever happened since the last: results, press, reminders."""

    def __init__(self, gm: Gamesmaster, config: MailConfig) -> None:
        self.gm = gm
        self.config = config
        gm.notices.mail_by(config)  # gm's mail channel decides by the door's reminder time and the GM's address

    def run_once(self) -> dict[str, int]:
        """One pass over every game (gm decides what to mail), then the mail decided rendered and queued, then the
        notifications of players with accounts."""
        counts = {"results": 0, "press": 0, "reminders": 0, "accounts": 0}
        try:
            self.gm.notices.notify()
        except Exception:  # noqa: BLE001 - tried again at the next pass
            log.exception("the pass over the games' news failed; it is tried again at the next")
        with self.gm.mailroom.open(write=False) as books:
            due = books.mail_due(DUE_LIMIT)
        batches: dict[tuple[str, str], list[MailDeliveryRecord]] = {}
        for d in due:
            batches.setdefault((d.game_id, d.batch), []).append(d)
        if len(due) == DUE_LIMIT and len(batches) > 1:
            batches.pop((due[-1].game_id, due[-1].batch))  # it may go on past the limit: all of it at the next pass
        for (game, _), decided in batches.items():
            try:
                for k, v in self._render(game, decided).items():
                    counts[k] += v
            except _Conflict:
                continue
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others' mail
                log.exception("mail for game %s: this pass failed; it is tried again at the next", game)
        try:
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
            parts = [(n, *self._notice_mail(n, account)) for n in notices]
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

    def _notice_mail(self, n: NoticeRecord, account: AccountRecord) -> tuple[str, str, tuple[Attachment, ...]]:
        link = f"{self.config.site_url}{n.url}" if self.config.site_url and n.url else None
        footer = ("\n-- \nThe gamesmaster. Choose what comes by mail on the site"
                  + (f": {self.config.site_url}/account" if self.config.site_url else "") + ".\n")
        if n.kind == "results" and n.game_id and n.seq is not None:
            game = n.game_id
            row = self.gm.games.changes(game, n.seq - 1).phases.get(n.seq)
            if row is not None:
                seat = self.gm.joining.seat_of(game, account.ref)
                said = n.text.split("\n\nFrom the gamesmaster:\n", 1)  # the notices that came with them
                body, maps = self._results_body(self.gm.games.game(game), row, seat, said[1:], {})
                return n.subject, body + (f"\nOn the site: {link}\n" if link else "") + footer, maps
        if n.kind in ("sign-in", "invitation"):
            return n.subject, n.text, ()
        return n.subject, n.text + "\n" + (f"\n{link}\n" if link else "") + footer, ()

    # -- the mail gm's mail channel decided on -----------------------------------------------------

    def _render(self, game: str, decided: list[MailDeliveryRecord]) -> dict[str, int]:
        """Render the mail one pass decided for a game and queue it, marked rendered in the same transaction."""
        seqs = [s for d in decided for s in d.seqs]
        if seqs:
            changes = self.gm.games.changes(game, min(seqs) - 1)
            st, phases, press = changes.game, changes.phases, changes.press
        else:
            st, phases, press = self.gm.games.game(game), {}, {}
        told = _Pass(st, phases, press, {p.number: p for p in st.players()})
        maps: dict[int, tuple[Attachment, ...]] = {}  # by results entry: drawn once for every reader
        mails = [m for d in decided if (m := self._mail(d, told, maps)) is not None]
        now = self.gm.desk.now()
        with self.gm.mailroom.open() as books:
            if not books.mail_done([d.id for d in decided]):
                raise _Conflict(game)  # rolled back: another dispatcher has them
            for m in _digests(mails):
                msg = compose(self.config, [m.to], m.subject, m.body, now=now, attachments=m.attachments, game=game,
                              idstring=m.idstring)
                queue(books, self.config, msg, kind=m.kind, now=now, game=game, key=m.key)
        if mails:
            log.info("game %s: %d mails queued", game, len(mails))
        kinds = [(d.kind, d.seqs) for d in decided if not d.silent]
        return {"results": len({s[0] for k, s in kinds if k is MailKind.RESULTS}),
                "press": len({x for k, s in kinds if k is not MailKind.QUESTION for x in (s[1:] if k is MailKind.RESULTS
                                                                                           else s)}),
                "reminders": sum(1 for m in mails if m.kind == "reminder")}

    def _mail(self, d: MailDeliveryRecord, told: _Pass, maps: dict[int, tuple[Attachment, ...]]) -> _Mail | None:
        """One decided mail in words (None: what it tells of is gone, e.g. a reminder for a phase since adjudicated)."""
        st, game = told.game, d.game_id
        seat = told.seats.get(d.player) if d.player is not None else None
        items = [told.press[s] for s in d.seqs if s in told.press]
        kind = d.kind.outbox_kind
        if d.kind is MailKind.RESULTS:
            row = told.phases.get(d.seqs[0])
            if row is None:
                return None
            body, attachments = self._results_body(st, row, seat, [i.text for i in items], maps)
            what = "corrected results" if row.revision else "results"
            return _Mail(d.address, f"{game}: {what} of {row.title}", body, kind, d.key, attachments,
                         headers.results_idstring(game, row.seq))
        if d.kind is MailKind.PRESS and items:
            p = items[0]
            shown = replace(p, sender="anonymous" if p.anonymous else p.sender)
            subject = f"{game}: press from {texts.cap(shown.sender)}" + (" to you" if p.to else " to everyone")
            return _Mail(d.address, subject, texts.press_letter(game, st.title, shown, st.settings.schedule.tz), kind,
                         d.key)
        if d.kind in (MailKind.NOTICE, MailKind.WELCOME) and items:
            text = "\n\n".join(i.text for i in items)
            subject = (f"{game}: notice from the gamesmaster" if len(items) == 1
                       else f"{game}: {len(items)} notices from the gamesmaster")
            body = f"{st.title} ({game}): from the gamesmaster\n\n{text}\n"
            if d.kind is MailKind.WELCOME and seat is not None:  # whose power, and where to send the orders
                subject = f"{game}: the game begins; you play {_powers(seat)}"
                body = f"{st.title} ({game}): the game begins\n\n{self._welcome(game, st, seat)}\n\n{text}\n"
            return _Mail(d.address, subject, body, kind, d.key)
        if d.kind is MailKind.QUESTION and items:
            return self._questions_to_gm(game, st, items, d)
        if d.kind is MailKind.GM_DECISION:
            return self._gm_decision(game, st, d)
        if d.kind is MailKind.REMINDER:
            return self._reminder(game, st, d)
        return None

    def _gm_decision(self, game: str, st: GameView, d: MailDeliveryRecord) -> _Mail | None:
        """The GM told, at the GM's own address, that the game waits for a decision (None: decided since)."""
        waiting = st.awaiting
        if waiting is None or waiting.seq != d.seqs[0]:
            return None
        body = f"{st.title} ({game}): for the gamesmaster\n\n{waiting.text}\n"
        return _Mail(d.address, f"{game}: {waiting.phase.title} waits for your decision", body, d.kind.outbox_kind,
                     d.key)

    def _results_body(self, st: GameView, row: PhaseResult, seat: Seat | None, notices: list[str],
                      maps: dict[int, tuple[Attachment, ...]]) -> tuple[str, tuple[Attachment, ...]]:
        """The results of a phase as mailed to a seat's player (with the GM's notices that came with them), and
        the maps (drawn once for each entry in `maps`)."""
        ended = st.result if st.result is not None and st.result.phase == str(row.phase) else None
        body = texts.results(st.id, st.title, row, st.settings.schedule.tz, seat.acts_for() if seat else (),
                             str(st.phase) if st.phase else None, st.deadline_text, ended, st.head)
        if notices:
            body += "\nNotices from the gamesmaster:\n\n" + "\n\n".join(notices) + "\n"
        if row.seq not in maps:
            maps[row.seq] = self._maps(row) if self.config.maps else ()
        if not maps[row.seq] and self.config.maps:
            body += "\n(The map could not be drawn for this mail.)\n"
        return body, maps[row.seq]
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

    def _welcome(self, game: str, st: GameView, seat: Seat) -> str:
        """What a player needs when the game begins: the power, the deadline, the address for orders, the war room."""
        powers = seat.acts_for()
        lines = [f"{seat.name}, you play {_powers(seat)}. {st.phase_title}: orders due {st.deadline_text}.",
                 f"Send your orders to {self.config.game_address(game)}, one a line after your sign-on:",
                 f"  SIGNON {game} {texts.cap(powers[0]) if powers else 'POWER'} YOUR-CREDENTIAL"]
        if self.config.site_url:
            lines.append(f"or give them in your war room: {self.config.site_url}/games/{quote(game)}/war-room")
        return "\n".join(lines)

    def _questions_to_gm(self, game: str, st: GameView, asked: list[PressItem], d: MailDeliveryRecord) -> _Mail:
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
        return _Mail(d.address, subject, body, d.kind.outbox_kind, d.key)

    # -- reminders -------------------------------------------------------------------------------

    def _reminder(self, game: str, st: GameView, d: MailDeliveryRecord) -> _Mail | None:
        """A reminder that a power's orders are due (None: the phase it was for is over)."""
        deadline, power = st.deadline, d.power or ""
        if st.status != "active" or deadline is None or str(st.phase) != d.phase:
            return None
        now = self.gm.desk.now()
        hours_left = (deadline - now).total_seconds() / 3600
        body = (f"{st.title} ({game}): no orders from {texts.cap(power)} yet for {st.phase_title}.\n\n"
                f"Orders are due {st.deadline_text} ({hours_left:.0f} hours from now; "
                f"{show_time(now, st.settings.schedule.tz)} as this is written). Send them to "
                f"{self.config.game_address(game)}:\n\n"
                f"SIGNON {game} {texts.cap(power)} YOUR-CREDENTIAL\nA ...\nF ...\n\n"
                "A power that sends nothing is in civil disorder: its units hold.\n")
        return _Mail(d.address, f"{game}: reminder: orders for {texts.cap(power)} due {st.deadline_text}", body,
                     d.kind.outbox_kind, d.key)
