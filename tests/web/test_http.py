"""The web pages over HTTP (Starlette's TestClient): links, cookies, what each page may show, the headers."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from datetime import timedelta

import pytest
from sqlmodel import col, select

from pbem.crypto import sshsig
from pbem.replay import replay
from pbem.store.models import Outbox, Sitrep
from pbem.web import links
from pbem.web.app import NAMESPACE, RateLimit, create_app
from tests.web.conftest import mailed_link


def sitreps(server, seat):
    with server.reader() as s:
        return s.exec(select(Sitrep).where(Sitrep.seat == seat).order_by(col(Sitrep.id))).all()


def enter(client, server, seat):
    r = client.get(mailed_link(server, seat), follow_redirects=False)
    assert r.status_code == 303
    return r


def test_a_link_is_exchanged_for_a_cookie_and_a_url_without_the_token(web_server, game, client):
    r = enter(client, web_server, "east")
    assert r.headers["location"] == "/g/g1/east/"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" in cookie and "Path=/g/" in cookie
    assert "Max-Age=3600" in cookie
    page = client.get("/g/g1/east/")
    assert page.status_code == 200
    assert "<h1>Duel at dawn — east</h1>" in page.text
    assert page.text.count("/g/g1/east/r/") >= len(sitreps(web_server, "east"))
    for name, value in [("content-security-policy", "default-src 'self'"), ("referrer-policy", "no-referrer"),
                        ("cache-control", "no-store")]:
        assert value in page.headers[name]
    assert "/l/" not in page.text


def test_a_seat_page_shows_the_stored_sitrep_the_map_and_the_form_it_was_mailed(web_server, game, client):
    enter(client, web_server, "west")
    rows = sitreps(web_server, "west")
    latest = rows[-1]
    page = client.get(f"/g/g1/west/r/{latest.id}")
    assert page.status_code == 200
    first_line = latest.text.splitlines()[0]
    assert first_line in page.text  # the stored text, as it was mailed (less the link)
    with web_server.reader() as s:
        mailed = json.loads(s.exec(select(Outbox.parts_json).where(Outbox.message_id == latest.message_id)).one())
    assert mailed["form"] and mailed["form"].splitlines()[0] in page.text
    due = re.search(r"YOUR ORDERS — due (.+)", latest.text).group(1)
    assert f"Orders were due <strong>{due}</strong>, as this sitrep said." in page.text
    assert 'alt="The map of what west knew' in page.text
    png = client.get(f"/g/g1/west/r/{latest.id}.png")
    assert png.headers["content-type"] == "image/png" and png.content == latest.png
    html = client.get(f"/g/g1/west/r/{latest.id}.html")
    assert f'src="/g/g1/west/r/{latest.id}.png"' in html.text and "cid:" not in html.text
    assert "'sha256-" in html.headers["content-security-policy"]  # the mailed HTML's own style, and nothing else
    assert client.get(f"/g/g1/west/r/{latest.id}.json").json() == json.loads(latest.view_json)
    assert "accepted: west turn 1" in client.get("/g/g1/west/").text  # its acknowledgements


def test_the_stored_sitrep_carries_no_link_and_the_mail_does(web_server, game):
    for row in sitreps(web_server, "east"):
        assert "/l/" not in row.text and "/l/" not in row.html
        with web_server.reader() as s:
            mailed = json.loads(s.exec(select(Outbox.parts_json).where(Outbox.message_id == row.message_id)).one())
        assert "https://pbem.test/l/" in mailed["text"] and 'href="https://pbem.test/l/' in mailed["html"]
        assert mailed["text"].replace(re.search(r".*/l/.*\n", mailed["text"]).group(0), "") == row.text
    report = replay(web_server, game)  # the stored sitreps still rebuild byte for byte
    assert report.ok and report.sitreps > 2, report.problems


def test_one_seats_link_never_opens_another_seats_pages(web_server, game, client):
    east = enter(client, web_server, "east")
    west_row = sitreps(web_server, "west")[-1]
    for path in ["/g/g1/west/", f"/g/g1/west/r/{west_row.id}", f"/g/g1/west/r/{west_row.id}.png",
                 f"/g/g1/west/r/{west_row.id}.json"]:
        r = client.get(path)
        assert r.status_code == 403 and west_row.text.splitlines()[0] not in r.text, path
    # west's sitrep through east's own pages
    assert client.get(f"/g/g1/east/r/{west_row.id}").status_code == 404
    assert client.get(f"/g/g1/east/r/{west_row.id}.png").status_code == 404
    # east's cookie value presented under west's cookie name
    value = re.search(r"=([^;]+);", east.headers["set-cookie"]).group(1)
    from pbem.web.app import _cookie_name

    client.cookies.clear()
    client.cookies.set(_cookie_name("g1", "west"), value, domain="pbem.test", path="/g/")
    assert client.get("/g/g1/west/").status_code == 403
    # a link token is not a cookie, nor the other way round
    client.cookies.set(_cookie_name("g1", "east"), mailed_link(web_server, "east")[3:], domain="pbem.test", path="/g/")
    assert client.get("/g/g1/east/").status_code == 403
    assert client.get(f"/l/{value}").status_code == 403


def test_an_expired_link_fails(web_server, game, client, clock):
    path = mailed_link(web_server, "east")
    clock.advance(days=29)
    assert enter(client, web_server, "east")
    client.cookies.clear()
    clock.advance(days=2)
    r = client.get(path, follow_redirects=False)
    assert r.status_code == 403 and "expired" in r.text and "set-cookie" not in r.headers


def test_the_cookie_expires_and_a_tampered_link_fails(web_server, game, client, clock):
    path = mailed_link(web_server, "east")
    enter(client, web_server, "east")
    clock.advance(minutes=61)
    assert client.get("/g/g1/east/").status_code == 403
    body, mac = path[3:].split(".")
    forged = links._b64(links._unb64(body).replace(b'"east"', b'"west"'))
    assert client.get(f"/l/{forged}.{mac}", follow_redirects=False).status_code == 403


def test_rotating_the_secret_revokes_every_link_and_session(web_server, game, client, tmp_path):
    path = mailed_link(web_server, "east")
    enter(client, web_server, "east")
    assert client.get("/g/g1/east/").status_code == 200
    out = subprocess.run([sys.executable, "-m", "pbem.cli", "--home", str(web_server.home.path), "web", "rotate"],
                         capture_output=True, text=True, check=True).stdout
    assert "revoked" in out
    assert client.get("/g/g1/east/").status_code == 403
    assert client.get(path, follow_redirects=False).status_code == 403
    # the next sitreps carry links made with the new secret
    web_server.end_game("g1", "a draw by agreement")
    assert enter(client, web_server, "east")


def test_nothing_of_a_running_game_is_public_without_a_link(web_server, game, client):
    rows = sitreps(web_server, "east") + sitreps(web_server, "west")
    assert "g1" not in client.get("/archive/").text
    paths = ["/archive/g1/", "/archive/g1/t/0", "/archive/g1/t/1", "/archive/g1/record.zip", "/g/g1/east/",
             "/g/g1/west/"]
    paths += [f"/archive/g1/s/{r.id}.{fmt}" for r in rows for fmt in ("png", "txt", "html", "json")]
    paths += [f"/g/g1/{r.seat}/r/{r.id}{fmt}" for r in rows for fmt in ("", ".png", ".txt", ".html", ".json")]
    for p in paths:
        r = client.get(p)
        assert r.status_code in (403, 404), p
        assert not any(row.text.splitlines()[0] in r.text for row in rows), p
    assert client.get("/gm/", follow_redirects=False).status_code == 303


def test_after_the_end_the_archive_shows_every_side_turn_by_turn_with_the_seed(web_server, game, client):
    web_server.end_game("g1", "east wins on points")
    listing = client.get("/archive/")
    assert 'href="/archive/g1/"' in listing.text and "east wins on points" in listing.text
    page = client.get("/archive/g1/")
    with web_server.reader() as s:
        from pbem.store.models import Game

        g = s.get(Game, "g1")
    assert g.seed_hex in page.text and g.seed_commitment in page.text
    assert "cache-control" not in page.headers  # public pages may be cached
    turn = client.get("/archive/g1/t/1")
    assert "<h2>east" in turn.text and "<h2>west" in turn.text
    record = client.get("/archive/g1/record.zip")
    names = zipfile.ZipFile(io.BytesIO(record.content)).namelist()
    assert "g1/journal.jsonl" in names and any(n.startswith("g1/sitreps/west/") for n in names)


def test_a_delay_in_turns_shows_a_running_game_only_that_far_behind(web_server, game, client):
    web_server.home.config["web"]["archive_delay_turns"] = 1
    app = create_app(web_server.deps, limit=RateLimit(10_000))
    from starlette.testclient import TestClient

    with TestClient(app, base_url="https://pbem.test") as c:
        turn = web_server.status("g1")["turn"]
        assert turn >= 2
        assert c.get("/archive/g1/").status_code == 200
        assert c.get(f"/archive/g1/t/{turn - 1}").status_code == 200
        assert c.get(f"/archive/g1/t/{turn}").status_code == 404
        assert c.get("/archive/g1/record.zip").status_code == 404
        with web_server.reader() as s:
            from pbem.store.models import Game

            assert s.get(Game, "g1").seed_hex not in c.get("/archive/g1/").text


def login(client, key, namespace=NAMESPACE, newline=False):
    page = client.get("/gm/login")
    challenge = re.search(r'name="challenge" value="([^"]+)"', page.text).group(1)
    sig = sshsig.sign(key, (challenge + ("\n" if newline else "")).encode(), namespace)
    return challenge, client.post("/gm/login", data={"challenge": challenge, "signature": sig},
                                  follow_redirects=False)


def test_the_gm_logs_in_by_signing_a_challenge(web_server, game, client, keys):
    _, r = login(client, keys["gm"], newline=True)
    assert r.status_code == 303 and r.headers["location"] == "/gm/"
    assert "Path=/gm/" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    page = client.get("/gm/")
    assert page.status_code == 200 and "<h1>GM dashboard</h1>" in page.text
    assert "g1 — Duel at dawn" in page.text and "orders: " in page.text  # who owes orders
    assert "Recent verdicts" in page.text and "accepted" in page.text
    assert "east@players.test" in page.text and page.headers["cache-control"] == "no-store"


def test_the_dashboard_shows_held_games_and_why_and_failing_mail(web_server, game, client, keys):
    from pbem.store.models import Game

    with web_server.session() as s:
        g = s.get(Game, "g1")
        g.status, g.held_reason = "held", "2 sides missing orders at once (circuit breaker)"
        s.add(g)
        row = s.exec(select(Outbox).order_by(col(Outbox.id))).first()
        row.state, row.attempts, row.last_error = "failed", 5, "550 mailbox unavailable"
        s.add(row)
        s.commit()
    login(client, keys["gm"])
    page = client.get("/gm/").text
    assert "<b>g1</b>: 2 sides missing orders at once (circuit breaker)" in page
    assert "failed: 1" in page and "550 mailbox unavailable" in page


@pytest.mark.parametrize("who", ["east", "namespace", "replayed"])
def test_a_wrong_signature_does_not_log_in(web_server, game, client, keys, who):
    if who == "replayed":
        challenge, ok = login(client, keys["gm"])
        assert ok.status_code == 303
        client.cookies.clear()
        sig = sshsig.sign(keys["gm"], challenge.encode(), NAMESPACE)
        r = client.post("/gm/login", data={"challenge": challenge, "signature": sig}, follow_redirects=False)
    else:
        _, r = login(client, keys["east"] if who == "east" else keys["gm"],
                     namespace="pbem" if who == "namespace" else NAMESPACE)
    assert r.status_code == 403 and "set-cookie" not in r.headers
    assert client.get("/gm/", follow_redirects=False).status_code == 303


def test_the_rate_limit_answers_429(web_server, game):
    from starlette.testclient import TestClient

    with TestClient(create_app(web_server.deps, limit=RateLimit(3))) as c:
        assert [c.get("/").status_code for _ in range(4)] == [200, 200, 200, 429]


def test_without_a_url_sitreps_carry_no_link(web_server, keys):
    web_server.home.config["web"] = {}
    web_server.new_game("g2", "duel", "standard", seed=b"fixed seed of game g2 for the web")
    for seat in ("east", "west"):
        web_server.add_player("g2", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    with web_server.reader() as s:
        rows = s.exec(select(Sitrep).where(Sitrep.game_id == "g2")).all()
        assert rows
        for row in rows:
            mailed = json.loads(s.exec(select(Outbox.parts_json).where(Outbox.message_id == row.message_id)).one())
            assert (mailed["text"], mailed["html"]) == (row.text, row.html) and "/l/" not in row.text
    assert not (web_server.home.path / links.SECRET_FILE).exists()


def test_a_link_stops_when_the_side_passes_to_another_player(web_server, game, client, keys):
    path = mailed_link(web_server, "west")
    enter(client, web_server, "west")
    web_server.replace_player("g1", "west", "new-west@players.test",
                              sshsig.public_key_of(keys["mallory"]).line())
    assert client.get("/g/g1/west/").status_code == 403
    r = client.get(path, follow_redirects=False)
    assert r.status_code == 403 and "passed to another player" in r.text
    # an address or zone change alone keeps the player's link
    east = mailed_link(web_server, "east")
    web_server.replace_player("g1", "east", "east2@players.test")
    assert client.get(east, follow_redirects=False).status_code == 303


def test_a_link_lasts_link_days(web_server, game, clock):
    signer = links.Signer(links.load_secret(web_server.home.path))
    token = mailed_link(web_server, "east")[3:]
    fields = signer.check(links.LINK, token, clock.now)
    assert fields["exp"] - clock.now.timestamp() <= timedelta(days=30).total_seconds()
    with pytest.raises(links.BadToken):
        signer.check(links.SEAT_COOKIE, token, clock.now)


def test_the_secret_is_made_once_private_and_shared(tmp_path):
    first = links.load_secret(tmp_path)
    assert links.load_secret(tmp_path) == first and len(first) == 32
    assert (tmp_path / links.SECRET_FILE).stat().st_mode & 0o777 == 0o600
    links.rotate_secret(tmp_path)
    assert links.load_secret(tmp_path) != first
    assert sorted(p.name for p in tmp_path.iterdir()) == [links.SECRET_FILE]


def test_signed_orders_pasted_on_the_web_go_through_the_mail_intake(web_server, game, client, keys):
    from pbem.store.models import Inbound, Submission
    from tests.helpers import order_text, signed

    st = web_server.status("g1")
    seat = st["owing"][0]
    body = "DIG\n" if st["window"] == "interrupt" else "FIRE 4\n"
    text = signed(order_text(web_server, "g1", seat, body), keys[seat])
    # no link, no page: nothing is taken in
    assert client.post(f"/g/g1/{seat}/orders", data={"signed": text}).status_code == 403
    enter(client, web_server, seat)
    form = client.get(f"/g/g1/{seat}/orders")
    assert form.status_code == 200 and "PBEM-ORDERS 1" in form.text and form.headers["cache-control"] == "no-store"
    forged = client.post(f"/g/g1/{seat}/orders", data={"signed": signed(order_text(web_server, "g1", seat, body),
                                                                           keys["mallory"])})
    assert "<h2>Rejected</h2>" in forged.text
    ok = client.post(f"/g/g1/{seat}/orders", data={"signed": text.replace("\n", "\r\n")})  # as a browser posts it
    assert "<h2>Accepted</h2>" in ok.text, ok.text
    with web_server.reader() as s:
        sub = s.exec(select(Submission).where(Submission.seat == seat).order_by(col(Submission.id).desc())).first()
        inbound = s.get(Inbound, sub.inbound_id)
    assert sub.text.endswith(body) and sub.current
    assert inbound.sender == f"{seat}@players.test" and inbound.status == "accepted"
    assert client.post(f"/g/g1/{seat}/orders", content=b"signed=" + b"x" * (4 << 20),
                       headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413


def test_the_standings_show_names_or_keys_best_first_and_never_an_address(web_server, client, clock):
    from pbem.store.models import Player, Rating

    with web_server.session() as s:
        s.add(Player(fingerprint="SHA256:aaa", email="ann@players.test", name="Ann", created_at=clock.now,
                     updated_at=clock.now))
        for fp, mu, games in [("SHA256:aaa", 30.0, 9), ("SHA256:bbb", 32.0, 2), ("side:duel/standard/east", 26.0, 11),
                              ("side:duel/standard/west", 24.0, 11)]:
            for scope in ("overall", "duel"):
                s.add(Rating(fingerprint=fp, scope=scope, mu=mu, sigma=2.0, games=games, last_game="g0",
                             last_played=clock.now, computed_at=clock.now))
        s.commit()
    page = client.get("/ratings/").text
    assert "ann@players.test" not in page and "side:" not in page.split("<h2>")[0]
    ann, bob = page.index("<td>Ann</td>"), page.index("<code>SHA256:bbb")
    assert bob < ann  # by the cautious estimate mu - 3 sigma: 26 before 24
    assert "<td>26.0?</td>" in page and "<td>24.0</td>" in page  # fewer than 5 games: provisional
    assert "duel/standard/east</td><td>+1.00</td>" in page
    assert client.get("/ratings/duel").status_code == 200 and client.get("/ratings/chess").status_code == 404


def _club_rows(server, clock):
    """Ann (a named member with an address), and two members known only by key."""
    from pbem.store.models import Player

    with server.session() as s:
        s.add(Player(fingerprint="SHA256:ann", email="ann@players.test", name="Ann", created_at=clock.now,
                     updated_at=clock.now))
        for fp in ("SHA256:bee", "SHA256:cid"):
            s.add(Player(fingerprint=fp, email=f"{fp[7:]}@players.test", name="", created_at=clock.now,
                         updated_at=clock.now))
        s.commit()


def test_a_ladder_page_shows_limits_standings_and_challenges_without_addresses(web_server, game, client, clock):
    from pbem.club import ladder
    from pbem.store.models import LadderChallenge, LadderRung

    _club_rows(web_server, clock)
    ladder.new_ladder(web_server.services, "duel-ladder", "duel", above=2, open_max=1, cooldown_days=5,
                      expire_days=3)
    with web_server.session() as s:
        for place, fp in enumerate(("SHA256:bee", "SHA256:ann", "SHA256:cid"), 1):
            s.add(LadderRung(ladder="duel-ladder", fingerprint=fp, place=place, joined_at=clock.now))
        s.add(LadderChallenge(ladder="duel-ladder", challenger="SHA256:ann", challenged="SHA256:bee",
                              status="accepted", game_id="g1", created_at=clock.now, expires_at=clock.now))
        s.add(LadderChallenge(ladder="duel-ladder", challenger="SHA256:cid", challenged="SHA256:ann",
                              created_at=clock.now, expires_at=clock.now + timedelta(days=3)))
        s.add(LadderChallenge(ladder="duel-ladder", challenger="SHA256:cid", challenged="SHA256:bee",
                              status="declined", created_at=clock.now, expires_at=clock.now))
        s.commit()
    assert 'href="/ladders/"' in client.get("/").text
    listing = client.get("/ladders/")
    assert 'href="/ladders/duel-ladder"' in listing.text and "<td>3</td>" in listing.text
    r = client.get("/ladders/duel-ladder")
    page = r.text
    assert r.status_code == 200 and "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer" and "cache-control" not in r.headers
    assert "up to 2 place(s) above" in page and "1 challenge(s) under way at most" in page and "5 day(s)" in page
    # the standings `pbem ladder show` prints, in its order; a member without a name by key
    assert page.index("<code>SHA256:bee") < page.index("<td>Ann</td>") < page.index("<code>SHA256:cid")
    assert "accepted: the game is being played" in page and "open until" in page
    assert page.count("<tr><td>") == 3 + 2  # the declined challenge is not under way
    assert "@players.test" not in page and "g1" not in page  # no address, nor the running game's id
    assert client.get("/ladders/nope").status_code == 404


def test_a_tournament_page_shows_points_sonneborn_berger_and_rounds_with_archive_links(web_server, game, client,
                                                                                        clock):
    from pbem.store.models import Tournament, TournamentGame

    _club_rows(web_server, clock)
    schedule = [[["SHA256:ann", "SHA256:bee"]], [["SHA256:ann", "SHA256:cid"]], [["SHA256:bee", "SHA256:cid"]]]
    web_server.end_game("g1", "east wins on points")
    with web_server.session() as s:
        s.add(Tournament(name="autumn", ruleset="duel", scenario="standard", schedule_json=json.dumps(schedule),
                         round=2, created_at=clock.now))
        s.add(TournamentGame(tournament="autumn", round=1, game_id="g1", first="SHA256:ann", second="SHA256:bee",
                             done=True, winner="SHA256:ann"))
        s.add(TournamentGame(tournament="autumn", round=1, game_id="autumn-r1-2", first="SHA256:bee",
                             second="SHA256:ann", done=True, winner=""))
        s.add(TournamentGame(tournament="autumn", round=2, game_id="autumn-r2-1", first="SHA256:ann",
                             second="SHA256:cid"))
        s.commit()
    assert 'href="/tournaments/"' in client.get("/").text
    listing = client.get("/tournaments/").text
    assert 'href="/tournaments/autumn"' in listing and "<td>2 of 3</td>" in listing
    r = client.get("/tournaments/autumn")
    page = r.text
    assert r.status_code == 200 and r.headers["x-frame-options"] == "DENY" and "cache-control" not in r.headers
    # Ann a win and a draw against Bee: 1.5 points, SB 1.5 x Bee's 0.5; Bee 0.5, SB 0.5 x 1.5; Cid nothing yet
    assert "<td>1</td><td>Ann</td><td>1.5</td><td>0.75</td><td>2</td>" in page
    assert "<td>2</td><td><code>SHA256:bee…</code></td><td>0.5</td><td>0.75</td><td>2</td>" in page
    assert "<td>3</td><td><code>SHA256:cid…</code></td><td>0</td><td>0</td><td>0</td>" in page
    assert "<h2>Round 1</h2>" in page and "<h2>Round 2</h2>" in page and "Round 3" not in page
    assert '<a href="/archive/g1/">g1</a>' in page and "Ann won" in page and "a draw" in page
    assert 'href="/archive/autumn-r' not in page and "being played" in page  # no archive page for these
    assert "@players.test" not in page
    assert client.get("/tournaments/nope").status_code == 404


def test_a_swiss_tournament_is_listed_with_its_rounds_to_come(web_server, client, clock):
    """A Swiss tournament keeps its system, players and rounds, not a drawn list: the pages read it through the
    tournament's own ``plan`` (round 1 of 2 drawn, three players)."""
    from pbem.store.models import Tournament

    _club_rows(web_server, clock)
    schedule = {"system": "swiss", "rounds": 2, "players": ["SHA256:ann", "SHA256:bee", "SHA256:cid"],
                "drawn": [[["SHA256:ann", "SHA256:bee"]]]}
    with web_server.session() as s:
        s.add(Tournament(name="winter", ruleset="duel", scenario="standard", schedule_json=json.dumps(schedule),
                         round=1, created_at=clock.now))
        s.commit()
    listing = client.get("/tournaments/").text
    assert 'href="/tournaments/winter"' in listing and "<td>1 of 2</td>" in listing and "<td>3</td>" in listing
    r = client.get("/tournaments/winter")
    assert r.status_code == 200 and "winter" in r.text
