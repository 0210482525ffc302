"""Accounts under abuse: odd numbers, guessed passwords, timing of the link form, notifications that tell
nothing of others, and a badge that costs by the account's own seats."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("upto", [str(2 ** 63), "9" * 5000, "²"])
def test_marking_notifications_read_up_to_an_odd_number_is_a_400(site, upto):
    c = site.sign_up("ann@players.test", "Ann")
    r = site.post(c, "/account/notifications/read", {"upto": upto}, page="/account/notifications")
    assert r.status_code == 400 and "upto" in r.text, (r.status_code, r.text[:300])
