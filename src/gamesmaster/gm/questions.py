"""Questions to the gamesmaster (seed 000: the GM "answers any questions"), and the GM's answers.

A question is a letter from a power to the GM: only its asker and the GM may read it,
whatever the game's press setting (a question is not diplomacy). The GM answers it
privately (a notice to the asker) or publicly (a notice to everyone, the question quoted
without its asker). Both are press entries on the ledger, numbered, so the record shows
every question and its answers; plans of campaign go to the GM the same way.
"""

from __future__ import annotations

from typing import Sequence

from ..store.repo import PressRow
from . import limits
from .desk import Actor, Desk, acting
from .errors import GMError, NotFound
from .state import GM, GameState, Question
from .tx import Transaction
from .views import QuestionAnswer, QuestionView


def own_number(state: GameState, q: Question) -> int:
    """The question's number among its asker's own: what the asker is told, so that it counts no one else's."""
    return sum(1 for other in state.questions[:q.id] if other.power == q.power)


def _question(state: GameState, number: int) -> Question:
    if not 1 <= int(number) <= len(state.questions):
        raise NotFound(f"no question {number} in {state.id}")
    return state.questions[int(number) - 1]


def record_question(tx: Transaction, actor: Actor, text: str, channel: str) -> int:
    """A question on the record: a letter from the asking power to the GM.

    Returns the number its reader knows it by: the game's for the GM, the asker's own count for a
    player (the game's would tell a player how many questions the others had asked)."""
    if actor.power is None:
        raise GMError("a question is asked for a power: name the power")
    number = len(tx.state.questions) + 1
    tx.press(actor.power, text, [GM], False, actor.signed(tx.state), {"question": number, "channel": channel})
    if actor.is_gm:
        return number
    return 1 + sum(1 for q in tx.state.questions[:number - 1] if q.power == actor.power)


def is_to_gm(to: Sequence[str] | None) -> bool:
    """Whether press is addressed to the gamesmaster alone (and so is a question)."""
    return bool(to) and [str(t).strip().upper() for t in to or ()] in (["GM"], ["GAMESMASTER"])


def quoted(text: str) -> str:
    """A question as an answer quotes it."""
    return "\n".join(f"> {line}" for line in text.strip().splitlines())


def questions_of(state: GameState, rows: Sequence[PressRow], who: str) -> tuple[QuestionView, ...]:
    """The questions a reader (GM, or a power) may see, with their answers (from the game's press rows);
    a power's numbered in its own count."""
    press = {p.number: p for p in rows}
    out = []
    for q in state.questions:
        asked = press.get(q.press)
        if asked is None or who not in (GM, q.power):
            continue
        answers = tuple(QuestionAnswer(press[n].text, public, press[n].sent_at) for n, public in zip(q.answers, q.public)
                        if n in press)
        number = q.id if who == GM else own_number(state, q)
        out.append(QuestionView(number, q.power, q.phase, asked.sent_at, asked.text, answers))
    return tuple(out)


class Questions:
    """Players' questions to the gamesmaster and the GM's answers, on the record."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def ask(self, game_id: str, text: str, *, power: str | None = None, credential: str | None = None,
            by_gm: bool = False, channel: str = "web") -> int:
        """A power's question to the gamesmaster (private between them); returns the question's number."""
        text = limits.clean(text, "the question", limits.PRESS_CHARS).strip()
        if not text:
            raise GMError("the question is empty")
        with self._desk.transaction(game_id) as tx:
            actor = acting(tx.rec, tx.state, power, credential, by_gm, now=tx.now)
            return record_question(tx, actor, text, channel)

    def answer_question(self, game_id: str, number: int, text: str, *, public: bool = False) -> int:
        """The gamesmaster answers a question: privately to its asker, or publicly (the question quoted, its
        asker not named); returns the answer's press number."""
        text = limits.clean(text, "the answer", limits.PRESS_CHARS).strip()
        if not text:
            raise GMError("the answer is empty")
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            q = _question(state, number)
            asked = next((p for p in tx.rec.press(game_id) if p.number == q.press), None)
            if asked is None:
                raise NotFound(f"question {number} is not in the press of {game_id}")
            if public:
                body = f"The gamesmaster answers a question a player asked:\n{quoted(asked.text)}\n\n{text}"
            else:
                body = f"Answer to your question {own_number(state, q)}:\n{quoted(asked.text)}\n\n{text}"
            tx.press(GM, body, None if public else [q.power], False, GM, {"answers": q.id})
            return tx.state.press_count

    def unanswered(self) -> dict[str, int]:
        """For the GM's console: how many questions wait for an answer, by game (games with none left out)."""
        out = {}
        with self._desk.reading() as rec:
            for game_id in rec.game_ids():
                waiting = sum(1 for q in self._desk.snapshot(rec, game_id).questions if not q.answers)
                if waiting:
                    out[game_id] = waiting
        return out

    def questions(self, game_id: str, power: str | None = None, *, credential: str | None = None) -> tuple[QuestionView, ...]:
        """The questions a reader may see: the GM (no power, no credential) every one; a power its own."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            who = GM
            if credential is not None or power is not None:
                who = acting(rec, state, power, credential, credential is None, now=self._desk.now()).power or GM
            return questions_of(state, rec.press(game_id), who)
