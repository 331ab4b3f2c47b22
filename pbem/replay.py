"""``pbem replay``: re-run a game from its seed and journal and compare every byte.

Checks the hash chain, then re-does setup and every resolution from the
stored order texts and the seed, comparing each state hash, the events and
the rolls; then re-renders every sitrep that was sent and compares text,
HTML and picture byte for byte.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any

from sqlmodel import col, select

from pbem.campaign.carry import apply_carried
from pbem.core.dice import Roll
from pbem.core.play import phase_dice, setup_dice
from pbem.core.ruleset import Event
from pbem.journal import GENESIS, entry_hash, events_json, rolls_json, seed_commitment, state_hash, zone_at
from pbem.render import stamp_lang
from pbem.server import Server
from pbem.services.records import entry_dict, get_game, seat_dict
from pbem.services.resolution import stored_orders
from pbem.services.sitreps import RENDERER, build_sitrep
from pbem.store.models import Journal, Seat, Sitrep


@dataclass
class ReplayReport:
    game: str
    entries: int = 0
    sitreps: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def replay(server: Server, game_id: str, progress=None) -> ReplayReport:
    report = ReplayReport(game_id)
    deps = server.deps
    with deps.session() as s:
        game = get_game(s, game_id)
        journal = s.exec(select(Journal).where(Journal.game_id == game_id).order_by(col(Journal.seq))).all()
        sitreps = s.exec(select(Sitrep).where(Sitrep.game_id == game_id).order_by(col(Sitrep.id))).all()
        seats = {x.name: seat_dict(x) for x in s.exec(select(Seat).where(Seat.game_id == game_id)).all()}
    ruleset = deps.ruleset_for(game)
    seed = bytes.fromhex(game.seed_hex)
    check_commitment(game, report)
    prev = GENESIS
    states: dict[int, Any] = {}
    state = None
    events: Sequence[Event]
    rolls: Sequence[Roll]
    for j in journal:
        if progress:
            progress()
        report.entries += 1
        payload = json.loads(j.payload_json)
        if j.prev_hash != prev:
            report.problems.append(f"entry {j.seq}: chain broken (prev {j.prev_hash[:12]} != {prev[:12]})")
        h = entry_hash(j.prev_hash, j.seq, j.kind, j.turn, j.phase, payload, json.loads(j.events_json),
                       json.loads(j.rolls_json), j.state_hash)
        if h != j.hash:
            report.problems.append(f"entry {j.seq}: hash does not match its content")
        prev = j.hash
        if j.kind == "setup":
            state, rolls = set_up(ruleset, payload, seed)
            events = ()
        elif j.kind == "resolve":
            phase = ruleset.phase(state)
            if phase is None or phase.key != payload["phase"]:
                report.problems.append(f"entry {j.seq}: expected phase {payload['phase']}, replay is at "
                                       f"{phase.key if phase else 'game over'}")
                break
            orders = stored_orders(ruleset, state, payload["orders"], payload["missing"])
            dice = phase_dice(seed, phase)
            result = ruleset.resolve(state, orders, dice)
            state, events, rolls = result.state, result.events, dice.rolls
        else:  # start and GM entries carry the state they leave, which replay must reproduce
            events, rolls = (), ()
            if j.kind == "rollback":
                state = ruleset.load(json.loads(j.state_json))
        if _comparable(events_json(events), json.loads(j.events_json)) != json.loads(j.events_json):
            report.problems.append(f"entry {j.seq} ({j.phase}): events differ")
        if _comparable(rolls_json(rolls), json.loads(j.rolls_json)) != json.loads(j.rolls_json):
            report.problems.append(f"entry {j.seq} ({j.phase}): rolls differ")
        if state_hash(ruleset.dump(state)) != j.state_hash:
            report.problems.append(f"entry {j.seq} ({j.phase}): state differs")
        states[j.seq] = state
    if prev != game.journal_head:
        report.problems.append("the game's journal head is not the last entry")
    entries = [entry_dict(j) for j in journal]
    for row in sitreps:
        if progress:
            progress()
        report.sitreps += 1
        if row.seq not in states:
            report.problems.append(f"sitrep {row.id}: no replayed state for entry {row.seq}")
            continue
        # a zone the GM changed later was not the zone this sitrep was written in
        seat = {**seats[row.seat], "tz": zone_at(row.seat, seats[row.seat]["tz"],
                                                 [e["payload"] for e in entries if e["seq"] > row.seq])}
        # each sitrep again in the language it was sent in, which its stamp names
        renderer, lang = stamp_lang(row.renderer)
        built = build_sitrep(ruleset, game, seat, states[row.seq],
                             [e for e in entries if row.from_seq <= e["seq"] <= row.seq], deps.key_fingerprint,
                             lang=lang)
        checks: list[tuple[str, object, object]] = [("view", built.view_json, row.view_json)]
        if renderer == RENDERER:
            checks += [("text", built.text, row.text), ("html", built.html, row.html), ("picture", built.png, row.png)]
        elif f"rendered by {row.renderer}" not in " ".join(report.notes):
            # Templates and the imaging library may change between versions; the game may not.
            report.notes.append(f"sitreps rendered by {row.renderer or 'an earlier version'} are checked by their "
                                f"views only (now {RENDERER})")
        for what, a, b in checks:
            if a != b:
                report.problems.append(f"sitrep {row.id} ({row.seat}, entry {row.seq}): {what} differs")
    return report


def set_up(ruleset: Any, payload: dict[str, Any], seed: bytes) -> tuple[Any, Sequence[Roll]]:
    """The set-up state again, with the units a campaign put in (pbem.campaign.chain), and its rolls."""
    dice = setup_dice(seed)
    state = ruleset.setup(payload["scenario"], payload["options"], dice)
    if "carried" in payload:
        state = apply_carried(ruleset, state, payload["carried"])
    return state, dice.rolls


def check_commitment(game, report: ReplayReport) -> None:
    """The seed the rolls come from is the one every sitrep committed to."""
    salt = bytes.fromhex(game.seed_salt or "")
    if seed_commitment(bytes.fromhex(game.seed_hex), salt) != game.seed_commitment:
        report.problems.append("the seed and salt do not match the seed commitment every sitrep showed")
    elif not salt:
        report.notes.append("the seed commitment is unsalted (the game was made before pbem salted them)")


def _comparable(got: list[dict[str, Any]], kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replayed events or rolls as an entry written before rule texts kept their messages (``msg``) would hold them:
    the English text is what such an entry can be checked against."""
    if any("msg" in e for e in kept):
        return got
    return [{k: v for k, v in e.items() if k != "msg"} for e in got]
