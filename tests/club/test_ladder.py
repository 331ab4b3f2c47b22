"""Ladders by signed mail: players join, challenge within the ladder's limits (each refusal answered with its
reason), accept (a game made, seated and started, played out by the bots through the mail path), and the
finished game moves the winner up; unanswered challenges lapse on the daemon's tick."""
from __future__ import annotations

import json
import subprocess

import pytest
from sqlmodel import col, select

from pbem.club import ladder
from pbem.club.players import set_profile
from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.store.models import ClubCommand, LadderChallenge, Outbox, Player, Seat
from tests.club.conftest import play_out
from tests.helpers import mail, signed

NAME = "duel-ladder"


def _fp(key) -> str:
    return sshsig.public_key_of(key).fingerprint


_sent = [0]


def _command(key, lines: str, *, who: str, ladder_name: str = NAME, header=None) -> bytes:
    # a comment line makes each file new, as a player repeating a command changes it (a replay is refused)
    _sent[0] += 1
    text = order_file_text("command", header or {"Ladder": ladder_name}, f"# file {_sent[0]}\n{lines}")
    return mail(signed(text, key), sender=f"{who}@elsewhere.test")


def _send(server, key, lines: str, *, who: str, **kw):
    return server.ingest(_command(key, lines, who=who, **kw))


def _mails_to(server, address: str) -> list[tuple[str, str]]:
    with server.reader() as s:
        rows = s.exec(select(Outbox).where(Outbox.to_addr == address).order_by(col(Outbox.id))).all()
        return [(r.subject, json.loads(r.parts_json)["text"]) for r in rows]


def _places(server) -> list[str]:
    with server.reader() as s:
        names = {p.fingerprint: p.name for p in s.exec(select(Player)).all()}
    return [names[row["fingerprint"]] for row in ladder.standings(server.services, NAME)]


@pytest.fixture
def club(gm_server, member_keys):
    """Four club members (before any game of theirs) on a duel ladder, in join order."""
    for name, key in member_keys.items():
        ladder.add_member(gm_server.services, f"{name}@club.test", sshsig.public_key_of(key).line(), name=name)
    ladder.new_ladder(gm_server.services, NAME, "duel", above=2, open_max=1, cooldown_days=7, expire_days=3)
    for name in ("alice", "bob", "carol", "dave"):
        v = _send(gm_server, member_keys[name], "JOIN\n", who=name)
        assert v.status == "accepted" and v.reasons[0].startswith("you joined ladder"), v.reasons
    assert _places(gm_server) == ["alice", "bob", "carol", "dave"]
    return gm_server


def _refused(verdict, why: str) -> None:
    assert verdict.status == "accepted", verdict.reasons  # the file is taken; its line is refused, with the reason
    assert len(verdict.reasons) == 1 and verdict.reasons[0].startswith("failed:") and why in verdict.reasons[0], \
        verdict.reasons


def test_challenges_are_refused_beyond_each_limit_and_the_reason_is_mailed(club, member_keys, clock, monkeypatch):
    k = member_keys
    # too far up: dave (4th) may reach two places, not three
    _refused(_send(club, k["dave"], "CHALLENGE alice\n", who="dave"), "3 places above you")
    subject, text = _mails_to(club, "dave@club.test")[-1]
    assert "1 problem" in subject and "at most 2 place(s) up" in text
    # nobody challenges down, or themselves
    _refused(_send(club, k["bob"], "CHALLENGE carol\n", who="bob"), "not above you")
    _refused(_send(club, k["bob"], "CHALLENGE bob\n", who="bob"), "cannot challenge yourself")

    v = _send(club, k["dave"], "CHALLENGE bob\n", who="dave")
    assert v.status == "accepted" and v.reasons[0].startswith("challenge 1: you challenged bob"), v.reasons
    subject, text = _mails_to(club, "bob@club.test")[-1]
    assert "challenges you (challenge 1)" in subject and "ACCEPT 1" in text
    # open challenges: one at a time, made or received
    _refused(_send(club, k["dave"], "CHALLENGE carol\n", who="dave"), "the ladder allows 1 at a time")
    _refused(_send(club, k["carol"], "CHALLENGE bob\n", who="carol"), "has 1 challenge(s) under way already")
    # declined: the challenger is told; the cool-down keeps dave off bob for a week
    assert _send(club, k["bob"], "DECLINE 1\n", who="bob").reasons == ["you declined challenge 1"]
    assert "challenge 1 declined" in _mails_to(club, "dave@club.test")[-1][0]
    _refused(_send(club, k["dave"], "CHALLENGE bob\n", who="dave"), "may challenge them again from 2026-11-08")
    # a player away is not challenged
    with club.deps.session() as s:
        set_profile(s, s.get(Player, _fp(k["carol"])), clock(), prefs={"away": "until December"})
        s.commit()
    _refused(_send(club, k["dave"], "CHALLENGE carol\n", who="dave"), "carol")
    assert "is away (their club preference 'away' is set)" in _mails_to(club, "dave@club.test")[-1][1]
    with club.deps.session() as s:
        set_profile(s, s.get(Player, _fp(k["carol"])), clock(), prefs={"away": ""})
        s.commit()
    # a ladder asking for reliability: dave's record (stood in for here) is under it
    with club.deps.session() as s:
        s.get(ladder.Ladder, NAME).min_reliability = 90.0
        s.commit()
    monkeypatch.setattr("pbem.club.reliability.reliability", lambda deps: {_fp(k["dave"]): {"score": 75.0}})
    _refused(_send(club, k["dave"], "CHALLENGE carol\n", who="dave"), "your reliability is 75; ladder duel-ladder "
             "asks for 90")
    monkeypatch.undo()
    assert _send(club, k["dave"], "CHALLENGE carol\n", who="dave").reasons[0].startswith("challenge 2:")

    # unanswered, it lapses on the daemon's tick three days on, and both players are told
    clock.advance(days=3, minutes=1)
    tick(club)
    for who in ("dave", "carol"):
        assert "challenge 2 lapsed" in _mails_to(club, f"{who}@club.test")[-1][0]
    with club.reader() as s:
        assert [c.status for c in s.exec(select(LadderChallenge).order_by(col(LadderChallenge.id)))] == [
            "declined", "expired"]
    _refused(_send(club, k["carol"], "ACCEPT 2\n", who="carol"), "challenge 2 is expired")
    assert _places(club) == ["alice", "bob", "carol", "dave"]


def test_an_accepted_challenge_is_a_game_played_by_mail_whose_winner_climbs(club, member_keys, clock):
    k = member_keys
    assert _send(club, k["carol"], "CHALLENGE alice\n", who="carol").reasons[0].startswith("challenge 1:")
    # only the one challenged accepts
    _refused(_send(club, k["bob"], "ACCEPT 1\n", who="bob"), "there is no challenge 1 to you")
    v = _send(club, k["alice"], "ACCEPT 1\n", who="alice")
    assert v.reasons == ["challenge 1 accepted: game duel-ladder-1 started; you play west"], v.reasons
    status = club.status("duel-ladder-1")
    assert status["status"] == "active"
    with club.reader() as s:
        seats = {x.name: x.fingerprint for x in s.exec(select(Seat).where(Seat.game_id == "duel-ladder-1"))}
    # the challenger has the first seat of the pair's first game
    assert seats == {"east": _fp(k["carol"]), "west": _fp(k["alice"])}

    # alice takes a vacation in the ladder game: bob cannot challenge her while it is in force
    vac = club.ingest(mail(signed(order_file_text("command", {"Game": "duel-ladder-1", "Side": "west"},
                                                  "VACATION 24\n"), k["alice"]), sender="alice@club.test"))
    assert vac.status == "accepted", vac.reasons
    _refused(_send(club, k["bob"], "CHALLENGE alice\n", who="bob"), "on vacation in game duel-ladder-1")

    by_seat = {"east": k["carol"], "west": k["alice"]}
    final = play_out(club, "duel-ladder-1", by_seat)
    assert final["status"] == "over"
    tick(club)  # the daemon settles the ladder
    with club.reader() as s:
        c = s.get(LadderChallenge, 1)
        assert c.status == "done"
        winner = c.winner
    if winner == _fp(k["carol"]):
        assert _places(club) == ["carol", "alice", "bob", "dave"]
        assert "carol won and takes place 1" in _mails_to(club, "alice@club.test")[-1][0]
    elif winner == _fp(k["alice"]):
        assert _places(club) == ["alice", "bob", "carol", "dave"]
        assert "alice won: the ladder is unchanged" in _mails_to(club, "carol@club.test")[-1][0]
    else:
        assert winner == "" and _places(club) == ["alice", "bob", "carol", "dave"]

    # the pair's next game: sides alternate (after the cool-down)
    clock.advance(days=8)
    low, high = ("alice", "carol") if winner == _fp(k["carol"]) else ("carol", "alice")
    assert _send(club, k[low], f"CHALLENGE {high}\n", who=low).reasons[0].startswith("challenge 2:")
    assert _send(club, k[high], "ACCEPT 2\n", who=high).reasons[0].startswith("challenge 2 accepted")
    with club.reader() as s:
        c = s.get(LadderChallenge, 2)
        assert c.first_seat == _fp(k["alice"])  # carol had the first seat of game 1


def test_club_files_are_signed_by_members_verified_and_never_replayed(club, member_keys, keys, tmp_path):
    k = member_keys
    # a stranger's key gets the fixed answer, whatever the ladder
    for name in (NAME, "no-such-ladder"):
        v = _send(club, keys["mallory"], "JOIN\n", who="mallory", ladder_name=name)
        assert v.status == "rejected" and "is not the key registered for that side" in v.reasons[0]
        assert "this is not a signed order file" in _mails_to(club, "mallory@elsewhere.test")[-1][1]
    # a member is told what is wrong, at their club address (never the sender's)
    v = _send(club, k["bob"], "JOIN\nFLY away\nACCEPT x\n", who="bob", ladder_name="nope")
    assert v.status == "rejected"
    assert any("there is no ladder 'nope'" in r for r in v.reasons)
    assert any("FLY is not a ladder command" in r for r in v.reasons)
    assert any("ACCEPT takes the number of a challenge" in r for r in v.reasons)
    assert _mails_to(club, "bob@elsewhere.test") == []
    assert "3 problems" in _mails_to(club, "bob@club.test")[-1][0]
    v = _send(club, k["bob"], "JOIN\n", who="bob", header={"Ladder": NAME, "Game": "g1"})
    assert v.status == "rejected" and "names a ladder and no game or side" in v.reasons[0]
    # unsigned
    text = order_file_text("command", {"Ladder": NAME}, "LEAVE\n")
    v = club.ingest(mail(text, sender="bob@club.test"))
    assert v.status == "rejected"
    # the same signed file twice (in another message): carried out once
    raw = _command(k["bob"], "LEAVE\n", who="bob")
    assert club.ingest(raw).reasons == ["you left ladder duel-ladder; the players below you moved up one place"]
    body = raw.split(b"\n\n", 1)[1]
    again = club.ingest(mail(body.decode(), sender="bob@club.test"))
    assert again.status == "rejected" and "already carried out once" in again.reasons[0]
    assert _places(club) == ["alice", "carol", "dave"]
    with club.reader() as s:
        assert len(s.exec(select(ClubCommand).where(ClubCommand.fingerprint == _fp(k["bob"]))).all()) == 2


def test_a_file_signed_by_openssh_itself_joins(gm_server, member_keys, tmp_path):
    k = member_keys
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "erin", "-f", str(tmp_path / "erin")],
                   check=True)
    pub = (tmp_path / "erin.pub").read_text().strip()
    ladder.add_member(gm_server.services, "erin@club.test", pub, name="erin")
    ladder.new_ladder(gm_server.services, NAME, "duel")
    text = order_file_text("command", {"Ladder": NAME}, "JOIN\n")
    (tmp_path / "join.txt").write_text(text)
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem", "-f", str(tmp_path / "erin"), str(tmp_path / "join.txt")],
                   check=True, capture_output=True)
    v = gm_server.ingest(mail(text + (tmp_path / "join.txt.sig").read_text(), sender="erin@home.test"))
    assert v.status == "accepted" and v.reasons == ["you joined ladder duel-ladder in place 1 (the bottom)"]
    subject, body = _mails_to(gm_server, "erin@club.test")[-1]
    assert "commands: erin — 1 carried out" in subject and "COMMANDS CARRIED OUT" in body
    assert k  # the other members exist but are not on this ladder
    assert _places(gm_server) == ["erin"]


def test_the_gm_makes_and_shows_a_ladder_from_the_command_line(gm_server, member_keys, club_cli):
    home = gm_server.home.path
    r = club_cli(home, "ladder", "new", "club-duel", "--rules", "duel", "--above", "2", "--open", "1",
                 "--cooldown-days", "5", "--expire-days", "2", "--min-reliability", "80")
    assert r.exit_code == 0, r.output
    assert "Ladder: club-duel" in r.output
    pub = home / "alice.pub"
    pub.write_text(sshsig.public_key_of(member_keys["alice"]).line() + "\n")
    r = club_cli(home, "club", "add", "alice@club.test", str(pub), "--name", "Alice")
    assert r.exit_code == 0 and "Alice <alice@club.test>" in r.output, r.output
    assert _send(gm_server, member_keys["alice"], "JOIN\n", who="alice", ladder_name="club-duel").status == "accepted"
    r = club_cli(home, "ladder", "show", "club-duel")
    assert r.exit_code == 0, r.output
    assert "challenge up to 2 place(s) above, 1 open at most, 5 day(s)" in r.output
    assert "  1. Alice (SHA256:" in r.output and "@" not in r.output
    r = club_cli(home, "ladder", "new", "club-duel", "--rules", "duel")
    assert r.exit_code != 0 and "exists already" in r.output


def test_leaving_withdraws_open_challenges_and_hostile_headers_lose_nothing(club, member_keys):
    k = member_keys
    assert _send(club, k["carol"], "CHALLENGE bob\n", who="carol").reasons[0].startswith("challenge 1:")
    assert _send(club, k["carol"], "LEAVE\n", who="carol").status == "accepted"
    assert "challenge 1 withdrawn" in _mails_to(club, "bob@club.test")[-1][0]
    assert _places(club) == ["alice", "bob", "dave"]
    # a ladder name of control characters and a thousand letters, a thousand lines: answered, nothing done
    for name in ("x" * 1000, "a\x01b", "duel-ladder\u202e"):
        v = _send(club, k["dave"], "JOIN\n", who="dave", ladder_name=name)
        assert v.status == "rejected" and "there is no ladder" in v.reasons[0], v.reasons
    v = _send(club, k["dave"], "CHALLENGE " + "z" * 5000 + "\n" + "LEAVE\n" * 1000, who="dave")
    # one malformed line and the whole file does nothing (dave does not leave)
    assert v.status == "rejected" and len(v.reasons) == 1 and "CHALLENGE names a player" in v.reasons[0]
    assert _places(club) == ["alice", "bob", "dave"]
