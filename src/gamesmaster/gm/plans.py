"""Conditional plans on the record: kept in entries of their own, sealed on the public record until every
phase they name is published.

A set of orders with a conditional part (`next season: if A Mun - Bur succeeds: ...`) is
recorded as two entries: `plan-filed` (the conditional text, the phases it names, a salt
of its own) and then `orders-submitted`, whose payload says `"plan": DIGEST` (the SHA-256
of the plan-filed entry's payload) instead of the text, and whose commitment is over
`"conditional": "plan sha256:DIGEST"`. At the deadline the plans of the sets used are read
into `plan-read` entries (one a power), recorded just before the results. The public
record shows the submission and the results once its phase is published, but seals both
plan entries (their digest stays in the chain, so the chain, the commitment and the
receipt still check) until every phase the plan names is published, or passed over, or
the game is over; then they are shown like any entry, and `verify` replays them.

Records written before plans had entries of their own keep the text in the submission
and the read plans in the results (`plans`); both are still read.
"""

from __future__ import annotations

from typing import Mapping, Sequence, TypedDict

from ..ledger import Entry, JSONObject, new_salt
from ..rules import Phase
from ..rules.conditional import order_key
from ..store import Records
from .tx import Transaction
from .events import PUBLISHED, EventKind, PlanFiled, PlanRead, kinds

PLAN_KINDS = kinds(PlanFiled, PlanRead)
_REFERENCE = "plan sha256:"


class Plan(TypedDict):
    """A power's conditional orders as read at the deadline of the phase they were filed with."""

    filed: int  # the orders-submitted entry
    sections: list[JSONObject]  # rules.conditional.Section.to_dict(), one for each later phase
    problem: str | None


def reference(digest: str) -> str:
    """What a submission with a plan commits to in place of the plan's text: its entry's payload digest."""
    return _REFERENCE + digest


def committed_conditional(p: Mapping[str, object]) -> str | None:
    """The conditional part a submission's commitment is over: its text (older records) or its plan's digest."""
    plan = p.get("plan")
    if isinstance(plan, str):
        return reference(plan)
    conditional = p.get("conditional")
    return conditional if isinstance(conditional, str) else None


def file_plan(tx: Transaction, power: str, number: int, text: str, names: Sequence[str]) -> str:
    """Record a plan filed with a power's set `number` of the current phase; returns its digest (what the
    set then records and commits to)."""
    entry = tx.record(PlanFiled(phase=tx.state.phase or "", power=power, number=number, conditional=text,
                                names=tuple(sorted(set(names), key=_key)), salt=new_salt()))
    return entry.payload_digest


def record_read(tx: Transaction, phase: str, plans: Mapping[str, Plan]) -> None:
    """Record each power's plan as read at the deadline of `phase`, one entry a power, before the results."""
    for power, plan in sorted(plans.items()):
        names = sorted({str(s["phase"]) for s in plan["sections"]}, key=_key)
        tx.record(PlanRead(phase=phase, power=power, names=tuple(names),
                           plan={"filed": plan["filed"], "sections": list(plan["sections"]), "problem": plan["problem"]}))


def plan_text(rec: Records, game_id: str, submission: Entry) -> str | None:
    """The conditional text filed with a submission (in its plan-filed entry, or in the submission itself)."""
    p = submission.payload
    if p is None:
        return None
    conditional: str | None
    if not isinstance(p.get("plan"), str):
        conditional = p.get("conditional")
        return conditional
    filed = rec.entry(game_id, submission.seq - 1)
    if filed is None or filed.kind != EventKind.PLAN_FILED or filed.payload is None or filed.payload_digest != p["plan"]:
        return None
    conditional = filed.payload.get("conditional")
    return conditional


def sealed_plans(entries: Sequence[Entry]) -> set[int]:
    """The plan entries of a public copy that stay sealed: some phase they name is not yet published."""
    frontier = None
    for e in entries:
        if e.kind in PUBLISHED and e.payload is not None:
            frontier = order_key(Phase.parse(e.payload["next"]["phase"]))
        elif e.kind == EventKind.GAME_ENDED:
            return set()  # the game is over: what was planned for phases never played is history
    out = set()
    for e in entries:
        if e.kind not in PLAN_KINDS or e.payload is None:
            continue
        names = [order_key(Phase.parse(n)) for n in e.payload.get("names") or ()]
        filed = order_key(Phase.parse(e.payload["phase"]))
        if frontier is None or max(names, default=filed) >= frontier or filed >= frontier:
            out.add(e.seq)
    return out


SEALED_WORDS = "conditional orders (sealed until every phase they name is published)"


def _names(names: Sequence[str]) -> str:
    return ", ".join(Phase.parse(n).title for n in names) or "no phase"


def describe_filed(ev: PlanFiled) -> str:
    """One line saying what a plan filed records."""
    return f"{ev.power} filed conditional orders with set #{ev.number} for {_names(ev.names)}: " + \
        " / ".join(ev.conditional.splitlines())[:200]


def describe_read(ev: PlanRead) -> str:
    """One line saying what a plan read at a deadline records."""
    problem = ev.plan.get("problem")
    return f"{ev.power}'s conditional orders read at the {ev.phase} deadline, for {_names(ev.names)}" + \
        (f" (not usable: {problem})" if problem else "")


def _key(tag: str) -> tuple[int, int, int]:
    return order_key(Phase.parse(tag))
