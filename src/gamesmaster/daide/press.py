"""DAIDE press in words for people, and back to tokens for bots.

A bot's press (`SND`) goes on the record through `Gamesmaster.post_press` like anyone's,
so the people in the game read it on the site. Free text (`SND (FRA) ('Hello')`, DAIDE
level 8000) is kept as it was written. A structured message (`PRP (PCE (ENG FRA))`) is
kept as a sentence for people followed by a last line `DAIDE: ` and the message in
DAIDE's written form, which `tokens_of_press` reads back so that another bot receives
exactly the message that was sent. Press from people reaches bots as free text.

`words` renders every construct of the press levels this door accepts (peace and
alliances, order proposals, multi-part and nested arrangements, supply-centre deals,
queries, insistence, suggestions, accusations, the future, conditionals, forwarding);
whatever it does not know it writes in DAIDE's own words rather than refusing it.
"""

from __future__ import annotations

from typing import Callable

from ..gm import Phase
from .board import read_unit, read_verb
from .syntax import Group, Reader, Unbalanced, Unreadable, parse_text, render
from .tokens import T, Vocabulary, is_text

MARKER = "DAIDE: "
LEVEL = 8000  # the press level announced in HLO when the game allows press: everything, free text included

# Tokens a press message may begin with; anything else is a syntax error (HUH).
OPENERS = frozenset({T.PRP, T.YES, T.REJ, T.BWX, T.HUH, T.CCL, T.FCT, T.TRY, T.INS, T.QRY, T.THK, T.IDK, T.SUG,
                     T.WHT, T.HOW, T.EXP, T.SRY, T.WHY, T.POB, T.FRM, T.FWD, T.BCC, T.IFF, T.FOR, T.XOY, T.YDO,
                     T.NOT, T.NAR, T.PCE, T.ALY, T.DRW, T.SLO, T.XDO, T.DMZ, T.AND, T.ORR, T.SCD, T.OCC, T.CHO})


def check(group: Group) -> None:
    """A press message must be free text or begin with a press token; Unreadable marks where it goes wrong."""
    r = group.reader()
    first = r.peek()
    if isinstance(first, int) and is_text(first):
        r.string()
        return
    if first not in OPENERS:
        raise r.fail("not a press message")


def free_text(group: Group) -> str | None:
    """The text of a level-8000 message, or None when the message is structured."""
    r = group.reader()
    first = r.peek()
    if isinstance(first, int) and is_text(first):
        return r.string()
    return None


def stored(vocab: Vocabulary, group: Group) -> str:
    """A press message as it goes on the record: free text as written, else words and the DAIDE form."""
    text = free_text(group)
    if text is not None:
        return text
    return f"{sentence(vocab, group)}\n\n{MARKER}{render(vocab, group.inner())}"


def tokens_of_press(vocab: Vocabulary, text: str) -> list[int] | None:
    """The DAIDE message kept in a stored press text's last line, or None (the text is free text)."""
    last = text.rstrip().rsplit("\n", 1)[-1]
    if not last.startswith(MARKER):
        return None
    try:
        tokens = parse_text(vocab, last[len(MARKER):])
        Group.parse(tokens)
    except (ValueError, Unbalanced):
        return None
    return tokens


def sentence(vocab: Vocabulary, group: Group) -> str:
    """A press message in words, as a sentence."""
    said = words(vocab, group)
    return said[:1].upper() + said[1:] + ("" if said.endswith((".", "?", "!")) else ".")


def words(vocab: Vocabulary, group: Group) -> str:
    """A press message, or any part of one, in words."""
    try:
        return _Words(vocab).message(group.reader())
    except (Unreadable, KeyError, IndexError, ValueError):
        return render(vocab, group.inner())


class _Words:
    """The renderer: one method a construct, each reading from a Reader."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.table: dict[int, Callable[[Reader], str]] = {
            T.PRP: lambda r: "proposes " + self.part(r), T.YES: lambda r: "agrees to " + self.part(r),
            T.REJ: lambda r: "rejects " + self.part(r), T.BWX: lambda r: "says it is none of your business: " + self.part(r),
            T.HUH: lambda r: "does not understand " + self.part(r), T.CCL: lambda r: "cancels " + self.part(r),
            T.FCT: lambda r: "states as a fact: " + self.part(r), T.TRY: lambda r: "would talk about " + self.names(r),
            T.INS: lambda r: "insists on " + self.part(r), T.QRY: lambda r: "asks whether " + self.part(r),
            T.THK: lambda r: "thinks " + self.part(r), T.IDK: lambda r: "does not know about " + self.part(r),
            T.SUG: lambda r: "suggests " + self.part(r), T.WHT: lambda r: "asks what to do with " + self.part(r),
            T.HOW: lambda r: "asks how to attack " + self.part(r), T.EXP: self.explain,
            T.SRY: lambda r: "is sorry about " + self.part(r), T.WHY: lambda r: "asks why " + self.part(r),
            T.POB: lambda r: "explains by the position on the board: " + self.part(r),
            T.FWD: self.forward, T.BCC: self.forward, T.FRM: self.quoted, T.IFF: self.conditional,
            T.FOR: self.future, T.XOY: lambda r: f"{self.power(r.sub())} owes {self.power(r.sub())} a favour",
            T.YDO: lambda r: f"{self.power(r.sub())} orders for {self.units(r)}",
            T.NOT: lambda r: "not " + self.part(r), T.NAR: lambda r: "no agreement on " + self.part(r),
            T.PCE: lambda r: "peace between " + self.powers(r.sub()),
            T.ALY: self.alliance, T.DRW: self.draw, T.SLO: lambda r: f"a solo win for {self.power(r.sub())}",
            T.XDO: lambda r: f"the order {self.order(r.sub())}", T.DMZ: self.dmz,
            T.AND: lambda r: self.joined(r, "and"), T.ORR: lambda r: self.joined(r, "or"),
            T.SCD: self.centres, T.OCC: lambda r: "occupation by " + self.units(r), T.CHO: self.choose,
        }

    def message(self, r: Reader) -> str:
        """A message or arrangement: its leading token's construct."""
        head = r.token()
        return self.table[head](r)

    def part(self, r: Reader) -> str:
        """The next item, a bracketed message or arrangement (a proposal inside a reply: 'the proposal of ...')."""
        sub = r.sub()
        if sub.peek() == T.PRP:
            sub.token()
            return "the proposal of " + self.part(sub)
        if sub.peek() in _VERBS:
            return f'"{self.message(sub)}"'
        return self.message(sub)

    def power(self, r: Reader) -> str:
        """One power by name."""
        return self.vocab.variant.powers[self.vocab.power_ids[r.token()]].name

    def powers(self, r: Reader) -> str:
        """Powers, as a list in words."""
        names = []
        while r.more():
            names.append(self.power(r))
        return _listed(names)

    def names(self, r: Reader) -> str:
        """Tokens by their names (TRY lists the tokens a bot understands)."""
        return " ".join(self.vocab.names.get(t, "?") for t in r.sub().group.inner())

    def alliance(self, r: Reader) -> str:
        """ALY (powers) VSS (powers)."""
        allies = self.powers(r.sub())
        r.token(T.VSS)
        return f"an alliance of {allies} against {self.powers(r.sub())}"

    def draw(self, r: Reader) -> str:
        """DRW, or DRW (powers)."""
        return "a draw" + (f" between {self.powers(r.sub())}" if r.more() else "")

    def dmz(self, r: Reader) -> str:
        """DMZ (powers) (provinces)."""
        who = self.powers(r.sub())
        places = r.sub()
        provinces = []
        while places.more():
            provinces.append(self.vocab.variant.map.provinces[self.vocab.province_ids[places.token()]].name)
        return f"{who} keeping out of {_listed(provinces)}"

    def joined(self, r: Reader, word: str) -> str:
        """AND / ORR of arrangements."""
        parts = [self.message(sub) for sub in r.rest()]
        return f" {word} ".join(f"({p})" if " and " in p or " or " in p else p for p in parts)

    def centres(self, r: Reader) -> str:
        """SCD (power centre ...) ..."""
        shares = []
        for sub in r.rest():
            who = self.power(sub)
            places = []
            while sub.more():
                places.append(self.vocab.variant.map.provinces[self.vocab.province_ids[sub.token()]].name)
            shares.append(f"{who} to have {_listed(places) or 'no supply centre'}")
        return "supply centres shared out: " + "; ".join(shares)

    def choose(self, r: Reader) -> str:
        """CHO (low high) (arrangement) ..."""
        bounds = r.sub()
        low, high = bounds.integer(), bounds.integer()
        return f"between {low} and {high} of: " + "; ".join(self.message(sub) for sub in r.rest())

    def explain(self, r: Reader) -> str:
        """EXP (turn) (message)."""
        when = self.turn(r.sub())
        return f"explains {self.part(r)} ({when})"

    def forward(self, r: Reader) -> str:
        """FWD or BCC (powers) (powers)."""
        return f"asks to forward press from {self.powers(r.sub())} to {self.powers(r.sub())}"

    def quoted(self, r: Reader) -> str:
        """FRM (power) (powers) (message) passed on."""
        sender = self.powers(r.sub())
        r.sub()
        return f"passes on what {sender} said: {self.part(r)}"

    def conditional(self, r: Reader) -> str:
        """IFF (arrangement) THN (message) [ELS (message)]."""
        said = f"if {self.part(r)}"
        r.token(T.THN)
        said += f", then {self.part(r)}"
        if r.accept(T.ELS):
            said += f", and otherwise {self.part(r)}"
        return said

    def future(self, r: Reader) -> str:
        """FOR (turn) or ((turn) (turn)), then an arrangement."""
        when = r.sub()
        if isinstance(when.peek(), Group):
            period = f"from {self.turn(when.sub())} to {self.turn(when.sub())}"
        else:
            period = f"in {self.turn(when)}"
        return f"{period}: {self.part(r)}"

    def turn(self, r: Reader) -> str:
        """A turn in words: 'Spring 1902 movement'."""
        season = r.token(T.SPR, T.SUM, T.FAL, T.AUT, T.WIN)
        year = r.integer()
        kind = {T.SPR: ("S", "M"), T.SUM: ("S", "R"), T.FAL: ("F", "M"), T.AUT: ("F", "R"), T.WIN: ("W", "A")}[season]
        return Phase(kind[0], year, kind[1]).title

    def units(self, r: Reader) -> str:
        """The remaining unit groups in words."""
        return _listed([self.unit(sub) for sub in r.rest()])

    def unit(self, r: Reader) -> str:
        """One unit: 'the English fleet in London'."""
        power = self.vocab.variant.powers[self.vocab.power_ids[r.token()]]
        kind = "army" if r.token(T.AMY, T.FLT) == T.AMY else "fleet"
        item = r.peek()
        token = item if isinstance(item, int) else item.items[0] if isinstance(item, Group) else None
        if not isinstance(token, int):
            raise Unreadable(r.i)
        r.i += 1
        return f"the {power.adjective} {kind} in {self.vocab.variant.map.provinces[self.vocab.province_ids[token]].name}"

    def order(self, r: Reader) -> str:
        """XDO's order in gamesmaster's notation, with the power's name."""
        u = read_unit(r, self.vocab)
        order, _ = read_verb(r, self.vocab, u, r.token())
        return str(order) + f" ({self.vocab.variant.powers[u.power].name})"


# Messages (rather than arrangements): inside a reply they are quoted.
_VERBS = frozenset({T.YES, T.REJ, T.BWX, T.HUH, T.CCL, T.FCT, T.TRY, T.INS, T.QRY, T.THK, T.IDK, T.SUG, T.WHT,
                    T.HOW, T.EXP, T.SRY, T.WHY, T.POB, T.FWD, T.BCC, T.FRM, T.IFF})


def _listed(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
