"""Every message gets a verdict and (unless it is machine mail) a reply; nothing is lost."""
import email
import email.policy
import re

import pytest
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.store.models import Inbound, Outbox, Submission
from tests.helpers import mail, order_text, orders_mail, signed


def replies(server, kind=None):
    with server.session() as s:
        rows = s.exec(select(Outbox).order_by(Outbox.id)).all()
    out = []
    for r in rows:
        if kind and r.kind != kind:
            continue
        msg = email.message_from_bytes(server.outbox_bytes(r), policy=email.policy.default)
        out.append((r.to_addr, msg.get_body(("plain",)).get_content(), msg))
    return out


def last_reply(server, kind):
    return replies(server, kind)[-1]


def test_accepted_orders_get_a_signed_acknowledgement(server, duel_game, keys):
    v = server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\nMOVE 0\n", keys["east"]))
    assert v.status == "accepted", v.line()
    to, text, msg = last_reply(server, "ack")
    assert to == "east@players.test"
    assert "ORDERS ACCEPTED" in text and "FIRE 2" in text and "MOVE 0" in text
    assert msg["In-Reply-To"] and msg["Auto-Submitted"] == "auto-replied" and msg["List-Id"]
    [sig] = [p for p in msg.iter_attachments() if p.get_filename() == "pbem-server.sig"]
    from pbem.core.orders import canonical
    sshsig.verify(sig.get_content().decode() if isinstance(sig.get_content(), bytes) else sig.get_content(),
                  canonical(text).encode(), sshsig.SERVER_NAMESPACE)


def test_resubmission_replaces_and_says_so(server, duel_game, keys):
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]))
    v = server.ingest(orders_mail(server, duel_game, "east", "FIRE 4\n", keys["east"]))
    assert v.status == "accepted" and "replacing" in v.reasons[0]
    assert "REPLACE" in last_reply(server, "ack")[1]
    with server.session() as s:
        current = s.exec(select(Submission).where(Submission.current == True)).all()  # noqa: E712
    assert [c.text.split("\n")[-2] for c in current] == ["FIRE 4"]


def test_old_signed_file_cannot_bring_back_replaced_orders(server, duel_game, keys):
    first = signed(order_text(server, duel_game, "east", "FIRE 2\n"), keys["east"])
    server.ingest(mail(first, sender="east@players.test"))
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 4\n", keys["east"]))
    v = server.ingest(mail(first, sender="east@players.test"))  # a replay by anyone who saw the first mail
    assert v.status == "rejected" and "replaced by newer orders" in v.reasons[0]
    assert "replaced by newer orders" in last_reply(server, "reject")[1]


def test_same_file_again_is_unchanged(server, duel_game, keys):
    text = signed(order_text(server, duel_game, "east", "FIRE 2\n"), keys["east"])
    server.ingest(mail(text))
    v = server.ingest(mail(text))
    assert v.status == "accepted" and "unchanged" in v.reasons[0]


def test_orders_for_a_resolved_phase_are_rejected_as_stale(server, duel_game, keys):
    east_t1 = signed(order_text(server, duel_game, "east", "FIRE 1\n"), keys["east"])
    server.ingest(mail(east_t1))
    server.ingest(orders_mail(server, duel_game, "west", "FIRE 1\n", keys["west"], ))
    assert server.status(duel_game)["turn"] >= 1
    v = server.ingest(mail(east_t1 + "\n"))  # same signed file, a different message around it
    assert v.status == "rejected"
    assert "already received" in v.reasons[0]


def test_signature_for_another_phase_is_rejected(server, duel_game, keys):
    text = order_text(server, duel_game, "east", "FIRE 1\n").replace("Turn: 1", "Turn: 7")
    v = server.ingest(mail(signed(text, keys["east"])))
    assert v.status == "rejected" and "turn 7" in v.reasons[0] and "not the current phase" in v.reasons[0]
    assert v.reasons[0].endswith("[duel 1]")  # the rule that says who acts now, as the ruleset's step cites it


def test_signature_for_another_game_is_rejected(server, duel_game, keys):
    text = order_text(server, duel_game, "east", "FIRE 1\n").replace("Game: g1", "Game: g2")
    v = server.ingest(mail(signed(text, keys["east"]), sender="someone@else.test"))
    # east is a player: told where the key plays, at east's registered address (nothing about g2)
    assert v.status == "rejected" and "your key is not registered in a game 'g2'" in v.reasons[0]
    assert "side east of game g1" in v.reasons[0]
    assert last_reply(server, "reject")[0] == "east@players.test"


def test_tampered_orders_are_rejected(server, duel_game, keys):
    text = signed(order_text(server, duel_game, "east", "FIRE 1\n"), keys["east"]).replace("FIRE 1", "FIRE 5")
    v = server.ingest(mail(text))
    assert v.status == "rejected" and "does not match" in v.reasons[0]
    to, body, _ = last_reply(server, "reject")
    assert to == "east@players.test" and "signature/bad" in body


def test_unknown_key_is_rejected_and_reply_tells_no_game_state(server, duel_game, keys):
    v = server.ingest(mail(signed(order_text(server, duel_game, "east", "FIRE 1\n"), keys["mallory"]),
                           sender="mallory@evil.test"))
    assert v.status == "rejected" and "not the key registered" in v.reasons[0]
    to, body, _ = last_reply(server, "reject")
    assert to == "mallory@evil.test"
    # nothing about the game's state goes to an unauthenticated sender
    assert "turn 1" not in body and "fire" not in body.lower().replace("fire 1", "")


def test_one_side_cannot_send_for_the_other(server, duel_game, keys):
    """West's valid signature on a file claiming Side: east (and east's From) is refused; west is told."""
    text = order_text(server, duel_game, "east", "FIRE 1\n")
    v = server.ingest(mail(signed(text, keys["west"]), sender="east@players.test"))
    assert v.status == "rejected" and "key of side 'west'" in v.reasons[0]
    assert last_reply(server, "reject")[0] == "west@players.test"


def test_missing_signature(server, duel_game, keys):
    v = server.ingest(mail(order_text(server, duel_game, "east", "FIRE 1\n")))
    assert v.status == "rejected" and "not signed" in v.reasons[0]


def test_illegal_order_names_line_rule_and_what_is_legal(server, duel_game, keys):
    v = server.ingest(orders_mail(server, duel_game, "east", "FIRE 9\nMOVE 0\nDANCE\n", keys["east"]))
    assert v.status == "rejected"
    body = last_reply(server, "reject")[1]
    assert "line 7: 'FIRE 9'" in body and "line 9: 'DANCE'" in body and "[duel 1]" in body


def test_unknown_side(server, duel_game, keys):
    text = order_text(server, duel_game, "east", "FIRE 1\n").replace("Side: east", "Side: north")
    v = server.ingest(mail(signed(text, keys["east"])))
    assert v.status == "rejected" and "no side 'north'" in v.reasons[0] and "east, west" in v.reasons[0]


@pytest.mark.parametrize("raw, fragment", [
    (b"", "empty"),
    (b"From: a@b.test\n\nhello, no orders here\n", "no order file"),
    (b"\x00\xff\xfe garbage", "no order file"),
    (b"From: a@b.test\n\nPBEM-ORDERS 1\nGame: g1\n\nFIRE 1\n", "no 'Side' line"),
])
def test_garbage_gets_a_clear_rejection(server, duel_game, raw, fragment):
    v = server.ingest(raw)
    assert v.status == "rejected" and fragment in " ".join(v.reasons)


def test_oversize_message_is_kept_and_rejected(server, duel_game, keys):
    raw = mail("x" * (server.home.max_message_bytes + 10), sender="east@players.test")
    v = server.ingest(raw)
    assert v.status == "rejected" and "limit" in v.reasons[0]
    assert last_reply(server, "reject")[0] == "east@players.test"


def test_auto_replies_are_discarded_without_reply(server, duel_game, keys):
    before = len(replies(server))
    v = server.ingest(mail("I am on holiday", headers={"Auto-Submitted": "auto-replied"}))
    assert v.status == "discarded" and len(replies(server)) == before


def test_own_mail_coming_back_is_not_answered(server, duel_game, keys):
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]))
    own = replies(server, "ack")[-1][2]
    before = len(replies(server))
    assert server.ingest(bytes(own)).status == "discarded"
    assert len(replies(server)) == before


def test_every_message_is_kept_and_duplicates_are_ignored(server, duel_game, keys):
    raws = [mail("hello"), orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"]), b"junk"]
    for raw in raws:
        server.ingest(raw)
    assert server.ingest(raws[0]).status == "duplicate"
    with server.session() as s:
        stored = s.exec(select(Inbound).order_by(Inbound.id)).all()
    assert [r.raw for r in stored] == raws
    assert [r.status for r in stored] == ["rejected", "accepted", "rejected"]


class CrashingChecks:
    """The duel, but order checking has a bug on the word BOOM."""

    def __init__(self):
        import dataclasses

        from tests.fixtures.duel import RULESET as DUEL

        self._duel = DUEL
        self.info = dataclasses.replace(DUEL.info, name="crashy")

    def __getattr__(self, name):
        return getattr(self._duel, name)

    def check_orders(self, view, seat, lines):
        if any(line.verb == "BOOM" for line in lines):
            raise KeyError("a bug in the rules")
        return self._duel.check_orders(view, seat, lines)


@pytest.mark.logs_errors
def test_a_bug_met_by_one_message_keeps_it_and_spares_the_batch(tmp_path, db_url, clock, keys):
    from pbem.home import Home
    from pbem.server import Server
    from tests.fixtures.duel import RULESET as DUEL

    server = Server.init(Home(tmp_path / "h"), db_url, clock=clock, extra_rulesets=(DUEL, CrashingChecks()))
    server.home.config.setdefault("server", {})["gm"] = "gm@club.test"
    server.new_game("c", "crashy", "standard", seed=b"a seed of 16+ bytes")
    for seat in ("east", "west"):
        server.add_player("c", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    batch = [orders_mail(server, "c", "east", "BOOM\n", keys["east"]),
             orders_mail(server, "c", "west", "FIRE 2\n", keys["west"])]
    verdicts = server.ingest_many(batch, advance=False)
    assert [v.status for v in verdicts] == ["failed", "accepted"]
    with server.session() as s:
        rows = {r.raw: r for r in s.exec(select(Inbound)).all()}
    assert rows[batch[0]].status == "error" and "KeyError" in rows[batch[0]].verdict
    to = [r[0] for r in replies(server)]
    assert "east@players.test" in to and "gm@club.test" in to
    server.engine.dispose()


def _stranger_answer(server, text, key, subject="orders"):
    v = server.ingest(mail(signed(text, key) if key else text, sender="mallory@evil.test", subject=subject,
                           msg_id="<same@evil.test>".replace("same", str(len(replies(server))))))
    to, body, _ = last_reply(server, "reject")
    assert to == "mallory@evil.test"
    return v.status, (v.game, v.seat, v.reasons), re.sub(r"<\d+@evil.test>", "<ID>", body)


@pytest.mark.parametrize("what", ["unregistered key", "tampered", "unsigned"])
def test_a_stranger_learns_nothing_of_which_games_and_sides_exist(server, duel_game, keys, what):
    """The same answer for a real game and side, an unknown game and an unknown side (issue 12)."""
    real = order_text(server, duel_game, "east", "FIRE 1\n")
    texts = [real, real.replace("Game: g1", "Game: nosuchgame"), real.replace("Side: east", "Side: north")]
    answers = []
    for text in texts:
        key = None if what == "unsigned" else keys["mallory"]
        if what == "tampered":  # a signature by the registered key over other text
            text = text + sshsig.sign(keys["east"], text.replace("FIRE 1", "FIRE 2").encode())
            key = None
        answers.append(_stranger_answer(server, text, key))
    assert answers[0][0] == "rejected"
    assert answers[0] == answers[1] == answers[2], answers
    assert answers[0][1][:2] == ("", "")
    body = answers[0][2]
    assert "g1" not in body and "nosuchgame" not in body and "east" not in body and "north" not in body


def test_a_stranger_answer_names_no_game_for_a_gm_command(gm_keyed_server, keys):
    from pbem.core.orders import order_file_text

    answers = []
    for game in ("g1", "nosuchgame"):
        text = order_file_text("command", {"Game": game}, "PAUSE\n")
        answers.append(_stranger_answer(gm_keyed_server, text, keys["mallory"]))
    assert answers[0] == answers[1] and "not a signed order file of a game and side this server knows" in answers[0][2]


def test_the_gm_is_told_of_an_unknown_game(gm_keyed_server, keys):
    from pbem.core.orders import order_file_text

    text = order_file_text("command", {"Game": "g9"}, "PAUSE\n")
    v = gm_keyed_server.ingest(mail(signed(text, keys["gm"]), sender="gm@club.test"))
    assert v.status == "rejected" and "there is no game 'g9' on this server" in v.reasons[0]


@pytest.fixture
def gm_keyed_server(server, duel_game, keys):
    (server.home.path / "gm.pub").write_text(sshsig.public_key_of(keys["gm"]).line() + "\n")
    server.home.config.setdefault("server", {}).update({"gm_key": "gm.pub", "gm": "gm@club.test"})
    return server
