"""The live table: a page for the projector in the room, its server-sent events, and the GM's controls.

| route | who | what |
| --- | --- | --- |
| `GET /games/{g}/table` | anyone | the table view: map, countdown, who has handed in (not what), centre tally, read-out |
| `GET /games/{g}/table/main` | anyone | the table's changing part (HTML), fetched by the page when the state changes |
| `GET /games/{g}/table/state` | anyone | the table's state as JSON |
| `GET /games/{g}/table/events` | anyone | server-sent events: the state, whenever it changes |
| `POST /games/{g}/live/{action}` | GM (pause, resume, add, end, next, slip); player (agree, disagree) | the table's actions |
| `GET/POST /gm/live` | GM | create a live club game or a newcomers' practice game |

The server polls the store (every `POLL` seconds per open table) and moves the clock on
(`LiveTable.tick`): no background thread is needed while anyone watches the table, and
the deadline worker processes a writing period that runs out while nobody does.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any, cast
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ..gm import phase_title, LABELS, Forbidden, Gamesmaster, GMError, LiveConfig, PhaseResult, Refused, variant_named
from . import site
from .app import WebError
from .pages import _field, _flash, form
from .security import is_gm, player_token

router = APIRouter(include_in_schema=False)
POLL = 0.5  # seconds between looks at the store, per open table
STREAM_SECONDS = 300  # a stream ends after this long; the browser reconnects by itself
CHANNEL_WORDS = {"in-person": "on paper", "web": "by phone", "mail": "by mail", "console": "at the console",
                 "conditional": "conditional", "import": "imported"}


def _gm(request: Request) -> Gamesmaster:
    return cast(Gamesmaster, request.app.state.gm)  # the app factory put it there; starlette's state is untyped


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    return cast(HTMLResponse, request.app.state.render(request, name, context, status))


def _url(game: str, tail: str = "") -> str:
    return f"/games/{quote(game, safe='')}{tail}"


# -- the table's state -----------------------------------------------------------------------


def table_state(gm: Gamesmaster, game: str, tick: bool = True) -> dict[str, Any]:
    """Everything the table shows (nothing secret: who has handed in, never what, until the read-out)."""
    table = gm.live
    if tick:
        table.tick(game)
    live = table.get(game)
    st = gm.games.game(game)
    g = site.summary(st)
    out: dict[str, Any] = {"game": game, "title": st.title, "status": st.status, "phase": g["phase"],
                           "phase_title": st.phase_title, "live": live is not None}
    agreed: list[str] = []
    voters: list[str] = []
    if live is not None:
        cfg, ls = live
        now = gm.desk.now()
        agreed = list(ls.agreed)
        voters = table.voters_of(game) if ls.period == "diplomacy" else []
        left = ls.left(now)
        out.update({"period": ls.period, "label": LABELS.get(ls.period, ls.period), "paused": ls.paused,
                    "left": None if left is None else round(left, 1), "ends": ls.ends.isoformat() if ls.ends else None,
                    "step": ls.step, "steps": ls.steps, "shown": ls.shown, "readout_phase": ls.phase if ls.period == "readout" else None,
                    "practice": cfg.practice, "config": cfg.to_dict(), "agreed": agreed, "voters": voters})
        if ls.period == "orders":
            out["label"] = "Retreats" if ls.phase.endswith("R") else "Builds and removals"
        if ls.period in ("writing", "orders", "diplomacy") and g["phase"] != ls.phase:
            out["label"] = "Processing"
    out["powers"] = [{"power": p["power"], "name": p["name"], "colour": p["colour"], "player": p["player"],
                      "centres": p["centres"], "units": p["units"], "to_order": p["to_order"],
                      "handed_in": p["ordered"], "agreed": p["power"] in agreed, "voter": p["power"] in voters}
                     for p in g["powers"]]
    key = {k: v for k, v in out.items() if k not in ("left", "ends")}
    out["version"] = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return out


def readout_view(gm: Gamesmaster, game: str, state: dict[str, Any]) -> dict[str, Any] | None:
    """The read-out at its step: the orders revealed, the results so far, or the position after."""
    phase = state.get("readout_phase")
    if state.get("period") != "readout" or not phase:
        return None
    row = next((r for r in gm.games.results(game) if str(r.phase) == phase), None)
    if row is None:
        return None
    variant = row.variant
    record = site.phase_record(row)
    channels = gm.live.channels(game, phase)
    step, steps = state["step"], state["steps"]
    movement = phase.endswith("M")
    powers = sorted({r.power for r in row.results} | {u.power for u in row.position.units.values()})
    powers = [p for p in variant.powers if p in powers]
    if movement:
        shown_powers = powers[:max(0, step)] if step <= len(powers) else powers
        stage = "orders" if step == 0 else ("after" if step > len(powers) else "results")
        current = powers[step - 1] if stage == "results" else None
    else:
        shown_powers = powers if step >= 1 else []
        stage = "orders" if step == 0 else "results"
        current = None
    orders = []
    for p in powers:
        used = row.orders.get(p)
        channel = channels.get(p, ("", ""))[0]
        orders.append({"power": p, "name": variant.powers[p].name, "colour": variant.powers[p].colour,
                       "texts": list(used.texts) if used else [],
                       "how": CHANNEL_WORDS.get(channel, channel) if used else
                       "no orders: civil disorder, its units hold" if movement else "no orders",
                       "paper": channel == "in-person"})
    results = [b for b in record["by_power"] if b["power"] in shown_powers]
    have = {b["power"] for b in results}
    for p in shown_powers:  # a power in civil disorder has no results of its own: say what became of its units
        units = [str(u) for u in row.position.units_of(p)]
        if p not in have and units and movement:
            results.append({"power": p, "name": variant.powers[p].name, "colour": variant.powers[p].colour,
                            "source": None, "results": [{"text": u, "order": f"{u} H", "result": "holds",
                                                         "reason": "no orders (civil disorder): it holds"}
                                                        for u in units]})
    results.sort(key=lambda b: shown_powers.index(b["power"]))
    map_svg = _readout_map(gm, row, stage, shown_powers)
    # the centre tally as it stood in the phase read out, until the position after it is shown
    tallied = row.next if stage == "after" else row.position
    centres = {p: len(tallied.centres_of(p)) for p in variant.powers}
    tally = [{"power": p, "name": variant.powers[p].name, "colour": variant.powers[p].colour, "centres": centres[p]}
             for p in sorted(variant.powers, key=lambda p: -centres[p])]
    return {"phase": phase, "title": phase_title(phase), "stage": stage, "step": step, "steps": steps,
            "current": current, "current_name": variant.powers[current].name if current else None,
            "orders": orders, "results": results, "map": map_svg, "next_title": record["next_title"],
            "dislodged": [r.to_dict() for r in row.results if "dislodged" in (r.reason or "")],
            "last": step + 1 >= steps, "tally": tally}


def _readout_map(gm: Gamesmaster, row: PhaseResult, stage: str, shown: list[str]) -> str:
    """The map of a read-out's stage: the gm's boards of the phase and of where it led (tinted from
    the game's history, as everywhere), the orders or the results of the powers read out so far."""
    def make() -> str:
        if stage == "after":
            return gm.boards.board_after(row.game, str(row.phase)).svg()
        board = gm.boards.board(row.game, str(row.phase), results=False)
        if stage == "orders":
            orders = {p: list(u.texts) for p, u in row.orders.items() if u.texts}
            return board.svg(orders=orders or None)
        return board.showing(row.outcomes(shown)).svg()

    return site.inline_svg(site._cached(["live-readout", row.game, row.seq, stage, shown], make))


def _main_context(gm: Gamesmaster, game: str, state: dict[str, Any]) -> dict[str, Any]:
    readout = readout_view(gm, game, state)
    svg = None
    if readout is None and state.get("phase"):
        svg = site.inline_svg(site.map_svg(gm, game))
    return {"t": state, "readout": readout, "map": svg}


# -- pages -----------------------------------------------------------------------------------


@router.get("/games/{game}/table", response_class=HTMLResponse)
def table_page(game: str, request: Request) -> HTMLResponse:
    gm = _gm(request)
    state = table_state(gm, game)
    ctx = _main_context(gm, game, state)
    ctx["power_names"] = [(p["power"], p["name"]) for p in state["powers"]]
    return _render(request, "live_table.html", ctx)


@router.get("/games/{game}/table/main", response_class=HTMLResponse)
def table_main(game: str, request: Request) -> HTMLResponse:
    gm = _gm(request)
    state = table_state(gm, game)
    return _render(request, "live_table_main.html", _main_context(gm, game, state))


@router.get("/games/{game}/table/state")
def table_json(game: str, request: Request) -> JSONResponse:
    return JSONResponse(table_state(_gm(request), game))


@router.get("/games/{game}/table/events")
async def table_events(game: str, request: Request, once: bool = False) -> StreamingResponse:
    """Server-sent events: the table's state now, then whenever it changes (`?once=1`: one event, then the end)."""
    gm = _gm(request)
    await run_in_threadpool(table_state, gm, game)  # a 404 for an unknown game, before streaming

    async def stream() -> Any:
        yield "retry: 1000\n\n"
        last = None
        loop = asyncio.get_running_loop()
        start = loop.time()
        quiet = 0.0
        while loop.time() - start < STREAM_SECONDS:
            if await request.is_disconnected():
                return
            try:
                state = await run_in_threadpool(table_state, gm, game)
            except GMError:
                return
            except Exception:  # the store busy for a moment: try again at the next look
                state = None
            if state is not None and (state["version"] != last or quiet >= 5.0):
                last, quiet = state["version"], 0.0
                yield f"data: {json.dumps(state, default=str)}\n\n"
                if once:
                    return
            await asyncio.sleep(POLL)
            quiet += POLL

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _back_to(data: FormData, game: str) -> str:
    back = _field(data, "back")
    if back.startswith("/games/") or back.startswith("/gm/"):
        return back
    return _url(game, "/table")


@router.post("/games/{game}/live/{action}")
def live_action(game: str, action: str, request: Request, data: FormData = Depends(form)) -> Response:
    gm = _gm(request)
    table = gm.live
    back = _back_to(data, game)
    try:
        if action in ("agree", "disagree"):
            credential = player_token(request, game)
            if credential is None:
                if not is_gm(request):
                    raise WebError(401, f"sign in to the war room of {game} first")
                power = _field(data, "power")
                everyone = table.agree(game, action == "agree", power=power, by_gm=True)
            else:
                everyone = table.agree(game, action == "agree", credential=credential)
            _flash(request, "Everyone agrees: diplomacy is over, write your orders." if everyone else
                   ("You agree to end diplomacy." if action == "agree" else "You no longer agree to end diplomacy."))
            return RedirectResponse(back, status_code=303)
        if not is_gm(request):
            raise WebError(401, "the table's controls need the GM credential: sign in at /gm")
        if action == "pause":
            table.pause(game)
            _flash(request, "The clock is stopped.")
        elif action == "resume":
            table.resume(game)
            _flash(request, "The clock runs again.")
        elif action == "add":
            try:
                minutes = float(_field(data, "minutes") or "5")
            except ValueError:
                raise GMError("minutes: a number") from None
            table.add_time(game, minutes)
            _flash(request, f"{minutes:g} minutes added.")
        elif action == "end":
            table.end_period(game)
            _flash(request, "The period is ended.")
        elif action == "next":
            table.next_step(game)
        elif action == "slip":
            sub = table.slip(game, _field(data, "power"), _field(data, "orders"))
            bad = sum(1 for a in sub.answers if a.status != "accepted")
            lines = [f"{a.text}: {a.message}" for a in sub.answers]
            _flash(request, f"{sub.power.capitalize()}'s slip entered (on paper, by the GM): "
                   + " | ".join(lines[:12]) + (" | " + "; ".join(sub.warnings) if sub.warnings else ""),
                   "error" if bad else "ok")
        else:
            raise WebError(404, f"the table has no action {action!r}")
    except Refused as exc:
        _flash(request, f"{exc}" + (f" (recorded as ledger entry {exc.seq})" if exc.seq else ""), "error")
    except Forbidden:
        raise
    except GMError as exc:
        _flash(request, str(exc), "error")
    return RedirectResponse(back, status_code=303)


# -- creating live and practice games (GM) --------------------------------------------------------


@router.get("/gm/live", response_class=HTMLResponse)
def live_form(request: Request) -> HTMLResponse:
    if not is_gm(request):
        return RedirectResponse("/gm", status_code=303)  # type: ignore[return-value]
    return _render(request, "live_new.html", {"form": {}, "powers": site.powers_info(variant_named("standard")),
                                              "defaults": LiveConfig().to_dict()})


@router.post("/gm/live", response_class=HTMLResponse)
def live_create(request: Request, data: FormData = Depends(form)) -> Response:
    if not is_gm(request):
        raise WebError(401, "creating a game needs the GM credential: sign in at /gm")
    gm = _gm(request)
    practice = _field(data, "practice") == "1"
    try:
        config: dict[str, Any] = {"practice": practice}
        for key in ("diplomacy_first", "diplomacy", "writing", "retreats", "adjustments"):
            if _field(data, key):
                config[key] = _field(data, key)
        players = site.names(_field(data, "players"))
        assign = None
        if _field(data, "assign"):
            assign = {}
            for pair in _field(data, "assign").replace("\n", ",").split(","):
                if pair.strip():
                    name, eq, power = pair.partition("=")
                    if not eq:
                        raise GMError(f"assign {pair.strip()!r}: write NAME=POWER")
                    assign[name.strip()] = power.strip()
            players = players or list(assign)
        created = gm.live.create(_field(data, "id"), title=_field(data, "title") or None, players=players,
                                       assign=assign, config=LiveConfig.from_dict(config),
                                       press=_field(data, "press") or "full")
    except GMError as exc:
        return _render(request, "live_new.html", {"form": dict(data.multi_items()), "error": str(exc),
                                                  "powers": site.powers_info(variant_named("standard")),
                                                  "defaults": LiveConfig().to_dict()}, status=400)
    lines = [f"{'Practice' if practice else 'Live'} game: the table view is at /games/{created.game}/table."]
    if practice:
        lines.append("The powers nobody plays hold; there is no diplomacy, only the writing period.")
    return _render(request, "gm_shown_once.html", {
        "title": f"Game {created.game} created", "game": created.game, "lines": lines,
        "credentials": site.shown_credentials(created)})
