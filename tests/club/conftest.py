"""Club fixtures: a server with a GM key, club members with keys, and games played through the mail path."""
from __future__ import annotations

import hashlib

import pytest

from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.demo import _send_orders

MEMBERS = ("alice", "bob", "carol", "dave")


@pytest.fixture(scope="session")
def member_keys():
    return {name: sshsig.generate_private_key() for name in MEMBERS}


@pytest.fixture
def gm_server(server, keys):
    (server.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    server.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    return server


def seat_game(server, game_id, ruleset, scenario, seating, options=None):
    """A new game with ``seating`` {seat: (member name, key)}; a seed made from the game's id."""
    seed = hashlib.sha256(f"club test {game_id}".encode()).digest()
    server.new_game(game_id, ruleset, scenario, options, seed=seed, settings={"max_missing": 99})
    for seat, (name, key) in seating.items():
        server.add_player(game_id, seat, f"{name}@club.test", sshsig.public_key_of(key).line())


def play_out(server, game_id, keys_by_seat, *, limit=400):
    """Each seat's bot reads its sitrep mail, fills in the attached form, signs it and mails it to the inbox;
    daemon passes take it from there (the path `pbem demo` takes), until the game is over."""
    tick(server)
    n = 0
    while server.status(game_id)["status"] == "active":
        for seat in server.status(game_id)["owing"]:
            n += 1
            assert n < limit, f"{game_id} does not end"
            _send_orders(server, game_id, seat, keys_by_seat[seat], n)
        tick(server)
    return server.status(game_id)


@pytest.fixture
def club_cli(monkeypatch):
    """`pbem` as a GM types it, on a server's home (the duel test ruleset found beside the real ones)."""
    from click.testing import CliRunner

    from pbem import rules
    from pbem.cli import main
    from tests.fixtures.duel import RULESET as DUEL

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))

    def run(home, *args):
        return CliRunner().invoke(main, ["--home", str(home), *args])

    return run
