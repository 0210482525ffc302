"""The API's answers are described in /api/openapi.json: every JSON answer has a model with its fields."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from webtools import GM, bearer

from gamesmaster.web import schemas


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    name = ref.rsplit("/", 1)[1]
    return doc["components"]["schemas"][name]


def undescribed(doc: dict[str, Any]) -> list[str]:
    """The /api answers (200 or 201, JSON) whose schema is missing or a bare object with no fields."""
    missing = []
    for path, operations in doc["paths"].items():
        if not path.startswith("/api"):
            continue
        for method, op in operations.items():
            for code in ("200", "201"):
                answer = op.get("responses", {}).get(code)
                if answer is None:
                    continue
                content = answer.get("content", {})
                if content and "application/json" not in content:
                    continue  # a picture (the maps): not JSON
                schema = content.get("application/json", {}).get("schema")
                if schema is not None and schema.get("type") == "array":
                    schema = schema.get("items")
                schema = _resolve(doc, schema) if schema else None
                if not schema or not schema.get("properties"):
                    missing.append(f"{method.upper()} {path} {code}")
    return missing


def test_every_api_answer_has_a_model_with_fields(app):
    doc = app.openapi()
    assert sum(p.startswith("/api") for p in doc["paths"]) > 20
    assert undescribed(doc) == []


def test_a_route_without_a_model_is_caught():
    loose = APIRouter(prefix="/api")

    @loose.get("/loose")
    def answer_loosely() -> dict[str, Any]:
        return {"x": 1}

    @loose.get("/listed")
    def answer_a_list() -> list[dict[str, Any]]:
        return []

    @loose.post("/typed", status_code=201, response_model=schemas.IdOut)
    def answer_typed() -> dict[str, Any]:
        return {"id": 1}

    app = FastAPI()
    app.include_router(loose)
    assert undescribed(app.openapi()) == ["GET /api/loose 200", "GET /api/listed 200"]


def test_documents_written_ahead_match_their_models(client, game):
    # The game and the position are sent as JSON written once for each state of the game,
    # not through their response models: check here that the models describe them.
    schemas.GameOut.model_validate(client.get("/api/games/club").json())
    schemas.PositionOut.model_validate(client.get("/api/games/club/position").json())
    r = client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur\nA Mar-Spa\nF Bre-Mao"},
                    headers=bearer(game["FRANCE"]))
    assert r.status_code == 200, r.text
    assert client.post("/api/games/club/process", headers=GM).status_code == 200
    g = schemas.GameOut.model_validate(client.get("/api/games/club").json())
    assert g.last_results is not None and g.last_results.phase == "S1901M"
    then = schemas.PositionOut.model_validate(client.get("/api/games/club/position?phase=S1901M").json())
    assert then.phase == "S1901M"


def test_a_key_a_view_leaves_out_stays_left_out(client, game):
    # The models' optional fields are sent only when the view sends them.
    assert "number" not in client.get("/api/games/club/me", headers=GM).json()
    assert client.get("/api/games/club/me", headers=bearer(game["FRANCE"])).json()["number"] >= 1
    options = client.get("/api/catalogue").json()["options"]
    assert any("range" in o for o in options) and any("range" not in o for o in options)
    r = client.post("/api/games/club/powers/france/orders", json={"orders": "A Par-Bur"}, headers=bearer(game["FRANCE"]))
    assert r.status_code == 200, r.text
    assert client.post("/api/games/club/process", headers=GM).status_code == 200
    [spring] = client.get("/api/games/club/results").json()
    assert spring["results"] and all("by_rule" not in x for x in spring["results"])
    assert "raids" not in spring["position"] and "destroyed" not in spring["next"]
