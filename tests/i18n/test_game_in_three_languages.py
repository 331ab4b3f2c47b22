"""A game with a Russian, a Polish and an English player, played through the mail path and replayed byte for byte
(each sitrep again in the language it was sent in)."""
from __future__ import annotations

import email
import email.policy
import hashlib
from itertools import cycle

import pytest
from sqlmodel import select

from pbem import i18n
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.demo import _send_orders
from pbem.home import Home
from pbem.replay import replay
from pbem.server import Server
from pbem.store.models import Outbox, Sitrep
from tests.i18n.helpers import untranslated

FINAL = {"ru": "ИГРА ОКОНЧЕНА", "pl": "KONIEC GRY", "en": "GAME OVER"}


@pytest.mark.slow
def test_a_game_in_russian_polish_and_english_by_mail_replays_byte_for_byte(tmp_path):
    home = Home(tmp_path / "home")
    Server.init(home)
    server = Server(home.load())
    server.new_game("tri", "sky_ww2", "quick", {"aircraft": 3, "players": 6},
                    seed=hashlib.sha256(b"three languages, one game").digest(), settings={"max_missing": 99})
    seats = [s["name"] for s in server.status("tri")["seats"]]
    langs = dict(zip(seats, cycle(["ru", "pl", "en"])))
    keys = {}
    for seat in seats:
        keys[seat] = sshsig.generate_private_key()
        i18n.set_seat_lang(server.deps, "tri", seat, langs[seat])
        server.add_player("tri", seat, f"{seat}@players.invalid", sshsig.public_key_of(keys[seat], seat).line())
    tick(server)
    n = 0
    while (st := server.status("tri"))["status"] == "active":
        for seat in st["owing"]:
            n += 1
            _send_orders(server, "tri", seat, keys[seat], n)
        assert not tick(server).held
        assert n < 2000
    assert st["status"] == "over"
    with server.session() as s:
        rows = s.exec(select(Sitrep)).all()
        sent = s.exec(select(Outbox).where(Outbox.kind.in_(["ack", "sitrep"]))).all()  # type: ignore[attr-defined]
    for seat in seats:
        assert FINAL[langs[seat]] in server.sitrep("tri", seat).text
    assert {r.renderer.rpartition(", lang ")[2] if ", lang " in r.renderer else "en" for r in rows} == {"ru", "pl", "en"}
    for row in sent:  # the common texts of every ack and sitrep mailed: in the reader's language
        seat = row.to_addr.split("@")[0]
        if langs[seat] == "en":
            continue
        msg = email.message_from_bytes(server.outbox_bytes(row), policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()
        assert not untranslated(text, langs[seat], "sky_ww2"), (row.kind, untranslated(text, langs[seat], "sky_ww2"))
    report = replay(server, "tri")
    assert report.ok, report.problems
    assert report.sitreps == len(rows) and not report.notes  # every sitrep compared byte for byte
    server.engine.dispose()
