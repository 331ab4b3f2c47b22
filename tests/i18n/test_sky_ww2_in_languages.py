"""Sky of WWII in Russian and Polish: its sitreps, order forms, acknowledgements and refusals say nothing in
the catalog's English, its rule texts keep their English bytes, counts take the reader's plural forms, and a
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
from pbem.journal import events_json, sitrep_context
from pbem.render import render_sitrep
from pbem.replay import replay
from pbem.rules import RULESETS
from pbem.server import Server
from pbem.store.models import Journal, Outbox, Sitrep
from tests.helpers import orders_mail
from tests.i18n.helpers import untranslated

SKY = next(r for r in RULESETS if r.info.name == "sky_ww2")
SEED = hashlib.sha256(b"sky of the second world war, read in three languages").digest()
SEATS = ("coalition-1", "axis-1")

DECK = "the deck ran out: the discard pile (%(n)s cards) is shuffled into a new deck"
STAYS = "%(card)s stays by %(id)s's hangar for %(n)s turn(s) %(ref)s"
PLURALS = {"ru": (["(1 карта)", "(2 карты)", "(5 карт)", "(21 карта)"], ["1 ход", "2 хода", "5 ходов", "21 ход"]),
           "pl": (["(1 karta)", "(2 karty)", "(5 kart)", "(21 kart)"], ["1 turę", "2 tury", "5 tur", "21 tur"]),
           "en": (["(1 cards)", "(2 cards)", "(5 cards)", "(21 cards)"],
                  ["1 turn(s)", "2 turn(s)", "5 turn(s)", "21 turn(s)"])}


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_counts_take_the_plural_forms_of_the_readers_language(lang):
    """English keeps its one form (its bytes are the goldens'); Russian and Polish pick theirs by the count."""
    cards, turns = PLURALS[lang]
    got = [i18n.local(tn_(DECK, DECK, n), lang) for n in (1, 2, 5, 21)]
    assert all(c in g for c, g in zip(cards, got, strict=True)), got
    got = [i18n.local(tn_(STAYS, STAYS, n, card="Fire", id="c1", ref="[x]"), lang) for n in (1, 2, 5, 21)]
    assert all(t in g for t, g in zip(turns, got, strict=True)), got


GAMES = {"quick, a turn a mail": ("quick", {"max_rounds": 0, "cadence": "turn"}),
         "battle, a round plan a mail": ("battle", {"max_rounds": 0, "cadence": "round"})}


@pytest.fixture(scope="module", params=sorted(GAMES))
def playthrough(request):
    scenario, options = GAMES[request.param]
    return play(SKY, scenario, SEED, options=options, max_phases=1500)


def _sitrep(step, seat: str, lang: str) -> tuple[str, str]:
    view = SKY.view(step.state, seat)
    phase = SKY.phase(step.state)
    outcome = SKY.outcome(step.state)
    game = {"id": "g", "title": "Sky", "ruleset": "sky_ww2", "scenario": "quick", "turn": 1,
            "phase": "p", "phase_title": i18n.local(phase.title, lang) if phase else "over",
            "prompt": i18n.local(phase.prompt, lang) if phase else "", "deadline": "", "clock": "",
            "seed_commitment": "c", "seed": None, "server_key": "", "seed_salt": None, "journal_head": "h",
            "notices": [], "outcome": {"winner": outcome.winner, "text": i18n.local(outcome.text, lang)}
            if outcome else None}
    form = i18n.local(SKY.order_form(view, seat), lang) if phase else None
    entries = [{"events": events_json(step.events), "rolls": [], "payload": {}}]
    ctx = sitrep_context(game=game, seat={"name": seat, "title": "", "side": view["side"]}, view=view,
                         entries=entries, form=form, picture=False, write=lambda msg: i18n.render(msg, lang))
    return render_sitrep("sky_ww2", ctx, lang=lang)


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_sitrep_and_form_of_a_sky_game_is_in_the_readers_language(playthrough, lang):
    last = playthrough[-1].state
    assert SKY.phase(last) is None and SKY.outcome(last) is not None  # the whole game, to its end
    kinds = {e.kind for step in playthrough for e in step.events}
    assert {"activate", "beat", "damage", "over"} <= kinds
    for n, step in enumerate(playthrough):
        if n % 3 and n != len(playthrough) - 1:  # every third step, and the end: the game is long
            continue
        for seat in SEATS:
            text, html = _sitrep(step, seat, lang)
            for part in (text, html):
                assert not untranslated(part, lang, "sky_ww2"), (n, seat, untranslated(part, lang, "sky_ww2"))
    end, _ = _sitrep(playthrough[-1], "axis-1", lang)
    assert {"ru": "ИТОГ:", "pl": "WYNIK:"}[lang] in end


def test_an_english_reader_gets_the_same_bytes_as_the_rules_wrote(playthrough):
    step = next(s for s in playthrough if any(e.kind == "beat" for e in s.events))
    text, _ = _sitrep(step, "axis-1", "en")
    for e in step.events:
        if "axis-1" in e.visible_to:
            assert f"- {str(e.text)}" in text
    marked = [e for e in events_json(step.events) if "msg" in e]
    assert marked and all(isinstance(e.text, Text) for e in step.events if e.kind == "beat")
    # a rule the event cites names the rulebook's heading, and the Russian text cites the same heading
    cited = next(e.text for s in playthrough for e in s.events if "[«" in e.text and isinstance(e.text, Text))
    heading = cited[cited.index("[«"):cited.index("]", cited.index("[«")) + 1]
    assert heading in i18n.local(cited, "ru") and i18n.local(cited, "ru") != cited and "[L" not in cited


@pytest.fixture
def sky_by_mail(tmp_path):
    home = Home(tmp_path / "home")
    Server.init(home)
    server = Server(home.load())
    server.new_game("sky", "sky_ww2", "quick", seed=SEED, settings={"max_missing": 99})
    keys = {seat: sshsig.generate_private_key() for seat in SEATS}
    for seat, lang in zip(SEATS, ("ru", "pl"), strict=True):
        i18n.set_seat_lang(server.deps, "sky", seat, lang)
        server.add_player("sky", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat], seat).line())
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


@pytest.mark.parametrize("line", ["ATTACK nosuch TARGET c1", "SEQUENCE zz9"])
def test_a_refusal_cites_the_rulebook_and_says_what_is_legal_in_the_readers_language(sky_by_mail, line):
    server, keys = sky_by_mail
    tick(server)
    for seat, lang in zip(SEATS, ("ru", "pl"), strict=True):
        got = server.ingest(orders_mail(server, "sky", seat, line + "\n", keys[seat]))
        assert got.status == "rejected"
        text = _mails(server, f"{seat}@players.test", "reject")[-1]
        expected = {("ATTACK", "ru"): ("неизвестная карта 'nosuch' (карты называются по id", "«Боевая колода»"),
                    ("ATTACK", "pl"): ("nieznana karta 'nosuch' (karty nazywa się po id", "«Боевая колода»"),
                    ("SEQUENCE", "ru"): ("SEQUENCE перечисляет самолеты вашей стороны по одному разу (", "«Начало игры»"),
                    ("SEQUENCE", "pl"): ("SEQUENCE wymienia samoloty twojej strony po jednym razie (", "«Начало игры»")}
        assert all(part in text for part in expected[line.split()[0], lang]), text
        assert not untranslated(text, lang, "sky_ww2"), untranslated(text, lang, "sky_ww2")


def test_a_sky_game_in_russian_polish_and_english_by_mail_replays_byte_for_byte(sky_by_mail):
    server, keys = sky_by_mail
    tick(server)
    n, polish = 0, {}
    while (st := server.status("sky"))["status"] == "active":
        if n >= 6 and not polish:  # the axis player changes to English mid-game: his later mail is English
            polish = {kind: _mails(server, "axis-1@players.test", kind) for kind in ("ack", "sitrep")}
            i18n.set_seat_lang(server.deps, "sky", "axis-1", "en")
        for seat in st["owing"]:
            n += 1
            _send_orders(server, "sky", seat, keys[seat], n)
        assert not tick(server).held
        assert n < 600
    with server.session() as s:
        rows = s.exec(select(Sitrep)).all()
        marked = sum("msg" in e for j in s.exec(select(Journal)).all() for e in json.loads(j.events_json))
    assert marked > 20  # the rule texts were kept with their messages
    assert {r.renderer.rpartition(", lang ")[2] if ", lang " in r.renderer else "en" for r in rows} == \
        {"ru", "pl", "en"}
    for seat, lang in zip(SEATS, ("ru", "pl"), strict=True):
        for kind in ("ack", "sitrep"):
            texts = _mails(server, f"{seat}@players.test", kind) if lang == "ru" else polish[kind]
            assert texts
            for text in texts:
                assert not untranslated(text, lang, "sky_ww2"), (seat, kind, untranslated(text, lang, "sky_ww2"))
    assert "RESULT:" in server.sitrep("sky", "axis-1").text
    assert "ИТОГ:" in server.sitrep("sky", "coalition-1").text
    report = replay(server, "sky")
    assert report.ok, report.problems
    assert report.sitreps == len(rows) and not report.notes  # every sitrep compared byte for byte
