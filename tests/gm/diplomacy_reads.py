"""Run by the `diplomacy` package's interpreter (a venv of its own): how the package reads a saved game.

    python diplomacy_reads.py SAVED_GAME.json  ->  JSON on stdout

It loads the file with the package's own loader (`from_saved_game_format`), then for every
phase of the loaded game's history and the phase it is in, gives the phase to a fresh
`Game` (`set_state`) and writes down what the package made of it: the phase name, each
power's units, dislodged units with their retreats, and centres. It imports nothing from
gamesmaster.
"""

import json
import sys

from diplomacy import Game
from diplomacy.utils.export import from_saved_game_format


def understood(map_name, state):
    """A phase's state as the package understands it, through a fresh Game."""
    game = Game(map_name=map_name)
    game.set_state(state)
    back = game.get_state()
    return {"name": back["name"],
            "units": {p: sorted(u for u in units if not u.startswith("*")) for p, units in back["units"].items()},
            "dislodged": {p: {u: sorted(where) for u, where in r.items()} for p, r in back["retreats"].items() if r},
            "centers": {p: sorted(c) for p, c in back["centers"].items()}}


def main(path):
    """Write what the package makes of a saved game file."""
    with open(path, encoding="utf-8") as f:
        saved = json.load(f)
    game = from_saved_game_format(saved)
    phases = [understood(game.map_name, data.state) for data in game.get_phase_history()]
    phases.append(understood(game.map_name, game.get_state()))
    out = {"phases": phases, "current": game.get_current_phase(),
           "orders": {str(data.name): {p: list(o or []) for p, o in data.orders.items()}
                      for data in game.get_phase_history()},
           "messages": sum(len(data.messages) for data in game.get_phase_history()) + len(game.messages)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
