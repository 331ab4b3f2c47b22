"""Reading a position stored before the game sat on the kit (games in progress, journal entries).

Such a dump keeps ``step``, ``stage``, ``policies`` (unit, kind, value) and ``pending`` (the JSON of a
combat phase paused for an interrupt window) where today's state keeps the kit's Flow.  :func:`upgrade`
turns it into today's form; the game then plays on as the old code would.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.flow import Flow
from pbem.core.interrupts import Ask, Pending
from pbem.core.standing import Standing

from .orders import Policy


def upgrade(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` in today's form (a copy; unchanged when it already has a ``flow``)."""
    doc = dict(doc)
    if "flow" in doc:
        return doc
    step, stage = doc.pop("step", "setup"), doc.pop("stage", 0)
    policies, pending = doc.pop("policies", ()), doc.pop("pending", "")
    kept = pending_of(step, json.loads(pending)) if pending else None
    doc["flow"] = Flow(step, stage, 1 if kept else 0, kept, store_of(doc, policies)).dump()
    return doc


def store_of(doc: Mapping[str, Any], policies: Sequence[Sequence[str]]) -> Standing:
    """The old (unit, kind, value) rows in the kit's store, each under the seat that commands the unit."""
    owner = {u["id"]: u["seat"] for u in [*doc["aircraft"], *doc["guns"]]}
    store = Standing()
    for unit, kind, value in policies:
        store, _ = store.change(owner[unit], Policy(unit, kind, value))
    return store


def pending_of(step: str, old: Mapping[str, Any]) -> Pending:
    """The paused combat phase as the continuation today's ``gb-react`` / ``de-react`` step resumes: one
    ask per aircraft with a target on its line of fire, HOLD on silence [R 5.4, G-31]."""
    asks = tuple(Ask(x["seat"], x["ac"], f"{x['ac']}: fire at {x['target']}?", "HOLD", ("FIRE", "HOLD"))
                 for x in old["asks"])
    # the old actions were already {"verb": ..., <the action's fields>}, today's action_data form
    return Pending(step, asks, {"phasing": old["phasing"], "actions": old["orders"]["actions"],
                                "reactions": old["asks"]})
