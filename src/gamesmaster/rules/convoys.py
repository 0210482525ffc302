"""Convoy routes: which chains of fleets at sea join two coastal provinces."""

from __future__ import annotations

from typing import Callable, Iterable

from .geography import Map


def _as_set(seas: Iterable[str]) -> set[str] | frozenset[str]:
    # The callers pass the board's whole set of fleets: copying it per call would make
    # the cost grow with the square of the board.
    return seas if isinstance(seas, (set, frozenset)) else set(seas)


def sea_route_exists(board: Map, src: str, dest: str, seas: Iterable[str], exclude: str | None = None) -> bool:
    """Whether the given seas (less `exclude`) hold a chain of adjacent spaces from src to dest."""
    seas = _as_set(seas)
    frontier = [s for s in board.sea_neighbours(src) if s in seas and s != exclude]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        neighbours = board.sea_neighbours(sea)
        if dest in neighbours:
            return True
        for nxt in neighbours:
            if nxt in seas and nxt != exclude and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False


def routes(board: Map, src: str, dest: str, seas: Iterable[str], limit: int = 64) -> list[tuple[str, ...]]:
    """Every minimal chain of seas (no shortcut inside it) from src to dest.

    A fleet lies on such a chain exactly when it is necessary for some convoy route
    (DATC 4.E.1, test case 6.G.19). The number of chains is capped: only whether a
    fleet lies on any of them matters, and real boards never come near the cap.
    """
    seas = _as_set(seas)
    found: list[tuple[str, ...]] = []
    near_src = board.sea_neighbours(src)

    def extend(path: list[str]) -> None:
        if len(found) >= limit:
            return
        last = path[-1]
        last_neighbours = board.sea_neighbours(last)
        if dest in last_neighbours:
            found.append(tuple(path))
            return
        for nxt in sorted(last_neighbours & seas):
            if nxt in path or nxt in near_src:
                continue
            nxt_neighbours = board.sea_neighbours(nxt)
            # A chain with a shortcut is not minimal: skip seas touching earlier links.
            if any(p in nxt_neighbours for p in path[:-1]):
                continue
            path.append(nxt)
            extend(path)
            path.pop()

    # extend() stops at the first sea touching dest, so only the last link touches it.
    for first in sorted(near_src & seas):
        extend([first])
    return found


def route_through(board: Map, src: str, dest: str, seas: Iterable[str],
                  usable: Callable[[str], bool]) -> bool:
    """Whether a chain from src to dest exists using only seas for which usable() holds."""
    return sea_route_exists(board, src, dest, [s for s in seas if usable(s)])
