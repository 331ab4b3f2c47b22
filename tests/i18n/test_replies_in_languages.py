"""A Russian and a Polish player read their acknowledgements, rejections, reminders and sitreps in their
language, while an English player's mail stays as it was; the subjects keep their sortable tokens."""
from __future__ import annotations

import email
import email.policy

import pytest
from sqlmodel import select

from pbem import i18n
from pbem.core.errors import PbemError
from pbem.crypto import sshsig
from pbem.store.models import Outbox, Seat, Sitrep
from tests.helpers import orders_mail
from tests.i18n.helpers import english_fragments, untranslated


def mails(server, to: str):
    """(kind, subject, text, html) of every mail to ``to``, in order."""
    with server.session() as s:
        rows = s.exec(select(Outbox).where(Outbox.to_addr == to).order_by(Outbox.id)).all()
    out = []
    for row in rows:
        msg = email.message_from_bytes(server.outbox_bytes(row), policy=email.policy.default)
        html = msg.get_body(("html",))
        out.append((row.kind, msg["Subject"], msg.get_body(("plain",)).get_content(),
                    html.get_content() if html is not None else ""))
    return out


@pytest.fixture
def polyglot(server, keys, clock):
    """Duel g1: east reads Russian, west Polish; reminded, then east's orders taken and west's refused."""
    server.new_game("g1", "duel", "standard", seed=b"fixed seed of game g1")
    for seat, lang in (("east", "ru"), ("west", "pl")):
        i18n.set_seat_lang(server.deps, "g1", seat, lang)
        server.add_player("g1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line(),
                          tz="Europe/Warsaw")
    clock.advance(hours=40)  # within the 12 hours before the deadline
    assert server.remind() == 2
    assert server.ingest(orders_mail(server, "g1", "east", "FIRE 2\n", keys["east"]), advance=False).status \
        == "accepted"
    assert server.ingest(orders_mail(server, "g1", "west", "FIRE 9\nJUMP\n", keys["west"])).status == "rejected"
    return server


def test_the_fragments_checked_are_the_catalogs_sentences():
    for lang in ("ru", "pl"):
        frags = english_fragments(lang)
        assert "Nothing in it was applied; a copy is kept for audit" in frags
        assert "You may send new orders to replace these until" in frags
        assert "Reply to your latest sitrep with the signed order form" in frags


@pytest.mark.parametrize("seat, lang", [("east", "ru"), ("west", "pl")])
def test_a_players_mail_is_in_his_language(polyglot, seat, lang):
    got = mails(polyglot, f"{seat}@players.test")
    kinds = [k for k, *_ in got]
    assert "sitrep" in kinds and "notice" in kinds and ("ack" if seat == "east" else "reject") in kinds
    for kind, subject, text, html in got:
        for part in (subject, text, html):
            assert not untranslated(part, lang), (kind, untranslated(part, lang), part)
    _, _, text, _ = next(m for m in got if m[0] == "notice")
    expected = {"ru": "Напоминание: ваши приказы для партии g1", "pl": "Przypomnienie: twoje rozkazy do partii g1"}
    assert expected[lang] in text
    month = {"ru": "нояб.", "pl": "lis"}[lang]  # dates in the reader's language and zone (Babel)
    assert f" {month} 2026 13:00 Europe/Warsaw (12:00 UTC)" in text


def test_the_subjects_keep_their_sortable_tokens(polyglot):
    east = {k: s for k, s, *_ in mails(polyglot, "east@players.test")}
    west = {k: s for k, s, *_ in mails(polyglot, "west@players.test")}
    assert east["ack"] == "[g1] accepted: east turn 1 fire"
    assert west["reject"] == "[g1] REJECTED: west turn 1 fire — 2 problemy"
    assert east["notice"].startswith("[g1] приказы до ")
    assert west["sitrep"] == "[g1] west: tura 1 fire and move"  # the phase title is the game's text


def test_acks_rejections_and_sitreps_say_it_in_words_of_the_catalog(polyglot):
    east = "\n".join(t for _, _, t, _ in mails(polyglot, "east@players.test"))
    west = "\n".join(t for _, _, t, _ in mails(polyglot, "west@players.test"))
    assert "ПРИКАЗЫ ПРИНЯТЫ — партия g1, east, ход 1, фаза fire" in east
    assert "Принято (1 строка):" in east and "СВОДКА ОБСТАНОВКИ" in east
    assert "NIE PRZYJĘTO — partia g1, west" in west and "2 problemy:" in west and "RAPORT SYTUACYJNY" in west
    assert "FIRE 2" in east  # order keywords stay as they are


def test_sitreps_record_their_language(polyglot):
    with polyglot.session() as s:
        stamps = {r.seat: r.renderer for r in s.exec(select(Sitrep)).all()}
    assert stamps["east"].endswith(", lang ru") and stamps["west"].endswith(", lang pl")


def test_an_english_player_reads_english(server, duel_game, keys, clock):
    clock.advance(hours=40)
    server.remind()
    got = mails(server, "east@players.test")
    assert {k for k, *_ in got} == {"sitrep", "notice"}
    for kind, _subject, text, _ in got:
        assert "Reminder: your orders for game g1" in text or kind != "notice"
        assert untranslated(text, "ru")  # the check finds English where there is English
    with server.session() as s:
        assert all(", lang " not in r.renderer for r in s.exec(select(Sitrep)).all())


def test_the_server_default_is_the_language_of_seats_that_chose_none(tmp_path, keys):
    from pbem.home import Home
    from pbem.server import Server
    from tests.fixtures.duel import RULESET as DUEL

    home = Home(tmp_path / "home")
    srv = Server.init(home, f"sqlite:///{tmp_path}/pbem.db", extra_rulesets=(DUEL,))
    cfg = home.config_path
    cfg.write_text(cfg.read_text().replace("[server]\n", '[server]\nlang = "pl"\n', 1))
    srv = Server(Home(tmp_path / "home").load(), extra_rulesets=(DUEL,))
    srv.new_game("g1", "duel", "standard", seed=b"fixed seed of game g1")
    i18n.set_seat_lang(srv.deps, "g1", "east", "ru")
    for seat in ("east", "west"):
        srv.add_player("g1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    assert "СВОДКА ОБСТАНОВКИ" in mails(srv, "east@players.test")[0][2]
    assert "RAPORT SYTUACYJNY" in mails(srv, "west@players.test")[0][2]
    srv.engine.dispose()


def test_an_unknown_language_is_refused(server, duel_game):
    with pytest.raises(PbemError, match="pbem speaks en, pl, ru"):
        i18n.set_seat_lang(server.deps, duel_game, "east", "de")
    with server.session() as s:
        assert {r.lang for r in s.exec(select(Seat)).all()} == {""}
