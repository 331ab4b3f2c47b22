"""Web hooks: "your move" posted to a player's and the club's chat, in their formats, built from nothing a seat
may not know; retried with backoff; failures recorded and told to the player once."""
from __future__ import annotations

import json
from datetime import UTC, timedelta

import pytest
from sqlmodel import col, select

from pbem.daemon import tick
from pbem.notices.webhooks import body, refuse
from pbem.store.models import Webhook
from tests.notices.conftest import mails_to, new_game, prefer, send, walk


def hook_rows(server):
    with server.session() as s:
        return s.exec(select(Webhook).order_by(col(Webhook.id))).all()


def allow_local(server, **more):
    server.home.config.setdefault("notices", {}).update({"webhook_private": True, **more})


def next_phase(server, game, k, east="alice", west="bob"):
    send(server, game, "east", k[east])
    send(server, game, "west", k[west])


def test_formats_carry_only_the_game_seat_phase_and_deadline():
    assert body("discord", "T", "g1", "east", "turn 1, fire", None) == {"content": "T"}
    assert body("slack", "T", "g1", "east", "turn 1, fire", None) == {"text": "T"}
    assert body("matrix", "T", "g1", "east", "turn 1, fire", None) == {"msgtype": "m.text", "body": "T", "text": "T"}
    assert set(body("json", "T", "g1", "east", "turn 1, fire", None)) == {"text", "game", "seat", "phase", "deadline"}


def test_private_addresses_are_refused_unless_the_club_allows_them():
    assert "local or private address" in refuse("http://127.0.0.1:9/x", private_ok=False)
    assert "local or private address" in refuse("http://10.1.2.3/x", private_ok=False)
    assert refuse("http://127.0.0.1:9/x", private_ok=True) == ""
    assert "not an http(s) URL" in refuse("file:///etc/passwd", private_ok=True)


def test_a_players_and_the_clubs_hooks_hear_your_move(server, clock, players, hooks):
    k = players
    allow_local(server, webhook_url=f"{hooks.url}/club", webhook_format="slack")
    new_game(server, k, "g1", {"east": "alice", "west": "bob"}, tz={"alice": "Europe/Warsaw"})
    prefer(server, k, "alice", webhook=f"{hooks.url}/alice discord")  # after the game opened: from turn 2
    next_phase(server, "g1", k)
    walk(server, clock, 1)
    by_path: dict[str, list[dict]] = {}
    for path, doc in hooks.posts:
        by_path.setdefault(path, []).append(doc)
    assert sorted(by_path) == ["/alice", "/club"]
    assert len(by_path["/alice"]) == 1 and set(by_path["/alice"][0]) == {"content"}
    line = by_path["/alice"][0]["content"]
    assert line.startswith("Your move in game g1 (east): turn 2, ") and "Europe/Warsaw" in line and "UTC" in line
    assert sorted(d["text"].split(":")[0] + d["text"].split(":")[1][:7] for d in by_path["/club"]) == [
        "Your move in game g1 (east) turn 1", "Your move in game g1 (east) turn 2",
        "Your move in game g1 (west) turn 1", "Your move in game g1 (west) turn 2"]
    assert all(r.state == "sent" and r.attempts == 1 for r in hook_rows(server))
    walk(server, clock, 2)  # posted once: nothing more until the next phase
    assert len(hooks.posts) == 5


def test_a_failing_hook_is_retried_with_backoff_then_given_up_and_the_player_told_once(server, clock, players, hooks):
    k = players
    allow_local(server, webhook_attempts=3)
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    prefer(server, k, "alice", webhook=f"{hooks.url}/alice json")
    hooks.plan = [500, 503]  # two failures, then it answers
    next_phase(server, "g1", k)
    start = clock.now
    for _ in range(10):  # passes a minute apart
        clock.advance(minutes=1)
        tick(server)
    [row] = hook_rows(server)
    assert (row.state, row.attempts) == ("sent", 3) and len(hooks.posts) == 3
    doc = hooks.posts[-1][1]
    assert (doc["game"], doc["seat"], doc["phase"]) == ("g1", "east", "turn 2, fire and move")
    assert row.sent_at.replace(tzinfo=UTC) == start + timedelta(minutes=6)  # 1, +1, +4

    hooks.plan = [500] * 3  # now it fails for good
    next_phase(server, "g1", k)
    walk(server, clock, 2)
    assert hook_rows(server)[-1].state == "queued"  # two tries, one to go
    walk(server, clock, 1)
    rows = hook_rows(server)
    assert rows[-1].state == "failed" and rows[-1].last_error == "HTTP 500 Internal Server Error"
    # the next sitrep mail tells her, once; the stored sitrep (what replay rebuilds) does not change
    next_phase(server, "g1", k)
    told = [m for m in mails_to(server, "alice@club.test", "sitrep") if "Your web hook" in m.parts_json]
    assert len(told) == 1 and "failed for game g1 after 3 tries: HTTP 500" in json.loads(told[0].parts_json)["text"]
    next_phase(server, "g1", k)
    assert len([m for m in mails_to(server, "alice@club.test", "sitrep") if "Your web hook" in m.parts_json]) == 1
    assert "Your web hook" not in server.sitrep("g1", "east").text


@pytest.mark.parametrize("where", ["player"])
def test_a_hook_to_a_private_address_fails_without_posting(server, clock, players, hooks, where):
    k = players
    server.home.config.setdefault("notices", {}).update({"webhook_attempts": 1})
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    prefer(server, k, "alice", webhook=f"{hooks.url}/alice")
    next_phase(server, "g1", k)
    walk(server, clock, 1)
    [row] = hook_rows(server)
    assert row.state == "failed" and "local or private address" in row.last_error and hooks.posts == []


def test_a_digest_player_reads_of_a_failed_hook_in_the_next_digest(server, clock, players, hooks):
    from datetime import datetime

    from tests.notices.conftest import composed

    k = players
    clock.now = datetime(2026, 11, 2, 10, 0, tzinfo=UTC)
    allow_local(server, webhook_attempts=1)
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    prefer(server, k, "alice", notices="digest", digest_hour="7", webhook=f"{hooks.url}/alice slack")
    hooks.plan = [404]
    next_phase(server, "g1", k)
    walk(server, clock, 1)  # the hook fails for good; her digest of the day goes in the same pass, after it
    [row] = hook_rows(server)
    assert row.state == "failed" and hooks.posts[0][1] == {"text": hooks.posts[0][1]["text"]}
    [digest] = mails_to(server, "alice@club.test", "digest")
    text = composed(server, digest).get_body(("plain",)).get_content()
    assert "Your web hook:" in text and "failed for game g1 after 1 tries: HTTP 404" in text
    walk(server, clock, 24)
    later = composed(server, mails_to(server, "alice@club.test", "digest")[-1]).get_body(("plain",)).get_content()
    assert "Your web hook" not in later  # told once


def test_a_hooks_token_is_never_shown():
    from pbem.notices.webhooks import shown_url

    assert shown_url("https://discord.com/api/webhooks/123/SECRET-TOKEN") == "https://discord.com/…"
