"""A bot's seat cannot be won by guessing its 13-bit IAM passcode, and nobody's guesses lock its bot out.

The loopback has many addresses: the bot plays from 127.0.0.1, a guesser on another host
is 127.0.0.2, a guesser on the bot's own host is 127.0.0.1 too."""

from __future__ import annotations

from daideclient import Ended, Link, sit
from doortools import door

from gamesmaster.gm import Settings

OWN, OTHER = "127.0.0.1", "127.0.0.2"


def answer_to(port: int, iam: str, source: str) -> list[str]:
    """What a new connection is told when it sends this IAM (up to the door's ADM)."""
    link = Link("127.0.0.1", port, source=source).connect()
    link.send(iam)
    told = [link.recv(10), link.recv(10)]
    link.close()
    return told


def italy_for_ralph(gm, port: int) -> tuple[Link, int, str]:
    """Ralph takes the seat the GM opened to bots: its connection, passcode and credential."""
    gm.bots.open_to_bots("g", ["Italy"])
    ralph = sit("127.0.0.1", port, "Ralph", source=OWN)
    passcode = int(ralph.expect("HLO").split(") (")[1])
    credential = ralph.expect("ADM", saying="The credential of your seat: ").split("seat: ")[1].split()[0]
    ralph.expect("NOW")
    return ralph, passcode, credential


def test_iam_tells_a_guesser_nothing_and_never_gives_the_seat_away(gm):
    gm.setup.create_game("g", players=["Ann"], assign={"Ann": "ENGLAND"}, settings=Settings.from_dict({"press": "full"}))
    with door(gm, "g") as ports:
        port = ports["g"]
        ralph, passcode, _ = italy_for_ralph(gm, port)
        wrong = passcode % 8191 + 1
        # While Ralph plays, the right passcode is answered exactly as a wrong one, from anywhere.
        for source in (OTHER, OWN):
            right = answer_to(port, f"IAM (ITA) ({passcode})", source)
            assert [m.replace(str(passcode), "N") for m in right] == [
                m.replace(str(wrong), "N") for m in answer_to(port, f"IAM (ITA) ({wrong})", source)]
            assert right[0].startswith("REJ (IAM")
        ralph.close()
        # Ralph's connection is gone: the passcode, found or guessed, takes nothing from another host ...
        assert answer_to(port, f"IAM (ITA) ({passcode})", OTHER)[0].startswith("REJ (IAM")
        # ... and a guesser's many wrong passcodes there do not lock Ralph out.
        for _ in range(8):
            with_off = Link("127.0.0.1", port, source=OTHER).connect()
            try:
                for _ in range(3):
                    with_off.send(f"IAM (ITA) ({wrong})")
                    with_off.expect("REJ")
                with_off.expect("OFF")
            finally:
                with_off.close()
        back = Link("127.0.0.1", port, source=OWN).connect()
        back.send(f"IAM (ITA) ({passcode})")
        assert back.expect("YES") == f"YES (IAM (ITA) ({passcode}))"
        back.send("SUB ((ITA AMY VEN) HLD)")
        assert back.expect("THX") == "THX ((ITA AMY VEN) HLD) (MBV)"
        back.close()
    assert gm.orders.orders_on_record("g", "ITALY", by_gm=True)[0].orders == ("A VEN H",)
    assert gm.record.verify("g").ok


def test_guesses_on_the_bots_own_host_are_few_and_its_credential_always_takes_the_seat_back(gm):
    gm.setup.create_game("g", players=["Ann"], assign={"Ann": "ENGLAND"}, settings=Settings.from_dict({"press": "full"}))
    with door(gm, "g") as ports:
        port = ports["g"]
        ralph, passcode, credential = italy_for_ralph(gm, port)
        ralph.close()
        wrong = passcode % 8191 + 1
        for _ in range(4):  # ten wrong passcodes from the bot's own address, three a connection
            guesser = Link("127.0.0.1", port, source=OWN).connect()
            try:
                for _ in range(3):
                    guesser.send(f"IAM (ITA) ({wrong})")
                    guesser.expect("REJ")
            except Ended:
                pass
            finally:
                guesser.close()
        # Past its ten, that address takes no seat by IAM even with the right passcode: guessing ends there.
        assert answer_to(port, f"IAM (ITA) ({passcode})", OWN)[0].startswith("REJ (IAM")
        # The seat's credential (told to the bot with HLO) is its key, and nothing locks it out.
        again = sit("127.0.0.1", port, f"Ralph {credential}", source=OWN)
        assert again.expect("HLO").startswith("HLO (ITA)")
        again.send("SUB ((ITA FLT NAP) MTO ION)")
        assert again.expect("THX") == "THX ((ITA FLT NAP) MTO ION) (MBV)"
        # And a name is no key: NME as 'Ralph' without the credential does not take Ralph's seat.
        again.close()
        impostor = Link("127.0.0.1", port, source=OTHER).connect()
        impostor.send("NME ('Ralph') ('1')")
        assert impostor.expect("REJ").startswith("REJ (NME")
    on_record = gm.orders.orders_on_record("g", "ITALY", by_gm=True)[0]
    assert on_record.orders == ("F NAP - ION",) and on_record.entered_by == "Ralph (DAIDE bot)"
    assert gm.record.verify("g").ok
