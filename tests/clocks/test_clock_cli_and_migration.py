"""`pbem game new --clock/--bot/--abandon-after/--vacation-earn`, and migration 0009 over games made before."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from pbem.cli import main
from pbem.store import db
from tests.fixtures.duel import RULESET as DUEL


@pytest.fixture
def cli(tmp_path, monkeypatch, db_url):
    from pbem import rules

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))
    runner = CliRunner()
    home = str(tmp_path / "home")

    def run(*args, ok=True):
        result = runner.invoke(main, ["--home", home, *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    run("init", "--database", db_url)
    return run


def test_a_practice_game_on_a_time_bank_from_the_command_line(cli, tmp_path):
    out = cli("game", "new", "p1", "--rules", "duel", "--scenario", "standard", "--clock", "bank:2d+12h/4d",
              "--bot", "west", "--abandon-after", "3", "--vacation-earn", "2").output
    assert "time bank: 2 d to start, 12 h added each phase, at most 4 d" in out
    assert "scripted player plays west" in out and "3 phases in a row" in out and "2 hours of vacation" in out
    cli("keygen", str(tmp_path / "east"))
    out = cli("player", "add", "p1", "east", "--email", "e@x.test", "--key", str(tmp_path / "east.pub")).output
    assert "started" in out  # west needs nobody
    assert "your clock: 2 d left" in cli("sitrep", "p1", "east").output


def test_a_clock_that_cannot_work_makes_no_game(cli):
    result = cli("game", "new", "p2", "--rules", "duel", "--scenario", "standard", "--clock", "3 days", ok=False)
    assert result.exit_code != 0 and "should look like 'bank:3d+1d/5d'" in result.output
    assert "p2" not in cli("games").output


def test_migration_0009_keeps_games_made_before_on_their_windows(tmp_path):
    from alembic import command

    url = f"sqlite:///{tmp_path}/old.db"
    command.upgrade(db.alembic_config(url), "0007")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO game (id, ruleset, scenario, title, options_json, seed_hex, seed_commitment, seed_salt, "
            "status, held_reason, turn, phase, phase_title, window, prompt, awaiting_json, hours, "
            "interrupt_hours, wait_for_deadline, schedule, min_hours, grace_hours, remind_hours, max_missing, "
            "vacation_hours, paused_remaining, state_json, journal_seq, journal_head, outcome_json, "
            "templates_dir, data_json, created_at, updated_at) VALUES ('old', 'duel', 'standard', '', '{}', "
            "'00', '00', '', 'active', '', 1, 'fire', '', 'orders', '', '[]', 48, 12, 0, '', 12, 0, 12, 1, 72, 0, "
            "'{}', 0, '', '', '', '{}', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"))
        conn.execute(sa.text("INSERT INTO seat (game_id, name, side, title, email, pubkey, fingerprint, tz, "
                             "vacation_used) VALUES ('old', 'east', 'east', '', '', '', '', 'UTC', 0)"))
    command.upgrade(db.alembic_config(url), "head")
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT clock, abandon_after, vacation_earn FROM game")).one() == ("", 0, 0.0)
        row = conn.execute(sa.text("SELECT bank, clock_due, missed, bot, rest_days, vacation_balance "
                                   "FROM seat")).one()
        assert tuple(row) == (None, None, 0, "", "", 0.0)
    command.downgrade(db.alembic_config(url), "0007")
    with engine.connect() as conn:
        assert "clock" not in {c["name"] for c in sa.inspect(conn).get_columns("game")}
    engine.dispose()
