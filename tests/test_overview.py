"""The GM's overview (games, players, journal), archiving, export, and checked player data.

Each command runs through click on a real home, with real games of the duel fixture.
"""
import hashlib
import json
import re
import zipfile
from datetime import datetime, timedelta, UTC

import pytest
from click.testing import CliRunner
from sqlmodel import select

from pbem.contact import ContactError, check_address, check_tz
from pbem.core.play import canonical_json
from pbem.crypto import sshsig
from pbem.gm import author
from pbem.journal import GENESIS, entry_hash
from pbem.overview import COLUMNS, ago, games_table, time_left
from pbem.replay import replay
from pbem.store.models import Outbox, Sitrep
from tests.fixtures.duel import RULESET as DUEL
from tests.helpers import orders_mail
from tests.test_gm import command_mail


RUN_SEED = b"the seed of run-1, secret while it runs"


@pytest.fixture
def now(clock):
    # the command line reads the real clock: run the server's test clock from the real now
    clock.now = datetime.now(UTC).replace(microsecond=0)
    return clock


def _run(server, monkeypatch):
    from pbem import rules
    from pbem.cli import main

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))
    runner = CliRunner()

    def run(*args, ok=True):
        result = runner.invoke(main, ["--home", str(server.home.path), *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return run


@pytest.fixture
def gm_cli(server, monkeypatch):
    return _run(server, monkeypatch)


def _players(server, keys, game, tz="UTC"):
    for seat in ("east", "west"):
        server.add_player(game, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line(), tz=tz)


@pytest.fixture
def club(server, keys, now):
    """A held game, a running one, a finished one and one waiting for a player."""
    now.now -= timedelta(hours=50)
    server.new_game("held-1", "duel", "standard", seed=b"held game, 16 bytes")
    _players(server, keys, "held-1")
    now.advance(hours=49)
    server.advance("held-1")  # both sides silent: the circuit breaker holds it
    now.advance(hours=1)
    server.new_game("run-1", "duel", "standard", seed=RUN_SEED)
    _players(server, keys, "run-1")
    server.ingest(orders_mail(server, "run-1", "east", "FIRE 3\n", keys["east"]))
    server.new_game("done-1", "duel", "standard", seed=b"done game, 16 bytes")
    _players(server, keys, "done-1")
    server.end_game("done-1", "a draw")
    server.new_game("open-1", "duel", "standard", seed=b"open game, 16 bytes")
    server.add_player("open-1", "east", "east@players.test", sshsig.public_key_of(keys["east"]).line())
    return now


# ---------------------------------------------------------------- pbem games
def test_games_table_says_who_owes_what_by_when(server, club, gm_cli):
    lines = gm_cli("games", "--tz", "Europe/Warsaw").output.splitlines()
    assert lines[0].startswith("times in Europe/Warsaw")
    assert lines[1].split() == [head for head, _ in COLUMNS]
    assert all(len(line) <= 100 for line in lines)
    rows = {line.split()[0]: line for line in lines[2:] if not line.startswith((" ", "("))}
    assert set(rows) == {"held-1", "run-1", "done-1", "open-1"}
    assert "west" in rows["run-1"] and "east" not in rows["run-1"].split()[5]  # east sent orders
    assert "in 1d 23h" in rows["run-1"]
    deadline = datetime.fromisoformat(server.status("run-1")["deadline"])
    warsaw = deadline.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Warsaw")).strftime("%m-%d %H:%M")
    assert warsaw in rows["run-1"]
    assert rows["open-1"].split()[5] == "west" and "owes players" in lines[-1]
    assert rows["done-1"].split()[2] == "over"
    held_at = lines.index(rows["held-1"])
    assert lines[held_at + 1].startswith("    held: circuit breaker")


def test_games_filters_and_json(server, club, gm_cli):
    owing = gm_cli("games", "--owing").output
    assert "run-1" in owing and "open-1" in owing and "held-1" in owing and "done-1" not in owing
    held = gm_cli("games", "--held").output
    assert "held-1" in held and "run-1" not in held
    data = json.loads(gm_cli("games", "--json").output)
    by_id = {g["game"]: g for g in data}
    run = by_id["run-1"]
    assert run["owing"] == ["west"] and run["waiting_for"] == "orders" and run["left"].startswith("in 1d")
    assert datetime.fromisoformat(run["deadline"]).tzinfo is not None
    assert datetime.fromisoformat(run["last_activity"]) >= datetime.fromisoformat(by_id["held-1"]["last_activity"])
    assert by_id["held-1"]["held_reason"].startswith("circuit breaker")
    assert by_id["open-1"]["owing"] == ["west"] and by_id["open-1"]["waiting_for"] == "players"


def test_games_zone_from_config_and_refused_when_unknown(server, club, gm_cli):
    cfg = server.home.config_path
    cfg.write_text(cfg.read_text().replace("[server]", '[server]\ntz = "America/New_York"', 1))
    assert gm_cli("games").output.startswith("times in America/New_York")
    bad = gm_cli("games", "--tz", "Mars/Olympus", ok=False)
    assert bad.exit_code != 0 and "unknown time zone 'Mars/Olympus'" in bad.output


def test_time_left_reads_like_speech():
    t = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    assert time_left(t + timedelta(days=2, hours=3, minutes=5), t) == "in 2d 3h"
    assert time_left(t + timedelta(minutes=40), t) == "in 40m"
    assert time_left(t - timedelta(hours=4), t) == "overdue 4h"
    assert time_left(None, t) == ""
    assert time_left(t - timedelta(days=1, hours=2), t, units=1) == "overdue 1d"
    assert ago(t - timedelta(hours=5, minutes=3), t) == "5h ago" and ago(t, t) == "now"


def test_a_long_game_id_is_never_cut_short():
    t = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    row = {"game": "the-autumn-club-campaign-2026", "ruleset": "duel", "status": "active", "turn": 3,
           "phase": "fire", "phase_title": "fire and move", "waiting_for": "orders", "owing": ["east"],
           "deadline": t - timedelta(days=1, hours=2), "held_reason": "", "last_activity": t}
    lines = games_table([row], "UTC", t)
    assert lines[2] == "the-autumn-club-campaign-2026"
    assert "overdue 1d " in lines[3] and all(len(line) <= 100 for line in lines)


def test_side_names_that_do_not_fit_are_counted_then_named_in_full():
    t = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    row = {"game": "demo", "ruleset": "bismarck", "status": "active", "turn": 5, "phase": "orders",
           "phase_title": "orders", "waiting_for": "orders", "owing": ["allied", "german"],
           "deadline": t + timedelta(days=2), "held_reason": "", "last_activity": t}
    lines = games_table([row], "UTC", t)
    assert " 2 sides " in lines[2] and "…" not in lines[2]
    assert lines[3] == "    owing: allied, german"


# ---------------------------------------------------------------- pbem players
def test_players_are_grouped_by_key(server, club, gm_cli):
    out = gm_cli("players").output
    assert out.count("key ") == 2  # east and west hold several games each, with one key each
    data = json.loads(gm_cli("players", "--json").output)
    east = next(p for p in data if p["emails"] == ["east@players.test"])
    assert {s["game"] for s in east["seats"]} == {"held-1", "run-1", "done-1", "open-1"}
    assert east["fingerprint"].startswith("SHA256:") and east["zones"] == ["UTC"]
    west = next(p for p in data if p["emails"] == ["west@players.test"])
    assert "open-1" not in {s["game"] for s in west["seats"]}


# ---------------------------------------------------------------- gm journal
def test_journal_shows_when_and_who(server, duel_game, keys, gm_cli):
    server.vacation(duel_game, "east", 5)
    server.extend(duel_game, 2)
    lines = gm_cli("gm", "journal", duel_game, "--tz", "Europe/Warsaw").output.splitlines()
    assert "WHEN (Europe/Warsaw)" in lines[0] and "BY" in lines[0]
    # the test clock stands at 12:00 UTC on 1 November: 13:00 in Warsaw
    assert all("2026-11-01 13:00" in line for line in lines[1:])
    assert "the server" in lines[1] and "setup" in lines[1]
    assert any("side east" in line and "VACATION 5" in line for line in lines)
    assert any("the GM" in line and "EXTEND 2" in line for line in lines)
    assert author("gm", {"command": "PAUSE"}) == "?"  # an entry that never stored its author
    assert "no game 'nope'" in gm_cli("gm", "journal", "nope", ok=False).output
    assert replay(server, duel_game).ok


# ---------------------------------------------------------------- gm archive
def test_archive_puts_a_game_away(server, club, gm_cli, keys):
    assert "no game 'nope'" in gm_cli("gm", "archive", "nope", ok=False).output
    refused = gm_cli("gm", "archive", "run-1", ok=False)
    assert refused.exit_code != 0 and "--force" in refused.output
    assert "archived done-1" in gm_cli("gm", "archive", "done-1").output
    out = gm_cli("gm", "archive", "run-1", "--force").output
    assert "ended run-1" in out and "archived run-1" in out
    assert "Seed, revealed" in server.sitrep("run-1", "west").text  # ended first: the players were told
    listed = gm_cli("games").output
    assert "run-1" not in listed and "done-1" not in listed and "held-1" in listed
    every = gm_cli("games", "--all").output
    assert re.search(r"run-1 +duel +archived", every)
    st = server.status("run-1")
    assert st["status"] == "archived" and st["deadline"] is None
    assert "run-1" not in server.due_games()
    with server.session() as s:
        before = len(s.exec(select(Outbox)).all())
    server.clock.advance(hours=47)
    server.remind()
    with server.session() as s:
        assert not [r for r in s.exec(select(Outbox)).all()[before:] if r.game_id == "run-1"]
    assert "archived" in gm_cli("gm", "resume", "run-1", ok=False).output
    assert "archived already" in gm_cli("gm", "archive", "run-1", ok=False).output
    assert gm_cli("gm", "journal", "run-1").output.splitlines()[-1].split()[-1] == "ARCHIVE"
    late = server.ingest(orders_mail(server, "run-1", "west", "FIRE 1\n", keys["west"]))
    assert late.status == "rejected" and "is over" in " ".join(late.reasons)
    assert replay(server, "run-1").ok


def test_archive_of_a_game_that_never_started_mails_nobody(server, club, gm_cli):
    with server.session() as s:
        before = len(s.exec(select(Outbox)).all())
    gm_cli("gm", "archive", "open-1", "--force")
    with server.session() as s:
        assert not [r for r in s.exec(select(Outbox)).all()[before:] if r.game_id == "open-1"]


# ---------------------------------------------------------------- pbem export
def _verify_chain(journal_lines):
    prev = GENESIS
    for line in journal_lines:
        e = json.loads(line)
        assert e["prev_hash"] == prev
        assert hashlib.sha256(canonical_json(e["state"]).encode()).hexdigest() == e["state_hash"]
        assert entry_hash(prev, e["seq"], e["kind"], e["turn"], e["phase"], e["payload"], e["events"],
                          e["rolls"], e["state_hash"]) == e["hash"]
        prev = e["hash"]
    return prev


def test_export_of_a_running_game_verifies_and_holds_no_seed(server, club, gm_cli, tmp_path):
    out = tmp_path / "run.zip"
    assert "wrote" in gm_cli("export", "run-1", "--out", str(out)).output
    with zipfile.ZipFile(out) as z:
        files = {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}
    head = _verify_chain(files["journal.jsonl"].decode().splitlines())
    facts = json.loads(files["game.json"])
    assert head == facts["journal_head"] == server.status("run-1")["journal_head"]
    assert facts["seed"] is None and facts["seed_salt"] is None
    assert facts["seed_commitment"] == server.status("run-1")["seed_commitment"]
    assert not any(RUN_SEED.hex().encode() in data for data in files.values())
    assert files["server_key.pub"].startswith(b"ssh-ed25519 ")
    for side in ("east", "west"):
        assert any(n.startswith(f"sitreps/{side}/") and n.endswith(".txt") for n in files)
        assert any(n.startswith(f"sitreps/{side}/") and n.endswith(".html") for n in files)
        view = next(n for n in files if n.startswith(f"sitreps/{side}/") and n.endswith(".json"))
        assert json.loads(files[view])["seat"] == side
    assert "exists" in gm_cli("export", "run-1", "--out", str(out), ok=False).output
    assert "cannot write" in gm_cli("export", "run-1", "--out", str(tmp_path / "no" / "x.zip"), ok=False).output


def test_export_of_a_finished_game_reveals_the_seed(server, club, gm_cli, tmp_path):
    folder = tmp_path / "done"
    gm_cli("export", "done-1", "--folder", "--out", str(folder))
    facts = json.loads((folder / "game.json").read_text())
    opened = hashlib.sha256(bytes.fromhex(facts["seed_salt"] + facts["seed"])).hexdigest()
    assert facts["seed_salt"] and opened == facts["seed_commitment"]
    _verify_chain((folder / "journal.jsonl").read_text().splitlines())
    assert "every side" in gm_cli("export", "--help").output


# ---------------------------------------------------------------- player data
@pytest.mark.parametrize("bad", ["not-an-email", "Mallory <m@evil.test>", "a@b.test, c@d.test",
                                 "a@b.test\r\nBcc: x@evil.test", "@b.test", "a@", "a@b.test (comment)"])
def test_addresses_that_are_not_one_bare_address_are_refused(bad):
    with pytest.raises(ContactError):
        check_address(bad)


def test_good_addresses_and_zones_pass():
    assert check_address(" east@players.test ") == "east@players.test"
    assert check_address("pbem@localhost") == "pbem@localhost"
    assert check_tz("Europe/Warsaw") == "Europe/Warsaw"
    with pytest.raises(ContactError, match="unknown time zone"):
        check_tz("Mars/Olympus")


def test_player_add_checks_zone_and_address(server, gm_cli, tmp_path, keys):
    server.new_game("p", "duel", "standard")
    key = tmp_path / "east.pub"
    key.write_text(sshsig.public_key_of(keys["east"]).line() + "\n")
    bad = gm_cli("player", "add", "p", "east", "--email", "e@x.test", "--key", str(key), "--tz", "Mars/Olympus",
                 ok=False)
    assert bad.exit_code != 0 and "unknown time zone 'Mars/Olympus'" in bad.output
    bad = gm_cli("player", "add", "p", "east", "--email", "not-an-email", "--key", str(key), ok=False)
    assert bad.exit_code != 0 and "not-an-email" in bad.output and "name@example.org" in bad.output
    assert server.status("p")["seats"][0]["key"] == ""  # nothing was stored
    gm_cli("player", "add", "p", "east", "--email", "e@x.test", "--key", str(key), "--tz", "Europe/Warsaw")


def test_gm_replace_changes_only_what_is_given(server, duel_game, gm_cli, keys, tmp_path):
    before = {x["name"]: x for x in server.status(duel_game)["seats"]}
    assert "give at least one" in gm_cli("gm", "replace", duel_game, "west", ok=False).output
    out = gm_cli("gm", "replace", duel_game, "west", "--email", "west2@players.test").output
    assert "changed the address of west's player" in out
    after = {x["name"]: x for x in server.status(duel_game)["seats"]}
    assert after["west"]["email"] == "west2@players.test" and after["west"]["key"] == before["west"]["key"]
    assert server.ingest(orders_mail(server, duel_game, "west", "FIRE 1\n", keys["west"])).status == "accepted"
    assert "unknown time zone" in gm_cli("gm", "replace", duel_game, "west", "--tz", "Mars/Olympus", ok=False).output
    assert "not an address" in gm_cli("gm", "replace", duel_game, "west", "--email", "nope", ok=False).output
    gm_cli("gm", "replace", duel_game, "west", "--tz", "Asia/Tokyo")
    new = sshsig.generate_private_key()
    (tmp_path / "new.pub").write_text(sshsig.public_key_of(new).line() + "\n")
    assert "replaced the player of west" in gm_cli("gm", "replace", duel_game, "west", "--key",
                                                   str(tmp_path / "new.pub")).output
    after = {x["name"]: x for x in server.status(duel_game)["seats"]}
    assert after["west"]["email"] == "west2@players.test"
    assert after["west"]["key"] == sshsig.public_key_of(new).fingerprint
    what = [e["what"] for e in server.journal(duel_game)][-3:]
    assert what == ["REPLACE west address", "REPLACE west time zone", "REPLACE west key"]
    with server.session() as s:
        told = [r.text for r in s.exec(select(Sitrep).where(Sitrep.seat == "east")).all()]
    assert any("changed the time zone of west's player" in text for text in told)
    assert not any("west2@players.test" in text for text in told)  # what changed, never the address
    assert replay(server, duel_game).ok


def test_replace_by_signed_mail_still_takes_address_and_key(server, duel_game, keys):
    (server.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    server.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    new = sshsig.generate_private_key()
    line = f"REPLACE west west3@players.test {sshsig.public_key_of(new).line()}\n"
    v = server.ingest(command_mail(duel_game, line, keys["gm"]))
    assert v.status == "accepted" and "replaced the player of west" in " ".join(v.reasons)
    seat = {x["name"]: x for x in server.status(duel_game)["seats"]}["west"]
    assert seat["email"] == "west3@players.test" and seat["key"] == sshsig.public_key_of(new).fingerprint
    v = server.ingest(command_mail(duel_game, "REPLACE west Mallory<m@evil.test> "
                                   f"{sshsig.public_key_of(new).line()}\n", keys["gm"]))
    # checked before any line runs: the whole file is refused, naming the line and the address
    assert v.status == "rejected" and "line 4" in v.reasons[0] and "Mallory<m@evil.test>" in v.reasons[0]
