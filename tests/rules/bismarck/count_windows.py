"""Sequential windows of Bismarck bot games with the default options (issue 16 measure).

Run: ``.venv/bin/python tests/rules/bismarck/count_windows.py [games]``.  A window is a phase that awaits
a seat (one mail each, a day or more by post).  The first game uses the golden playthroughs' seed.
``--no-ahead`` plays bots that never write ``IF SHADOWED`` lines (every Shadowed unit then costs a window).
"""
import collections
import statistics
import sys

from pbem.core.play import bot_dice, play
from pbem.rules.bismarck import RULESET
from pbem.testing.golden import SEED

args = [a for a in sys.argv[1:] if not a.startswith("--")]
N = int(args[0]) if args else 20
seeds = [SEED] + [f"pbem window count seed {i:02d}".encode() for i in range(N - 1)]


def no_ahead(state, phase, seat):
    body = RULESET.bot_orders(RULESET.view(state, seat), seat, bot_dice(SEED, phase, seat))
    return "\n".join(ln for ln in body.splitlines() if not ln.upper().startswith("IF SHADOWED")) + "\n"


orders_for = no_ahead if "--no-ahead" in sys.argv else None
for scenario in ("last-dash", "rheinubung"):
    totals, turns, kinds = [], [], collections.Counter()
    for seed in seeds:
        steps = play(RULESET, scenario, seed, max_phases=3000, orders_for=orders_for)
        assert RULESET.phase(steps[-1].state) is None, "game not over"
        waits = [s for s in steps if s.phase.awaiting]
        kinds.update(s.phase.name for s in waits)
        totals.append(len(waits))
        turns.append(len({s.phase.turn for s in steps}))
    print(f"{scenario:10s} games {N}: golden seed {totals[0]} windows over {turns[0]} turns; windows per game mean "
          f"{statistics.mean(totals):.1f} (min {min(totals)}, max {max(totals)}), turns mean {statistics.mean(turns):.1f}, "
          f"windows per turn {sum(totals) / sum(turns):.2f}; by kind {dict(kinds)}")
