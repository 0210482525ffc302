"""The FastAPI application: pages (server-rendered, Jinja2) and the JSON API under /api.

`create_app(gm, secrets)` builds the site around one `Gamesmaster`; `gamesmaster serve`
runs it with uvicorn. Every error is answered with a clear message and a 4xx status
(HTML for the pages, JSON `{"detail": ...}` for the API); an unexpected failure is
logged and answered with a plain 500 message, never a stack trace.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..gm import phase_title, Forbidden, Gamesmaster, GMError, Limited, NotFound, RateLimiter, Refused, SiteSettings, StoreError, bad_character
from .security import (
    SessionMiddleware,
    SignInLimits,
    SiteSecrets,
    csrf_token,
    is_gm,
    target_of,
)

HERE = Path(__file__).parent
log = logging.getLogger(__name__)

# the site's way back, above Swagger UI on /docs (styled inline: the page loads none of the site's style)
DOCS_BAR = ('<nav id="site-bar" style="background:#15202e;border-bottom:3px solid #b8924a;padding:.6rem 1rem;'
            'font:16px/1.4 sans-serif;display:flex;gap:1.2rem;flex-wrap:wrap">'
            '<a href="/" style="color:#fff;text-decoration:none">&larr; gamesmaster: the games</a>'
            '<a href="/gm" style="color:#d7e0ea;text-decoration:none">GM console</a></nav>')

DESCRIPTION = """\
The gamesmaster's JSON API: everything the web pages do, through the same calls.

**Credentials.** Send a player's credential (the `ID.SECRET` given when the game was set
up) or the GM credential as `Authorization: Bearer CREDENTIAL`. A player reads and
writes only its own power's orders and letters; GM actions need the GM credential; the
GM credential may also act for any power (orders handed over in person).

**Errors.** Every refusal is a 4xx answer with `{"detail": "what is wrong"}`: 400 bad
input or a request the gamesmaster refuses, 401 no credential, 403 the credential does
not allow it, 404 no such game, power, phase or proposal, 409 orders refused (late, or
for a phase already published; the refusal is on the record), 422 a field missing or of
the wrong type.
"""


class WebError(Exception):
    """A refusal made by the web layer itself (before any gm call), with its status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


MAX_BODY = 256 * 1024  # the largest request body taken: a set of orders is at most 30,000 characters


class BodyLimit:
    """Refuse a request body over MAX_BODY bytes with a 413, by its Content-Length or as it streams in.

    The body is read here, before any route sees it, so a refusal is always this clear 413 and never
    a parser's complaint about a body cut short."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"the request is too large: at most {self.max_bytes // 1024} KB"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"connection", b"close"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope.get("headers", []) if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._refuse(send)
            return
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            parts.append(message.get("body", b""))
            seen += len(parts[-1])
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(parts), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class AddressCheck:
    """Refuse an address (path or query) holding a NUL, another control character or a lone surrogate with a
    400 naming it, before any route looks a game up: PostgreSQL cannot even compare such a text (it was a 500
    on about 45 routes), and no game, power or page is named with one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            query = unquote(scope.get("query_string", b"").decode("latin-1"), errors="surrogateescape")
            bad = bad_character(scope.get("path", "")) or bad_character(query)
            if bad is not None:
                body = json.dumps({"detail": f"the address holds {bad}: no page is named so"}).encode()
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def drawing_budget(request: Request) -> Callable[[], None]:
    """What a client may still have drawn: a new map (one not drawn before) takes a token of its address's
    bucket (docs/security.md); Limited when none is left. Maps already drawn cost nothing."""
    def spend() -> None:
        limiter, key = request.app.state.draw_limits, _client(request) or "-"
        if not limiter.take(key):
            wait = limiter.retry_after(key)
            raise Limited(f"too many new maps drawn for you just now: try again in {wait} seconds", wait)
    return spend


def drawing(request: Request, drawn: Any, media_type: str, filename: str | None = None) -> Response:
    """A map as an HTTP answer: 304 when the browser has it already (its ETag names what it shows)."""
    headers = {"ETag": drawn.etag, "Cache-Control": "public, max-age=60"}
    if filename:
        headers["Content-Disposition"] = f'inline; filename="{filename}"'
    if drawn.etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(drawn.content, media_type=media_type, headers=headers)


def status_of(exc: Exception) -> int:
    if isinstance(exc, WebError):
        return exc.status
    if isinstance(exc, Refused):
        return 409
    if isinstance(exc, Limited):
        return 429
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Forbidden):
        return 403
    if isinstance(exc, StoreError):
        return 503
    return 400


def _client(request: Request) -> str | None:
    return request.client.host if request.client else None


def _is_api(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api/") or path == "/api"


def _validation_message(exc: RequestValidationError) -> tuple[int, str]:
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            ctx = e.get("ctx") or {}
            return 400, f"malformed JSON: {ctx.get('error', 'the body is not valid JSON')}"
    parts = []
    for e in errors[:5]:
        loc = [str(x) for x in e.get("loc", ()) if x not in ("body",)]
        where = ".".join(loc) or "the request body"
        msg = str(e.get("msg", "invalid"))
        if e.get("type") == "missing":
            msg = "is required"
        elif e.get("type") in ("model_attributes_type", "dict_type") and not loc:
            msg = "must be a JSON object"
        parts.append(f"{where}: {msg}")
    return 422, "; ".join(parts) or "invalid request"


def create_app(gm: Gamesmaster, secrets: SiteSecrets, *, title: str = "gamesmaster",
               settings: SiteSettings | None = None) -> FastAPI:
    """The site for one Gamesmaster; `secrets` sign the sessions and check the GM credential; `settings`: the
    settings' site section (default: from the environment)."""
    settings = settings or SiteSettings.from_environ()
    # Swagger UI's script and style come from the fastapi-offline package and are served here:
    # /docs works without the internet and loads nothing from another site.
    app = FastAPIOffline(title=f"{title} API", description=DESCRIPTION, version="1", docs_url=None, redoc_url=None,
                         openapi_url="/api/openapi.json", static_url="/static-api-docs",
                         favicon_url="/static-api-docs/favicon.png")

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> HTMLResponse:
        """Swagger UI, under a bar that leads back to the site (Swagger opens its own links in new tabs)."""
        page = get_swagger_ui_html(openapi_url="/api/openapi.json", title=f"{title} API - Swagger UI",
                                   swagger_js_url="/static-api-docs/swagger-ui-bundle.js",
                                   swagger_css_url="/static-api-docs/swagger-ui.css",
                                   swagger_favicon_url="/static-api-docs/favicon.png")
        return HTMLResponse(bytes(page.body).decode().replace("<body>", "<body>" + DOCS_BAR, 1))
    app.state.gm = gm
    app.state.secrets = secrets
    app.state.limits = SignInLimits()  # failed credential attempts, per address and per game
    app.state.draw_limits = RateLimiter(10, 1 / 6)  # new PNG maps drawn, per client address (drawing_budget)
    app.state.link_limits = RateLimiter(5, 1 / 60)  # sign-in links asked for, per client address (web.accounts)
    app.state.site_url = settings.site_url  # for links in mail
    # the gamesmaster's address, for the war room to say where orders may be mailed (docs/mail.md)
    app.state.mail_address = settings.mail_address
    app.state.poll_seconds = 20  # how often pages ask for the unread count of notifications
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(phase_title=phase_title)
    templates.env.filters["cap"] = lambda s: "/".join("GM" if x.upper() == "GM" else x.capitalize()  # not 'Gm'
                                                      for x in str(s).split("/")) if s else ""
    app.state.templates = templates

    def error_response(request: Request, status: int, message: str) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": message}, status_code=status)
        return render(request, "error.html", {"status": status, "message": message}, status=status)

    def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
        session = request.scope.get("session", {})
        ctx = {"request": request, "csrf": csrf_token(session) if "session" in request.scope else "",
               "signed_in_gm": is_gm(request), "flash": session.pop("flash", []) if session else [],
               "signed_games": list(getattr(session, "games", ()))}
        account = getattr(session, "account", None)
        if account is not None:  # a player signed in to an account: the badge starts at the unread count
            ctx["account_signed_in"] = True
            ctx["poll_seconds"] = app.state.poll_seconds
            try:
                ctx["unread"] = gm.notices.unread(account)
            except Exception:  # noqa: BLE001 - the store away: the page (often the error page saying so) goes on
                ctx["unread"] = None
        ctx.update(context)
        response = templates.TemplateResponse(request, name, ctx, status_code=status)
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    app.state.render = render

    @app.exception_handler(GMError)
    async def _gm_error(request: Request, exc: GMError) -> Response:
        message = str(exc)
        if isinstance(exc, Refused) and exc.seq is not None:
            message += f" (recorded as ledger entry {exc.seq})"
        if isinstance(exc, Forbidden) and _is_api(request) and message.startswith("the credential is not valid"):
            auth = request.headers.get("authorization", "")
            credential = auth.split(None, 1)[1].strip() if auth.lower().startswith("bearer ") and " " in auth else None
            game = request.path_params.get("game")
            request.app.state.limits.failed(_client(request), target_of(game, credential))
        return error_response(request, status_of(exc), message)

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> Response:
        return error_response(request, exc.status, str(exc))

    @app.exception_handler(StoreError)
    async def _store_error(request: Request, exc: StoreError) -> Response:
        log.error("store: %s", exc)
        return error_response(request, 503, "the database is not available just now; try again shortly")

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        status, message = _validation_message(exc)
        return error_response(request, status, message)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and message == "Not Found":
            message = f"there is no page {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        response = error_response(request, exc.status_code, message)
        for k, v in (exc.headers or {}).items():
            response.headers[k] = v
        return response

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(request, 500, "something went wrong on the gamesmaster's side; the error is logged")

    from . import accounts, api, board, club, live, pages
    # The routers' routes join the application's own list, in this order (accounts before pages: its
    # /gm/games/{game}/seats and /invite are not GM actions), instead of through include_router: FastAPI 0.140
    # and later keeps an included router as a nested one, matched candidate by candidate with scope
    # bookkeeping for each, which cost a submission about half its CPU (bench/load/README.md). Nothing is
    # given at inclusion (no prefix, dependency or tag), so the routes are the same either way.
    for router in (api.router, club.api, club.pages, accounts.router, pages.router, board.router, live.router):
        app.router.routes.extend(router.routes)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.add_middleware(SessionMiddleware, gm=gm)
    app.add_middleware(BodyLimit)
    app.add_middleware(AddressCheck)

    app.add_middleware(SafetyHeaders)
    return app


class SafetyHeaders:
    """Headers every answer carries: no MIME sniffing, no framing, no referrer to other sites.

    A plain ASGI middleware: Starlette's BaseHTTPMiddleware costs every request a task and a stream."""

    HEADERS = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
               (b"referrer-policy", b"same-origin"))

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in self.HEADERS if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)
