"""Campaign games are played by bots whose outcomes follow the games' seeds: each game's seed is derived from
its id here, so a campaign test plays the same games, takes the same edges and sees the same losses every run
(a server picks a random seed; the campaign engine does not choose one)."""
from __future__ import annotations

import hashlib

import pytest

from pbem.home import Home
from pbem.server import Server
from pbem.services.lifecycle import GameLifecycle


@pytest.fixture(autouse=True)
def fixed_game_seeds(monkeypatch):
    real = GameLifecycle.new_game

    def new_game(self, game_id, *args, seed=None, **kw):
        if seed is None:
            seed = hashlib.sha256(b"pbem campaign test game " + game_id.encode()).digest()
        return real(self, game_id, *args, seed=seed, **kw)

    monkeypatch.setattr(GameLifecycle, "new_game", new_game)


@pytest.fixture
def srv(tmp_path):
    """A server on SQLite (the long campaign plays; test_campaign_games runs both databases)."""
    server = Server.init(Home(tmp_path / "home"), f"sqlite:///{tmp_path}/pbem.db")
    yield server
    server.engine.dispose()
