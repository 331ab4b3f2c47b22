"""Sequential windows of Sky of WWII bot games (issue 16 measure), per cadence.

Run: ``.venv/bin/python tests/rules/sky_ww2/count_windows.py [games]``.  A window is a phase that awaits
a seat (each is one mail and a day or more by post); round 0 is set-up and deployment.

Cadences: ``round`` (the default: one mail per player per round, a sealed deployment) and ``turn`` (a window per
aircraft turn and per decision no standing order settles, the cadence of games started before).

Two players each: the bot as it is (it sends standing orders: REACT rules, REACT_DEFAULT PASS, ...), and
the bot with its standing-order lines removed, i.e. a player who keeps the cadence's default standing orders
(turn cadence: REACT_DEFAULT ASK, ON_PURSUIT ASK; round cadence: REACT ALL ANY, REACT_DEFAULT PASS,
ON_PURSUIT ALL FREE) and answers every window by mail.
"""
import collections
import statistics
import sys

from pbem.core.play import bot_dice, play
from pbem.rules.sky_ww2 import RULESET
from pbem.rules.sky_ww2.standing import STANDING

N = int(sys.argv[1]) if len(sys.argv) > 1 else 5
seeds = [f"pbem window count seed {i:02d}".encode() for i in range(N)]


def plain(state, phase, seat):
    body = RULESET.bot_orders(RULESET.view(state, seat), seat, bot_dice(b"pbem window count bot", phase, seat))
    return "\n".join(ln for ln in body.splitlines() if not ln.split() or ln.split()[0].upper() not in STANDING)


def kind_of(name: str) -> str:
    """The decision a phase name stands for: ``c1-turn-7`` -> turn, ``plan-3`` -> plan, ``set-up-1`` -> set-up."""
    parts = name.rsplit("-", 1)[0]
    return parts.split("-", 1)[1] if parts[:1] in ("c", "x") and parts[1:2].isdigit() else parts


for cadence in ("round", "turn"):
    for who, orders_for in (("bot", None), ("defaults", plain)):
        for scenario in ("battle", "quick"):
            totals, rounds, kinds, empty, first, before, nrounds = [], [], collections.Counter(), 0, [], [], []
            for seed in seeds:
                steps = play(RULESET, scenario, seed, max_phases=3000, orders_for=orders_for,
                             options={"cadence": cadence})
                per_round = collections.Counter()
                before_state = [None] + [s.state for s in steps[:-1]]  # the position each phase was asked in
                for st, state_before in zip(steps, before_state, strict=True):
                    if not st.phase.awaiting:
                        continue
                    rnd, name = st.phase.key.split("/")
                    kind = kind_of(name)
                    kinds[kind] += 1
                    if rnd != "0":
                        per_round[rnd] += 1
                    if kind == "reaction" and state_before is not None:
                        seat = sorted(st.phase.awaiting)[0]
                        if not RULESET.view(state_before, seat)["decide"]["options"]:
                            empty += 1
                assert RULESET.phase(steps[-1].state) is None, "game not over"
                totals.append(sum(1 for s in steps if s.phase.awaiting))
                rounds += list(per_round.values())
                first.append(per_round["1"])
                before.append(sum(1 for s in steps if s.phase.awaiting and s.phase.key.startswith("0/")))
                nrounds.append(len(per_round))
            print(f"{cadence:5s} {who:8s} {scenario:6s} games {N}: windows per game mean {statistics.mean(totals):.1f} "
                  f"(min {min(totals)}, max {max(totals)}); per round mean {statistics.mean(rounds):.1f} "
                  f"(max {max(rounds)}); round 1 mean {statistics.mean(first):.1f}; before round 1 "
                  f"{statistics.mean(before):.1f}; rounds mean {statistics.mean(nrounds):.1f}; by kind {dict(kinds)}; "
                  f"reaction windows with no legal answer {empty}")
