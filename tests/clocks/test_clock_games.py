"""Games on time banks, rest days and seats nobody abandons, played by mail over simulated weeks."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import col, select

from pbem import gm
from pbem.clocks.bank import ClockSpec
from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.journal import local_time
from pbem.replay import replay
from pbem.services.records import ServerError
from pbem.store.models import Journal, Outbox, Seat
from pbem.store.times import aware
from tests.helpers import mail, orders_mail

DAY = 86400


def command_mail(game, lines, key, side=None):
    header = {"Game": game, **({"Side": side} if side else {})}
    text = order_file_text("command", header, lines)
    return mail(text + sshsig.sign(key, text.encode()), sender="gm@club.test")


@pytest.fixture
def gm_server(server, keys):
    (server.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    server.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    return server


def new_game(server, keys, game="g1", *, clock="bank:3d+1d/5d", abandon_after=None, bots=(), seats=("east", "west"),
             tz="UTC", seed=b"fixed seed of a clock game"):
    server.new_game(game, "duel", "standard", seed=seed + game.encode())
    gm.clock_settings(server.services, game, clock=clock, abandon_after=abandon_after, bots=tuple(bots))
    for seat in seats:
        server.add_player(game, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line(), tz=tz)
    return game


def seat_row(server, game, name) -> Seat:
    with server.session() as s:
        return s.exec(select(Seat).where(Seat.game_id == game, Seat.name == name)).one()


def entries(server, game, kind=None):
    with server.session() as s:
        rows = s.exec(select(Journal).where(Journal.game_id == game).order_by(col(Journal.seq))).all()
    return [(j, json.loads(j.payload_json)) for j in rows if kind is None or j.kind == kind]


def miss(server, game, seat):
    """Orders that never hit (the test knows where the foe hides), so no interrupt window comes up."""
    foe = "west" if seat == "east" else "east"
    post = server.view_of(_game(server, game), foe)["post"]
    return f"FIRE {1 if post != 1 else 2}\nMOVE 0\n"


def _game(server, game):
    from pbem.store.models import Game
    with server.session() as s:
        return s.get(Game, game)


def send(server, game, seat, keys, key=None):
    v = server.ingest(orders_mail(server, game, seat, miss(server, game, seat), key or keys[seat]))
    assert v.status == "accepted", v.reasons
    return v


def test_a_fast_side_banks_time_and_each_side_has_its_own_deadline(gm_server, keys, clock):
    g = new_game(gm_server, keys)
    start = clock.now
    east, west = seat_row(gm_server, g, "east"), seat_row(gm_server, g, "west")
    assert aware(east.clock_due) == aware(west.clock_due) == start + timedelta(days=3)
    assert "your clock: 3 d left" in gm_server.sitrep(g, "east").text
    assert "CLOCK" in [p.get("command") for _, p in entries(gm_server, g, "gm")]
    assert "time bank: 3 d to start, 1 d added each phase, at most 5 d" in gm_server.sitrep(g, "west").text

    clock.advance(hours=1)
    send(gm_server, g, "east", keys)
    clock.advance(days=2)
    send(gm_server, g, "west", keys)  # both in: the phase resolves at once
    assert gm_server.status(g)["turn"] == 2
    _, payload = entries(gm_server, g, "resolve")[-1]
    assert payload["clocks"]["east"] == {"bank_before": 3 * DAY, "ran": 3600, "granted": 0,
                                         "bank_after": 4 * DAY - 3600, "late": False}
    assert payload["clocks"]["west"]["bank_after"] == 2 * DAY - 3600
    now = clock.now
    assert payload["deadlines"] == {"east": (now + timedelta(days=4, hours=-1)).isoformat(),
                                    "west": (now + timedelta(days=2, hours=-1)).isoformat()}
    # each side's sitrep shows its own deadline and clock; the game waits for the latest
    assert "your clock: 3 d 23 h left" in gm_server.sitrep(g, "east").text
    assert "your clock: 1 d 23 h left" in gm_server.sitrep(g, "west").text
    assert gm_server.status(g)["deadline"] == payload["deadlines"]["east"]

    # the acknowledgement of a side's orders names its own deadline, not the game's latest
    send(gm_server, g, "west", keys)
    with gm_server.session() as s:
        ack = s.exec(select(Outbox).where(Outbox.kind == "ack", Outbox.to_addr == "west@players.test")
                     .order_by(col(Outbox.id).desc())).first()
    assert local_time(now + timedelta(days=2, hours=-1), "UTC") in json.loads(ack.parts_json)["text"]
    send(gm_server, g, "east", keys)
    # the fast side keeps answering fast: its bank grows to the cap and no further
    for _ in range(3):
        send(gm_server, g, "east", keys)
        send(gm_server, g, "west", keys)
    assert seat_row(gm_server, g, "east").bank == 5 * DAY
    assert replay(gm_server, g).ok


def test_a_silent_side_is_defaulted_at_its_own_deadline_not_the_latest(gm_server, keys, clock):
    g = new_game(gm_server, keys)
    send(gm_server, g, "east", keys)
    clock.advance(days=2, hours=23)
    send(gm_server, g, "west", keys)  # west: 1 h left, +1 d; east: almost 4 d
    assert gm_server.status(g)["turn"] == 2
    west_due = aware(seat_row(gm_server, g, "west").clock_due)
    assert west_due == clock.now + timedelta(days=1, hours=1)
    send(gm_server, g, "east", keys)
    assert gm_server.next_deadline() == west_due
    clock.advance(days=1)
    assert g not in gm_server.due_games() and tick(gm_server).resolved == 0
    clock.now = west_due
    assert g in gm_server.due_games()
    assert tick(gm_server).resolved == 1  # days before the game's latest deadline (east's)
    _, payload = entries(gm_server, g, "resolve")[-1]
    assert payload["missing"] == ["west"] and payload["clocks"]["west"]["late"]
    assert payload["clocks"]["west"]["bank_after"] == DAY  # the bank ran out: only the day added
    assert seat_row(gm_server, g, "west").missed == 1


def test_a_reminder_goes_before_each_sides_own_deadline(gm_server, keys, clock):
    g = new_game(gm_server, keys)
    send(gm_server, g, "east", keys)
    clock.advance(days=2, hours=23)
    send(gm_server, g, "west", keys)
    send(gm_server, g, "east", keys)
    clock.advance(hours=14)  # west has 11 h left (reminders 12 h before)
    assert gm_server.remind() == 1
    with gm_server.session() as s:
        notes = s.exec(select(Outbox).where(Outbox.kind == "notice", Outbox.to_addr == "west@players.test")).all()
    assert len(notes) == 1 and "Reminder" in json.loads(notes[0].parts_json)["text"]


def test_after_n_missed_phases_the_seat_is_in_civil_disorder_and_a_new_player_takes_it(gm_server, keys, clock):
    g = new_game(gm_server, keys, abandon_after=2)
    for n in (1, 2):
        send(gm_server, g, "east", keys)
        clock.now = aware(seat_row(gm_server, g, "west").clock_due)
        tick(gm_server)
        assert seat_row(gm_server, g, "west").missed == n
    west = seat_row(gm_server, g, "west")
    assert west.bot == "disorder"
    assert "west has sent no orders for 2 phases in a row" in gm_server.sitrep(g, "east").text
    with gm_server.session() as s:
        told = s.exec(select(Outbox).where(Outbox.to_addr == "gm@club.test", Outbox.kind == "notice")).all()
    assert any("civil disorder" in r.subject and "pbem gm replace g1 SIDE" in json.loads(r.parts_json)["text"]
               for r in told)
    # now the phase never waits for west: east's orders resolve it, the scripted player writes west's
    assert seat_row(gm_server, g, "west").clock_due is None
    turn = gm_server.status(g)["turn"]
    send(gm_server, g, "east", keys)
    st = gm_server.status(g)
    assert (st["turn"], st["window"]) == (turn + 1, "orders")  # at once: no waiting for a deadline
    _, payload = entries(gm_server, g, "resolve")[-1]
    assert payload["bots"] == ["west"] and payload["missing"] == []
    assert payload["orders"]["west"].startswith("PBEM-ORDERS")  # stored as any orders, so replay reads them
    assert replay(gm_server, g).ok

    # the GM seats a new player: the seat's sitreps so far, and nothing of another seat's
    before = [r.text for r in _sitreps(gm_server, g, "west")]
    newkey = sshsig.generate_private_key()
    gm.replace_player(gm_server.services, g, "west", "newwest@players.test", sshsig.public_key_of(newkey).line())
    west = seat_row(gm_server, g, "west")
    assert (west.bot, west.missed) == ("", 0)
    with gm_server.session() as s:
        hist = s.exec(select(Outbox).where(Outbox.to_addr == "newwest@players.test", Outbox.kind == "notice")).one()
    text = json.loads(hist.parts_json)["text"]
    assert all(t in text for t in before)
    assert "east hides" not in text and not any(r.text in text for r in _sitreps(gm_server, g, "east"))
    # the new player's clock runs from now, on the seat's bank
    assert aware(west.clock_due) == clock.now + timedelta(seconds=west.bank)
    send(gm_server, g, "west", keys, key=newkey)
    assert gm_server.status(g)["in"] == ["west"]


def _sitreps(server, game, seat):
    from pbem.store.models import Sitrep
    with server.session() as s:
        return s.exec(select(Sitrep).where(Sitrep.game_id == game, Sitrep.seat == seat)).all()


def test_a_player_who_comes_back_plays_the_seat_again(gm_server, keys, clock):
    g = new_game(gm_server, keys, abandon_after=1)
    send(gm_server, g, "east", keys)
    clock.now = aware(seat_row(gm_server, g, "west").clock_due)
    tick(gm_server)
    assert seat_row(gm_server, g, "west").bot == "disorder"
    # west's orders arrive before east's: they are taken and the phase waits for east as ever
    send(gm_server, g, "west", keys)
    send(gm_server, g, "east", keys)
    assert seat_row(gm_server, g, "west").bot == ""
    _, payload = entries(gm_server, g, "resolve")[-1]
    assert "west is played by its player again" in payload["notices"] and "bots" not in payload


def test_a_practice_game_against_the_scripted_player_by_mail(gm_server, keys, clock):
    g = new_game(gm_server, keys, clock="", bots=("west",), seats=("east",))
    assert gm_server.status(g)["status"] == "active"  # nobody needed for west
    for _ in range(8):
        st = gm_server.status(g)
        if st["status"] != "active":
            break
        if st["window"] == "interrupt":
            gm_server.ingest(orders_mail(gm_server, g, "east", "DIG\n", keys["east"]))
        else:
            send(gm_server, g, "east", keys)
    assert any(p.get("bots") == ["west"] for _, p in entries(gm_server, g, "resolve"))
    with gm_server.session() as s:
        assert not s.exec(select(Outbox).where(Outbox.to_addr == "")).all()  # west's sitreps go to nobody
    assert _sitreps(gm_server, g, "west")  # but are kept, for a player who takes the seat later
    assert replay(gm_server, g).ok


def test_clock_settings_are_checked_and_fixed_before_the_start(gm_server, keys):
    gm_server.new_game("g2", "duel", "standard", seed=b"fixed seed of game g2")
    with pytest.raises(ServerError, match="should look like"):
        gm.clock_settings(gm_server.services, "g2", clock="3 days")
    with pytest.raises(ServerError, match="no side 'north'"):
        gm.clock_settings(gm_server.services, "g2", bots=("north",))
    with pytest.raises(ServerError, match="every side would be scripted"):
        gm.clock_settings(gm_server.services, "g2", bots=("east", "west"))
    g = new_game(gm_server, keys)
    with pytest.raises(ServerError, match="has started"):
        gm.clock_settings(gm_server.services, g, abandon_after=3)


def test_rest_days_by_signed_mail_stop_the_clock_from_a_week_later_across_the_change_of_clocks(
        gm_server, keys, clock):
    clock.now = datetime(2026, 10, 16, 12, 0, tzinfo=UTC)  # a Friday, 14:00 in Warsaw
    g = new_game(gm_server, keys, clock="bank:9d+12h/10d", tz="Europe/Warsaw")
    due = aware(seat_row(gm_server, g, "east").clock_due)
    assert due == clock.now + timedelta(days=9)
    v = gm_server.ingest(command_mail(g, "REST sat sun\n", keys["east"], side="east"))
    assert v.status == "accepted", v.reasons
    east = seat_row(gm_server, g, "east")
    assert aware(east.rest_from) == clock.now + timedelta(days=7) and east.rest_next == "5,6"
    # not this weekend: tomorrow cannot become a rest day; the weekend after the change can. The clock
    # stops at midnight Friday 23 Oct (22:00 UTC, 7 d 10 h run) and runs again at midnight Monday
    # (23:00 UTC Sunday: the clocks went back), for the last 1 d 14 h
    assert aware(east.clock_due) == datetime(2026, 10, 27, 13, 0, tzinfo=UTC)
    send(gm_server, g, "east", keys)
    clock.now = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)  # the next phase starts on the next Friday
    send(gm_server, g, "west", keys)
    assert "east's deadlines may move" in gm_server.sitrep(g, "west").text
    # east has 9.5 d; Sat 24 and Sun 25 Oct (25 h long: the clocks go back), Sat 31 and Sun 1 Nov do not
    # count: Fri 10 h + Mon-Fri 120 h + Mon-Thu 96 h = 226 h, and the last 2 h end at 02:00 CET on 6 Nov
    due = aware(seat_row(gm_server, g, "east").clock_due)
    assert due == datetime(2026, 11, 6, 1, 0, tzinfo=UTC)
    assert aware(seat_row(gm_server, g, "west").clock_due) == clock.now + timedelta(days=2, hours=12)
    _, payload = entries(gm_server, g, "resolve")[-1]
    assert payload["deadlines"]["east"] == due.isoformat()
    assert "your clock: 9 d 12 h left" in gm_server.sitrep(g, "east").text
    # the resting side answers on Monday noon: the weekend is not charged, and nothing is added for it
    clock.now = datetime(2026, 10, 25, 12, 0, tzinfo=UTC)
    send(gm_server, g, "west", keys)
    clock.now = datetime(2026, 10, 26, 11, 0, tzinfo=UTC)
    send(gm_server, g, "east", keys)
    _, payload = entries(gm_server, g, "resolve")[-1]
    assert payload["clocks"]["east"]["ran"] == 22 * 3600  # Fri 14:00-24:00 and Mon 00:00-12:00
    assert payload["clocks"]["east"]["bank_after"] == 228 * 3600 - 22 * 3600 + 12 * 3600
    assert payload["clocks"]["west"]["ran"] == 48 * 3600  # west rests on no day
    assert replay(gm_server, g).ok


def test_rest_is_refused_when_it_cannot_apply(gm_server, keys):
    g = new_game(gm_server, keys)
    v = gm_server.ingest(command_mail(g, "REST fri sat sun\n", keys["east"], side="east"))
    assert v.status == "rejected" and "at most 2" in v.reasons[0]
    h = new_game(gm_server, {**keys, "east": keys["mallory"], "west": keys["gm"]}, game="g9", clock="")
    v = gm_server.ingest(command_mail(h, "REST sun\n", keys["mallory"], side="east"))
    assert v.status == "accepted" and "no time bank" in v.reasons[0]


def test_several_games_per_player_keep_their_own_clocks(gm_server, keys, clock):
    a = new_game(gm_server, keys, game="a1")
    b = new_game(gm_server, keys, game="b1", clock="bank:1d+12h/2d")
    send(gm_server, a, "east", keys)
    send(gm_server, b, "east", keys)
    assert gm_server.ingest(command_mail(a, "REST sun\n", keys["east"], side="east")).status == "accepted"
    assert seat_row(gm_server, a, "east").rest_next == "6" and seat_row(gm_server, b, "east").rest_next == ""
    clock.advance(hours=20)
    send(gm_server, b, "west", keys)
    send(gm_server, a, "west", keys)
    assert seat_row(gm_server, a, "west").bank == 4 * DAY - 20 * 3600
    assert seat_row(gm_server, b, "west").bank == DAY - 20 * 3600 + 12 * 3600
    assert replay(gm_server, a).ok and replay(gm_server, b).ok


def test_pause_extend_and_vacation_move_the_clocks_without_banking_time(gm_server, keys, clock):
    g = new_game(gm_server, keys)
    start = clock.now
    gm_server.pause(g)
    clock.advance(days=10)
    gm_server.resume(g)
    assert aware(seat_row(gm_server, g, "east").clock_due) == start + timedelta(days=13)
    gm_server.extend(g, 24)
    assert aware(seat_row(gm_server, g, "west").clock_due) == start + timedelta(days=14)
    assert gm_server.ingest(command_mail(g, "VACATION 24\n", keys["east"], side="east")).status == "accepted"
    assert aware(seat_row(gm_server, g, "east").clock_due) == start + timedelta(days=15)
    assert aware(seat_row(gm_server, g, "west").clock_due) == start + timedelta(days=14)
    assert gm_server.status(g)["deadline"] == (start + timedelta(days=15)).isoformat()
    clock.advance(days=1)
    send(gm_server, g, "east", keys)
    send(gm_server, g, "west", keys)
    _, payload = entries(gm_server, g, "resolve")[-1]
    # east's clock ran 11 days, 10 of them paused and 1 granted with the extension... and its vacation
    assert payload["clocks"]["east"]["granted"] == 12 * DAY
    assert payload["clocks"]["east"]["bank_after"] == 4 * DAY  # all 3 d kept, 1 d added: nothing more


def test_vacation_is_earned_with_each_day_of_play_and_the_others_see_only_that_the_deadline_moved(
        gm_server, keys, clock):
    gm_server.new_game("v1", "duel", "standard", seed=b"fixed seed of game v1 vacation",
                       settings={"vacation_hours": 24.0})
    gm.clock_settings(gm_server.services, "v1", clock="bank:5d+2d/5d", vacation_earn=3.0)
    for seat in ("east", "west"):
        gm_server.add_player("v1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    v = gm_server.ingest(command_mail("v1", "VACATION 1\n", keys["east"], side="east"))
    assert "you have earned 0" in " ".join(v.reasons)
    for _ in range(4):  # four phases of 2.5 days each: 30 hours earned, 24 kept
        clock.advance(days=2, hours=12)
        send(gm_server, "v1", "east", keys)
        send(gm_server, "v1", "west", keys)
    assert seat_row(gm_server, "v1", "east").vacation_balance == 24.0
    due = aware(seat_row(gm_server, "v1", "east").clock_due)
    other = aware(seat_row(gm_server, "v1", "west").clock_due)
    v = gm_server.ingest(command_mail("v1", "VACATION 20\n", keys["east"], side="east"))
    assert "east took 20 hours of vacation" in v.reasons[0]
    assert aware(seat_row(gm_server, "v1", "east").clock_due) == due + timedelta(hours=20)
    assert aware(seat_row(gm_server, "v1", "west").clock_due) == other  # only the taker's deadline
    west = gm_server.sitrep("v1", "west").text
    assert "east's deadline moved by 20 hours" in west and "vacation" not in west.lower()
    _, payload = [e for e in entries(gm_server, "v1", "gm") if e[1]["command"].startswith("VACATION")][-1]
    assert (payload["by"], payload["vacation_left"]) == ("east", 4.0)  # the journal says why, and who
    v = gm_server.ingest(command_mail("v1", "VACATION 5\n", keys["east"], side="east"))
    assert "you have earned 4" in " ".join(v.reasons)
    # vacation hours are granted beside the bank: never banked
    clock.advance(hours=30)
    send(gm_server, "v1", "east", keys)
    send(gm_server, "v1", "west", keys)
    _, payload = entries(gm_server, "v1", "resolve")[-1]
    assert payload["clocks"]["east"] == {"bank_before": 3 * DAY, "ran": 30 * 3600, "granted": 20 * 3600,
                                         "bank_after": 5 * DAY - 10 * 3600, "late": False}


def test_a_gm_may_forbid_vacation(gm_server, keys):
    gm_server.new_game("v2", "duel", "standard", seed=b"fixed seed of game v2 vacation",
                       settings={"vacation_hours": 0.0})
    for seat in ("east", "west"):
        gm_server.add_player("v2", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    v = gm_server.ingest(command_mail("v2", "VACATION 1\n", keys["east"], side="east"))
    assert "allows no vacation" in " ".join(v.reasons)


def test_six_weeks_of_three_games_driven_only_by_the_daemon(gm_server, keys, clock):
    """East plays three games on one key; west answers each phase after a (seeded) delay, sometimes never.
    Only the daemon's passes, every three hours, resolve anything."""
    import random

    rnd = random.Random(2126)
    specs = {"w1": "bank:3d+1d/5d", "w2": "bank:1d+12h/2d", "w3": "bank:2d+1d/4d"}
    for game, spec in specs.items():
        new_game(gm_server, keys, game=game, clock=spec, abandon_after=2, tz="Europe/Warsaw")
        assert gm_server.ingest(command_mail(game, "REST sun\n", keys["west"], side="west")).status == "accepted"
    plan: dict[tuple[str, int, str], datetime | None] = {}
    lates = 0
    end = clock.now + timedelta(weeks=6)
    while clock.now < end:
        for game in specs:
            st = gm_server.status(game)
            if st["status"] != "active":
                continue
            for seat in st["owing"]:
                key = (game, st["turn"], st["phase"] + seat)
                if key not in plan:
                    delay = rnd.choice([1, 5, 20, 40, 70, None]) if seat == "west" else rnd.choice([2, 10, 20])
                    if (game, seat) == ("w3", "west") and st["turn"] >= 3:
                        delay = None  # gone: two missed phases, then the scripted player takes over
                    plan[key] = None if delay is None else clock.now + timedelta(hours=delay)
                if plan[key] is not None and plan[key] <= clock.now and not seat_row(gm_server, game, seat).bot:
                    body = "DIG\n" if st["window"] == "interrupt" else miss(gm_server, game, seat)
                    v = gm_server.ingest(orders_mail(gm_server, game, seat, body, keys[seat]), advance=False)
                    assert v.status == "accepted", v.reasons
        tick(gm_server)
        clock.advance(hours=3)
    for game, spec in specs.items():
        cap, inc = ClockSpec.parse(spec).cap, ClockSpec.parse(spec).increment
        deadlines: dict[str, str] = {}
        resolved = 0
        for j, payload in entries(gm_server, game):
            for seat, rec in payload.get("clocks", {}).items():
                resolved += 1
                assert 0 < rec["bank_after"] <= cap
                if rec["late"]:  # never defaulted before its own deadline
                    lates += 1
                    assert aware(j.created_at) >= datetime.fromisoformat(deadlines[seat])
                else:
                    used = max(0, rec["ran"] - rec["granted"])
                    assert abs(rec["bank_after"] - min(cap, max(0, rec["bank_before"] - used) + inc)) <= 1
            deadlines = payload.get("deadlines", deadlines) if j.kind != "resolve" or "deadlines" in payload \
                else {}
        assert resolved >= 6, gm_server.status(game)
        assert replay(gm_server, game).ok
    assert lates >= 3
    assert any(p.get("bots") == ["west"] for _, p in entries(gm_server, "w3"))
    with gm_server.session() as s:
        told = s.exec(select(Outbox).where(Outbox.to_addr == "gm@club.test", Outbox.game_id == "w3")).all()
    assert any("civil disorder" in r.subject for r in told)
    assert all(gm_server.status(g)["status"] == "over" for g in specs)
