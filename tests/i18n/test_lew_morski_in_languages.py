"""Kryptonim: Lew Morski in Russian and Polish: its sitreps, order forms, acknowledgements and refusals say
nothing in the catalog's English, its rule texts keep their English bytes (the goldens check those), and a
game by mail whose players read Russian, Polish and English replays byte for byte."""
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
from pbem.journal import events_json, rolls_json, sitrep_context
from pbem.render import environment, render_sitrep
from pbem.replay import replay
from pbem.rules import RULESETS
from pbem.server import Server
from pbem.store.models import Journal, Outbox, Sitrep
from pbem.rules.lew_morski import movement, ruleset
from pbem.rules.lew_morski.tables import stats
from tests.helpers import orders_mail
from tests.i18n.helpers import untranslated

LEW = next(r for r in RULESETS if r.info.name == "lew_morski")
SEED = hashlib.sha256(b"kryptonim lew morski, read in three languages").digest()
LANGS = {"de-1": "ru", "gb-1": "pl", "de-2": "en", "gb-2": "ru"}


def test_the_outcome_is_english_in_the_state_and_translated_when_read():
    out = ruleset.decide(12, 10, 3, 8, reason="the stage limit (12) is reached (option stage_limit)")
    assert out.text == ("Germany wins a full victory [R 8.2] (DE 12/10 VP, GB 3/8 VP; the stage limit (12) is "
                        "reached (option stage_limit))")  # what the f-string it replaced wrote
    assert isinstance(out.text, Text)
    assert i18n.local(out.text, "ru") == ("Германия: полная победа [R 8.2] (DE 12/10 ПО, GB 3/8 ПО; достигнут предел "
                                          "этапов (12) (опция stage_limit))")
    assert i18n.local(out.text, "pl").startswith("Niemcy: pełne zwycięstwo [R 8.2] (DE 12/10 PZ")


PLURALS = {"ru": ["в пути 1 гекс,", "в пути 2 гекса,", "в пути 5 гексов,", "в пути 21 гекс,"],
           "pl": ["ścieżka ma 1 heks,", "ścieżka ma 2 heksy,", "ścieżka ma 5 heksów,", "ścieżka ma 21 heksów,"],
           "en": ["path has 1 hexes", "path has 2 hexes", "path has 5 hexes", "path has 21 hexes"]}  # as always
BOMBS = {"ru": ["1 серия бомб", "2 серии бомб", "5 серий бомб", "21 серия бомб"],
         "pl": ["1 seria bomb", "2 serie bomb", "5 serii bomb", "21 serii bomb"],
         "en": ["1 bomb series", "2 bomb series", "5 bomb series", "21 bomb series"]}


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_counts_take_the_plural_forms_of_the_readers_language(lang):
    st = stats("spitfire", False, False, 0)
    limit = movement.limit(st, "none")
    refusal = movement.shape_problem("F" * (limit + 1), st, "none", (20, 14), "N")  # the rules' own text
    assert isinstance(refusal, Text) and refusal == f"path has {limit + 1} hexes but its limit this stage is {limit}"
    got = [i18n.local(tn_("path has %(n)s hexes but its limit this stage is %(lim)s",
                          "path has %(n)s hexes but its limit this stage is %(lim)s", n, lim=limit), lang)
           for n in (1, 2, 5, 21)]
    assert [g[:len(p)] for g, p in zip(got, PLURALS[lang], strict=True)] == PLURALS[lang], got
    env = environment(lang=lang)
    series = [env.from_string('{{ ngettext("%(num)s bomb series", "%(num)s bomb series", n) }}').render(n=n)
              for n in (1, 2, 5, 21)]
    assert series == BOMBS[lang]


@pytest.fixture(scope="module")
def playthrough():
    return play(LEW, "w1", SEED, max_phases=400, options={"setup": "auto", "players_per_side": 2})


def _sitrep(step, seat: str, lang: str) -> tuple[str, str]:
    view = LEW.view(step.state, seat)
    phase = LEW.phase(step.state)
    out = LEW.outcome(step.state)
    game = {"id": "g", "title": "Lew", "ruleset": "lew_morski", "scenario": "w1", "turn": 1,
            "phase": "p", "phase_title": i18n.local(phase.title, lang) if phase else "over",
            "prompt": i18n.local(phase.prompt, lang) if phase else "", "deadline": "", "clock": "",
            "seed_commitment": "c", "seed": None, "server_key": "", "seed_salt": None, "journal_head": "h",
            "notices": [], "outcome": {"winner": out.winner, "text": i18n.local(out.text, lang)} if out else None}
    form = i18n.local(LEW.order_form(view, seat), lang) if phase else None
    entries = [{"events": events_json(step.events), "rolls": rolls_json(step.rolls), "payload": {}}]
    ctx = sitrep_context(game=game, seat={"name": seat, "title": "", "side": seat[:2]}, view=view, entries=entries,
                         form=form, picture=False, write=lambda msg: i18n.render(msg, lang))
    text, html = render_sitrep("lew_morski", ctx, lang=lang)
    return text, html


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_sitrep_and_form_of_a_lew_morski_game_is_in_the_readers_language(playthrough, lang):
    assert LEW.phase(playthrough[-1].state) is None  # the whole game: moves, shots, bombs, the end
    kinds = {e.kind for step in playthrough for e in step.events}
    assert {"move", "fire", "end"} <= kinds, kinds
    for n, step in enumerate(playthrough):
        for seat in LANGS:
            text, html = _sitrep(step, seat, lang)
            for part in (text, html):
                assert not untranslated(part, lang, "lew_morski"), (n, seat, untranslated(part, lang, "lew_morski"))
    text, _ = _sitrep(playthrough[-1], "gb-1", lang)
    assert {"ru": "Этап", "pl": "Etap"}[lang] in text or {"ru": "игра окончена", "pl": "koniec gry"}[lang] in text


def test_an_english_reader_gets_the_same_bytes_as_the_rules_wrote(playthrough):
    step = next(s for s in playthrough if any(e.kind == "fire" for e in s.events))
    text, _ = _sitrep(step, "gb-1", "en")
    for e in step.events:
        if "gb-1" in e.visible_to or "gb" in e.visible_to:
            assert str(e.text) in text
    assert any("msg" in e for e in events_json(step.events))  # the journal keeps the messages


@pytest.fixture
def lew_by_mail(tmp_path):
    home = Home(tmp_path / "home")
    Server.init(home)
    server = Server(home.load())
    server.new_game("lew", "lew_morski", "w1", options={"setup": "auto", "players_per_side": 2}, seed=SEED,
                    settings={"max_missing": 99})
    keys = {seat: sshsig.generate_private_key() for seat in LANGS}
    for seat, lang in LANGS.items():
        i18n.set_seat_lang(server.deps, "lew", seat, lang)
        server.add_player("lew", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat], seat).line())
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


def test_a_refusal_cites_the_rulebook_and_says_what_is_legal_in_russian_and_polish(lew_by_mail):
    server, keys = lew_by_mail
    tick(server)
    owing = sorted(server.status("lew")["owing"])
    for seat in (s for s in owing if LANGS[s] != "en"):
        lang = LANGS[seat]
        got = server.ingest(orders_mail(server, "lew", seat, "MOVE NOSUCH FFF\nFIRE NOSUCH\n", keys[seat]))
        assert got.status == "rejected"
        text = _mails(server, f"{seat}@players.test", "reject")[-1]
        expected = {"ru": "у вас нет самолёта NOSUCH (ваши: ", "pl": "nie masz samolotu NOSUCH (twoje: "}[lang]
        assert expected in text and "[R 4]" in text, text
        assert not untranslated(text, lang, "lew_morski"), untranslated(text, lang, "lew_morski")


def test_a_lew_morski_game_in_russian_polish_and_english_by_mail_replays_byte_for_byte(lew_by_mail):
    server, keys = lew_by_mail
    tick(server)
    n = 0
    while (st := server.status("lew"))["status"] == "active":
        for seat in st["owing"]:
            n += 1
            _send_orders(server, "lew", seat, keys[seat], n)
        assert not tick(server).held
        assert n < 600
    with server.session() as s:
        rows = s.exec(select(Sitrep)).all()
        marked = sum("msg" in e for j in s.exec(select(Journal)).all() for e in json.loads(j.events_json))
    assert marked > 20  # the rule texts were kept with their messages
    assert {r.renderer.rpartition(", lang ")[2] if ", lang " in r.renderer else "en" for r in rows} == \
        {"ru", "pl", "en"}
    for seat, lang in LANGS.items():
        for kind in ("ack", "sitrep"):
            texts = _mails(server, f"{seat}@players.test", kind)
            assert texts, (seat, kind)
            if lang == "en":
                continue
            for text in texts:
                assert not untranslated(text, lang, "lew_morski"), (seat, kind, untranslated(text, lang, "lew_morski"))
    assert "GAME OVER" in server.sitrep("lew", "de-2").text
    assert "ИГРА ОКОНЧЕНА" in server.sitrep("lew", "de-1").text
    report = replay(server, "lew")
    assert report.ok, report.problems
    assert report.sitreps == len(rows) and not report.notes  # every sitrep compared byte for byte
