"""Claim 4, no loss on crash: the kill -9 soak (tests/soak/crash.py) in its quick mode.

The daemon runs as a subprocess, is killed with SIGKILL at random moments while players answer
their sitreps by mail, and restarted; the outbox goes over real SMTP to aiosmtpd in this process.
"""
import os

import pytest

from tests.soak import crash


@pytest.mark.slow
def test_kill_9_loses_nothing_and_resolves_once():
    r = crash.run(games=crash.QUICK["games"], kills=int(os.environ.get("PBEM_TRUST_KILLS", crash.QUICK["kills"])),
                  seed=int(os.environ.get("PBEM_TRUST_SEED", "1")), time_budget=60, real=("sky_ww2",))
    assert r.kills >= 1 and r.orders_sent >= 4 * r.games, r  # the run really played and really killed
    assert r.orders_lost == 0, r.problems
    assert r.phases_twice == 0 and r.games_unfinished == 0 and r.replay_failures == 0, r.problems
    assert r.sitreps_lost == 0, r.problems
    assert not r.problems, r.problems
    # Exactly once at the receiver: a message a kill left in doubt (the relay took it, we had not
    # recorded it) is found delivered by the copy that went to the server in the same transaction.
    assert r.duplicates == 0, r.duplicate_detail
    assert r.copies_confirmed == r.mails_received, r
