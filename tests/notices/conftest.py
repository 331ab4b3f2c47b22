"""Notices fixtures: players of several games with preferences, a clock that walks hour by hour, a hook server."""
from __future__ import annotations

import email
import json
import threading
from email import policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlmodel import col, select

from pbem.club.players import set_profile, sync
from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.store.models import Game, Outbox, Player
from tests.helpers import mail, orders_mail, signed


def new_game(server, keys, game, seating, *, tz=None, settings=None):
    """A duel with ``seating`` {seat: player name}; each player's key from ``keys``, address name@club.test."""
    server.new_game(game, "duel", "standard", seed=f"fixed seed of notices game {game}".encode(),
                    settings={"max_missing": 99, **(settings or {})})
    for seat, name in seating.items():
        server.add_player(game, seat, f"{name}@club.test", sshsig.public_key_of(keys[name]).line(),
                          tz=(tz or {}).get(name, "UTC"))
    return game


def fp(keys, name):
    return sshsig.public_key_of(keys[name]).fingerprint


def prefer(server, keys, name, **prefs):
    """The GM sets a player's preferences (as `pbem club set --pref` does)."""
    with server.session() as s:
        sync(s, server.clock())
        player = s.get(Player, fp(keys, name))
        set_profile(s, player, server.clock(), prefs=prefs)
        s.commit()


def profile_by_mail(server, key, game, seat, lines):
    """A player's own signed PROFILE lines, mailed in."""
    text = order_file_text("command", {"Game": game, "Side": seat}, lines)
    verdict = server.ingest(mail(signed(text, key)))
    assert verdict.status == "accepted", verdict.reasons
    return verdict


def miss(server, game, seat):
    """Orders that never hit, so games run on for as long as a test needs."""
    with server.session() as s:
        g = s.get(Game, game)
    foe = "west" if seat == "east" else "east"
    post = server.view_of(g, foe)["post"]
    return f"FIRE {1 if post != 1 else 2}\nMOVE 0\n"


def send(server, game, seat, key):
    v = server.ingest(orders_mail(server, game, seat, miss(server, game, seat), key))
    assert v.status == "accepted", v.reasons


def mails_to(server, address, kind=None):
    with server.session() as s:
        q = select(Outbox).where(Outbox.to_addr == address)
        if kind:
            q = q.where(Outbox.kind == kind)
        return s.exec(q.order_by(col(Outbox.id))).all()


def composed(server, row):
    return email.message_from_bytes(server.services.outbox.compose(row), policy=policy.default)


def attachments(msg):
    return {part.get_filename(): part.get_content() for part in msg.iter_attachments()}


def walk(server, clock, hours, each=None):
    """Daemon passes an hour apart; ``each(hour)`` runs before each pass."""
    for h in range(hours):
        clock.advance(hours=1)
        if each is not None:
            each(h)
        tick(server)


class Hooks:
    """An HTTP server the test starts: records each POST, answers with the next planned status (200 after)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict]] = []
        self.plan: list[int] = []
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                n = int(self.headers.get("Content-Length", "0"))
                hooks.posts.append((self.path, json.loads(self.rfile.read(n))))
                status = hooks.plan.pop(0) if hooks.plan else 200
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def hooks():
    h = Hooks()
    yield h
    h.close()


@pytest.fixture
def players(keys):
    """Keys for the club members of these tests (session keys reused: key making is slow)."""
    return {"alice": keys["east"], "bob": keys["west"], "carol": keys["mallory"], "gm": keys["gm"]}
