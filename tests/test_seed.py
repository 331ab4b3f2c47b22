"""Game seeds are long enough not to be guessed, and committed to with a salt revealed at the end (issue 12)."""
from __future__ import annotations

import hashlib

import pytest
from click.testing import CliRunner
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.replay import replay
from pbem.store.models import Game
from tests.fixtures.duel import RULESET as DUEL

SEED = b"sixteen byte key and then some"


def _row(server, gid) -> Game:
    with server.session() as s:
        return s.exec(select(Game).where(Game.id == gid)).one()


@pytest.mark.parametrize("seed", [b"", b"\x2a", b"fixed seed", b"x" * 15, b"x" * 65])
def test_short_or_oversized_seeds_are_refused(server, seed):
    with pytest.raises(server.error, match=r"a game seed must be 16 to 64 bytes \(128 bits or more"):
        server.new_game("g", "duel", "standard", seed=seed)
    assert server.games() == []


def test_the_commitment_is_salted_and_differs_for_the_same_seed(server):
    a = server.new_game("a", "duel", "standard", seed=SEED)
    b = server.new_game("b", "duel", "standard", seed=SEED)
    for game in (a, b):
        row = _row(server, game.id)
        salt = bytes.fromhex(row.seed_salt)
        assert len(salt) == 32
        assert row.seed_commitment == hashlib.sha256(salt + SEED).hexdigest()
        assert row.seed_commitment != hashlib.sha256(SEED).hexdigest()  # the old, guessable form
        assert server.status(game.id)["seed_commitment"] == row.seed_commitment
    assert a.seed_commitment != b.seed_commitment and a.seed_salt != b.seed_salt
    random = server.new_game("r", "duel", "standard")
    assert len(bytes.fromhex(_row(server, "r").seed_hex)) == 32 and len(random.seed_salt) == 64


def test_the_final_sitrep_reveals_seed_and_salt_that_open_the_commitment(server, keys):
    server.new_game("g", "duel", "standard", seed=SEED)
    for seat in ("east", "west"):
        server.add_player("g", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    first = server.sitrep("g", "east").text
    row = _row(server, "g")
    assert row.seed_commitment in first and row.seed_salt not in first and SEED.hex() not in first
    server.end_game("g", "a draw")
    final = server.sitrep("g", "east")
    seed = final.text.split("Seed, revealed at the end of the game: ")[1].split("\n")[0]
    salt = final.text.split("Salt, revealed with it: ")[1].split("\n")[0]
    assert hashlib.sha256(bytes.fromhex(salt) + bytes.fromhex(seed)).hexdigest() == row.seed_commitment
    assert bytes.fromhex(seed) == SEED and f"Salt (revealed): <code>{salt}</code>" in final.html
    assert replay(server, "g").ok


def test_replay_checks_the_commitment(server, keys):
    server.new_game("g", "duel", "standard", seed=SEED)
    assert replay(server, "g").ok
    with server.session() as s:
        row = s.get(Game, "g")
        row.seed_salt = "00" * 32  # a salt that does not open the commitment
        s.add(row)
        s.commit()
    report = replay(server, "g")
    assert report.problems == ["the seed and salt do not match the seed commitment every sitrep showed"]


def test_a_game_made_before_salts_still_replays(server):
    """Games of a database migrated to 0006 have an empty salt and the plain SHA-256 commitment."""
    server.new_game("old", "duel", "standard", seed=SEED)
    with server.session() as s:
        row = s.get(Game, "old")
        row.seed_salt, row.seed_commitment = "", hashlib.sha256(SEED).hexdigest()
        s.add(row)
        s.commit()
    report = replay(server, "old")
    assert report.ok and any("unsalted" in n for n in report.notes)


@pytest.mark.parametrize("seed_hex, ok", [("2a", False), ("00" * 15, False), ("00" * 16, True), ("ab" * 65, False)])
def test_the_command_line_refuses_a_short_seed(tmp_path, monkeypatch, seed_hex, ok):
    from pbem import rules
    from pbem.cli import main

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))
    home = str(tmp_path / "home")
    runner = CliRunner()
    assert runner.invoke(main, ["--home", home, "init"], catch_exceptions=False).exit_code == 0
    result = runner.invoke(main, ["--home", home, "game", "new", "g", "--rules", "duel", "--scenario", "standard",
                                  "--seed-hex", seed_hex], catch_exceptions=False)
    if ok:
        assert result.exit_code == 0 and "seed commitment" in result.output, result.output
    else:
        assert result.exit_code != 0 and "--seed-hex must be 16 to 64 bytes" in result.output, result.output
