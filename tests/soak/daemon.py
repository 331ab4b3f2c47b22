"""The daemon as the soak tests run it: ``pbem.daemon.tick`` in a loop, in its own process.

    python -m tests.soak.daemon --home H [--interval 0.02] [--clock-offset-minutes M] [--once-idle]

The same pass as ``pbem --home H tick``, with the test-only duel ruleset added (the CLI knows only
registered rulesets) and an optional clock offset: a daemon restarted after a crash sees the
time a real restart would (later than the lease of the rows its predecessor claimed).  Prints
``ready`` once the server is open, then one line per busy tick; with ``--once-idle`` it exits
after the first tick that found nothing to do.
"""
from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime, timedelta, timezone


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", required=True)
    ap.add_argument("--interval", type=float, default=0.02)
    ap.add_argument("--clock-offset-minutes", type=float, default=0.0)
    ap.add_argument("--once-idle", action="store_true")
    args = ap.parse_args()

    from pbem.daemon import tick
    from pbem.home import Home
    from pbem.server import Server
    from tests.fixtures.duel import RULESET as DUEL

    offset = timedelta(minutes=args.clock_offset_minutes)
    server = Server(Home.locate(args.home).load(), clock=lambda: datetime.now(timezone.utc) + offset,
                    extra_rulesets=(DUEL,))
    print("ready", flush=True)
    while True:
        try:
            report = tick(server)
        except Exception as exc:  # as pbem.daemon.run does: one bad pass must not end the daemon
            print(f"tick failed: {exc.__class__.__name__}: {exc}", file=sys.stderr, flush=True)
            time.sleep(args.interval)
            continue
        busy = report.ingested or report.resolved or report.sent
        if busy:
            print(report.line(), flush=True)
        elif args.once_idle:
            return 0
        time.sleep(args.interval)


if __name__ == "__main__":
    sys.exit(main())
