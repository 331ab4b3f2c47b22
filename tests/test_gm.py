"""GM control and long-running games: commands by CLI and by signed mail, reminders, grace, breaker."""
import json

import pytest
from sqlmodel import select

from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.replay import replay
from pbem.store.models import Outbox
from tests.helpers import mail, orders_mail


def command_mail(game, lines, key, side=None):
    header = {"Game": game, **({"Side": side} if side else {})}
    text = order_file_text("command", header, lines)
    return mail(text + sshsig.sign(key, text.encode()), sender="gm@club.test")


@pytest.fixture
def gm_server(server, keys):
    (server.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    server.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    return server


def outbox(server, kind=None):
    with server.session() as s:
        rows = s.exec(select(Outbox).order_by(Outbox.id)).all()
    return [r for r in rows if kind is None or r.kind == kind]


def text_of(row):
    return json.loads(row.parts_json)["text"]


def test_pause_and_resume_keep_the_time_left(gm_server, duel_game, clock):
    before = gm_server.status(duel_game)["deadline"]
    gm_server.pause(duel_game)
    assert gm_server.status(duel_game)["status"] == "paused"
    clock.advance(days=10)
    assert tick(gm_server).resolved == 0
    gm_server.resume(duel_game)
    st = gm_server.status(duel_game)
    assert st["status"] == "active" and st["deadline"] > before  # the 10 paused days do not count


def test_extend_is_reported_in_every_sides_next_sitrep(gm_server, duel_game, keys):
    gm_server.extend(duel_game, 24)
    for seat in ("east", "west"):
        assert "the GM extended the deadline by 24 hours" in gm_server.sitrep(duel_game, seat).text


def test_resolve_now_defaults_missing_orders(gm_server, duel_game, keys):
    gm_server.ingest(orders_mail(gm_server, duel_game, "east", "FIRE 1\n", keys["east"]))
    gm_server.resolve_now(duel_game)
    text = gm_server.sitrep(duel_game, "east").text
    assert "west sent no orders" in text and "without waiting for the deadline" in text


def test_rollback_replays_and_the_game_goes_on(gm_server, duel_game, keys):
    start = gm_server.journal(duel_game)[-1]["seq"]
    for _ in range(2):
        st = gm_server.status(duel_game)
        for seat in st["owing"]:
            body = "DIG\n" if st["window"] == "interrupt" else "FIRE 3\n"
            gm_server.ingest(orders_mail(gm_server, duel_game, seat, body, keys[seat]))
    assert gm_server.status(duel_game)["turn"] > 1
    gm_server.rollback(duel_game, start)
    st = gm_server.status(duel_game)
    assert (st["turn"], st["phase"], st["in"]) == (1, "fire", [])
    assert "rolled the game back to turn 1" in gm_server.sitrep(duel_game, "west").text
    gm_server.ingest(orders_mail(gm_server, duel_game, "east", "FIRE 2\n", keys["east"]))
    gm_server.ingest(orders_mail(gm_server, duel_game, "west", "FIRE 2\n", keys["west"]))
    assert gm_server.status(duel_game)["turn"] >= 1
    report = replay(gm_server, duel_game)
    assert report.ok, report.problems


def test_replace_player_moves_the_seat_to_a_new_key(gm_server, duel_game, keys):
    new = sshsig.generate_private_key()
    gm_server.replace_player(duel_game, "west", "new-west@x.test", sshsig.public_key_of(new).line())
    assert gm_server.ingest(orders_mail(gm_server, duel_game, "west", "FIRE 1\n", keys["west"])).status == "rejected"
    assert gm_server.ingest(orders_mail(gm_server, duel_game, "west", "FIRE 1\n", new)).status == "accepted"
    assert outbox(gm_server, "sitrep")[-1].to_addr in ("new-west@x.test", "east@players.test")


def test_resend_and_end(gm_server, duel_game):
    gm_server.resend(duel_game, "east")
    assert sum(r.to_addr == "east@players.test" and r.kind == "sitrep" for r in outbox(gm_server)) == 2
    gm_server.end_game(duel_game, "abandoned by agreement")
    final = gm_server.sitrep(duel_game, "west").text
    assert "GAME OVER: abandoned by agreement" in final and "Seed, revealed" in final
    assert "YOUR ORDERS" not in final
    assert replay(gm_server, duel_game).ok


def test_gm_commands_by_signed_mail(gm_server, duel_game, keys):
    v = gm_server.ingest(command_mail(duel_game, "EXTEND 12\nPAUSE\n", keys["gm"]))
    assert v.status == "accepted", v.line()
    assert gm_server.status(duel_game)["status"] == "paused"
    ack = outbox(gm_server, "ack")[-1]
    assert ack.to_addr == "gm@club.test" and "extended the deadline by 12 hours" in text_of(ack)


def test_a_player_cannot_sign_gm_commands(gm_server, duel_game, keys):
    v = gm_server.ingest(command_mail(duel_game, "END\n", keys["east"]))
    assert v.status == "rejected" and "must be signed with the GM's key" in v.reasons[0]
    assert gm_server.status(duel_game)["status"] == "active"
    assert outbox(gm_server, "reject")[-1].to_addr == "east@players.test"


def test_a_signed_command_runs_once(gm_server, duel_game, keys):
    raw = command_mail(duel_game, "EXTEND 1\n", keys["gm"])
    assert gm_server.ingest(raw).status == "accepted"
    v = gm_server.ingest(raw.replace(b"Message-ID: <", b"Message-ID: <again-"))
    assert v.status == "rejected" and "already carried out" in v.reasons[0]


def test_unknown_command_is_named(gm_server, duel_game, keys):
    v = gm_server.ingest(command_mail(duel_game, "NUKE everything\n", keys["gm"]))
    assert v.status == "rejected" and "NUKE is not a command" in v.reasons[0]


def test_player_vacation_within_the_limit(gm_server, duel_game, keys):
    before = gm_server.status(duel_game)["deadline"]
    v = gm_server.ingest(command_mail(duel_game, "VACATION 48\n", keys["east"], side="east"))
    assert v.status == "accepted", v.line()
    assert gm_server.status(duel_game)["deadline"] > before
    assert "east took 48 hours of vacation" in v.reasons[0]  # the player's answer says why; the others see only
    assert "the deadline moved by 48 hours" in gm_server.sitrep(duel_game, "west").text  # that it moved (#21)
    assert "vacation" not in gm_server.sitrep(duel_game, "west").text
    v = gm_server.ingest(command_mail(duel_game, "VACATION 30\n", keys["east"], side="east"))
    assert v.status == "accepted" and "you have 24 of the game's 72 left" in " ".join(v.reasons)
    assert "not accepted" in text_of(outbox(gm_server, "ack")[-1]).lower()


def test_reminders_go_once_to_those_still_owing(gm_server, duel_game, keys, clock):
    gm_server.ingest(orders_mail(gm_server, duel_game, "east", "FIRE 1\n", keys["east"]))
    clock.advance(hours=30)
    assert gm_server.remind() == 0
    clock.advance(hours=7)  # 11 hours left, inside the 12-hour reminder window
    assert gm_server.remind() == 1 and gm_server.remind() == 0
    [r] = outbox(gm_server, "notice")
    assert r.to_addr == "west@players.test" and "are due" in text_of(r)


def test_grace_period_delays_the_default(server, keys, clock):
    server.new_game("gr", "duel", "standard", seed=b"a seed of 16+ bytes", settings={"grace_hours": 6})
    for seat in ("east", "west"):
        server.add_player("gr", seat, f"{seat}@x.test", sshsig.public_key_of(keys[seat]).line())
    server.ingest(orders_mail(server, "gr", "east", "FIRE 1\n", keys["east"]))
    clock.advance(hours=50)
    assert tick(server).resolved == 0
    clock.advance(hours=5)
    assert tick(server).resolved >= 1


def test_circuit_breaker_holds_when_everyone_is_silent(gm_server, duel_game, clock):
    clock.advance(hours=49)
    report = tick(gm_server)
    assert report.resolved == 0 and report.held == [duel_game]
    assert "circuit breaker" in gm_server.status(duel_game)["held_reason"]
    assert any(r.to_addr == "gm@club.test" for r in outbox(gm_server, "notice"))
    gm_server.resume(duel_game)
    assert gm_server.status(duel_game)["status"] == "active"


def test_weekly_schedule_sets_local_deadlines(server, keys, clock):
    server.new_game("wk", "duel", "standard", seed=b"a seed of 16+ bytes", schedule="mon,thu 20:00 Europe/Warsaw")
    for seat, tz in (("east", "Asia/Tokyo"), ("west", "America/New_York")):
        server.add_player("wk", seat, f"{seat}@x.test", sshsig.public_key_of(keys[seat]).line(), tz=tz)
    # clock: Sunday 1 Nov 2026 12:00 UTC -> at least 12 h later -> Monday 2 Nov 20:00 Warsaw = 19:00 UTC
    assert server.status("wk")["deadline"].startswith("2026-11-02T19:00")
    assert "Asia/Tokyo" in server.sitrep("wk", "east").text and "04:00" in server.sitrep("wk", "east").text
    assert "America/New_York" in server.sitrep("wk", "west").text


# ---------------------------------------------------------------- arguments (issue 12)
@pytest.mark.parametrize("line, fragment", [
    ("ROLLBACK nan", "ROLLBACK takes a journal entry number like 3"),
    ("ROLLBACK inf", "ROLLBACK takes a journal entry number like 3"),
    ("ROLLBACK -1", "ROLLBACK takes a journal entry number like 3"),
    ("ROLLBACK 1.5", "ROLLBACK takes a journal entry number like 3"),
    ("ROLLBACK 99999999999999999999", "ROLLBACK takes a journal entry number like 3"),
    ("EXTEND nan", "EXTEND takes a number of hours like 24 or 1.5, not 'nan'"),
    ("EXTEND inf", "EXTEND takes a number of hours"),
    ("EXTEND 1e400", "EXTEND takes a number of hours"),
    ("EXTEND 0", "EXTEND 0: give a number of hours more than 0 and at most 1440"),
    ("EXTEND 100000", "at most 1440"),
    ("RESEND north", "game g1 has no side 'north' (its sides: east, west)"),
    ("RESEND", "RESEND takes 1 argument(s), got 0"),
    ("REPLACE north new@x.test KEY", "game g1 has no side 'north'"),
    ("REPLACE west not-an-address KEY", "'not-an-address' is not an address like name@example.org"),
    ("REPLACE west Anna<a@b.test> KEY", "'Anna<a@b.test>' is not an address like name@example.org"),
    ("REPLACE west new@x.test ssh-ed25519 AAAAnotakey", "the public key does not parse"),
])
def test_malformed_gm_arguments_are_answered_by_line(gm_server, duel_game, keys, line, fragment):
    key = sshsig.public_key_of(sshsig.generate_private_key()).line()
    before = gm_server.status(duel_game)
    v = gm_server.ingest(command_mail(duel_game, f"PAUSE\n{line.replace('KEY', key)}\n", keys["gm"]))
    assert v.status == "rejected" and fragment in " ".join(v.reasons), v.line()
    reply = outbox(gm_server, "reject")[-1]
    assert reply.to_addr == "gm@club.test"
    assert f"line 5: {line.split()[0]}".replace(": ", ": '", 1) in text_of(reply) and fragment in text_of(reply)
    # nothing ran, not even the good first line, and the file is not spent: fixed, it may be sent again
    after = gm_server.status(duel_game)
    assert (after["status"], after["deadline"], after["journal_head"]) == \
        (before["status"], before["deadline"], before["journal_head"])


def test_a_players_vacation_of_nan_hours_is_refused(gm_server, duel_game, keys):
    v = gm_server.ingest(command_mail(duel_game, "VACATION nan\n", keys["east"], side="east"))
    assert v.status == "rejected" and "VACATION takes a number of hours" in v.reasons[0]
    assert outbox(gm_server, "reject")[-1].to_addr == "east@players.test"


def test_a_well_formed_command_that_cannot_run_is_answered_with_its_line(gm_server, duel_game, keys):
    v = gm_server.ingest(command_mail(duel_game, "EXTEND 2\nROLLBACK 999\n", keys["gm"]))
    assert v.status == "accepted"
    assert any("line 5: 'ROLLBACK 999': journal entry 999 of g1 is not a resolution" in r for r in v.reasons)
    assert "extended the deadline by 2 hours" in text_of(outbox(gm_server, "ack")[-1])


@pytest.mark.parametrize("verb, args", [
    ("ROLLBACK", ["nan"]), ("ROLLBACK", ["inf"]), ("ROLLBACK", ["1e9999"]), ("EXTEND", ["nan"]),
    ("EXTEND", []), ("REPLACE", ["west"]), ("REPLACE", ["west", "x@y.test", "junk"]), ("RESEND", ["ghost"]),
    ("VACATION", ["-inf"]), ("END", ["x" * 3000]), ("NUKE", []),
])
def test_run_command_raises_nothing_but_its_own_error(gm_server, duel_game, verb, args):
    with pytest.raises(gm_server.error):
        gm_server.run_command(duel_game, verb, args, by="the GM", seat="east")


@pytest.fixture
def gm_cli(tmp_path, monkeypatch, db_url, keys):
    """The `pbem` command line on a home with the duel game g1 started."""
    from click.testing import CliRunner

    from pbem import rules
    from pbem.cli import main
    from tests.fixtures.duel import RULESET as DUEL

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))
    home = str(tmp_path / "home")

    def run(*args):
        return CliRunner().invoke(main, ["--home", home, *args], catch_exceptions=False)

    assert run("init", "--database", db_url).exit_code == 0
    assert run("game", "new", "g1", "--rules", "duel", "--scenario", "standard").exit_code == 0
    for seat in ("east", "west"):
        (tmp_path / f"{seat}.pub").write_text(sshsig.public_key_of(keys[seat]).line() + "\n")
        assert run("player", "add", "g1", seat, "--email", f"{seat}@x.test", "--key",
                   str(tmp_path / f"{seat}.pub")).exit_code == 0
    return run


@pytest.mark.parametrize("args, fragment", [
    (["extend", "g1", "nan"], "give a number of hours more than 0 and at most 1440"),
    (["extend", "g1", "inf"], "give a number of hours more than 0 and at most 1440"),
    (["extend", "g1", "--", "-3"], "give a number of hours more than 0 and at most 1440"),
    (["rollback", "g1", "99999999999999999999"], "is not a resolution to roll back to"),
    (["rollback", "g1", "--", "-1"], "is not a resolution to roll back to"),
    (["replace", "g1", "west", "--email", "no address", "--key", "KEY"], "give the bare address only"),
])
def test_the_command_line_forms_answer_clearly(gm_cli, tmp_path, args, fragment):
    args = [str(tmp_path / "east.pub") if a == "KEY" else a for a in args]
    result = gm_cli("gm", *args)
    assert result.exit_code != 0 and fragment in result.output, result.output
    assert "Traceback" not in result.output
