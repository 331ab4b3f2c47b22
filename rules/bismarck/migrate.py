"""Reading a position stored before the game sat on the kit (games in progress, journal entries).

Such a dump keeps ``step``, ``standing`` (per side, its lines) and ``pending`` (a tuple of words:
``doctrine <sides> ENGAGE ... RELEASE ...`` or ``convoy <unit> <convoy>``) where today's state keeps the
kit's Flow.  :func:`upgrade` turns it into today's form; the game then plays on as the old code would.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.flow import Flow
from pbem.core.interrupts import Ask, Pending
from pbem.core.standing import Standing

from .events import CONVOY_QUESTION
from .game import DOCTRINE_QUESTION
from .verbs import standing_key
from .work import SIDES


def upgrade(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` in today's form (a copy; unchanged when it already has a ``flow``)."""
    if "flow" in doc:
        return dict(doc)
    doc = dict(doc)
    step, standing, pending = doc.pop("step"), doc.pop("standing", ()), doc.pop("pending", ())
    kept = pending_of(pending) if pending else None
    # the old phase key counted turns from the scenario's start; today flow.turn holds that count
    flow = Flow(step, doc["turn"] - doc["start"] + 1, 1 if kept else 0, kept, store_of(standing))
    doc["flow"] = flow.dump()
    return doc


def store_of(standing: Sequence[Sequence[Any]]) -> Standing:
    """The old per-side lines (at most one per key: a new line replaced its key's old one) in the kit's store."""
    store = Standing()
    for side, lines in standing:
        for line in lines:
            store, _ = store.set(side, standing_key(line.split()), line)
    return store


def pending_of(words: Sequence[str]) -> Pending:
    """The old interrupted decision as the continuation today's ``doctrine`` / ``convoy`` step resumes."""
    if words[0] == "convoy":
        _, unit, convoy = words
        return Pending("convoy", (Ask("german", "convoy", CONVOY_QUESTION, "IGNORE", ("ATTACK", "IGNORE")),),
                       {"unit": unit, "convoy": convoy})
    if words[0] != "doctrine":
        raise ValueError(f"an old Bismarck position pending {words[0]!r}: no such interrupt")
    calls: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    release = []
    for item in words[2:]:
        w = item.split()
        if w[0] == "RELEASE":
            release.append(w[1])
        else:  # ENGAGE <side> <contact> <unit or -> [<condition words>]
            calls[w[1]].append(call_of(w[2], None if w[3] == "-" else w[3], w[4:]))
    asks = tuple(Ask(side, f"doctrine {side}", DOCTRINE_QUESTION, "CLOSE") for side in words[1].split(","))
    return Pending("doctrine", asks, {"calls": calls, "release": release})


def call_of(contact: str, unit: str | None, cond: Sequence[str]) -> dict[str, Any]:
    """One kept combat call in today's JSON (:func:`.naval.calls_json`); the old condition came after the
    call as ``PREVIOUS <result>`` or ``<ship> AFLOAT|SUNK``, today's is ``IF PREVIOUS <result>`` or
    ``IF AFLOAT|SUNK <ship>``."""
    call = {"contact": contact, "unit": unit}
    if not cond:
        return {"call": call}
    when = list(cond) if cond[0] == "PREVIOUS" else [cond[1], cond[0]]
    return {"if": when, "then": call, "else": None}
