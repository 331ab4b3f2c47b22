"""A player is their key: a key replaced by a PBEM-COMMAND signed with the old key (OpenSSH's own signer),
or by the GM; the new key takes the seats of running games, finished games stay the player's."""
from __future__ import annotations

import json
import subprocess

from sqlmodel import col, select

from pbem.club import ratings as R
from pbem.club.listing import players as club_players
from pbem.club.players import identities
from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.store.models import Journal, Seat
from tests.club.conftest import play_out, seat_game
from tests.helpers import mail, orders_mail


def ssh_key(path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", path.name, "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().strip()


def ssh_signed_command(tmp_path, game, side, lines, keyfile, name="cmd.txt"):
    """A command file signed by `ssh-keygen -Y sign`, mailed as a player's client would."""
    text = order_file_text("command", {"Game": game, "Side": side}, lines)
    (tmp_path / name).write_text(text)
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem", "-f", str(keyfile), str(tmp_path / name)],
                   check=True, capture_output=True)
    return mail(text + (tmp_path / f"{name}.sig").read_text(), sender=f"{side}@players.test")


def seat_fp(server, game, seat):
    with server.reader() as s:
        return s.exec(select(Seat).where(Seat.game_id == game, Seat.name == seat)).one().fingerprint


def test_a_player_replaces_their_key_by_a_command_signed_with_the_old_one(tmp_path, gm_server, member_keys):
    k = member_keys
    # alice finishes a duel against bob, then starts another, with carol watching from a third game
    seat_game(gm_server, "done", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("bob", k["bob"])})
    play_out(gm_server, "done", {"east": k["alice"], "west": k["bob"]})
    seat_game(gm_server, "live", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("carol", k["carol"])})
    old = sshsig.public_key_of(k["alice"]).fingerprint
    new_pub = ssh_key(tmp_path / "alice2")
    new = sshsig.PublicKey.parse(new_pub).fingerprint
    # the old key as an OpenSSH private key file, to sign with OpenSSH itself
    (tmp_path / "alice").write_bytes(sshsig.private_key_pem(k["alice"]))
    (tmp_path / "alice").chmod(0o600)

    raw = ssh_signed_command(tmp_path, "live", "east", f"NEWKEY {new_pub}\n", tmp_path / "alice")
    verdict = gm_server.ingest(raw)
    assert verdict.status == "accepted", verdict.reasons
    assert seat_fp(gm_server, "live", "east") == new
    assert seat_fp(gm_server, "done", "east") == old  # a finished game keeps the key it was played with
    with gm_server.reader() as s:
        assert identities(s)[old] == new
        entry = s.exec(select(Journal).where(Journal.game_id == "live").order_by(col(Journal.seq).desc())).first()
        payload = json.loads(entry.payload_json)
    assert payload["command"] == "NEWKEY" and (payload["from_fingerprint"], payload["to_fingerprint"]) == (old, new)

    # the same signed file again is a replay; orders signed with the old key are no longer alice's
    assert gm_server.ingest(raw).status == "duplicate"
    again = gm_server.ingest(ssh_signed_command(tmp_path, "live", "east", f"NEWKEY {new_pub}\n", tmp_path / "alice"))
    assert again.status == "rejected"
    stale = gm_server.ingest(orders_mail(gm_server, "live", "east", "FIRE 2\n", k["alice"]))
    assert stale.status == "rejected"
    (tmp_path / "alice2.txt").write_text(_form(gm_server, "live", "east", "FIRE 2\n"))
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem", "-f", str(tmp_path / "alice2"),
                    str(tmp_path / "alice2.txt")], check=True, capture_output=True)
    fresh = mail((tmp_path / "alice2.txt").read_text() + (tmp_path / "alice2.txt.sig").read_text())
    assert gm_server.ingest(fresh).status == "accepted"

    # one player, two keys: the finished game's rating is the new key's, and `pbem players` lists her once
    R.update(gm_server.deps)
    assert {(x["scope"], x["games"]) for x in R.stored(gm_server.deps) if x["fingerprint"] == new} == {
        ("overall", 1), ("duel", 1)}
    listed = [p for p in club_players(gm_server.services, gm_server.queries.players()) if p["fingerprint"] == new]
    assert len(listed) == 1 and listed[0]["keys"] == [old]
    assert {s["game"] for s in listed[0]["seats"]} == {"done", "live"}
    assert R.verify(gm_server.deps) == []


def test_a_key_cannot_be_taken_over(tmp_path, gm_server, member_keys):
    k = member_keys
    seat_game(gm_server, "live", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("carol", k["carol"])})
    (tmp_path / "alice").write_bytes(sshsig.private_key_pem(k["alice"]))
    (tmp_path / "alice").chmod(0o600)
    carol = sshsig.public_key_of(k["carol"]).line()
    verdict = gm_server.ingest(ssh_signed_command(tmp_path, "live", "east", f"NEWKEY {carol}\n", tmp_path / "alice"))
    # the file is taken (signed by the seat's key) and the command refused: the answer says why
    assert verdict.status == "accepted" and verdict.reasons[0].startswith("failed: line")
    assert "belongs to a player already" in verdict.reasons[0]
    assert seat_fp(gm_server, "live", "east") == sshsig.public_key_of(k["alice"]).fingerprint
    # a key that does not parse is refused before anything runs
    verdict = gm_server.ingest(ssh_signed_command(tmp_path, "live", "east", "NEWKEY ssh-ed25519 AAAAnot-a-key\n",
                                                  tmp_path / "alice", name="bad.txt"))
    assert verdict.status == "rejected" and "does not parse" in " ".join(verdict.reasons)


def test_the_gm_replaces_a_key_from_the_command_line(tmp_path, gm_server, member_keys, club_cli):
    k = member_keys
    seat_game(gm_server, "live", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("carol", k["carol"])})
    new_pub = ssh_key(tmp_path / "lost")
    out = club_cli(gm_server.home.path, "club", "newkey", "alice@club.test", str(tmp_path / "lost.pub"))
    assert out.exit_code == 0 and "the GM replaced the key" in out.output and "live/east" in out.output, out.output
    assert seat_fp(gm_server, "live", "east") == sshsig.PublicKey.parse(new_pub).fingerprint
    again = club_cli(gm_server.home.path, "club", "newkey", "alice@club.test", str(tmp_path / "lost.pub"))
    assert again.exit_code == 1 and "the new key is the key it replaces" in again.output


def _form(server, game, seat, body):
    from tests.helpers import order_text

    return order_text(server, game, seat, body)


def test_a_player_sets_their_own_profile_by_signed_command(gm_server, member_keys):
    from pbem.store.models import Player
    from tests.helpers import signed

    k = member_keys
    seat_game(gm_server, "live", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("carol", k["carol"])})
    text = order_file_text("command", {"Game": "live", "Side": "east"},
                           "PROFILE name Alice Liddell\nPROFILE tz Europe/Warsaw\nPROFILE pref reminders off\n")
    verdict = gm_server.ingest(mail(signed(text, k["alice"]), sender="alice@club.test"))
    assert verdict.status == "accepted" and verdict.reasons == [
        "your name is now 'Alice Liddell'", "your time zone is now 'Europe/Warsaw'",
        "your preference reminders set to 'off'"], verdict.reasons
    with gm_server.reader() as s:
        alice = s.get(Player, sshsig.public_key_of(k["alice"]).fingerprint)
    assert (alice.name, alice.tz, json.loads(alice.prefs_json)) == ("Alice Liddell", "Europe/Warsaw",
                                                                    {"reminders": "off"})
    bad = order_file_text("command", {"Game": "live", "Side": "east"}, "PROFILE colour red\n")
    verdict = gm_server.ingest(mail(signed(bad, k["alice"]), sender="alice@club.test"))
    assert verdict.status == "rejected" and "PROFILE changes name, tz, email, pref" in " ".join(verdict.reasons)
