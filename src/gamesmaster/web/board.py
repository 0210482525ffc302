"""The analysis board's page and API: move units, order for every power, see the adjudication at once.

Nothing here touches a game: a board is a document (gm.analysis) carried in the link
(`/board?b=...`, the document as base64url JSON), so a shared link reopens the same board.
A board from a game starts from its published position (gm.analysis_board).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict
from starlette.concurrency import run_in_threadpool

from ..gm import MAX_BOARD_CHARS, Analysed, BoardError, Gamesmaster, analyse, fresh_board
from . import site
from .app import WebError

router = APIRouter()
_MAX_LINK = MAX_BOARD_CHARS * 4 // 3 + 4  # the board's characters, as base64


class BoardIn(BaseModel):
    """A board: the `gamesmaster adjudicate` input (docs/adjudicate.md), orders as a text or by power."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"example": {
        "variant": "standard", "rules": "2023", "phase": "S1901M",
        "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN"]},
        "orders": "A Par - Bur\nA Mar S A Par - Bur\nGermany: A Mun - Bur"}})


class OutcomeOut(BaseModel):
    """One order line's outcome."""

    power: str | None
    text: str
    order: str | None
    result: str
    reason: str
    notes: list[str] = []


class BoardOut(BaseModel):
    """A board adjudicated: every order's outcome, the next position (a board to go on from), both maps, the link."""

    phase: str
    orders: list[OutcomeOut]
    next: dict[str, Any]
    winner: str | None
    map: str
    next_map: str
    link: str


class PositionOut(BaseModel):
    """A board document without orders: a game's published position and its rules."""

    model_config = ConfigDict(extra="allow")
    variant: str
    rules: Any
    phase: str
    units: dict[str, list[str]]
    centers: dict[str, list[str]]


def _gm(request: Request) -> Gamesmaster:
    return cast(Gamesmaster, request.app.state.gm)  # the app factory put it there; starlette's state is untyped


def link(doc: Any) -> str:
    """The board's own address: the document in the link."""
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    return "/board?b=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def from_link(b: str) -> Any:
    """The document a link carries (WebError naming why it cannot be read)."""
    if len(b) > _MAX_LINK:
        raise WebError(400, f"the board in the link is {len(b)} characters: at most {_MAX_LINK}")
    try:
        return json.loads(base64.urlsafe_b64decode(b + "=" * (-len(b) % 4)).decode())
    except (binascii.Error, ValueError):
        raise WebError(400, "the board in the link cannot be read: copy the whole link") from None


def _read(doc: Any) -> Analysed:
    try:
        return analyse(doc)
    except BoardError as exc:
        raise WebError(422, str(exc)[:400]) from None  # a message may quote the input: keep it short


def answer(analysed: Analysed) -> dict[str, Any]:
    """The API's answer: outcomes, the next board, both maps (drawn within the site's bound), the link."""
    result = analysed.adjudication
    nxt = result.next.to_dict()
    nxt = {"variant": nxt.pop("variant"), "rules": analysed.doc.get("rules"), **nxt}
    return {"phase": str(result.position.phase),
            "orders": [{**o.as_dict(), "power": o.power or None} for o in analysed.outcomes],
            "next": nxt, "winner": result.winner,
            "map": site.inline_svg(site.board_svg(analysed.board)),
            "next_map": site.inline_svg(site.board_svg(analysed.after)),
            "link": link(analysed.doc)}


@router.post("/api/board", response_model=BoardOut, tags=["analysis"],
             summary="What if: a position and orders in; every outcome, the next position and the maps out",
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": BoardIn.model_json_schema()}}}})
async def post_board(request: Request) -> Response:
    """Adjudicate a board by its rules; nothing is recorded anywhere."""
    try:
        doc = json.loads(await request.body())
    except ValueError:
        raise WebError(400, "the board must be JSON") from None
    # Encoded here, not validated against BoardOut again: two maps make it some 200 KB (bench_board.py).
    return await run_in_threadpool(lambda: Response(json.dumps(answer(_read(doc)), ensure_ascii=False),
                                                    media_type="application/json"))


@router.get("/api/games/{game}/board", response_model=PositionOut, tags=["analysis"],
            summary="A game's published position (now, or the start of a published phase) as a board")
def get_game_board(game: str, request: Request, phase: str | None = None) -> dict[str, Any]:
    """The board of a game's published position, with its rules: never anyone's orders."""
    return _gm(request).boards.analysis_board(game, phase)


@router.get("/games/{game}/board", include_in_schema=False)
def game_board(game: str, request: Request, phase: str | None = None) -> RedirectResponse:
    """Open the analysis board on a game's published position."""
    return RedirectResponse(link(_gm(request).boards.analysis_board(game, phase)), status_code=303)


@router.get("/board", response_class=HTMLResponse, include_in_schema=False)
def board_page(request: Request, b: str | None = None, variant: str = "standard") -> HTMLResponse:
    """The analysis board: a fresh board of a variant, or the board a link carries."""
    if b is None:
        try:
            doc = fresh_board(variant[:40])
        except BoardError as exc:
            raise WebError(404, str(exc)) from None
    else:
        doc = from_link(b)
    analysed = _read(doc)
    options, adjust = [], []
    for legal in analysed.legal():
        for unit in site.legal_options(analysed.board.position, legal):
            if unit["key"] != "adjust":
                options.append(unit)
            else:  # every power's builds in one list, each naming its power (a waive names nothing else)
                adjust += [{**o, "text": f"{legal.power}: {o['text']}"} for o in unit["orders"]]
    options = options + (
        [{"key": "adjust", "unit": "Builds and removals", "province": None, "orders": adjust}] if adjust else [])
    orders = analysed.doc.get("orders")
    if isinstance(orders, dict):
        orders = "\n".join(f"{p}:\n" + "\n".join(map(str, t)) for p, t in orders.items() if isinstance(t, list))
    position = {k: v for k, v in analysed.doc.items() if k != "orders"}
    answered = answer(analysed)
    view = {"answer": answered, "next_link": link(answered["next"]), "options": options, "orders": orders or "", "position": position,
            "units": analysed.board.position.to_dict()["units"], "phase": str(analysed.board.position.phase),
            "title": analysed.board.position.phase.title, "variant": analysed.board.position.variant.name}
    return cast(HTMLResponse, request.app.state.render(request, "board.html", {"b": view, "board_json": json.dumps(position).replace("<", "\\u003c")}))
