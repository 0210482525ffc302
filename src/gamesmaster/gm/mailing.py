"""The mail channel: what to mail, and to whom, of a pass's news of a game.

Players who play by mail have an address on their seat (gm_mail_contacts), set when they
sign on by mail or by the GM. Of each pass's news (gm.channels) the channel decides: the
results of a phase to every player with an address, with the GM's notices that came with
them; a letter or release to those who may read it; the GM's other notices of the pass in
one mail (the game's first ones name the player's power); a reminder to the players of a
power with no orders when the deadline is `reminder_hours` away; and, at the GM's own
address, the questions asked in the pass and a phase that waits for the GM's decision.

It decides only: each decision is a `NewMail` (what, to whom, which entries), kept in the
transaction that moves the game's one cursor, with a key so that none is made twice. The
mail door renders and sends what was kept (mail.notify): the words, the maps and the
addresses to write back to are the door's, as the site's pages are the web door's. The mail
one pass decides for one address is one mail there (a digest), so each pass's decisions
share a batch.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import timedelta

from ..config import MailSettings
from ..store.mailbox import KEY_CHARS as MAIL_KEY_CHARS, MailKind, NewMail
from .channels import GameNews
from .state import GM, Seat
from .views import PressItem

ADJUDICATED = ("phase-adjudicated", "correction")  # the entries whose results are mailed


def may_read(seat: Seat, item: PressItem) -> bool:
    """Whether the player of a seat is mailed a piece of press: not one's own, and only what is addressed to one."""
    mine = seat.acts_for()
    if item.sender != GM and item.sender in mine:
        return False  # the sender had the answer to the mail that sent it
    return item.to is None or bool(set(mine) & set(item.to))


class MailChannel:
    """The channel that mails players with an address on their seat, and the GM at the GM's own address."""

    name = "mail"

    def __init__(self, settings: MailSettings) -> None:
        self.reminder_hours, self.gm_email = settings.reminder_hours, settings.gm_email

    def deliver(self, news: GameNews) -> list[NewMail]:
        """The mail this news makes (none for a game no one plays by mail, when the GM has no address)."""
        if not news.contacts and not self.gm_email:
            return []
        view, game, batch = news.game, news.game.id, secrets.token_hex(8)
        readers = [(p, news.contacts[p.number]) for p in view.players() if p.number in news.contacts]

        def mail(kind: MailKind, key: str, address: str, player: int | None, seqs: tuple[int, ...],
                 phase: str | None = None, power: str | None = None, silent: bool = False) -> NewMail:
            return NewMail(game, key[:MAIL_KEY_CHARS], kind, address, player, seqs, batch, news.now, phase, power, silent)

        out: list[NewMail] = []
        results: dict[int, int] = {}  # player -> where in `out` its last results of this pass are
        notices: dict[int, list[int]] = {}  # player -> the GM's notices of this pass to it
        asked: list[int] = []  # questions to the GM in this pass: one mail tells the GM of them all
        for seq, kind in news.entries:
            if kind in ADJUDICATED and seq in news.phases:
                for p, address in readers:
                    results[p.number] = len(out)
                    out.append(mail(MailKind.RESULTS, f"results:{game}:{seq}:{p.number}", address, p.number, (seq,)))
            elif kind == "press" and seq in news.press:
                item = news.press[seq]
                if item.sender != GM and item.to == (GM,):
                    asked.append(seq)
                for p, address in readers:
                    if not may_read(p, item):
                        continue
                    if item.sender == GM:
                        notices.setdefault(p.number, []).append(seq)
                    else:
                        out.append(mail(MailKind.PRESS, f"press:{game}:{seq}:{p.number}", address, p.number, (seq,)))
        waiting = view.awaiting
        if self.gm_email and waiting is not None and any(seq == waiting.seq for seq, _ in news.entries):
            out.append(mail(MailKind.GM_DECISION, f"gm-decision:{game}:{waiting.seq}", self.gm_email, None,
                            (waiting.seq,)))
        addresses = dict((p.number, a) for p, a in readers)
        for number, seqs in notices.items():
            if number in results:  # the notices of an adjudication go with its results
                at = results[number]
                out[at] = replace(out[at], seqs=out[at].seqs + tuple(seqs))
                continue
            out.append(mail(MailKind.WELCOME if news.started else MailKind.NOTICE,
                            f"notice:{game}:{seqs[0]}-{seqs[-1]}:{number}", addresses[number], number, tuple(seqs)))
        if asked and self.gm_email:
            out.append(mail(MailKind.QUESTION, f"question:{game}:{asked[0]}-{asked[-1]}", self.gm_email, None,
                            tuple(asked)))
        # A player whose site account holds the seat at this same address has the warnings chosen there instead
        held = {h.seat.number for h in news.holders if h.mailed_as_contact}
        for p, address in readers:
            if p.number in held:
                continue
            for power in self._due(news, p):
                # made silent, not skipped, when the phase opened in this pass (the results just gave the deadline):
                # its key is then taken, so no later pass makes it either
                out.append(mail(MailKind.REMINDER, f"reminder:{game}:{view.phase}:{power}:{p.number}", address,
                                p.number, (), phase=str(view.phase), power=power, silent=news.opened))
        return out

    def _due(self, news: GameNews, seat: Seat) -> list[str]:
        """The seat's powers with no orders yet when the deadline is `reminder_hours` away or less."""
        view, hours = news.game, self.reminder_hours
        deadline = view.deadline
        if view.status != "active" or not hours or deadline is None or view.phase is None:
            return []
        if not deadline - timedelta(hours=hours) <= news.now < deadline:
            return []
        missing = {p.power for p in view.powers if p.to_order and not p.ordered and not p.standby_ordered}
        return [power for power in seat.acts_for() if power in missing]


__all__ = ["ADJUDICATED", "MailChannel", "may_read"]
