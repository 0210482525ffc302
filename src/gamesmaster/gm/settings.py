"""A game's settings: press, deadlines, NMR and replacement policies, draws, the short game.

Settings are plain JSON in the record; `Settings.from_dict` checks them and names any
problem. The deadline schedule is given in the GM's time zone and stored in UTC.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, time, timedelta, timezone
from typing import Literal, Mapping, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..ledger import JSONObject, JSONValue
from ..rules import OptionError, RuleOptions
from ..rules.scoring import ScoringError, ScoringSystem
from ..variants import load_rules
from . import values as read
from .errors import GMError

PRESS = ("none", "public", "full", "anonymous")
REPLACEMENT = ("none", "standby", "successor", "gm")
# Not a policy: "the rule preset's" (a magazine's, seed 004), which the game is given when it is created.
PRESET_POLICY = "preset"
DRAW_VOTES = ("unanimous", "majority")
# DAIDE's press levels (its language's syntax levels: 0 no press, 10 peace and alliances, ... 8000 free text)
DAIDE_LEVELS = (*range(0, 170, 10), 8000)
# Whether each power's vote on a draw or concession is published: "secret" (only the outcome
# and its count, as DPjudge's default), or "open" (who voted how, as webDiplomacy shows).
Ballot = Literal["secret", "open"]
BALLOTS: tuple[Ballot, ...] = ("secret", "open")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MIN_HOURS = 1 / 60  # the shortest phase: a minute (a live table's writing period can be that short)
MAX_HOURS = 90 * 24.0


@dataclass(frozen=True)
class Schedule:
    """When orders are due.

    Movement: at `time` on one of the move nights `days` (in the GM's zone), the first
    one at least `min_hours` after the results are published; or, with no days, `hours`
    after publication. Retreats and adjustments: `retreat_hours` / `adjustment_hours`
    after publication.
    """

    tz: str = "UTC"
    days: tuple[str, ...] = ()
    time: str = "22:00"
    min_hours: float = 24.0
    hours: float = 72.0
    retreat_hours: float = 24.0
    adjustment_hours: float = 24.0

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    def deadline(self, kind: str, published: datetime) -> datetime:
        """The deadline of a phase of this kind (M, R, A) published at that time (UTC)."""
        if kind == "R":
            return published + timedelta(hours=self.retreat_hours)
        if kind == "A":
            return published + timedelta(hours=self.adjustment_hours)
        if not self.days:
            return published + timedelta(hours=self.hours)
        zone = self.zone
        earliest = published + timedelta(hours=self.min_hours)
        hh, mm = (int(x) for x in self.time.split(":"))
        day = earliest.astimezone(zone).date()
        for _ in range(15):
            if DAYS[day.weekday()] in self.days:
                when = datetime.combine(day, time(hh, mm), tzinfo=zone)
                if when >= earliest:
                    return when.astimezone(timezone.utc)
            day += timedelta(days=1)
        raise AssertionError("no move night in a fortnight")  # days is never empty here

    def describe(self) -> str:
        move = (f"movement due {self.time} on {', '.join(d.capitalize() for d in self.days)} "
                f"(at least {_hours(self.min_hours)} after results)" if self.days
                else f"movement due {_hours(self.hours)} after results")
        return (f"{move}; retreats {_hours(self.retreat_hours)}, adjustments {_hours(self.adjustment_hours)} "
                f"after results; times in {self.tz}")


def _hours(h: float) -> str:
    return f"{h:g} hours" if h != 1 else "1 hour"


@dataclass(frozen=True)
class Settings:
    """Everything about how a game is run that is not a rule of the game itself."""

    press: str = "full"
    schedule: Schedule = field(default_factory=Schedule)
    grace_hours: float = 0.0  # NMR: one extension of a movement deadline when a player has not ordered
    replacement: str = PRESET_POLICY  # none, standby (Graustark/Erehwon), successor (Brobdingnag), gm (Armageddonia)
    early_movement: bool = False  # movement processed early once every player is ready
    draw_vote: str = "unanimous"
    votes: Ballot = "secret"
    end_year: int | None = None  # short game: after this year the player with most pieces on the board wins
    end_at: str | None = None  # short game by the clock (ISO time, UTC): stop then; most pieces wins
    daide_level: int | None = None  # the press level DAIDE bots are told (HLO's LVL); None: 8000, or 0 without press
    scoring: str = "none"  # the scoring system (rules.scoring.ScoringSystem; docs/scoring.md)
    # An open game's entry requirements (docs/standings.md): a joining account's reliability, finished games.
    min_reliability: float | None = None  # percent of phases ordered on time
    min_games: int = 0

    @property
    def end_time(self) -> datetime | None:
        """The agreed clock time the game stops at (rulebook III), if any."""
        return datetime.fromisoformat(self.end_at) if self.end_at else None

    def deadline(self, kind: str, published: datetime) -> datetime:
        """A phase's deadline: the schedule's, or the agreed end of the game if that comes first."""
        due = self.schedule.deadline(kind, published)
        end = self.end_time
        return min(due, end) if end is not None else due

    def to_dict(self) -> JSONObject:
        doc = asdict(self)
        doc["schedule"]["days"] = list(self.schedule.days)
        if self.daide_level is None:
            del doc["daide_level"]  # the games made before the setting existed read the same
        if self.votes == "secret":
            del doc["votes"]  # the default: the games made before the setting existed read the same
        if self.scoring == "none":
            del doc["scoring"]  # ... and so do games without a scoring system
        for name, default in (("min_reliability", None), ("min_games", 0)):
            if doc[name] == default:
                del doc[name]  # ... and games open to anyone
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue] | None) -> "Settings":
        """Read to_dict's form (or the GM's settings as JSON); GMError names a setting that does not read."""
        doc = dict(doc or {})
        unknown = set(doc) - {f for f in cls.__dataclass_fields__}
        if unknown:
            raise GMError(f"unknown setting{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
        given = cls()  # the defaults, for what the document leaves out
        end_year, end_at, level = doc.get("end_year"), doc.get("end_at"), doc.get("daide_level")
        settings = cls(
            press=read.text(doc.get("press", given.press), "press setting"),
            schedule=_schedule(read.fields(doc.get("schedule") or {}, "the schedule")),
            grace_hours=read.number(doc.get("grace_hours", given.grace_hours), "the grace period"),
            replacement=read.text(doc.get("replacement", given.replacement), "replacement policy"),
            early_movement=read.flag(doc.get("early_movement", given.early_movement), "early movement"),
            draw_vote=read.text(doc.get("draw_vote", given.draw_vote), "draw vote"),
            votes=_ballot(read.text(doc.get("votes", given.votes), "votes")),
            end_year=None if end_year is None else read.whole(end_year, "end year"),
            end_at=None if end_at is None else read.text(end_at, "end time"),
            daide_level=None if level is None else read.whole(level, "DAIDE press level"),
            scoring=scoring_system(read.text(doc.get("scoring", given.scoring), "scoring system")).value,
            min_reliability=None if doc.get("min_reliability") is None else
            read.number(doc.get("min_reliability"), "the minimum reliability"),
            min_games=read.whole(doc.get("min_games", 0), "the minimum of finished games"))
        settings.check()
        return settings

    def check(self) -> None:
        if self.press not in PRESS:
            raise GMError(f"press setting {self.press!r}: choose {', '.join(PRESS)}")
        if self.replacement not in REPLACEMENT + (PRESET_POLICY,):
            raise GMError(f"replacement policy {self.replacement!r}: choose {', '.join(REPLACEMENT)}, or "
                          f"{PRESET_POLICY} (the rule preset's)")
        if self.draw_vote not in DRAW_VOTES:
            raise GMError(f"draw vote {self.draw_vote!r}: choose {', '.join(DRAW_VOTES)}")
        scoring_system(self.scoring)
        if not 0 <= self.grace_hours <= MAX_HOURS:
            raise GMError(f"the grace period is between 0 and {MAX_HOURS // 24:g} days")
        if self.daide_level is not None and self.daide_level not in DAIDE_LEVELS:
            raise GMError(f"DAIDE press level {self.daide_level!r}: choose 0, 10, 20 ... 160, or 8000")
        if self.min_reliability is not None and not 0 <= self.min_reliability <= 100:
            raise GMError("the minimum reliability is a percentage, 0 to 100")
        if not 0 <= self.min_games <= 10000:
            raise GMError("the minimum of finished games is 0 to 10000")
        if self.end_year is not None and not (1 <= int(self.end_year) <= 99999):
            raise GMError(f"end year {self.end_year!r} is not a year")
        if self.end_at is not None:
            try:
                end = datetime.fromisoformat(str(self.end_at))
            except ValueError:
                raise GMError(f"end time {str(self.end_at)[:40]!r}: write it as YYYY-MM-DD HH:MM") from None
            if end.tzinfo is None or end.utcoffset() != timedelta(0):
                raise GMError(f"end time {self.end_at!r}: stored in UTC, with its offset (+00:00)")


def _ballot(text: str) -> Ballot:
    """Secret or open votes, as a setting reads; GMError names another word."""
    for ballot in BALLOTS:
        if text == ballot:
            return ballot
    raise GMError(f"votes {text[:40]!r}: choose {', '.join(BALLOTS)}")


def scoring_system(name: str) -> ScoringSystem:
    """The scoring system of that name; GMError lists the systems for any other."""
    try:
        return ScoringSystem.named(name)
    except ScoringError as exc:
        raise GMError(str(exc)) from None


def _schedule(doc: Mapping[str, JSONValue]) -> Schedule:
    unknown = set(doc) - set(Schedule.__dataclass_fields__)
    if unknown:
        raise GMError(f"unknown schedule setting{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
    tz = str(doc.get("tz", "UTC"))
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise GMError(f"unknown time zone {tz!r} (use a name such as Europe/London or America/Edmonton)") from None
    days = tuple(_day(d) for d in read.items(doc.get("days") or [], "days"))
    at = str(doc.get("time", "22:00"))
    if not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", at):
        raise GMError(f"deadline time {at!r}: write it as HH:MM, e.g. 22:00")
    hours = {k: read.number(doc[k], k.replace("_", " ")) for k in ("min_hours", "hours", "retreat_hours",
                                                                      "adjustment_hours") if k in doc}
    for k, v in hours.items():
        if v < 0:
            raise GMError(f"{k.replace('_', ' ')} cannot be negative")
        if k != "min_hours" and v < MIN_HOURS:
            raise GMError(f"{k.replace('_', ' ')} {v:g}: a phase lasts at least a minute "
                          "(orders due at once would be adjudicated on every pass of the worker)")
        if v > MAX_HOURS:
            raise GMError(f"{k.replace('_', ' ')} {v:g}: a phase lasts at most {MAX_HOURS // 24:g} days")
    return Schedule(tz=tz, days=days, time=at, **hours)


def _day(text: object) -> str:
    key = str(text).strip().lower()[:3]
    if key not in DAYS:
        raise GMError(f"unknown day {text!r}: use mon, tue, wed, thu, fri, sat or sun")
    return key


OptionValue = bool | int | str | None  # a rule option's value (rules.RuleOptions; None: last_year unset)


@dataclass(frozen=True)
class RuleSpec:
    """The rules as the GM gave them: a preset (None: the variant's default) and the options set apart from it.

    The ledger records this form, not the options it reads as, so that a game keeps the
    rules it was given (the preset's own later changes aside) and a correction can change one option.
    """

    preset: str | None = None
    values: tuple[tuple[str, OptionValue], ...] = ()

    @classmethod
    def named(cls, preset: str | None, values: Mapping[str, OptionValue] | None = None) -> "RuleSpec":
        """A preset with some options changed."""
        return cls(preset, tuple((values or {}).items()))

    @classmethod
    def read(cls, doc: JSONValue) -> "RuleSpec":
        """The recorded form: a preset name, or {"preset": ..., option: value, ...}; GMError for anything else."""
        if doc is None or isinstance(doc, str):
            return cls(doc)
        if not isinstance(doc, dict):
            raise GMError(f"rules must be a preset name or an object of options, not {doc!r}")
        values = []
        for name, value in doc.items():
            if name != "preset" and not (value is None or isinstance(value, (bool, int, str))):
                raise GMError(f"rule option {name}: {value!r} is not an option's value")
            if name != "preset":
                values.append((name, cast(OptionValue, value)))
        preset = doc.get("preset")
        return cls(None if preset is None else str(preset), tuple(values))

    def to_json(self) -> str | JSONObject | None:
        """The recorded form: the preset's name alone when no option is changed."""
        if not self.values:
            return self.preset
        head: JSONObject = {} if self.preset is None else {"preset": self.preset}
        return {**head, **dict(self.values)}

    def changed(self, values: Mapping[str, OptionValue]) -> "RuleSpec":
        """These rules with some options changed."""
        return RuleSpec(self.preset, tuple({**dict(self.values), **values}.items()))

    def options(self, default: str) -> RuleOptions:
        """The rule options they read as (default: the variant's default preset); GMError names a bad one."""
        try:
            return load_rules(self.to_json(), default=default)
        except OptionError as exc:
            raise GMError(str(exc)) from None

    @property
    def title(self) -> str:
        """The preset's name ('custom' when none is named)."""
        return self.preset or "custom"

    def __str__(self) -> str:
        return str(self.to_json())


def parse_duration(text: str) -> float:
    """Hours from '24h', '90m', '2d', '1d12h' or a plain number of hours."""
    s = str(text).strip().lower()
    if len(s) > 40:
        raise GMError(f"duration {s[:20]!r}...: write e.g. 24h, 90m, 2d or 1d12h")
    if re.fullmatch(r"\d+(\.\d+)?", s):
        return float(s)
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([dhm])", s)
    if not parts or "".join(f"{n}{u}" for n, u in parts) != re.sub(r"\s+", "", s):
        raise GMError(f"duration {text!r}: write e.g. 24h, 90m, 2d or 1d12h")
    scale = {"d": 24.0, "h": 1.0, "m": 1 / 60}
    return sum(float(n) * scale[u] for n, u in parts)


def parse_movement(text: str) -> JSONObject:
    """'tue,fri 22:00' (move nights and time) or '72h' (hours after results) as schedule fields."""
    s = str(text).strip()
    m = re.fullmatch(r"([A-Za-z, ]+?)\s+(\d{1,2}:\d{2})", s)
    if m:
        return {"days": [_day(d) for d in re.split(r"[,\s]+", m.group(1)) if d], "time": m.group(2)}
    return {"days": [], "hours": parse_duration(s)}


def parse_time(text: str, tz: str) -> datetime:
    """Read 'YYYY-MM-DD HH:MM' as a time in the zone tz (a GMError names a bad one)."""
    try:
        when = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        raise GMError(f"time {text!r}: write it as YYYY-MM-DD HH:MM (in the game's time zone)") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(tz))
    return when


def end_setting(text: str, tz: str) -> str:
    """The agreed stop of a short game by the clock ('YYYY-MM-DD HH:MM' in the zone tz) as the setting keeps it (UTC)."""
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise GMError(f"unknown time zone {tz!r} (use a name such as Europe/London or America/Edmonton)") from None
    return parse_time(text, tz).astimezone(timezone.utc).isoformat()


def show_time(when: datetime | None, tz: str, seconds: bool = False) -> str:
    """A UTC time as the GM's zone shows it: 'Tue 07 May 2024 22:00 BST' (seconds: '22:00:07')."""
    if when is None:
        return "no deadline"
    return when.astimezone(ZoneInfo(tz)).strftime("%a %d %b %Y %H:%M:%S %Z" if seconds else "%a %d %b %Y %H:%M %Z")


def show_times(first: datetime, second: datetime, tz: str) -> tuple[str, str]:
    """Two times as the GM's zone shows them, to the second where the minute alone would not tell them apart."""
    same = first.replace(second=0, microsecond=0) == second.replace(second=0, microsecond=0)
    return show_time(first, tz, seconds=same), show_time(second, tz, seconds=same)
