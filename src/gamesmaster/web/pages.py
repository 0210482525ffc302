"""The pages: games, a game, history, rules, the war room and the GM console.

GET pages are plain server-rendered HTML. Every POST is a form with the session's CSRF
token and ends in a redirect back to the page (with a short message), except where a
secret must be shown once (new credentials), which is rendered directly.
"""

from __future__ import annotations

from typing import Any, Callable, cast
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.datastructures import FormData

from ..gm import (phase_title, parse_phase, GAME_ID, ORDERS_CHARS, CentreChart, Forbidden, Gamesmaster, GMError,
                  NotCommanded, Refused, RuleSpec, Settings, game_address, parse_duration, parse_time, read_warnings,
                  rules_for)
from . import site
from .app import WebError, drawing, drawing_budget
from .security import CSRF_FIELD, CSRF_HEADER, csrf_ok, is_gm, player_token, target_of, web_session

router = APIRouter(include_in_schema=False)
MAX_FIELD = 20000


def _gm(request: Request) -> Gamesmaster:
    return cast(Gamesmaster, request.app.state.gm)  # the app factory put it there; starlette's state is untyped


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    return cast(HTMLResponse, request.app.state.render(request, name, context, status))


def _flash(request: Request, text: str, kind: str = "ok") -> None:
    flashes = list(web_session(request).get("flash", []))
    flashes.append([kind, text[:600]])
    web_session(request)["flash"] = flashes[-4:]


def _back(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _acted(request: Request, url: str, act: Callable[[], str]) -> RedirectResponse:
    """Do a form's action, flash what it did (or the gamesmaster's refusal) and go back to `url`."""
    try:
        _flash(request, act())
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(url)


async def form(request: Request) -> FormData:
    """The posted form, once its CSRF token is checked."""
    try:
        data = await request.form()
    except Exception:  # an unreadable body
        raise WebError(400, "the form could not be read") from None
    sent = data.get(CSRF_FIELD)
    if not csrf_ok(web_session(request), sent if isinstance(sent, str) else None):
        raise WebError(403, "the form has expired or did not come from this site (CSRF check): reload the page and try again")
    for key, value in data.multi_items():
        if isinstance(value, str) and len(value) > MAX_FIELD:
            raise WebError(400, f"the field {key!r} is too long")
        if not isinstance(value, str):
            raise WebError(400, "files cannot be uploaded here")
    return data


def _field(data: FormData, name: str, default: str = "") -> str:
    value = data.get(name)
    return value.strip() if isinstance(value, str) else default


def _game_url(game: str, tail: str = "") -> str:
    return f"/games/{quote(game, safe='')}{tail}"


# -- public pages -----------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def games_page(request: Request) -> HTMLResponse:
    return _render(request, "games.html", {"games": site.games(_gm(request))})


@router.get("/games/{game}", response_class=HTMLResponse)
def game_page(game: str, request: Request) -> HTMLResponse:
    gm = _gm(request)
    page = gm.games.game_page(game)
    drawn = site.map_svg(gm, game) if page.game.phase else None

    def render() -> str:
        view = site.game(page)
        svg = site.inline_svg(drawn) if drawn is not None else None
        return cast(str, request.app.state.templates.get_template("_game_body.html").render(g=view, map=svg))
    # The body is the same HTML for every visitor at one state of the game (only the site's header around it is
    # theirs): rendered once for each, it was a game page's whole cost, twice an average request's under a crowd.
    body = site.rendered(("game page", game, page.game.version, drawn.etag if drawn is not None else None), render)
    return _render(request, "game.html", {"title": page.game.title, "body": Markup(body)})


@router.get("/games/{game}/history", response_class=HTMLResponse)
def history_page(game: str, request: Request, phase: str | None = None) -> HTMLResponse:
    gm = _gm(request)
    page = gm.games.game_page(game)
    st, rows = page.game, page.published
    steps = list(dict.fromkeys(str(r.phase) for r in rows))  # a retreat phase played in rounds is one step
    current = str(st.phase) if st.status != "forming" and st.phase else None
    if phase is not None and phase.strip().lower() != "now":
        wanted = parse_phase(phase)
        if wanted not in steps and wanted != current:
            raise WebError(404, f"{phase_title(wanted)} has not been published in {game}")
        shown = wanted if wanted in steps else None
    else:
        shown = steps[-1] if steps and (phase is None) else None
    record = site.phase_record(gm.games.result(game, shown)) if shown else None
    keys = steps + (["now"] if current and current not in steps else [])
    here = shown or "now"
    i = keys.index(here) if here in keys else len(keys) - 1
    svg = site.inline_svg(site.map_svg(gm, game, shown)) if (shown or current) else None
    chart = CentreChart.of(st, rows)
    return _render(request, "history.html", {
        "g": site.summary(st), "record": record, "map": svg, "steps": keys, "here": here,
        "prev": keys[i - 1] if i > 0 else None, "next": keys[i + 1] if i + 1 < len(keys) else None,
        "chart": site.chart_svg(chart) if chart.labels else None, "chart_data": chart,
        "current_title": st.phase_title})


@router.get("/games/{game}/rules", response_class=HTMLResponse)
def rules_page(game: str, request: Request) -> HTMLResponse:
    gm = _gm(request)
    return _render(request, "rules.html", {"r": site.rules_view(gm, game), "g": site.summary(gm.games.game(game))})


def _record_page(request: Request, game: str, phase: str | None = None, receipt: str | None = None) -> HTMLResponse:
    gm = _gm(request)
    view = gm.games.game(game)
    check = None
    if receipt is not None:
        if len(receipt) > 300:
            raise WebError(400, "that is not a receipt (too long)")
        check = gm.record.check_receipt(game, receipt.strip(), credential=_credential(request, game))
    record = site.phase_record_view(gm.record.phase_record(game, phase)) if phase else None
    phases = [{"phase": str(r.phase), "title": r.title, "revision": r.revision, "seq": r.seq} for r in gm.games.results(game)]
    # Something that is not a receipt at all is the asker's mistake (400), not a verdict on the record.
    status = 400 if check is not None and check.status == "unreadable" else 200
    # A player signed in to the game may dispute the set that replaced its receipt's (gm.disputes).
    disputable = (check is not None and check.status == "replaced" and check.disputed is None
                  and _credential(request, game) is not None)
    return _render(request, "record.html", {"g": site.summary(view), "phase_record": record, "phases": phases,
                                            "check": site.receipt_view(check) if check else None,
                                            "disputable": disputable}, status)


@router.get("/games/{game}/record", response_class=HTMLResponse)
def record_page(game: str, request: Request) -> HTMLResponse:
    return _record_page(request, game)


@router.get("/games/{game}/record.json")
def record_download(game: str, request: Request) -> Response:
    doc = _gm(request).record.archive(game)
    return JSONResponse(doc, headers={"Content-Disposition": f'attachment; filename="{game}-record.json"',
                                      "Cache-Control": "no-cache"})


@router.get("/games/{game}/record/{phase}", response_class=HTMLResponse)
def phase_record_page(game: str, phase: str, request: Request) -> HTMLResponse:
    return _record_page(request, game, phase=phase)


@router.get("/games/{game}/receipt", response_class=HTMLResponse)
def receipt_page(game: str, request: Request, r: str = Query("")) -> HTMLResponse:
    return _record_page(request, game, receipt=r)


@router.post("/games/{game}/dispute")
def dispute(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    receipt = _field(data, "receipt") or ""
    try:
        d = _gm(request).disputes.dispute(game, receipt, _field(data, "text") or "", credential=_credential(request, game))
        _flash(request, f"Your dispute of {d.power.capitalize()}'s set #{d.number} for {d.phase} is on the record "
                        f"(entry {d.seq}), and every player has been told.")
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(f"/games/{game}/receipt?" + urlencode({"r": receipt[:300]}))


@router.get("/games/{game}/map.svg")
def map_svg(game: str, request: Request, phase: str | None = None, results: bool = True) -> Response:
    return drawing(request, site.map_svg(_gm(request), game, phase, results=results), "image/svg+xml")


@router.get("/games/{game}/map.png")
def map_png(game: str, request: Request, phase: str | None = None, results: bool = True,
            width: int = Query(1200, ge=site.MAP_WIDTHS[0], le=site.MAP_WIDTHS[1])) -> Response:
    png = site.map_png(_gm(request), game, phase, results=results, width=width, may_draw=drawing_budget(request))
    name = f"{game}-{parse_phase(phase) if phase else 'now'}.png"
    return drawing(request, png, "image/png", name)


# -- the war room -----------------------------------------------------------------------


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


def _limit(request: Request, target: str | None) -> None:
    """429 while this client has used up its failed sign-in attempts (docs/security.md)."""
    wait = request.app.state.limits.wait(_address(request), target)
    if wait:
        raise WebError(429, f"too many failed sign-in attempts from here: try again in {wait} seconds")


def _renew(request: Request) -> str:
    """A new session token at sign-in, carrying the session's sign-ins and data over; the old one ends."""
    session = web_session(request)
    new = _gm(request).sessions.renew_session(session.token, dict(session))
    session.renew(lambda: new)
    return session.acting_token(_gm(request).sessions.new_browser_key) or new


def _credential(request: Request, game: str) -> str | None:
    """The session's token for acting in this game, if it is signed in to it."""
    return player_token(request, game)


@router.get("/games/{game}/war-room", response_class=HTMLResponse)
def war_room_page(game: str, request: Request) -> HTMLResponse:
    gm = _gm(request)
    credential = _credential(request, game)
    if credential is None:
        return _render(request, "sign_in.html", {"g": site.summary(gm.games.game(game))})
    wanted = request.query_params.get("power")
    try:
        room = gm.rooms.war_room(game, credential, wanted[:40] if wanted else None)
    except NotCommanded as exc:
        raise WebError(403, str(exc)) from None
    except Forbidden as exc:
        gm.sessions.sign_out(credential, game)
        web_session(request).games = tuple(g for g in web_session(request).games if g != game)
        _flash(request, f"{exc}.", "error")
        return _render(request, "sign_in.html", {"g": site.summary(gm.games.game(game))})
    view = site.war_room(room)
    unsent = _unsent(request, game, room.power)
    if unsent is not None:
        view["orders_text"] = unsent
    svg = None
    if room.game.phase is not None:
        mine = room.mine
        # the set as the gamesmaster read it when it was answered: the map does not read the text again
        drawn = (mine.checking.readings if mine.checking is not None else mine.orders.orders) if mine else None
        svg = site.inline_svg(site.map_svg(gm, game, orders={room.power: drawn} if drawn and room.power else None,
                                           highlight=room.power))
    address = request.app.state.mail_address
    return _render(request, "war_room.html", {"w": view, "map": svg, "g": view["game"], "nokey": room.cannot_act,
                                              "mail_to": game_address(address, game) if address else None})


@router.post("/games/{game}/sign-in")
def sign_in(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    gm = _gm(request)
    credential = _field(data, "credential")
    if not credential:
        raise WebError(400, "enter your credential (the ID.SECRET you were given when the game was set up)")
    if not gm.sessions.credential_known(game, credential):
        _limit(request, target_of(game, credential))
    try:
        seat = gm.orders.identify(game, credential)
    except Forbidden as exc:
        request.app.state.limits.failed(_address(request), target_of(game, credential))
        _flash(request, str(exc), "error")
        return _back(_game_url(game, "/war-room"))
    gm.sessions.sign_in(_renew(request), game, credential)
    web_session(request).games = tuple(sorted({*web_session(request).games, game}))
    powers = "/".join(p.capitalize() for p in seat.acts_for())
    _flash(request, f"Signed in as {seat.name}" + (f", {powers}." if powers else "."))
    return _back(_game_url(game, "/war-room"))


@router.post("/games/{game}/sign-out")
def sign_out(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    token = web_session(request).token
    if token is not None:
        _gm(request).sessions.sign_out(token, game)  # every copy of the cookie is signed out with it
    web_session(request).games = tuple(g for g in web_session(request).games if g != game)
    _flash(request, "Signed out.")
    return _back(_game_url(game))


def _player(request: Request, game: str, wanted: str | None = None) -> tuple[str, str]:
    """(credential, power) of the signed-in player, for the power asked for (a player of several
    powers names the one he acts for) or his first; 401 if nobody is signed in."""
    credential = _credential(request, game)
    if credential is None:
        raise WebError(401, f"sign in to the war room of {game} first")
    seat = _gm(request).orders.identify(game, credential)
    power = site.acts_for(seat, wanted[:40] if wanted else None)
    if not power:
        if wanted:
            raise WebError(403, f"{seat.name} does not command {wanted[:40]!r} in {game}")
        raise WebError(403, f"{seat.name} acts for no power in {game} now")
    return credential, power


def _room(game: str, power: str, anchor: str = "") -> str:
    """The war room's address, open at the power being ordered."""
    return _game_url(game, f"/war-room?power={quote(power)}{anchor}")


def _keep_unsent(request: Request, game: str, power: str, text: str) -> None:
    """Keep a refused set as typed for the war room's next showing, so that the player mends it, not retypes it."""
    web_session(request)["unsent"] = [game, power, text[:ORDERS_CHARS]]


def _unsent(request: Request, game: str, power: str | None) -> str | None:
    """The refused set kept for this game and power (once), or None."""
    kept = web_session(request).pop("unsent", None)
    return kept[2] if isinstance(kept, list) and len(kept) == 3 and kept[:2] == [game, power] else None


@router.post("/games/{game}/war-room/orders")
def war_room_orders(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential = _credential(request, game)
    if credential is None:
        raise WebError(401, f"sign in to the war room of {game} first")
    wanted = _field(data, "power")[:40] or None
    text = _field(data, "orders")
    phase = _field(data, "phase") or None
    try:  # the gamesmaster checks the credential, once, and takes the seat's first power unless one is named
        sub = _gm(request).orders.submit_orders(game, wanted, text, credential=credential, channel="web", phase=phase)
    except GMError as exc:  # back to the war room, the set kept as typed to be mended
        power = _player(request, game, wanted)[1]  # a sign-in that does not hold, or no such power: 401/403
        _flash(request, f"{exc} (the refusal is on the record)" if isinstance(exc, Refused) else str(exc), "error")
        _keep_unsent(request, game, power, text)
        return _back(_room(game, power))
    bad = sum(1 for a in sub.answers if a.status != "accepted")
    msg = (f"Orders received for {sub.phase_title}: {len(sub.answers) - bad} accepted"
           + (f", {bad} not valid (see the answers)" if bad else "") + ". Keep the receipt shown under 'On record'.")
    if sub.processed:
        msg += f" Every power concerned has ordered: {', '.join(phase_title(p) for p in sub.processed)} processed."
    _flash(request, msg, "error" if bad else "ok")
    return _back(_room(game, sub.power))


@router.post("/games/{game}/war-room/check")
async def war_room_check(game: str, request: Request) -> JSONResponse:
    """The answers to orders being written (JSON, for the war room's script; nothing is recorded)."""
    if not csrf_ok(web_session(request), request.headers.get(CSRF_HEADER)):
        raise WebError(403, "CSRF check failed: reload the page")
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # 100,000 '[' are too deep for the parser, not a reason for a 500
        raise WebError(400, "malformed JSON") from None
    text = body.get("orders") if isinstance(body, dict) else None
    if not isinstance(text, str) or len(text) > MAX_FIELD:
        raise WebError(422, "orders: a text is required")
    wanted = body.get("power")
    if wanted is not None and not isinstance(wanted, str):
        raise WebError(422, "power: the name of a power you command")
    from starlette.concurrency import run_in_threadpool
    with_map = isinstance(body, dict) and body.get("map") is True
    return JSONResponse(await run_in_threadpool(_check, request, game, text, wanted, with_map))


def _check(request: Request, game: str, text: str, wanted: str | None = None, with_map: bool = False) -> dict[str, Any]:
    """The answers; with_map: and the map with the orders as read drawn on it (before they are sent)."""
    credential, power = _player(request, game, wanted)
    gm = _gm(request)
    checking = gm.orders.check(game, power, text, credential=credential)
    out = site.answers(checking)
    if with_map and gm.games.game(game).position is not None:
        read = [a.order for a in checking.answers if a.order]
        out["map"] = site.inline_svg(site.map_svg(gm, game, orders={power: read} if read else None, highlight=power))
    return out


@router.post("/games/{game}/war-room/withdraw")
def war_room_withdraw(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential, power = _player(request, game, _field(data, "power"))

    def withdraw() -> str:
        _gm(request).orders.withdraw_orders(game, power, credential=credential, channel="web")
        return "Your orders are withdrawn: the units will hold unless you send new ones."
    return _acted(request, _room(game, power), withdraw)


@router.post("/games/{game}/war-room/ready")
def war_room_ready(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential, power = _player(request, game, _field(data, "power"))
    ready = _field(data, "ready") == "1"

    def mark() -> str:
        done = _gm(request).orders.set_ready(game, power, ready, credential=credential)
        return (("Marked ready." if ready else "No longer ready.")
                + (f" Everyone is ready: {', '.join(phase_title(p) for p in done)} processed." if done else ""))
    return _acted(request, _room(game, power), mark)


@router.post("/games/{game}/war-room/press")
def war_room_press(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential, power = _player(request, game, _field(data, "power"))
    to = [p for p in data.getlist("to") if isinstance(p, str) and p]
    try:
        _gm(request).press.post_press(game, _field(data, "text"), to=to or None, anonymous=_field(data, "anonymous") == "1",
                                power=power, credential=credential)
        _flash(request, "Sent " + ("to " + ", ".join(p.capitalize() for p in to) if to else "to everyone") + ".")
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(_room(game, power, "#press"))


@router.post("/games/{game}/war-room/question")
def war_room_question(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential, power = _player(request, game)
    try:
        number = _gm(request).questions.ask(game, _field(data, "text"), credential=credential, channel="web")
        _flash(request, f"Question {number} is with the gamesmaster; the answer appears here (and by mail).")
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(_game_url(game, "/war-room") + "#questions")


@router.post("/games/{game}/war-room/propose")
def war_room_propose(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential, power = _player(request, game, _field(data, "power"))
    kind = _field(data, "kind") or "draw"
    powers = [p for p in data.getlist("powers") if isinstance(p, str) and p]
    try:
        pid = _gm(request).press.propose(game, kind=kind, powers=powers or None, concede_to=_field(data, "concede_to") or None,
                                   power=power, credential=credential)
        _flash(request, f"Proposal {pid} is open; you have voted yes.")
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(_room(game, power, "#votes"))


@router.post("/games/{game}/war-room/vote")
def war_room_vote(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    credential, power = _player(request, game, _field(data, "power"))
    try:
        proposal = int(_field(data, "proposal"))
    except ValueError:
        raise WebError(400, "which proposal? (a number)") from None
    yes = _field(data, "vote") == "yes"
    try:
        status = _gm(request).press.vote(game, proposal, yes, power=power, credential=credential)
        _flash(request, f"You voted {'yes' if yes else 'no'} on proposal {proposal}: it is {status}.")
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(_room(game, power, "#votes"))


# -- the GM console -----------------------------------------------------------------------


def _require_gm(request: Request) -> None:
    if not is_gm(request):
        raise WebError(401, "the GM console needs the GM credential: sign in at /gm")


@router.get("/gm", response_class=HTMLResponse)
def gm_page(request: Request) -> HTMLResponse:
    if not is_gm(request):
        return _render(request, "gm_sign_in.html", {})
    gm = _gm(request)
    return _render(request, "gm_console.html", {"games": site.games(gm), "cat": site.catalogue(), "form": {},
                                                "questions": gm.questions.unanswered(), "mail": gm.mailroom.mail_trouble()})


@router.post("/gm/sign-in")
def gm_sign_in(request: Request, data: FormData = Depends(form)) -> Response:
    secrets_ = request.app.state.secrets
    credential = _field(data, "credential")
    if not (credential and secrets_.known_gm(credential)):
        _limit(request, "gm")
    if secrets_.check_gm(credential):
        token = _renew(request)
        _gm(request).sessions.save_session(token, dict(web_session(request)), gm_key=secrets_.gm_key)
        web_session(request).gm_key = secrets_.gm_key
        _flash(request, "Signed in as the gamesmaster.")
    else:
        request.app.state.limits.failed(_address(request), "gm")
        _flash(request, "That is not the GM credential.", "error")
    return _back("/gm")


@router.post("/gm/sign-out")
def gm_sign_out(request: Request, data: FormData = Depends(form)) -> Response:
    token = web_session(request).token
    if token is not None:
        _gm(request).sessions.save_session(token, gm_key=None)
    web_session(request).gm_key = None
    _flash(request, "Signed out of the GM console.")
    return _back("/")


@router.post("/gm/games", response_class=HTMLResponse)
def gm_create(request: Request, data: FormData = Depends(form)) -> Response:
    _require_gm(request)
    gm = _gm(request)
    game_id = _field(data, "id")
    variant = _field(data, "variant") or "standard"
    preset = _field(data, "preset") or None
    overrides = {}
    for key, value in data.multi_items():
        if key.startswith("opt_") and isinstance(value, str) and value.strip():
            overrides[key[4:]] = site.rule_value(value)
    problems: list[str] = []  # every field that does not read, all at once
    if not GAME_ID.match(game_id):
        problems.append(f"game id {game_id[:80]!r}: use 1-64 lowercase letters, digits, '-' or '_', "
                        "starting with a letter or digit")
    rules = RuleSpec(preset)
    try:
        rules = rules_for(variant, preset, overrides)
    except GMError as exc:
        problems.append(str(exc))
    end_year = _field(data, "end_year")
    if end_year and site.whole(end_year) is None:
        problems.append(f"end year {end_year!r} is not a year")
    seed = _field(data, "seed")
    if seed and site.whole(seed, signed=True) is None:
        problems.append(f"seed {seed!r}: a whole number, or leave it empty")
    settings: Settings | None = None
    try:
        settings = site.build_settings(
            press=_field(data, "press") or "full", tz=_field(data, "tz") or "UTC", movement=_field(data, "movement"),
            min_gap=_field(data, "min_gap"), retreats=_field(data, "retreats"), adjustments=_field(data, "adjustments"),
            grace=_field(data, "grace"), replacement=_field(data, "replacement") or "preset",
            early_movement=_field(data, "early_movement") == "1", draw_vote=_field(data, "draw_vote") or "unanimous",
            votes=_field(data, "votes") or "secret",
            end_year=site.whole(end_year) if end_year else None, end_at=_field(data, "end_at") or None,
            scoring=_field(data, "scoring") or "none")
    except site.FormProblems as exc:
        problems += exc.problems
    except (GMError, ValueError) as exc:
        problems.append(str(exc))
    if not problems:
        try:
            created = gm.setup.create_game(game_id, title=_field(data, "title") or None, variant=variant, rules=rules,
                                     settings=settings, players=site.names(_field(data, "players")),
                                     standbys=site.names(_field(data, "standbys")), seed=site.whole(seed, signed=True) if seed else None,
                                     start=_field(data, "start", "1") == "1")
        except (GMError, ValueError) as exc:
            problems.append(str(exc))
    if problems:
        return _render(request, "gm_console.html", {"games": site.games(gm), "cat": site.catalogue(),
                                                    "errors": problems, "form": dict(data.multi_items()),
                                                    "opts_open": bool(overrides)}, status=400)
    return _render(request, "gm_shown_once.html", {
        "title": f"Game {created.game} created", "game": created.game,
        "lines": ([f"Powers drawn by lot with seed {created.seed} (on the record)."] if created.seed is not None
                  else ["Powers assigned."] if created.powers else ["The game is forming: draw the lots when the players are in."]),
        "credentials": site.shown_credentials(created)})


@router.get("/gm/games/{game}", response_class=HTMLResponse)
def gm_game_page(game: str, request: Request) -> HTMLResponse:
    _require_gm(request)
    gm = _gm(request)
    room = gm.rooms.gm_room(game)
    st, view = room.page.game, site.game(room.page)
    # what each power has handed in, for the GM's eyes only: listed, and drawn on the map
    received = list(room.received)
    drawn = {r.power: list(r.orders) for r in received}
    svg = site.inline_svg(site.map_svg(gm, game, orders=drawn or None)) if view["phase"] else None
    return _render(request, "gm_game.html", {"g": view, "st": st, "last": view["last_results"], "map": svg,
                                             "received": received,
                                             "proposals": room.proposals, "powers": site.powers_info(st.variant),
                                             "tz": st.settings.schedule.tz,
                                             "press": list(room.press)[-30:],
                                             "questions": [site.question_item(q) for q in room.questions],
                                             "records": _seat_records(gm, game), "webhook": gm.webhooks.webhook(game)})


def _seat_records(gm: Gamesmaster, game: str) -> list[dict[str, Any]]:
    from .club import seat_records  # web.club builds on this module's forms
    return seat_records(gm, game)



@router.post("/gm/games/{game}/{action}", response_class=HTMLResponse)
def gm_action(game: str, action: str, request: Request, data: FormData = Depends(form)) -> Response:
    _require_gm(request)
    gm = _gm(request)
    back = f"/gm/games/{quote(game, safe='')}"
    reason = _field(data, "reason")
    try:
        if action == "start":
            seed = _field(data, "seed")
            created = gm.setup.draw_lots(game, site.whole(seed, signed=True))
            _flash(request, f"Lots drawn with seed {created.seed}: " +
                   ", ".join(f"{n} {'/'.join(p.capitalize() for p in ps)}" for n, ps in created.commands.items()))
        elif action in ("join", "standby"):
            name = _field(data, "name")
            secret = gm.setup.join_game(game, name, standby=action == "standby")
            return _render(request, "gm_shown_once.html", {
                "title": f"{name} joins {game}", "game": game, "lines": [],
                "credentials": [{"name": name, "power": "stand-by" if action == "standby" else None, "credential": secret}]})
        elif action == "replace":
            name, power = _field(data, "name"), _field(data, "power")
            secret = gm.players.replace_player(game, power, name, reason=reason)
            return _render(request, "gm_shown_once.html", {
                "title": f"{name} now plays {power.capitalize()}", "game": game, "lines": [],
                "credentials": [{"name": name, "power": power.upper(), "credential": secret}]})
        elif action == "credential":
            who = _field(data, "who")
            secret = gm.players.new_credential(game, who, reason=reason)
            return _render(request, "gm_shown_once.html", {
                "title": f"A new credential for {who}", "game": game,
                "lines": ["The old credential no longer works; the record says a new one was issued, and why."],
                "credentials": [{"name": who, "power": None, "credential": secret}]})
        elif action == "orders":
            power = _field(data, "power")
            sub = gm.orders.submit_orders(game, power, _field(data, "orders"), by_gm=True,
                                   channel=_field(data, "channel") or "in-person")
            lines = [f"{a.text}: {a.message}" + ("; " + "; ".join(a.notes) if a.notes else "") for a in sub.answers]
            _flash(request, f"Orders of {sub.power.capitalize()} entered ({len(lines)} orders). Receipt: {sub.receipt}. "
                   + " | ".join(lines[:12]) + ("" if not sub.warnings else " | " + "; ".join(sub.warnings)))
        elif action == "process":
            done = gm.deadlines.process(game, force=True)
            _flash(request, "; ".join(f"{phase_title(p.phase)} {p.action}" +
                                      (f", next {phase_title(p.next_phase)}" if p.next_phase else "") for p in done))
        elif action == "extend":
            until = _field(data, "until")
            tz = gm.games.game(game).settings.schedule.tz
            if until:
                gm.deadlines.extend(game, until=parse_time(until, tz), reason=reason)
            else:
                gm.deadlines.extend(game, hours=parse_duration(_field(data, "by") or "24h"), reason=reason)
            _flash(request, f"Deadline extended to {gm.games.game(game).deadline_text}.")
        elif action == "pause":
            gm.deadlines.pause(game, reason=reason)
            _flash(request, "The game is paused.")
        elif action == "resume":
            until = _field(data, "until")
            tz = gm.games.game(game).settings.schedule.tz
            gm.deadlines.resume(game, until=parse_time(until, tz) if until else None, reason=reason)
            _flash(request, f"The game resumes: orders due {gm.games.game(game).deadline_text}.")
        elif action == "correct":
            power, text, rule = _field(data, "power"), _field(data, "orders"), _field(data, "rule")
            orders = {power: text} if power else None
            rules = None
            if rule:
                name, eq, value = rule.partition("=")
                if not eq:
                    raise GMError("a corrected rule is written OPTION=VALUE, e.g. koning=false")
                rules = gm.games.game(game).rules_spec.changed({name.strip(): site.rule_value(value)})
            c = gm.corrections.correct(game, reason, orders=orders, rules=rules, phase=_field(data, "phase")[:16] or None)
            _flash(request, f"{phase_title(c.phase)} corrected: " + ("; ".join(c.differences) or "results unchanged"))
        elif action == "verify":
            receipts = [r.strip() for r in _field(data, "receipts").splitlines() if r.strip()]
            r = gm.record.verify(game, receipts=receipts)
            return _render(request, "gm_verify.html", {"r": r, "game": game})
        elif action == "press":
            sender = _field(data, "power") or None
            gm.press.post_press(game, _field(data, "text"), power=sender, by_gm=True)
            _flash(request, "Notice published." if not sender else f"{sender.capitalize()}'s release entered.")
        elif action == "answer":
            number = _field(data, "question")
            asked = site.whole(number)
            if asked is None:
                raise GMError("which question? (its number)")
            public = _field(data, "public") == "1"
            gm.questions.answer_question(game, asked, _field(data, "text"), public=public)
            _flash(request, f"Question {number} answered " + ("for everyone." if public else "to its asker."))
        elif action == "webhook":
            url, times = _field(data, "url")[:1000], _field(data, "warnings")
            hours = read_warnings(times) if times else None  # left empty: 24 and 2
            if _field(data, "remove") == "1":
                status = gm.webhooks.set_webhook(game, None)
            elif url:
                status = gm.webhooks.set_webhook(game, url, hours)
            else:  # the URL is not shown again (it is a secret): only the times change
                status = gm.webhooks.set_webhook_warnings(game, hours)
            _flash(request, f"Webhook set: posting to {status.shown}, warning of each deadline "
                            f"{status.warnings_text} before it." if status else "No webhook now.")
        elif action == "draw":
            gm.press.declare_draw(game, reason=reason)
            _flash(request, "The game is declared drawn.")
        else:
            raise WebError(404, f"the GM console has no action {action!r}")
    except Refused as exc:
        _flash(request, f"{exc} (recorded as ledger entry {exc.seq})", "error")
    except (GMError, ValueError) as exc:
        _flash(request, str(exc), "error")
    return _back(back)
