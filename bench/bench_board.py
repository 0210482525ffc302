"""Benchmark: the analysis board's answer time in Chromium, from a tap to the drawn result (target: under 100 ms).

The site runs on a loopback port (uvicorn in a thread, as the tests serve it) and Debian's
Chromium opens `/board` on the standard map at 1366x768, or at 375x812 as a touch screen.
Each step taps a unit, then the space it should move to (a click event on the unit's mark and
on the space's shape, wherever on the screen they are: the middle of a space's box is not
always in it, Denmark's is in the Skagerrak): the order goes into the board, the
page asks /api/board and draws what comes back (the map with every order and its outcome,
the results, the next position's map). The time is taken in the page, from the tap's click
event to the frame after the last of it is drawn (a requestAnimationFrame, then a task).
The steps order every unit of the board in turn to one space, then to another, so that no
board is asked twice (no answer comes from the site's cache of drawn maps).

    .venv/bin/python bench/bench_board.py [--rounds 2] [--phone]

It prints each step's time, the median, the 90th percentile and the slowest; nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from sitetools import chromium, serving  # noqa: E402

from gamesmaster.gm import Gamesmaster  # noqa: E402
from gamesmaster.store import Store  # noqa: E402
from gamesmaster.web.app import create_app  # noqa: E402
from gamesmaster.web.security import SiteSecrets  # noqa: E402

# Each unit's two moves in Spring 1901, no space named twice (a space another unit is
# already ordered into would offer the support first instead of adding the move).
MOVES = {"PAR": ("BUR", "PIC"), "MAR": ("GAS", "PIE"), "BRE": ("MAO", "ENG"), "MUN": ("RUH", "TYR"),
         "BER": ("PRU", "SIL"), "KIE": ("DEN", "HOL"), "LON": ("NTH", "WAL"), "EDI": ("NWG", "CLY"),
         "VEN": ("APU", "TUS"), "NAP": ("ION", "TYS"), "VIE": ("GAL", "BOH"), "BUD": ("SER", "RUM"),
         "TRI": ("ALB", "ADR"), "WAR": ("UKR", "LVN"), "SEV": ("BLA", "ARM"), "STP": ("BOT", "FIN")}
WATCH = """() => {
  window.__times = [];
  document.getElementById("map").addEventListener("click", () => { window.__t0 = performance.now(); }, true);
  document.addEventListener("orders-answered", () => requestAnimationFrame(() => setTimeout(() => {
    window.__times.push(performance.now() - window.__t0);
  }, 0)));
}"""


def run(rounds: int, phone: bool) -> list[float]:
    """The answer time of each tap, in milliseconds."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'gm.db'}")
        with serving(create_app(Gamesmaster(store), SiteSecrets.for_testing("gm.bench-credential-0123456789"))) as base, \
                chromium() as browser:
            size = {"width": 375, "height": 812} if phone else {"width": 1366, "height": 768}
            context = browser.new_context(viewport=size, base_url=base, has_touch=phone, is_mobile=phone,
                                          device_scale_factor=1)
            page = context.new_page()
            page.goto("/board")
            page.evaluate(WATCH)
            done = 0
            for r in range(rounds):
                for unit, dests in MOVES.items():
                    page.locator(f'#map g.unit[data-province="{unit}"]').dispatch_event("click")
                    page.locator(f'#map path.space[data-province="{dests[r % 2]}"]').dispatch_event("click")
                    done += 1
                    try:
                        page.wait_for_function(f"window.__times.length >= {done}", timeout=10000)
                    except Exception:
                        sys.exit(f"no answer to {unit} - {dests[r % 2]}: {page.inner_text('#hint')!r}")
            times: list[float] = page.evaluate("window.__times")
            context.close()
        store.dispose()
    return times


def main() -> None:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--phone", action="store_true", help="375x812, a touch screen (default 1366x768)")
    args = ap.parse_args()
    times = run(args.rounds, args.phone)
    print("each tap, ms:", " ".join(f"{t:.0f}" for t in times))
    ordered = sorted(times)
    print(f"{len(times)} taps: median {statistics.median(times):.1f} ms, "
          f"90th percentile {ordered[int(0.9 * (len(ordered) - 1))]:.1f} ms, slowest {ordered[-1]:.1f} ms")


if __name__ == "__main__":
    main()
