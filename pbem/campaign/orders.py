"""A side's signed administrative orders [campaign §C3-C6], from the command line or by mail.

:func:`check` says every problem of a file (header, step, signature, replay, each line) without changing
anything, so the mail intake answers at once; :func:`take` checks again and records the file in the
campaign's record.  A side's later file replaces its earlier one of the same step (:func:`.admin.resubmit`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbem.core.errors import Code, OrderProblem
from pbem.core.orders import OrderFile
from pbem.journal import dumps
from pbem.store.models import Campaign

from . import admin, definition, record
from .signed import signature_problem

#: The phase an administrative order file's header names (the form fills it in).
PHASE = "admin"


@dataclass
class Checked:
    """What a file would do: the standing after it, its seat and side, and every problem (none: it is taken)."""

    standing: dict[str, Any] | None = None
    seat: str = ""
    side: str = ""
    replaces: bool = False
    problems: list[OrderProblem] = field(default_factory=list)


def _refused(message: str, code: Code = Code.HEADER_BAD, rule: str = "") -> Checked:
    return Checked(problems=[OrderProblem(0, "", code, message, rule)])


def digest(f: OrderFile) -> str:
    return hashlib.sha256(f.text.encode()).hexdigest()


def check(s: Session, c: Campaign, f: OrderFile, signature: str, *, signer_checked: bool = False) -> Checked:
    """Every problem of a side's signed file for the campaign's administrative step (nothing is changed).

    ``signer_checked``: the mail intake has verified the signature against the seat's key already.
    """
    players = json.loads(c.players_json)["players"]
    seat = f.side
    if seat not in players:
        return _refused(f"campaign {c.id} has no seat {seat!r} (seats: {', '.join(sorted(players))})",
                        Code.SEAT_UNKNOWN)
    if not signer_checked:
        why = signature_problem(signature, f.text, players[seat]["fingerprint"])
        if why:
            return _refused(why, Code.SIG_WRONG_KEY)
    if c.status != "admin":
        return _refused(f"campaign {c.id} is not between games (it is {c.status}); administrative orders are "
                        "taken after a game ends and the GM opens the step — its form is mailed to you then",
                        Code.STALE, "campaign §C3-C6")
    st, defn = json.loads(c.standing_json), definition.parse(*_definition(c))
    if f.phase != PHASE or f.header.get("Turn") != str(st["index"]):
        return _refused(f"the header must say Turn: {st['index']} and Phase: {PHASE} (the step after game "
                        f"{st['index']}); a form from another step cannot be used again", Code.STALE)
    sha = digest(f)
    rows = [json.loads(r.payload_json) for r in record.entries(s, c.id) if r.kind == "orders"]
    if any(p.get("sha256") == sha for p in rows):
        # an old file cannot come back after a newer one replaced it: change it and sign it again
        return _refused("these signed orders were already carried out", Code.REPLAY)
    side = players[seat]["side"]
    new, problems = admin.resubmit(st, defn, side, f.lines)
    base = (st.get("admin_base") or {})
    replaces = base.get("index") == st["index"] and side in base.get("sides", {})
    return Checked(new if not problems else None, seat, side, replaces, list(problems))


def _definition(c: Campaign) -> tuple[Any, str]:
    doc = json.loads(c.definition_json)
    return doc["data"], doc["source"]


def take(s: Session, c: Campaign, f: OrderFile, signature: str, now: Any, *, signer_checked: bool = False
         ) -> Checked:
    """Check the file and, with no problem, record it and change the standing (the caller commits)."""
    got = check(s, c, f, signature, signer_checked=signer_checked)
    if got.problems or got.standing is None:
        return got
    record.append(s, c, "orders", {"seat": got.seat, "side": got.side, "text": f.text, "signature": signature,
                                   "sha256": digest(f)}, now)
    c.standing_json = dumps(got.standing)
    s.add(c)
    return got


def answer(c: Campaign, f: OrderFile, got: Checked) -> str:
    """The acknowledgement: what the file will do, and what it leaves to do."""
    st = got.standing or {}
    own = st.get("sides", {}).get(got.side, {})
    did = "\n".join(f"- {line.text}" for line in f.lines) or "- (no orders: your roster stays as it was)"
    again = " It replaces your earlier file of this step." if got.replaces else ""
    chosen = own.get("chosen")
    goes = ", ".join(chosen) if chosen is not None else "every fit or damaged unit, up to the next game's cap"
    return (f"Campaign {c.id}, side {got.side}: your administrative orders for the step after game "
            f"{st.get('index')} are taken.{again} When the GM starts the next game they will have done:\n{did}\n\n"
            f"Recoveries left: {own.get('recovery', 0)}; replacement points left: {own.get('replacements', 0)}.\n"
            f"Into the next game: {goes}.\n"
            "A later signed file replaces this one until the GM starts the next game.\n")


def refusal(got: Checked) -> str:
    return "\n".join((f"line {p.line_no}: {p.text} — " if p.line_no else "") + p.message
                     + (f" [{p.rule}]" if p.rule else "") for p in got.problems)
