"""What the JSON API answers: one pydantic model per answer, so /api/openapi.json describes each.

Where an answer is a gm view written as JSON (gm.views.plain), its model is made from the view's
dataclass (`class XOut(ViewOut, view=X)`): the view is declared once, in gm, and a field it gains
is a field of its answer. The models left written out here describe answers that are no one view:
the `gamesmaster adjudicate` document rules writes, documents web puts together from several views,
and the small acknowledgements of an action. A field that is sometimes left out is optional, and
the routes answer with `response_model_exclude_unset` so that it stays left out. Unknown keys are
refused, so a view that grows a field fails the API tests until its answer says what it is.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import sys
from collections import abc
from dataclasses import fields, is_dataclass
from datetime import datetime
from types import UnionType
from typing import Any, ClassVar, Mapping, Sequence, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic._internal._model_construction import ModelMetaclass  # pydantic's metaclass: where a class's fields are read

from ..gm import (AS_RECORD, NOT_WRITTEN, OMIT_NONE, Answer, AwaitingGM, CentreChart, ChartSeries, Checking,
                  Correction, Created, Dispute, Ending, FixedRule, GameHistory, GameView, History, LedgerEntry,
                  LedgerHead, Line, OrderOption, OrderResult, OrdersOnRecord, OrdersSource, OrdersUsed, Phase,
                  PhaseLink, PhaseRecord, PhaseResult, Position, PowerResults, PressItem, Processed, ProposalShown,
                  PublishedPhase, QuestionAnswer, QuestionView, Rating, Receipt, ReceiptCheck, RecordEntry, RuleLine,
                  RuleOptions, RuleSpec, RulesPage, RunningLine, Schedule, SeatView, Settings, Submission,
                  UnitOptions, Variant, VariantChoice, VerifyReport, WebhookStatus, plain_object)

# A rule set as the GM gave it: a preset's name alone, or {"preset": ..., option: value, ...}.


RulesSpec = str | dict[str, Any] | None


class Out(BaseModel):
    """An API answer: its fields are exactly the keys sent."""

    model_config = ConfigDict(extra="forbid")


# -- answers made from gm's views -------------------------------------------------------------

_WRITTEN_AS_TEXT = (datetime, Receipt, Phase, LedgerHead, Variant)  # plain() writes these as strings
_MADE: dict[type, type[BaseModel]] = {}  # a view -> the model that stands for it wherever another view holds it


@functools.lru_cache(maxsize=None)
def _classes_in(module: str) -> dict[str, str]:
    """The source of each class defined at the top of a module, by name, from one reading of the module
    (inspect.getsource parses the whole module again for every class: most of a web process's start)."""
    try:
        source = inspect.getsource(sys.modules[module])
    except (KeyError, OSError, TypeError):
        return {}
    lines = source.splitlines(keepends=True)
    return {node.name: "".join(lines[node.lineno - 1:node.end_lineno])
            for node in ast.parse(source).body if isinstance(node, ast.ClassDef)}


def _described(cls: type) -> dict[str, str]:
    """What each field of a dataclass is, by field name: the comment beside it ('name: type  # what it is'),
    or failing that the comment lines just above it."""
    source = _classes_in(cls.__module__).get(cls.__name__) if cls.__qualname__ == cls.__name__ else None
    if source is None:  # a class inside another
        try:
            source = inspect.getsource(cls)
        except (OSError, TypeError):
            return {}
    out = {m.group(2): " ".join(line.strip().lstrip("#").strip() for line in m.group(1).splitlines())
           for m in re.finditer(r"((?:^    #[^\n]*\n)+)^    (\w+): ", source, re.M)}
    out.update({m.group(1): m.group(2).strip() for m in re.finditer(r"^    (\w+): [^#\n]*#\s*(.+)$", source, re.M)})
    return out


def _json_type(hint: Any) -> Any:
    """The type a value of this annotation has once plain() has written it as JSON."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any or hint is object:
        return Any
    if origin in (Union, UnionType):
        kinds = [_json_type(a) for a in args]
        out = kinds[0]
        for k in kinds[1:]:
            out = out | k
        return out
    if origin in (tuple, list, Sequence, abc.Sequence, abc.Collection):
        return list[_json_type(args[0]) if args else Any]  # type: ignore[misc]
    if origin in (dict, Mapping, abc.Mapping):
        return dict[str, _json_type(args[1]) if len(args) == 2 else Any]  # type: ignore[misc]
    if isinstance(hint, type) and issubclass(hint, _WRITTEN_AS_TEXT):
        return str
    if hint is RuleSpec:
        return RulesSpec  # written as the GM gave it (to_json)
    if isinstance(hint, type) and issubclass(hint, Position):
        return PositionOut  # the `gamesmaster adjudicate` document, which rules writes (to_dict), not a view
    if isinstance(hint, type) and issubclass(hint, (RuleOptions, GameView)):
        return dict[str, Any]  # open documents: every option by name; the console's --json view of a game
    if isinstance(hint, type) and is_dataclass(hint):
        return model_of(hint)
    return hint


def _fields_of(view: type, leave_out: tuple[str, ...] = (), optional: tuple[str, ...] = (),
               renamed: Mapping[str, str] | None = None) -> dict[str, tuple[str, Any, Any]]:
    """A view's written fields as an answer's, by the answer's key: (the view's field, type, Field), in the view's
    order; all but those never written (NOT_WRITTEN) or left out of this answer; optional those left out when
    None (OMIT_NONE) or named; `renamed`: view field -> the key the answer sends it as."""
    hints = get_type_hints(view)
    described = _described(view)
    return {(renamed or {}).get(f.name, f.name): (
                f.name, model_of(hints[f.name]) if f.metadata.get(AS_RECORD) else _json_type(hints[f.name]),
                Field(None if f.metadata.get(OMIT_NONE) or f.name in optional else ..., description=described.get(f.name)))
            for f in fields(view) if not f.metadata.get(NOT_WRITTEN) and f.name not in leave_out}


class _FromView(ModelMetaclass):
    """Gives a model the fields of the view named by its class keyword `view=` before pydantic reads the class:
    the view's fields first, in its order, then any the class body declares (what the answer adds)."""

    def __new__(mcs, cls_name: str, bases: tuple[type[Any], ...], namespace: dict[str, Any],
                view: type | None = None, leave_out: tuple[str, ...] = (), optional: tuple[str, ...] = (),
                renamed: Mapping[str, str] | None = None, **kwargs: Any) -> type:
        if view is not None:
            made = _fields_of(view, leave_out, optional, renamed)
            added = namespace.get("__annotations__", {})
            namespace["__annotations__"] = {**{k: kind for k, (_, kind, _) in made.items()}, **added}
            for key, (_, _, info) in made.items():
                namespace.setdefault(key, info)
            namespace["__view_keys__"] = {key: name for key, (name, _, _) in made.items()}
            if not namespace.get("__doc__"):
                namespace["__doc__"] = (view.__doc__ or "").strip()
        cls = super().__new__(mcs, cls_name, bases, namespace, **kwargs)
        if view is not None and not leave_out and not renamed and view not in _MADE:
            _MADE[view] = cls
        return cls


class ViewOut(Out, metaclass=_FromView):
    """An answer that is a gm view as plain() writes it: `class XOut(ViewOut, view=X, leave_out=(...),
    optional=(...), renamed={...})`, its class body declaring only what the answer adds to the view."""

    __view_keys__: ClassVar[dict[str, str]] = {}  # the answer's key -> the view's field it sends

    def __init_subclass__(cls, view: type | None = None, leave_out: tuple[str, ...] = (),
                          optional: tuple[str, ...] = (), renamed: Mapping[str, str] | None = None,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # the other keywords were the metaclass's (_FromView)

    @classmethod
    def written(cls, view: object, **added: Any) -> dict[str, Any]:
        """The view as this answer sends it: plain()'s JSON, its fields renamed and left out as the model says, in
        the model's order, then what the answer adds (by keyword, as the class body declares it)."""
        doc = plain_object(view)
        return {**{key: doc[name] for key, name in cls.__view_keys__.items() if name in doc}, **added}


def model_of(view: type) -> type[BaseModel]:
    """The model of a view another view holds: the one declared for it (`view=`), or else one made here."""
    if view not in _MADE:
        made = {k: (kind, info) for k, (_, kind, info) in _fields_of(view).items()}
        _MADE[view] = create_model(f"{view.__name__}Out", __base__=Out, __doc__=(view.__doc__ or "").strip(),
                                   **made)  # type: ignore[call-overload]
    return _MADE[view]


# -- small parts ----------------------------------------------------------------------------


class HeadOut(ViewOut, view=LedgerHead):
    """A point in the game's ledger: an entry's number and hash."""


class EndingOut(ViewOut, view=Ending):
    """How the game ended."""


# Not a view: gm's PowerStatus keeps the player's and the stand-by's orders apart, and the list sends them as one.
class PowerSummaryOut(Out):
    """A power in the games list: nothing secret."""

    power: str
    name: str
    colour: str
    player: str | None
    centres: int
    units: int
    to_order: bool = Field(description="whether the power has anything to order this phase")
    ordered: bool = Field(description="whether orders are on record (by the player or a stand-by); not what")
    ready: bool
    missed: int = Field(description="movement phases missed")
    standby: str | None
    commitment: str | None = Field(description="the hash of its orders on record, public while the phase is open")


# Not views: the `gamesmaster adjudicate` document, which rules writes (Position.to_dict).
class DislodgedOut(Out):
    """A dislodged unit and where it may retreat."""

    unit: str
    attacker: str | None = Field(description="the province the dislodging unit came from")
    convoyed: bool | None = Field(None, description="sent only when the attacker came by convoy")
    retreats: list[str]


class PositionOut(Out):
    """A position in the `gamesmaster adjudicate` schema (no orders)."""

    variant: str
    phase: str = Field(description="e.g. S1901M")
    units: dict[str, list[str]] = Field(description="power -> its units, e.g. 'A PAR'")
    centers: dict[str, list[str]] = Field(description="power -> its supply centres")
    dislodged: dict[str, list[DislodgedOut]]
    standoffs: list[str]
    raids: dict[str, str] | None = Field(None, description="sent only in variants with raids")
    destroyed: dict[str, int] | None = Field(None, description="sent only when a power has lost units so")
    neutral: list[str] | None = Field(None, description="sent only in variants with neutral units")


class OrderResultOut(ViewOut, view=OrderResult, optional=("notes", "by_rule")):
    """An order and what became of it, in the `gamesmaster adjudicate` output schema (to_dict leaves out no notes
    and by_rule false)."""


class PressOut(ViewOut, view=PressItem, leave_out=("seq",), renamed={"number": "id"}):
    """A press item: a release, a letter or a GM notice, as the reader may see it."""


class ProposalOut(ViewOut, view=ProposalShown):
    """A draw or concession proposal as everyone may see it: how many have voted; how, only where votes are open."""


class PlayerOut(ViewOut, view=SeatView, leave_out=("number",)):
    """A player of a game (no credential)."""


# The acknowledgements of an action: a value gm returns (a number, a status, a time), or a view, wrapped.
class IdOut(Out):
    """The number given to what was just created (press item, question, proposal)."""

    id: int


class StatusOut(Out):
    """A new status."""

    status: str


class WebhookStatusOut(ViewOut, view=WebhookStatus):
    """A game's webhook, for the GM: where it posts (scheme and host only; the rest is a secret) and how it fares."""


class WebhookOut(Out):
    """The game's webhook (null: none set)."""

    webhook: WebhookStatusOut | None


class DeadlineOut(Out):
    """A new deadline."""

    deadline: str = Field(description="ISO time")


# -- games ----------------------------------------------------------------------------------


# Not views: the games list sends a game's press setting last, the game's document between its result and its
# victory; one view would give both answers the same order, so one would change byte for byte.
class _GameBase(Out):
    """What the games list and a game's document share."""

    id: str
    title: str
    status: str = Field(description="forming, active, paused or finished")
    variant: str
    variant_title: str
    rules: RulesSpec = Field(description="the rules as the GM gave them: a preset's name, or options over it")
    phase: str | None
    phase_title: str | None
    deadline: str | None = Field(description="ISO time")
    deadline_text: str
    powers: list[PowerSummaryOut]
    result: EndingOut | None
    victory_centres: int = Field(description="the set-up's winning number (centres, or units where the criterion counts units)")
    victory: str = Field(description="the victory criterion in force, in words: '18 supply centres win'")
    head: HeadOut = Field(description="where the last results were published: everything before is public")
    awaiting: str | None = Field(None, description="the phase waits, with no deadline, for the gamesmaster's "
                                                   "decision (removals the rules leave to the GM): what it waits for")
    scoring: str = Field(description="the scoring system: none, dss, sos, carnage, c-diplo, manorcon or tribute")
    scores: dict[str, float] = Field(description="power -> score: the final scores once the game has ended, else "
                                                 "what the board would score if it ended now (empty: no scoring)")


class GameSummaryOut(_GameBase):
    """A game as the games list shows it."""

    press: str = Field(description="the press setting: none, public, full or anonymous")


class CreatedOut(ViewOut, view=Created):
    """A game just created, with each player's credential (shown this once)."""

    status: GameSummaryOut


class ScheduleOut(ViewOut, view=Schedule):
    """When orders are due."""


class SettingsOut(ViewOut, view=Settings, optional=("daide_level", "scoring", "min_reliability", "min_games")):
    """How a game is run (Settings.to_dict leaves out a setting at its default that older games lack)."""


# Not a view: the game's document works out each power's centres and their names from the position.
class OwnershipOut(Out):
    """A power's supply centres."""

    power: str
    name: str
    colour: str
    centres: list[str]
    names: list[str]


class ByPowerOut(ViewOut, view=PowerResults):
    """One power's results in a phase."""


class OrdersUsedOut(ViewOut, view=OrdersSource):
    """Whose orders a phase used for a power."""


class PhaseResultOut(ViewOut, view=PublishedPhase):
    """A published phase: its orders' results, by power, and the positions before and after."""


class GameOut(_GameBase):
    """A game's public document."""

    press: list[PressOut] = Field(description="the public press")
    settings: SettingsOut
    ownership: list[OwnershipOut]
    unowned: list[str] | None = Field(None, description="sent once the game has started")
    last_results: PhaseResultOut | None
    player_scores: dict[str, float] = Field(description="player -> the sum of their powers' scores, where a player "
                                                        "commands several powers (else empty)")
    phases: list[str] = Field(description="the phases published")
    proposals: list[ProposalOut]
    players: list[PlayerOut]
    deadlock: bool


class PublishedOut(ViewOut, view=PhaseLink):
    """A phase published."""


class SeriesOut(ViewOut, view=ChartSeries):
    """A power's centre counts, one for each label of the chart."""


class ChartOut(ViewOut, view=CentreChart):
    """Supply-centre counts by power at the start of every year (and now)."""


class HistoryOut(ViewOut, view=GameHistory):
    """The phases published, and the centre counts by year."""


# -- the record -----------------------------------------------------------------------------


# Not views: the public record as a file (`gamesmaster verify --archive` reads it), a document gm writes.
class ArchiveEntryOut(Out):
    """A ledger entry of the public record: its payload as written, or a sealed one's digest."""

    seq: int
    at: str
    kind: str
    prev_hash: str
    hash: str
    payload: str | None = Field(None, description="the payload as its JSON text (left out when sealed)")
    payload_sha256: str | None = Field(None, description="a sealed entry's payload digest (only when sealed)")


class ArchiveOut(Out):
    """The public record, as `gamesmaster verify --archive` reads it."""

    format: str = Field(description="always 'gamesmaster-public-record'")
    version: int
    game: str
    title: str
    head: HeadOut | None
    entries: list[ArchiveEntryOut]


class RecordEntryOut(ViewOut, view=RecordEntry):
    """A public record entry; a submission's orders, salt and commitment once published."""


class PhaseRecordOut(ViewOut, view=PhaseRecord):
    """A published phase's whole record."""


class ReceiptOut(ViewOut, view=ReceiptCheck, leave_out=("disputed",)):
    """What the record says of a receipt."""


class DisputeOut(ViewOut, view=Dispute, leave_out=("player",)):
    """A dispute on the record: the power's player says it did not send this set."""


# -- rules ----------------------------------------------------------------------------------


class RuleLineOut(ViewOut, view=RuleLine):
    """One rule option of a game, in words."""


class RunningOut(ViewOut, view=RunningLine):
    """One heading of how a game is run."""


class FixedRuleOut(ViewOut, view=FixedRule):
    """A rule that no option changes."""


class RulesOut(ViewOut, view=RulesPage):
    """A game's rule options in words, and how it is run."""


class VariantOut(ViewOut, view=VariantChoice):
    """A variant the gamesmaster runs."""


# Not views: the catalogue's presets and options reshaped for the create forms (values as words, pairs as
# objects), and the settings' fixed choices beside them.
class PresetOut(Out):
    """A rule preset, with every option's value."""

    name: str
    title: str
    values: dict[str, str]


class OptionValueOut(Out):
    """One value of a rule option, in words."""

    value: str
    text: str


class OptionOut(Out):
    """A rule option and its values."""

    option: str
    title: str
    section: str
    explanation: str
    values: list[OptionValueOut]
    range: list[int] | None = Field(None, description="sent for an option taking a whole number: its bounds")
    value_text: str | None = Field(None, description="sent for an option taking a whole number: how it reads")


class CatalogueOut(Out):
    """Variants, rule presets, every option's explanation, and the settings' choices."""

    variants: list[VariantOut]
    presets: list[PresetOut]
    options: list[OptionOut]
    press: list[str]
    replacement: list[str]
    draw_vote: list[str]
    votes: list[str]
    scoring: list[str] = Field(description="the scoring systems a game can be created with")


# Not a view: scores of a board the caller sent, rounded.
class ScoresOut(Out):
    """A board's scores under a scoring system."""

    system: str
    scores: dict[str, float] = Field(description="power -> score, two decimals")


# -- a power's own business -----------------------------------------------------------------


class AnswerOut(ViewOut, view=Answer):
    """The answer to one written order: accepted as the canonical order, or why not."""


class CheckingOut(ViewOut, view=Checking, leave_out=("power", "lines")):
    """How orders would be read now: each order answered, the warnings, the conditional part (not the orders sent
    again)."""


class OrdersOnRecordOut(ViewOut, view=OrdersOnRecord):
    """A power's set of orders on record for the current phase (shown to that power and the GM)."""


class SubmissionOut(ViewOut, view=Submission):
    """A power's orders as received: the answer order by order, the warnings and the receipt."""


class OrderOptionOut(ViewOut, view=OrderOption):
    """One legal order as the war room offers it: its canonical text, its kind and the provinces it names."""


class UnitOptionsOut(ViewOut, view=UnitOptions):
    """A unit (or, key 'adjust', a power's builds or removals) and every legal order it may be given."""


class VerifyOut(ViewOut, view=VerifyReport):
    """What `verify` found: every problem, with the ledger entry it breaks."""

    ok: bool = Field(description="true when the record holds")


class WhoOut(ViewOut, view=SeatView):
    """Whose credential this is (the GM's: role gm, and no number)."""


class WithdrawnOut(Out):
    """Orders withdrawn."""

    withdrawn: bool
    ledger_seq: int | None = Field(description="the ledger entry that recorded it: told to the GM only (None for a player)")


class ReadyOut(Out):
    """Whether the power is ready, and the phases processed as a result."""

    ready: bool
    processed: list[str]


# -- press and votes ------------------------------------------------------------------------


class QuestionAnswerOut(ViewOut, view=QuestionAnswer):
    """The GM's answer to a question."""


class QuestionOut(ViewOut, view=QuestionView, renamed={"number": "id"}):
    """A question to the GM and its answers (its number has always gone out as its id)."""


class AnsweredOut(Out):
    """A question answered."""

    press: int = Field(description="the press item the answer went out as")


# -- GM actions -----------------------------------------------------------------------------


class JoinedOut(Out):
    """A player signed up, with the credential (shown this once)."""

    name: str
    credential: str


class StartedOut(ViewOut, view=Created, leave_out=("game", "credentials")):
    """The powers drawn or assigned."""


class AwaitingOut(ViewOut, view=AwaitingGM):
    """A phase waiting, with no deadline, for the gamesmaster's decision."""


class ProcessedOut(ViewOut, view=Processed):
    """One phase adjudicated (or a deadline extended by the grace period)."""


class ResumedOut(Out):
    """The clock started again."""

    status: str
    deadline: str


class ReplacedOut(Out):
    """A new player on a power, with the credential (shown this once)."""

    power: str
    name: str
    credential: str


class CorrectionOut(ViewOut, view=Correction, leave_out=("game",)):
    """A published phase corrected."""


class DrawnOut(Out):
    """How the game ended."""

    result: EndingOut | None


class OrdersTextsOut(ViewOut, view=OrdersUsed):
    """Whose orders a phase used for a power, with their texts."""


class FullPhaseOut(ViewOut, view=PhaseResult):
    """Every revision of a published phase, as the GM sees it."""


class PressRecordOut(ViewOut, view=PressItem):
    """A press item as the GM sees it."""


class LedgerEntryOut(ViewOut, view=LedgerEntry):
    """A ledger entry as stored: the ledger's own Entry."""


class FullHistoryOut(ViewOut, view=History):
    """The whole record as the GM sees it."""


# -- the club: standings, reliability, ratings (web/club.py) -----------------------------------


# Not views: a reliability's percentage and line are worked out (a property, a method the club's tests call), a
# standings row counts its games, and pages of standings and the ladder are put together in web/club.py.
class ReliabilityOut(Out):
    """How a player keeps to the game, from the ledgers."""

    percent: float | None = Field(description="phases ordered on time out of those to order (None: none yet)")
    ordered: int
    missed: int
    left: int = Field(description="games replaced out of, or resigned from")
    replacement: int = Field(description="games come into as a replacement (not held against the player)")
    finished: int = Field(description="finished games played to the end")
    text: str


class RatingOut(ViewOut, view=Rating):
    """An openskill (Plackett-Luce) rating; the ladder ranks by the ordinal, mu - 3 sigma."""


class PlayerGameOut(ViewOut, view=Line, leave_out=("player", "key", "name"), renamed={"game_id": "game"}):
    """One player's part in one game."""


class ClubRowOut(Out):
    """A player's row of the standings."""

    key: str
    name: str
    games: list[PlayerGameOut]
    played: int
    total: float
    average: float | None
    reliability: ReliabilityOut
    rating: RatingOut | None


class StandingsOut(Out):
    """The club's (or a league's) standings."""

    league: str | None
    sort: str
    leagues: list[str]
    page: int
    pages: int
    count: int = Field(description="players in the standings, on every page")
    first_place: int = Field(description="the place of the first player on this page")
    players: list[ClubRowOut]


class LadderOut(Out):
    """The ratings shown, the best first."""

    league: str | None
    rated_after: int = Field(description="finished games before a rating is shown")
    ratings: list[RatingOut]


class ClubPlayerOut(Out):
    """A player's games, reliability and rating."""

    key: str
    name: str
    games: list[PlayerGameOut]
    reliability: ReliabilityOut
    rating: RatingOut | None
    rated_after: int
