"""Scripted players for campaign tests: each game played through the mail path by the rulesets' bots."""
from __future__ import annotations

from pbem.core.orders import canonical
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.demo import _send_orders

MAX_ROUNDS = 2000


def play_game(server, game_id: str, keys: dict) -> dict:
    """Mail the bots' orders for every seat owing them until the game is over; its final status."""
    tick(server)
    for n in range(1, MAX_ROUNDS):
        st = server.status(game_id)
        if st["status"] != "active":
            return st
        for i, seat in enumerate(st["owing"]):
            _send_orders(server, game_id, seat, keys[seat], n * 10 + i)
        report = tick(server)
        assert not report.held, server.status(game_id)["held_reason"]
    raise AssertionError(f"{game_id} did not end in {MAX_ROUNDS} rounds")


def signed(text: str, key) -> str:
    body = canonical(text)
    return body + sshsig.sign(key, body.encode())


def players(keys: dict, sides: dict[str, str]) -> dict:
    return {seat: {"email": f"{seat}@players.test", "pubkey": sshsig.public_key_of(keys[seat]).line(),
                   "tz": "UTC", "side": side} for seat, side in sides.items()}


def first_game_state(server, game_id: str) -> dict:
    """The state a campaign game started from (its journal's first entry), as stored."""
    import json

    from sqlmodel import select

    from pbem.store.models import Journal

    with server.reader() as s:
        row = s.exec(select(Journal).where(Journal.game_id == game_id, Journal.seq == 0)).one()
    return json.loads(row.state_json)
