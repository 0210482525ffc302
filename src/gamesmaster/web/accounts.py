"""The pages of players' accounts: sign up and in, my games, open games, notifications and their settings.

A player signs up with an e-mail address and a name and signs in by the link mailed to
it (or with a password set once signed in). Signing in renews the session's token and
signs the session in to every seat the account holds, so the war rooms take it as they
take a credential. Every form carries the CSRF token; mailing links is limited per client
address here and per address mailed in the gamesmaster (docs/security.md).
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from ..gm import KINDS, Forbidden, Gamesmaster, GMError, Limited, NoticeSettings, RateLimiter
from . import site
from .app import WebError
from .pages import _acted, _address, _back, _field, _flash, _limit, _renew, _require_gm, form
from .security import player_token, target_of, web_session

router = APIRouter(include_in_schema=False)
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
POLL_SECONDS = 20  # how often a page asks for the unread count


def _gm(request: Request) -> Gamesmaster:
    return cast(Gamesmaster, request.app.state.gm)  # the app factory put it there; starlette's state is untyped


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    return cast(HTMLResponse, request.app.state.render(request, name, context, status))


def account_of(request: Request) -> int | None:
    """The account the request's session is signed in to, if any."""
    return getattr(request.scope.get("session"), "account", None)


def _require_account(request: Request) -> int:
    account = account_of(request)
    if account is None:
        raise WebError(401, "sign in to your account first (at /account)")
    return account


def site_url(request: Request) -> str:
    """The site's address for links in mail: GAMESMASTER_SITE_URL, or the request's own when it came to a
    loopback name. A link is never built from any other Host header, which whoever asks could set."""
    configured = getattr(request.app.state, "site_url", None)
    if configured:
        return str(configured).rstrip("/")
    host = urlsplit(str(request.base_url)).hostname or ""
    if host in LOOPBACK:
        return str(request.base_url).rstrip("/")
    raise WebError(400, "this site's address is not configured (GAMESMASTER_SITE_URL), so no link can be mailed")


def _mail_limit(request: Request) -> None:
    """429 while this client address has asked for its share of mailed links (5 at once, then one a minute)."""
    limiter: RateLimiter = request.app.state.link_limits
    key = f"addr:{_address(request) or '-'}"
    if not limiter.allowed(key):
        raise WebError(429, f"too many links asked for from here: try again in {limiter.retry_after(key)} seconds")
    limiter.failed(key)


def _signed_in(request: Request, account_id: int) -> None:
    """Renew the session's token and sign it in to the account and its seats."""
    gm = _gm(request)
    token = _renew(request)
    gm.accounts.attach_account(token, account_id)
    session = web_session(request)
    session.account = account_id
    session.games = tuple(sorted({*session.games, *gm.accounts.account_seats(account_id)}))


def _refresh_seats(request: Request, account_id: int) -> None:
    """Sign the session in to seats the account took since (in another browser, or by a claim)."""
    gm = _gm(request)
    seats = gm.accounts.account_seats(account_id)
    session = web_session(request)
    if session.token is not None and not set(seats) <= set(session.games):
        gm.accounts.attach_account(session.token, account_id)
        session.games = tuple(sorted({*session.games, *seats}))


# -- signing up and in ---------------------------------------------------------------------------


def _promise(request: Request, what: str, to: str, then: str) -> tuple[str, str]:
    """What to tell a person of a mail just queued (text, flash kind): 'on its way' only when mail is going out.

    what: 'A sign-in link'; then: what to do with it once it comes."""
    trouble = _gm(request).mailroom.mail_trouble(10)
    if trouble.failing:
        since = f"{trouble.since:%d %b %H:%M} UTC" if trouble.since else "a while"
        return (f"{what} for {to} is waiting in the gamesmaster's outbox: mail is not going out just now "
                f"(the relay has taken none since {since}), so it is not on its way yet. "
                "It is sent as soon as mail works again; the gamesmaster sees it on the console.", "error")
    if trouble.sent == 0:
        return (f"{what} for {to} is queued. This site has not delivered any mail yet, so it may not arrive: "
                "if it has not come in a few minutes, ask the gamesmaster.", "ok")
    return f"{what} is on its way to {to}{then}", "ok"



@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request) -> HTMLResponse:
    account_id = account_of(request)
    if account_id is None:
        return _render(request, "account_sign_in.html", {})
    gm = _gm(request)
    try:
        account = gm.accounts.account(account_id)
    except Forbidden:
        return _render(request, "account_sign_in.html", {})
    _refresh_seats(request, account_id)
    gm.notices.notify(gm.accounts.account_seats(account_id))
    games = gm.joining.my_games(account_id)
    settings = {g.id: gm.notices.notice_settings(account_id, g.id) for g in games}
    return _render(request, "account.html", {"account": account, "games": games, "settings": settings,
                                             "kinds": KINDS, "open": gm.joining.open_games(),
                                             "unkeyed": _unkeyed(request, [g.id for g in games])})


def _unkeyed(request: Request, games: list[str]) -> set[str]:
    """The games whose seat this browser cannot act in yet (no key of it on the record: docs/security.md)."""
    out = set()
    for game in games:
        token = player_token(request, game)
        try:
            if token is not None and _gm(request).sessions.cannot_act(game, token):
                out.add(game)
        except GMError:  # a seat the account no longer holds: my_games says so
            continue
    return out


@router.post("/account/sign-up")
def sign_up(request: Request, data: FormData = Depends(form)) -> Response:
    _mail_limit(request)
    email = _field(data, "email")
    try:
        _gm(request).accounts.sign_up(email, _field(data, "name"), site_url(request), later=True)
    except Limited as exc:
        raise WebError(429, str(exc)) from None
    _flash(request, *_promise(request, "A sign-in link", email, ": open it within 30 minutes to sign in."))
    return _back("/account")


@router.post("/account/send-link")
def send_link(request: Request, data: FormData = Depends(form)) -> Response:
    _mail_limit(request)
    email = _field(data, "email")
    try:
        _gm(request).accounts.request_link(email, site_url(request), later=True)
    except Limited as exc:
        raise WebError(429, str(exc)) from None
    text, kind = _promise(request, "A sign-in link", email, ": open it within 30 minutes.")
    _flash(request, f"If {email} has an account: {text[0].lower()}{text[1:]}", kind)
    return _back("/account")


@router.get("/account/link", response_class=HTMLResponse)
def link_page(request: Request, t: str = "") -> HTMLResponse:
    # Opening the link only shows a button: mail programs that fetch links to scan them must not use it up.
    return _render(request, "account_link.html", {"token": t[:100]})


@router.post("/account/link")
def use_link(request: Request, data: FormData = Depends(form)) -> Response:
    gm = _gm(request)
    used = gm.accounts.use_link(_field(data, "t"))
    _signed_in(request, used.account.id)
    if used.game:
        invited = [g for g in web_session(request).get("invited", []) if g != used.game][-9:]
        web_session(request)["invited"] = [*invited, used.game]
        _flash(request, f"Signed in as {used.account.name}. You are invited to {used.game}: take your seat below.")
        return _back(f"/games/open#{quote(used.game, safe='')}")
    _flash(request, f"Signed in as {used.account.name}.")
    return _back("/account")


@router.post("/account/password-sign-in")
def password_sign_in(request: Request, data: FormData = Depends(form)) -> Response:
    email = _field(data, "email").lower()
    target = f"account:{email[:320]}"
    _limit(request, target)
    try:
        password = data.get("password")
        account = _gm(request).accounts.password_sign_in(email, password if isinstance(password, str) else "")
    except Forbidden as exc:
        request.app.state.limits.failed(_address(request), target)
        _flash(request, str(exc), "error")
        return _back("/account")
    except Limited as exc:  # the address typed has had its share of wrong passwords: the link still works
        raise WebError(429, str(exc)) from None
    _signed_in(request, account.id)
    _flash(request, f"Signed in as {account.name}.")
    return _back("/account")


@router.post("/account/sign-out")
def sign_out(request: Request, data: FormData = Depends(form)) -> Response:
    session = web_session(request)
    if session.token is not None:
        _gm(request).sessions.sign_out(session.token)  # the session ends for every copy of the cookie
    session.account, session.games, session.gm_key = None, (), None
    return _back("/")


@router.post("/account/password")
def set_password(request: Request, data: FormData = Depends(form)) -> Response:
    account_id = _require_account(request)
    remove = _field(data, "remove") == "1"
    sent = data.get("password")
    password = sent if isinstance(sent, str) else ""

    def set_it() -> str:
        _gm(request).accounts.set_password(account_id, None if remove else password)
        return "Password removed: sign in by the mailed link." if remove else "Password set."
    return _acted(request, "/account", set_it)


@router.post("/account/name")
def rename(request: Request, data: FormData = Depends(form)) -> Response:
    account_id = _require_account(request)

    def rename_it() -> str:
        _gm(request).accounts.rename(account_id, _field(data, "name"))
        return "Name changed (for games you join from now on)."
    return _acted(request, "/account", rename_it)


# -- seats -------------------------------------------------------------------------------------------


@router.post("/account/claim")
def claim(request: Request, data: FormData = Depends(form)) -> Response:
    account_id = _require_account(request)
    gm = _gm(request)
    game, credential = _field(data, "game"), _field(data, "credential")
    if not game or not credential:
        raise WebError(400, "give the game's id and the seat's credential (the ID.SECRET you were given)")
    if not gm.sessions.credential_known(game, credential):
        _limit(request, target_of(game, credential))
    try:
        gm.joining.claim_seat(game, credential, account_id, token=web_session(request).acting_token(gm.sessions.new_browser_key))
    except Forbidden as exc:
        request.app.state.limits.failed(_address(request), target_of(game, credential))
        _flash(request, str(exc), "error")
        return _back("/account")
    _refresh_seats(request, account_id)
    _flash(request, f"Your seat in {game} is now in your account; the credential keeps working too.")
    return _back("/account")


@router.get("/games/open", response_class=HTMLResponse)
def open_games_page(request: Request) -> HTMLResponse:
    invited = web_session(request).get("invited", [])
    return _render(request, "open_games.html", {"games": _gm(request).joining.open_games(invited),
                                                "account": account_of(request), "invited": invited})


@router.post("/games/{game}/join", response_class=HTMLResponse)
def join(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    account_id = _require_account(request)
    gm = _gm(request)
    invited = game in web_session(request).get("invited", [])
    try:
        joined = gm.joining.join_open(game, account_id, _field(data, "power") or None, invited=invited,
                              token=web_session(request).acting_token(gm.sessions.new_browser_key))
    except GMError as exc:
        _flash(request, str(exc), "error")
        return _back("/games/open")
    _refresh_seats(request, account_id)
    lines = [f"You are player {joined.player} of {game}."]
    if joined.started is not None:
        lines.append("Every place is taken: the game has begun. " + ", ".join(
            f"{n} {p.capitalize()}" for n, p in joined.started.powers.items()) + ".")
    elif joined.waiting:
        lines.append(f"Every place is taken; the gamesmaster starts the game ({joined.waiting}).")
    else:
        lines.append("The game begins when every place is taken (or when the gamesmaster starts it).")
    return _render(request, "account_joined.html", {"game": game, "lines": lines, "credential": joined.credential})


# -- notifications ---------------------------------------------------------------------------------


@router.get("/account/notifications", response_class=HTMLResponse)
def notifications_page(request: Request) -> HTMLResponse:
    account_id = _require_account(request)
    gm = _gm(request)
    gm.notices.notify(gm.accounts.account_seats(account_id))
    return _render(request, "notifications.html", {"notices": gm.notices.notices(account_id)})


@router.post("/account/notifications/read")
def notifications_read(request: Request, data: FormData = Depends(form)) -> Response:
    account_id = _require_account(request)
    upto = _field(data, "upto")
    number = site.whole(upto) if upto else None
    if upto and number is None:
        raise WebError(400, "upto: the number of a notification")
    _gm(request).notices.mark_read(account_id, number)
    return _back("/account/notifications")


@router.get("/account/notifications.json")
async def notifications_json(request: Request) -> JSONResponse:
    """The unread count and the latest notifications, for the pages' badge (polled; nothing is marked read)."""
    account_id = account_of(request)
    if account_id is None:
        return JSONResponse({"unread": 0, "latest": [], "signed_in": False}, headers={"Cache-Control": "no-store"})
    return JSONResponse(await run_in_threadpool(_latest, request, account_id), headers={"Cache-Control": "no-store"})


def _latest(request: Request, account_id: int) -> dict[str, Any]:
    gm = _gm(request)
    gm.notices.notify(gm.accounts.account_seats(account_id))
    latest = [{"number": n.number, "game": n.game_id, "kind": n.kind, "subject": n.subject, "url": n.url, "read": n.read}
              for n in gm.notices.notices(account_id, 10)]
    return {"unread": gm.notices.unread(account_id), "latest": latest, "signed_in": True}


@router.post("/account/games/{game}/settings")
def notice_settings(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    account_id = _require_account(request)
    mail = [k for k in data.getlist("mail") if isinstance(k, str)]

    def save() -> str:
        value = NoticeSettings.parse(mail, _field(data, "warnings"))
        _gm(request).notices.set_notice_settings(account_id, game, value)
        return f"Notifications for {game} saved."
    return _acted(request, f"/account#settings-{quote(game, safe='')}", save)


# -- the gamesmaster's part -----------------------------------------------------------------------------


@router.post("/gm/games/{game}/seats")
def gm_open_seats(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    _require_gm(request)
    open_ = _field(data, "open", "1") == "1"

    def open_or_close() -> str:
        _gm(request).joining.open_seats(game, open_, _field(data, "seats") or "lot")
        return f"{game} is open to players with accounts." if open_ else f"{game} is closed to new players."
    return _acted(request, f"/gm/games/{quote(game, safe='')}", open_or_close)


@router.post("/gm/games/{game}/invite")
def gm_invite(game: str, request: Request, data: FormData = Depends(form)) -> Response:
    _require_gm(request)
    email = _field(data, "email")
    try:
        _gm(request).joining.invite(game, email, _field(data, "name"), site_url(request))
        _flash(request, *_promise(request, f"An invitation to {game}", email, "."))
    except GMError as exc:
        _flash(request, str(exc), "error")
    return _back(f"/gm/games/{quote(game, safe='')}")
