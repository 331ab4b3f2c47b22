"""Claim 5, load: concurrent ingest over many games; a game whose ruleset raises is held and reported alone."""
import pytest

from tests.trust import load


@pytest.mark.logs_errors  # the broken ruleset's failure is logged at ERROR, as it must be
def test_many_games_at_once_and_a_broken_one_is_held_alone(db_url, tmp_path):
    r = load.run(db_url, tmp_path, games=8, batches=1, workers=3)
    assert r.games == 9 and r.messages >= 8 * 2 * 2
    assert r.held == ["broken-1"] and r.held_reported, (r.held, r.problems)
    assert r.finished == 8 and not r.problems, r.problems
    assert r.unanswered == 0 and set(r.verdicts) <= {"accepted"}, r.verdicts
