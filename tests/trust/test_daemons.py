"""Claim 6, several daemons: two daemons on one PostgreSQL database, killed at random under load.

Builds on tests/test_several_daemons.py (two clean daemons): here both daemons are killed with
SIGKILL at random moments and restarted while mail-driven players answer (tests/soak/crash.py with
``daemons=2``); every phase must be resolved once, no order lost, and every message arrive once
(a message a kill left in doubt is confirmed by its copy, whichever daemon reads it).
"""
import pytest

from tests.soak import crash


@pytest.mark.postgres
@pytest.mark.slow
def test_two_daemons_killed_at_random_share_the_work_once(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("several daemons share a PostgreSQL database")
    r = crash.run(games=2, kills=4, seed=3, db_url=db_url, daemons=2, time_budget=60)
    assert r.kills >= 2 and r.orders_sent >= 4 * r.games, r
    assert r.orders_lost == 0 and r.phases_twice == 0, r.problems
    assert r.games_unfinished == 0 and r.replay_failures == 0 and r.sitreps_lost == 0, r.problems
    assert not r.problems, r.problems
    assert r.duplicates == 0, r.duplicate_detail
