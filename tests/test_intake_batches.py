"""A batch of mail is taken as if its messages came one at a time.

Intake checks a whole batch before writing any of it (then one statement per
table), so each message must see what the messages before it in the batch
will write: replaced orders, a signed file already used, the very same mail
twice.  These tests hold the batch to the one-at-a-time answer.
"""
import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.store import writes as store_writes
from pbem.store.models import Inbound, Outbox, Submission
from tests.helpers import mail, order_text, signed
from tests.test_gm import command_mail

SEATS = ("east", "west")

#: What players do, in the abstract: new orders, the same signed file in a new mail (a resend or a
#: replay), the very same mail again (a duplicate delivery), or orders signed with the other key.
OPS = st.lists(st.one_of(
    st.tuples(st.just("new"), st.sampled_from(SEATS), st.integers(1, 5)),
    st.tuples(st.just("again"), st.integers(0, 30)),
    st.tuples(st.just("copy"), st.integers(0, 30)),
    st.tuples(st.just("forged"), st.sampled_from(SEATS), st.integers(1, 5)),
), min_size=1, max_size=12)


def _new_game(server, gid, keys):
    server.new_game(gid, "duel", "standard", seed=f"intake batch game {gid}".encode(), hours=1000)
    for seat in SEATS:
        server.add_player(gid, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())


def _messages(server, gid, ops, keys) -> list[bytes]:
    files: list[str] = []  # signed order files, in the order they were made
    raws: list[bytes] = []
    for op in ops:
        if op[0] in ("new", "forged"):
            _, seat, fire = op
            other = SEATS[1 - SEATS.index(seat)]
            text = order_text(server, gid, seat, f"FIRE {fire}\n# file {len(files)}\n")
            files.append((seat, signed(text, keys[other if op[0] == "forged" else seat])))
            raws.append(mail(files[-1][1], sender=f"{seat}@players.test"))
        elif op[0] == "again" and files:
            seat, body = files[op[1] % len(files)]
            raws.append(mail(body, sender=f"{seat}@players.test"))
        elif op[0] == "copy" and raws:
            raws.append(raws[op[1] % len(raws)])
    return raws


def _outcome(server, gid, verdicts):
    """What the players and the database saw, with the game's name taken out."""
    with server.session() as s:
        subs = s.exec(select(Submission).where(Submission.game_id == gid).order_by(Submission.id)).all()
        out = s.exec(select(Outbox).where(Outbox.game_id == gid).order_by(Outbox.id)).all()
        inbound = s.exec(select(Inbound).where(Inbound.game_id == gid).order_by(Inbound.id)).all()
    return ([(v.status, v.seat, [r.replace(gid, "G") for r in v.reasons]) for v in verdicts],
            [(r.seat, r.text.split("\n", 2)[2], r.current) for r in subs],
            [(r.kind, r.to_addr, r.subject.replace(gid, "G")) for r in out],
            [(r.status, r.verdict.replace(gid, "G")) for r in inbound])


def test_a_batch_answers_as_one_message_at_a_time_would(server, keys):
    games = iter(range(10**6))

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(ops=OPS)
    def check(ops):
        n = next(games)
        one, batch = f"one-{n}", f"batch-{n}"
        _new_game(server, one, keys)
        _new_game(server, batch, keys)
        singly = [server.ingest(raw, advance=False) for raw in _messages(server, one, ops, keys)]
        together = server.ingest_many(_messages(server, batch, ops, keys), advance=False)
        assert _outcome(server, batch, together) == _outcome(server, one, singly)
        with server.session() as s:  # at most one current order file per seat, whatever the batch held
            current = s.exec(select(Submission.seat).where(Submission.game_id == batch,
                                                           Submission.current == True)).all()  # noqa: E712
        assert len(current) == len(set(current))

    check()


def test_a_signed_command_twice_in_one_batch_is_carried_out_once(server, duel_game, keys):
    (server.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    server.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    first = command_mail(duel_game, "VACATION 24\n", keys["east"], side="east")
    body = first.split(b"\n\n", 1)[1].decode()
    again = mail(body, sender="east@players.test")  # the same signed file in another mail
    verdicts = server.ingest_many([first, again], advance=False)
    assert [v.status for v in verdicts] == ["accepted", "rejected"]
    assert "already carried out" in verdicts[1].reasons[0]


def test_a_message_stored_meanwhile_by_another_daemon_sends_the_batch_round_again(server, duel_game, keys,
                                                                                   monkeypatch, caplog):
    """The batch's look-up found it new, another daemon stored it before our write: the write fails,
    and the batch is taken again one savepoint per message, which sees it stored."""
    east = mail(signed(order_text(server, duel_game, "east", "FIRE 2\n"), keys["east"]))
    west = mail(signed(order_text(server, duel_game, "west", "FIRE 3\n"), keys["west"]),
                sender="west@players.test")
    assert server.ingest(east, advance=False).status == "accepted"  # "the other daemon"
    replies_before = _replies(server)
    monkeypatch.setattr(store_writes, "stored", lambda conn, shas: set())  # the look-up raced and missed it
    with caplog.at_level(logging.WARNING, logger="pbem.server"):
        verdicts = server.ingest_many([west, east], advance=False)
    assert [v.status for v in verdicts] == ["accepted", "duplicate"]
    assert any("taking it again" in r.message for r in caplog.records)
    assert _replies(server) == replies_before + [("ack", "west@players.test")]
    with server.session() as s:
        assert len(s.exec(select(Inbound)).all()) == 2


def _replies(server):
    with server.session() as s:
        return [(r.kind, r.to_addr) for r in s.exec(select(Outbox).where(Outbox.kind != "sitrep")
                                                   .order_by(Outbox.id)).all()]
