"""Axis & Allies Miniatures in Russian and Polish: its sitreps, order forms, acknowledgements and refusals
say nothing in the catalog's English (in open games, in fog, with two players a side, with movement lists),
its rule texts keep their English bytes, and a game by mail whose players read Russian, Polish and English
replays byte for byte."""
from __future__ import annotations

import email
import email.policy
import hashlib
import json

import pytest
from sqlmodel import select

from pbem import i18n
from pbem.core.play import play
from pbem.core.texts import Text, tn_
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.demo import _send_orders
from pbem.home import Home
from pbem.journal import events_json, sitrep_context
from pbem.render import render_sitrep
from pbem.replay import replay
from pbem.rules import RULESETS
from pbem.server import Server
from pbem.store.models import Journal, Outbox, Sitrep
from tests.helpers import orders_mail
from tests.i18n.helpers import untranslated

AAM = next(r for r in RULESETS if r.info.name == "aa_miniatures")
SEED = hashlib.sha256(b"axis and allies miniatures, read in three languages").digest()
GAME = "aa_miniatures"


PLURALS = {"ru": (["1 попадание", "2 попадания", "5 попаданий", "21 попадание"],
                  ["1 успех", "2 успеха", "5 успехов", "21 успех"]),
           "pl": (["1 trafienie", "2 trafienia", "5 trafień", "21 trafień"],
                  ["1 sukces", "2 sukcesy", "5 sukcesów", "21 sukcesów"]),
           "en": (["1 hit", "2 hits", "5 hits", "21 hits"], ["1 success", "2 successes", "5 successes", "21 successes"])}


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_hits_and_successes_take_the_plural_forms_of_the_readers_language(lang):
    hits = [i18n.local(tn_("%(n)d hit", "%(n)d hits", n), lang) for n in (1, 2, 5, 21)]
    successes = [i18n.local(tn_("%(n)d success", "%(n)d successes", n), lang) for n in (1, 2, 5, 21)]
    assert (hits, successes) == PLURALS[lang]


def _seats(step) -> list[str]:
    return list(step.state.seats)


def _sitrep(step, seat: str, lang: str) -> tuple[str, str, str | None]:
    view = AAM.view(step.state, seat)
    phase = AAM.phase(step.state)
    game = {"id": "g", "title": "AAM", "ruleset": GAME, "scenario": "s", "turn": 1,
            "phase": "p", "phase_title": i18n.local(phase.title, lang) if phase else "over",
            "prompt": i18n.local(phase.prompt, lang) if phase else "", "deadline": "", "clock": "",
            "seed_commitment": "c", "seed": None, "server_key": "", "seed_salt": None, "journal_head": "h",
            "notices": [], "outcome": None}
    form = i18n.local(AAM.order_form(view, seat), lang) if phase else None
    entries = [{"events": events_json(step.events), "rolls": [], "payload": {}}]
    side = view.get("side", seat)
    ctx = sitrep_context(game=game, seat={"name": seat, "title": "", "side": side}, view=view, entries=entries,
                         form=form, picture=False, write=lambda msg: i18n.render(msg, lang))
    text, html = render_sitrep(GAME, ctx, lang=lang)
    return text, html, form


OPTIONS = [("skirmish", {}), ("assault", {"visibility": "fog", "players_per_side": 2}),
           ("meeting", {"movement": "alternate"}), ("los", {"army": "build"})]


@pytest.fixture(scope="module", params=OPTIONS, ids=lambda p: f"{p[0]}{p[1] or ''}")
def playthrough(request):
    scenario, options = request.param
    return play(AAM, scenario, SEED, options=options, max_phases=60)


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_sitrep_and_form_of_a_game_is_in_the_readers_language(playthrough, lang):
    kinds = {e.kind for step in playthrough for e in step.events}
    assert {"move", "attack"} <= kinds
    for n, step in enumerate(playthrough):
        for seat in _seats(step):
            for part in _sitrep(step, seat, lang):
                if part:
                    assert not untranslated(part, lang, GAME), (n, seat, untranslated(part, lang, GAME))


def test_an_english_reader_gets_the_same_bytes_as_the_rules_wrote(playthrough):
    step = next(s for s in playthrough if any(e.kind == "attack" for e in s.events))
    seat = _seats(step)[0]
    text, _, _ = _sitrep(step, seat, "en")
    fights = {"attack", "reaction", "cover", "hit", "air", "casualty", "skipped"}
    for e in step.events:
        if e.kind in fights and e.visible_to is not None and seat in e.visible_to:
            assert f"- {str(e.text)}" in text
    assert any(isinstance(e.text, Text) for e in step.events)
    assert all("msg" in e for e in events_json(step.events) if e["kind"] == "attack")


@pytest.fixture
def aam_by_mail(tmp_path):
    home = Home(tmp_path / "home")
    Server.init(home)
    server = Server(home.load())
    server.new_game("hill", GAME, "skirmish", seed=SEED, settings={"max_missing": 99})
    keys = {seat: sshsig.generate_private_key() for seat in ("allies", "axis")}
    for seat, lang in (("allies", "ru"), ("axis", "pl")):
        i18n.set_seat_lang(server.deps, "hill", seat, lang)
        server.add_player("hill", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat], seat).line())
    yield server, keys
    server.engine.dispose()


def _mails(server, to: str, kind: str) -> list[str]:
    with server.session() as s:
        rows = s.exec(select(Outbox).where(Outbox.to_addr == to, Outbox.kind == kind).order_by(Outbox.id)).all()
    out = []
    for row in rows:
        msg = email.message_from_bytes(server.outbox_bytes(row), policy=email.policy.default)
        out.append(msg.get_body(("plain",)).get_content())
    return out


def test_a_refusal_cites_the_rulebook_and_says_what_is_legal_in_the_readers_language(aam_by_mail):
    server, keys = aam_by_mail
    tick(server)
    seat = sorted(server.status("hill")["owing"])[0]
    lang = {"allies": "ru", "axis": "pl"}[seat]
    got = server.ingest(orders_mail(server, "hill", seat, "FACE nosuch N\nMOVE nosuch Z99\n", keys[seat]))
    assert got.status == "rejected"
    text = _mails(server, f"{seat}@players.test", "reject")[-1]
    expected = {"ru": ("не ваш отряд (ваши: ", "Направление фронта отряда, L15-L35"),
                "pl": ("nie jest twoją jednostką (twoje: ", "Kierunek frontu jednostki, L15-L35")}
    assert all(part in text for part in expected[lang]), text
    assert not untranslated(text, lang, GAME), untranslated(text, lang, GAME)


def test_a_game_in_russian_polish_and_english_by_mail_replays_byte_for_byte(aam_by_mail):
    server, keys = aam_by_mail
    tick(server)
    n, polish = 0, {}
    while (st := server.status("hill"))["status"] == "active":
        if n >= 8 and not polish:  # the Axis player changes to English mid-game: his later mail is English
            polish = {kind: _mails(server, "axis@players.test", kind) for kind in ("ack", "sitrep")}
            i18n.set_seat_lang(server.deps, "hill", "axis", "en")
        for seat in st["owing"]:
            n += 1
            _send_orders(server, "hill", seat, keys[seat], n)
        assert not tick(server).held
        assert n < 400
    assert polish
    with server.session() as s:
        rows = s.exec(select(Sitrep)).all()
        marked = sum("msg" in e for j in s.exec(select(Journal)).all() for e in json.loads(j.events_json))
    assert marked > 20  # the rule texts were kept with their messages
    assert {r.renderer.rpartition(", lang ")[2] if ", lang " in r.renderer else "en" for r in rows} == \
        {"ru", "pl", "en"}
    for seat, lang in (("allies", "ru"), ("axis", "pl")):
        for kind in ("ack", "sitrep"):
            texts = _mails(server, "allies@players.test", kind) if seat == "allies" else polish[kind]
            assert texts
            for text in texts:
                assert not untranslated(text, lang, GAME), (seat, kind, untranslated(text, lang, GAME))
    assert "ИГРА ОКОНЧЕНА" in server.sitrep("hill", "allies").text
    assert "GAME OVER" in server.sitrep("hill", "axis").text
    report = replay(server, "hill")
    assert report.ok, report.problems
    assert report.sitreps == len(rows) and not report.notes  # every sitrep compared byte for byte
