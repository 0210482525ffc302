"""The FastAPI application: pages (server-rendered, Jinja2) and the JSON API under /api.

`create_app(gm, secrets)` builds the site around one `Gamesmaster`; `gamesmaster serve`
runs it with uvicorn. Every error is answered with a clear message and a 4xx status
(HTML for the pages, JSON `{"detail": ...}` for the API); an unexpected failure is
logged and answered with a plain 500 message, never a stack trace.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..gm import Forbidden, Gamesmaster, GMError, NotFound, Refused
from ..store import StoreError
from . import site
from .security import SessionMiddleware, SignInLimits, SiteSecrets, csrf_token

HERE = Path(__file__).parent
log = logging.getLogger(__name__)

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


def status_of(exc: Exception) -> int:
    if isinstance(exc, WebError):
        return exc.status
    if isinstance(exc, Refused):
        return 409
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


def create_app(gm: Gamesmaster, secrets: SiteSecrets, *, title: str = "gamesmaster") -> FastAPI:
    """The site for one Gamesmaster; `secrets` sign the sessions and check the GM credential."""
    app = FastAPI(title=f"{title} API", description=DESCRIPTION, version="1", docs_url="/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.gm = gm
    app.state.secrets = secrets
    app.state.limits = SignInLimits()  # failed credential attempts, per address and per game
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(phase_title=site.phase_title)
    templates.env.filters["cap"] = lambda s: str(s).capitalize() if s else ""
    app.state.templates = templates

    def error_response(request: Request, status: int, message: str) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": message}, status_code=status)
        return render(request, "error.html", {"status": status, "message": message}, status=status)

    def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
        session = request.scope.get("session", {})
        ctx = {"request": request, "csrf": csrf_token(session) if "session" in request.scope else "",
               "signed_in_gm": bool(session.get("gm")), "flash": session.pop("flash", []) if session else [],
               "signed_games": sorted((session.get("players") or {}).keys())}
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
            request.app.state.limits.failed(_client(request), request.path_params.get("game"))
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

    from . import api, pages
    app.include_router(api.router)
    app.include_router(pages.router)
    from . import live as live_table  # the live club table (issue 9)
    app.include_router(live_table.router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.add_middleware(SessionMiddleware, secret_key=secrets.session_key)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Response:
        response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    return app
