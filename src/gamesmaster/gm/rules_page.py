"""A game's rules page: its rule options in words, and how it is run, as one view (the page and the API's answer)."""

from __future__ import annotations

from dataclasses import dataclass

from .catalogue import FixedRule, choices, rule_lines, value_key
from .scoring import describe_scoring
from .settings import RuleSpec, show_time
from .views import GameView


@dataclass(frozen=True)
class RuleLine:
    """One rule option of a game, in words: the catalogue's question and the game's answer to it."""

    option: str
    title: str
    section: str
    question: str  # what the option decides, in the catalogue's words
    value: str
    text: str  # the value in words
    changed: bool  # whether it differs from the preset


@dataclass(frozen=True)
class RunningLine:
    """One heading of how a game is run, in words."""

    name: str  # the heading: Press, Deadlines, Missed orders, Replacement ...
    text: str  # what holds in this game


@dataclass(frozen=True)
class RulesPage:
    """A game's rule options in words, and how it is run (press, deadlines, NMR, replacement)."""

    id: str
    title: str
    variant: str  # the variant's name
    variant_title: str
    victory_centres: int
    victory: str  # the victory criterion in force, in words
    victory_explanation: str  # what wins, for whom, and when it is checked
    preset: str
    preset_title: str
    rules: RuleSpec  # the rules as the GM gave them: a preset's name, or options over it
    options: tuple[RuleLine, ...]
    settings: tuple[RunningLine, ...]
    fixed: tuple[FixedRule, ...]  # the rules no option changes


def rules_page(view: GameView) -> RulesPage:
    """The rules page of a game as it stands."""
    variant = view.variant
    options = view.rules
    cat = choices()
    values = options.as_dict()
    base = options.preset or variant.default_rules
    preset = cat.preset(base)
    base_values = preset.options.as_dict() if preset is not None else {}
    items = []
    for entry, line in zip(cat.options, rule_lines(options)):
        name = entry.name
        items.append(RuleLine(name, entry.title, entry.section, entry.explanation, value_key(values[name]),
                              line.split(": ", 1)[1] if ": " in line else line,
                              bool(base_values) and base_values.get(name) != values[name]))
    settings = view.settings
    running = [
        ("Press", {"none": "No press: only the gamesmaster's notices.",
                   "public": "Public announcements only; no private letters.",
                   "full": "Public announcements and private letters between powers.",
                   "anonymous": "Public and private press; a release may hide its sender from the other players."}[settings.press]),
        ("Deadlines", settings.schedule.describe()[0].upper() + settings.schedule.describe()[1:] + "."),
        ("Missed orders", (f"A player who has not ordered at a movement deadline gets one grace period of "
                           f"{settings.grace_hours:g} hours; then civil disorder." if settings.grace_hours else
                           "A power with no orders at the deadline is in civil disorder: "
                           "its units hold and do not support each other.")
                          + (" A power that misses a Spring or Fall move stays in civil disorder for the rest of the "
                             "season (rulebook XIV.3): its dislodged units are disbanded and it raises no units; it "
                             "resumes with its next Spring or Fall orders." if options.missed_move == "season" else
                             " A missed move costs that move only: retreats and adjustments are ordered at their own "
                             "deadlines.")),
        ("Replacement", {"none": "Civil disorder until the gamesmaster replaces the player.",
                         "standby": "The first free stand-by is asked to send the next move; if the player sends it "
                                    "instead, the player keeps the country.",
                         "successor": "A player plays until resigning, and names a successor.",
                         "gm": "The gamesmaster appoints a neutral stand-by."}[settings.replacement]),
        ("Early processing", "Retreats and adjustments are processed as soon as every power concerned has ordered"
                             + ("; a movement phase once every player has ordered and marked ready." if settings.early_movement
                                else "; movement waits for the deadline.")),
        ("Draws", f"A draw or concession passes by {'a unanimous vote' if settings.draw_vote == 'unanimous' else 'a majority'} "
                  "of the surviving powers. "
                  + ("Votes are secret: only the outcome (and how many voted each way) is published."
                     if settings.votes == "secret" else "Votes are open: the record shows how each power voted.")),
        ("Scoring", describe_scoring(settings.scoring)),
    ]
    if options.last_year:  # the rules' short game, however it was set (--end-year or the rules)
        running.append(("Short game", f"After {options.last_year}, the player with the most pieces on the board wins "
                                       "(a player of several powers counts them all; a tie is a draw)."))
    if settings.end_time is not None:
        running.append(("Short game by the clock", f"The game stops at {show_time(settings.end_time, settings.schedule.tz)}"
                        " (rulebook III); the player with the most pieces on the board then wins (a player of several "
                        "powers counts them all; a tie is a draw). The phase being written then is not played."))
    return RulesPage(view.id, view.title, variant.name, variant.title, variant.victory_centres, view.victory.headline,
                     view.victory.explanation, base, preset.title if preset is not None else base, view.rules_spec,
                     tuple(items), tuple(RunningLine(k, v) for k, v in running), cat.fixed)
