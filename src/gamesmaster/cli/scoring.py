"""`gamesmaster score`: what a board is worth under a scoring system, for tournament directors (docs/scoring.md)."""

from __future__ import annotations

import argparse
import json
import re
from typing import TextIO

from ..gm import GMError, score_board, variant_named
from .options import CommandError, Subcommands, add_command

EXAMPLE = """  gamesmaster score --system sos --draw england,france,russia ENGLAND=12 FRANCE=10 RUSSIA=8 TURKEY=4
  gamesmaster score --system carnage --solo france FRANCE=18 ENGLAND=6 GERMANY=5
  gamesmaster score --system manorcon --played italy=5 ENGLAND=12 FRANCE=12 ITALY=0 ...
"""
PAIR = re.compile(r"^([A-Za-z][A-Za-z_-]{0,39})=(\d{1,4})$")


def _pair(text: str, what: str) -> tuple[str, int]:
    m = PAIR.match(text.strip())
    if not m:
        raise CommandError(f"{text[:40]!r}: write {what} as POWER=NUMBER, e.g. ENGLAND=7")
    return m.group(1), int(m.group(2))


def cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    """Print each power's score as JSON, two decimals."""
    if args.draw and args.solo:
        raise CommandError("give --draw or --solo, not both")
    centres: dict[str, int] = {}
    for text in args.board:
        name, n = _pair(text, "a power's centres")
        if name.upper() in (p.upper() for p in centres):
            raise CommandError(f"{name} is given twice")
        centres[name] = n
    played = dict(_pair(x, "an eliminated power's years") for x in ",".join(args.played or []).split(",") if x)
    draw = [x for x in (args.draw or "").split(",") if x.strip()]
    try:
        scores = score_board(args.system, variant_named(args.variant), centres, solo=args.solo, draw=draw,
                             played=played, years=args.years)
    except GMError as exc:
        raise CommandError(str(exc)) from None
    out.write(json.dumps({p: round(v, 2) for p, v in scores.items()}) + "\n")
    return 0


def register(sub: Subcommands) -> None:
    """Add the score command."""
    p = add_command(sub, "score", "score a board under a scoring system (JSON, two decimals)", EXAMPLE,
                    cmd_score, [])
    p.add_argument("board", nargs="+", metavar="POWER=CENTRES", help="each power's supply centres (others: 0)")
    p.add_argument("--system", required=True, help="none, dss, sos, carnage, c-diplo, manorcon or tribute")
    p.add_argument("--variant", default="standard", help="the map (default standard): its powers and centres")
    p.add_argument("--draw", metavar="POWERS", help="comma-separated powers in the draw (default: every survivor)")
    p.add_argument("--solo", metavar="POWER", help="the power that won outright")
    p.add_argument("--played", action="append", metavar="POWER=YEARS",
                   help="an eliminated power's game years (Carnage ranks, ManorCon scores by them)")
    p.add_argument("--years", type=int, help="game years played (ManorCon scores a solo's other survivors by it)")
