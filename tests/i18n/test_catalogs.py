"""The shipped catalogs: every marked message translated, plural forms right, compiled catalogs current."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem import i18n
from pbem.render import render_reply

ROOT = Path(__file__).resolve().parents[2]  # the checkout: its code and templates are what is extracted
LOCALE = ROOT / "pbem" / "locale"
SHIPPED = list(i18n.languages()[1:])  # every catalog found: a language added is checked from the start
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "t_": None, "tn_": (1, 2)}  # t_/tn_: rule texts


def extracted() -> dict[str, str]:
    """Every message marked in the code, the rules and the templates, as Babel extracts it (babel.cfg), with where."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[str, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS,
            directory_filter=lambda d: Path(d).relative_to(ROOT).parts[:1] in ((), ("pbem",), ("rules",), ("templates",))):
        msgid = message[0] if isinstance(message, tuple) else message
        found.setdefault(msgid, f"{filename}:{lineno}")
    return found


def catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "pbem.po", "rb") as f:
        return read_po(f, locale=lang)


def test_the_shipped_languages_are_english_russian_and_polish():
    assert i18n.languages()[0] == "en" and {"ru", "pl"} <= set(SHIPPED)


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_marked_message_has_a_translation(lang):
    cat = catalog(lang)
    missing = []
    for msgid, where in sorted(extracted().items()):
        m = cat.get(msgid)
        strings = (m.string if isinstance(m.string, tuple) else (m.string,)) if m is not None else ("",)
        if m is None or m.fuzzy or not all(strings):
            missing.append(f"{where}: {msgid!r}")
    assert not missing, f"{len(missing)} messages have no {lang} translation (pbem/locale/{lang}):\n" + \
        "\n".join(missing[:40])


def test_marked_messages_are_found_in_code_and_templates():
    found = extracted()
    assert "NOT ACCEPTED" in found and "Reminder: your orders for game %(game)s, turn %(turn)s, %(phase)s " \
        "are due %(when)s%(grace)s." in found and "pbem: message not accepted — %(count)s" in found


@pytest.mark.parametrize("lang", SHIPPED)
def test_translations_keep_the_placeholders_and_plural_count(lang):
    cat = catalog(lang)
    assert cat.num_plurals == 3
    problems = [f"{m.id!r}: {errors}" for m, errors in cat.check()]
    assert not problems, problems
    for m in cat:
        if m.id and m.pluralizable:
            assert len(m.string) == 3 and all(m.string), m.id


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_compiled_catalog_is_the_source_compiled(lang):
    """The .mo files are committed (an installed wheel carries them): they must be the .po compiled."""
    buf = io.BytesIO()
    write_mo(buf, catalog(lang))
    assert (LOCALE / lang / "LC_MESSAGES" / "pbem.mo").read_bytes() == buf.getvalue(), \
        "run: pybabel compile -d pbem/locale -D pbem"


PLURALS = {  # problems, lines: 1, 2, 5, 21
    "ru": (["1 проблема", "2 проблемы", "5 проблем", "21 проблема"],
           ["Принято (1 строка):", "Принято (2 строки):", "Принято (5 строк):", "Принято (21 строка):"]),
    "pl": (["1 problem", "2 problemy", "5 problemów", "21 problemów"],
           ["Przyjęto (1 wiersz):", "Przyjęto (2 wiersze):", "Przyjęto (5 wierszy):", "Przyjęto (21 wierszy):"]),
    "en": (["1 problem", "2 problems", "5 problems", "21 problems"],
           ["Accepted (1 line):", "Accepted (2 lines):", "Accepted (5 lines):", "Accepted (21 lines):"]),
}


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_plural_forms_for_1_2_5_21(lang):
    counts = [1, 2, 5, 21]
    ngettext = i18n.ngettext(lang)
    problems, lines = PLURALS[lang]
    assert [ngettext("%(num)d problem", "%(num)d problems", n) % {"num": n} for n in counts] == problems
    for n, expected in zip(counts, lines, strict=True):  # the same rule in a template (Jinja's ngettext)
        ctx = {"game_id": "g", "seat": "east", "turn": 1, "phase": "fire", "replaced": "", "unchanged": False,
               "lines": [{"line_no": i + 1, "text": "FIRE 1"} for i in range(n)], "notes": [], "fingerprint": "k",
               "resolved": False, "completes": False, "deadline": "", "message_id": ""}
        assert expected in render_reply("ack", ctx, lang=lang)[0].splitlines()


def test_an_unknown_language_is_refused_and_english_is_the_fallback():
    with pytest.raises(i18n.LanguageError):
        i18n.check_lang("xx")
    assert i18n.check_lang(" RU ") == "ru"
    assert i18n.effective("", "pl") == "pl" and i18n.effective("ru", "pl") == "ru"
    assert i18n.effective("xx", None) == "en"
