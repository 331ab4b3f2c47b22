"""Replies a player can sort and trust: subjects, acks that tell the truth about the phase, late files."""
import email
import email.policy

import pytest
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.store.models import Outbox
from tests.helpers import mail, order_text, orders_mail, signed
from tests.test_gm import command_mail


def outbox(server, kind):
    with server.session() as s:
        rows = s.exec(select(Outbox).where(Outbox.kind == kind).order_by(Outbox.id)).all()
    out = []
    for row in rows:
        msg = email.message_from_bytes(server.outbox_bytes(row), policy=email.policy.default)
        out.append((row, msg.get_body(("plain",)).get_content(), msg))
    return out


# ------------------------------------------------------------------ subjects
def test_a_rejection_once_the_signer_is_known_names_game_side_phase_and_count(server, duel_game, keys):
    raw = orders_mail(server, duel_game, "east", "FIRE 9\nJUMP\n", keys["east"], subject="my orders, 2nd try")
    assert server.ingest(raw).status == "rejected"
    row, _, msg = outbox(server, "reject")[-1]
    assert msg["Subject"] == "[g1] REJECTED: east turn 1 fire — 2 problems"
    assert "2nd try" not in msg["Subject"]  # our own words only
    assert msg["In-Reply-To"] and msg["In-Reply-To"] in msg["References"]  # threading instead


def test_a_header_phase_that_is_not_a_phase_name_stays_out_of_the_subject(server, duel_game, keys):
    text = order_text(server, duel_game, "east", "FIRE 1\n").replace("Phase: fire", "Phase: fire [g2] URGENT: pay")
    assert server.ingest(mail(signed(text, keys["east"]))).status == "rejected"
    assert outbox(server, "reject")[-1][2]["Subject"] == "[g1] REJECTED: east orders — 1 problem"


def test_a_rejection_before_the_signer_is_known_names_no_game(server, duel_game, keys):
    forged = mail(signed(order_text(server, duel_game, "east", "FIRE 1\n"), keys["mallory"]),
                  sender="mallory@evil.test", subject="[g1] east orders")
    assert server.ingest(forged).status == "rejected"
    assert server.ingest(mail("hello, is this the game?", sender="someone@else.test")).status == "rejected"
    subjects = [msg["Subject"] for _, _, msg in outbox(server, "reject")]
    assert subjects == ["pbem: message not accepted — 1 problem"] * 2


def test_a_command_reply_is_titled_by_game(server, duel_game, keys):
    server.ingest(command_mail(duel_game, "VACATION 24\n", keys["east"], side="east"))
    _, text, msg = outbox(server, "ack")[-1]
    assert msg["Subject"] == "[g1] commands: east — 1 carried out"


# ------------------------------------------------------------------ acks
def test_an_ack_while_others_owe_offers_the_resend_window(server, duel_game, keys):
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]), advance=False)
    _, text, msg = outbox(server, "ack")[-1]
    assert msg["Subject"] == "[g1] accepted: east turn 1 fire"
    assert "You may send new orders to replace these until Tue 03 Nov 2026 12:00 UTC" in text
    assert "All orders are in" not in text


def test_the_ack_that_completes_a_phase_says_it_was_resolved(server, duel_game, keys):
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]))
    v = server.ingest(orders_mail(server, duel_game, "west", "FIRE 2\n", keys["west"]))
    assert v.status == "accepted" and v.resolved
    for _, text, _ in outbox(server, "ack"):  # east's too: it had not gone yet, and its window is over
        assert "All orders are in; the phase was resolved" in text
        assert "You may send new orders" not in text


def test_before_the_pass_that_resolves_it_the_ack_says_it_will_resolve(server, duel_game, keys):
    """The daemon takes mail in and resolves after; a crash between them leaves a true ack."""
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]), advance=False)
    server.ingest(orders_mail(server, duel_game, "west", "FIRE 2\n", keys["west"]), advance=False)
    _, text, _ = outbox(server, "ack")[-1]
    assert "All orders are in; the phase resolves at the next pass" in text
    assert "You may send new orders" not in text
    assert server.advance(duel_game) >= 1
    _, text, _ = outbox(server, "ack")[-1]
    assert "All orders are in; the phase was resolved" in text


def test_an_ack_already_sent_is_never_rewritten(server, duel_game, keys):
    from pbem.delivery import deliver

    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]))
    deliver(server)
    row, before, _ = outbox(server, "ack")[0]
    server.ingest(orders_mail(server, duel_game, "west", "FIRE 2\n", keys["west"]))
    row_after, after, _ = outbox(server, "ack")[0]
    assert after == before and row_after.raw == row.raw


def test_waiting_for_the_deadline_keeps_the_window_open(server, keys):
    server.new_game("w1", "duel", "standard", seed=b"fixed seed of a test game", wait_for_deadline=True)
    for seat in ("east", "west"):
        server.add_player("w1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    server.ingest(orders_mail(server, "w1", "east", "FIRE 2\n", keys["east"]))
    server.ingest(orders_mail(server, "w1", "west", "FIRE 2\n", keys["west"]))
    _, text, _ = outbox(server, "ack")[-1]
    assert "You may send new orders to replace these until" in text


# ------------------------------------------------------------------ late files
def _late_game(server, keys, clock):
    server.new_game("late", "duel", "standard", seed=b"fixed seed of a test game")
    server.add_player("late", "east", "east@players.test", sshsig.public_key_of(keys["east"]).line())
    server.add_player("late", "west", "west@players.test", sshsig.public_key_of(keys["west"]).line(),
                      tz="Europe/Warsaw")
    return "late"


def test_a_late_file_says_when_it_came_when_the_deadline_was_and_what_applied(server, keys, clock):
    game = _late_game(server, keys, clock)
    west_t1 = signed(order_text(server, game, "west", "FIRE 4\n"), keys["west"])
    server.ingest(orders_mail(server, game, "east", "FIRE 2\n", keys["east"]))
    clock.advance(hours=49)  # the 48-hour deadline passed without west's orders
    assert server.advance(game) >= 1
    clock.advance(minutes=30)
    v = server.ingest(mail(west_t1, sender="west@players.test"))
    assert v.status == "rejected" and "arrived late" in v.reasons[0]
    row, text, msg = outbox(server, "reject")[-1]
    assert row.to_addr == "west@players.test"
    assert msg["Subject"] == "[late] REJECTED: west turn 1 fire — 1 problem"
    # in west's zone, with UTC beside it
    assert "arrived late, at Tue 03 Nov 2026 14:30 Europe/Warsaw (13:30 UTC)" in text
    assert "The deadline was Tue 03 Nov 2026 13:00 Europe/Warsaw (12:00 UTC)" in text
    assert "the rules' default for missing orders was applied to side west" in text
    assert "latest sitrep" in text and "(submission/stale)" in text  # the code tools sort by is kept


def test_a_late_replacement_says_the_earlier_orders_were_used(server, keys, clock):
    game = _late_game(server, keys, clock)
    server.ingest(orders_mail(server, game, "west", "FIRE 4\n", keys["west"]))
    clock.advance(hours=1)
    second = signed(order_text(server, game, "west", "FIRE 5\n"), keys["west"])
    clock.advance(hours=48)
    assert server.advance(game) >= 1  # east sent nothing: it gets the default, west its first orders
    server.ingest(mail(second, sender="west@players.test"))
    _, text, _ = outbox(server, "reject")[-1]
    assert "arrived late" in text
    assert "Your earlier orders for that phase (received Sun 01 Nov 2026 13:00 Europe/Warsaw (12:00 UTC))" in text and "were used" in text


def test_a_file_for_a_future_phase_keeps_the_usual_answer(server, duel_game, keys):
    text = order_text(server, duel_game, "east", "FIRE 1\n").replace("Turn: 1", "Turn: 7")
    v = server.ingest(mail(signed(text, keys["east"])))
    assert v.status == "rejected" and "not the current phase" in v.reasons[0]
    assert "late" not in v.reasons[0]


# ------------------------------------------------------------------ the server's signature, as received
def test_a_reply_verifies_as_a_mail_program_saves_it(server, duel_game, keys):
    """CRLF line ends and a relay's header lines on top change nothing; an edited text does."""
    from pbem.mail.signed import verify_message

    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]))
    row, _, _ = outbox(server, "ack")[-1]
    raw = server.outbox_bytes(row)
    received = b"Received: from relay.test by mx.test; Sun, 1 Nov 2026 12:00:01 +0000\n" + raw
    key = verify_message(received.replace(b"\n", b"\r\n"))
    assert key.fingerprint == server.key_fingerprint
    with pytest.raises(sshsig.SignatureError, match="changed after the server signed it"):
        verify_message(raw.replace(b"FIRE 2", b"FIRE 4"))
