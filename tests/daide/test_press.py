"""Press between bots and people: a bot's press is on the site in words, a person's reaches bots as free text,
structured press passes between bots exactly, and the game's press setting sets what is allowed."""

from __future__ import annotations

from daideclient import sit
from doortools import door

from gamesmaster.gm import Settings

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def seven(gm, press):
    created = gm.setup.create_game("p", players=NAMES, assign=dict(zip(NAMES, POWERS)), settings=Settings.from_dict({"press": press}))
    return {p: created.credentials[n] for n, p in zip(NAMES, POWERS)}


def test_press_between_bots_and_people(sqlite_gm):
    gm = sqlite_gm
    creds = seven(gm, "full")
    with door(gm, "p", poll=0.05) as ports:
        france = sit("127.0.0.1", ports["p"], f"Fritz {creds['FRANCE']}")
        germany = sit("127.0.0.1", ports["p"], f"Gerd {creds['GERMANY']}")
        for bot in (france, germany):
            bot.expect("NOW")
        # A bot proposes peace to a person: the person reads it in words on the site.
        france.send("SND (ENG) (PRP (PCE (ENG FRA)))")
        assert france.expect("YES") == "YES (SND (ENG) (PRP (PCE (ENG FRA))))"
        letter = [p for p in gm.press.press("p", "ENGLAND", credential=creds["ENGLAND"]) if p.sender == "FRANCE"][-1]
        assert letter.to == ("ENGLAND",)
        assert letter.text.startswith("Proposes peace between England and France.")
        # A structured message reaches another bot exactly as it was sent.
        france.send("SND (SPR 1901) (GER) (PRP (ALY (FRA GER) VSS (ENG)))")
        assert france.expect("YES").startswith("YES (SND (SPR 1901)")
        assert germany.expect("FRM") == "FRM (FRA) (GER) (PRP (ALY (FRA GER) VSS (ENG)))"
        # A person's letter reaches the bot as free text.
        gm.press.post_press("p", "Don't trust Germany", power="ENGLAND", to=["FRANCE"], credential=creds["ENGLAND"])
        assert france.expect("FRM", timeout=10) == "FRM (ENG) (FRA) ('Don''t trust Germany')"
        # Free text from a bot to everyone is a public announcement.
        france.send("SND (AUS ENG GER ITA RUS TUR) ('Vive la France')")
        france.expect("YES")
        public = [p for p in gm.press.public_press("p") if p.sender == "FRANCE"]
        assert public and public[-1].text == "Vive la France" and public[-1].to is None
        assert germany.expect("FRM") == "FRM (FRA) (AUS ENG GER ITA RUS TUR) ('Vive la France')"
        # Syntax: a press message must be one; a recipient must be a power.
        france.send("SND (GER) (MTO)")
        assert france.expect("HUH") == "HUH (SND (GER) (ERR MTO))"
        france.send("SND (GER 5) ('x')")
        assert france.expect("HUH") == "HUH (SND (GER ERR 5) ('x'))"
    assert gm.record.verify("p").ok


def test_public_press_only(sqlite_gm):
    gm = sqlite_gm
    creds = seven(gm, "public")
    with door(gm, "p") as ports:
        bot = sit("127.0.0.1", ports["p"], f"Fritz {creds['FRANCE']}")
        bot.expect("NOW")
        bot.send("SND (ENG) ('secret')")
        assert bot.expect("REJ") == "REJ (SND (ENG) ('secret'))"
        bot.expect("ADM", saying="allows only public press")
        bot.send("SND (AUS ENG GER ITA RUS TUR) ('hello all')")
        assert bot.expect("YES").startswith("YES (SND")


def test_no_press_is_level_zero(sqlite_gm):
    gm = sqlite_gm
    creds = seven(gm, "none")
    with door(gm, "p") as ports:
        bot = sit("127.0.0.1", ports["p"], f"Fritz {creds['FRANCE']}")
        assert "(LVL 0)" in bot.expect("HLO")
        bot.send("SND (ENG) ('hello')")
        assert bot.expect("HUH") == "HUH (ERR SND (ENG) ('hello'))"
