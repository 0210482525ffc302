"""The clock: processing at the deadline (or now), the deadline worker's claims, extend, pause, resume."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from ..store import Records
from . import limits
from .adjudicating import close_phase, early_due, run_early
from .desk import Desk
from .errors import GMError
from .games import deadline_text
from .settings import show_time
from .tx import Transaction, state_of
from .views import Processed
from .events import Extended, Paused, Resumed

CLAIM = 4  # games claimed (and committed) together by a worker
log = logging.getLogger(__name__)

# The latest deadline anyone may set: a game is played by people, not by their grandchildren.
LATEST_YEAR = 2200


class Deadlines:
    """Deadlines and the processing of phases when they are due."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def process(self, game_id: str, *, force: bool = False) -> list[Processed]:
        """Process a game's phase if it is due (or at once with force); then any phase due early."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status != "active" and not (force and state.status == "paused"):
                raise GMError(f"{game_id} is {state.status}: nothing to process")
            due = state.deadline_at is not None and state.deadline_at <= tx.now
            if not (force or due or early_due(state)):
                raise GMError(f"{game_id}: {state.position.phase.title} is not due until {deadline_text(state)} "  # type: ignore[union-attr]
                              "(process it now with force / --now)")
            done = [close_phase(tx, "deadline" if due else "gm" if force else "early")]
            return done + run_early(tx)

    def process_due(self, limit: int | None = None) -> list[Processed]:
        """Process every game whose deadline has passed (each at most once a pass).

        Games are claimed a few at a time, each processed in a savepoint of its own, and the
        claim committed once: a broken game is rolled back alone and skipped, and the others
        pay for one commit between them. On PostgreSQL the claim is SELECT ... FOR UPDATE SKIP
        LOCKED, so workers in other processes take other games and never the same phase
        twice; a worker that dies before its commit leaves its games as they were, for the
        next claim."""
        done: list[Processed] = []
        skip: list[str] = []  # games this pass must not claim again: broken, or processed and still due
        while limit is None or len(done) < limit:
            now = self._desk.now()
            batch = CLAIM if limit is None else max(1, min(CLAIM, limit - len(done)))
            with self._desk.store.connect() as conn:
                rec = Records(conn, self._desk.store.is_postgresql)
                rows = rec.claim_due(now, skip=skip, count=batch)
                if not rows:
                    break
                for row in rows:
                    try:
                        with conn.begin_nested():
                            tx = Transaction(rec, row.id, now, known=state_of(row), hooks=self._desk.hooks)  # the claim read the row
                            processed = [close_phase(tx, "deadline"), *run_early(tx)]
                            tx.finish()
                    except Exception:  # one broken game must not stop the others
                        log.exception("processing %s failed; it is skipped in this pass", row.id)
                        skip.append(row.id)
                        continue
                    done.extend(processed)
                    if tx.state.status == "active" and tx.state.deadline_at is not None and tx.state.deadline_at <= now:
                        skip.append(row.id)
        return done

    def extend(self, game_id: str, *, hours: float | None = None, until: datetime | None = None,
               reason: str = "") -> datetime:
        """Move the deadline later by hours, or to a given time; every player is told."""
        reason = limits.reason(reason)
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status != "active":
                raise GMError(f"{game_id} is {state.status}: there is no running deadline to extend"
                              + (" (resume it with a new deadline instead)" if state.status == "paused" else ""))
            if (hours is None) == (until is None):
                raise GMError("extend by a number of hours or to a time, one of the two")
            old = state.deadline_at
            if old is None:
                raise GMError(f"{game_id} has no deadline running in {state.phase}: it waits for the GM "
                              "(removals to choose, or a live game's read-out); there is nothing to extend")
            if hours is not None and not 0 < hours <= 24 * 366:
                raise GMError(f"extend by more than 0 hours and at most a year, not {hours:g}")
            new = _later(old, hours) if hours is not None else until
            assert new is not None
            _check_deadline(new, tx.now, state.settings.schedule.tz)
            tx.record(Extended(phase=state.phase, old=old.isoformat(), new=new.isoformat(), reason=reason))
            tx.notice(f"The deadline for {state.position.phase.title} is extended to {deadline_text(tx.state)}"  # type: ignore[union-attr]
                      + (f": {reason}" if reason else "."))
            return new

    def pause(self, game_id: str, reason: str = "") -> None:
        """Stop the clock: the time left is kept until the game is resumed."""
        reason = limits.reason(reason)
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status != "active":
                raise GMError(f"{game_id} is {state.status}, not running: it cannot be paused")
            deadline = state.deadline_at
            left = max(0.0, (deadline - tx.now).total_seconds()) if deadline else None
            tx.record(Paused(phase=state.phase, remaining_seconds=left, reason=reason))
            tx.notice("The game is paused" + (f": {reason}" if reason else ".") +
                      " The deadline will be set again when it resumes.")

    def resume(self, game_id: str, *, until: datetime | None = None, reason: str = "") -> datetime:
        """Start the clock again: the time that was left, or a new deadline."""
        reason = limits.reason(reason)
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status != "paused":
                raise GMError(f"{game_id} is {state.status}, not paused")
            if until is not None:
                deadline = until
                _check_deadline(deadline, tx.now, state.settings.schedule.tz)
            else:
                left = state.paused_remaining
                deadline = tx.now + timedelta(seconds=left if left is not None else 0)
                if deadline < tx.now + timedelta(hours=1):
                    deadline = tx.now + timedelta(hours=1)
            tx.record(Resumed(phase=state.phase, deadline=deadline.isoformat(), reason=reason))
            tx.notice(f"The game resumes: orders for {state.position.phase.title} are due {deadline_text(tx.state)}"  # type: ignore[union-attr]
                      + (f" ({reason})." if reason else "."))
            return deadline


def _later(old: datetime, hours: float) -> datetime:
    try:
        return old + timedelta(hours=hours)
    except OverflowError:
        raise GMError(f"extending by {hours:g} hours goes past any date this gamesmaster keeps") from None


def _check_deadline(new: datetime, now: datetime, tz: str) -> None:
    """A new deadline must have a zone, be in the future, and not absurdly far."""
    if new.tzinfo is None:
        raise GMError("the new deadline must have a time zone")
    if new <= now:
        raise GMError(f"the new deadline {show_time(new, tz)} has already passed")
    if new.year > LATEST_YEAR:
        raise GMError(f"the new deadline {new.date().isoformat()} is too far off: give a date before {LATEST_YEAR}")
