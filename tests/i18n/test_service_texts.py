"""The server's own texts in a Russian and a Polish player's language: replies to command files (PROFILE
included), the club's ladder mails, the clock line, digests, alarms, and the web pages; with plural forms right
for 1, 2, 5 and 21, and dates in the reader's locale and zone.  An English player's texts stay as they were."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import col, select

from pbem import i18n
from pbem.club import ladder
from pbem.club.players import set_profile, sync
from pbem.clocks.seats import clock_line
from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.notices.digest import left_text
from pbem.store.models import Outbox, Player
from tests.club.conftest import gm_server, member_keys  # noqa: F401 (fixtures)
from tests.helpers import mail, signed
from tests.i18n.helpers import untranslated
from tests.i18n.test_replies_in_languages import mails
from tests.notices.conftest import fp, new_game, players, walk  # noqa: F401 (players: a fixture)
from tests.test_gm import command_mail
from tests.web.conftest import client, game, web_server  # noqa: F401 (fixtures)
from tests.web.test_browser import site  # noqa: F401 (a fixture)

COUNTS = (1, 2, 5, 21)


def clean(lang: str, *texts: str) -> None:
    """None of the texts keeps an English sentence of the catalog."""
    for text in texts:
        assert not untranslated(text, lang), (untranslated(text, lang), text)


# ---------------------------------------------------------------- replies to command files


def test_a_profile_reply_is_in_the_language_just_chosen(server, duel_game, keys):
    verdict = server.ingest(command_mail(duel_game, "PROFILE lang ru\nPROFILE name Ivan\n", keys["east"], side="east"))
    # the operator's line stays English; the player's reply is in the language he has just chosen
    assert verdict.reasons == ["your language is now 'ru' (in 1 game)", "your name is now 'Ivan'"], verdict.reasons
    kind, subject, text, html = mails(server, "east@players.test")[-1]
    assert kind == "ack" and subject == "[g1] commands: east — выполнено: 2"
    assert text.startswith("КОМАНДЫ ВЫПОЛНЕНЫ\n")
    assert "- ваш язык теперь 'ru' (в 1 партии)" in text and "- ваше имя теперь 'Ivan'" in text
    assert "<li>ваш язык теперь &#x27;ru&#x27; (в 1 партии)</li>" in html
    clean("ru", subject, text, html)


def test_a_refused_command_is_answered_in_polish(server, duel_game, keys):
    i18n.set_seat_lang(server.deps, duel_game, "west", "pl")
    verdict = server.ingest(command_mail(duel_game, "PROFILE tz Europe/Warsaw\nREST sat sun\n", keys["west"],
                                         side="west"))
    assert verdict.reasons[-1].startswith("failed: line ") and "game g1 has no time bank" in verdict.reasons[-1]
    kind, subject, text, html = mails(server, "west@players.test")[-1]
    assert subject == "[g1] commands: west — 1 problem, wykonano: 1"
    assert "NIE PRZYJĘTO — partia g1, west" in text and "partia g1 nie ma banku czasu; dni odpoczynku zatrzymują tylko zegar banku" in text
    assert "Wykonano przed błędem: twoja strefa czasowa to teraz 'Europe/Warsaw'." in text
    clean("pl", text, html)


def test_an_english_players_command_reply_is_as_it_was(server, duel_game, keys):
    server.ingest(command_mail(duel_game, "PROFILE name Eve\n", keys["east"], side="east"))
    _, subject, text, _ = mails(server, "east@players.test")[-1]
    assert subject == "[g1] commands: east — 1 carried out"
    assert text == "COMMANDS CARRIED OUT\n\n- your name is now 'Eve'\n"


# ---------------------------------------------------------------- the club's ladder


def _ladder_command(key, lines: str, who: str, n: int) -> bytes:
    text = order_file_text("command", {"Ladder": "lad"}, f"# file {n}\n{lines}")
    return mail(signed(text, key), sender=f"{who}@elsewhere.test")


def _club_mails(server, address: str) -> list[tuple[str, str]]:
    with server.reader() as s:
        rows = s.exec(select(Outbox).where(Outbox.to_addr == address).order_by(col(Outbox.id))).all()
    return [(r.subject, json.loads(r.parts_json)["text"]) for r in rows]


def test_ladder_answers_and_challenges_reach_each_player_in_his_language(gm_server, member_keys, clock):  # noqa: F811
    server, k = gm_server, member_keys
    langs = {"alice": "pl", "bob": "ru"}
    for name in ("alice", "bob"):
        ladder.add_member(server.services, f"{name}@club.test", sshsig.public_key_of(k[name]).line(), name=name)
    with server.session() as s:
        sync(s, clock.now)
        for name, lang in langs.items():
            set_profile(s, s.get(Player, sshsig.public_key_of(k[name]).fingerprint), clock.now, prefs={"lang": lang},
                        tz="Europe/Warsaw")
        s.commit()
    ladder.new_ladder(server.services, "lad", "duel", above=2, open_max=1, cooldown_days=7, expire_days=3)
    for n, name in enumerate(("alice", "bob")):
        assert server.ingest(_ladder_command(k[name], "JOIN\n", name, n)).status == "accepted"
    assert server.ingest(_ladder_command(k["bob"], "CHALLENGE alice\n", "bob", 2)).reasons[0].startswith(
        "challenge 1: you challenged alice")
    joined, challenged = _club_mails(server, "bob@club.test")
    assert "вы вступили на лестницу lad на место 2 (последнее)" in joined[1]
    assert challenged[0] == "[ladder lad] commands: bob — выполнено: 1"
    assert f"вызов 1: вы вызвали alice ({fp(k, 'alice')}) (место 1); без ответа он истечёт " in challenged[1]
    lapses = clock.now + timedelta(days=3)  # in bob's zone and language
    assert f"{lapses.day} нояб. 2026 13:00 Europe/Warsaw (12:00 UTC)\n" in challenged[1]
    subject, text = _club_mails(server, "alice@club.test")[-1]
    assert subject == "[lad] bob wyzywa cię (wyzwanie 1)"
    assert "Odpowiedz podpisanym plikiem poleceń:\n\nPBEM-COMMAND 1\nLadder: lad\n\nACCEPT 1\n\n" in text
    assert "(albo DECLINE 1) przed " in text and f" {lapses.day} lis 2026 13:00 Europe/Warsaw (12:00 UTC)" in text
    assert server.ingest(_ladder_command(k["alice"], "DECLINE 1\n", "alice", 3)).status == "accepted"
    assert _club_mails(server, "alice@club.test")[-1][1] == "POLECENIA WYKONANE\n\n- odrzuciłeś wyzwanie 1\n"
    subject, text = _club_mails(server, "bob@club.test")[-1]
    assert subject == "[lad] вызов 1 отклонён" and text == "alice (" + fp(k, "alice") + \
        ") отклонил ваш вызов 1 на лестнице lad.\n"
    for name, lang in langs.items():
        clean(lang, *(part for mail_ in _club_mails(server, f"{name}@club.test") for part in mail_))


# ---------------------------------------------------------------- the clock line, digests and alarms


def test_the_clock_line_and_time_left_in_three_languages():
    left = 2 * 86400 + 5 * 3600 + 600
    assert clock_line(left) == "your clock: 2 d 5 h left"
    assert clock_line(left, "ru") == "на ваших часах осталось 2 д 5 ч"
    assert clock_line(left, "pl") == "na twoim zegarze zostało 2 d 5 godz."
    assert clock_line(None, "ru") == ""
    assert [left_text(s, "pl") for s in (-1, 3 * 3600 + 1200, 1200)] == ["po terminie", "3 godz. 20 min", "20 min"]
    assert left_text(3 * 3600 + 1200) == "3 h 20 min"


def test_a_digest_in_russian(server, clock, players):  # noqa: F811
    k = players
    clock.now = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
    for g in ("g1", "g2"):  # alice's seats read Russian from the start (as after her PROFILE lang ru)
        server.new_game(g, "duel", "standard", seed=f"fixed seed of i18n game {g}".encode(),
                        settings={"max_missing": 99})
        i18n.set_seat_lang(server.deps, g, "east", "ru")
        for seat, name in (("east", "alice"), ("west", "bob")):
            server.add_player(g, seat, f"{name}@club.test", sshsig.public_key_of(k[name]).line(),
                              tz="Europe/Moscow" if name == "alice" else "UTC")
    with server.session() as s:
        sync(s, clock.now)
        set_profile(s, s.get(Player, fp(k, "alice")), clock.now, tz="Europe/Moscow",
                    prefs={"notices": "digest", "digest_hour": "7", "lang": "ru"})
        s.commit()
    walk(server, clock, 2)
    digests = [r for r in _rows(server, "alice@club.test") if r.kind == "digest"]
    assert len(digests) == 1
    text, html = json.loads(digests[0].parts_json)["text"], json.loads(digests[0].parts_json)["html"]
    assert digests[0].subject == "pbem digest 2026-10-23: приказы ждут в 2 партиях"
    assert text.startswith("ВАШ ЕЖЕДНЕВНЫЙ ДАЙДЖЕСТ — 23 октября 2026\u202fг. (Europe/Moscow)\n")
    assert "Приказы ждут в 2 партиях:" in text and "бланк приложен как orders-g1-east.txt" in text
    assert "срок вс 25 окт. 2026 15:00 Europe/Moscow (12:00 UTC) — осталось 1 д 23 ч;" in text
    assert "СВОДКА ОБСТАНОВКИ" in text and "Сводки после вашего прошлого дайджеста (2):" in text
    clean("ru", digests[0].subject, text, html)


def test_an_alarm_in_polish(server, clock, players):  # noqa: F811
    k = players
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    i18n.set_seat_lang(server.deps, "g1", "east", "pl")
    with server.session() as s:
        sync(s, clock.now)
        set_profile(s, s.get(Player, fp(k, "alice")), clock.now, prefs={"alarm": "25"})
        s.commit()
    walk(server, clock, 36)
    alarm = next(r for r in _rows(server, "alice@club.test") if "alarm" in r.subject)
    text = json.loads(alarm.parts_json)["text"]
    assert alarm.subject == "[g1] alarm: zostało ci 25 % czasu"
    assert text.startswith("Alarm: zostało ci 25 % czasu w partii g1, tura 1, fire and move (strona east), a "
                           "rozkazów wciąż nie ma.\nTermin: ")
    assert "`pbem orders g1 east` drukuje świeży formularz rozkazów." in text
    clean("pl", alarm.subject, text)


def _rows(server, address):
    with server.reader() as s:
        return s.exec(select(Outbox).where(Outbox.to_addr == address).order_by(col(Outbox.id))).all()


# ---------------------------------------------------------------- plural forms


PLURALS = {
    "ru": {"game": ["в 1 партии", "в 2 партиях", "в 5 партиях", "в 21 партии"],
           "round": ["после 1 тура", "после 2 туров", "после 5 туров", "после 21 тура"],
           "minute": ["1 минуту", "2 минуты", "5 минут", "21 минуту"]},
    "pl": {"game": ["w 1 grze", "w 2 grach", "w 5 grach", "w 21 grach"],
           "round": ["po 1 rundzie", "po 2 rundach", "po 5 rundach", "po 21 rundach"],
           "minute": ["1 minutę", "2 minuty", "5 minut", "21 minut"]},
}


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_plural_forms_of_the_service_texts_for_1_2_5_21(lang):
    from pbem.i18n import said_n

    ngettext = i18n.ngettext(lang)
    said = [said_n("your language is now %(lang)s (in %(num)d game)",
                   "your language is now %(lang)s (in %(num)d games)", n, lang="'x'").in_lang(lang) for n in COUNTS]
    rounds = [ngettext("finished after %(num)d round", "finished after %(num)d rounds", n) % {"num": n}
              for n in COUNTS]
    minutes = [ngettext("It is good for %(num)d minute.", "It is good for %(num)d minutes.", n) % {"num": n}
               for n in COUNTS]
    for got, want in ((said, "game"), (rounds, "round"), (minutes, "minute")):
        assert all(w in g for g, w in zip(got, PLURALS[lang][want], strict=True)), got


def test_a_said_sentence_is_english_where_it_is_printed():
    from pbem.i18n import When, said_, say

    at = datetime(2026, 11, 25, 12, tzinfo=UTC)
    s = said_("challenge %(id)s lapsed at %(when)s", id=3, when=When(at, "2026-11-25 12:00 UTC"))
    assert s == "challenge 3 lapsed at 2026-11-25 12:00 UTC" and f"{s}" == s
    assert say(s, "ru", "Europe/Moscow") == "вызов 3 истёк ср 25 нояб. 2026 15:00 Europe/Moscow (12:00 UTC)"
    assert say(s, "en") == s and say("plain text", "pl") == "plain text"
    assert say(ValueError(s), "pl").startswith("wyzwanie 3 wygasło ")


# ---------------------------------------------------------------- web pages


@pytest.fixture
def polyglot_web(web_server, keys, clock):  # noqa: F811
    """The web's game g1 with east reading Russian and west Polish from the start."""
    web_server.new_game("g1", "duel", "standard", seed=b"fixed seed of game g1 for the web", title="Duel at dawn")
    for seat, lang in (("east", "ru"), ("west", "pl")):
        i18n.set_seat_lang(web_server.deps, "g1", seat, lang)
        web_server.add_player("g1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line(),
                              tz="Europe/Warsaw")
    from tests.helpers import orders_mail

    clock.advance(hours=1)
    assert web_server.ingest(orders_mail(web_server, "g1", "east", "FIRE 2\n", keys["east"])).status == "accepted"
    return web_server


def _page(client, path, lang, **headers):  # noqa: F811
    r = client.get(path, headers=headers)
    assert r.status_code in (200, 403, 404), (path, r.status_code)
    assert f'<html lang="{lang}">' in r.text and r.headers["content-language"] == lang, path
    assert "<script" not in r.text and "default-src 'self'" in r.headers["content-security-policy"]
    clean(lang, r.text)
    return r


def test_a_seats_pages_are_in_its_players_language(polyglot_web, client):  # noqa: F811
    from tests.web.conftest import mailed_link

    for seat, lang, words in (("east", "ru", "Страницы вашей стороны"), ("west", "pl", "Strony twojej strony")):
        client.cookies.clear()
        home = client.get(mailed_link(polyglot_web, seat), follow_redirects=True)
        assert home.status_code == 200 and words in home.text
        _page(client, str(home.url.path), lang)
        assert {"ru": " нояб. 2026 ", "pl": " lis 2026 "}[lang] in home.text  # dates in the reader's locale
        latest = re.search(r'href="(/g/g1/[a-z]+/r/\d+)"', home.text)
        assert latest is not None
        sitrep = _page(client, latest.group(1), lang, **{"accept-language": "en"})  # the seat's, not the browser's
        due = {"ru": "Приказы ожидались до <strong>", "pl": "Termin rozkazów: <strong>"}[lang]
        assert due in sitrep.text, sitrep.text  # the due line is read from a sitrep written in that language
        _page(client, str(home.url.path) + "orders", lang)


@pytest.mark.parametrize("path", ["/", "/archive/", "/ladders/", "/tournaments/", "/ratings/", "/gm/login",
                                  "/archive/nope/", "/ladders/nope"])
def test_public_pages_follow_the_browser_and_the_lang_parameter(polyglot_web, client, path):  # noqa: F811
    r = _page(client, path, "pl", **{"accept-language": "de-DE, pl;q=0.8, ru;q=0.5"})
    assert 'href="?lang=ru"' in r.text or r.status_code != 200
    _page(client, path + "?lang=ru", "ru", **{"accept-language": "pl"})
    assert client.get(path, headers={"accept-language": "de, fr;q=0.9"}).headers["content-language"] == "en"


def test_the_gm_login_page_in_russian(polyglot_web, client):  # noqa: F811
    page = _page(client, "/gm/login?lang=ru", "ru").text
    assert "Вход ведущего" in page and "Он действителен 5 минут." in page
    refused = client.post("/gm/login?lang=ru", data={"challenge": "x", "signature": "y"})
    assert refused.status_code == 403 and "Запрос не годится (" in refused.text
    clean("ru", refused.text)


def test_an_english_reader_sees_the_pages_as_before(polyglot_web, client):  # noqa: F811
    page = client.get("/archive/").text
    assert '<html lang="en">' in page and "Finished games, every side, turn by turn." in page


def test_chromium_in_polish_reads_the_public_pages_in_polish(web_server, game, site, tmp_path):  # noqa: F811
    """Debian's Chromium, told its user reads Polish, gets the Polish pages, and the language links work."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from tests.web.test_browser import CHROMEDRIVER, CHROMIUM, _need_browser

    _need_browser()
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=pl"):
        opts.add_argument(arg)
    opts.add_experimental_option("prefs", {"intl.accept_languages": "pl,en"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        driver.get(f"{site}/archive/")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pl"
        assert driver.find_element(By.TAG_NAME, "h1").text == "Archiwum"
        assert "Żadna partia nie jest jeszcze jawna." in driver.find_element(By.TAG_NAME, "main").text
        driver.find_element(By.LINK_TEXT, "ru").click()
        assert driver.find_element(By.TAG_NAME, "h1").text == "Архив"
        assert "<script" not in driver.page_source
        clean("ru", driver.page_source)
    finally:
        driver.quit()


def test_a_hooks_line_is_in_its_readers_language_and_its_json_stays_english():
    from pbem.notices.webhooks import body, message

    at = datetime(2026, 11, 25, 12, tzinfo=UTC)
    assert message("g1", "east", "turn 1, fire", None, "UTC") == "Your move in game g1 (east): turn 1, fire."
    line = message("g1", "east", "ход 1, fire", at, "Europe/Moscow", "ru")
    assert line == "Ваш ход в партии g1 (east): ход 1, fire, срок ср 25 нояб. 2026 15:00 Europe/Moscow (12:00 UTC)."
    assert set(body("json", line, "g1", "east", "ход 1, fire", at)) == {"text", "game", "seat", "phase", "deadline"}
    assert message("g1", "west", "tura 1, fire", None, "UTC", "pl") == "Twój ruch w partii g1 (west): tura 1, fire."
