"""The API's answers that are gm views: each such endpoint sends its view exactly as plain() writes it,
and /api/openapi.json describes it by the view's own fields (web/schemas.py makes the model from the view)."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest
from fastapi.routing import APIRoute
from webtools import GM, bearer

from gamesmaster.gm import (GM_SEAT, NOT_WRITTEN, Checking, Correction, Created, Dispute, GameHistory, History,
                            OrdersOnRecord, PhaseRecord, PressItem, Processed, ProposalShown, PublishedPhase,
                            QuestionView, ReceiptCheck, RulesPage, SeatView, Submission, UnitOptions, VerifyReport,
                            plain, plain_object, rules_page)
from gamesmaster.web import api, club, schemas

# Every route whose answer is a view (or a list of one): (method, path) -> (model, view, fields the answer leaves out,
# fields it adds). A route newly answered by a view belongs here (test_every_route_answering_a_view_is_listed).
# Renamed fields are in RENAMED.
ANSWERS: dict[tuple[str, str], tuple[type, type, tuple[str, ...], tuple[str, ...]]] = {
    ("GET", "/api/games/{game}/press"): (schemas.PressOut, PressItem, ("seq",), ()),
    ("GET", "/api/games/{game}/questions"): (schemas.QuestionOut, QuestionView, (), ()),
    ("GET", "/api/games/{game}/me"): (schemas.WhoOut, SeatView, (), ()),
    ("GET", "/api/games/{game}/rules"): (schemas.RulesOut, RulesPage, (), ()),
    ("GET", "/api/games/{game}/record/{phase}"): (schemas.PhaseRecordOut, PhaseRecord, (), ()),
    ("GET", "/api/games/{game}/results"): (schemas.PhaseResultOut, PublishedPhase, (), ()),
    ("GET", "/api/games/{game}/history"): (schemas.HistoryOut, GameHistory, (), ()),
    ("GET", "/api/games/{game}/proposals"): (schemas.ProposalOut, ProposalShown, (), ()),
    ("GET", "/api/games/{game}/results/{phase}"): (schemas.PhaseResultOut, PublishedPhase, (), ()),
    ("POST", "/api/games"): (schemas.CreatedOut, Created, (), ("status",)),
    ("POST", "/api/games/{game}/start"): (schemas.StartedOut, Created, ("game", "credentials"), ()),
    ("GET", "/api/games/{game}/powers/{power}/orders"): (schemas.OrdersOnRecordOut, OrdersOnRecord, (), ()),
    ("POST", "/api/games/{game}/powers/{power}/orders"): (schemas.SubmissionOut, Submission, (), ()),
    ("POST", "/api/games/{game}/powers/{power}/check"): (schemas.CheckingOut, Checking, ("power", "lines"), ()),
    ("GET", "/api/games/{game}/powers/{power}/options"): (schemas.UnitOptionsOut, UnitOptions, (), ()),
    ("POST", "/api/games/{game}/process"): (schemas.ProcessedOut, Processed, (), ()),
    ("POST", "/api/games/{game}/correct"): (schemas.CorrectionOut, Correction, ("game",), ()),
    ("GET", "/api/games/{game}/verify"): (schemas.VerifyOut, VerifyReport, (), ("ok",)),
    ("GET", "/api/games/{game}/history/full"): (schemas.FullHistoryOut, History, (), ()),
    ("GET", "/api/games/{game}/receipt"): (schemas.ReceiptOut, ReceiptCheck, ("disputed",), ()),
    ("POST", "/api/games/{game}/disputes"): (schemas.DisputeOut, Dispute, ("player",), ()),
}


# A press item's and a question's number have always been sent as their id.
RENAMED: dict[type, dict[str, str]] = {schemas.PressOut: {"number": "id"}, schemas.QuestionOut: {"number": "id"}}


def written(view: type, leave_out: tuple[str, ...] = (), renamed: dict[str, str] | None = None) -> list[str]:
    """The keys plain() writes for a view, in order, but those an answer leaves out, renamed as it renames them."""
    return [(renamed or {}).get(f.name, f.name) for f in fields(view)
            if not f.metadata.get(NOT_WRITTEN) and f.name not in leave_out]


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def problems(doc: dict[str, Any], schema: dict[str, Any], value: Any, where: str = "") -> list[str]:
    """Where a JSON value does not fit an OpenAPI schema (the parts pydantic writes: objects, arrays, anyOf,
    the JSON types); [] when it fits."""
    schema = _resolve(doc, schema)
    if "anyOf" in schema:
        fits = any(not problems(doc, s, value, where) for s in schema["anyOf"])
        return [] if fits else [f"{where}: {value!r} fits no choice"]
    kind = schema.get("type")
    if kind is None:
        return []
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
             "integer": int, "number": (int, float)}
    if not isinstance(value, types[kind]) or (kind in ("integer", "number") and isinstance(value, bool)):
        return [f"{where}: {value!r} is not {kind}"]
    out: list[str] = []
    if kind == "array":
        for i, item in enumerate(value):
            out += problems(doc, schema.get("items", {}), item, f"{where}[{i}]")
    if kind == "object":
        props = schema.get("properties", {})
        out += [f"{where}: {k} missing" for k in schema.get("required", []) if k not in value]
        for k, v in value.items():
            if k in props:
                out += problems(doc, props[k], v, f"{where}.{k}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{where}: {k} is not in the schema")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += problems(doc, schema["additionalProperties"], v, f"{where}.{k}")
    return out


def answer_schema(doc: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The schema of a route's JSON answer (200 or 201) in the OpenAPI document."""
    responses = doc["paths"][path][method.lower()]["responses"]
    answer = responses.get("200") or responses["201"]
    return answer["content"]["application/json"]["schema"]


def sent(value: Any) -> bytes:
    """A JSON value as the API writes it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def test_every_route_answering_a_view_is_listed():
    answering = set()
    for route in api.router.routes + club.api.routes:
        if not isinstance(route, APIRoute) or route.response_model is None:
            continue
        model = route.response_model
        model = getattr(model, "__args__", (model,))[0]  # list[X] -> X
        if isinstance(model, type) and issubclass(model, schemas.ViewOut):
            answering |= {(m, route.path) for m in route.methods}
    assert answering == set(ANSWERS)


@pytest.mark.parametrize("route", sorted(ANSWERS), ids=lambda r: " ".join(r))
def test_the_answers_schema_is_its_views_fields(app, route):
    model, view, leave_out, added = ANSWERS[route]
    keys = written(view, leave_out, RENAMED.get(model)) + list(added)
    assert list(model.model_fields) == keys
    doc = app.openapi()
    schema = answer_schema(doc, *route)
    schema = _resolve(doc, schema.get("items", schema))
    assert list(schema["properties"]) == keys
    assert schema["title"] == model.__name__


def test_the_answers_are_the_views_they_come_from(client, game, site_gm, app):
    doc = app.openapi()
    france = bearer(game["FRANCE"])

    def fetch(method: str, url: str, route: str, headers: dict[str, str], **kw: Any) -> Any:
        r = client.request(method, url, headers=headers, **kw)
        assert r.status_code in (200, 201), r.text
        assert problems(doc, answer_schema(doc, method, route), r.json()) == []
        return r

    game_doc = {"id": "other", "players": ["Ann", "Bob"], "seed": 3}
    made = fetch("POST", "/api/games", "/api/games", GM, json=game_doc).json()
    assert list(made) == written(Created) + ["status"] and made["seed"] == 3
    fetch("POST", "/api/games/club/powers/france/check", "/api/games/{game}/powers/{power}/check", france,
          json={"orders": "A Par-Bur\nA Xyz-Abc"})
    first = fetch("POST", "/api/games/club/powers/france/orders", "/api/games/{game}/powers/{power}/orders", france,
                  json={"orders": "A Par-Bur\nA Mar-Spa\nF Bre-Eng"}).json()
    assert list(first) == written(Submission)

    # The rules page, as gm makes it from the game.
    rules = rules_page(site_gm.games.game("club"))
    assert rules.options and rules.settings and rules.fixed
    assert fetch("GET", "/api/games/club/rules", "/api/games/{game}/rules", {}).content == sent(plain_object(rules))

    # Whose a credential is: its seat, numbered for its holder; the GM's, with no number.
    seat = SeatView.of(site_gm.orders.identify("club", game["FRANCE"]), numbered=True)
    assert fetch("GET", "/api/games/club/me", "/api/games/{game}/me", france).content == sent(plain_object(seat))
    assert fetch("GET", "/api/games/club/me", "/api/games/{game}/me", GM).content == sent(plain_object(GM_SEAT))
    assert seat.number is not None and "number" not in plain_object(GM_SEAT)

    # What a power reads back now is its view as plain() writes it, byte for byte (order, numbers, no key dropped).
    url, route = "/api/games/club/powers/france/orders", "/api/games/{game}/powers/{power}/orders"
    on_record = site_gm.orders.orders_on_record("club", "FRANCE", credential=game["FRANCE"])
    assert fetch("GET", url, route, france).content == sent([plain_object(o) for o in on_record])
    view = site_gm.games.game("club")
    options = UnitOptions.listed(view.position, site_gm.orders.legal_orders("club", "FRANCE", by_gm=True))
    assert fetch("GET", "/api/games/club/powers/france/options", "/api/games/{game}/powers/{power}/options",
                 france).content == sent([plain_object(u) for u in options])

    fetch("POST", "/api/games/club/powers/france/orders", "/api/games/{game}/powers/{power}/orders", france,
          json={"orders": "A Par-Bur\nA Mar-Spa\nF Bre-Mao"})
    processed = fetch("POST", "/api/games/club/process", "/api/games/{game}/process", GM).json()
    assert [list(p) for p in processed] == [[k for k in written(Processed)]]

    # The phase's results as published: the orders' results in the adjudicate schema (no empty notes), each
    # power's units with the unordered ones, whose orders were used (not their texts), the publishing entry.
    published = PublishedPhase.of(site_gm.games.result("club", "S1901M"))
    assert published.by_power and published.orders_used["FRANCE"].source == "player"
    assert fetch("GET", "/api/games/club/results/S1901M", "/api/games/{game}/results/{phase}", {}).content == sent(
        plain_object(published))
    assert fetch("GET", "/api/games/club/results", "/api/games/{game}/results", {}).content == sent(
        [plain_object(PublishedPhase.of(r)) for r in site_gm.games.results("club")])
    assert all(not r.notes for r in published.results)
    assert all("notes" not in x and "by_rule" not in x for x in plain_object(published)["results"])

    history = GameHistory.of(site_gm.games.game_page("club"))
    assert [p.record.seq for p in history.phases] == [published.record.seq]
    assert fetch("GET", "/api/games/club/history", "/api/games/{game}/history", {}).content == sent(plain_object(history))

    # The phase's whole record: the head written as {seq, hash}, each published submission's orders, salt and
    # commitment beside its entry, the game's id not sent again.
    record = site_gm.record.phase_record("club", "S1901M")
    page = fetch("GET", "/api/games/club/record/S1901M", "/api/games/{game}/record/{phase}", {})
    assert page.content == sent(plain_object(record))
    submitted = [e for e in page.json()["entries"] if e["kind"] == "orders-submitted"]
    assert page.json()["head"] == {"seq": record.head.seq, "hash": record.head.hash} and "game" not in page.json()
    assert submitted and all(e["salt"] and e["commitment"] and e["orders"] for e in submitted)

    check = site_gm.record.check_receipt("club", first["receipt"], by_gm=True)
    expected = {k: v for k, v in plain_object(check).items() if k != "disputed"}
    assert fetch("GET", f"/api/games/club/receipt?r={first['receipt']}", "/api/games/{game}/receipt",
                 france).content == sent(expected)
    disputed = fetch("POST", "/api/games/club/disputes", "/api/games/{game}/disputes", france,
                     json={"receipt": first["receipt"], "text": "not me"}).json()
    assert list(disputed) == written(Dispute, ("player",))
    report = site_gm.record.verify("club")
    assert fetch("GET", "/api/games/club/verify", "/api/games/{game}/verify", GM).content == sent(
        {**plain_object(report), "ok": report.ok})
    assert fetch("GET", "/api/games/club/history/full", "/api/games/{game}/history/full", GM).content == sent(
        plain_object(site_gm.games.history("club")))
    corrected = fetch("POST", "/api/games/club/correct", "/api/games/{game}/correct", GM,
                      json={"reason": "a slip", "orders": {"FRANCE": "A Par-Pic\nA Mar-Spa\nF Bre-Mao"}}).json()
    assert list(corrected) == written(Correction, ("game",)) and corrected["phase"] == "S1901M"

    # The press as each reader may see it: the view, its number sent as its id and its ledger entry left out.
    client.post("/api/games/club/press", json={"text": "Psst", "to": ["GERMANY"]}, headers=france)
    client.post("/api/games/club/press", json={"text": "Hello all"}, headers=france)
    for headers, items in ((france, site_gm.press.press("club", None, credential=game["FRANCE"])),
                           (GM, site_gm.press.press("club")), ({}, site_gm.press.public_press("club"))):
        expected = [{("id" if k == "number" else k): v for k, v in plain_object(p).items() if k != "seq"}
                    for p in items]
        assert len(expected) >= 1
        assert fetch("GET", "/api/games/club/press", "/api/games/{game}/press", headers).content == sent(expected)

    # A question and its answers, as the asker and the GM read them.
    client.post("/api/games/club/questions", json={"text": "Can I convoy?"}, headers=france)
    client.post("/api/games/club/questions/1/answer", json={"text": "Yes", "public": True}, headers=GM)
    for headers, items in ((france, site_gm.questions.questions("club", credential=game["FRANCE"])),
                           (GM, site_gm.questions.questions("club"))):
        expected = [{("id" if k == "number" else k): v for k, v in plain_object(q).items()} for q in items]
        assert [q["answered"] for q in expected] == [True] and expected[0]["answers"][0]["public"] is True
        answer = fetch("GET", "/api/games/club/questions", "/api/games/{game}/questions", headers)
        assert answer.content == sent(expected)

    # An open proposal: how many have voted, not how (this game's votes are secret).
    client.post("/api/games/club/proposals", json={"kind": "draw"}, headers=france)
    client.post("/api/games/club/proposals/1/votes", json={"yes": True}, headers=bearer(game["GERMANY"]))
    shown = [ProposalShown.of(p, open_votes=False) for p in site_gm.press.proposals("club") if p.status == "open"]
    assert [(p.votes_cast, p.votes) for p in shown] == [(2, None)]
    assert fetch("GET", "/api/games/club/proposals", "/api/games/{game}/proposals", {}).content == sent(
        [plain_object(p) for p in shown])

    # Answers that hold a view: the webhook's status and the game's ending.
    site_gm.webhooks.set_webhook("club", "http://127.0.0.1:9/hook")
    r = client.get("/api/games/club/webhook", headers=GM)
    assert r.content == sent({"webhook": plain_object(site_gm.webhooks.webhook("club"))})
    r = client.post("/api/games/club/draw", json={"reason": "enough"}, headers=GM)
    assert r.content == sent({"result": plain(site_gm.games.game("club").result)})
