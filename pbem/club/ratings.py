"""Ratings anyone can recompute: OpenSkill's Weng-Lin Plackett-Luce model over the results the journals prove.

The model
    Each player has a Gaussian skill (``mu``, ``sigma``).  A game is a ranking of teams, one team per side:
    the winning side first, the others tied behind it; a draw ties every side.  Plackett-Luce (OpenSkill's
    default model, from Weng & Lin 2011) rates any number of teams of any size, uneven ones included (a
    two-against-one Sky of WWII game, or Wing Leader with several players a side), which Glicko-2, built for
    one against one, cannot.  A team's strength is the sum of its members' ``mu``.

Sides are asymmetric
    Scenarios are rarely balanced, so every team also holds a virtual player, the *side*
    ``side:RULESET/SCENARIO/SIDE``, rated like any player from every game in which that side was played.
    Its ``mu`` is an additive bias on the team's strength: when the Axis of a scenario wins most games,
    the Axis side's ``mu`` rises, winning with the Axis there earns less, losing with the Allies costs less.
    All sides start level; since every team holds exactly one side, only the differences between the sides
    of one scenario matter (`pbem ratings --sides` shows each side against the mean of its scenario).
    The side starts more certain than a player (:data:`PARAMETERS` ``side_sigma``), so that one early result
    is not all blamed on the scenario, and its uncertainty does not grow with time (a scenario does not
    forget).  Players of one team share the team's surprise in proportion to their variance, as Weng-Lin do.

Per ruleset and overall
    The same results are rated twice: once all together (scope ``overall``) and once per ruleset
    (scope the ruleset's name).  A rating is provisional until its player has played
    ``provisional_games`` rated games in that scope.

Inactivity
    Before each game a player's ``sigma`` grows with the days since their last rated game in the scope:
    ``sigma' = min(sigma0, sqrt(sigma^2 + c^2 * days))`` with ``c`` = ``inactivity_per_day`` (about a year
    away brings a settled rating back near a newcomer's uncertainty).  What is shown today adds the days
    since the last game the same way; what is stored is the value right after the last game, so that a
    recomputation from the journals reproduces it whatever the day.

Anyone can recompute
    :func:`export` writes the inputs (every rated result from the journals, with its journal's head hash,
    the parameters, the library's name and version) and the stored ratings; :func:`compute` turns those
    inputs into ratings deterministically (results in order of end time, then game id; players and sides
    in sorted order); :func:`verify` recomputes from the journals and names every difference with what is
    stored.  Values are stored rounded to :data:`DIGITS` decimals and compared the same way.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from importlib.metadata import version
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, delete, select

from pbem.club.results import MIN_PHASES, Result, collect
from pbem.services.deps import Deps
from pbem.store.claim import claim_table
from pbem.store.models import Campaign, Game, NoticeMark, Player, Rating
from pbem.store.times import aware

FORMAT = "pbem-ratings 1"
OVERALL = "overall"
DIGITS = 6
SIGMA0 = 25.0 / 3.0
#: Everything the computation depends on besides the results; written into every export.
PARAMETERS: dict[str, Any] = {
    "model": "PlackettLuce", "mu": 25.0, "sigma": SIGMA0, "beta": 25.0 / 6.0, "kappa": 0.0001,
    "tau": 25.0 / 300.0, "side_sigma": SIGMA0 / 2.0, "inactivity_per_day": 0.35, "provisional_games": 5,
    "min_phases": MIN_PHASES, "ranking": "winner's side first, the other sides tied second; a draw ties all",
}

Table = dict[str, dict[str, dict[str, Any]]]  # scope -> fingerprint -> {mu, sigma, games, last_game, last_played}


def library() -> dict[str, str]:
    return {"name": "openskill", "version": version("openskill")}


def side_id(ruleset: str, scenario: str, side: str) -> str:
    return f"side:{ruleset}/{scenario}/{side}"


def _model(params: Mapping[str, Any]) -> PlackettLuce:
    if params["model"] != "PlackettLuce":
        raise ValueError(f"model {params['model']!r}: this pbem computes PlackettLuce only")
    return PlackettLuce(mu=params["mu"], sigma=params["sigma"], beta=params["beta"], kappa=params["kappa"],
                        tau=params["tau"], limit_sigma=False, balance=False)


def _days(a: str, b: str) -> float:
    return max(0.0, (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds() / 86400.0)


def grown(sigma: float, days: float, params: Mapping[str, Any]) -> float:
    """A player's uncertainty after ``days`` without a rated game."""
    return min(max(sigma, params["sigma"]), math.sqrt(sigma ** 2 + params["inactivity_per_day"] ** 2 * days)) \
        if days > 0 else sigma


def compute(results: Sequence[Mapping[str, Any]], params: Mapping[str, Any] = PARAMETERS) -> Table:
    """The ratings of every scope from rated results (as :meth:`Result.as_json` writes them), in their order."""
    model = _model(params)
    table: Table = {}
    for r in sorted(results, key=lambda x: (x["ended_at"], x["game"])):
        for scope in (OVERALL, r["ruleset"]):
            _rate(model, table.setdefault(scope, {}), r, params)
    return table


def _rate(model: PlackettLuce, ratings: dict[str, dict[str, Any]], r: Mapping[str, Any],
          params: Mapping[str, Any]) -> None:
    sides = sorted({x["side"] for x in r["seats"]})
    members = {side: sorted({x["player"] for x in r["seats"] if x["side"] == side}) for side in sides}
    when = r["ended_at"]
    teams, ids = [], []
    for side in sides:
        sid = side_id(r["ruleset"], r["scenario"], side)
        side_row = ratings.get(sid) or {"mu": params["mu"], "sigma": params["side_sigma"], "games": 0}
        team = [model.rating(mu=side_row["mu"], sigma=side_row["sigma"])]
        for fp in members[side]:
            row = ratings.get(fp)
            if row is None:
                team.append(model.rating(mu=params["mu"], sigma=params["sigma"]))
            else:
                team.append(model.rating(mu=row["mu"], sigma=grown(row["sigma"], _days(row["last_played"], when),
                                                                   params)))
        teams.append(team)
        ids.append([sid, *members[side]])
    ranks: list[float] = [1.0 if r["winner"] is None or side == r["winner"] else 2.0 for side in sides]
    rated = model.rate(teams, ranks=ranks)
    for team_ids, team in zip(ids, rated, strict=True):
        for fp, new in zip(team_ids, team, strict=True):
            games = ratings.get(fp, {}).get("games", 0) + 1
            ratings[fp] = {"mu": new.mu, "sigma": new.sigma, "games": games, "last_game": r["game"],
                           "last_played": when}


def _round(x: float) -> float:
    return round(x, DIGITS)


def inputs(deps: Deps) -> dict[str, Any]:
    """What the ratings are computed from, as :func:`export` writes it."""
    rated, unrated = collect(deps)
    return {"format": FORMAT, "library": library(), "parameters": dict(PARAMETERS),
            "results": [r.as_json() for r in rated], "unrated": [r.as_json() for r in unrated]}


def update(deps: Deps) -> int:
    """Recompute every rating from the journals and store them (replacing what was stored); return how many."""
    table = compute(inputs(deps)["results"])
    now = deps.clock()
    with deps.session() as s:
        claim_table(s, "rating")  # two daemons refreshing at once: the second waits, then replaces
        s.exec(delete(Rating))
        count = 0
        for scope, rows in sorted(table.items()):
            for fp, row in sorted(rows.items()):
                s.add(Rating(fingerprint=fp, scope=scope, mu=_round(row["mu"]), sigma=_round(row["sigma"]),
                             games=row["games"], last_game=row["last_game"],
                             last_played=datetime.fromisoformat(row["last_played"]), computed_at=now))
                count += 1
        s.commit()
    return count


#: Where :func:`refresh` keeps the digest of what the ratings were last computed from (a NoticeMark row of
#: this kind whose ``fingerprint`` holds the digest; no player has it).
MARK_KIND = "ratings"


def _inputs_digest(deps: Deps) -> str:
    """A digest of what decides the ratings, read without opening a journal: every finished game's id, status
    and journal head (an ended game, a voided one, a game archived), and each player whose key was replaced or
    who is not a human (a key change or a bot moves ratings)."""
    h = hashlib.sha256()
    with deps.reader() as s:
        for row in s.exec(select(Game.id, Game.status, Game.journal_head)
                          .where(col(Game.status).in_(("over", "archived"))).order_by(col(Game.id))).all():
            h.update(("game\t" + "\t".join(row) + "\n").encode())
        for cid, head in s.exec(select(Campaign.id, Campaign.head).where(Campaign.status == "over")  # rated like games
                                .order_by(col(Campaign.id))).all():
            h.update(f"campaign\t{cid}\t{head}\n".encode())
        for row in s.exec(select(Player.fingerprint, Player.replaced_by, Player.kind)
                          .where((Player.replaced_by != "") | (Player.kind != "human"))
                          .order_by(col(Player.fingerprint))).all():
            h.update(("player\t" + "\t".join(x or "" for x in row) + "\n").encode())
    return h.hexdigest()


def refresh(deps: Deps) -> int | None:
    """The daemon's pass: recompute and store the ratings (as :func:`update`) when a game has ended, been voided
    or archived, or a player's key or kind changed since they were last computed; ``None`` when nothing has.
    The check reads only the games' and players' rows, not the journals."""
    digest = _inputs_digest(deps)
    with deps.reader() as s:
        mark = s.exec(select(NoticeMark).where(NoticeMark.kind == MARK_KIND)).first()
        if mark is not None and mark.fingerprint == digest:
            return None
    count = update(deps)  # a game ending meanwhile changes the digest: the next pass computes again
    with deps.session() as s:
        s.exec(delete(NoticeMark).where(col(NoticeMark.kind) == MARK_KIND))
        s.add(NoticeMark(fingerprint=digest, kind=MARK_KIND, at=deps.clock()))
        try:
            s.commit()
        except IntegrityError:  # another pass (a `pbem tick` beside the daemon) wrote the same mark first
            s.rollback()
    return count


def stored(deps: Deps) -> list[dict[str, Any]]:
    """The stored ratings, as exports carry them."""
    with deps.reader() as s:
        rows = s.exec(select(Rating).order_by(col(Rating.scope), col(Rating.fingerprint))).all()
        return [{"scope": x.scope, "fingerprint": x.fingerprint, "mu": x.mu, "sigma": x.sigma, "games": x.games,
                 "last_game": x.last_game, "last_played": aware(x.last_played).isoformat() if x.last_played else None}
                for x in rows]


def export(deps: Deps) -> dict[str, Any]:
    """The inputs and the stored ratings: with pbem installed, `pbem ratings --verify --inputs FILE` checks one
    against the other without the server's database."""
    return {**inputs(deps), "ratings": stored(deps)}


def differences(table: Table, published: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every difference between recomputed ratings and published ones, one line each ([] when they agree)."""
    out = []
    fresh = {(scope, fp): row for scope, rows in table.items() for fp, row in rows.items()}
    seen = set()
    for p in published:
        key = (p["scope"], p["fingerprint"])
        seen.add(key)
        row = fresh.get(key)
        name = f"{p['fingerprint']} ({p['scope']})"
        if row is None:
            out.append(f"{name}: stored mu {p['mu']} sigma {p['sigma']}, but no rated game in the journals makes it")
            continue
        for what in ("mu", "sigma"):
            if _round(row[what]) != _round(p[what]):
                out.append(f"{name}: stored {what} {p[what]}, recomputed {_round(row[what])}")
        if row["games"] != p["games"]:
            out.append(f"{name}: stored {p['games']} games, recomputed {row['games']}")
        if row["last_game"] != p["last_game"]:
            out.append(f"{name}: stored last game {p['last_game']}, recomputed {row['last_game']}")
    for key in sorted(fresh.keys() - seen):
        out.append(f"{key[1]} ({key[0]}): recomputed from the journals, but nothing is stored")
    return out


def verify(deps: Deps) -> list[str]:
    """Recompute every rating from the journals; the differences with what is stored ([] when none)."""
    return differences(compute(inputs(deps)["results"]), stored(deps))


def verify_export(data: Mapping[str, Any]) -> list[str]:
    """Recompute an export's ratings from its own inputs; the differences with the ratings it publishes."""
    if data.get("format") != FORMAT:
        return [f"not a {FORMAT} export (format {data.get('format')!r})"]
    problems = []
    if data.get("library") != library():
        problems.append(f"note: computed with {data.get('library')}, recomputed with {library()}")
    return [*problems, *differences(compute(data["results"], data["parameters"]), data["ratings"])]


def current(row: Mapping[str, Any], now: datetime, params: Mapping[str, Any] = PARAMETERS) -> dict[str, Any]:
    """A stored rating as shown today: sigma grown for the time since the last game, conservative estimate
    ``mu - 3 sigma`` and the provisional mark."""
    last = row.get("last_played")
    days = max(0.0, (now - datetime.fromisoformat(last)).total_seconds() / 86400.0) if last else 0.0
    sigma = grown(row["sigma"], days, params)
    return {"mu": round(row["mu"], 2), "sigma": round(sigma, 2), "rating": round(row["mu"] - 3 * sigma, 2),
            "games": row["games"], "provisional": row["games"] < params["provisional_games"]}


def side_advantages(published: Iterable[Mapping[str, Any]], scope: str = OVERALL) -> list[dict[str, Any]]:
    """Each side's estimated advantage: its ``mu`` less the mean of its scenario's sides (in one scope)."""
    sides = [p for p in published if p["scope"] == scope and p["fingerprint"].startswith("side:")]
    by_scenario: dict[str, list[Mapping[str, Any]]] = {}
    for p in sides:
        by_scenario.setdefault(p["fingerprint"].rsplit("/", 1)[0], []).append(p)
    out = []
    for _, rows in sorted(by_scenario.items()):
        mean = sum(x["mu"] for x in rows) / len(rows)
        for x in sorted(rows, key=lambda x: x["fingerprint"]):
            out.append({"side": x["fingerprint"].removeprefix("side:"), "advantage": round(x["mu"] - mean, 2),
                        "sigma": round(x["sigma"], 2), "games": x["games"]})
    return out


__all__ = ["FORMAT", "OVERALL", "PARAMETERS", "Result", "compute", "current", "differences", "export", "inputs",
           "refresh", "side_advantages", "stored", "update", "verify", "verify_export"]
