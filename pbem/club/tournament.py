"""Round-robin and Swiss tournaments: each pairing is two games with the sides swapped.

Round-robin: every player meets every other once.

`pbem tournament new` draws the rounds (the circle method; with an odd number of players one sits out
each round) and starts the first round's games at once.  The daemon's :func:`tick` records each finished
game and, when a round's games are all over, mails every player the standings and starts the next round.

A win is 1 point, a draw ½ and a loss 0.  Ties are broken by the Sonneborn-Berger score: for each opponent,
the points scored against them times the opponent's own total.

Swiss (``system="swiss"``, a number of rounds): each round is drawn when the one before is over, from the
standings: the highest-placed player unpaired meets the highest-placed one they have not met, and so on down
(backtracking where the last ones left have all met); nobody meets the same player twice.  With an odd number
one player sits out each round: the lowest-placed one who has not sat out before, scored as a won pairing
(2 points, no Sonneborn-Berger).  A Swiss tournament has at most half as many rounds as players (rounded up),
so that a pairing without repeats always exists.
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
from pbem.i18n import said_ as _
from pbem.services.records import ServerError
from pbem.services.wiring import Services
from pbem.store.models import Game, Player, Tournament, TournamentGame

ENDED = ("over", "archived")


def rounds(players: list[str]) -> list[list[tuple[str, str]]]:
    """The circle method: each round's pairs, every pair exactly once; "" sits out with an odd count."""
    p = list(players) + ([""] if len(players) % 2 else [])
    out = []
    for _round in range(len(p) - 1):
        out.append([(p[i], p[-1 - i]) for i in range(len(p) // 2) if p[i] and p[-1 - i]])
        p = [p[0], p[-1], *p[1:-1]]
    return out


SYSTEMS = ("round-robin", "swiss")
BYE = ""


def swiss_pairs(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    """One Swiss round: players in standings order, each paired with the highest-placed one they have not
    met (``met`` holds the pairs already played, a bye as a pair with :data:`BYE`); None when no pairing
    without a repeat exists."""
    def pair(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if frozenset((first, other)) in met:
                continue
            tail = pair(others[:i] + others[i + 1:])
            if tail is not None:
                return [(first, other), *tail]
        return None

    return pair(list(order) + ([BYE] if len(order) % 2 else []))


def plan(t: Tournament) -> tuple[str, list[str], int, list[list[list[str]]]]:
    """A tournament's system, players, number of rounds and the rounds drawn so far (pairs; a bye has
    :data:`BYE` second).  A round-robin's schedule is its list of rounds, all drawn at the start."""
    data = json.loads(t.schedule_json)
    if isinstance(data, list):
        return "round-robin", sorted({fp for rnd in data for pair in rnd for fp in pair}), len(data), data
    return data["system"], data["players"], data["rounds"], data["drawn"]


def new_tournament(sv: Services, name: str, ruleset: str, scenario: str, players: list[str], *,
                   min_reliability: float = 0.0, system: str = "round-robin", swiss_rounds: int = 0) -> str:
    """Make a tournament of club members (named by key fingerprint or address) and start its first round.

    Refused, naming each player concerned, when one's reliability score is under ``min_reliability`` or one is
    under the abandonment sanction (:func:`pbem.club.reliability.sanction`)."""
    if not NAME.match(name):
        raise ServerError(f"a tournament's name is lower-case letters, digits and '-', at most 41: not {name!r}")
    if system not in SYSTEMS:
        raise ServerError(f"a tournament's system is one of {', '.join(SYSTEMS)}, not {system!r}")
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
        if system == "swiss":
            most = (len(fps) + 1) // 2
            if not 1 <= swiss_rounds <= most:
                raise ServerError(f"a Swiss tournament of {len(fps)} players has 1 to {most} round(s) (so that "
                                  f"nobody need meet the same player twice), not {swiss_rounds}")
            schedule: object = {"system": system, "rounds": swiss_rounds, "players": fps, "drawn": []}
            total = swiss_rounds
        else:
            schedule, total = rounds(fps), len(rounds(fps))
        s.add(Tournament(name=name, ruleset=ruleset, scenario=scen.name, schedule_json=json.dumps(schedule),
                         created_at=now))
        s.commit()
    started = _start_round(sv, name)
    kind = "Swiss, " if system == "swiss" else ""
    return f"tournament {name}: {kind}{len(fps)} players, {total} round(s); round 1 started ({started} games)"


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
    """Start the next round's games: two per pair, the sides swapped (a Swiss round drawn first)."""
    order = [str(r["fingerprint"]) for r in standings(sv, name)]
    with sv.deps.session() as s:
        t = s.get(Tournament, name, with_for_update=True)
        assert t is not None
        system, everyone, total, drawn = plan(t)
        t.round += 1
        if t.round > total:
            t.status = "finished"
            s.add(t)
            s.commit()
            return 0
        if system == "swiss":
            met = {frozenset(pair) for rnd in drawn for pair in rnd}
            drawn_now = swiss_pairs(order, met)
            if drawn_now is None:  # cannot happen within the rounds allowed; stop rather than repeat a pairing
                t.status = "finished"
                s.add(t)
                s.commit()
                return 0
            drawn.append([list(pair) for pair in drawn_now])
            t.schedule_json = json.dumps({"system": system, "rounds": total, "players": everyone, "drawn": drawn})
        pairs = [pair for pair in drawn[t.round - 1] if BYE not in pair]
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
        _, players, _, drawn = plan(t)
        byes = [fp for rnd in drawn[:t.round] for pair in rnd if BYE in pair for fp in pair if fp != BYE]
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
    for fp in byes:  # a Swiss bye scores as a won pairing
        points[fp] += 2.0
    sb = {fp: sum(got * points[them] for them, got in against[fp].items()) for fp in players}
    order = sorted(players, key=lambda fp: (-points[fp], -sb[fp], names[fp]))
    return [{"name": names[fp], "fingerprint": fp, "points": points[fp], "sb": sb[fp], "games": played[fp],
             "place": n} for n, fp in enumerate(order, 1)]


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
                finished_rounds.append((name, t.round, plan(t)[2]))
        s.commit()
    for name, number, total in finished_rounds:
        _mail_standings(sv, name, number, total)
        _start_round(sv, name)
        done.append(f"tournament {name}: round {number} of {total} over")
    return done


def _mail_standings(sv: Services, name: str, number: int, total: int) -> None:
    text = _("Tournament %(name)s: standings after round %(round)s of %(rounds)s (final)", name=name, round=number,
             rounds=total) if number == total else \
        _("Tournament %(name)s: standings after round %(round)s of %(rounds)s", name=name, round=number, rounds=total)
    standing = table(sv, name)
    with sv.deps.session() as s:
        t = s.get(Tournament, name)
        assert t is not None
        players = sorted(plan(t)[1])
        for fp in players:
            tell(sv, s, fp, f"[{name}] ", _("standings after round %(round)s of %(rounds)s", round=number,
                                            rounds=total), text, f"{name}-round-{number}", standing.rstrip("\n"))
        s.commit()
