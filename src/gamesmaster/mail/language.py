"""The commands a player writes in the body of a mail, in the e-mail judges' spirit.

One command a line, keywords in any case; every line that is not a command, after a
sign-on, is an order (or part of conditional orders). See docs/mail.md for the whole
language with examples. This module only reads lines into statements; `intake` carries
them out through the gm API.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any, Literal

_CREDENTIAL = re.compile(r"^\d+\.[A-Za-z0-9_\-]{4,}$")


@dataclass(frozen=True)
class Statement:
    """One command (or order line, kind 'text') read from the mail."""

    line: int  # 1-based, in the text read
    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    written: str = ""

    @property
    def echo(self) -> str:
        """The line as written, with any credential's secret masked."""
        return mask(self.written)


def mask(text: str) -> str:
    """A text with every credential's secret (a player's, or the GM's 'gm.SECRET') replaced by ****."""
    return re.sub(r"\b(\d+|gm)\.[A-Za-z0-9_\-]{4,}", r"\1.****", text, flags=re.I)


def is_credential(token: str) -> bool:
    return bool(_CREDENTIAL.match(token))


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t]


def _powers(text: str) -> list[str] | None:
    """'France, Germany and Italy' -> ['France', 'Germany', 'Italy']; 'all'/'everyone'/'' -> None."""
    text = re.sub(r"\band\b|&", ",", text, flags=re.I)
    names = [n for n in _tokens(text) if n.lower() not in ("to", "between", "among", "with")]
    if not names or [n.lower() for n in names] in (["all"], ["everyone"], ["everybody"], ["public"]):
        return None
    return names


_SIMPLE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?:withdraw|cancel)(?:\s+(?:my\s+)?orders)?$", re.I), "withdraw"),
    (re.compile(r"^(?:list|show\s+orders|orders\s*\?|list\s+orders)$", re.I), "list"),
    (re.compile(r"^ready$", re.I), "ready"),
    (re.compile(r"^(?:not\s+ready|unready)$", re.I), "unready"),
    (re.compile(r"^(?:list\s+)?proposals$", re.I), "proposals"),
    (re.compile(r"^(?:list\s+)?questions$", re.I), "questions"),
    (re.compile(r"^help$", re.I), "help"),
    (re.compile(r"^(?:sign\s*-?\s*off|end|quit|bye)$", re.I), "signoff"),
    (re.compile(r"^end\s*-?\s*press$", re.I), "endpress"),
]

_SIGNON = re.compile(r"^sign\s*-?\s*on\b[:\s]*(.*)$", re.I)
_GAME = re.compile(r"^game\s*:?\s+(\S+)$", re.I)
_POWER = re.compile(r"^(?:power|country)\s*:?\s+(.+?)\s*:?$", re.I)
_CRED = re.compile(r"^(?:credential|password|secret)\s*:?\s+(\S+)$", re.I)
_ORDERS = re.compile(r"^orders?(?:\s+for)?(?:\s+([SFWA]\d{3,5}[MRA]))?\s*:?$", re.I)
_PHASE = re.compile(r"^phase\s*:?\s+(\S+)$", re.I)
_PRESS = re.compile(r"^(press|broadcast)\b(.*)$", re.I)
_QUESTION = re.compile(r"^(?:question|ask)(?:\s+(?:to\s+)?(?:the\s+)?(?:gm|gamesmaster))?(?:\s*:\s*(.*)|\s*)$", re.I)
_ANSWER = re.compile(r"^answer\s+(?:question\s+)?#?(\d+)(\s+(?:public(?:ly)?|to\s+(?:all|everyone)))?(?:\s*:\s*(.*)|\s*)$",
                     re.I)
_END_BLOCK = {"press": re.compile(r"^end\s*-?\s*press$", re.I),
              "question": re.compile(r"^end(?:\s*-?\s*(?:press|question))?$", re.I),
              "answer": re.compile(r"^end(?:\s*-?\s*(?:press|answer))?$", re.I)}
_DRAW = re.compile(r"^(?:propose\s+(?:a\s+)?)?draw\b(.*)$", re.I)
_CONCEDE = re.compile(r"^(?:propose\s+(?:a\s+)?concession|concede)(?:\s+(?:the\s+game\s+)?to)?\s+(\S+)$", re.I)
_VOTE = re.compile(r"^vote\s+(?:(?:on\s+)?(?:proposal\s+)?#?(\d+)\s*:?\s+)?(yes|no|y|n|accept|reject|for|against)"
                   r"(?:\s+(?:on\s+)?(?:proposal\s+)?#?(\d+))?$", re.I)
_ACCEPT = re.compile(r"^(accept|reject)\s+(?:proposal\s+)?#?(\d+)$", re.I)
_STATUS = re.compile(r"^status(?:\s+(?:of\s+)?(\S+))?$", re.I)
_HISTORY = re.compile(r"^(?:history|results)(?:\s+(\S+))?(?:\s+(\S+))?$", re.I)
_RECEIPT = re.compile(r"^(?:check\s+)?receipt\s*:?\s+(\S+)$", re.I)
_DISPUTE = re.compile(r"^dispute\s+(?:receipt\s*:?\s*)?(\S+)(?:\s+(.*))?$", re.I)
_RECORD = re.compile(r"^record(?:\s+(\S+))?(?:\s+(\S+))?$", re.I)
_RESIGN = re.compile(r"^resign(?:\s+(?:successor|in\s+favou?r\s+of|naming)\s*:?\s+(.+))?$", re.I)
# RESIGN Ken Davidson: the successor named without the keyword, when the words are a name (capitals, no digits),
# so that a sentence beginning "Resign if ..." is never taken for one
_RESIGN_NAME = re.compile(r"^(?i:resign)\s+([^\W\d_a-z][\w.'\-]*(?:\s+[^\W\d_a-z][\w.'\-]*){0,3})$")


def _press_header(rest: str, broadcast: bool) -> dict[str, Any]:
    rest = rest.strip()
    text = None
    if ":" in rest:
        rest, _, text = rest.partition(":")
        text = text.strip() or None
    anonymous = bool(re.search(r"\banon(?:ymous(?:ly)?)?\b", rest, re.I))
    rest = re.sub(r"\banon(?:ymous(?:ly)?)?\b", " ", rest, flags=re.I)
    to = None
    m = re.match(r"^\s*to\s+(.*)$", rest, re.I)
    if m and not broadcast:
        to = _powers(m.group(1))
    elif rest.strip() and not broadcast:
        to = _powers(rest)
    return {"to": to, "anonymous": anonymous, "text": text}


def read_commands(text: str) -> list[Statement]:
    """The statements of a mail's text, in order; reading stops at SIGNOFF."""
    out: list[Statement] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    press: dict[str, Any] | None = None
    press_lines: list[str] = []
    press_start = 0
    closed = False  # a closing ('Cheers,') was read: a bare name after it is a signature
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if press is not None:
            if _END_BLOCK[press["kind"]].match(line) or re.match(r"^(?:sign\s*-?\s*off)$", line, re.I):
                written, kind = press.pop("written"), press.pop("kind")
                out.append(Statement(press_start, kind, {**press, "text": "\n".join(press_lines).strip()}, written))
                press = None
                if line.lower().replace(" ", "").replace("-", "") == "signoff":
                    out.append(Statement(n, "signoff", {}, line))
                    return out
                continue
            press_lines.append(raw.rstrip())
            continue
        if not line:
            continue
        st = _statement(n, line)
        if st.kind == "text" and (kind := courtesy(line, closed)):
            st = Statement(n, "text", {"text": line, "courtesy": kind}, line)
        closed = closed or (st.kind == "text" and st.args.get("courtesy") == "closing")
        if st.kind in ("press", "question", "answer") and st.args.get("text") is None:
            press, press_lines, press_start = {**st.args, "written": line, "kind": st.kind}, [], n
            continue
        out.append(st)
        if st.kind == "signoff":
            return out
    if press is not None:
        written, kind = press.pop("written"), press.pop("kind")
        out.append(Statement(press_start, kind, {**press, "text": "\n".join(press_lines).strip(), "unended": True},
                             written))
    return out


@cache
def _courtesy() -> dict[str, re.Pattern[str]]:
    """The patterns of greetings, closings and mail programs' signature lines (data/pleasantries.json)."""
    doc = json.loads(files(__package__).joinpath("data/pleasantries.json").read_text(encoding="utf-8"))
    return {kind: re.compile("^(?:" + "|".join(doc[kind]) + ")$", re.I) for kind in ("greetings", "closings", "device")}


_NAME = re.compile(r"^[^\W\d_][\w.'\-]*(?:\s+[^\W\d_][\w.'\-]*){0,2}$")


Courtesy = Literal["greeting", "closing", "signature"]


def courtesy(line: str, after_closing: bool) -> Courtesy | None:
    """What kind of courtesy a line is ('greeting', 'closing', 'signature'), or None. after_closing: a closing
    came before it (so a bare name is the writer's). The caller still reads such a line as an order if it reads
    as one: this only says it need not be one."""
    text = line.strip()
    pats = _courtesy()
    if pats["greetings"].match(text):
        return "greeting"
    if pats["closings"].match(text):
        return "closing"
    if pats["device"].match(text) or (after_closing and _NAME.match(text)):
        return "signature"
    return None


def _statement(n: int, line: str) -> Statement:
    bare = line.rstrip(".!").strip()
    for pattern, kind in _SIMPLE:
        if pattern.match(bare):
            return Statement(n, kind, {}, line)
    m = _SIGNON.match(bare)
    if m:
        return Statement(n, "signon", {"tokens": _tokens(m.group(1))}, line)
    m = _GAME.match(bare)
    if m:
        return Statement(n, "game", {"game": m.group(1)}, line)
    m = _CRED.match(bare)
    if m:
        return Statement(n, "credential", {"credential": m.group(1)}, line)
    m = _POWER.match(bare)
    if m:
        return Statement(n, "power", {"power": m.group(1)}, line)
    m = _ORDERS.match(bare)
    if m:
        return Statement(n, "orders", {"phase": m.group(1).upper() if m.group(1) else None}, line)
    m = _PHASE.match(bare)
    if m:
        return Statement(n, "orders", {"phase": m.group(1).upper()}, line)
    m = _ANSWER.match(line.strip())
    if m:
        return Statement(n, "answer", {"question": int(m.group(1)), "public": bool(m.group(2)),
                                       "text": (m.group(3) or "").strip() or None}, line)
    m = _QUESTION.match(line.strip())
    if m:
        return Statement(n, "question", {"text": (m.group(1) or "").strip() or None}, line)
    m = _PRESS.match(line)
    if m:
        return Statement(n, "press", _press_header(m.group(2), m.group(1).lower() == "broadcast"), line)
    m = _CONCEDE.match(bare)
    if m:
        return Statement(n, "concede", {"to": m.group(1)}, line)
    m = _DRAW.match(bare)
    if m and not re.match(r"^\s*[-–—>]", m.group(1)):
        return Statement(n, "draw", {"powers": _powers(m.group(1))}, line)
    m = _VOTE.match(bare)
    if m:
        yes = m.group(2).lower() in ("yes", "y", "accept", "for")
        pid = m.group(1) or m.group(3)
        return Statement(n, "vote", {"proposal": int(pid) if pid else None, "yes": yes}, line)
    m = _ACCEPT.match(bare)
    if m:
        return Statement(n, "vote", {"proposal": int(m.group(2)), "yes": m.group(1).lower() == "accept"}, line)
    m = _STATUS.match(bare)
    if m:
        return Statement(n, "status", {"game": m.group(1)}, line)
    m = _HISTORY.match(bare)
    if m:
        return Statement(n, "history", {"args": [a for a in (m.group(1), m.group(2)) if a]}, line)
    m = _DISPUTE.match(bare)
    if m:
        return Statement(n, "dispute", {"receipt": m.group(1), "text": (m.group(2) or "").strip()}, line)
    m = _RECEIPT.match(bare)
    if m:
        return Statement(n, "receipt", {"receipt": m.group(1)}, line)
    m = _RECORD.match(bare)
    if m:
        return Statement(n, "record", {"args": [a for a in (m.group(1), m.group(2)) if a]}, line)
    m = _RESIGN.match(bare) or _RESIGN_NAME.match(bare)
    if m:
        return Statement(n, "resign", {"successor": m.group(1).strip() if m.group(1) else None}, line)
    return Statement(n, "text", {"text": line}, line)


HELP = """\
Commands, one a line (any case); after SIGNON every other line is an order (greetings and
signatures such as 'Cheers, Ann' are passed over, unless they read as orders).

  SIGNON GAME POWER CREDENTIAL   sign on (POWER may be left out; GAME too when you write
                                 to the game's own address, {game_address})
  POWER NAME                     orders that follow are for that power (a stand-by's second power)
  ORDERS [PHASE]                 optional: the orders follow; with a phase (S1901M) they are
                                 refused if the game has moved on. Orders without a phase,
                                 written before the phase now open began, are refused as late
                                 unless the mail answers the results that opened it
  A Par-Bur                      an order: one a line, any notation; 'next season:' then
                                 'if ...:' / 'otherwise:' clauses file conditional orders
                                 ('retreats:', 'adjustments:' ...: any later phase of the year)
  WITHDRAW                       withdraw your orders for this phase
  LIST                           your orders on record, with the receipt
  READY / NOT READY              ready for early processing (where the game allows it)
  PRESS TO France, Germany       a letter to those powers (PRESS TO ALL or BROADCAST: to
  ...text...                     everyone; add ANONYMOUS where the game allows it); the text
  ENDPRESS                       ends at ENDPRESS
  QUESTION (or ASK)              a question to the gamesmaster, private between you; the text
  ...text...                     follows (or on the same line after 'QUESTION:') and ends at
  END                            END (or ENDQUESTION). The answer comes by mail. A mail with
                                 not one line that reads as an order is kept as a question too.
  QUESTIONS                      your questions and their answers (the GM: every question)
  DRAW [powers]                  propose a draw (all survivors, or those named)
  CONCEDE TO POWER               propose conceding the game to a power
  VOTE [N] YES|NO                vote on proposal N (or the only open one)
  PROPOSALS                      the open proposals
  STATUS [GAME]                  the game: phase, deadline, powers
  HISTORY [GAME] [PHASE]         the published results (and the press you may read)
  RECORD [GAME] [PHASE]          a published phase's whole record: every set of orders as sent,
                                 with times and commitments; the public record is attached
  RECEIPT GAME/PHASE/POWER/N:... check a receipt against the record
  DISPUTE RECEIPT [WHY]          you did not send the set that replaced your receipt's: say so
                                 on the record (every player and the gamesmaster are told)
  RESIGN [[SUCCESSOR] NAME]      resign your power (naming a successor where the game allows)
  HELP                           this list
The gamesmaster (signed on with SIGNON GAME GM GM-CREDENTIAL, where the mail door knows it):
  ANSWER N [PUBLIC]              answer question N: to its asker, or (PUBLIC) to everyone with
  ...text...                     the question quoted and its asker not named; the text ends
  END                            at END
  SIGNOFF                        stop reading (anything after it is ignored)
"""


def help_text(game_address: str) -> str:
    """The list of commands, naming the game's own address as this door writes it ('gm+GAME@club.example')."""
    return HELP.replace("{game_address}", game_address)
