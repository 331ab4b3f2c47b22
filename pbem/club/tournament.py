"""Round-robin tournaments: every player meets every other once, in two games with the sides swapped.

`pbem tournament new` draws the rounds (the circle method; with an odd number of players one sits out
each round) and starts the first round's games at once.  The daemon's :func:`tick` records each finished
game and, when a round's games are all over, mails every player the standings and starts the next round.

A win is 1 point, a draw ½ and a loss 0.  Ties are broken by the Sonneborn-Berger score: for each opponent,
the points scored against them times the opponent's own total.
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from sqlmodel import Session, col, select

from pbem.club.ladder import NAME, make_game, name_of, tell, winner_of
from pbem.club.players import find, sync
from pbem.club.reliability import blank, reliability, sanction
from pbem.services.records import ServerError
from pbem.services.wiring import Services
from pbem.store.models import Game, Player, Tournament, TournamentGame

ENDED = ("over", "archived")


def rounds(players: list[str]) -> list[list[tuple[str, str]]]:
    """The circle method: each round's pairs, every pair exactly once; "" sits out with an odd count."""
    p = list(players) + ([""] if len(players) % 2 else [])
    out = []
    for _ in range(len(p) - 1):
        out.append([(p[i], p[-1 - i]) for i in range(len(p) // 2) if p[i] and p[-1 - i]])
        p = [p[0], p[-1], *p[1:-1]]
    return out


def new_tournament(sv: Services, name: str, ruleset: str, scenario: str, players: list[str], *,
                   min_reliability: float = 0.0) -> str:
    """Make a tournament of club members (named by key fingerprint or address) and start its first round.

    Refused, naming each player concerned, when one's reliability score is under ``min_reliability`` or one is
    under the abandonment sanction (:func:`pbem.club.reliability.sanction`)."""
    if not NAME.match(name):
        raise ServerError(f"a tournament's name is lower-case letters, digits and '-', at most 41: not {name!r}")
    if not 0 <= min_reliability <= 100:
        raise ServerError(f"--min-reliability is from 0 to 100, not {min_reliability:g}")
    record = reliability(sv.deps)  # before the transaction: it reads every game
    rules = sv.deps.ruleset(ruleset)
    scen = rules.info.scenario(scenario) if scenario else rules.info.scenarios[0]
    now = sv.deps.clock()
    with sv.deps.session() as s:
        sync(s, now)
        if s.get(Tournament, name) is not None:
            raise ServerError(f"a tournament {name!r} exists already")
        fps = [find(s, who).fingerprint for who in players]
        if len(set(fps)) != len(fps) or len(fps) < 2:
            raise ServerError("a tournament needs two or more different players")
        refused = _refused(s, fps, record, min_reliability)
        if refused:
            raise ServerError("; ".join(refused))
        s.add(Tournament(name=name, ruleset=ruleset, scenario=scen.name, schedule_json=json.dumps(rounds(fps)),
                         created_at=now))
        s.commit()
    started = _start_round(sv, name)
    return f"tournament {name}: {len(fps)} players, {len(rounds(fps))} round(s); round 1 started ({started} games)"


def _refused(s: Session, fps: list[str], record: Mapping[str, Mapping[str, Any]], least: float) -> list[str]:
    """Why each player who may not enter does not: a reliability under ``least``, the abandonment sanction."""
    out = []
    for fp in fps:
        rec = record.get(fp, blank())
        who = name_of(s, fp)
        score = float(rec.get("score", 100.0))
        if score < least:
            out.append(f"{who}'s reliability is {score:g}; this tournament asks for {least:g} or more")
        barred = sanction(rec, who)
        if barred:
            out.append(barred)
    return out


def _start_round(sv: Services, name: str) -> int:
    """Start the next round's games: two per pair, the sides swapped."""
    with sv.deps.session() as s:
        t = s.get(Tournament, name)
        assert t is not None
        schedule = json.loads(t.schedule_json)
        t.round += 1
        if t.round > len(schedule):
            t.status = "finished"
            s.add(t)
            s.commit()
            return 0
        pairs = schedule[t.round - 1]
        players = {fp: s.get(Player, fp) for pair in pairs for fp in pair}
        s.add(t)
        s.commit()
        ruleset, scenario, number = t.ruleset, t.scenario, t.round
    n = 0
    for a, b in pairs:
        for first, second in ((a, b), (b, a)):
            n += 1
            game_id = f"{name}-r{number}-{n}"
            make_game(sv, game_id, ruleset, scenario, f"Tournament {name}: round {number}",
                      [players[first], players[second]])
            with sv.deps.session() as s:
                s.add(TournamentGame(tournament=name, round=number, game_id=game_id, first=first, second=second))
                s.commit()
    return n


def standings(sv: Services, name: str) -> list[dict[str, object]]:
    """Players by points, then Sonneborn-Berger; each with games played."""
    with sv.deps.reader() as s:
        t = s.get(Tournament, name)
        if t is None:
            raise ServerError(f"there is no tournament {name!r} on this server")
        players = {fp for rnd in json.loads(t.schedule_json) for pair in rnd for fp in pair}
        games = s.exec(select(TournamentGame).where(TournamentGame.tournament == name,
                                                    TournamentGame.done == True)).all()  # noqa: E712
        names = {fp: name_of(s, fp) for fp in players}
    points: dict[str, float] = defaultdict(float)
    against: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    played: dict[str, int] = defaultdict(int)
    for g in games:
        for me, them in ((g.first, g.second), (g.second, g.first)):
            got = 1.0 if g.winner == me else 0.5 if not g.winner else 0.0
            points[me] += got
            against[me][them] += got
            played[me] += 1
    sb = {fp: sum(got * points[them] for them, got in against[fp].items()) for fp in players}
    rows = [{"name": names[fp], "fingerprint": fp, "points": points[fp], "sb": sb[fp], "games": played[fp]}
            for fp in players]
    rows.sort(key=lambda r: (-float(r["points"]), -float(r["sb"]), str(r["name"])))
    for n, r in enumerate(rows, 1):
        r["place"] = n
    return rows


def table(sv: Services, name: str) -> str:
    """`pbem tournament standings`: place, name, points, Sonneborn-Berger, games."""
    lines = [f"{'':>3}  {'player':<24} {'points':>6} {'SB':>6} {'games':>5}"]
    for r in standings(sv, name):
        lines.append(f"{r['place']:>3}. {str(r['name'])[:24]:<24} {r['points']:>6g} {r['sb']:>6g} {r['games']:>5}")
    return "\n".join(lines) + "\n"


def tick(sv: Services) -> list[str]:
    """Record finished tournament games; a round all over is mailed to the players and the next one starts."""
    with sv.deps.reader() as r:
        due = r.exec(select(TournamentGame.id).where(TournamentGame.done == False,  # noqa: E712
                                                     col(TournamentGame.game_id).in_(
                                                         select(Game.id).where(col(Game.status).in_(ENDED))))).first()
    if due is None:
        return []
    done = []
    finished_rounds = []
    with sv.deps.session() as s:
        rows = s.exec(select(TournamentGame).where(TournamentGame.done == False)  # noqa: E712
                      .order_by(col(TournamentGame.id)).with_for_update()).all()
        for g in rows:
            game = s.get(Game, g.game_id)
            if game is None or game.status not in ENDED:
                continue
            g.done, g.winner = True, winner_of(sv, s, game)
            s.add(g)
            done.append(f"tournament {g.tournament}, game {g.game_id}: "
                        + (f"{name_of(s, g.winner)} won" if g.winner else "a draw"))
        s.flush()
        for name in sorted({g.tournament for g in rows if g.done}):
            t = s.get(Tournament, name, with_for_update=True)
            if t is None or t.status != "playing":
                continue
            left = s.exec(select(TournamentGame.id).where(TournamentGame.tournament == name,
                                                          TournamentGame.round == t.round,
                                                          TournamentGame.done == False)).first()  # noqa: E712
            if left is None:
                finished_rounds.append((name, t.round, len(json.loads(t.schedule_json))))
        s.commit()
    for name, number, total in finished_rounds:
        _mail_standings(sv, name, number, total)
        _start_round(sv, name)
        done.append(f"tournament {name}: round {number} of {total} over")
    return done


def _mail_standings(sv: Services, name: str, number: int, total: int) -> None:
    text = (f"Tournament {name}: standings after round {number} of {total}"
            + (" (final)" if number == total else "") + "\n\n" + table(sv, name))
    with sv.deps.session() as s:
        t = s.get(Tournament, name)
        assert t is not None
        players = sorted({fp for rnd in json.loads(t.schedule_json) for pair in rnd for fp in pair})
        for fp in players:
            tell(sv, s, fp, f"[{name}] standings after round {number} of {total}", text, f"{name}-round-{number}")
        s.commit()
