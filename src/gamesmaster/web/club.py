"""The club's standings, ladder and players' pages, and the same in the JSON API (docs/standings.md)."""

from __future__ import annotations

from typing import Any, cast

from urllib.parse import quote

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from ..gm import (LEAGUE_CHARS, SHOWN_AFTER, Gamesmaster, GMError, Line, PlayerRecord, Rating, Reliability, SortKey,
                  Standing)
from . import schemas
from .api import _Answering
from .pages import _back, _field, _flash, _require_gm, form

api = APIRouter(prefix="/api", route_class=_Answering, tags=["club"])
pages = APIRouter()
KEY_CHARS = 240
PER_PAGE = 50  # players on a page of the standings
PageNumber = Query(1, ge=1, le=10000, description="the page of the standings, 50 players a page")
League = Query(None, max_length=LEAGUE_CHARS, description="a league's name: its games only")
Key = Path(max_length=KEY_CHARS, description="an account's public ref, or name: and a player's name")


def _gm(request: Request) -> Gamesmaster:
    return cast(Gamesmaster, request.app.state.gm)  # the app factory put it there; starlette's state is untyped


def reliability_view(r: Reliability) -> dict[str, Any]:
    """A player's reliability as the pages and the API show it."""
    return {"percent": r.percent, "ordered": r.ordered, "missed": r.missed, "left": r.left,
            "replacement": r.replacement, "finished": r.finished, "text": r.text()}


def rating_view(r: Rating | None) -> dict[str, Any] | None:
    """A rating as shown (None until the player has SHOWN_AFTER finished games)."""
    return None if r is None else schemas.RatingOut.written(r)


def line_view(x: Line) -> dict[str, Any]:
    """One player's game (the API's PlayerGameOut)."""
    return schemas.PlayerGameOut.written(x)


def standing_view(s: Standing) -> dict[str, Any]:
    """A row of the standings."""
    return {"key": s.key, "name": s.name, "games": [line_view(x) for x in s.games], "played": len(s.games),
            "total": s.total, "average": s.average, "reliability": reliability_view(s.reliability),
            "rating": rating_view(s.rating)}


def player_view(p: PlayerRecord) -> dict[str, Any]:
    """A player's page."""
    return {"key": p.key, "name": p.name, "games": [line_view(x) for x in p.lines],
            "reliability": reliability_view(p.reliability), "rating": rating_view(p.rating),
            "rated_after": SHOWN_AFTER}


def _render(request: Request, name: str, context: dict[str, Any]) -> HTMLResponse:
    return cast(HTMLResponse, request.app.state.render(request, name, context, 200))


@api.get("/standings", response_model=schemas.StandingsOut,
         summary="The club's standings (or a league's), sorted, 50 players a page")
def get_standings(request: Request, league: str | None = League, sort: SortKey = "total",
                  page: int = PageNumber) -> dict[str, Any]:
    return _standings(_gm(request), league, sort, page)


def _standings(gm: Gamesmaster, league: str | None, sort: str, page: int) -> dict[str, Any]:
    """A page of the standings, as the page and the API show it."""
    rows = gm.club.standings(league, sort)
    first = (page - 1) * PER_PAGE
    return {"league": league, "sort": sort, "leagues": gm.club.leagues(), "page": page,
            "pages": max(1, -(-len(rows) // PER_PAGE)), "count": len(rows), "first_place": first + 1,
            "players": [standing_view(s) for s in rows[first:first + PER_PAGE]]}


@api.get("/ladder", response_model=schemas.LadderOut, summary="The ratings shown, the best first")
def get_ladder(request: Request, league: str | None = League) -> dict[str, Any]:
    rows = _gm(request).club.ladder(league)
    return {"league": league, "rated_after": SHOWN_AFTER, "ratings": [rating_view(r) for r in rows]}


@api.get("/players/{key}", response_model=schemas.ClubPlayerOut, summary="A player's games, reliability and rating")
def get_player(request: Request, key: str = Key) -> dict[str, Any]:
    return player_view(_gm(request).club.player_record(key))


@pages.get("/standings", response_class=HTMLResponse)
def standings_page(request: Request, league: str | None = League, sort: SortKey = "total",
                   page: int = PageNumber) -> HTMLResponse:
    return _render(request, "standings.html", {"s": _standings(_gm(request), league, sort, page)})


@pages.get("/ladder", response_class=HTMLResponse)
def ladder_page(request: Request, league: str | None = League) -> HTMLResponse:
    gm = _gm(request)
    rows = [rating_view(r) for r in gm.club.ladder(league)]
    return _render(request, "ladder.html", {"rows": rows, "league": league, "rated_after": SHOWN_AFTER,
                                            "leagues": gm.club.leagues()})


@pages.get("/players/{key}", response_class=HTMLResponse)
def player_page(request: Request, key: str = Key) -> HTMLResponse:
    return _render(request, "player.html", {"p": player_view(_gm(request).club.player_record(key))})


def seat_records(gm: Gamesmaster, game_id: str) -> list[dict[str, Any]]:
    """Each seat's player with their reliability across the club, for the GM choosing or replacing players."""
    return [{"name": s.name, "role": s.role, "key": s.key, "reliability": reliability_view(s.reliability)}
            for s in gm.club.seat_players(game_id)]


@pages.post("/gm/games/{game}/league", response_class=HTMLResponse)
def gm_league(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    """The GM adds the game to a league (or takes it out) from the console."""
    _require_gm(request)
    remove = _field(data, "remove") == "1"
    try:
        league = _field(data, "league")
        changed = _gm(request).club.add_to_league(league, [game], remove=remove)
        _flash(request, f"{game} {'taken out of' if remove else 'added to'} {league}" if changed else
               f"{game} was {'not in' if remove else 'already in'} {league}")
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(f"/gm/games/{quote(game, safe='')}")
