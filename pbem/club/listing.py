"""What `pbem players` and `pbem ratings` show, and the GM's club commands that are not a player's (void)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlmodel import select

from pbem.club import ratings as R
from pbem.club.players import identities, profile, sync
from pbem.club.reliability import blank, reliability
from pbem.services.records import ServerError, append_entry, found
from pbem.services.wiring import Services
from pbem.store.claim import claim_game
from pbem.store.models import Player



def players(sv: Services, seat_rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The players as `pbem players` lists them (``seat_rows`` from :meth:`Queries.players`), one per player:
    a key replaced by NEWKEY is listed under the player's current key (``keys`` names the earlier ones),
    with the player's club record, stored ratings as shown today, and reliability."""
    deps = sv.deps
    now = deps.clock()
    with deps.session() as s:
        sync(s, now)
        s.commit()
        ids = identities(s)
        club = {p.fingerprint: p for p in s.exec(select(Player)).all()}
    stored = R.stored(deps)
    record = reliability(deps)
    merged: dict[str, dict[str, Any]] = {}
    for row in seat_rows:
        fp = ids.get(row["fingerprint"], row["fingerprint"])
        p = merged.setdefault(fp, {"fingerprint": fp, "emails": [], "zones": [], "seats": [], "keys": []})
        if row["fingerprint"] != fp and row["fingerprint"] not in p["keys"]:
            p["keys"].append(row["fingerprint"])
        p["emails"] += [e for e in row["emails"] if e not in p["emails"]]
        p["zones"] += [z for z in row["zones"] if z not in p["zones"]]
        p["seats"] += row["seats"]
    for fp, p in merged.items():
        p["player"] = profile(club[fp]) if fp in club else {}
        p["ratings"] = {x["scope"]: R.current(x, now) for x in stored if x["fingerprint"] == fp}
        p["reliability"] = record.get(fp, blank())
        p["seats"].sort(key=lambda x: (x["game"], x["side"]))
    return sorted(merged.values(), key=lambda p: ((p["emails"] or [""])[0].lower(), p["fingerprint"]))


def club_lines(p: Mapping[str, Any]) -> list[str]:
    """The lines `pbem players` prints under a player's key line: name, ratings, reliability."""
    lines = []
    me = p.get("player") or {}
    if me:
        lines.append(f"    name {me['name']}" + (f" ({me['kind']})" if me["kind"] != "human" else "")
                     + (f", earlier keys: {', '.join(p['keys'])}" if p.get("keys") else ""))
    for scope, r in sorted(p.get("ratings", {}).items(), key=lambda x: (x[0] != R.OVERALL, x[0])):
        mark = "?" if r["provisional"] else ""
        lines.append(f"    rating {scope}: {r['rating']:.1f}{mark}  (mu {r['mu']:.2f}, sigma {r['sigma']:.2f}, "
                     f"{r['games']} game(s){', provisional' if r['provisional'] else ''})")
    rel = p.get("reliability")
    if rel and (rel["phases"] or rel["abandoned"]):
        lines.append(f"    reliability {rel['score']:.1f}%: {rel['phases']} phase(s), missed {rel['missed']} "
                     f"({rel['excused']} excused), late {rel['late']} ({rel['hours_late']:g} h), "
                     f"abandoned {rel['abandoned']}, completed {rel['completed']}")
    return lines


def ratings_table(sv: Services, scope: str = R.OVERALL) -> list[str]:
    """The stored ratings of one scope, best first (by the conservative estimate), players only."""
    now = sv.deps.clock()
    with sv.deps.reader() as s:
        club = {p.fingerprint: p for p in s.exec(select(Player)).all()}
    record = reliability(sv.deps)
    rows = [(x, R.current(x, now)) for x in R.stored(sv.deps)
            if x["scope"] == scope and not x["fingerprint"].startswith("side:")]
    rows.sort(key=lambda r: (-r[1]["rating"], r[0]["fingerprint"]))
    lines = [f"{'#':>3}  {'PLAYER':<24} {'RATING':>8} {'MU':>6} {'SIGMA':>6} {'GAMES':>5}  {'RELIABLE':>8}  KEY"]
    for n, (x, cur) in enumerate(rows, 1):
        p = club.get(x["fingerprint"])
        name = (p.name or p.email) if p else "?"
        rel = record.get(x["fingerprint"], blank())
        score = rel.get("score", 100.0)
        lines.append(f"{n:>3}  {name[:24]:<24} {cur['rating']:>7.1f}{'?' if cur['provisional'] else ' '} "
                     f"{cur['mu']:>6.2f} {cur['sigma']:>6.2f} {cur['games']:>5}  {score:>7.1f}%  {x['fingerprint']}")
    return lines if rows else [f"no ratings in scope {scope!r} (the daemon computes them when a rated game ends; `pbem ratings --update` now)"]


def void(sv: Services, game_id: str, reason: str, by: str = "the GM") -> str:
    """Void a finished game for the ratings: a journal entry, so that every recomputation leaves it out."""
    if not reason.strip() or len(reason) > 2000:
        raise ServerError("say why the game is voided (at most 2000 characters)")
    with sv.deps.session() as s:
        game = found(claim_game(s, game_id), game_id)
        if game.status not in ("over", "archived"):
            raise ServerError(f"game {game_id} is {game.status}; only a finished game is voided (end it first)")
        ruleset, state = sv.states.load(game)
        payload = {"command": "VOID", "by": by, "text": reason, "notices": [f"{by} voided the game: {reason}"]}
        append_entry(s, game, "gm", payload, ruleset.dump(state), sv.deps.clock())
        sv.states.remember(game, state)
        s.commit()
    return f"voided {game_id} for the ratings: {reason} (the daemon's next pass recomputes them; `pbem ratings --update` now)"


def scopes(sv: Services) -> list[str]:
    return sorted({x["scope"] for x in R.stored(sv.deps)}, key=lambda x: (x != R.OVERALL, x))


__all__ = ["club_lines", "players", "ratings_table", "scopes", "void"]
