"""The ledger's events as types: every kind has its class, its fold, its audit and its description, and
every entry of a played game reads back to an event that writes the very payload it holds."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from gamesmaster.gm import Gamesmaster, Settings
from gamesmaster.gm.errors import Refused
from gamesmaster.gm import fold, record, verify
from gamesmaster.gm.archive import play_sample
from gamesmaster.gm.events import (ABSENT, EVENTS, Correction, Event, EventError, EventKind, GMAction, GMActionKind,
                                   LeagueAdded, Paused, PhaseAdjudicated, PhaseOpened, RefusalCause, ResultKind,
                                   ResultLine, check_handled, event_class, parse_event, parse_payload, unhandled)
from gamesmaster.ledger import canonical
from gamesmaster.rules import Position, adjudicate
from gamesmaster.variants import load_rules, load_variant

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def _round_trips(entries) -> set[type[Event]]:
    """Check every entry reads back to an event writing its payload byte for byte; the classes seen."""
    seen = set()
    for e in entries:
        ev = parse_event(e)
        assert ev.KIND == e.kind
        assert canonical(ev.to_payload()) == e.payload_text, (e.seq, e.kind)
        assert type(ev).from_payload(ev.to_payload()) == ev
        seen.add(type(ev))
    return seen


def test_every_kind_and_gm_action_has_one_class():
    kinds = [c.KIND for c in EVENTS if not issubclass(c, GMAction)]
    actions = [c.ACTION for c in EVENTS if issubclass(c, GMAction)]
    assert sorted(kinds + [EventKind.GM_ACTION]) == sorted(EventKind)
    assert sorted(actions) == sorted(GMActionKind)
    assert len(set(EVENTS)) == len(EVENTS)


def test_every_event_has_its_fold_its_audit_and_its_description():
    for cls in EVENTS:
        assert cls in fold._STEPS, cls
        assert cls in verify._AUDITS, cls
        assert cls in record._DESCRIPTIONS, cls
        assert unhandled(cls) == [], cls


def test_a_table_without_a_handler_is_refused():
    with pytest.raises(TypeError, match="no handler for Paused"):
        check_handled("audit", {c: None for c in EVENTS if c is not Paused})


@dataclass(frozen=True, kw_only=True)
class _Stray(Event):
    """A kind somebody added without its fold, audit and description."""

    KIND = EventKind.LEAGUE_ADDED
    league: str


def test_a_new_kind_cannot_be_written_without_its_handlers(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("x", players=NAMES, seed=7)
    head = gm.joining.game_state("x").head_seq
    assert unhandled(_Stray) == ["registry", "fold", "audit", "description"]
    with pytest.raises(TypeError, match="_Stray cannot be recorded: it has no handler in registry, fold, audit, "
                                        "description"):
        with gm.desk.transaction("x") as tx:
            tx.record(_Stray(league="club"))
    assert gm.joining.game_state("x").head_seq == head
    with gm.desk.transaction("x") as tx:  # the registered class of the kind is written as ever
        tx.record(LeagueAdded(league="club"))
    assert gm.joining.game_state("x").head_seq == head + 1


def test_the_sample_game_round_trips_byte_for_byte(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    play_sample(gm)
    with gm.desk.reading() as rec:
        entries = rec.entries("sample-1971")
    seen = _round_trips(entries)
    assert {PhaseAdjudicated, PhaseOpened, Paused} <= seen
    adjudicated = [parse_event(e) for e in entries if e.kind == EventKind.PHASE_ADJUDICATED]
    assert all(isinstance(r, ResultLine) and isinstance(r.result, ResultKind) for a in adjudicated for r in a.results)
    assert {r.result for a in adjudicated for r in a.results} >= {ResultKind.SUCCEEDS, ResultKind.FAILS}


def _many_kinds(gm: Gamesmaster) -> None:
    """Game "x": lots, stand-bys, plans, letters, votes, the clock, a resignation, a correction and a league."""
    c = gm.setup.create_game("x", players=NAMES, standbys=["Sam"], seed=7,
                       settings=Settings.from_dict({"replacement": "standby"}))
    who = {p: n for n, p in c.powers.items()}
    cred = {p: c.credentials[n] for p, n in who.items()}
    gm.orders.submit_orders("x", "FRANCE", "A Par-Bur\nnext season:\nif A Par - Bur succeeds: A Bur - Mun\notherwise: A Par H",
                     credential=cred["FRANCE"])
    sent = gm.orders.submit_orders("x", "ENGLAND", "F Lon-Nth", credential=cred["ENGLAND"])
    gm.orders.submit_orders("x", "ENGLAND", "F Lon-Eng", credential=cred["ENGLAND"])
    gm.disputes.dispute("x", str(sent.receipt), "not mine", credential=cred["ENGLAND"])
    gm.orders.withdraw_orders("x", "ENGLAND", credential=cred["ENGLAND"])
    with pytest.raises(Refused):
        gm.orders.submit_orders("x", "TURKEY", "F Ank-Bla", credential=cred["TURKEY"], phase="F1901M")
    gm.bots.open_to_bots("x", ["RUSSIA"])
    gm.orders.set_ready("x", "ITALY", credential=cred["ITALY"])
    gm.press.post_press("x", "Hello Germany", power="FRANCE", to=["GERMANY"], credential=cred["FRANCE"])
    gm.press.post_press("x", "Hello all", power="GERMANY", credential=cred["GERMANY"])
    number = gm.press.propose("x", credential=cred["ITALY"])
    gm.press.vote("x", number, False, credential=cred["AUSTRIA"])
    gm.deadlines.extend("x", hours=2, reason="a holiday")
    gm.deadlines.pause("x", reason="a break")
    gm.deadlines.resume("x", reason="back")
    gm.deadlines.process("x", force=True)
    gm.players.new_credential("x", who["TURKEY"], reason="lost")
    gm.corrections.correct("x", "a transcription error", orders={"ENGLAND": "F Lon-Eng"})
    gm.players.resign("x", "RUSSIA", by_gm=True)
    gm.players.replace_player("x", "AUSTRIA", "Vic", reason="moved away")
    gm.club.add_to_league("club", ["x"])
    gm.press.declare_draw("x", reason="agreed in person")


def test_a_game_of_many_kinds_round_trips_byte_for_byte(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    _many_kinds(gm)
    with gm.desk.reading() as rec:
        entries = rec.entries("x")
    seen = _round_trips(entries)
    assert len(seen) >= 32, sorted(c.__name__ for c in seen)
    assert Correction in seen
    assert gm.record.verify("x").problems == ()


def test_a_missing_key_an_unknown_key_and_a_wrong_type_are_named():
    vote = {"proposal": 1, "power": "FRANCE", "yes": True, "by": "GM"}
    assert parse_payload("draw-vote", vote).to_payload() == vote
    with pytest.raises(EventError, match="a draw-vote entry lacks its 'yes'"):
        parse_payload("draw-vote", {k: v for k, v in vote.items() if k != "yes"})
    with pytest.raises(EventError, match="a draw-vote entry has keys it does not take: colour"):
        parse_payload("draw-vote", {**vote, "colour": "red"})
    with pytest.raises(EventError, match=r"takes?: k{40}\.\.\., k{40}\.\.\., .* and 4 more$"):  # bounded, however hostile
        parse_payload("draw-vote", {**vote, **{"k" * 5000 + str(n): 1 for n in range(9)}})
    with pytest.raises(EventError, match="a draw-vote entry's 'proposal' is '1', not a whole number"):
        parse_payload("draw-vote", {**vote, "proposal": "1"})
    with pytest.raises(EventError, match="a draw-vote entry's 'yes' is 1, not true or false"):
        parse_payload("draw-vote", {**vote, "yes": 1})
    with pytest.raises(EventError, match="is \\[1\\], not an object"):
        parse_payload("draw-vote", [1])
    with pytest.raises(EventError, match="unknown kind of entry 'coronation'"):
        event_class("coronation", {})
    with pytest.raises(EventError, match="unknown GM action 'abdicate'"):
        parse_payload("gm-action", {"action": "abdicate"})
    with pytest.raises(EventError, match="a gm-action pause entry lacks its 'reason'"):
        parse_payload("gm-action", {"action": "pause", "phase": "S1901M", "remaining_seconds": 60})


def test_a_gm_action_is_its_own_class_and_writes_its_action():
    paused = parse_payload("gm-action", {"action": "pause", "phase": "S1901M", "remaining_seconds": 60, "reason": ""})
    assert paused == Paused(phase="S1901M", remaining_seconds=60, reason="")
    assert paused.to_payload() == {"action": "pause", "phase": "S1901M", "remaining_seconds": 60, "reason": ""}
    assert isinstance(paused.to_payload()["remaining_seconds"], int)  # a whole number is written back as one


def test_a_left_out_key_is_not_a_null():
    assert PhaseOpened(phase="S1901M", deadline=None).to_payload() == {"phase": "S1901M", "deadline": None}
    opened = PhaseOpened(phase="S1901M", deadline=None, paused_remaining=30.5)
    assert opened.to_payload() == {"phase": "S1901M", "deadline": None, "paused_remaining": 30.5}
    assert parse_payload("phase-opened", {"phase": "S1901M", "deadline": None}).paused_remaining is ABSENT
    assert LeagueAdded(league="club").to_payload() == {"league": "club"}


def test_a_refusal_cause_is_a_type():
    refused = parse_payload("orders-refused", {"phase": "S1901M", "power": "FRANCE", "by": "GM", "channel": "web",
                                               "entered_by": "", "reason": "refused: late", "text": "A Par H",
                                               "cause": "late"})
    assert refused.cause is RefusalCause.LATE
    with pytest.raises(EventError, match="'cause' is 'tardy', not one of"):
        parse_payload("orders-refused", {**refused.to_payload(), "cause": "tardy"})


def test_a_result_on_record_is_its_verdict_s_kind():
    variant = load_variant("standard")
    adj = adjudicate(Position.initial(variant), {"AUSTRIA": ["A Vie-Tri", "F Tri-Ven"], "ITALY": ["A Ven H"],
                                                 "FRANCE": ["A Par-Mars"]}, load_rules("2023"))
    for outcome in adj.outcomes:
        line = ResultLine.of(outcome)
        assert line.to_payload() == outcome.as_dict()
        if outcome.verdict is not None:
            assert line.result is ResultKind.of(outcome.verdict)
        assert line.published().result == outcome.result
    assert {ResultLine.of(o).result for o in adj.outcomes} >= {ResultKind.SUCCEEDS, ResultKind.FAILS}


def _snapshots_agree(entries) -> int:
    """Fold entry by entry, writing each state's snapshot from the texts kept since the last (snapshot_text),
    from a copy read back with the last state's texts (texts_from) and afresh (canonical(to_dict())): they must
    be the same bytes at every entry. Returns the entries folded."""
    state = None
    for entry in entries:
        before = state
        state, _ = fold.apply(state, entry)
        state.snapshot_text()  # keep every field's text, so the next state reuses what did not change
        fresh = canonical(state.to_dict())
        assert state.snapshot_text() == fresh, (entry.seq, entry.kind)
        reread = type(state).from_dict(state.to_dict())  # a state read back from the store keeps nothing
        assert reread.snapshot_text() == fresh, (entry.seq, entry.kind)
        # read back where the process holds the state before (another process wrote this entry): it takes the
        # texts of the fields equal in both, and must still write every changed field afresh
        seeded = type(state).from_dict(state.to_dict()).texts_from(before)
        assert seeded.snapshot_text() == fresh, (entry.seq, entry.kind)
    return len(entries)


@pytest.fixture
def two_games(sqlite_store, clock):
    """The sample game and the game of many kinds, played: the Gamesmaster and each game's ledger."""
    gm = Gamesmaster(sqlite_store, clock)
    play_sample(gm)
    _many_kinds(gm)
    with gm.desk.reading() as rec:
        return gm, rec.entries("sample-1971"), rec.entries("x")


def test_a_snapshot_written_from_kept_field_texts_is_the_whole_state_written_afresh(two_games):
    gm, sample, many = two_games
    assert _snapshots_agree(sample) > 50
    assert _snapshots_agree(many) > 30
    # and the games table holds those bytes (verify compares them with a fresh fold)
    assert gm.record.verify("sample-1971").problems == () and gm.record.verify("x").problems == ()


def _lasting_keys_hold(entries) -> int:
    """Fold entry by entry: the published phases, the position and the rules (by which the published results, the
    board and the position document are kept, gm.memo.lasting) change only where the published record's version
    moves, and press rows are added only where the press count moves. Returns the entries that left it as it was."""
    state, quiet = None, 0
    for entry in entries:
        before = state
        state, rows = fold.apply(state, entry)
        if before is None:
            continue
        if state.published_version == before.published_version:
            quiet += 1
            assert (state.position_doc, state.published, state.last_published, state.rules_spec) == \
                (before.position_doc, before.published, before.last_published, before.rules_spec), (entry.seq, entry.kind)
            assert not any(type(r).__name__ == "PhaseRow" for r in rows), (entry.seq, entry.kind)
        if state.press_count == before.press_count:
            assert not any(type(r).__name__ == "PressRow" for r in rows), (entry.seq, entry.kind)
    return quiet


def test_what_is_kept_by_the_published_record_changes_only_with_it(two_games):
    _, sample, many = two_games
    assert _lasting_keys_hold(sample) > 10
    assert _lasting_keys_hold(many) > 20
