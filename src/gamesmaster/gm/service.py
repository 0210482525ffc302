"""The gamesmaster: every call that runs a game, from sign-up to the last season.

Every door (the console commands now, the web site and e-mail later) calls these
methods; nothing here knows which door a request came through except by the `channel`
it is given, which goes on the record. Every change is one database transaction that
also appends its entries to the game's ledger.
"""

from __future__ import annotations

import logging
from collections import Counter
import os
import random
import re
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..ledger import Entry, orders_hash
from ..rules import OptionError, Position, PositionError, RuleOptions, adjudicate, format_order, parse_order
from ..rules.victory import deadlock, short_game_over
from ..rules import legality
from ..rules.adjustments import balance, can_build_somewhere
from ..rules.orders import Waive
from ..rules.phase import Phase
from ..rules.position import power_id
from ..rules.variant import Variant
from ..store import Records, Store
from ..variants import VariantError, load_rules, load_variant
from . import credentials as cred
from .conditional import evaluate, parse_conditional, split_submission
from .errors import Forbidden, GMError, NotFound, Refused
from .settings import Settings, show_time
from .views import Answer, Correction, Created, Processed, Receipt, Submission

Clock = Callable[[], datetime]
log = logging.getLogger(__name__)
GM = "GM"
CHANNELS = ("console", "web", "mail", "in-person", "conditional", "import")
_GAME_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")

# Test hook: a worker sleeps this many seconds inside the adjudication transaction,
# after writing everything and before the commit (and touches the file, if named).
PAUSE_ENV = "GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT"
PAUSE_FILE_ENV = "GAMESMASTER_TEST_PAUSE_FILE"


def _ending(nxt: Position, winner: str | None, options: RuleOptions, phase: str) -> dict[str, Any]:
    """How the engine's verdict ended the game, in words: a victory, a short game, or a shared lead."""
    units = Counter(u.power for u in nxt.units.values())
    if short_game_over(nxt, options):
        best = max(units.values(), default=0)
        top = sorted((p for p, n in units.items() if n == best), key=list(nxt.variant.powers).index)
        after = f"the game ends after {options.last_year}"
        if winner:
            return {"kind": "short-game", "winners": [winner], "phase": phase,
                    "reason": f"{after}: {winner.capitalize()} has the most units ({best})"}
        return {"kind": "draw", "winners": top, "phase": phase,
                "reason": f"{after}: {', '.join(p.capitalize() for p in top)} share the most units ({best})"}
    assert winner is not None
    rule = nxt.variant.victory_rule or options.victory
    if rule == "centres":
        how = f"controls {len(nxt.centres_of(winner))} supply centres"
    elif rule == "units":
        how = f"has {units[winner]} units on the board"
    else:
        how = f"has {units[winner]} of the {len(nxt.units)} units on the board"
    return {"kind": "victory", "winners": [winner], "phase": phase, "reason": f"{winner.capitalize()} {how}"}


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class _Game:
    """A game's row read in a transaction, with its variant, rules, settings and position."""

    row: dict[str, Any]
    variant: Variant
    options: RuleOptions
    settings: Settings
    position: Position | None
    players: list[dict[str, Any]]

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def status(self) -> str:
        return self.row["status"]

    @property
    def phase(self) -> str:
        return self.row["phase"] or ""

    @property
    def flags(self) -> dict[str, Any]:
        return dict(self.row.get("flags") or {})

    def holder(self, power: str) -> dict[str, Any] | None:
        return next((p for p in self.players if p["role"] == "player" and p["power"] == power), None)

    def standby_for(self, power: str) -> dict[str, Any] | None:
        return next((p for p in self.players if p["role"] == "standby" and p["standby_for"] == power), None)

    def player_named(self, name: str) -> dict[str, Any] | None:
        return next((p for p in self.players if p["name"].lower() == name.strip().lower() and p["role"] != "former"), None)

    def deadline_text(self) -> str:
        if self.status == "paused":
            return "paused"
        return show_time(self.row["deadline"], self.settings.schedule.tz)


_CD_EFFECT = {"M": "units hold and do not support each other",
              "R": "dislodged units are disbanded",
              "A": "no builds; any removals are made by the rule set's civil-disorder rule"}


def concerned_powers(position: Position) -> list[str]:
    """The powers that have something to order in this phase."""
    phase = position.phase
    if phase.is_movement:
        return [p for p in position.variant.powers if position.units_of(p)]
    if phase.is_retreat:
        owners = {d.unit.power for d in position.dislodged}
        return [p for p in position.variant.powers if p in owners]
    out = []
    for p in position.variant.powers:
        b = balance(position, p)
        if b < 0 or (b > 0 and can_build_somewhere(position, p)):
            out.append(p)
    return out


class Gamesmaster:
    """Runs games kept in a Store; `clock` returns the time now (aware UTC), for tests a fake."""

    def __init__(self, store: Store, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or utc_now

    # ------------------------------------------------------------------------------------
    # plumbing

    def now(self) -> datetime:
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return timezone-aware datetimes")
        return now.astimezone(timezone.utc)

    def _tx(self, write: bool = True):
        return self.store.connect(write=write)

    def _rec(self, conn: Any) -> Records:
        return Records(conn, self.store.is_postgresql)

    def _load(self, rec: Records, game_id: str, lock: bool = False) -> _Game:
        row = rec.game(game_id, lock=lock)
        if row is None:
            known = [g["id"] for g in rec.games()]
            hint = f" (games: {', '.join(known[:12])})" if known else " (there are no games yet)"
            raise NotFound(f"no game {game_id!r}{hint}")
        return self._wrap(rec, row)

    def _wrap(self, rec: Records, row: dict[str, Any]) -> _Game:
        variant = load_variant(row["variant"])
        options = load_rules(row["rules"], default=variant.default_rules)
        settings = Settings.from_dict(row["settings"])
        position = Position.from_dict(variant, row["position"]) if row["position"] else None
        return _Game(row, variant, options, settings, position, rec.players(row["id"]))

    def _log(self, rec: Records, g: _Game, kind: str, payload: Any, now: datetime) -> Entry:
        return rec.append(g.id, kind, payload, now)

    def _notice(self, rec: Records, g: _Game, text: str, now: datetime, to: Sequence[str] | None = None) -> None:
        """A GM notice in the press, on the record."""
        self._press_row(rec, g, GM, text, list(to) if to else None, False, now)

    def _press_row(self, rec: Records, g: _Game, sender: str, text: str, to: list[str] | None,
                   anonymous: bool, now: datetime) -> int:
        entry = self._log(rec, g, "press", {"sender": sender, "to": to, "anonymous": anonymous, "text": text,
                                             "phase": g.phase or None}, now)
        return rec.insert_press(game_id=g.id, phase=g.phase or None, sent_at=now, sender=sender, recipients=to,
                                anonymous=anonymous, text=text, ledger_seq=entry.seq)

    def _power(self, g: _Game, name: str) -> str:
        try:
            return power_id(g.variant, name)
        except PositionError as exc:
            raise NotFound(str(exc)) from None

    def _identify(self, g: _Game, power: str, credential: str | None, by_gm: bool) -> tuple[str, str]:
        """(author, entered_by) for acting for a power: its player, its called stand-by, or the GM."""
        if by_gm:
            return "player", GM
        player = self._authenticate(g, credential)
        if player["role"] == "player" and player["power"] == power:
            return "player", player["name"]
        if player["role"] == "standby" and player["standby_for"] == power:
            return "standby", player["name"]
        raise Forbidden(f"this credential is {player['name']}'s, who does not play {power.capitalize()} in {g.id}")

    def _authenticate(self, g: _Game, credential: str | None) -> dict[str, Any]:
        if not credential:
            raise Forbidden("a credential is needed (the secret each player was given when the game was set up)")
        parts = cred.split_credential(credential)
        if parts and 1 <= parts[0] <= len(g.players):
            player = g.players[parts[0] - 1]  # players in the order they joined
            if player and player["role"] != "former" and cred.check_secret(parts[1], player["credential"]):
                return player
        raise Forbidden(f"the credential is not valid for game {g.id}")

    def identify(self, game_id: str, credential: str) -> dict[str, Any]:
        """Who a credential belongs to: {'name', 'power', 'role', 'standby_for'} (for the doors)."""
        with self._tx(write=False) as conn:
            g = self._load(self._rec(conn), game_id)
            p = self._authenticate(g, credential)
            return {"name": p["name"], "power": p["power"], "role": p["role"], "standby_for": p["standby_for"]}

    def _acting_power(self, g: _Game, power: str | None, credential: str | None, by_gm: bool) -> str:
        """The power a request acts for (GM when by_gm and no power)."""
        if by_gm and power is None:
            return GM
        if power is None:
            player = self._authenticate(g, credential)
            if player["role"] != "player" or not player["power"]:
                raise Forbidden(f"{player['name']} plays no power in {g.id}")
            return player["power"]
        pw = self._power(g, power)
        self._identify(g, pw, credential, by_gm)
        return pw

    # ------------------------------------------------------------------------------------
    # games: creation, sign-up, lots

    def create_game(self, game_id: str, *, title: str | None = None, variant: str = "standard",
                    rules: str | Mapping[str, Any] | None = None, settings: Settings | Mapping[str, Any] | None = None,
                    players: Sequence[str] = (), standbys: Sequence[str] = (),
                    assign: Mapping[str, str] | None = None, seed: int | None = None, start: bool = True,
                    position: Mapping[str, Any] | None = None) -> Created:
        """Create a game; with players it starts at once (powers by lot, or as assigned)."""
        if not _GAME_ID.match(game_id or ""):
            raise GMError(f"game id {game_id!r}: use 1-64 lowercase letters, digits, '-' or '_', starting with a letter or digit")
        sett = settings if isinstance(settings, Settings) else Settings.from_dict(settings)
        rules_spec: Any = rules
        if sett.end_year:
            # The players' agreed last year is the rules' short game: one rule for the
            # engine, the corrections and verify's replay alike.
            base = {"preset": rules} if isinstance(rules, str) or rules is None else dict(rules)
            rules_spec = {k: v for k, v in {**base, "last_year": int(sett.end_year)}.items() if v is not None}
        try:
            var = load_variant(variant)
            opts = load_rules(rules_spec, default=var.default_rules)
        except (VariantError, OptionError) as exc:
            raise GMError(str(exc)) from None
        if rules_spec is None:
            rules_spec = opts.preset
        if position is not None:
            try:
                Position.from_dict(var, position)
            except PositionError as exc:
                raise GMError(f"starting position: {exc}") from None
        now = self.now()
        creds: dict[str, str] = {}
        with self._tx() as conn:
            rec = self._rec(conn)
            if rec.game(game_id) is not None:
                raise GMError(f"there is already a game {game_id!r}")
            rec.insert_game(id=game_id, title=title or game_id, status="forming", variant=var.name, rules=rules_spec,
                            settings=sett.to_dict(), phase=None, position=dict(position) if position else None,
                            deadline=None, paused_remaining=None, flags={}, result=None, created_at=now, updated_at=now)
            g = self._wrap(rec, rec.game(game_id))  # type: ignore[arg-type]
            self._log(rec, g, "game-created", {"title": title or game_id, "variant": var.name, "rules": rules_spec,
                                                "rule_options": opts.as_dict(), "settings": sett.to_dict(),
                                                "custom_position": bool(position)}, now)
            for name in players:
                creds[name] = self._add_player(rec, g, name, "player", now)
            for rank, name in enumerate(standbys, 1):
                creds[name] = self._add_player(rec, g, name, "standby", now, rank=rank)
        created = Created(game_id, creds)
        if players and start:
            started = self.assign_powers(game_id, assign) if assign else self.draw_lots(game_id, seed)
            created = Created(game_id, creds, started.powers, started.seed)
        return created

    def _add_player(self, rec: Records, g: _Game, name: str, role: str, now: datetime, rank: int = 0,
                    power: str | None = None) -> str:
        name = " ".join(str(name).split())
        if not name:
            raise GMError("a player needs a name")
        if g.player_named(name):
            raise GMError(f"there is already a player called {name!r} in {g.id}")
        secret = cred.new_secret()
        number = len(g.players) + 1  # the player's number in this game, part of the credential
        rec.insert_player(game_id=g.id, name=name, power=power, role=role, rank=rank, standby_for=None,
                          credential=cred.hash_secret(secret), joined_at=now)
        self._log(rec, g, "player-joined", {"player": number, "name": name, "role": role, "rank": rank, "power": power}, now)
        g.players = rec.players(g.id)
        return f"{number}.{secret}"

    def join_game(self, game_id: str, name: str, standby: bool = False) -> str:
        """Sign a player (or a stand-by) up for a game; returns the credential, shown once."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if standby:
                rank = 1 + max([p["rank"] for p in g.players if p["role"] == "standby"] or [0])
                return self._add_player(rec, g, name, "standby", now, rank=rank)
            if g.status != "forming":
                raise GMError(f"{game_id} has started: new players come in as replacements (replace_player)")
            if len([p for p in g.players if p["role"] == "player"]) >= len(g.variant.powers):
                raise GMError(f"{game_id} is full: {len(g.variant.powers)} powers, {len(g.variant.powers)} players")
            return self._add_player(rec, g, name, "player", now)

    def draw_lots(self, game_id: str, seed: int | None = None) -> Created:
        """Draw the powers by lot, recording the seed ('the only element of chance'), and start."""
        seed = secrets.randbits(63) if seed is None else int(seed)
        return self._start(game_id, seed=seed)

    def assign_powers(self, game_id: str, assign: Mapping[str, str]) -> Created:
        """Give the players the powers the GM assigns ({player name: power}), and start."""
        return self._start(game_id, assign=assign)

    def _start(self, game_id: str, seed: int | None = None, assign: Mapping[str, str] | None = None) -> Created:
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status != "forming":
                raise GMError(f"{game_id} has already started")
            names = [p["name"] for p in g.players if p["role"] == "player"]
            if not names:
                raise GMError(f"{game_id} has no players yet")
            powers = list(g.variant.powers)
            if len(names) > len(powers):
                raise GMError(f"{len(names)} players for {len(powers)} powers")
            if assign is not None:
                chosen: dict[str, str] = {}
                for name, power in assign.items():
                    player = g.player_named(name)
                    if player is None or player["role"] != "player":
                        raise NotFound(f"no player {name!r} in {game_id} (players: {', '.join(names)})")
                    pw = self._power(g, power)
                    if pw in chosen.values():
                        raise GMError(f"{pw.capitalize()} is assigned twice")
                    chosen[player["name"]] = pw
                missing = [n for n in names if n not in chosen]
                if missing:
                    raise GMError(f"no power assigned to {', '.join(missing)}")
                self._log(rec, g, "powers-assigned", {"powers": chosen}, now)
            else:
                drawn = random.Random(seed).sample(powers, len(names))
                chosen = dict(zip(names, drawn))
                self._log(rec, g, "lots-drawn", {"seed": seed, "players": names, "powers": chosen,
                                                 "method": "random.Random(seed).sample(powers, len(players))",
                                                 "all_powers": powers}, now)
            for p in g.players:
                if p["role"] == "player":
                    rec.update_player(p["id"], power=chosen[p["name"]])
            position = Position.from_dict(g.variant, g.row["position"]) if g.row["position"] else Position.initial(g.variant)
            deadline = g.settings.schedule.deadline(position.phase.kind, now)
            rec.update_game(game_id, status="active", phase=str(position.phase), position=position.to_dict(),
                            deadline=deadline, updated_at=now)
            g = self._load(rec, game_id)
            self._log(rec, g, "game-started", {"phase": str(position.phase), "position": position.to_dict(),
                                               "deadline": deadline.isoformat()}, now)
            unplayed = [p for p in powers if p not in chosen.values()]
            text = f"The game begins: {position.phase.title}, orders due {g.deadline_text()}."
            if unplayed:
                text += f" Not played (in civil disorder): {', '.join(p.capitalize() for p in unplayed)}."
            self._notice(rec, g, text, now)
        return Created(game_id, {}, chosen, seed)

    # ------------------------------------------------------------------------------------
    # orders

    def submit_orders(self, game_id: str, power: str, text: str | Sequence[str], *, credential: str | None = None,
                      by_gm: bool = False, channel: str = "console", phase: str | None = None) -> Submission:
        """A power's complete set of orders for the phase (replacing any earlier set), answered order by order.

        Orders are one a line (or separated by ';'); a `next season:` part files
        conditional orders for the next season (see gamesmaster.gm.conditional). GM-entered
        orders (by_gm, e.g. handed over in person) say so on the record."""
        if channel not in CHANNELS:
            raise GMError(f"unknown channel {channel!r} (one of {', '.join(CHANNELS)})")
        if not isinstance(text, str):
            text = "\n".join(text)
        now = self.now()
        refusal: Refused | None = None
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            pw = self._power(g, power)
            author, entered_by = self._identify(g, pw, credential, by_gm)
            refusal = self._refusal(rec, g, pw, phase, channel, entered_by, now, text)
            if refusal is None:
                submission = self._store_orders(rec, g, pw, author, entered_by, channel, text, now)
        if refusal is not None:
            raise refusal
        processed = self._run_early(game_id)
        if processed:
            submission = Submission(**{**submission.__dict__, "processed": tuple(processed)})
        return submission

    def _refusal(self, rec: Records, g: _Game, power: str, phase: str | None, channel: str, entered_by: str,
                 now: datetime, text: str | None) -> Refused | None:
        """Why orders cannot be taken now (recorded on the ledger), or None."""
        if g.status == "forming":
            raise GMError(f"{g.id} has not started: the powers have not been drawn")
        if g.status == "finished":
            raise GMError(f"{g.id} is over: no more orders are taken")
        reason = None
        if phase is not None and phase.strip().upper() != g.phase:
            try:
                title = Phase.parse(phase).title
            except ValueError:
                title = phase
            reason = (f"refused: these orders are for {title}, but the game is in {g.position.phase.title}"  # type: ignore[union-attr]
                      f" (orders for {title} are no longer taken)")
        elif g.status == "active" and g.row["deadline"] is not None and now > g.row["deadline"]:
            reason = (f"refused: late. Orders for {g.position.phase.title} were due by {g.deadline_text()}; "  # type: ignore[union-attr]
                      f"these arrived {show_time(now, g.settings.schedule.tz)}")
        if reason is None:
            return None
        entry = self._log(rec, g, "orders-refused", {"phase": g.phase, "power": power, "channel": channel,
                                                     "entered_by": entered_by, "reason": reason,
                                                     "text": text}, now)
        return Refused(reason, entry.seq)

    def _store_orders(self, rec: Records, g: _Game, power: str, author: str, entered_by: str, channel: str,
                      text: str, now: datetime, note: dict[str, Any] | None = None) -> Submission:
        position = g.position
        assert position is not None
        if power not in concerned_powers(position):
            raise GMError(f"{power.capitalize()} has no orders to give in {position.phase.title}")
        lines, cond_text = split_submission(text)
        clauses: tuple[str, ...] = ()
        if cond_text is not None:
            if not position.phase.is_movement:
                raise GMError("conditional orders ('next season:') can be filed only with movement orders")
            parsed = parse_conditional(cond_text, position, power, g.options)
            clauses = tuple(f"{c.label}: {'; '.join(c.orders) or '(no orders)'}" for c in parsed.clauses)
        answers, warnings = answer_orders(position, power, lines, g.options)
        h = orders_hash(g.phase, power, lines, cond_text)
        entry = self._log(rec, g, "orders-submitted", {
            "phase": g.phase, "power": power, "author": author, "channel": channel, "entered_by": entered_by,
            "orders": lines, "conditional": cond_text, "orders_hash": h, "note": note}, now)
        rec.put_orders(game_id=g.id, phase=g.phase, power=power, author=author, texts=lines, conditional=cond_text,
                       channel=channel, entered_by=entered_by, orders_hash=h, ledger_seq=entry.seq,
                       submitted_at=now, note=note)
        return Submission(g.id, g.phase, position.phase.title, power, author, channel, entered_by, tuple(answers),
                          tuple(warnings), clauses, Receipt(g.id, entry.seq, entry.hash, h), g.row["deadline"],
                          g.deadline_text())

    def withdraw_orders(self, game_id: str, power: str, *, credential: str | None = None, by_gm: bool = False,
                        channel: str = "console") -> int:
        """Withdraw a power's orders for this phase; returns the ledger position."""
        now = self.now()
        refusal = None
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            pw = self._power(g, power)
            author, entered_by = self._identify(g, pw, credential, by_gm)
            refusal = self._refusal(rec, g, pw, None, channel, entered_by, now, None)
            if refusal is None:
                mine = [o for o in rec.orders(g.id, g.phase) if o["power"] == pw and o["author"] == author]
                if not mine:
                    raise GMError(f"{pw.capitalize()} has no orders on record for {g.position.phase.title}")  # type: ignore[union-attr]
                rec.delete_orders(g.id, g.phase, pw, author)
                entry = self._log(rec, g, "orders-withdrawn", {"phase": g.phase, "power": pw, "author": author,
                                                               "channel": channel, "entered_by": entered_by}, now)
        if refusal is not None:
            raise refusal
        return entry.seq

    def orders_on_record(self, game_id: str, power: str, *, credential: str | None = None,
                         by_gm: bool = False) -> list[dict[str, Any]]:
        """A power's orders for the current phase: only the power itself (or its stand-by) and the GM may look."""
        with self._tx(write=False) as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id)
            pw = self._power(g, power)
            author, _ = self._identify(g, pw, credential, by_gm)
            rows = [o for o in rec.orders(g.id, g.phase) if o["power"] == pw and (by_gm or o["author"] == author)]
            hashes = {o["ledger_seq"]: getattr(rec.entry(g.id, o["ledger_seq"]), "hash", "") for o in rows}
            out = []
            for o in rows:
                out.append({"phase": o["phase"], "power": pw, "author": o["author"], "orders": list(o["texts"]),
                            "conditional": o["conditional"], "channel": o["channel"], "entered_by": o["entered_by"],
                            "note": o["note"], "submitted_at": o["submitted_at"], "receipt": str(Receipt(g.id, o["ledger_seq"], hashes.get(o["ledger_seq"], ""), o["orders_hash"])),
                            "orders_hash": o["orders_hash"]})
            return out

    def set_ready(self, game_id: str, power: str, ready: bool = True, *, credential: str | None = None,
                  by_gm: bool = False) -> list[str]:
        """Mark a power ready (or not) for early processing of a movement phase; returns phases processed."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            pw = self._power(g, power)
            self._identify(g, pw, credential, by_gm)
            holder = g.holder(pw)
            if holder is None:
                raise GMError(f"{pw.capitalize()} has no player")
            rec.update_player(holder["id"], ready=bool(ready))
            self._log(rec, g, "ready", {"phase": g.phase, "power": pw, "ready": bool(ready)}, now)
        return self._run_early(game_id)

    # ------------------------------------------------------------------------------------
    # the deadline

    def process(self, game_id: str, *, force: bool = False) -> list[Processed]:
        """Process a game's phase if it is due (or at once with force); then any phase due early."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status != "active" and not (force and g.status == "paused"):
                raise GMError(f"{game_id} is {g.status}: nothing to process")
            due = g.row["deadline"] is not None and g.row["deadline"] <= now
            if not (force or due or self._early_due(rec, g)):
                raise GMError(f"{game_id}: {g.position.phase.title} is not due until {g.deadline_text()} "  # type: ignore[union-attr]
                              "(process it now with force / --now)")
            done = [self._process_locked(rec, g, now, "gm" if force and not due else "deadline")]
        return done + self._run_early(game_id, details=True)

    def process_due(self, limit: int | None = None) -> list[Processed]:
        """Process every game whose deadline has passed (each at most once a pass); each claim is its own transaction.

        On PostgreSQL the claim is SELECT ... FOR UPDATE SKIP LOCKED, so workers in other
        processes take other games and never the same phase twice; a worker that dies
        before its commit leaves the phase as it was, for the next claim."""
        done: list[Processed] = []
        seen: list[str] = []  # one claim per game in a pass, broken or not
        while limit is None or len(done) < limit:
            now = self.now()
            game_id = None
            try:
                with self._tx() as conn:
                    rec = self._rec(conn)
                    row = rec.claim_due(now, skip=seen)
                    if row is None:
                        break
                    game_id = row["id"]
                    seen.append(game_id)
                    g = self._wrap(rec, row)
                    done.append(self._process_locked(rec, g, now, "deadline"))
            except Exception:  # one broken game must not stop the others
                if game_id is None:
                    raise
                log.exception("processing %s failed; it is skipped in this pass", game_id)
                continue
            done.extend(self._run_early(game_id, details=True))
        return done

    def _run_early(self, game_id: str, details: bool = False) -> list[Any]:
        """Process phases that are due early (retreats and adjustments once all concerned have ordered; a
        movement phase once every player is ready, where the game allows it). Returns phases or Processed."""
        out: list[Any] = []
        for _ in range(8):
            now = self.now()
            with self._tx() as conn:
                rec = self._rec(conn)
                g = self._load(rec, game_id, lock=True)
                if g.status != "active" or not self._early_due(rec, g):
                    break
                done = self._process_locked(rec, g, now, "early")
            out.append(done if details else done.phase)
        return out

    def _early_due(self, rec: Records, g: _Game) -> bool:
        if g.status != "active" or g.position is None:
            return False
        concerned = concerned_powers(g.position)
        played = [p for p in concerned if g.holder(p) or g.standby_for(p)]
        have = {o["power"] for o in rec.orders(g.id, g.phase)}
        if g.position.phase.is_movement:
            if not g.settings.early_movement or not played:
                return False
            return all(p in have and g.holder(p) and g.holder(p)["ready"] for p in played)  # type: ignore[index]
        return all(p in have for p in played)

    def _process_locked(self, rec: Records, g: _Game, now: datetime, trigger: str) -> Processed:
        """Adjudicate the current phase of a locked game with the orders on record (one transaction)."""
        position = g.position
        assert position is not None
        phase = g.phase
        settings = g.settings
        concerned = concerned_powers(position)
        rows = {(o["power"], o["author"]): o for o in rec.orders(g.id, phase)}
        flags = g.flags
        # NMR, first: a grace period, once per movement phase.
        if trigger == "deadline" and settings.grace_hours > 0 and position.phase.is_movement and not flags.get("grace"):
            missing = [p for p in concerned if g.holder(p) and (p, "player") not in rows and (p, "standby") not in rows]
            if missing:
                deadline = g.row["deadline"] + timedelta(hours=settings.grace_hours)
                flags["grace"] = True
                rec.update_game(g.id, deadline=deadline, flags=flags, updated_at=now)
                g.row.update(deadline=deadline, flags=flags)
                self._log(rec, g, "gm-action", {"action": "grace", "phase": phase, "missing": missing,
                                                "deadline": deadline.isoformat()}, now)
                self._notice(rec, g, f"No orders yet from {', '.join(p.capitalize() for p in missing)}: the deadline "
                             f"for {position.phase.title} is extended by the grace period to {g.deadline_text()}.", now)
                return Processed(g.id, phase, "grace", phase, deadline)
        final: dict[str, dict[str, Any]] = {}
        civil_disorder: list[str] = []
        for power in concerned:
            mine, theirs = rows.get((power, "player")), rows.get((power, "standby"))
            standby = g.standby_for(power)
            if mine is not None:
                final[power] = {"row": mine, "source": "conditional" if mine["channel"] == "conditional" else
                                ("gm" if mine["entered_by"] == GM else "player")}
                if standby is not None:
                    self._release_standby(rec, g, standby, power, now, "the player ordered")
            elif theirs is not None and standby is not None:
                final[power] = {"row": theirs, "source": "standby"}
            else:
                civil_disorder.append(power)
        self._log(rec, g, "deadline-closed", {
            "phase": phase, "trigger": trigger,
            "orders": {p: {"orders_hash": f["row"]["orders_hash"], "source": f["source"],
                           "ledger_seq": f["row"]["ledger_seq"]} for p, f in final.items()},
            "civil_disorder": civil_disorder}, now)
        orders = {p: list(f["row"]["texts"]) for p, f in final.items()}
        adj = adjudicate(position, orders, g.options)
        if adj.waiting:
            # The rule set leaves a civil-disorder power's removals to the GM (seed 004 s24,
            # Armageddonia): nothing is carried out; the phase waits for the GM's orders.
            due = ", ".join(f"{n} for {p.capitalize()}" for p, n in adj.waiting.items())
            rec.update_game(g.id, deadline=None, updated_at=now)
            g.row["deadline"] = None
            self._log(rec, g, "gm-action", {"action": "awaiting-removals", "phase": phase,
                                            "removals": dict(adj.waiting)}, now)
            self._notice(rec, g, f"{position.phase.title} waits for the GM to choose removals ({due}); "
                         "the GM enters them as that power's orders and processes the phase.", now)
            return Processed(g.id, phase, "waiting", phase, None)
        results = [o.as_dict() for o in adj.outcomes]
        dislodged = [str(d.unit) for d in adj.dislodged]
        chosen = self._choose_conditionals(g, final, results, dislodged, position)
        number = len(rec.phases(g.id)) + 1
        entry = self._log(rec, g, "phase-adjudicated", {
            "phase": phase, "revision": 0, "rules": g.row["rules"], "position": position.to_dict(),
            "orders": orders, "sources": {p: f["source"] for p, f in final.items()}, "results": results,
            "dislodged": dislodged, "next": adj.next.to_dict(), "winner": adj.winner, "conditional": chosen}, now)
        rec.insert_phase(game_id=g.id, phase=phase, revision=0, number=number, current=True, rules=g.row["rules"],
                         position=position.to_dict(),
                         orders={p: {"texts": orders[p], "source": f["source"]} for p, f in final.items()},
                         results=results, next=adj.next.to_dict(), winner=adj.winner, adjudicated_at=now,
                         ledger_seq=entry.seq)
        # standbys whose orders were used take the country over (Graustark, Erehwon)
        for power, f in final.items():
            if f["source"] == "standby":
                self._reassign(rec, g, power, g.standby_for(power), now, "the stand-by's orders were used")  # type: ignore[arg-type]
        unplayed = [p for p in civil_disorder if g.holder(p) is None]
        if unplayed:
            self._notice(rec, g, f"Not played: {', '.join(p.capitalize() for p in unplayed)}, in civil disorder for "
                         f"{position.phase.title} ({_CD_EFFECT[position.phase.kind]}).", now)
        for power in civil_disorder:
            if g.holder(power) is not None:
                self._civil_disorder(rec, g, power, position, now)
        rec.delete_pending(g.id, filed_phase=phase)
        for power, c in chosen.items():
            if c is not None:
                rec.put_pending(game_id=g.id, power=power, filed_phase=phase, texts=c["orders"], condition=c["condition"])
        for p in rec.proposals(g.id):
            if p["status"] == "open":
                rec.update_proposal(p["id"], status="lapsed")
        ended = self._advance(rec, g, adj.next, adj.winner, now, phase, adj.ended)
        self._test_pause()
        return Processed(g.id, phase, "adjudicated", None if ended else str(adj.next.phase),
                         None if ended else g.row["deadline"], tuple(civil_disorder), ended, tuple(results))

    def _choose_conditionals(self, g: _Game, final: Mapping[str, dict[str, Any]], results: list[dict[str, Any]],
                             dislodged: list[str], position: Position) -> dict[str, Any]:
        chosen: dict[str, Any] = {}
        for power, f in final.items():
            text = f["row"]["conditional"]
            if not text:
                continue
            try:
                cond = parse_conditional(text, position, power, g.options)
            except GMError:
                chosen[power] = None
                continue
            clause = evaluate(cond, results, dislodged)
            chosen[power] = None if clause is None else {"condition": clause.label, "orders": list(clause.orders)}
        return chosen

    def _test_pause(self) -> None:
        pause = os.environ.get(PAUSE_ENV)
        if pause:
            marker = os.environ.get(PAUSE_FILE_ENV)
            if marker:
                Path(marker).write_text(str(os.getpid()))
            time.sleep(float(pause))

    def _advance(self, rec: Records, g: _Game, nxt: Position, winner: str | None, now: datetime,
                 phase: str, over: bool = False) -> dict[str, Any] | None:
        """Publish the next phase (or end the game); returns the result if the game ended."""
        ended = _ending(nxt, winner, g.options, phase) if winner or over else None
        flags = self._year_flags(g.flags, new_year=nxt.phase.season == "S" and nxt.phase.is_movement)
        rec.update_game(g.id, phase=str(nxt.phase), position=nxt.to_dict(), flags=flags, updated_at=now)
        g.row.update(phase=str(nxt.phase), position=nxt.to_dict(), flags=flags)
        g.position = nxt
        rec.reset_ready(g.id)
        if ended:
            self._finish(rec, g, ended, now)
            return ended
        deadline = g.settings.schedule.deadline(nxt.phase.kind, now)
        if g.status == "paused":
            rec.update_game(g.id, deadline=None, paused_remaining=(deadline - now).total_seconds())
        else:
            rec.update_game(g.id, deadline=deadline)
            g.row["deadline"] = deadline
        self._install_conditionals(rec, g, now)
        if nxt.phase.season == "S" and nxt.phase.is_movement:
            self._check_deadlock(rec, g, nxt, now)
        return None

    def _year_flags(self, flags: dict[str, Any], new_year: bool) -> dict[str, Any]:
        """Flags that outlive a phase: the grace period is per phase, a deadlock is judged again each year."""
        drop = {"grace", "deadlock"} if new_year else {"grace"}
        return {k: v for k, v in flags.items() if k not in drop}

    def _install_conditionals(self, rec: Records, g: _Game, now: datetime) -> None:
        position = g.position
        if position is None or not position.phase.is_movement:
            return
        for p in rec.pending(g.id):
            rec.delete_pending(g.id, p["power"])
            if p["power"] not in concerned_powers(position):
                continue
            sub = self._store_orders(rec, g, p["power"], "player", "conditional orders", "conditional",
                                     "\n".join(p["texts"]), now,
                                     note={"condition": p["condition"], "filed_phase": p["filed_phase"]})
            lines = [f"Your conditional orders filed in {Phase.parse(p['filed_phase']).title} apply to "
                     f"{position.phase.title}: {p['condition']}."]
            lines += [f"  {a.text}: {a.message}" for a in sub.answers] or ["  (no orders)"]
            self._notice(rec, g, "\n".join(lines), now, to=[p["power"]])

    def _check_deadlock(self, rec: Records, g: _Game, nxt: Position, now: datetime) -> None:
        years = g.options.deadlock_years
        if g.options.deadlock == "never":
            return
        snapshots = {Phase.parse(p["phase"]).year: p["position"].get("centers", {})
                     for p in rec.phases(g.id) if p["phase"].startswith("S") and p["phase"].endswith("M")}
        snapshots[nxt.phase.year] = nxt.to_dict().get("centers", {})
        span = [snapshots.get(nxt.phase.year - k) for k in range(years, -1, -1)]
        if any(s is None for s in span):
            return
        verdict = deadlock([_norm(s) for s in span], g.options)  # seed 004 s5, as the engine rules it
        if verdict is None:
            return
        survivors = nxt.powers_alive()
        if verdict == "draw":
            self._finish(rec, g, {"kind": "draw", "winners": survivors, "phase": g.phase,
                                  "reason": f"deadlock: no supply centre changed hands in {years} years"}, now)
        else:
            flags = g.flags
            flags["deadlock"] = nxt.phase.year
            rec.update_game(g.id, flags=flags)
            g.row["flags"] = flags
            self._log(rec, g, "gm-action", {"action": "deadlock", "years": years, "phase": g.phase}, now)
            self._notice(rec, g, f"No supply centre has changed hands in {years} years. The gamesmaster will decide "
                         "whether the game goes on or is declared a draw; players may send an outline plan of campaign.", now)

    def _finish(self, rec: Records, g: _Game, result: dict[str, Any], now: datetime) -> None:
        position = g.position
        summary = {}
        if position is not None:
            summary = {p: {"centres": len(position.centres_of(p)), "units": len(position.units_of(p))}
                       for p in position.variant.powers}
        result = {**result, "at": now.isoformat(), "summary": summary}
        for p in rec.proposals(g.id):
            if p["status"] == "open":
                rec.update_proposal(p["id"], status="lapsed")
        rec.update_game(g.id, status="finished", deadline=None, paused_remaining=None, result=result, updated_at=now)
        g.row.update(status="finished", deadline=None, result=result)
        self._log(rec, g, "game-ended", result, now)
        winners = ", ".join(p.capitalize() for p in result["winners"])
        what = {"victory": f"{winners} wins", "short-game": f"{winners} wins the short game",
                "draw": f"a draw between {winners}", "concession": f"conceded to {winners}"}.get(result["kind"], result["kind"])
        self._notice(rec, g, f"The game is over: {what} ({result['reason']}).", now)

    def _civil_disorder(self, rec: Records, g: _Game, power: str, position: Position, now: datetime) -> None:
        holder = g.holder(power)
        assert holder is not None
        what = _CD_EFFECT[position.phase.kind]
        missed = holder["missed"] + 1
        rec.update_player(holder["id"], missed=missed)
        self._log(rec, g, "gm-action", {"action": "civil-disorder", "phase": str(position.phase), "power": power,
                                        "player": holder["name"], "missed": missed}, now)
        text = f"No orders from {power.capitalize()} ({holder['name']}): civil disorder for {position.phase.title} ({what})."
        if position.phase.is_movement:
            policy = g.settings.replacement
            if policy == "standby" and g.standby_for(power) is None:
                free = sorted((p for p in g.players if p["role"] == "standby" and not p["standby_for"]),
                              key=lambda p: (p["rank"], p["id"]))
                if free:
                    rec.update_player(free[0]["id"], standby_for=power)
                    g.players = rec.players(g.id)
                    self._log(rec, g, "standby-called", {"power": power, "standby": free[0]["name"],
                                                         "player": holder["name"], "phase": str(position.phase)}, now)
                    text += (f" {free[0]['name']}, the stand-by, is asked to send the next move for {power.capitalize()};"
                             f" if {holder['name']} sends it instead, {holder['name']} keeps the country.")
                else:
                    text += f" Every stand-by is taken: volunteers are called for to stand by for {power.capitalize()}."
            elif policy == "successor":
                text += f" {holder['name']} plays on until resigning, and then names a successor."
            elif policy == "gm":
                text += " The gamesmaster may appoint a neutral stand-by."
        self._notice(rec, g, text, now)

    def _release_standby(self, rec: Records, g: _Game, standby: dict[str, Any], power: str, now: datetime,
                         why: str) -> None:
        rec.update_player(standby["id"], standby_for=None)
        self._log(rec, g, "standby-released", {"power": power, "standby": standby["name"], "reason": why}, now)
        g.players = rec.players(g.id)

    def _reassign(self, rec: Records, g: _Game, power: str, new: dict[str, Any], now: datetime, why: str) -> None:
        old = g.holder(power)
        if old is not None:
            rec.update_player(old["id"], role="former")
        rec.update_player(new["id"], role="player", power=power, standby_for=None, missed=0)
        self._log(rec, g, "player-replaced", {"power": power, "old": old["name"] if old else None, "new": new["name"],
                                              "reason": why}, now)
        self._notice(rec, g, f"{new['name']} now plays {power.capitalize()}" +
                     (f" in place of {old['name']}" if old else "") + f" ({why}).", now)
        g.players = rec.players(g.id)

    # ------------------------------------------------------------------------------------
    # the GM's actions on the deadline and the players

    def extend(self, game_id: str, *, hours: float | None = None, until: datetime | None = None,
               reason: str = "") -> datetime:
        """Move the deadline later by hours, or to a given time; every player is told."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status != "active":
                raise GMError(f"{game_id} is {g.status}: there is no running deadline to extend"
                              + (" (resume it with a new deadline instead)" if g.status == "paused" else ""))
            if (hours is None) == (until is None):
                raise GMError("extend by a number of hours or to a time, one of the two")
            old = g.row["deadline"]
            if old is None:
                raise GMError(f"{game_id} has no deadline running in {g.phase}: it waits for the GM "
                              "(removals to choose, or a live game's read-out); there is nothing to extend")
            new = old + timedelta(hours=hours) if hours is not None else until
            assert new is not None
            if new.tzinfo is None:
                raise GMError("the new deadline must have a time zone")
            if new <= now:
                raise GMError(f"the new deadline {show_time(new, g.settings.schedule.tz)} has already passed")
            rec.update_game(game_id, deadline=new, updated_at=now)
            g.row["deadline"] = new
            self._log(rec, g, "gm-action", {"action": "extend", "phase": g.phase, "old": old.isoformat(),
                                            "new": new.isoformat(), "reason": reason}, now)
            self._notice(rec, g, f"The deadline for {g.position.phase.title} is extended to {g.deadline_text()}"  # type: ignore[union-attr]
                         + (f": {reason}" if reason else "."), now)
            return new

    def pause(self, game_id: str, reason: str = "") -> None:
        """Stop the clock: the time left is kept until the game is resumed."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status != "active":
                raise GMError(f"{game_id} is {g.status}, not running: it cannot be paused")
            left = max(0.0, (g.row["deadline"] - now).total_seconds()) if g.row["deadline"] else None
            rec.update_game(game_id, status="paused", deadline=None, paused_remaining=left, updated_at=now)
            g.row["status"] = "paused"
            self._log(rec, g, "gm-action", {"action": "pause", "phase": g.phase, "remaining_seconds": left,
                                            "reason": reason}, now)
            self._notice(rec, g, "The game is paused" + (f": {reason}" if reason else ".") +
                         " The deadline will be set again when it resumes.", now)

    def resume(self, game_id: str, *, until: datetime | None = None, reason: str = "") -> datetime:
        """Start the clock again: the time that was left, or a new deadline."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status != "paused":
                raise GMError(f"{game_id} is {g.status}, not paused")
            if until is not None:
                deadline = until
            else:
                left = g.row["paused_remaining"]
                deadline = now + timedelta(seconds=left if left is not None else 0)
                if deadline < now + timedelta(hours=1):
                    deadline = now + timedelta(hours=1)
            if deadline <= now:
                raise GMError("the new deadline has already passed")
            rec.update_game(game_id, status="active", deadline=deadline, paused_remaining=None, updated_at=now)
            g.row.update(status="active", deadline=deadline)
            self._log(rec, g, "gm-action", {"action": "resume", "phase": g.phase, "deadline": deadline.isoformat(),
                                            "reason": reason}, now)
            self._notice(rec, g, f"The game resumes: orders for {g.position.phase.title} are due {g.deadline_text()}"  # type: ignore[union-attr]
                         + (f" ({reason})." if reason else "."), now)
            return deadline

    def replace_player(self, game_id: str, power: str, name: str, *, reason: str = "") -> str:
        """The GM puts a new player on a power (Armageddonia; or on a Brobdingnag player's request).

        Returns the new player's credential, shown once."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            pw = self._power(g, power)
            if g.status == "finished":
                raise GMError(f"{game_id} is over")
            existing = g.player_named(name)
            if existing is not None and existing["role"] == "standby":
                secret = None
                new = existing
            else:
                secret = self._add_player(rec, g, name, "standby", now)
                new = g.player_named(name)
            self._reassign(rec, g, pw, new, now, reason or "appointed by the gamesmaster")  # type: ignore[arg-type]
            if secret is None:
                return "(the stand-by keeps the credential already given)"
            return secret

    def resign(self, game_id: str, power: str, successor: str | None = None, *, credential: str | None = None,
               by_gm: bool = False) -> str | None:
        """A player resigns, naming a successor (Brobdingnag); returns the successor's credential."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            pw = self._power(g, power)
            author, who = self._identify(g, pw, credential, by_gm)
            holder = g.holder(pw)
            if author != "player" or holder is None:
                raise Forbidden(f"only {pw.capitalize()}'s player can resign {pw.capitalize()}")
            self._log(rec, g, "player-resigned", {"power": pw, "player": holder["name"], "successor": successor}, now)
            if successor:
                secret = self._add_player(rec, g, successor, "standby", now)
                self._reassign(rec, g, pw, g.player_named(successor), now,  # type: ignore[arg-type]
                               f"{holder['name']} resigned and named {successor}")
                return secret
            rec.update_player(holder["id"], role="former")
            self._notice(rec, g, f"{holder['name']} has resigned {pw.capitalize()}; the gamesmaster will appoint a "
                         "replacement. Until then the country is in civil disorder.", now)
            return None

    # ------------------------------------------------------------------------------------
    # corrections

    def correct(self, game_id: str, reason: str, *, orders: Mapping[str, str | Sequence[str]] | None = None,
                rules: str | Mapping[str, Any] | None = None, phase: str | None = None) -> Correction:
        """Correct the last published phase (an error in transcription or ruling) before the next is published.

        The phase is adjudicated again with the corrected orders (and rules); the record
        keeps the original, the correction, the reason and the difference; everyone is told."""
        if not reason.strip():
            raise GMError("a correction needs a reason")
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            done = rec.phases(g.id)
            if not done:
                raise GMError(f"{game_id}: no phase has been published yet, so there is nothing to correct")
            last = done[-1]
            if phase is not None and phase.strip().upper() != last["phase"]:
                if any(p["phase"] == phase.strip().upper() for p in done):
                    raise GMError(f"{Phase.parse(phase).title} stands: {Phase.parse(last['phase']).title} has been "
                                  "published since, and only the last published phase can be corrected")
                raise GMError(f"{phase} has not been published in {game_id}")
            phase = last["phase"]
            position = Position.from_dict(g.variant, last["position"])
            rules_spec = rules if rules is not None else last["rules"]
            try:
                options = load_rules(rules_spec, default=g.variant.default_rules)
            except OptionError as exc:
                raise GMError(str(exc)) from None
            used = {p: dict(v) for p, v in last["orders"].items()}
            for name, texts in (orders or {}).items():
                pw = self._power(g, name)
                lines = split_submission(texts)[0] if isinstance(texts, str) else [str(t) for t in texts]
                if pw not in concerned_powers(position):
                    raise GMError(f"{pw.capitalize()} had no orders to give in {position.phase.title}")
                used[pw] = {"texts": lines, "source": "correction"}
            order_texts = {p: v["texts"] for p, v in used.items()}
            adj = adjudicate(position, order_texts, options)
            results = [o.as_dict() for o in adj.outcomes]
            dislodged = [str(d.unit) for d in adj.dislodged]
            differences = _differences(last, results, adj.next.to_dict())
            if not differences and rules is None and not orders:
                raise GMError("the correction changes nothing")
            original_entry = last["ledger_seq"]
            # conditional orders are chosen again on the corrected results
            final = {}
            for o in rec.orders(g.id, phase):
                source = last["orders"].get(o["power"], {}).get("source")
                if source and o["conditional"] and (o["author"] == "standby") == (source == "standby"):
                    final[o["power"]] = {"row": o}
            chosen = self._choose_conditionals(g, final, results, dislodged, position)
            revision = last["revision"] + 1
            entry = self._log(rec, g, "correction", {
                "phase": phase, "revision": revision, "reason": reason, "rules": rules_spec,
                "position": position.to_dict(), "orders": order_texts,
                "sources": {p: v["source"] for p, v in used.items()},
                "results": results, "dislodged": dislodged, "next": adj.next.to_dict(), "winner": adj.winner,
                "conditional": chosen, "original": {"ledger_seq": original_entry, "revision": last["revision"],
                                                    "orders": {p: v["texts"] for p, v in last["orders"].items()},
                                                    "results": last["results"]},
                "difference": differences}, now)
            rec.supersede_phase(g.id, phase)
            rec.insert_phase(game_id=g.id, phase=phase, revision=revision, number=last["number"], current=True,
                             rules=rules_spec, position=position.to_dict(),
                             orders={p: v for p, v in used.items()}, results=results, next=adj.next.to_dict(),
                             winner=adj.winner, adjudicated_at=now, ledger_seq=entry.seq)
            if rules is not None:
                rec.update_game(g.id, rules=rules_spec)
                g.row["rules"] = rules_spec
                g.options = options
            # conditional orders filed with this phase are chosen again on the corrected results
            rec.delete_pending(g.id, filed_phase=phase)
            for power, c in chosen.items():
                if c is not None:
                    rec.put_pending(game_id=g.id, power=power, filed_phase=phase, texts=c["orders"],
                                    condition=c["condition"])
            for o in rec.orders(g.id, g.phase):
                if o["channel"] == "conditional" and (o["note"] or {}).get("filed_phase") == phase:
                    rec.delete_orders(g.id, g.phase, o["power"], o["author"])
            # the phase now current is replaced by the corrected next phase
            old_phase = g.phase
            was_finished = g.status == "finished"
            if was_finished:
                if (g.row["result"] or {}).get("phase") != phase:
                    raise GMError(f"{game_id} ended by agreement after {phase}: its last phase can no longer be corrected")
                rec.update_game(g.id, status="active", result=None)
                g.row.update(status="active", result=None)
            ended = None
            if old_phase == str(adj.next.phase) and not was_finished and not adj.winner:
                rec.update_game(g.id, position=adj.next.to_dict(), updated_at=now)
                g.position = adj.next
                g.row["position"] = adj.next.to_dict()
                self._install_conditionals(rec, g, now)
            else:
                if old_phase != str(adj.next.phase):
                    rec.delete_orders(g.id, old_phase)
                ended = self._advance(rec, g, adj.next, adj.winner, now, phase, adj.ended)
            text = [f"Correction of {position.phase.title}: {reason}."]
            text += [f"  {d}" for d in differences] or ["  (the results are unchanged)"]
            if old_phase != g.phase and not was_finished:
                text.append(f"  The next phase is now {g.position.phase.title if g.position else g.phase}; orders sent "
                            f"for {old_phase} are void. Orders are due {g.deadline_text()}.")
            elif not ended:
                text.append("  Orders already sent for the next phase stand; check them against the corrected position.")
            self._notice(rec, g, "\n".join(text), now)
            return Correction(g.id, phase, reason, tuple(differences), None if ended else g.phase)

    # ------------------------------------------------------------------------------------
    # press

    def post_press(self, game_id: str, text: str, *, power: str | None = None, to: Sequence[str] | None = None,
                   anonymous: bool = False, credential: str | None = None, by_gm: bool = False) -> int:
        """Press: a public announcement (to=None) or a letter to some powers, or a GM notice (by_gm, no power)."""
        if not text.strip():
            raise GMError("the press release is empty")
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            sender = self._acting_power(g, power, credential, by_gm)
            recipients = sorted({self._power(g, p) for p in to}) if to else None
            if sender != GM:
                setting = g.settings.press
                if setting == "none":
                    raise GMError(f"{game_id} is played without press: only the gamesmaster's notices")
                if recipients and setting == "public":
                    raise GMError(f"{game_id} allows only public press: no private letters")
                if anonymous and setting != "anonymous":
                    raise GMError(f"{game_id} does not allow anonymous press (press setting: {setting})")
                if recipients and sender in recipients and len(recipients) == 1:
                    raise GMError("a letter to oneself is not press")
            elif anonymous:
                raise GMError("the gamesmaster's notices are never anonymous")
            return self._press_row(rec, g, sender, text.strip(), recipients, anonymous, now)

    def press(self, game_id: str, viewer: str | None = None, *, credential: str | None = None) -> list[dict[str, Any]]:
        """The press a viewer may read: the GM (viewer None with no credential) reads everything."""
        with self._tx(write=False) as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id)
            who = GM
            if credential is not None:
                who = self._acting_power(g, viewer, credential, False)
            elif viewer is not None:
                who = self._power(g, viewer)
            return [_press_view(p, who) for p in rec.press(g.id) if _can_read(p, who)]

    # ------------------------------------------------------------------------------------
    # draws and concessions

    def propose(self, game_id: str, *, kind: str = "draw", powers: Sequence[str] | None = None,
                concede_to: str | None = None, power: str | None = None, credential: str | None = None,
                by_gm: bool = False) -> int:
        """Propose a draw (among the survivors, or the powers named) or a concession to one power."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status not in ("active", "paused"):
                raise GMError(f"{game_id} is {g.status}: no proposals")
            proposer = self._acting_power(g, power, credential, by_gm)
            survivors = g.position.powers_alive()  # type: ignore[union-attr]
            if kind == "draw":
                share = sorted({self._power(g, p) for p in powers}) if powers else survivors
                dead = [p for p in share if p not in survivors]
                if dead:
                    raise GMError(f"{', '.join(p.capitalize() for p in dead)} no longer in the game: a draw is shared by survivors")
                share = [p for p in survivors if p in share]
            elif kind == "concession":
                if not concede_to:
                    raise GMError("a concession names the power conceded to")
                winner = self._power(g, concede_to)
                if winner not in survivors:
                    raise GMError(f"{winner.capitalize()} is not in the game")
                share = [winner]
            else:
                raise GMError(f"unknown proposal {kind!r}: draw or concession")
            votes = {proposer: True} if proposer != GM else {}
            pid = rec.insert_proposal(game_id=g.id, phase=g.phase, kind=kind, proposer=proposer, powers=share,
                                      votes=votes, status="open", created_at=now)
            self._log(rec, g, "draw-proposed", {"proposal": pid, "kind": kind, "proposer": proposer, "powers": share,
                                                "phase": g.phase}, now)
            what = (f"a draw between {', '.join(p.capitalize() for p in share)}" if kind == "draw"
                    else f"conceding the game to {share[0].capitalize()}")
            self._notice(rec, g, f"Proposal {pid}: {what}. Every surviving player votes yes or no before the "
                         f"{g.position.phase.title} deadline ({g.settings.draw_vote}).", now)  # type: ignore[union-attr]
            self._tally(rec, g, pid, now)
            return pid

    def vote(self, game_id: str, proposal: int, yes: bool, *, power: str | None = None,
             credential: str | None = None, by_gm: bool = False) -> str:
        """A survivor votes on a proposal; returns its status (open, passed, rejected)."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            voter = self._acting_power(g, power, credential, by_gm)
            if voter == GM:
                raise GMError("the gamesmaster does not vote: name the power whose vote is entered")
            row = next((p for p in rec.proposals(g.id) if p["id"] == int(proposal)), None)
            if row is None:
                raise NotFound(f"no proposal {proposal} in {game_id}")
            if row["status"] != "open":
                raise GMError(f"proposal {proposal} is {row['status']}: votes are closed")
            if voter not in self._voters(g):
                raise GMError(f"{voter.capitalize()} has no vote (only surviving powers with a player vote)")
            votes = dict(row["votes"])
            votes[voter] = bool(yes)
            rec.update_proposal(row["id"], votes=votes)
            self._log(rec, g, "draw-vote", {"proposal": row["id"], "power": voter, "yes": bool(yes)}, now)
            return self._tally(rec, g, row["id"], now)

    def _voters(self, g: _Game) -> list[str]:
        return [p for p in g.position.powers_alive() if g.holder(p)]  # type: ignore[union-attr]

    def _tally(self, rec: Records, g: _Game, pid: int, now: datetime) -> str:
        row = next(p for p in rec.proposals(g.id) if p["id"] == pid)
        voters = self._voters(g)
        votes = {p: v for p, v in row["votes"].items() if p in voters}
        yes = sum(1 for v in votes.values() if v)
        no = sum(1 for v in votes.values() if not v)
        if g.settings.draw_vote == "unanimous":
            status = "rejected" if no else ("passed" if yes == len(voters) and voters else "open")
        else:
            status = "passed" if yes * 2 > len(voters) else ("rejected" if no * 2 >= len(voters) else "open")
        if status == "open":
            return status
        rec.update_proposal(pid, status=status)
        self._log(rec, g, "draw-result", {"proposal": pid, "status": status, "yes": yes, "no": no,
                                          "voters": voters}, now)
        if status == "rejected":
            self._notice(rec, g, f"Proposal {pid} is rejected; the game goes on.", now)
            return status
        share = list(row["powers"])
        if row["kind"] == "draw":
            result = {"kind": "draw", "winners": share, "phase": g.phase,
                      "reason": f"proposal {pid} agreed by {'all' if no == 0 else yes} of the survivors"}
        else:
            result = {"kind": "concession", "winners": share, "phase": g.phase,
                      "reason": f"the other survivors conceded (proposal {pid})"}
        self._finish(rec, g, result, now)
        return status

    def declare_draw(self, game_id: str, *, powers: Sequence[str] | None = None, reason: str = "") -> None:
        """The GM declares a draw (the deadlock rule 'ask-gm', or with every survivor's agreement given in person)."""
        now = self.now()
        with self._tx() as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id, lock=True)
            if g.status not in ("active", "paused"):
                raise GMError(f"{game_id} is {g.status}")
            survivors = g.position.powers_alive()  # type: ignore[union-attr]
            share = [p for p in survivors if p in {self._power(g, x) for x in powers}] if powers else survivors
            self._log(rec, g, "gm-action", {"action": "declare-draw", "powers": share, "reason": reason}, now)
            self._finish(rec, g, {"kind": "draw", "winners": share, "phase": g.phase,
                                  "reason": reason or "declared by the gamesmaster"}, now)

    def proposals(self, game_id: str) -> list[dict[str, Any]]:
        with self._tx(write=False) as conn:
            return self._rec(conn).proposals(game_id)

    # ------------------------------------------------------------------------------------
    # looking at games

    def games(self) -> list[dict[str, Any]]:
        """Every game: id, title, status, phase, deadline (for listings)."""
        with self._tx(write=False) as conn:
            rec = self._rec(conn)
            out = []
            for row in rec.games():
                settings = Settings.from_dict(row["settings"])
                out.append({"id": row["id"], "title": row["title"], "status": row["status"], "phase": row["phase"],
                            "deadline": row["deadline"],
                            "deadline_text": "paused" if row["status"] == "paused" else show_time(row["deadline"], settings.schedule.tz),
                            "result": row["result"]})
            return out

    def status(self, game_id: str) -> dict[str, Any]:
        """A game at a glance (the GM's view: who has ordered, but not what)."""
        with self._tx(write=False) as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id)
            have = {(o["power"], o["author"]) for o in rec.orders(g.id, g.phase)} if g.phase else set()
            pos = g.position
            concerned = concerned_powers(pos) if pos is not None and g.status != "finished" else []
            powers = []
            for p in g.variant.powers:
                holder, standby = g.holder(p), g.standby_for(p)
                powers.append({
                    "power": p, "player": holder["name"] if holder else None,
                    "standby": standby["name"] if standby else None,
                    "centres": len(pos.centres_of(p)) if pos else 0, "units": len(pos.units_of(p)) if pos else 0,
                    "to_order": p in concerned, "ordered": (p, "player") in have,
                    "standby_ordered": (p, "standby") in have,
                    "ready": bool(holder and holder["ready"]), "missed": holder["missed"] if holder else 0})
            return {"id": g.id, "title": g.row["title"], "status": g.status, "variant": g.variant.name,
                    "rules": g.row["rules"], "settings": g.settings.to_dict(), "phase": g.phase,
                    "phase_title": pos.phase.title if pos else None, "deadline": g.row["deadline"],
                    "deadline_text": g.deadline_text() if g.status != "forming" else "not started",
                    "powers": powers, "result": g.row["result"], "flags": g.flags,
                    "players": [{"name": p["name"], "role": p["role"], "power": p["power"],
                                 "standby_for": p["standby_for"], "rank": p["rank"]} for p in g.players],
                    "proposals": [p for p in rec.proposals(g.id) if p["status"] == "open"],
                    "position": g.row["position"]}

    def history(self, game_id: str) -> dict[str, Any]:
        """The whole record as the GM sees it: phases (with corrections), press, the ledger."""
        with self._tx(write=False) as conn:
            rec = self._rec(conn)
            g = self._load(rec, game_id)
            return {"id": g.id, "title": g.row["title"], "phases": rec.phases(g.id, current_only=False),
                    "press": rec.press(g.id), "ledger": [e.as_dict() for e in rec.entries(g.id)],
                    "result": g.row["result"], "tz": g.settings.schedule.tz}

    def final_report(self, game_id: str) -> str:
        """The final report of a finished game: how it ended, every power's centres and units, the centre chart."""
        from . import report
        st = self.status(game_id)
        if not st["result"]:
            raise GMError(f"{game_id} is {st['status']}: there is no final report until it ends")
        return report.final(st, self.results(game_id))

    def results(self, game_id: str) -> list[dict[str, Any]]:
        """The published phases (current revisions), in order: what every player may see."""
        with self._tx(write=False) as conn:
            return self._rec(conn).phases(game_id)

    def verify(self, game_id: str, receipts: Sequence[str] = ()) -> Any:
        """Walk the ledger, check every hash and receipt, replay the game through the engine."""
        from .verify import verify_game
        with self._tx(write=False) as conn:
            rec = self._rec(conn)
            self._load(rec, game_id)
            return verify_game(rec, game_id, receipts)


# ----------------------------------------------------------------------------------------
# answers to orders


def answer_orders(position: Position, power: str, lines: Sequence[str], options: RuleOptions) -> tuple[list[Answer], list[str]]:
    """Read each written order at once against the position; say what was understood."""
    answers: list[Answer] = []
    ordered: dict[str, list[int]] = {}
    kinds = {"M": ("Hold", "Move", "Support", "Convoy"), "R": ("Retreat", "Disband"),
             "A": ("Build", "Remove", "Waive")}[position.phase.kind]
    adjust = 0
    for text in lines:
        reading = parse_order(text, position, power, options)
        order = reading.order
        if reading.ok and type(order).__name__ not in kinds:
            answers.append(Answer(text, "invalid", format_order(order), f"invalid: a {type(order).__name__.lower()} "  # type: ignore[arg-type]
                                  f"order cannot be given in {position.phase.title}", reading.notes))
            continue
        if reading.ok:
            if not (isinstance(order, Waive) or position.phase.is_adjustment):
                ordered.setdefault(order.unit.province, []).append(len(answers))  # type: ignore[union-attr]
            reason = legality.check(position, options, order) if position.phase.is_movement else None  # type: ignore[arg-type]
            if reason:
                answers.append(Answer(text, "invalid", format_order(order), reason, reading.notes))  # type: ignore[arg-type]
                continue
            canon = format_order(order)  # type: ignore[arg-type]
            answers.append(Answer(text, "accepted", canon, f"accepted as '{canon}'", reading.notes))
            if isinstance(order, Waive) or position.phase.is_adjustment:
                adjust += 1
        else:
            answers.append(Answer(text, "invalid", format_order(order) if order else None,
                                  reading.error or "invalid", reading.notes))
    warnings: list[str] = []
    for pid, idxs in ordered.items():
        if len({answers[i].order for i in idxs}) > 1:
            rule = options.two_orders
            outcome = {"invalid": "neither is followed", "first": "the first counts", "last": "the last counts"}[rule]
            warnings.append(f"two different orders for the unit in {pid}: {outcome}")
    phase = position.phase
    if phase.is_movement:
        for unit in position.units_of(power):
            if unit.province not in ordered:
                warnings.append(f"no order for {unit}: it will hold")
    elif phase.is_retreat:
        for d in position.dislodged:
            if d.unit.power == power and d.unit.province not in ordered:
                warnings.append(f"no order for dislodged {d.unit}: it will be disbanded")
    else:
        due = balance(position, power)
        if due > 0 and adjust < due:
            warnings.append(f"{due} build{'s' if due > 1 else ''} due, {adjust} ordered: the rest are waived")
        if due < 0 and adjust < -due:
            warnings.append(f"{-due} removal{'s' if due < -1 else ''} due, {adjust} ordered: the rule set's "
                            "civil-disorder rule removes the rest")
    return answers, warnings


def _norm(centres: Mapping[str, Any]) -> dict[str, list[str]]:
    return {p: sorted(v) for p, v in centres.items() if v}


def _differences(last: Mapping[str, Any], results: list[dict[str, Any]], nxt: dict[str, Any]) -> list[str]:
    """What a correction changed: orders' results, and the units and centres after."""
    out: list[str] = []
    before = {(r["power"], r["text"]): r for r in last["results"]}
    after = {(r["power"], r["text"]): r for r in results}
    for key, r in after.items():
        old = before.get(key)
        if old is None:
            out.append(f"{r['power']}: {r['text']!r} added: {r['result']} ({r['reason']})")
        elif (old["order"], old["result"], old["reason"]) != (r["order"], r["result"], r["reason"]):
            out.append(f"{r['power']}: {r['text']!r} was {old['result']} ({old['reason']}), now {r['result']} ({r['reason']})")
    for key, r in before.items():
        if key not in after:
            out.append(f"{r['power']}: {r['text']!r} removed (was {r['result']})")
    old_next = last["next"]
    for field_ in ("units", "centers"):
        a, b = old_next.get(field_, {}), nxt.get(field_, {})
        for p in sorted(set(a) | set(b)):
            if sorted(a.get(p, [])) != sorted(b.get(p, [])):
                out.append(f"{p} {'units' if field_ == 'units' else 'centres'}: {', '.join(sorted(a.get(p, []))) or 'none'}"
                           f" -> {', '.join(sorted(b.get(p, []))) or 'none'}")
    if old_next.get("phase") != nxt.get("phase"):
        out.append(f"next phase: {old_next.get('phase')} -> {nxt.get('phase')}")
    return out


def _can_read(p: Mapping[str, Any], who: str) -> bool:
    return who == GM or p["recipients"] is None or p["sender"] == who or who in (p["recipients"] or [])


def _press_view(p: Mapping[str, Any], who: str) -> dict[str, Any]:
    sender = p["sender"]
    if p["anonymous"] and who not in (GM, sender):
        sender = "anonymous"
    return {"id": p["id"], "phase": p["phase"], "sent_at": p["sent_at"], "sender": sender,
            "to": p["recipients"], "anonymous": p["anonymous"], "text": p["text"]}
