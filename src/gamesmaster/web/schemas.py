"""What the JSON API answers: one pydantic model per answer, so /api/openapi.json describes each.

The models describe the JSON the API already sends (built from `gm`'s views): a field that is
sometimes left out is optional here, and the routes answer with `response_model_exclude_unset`
so that it stays left out. Unknown keys are refused, so a view that grows a field fails the
API tests until its model says what the field is.
"""

from __future__ import annotations

import inspect
import re
from collections import abc
from dataclasses import fields, is_dataclass
from datetime import datetime
from types import UnionType
from typing import Any, Mapping, Sequence, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..gm import (NOT_WRITTEN, OMIT_NONE, Answer, Checking, LedgerEntry, LedgerHead, OrderOption, OrdersOnRecord,
                  Phase, Receipt, Submission, UnitOptions, VerifyReport)

# A rule set as the GM gave it: a preset's name alone, or {"preset": ..., option: value, ...}.
RulesSpec = str | dict[str, Any] | None


class Out(BaseModel):
    """An API answer: its fields are exactly the keys sent."""

    model_config = ConfigDict(extra="forbid")


# -- answers that are gm's views --------------------------------------------------------------
#
# Where an answer is a gm view written as JSON (gm.views.plain), its model is made from the
# view's dataclass here, not written out a second time: a field the view gains is a field of
# the answer. A field's description is the comment beside it in the dataclass.

_WRITTEN_AS_TEXT = (datetime, Receipt, Phase, LedgerHead)  # plain() writes these as strings
_MADE: dict[type, type[BaseModel]] = {}


def _described(cls: type) -> dict[str, str]:
    """The comment beside each field of a dataclass ('name: type  # what it is'), by field name."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^    (\w+): [^#\n]*#\s*(.+)$", source, re.M)}


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
    if isinstance(hint, type) and is_dataclass(hint):
        return model_of(hint)
    return hint


def model_of(cls: type, *, leave_out: tuple[str, ...] = (), name: str | None = None,
             added: Mapping[str, tuple[Any, str]] | None = None) -> type[BaseModel]:
    """The answer model of a gm view (a frozen dataclass) as plain() writes it: every field but those never
    written (NOT_WRITTEN) or left out of this answer, one left out when None (OMIT_NONE) optional; `added`:
    the fields an answer sends beside the view's (name -> type and description), such as a property's value."""
    if not leave_out and name is None and not added and cls in _MADE:
        return _MADE[cls]
    hints = get_type_hints(cls)
    described = _described(cls)
    made: dict[str, Any] = {}
    for f in fields(cls):
        if f.metadata.get(NOT_WRITTEN) or f.name in leave_out:
            continue
        kind = _json_type(hints[f.name])
        info = Field(None if f.metadata.get(OMIT_NONE) else ..., description=described.get(f.name))
        made[f.name] = (kind, info)
    for key, (kind, text) in (added or {}).items():
        made[key] = (kind, Field(..., description=text))
    model = create_model(name or f"{cls.__name__}Out", __base__=Out, __doc__=(cls.__doc__ or "").strip(), **made)
    if not leave_out and name is None and not added:
        _MADE[cls] = model
    return model


def many(model: type[BaseModel]) -> Any:
    """A list of a made model's answers, as a route's response model (list[...] of a model made at run time,
    which a type checker cannot take as a type)."""
    return list.__class_getitem__(model)


AnswerOut = model_of(Answer)
OrdersOnRecordOut = model_of(OrdersOnRecord)
SubmissionOut = model_of(Submission)
CheckingOut = model_of(Checking, leave_out=("power", "lines"), name="CheckingOut")  # the API answers the orders sent
LegalOrderOut = model_of(OrderOption)
UnitOptionsOut = model_of(UnitOptions)
VerifyOut = model_of(VerifyReport, name="VerifyOut", added={"ok": (bool, "true when the record holds")})


# -- small parts ----------------------------------------------------------------------------


class HeadOut(Out):
    """A point in the game's ledger: an entry's number and hash."""

    seq: int = Field(description="the ledger entry's number")
    hash: str = Field(description="the ledger entry's hash (hex)")


class StandingOut(Out):
    """A power's supply centres and units when the game ended."""

    centres: int
    units: int


class EndingOut(Out):
    """How the game ended."""

    kind: str = Field(description="victory, short game, draw or concession")
    winners: list[str] = Field(description="the winning powers (every power in a draw)")
    phase: str
    reason: str
    at: str = Field(description="when it ended (ISO time)")
    summary: dict[str, StandingOut] = Field(description="power -> its centres and units at the end")
    played: str | None = Field(None, description="the last phase adjudicated ('' when none was; null in older records)")
    scores: dict[str, float] = Field(description="power -> its final score under the game's scoring system "
                                                 "(empty: none; docs/scoring.md)")


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


class OrderResultOut(Out):
    """An order and what became of it, in the `gamesmaster adjudicate` output schema."""

    power: str
    text: str = Field(description="the order as written ('' for a unit the rules ordered)")
    order: str | None = Field(description="the order as read (None: it could not be read)")
    result: str = Field(description="succeeds, fails or invalid")
    reason: str
    notes: list[str] | None = Field(None, description="sent only when there are notes")
    by_rule: bool | None = Field(None, description="sent (true) only for what the rules did that no order said: a retreat the rule set made, a unit the civil-disorder rule removed")




class PressOut(Out):
    """A press item."""

    id: int
    phase: str | None
    sent_at: str = Field(description="ISO time")
    sender: str = Field(description="a power, GM, or 'anonymous' when hidden from this reader")
    to: list[str] | None = Field(description="the powers of a letter; None: public")
    anonymous: bool
    text: str


class ProposalOut(Out):
    """A draw or concession proposal as everyone may see it: how many have voted; how, only where votes are open."""

    id: int
    kind: str = Field(description="draw or concession")
    phase: str
    proposer: str
    powers: list[str]
    status: str = Field(description="open, passed, rejected or lapsed")
    votes_cast: int
    votes: dict[str, bool] | None = Field(None, description="each power's vote, in a game with open votes (else null)")


class PlayerOut(Out):
    """A player of a game (no credential)."""

    name: str
    role: str = Field(description="player or standby")
    power: str | None
    powers: list[str]
    standby_for: str | None


class IdOut(Out):
    """The number given to what was just created (press item, question, proposal)."""

    id: int


class StatusOut(Out):
    """A new status."""

    status: str


class WebhookStatusOut(Out):
    """A game's webhook, for the GM: where it posts (scheme and host only; the rest is a secret) and how it fares."""

    shown: str
    set_at: str = Field(description="ISO time")
    delivered: int
    failed: int
    queued: int
    last_ok_at: str | None
    last_error: str | None
    last_error_at: str | None


class WebhookOut(Out):
    """The game's webhook (null: none set)."""

    webhook: WebhookStatusOut | None


class DeadlineOut(Out):
    """A new deadline."""

    deadline: str = Field(description="ISO time")


# -- games ----------------------------------------------------------------------------------


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


class CreatedOut(Out):
    """A game just created, with each player's credential (shown this once)."""

    game: str
    credentials: dict[str, str] = Field(description="player name -> credential")
    powers: dict[str, str] = Field(description="player name -> power, once drawn")
    commands: dict[str, list[str]] = Field(description="player name -> every power commanded")
    seed: int | None
    status: GameSummaryOut


class ScheduleOut(Out):
    """When orders are due."""

    tz: str
    days: list[str] = Field(description="move nights; none: 'hours' after the results")
    time: str
    min_hours: float
    hours: float
    retreat_hours: float
    adjustment_hours: float


class SettingsOut(Out):
    """How a game is run."""

    press: str
    schedule: ScheduleOut
    grace_hours: float
    replacement: str
    early_movement: bool
    draw_vote: str
    votes: str = Field("secret", description="draw votes: secret (only the outcome is published) or open")
    end_year: int | None
    end_at: str | None
    scoring: str | None = Field(None, description="the scoring system (left out: none)")


class OwnershipOut(Out):
    """A power's supply centres."""

    power: str
    name: str
    colour: str
    centres: list[str]
    names: list[str]


class ByPowerOut(Out):
    """One power's results in a phase."""

    power: str
    name: str
    colour: str
    source: str | None = Field(description="whose orders were used: player, gm, standby, conditional, correction")
    results: list[OrderResultOut]


class OrdersUsedOut(Out):
    """Whose orders a phase used for a power."""

    source: str
    number: int | None = Field(description="the power's own submission number")
    commitment: str | None
    seq: int | None = Field(description="the ledger entry that recorded them")


class PhaseResultOut(Out):
    """A published phase: its orders' results, by power, and the positions before and after."""

    phase: str
    title: str
    revision: int
    adjudicated_at: str
    results: list[OrderResultOut]
    by_power: list[ByPowerOut] = Field(description="every unit, ordered or not, by power")
    not_ordered: list[str]
    civil_disorder: list[str]
    next_phase: str
    next_title: str
    winner: str | None
    position: PositionOut = Field(description="where the phase started")
    next: PositionOut = Field(description="where the phase led")
    record: HeadOut = Field(description="the ledger entry that published it")
    orders_used: dict[str, OrdersUsedOut]


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


class PublishedOut(Out):
    """A phase published."""

    phase: str
    title: str
    revision: int
    record: HeadOut


class SeriesOut(Out):
    """A power's centre counts, one for each label of the chart."""

    power: str
    name: str
    colour: str
    counts: list[int]


class ChartOut(Out):
    """Supply-centre counts by power at the start of every year (and now)."""

    labels: list[str]
    victory: int | None = Field(description="the supply centres that win; null where the criterion counts units")
    series: list[SeriesOut]


class HistoryOut(Out):
    """The phases published, and the centre counts by year."""

    id: str
    phases: list[PublishedOut]
    current: str | None
    chart: ChartOut
    result: EndingOut | None
    head: HeadOut


# -- the record -----------------------------------------------------------------------------


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


class RecordEntryOut(Out):
    """A public record entry; a submission's orders, salt and commitment once published."""

    seq: int
    at: str
    kind: str
    summary: str
    sealed: bool
    payload_sha256: str
    prev_hash: str
    hash: str
    orders: list[str] | None
    salt: str | None
    commitment: str | None


class PhaseRecordOut(Out):
    """A published phase's whole record."""

    phase: str
    title: str
    result_seq: int
    head: HeadOut
    entries: list[RecordEntryOut]


class ReceiptOut(Out):
    """What the record says of a receipt."""

    receipt: str
    ok: bool = Field(description="checked, and the record holds (false too when it could not be checked yet)")
    status: str = Field(description="used, replaced, withdrawn, pending, mismatch, missing, not-yet-public, unreadable")
    message: str
    seq: int | None
    entry_hash: str | None


class DisputeOut(Out):
    """A dispute on the record: the power's player says it did not send this set."""

    seq: int = Field(description="the ledger entry that records the dispute")
    phase: str
    power: str
    number: int = Field(description="the set disputed: the one that replaced the receipt's")
    text: str


# -- rules ----------------------------------------------------------------------------------


class RuleLineOut(Out):
    """One rule option of a game, in words."""

    option: str
    title: str
    section: str
    question: str
    value: str
    text: str
    changed: bool = Field(description="whether it differs from the preset")


class RunningOut(Out):
    """One heading of how a game is run."""

    name: str
    text: str


class FixedRuleOut(Out):
    """A rule that no option changes."""

    title: str
    section: str
    text: str


class RulesOut(Out):
    """A game's rule options in words, and how it is run."""

    id: str
    title: str
    variant: str
    variant_title: str
    victory_centres: int
    victory: str = Field(description="the victory criterion in force, in words")
    victory_explanation: str = Field(description="what wins, for whom, and when it is checked")
    preset: str
    preset_title: str
    rules: RulesSpec
    options: list[RuleLineOut]
    settings: list[RunningOut]
    fixed: list[FixedRuleOut]


class VariantOut(Out):
    """A variant the gamesmaster runs."""

    name: str
    title: str
    powers: list[str]
    default_rules: str
    players: str = Field("", description='who plays it: "7 players", "2 players (France, Austria; 5 powers neutral)"')
    victory: str = Field("", description='what wins under its default rules: "18 supply centres win"')


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


class ScoresOut(Out):
    """A board's scores under a scoring system."""

    system: str
    scores: dict[str, float] = Field(description="power -> score, two decimals")


# -- a power's own business -----------------------------------------------------------------


class WhoOut(Out):
    """Whose credential this is."""

    name: str
    role: str = Field(description="gm, player or standby")
    power: str | None
    powers: list[str]
    standby_for: str | None
    number: int | None = Field(None, description="the player's number in the game (not sent for the GM)")






class WithdrawnOut(Out):
    """Orders withdrawn."""

    withdrawn: bool
    ledger_seq: int | None = Field(description="the ledger entry that recorded it: told to the GM only (None for a player)")








class ReadyOut(Out):
    """Whether the power is ready, and the phases processed as a result."""

    ready: bool
    processed: list[str]


# -- press and votes ------------------------------------------------------------------------


class QuestionAnswerOut(Out):
    """The GM's answer to a question."""

    text: str
    public: bool
    at: str


class QuestionOut(Out):
    """A question to the GM and its answers."""

    id: int = Field(description="the game's numbering for the GM; the asker's own count for the asker")
    power: str
    phase: str | None
    asked_at: str
    text: str
    answered: bool
    answers: list[QuestionAnswerOut]


class AnsweredOut(Out):
    """A question answered."""

    press: int = Field(description="the press item the answer went out as")


# -- GM actions -----------------------------------------------------------------------------


class JoinedOut(Out):
    """A player signed up, with the credential (shown this once)."""

    name: str
    credential: str


class StartedOut(Out):
    """The powers drawn or assigned."""

    powers: dict[str, str] = Field(description="player name -> power")
    commands: dict[str, list[str]]
    seed: int | None


class AwaitingOut(Out):
    """A phase waiting, with no deadline, for the gamesmaster's decision."""

    game: str
    seq: int = Field(description="the ledger entry that said so")
    phase: str
    removals: dict[str, int] = Field(description="power -> removals the GM chooses for it (seed 004 s24)")


class ProcessedOut(Out):
    """One phase adjudicated (or a deadline extended by the grace period)."""

    game: str
    phase: str
    action: str = Field(description="adjudicated, grace or waiting (for the GM to choose removals)")
    next_phase: str | None
    deadline: str | None
    civil_disorder: list[str]
    ended: EndingOut | None
    results: list[OrderResultOut]
    awaiting: AwaitingOut | None = Field(None, description="waiting: what the GM must decide")


class ResumedOut(Out):
    """The clock started again."""

    status: str
    deadline: str


class ReplacedOut(Out):
    """A new player on a power, with the credential (shown this once)."""

    power: str
    name: str
    credential: str


class CorrectionOut(Out):
    """A published phase corrected."""

    phase: str
    reason: str
    differences: list[str]
    next_phase: str | None




class DrawnOut(Out):
    """How the game ended."""

    result: EndingOut | None


class OrdersTextsOut(Out):
    """Whose orders a phase used for a power, with their texts."""

    texts: list[str]
    source: str
    seq: int | None
    number: int | None
    commitment: str | None


class FullPhaseOut(Out):
    """Every revision of a published phase, as the GM sees it."""

    game: str
    phase: str
    revision: int
    number: int
    current: bool = Field(description="false for a revision a correction replaced")
    variant: str
    rules: dict[str, Any] = Field(description="the rule options the phase was adjudicated by")
    position: PositionOut
    next: PositionOut
    orders: dict[str, OrdersTextsOut]
    results: list[OrderResultOut]
    winner: str | None
    civil_disorder: list[str]
    adjudicated_at: str
    seq: int
    entry_hash: str


class PressRecordOut(Out):
    """A press item as the GM sees it."""

    number: int
    phase: str | None
    sent_at: str
    sender: str
    to: list[str] | None
    anonymous: bool
    text: str
    seq: int


LedgerEntryOut = model_of(LedgerEntry, name="LedgerEntryOut")  # the ledger's own Entry, its fields as stored


# Made, not declared, because one of its fields is a list of a made model (which a type checker cannot take as a type).
FullHistoryOut = create_model(
    "FullHistoryOut", __base__=Out, __doc__="The whole record as the GM sees it.",
    game=(dict[str, Any], Field(description="the game as the gamesmaster holds it (the console's `--json` view): "
                                            "an open document, its fields those of gm.views.GameView")),
    phases=(list[FullPhaseOut], ...), press=(list[PressRecordOut], ...), ledger=(many(LedgerEntryOut), ...))


# -- the club: standings, reliability, ratings (web/club.py) -----------------------------------


class ReliabilityOut(Out):
    """How a player keeps to the game, from the ledgers."""

    percent: float | None = Field(description="phases ordered on time out of those to order (None: none yet)")
    ordered: int
    missed: int
    left: int = Field(description="games replaced out of, or resigned from")
    replacement: int = Field(description="games come into as a replacement (not held against the player)")
    finished: int = Field(description="finished games played to the end")
    text: str


class RatingOut(Out):
    """An openskill (Plackett-Luce) rating; the ladder ranks by the ordinal, mu - 3 sigma."""

    key: str = Field(description="the account's public ref, or name: and the player's name")
    name: str
    mu: float = Field(description="the model's estimate of the player's skill")
    sigma: float = Field(description="its uncertainty")
    ordinal: float = Field(description="mu - 3 sigma: the rating shown, and the ladder's order")
    games: int = Field(description="finished games rated")


class PlayerGameOut(Out):
    """One player's part in one game."""

    game: str
    title: str
    status: str
    powers: list[str]
    outcome: str = Field(description="won, drew, lost, left, or playing")
    score: float | None
    rank: int | None
    ordered: int
    missed: int
    left: bool
    replacement: bool
    ended_at: str | None
    leagues: list[str]


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
