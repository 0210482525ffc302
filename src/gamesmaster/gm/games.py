"""Setting a game up: creation with its rules and settings, players and stand-bys, the lot."""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import replace
from typing import Mapping, Sequence

from ..ledger import fingerprint
from ..rules import Position
from ..variants import VariantError, load_variant, preset_procedures
from . import credentials as cred
from . import keys
from . import limits
from .cointoss import toss_and_join
from .desk import Desk, power_of
from .errors import GMError, NotFound
from .scoring import check_fits
from .settings import PRESET_POLICY, RuleSpec, Settings, show_time
from .state import PLAYER, STANDBY, GameState
from .tx import Transaction
from .views import Created
from .events import GameCreated, GameStarted, LotsDrawn, PlayerJoined, PowersAssigned

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def deadline_text(state: GameState) -> str:
    """The deadline as the game's time zone shows it ('paused' while paused)."""
    if state.status == "paused":
        return "paused"
    if state.status == "forming":
        return "not started"
    return show_time(state.deadline_at, state.settings.schedule.tz)


def add_seat(tx: Transaction, name: str, role: str, rank: int = 0) -> str:
    """Sign a player or stand-by up; returns the credential ('NUMBER.SECRET'), shown this once."""
    name = limits.name(name, "a player's name")
    if not name:
        raise GMError("a player needs a name")
    state = tx.state
    if state.seat_named(name):
        raise GMError(f"there is already a player called {name!r} in {state.id}")
    secret = cred.new_secret()
    stored = cred.hash_secret(secret)
    number = len(state.seats) + 1  # the player's number in this game, part of the credential
    tx.record(PlayerJoined(player=number, name=name, role=role, rank=rank, powers=(), key=fingerprint(stored),
                           credential_key=keys.new_key(keys.Secret(secret, keys.CREDENTIAL), number)))
    tx.rec.put_credential(state.id, number, stored)
    return f"{number}.{secret}"


def playable_powers(state: GameState) -> list[str]:
    """The powers players may hold: every power of the variant but the set-up's neutral ones."""
    return [p for p in state.variant.powers if p not in state.variant.neutral]


Lot = str | list[str]  # one power, or the powers one player commands (a set-up's grouping)


def lots(state: GameState) -> list[Lot]:
    """What the players draw: the set-up's groupings (rulebook XIV.2: "one player plays
    England, and the other three play the following pairs..."), else each power players may hold."""
    if state.variant.players:
        return [list(powers) for _, powers in state.variant.players]
    return list(playable_powers(state))


def lot_powers(lot: Lot) -> tuple[str, ...]:
    """The powers of a lot."""
    return (lot,) if isinstance(lot, str) else tuple(lot)


def draw(seed: int, drawn_from: Sequence[Lot], players: Sequence[str]) -> dict[str, Lot]:
    """The lots the seed draws for the players, in the order they signed up (verify draws again)."""
    return dict(zip(players, random.Random(seed).sample(list(drawn_from), len(players))))


def lot_title(state: GameState, lot: Lot) -> str:
    """A lot in words: 'England', or a grouping's name as the set-up gives it ('Austria/France')."""
    powers = lot_powers(lot)
    named = {tuple(ps): name for name, ps in state.variant.players}
    return named.get(powers) or "/".join(state.variant.powers[p].name for p in powers)


class Setup:
    """Setting games up: creating them, signing players up and drawing the powers by lot."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def create_game(self, game_id: str, *, title: str | None = None, variant: str = "standard",
                    rules: str | RuleSpec | None = None, settings: Settings | None = None,
                    players: Sequence[str] = (), standbys: Sequence[str] = (),
                    assign: Mapping[str, str] | None = None, seed: int | None = None, start: bool = True,
                    position: Position | None = None) -> Created:
        """Create a game; with players it starts at once (powers by lot, or as assigned).

        rules: a preset's name or a RuleSpec (None: the variant's default); position: a custom start."""
        if not isinstance(game_id, str) or not GAME_ID.match(game_id):
            raise GMError(f"game id {str(game_id)[:80]!r}: use 1-64 lowercase letters, digits, '-' or '_', "
                          "starting with a letter or digit")
        if title is not None:
            title = limits.name(title, "the game's title") or None
        # A library caller may still hand over a form's dict: say what to pass instead of failing deep inside.
        if settings is not None and not isinstance(settings, Settings):
            raise GMError(f"settings must be a Settings value (Settings.from_dict reads a dict), not {type(settings).__name__}")
        if rules is not None and not isinstance(rules, (str, RuleSpec)):
            raise GMError(f"rules must be a preset's name or a RuleSpec (RuleSpec.read reads a dict), not {type(rules).__name__}")
        if position is not None and not isinstance(position, Position):
            raise GMError(f"position must be a Position (Position.from_dict reads a dict), not {type(position).__name__}")
        sett = settings if settings is not None else Settings.from_dict(None)
        if sett.end_time is not None and sett.end_time <= self._desk.now():
            raise GMError(f"the agreed end of the game ({show_time(sett.end_time, sett.schedule.tz)}) has already passed")
        spec = rules if isinstance(rules, RuleSpec) else RuleSpec(rules)
        if sett.end_year:
            # The players' agreed last year is the rules' short game: one rule for the
            # engine, the corrections and verify's replay alike.
            spec = RuleSpec(spec.preset, tuple((k, v) for k, v in {**dict(spec.values), "last_year": int(sett.end_year)}.items()
                                               if v is not None))
        try:
            var = load_variant(variant)
        except VariantError as exc:
            raise GMError(str(exc)) from None
        opts = spec.options(var.default_rules)
        check_fits(sett.scoring, var)
        if spec.preset is None and not spec.values:
            spec = RuleSpec(opts.preset)
        if sett.replacement == PRESET_POLICY:
            # A magazine's preset brings its replacement policy (seed 004); an explicit one overrides it.
            sett = replace(sett, replacement=preset_procedures(opts.preset).get("replacement", "none"))
            sett.check()
        if position is not None and position.variant.name != var.name:
            raise GMError(f"starting position: a position of {position.variant.name}, not of {var.name}")
        creds: dict[str, str] = {}
        with self._desk.transaction(game_id, create=True) as tx:
            tx.record(GameCreated(title=title or game_id, variant=var.name, rules=spec.to_json(),
                                  rule_options=opts.as_dict(), settings=sett.to_dict(),
                                  position=position.to_dict() if position else None, keys=keys.SCHEME))
            for name in players:
                creds[name] = add_seat(tx, name, PLAYER)
            for rank, name in enumerate(standbys, 1):
                creds[name] = add_seat(tx, name, STANDBY, rank=rank)
        created = Created(game_id, creds)
        if players and start:
            started = self.assign_powers(game_id, assign) if assign else self.draw_lots(game_id, seed)
            created = Created(game_id, creds, started.powers, started.commands, started.seed)
        return created

    def join_game(self, game_id: str, name: str, standby: bool = False) -> str:
        """Sign a player (or a stand-by) up for a game; returns the credential, shown once."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if standby:
                rank = 1 + max([s.rank for s in state.seats if s.role == STANDBY] or [0])
                return add_seat(tx, name, STANDBY, rank=rank)
            if state.status != "forming":
                raise GMError(f"{game_id} has started: new players come in as replacements (replace_player)")
            seats = lots(state)
            if len([s for s in state.seats if s.role == PLAYER]) >= len(seats):
                raise GMError(f"{game_id} is full: {len(seats)} players in this set-up")
            return add_seat(tx, name, PLAYER)

    def draw_lots(self, game_id: str, seed: int | None = None) -> Created:
        """Draw the powers by lot, recording the seed ('the only element of chance'), and start.

        In a game whose players chose their powers on joining (gm.joining), they get those instead."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
        choices = state.joining.choices
        if state.joining.seats == "choice" and choices:
            unchosen = [s.name for s in state.seats if s.role == PLAYER and s.number not in choices]
            if unchosen:
                raise GMError(f"the players of {game_id} choose their powers, and {', '.join(unchosen)} "
                              "chose none: assign the powers instead")
            return self.assign_powers(game_id, {s.name: choices[s.number] for s in state.seats
                                                if s.role == PLAYER})
        seed = secrets.randbits(63) if seed is None else int(seed)
        return self._start(game_id, seed=seed)

    def assign_powers(self, game_id: str, assign: Mapping[str, str]) -> Created:
        """Give the players the powers the GM assigns ({player name: power}), and start."""
        return self._start(game_id, assign=assign)

    def _start(self, game_id: str, seed: int | None = None, assign: Mapping[str, str] | None = None) -> Created:
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status != "forming":
                raise GMError(f"{game_id} has already started")
            names = [s.name for s in state.seats if s.role == PLAYER]
            if not names:
                raise GMError(f"{game_id} has no players yet")
            drawn_from = lots(state)
            if len(names) > len(drawn_from):
                raise GMError(f"{len(names)} players for a set-up of {len(drawn_from)}"
                              + ("" if state.variant.players else " powers"))
            if assign is not None:
                chosen = _assigned(state, names, assign, drawn_from)
                tx.record(PowersAssigned(powers=chosen))
            else:
                assert seed is not None
                chosen = draw(seed, drawn_from, names)
                tx.record(LotsDrawn(seed=seed, players=tuple(names), powers=chosen,
                                    method="random.Random(seed).sample(all_powers, len(players))",
                                    all_powers=tuple(drawn_from)))
            position = tx.state.start or Position.initial(state.variant)
            deadline = state.settings.deadline(position.phase.kind, tx.now)
            tx.record(GameStarted(phase=str(position.phase), position=position.to_dict(), deadline=deadline.isoformat()))
            taken = {p for lot in chosen.values() for p in lot_powers(lot)}
            unplayed = [p for p in playable_powers(state) if p not in taken]
            text = f"The game begins: {position.phase.title}, orders due {deadline_text(tx.state)}."
            if any(len(lot_powers(lot)) > 1 for lot in chosen.values()):
                text += " " + "; ".join(f"{name} commands {lot_title(state, lot)}" for name, lot in chosen.items()) + "."
            if state.variant.neutral:
                text += f" Neutral: {', '.join(p.capitalize() for p in state.variant.neutral)}."
            if unplayed:
                text += f" Not played (in civil disorder): {', '.join(p.capitalize() for p in unplayed)}."
            tx.notice(text)
            toss_and_join(tx)
        return created_view(game_id, {}, chosen, seed)


def created_view(game_id: str, credentials: Mapping[str, str], chosen: Mapping[str, Lot], seed: int | None) -> Created:
    """The view of a started game: each player's (first) power and every power each commands."""
    commands = {name: lot_powers(lot) for name, lot in chosen.items()}
    return Created(game_id, credentials, {n: ps[0] for n, ps in commands.items()}, commands, seed)


def _assigned(state: GameState, names: list[str], assign: Mapping[str, str], drawn_from: list[Lot]) -> dict[str, Lot]:
    """The GM's assignment: a power, a grouping's name, or any power of a grouping names the whole grouping."""
    chosen: dict[str, Lot] = {}
    for name, power in assign.items():
        seat = state.seat_named(name)
        if seat is None or seat.role != PLAYER:
            raise NotFound(f"no player {name!r} in {state.id} (players: {', '.join(names)})")
        lot = _lot_named(state, power, drawn_from)
        if lot in chosen.values():
            raise GMError(f"{lot_title(state, lot)} is assigned twice")
        chosen[seat.name] = lot
    missing = [n for n in names if n not in chosen]
    if missing:
        raise GMError(f"no power assigned to {', '.join(missing)}")
    return chosen


def _lot_named(state: GameState, text: str, drawn_from: list[Lot]) -> Lot:
    key = " ".join(text.split()).lower()
    for lot in drawn_from:
        if lot_title(state, lot).lower() == key:
            return lot
    pw = power_of(state, text.split("/")[0])
    holding = next((x for x in drawn_from if pw in lot_powers(x)), None)
    if holding is None:
        raise GMError(f"{pw.capitalize()} is neutral in this set-up: nobody plays it")
    return holding
