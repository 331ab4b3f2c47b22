"""The Chase of the Bismarck in Russian and Polish: its sitreps, order forms, acknowledgements and refusals
say nothing in the catalog's English, its rule texts keep their English bytes, and a game by mail whose
players read Russian, Polish and (after a change of language) English replays byte for byte."""
from __future__ import annotations

import email
import email.policy
import hashlib
import json

import pytest
from sqlmodel import select

from pbem import i18n
from pbem.core.play import play
from pbem.core.texts import Text, from_json, join, t_, tn_
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

BISMARCK = next(r for r in RULESETS if r.info.name == "bismarck")
SEED = hashlib.sha256(b"the chase of the bismarck, read in three languages").digest()


def test_a_marked_text_is_its_english_and_keeps_its_message():
    hit = tn_("%(why)s: roll %(nat)s%(drm)+d = %(total)s, %(n)s hit",
              "%(why)s: roll %(nat)s%(drm)+d = %(total)s, %(n)s hits", 2,
              why=t_("torpedo %(sid)s at %(tgt)s", sid="hood", tgt="bismarck"), nat=7, drm=-1, total=6)
    assert hit == "torpedo hood at bismarck: roll 7-1 = 6, 2 hits"  # what the f-string it replaced wrote
    assert isinstance(hit, Text) and json.loads(json.dumps(hit.msg)) == hit.msg
    assert from_json(hit.msg) == hit and isinstance(from_json(hit.msg), Text)
    assert i18n.render(hit.msg, "ru") == "торпеда hood по bismarck: бросок 7-1 = 6, 2 попадания"
    lines = join("; ", [hit, "plain"])
    assert lines == f"{hit}; plain" and i18n.local(lines, "pl").endswith("2 trafienia; plain")
    assert i18n.local("not marked", "ru") == "not marked"


PLURALS = {"ru": ["1 попадание", "2 попадания", "5 попаданий", "21 попадание"],
           "pl": ["1 trafienie", "2 trafienia", "5 trafień", "21 trafień"],
           "en": ["1 hit", "2 hits", "5 hits", "21 hits"]}


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_rule_texts_take_the_plural_forms_of_the_readers_language(lang):
    got = [i18n.local(tn_("%(why)s: roll %(nat)s%(drm)+d = %(total)s, %(n)s hit",
                          "%(why)s: roll %(nat)s%(drm)+d = %(total)s, %(n)s hits", n,
                          why="x", nat=5, drm=0, total=5), lang).rpartition(", ")[2] for n in (1, 2, 5, 21)]
    assert got == PLURALS[lang]
    hexes = [i18n.local(tn_("up to %(n)s hex", "up to %(n)s hexes", n), lang) for n in (1, 2, 5, 21)]
    assert hexes == {"ru": ["до 1 гекса", "до 2 гексов", "до 5 гексов", "до 21 гекса"],
                     "pl": ["do 1 heksu", "do 2 heksów", "do 5 heksów", "do 21 heksów"],
                     "en": ["up to 1 hex", "up to 2 hexes", "up to 5 hexes", "up to 21 hexes"]}[lang]


@pytest.fixture(scope="module")
def playthrough():
    return play(BISMARCK, "last-dash", SEED, max_phases=40)


def _sitrep(step, seat: str, lang: str) -> tuple[str, str]:
    view = BISMARCK.view(step.state, seat)
    phase = BISMARCK.phase(step.state)
    game = {"id": "g", "title": "Bismarck", "ruleset": "bismarck", "scenario": "last-dash", "turn": 1,
            "phase": "p", "phase_title": i18n.local(phase.title, lang) if phase else "over",
            "prompt": i18n.local(phase.prompt, lang) if phase else "", "deadline": "", "clock": "",
            "seed_commitment": "c", "seed": None, "server_key": "", "seed_salt": None, "journal_head": "h",
            "notices": [], "outcome": None}
    form = i18n.local(BISMARCK.order_form(view, seat), lang) if phase else None
    entries = [{"events": events_json(step.events), "rolls": [], "payload": {}}]
    ctx = sitrep_context(game=game, seat={"name": seat, "title": "", "side": seat}, view=view, entries=entries,
                         form=form, picture=False, write=lambda msg: i18n.render(msg, lang))
    return render_sitrep("bismarck", ctx, lang=lang)


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_sitrep_and_form_of_a_bismarck_game_is_in_the_readers_language(playthrough, lang):
    assert BISMARCK.phase(playthrough[-1].state) is None  # the whole game: battles, convoys, the end
    kinds = {e.kind for step in playthrough for e in step.events}
    assert {"weather", "report", "end"} <= kinds
    for n, step in enumerate(playthrough):
        for seat in ("german", "allied"):
            text, html = _sitrep(step, seat, lang)
            for part in (text, html):
                assert not untranslated(part, lang, "bismarck"), (n, seat, untranslated(part, lang, "bismarck"))


def test_an_english_reader_gets_the_same_bytes_as_the_rules_wrote(playthrough):
    step = playthrough[5]
    text, _ = _sitrep(step, "allied", "en")
    for e in step.events:
        if "allied" in e.visible_to:
            assert f"- {str(e.text)}" in text or "\n" in e.text  # battle logs span lines
    assert any("msg" in e for e in events_json(step.events))  # the journal keeps the messages


@pytest.fixture
def bismarck_by_mail(tmp_path):
    home = Home(tmp_path / "home")
    Server.init(home)
    server = Server(home.load())
    server.new_game("chase", "bismarck", "last-dash", seed=SEED, settings={"max_missing": 99})
    keys = {seat: sshsig.generate_private_key() for seat in ("german", "allied")}
    for seat, lang in (("german", "ru"), ("allied", "pl")):
        i18n.set_seat_lang(server.deps, "chase", seat, lang)
        server.add_player("chase", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat], seat).line())
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


def test_a_refusal_cites_the_rulebook_and_says_what_is_legal_in_russian(bismarck_by_mail):
    server, keys = bismarck_by_mail
    tick(server)
    seat = sorted(server.status("chase")["owing"])[0]
    lang = {"german": "ru", "allied": "pl"}[seat]
    got = server.ingest(orders_mail(server, "chase", seat, "MOVE NOSUCH A1\nSEARCH Z99\n", keys[seat]))
    assert got.status == "rejected"
    text = _mails(server, f"{seat}@players.test", "reject")[-1]
    expected = {"ru": ("у вас нет юнита NOSUCH (юниты: ", "[2.3]"), "pl": ("nie masz jednostki NOSUCH (jednostki: ", "[2.3]")}
    assert all(part in text for part in expected[lang]), text
    assert not untranslated(text, lang, "bismarck"), untranslated(text, lang, "bismarck")


def test_a_bismarck_game_in_russian_polish_and_english_by_mail_replays_byte_for_byte(bismarck_by_mail):
    server, keys = bismarck_by_mail
    tick(server)
    n, polish = 0, {}
    while (st := server.status("chase"))["status"] == "active":
        if n >= 12 and not polish:  # the Allied player changes to English mid-game: his later mail is English
            polish = {kind: _mails(server, "allied@players.test", kind) for kind in ("ack", "sitrep")}
            i18n.set_seat_lang(server.deps, "chase", "allied", "en")
        for seat in st["owing"]:
            n += 1
            _send_orders(server, "chase", seat, keys[seat], n)
        assert not tick(server).held
        assert n < 400
    with server.session() as s:
        rows = s.exec(select(Sitrep)).all()
        marked = sum("msg" in e for j in s.exec(select(Journal)).all() for e in json.loads(j.events_json))
    assert marked > 20  # the rule texts were kept with their messages
    assert {r.renderer.rpartition(", lang ")[2] if ", lang " in r.renderer else "en" for r in rows} == \
        {"ru", "pl", "en"}
    for seat, lang in (("german", "ru"), ("allied", "pl")):
        for kind in ("ack", "sitrep"):
            texts = _mails(server, "german@players.test", kind) if seat == "german" else polish[kind]
            assert texts
            for text in texts:
                assert not untranslated(text, lang, "bismarck"), (seat, kind, untranslated(text, lang, "bismarck"))
    assert "GAME OVER" in server.sitrep("chase", "allied").text
    assert "ИГРА ОКОНЧЕНА" in server.sitrep("chase", "german").text
    report = replay(server, "chase")
    assert report.ok, report.problems
    assert report.sitreps == len(rows) and not report.notes  # every sitrep compared byte for byte
