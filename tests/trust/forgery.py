"""Claim 2, no forgery and no replay: attacks on signed order mail, each counted.

:func:`run` plays a duel game on a real :class:`pbem.server.Server` and sends, through
``Server.ingest``, every attack of the issue: a wrong key; every byte of a signed message
flipped in turn (a sample, or all); a header (game, side, turn, phase) edited after signing; a
signature cut from another file; another side's key; the server's own namespace; a genuine
message under another side's From; orders re-sent after their phase resolved; a replaced file
sent again; orders signed for a phase that is over; and, once GM commands exist, a
``PBEM-COMMAND 1`` file signed by a player.  Each attempt must be rejected with a reply to the
right address (or, for the From spoof, accepted for the side that signed it and acknowledged
only to that side's registered address).  A byte flip is a forgery only if it is accepted with
orders other than the genuine ones.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from sqlmodel import select

from pbem.crypto import sshsig
from pbem.store.models import Inbound, Outbox, Submission
from tests.helpers import mail, order_text, signed


@dataclass
class Tally:
    tried: Counter = field(default_factory=Counter)
    rejected: Counter = field(default_factory=Counter)
    forged: Counter = field(default_factory=Counter)  # accepted although it must not be
    unanswered: Counter = field(default_factory=Counter)  # rejected with no reply queued to the right address
    benign: Counter = field(default_factory=Counter)  # flips that left the signed text as signed
    problems: list[str] = field(default_factory=list)

    @property
    def attempts(self) -> int:
        return sum(self.tried.values())

    @property
    def forgeries(self) -> int:
        return sum(self.forged.values())


def _outbox(server) -> list[Outbox]:
    with server.session() as s:
        return list(s.exec(select(Outbox).order_by(Outbox.id)).all())


def _bytes(server, row: Outbox) -> bytes:
    """The reply as mailed (the outbox may keep its parts until it is sent)."""
    return server.outbox_bytes(row) if hasattr(server, "outbox_bytes") else row.raw


def _current(server, game, seat, turn, phase) -> list[str]:
    with server.session() as s:
        return [r.text for r in s.exec(select(Submission).where(
            Submission.game_id == game, Submission.seat == seat, Submission.turn == turn,
            Submission.phase == phase, Submission.current == True)).all()]  # noqa: E712


class Attacker:
    def __init__(self, server, keys, tally: Tally, progress=None) -> None:
        self.server, self.keys, self.t, self.progress = server, keys, tally, progress

    def reject(self, category: str, raw: bytes, reply_to: str | None, code: str = "") -> None:
        """Send ``raw``; it must be rejected, with a reply to ``reply_to`` (None: no reply expected)."""
        before = len(_outbox(self.server))
        v = self.server.ingest(raw)
        self.t.tried[category] += 1
        if self.progress:
            self.progress()
        if v.status == "accepted":
            self.t.forged[category] += 1
            self.t.problems.append(f"{category}: accepted: {v.line()}")
            return
        if v.status != "rejected":
            self.t.forged[category] += v.status not in ("rejected", "discarded")
            self.t.problems.append(f"{category}: {v.line()}")
            return
        self.t.rejected[category] += 1
        new = _outbox(self.server)[before:]
        replies = [r for r in new if r.kind == "reject"]
        ok = (not replies) if reply_to is None else (len(replies) == 1 and replies[0].to_addr == reply_to
                                                     and len(new) == 1)
        if code and replies:  # the reply names the reason's code, so the player knows what to fix
            ok = ok and all(code.encode() in _bytes(self.server, r) for r in replies)
        if not ok:
            self.t.unanswered[category] += 1
            self.t.problems.append(f"{category}: reply {[(r.kind, r.to_addr) for r in new]} "
                                   f"expected to {reply_to}: {v.line()}")


def setup_games(server, keys) -> None:
    for gid in ("g1", "g2"):
        server.new_game(gid, "duel", "standard", seed=f"forgery test game {gid}".encode())
        for seat in ("east", "west"):
            server.add_player(gid, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())


def flip_positions(raw: bytes) -> range:
    """The bytes of the order file and its signature inside a message."""
    start = raw.index(b"PBEM-ORDERS 1")
    end = raw.index(sshsig.END.encode()) + len(sshsig.END)
    return range(start, end)


def run(server, keys, *, flips: int | None = 200, seed: int = 7, progress=None) -> Tally:
    """All attacks on a fresh server (games g1, g2 are created); ``flips`` None flips every byte."""
    t = Tally()
    a = Attacker(server, keys, t, progress)
    rnd = random.Random(seed)
    setup_games(server, keys)
    east, west, mallory = keys["east"], keys["west"], keys["mallory"]
    g1_text = order_text(server, "g1", "east", "FIRE 2\nMOVE 0\n")

    # 1. a key nobody registered, from the victim's address and from the attacker's own
    a.reject("wrong key", mail(signed(g1_text, mallory), sender="east@players.test"), "east@players.test",
             "signature/wrong_key")
    a.reject("wrong key", mail(signed(g1_text, mallory), sender="mallory@evil.test"), "mallory@evil.test",
             "signature/wrong_key")

    # 2. every byte of a genuine signed message flipped in turn (a sample of positions)
    genuine = mail(signed(g1_text, east), sender="east@players.test", msg_id="<genuine@players.test>")
    positions = list(flip_positions(genuine))
    if flips is not None and flips < len(positions):
        positions = sorted(rnd.sample(positions, flips))
    for i in positions:
        raw = bytearray(genuine)
        raw[i] ^= rnd.randrange(1, 256)
        before = len(_outbox(server))
        v = server.ingest(bytes(raw))
        t.tried["byte flip"] += 1
        if progress:
            progress()
        if v.status == "accepted":
            texts = _current(server, "g1", "east", 1, "fire")
            if v.seat == "east" and texts == [g1_text]:
                t.benign["byte flip"] += 1  # e.g. a flip inside the armor's line breaks: same signature bytes
            else:
                t.forged["byte flip"] += 1
                t.problems.append(f"byte flip at {i}: accepted {texts}")
        else:
            t.rejected["byte flip"] += 1
            new = _outbox(server)[before:]
            if v.status == "rejected" and not (len(new) == 1 and new[0].kind == "reject"):
                # a flip in the From header's bytes cannot happen (only the order file is flipped):
                # every rejected flip has exactly one reply, to the sender or the identified signer
                t.unanswered["byte flip"] += 1
                t.problems.append(f"byte flip at {i}: {v.line()}; replies {[(r.kind, r.to_addr) for r in new]}")

    # 3. headers edited after signing: the signature binds game, side, turn and phase
    sig = sshsig.sign(east, g1_text.encode())
    g2_text = order_text(server, "g2", "east", "FIRE 2\nMOVE 0\n")
    g2_sig = sshsig.sign(east, g2_text.encode())
    for category, text in (
        ("signed for another game", g2_text.replace("Game: g2", "Game: g1")),
        ("signed for another game", g1_text.replace("Game: g1", "Game: g2")),
        ("signed for another turn", g1_text.replace("Turn: 1", "Turn: 2")),
        ("signed for another phase", g1_text.replace("Phase: fire", "Phase: hit-east")),
    ):
        use = g2_sig if "another game" in category and "Game: g1" in text else sig
        a.reject(category, mail(text + use, sender="east@players.test"), "east@players.test", "signature/bad")
    a.reject("signature cut from another file", mail(g1_text + g2_sig, sender="east@players.test"),
             "east@players.test", "signature/bad")
    a.reject("signature in the server's namespace",
             mail(g1_text + sshsig.sign(east, g1_text.encode(), sshsig.SERVER_NAMESPACE), sender="east@players.test"),
             "east@players.test", "signature/namespace")

    # 4. one side's key for the other side: refused, and the signer (not the victim) is told
    as_east = order_text(server, "g1", "east", "FIRE 5\n")
    a.reject("signed for another side", mail(signed(as_east, west), sender="east@players.test"),
             "west@players.test", "signature/wrong_key")
    a.reject("signed for another side",
             mail(signed(as_east.replace("Side: east", "Side: west"), east), sender="west@players.test"),
             "east@players.test", "signature/wrong_key")

    # 5. a genuine message under another side's From: counted for the signer only, answered to the signer only
    before = len(_outbox(server))
    v = server.ingest(mail(signed(g1_text, east), sender="west@players.test"))
    t.tried["another side's From"] += 1
    new = _outbox(server)[before:]
    if v.status != "accepted" or v.seat != "east" or [r.to_addr for r in new] != ["east@players.test"] \
            or _current(server, "g1", "west", 1, "fire"):
        t.forged["another side's From"] += 1
        t.problems.append(f"From spoof: {v.line()} replies {[(r.kind, r.to_addr) for r in new]}")
    else:
        t.rejected["another side's From"] += 1  # not credited to the From: the signer's own orders, ack to the signer

    # 6. replays: east's and west's turn-1 orders resolve the phase; the same signed files come back
    west_text = order_text(server, "g1", "west", "FIRE 4\nMOVE 0\n")
    west_raw = signed(west_text, west)
    assert server.ingest(mail(west_raw, sender="west@players.test")).status == "accepted"
    st = server.status("g1")
    if (st["turn"], st["phase"]) == (1, "fire"):
        t.problems.append("the phase did not resolve with both orders in")
    a.reject("replay after resolution", mail(signed(g1_text, east) + "\n", sender="east@players.test"),
             "east@players.test", "submission/replay")
    a.reject("replay after resolution", mail(west_raw, sender="west@players.test", subject="again"),
             "west@players.test", "submission/replay")
    # fresh signature over a resolved phase's header: stale
    a.reject("orders for a resolved phase", mail(signed(g1_text.replace("FIRE 2", "FIRE 3"), east),
                                                 sender="east@players.test"), "east@players.test",
             "submission/stale")
    # a replaced file sent again (by anyone who saw it) cannot bring the old orders back
    st = server.status("g1")
    for _ in range(4):  # answer interrupt windows until a phase in which both sides owe orders
        if st["status"] != "active" or st["window"] != "interrupt":
            break
        for seat in st["owing"]:
            server.ingest(mail(signed(order_text(server, "g1", seat, "DIG\n"), keys[seat]),
                               sender=f"{seat}@players.test"))
        st = server.status("g1")
    if st["status"] == "active" and sorted(st["owing"]) == ["east", "west"]:
        first = signed(order_text(server, "g1", "east", "FIRE 1\n"), east)
        assert server.ingest(mail(first, sender="east@players.test")).status == "accepted"
        assert server.ingest(mail(signed(order_text(server, "g1", "east", "FIRE 5\n"), east),
                                  sender="east@players.test")).status == "accepted"
        a.reject("replay of replaced orders", mail(first, sender="mallory@evil.test"), "east@players.test",
                 "submission/replay")
    else:
        t.problems.append(f"game g1 is not waiting for both sides after turn 1: {st['status']} {st['owing']}")

    # 7. GM commands signed by a player (PBEM-COMMAND 1, accepted only with the GM key)
    gm_commands(server, keys, a)
    return t


def gm_commands(server, keys, a: Attacker) -> None:
    """Players (and strangers) sign GM commands: every one refused, state untouched."""
    try:
        from pbem.gm import GM_VERBS
    except ImportError:  # GM commands not in the platform yet
        return
    from pbem.core.orders import order_file_text

    args = {"EXTEND": "48", "ROLLBACK": "1", "REPLACE": "east 1 FIRE", "RESEND": "east", "END": "draw"}
    before = server.status("g1")
    for verb in sorted(GM_VERBS):
        line = f"{verb} {args.get(verb, '')}".strip() + "\n"
        text = order_file_text("command", {"Game": "g1"}, line)
        a.reject("GM command signed by a player", mail(signed(text, keys["east"]), sender="east@players.test"),
                 "east@players.test", "command/forbidden")
        text = order_file_text("command", {"Game": "g1", "Side": "west"}, line)
        a.reject("GM command signed by a player", mail(signed(text, keys["west"]), sender="west@players.test"),
                 "west@players.test", "command/forbidden")
        a.reject("GM command signed by a stranger", mail(signed(text, keys["mallory"]), sender="gm@evil.test"),
                 "gm@evil.test", "signature/wrong_key")
    after = server.status("g1")
    for k in ("status", "turn", "phase", "deadline", "journal_head"):
        if before[k] != after[k]:
            a.t.forged["GM command signed by a player"] += 1
            a.t.problems.append(f"a refused GM command changed the game's {k}: {before[k]} -> {after[k]}")
