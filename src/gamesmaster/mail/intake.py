"""Mail in, answer out: every mail received is recorded, obeyed through the gm API, and answered.

`Intake.receive(raw, envelope_from, recipients)` is the one handler the SMTP server, the
IMAP poller and `gamesmaster mail receive` all feed. The mail is recorded (gm_mail_inbox)
before anything is done; its commands are carried out with the same `Gamesmaster` calls
the web site makes (channel "mail"); the answer says what became of every line and goes
into the outbox in the same transaction that marks the mail answered. Bounces and other
robots' mail are recorded but not answered (answering them would start a mail loop).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Sequence

from ..gm import (Forbidden, Gamesmaster, GMError, MailBooks, NotFound, Proposal, QuestionView, RateLimiter, Refused,
                  Seat, check_secret, power_named)
from . import headers, texts
from .config import MailConfig
from .language import Statement, help_text, is_credential, mask, read_commands
from .mime import Incoming, read_message
from .outbox import Attachment, compose, queue

log = logging.getLogger(__name__)


@dataclass
class Received:
    """What became of a received mail."""

    inbox_id: int
    status: str  # answered, ignored, failed, duplicate
    reply_id: int | None = None
    reply: str = ""


@dataclass
class _Section:
    """The game, power and credential the lines that follow act for."""

    game: str | None = None
    power: str | None = None
    credential: str | None = None
    who: Seat | None = None  # whose the credential is, once checked
    failed: str | None = None  # why the sign-on failed
    skipped: int = 0  # lines not carried out because the sign-on failed
    orders: list[str] | None = None
    order_echo: list[str] = field(default_factory=list)
    phase: str | None = None
    start: int = 0
    slot: int | None = None  # where in the answer the orders' block goes
    submitted: list[str] = field(default_factory=list)  # order lines already submitted from this mail
    courtesy: list[int] = field(default_factory=list)  # which of `orders` may be greetings or signatures
    is_gm: bool = False  # signed on as the gamesmaster (to answer questions)


class _Session:
    """Carries out one mail's statements and writes the answer."""

    def __init__(self, gm: Gamesmaster, reply_to: str, default_game: str | None, limits: "MailLimits",
                 mail: Incoming | None = None, gm_hash: str | None = None, help: str = "") -> None:
        self.gm = gm
        self.help = help  # the list of commands, with this door's addresses
        self.gm_hash = gm_hash  # the GM credential's hash, when the GM may act by mail
        self.written_at = mail.written_at if mail else None  # when the player wrote it (the Date header)
        self.answers = list(mail.answers) if mail else []  # the mails it answers (In-Reply-To, References)
        self.limits = limits
        self.reply_to = reply_to
        self.default_game = default_game
        self.blocks: list[str] = []
        self.contacts: list[tuple[str, int]] = []  # (game, player number) signed on from this address
        self.section = _Section(game=default_game)
        self.did_something = False
        self._variants: dict[str, Any] = {}
        self.attachments: list[Attachment] = []  # files the answer carries (the public record)
        self.passed_over: list[str] = []  # greetings and signatures, not read as orders

    # -- output ------------------------------------------------------------------------------

    def say(self, echo: Sequence[str], answer: str, slot: int | None = None) -> None:
        lines = [f"> {mask(e)}" for e in echo]
        text = "\n".join(lines + [answer.rstrip()])
        if slot is None:
            self.blocks.append(text)
        else:
            self.blocks[slot] = text

    # -- sign-on ----------------------------------------------------------------------------

    def _game_ids(self) -> set[str]:
        return set(self.gm.games.game_ids())

    def signon(self, st: Statement) -> None:
        self.flush()
        tokens = list(st.args["tokens"])
        creds = [t for t in tokens if is_credential(t)]
        rest = [t for t in tokens if not is_credential(t)]
        if not creds and any(t.lower() in ("gm", "gamesmaster") for t in rest):
            self.gm_signon(st, rest)
            return
        section = _Section(game=self.default_game, start=st.line)
        if len(creds) != 1:
            self.section = section
            section.failed = ("SIGNON needs one credential: the secret you were given when the game was set up "
                              "(it looks like 4.Xy3...); write SIGNON GAME POWER CREDENTIAL")
            self.say([st.echo], "Not signed on: " + section.failed)
            return
        section.credential = creds[0]
        if len(rest) >= 2:
            section.game, section.power = rest[0].lower(), " ".join(rest[1:])
        elif len(rest) == 1:
            token = rest[0]
            if self.default_game and token.lower() not in self._game_ids():
                section.power = token
            else:
                section.game = token.lower()
        self.section = section
        if self.authenticate(st.echo):
            who = section.who
            assert who is not None
            game = self.gm.games.game(section.game or "")
            power = section.power or "-"
            mine = who.acts_for()
            as_what = (f"playing {'/'.join(texts.cap(p) for p in mine)}; what follows is for {texts.cap(power)} "
                       f"until a line names another of your powers ('{texts.cap(mine[-1])}:')"
                       if who.role == "player" and len(mine) > 1 and power != "-"
                       else f"playing {texts.cap(power)}" if who.role == "player" and power != "-"
                       else f"the stand-by for {texts.cap(power)}" if who.role == "standby" and power != "-"
                       else f"a {who.role} without a power")
            when = (f"{game.phase_title}; orders due {game.deadline_text}" if game.status == "active"
                    else f"the game is {game.status}")
            self.say([st.echo], f"Signed on to {game.id} ({game.title}) as {who.name}, {as_what}. {when}.")

    def gm_signon(self, st: Statement, tokens: list[str]) -> None:
        """SIGNON GAME GM GM-CREDENTIAL: the gamesmaster, to answer questions by mail."""
        secret = next((t for t in tokens if t.lower().startswith("gm.")), None)
        others = [t for t in tokens if t is not secret and t.lower() not in ("gm", "gamesmaster")]
        section = _Section(game=others[0].lower() if others else self.default_game, start=st.line)
        self.section = section
        target = f"{section.game}:gm"
        wait = self.limits.signons.wait(self.reply_to, target)
        if self.gm_hash is None:
            section.failed = "the gamesmaster does not act by mail here (the mail door has no GM credential)"
        elif not secret or not section.game:
            section.failed = "write SIGNON GAME GM GM-CREDENTIAL"
        elif wait:
            section.failed = f"too many sign-ons with a wrong credential from {self.reply_to}: try again later"
        elif not check_secret(secret, self.gm_hash):
            self.limits.signons.failed(self.reply_to, target)
            section.failed = "that is not the GM credential"
        elif section.game not in self._game_ids():
            section.failed = f"there is no game {section.game!r}"
        if section.failed:
            self.say([st.echo], f"Not signed on: {section.failed}.")
            return
        section.is_gm = True
        self.say([st.echo], f"Signed on to {section.game} as the gamesmaster: ANSWER N [PUBLIC] answers a question; "
                 "QUESTIONS lists them.")

    def authenticate(self, echo: str | None = None) -> bool:
        """Check the section's credential (once); False, with the reason said, if it does not hold."""
        s = self.section
        if s.who is not None:
            return True
        if s.failed:
            return False
        if not s.game:
            s.failed = "no game named: write SIGNON GAME POWER CREDENTIAL (or send to the game's own address)"
        elif not s.credential:
            s.failed = "no credential: write SIGNON GAME POWER CREDENTIAL"
        if s.failed is None:
            target = f"{s.game}:{(s.credential or '').split('.', 1)[0]}"
            wait = 0 if self.gm.sessions.credential_known(s.game or "", s.credential or "") else \
                self.limits.signons.wait(self.reply_to, target)
            if wait:
                s.failed = (f"too many sign-ons with a wrong credential from {self.reply_to}: the next credential is "
                            f"checked in {max(1, wait // 60)} minute{'s' if wait >= 120 else ''}")
        if s.failed is None:
            try:
                s.who = self.gm.orders.identify(s.game or "", s.credential or "")
            except (NotFound, Forbidden, GMError) as exc:
                s.failed = str(exc)
                if isinstance(exc, Forbidden):
                    self.limits.signons.failed(self.reply_to, target)
        if s.failed is not None:
            self.say([echo] if echo else [], f"Refused: not signed on: {s.failed}. Nothing that follows it is carried "
                     "out until a SIGNON with a valid credential.")
            return False
        who = s.who
        assert who is not None
        mine = who.acts_for()
        if s.power is None:
            s.power = mine[0] if mine else None
        else:
            try:
                s.power = power_named(self._variant(s.game or ""), s.power)
            except Exception:  # noqa: BLE001 - unknown power: say which there are
                s.who, s.failed = None, f"there is no power {s.power!r} in {s.game}"
            else:
                if s.power not in mine:
                    s.who = None
                    s.failed = f"this credential is {who.name}'s, who does not play {texts.cap(s.power)} in {s.game}"
            if s.failed is not None:
                self.say([echo] if echo else [], f"Refused: not signed on: {s.failed}. Nothing that follows it is "
                         "carried out until a SIGNON with a valid credential.")
                return False
        if s.game:
            self.contacts.append((s.game, who.number))
        return True

    def _need(self, st: Statement) -> bool:
        """Whether the statement can be carried out (signed on); says why not, once per section."""
        s = self.section
        if s.who is not None:
            return True
        if s.is_gm:
            self.say([st.echo], "Not carried out: by mail the gamesmaster answers questions (ANSWER N) and lists them "
                     "(QUESTIONS); everything else is done on the console.")
            return False
        if s.failed is not None:
            s.skipped += 1
            return False
        if s.game is None and s.credential is None:
            s.failed = "sign on first"
            self.say([st.echo], "Not carried out: sign on first with SIGNON GAME POWER CREDENTIAL "
                     "(the credential is the secret you were given when the game was set up). Send HELP for the commands.")
            s.skipped += 0
            return False
        return self.authenticate(st.echo)

    def _signed_on(self, st: Statement) -> bool:
        """Whether the section is signed on (checking a credential given on its own lines first)."""
        s = self.section
        if s.who is None and s.failed is None and s.game is not None and s.credential is not None:
            self.authenticate(st.echo)
        return s.who is not None

    def _power(self, st: Statement) -> str | None:
        s = self.section
        if s.power is None:
            self.say([st.echo], f"Not carried out: {s.who.name if s.who else 'this player'} plays no power in {s.game}; "
                     "name one with POWER.")
            return None
        return s.power

    # -- orders ------------------------------------------------------------------------------

    def order_line(self, st: Statement) -> None:
        s = self.section
        text = st.args["text"]
        if s.who is None and s.failed is None and s.game is not None and s.credential is not None:
            self.authenticate(st.echo)
        if s.who is not None and s.power is not None and self._switch_power(st, text):
            return
        if not self._need(st):
            return
        line = _debullet(text)
        if s.orders is None:
            s.orders = []
        if st.args.get("courtesy"):
            s.courtesy.append(len(s.orders))
        if s.slot is None:
            self.blocks.append("")
            s.slot = len(self.blocks) - 1
        s.orders.append(line)
        s.order_echo.append(st.written)

    def _switch_power(self, st: Statement, text: str) -> bool:
        """A line that is only a power's name ('England:') starts that power's orders."""
        name = text.strip().rstrip(":").strip()
        if not name or " " in name:
            return False
        try:
            power = power_named(self._variant(self.section.game or ""), name)
        except Exception:  # noqa: BLE001 - not a power's name: an order
            return False
        self.switch_power(st, power)
        return True

    def _names_power(self, text: str) -> str | None:
        """The power a text names in the section's game, if it is a power's name."""
        try:
            return power_named(self._variant(self.section.game or ""), text.strip())
        except Exception:  # noqa: BLE001 - not a power's name
            return None

    def _variant(self, game: str) -> Any:
        if game not in self._variants:
            self._variants[game] = self.gm.games.game(game).variant
        return self._variants[game]

    def switch_power(self, st: Statement, power: str) -> None:
        self.flush()
        old = self.section
        self.section = _Section(game=old.game, power=power, credential=old.credential, who=old.who,
                                failed=old.failed, start=st.line)
        if old.who is not None:
            self.say([st.echo], f"The orders that follow are for {texts.cap(power)}.")

    def orders_marker(self, st: Statement) -> None:
        if not self._need(st):
            return
        s = self.section
        if s.orders is None:
            s.orders = []
        if s.slot is None:
            self.blocks.append("")
            s.slot = len(self.blocks) - 1
        if st.args.get("phase"):
            s.phase = st.args.get("phase")
        s.order_echo.append(st.written)

    def flush(self) -> None:
        """Submit the orders gathered in this section (a complete set for the power)."""
        s = self.section
        if s.skipped:
            self.say([], f"({s.skipped} more line{'s' if s.skipped > 1 else ''} not carried out: not signed on.)")
            s.skipped = 0
        if s.orders is not None and s.who is not None and s.courtesy:
            self._pass_over_courtesy()
            if not s.orders and s.slot is not None and not self.blocks[s.slot]:
                s.orders = None  # only a greeting or a signature: no set of orders to send
        s.courtesy = []
        if s.orders is None or s.who is None:
            s.orders, s.order_echo = None, []
            if s.slot is not None:
                self.blocks[s.slot] = ""
            s.slot = None
            return
        lines, echo, slot = s.submitted + s.orders, s.order_echo, s.slot
        earlier = len(s.submitted)
        s.orders, s.order_echo, s.slot = None, [], None
        if s.power is None:
            self.say(echo, f"Not carried out: {s.who.name} plays no power in {s.game}; name one with POWER.",
                     slot)
            return
        try:
            if not earlier and self._kept_as_question(lines, echo, slot):
                return
            sub = self.gm.orders.submit_orders(s.game or "", s.power, "\n".join(lines), credential=s.credential,
                                        channel="mail", phase=s.phase, written_at=self.written_at,
                                        answering=headers.results_answered(self.answers, s.game or ""))
            self.did_something = True
            s.submitted = lines
            text = texts.submission(sub)
            if earlier:
                text = (f"(With the {earlier} order line{'s' if earlier > 1 else ''} above from this mail: one set, "
                        "and only this whole set is on record.)\n" + text)
            self.say(echo, text, slot)
        except Refused as exc:
            self.say(echo, f"REFUSED: {exc} (the refusal is on the record). "
                     "These orders are not on record.", slot)
        except (GMError, ValueError) as exc:
            self.say(echo, f"Not accepted: {exc}", slot)

    def _pass_over_courtesy(self) -> None:
        """Take the greetings and signatures that do not read as orders out of the section's order lines (a line
        that reads as an order, even an invalid one, stays: an order is never swallowed)."""
        s = self.section
        assert s.orders is not None
        maybe = [s.orders[i] for i in s.courtesy]
        checking = self.gm.orders.check(s.game or "", s.power or "", "\n".join(maybe), credential=s.credential)
        def bare(text: str) -> str:
            return text.strip().rstrip(",.!;:").strip()

        unread = {bare(a.text) for a in checking.answers if a.status != "accepted" and a.message.startswith("unreadable")}
        dropped = [i for i in s.courtesy if bare(s.orders[i]) in unread]
        self.passed_over += [s.orders[i] for i in dropped]
        for i in reversed(dropped):
            line = s.orders.pop(i)
            written = next((w for w in s.order_echo if _debullet(w.strip()) == line), None)
            if written is not None:
                s.order_echo.remove(written)

    def _kept_as_question(self, lines: list[str], echo: list[str], slot: int | None) -> bool:
        """A mail whose lines are all unreadable is a letter, not a set of orders: it never replaces
        the set on record; it is kept as a question to the gamesmaster, and answered with the problems."""
        s = self.section
        game, power = s.game or "", s.power or ""
        checking = self.gm.orders.check(game, power, "\n".join(lines), credential=s.credential)
        if not checking.unreadable:
            return False
        number = self.gm.questions.ask(game, "\n".join(lines), power=power, credential=s.credential, channel="mail")
        self.did_something = True
        problems = "\n".join(f"  '{a.text}': {a.message}" for a in checking.answers)
        rows = self.gm.orders.orders_on_record(game, power, credential=s.credential)
        stands = (f"Your orders on record stand (set {rows[-1].receipt.number}, {len(rows[-1].orders)} orders; "
                  "send LIST to see them)." if rows else "You have no orders on record for this phase.")
        self.say(echo, f"Not one of these lines reads as an order, so they were not taken as a set of orders:\n"
                 f"{problems}\n{stands}\nYour mail is kept as question {number} to the gamesmaster, who answers "
                 "by mail. (To ask on purpose, write QUESTION before the text.)", slot)
        return True

    # -- the other commands ------------------------------------------------------------------

    def run(self, statements: Sequence[Statement]) -> None:
        for st in statements:
            try:
                self.one(st)
            except Refused as exc:
                self.say([st.echo], f"REFUSED: {exc}")
            except (GMError, ValueError) as exc:
                self.say([st.echo], f"Not carried out: {exc}")
        self.flush()

    def one(self, st: Statement) -> None:
        kind = st.kind
        s = self.section
        if kind == "signon":
            self.signon(st)
        elif kind == "game":
            self.flush()
            self.section = _Section(game=st.args["game"].lower(), start=st.line)
        elif kind == "credential":
            self.flush()
            self.section = _Section(game=s.game, power=s.power, credential=st.args["credential"], start=st.line)
            self.authenticate(st.echo)
        elif kind == "power":
            if s.who is None and s.failed is None and s.credential is None:
                s.power = st.args["power"]
                return
            if not self._need(st):
                return
            try:
                power = power_named(self._variant(s.game or ""), st.args["power"])
            except Exception as exc:  # noqa: BLE001
                self.say([st.echo], f"Not carried out: {exc}")
                return
            self.switch_power(st, power)
        elif kind == "text":
            if st.args.get("courtesy") and not self._signed_on(st):
                self.passed_over.append(st.written)  # 'Hi GM,' before the SIGNON: no refusal for a greeting
                return
            self.order_line(st)
        elif kind == "orders":
            self.orders_marker(st)
        elif kind == "receipt":
            self.flush()
            self.receipt(st)
        elif kind == "record":
            self.flush()
            self.record(st)
        elif kind == "help":
            self.say([st.echo], self.help)
        elif kind == "signoff":
            self.flush()
        elif kind == "endpress":
            self.say([st.echo], "ENDPRESS without a PRESS before it: ignored.")
        elif kind == "status":
            self.flush()
            self.status(st)
        elif kind == "history":
            self.flush()
            self.history(st)
        elif kind == "answer":
            self.do_answer(st)
        elif kind == "questions" and s.is_gm:
            self.say([st.echo], _questions(self.gm.questions.questions(s.game or ""), s.game or ""))
        elif kind == "proposals":
            game = s.game or self.default_game
            if not game:
                self.say([st.echo], "Not carried out: which game? Sign on first, or write PROPOSALS after SIGNON.")
                return
            rows = [p for p in self.gm.press.proposals(game) if p.status == "open"]
            shown = s.is_gm or self.gm.games.game(game).settings.votes == "open"
            self.say([st.echo], "\n".join(_proposal(p, shown) for p in rows) or f"No open proposals in {game}.")
        else:
            if not self._need(st):
                return
            if kind in ("list", "withdraw", "ready", "unready", "resign", "dispute"):
                self.flush()
            getattr(self, "do_" + kind)(st)

    def do_list(self, st: Statement) -> None:
        power = self._power(st)
        if power is None:
            return
        s = self.section
        rows = self.gm.orders.orders_on_record(s.game or "", power, credential=s.credential)
        self.say([st.echo], texts.on_record(rows, power, self.gm.games.game(s.game or "").phase_title or "-"))

    def do_withdraw(self, st: Statement) -> None:
        power = self._power(st)
        if power is None:
            return
        s = self.section
        seq = self.gm.orders.withdraw_orders(s.game or "", power, credential=s.credential, channel="mail")
        s.submitted = []
        self.did_something = True
        self.say([st.echo], f"The orders of {texts.cap(power)} are withdrawn" + (f" (ledger entry {seq})." if seq else "."))

    def do_dispute(self, st: Statement) -> None:
        """DISPUTE RECEIPT [WHY]: the set that replaced the receipt's was not the player's own (gm.disputes)."""
        s = self.section
        d = self.gm.disputes.dispute(s.game or "", st.args.get("receipt") or "", st.args.get("text") or "",
                            credential=s.credential)
        self.did_something = True
        self.say([st.echo], f"Your dispute of {texts.cap(d.power)}'s set #{d.number} for {d.phase} is on the record "
                            f"(ledger entry {d.seq}); every player and the gamesmaster have been told.")

    def do_ready(self, st: Statement, ready: bool = True) -> None:
        power = self._power(st)
        if power is None:
            return
        s = self.section
        done = self.gm.orders.set_ready(s.game or "", power, ready, credential=s.credential)
        self.did_something = True
        text = f"{texts.cap(power)} is {'ready' if ready else 'not ready'}."
        for p in done:
            text += f"\nEvery player is ready: {texts.title(p)} was processed (results follow)."
        self.say([st.echo], text)

    def do_unready(self, st: Statement) -> None:
        self.do_ready(st, False)

    def do_press(self, st: Statement) -> None:
        s = self.section
        text = st.args.get("text") or ""
        if not text.strip():
            self.say([st.echo], "Not sent: the press has no text (write it on the lines after PRESS, then ENDPRESS).")
            return
        pid = self.gm.press.post_press(s.game or "", text, power=s.power, to=st.args.get("to"),
                                 anonymous=bool(st.args.get("anonymous")), credential=s.credential)
        self.did_something = True
        to = st.args.get("to")
        where = "everyone" if not to else ", ".join(texts.cap(t) for t in to)
        note = "" if not st.args.get("unended") else " (no ENDPRESS: the press ran to the end of your mail)"
        lines = len(text.splitlines())
        self.say([st.echo], f"Press {pid} sent{' anonymously' if st.args.get('anonymous') else ''} to {where} "
                 f"({lines} line{'s' if lines != 1 else ''}){note}.")

    def do_questions(self, st: Statement) -> None:
        s = self.section
        self.say([st.echo], _questions(self.gm.questions.questions(s.game or "", credential=s.credential), s.game or ""))

    def do_answer(self, st: Statement) -> None:
        s = self.section
        if not s.is_gm:
            self.say([st.echo], "Not carried out: only the gamesmaster answers questions (SIGNON GAME GM GM-CREDENTIAL).")
            return
        text = st.args.get("text") or ""
        if not text.strip():
            self.say([st.echo], "Not sent: the answer has no text (write it on the lines after ANSWER N, then END).")
            return
        number, public = st.args["question"], bool(st.args.get("public"))
        self.gm.questions.answer_question(s.game or "", number, text, public=public)
        self.did_something = True
        self.say([st.echo], f"Question {number} is answered " + ("for everyone (its asker not named)." if public
                                                                 else "to its asker."))

    def do_question(self, st: Statement) -> None:
        s = self.section
        text = st.args.get("text") or ""
        if not text.strip():
            self.say([st.echo], "Not sent: the question has no text (write it after 'QUESTION:' or on the lines after "
                     "QUESTION, then END).")
            return
        power = self._power(st)
        if power is None:
            return
        number = self.gm.questions.ask(s.game or "", text, power=power, credential=s.credential, channel="mail")
        self.did_something = True
        note = "" if not st.args.get("unended") else " (no END: the question ran to the end of your mail)"
        self.say([st.echo], f"Question {number} is with the gamesmaster{note}; only you and the gamesmaster can "
                 "read it. The answer comes by mail (to you alone, or to everyone if the gamesmaster answers it "
                 "publicly, without naming you).")

    def do_draw(self, st: Statement) -> None:
        s = self.section
        pid = self.gm.press.propose(s.game or "", kind="draw", powers=st.args.get("powers"), power=s.power,
                              credential=s.credential)
        self.did_something = True
        row = next((p for p in self.gm.press.proposals(s.game or "") if p.id == pid), None)
        shown = s.is_gm or self.gm.games.game(s.game or "").settings.votes == "open"
        self.say([st.echo], f"Proposal {pid} is made: " + (_proposal(row, shown) if row else "a draw") +
                 ". Every survivor votes with VOTE " + str(pid) + " YES or NO.")

    def do_concede(self, st: Statement) -> None:
        s = self.section
        pid = self.gm.press.propose(s.game or "", kind="concession", concede_to=st.args["to"], power=s.power,
                              credential=s.credential)
        self.did_something = True
        self.say([st.echo], f"Proposal {pid} is made: concede the game to {texts.cap(st.args['to'])}. "
                 f"Every survivor votes with VOTE {pid} YES or NO.")

    def do_vote(self, st: Statement) -> None:
        s = self.section
        pid = st.args.get("proposal")
        if pid is None:
            open_ = [p for p in self.gm.press.proposals(s.game or "") if p.status == "open"]
            if len(open_) != 1:
                self.say([st.echo], "Not carried out: " + ("there is no open proposal" if not open_ else
                         f"{len(open_)} proposals are open ({', '.join(str(p.id) for p in open_)}): "
                         "write VOTE N YES or VOTE N NO"))
                return
            pid = open_[0].id
        status = self.gm.press.vote(s.game or "", pid, st.args["yes"], power=s.power, credential=s.credential)
        self.did_something = True
        self.say([st.echo], f"{texts.cap(s.power or '')} votes {'yes' if st.args['yes'] else 'no'} on proposal {pid}: "
                 f"the proposal is {status}.")

    def do_resign(self, st: Statement) -> None:
        power = self._power(st)
        if power is None:
            return
        s = self.section
        self.flush()
        successor = st.args.get("successor")
        if successor and self._names_power(successor) == power:
            successor = None  # 'RESIGN England': the power resigned, not a successor's name
        secret = self.gm.players.resign(s.game or "", power, successor, credential=s.credential)
        self.did_something = True
        if secret:
            self.say([st.echo], f"You have resigned {texts.cap(power)}; {successor} plays it now. "
                     f"Give {successor} this credential (it is shown only this once): {secret}")
        else:
            self.say([st.echo], f"You have resigned {texts.cap(power)}. The gamesmaster will appoint a replacement.")
        s.who = None
        s.failed = "you have resigned"

    def status(self, st: Statement) -> None:
        s = self.section
        game = (st.args.get("game") or s.game or self.default_game or "").lower()
        if not game:
            self.say([st.echo], "Which game? Write STATUS GAME.\n" + _games(self.gm))
            return
        try:
            stt = self.gm.games.game(game)
        except NotFound as exc:
            self.say([st.echo], f"{exc}")
            return
        power, ordered = None, None
        if s.who is not None and s.game == game and s.power:
            power = s.power
            try:
                ordered = bool(self.gm.orders.orders_on_record(game, power, credential=s.credential))
            except GMError:
                ordered = None
        self.say([st.echo], texts.status(stt, power, ordered))

    def history(self, st: Statement) -> None:
        s = self.section
        args = list(st.args.get("args") or [])
        only = None
        if args and _is_phase(args[-1]):
            only = args.pop().upper()
        game = (args[0] if args else (s.game or self.default_game or "")).lower()
        if not game:
            self.say([st.echo], "Which game? Write HISTORY GAME.")
            return
        stt = self.gm.games.game(game)
        phases = self.gm.games.results(game)
        if s.who is not None and s.game == game and s.power:
            press = self.gm.press.press(game, s.power, credential=s.credential)
        else:
            press = self.gm.press.public_press(game)
        self.say([st.echo], texts.history(game, stt.title, phases, press, stt.settings.schedule.tz, only))

    def receipt(self, st: Statement) -> None:
        """RECEIPT GAME/PHASE/POWER/N:COMMITMENT: what the record says of a receipt."""
        s = self.section
        text = st.args.get("receipt") or ""
        game = text.split("/", 1)[0].lower() if "/" in text else (s.game or self.default_game or "")
        if not game:
            self.say([st.echo], "Which receipt? Write RECEIPT and the receipt as it was given, e.g. "
                     "RECEIPT club/S1901M/FRANCE/2:9f3a...")
            return
        credential = s.credential if s.who is not None and s.game == game else None
        check = self.gm.record.check_receipt(game, text, credential=credential)
        self.say([st.echo], texts.receipt_check(check))

    def record(self, st: Statement) -> None:
        """RECORD [GAME] [PHASE]: a published phase's whole record, with the public record attached."""
        s = self.section
        args = list(st.args.get("args") or [])
        only = args.pop().upper() if args and _is_phase(args[-1]) else None
        game = (args[0] if args else (s.game or self.default_game or "")).lower()
        if not game:
            self.say([st.echo], "Which game? Write RECORD GAME PHASE (e.g. RECORD club S1901M).")
            return
        view = self.gm.games.game(game)
        if only is None:
            published = self.gm.games.results(game)
            if not published:
                self.say([st.echo], f"Nothing of {game} has been published yet: its record is public phase by phase, "
                         "once each phase's results are out.")
                return
            only = str(published[-1].phase)
        text = texts.phase_record(self.gm.record.phase_record(game, only), view.settings.schedule.tz)
        self.say([st.echo], text)
        doc = json.dumps(self.gm.record.archive(game), ensure_ascii=False, indent=1).encode("utf-8")
        self.attachments.append(Attachment(f"{game}-record.json", doc, "application", "json"))


def _is_phase(text: str) -> bool:
    return bool(re.fullmatch(r"[SFWA]\d{3,5}[MRA]", text.strip(), re.I))


def _debullet(text: str) -> str:
    return re.sub(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+", "", text)


def _proposal(p: Proposal, open_votes: bool) -> str:
    what = ("a draw between " + ", ".join(texts.cap(x) for x in p.powers) if p.kind == "draw"
            else "conceding the game to " + texts.cap(p.powers[0]))
    if open_votes:  # the game's votes are open (or the GM asks): who voted how
        votes = ", ".join(f"{texts.cap(k)} {'yes' if v else 'no'}" for k, v in p.votes.items()) or "no votes yet"
    else:  # secret votes: how many have voted, never how
        votes = f"{len(p.votes)} vote{'' if len(p.votes) == 1 else 's'} cast, secret"
    return f"proposal {p.id}: {what} (by {texts.cap(p.proposer)}; {votes})"


def _games(gm: Gamesmaster) -> str:
    ids = gm.games.game_ids()
    return "Games: " + (", ".join(ids) if ids else "none yet")


class _Tries:
    """Failed sign-ons per sender address and per credential named (a failing sender waits)."""

    def __init__(self, clock: Callable[[], float] | None) -> None:
        self.by_sender = RateLimiter(10, 1 / 60, clock)
        self.by_target = RateLimiter(10, 1 / 60, clock)

    def wait(self, sender: str, target: str) -> int:
        """0 if a credential from this sender may be checked now, else the seconds to wait."""
        if not self.by_sender.allowed(sender):
            return self.by_sender.retry_after(sender)
        if not self.by_target.allowed(target) and self.by_sender.failing(sender):
            return self.by_target.retry_after(target)
        return 0

    def failed(self, sender: str, target: str) -> None:
        self.by_sender.failed(sender)
        self.by_target.failed(target)


class MailLimits:
    """What the mail door takes from one sender: failed sign-ons (10 at once, then one a minute), and
    answers (30 at once, then one every two minutes; beyond that a mail is recorded, not answered,
    so that nobody can make the gamesmaster mail a third party without end)."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.signons = _Tries(clock)
        self.answers = RateLimiter(30, 1 / 120, clock)


class Intake:
    """Receives mail (from any door), obeys it through the gm API and queues the answer."""

    def __init__(self, gm: Gamesmaster, config: MailConfig, wake: Callable[[], None] | None = None,
                 limits: MailLimits | None = None) -> None:
        self.gm = gm
        self.config = config
        self.wake = wake or (lambda: None)
        self.limits = limits or MailLimits()

    def now(self) -> datetime:
        return self.gm.desk.now()

    def game_of(self, recipients: Sequence[str]) -> str | None:
        for r in recipients:
            ours, tag = self.config.accepts(r)
            if ours and tag:
                return tag
        return None

    def receive(self, raw: bytes, envelope_from: str | None = None, recipients: Sequence[str] = (),
                source: str = "smtp", source_key: str | None = None) -> Received:
        mail = read_message(raw, envelope_from, recipients)
        if not mail.recipients:
            mail.recipients = _header_recipients(raw)
        mail.subject = mask(mail.subject)  # a credential written in the subject is never stored nor echoed
        game = self.game_of(mail.recipients)
        now = self.now()
        with self.gm.mailroom.open() as books:
            if source_key is not None:
                old = books.received_under(source_key)
                if old is not None and old.status != "received":
                    return Received(old.id, "duplicate", old.reply_id)
                if old is not None:
                    inbox_id = old.id
                else:
                    inbox_id = self._record(books, mail, source, source_key, game, now)
            else:
                inbox_id = self._record(books, mail, source, source_key, game, now)
        if not mail.no_reply and mail.reply_to and not self.limits.answers.allowed(mail.reply_to.lower()):
            mail.no_reply = f"too many mails from {mail.reply_to} just now"
        if mail.no_reply or not mail.reply_to:
            why = mail.no_reply or "it gives no address to answer"
            log.warning("mail %s from %s not answered: %s", inbox_id, mail.from_address or envelope_from, why)
            with self.gm.mailroom.open() as books:
                books.settle_received(inbox_id, "ignored", error=f"not answered: {why}")
            return Received(inbox_id, "ignored")
        try:
            self.limits.answers.failed(mail.reply_to.lower())  # every answer takes one
            session = _Session(self.gm, mail.reply_to, game, self.limits, mail, self.config.gm_credential_hash,
                               help_text(self.config.game_address("GAME")))
            statements = read_commands(mail.text)
            session.run(statements)
            body = self._answer(mail, session, statements)
            status, error = "answered", None
        except Exception as exc:  # noqa: BLE001 - a fault of ours: the player still gets an answer
            log.exception("mail %s from %s: processing failed", inbox_id, mail.reply_to)
            body = ("The gamesmaster could not finish reading your mail because of a fault of its own "
                    f"({type(exc).__name__}). Some of it may have been carried out before the fault: send LIST or "
                    "STATUS to see what is on record. The gamesmaster has been told.")
            session, status, error = None, "failed", f"{type(exc).__name__}: {exc}"
        subject = mail.subject or "your mail"
        if not subject.lower().startswith("re:"):
            subject = "Re: " + subject
        msg = compose(self.config, [mail.reply_to], subject, body, now=self.now(), in_reply_to=mail.message_id,
                      references=mail.references, auto="auto-replied", game=game,
                      attachments=tuple(session.attachments) if session else ())
        with self.gm.mailroom.open() as books:
            reply_id = queue(books, self.config, msg, kind="reply", now=now, game=game)
            if session is not None:
                self._contacts(books, session, mail.reply_to, now)
            books.settle_received(inbox_id, status, reply_id=reply_id, error=error)
        self.wake()
        return Received(inbox_id, status, reply_id, body)

    def _record(self, books: MailBooks, mail: Incoming, source: str, source_key: str | None, game: str | None,
                now: datetime) -> int:
        return books.record_received(
            received_at=now, source=source, source_key=source_key, message_id=(mail.message_id or "")[:500] or None,
            sender=mail.reply_to, recipients=[storable(r)[:320] for r in mail.recipients[:50]],
            subject=storable(mail.subject), size=mail.size, body=storable(mask(mail.text))[:200_000],
            notes=[storable(n)[:500] for n in mail.notes[:50]], game_id=game)

    def _answer(self, mail: Incoming, session: _Session, statements: Sequence[Statement]) -> str:
        head = [f"The gamesmaster ({self.config.address}) has read your mail"
                + (f" of {headers.subject(mail.date)}" if mail.date else "") + (f", '{mail.subject}'" if mail.subject else "") + "."]
        if not statements:
            head.append("It holds no commands and no orders, so nothing was done. The commands are:\n")
            head.append(help_text(self.config.game_address("GAME")))
        body = "\n".join(head)
        blocks = [b for b in session.blocks if b]
        if blocks:
            body += "\n\n" + "\n\n".join(blocks)
        if session.passed_over:
            body += ("\n\nNot read as orders (greetings and signatures): "
                     + ", ".join(repr(mask(x.strip())[:80]) for x in session.passed_over[:10]) + ".")
        if mail.notes:
            body += "\n\nAbout your mail:\n" + "\n".join(f"  - {n}" for n in mail.notes)
        body += ("\n\n-- \nThe gamesmaster. Send HELP for the commands; every mail is answered. "
                 "Keep your credential secret: anyone who has it can order for you.\n")
        return body

    def _contacts(self, books: MailBooks, session: _Session, address: str, now: datetime) -> None:
        """Record the address the players who signed on wrote from; tell an old address it changed."""
        for game, number in dict.fromkeys(session.contacts):
            seat = next((x for x in self.gm.games.game(game).seats if x.number == number), None)
            if seat is None:
                continue
            name = seat.name
            old = books.set_contact(game, number, address, now, "mail")
            if old:
                msg = compose(self.config, [old], f"{game}: your address for results has changed",
                              f"A mail signed with {name}'s credential for {game} came from {address}. From now on "
                              f"the gamesmaster mails {name}'s results and press there, not to {old}.\n\n"
                              "If this was not you, your credential is known to someone else: tell the gamesmaster "
                              "at once.\n", now=now, game=game)
                queue(books, self.config, msg, kind="notice", now=now, game=game)


def _questions(rows: Sequence[QuestionView], game: str) -> str:
    """Questions to the gamesmaster and their answers, for a mail."""
    if not rows:
        return f"No questions in {game}."
    out = []
    for q in rows:
        out.append(f"Question {q.number} from {texts.cap(q.power)} ({'answered' if q.answered else 'not answered yet'}):")
        out.extend(f"  > {line}" for line in q.text.splitlines())
        for a in q.answers:
            out.append(f"  Answered {'for everyone' if a.public else 'privately'}:")
            out.extend(f"    {line}" for line in a.text.splitlines())
    return "\n".join(out)


def storable(text: str) -> str:
    """A received text as any database stores it: NUL and lone surrogates replaced by U+FFFD."""
    return _UNSTORABLE.sub("\ufffd", text)


_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


def _header_recipients(raw: bytes) -> list[str]:
    from email import policy
    from email.parser import BytesHeaderParser
    from email.utils import getaddresses
    try:
        msg = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)
        values = [str(v) for h in ("Delivered-To", "X-Original-To", "To", "Cc") for v in (msg.get_all(h) or [])]
        return [a for _, a in getaddresses(values) if "@" in a]
    except Exception:  # noqa: BLE001
        return []
