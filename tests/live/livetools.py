"""Constants shared by the live table's tests."""

LIVE_GM_CREDENTIAL = "gm.live-test-credential-0123456789"
LIVE_POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
LIVE_NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
