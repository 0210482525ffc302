"""Constants and helpers shared by the website's tests."""

from __future__ import annotations

GM_CREDENTIAL = "gm.test-credential-0123456789"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
PLAYERS = {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve",
           "RUSSIA": "Fay", "TURKEY": "Gus"}


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


GM = bearer(GM_CREDENTIAL)
