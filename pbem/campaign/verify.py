"""``pbem campaign replay``: the campaign's record folded again, every game replayed, every link checked.

For each entry, in order: its hash chain; ``new`` sets up the standing; ``game`` checks the game's set-up
link (the campaign, place and slot; the previous game's final journal head; the campaign's head before it;
the carried units and their hash against the standing folded so far; the server's signature) and replays
the game byte for byte (:func:`pbem.replay.replay`); ``result`` reads the finished game's journal again and
must find the same rosters, levels and outcome; ``orders`` must carry its player's signature and still be
accepted; ``gm`` edits apply again.  The folded standing must be the stored one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pbem.club.results import JournalError, entries as game_entries
from pbem.core.orders import parse_order_file
from pbem.crypto import sshsig
from pbem.journal import GENESIS
from pbem.replay import replay
from pbem.store.models import Game

from . import admin, chain, definition, record
from .carry import after_game, final
from .signed import signature_problem
from .standing import carried, gm_edit, initial


@dataclass
class CampaignReplay:
    campaign: str
    games: list[str] = field(default_factory=list)
    entries: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def replay_campaign(service: Any, cid: str) -> CampaignReplay:
    """``service`` is the :class:`~pbem.campaign.service.Campaigns` whose record is checked."""
    report = CampaignReplay(cid)
    deps = service.deps
    server_key = sshsig.public_key_of(deps.key)
    with deps.reader() as s:
        c = service._get(s, cid)
        rows = record.entries(s, cid)
        report.entries = len(rows)
        report.problems += record.chain_problems(rows)
        if rows and rows[-1].hash != c.head:
            report.problems.append("the campaign's head is not its last entry")
        st: dict[str, Any] = {}
        defn = None
        players: dict[str, Any] = {}
        prev_game = ""
        for row in rows:
            p = json.loads(row.payload_json)
            where = f"campaign entry {row.seq} ({row.kind})"
            if row.kind == "new":
                defn = definition.parse(p["definition"], p["source"])
                st, players = initial(defn, tuple(p["sides"])), p["players"]
            elif defn is None:
                report.problems.append(f"{where}: before the campaign's first entry")
                break
            elif row.kind == "game":
                report.games.append(p["game"])
                report.problems += _check_link(s, deps, server_key, cid, row, p, st, defn, prev_game)
                game_report = replay(service.server, p["game"])
                report.problems += [f"game {p['game']}: {x}" for x in game_report.problems]
                st["index"] = p["index"]
            elif row.kind == "result":
                try:
                    again = service._game_result(s, p["game"], tuple(st["sides"]))
                except JournalError as exc:
                    report.problems.append(f"{where}: {exc}")
                    again = p
                for key in ("head", "levels", "rosters", "outcome"):
                    if again[key] != p[key]:
                        report.problems.append(f"{where}: the {key} recorded differs from game {p['game']}'s journal")
                st = after_game(st, defn, p["game"], p["rosters"], p["levels"], p["outcome"])
                prev_game = p["game"]
            elif row.kind == "orders":
                why = signature_problem(p["signature"], p["text"], players.get(p["seat"], {}).get("fingerprint", ""))
                if why:
                    report.problems.append(f"{where}: {why}")
                parsed, _ = parse_order_file(p["text"])
                st, problems = admin.resubmit(st, defn, p["side"], parsed.lines if parsed else ())
                report.problems += [f"{where}: line {x.line_no} would be refused: {x.message}" for x in problems]
            elif row.kind == "gm":
                try:
                    st = gm_edit(st, p["side"], p["words"])
                except ValueError as exc:
                    report.problems.append(f"{where}: {exc}")
            elif row.kind == "end":
                st = {**st, "over": True, "result": final(st)}
        if st and st != json.loads(c.standing_json):
            report.problems.append("the stored standing differs from the one its entries give")
    return report


def _check_link(s: Any, deps: Any, server_key: sshsig.PublicKey, cid: str, row: Any, p: dict[str, Any],
                st: dict[str, Any], defn: Any, prev_game: str) -> list[str]:
    """The game's set-up entry commits to the previous game, the campaign so far, and what was carried."""
    game = s.get(Game, p["game"])
    if game is None:
        return [f"game {p['game']} is missing"]
    try:
        rows = game_entries(s, p["game"])
        prev_head = game_entries(s, prev_game)[-1].hash if prev_game else GENESIS
    except JournalError as exc:
        return [str(exc)]
    setup = json.loads(rows[0].payload_json)
    link, take = setup.get("campaign") or {}, setup.get("carried")
    name = f"game {p['game']}"
    out = []
    expected = carried(st, defn)
    want = {"campaign": cid, "index": p["index"], "slot": st["slot"], "previous_game": prev_game,
            "previous_head": prev_head, "campaign_head": row.prev_hash,
            "carried_hash": chain.carried_hash(st, expected)}
    out += [f"{name}: its set-up link's {k} is {link.get(k)!r}, the campaign gives {v!r}"
            for k, v in want.items() if link.get(k) != v]
    if take != expected:
        out.append(f"{name}: the units carried into its set-up differ from the campaign's standing")
    why = chain.verify_link(server_key, link)
    if why:
        out.append(f"{name}: {why}")
    return out
