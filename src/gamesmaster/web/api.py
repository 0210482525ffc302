"""The JSON API under /api: games, positions, orders, results, history, press, votes, GM actions.

Each endpoint makes the same `gm` call (through `web.site`) as the page that does the
same thing. Credentials come in `Authorization: Bearer ...` only.
"""

from __future__ import annotations

import functools
import inspect
import re
from datetime import datetime
from typing import Any, Callable, Literal, cast

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from ..gm import (GM_SEAT, parse_phase, GameHistory, Gamesmaster, RuleSpec, ScoringName as Scoring, SeatView, is_token,
                  plain, plain_object, rules_for, score_board, split_credential, variant_named)
from . import schemas, site
from .app import WebError, drawing, drawing_budget
from .security import target_of


class _Answering(APIRoute):
    """An API route whose answer leaves out what its view left out (the models' optional fields), and that
    waits for a worker thread once.

    FastAPI runs a `def` endpoint in a worker thread and then, for its response model, checks the answer
    in a second one: under a crowd each wait is a place in the queue, so a credentialed read answered through
    a model took twice as long as a public one answered as bytes. The endpoint runs in its thread, as
    before; the model's check runs on the event loop, where the answer already is."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, _one_wait(endpoint), **{**kwargs, "response_model_exclude_unset": True})


def _one_wait(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A `def` endpoint as a coroutine that runs it in a worker thread (its signature, and so its
    parameters and dependencies, unchanged)."""
    if inspect.iscoroutinefunction(endpoint):
        return endpoint

    @functools.wraps(endpoint)
    async def in_thread(*args: Any, **kwargs: Any) -> Any:
        return await run_in_threadpool(endpoint, *args, **kwargs)
    return in_thread


router = APIRouter(prefix="/api", route_class=_Answering)
bearer = HTTPBearer(auto_error=False, description="a player's credential (ID.SECRET) or the GM credential")


# -- who is asking ----------------------------------------------------------------------


class Caller:
    """The credential of a request and whether it is the GM's."""

    def __init__(self, credential: str | None, is_gm: bool) -> None:
        self.credential = credential
        self.is_gm = is_gm

    def acting(self) -> dict[str, Any]:
        """Keyword arguments for a gm call acting for a power."""
        if self.is_gm:
            return {"by_gm": True}
        if not self.credential:
            raise WebError(401, "a credential is needed: send 'Authorization: Bearer CREDENTIAL'")
        return {"credential": self.credential}


def _gm(request: Request) -> Gamesmaster:
    return cast(Gamesmaster, request.app.state.gm)  # the app factory put it there; starlette's state is untyped


async def caller(request: Request, auth: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Caller:
    """Who is asking: worked out on the event loop (a `def` dependency cost every credentialed request a second
    wait for a worker thread, which under load tripled its time); only the GM credential's slow first check
    goes to a thread."""
    credential = auth.credentials.strip() if auth and auth.credentials else None
    if not credential:
        return Caller(None, False)
    if len(credential) > 200 or not _PRINTABLE.match(credential):
        raise WebError(400, "that is not a credential: a credential is ASCII letters, digits, '.', '-' and '_', "
                            "at most 200 characters")
    secrets_ = request.app.state.secrets
    game = request.path_params.get("game")
    player_form = split_credential(credential) is not None or is_token(credential)
    known = (secrets_.known_gm(credential) if not player_form else
             _gm(request).sessions.credential_known(game, credential) if game else is_token(credential))
    if not known:
        _limit(request, target_of(game, credential))
    is_gm = not player_form and (secrets_.known_gm(credential) or await run_in_threadpool(secrets_.check_gm, credential))
    return Caller(credential, is_gm)


_PRINTABLE = re.compile(r"^[A-Za-z0-9._~+/=-]+$")


def _limit(request: Request, target: str | None) -> None:
    """429 while this client has used up its failed credential attempts (docs/security.md)."""
    limits = getattr(request.app.state, "limits", None)
    if limits is None:
        return
    wait = limits.wait(request.client.host if request.client else None, target)
    if wait:
        raise WebError(429, f"too many failed credential attempts from here: try again in {wait} seconds")


async def gm_only(request: Request, who: Caller = Depends(caller)) -> Caller:
    """The caller, who must be the GM (nothing here blocks: it runs on the event loop)."""
    if not who.credential:
        raise WebError(401, "this is a GM action: send the GM credential as 'Authorization: Bearer CREDENTIAL'")
    if not who.is_gm:
        limits = getattr(request.app.state, "limits", None)
        if limits is not None and not split_credential(who.credential) and not is_token(who.credential):
            limits.failed(request.client.host if request.client else None, "gm")  # a failed GM guess
        raise WebError(403, "this is a GM action, and the credential sent is not the GM's")
    return who


# -- bodies -----------------------------------------------------------------------------


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OrdersIn(Strict):
    orders: str | list[str] = Field(description="the orders as written, one a line (or a list); "
                                          "a 'next season:' (or 'retreats:', 'adjustments:' ...) part files conditional "
                                          "orders for that later phase")
    phase: str | None = Field(None, description="refuse unless the game is in this phase, e.g. S1901M")
    channel: Literal["web", "in-person", "mail", "console"] | None = Field(
        None, description="GM only: how the orders came (default in-person); a player's are 'web'")


class CheckIn(Strict):
    orders: str | list[str]


class ReadyIn(Strict):
    ready: bool = True


class DisputeIn(Strict):
    receipt: str = Field(min_length=1, max_length=300,
                         description="your receipt, whose check says a later set replaced it")
    text: str = Field("", max_length=2000, description="what you say of the later set (optional)")


class PressIn(Strict):
    text: str = Field(min_length=1, max_length=20000)
    to: list[str] | None = Field(None, description="powers for a private letter; none: public")
    anonymous: bool = False
    power: str | None = Field(None, description="GM only: the power whose release this is (default: a GM notice)")


class QuestionIn(Strict):
    text: str = Field(min_length=1, max_length=20000)
    power: str | None = Field(None, description="GM only: the power whose question this is (handed over in person)")


class AnswerIn(Strict):
    text: str = Field(min_length=1, max_length=20000)
    public: bool = Field(False, description="to everyone (the question quoted, its asker not named); "
                                            "default: to the asker alone")


class ProposalIn(Strict):
    kind: Literal["draw", "concession"] = "draw"
    powers: list[str] | None = Field(None, description="a draw among these powers (default: every survivor)")
    concede_to: str | None = None
    power: str | None = Field(None, description="GM only: the power proposing")


class VoteIn(Strict):
    yes: bool
    power: str | None = Field(None, description="GM only: the power whose vote is entered")


class SettingsIn(Strict):
    press: Literal["none", "public", "full", "anonymous"] = "full"
    tz: str = "UTC"
    movement: str | None = Field(None, description="'tue,fri 22:00' or '72h' (default 72h after results)")
    min_gap: str | None = None
    retreats: str | None = None
    adjustments: str | None = None
    grace: str | None = Field(None, description="NMR grace period, e.g. 24h")
    replacement: Literal["preset", "none", "standby", "successor", "gm"] = "preset"  # preset: the rule preset's
    early_movement: bool = False
    draw_vote: Literal["unanimous", "majority"] = "unanimous"
    votes: Literal["secret", "open"] = Field("secret", description="draw votes: secret (only the outcome) or open")
    end_year: int | None = None
    end_at: str | None = Field(None, max_length=40,
                               description="short game by the clock: 'YYYY-MM-DD HH:MM' in tz; most pieces then wins")
    scoring: Scoring = Field("none", description="the scoring system (docs/scoring.md)")
    min_reliability: float | None = Field(None, ge=0, le=100, description="an open game's entry: percent of phases "
                                          "ordered on time (docs/standings.md)")
    min_games: int = Field(0, ge=0, le=10000, description="an open game's entry: finished games played to the end")


class ScoreIn(Strict):
    system: Scoring
    variant: str = Field("standard", max_length=40)
    centres: dict[str, int] = Field(description="power -> supply centres (powers left out hold none)", max_length=64)
    draw: list[str] = Field(default_factory=list, max_length=64,
                            description="the powers in the draw (none and no solo: every survivor)")
    solo: str | None = Field(None, max_length=40)
    played: dict[str, int] = Field(default_factory=dict, max_length=64,
                                   description="eliminated power -> game years it played (Carnage, ManorCon)")
    years: int | None = Field(None, ge=1, le=10000, description="game years the game lasted (ManorCon's solo)")


class GameIn(Strict):
    id: str = Field(description="1-64 lowercase letters, digits, '-' or '_'")
    title: str | None = None
    variant: str = "standard"
    preset: str | None = Field(None, description="a rule preset (default: the variant's)")
    rules: dict[str, Any] = Field(default_factory=dict, description="options over the preset, e.g. {\"koning\": false}")
    settings: SettingsIn = Field(default_factory=SettingsIn)  # type: ignore[arg-type]  # every field has a default; mypy without the pydantic plugin cannot see it
    players: list[str] = Field(default_factory=list)
    standbys: list[str] = Field(default_factory=list)
    assign: dict[str, str] | None = Field(None, description="player name -> power (else drawn by lot)")
    seed: int | None = None
    start: bool = True


class JoinIn(Strict):
    name: str
    standby: bool = False


class StartIn(Strict):
    seed: int | None = None
    assign: dict[str, str] | None = None


class ExtendIn(Strict):
    hours: float | None = Field(None, gt=0, le=24 * 365)
    until: datetime | None = Field(None, description="an ISO time with its zone")
    reason: str = ""


class ReasonIn(Strict):
    reason: str = ""


class WebhookIn(Strict):
    url: str = Field(max_length=2000, description="the incoming webhook's URL (http or https); empty: none")
    warnings: list[float] | None = Field(None, max_length=8, description="hours before each deadline to warn of "
                                         "it (at most 4, each from 0.25 to 168); omitted: 24 and 2")


class ResumeIn(Strict):
    until: datetime | None = None
    reason: str = ""


class ReplaceIn(Strict):
    power: str
    name: str
    reason: str = ""


class CorrectIn(Strict):
    reason: str
    orders: dict[str, str | list[str]] | None = Field(None, description="power -> corrected orders")
    rules: dict[str, Any] | None = Field(None, description="corrected rule options (over the game's)")
    phase: str | None = Field(None, max_length=16, description="the phase to correct (default: the last published); "
                                                              "any since the last movement result")


class DrawIn(Strict):
    powers: list[str] | None = None
    reason: str = ""


def _text(orders: str | list[str]) -> str:
    return orders if isinstance(orders, str) else "\n".join(orders)


def _aware(when: datetime | None) -> datetime | None:
    if when is not None and when.tzinfo is None:
        raise WebError(422, "until: give the time with its zone, e.g. 2030-05-10T22:00:00+01:00")
    return when


# -- games ------------------------------------------------------------------------------


@router.get("/games", response_model=list[schemas.GameSummaryOut],
            tags=["games"], summary="Every game: variant, season, deadline, powers and centre counts")
def list_games(request: Request) -> list[dict[str, Any]]:
    return site.games(_gm(request))


@router.post("/games", response_model=schemas.CreatedOut,
             tags=["GM"], status_code=201, summary="Create a game (GM); returns each player's credential once")
def create_game(body: GameIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    gm = _gm(request)
    rules = RuleSpec(body.preset)
    if body.rules:
        rules = rules_for(body.variant, body.preset, {k: site.rule_value(v) for k, v in body.rules.items()})
    settings = site.build_settings(**body.settings.model_dump())
    created = gm.setup.create_game(body.id, title=body.title, variant=body.variant, rules=rules, settings=settings,
                             players=site.names(body.players), standbys=site.names(body.standbys), assign=body.assign,
                             seed=body.seed, start=body.start)
    return schemas.CreatedOut.written(created, status=site.summary(gm.games.game(created.game)))


@router.post("/score", response_model=schemas.ScoresOut, tags=["games"],
             summary="Score any board under a scoring system (for tournament directors)")
def score(body: ScoreIn) -> dict[str, Any]:
    scores = score_board(body.system, variant_named(body.variant), body.centres, solo=body.solo, draw=body.draw,
                         played=body.played, years=body.years)
    return {"system": body.system, "scores": {p: round(v, 2) for p, v in scores.items()}}


@router.get("/games/{game}", response_model=schemas.GameOut,
            tags=["games"], summary="A game: phase, deadline, who has ordered (not what), "
            "centres, the last results, public press", response_class=JSONResponse)
def get_game(game: str, request: Request) -> Response:
    return Response(site.game_json(_gm(request), game), media_type="application/json")


@router.get("/games/{game}/position", response_model=schemas.PositionOut,
            tags=["games"], summary="The position now, or at the start of a published phase",
            response_class=JSONResponse)
def get_position(game: str, request: Request, phase: str | None = None) -> Response:
    gm = _gm(request)
    if phase is None or parse_phase(phase) == str(gm.games.game(game).phase):
        return Response(site.position_json(gm, game), media_type="application/json")
    return JSONResponse(gm.games.result(game, phase).position.to_dict())


@router.get("/games/{game}/map.svg", tags=["games"], summary="The map (SVG): now, or a published phase with its results",
            response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}})
def get_map_svg(game: str, request: Request, phase: str | None = None, results: bool = True) -> Response:
    return drawing(request, site.map_svg(_gm(request), game, phase, results=results), "image/svg+xml")


@router.get("/games/{game}/map.png", tags=["games"], summary="The map as PNG (for e-mail): any season",
            response_class=Response, responses={200: {"content": {"image/png": {}}}})
def get_map_png(game: str, request: Request, phase: str | None = None, results: bool = True,
                width: int = Query(1200, ge=site.MAP_WIDTHS[0], le=site.MAP_WIDTHS[1])) -> Response:
    png = site.map_png(_gm(request), game, phase, results=results, width=width, may_draw=drawing_budget(request))
    return drawing(request, png, "image/png")


@router.get("/games/{game}/results", response_model=list[schemas.PhaseResultOut],
            tags=["games"], summary="Every published phase: orders, outcomes and reasons")
def get_results(game: str, request: Request) -> list[dict[str, Any]]:
    return site.results(_gm(request), game)


@router.get("/games/{game}/results/{phase}", response_model=schemas.PhaseResultOut,
            tags=["games"], summary="One published phase's results")
def get_result(game: str, phase: str, request: Request) -> dict[str, Any]:
    return site.result_of(_gm(request), game, phase)


@router.get("/games/{game}/history", response_model=schemas.HistoryOut,
            tags=["games"], summary="The phases published, and the centre counts by year")
def get_history(game: str, request: Request) -> dict[str, Any]:
    return plain_object(GameHistory.of(_gm(request).games.game_page(game)))


@router.get("/games/{game}/record", response_model=schemas.ArchiveOut, tags=["record"],
            summary="The public record: the ledger up to the last publication, private entries sealed "
                    "(what `gamesmaster verify --archive` checks)")
def get_record_archive(game: str, request: Request) -> dict[str, Any]:
    return _gm(request).record.archive(game)


@router.get("/games/{game}/record/{phase}", response_model=schemas.PhaseRecordOut, tags=["record"],
            summary="A published phase's whole record: every set of orders as sent, with times, salts and commitments")
def get_phase_record(game: str, phase: str, request: Request) -> dict[str, Any]:
    return site.phase_record_view(_gm(request).record.phase_record(game, phase))


@router.get("/games/{game}/receipt", response_model=schemas.ReceiptOut, tags=["record"],
            summary="What the record says of a receipt (anyone, once its phase is published; before, the power itself)")
def get_receipt(game: str, request: Request, r: str = Query(..., max_length=300, description="the receipt"),
                who: Caller = Depends(caller)) -> dict[str, Any]:
    gm = _gm(request)
    if who.is_gm:
        check = gm.record.check_receipt(game, r, by_gm=True)
    else:
        check = gm.record.check_receipt(game, r, credential=who.credential)
    return site.receipt_view(check)


@router.post("/games/{game}/disputes", response_model=schemas.DisputeOut, tags=["record"],
             summary="Dispute the set that replaced your receipt's: you did not send it (on the public record)")
def post_dispute(game: str, body: DisputeIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    if who.is_gm:
        raise WebError(403, "only the power's player can dispute a set of its orders")
    return site.dispute_view(_gm(request).disputes.dispute(game, body.receipt, body.text, credential=who.credential))


@router.get("/games/{game}/rules", response_model=schemas.RulesOut,
            tags=["games"], summary="The game's rule options in words, and how it is run")
def get_rules(game: str, request: Request) -> dict[str, Any]:
    return site.rules_view(_gm(request), game)


@router.get("/catalogue", response_model=schemas.CatalogueOut,
            tags=["games"], summary="Variants, rule presets and every option's explanation")
def get_catalogue() -> dict[str, Any]:
    return site.catalogue()


# -- a power's own business -------------------------------------------------------------


@router.get("/games/{game}/me", response_model=schemas.WhoOut, tags=["powers"], summary="Whose credential this is")
def whoami(game: str, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    if who.is_gm:
        return plain_object(GM_SEAT)
    if not who.credential:
        raise WebError(401, "a credential is needed: send 'Authorization: Bearer CREDENTIAL'")
    return plain_object(SeatView.of(_gm(request).orders.identify(game, who.credential), numbered=True))


@router.get("/games/{game}/powers/{power}/orders", response_model=list[schemas.OrdersOnRecordOut], tags=["powers"],
            summary="A power's orders on record, with the answer to each (only the power itself or the GM)")
def get_orders(game: str, power: str, request: Request, who: Caller = Depends(caller)) -> list[dict[str, Any]]:
    rows = _gm(request).orders.orders_on_record(game, power, **who.acting())
    return [plain_object(r) for r in rows]


@router.post("/games/{game}/powers/{power}/orders", response_model=schemas.SubmissionOut, tags=["powers"],
             summary="Submit a power's complete set of orders; answered order by order, with the receipt")
def post_orders(game: str, power: str, body: OrdersIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    gm = _gm(request)
    kwargs = who.acting()
    channel = (body.channel or "in-person") if who.is_gm else "web"
    if body.channel and not who.is_gm and body.channel != "web":
        raise WebError(403, "only the GM names another channel: a player's orders through the API are 'web'")
    sub = gm.orders.submit_orders(game, power, _text(body.orders), channel=channel, phase=body.phase, **kwargs)
    return plain_object(sub)


@router.delete("/games/{game}/powers/{power}/orders", response_model=schemas.WithdrawnOut,
               tags=["powers"], summary="Withdraw a power's orders")
def delete_orders(game: str, power: str, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    seq = _gm(request).orders.withdraw_orders(game, power, channel="web", **who.acting())
    return {"withdrawn": True, "ledger_seq": seq}


@router.post("/games/{game}/powers/{power}/check", response_model=schemas.CheckingOut, tags=["powers"],
             summary="How these orders would be read now (nothing is recorded)")
def check_orders(game: str, power: str, body: CheckIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    return site.answers(_gm(request).orders.check(game, power, _text(body.orders), **who.acting()))


@router.get("/games/{game}/powers/{power}/options", response_model=list[schemas.UnitOptionsOut],
            tags=["powers"], summary="Every legal order of the power now")
def get_options(game: str, power: str, request: Request, who: Caller = Depends(caller)) -> list[dict[str, Any]]:
    gm = _gm(request)
    legal = gm.orders.legal_orders(game, power, **who.acting())
    position = gm.games.game(game).position
    assert position is not None
    return site.legal_options(position, legal)


@router.post("/games/{game}/powers/{power}/ready", response_model=schemas.ReadyOut,
             tags=["powers"], summary="Mark the power ready (early movement)")
def post_ready(game: str, power: str, body: ReadyIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    done = _gm(request).orders.set_ready(game, power, body.ready, **who.acting())
    return {"ready": body.ready, "processed": done}


# -- press and votes --------------------------------------------------------------------


@router.get("/games/{game}/press", response_model=list[schemas.PressOut], tags=["press"],
            summary="The press: public without a credential; with a player's, what its power may read; all for the GM")
def get_press(game: str, request: Request, who: Caller = Depends(caller)) -> list[dict[str, Any]]:
    gm = _gm(request)
    if who.is_gm:
        rows = gm.press.press(game)
    elif who.credential:
        rows = gm.press.press(game, None, credential=who.credential)
    else:
        return site.public_press(gm, game)
    return [site.press_item(p) for p in rows]


@router.post("/games/{game}/press", response_model=schemas.IdOut, tags=["press"], status_code=201,
             summary="Send a public release or a letter to some powers (the GM: a notice, or a power's release)")
def post_press(game: str, body: PressIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    gm = _gm(request)
    if who.is_gm:
        pid = gm.press.post_press(game, body.text, power=body.power, to=body.to, anonymous=body.anonymous, by_gm=True)
    else:
        if body.power is not None:
            raise WebError(403, "a player sends press as its own power: leave out 'power'")
        pid = gm.press.post_press(game, body.text, to=body.to, anonymous=body.anonymous, **who.acting())
    return {"id": pid}


@router.get("/games/{game}/questions", response_model=list[schemas.QuestionOut], tags=["press"],
            summary="Questions to the GM and their answers: a player's own; every one for the GM")
def get_questions(game: str, request: Request, who: Caller = Depends(caller)) -> list[dict[str, Any]]:
    gm = _gm(request)
    rows = gm.questions.questions(game) if who.is_gm else gm.questions.questions(game, credential=who.acting()["credential"])
    return [site.question_item(q) for q in rows]


@router.post("/games/{game}/questions", response_model=schemas.IdOut, tags=["press"], status_code=201,
             summary="Ask the GM a question (private between the power and the GM; plans of campaign too)")
def post_question(game: str, body: QuestionIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    gm = _gm(request)
    if who.is_gm:
        if body.power is None:
            raise WebError(400, "the GM enters a question for a power: give 'power'")
        number = gm.questions.ask(game, body.text, power=body.power, by_gm=True, channel="web")
    else:
        if body.power is not None:
            raise WebError(403, "a player asks for its own power: leave out 'power'")
        number = gm.questions.ask(game, body.text, channel="web", **who.acting())
    return {"id": number}


@router.post("/games/{game}/questions/{number}/answer", response_model=schemas.AnsweredOut, tags=["GM"],
             summary="Answer a question: to its asker, or to everyone (public)")
def post_answer(game: str, number: int, body: AnswerIn, request: Request,
                who: Caller = Depends(gm_only)) -> dict[str, Any]:
    return {"press": _gm(request).questions.answer_question(game, number, body.text, public=body.public)}


@router.get("/games/{game}/proposals", response_model=list[schemas.ProposalOut],
            tags=["press"], summary="Open draw and concession proposals")
def get_proposals(game: str, request: Request) -> list[dict[str, Any]]:
    gm = _gm(request)
    open_votes = gm.games.game(game).settings.votes == "open"
    return [site.public_proposal(p, open_votes) for p in gm.press.proposals(game) if p.status == "open"]


@router.post("/games/{game}/proposals", response_model=schemas.IdOut,
             tags=["press"], status_code=201, summary="Propose a draw or a concession")
def post_proposal(game: str, body: ProposalIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    gm = _gm(request)
    if body.power is not None and not who.is_gm:
        raise WebError(403, "a player proposes as its own power: leave out 'power'")
    kwargs = {"power": body.power, "by_gm": True} if who.is_gm else who.acting()
    pid = gm.press.propose(game, kind=body.kind, powers=body.powers, concede_to=body.concede_to, **kwargs)
    return {"id": pid}


@router.post("/games/{game}/proposals/{proposal}/votes", response_model=schemas.StatusOut,
             tags=["press"], summary="Vote yes or no on a proposal")
def post_vote(game: str, proposal: int, body: VoteIn, request: Request, who: Caller = Depends(caller)) -> dict[str, Any]:
    gm = _gm(request)
    if body.power is not None and not who.is_gm:
        raise WebError(403, "a player votes as its own power: leave out 'power'")
    kwargs = {"power": body.power, "by_gm": True} if who.is_gm else who.acting()
    return {"status": gm.press.vote(game, proposal, body.yes, **kwargs)}


# -- GM actions -------------------------------------------------------------------------


@router.post("/games/{game}/players", response_model=schemas.JoinedOut,
             tags=["GM"], status_code=201, summary="Sign a player or a stand-by up")
def post_player(game: str, body: JoinIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    return {"name": body.name, "credential": _gm(request).setup.join_game(game, body.name, standby=body.standby)}


@router.post("/games/{game}/start", response_model=schemas.StartedOut,
             tags=["GM"], summary="Draw the powers by lot (or assign them) and start")
def post_start(game: str, body: StartIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    gm = _gm(request)
    created = gm.setup.assign_powers(game, body.assign) if body.assign else gm.setup.draw_lots(game, body.seed)
    return schemas.StartedOut.written(created)


def _processed(p: Any) -> dict[str, Any]:
    return plain_object(p)


@router.post("/games/{game}/process", response_model=list[schemas.ProcessedOut],
             tags=["GM"], summary="Process the phase now (deadline or not)")
def post_process(game: str, request: Request, who: Caller = Depends(gm_only)) -> list[dict[str, Any]]:
    return [_processed(p) for p in _gm(request).deadlines.process(game, force=True)]


@router.post("/games/{game}/extend", response_model=schemas.DeadlineOut,
             tags=["GM"], summary="Extend the deadline by hours or to a time")
def post_extend(game: str, body: ExtendIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    new = _gm(request).deadlines.extend(game, hours=body.hours, until=_aware(body.until), reason=body.reason)
    return {"deadline": new.isoformat()}


@router.get("/games/{game}/webhook", response_model=schemas.WebhookOut, tags=["GM"],
            summary="How the game's webhook fares (its URL shown by host only)")
def get_webhook(game: str, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    status = _gm(request).webhooks.webhook(game)
    return {"webhook": plain_object(status) if status is not None else None}


@router.put("/games/{game}/webhook", response_model=schemas.WebhookOut, tags=["GM"],
            summary="Set (or, with an empty url, remove) the game's webhook: results, warnings and notices posted")
def put_webhook(game: str, body: WebhookIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    status = _gm(request).webhooks.set_webhook(game, body.url, body.warnings)
    return {"webhook": plain_object(status) if status is not None else None}


@router.post("/games/{game}/pause", response_model=schemas.StatusOut, tags=["GM"], summary="Stop the clock")
def post_pause(game: str, body: ReasonIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    _gm(request).deadlines.pause(game, reason=body.reason)
    return {"status": "paused"}


@router.post("/games/{game}/resume", response_model=schemas.ResumedOut, tags=["GM"], summary="Start the clock again")
def post_resume(game: str, body: ResumeIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    new = _gm(request).deadlines.resume(game, until=_aware(body.until), reason=body.reason)
    return {"status": "active", "deadline": new.isoformat()}


@router.post("/games/{game}/replace", response_model=schemas.ReplacedOut,
             tags=["GM"], summary="Put a new player on a power; returns the credential once")
def post_replace(game: str, body: ReplaceIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    return {"power": body.power, "name": body.name,
            "credential": _gm(request).players.replace_player(game, body.power, body.name, reason=body.reason)}


@router.post("/games/{game}/correct", response_model=schemas.CorrectionOut,
             tags=["GM"], summary="Correct a published phase, until the next movement result")
def post_correct(game: str, body: CorrectIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    gm = _gm(request)
    rules = None
    if body.rules:
        rules = gm.games.game(game).rules_spec.changed({k: site.rule_value(v) for k, v in body.rules.items()})
    orders = {p: _text(o) for p, o in (body.orders or {}).items()} or None
    c = gm.corrections.correct(game, body.reason, orders=orders, rules=rules, phase=body.phase)
    return schemas.CorrectionOut.written(c)


@router.get("/games/{game}/verify", response_model=schemas.VerifyOut,
            tags=["GM"], summary="Verify the record: chain, receipts, replay")
def get_verify(game: str, request: Request, receipt: list[str] = Query(default=[]),
               who: Caller = Depends(gm_only)) -> dict[str, Any]:
    r = _gm(request).record.verify(game, receipts=receipt)
    return schemas.VerifyOut.written(r, ok=r.ok)


@router.post("/games/{game}/draw", response_model=schemas.DrawnOut, tags=["GM"], summary="The GM declares a draw")
def post_draw(game: str, body: DrawIn, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    gm = _gm(request)
    gm.press.declare_draw(game, powers=body.powers, reason=body.reason)
    return {"result": plain(gm.games.game(game).result)}


@router.get("/games/{game}/history/full", response_model=schemas.FullHistoryOut, tags=["GM"],
            summary="The whole record as the GM sees it (phases with corrections, all press, the whole ledger)")
def get_record(game: str, request: Request, who: Caller = Depends(gm_only)) -> dict[str, Any]:
    return plain_object(_gm(request).games.history(game))
